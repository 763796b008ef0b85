"""The shared helpers for files: the TOML checker (flightsim.schema) and atomic writes (flightsim.files)."""

import os
import stat

import pytest

from flightsim.errors import InputError
from flightsim.files import atomic_write, check_writable_folder
from flightsim.schema import Checker, Number, Numbers, Text, read_toml

# ------------------------------------------------------------------ flightsim.files

def umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_atomic_write_gives_the_usual_permissions_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "out.csv"
    with atomic_write(path, newline="") as f:
        f.write("a,b\n")
        assert not path.exists() and len(list(tmp_path.iterdir())) == 1    # only the temporary file so far
    assert path.read_text() == "a,b\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask()
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_a_failed_write_leaves_the_old_file_and_nothing_else(tmp_path):
    path = tmp_path / "out.csv"
    path.write_text("old\n")
    with pytest.raises(RuntimeError):
        with atomic_write(path) as f:
            f.write("half")
            raise RuntimeError("interrupted")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_atomic_write_goes_through_a_symbolic_link(tmp_path):
    target = tmp_path / "real.png"
    link = tmp_path / "link.png"
    target.write_bytes(b"old")
    link.symlink_to(target)
    with atomic_write(link, "wb") as f:
        f.write(b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_a_missing_folder_is_an_os_error_and_nothing_is_created(tmp_path):
    with pytest.raises(FileNotFoundError):
        with atomic_write(tmp_path / "no" / "out.csv") as f:
            f.write("x")
    with pytest.raises(OSError):
        check_writable_folder("/proc")
    check_writable_folder(tmp_path)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ flightsim.schema

def test_checker_fields_report_path_type_range_and_misspelling():
    check = Checker("f.toml")
    rules = {"chord": Number(gt=0.0, le=100.0, unit="ft"), "part": Text(("wing", "fin")),
             "alpha": Numbers(Number(ge=-180.0, le=180.0, unit="deg"), min_length=2, increasing="breakpoints")}
    assert check.fields({"chord": 5, "part": "fin", "alpha": [0, 1]}, "s", rules) == \
        {"chord": 5.0, "part": "fin", "alpha": [0.0, 1.0]}
    cases = [
        ({"chord": "x", "part": "fin", "alpha": [0, 1]}, "f.toml: s.chord: must be a number, got string 'x'"),
        ({"chord": 1e300, "part": "fin", "alpha": [0, 1]},
         "f.toml: s.chord: must be <= 100, got 1e+300 (accepted range 0..100 ft)"),
        ({"chrod": 1, "part": "fin", "alpha": [0, 1]},
         "f.toml: s.chrod: unknown key; did you mean 'chord'? (valid keys: chord, part, alpha)"),
        ({"part": "fin", "alpha": [0, 1]}, "f.toml: s.chord: required key is missing"),
        ({"chord": 1, "part": "fins", "alpha": [0, 1]},
         "f.toml: s.part: unknown value 'fins'; did you mean 'fin'? (valid: wing, fin)"),
        ({"chord": 1, "part": "fin", "alpha": [0, 0]},
         "f.toml: s.alpha[1]: breakpoints must be strictly increasing, got 0.0 after 0.0"),
        ({"chord": 1, "part": "fin", "alpha": [0, True]}, "f.toml: s.alpha[1]: must be a number, got boolean true"),
    ]
    for value, message in cases:
        with pytest.raises(InputError) as err:
            check.fields(value, "s", rules)
        assert str(err.value) == message


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_checker_refuses_nan_and_infinities_bounds_or_not(value):
    check = Checker("f.toml")
    for rule in (Number(), Number(ge=0.0), Number(gt=0.0, le=100.0, unit="ft")):
        with pytest.raises(InputError) as err:
            check.fields({"x": value}, "s", {"x": rule})
        assert str(err.value) == f"f.toml: s.x: must be finite, got {value!r}"
    with pytest.raises(InputError, match=r"^f.toml: s.x\[1\]: must be finite, got nan$"):
        check.fields({"x": [1.0, float("nan")]}, "s", {"x": Numbers()})
    with pytest.raises(InputError, match=r"^f.toml: s.n: must be a whole number, got "):
        check.fields({"n": value}, "s", {"n": Number(ge=0, le=10, integer=True)})


@pytest.mark.parametrize("value", [1e308, -1e308])
def test_checker_refuses_absurd_magnitudes_with_the_accepted_range(value):
    check = Checker("f.toml")
    with pytest.raises(InputError) as err:
        check.fields({"x": value}, "s", {"x": Number(ge=-1e6, le=1e6, unit="ft")})
    op, bound = (">=", "-1e+06") if value < 0 else ("<=", "1e+06")
    assert str(err.value) == f"f.toml: s.x: must be {op} {bound}, got {value!r} (accepted range -1e+06..1e+06 ft)"
    with pytest.raises(InputError, match=r"^f.toml: n: must be finite, got an integer too large for a float$"):
        check.number(10 ** 400, "n")


def test_checker_integers_and_choices():
    check = Checker("f.toml")
    assert check.integer(3, "n", ge=1, le=12) == 3
    with pytest.raises(InputError, match=r"^f.toml: n: must be a whole number, got 2.5$"):
        check.integer(2.5, "n")
    with pytest.raises(InputError, match=r"^f.toml: keys.pitch_upp: unknown action 'pitch_upp'; "
                                         r"did you mean 'pitch_up'\? \(actions: pitch_up, roll_left\)$"):
        check.choice("pitch_upp", "keys.pitch_upp", ("pitch_up", "roll_left"), noun="action", label="actions")


def test_read_toml_names_the_line_of_a_syntax_error(tmp_path):
    path = tmp_path / "f.toml"
    path.write_text('a = 1\nb = "unterminated\n')
    with pytest.raises(InputError) as err:
        read_toml(path)
    assert err.value.where == "line 2, column 18" and err.value.reason.startswith("not valid TOML: ")
    path.write_text("# nothing\n")
    assert read_toml(path, empty_ok=True) == {}
    with pytest.raises(InputError, match="file has no settings"):
        read_toml(path)

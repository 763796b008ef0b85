"""Tests of flightsim.simulation.controls: Controls and the CSV control schedule."""

import dataclasses
import math
import random

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.simulation.controls import (
    CONTROL_NAMES,
    CONTROL_RANGES,
    Controls,
    ControlSchedule,
    flown,
    flown_row,
    refuse_nonfinite,
)


def write(tmp_path, text, name="schedule.csv"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def schedule_error(path, initial=None):
    with pytest.raises(InputError) as info:
        ControlSchedule.from_csv(path, initial or Controls())
    return info.value


# ---------------------------------------------------------------------------
# Controls
# ---------------------------------------------------------------------------

def test_names_ranges_and_fields_agree():
    # the five inputs a schedule and a trace carry, and the trim that offsets the elevator
    assert tuple(f.name for f in dataclasses.fields(Controls)) == CONTROL_NAMES + ("elevator_trim",)
    assert tuple(CONTROL_RANGES) == CONTROL_NAMES
    assert CONTROL_RANGES["throttle"] == (0.0, 1.0)
    assert CONTROL_RANGES["flaps"] == (0.0, 1.0)
    for name in ("elevator", "aileron", "rudder"):
        assert CONTROL_RANGES[name] == (-1.0, 1.0)
    assert CONTROL_RANGES["brake"] == (0.0, 1.0)
    assert CONTROL_RANGES["parking_brake"] == (0.0, 1.0)


def test_defaults_and_as_array():
    assert Controls().as_array().tolist() == [0.0] * 7 + [1.0, 0.0, 0.0, 1.0]       # the engine runs, gear down
    a = Controls(throttle=0.5, elevator=-0.25, aileron=0.75, rudder=-1.0, flaps=1.0).as_array()
    assert a.dtype == np.float64
    assert a.tolist() == [0.5, -0.25, 0.75, -1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    b = Controls(brake=0.5, parking_brake=1.0, engine=0.0).as_array()
    assert b.tolist() == [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]


def test_from_array_round_trip():
    c = Controls(0.1, 0.2, 0.3, 0.4, 0.5)
    assert Controls.from_array(c.as_array()) == c
    with pytest.raises(ValueError):
        Controls.from_array([1.0, 2.0])


def test_clamped_clips_each_control_to_its_range():
    c = Controls(throttle=1.5, elevator=-2.0, aileron=3.0, rudder=-0.5, flaps=-0.1)
    clipped = c.clamped()
    assert clipped == Controls(throttle=1.0, elevator=-1.0, aileron=1.0, rudder=-0.5, flaps=0.0)
    assert c.throttle == 1.5            # the original is unchanged
    assert clipped is not c


@pytest.mark.parametrize("name", [*CONTROL_NAMES, "elevator_trim"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_the_controls_boundary_refuses_nan_and_infinity_naming_the_control(name, bad):
    c = Controls(**{name: bad})
    with pytest.raises(ValueError, match=rf"{name}.*not a finite number"):
        c.clamped()
    with pytest.raises(ValueError, match=rf"{name}.*not a finite number"):
        flown_row(c)


def test_flown_names_the_row_and_entry_and_reads_the_parking_brake_as_set_or_released():
    rows = np.zeros((3, 10))
    rows[2, CONTROL_NAMES.index("rudder")] = math.nan
    with pytest.raises(ValueError, match=r"^controls\[2\]\[3\] \(rudder\): nan is not a finite number$"):
        flown(rows)
    with pytest.raises(ValueError, match=r"^action\[1\] \(aileron\)"):
        refuse_nonfinite([0.0, math.inf, 0.0, 0.0], "action", ("elevator", "aileron", "rudder", "throttle"))
    u = flown([[2.0, -3.0, 0.5, 9.0, -1.0, 0.4, 0.3, 0.7, 1.5, -0.2],
               [0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.7, 0.2, 0.3, 0.6]])
    np.testing.assert_array_equal(u, [[1.0, -1.0, 0.5, 1.0, 0.0, 0.4, 0.0, 1.0, 1.0, 0.0, 1.0],
                                      [0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.3, 0.6, 1.0]])
    # what a Controls flies is the same row, its trim added first
    assert flown_row(Controls(parking_brake=0.6, elevator=0.9, elevator_trim=0.3)).tolist() == \
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]


def test_controls_is_mutable():
    c = Controls()
    c.elevator = 0.5
    assert c.as_array()[1] == 0.5


# ---------------------------------------------------------------------------
# ControlSchedule
# ---------------------------------------------------------------------------

INITIAL = Controls(throttle=0.2, elevator=0.1, aileron=0.0, rudder=0.0, flaps=0.5)


def test_schedule_holds_each_row_until_the_next(tmp_path):
    path = write(tmp_path, "t,elevator,throttle\n1,0.5,\n2,,1\n4.5,-0.5,0\n")
    s = ControlSchedule.from_csv(path, INITIAL)
    assert s.times.tolist() == [1.0, 2.0, 4.5]
    assert len(s) == 3
    assert s.at(0.0) == INITIAL
    assert s.at(0.999) == INITIAL
    # Left-out columns (aileron, rudder, flaps) keep the initial values;
    # the empty throttle cell keeps the previous value.
    assert s.at(1.0) == Controls(throttle=0.2, elevator=0.5, aileron=0.0, rudder=0.0, flaps=0.5)
    assert s.at(1.999) == s.at(1.0)
    assert s.at(2.0) == Controls(throttle=1.0, elevator=0.5, aileron=0.0, rudder=0.0, flaps=0.5)
    assert s.at(4.5) == Controls(throttle=0.0, elevator=-0.5, aileron=0.0, rudder=0.0, flaps=0.5)
    assert s.at(1e9) == s.at(4.5)
    np.testing.assert_array_equal(s.rows, [[0.2, 0.5, 0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                                           [1.0, 0.5, 0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                                           [0.0, -0.5, 0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]])


def test_all_columns_any_order(tmp_path):
    path = write(tmp_path, "t,flaps,rudder,aileron,elevator,throttle\n0,1,-1,0.5,-0.5,0.75\n")
    s = ControlSchedule.from_csv(path, Controls())
    assert s.at(0.0) == Controls(throttle=0.75, elevator=-0.5, aileron=0.5, rudder=-1.0, flaps=1.0)


def test_header_with_only_t_keeps_initial(tmp_path):
    s = ControlSchedule.from_csv(write(tmp_path, "t\n0\n3\n"), INITIAL)
    assert s.at(5.0) == INITIAL


def test_comments_blank_lines_spaces_quotes_and_bom(tmp_path):
    text = "\ufeff# a schedule\n\n t , elevator \n\n# climb\n 0 , \"0.25\"\n"
    s = ControlSchedule.from_csv(write(tmp_path, text), Controls())
    assert s.at(0.0).elevator == 0.25


def test_schedule_copies_initial_and_returns_fresh_controls(tmp_path):
    initial = Controls(throttle=0.3)
    s = ControlSchedule.from_csv(write(tmp_path, "t,elevator\n1,0.5\n"), initial)
    initial.throttle = 0.9              # the app keeps writing its Controls
    assert s.at(0.0).throttle == 0.3
    assert s.at(1.0).throttle == 0.3
    got = s.at(1.0)
    got.elevator = -1.0
    assert s.at(1.0).elevator == 0.5
    before = s.at(0.0)
    before.throttle = 0.0
    assert s.at(0.0).throttle == 0.3


def test_initial_is_clamped(tmp_path):
    s = ControlSchedule.from_csv(write(tmp_path, "t,elevator\n1,0.5\n"), Controls(throttle=2.0))
    assert s.at(0.0).throttle == 1.0
    assert s.at(1.0).throttle == 1.0


def test_arrays_are_read_only(tmp_path):
    s = ControlSchedule.from_csv(write(tmp_path, "t,elevator\n1,0.5\n"), Controls())
    with pytest.raises(ValueError):
        s.times[0] = 0.0
    with pytest.raises(ValueError):
        s.rows[0, 0] = 0.0


def test_at_nan_is_an_error(tmp_path):
    s = ControlSchedule.from_csv(write(tmp_path, "t,elevator\n1,0.5\n"), Controls())
    with pytest.raises(ValueError):
        s.at(math.nan)


def test_direct_construction_validates():
    s = ControlSchedule([0.0, 1.0], [[0, 0, 0, 0, 0], [1, 1, 1, 1, 1]], Controls())
    assert s.at(0.5).flaps == 0.0 and s.at(1.5).flaps == 1.0
    with pytest.raises(ValueError):
        ControlSchedule([1.0, 1.0], [[0] * 5, [0] * 5], Controls())
    with pytest.raises(ValueError):
        ControlSchedule([0.0], [[2.0, 0, 0, 0, 0]], Controls())
    with pytest.raises(ValueError):
        ControlSchedule([0.0, 1.0], [[0] * 5], Controls())


BROKEN = [
    # (file text, where, reason fragment)
    ("", "", "file is empty"),
    ("\n\n# only a comment\n", "", "file is empty"),
    ("elevator,t\n0,0\n", "line 1", "header must start with 't', got 'elevator'"),
    ("0,0.5\n1,0.2\n", "line 1", "header must start with 't', got '0'"),
    ("time,elevator\n0,0\n", "line 1", "header must start with 't'"),
    ("t,elevtor\n0,0\n", "line 1",
     "unknown column 'elevtor'; did you mean 'elevator'? "
     "(valid: t, throttle, elevator, aileron, rudder, flaps, brake, parking_brake, engine, brake_left, "
     "brake_right, gear)"),
    ("t,hook\n0,0\n", "line 1", "unknown column 'hook' (valid: t, throttle,"),
    ("t,gear\n0,0.5\n", "line 2, column gear", "must be 0 (up) or 1 (down), got 0.5"),
    ("t,elevator,elevator\n0,0,0\n", "line 1", "duplicate column 'elevator'"),
    ("t,t\n0,0\n", "line 1", "duplicate column 't'"),
    ("t,elevator,\n0,0,\n", "line 1", "header cell 3 is empty"),
    ("t,elevator\n", "line 1", "no data rows after the header"),
    ("t,elevator\n0,0.1,0.2\n", "line 2", "expected 2 cells (as the header), got 3"),
    ("t,elevator\n0\n", "line 2", "expected 2 cells (as the header), got 1"),
    ("t,elevator\n0,up\n", "line 2, column elevator", "not a number: 'up'"),
    ("t,elevator\nabc,0\n", "line 2, column t", "not a number: 'abc'"),
    ("t,elevator\n,0.5\n", "line 2, column t", "is empty"),
    ("t,elevator\n0,nan\n", "line 2, column elevator", "must be finite, got 'nan'"),
    ("t,elevator\ninf,0\n", "line 2, column t", "must be finite, got 'inf'"),
    ("t,elevator\n0,1.5\n", "line 2, column elevator", "1.5 is out of range [-1, 1]"),
    ("t,throttle\n0,-0.1\n", "line 2, column throttle", "-0.1 is out of range [0, 1]"),
    ("t,flaps\n0,2\n", "line 2, column flaps", "2.0 is out of range [0, 1]"),
    ("t,rudder\n0,-1.01\n", "line 2, column rudder", "out of range [-1, 1]"),
    ("t,elevator\n1,0\n0.5,0\n", "line 3, column t", "t must increase: 0.5 after 1.0"),
    ("t,elevator\n1,0\n1,0.5\n", "line 3, column t", "t must increase: 1.0 after 1.0"),
    ("t,elevator\n-1,0\n", "line 2, column t", "t must be >= 0, got -1.0"),
    ("# c\n\nt,elevator\n0,0\n\n5,x\n", "line 6, column elevator", "not a number: 'x'"),
    ('t,elevator\n0,"0.5\n', "line 2", "not valid CSV"),
    (b"t,elevator\n0,\xff\n", "", "not UTF-8 text"),
]


@pytest.mark.parametrize("text, where, reason", BROKEN, ids=range(len(BROKEN)))
def test_broken_schedule(tmp_path, text, where, reason):
    path = write(tmp_path, text)
    error = schedule_error(path)
    assert error.where == where
    assert reason in error.reason
    assert str(error).startswith(f"{path}: ")


def test_missing_file(tmp_path):
    error = schedule_error(tmp_path / "nope.csv")
    assert str(error) == f"{tmp_path / 'nope.csv'}: file not found"


def test_directory(tmp_path):
    assert schedule_error(tmp_path).reason.startswith("cannot read file")


def test_random_files_raise_only_input_error(tmp_path):
    rng = random.Random(2024)
    tokens = ["t", *CONTROL_NAMES, "0", "1", "-1", "0.5", "2", "", "nan", "x", "#", '"', "1e3"]
    outcomes = set()
    for _ in range(500):
        lines = [",".join(rng.choice(tokens) for _ in range(rng.randint(1, 4)))
                 for _ in range(rng.randint(0, 5))]
        if rng.random() < 0.5 and lines:
            lines[0] = "t," + lines[0]
        path = write(tmp_path, "\n".join(lines) + "\n")
        try:
            ControlSchedule.from_csv(path, Controls())
            outcomes.add("ok")
        except InputError as exc:
            assert str(exc).startswith(str(path))
            outcomes.add("error")
    assert "error" in outcomes


def test_elevator_trim_offsets_the_elevator_and_clamps():
    c = Controls(elevator=0.3, elevator_trim=-0.1)
    assert c.clamped().elevator == pytest.approx(0.2) and c.clamped().elevator_trim == 0.0
    assert Controls(elevator=0.8, elevator_trim=0.5).clamped().elevator == 1.0
    assert Controls(elevator=-0.2, elevator_trim=-3.0).clamped().elevator == pytest.approx(-1.0)


def test_rows_of_an_earlier_width_still_fly_with_the_later_controls_at_their_defaults():
    """A script's 8-wide rows (before the toe brakes) or 5 and 7 (before the brakes and the engine) still fly."""
    for row, full in (([0.5, 0.1, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0],
                       [0.5, 0.1, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.0, 1.0]),
                      ([0.5, 0.1, 0.0, 0.0, 0.0], [0.5, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]),
                      ([0.5, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.3, 0.0],      # 10 wide: before the gear lever
                       [0.5, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.3, 0.0, 1.0])):
        assert flown([row]).tolist() == [full]
    with pytest.raises(ValueError):
        flown([[0.5, 0.1, 0.0]])                      # not a width controls ever had
    # a trace's controls are these, in this order (trace.table completes its rows with the same function)
    from flightsim.simulation import trace

    assert trace.CONTROL_COLUMNS + trace.LATER_CONTROL_COLUMNS + trace.GEAR_COLUMNS == CONTROL_NAMES

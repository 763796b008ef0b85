"""``flightsim trim``, ``flightsim modes`` and the trimmed starts, run as a user runs them."""

import json
import subprocess

import pytest
from conftest import FLIGHTSIM, one_line_error  # found (or the session stopped) at session start


def run(*args, cwd=None):
    return subprocess.run([FLIGHTSIM, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_trim_json_has_the_documented_keys():
    r = run("trim", "--airspeed", "160", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    for key in ("airspeed", "altitude", "alpha_deg", "pitch_deg", "throttle", "elevator", "aileron", "rudder",
                "residual"):
        assert key in d, key
    assert d["airspeed"] == 160.0 and d["altitude"] == 2000.0 and d["residual"] < 1e-8
    assert 0.0 < d["throttle"] < 1.0 and d["pitch_deg"] == pytest.approx(d["alpha_deg"])


def test_trim_table_and_climb():
    r = run("trim", "--airspeed", "150", "--climb-angle", "3", "--altitude", "1000", "--flaps", "0.5")
    assert r.returncode == 0, r.stderr
    assert "steady flight at 150 ft/s, altitude 1000 ft, climb angle 3°, flaps 0.5" in r.stdout
    for word in ("angle of attack", "pitch", "throttle", "elevator", "aileron", "rudder", "residual"):
        assert word in r.stdout


def test_modes_json_names_every_mode():
    r = run("modes", "--airspeed", "160", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    names = [m["name"] for m in d["modes"]]
    assert sorted(names) == sorted(["short period", "phugoid", "roll", "spiral", "dutch roll"])
    for m in d["modes"]:
        assert m["imag"] >= 0 and set(m) >= {"name", "real", "imag", "period_s", "damping_ratio"}
        assert (m["period_s"] is None) == (m["imag"] == 0)
    assert len(d["A"]) == 8 and len(d["B"][0]) == 4 and d["states"][0] == "u"


def test_modes_table():
    r = run("modes", "--airspeed", "160")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].split()[:2] == ["mode", "eigenvalue"]
    assert [line.split()[0] for line in lines[2:]] == ["short", "phugoid", "dutch", "roll", "spiral"]


@pytest.mark.parametrize("args,expected", [
    (("trim", "--airspeed", "fast"), "flightsim: error: --airspeed: must be a number, got 'fast'"),
    (("trim", "--airspeed", "-5"), "flightsim: error: --airspeed: must be finite and > 0, got -5"),
    (("modes", "--airspeed", "160", "--flaps", "2"), "flightsim: error: --flaps: must be 0..1, got 2"),
    (("trim", "--airspeed", "160", "--climb-angle", "x"), "flightsim: error: --climb-angle: must be a number, got 'x'"),
])
def test_bad_trim_options_get_one_line(args, expected):
    assert one_line_error(run(*args)) == expected


def test_untrimmable_speed_names_the_limit_and_the_range():
    line = one_line_error(run("trim", "--airspeed", "300"))
    assert line.startswith("flightsim: error: --airspeed: cannot trim at 300 ft/s")
    assert "more than full throttle" in line and "trimmable from 101 to 242 ft/s here" in line


def test_simulate_from_a_trim_holds_level_flight(tmp_path):
    out = tmp_path / "trim.csv"
    r = run("simulate", "--trim", "160", "--integrator", "rk4", "--duration", "30", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "start           trimmed at 160 ft/s, altitude 2000 ft" in r.stdout
    import numpy as np

    rows = np.loadtxt(out, delimiter=",", skiprows=1)
    z, pitch, elevator = rows[:, 3], rows[:, 15], rows[:, 20]
    assert np.ptp(z) < 1.0 and np.ptp(pitch) < 0.05
    assert elevator[0] == pytest.approx(-0.0324, abs=1e-3)      # the trace records the total elevator


def test_simulate_trim_with_a_controls_csv_keeps_the_trim_in_left_out_columns(tmp_path):
    controls = tmp_path / "c.csv"
    controls.write_text("t,rudder\n0,0\n1,0.1\n")
    out = tmp_path / "t.csv"
    r = run("simulate", "--trim", "150", "--altitude", "3000", "--climb-angle", "-2", "--controls", str(controls),
            "--duration", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    import numpy as np

    rows = np.loadtxt(out, delimiter=",", skiprows=1)
    assert rows[0, 3] == pytest.approx(3000.0)
    assert np.ptp(rows[:, 19]) == 0.0 and rows[0, 19] > 0.0         # throttle: the trim's, all along
    assert np.ptp(rows[:, 20]) == 0.0                               # elevator: the trim's, all along
    assert rows[-1, 22] == 0.1                                      # rudder: from the file


def test_simulate_keeps_the_file_start_without_trim():
    r = run("simulate", "--duration", "1")
    assert r.returncode == 0 and "start           the aircraft file's initial state" in r.stdout
    assert "final speed" in r.stdout


@pytest.mark.parametrize("args,expected", [
    (("simulate", "--altitude", "100"),
     "flightsim: error: --altitude: needs a trimmed start (--trim FT_S or --start air)"),
    (("simulate", "--trim", "0"), "flightsim: error: --trim: must be finite and > 0, got 0"),
    (("simulate", "--start", "runway", "--climb-angle", "3"),
     "flightsim: error: --climb-angle: needs a trimmed start (--trim FT_S or --start air)"),
    (("simulate", "--start", "sideways"), None),
])
def test_bad_start_options(args, expected):
    line = one_line_error(run(*args))
    if expected:
        assert line == expected
    else:
        assert line.startswith("flightsim: error: --start: invalid choice: 'sideways'")

"""The gear from the command line: starts, the trace's new columns, the controls CSV's brakes, bad gear input."""

import csv
import re
import subprocess

import conftest
import numpy as np
import pytest
from conftest import FLIGHTSIM  # found (or the session stopped) at session start

from flightsim.physics.aircraft import DEFAULT_AIRCRAFT
from flightsim.simulation import trace
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.trace import COLUMNS


def run(*args, cwd=None):
    return subprocess.run([FLIGHTSIM, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def one_line_error(r):
    """conftest's, the line starting 'flightsim: error: ', nothing on stdout."""
    return conftest.one_line_error(r, "flightsim: error: ", quiet=True)


def columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == COLUMNS
    table = np.array(rows[1:], dtype=float)
    return {name: table[:, i] for i, name in enumerate(COLUMNS)}


def test_the_trace_gains_brake_parking_brake_and_on_ground_after_the_older_columns():
    assert COLUMNS[24:27] == ("brake", "parking_brake", "on_ground")
    # the older columns keep their names and places
    assert COLUMNS[:24] == ("t", "x", "y", "z", "vx", "vy", "vz", "qw", "qx", "qy", "qz", "p", "q", "r", "roll",
                            "pitch", "heading", "airspeed", "alpha", "throttle", "elevator", "aileron", "rudder",
                            "flaps")


def test_simulate_from_the_runway_records_the_parking_brake_and_the_ground(tmp_path):
    out = tmp_path / "trace.csv"
    r = run("simulate", "--start", "runway", "--duration", "5", "--out", str(out), "--every", "60")
    assert r.returncode == 0, r.stderr
    assert "at rest on runway 36" in r.stdout and "parking brake set" in r.stdout
    col = columns(out)
    assert np.all(col["on_ground"] == 1.0) and np.all(col["parking_brake"] == 1.0) and np.all(col["brake"] == 0.0)
    assert np.all(col["throttle"] == 0.0)
    distance, offset = RUNWAY.local(col["x"][-1], col["y"][-1])
    assert 0.0 < distance < 100.0 and offset == pytest.approx(0.0, abs=1e-6)
    assert np.ptp(col["x"]) < 0.01


def test_a_controls_csv_releases_the_brake_and_takes_off(tmp_path):
    controls = tmp_path / "takeoff.csv"
    controls.write_text("t,parking_brake,throttle,elevator,brake\n0,1,0,0,0\n1,0,1,0.3,\n")
    out = tmp_path / "trace.csv"
    r = run("simulate", "--start", "runway", "--duration", "12", "--controls", str(controls), "--out", str(out),
            "--every", "12")
    assert r.returncode == 0, r.stderr
    col = columns(out)
    assert np.all(col["parking_brake"][col["t"] < 0.95] == 1.0) and np.all(col["parking_brake"][col["t"] > 1.05] == 0)
    assert np.all(col["on_ground"][col["t"] < 2.0] == 1.0)
    assert col["on_ground"][-1] == 0.0 and col["z"][-1] > 20.0     # lifted off and climbing
    lift_off = col["t"][np.argmax(col["on_ground"] == 0.0)]
    assert 2.0 < lift_off < 10.0


def test_simulate_from_the_approach_touches_down(tmp_path):
    out = tmp_path / "trace.csv"
    r = run("simulate", "--start", "approach", "--duration", "70", "--out", str(out), "--every", "12")
    assert r.returncode == 0, r.stderr
    assert "on final approach" in r.stdout and "status" not in r.stdout
    col = columns(out)
    assert col["on_ground"][0] == 0.0 and col["on_ground"][-1] == 1.0
    first = np.argmax(col["on_ground"] == 1.0)
    assert RUNWAY.contains(col["x"][first], col["y"][first]) and 55.0 < col["t"][first] < 65.0


def test_an_older_trace_without_the_new_columns_reads_them_as_zero(tmp_path):
    path = tmp_path / "old.csv"
    old = ("t", "x", "y", "z", "vx", "vy", "vz", "qw", "qx", "qy", "qz", "p", "q", "r", "roll", "pitch", "heading",
           "airspeed", "alpha", "throttle", "elevator", "aileron", "rudder", "flaps")
    path.write_text(",".join(old) + "\n" + "0,0,0,500,100,0,0,1,0,0,0,0,0,0,0,0,0,100,0,0.5,0.1,0,0,0\n"
                    + "0.1,10,0,500,100,0,0,1,0,0,0,0,0,0,0,0,0,100,0,0.5,0.1,0,0,0\n")
    table = trace.read_csv(path)
    assert table.shape == (2, len(COLUMNS))
    new = [COLUMNS.index(name) for name in ("brake", "parking_brake", "on_ground")]
    assert np.all(table[:, new] == 0.0) and np.all(table[:, COLUMNS.index("throttle")] == 0.5)


@pytest.mark.parametrize("csv_text, message", [
    ("t,brake\n0,1.5\n", "line 2, column brake: 1.5 is out of range [0, 1]"),
    ("t,parking_brake\n0,0.5\n", "line 2, column parking_brake: must be 0 (released) or 1 (set), got 0.5"),
    ("t,brakes\n0,1\n", "line 1: unknown column 'brakes'; did you mean 'brake'? "
                        "(valid: t, throttle, elevator, aileron, rudder, flaps, brake, parking_brake, engine, "
                        "brake_left, brake_right, gear)"),
])
def test_bad_brake_columns_are_one_line(tmp_path, csv_text, message):
    path = tmp_path / "c.csv"
    path.write_text(csv_text)
    line = one_line_error(run("simulate", "--steps", "10", "--controls", str(path)))
    assert line == f"flightsim: error: {path}: {message}"


GEAR_DAMAGE = [
    # (entry, old line, new line (None: deleted), where, reason)
    ("left main wheel", "stiffness = 6730.0", None, "gear[1].stiffness", "required key is missing"),
    ("left main wheel", "stiffness = 6730.0", "stiffness = -6730.0", "gear[1].stiffness",
     "must be > 0, got -6730.0 (accepted range 0..1e+08 lbf/ft)"),
    ("nose wheel", "damping = 87.0", "damping = -87.0", "gear[0].damping",
     "must be >= 0, got -87.0 (accepted range 0..1e+07 lbf*s/ft)"),
    ("nose wheel", "damping = 87.0", None, "gear[0].damping", "required key is missing"),
    ("right main wheel", "brake_friction = 0.6", "brake_friction = -0.6", "gear[2].brake_friction",
     "must be >= 0, got -0.6 (accepted range 0..10)"),
    ("nose wheel", "static_friction = 0.8", None, "gear[0].static_friction", "required key is missing"),
    ("tail", "static_friction = 0.5", "static_friction = -0.5", "gear[4].static_friction",
     "must be >= 0, got -0.5 (accepted range 0..10)"),
    ("nose wheel", "position = [24.0, 0.0, -0.4]", "position = [240.0, 0.0, -0.4]", "gear[0].position",
     "is 224.8 ft outside the airplane"),
]


@pytest.mark.parametrize("entry, old, new, where, reason", GEAR_DAMAGE, ids=[f"{d[3]}-{d[2]}" for d in GEAR_DAMAGE])
def test_a_bad_gear_entry_is_one_line_naming_the_file_and_the_field(tmp_path, entry, old, new, where, reason):
    text = DEFAULT_AIRCRAFT.read_text()
    start = text.index(f'name = "{entry}"')
    at = text.index(old, start)
    text = text[:at] + (new or "") + text[at + len(old):]
    path = tmp_path / "plane.toml"
    path.write_text(text)
    for command in (["simulate", "--steps", "10"], ["trim", "--airspeed", "150"]):
        line = one_line_error(run(*command, "--aircraft", str(path)))
        assert line.startswith(f"flightsim: error: {path}: {where}: {reason}"), line


def test_fly_rejects_a_bad_gear_before_opening_a_window(tmp_path):
    text = DEFAULT_AIRCRAFT.read_text().replace("damping = 550.0", "damping = -1.0", 1)
    path = tmp_path / "plane.toml"
    path.write_text(text)
    line = one_line_error(run("fly", "--headless", "--frames", "1", "--aircraft", str(path)))
    assert re.fullmatch(rf"flightsim: error: {re.escape(str(path))}: gear\[1\]\.damping: must be >= 0, got -1\.0 .*",
                        line)

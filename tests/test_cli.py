"""The ``flightsim`` command as a user runs it: the installed console script, in a subprocess."""

import csv
import os
import stat
import subprocess
import sys

import conftest
import numpy as np
import pytest
from conftest import FLIGHTSIM  # found (or the session stopped) at session start

from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.trace import COLUMNS


def run(*args, cwd=None):
    return subprocess.run([FLIGHTSIM, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_integrators_lists_the_registry():
    r = run("integrators")
    assert r.returncode == 0, r.stderr
    for it in INTEGRATORS.values():
        assert any(line.split()[:2] == [it.name, str(it.order)] for line in r.stdout.splitlines()), it.name
    assert "Per-step error" in r.stdout and "taylor2-quarter" in r.stdout


def test_python_m_flightsim_works_too():
    r = subprocess.run([sys.executable, "-m", "flightsim", "integrators"], capture_output=True, text=True)
    assert r.returncode == 0 and "rkmk4" in r.stdout


def read_trace(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == COLUMNS
    return np.array(rows[1:], dtype=float)


def test_simulate_writes_a_trace_following_the_controls(tmp_path):
    controls = tmp_path / "controls.csv"
    controls.write_text("t,throttle,aileron\n0,0.8,0\n2,,0.3\n4,,0\n")
    out = tmp_path / "trace.csv"
    r = run("simulate", "--duration", "6", "--dt", "1/60", "--controls", str(controls), "--out", str(out),
            "--every", "6", "--integrator", "rk4")
    assert r.returncode == 0, r.stderr
    assert "integrator      rk4" in r.stdout and "largest |q|-1" in r.stdout and "steps/s" in r.stdout
    table = read_trace(out)
    col = {name: table[:, i] for i, name in enumerate(COLUMNS)}
    assert len(table) == 6 * 60 // 6 + 1
    assert col["t"][0] == 0.0 and col["t"][-1] == pytest.approx(6.0)
    assert np.all(col["throttle"][1:] == 0.8)
    assert np.all(col["aileron"][(col["t"] > 2.05) & (col["t"] < 3.95)] == 0.3)
    # aileron +0.3 from t = 2 s rolls right: positive roll, then the heading swings clockwise (East).
    assert col["roll"][col["t"] > 3.9][0] > 5.0
    assert np.all(np.abs(np.linalg.norm(table[:, 7:11], axis=1) - 1) < 1e-8)
    assert np.all((col["heading"] >= 0) & (col["heading"] < 360))


def test_simulate_summary_only_without_out(tmp_path):
    r = run("simulate", "--steps", "100", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "final position" in r.stdout and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args, files, message",
    [
        (["--integrator", "rk5"], {}, "--integrator: unknown name 'rk5'; valid: euler, exact"),
        (["--dt", "0"], {}, "--dt: must be a step from 1e-05 to 1 s"),
        (["--dt", "10"], {}, "--dt: must be a step from 1e-05 to 1 s, got 10"),
        (["--dt", "abc"], {}, "--dt: must be a number"),
        (["--steps", "-3"], {}, "--steps: must be ≥ 0"),
        (["--every", "0"], {}, "--every: must be ≥ 1"),
        (["--aircraft", "{tmp}/missing.toml"], {}, "missing.toml: file not found"),
        (["--aircraft", "{tmp}/bad.toml"], {"bad.toml": "name = [\n"}, "bad.toml"),
        (["--aircraft", "{tmp}/empty.toml"], {"empty.toml": ""}, "empty.toml"),
        (["--controls", "{tmp}/c.csv"], {"c.csv": "t,thrust\n0,1\n"}, "c.csv: line 1"),
        (["--controls", "{tmp}/c.csv"], {"c.csv": "t,elevator\n0,up\n"}, "c.csv: line 2"),
        (["--controls", "{tmp}/c.csv"], {"c.csv": "t,elevator\n0,2\n"}, "c.csv: line 2"),
        (["--controls", "{tmp}/c.csv"], {"c.csv": "t,elevator\n1,0\n0.5,0\n"}, "c.csv: line 3"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_output_file(tmp_path, args, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = tmp_path / "trace.csv"
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    r = run("simulate", "--steps", "10", "--out", str(out), *args)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("flightsim: error: "), r.stderr
    assert message in lines[0]
    assert "Traceback" not in r.stderr
    assert not out.exists()
    assert not any(p.name.startswith(".trace.csv") for p in tmp_path.iterdir())


def one_line_error(r):
    """conftest's, the line starting 'flightsim: error: ', nothing on stdout."""
    return conftest.one_line_error(r, "flightsim: error: ", quiet=True)


@pytest.mark.parametrize("args, message", [
    (["simulate", "--out", "/proc/x.csv"], "--out: cannot create a file in '/proc'"),
    (["simulate", "--out", "{tmp}"], "--out: '{tmp}' is a folder, not a file"),
    (["simulate", "--out", "{tmp}/no/such/dir/t.csv"], "--out: directory '{tmp}/no/such/dir' does not exist"),
    (["bench", "--out", "/proc/flightsim-bench"], "--out: cannot create a file in '/proc'"),
    (["bench", "--out", "{tmp}/file.txt/sub"], "--out: '{tmp}/file.txt' is not a folder"),
])
def test_an_output_path_that_cannot_be_written_is_one_line_before_the_run(tmp_path, args, message):
    (tmp_path / "file.txt").write_text("x")
    before = sorted(tmp_path.iterdir())
    r = run(*[a.replace("{tmp}", str(tmp_path)) for a in args], "--steps" if args[0] == "simulate" else "--quick",
            *(["100000"] if args[0] == "simulate" else []))
    assert one_line_error(r).startswith(f"flightsim: error: {message.replace('{tmp}', str(tmp_path))}")
    assert sorted(tmp_path.iterdir()) == before                 # nothing left behind, no temporary file


def test_a_write_that_fails_late_is_one_line_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    """The folder was writable at the start; the write fails at the end (disk full): one line, exit 2."""
    import errno

    from flightsim import files
    from flightsim.commands.cli import main

    real = files.os.replace

    def disk_full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device", str(dst))

    monkeypatch.setattr(files.os, "replace", disk_full)
    out = tmp_path / "trace.csv"
    assert main(["simulate", "--steps", "20", "--out", str(out)]) == 2
    monkeypatch.setattr(files.os, "replace", real)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"flightsim: error: --out: cannot write '{out}' (No space left on device)\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_a_trace_gets_the_users_usual_permissions(tmp_path, umask, mode):
    out = tmp_path / "trace.csv"
    r = subprocess.run([FLIGHTSIM, "simulate", "--steps", "10", "--out", str(out)], capture_output=True, text=True,
                       preexec_fn=lambda: os.umask(umask), timeout=300)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert [p.name for p in tmp_path.iterdir()] == ["trace.csv"]


def test_an_absurd_aircraft_is_rejected_with_the_accepted_range(tmp_path):
    """max_thrust = 1e300 used to fly to 'final speed inf ft/s' with numpy overflow warnings and exit 1."""
    from flightsim.physics.aircraft import DEFAULT_AIRCRAFT

    text = DEFAULT_AIRCRAFT.read_text()
    assert "max_thrust = 3000.0 " in text
    plane = tmp_path / "plane.toml"
    plane.write_text(text.replace("max_thrust = 3000.0 ", "max_thrust = 1e300 "))
    line = one_line_error(run("simulate", "--aircraft", str(plane), "--out", str(tmp_path / "t.csv")))
    assert line == (f"flightsim: error: {plane}: propulsion.max_thrust: must be <= 1e+06, got 1e+300 "
                    "(accepted range 0..1e+06 lbf)")
    assert [p.name for p in tmp_path.iterdir()] == ["plane.toml"]


@pytest.mark.parametrize("args, message", [
    (["simulate", "--dt", "1/0"], "--dt: must be a number such as 0.01 or 1/30, got '1/0'"),
    (["simulate", "--dt", "inf"], "--dt: must be a step from 1e-05 to 1 s, got inf"),
    (["simulate", "--duration", "-1"], "--duration: must be finite and ≥ 0, got -1"),
    (["simulate", "--steps", "1.5"], "--steps: must be a whole number, got '1.5'"),
    (["simulate", "--atmosphere", "mars"], "--atmosphere: invalid choice: 'mars'"),
    (["simulate", "--steps", "3", "--duration", "3"], "--duration: not allowed with argument --steps"),
    (["simulate", "--frobnicate"], "unrecognized arguments: --frobnicate (see flightsim --help)"),
    (["replay"], "the following arguments are required: TRACE.csv (see flightsim replay --help)"),
])
def test_bad_options_are_one_line_naming_the_flag(args, message):
    line = one_line_error(run(*args))
    if "invalid choice" in message:   # argparse lists the choices, worded by Python version
        assert line.startswith(f"flightsim: error: {message} (choose from ") and "constant" in line
    else:
        assert line == f"flightsim: error: {message}"


def test_simulate_takes_dt_as_a_fraction(tmp_path):
    r = run("simulate", "--dt", "1/30", "--duration", "1", "--out", str(tmp_path / "t.csv"))
    assert r.returncode == 0, r.stderr
    assert "dt = 0.0333333 s, 30 steps" in r.stdout

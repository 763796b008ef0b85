"""The ``flightsim`` command as a user runs it: the installed console script, in a subprocess."""

import csv
import shutil
import subprocess
import sys

import numpy as np
import pytest

from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.trace import COLUMNS

FLIGHTSIM = shutil.which("flightsim") or pytest.fail("the flightsim console script is not installed")


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
        (["--dt", "0"], {}, "--dt: must be finite and > 0"),
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

"""Integrator lab: the ghost airplane, `flightsim bench`, and replaying traces."""

import subprocess

import numpy as np
import pytest
from conftest import FLIGHTSIM  # found (or the session stopped) at session start

from flightsim.errors import InputError
from flightsim.math import quat
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation import trace
from flightsim.simulation.flight import Simulation
from flightsim.simulation.ghost import Ghost
from flightsim.simulation.replay import Replay


def fly_with_ghost(dt, integrator="euler", ghost="rk4", substeps=8, seconds=8.0):
    sim = Simulation(integrator=integrator, dt=dt)
    g = Ghost(sim, ghost, substeps)
    sim.controls.throttle = 0.7
    sim.controls.aileron = 0.25
    sim.controls.elevator = 0.1
    for _ in range(int(round(seconds / dt))):
        assert sim.step()
    return sim, g


def test_ghost_with_the_same_integrator_stays_identical():
    sim, g = fly_with_ghost(1 / 120, "rk4", "rk4", substeps=1)
    assert np.array_equal(sim.vector, g.sim.vector)
    assert g.difference() == (0.0, 0.0)


def test_a_ghost_flies_the_elevator_trim_too():
    """From a trimmed start (the trim held as elevator trim) a same-integrator ghost stays on the airplane."""
    from flightsim.simulation.starts import make_start

    sim = Simulation(integrator="rk4", start=make_start(Simulation().aircraft, "air"))
    assert sim.controls.elevator_trim != 0.0
    g = Ghost(sim, "rk4", 1)
    sim.controls.elevator_trim += 0.05
    for _ in range(240):
        assert sim.step()
    assert g.sim.controls.elevator_trim == sim.controls.elevator_trim
    assert np.array_equal(sim.vector, g.sim.vector)


def test_euler_against_rk4_ghost_diverges_and_shrinks_with_dt():
    diffs = []
    for dt in (1 / 60, 1 / 120, 1 / 240):
        _, g = fly_with_ghost(dt)
        diffs.append(g.difference())
    att = np.array([d[0] for d in diffs])
    pos = np.array([d[1] for d in diffs])
    assert att[0] > 0.01 and pos[0] > 0.1  # visibly apart
    assert np.all(att[:-1] / att[1:] > 1.6) and np.all(pos[:-1] / pos[1:] > 1.6)  # first order: ~2× per halving


def test_ghost_resync_and_reconfigure():
    sim, g = fly_with_ghost(1 / 120, seconds=2.0)
    assert g.difference()[1] > 0
    g.resync()
    assert g.difference() == (0.0, 0.0)
    g.configure("exact", 2)
    assert g.sim.dt == pytest.approx(sim.dt / 2) and g.integrator == "exact" and g.difference() == (0.0, 0.0)
    sim.step()
    pos, q = g.render_pose()
    assert np.all(np.isfinite(pos)) and abs(np.linalg.norm(q) - 1) < 1e-12
    g.detach()
    before = g.sim.vector
    sim.step()
    assert np.array_equal(g.sim.vector, before)


@pytest.fixture(scope="module")
def bench_table(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    r = subprocess.run([FLIGHTSIM, "bench", "--quick", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert (out / "error_vs_dt.png").stat().st_size > 10_000 and (out / "error_vs_cost.png").stat().st_size > 10_000
    return (out / "integrators.md").read_text()


def test_bench_orders_agree_with_the_registry(bench_table):
    rows = [line.split("|")[1:-1] for line in bench_table.splitlines()[2:]]
    assert [r[0].strip().strip("`") for r in rows] == list(INTEGRATORS)
    for cells in rows:
        name = cells[0].strip().strip("`")
        claimed = int(cells[1])
        measured = [float(c) for c in cells[2:4] if c.strip() not in ("—", "diverged")]
        assert measured, name
        # ±0.5 tells every integer order apart; the quick run's steps are not all in the asymptotic range
        assert all(abs(m - claimed) < 0.5 for m in measured), (name, claimed, measured)


def test_replay_shows_the_recorded_attitude_at_the_recorded_times(tmp_path):
    controls = tmp_path / "c.csv"
    controls.write_text("t,throttle,aileron,elevator\n0,0.7,0.3,0.1\n3,,-0.2,\n")
    out = tmp_path / "trace.csv"
    r = subprocess.run([FLIGHTSIM, "simulate", "--duration", "6", "--controls", str(controls), "--out", str(out),
                        "--every", "10"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    recorded = trace.read_csv(out)
    replay = Replay(out)
    col = {name: i for i, name in enumerate(trace.COLUMNS)}
    for row in recorded[::7]:
        replay.seek(row[col["t"]])
        t = replay.telemetry()
        assert (t.roll, t.pitch, t.heading) == pytest.approx(
            (row[col["roll"]], row[col["pitch"]], row[col["heading"]]), abs=1e-6
        )
        pos, q = replay.render_pose()
        assert np.allclose(pos, row[1:4]) and quat.angle_between(q, row[7:11]) < 1e-9
        assert replay.controls.aileron == row[col["aileron"]]
    # between two rows the pose is interpolated, and the clock runs with the frame time
    replay.reset()
    replay.advance(0.125)
    assert replay.t == pytest.approx(0.125)
    assert replay.state.position[0] > recorded[0, 1]


@pytest.mark.parametrize(
    "text, where",
    [
        ("", "empty file"),
        ("t,x,y\n0,1,2\n", "line 1"),
        (None, "line 3, column qx"),
        (None, "line 4, column t"),
        (None, "line 2"),
    ],
)
def test_damaged_trace_is_a_clear_error(tmp_path, text, where):
    good = tmp_path / "good.csv"
    states = np.tile(np.r_[0, 0, 100.0, 60, 0, 0, 1.0, 0, 0, 0, 0, 0, 0], (3, 1))
    trace.write_csv(good, trace.table([0.0, 0.1, 0.2], states, np.zeros((3, 5))))
    lines = good.read_text().splitlines()
    if text is None:
        if where == "line 3, column qx":
            cells = lines[2].split(",")
            cells[trace.COLUMNS.index("qx")] = "abc"
            lines[2] = ",".join(cells)
        elif where == "line 4, column t":
            lines[3] = "0.05" + lines[3][lines[3].index(","):]
        else:
            lines[1] = lines[1] + ",7"
        text = "\n".join(lines) + "\n"
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    with pytest.raises(InputError, match=where):
        Replay(bad)
    with pytest.raises(InputError, match="file not found"):
        trace.read_csv(tmp_path / "missing.csv")

"""Lessons with a score (issue 41, part 3): each lesson flown to a passing and to a failing score, by pilots written
here (a flare, a glide after the engine quits, a steep turn) and by the autopilot; the CLI's debrief, its JSON,
the trace and plot kept in the user's data folder with the best score; an unknown lesson refused in one line."""

import json
import subprocess
import sys

import numpy as np
import pytest

from flightsim.commands.lesson import fly_lesson
from flightsim.commands.options import autopilot_spec
from flightsim.simulation import trace
from flightsim.simulation.lessons import LESSONS, lesson_failures

WHEELS = 4.65          # the 172R's CG above its wheels at rest, ft


def flare(sim, height):
    """Throttle closed, the sink rate eased off with the height (a sink rate of 0.8 ft/s plus a fifth of it)."""
    c = sim.controls
    c.throttle = 0.0
    target = -(0.8 + height / 5.0)
    c.elevator = float(np.clip(0.1 * (target - sim.vector[5]) - 0.02 * max(sim.telemetry().pitch - 8.0, 0.0),
                               -0.3, 0.4))


def flaring(sim):
    height = sim.vector[2] - WHEELS
    if height < 25.0 and not sim.on_ground:
        flare(sim, height)


def gliding(sim):
    """After the engine quits: wings level, 65 kt on the elevator, the flare near the ground."""
    if not sim.failures.active or sim.on_ground:
        return
    tm, c = sim.telemetry(), sim.controls
    c.aileron = float(np.clip(-0.05 * tm.roll, -0.5, 0.5))
    height = sim.vector[2] - WHEELS
    if height < 25.0:
        flare(sim, height)
        return
    c.throttle = 0.0
    c.elevator = float(np.clip(-0.04 * (65.0 - tm.indicated_airspeed / 1.6878), -0.5, 0.5))


def steep_turn():
    memo = {}

    def pilot(sim):
        tm, c = sim.telemetry(), sim.controls
        if not memo:
            memo.update(z0=sim.vector[2], turned=0.0, last=tm.heading, zi=0.0)
        memo["turned"] += abs((tm.heading - memo["last"] + 180.0) % 360.0 - 180.0)
        memo["last"] = tm.heading
        bank = 45.0 if memo["turned"] < 356.0 else 0.0
        c.aileron = float(np.clip(0.04 * (bank - tm.roll) - 0.3 * sim.vector[10], -1.0, 1.0))
        dz = memo["z0"] - sim.vector[2]
        memo["zi"] += dz * sim.dt
        c.elevator = float(np.clip(0.01 * dz + 0.002 * memo["zi"] - 0.01 * sim.vector[5] + (0.12 if bank else 0.0),
                                   -0.6, 0.6))
        c.throttle = 0.75 if bank else 0.55
    return pilot


PASSING = {
    "landing": dict(pilot=flaring),
    "crosswind-landing": dict(autopilot="app=36", pilot=flaring),
    "engine-failure": dict(pilot=gliding),
    "steep-turns": dict(pilot=None),
    "partial-panel": dict(autopilot="app=36", pilot=flaring),
}


@pytest.mark.parametrize("name", list(LESSONS))
def test_each_lesson_flown_to_a_pass_and_left_alone_to_a_fail(name):
    how = dict(PASSING[name])
    if name == "steep-turns":
        how["pilot"] = steep_turn()
    if "autopilot" in how:
        how["autopilot"] = autopilot_spec(how["autopilot"])
    good, rows, sim = fly_lesson(LESSONS[name], **how)
    assert good.passed and good.score >= 70.0, good
    assert all(v == v for v in good.values.values()), good           # every criterion measured
    bad, _, crashed = fly_lesson(LESSONS[name])                       # nobody at the controls
    assert not bad.passed and bad.score < good.score, bad
    if name == "engine-failure":                                      # a crash is a debrief too: what hit, how
        assert bad.status.startswith("crashed") and "sink rate" in bad.status and bad.score == 0.0


def test_the_engine_quits_between_300_and_600_ft_drawn_by_the_seed():
    heights = {f.above_ft for seed in range(6) for f in lesson_failures(LESSONS["engine-failure"], seed)}
    assert len(heights) == 6 and all(300.0 <= h <= 600.0 for h in heights)
    assert lesson_failures(LESSONS["engine-failure"], 3) == lesson_failures(LESSONS["engine-failure"], 3)


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "flightsim", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def test_the_cli_prints_the_debrief_and_keeps_the_trace_the_plot_and_the_best_score(tmp_path, monkeypatch):
    import os

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = run("lesson", "landing", "--headless", "--json", env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["lesson"] == "landing" and not result["passed"]
    assert set(result["criteria"]) == {"sink_fpm", "aim_ft", "centreline_ft", "threshold_kt", "bounce_ft"}
    assert result["criteria"]["sink_fpm"]["value"] > 300.0                 # no flare: a firm arrival
    folder = tmp_path / "flightsim" / "lessons"
    rows = trace.read_csv(result["trace"])
    assert rows[-1, trace.COLUMNS.index("on_ground")] == 1.0
    assert open(result["plot"], "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    best = json.loads((folder / "scores.json").read_text())
    assert best["landing"]["score"] == result["score"] == result["best"]
    text = run("lesson", "landing", "--headless", env=env)
    assert "sink rate at touchdown" in text.stdout and "not passed" in text.stdout


def test_an_unknown_lesson_is_one_line_listing_the_lessons():
    done = run("lesson", "loop", "--headless")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "loop" in lines[0] and all(name in lines[0] for name in LESSONS), lines

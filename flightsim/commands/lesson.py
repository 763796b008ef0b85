"""``flightsim lesson NAME``: fly a scored lesson (:mod:`flightsim.simulation.lessons`) and get its debrief.

``--headless`` flies it without a window, by ``--controls CSV`` or ``--autopilot SPEC`` (or untouched), and prints
the debrief (``--json``: as JSON).  Each finished lesson's trace (a replay: ``flightsim replay FILE``), its debrief
plot (the profile against the 3° glide path or the manoeuvre, and the view from above) and its score are kept in
the user's data folder (``$XDG_DATA_HOME/flightsim/lessons``, by default ``~/.local/share/flightsim/lessons``),
with the best score of each lesson in ``scores.json``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from flightsim.commands.options import autopilot_spec, write_error
from flightsim.errors import InputError

DT = 1.0 / 120.0
#: A landing lesson ends this long after the touchdown, or once the airplane is this slow on the ground (ft/s).
AFTER_TOUCHDOWN_S, STOPPED_FPS = 20.0, 8.0


def add_arguments(p):
    """Options of ``flightsim lesson``."""
    p.add_argument("name", metavar="NAME", help="the lesson: landing, engine-failure, steep-turns, "
                                                "crosswind-landing, partial-panel")
    p.add_argument("--headless", action="store_true", help="fly it without a window and print the debrief")
    pilot = p.add_mutually_exclusive_group()
    pilot.add_argument("--controls", metavar="CSV", help="fly it with this control schedule (as simulate's)")
    pilot.add_argument("--autopilot", type=autopilot_spec, metavar="SPEC",
                       help="fly it on the autopilot, engaged at the start (as simulate's --autopilot)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the lesson's draws (when the engine quits)")
    p.add_argument("--json", action="store_true", help="print the debrief as JSON")


def data_folder():
    """Where the lessons' scores, traces and plots are kept: ``$XDG_DATA_HOME/flightsim/lessons`` (default
    ``~/.local/share/flightsim/lessons``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "flightsim" / "lessons"


def run(args):
    """Run ``flightsim lesson``; exit code 0 (passed or not: the debrief says)."""
    from flightsim.simulation.lessons import LESSONS

    lesson = LESSONS.get(args.name)
    if lesson is None:
        raise InputError("lesson", args.name, f"no lesson {args.name!r}; the lessons are {', '.join(LESSONS)}")
    if not args.headless:
        raise InputError("lesson", args.name, "the lessons fly with --headless for now (the app's Lessons menu "
                                              "is still to come)")
    result, rows, sim = fly_lesson(lesson, args.controls, args.autopilot, args.seed)
    saved = keep(lesson, result, rows, sim)
    if args.json:
        print(json.dumps({**result.as_dict(), **saved}, indent=2))
    else:
        print(debrief_text(lesson, result, saved))
    return 0


def fly_lesson(lesson, controls=None, autopilot=None, seed=0, pilot=None):
    """Fly ``lesson`` without a window: ``(Result, trace rows, the flight)``; ``pilot(sim)``, where given, sets the
    controls before every step (a pilot written in Python: a test's, a policy's)."""
    from flightsim.commands.simulate import engage_autopilot, fly
    from flightsim.simulation.controls import ControlSchedule
    from flightsim.simulation.flight import Simulation, resolve_aircraft
    from flightsim.simulation.lessons import AIRCRAFT, lesson_failures, lesson_start, score

    aircraft = resolve_aircraft(AIRCRAFT)
    start = lesson_start(lesson, aircraft)
    sim = Simulation(aircraft, "rk4", DT, start=start, wind=lesson.wind, failures=lesson_failures(lesson, seed))
    schedule = ControlSchedule.from_csv(controls, sim.controls) if controls else None
    if autopilot is not None:
        engage_autopilot(sim, autopilot, schedule)
    touchdown = []

    def done(s):
        if not lesson.landing:
            return False
        if s.on_ground and not touchdown and s.t > 1.0:
            touchdown.append(s.t)
        return bool(touchdown) and (s.t - touchdown[0] > AFTER_TOUCHDOWN_S
                                    or (s.on_ground and s.telemetry().groundspeed < STOPPED_FPS))

    if pilot is not None:
        sim.followers.append(lambda: pilot(sim))
        pilot(sim)
    rows = fly(sim, int(round(lesson.seconds / DT)), schedule, until=done)
    crashed = sim.status is not None and not sim.diverged
    return score(lesson, rows, start.runway, sim.status, crashed), rows, sim


def keep(lesson, result, rows, sim):
    """Keep the lesson's trace, debrief plot and score in :func:`data_folder`; return where (and the best score)."""
    from flightsim.simulation import trace

    folder = data_folder()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        trace_path = folder / f"{lesson.name}-{stamp}.csv"
        trace.write_csv(trace_path, rows)
        plot_path = folder / f"{lesson.name}-{stamp}.png"
        debrief_plot(lesson, rows, sim.start.runway, plot_path)
        scores = folder / "scores.json"
        try:
            best = json.loads(scores.read_text()) if scores.exists() else {}
        except (OSError, ValueError):
            best = {}
        mine = best.get(lesson.name)
        if mine is None or result.score > mine["score"]:
            best[lesson.name] = {"score": round(result.score, 1), "passed": result.passed, "when": stamp,
                                 "trace": str(trace_path)}
            from flightsim.files import atomic_write

            with atomic_write(scores, "w") as f:
                json.dump(best, f, indent=2)
    except OSError as exc:
        raise write_error("lesson", folder, exc) from None
    return {"trace": str(trace_path), "plot": str(plot_path), "best": best[lesson.name]["score"]}


def debrief_text(lesson, result, saved):
    """The debrief as a pilot reads it."""
    lines = [f"{lesson.title}: {result.score:.0f} / 100 - {'passed' if result.passed else 'not passed'}"]
    if result.status:
        lines.append(f"  {result.status}")
    for c in lesson.criteria:
        v = result.values[c.key]
        shown = "not reached" if v != v else f"{v:.1f} {c.unit}"
        lines.append(f"  {c.label:<40} {shown:>14}   {result.points[c.key]:5.1f} points "
                     f"(full at {c.full:g}, none at {c.zero:g})")
    lines.append(f"  best so far {saved['best']:.0f}; trace {saved['trace']} (flightsim replay), plot {saved['plot']}")
    return "\n".join(lines)


def debrief_plot(lesson, rows, runway, path):
    """The debrief's picture (PNG): the profile (height over the runway against the distance to the threshold,
    with the 3° glide path where the lesson lands) and the view from above (the track over the runway)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from flightsim.simulation import trace
    from flightsim.simulation.lessons import runway_height

    col = {name: rows[:, k] for k, name in enumerate(trace.COLUMNS)}
    local = np.array([runway.local(a, b) for a, b in zip(col["x"], col["y"], strict=True)]).reshape(-1, 2)
    along, left = local[:, 0], local[:, 1]
    height = col["z"] - runway_height(runway)
    fig, (profile, top) = plt.subplots(2, 1, figsize=(8, 6.5), constrained_layout=True)
    fig.suptitle(lesson.title)
    profile.plot(along, height, label="flown")
    if lesson.landing or lesson.start == "approach":
        d = np.linspace(min(along.min(), 0.0), 400.0, 50)
        profile.plot(d, np.maximum((400.0 - d) * np.tan(np.radians(3.0)), 0.0), "--", label="3° glide path")
    profile.set_xlabel("distance past the threshold, ft")
    profile.set_ylabel("height, ft")
    profile.legend()
    profile.grid(True, alpha=0.3)
    top.plot(along, -left, label="flown")
    top.fill_between([0.0, runway.length], -0.5 * runway.width, 0.5 * runway.width, color="0.7", label="runway")
    top.set_xlabel("distance past the threshold, ft")
    top.set_ylabel("right of the centre line, ft")
    top.legend()
    top.grid(True, alpha=0.3)
    fig.savefig(path, dpi=80)
    plt.close(fig)


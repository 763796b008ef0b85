"""``flightsim lesson NAME``: fly a scored lesson (:mod:`flightsim.simulation.lessons`) and get its debrief.

``--headless`` flies it without a window, by ``--controls CSV`` or ``--autopilot SPEC`` (or untouched), and prints
the debrief (``--json``: as JSON).  Each finished lesson's trace (a replay: ``flightsim replay FILE``), its debrief
plot (the profile against the 3° glide path or the manoeuvre, and the view from above) and its score are kept in
the user's data folder (``$XDG_DATA_HOME/flightsim/lessons``, by default ``~/.local/share/flightsim/lessons``),
with the best score of each lesson in ``scores.json``.
"""

from __future__ import annotations

import json

from flightsim.commands.options import autopilot_spec, write_error
from flightsim.errors import InputError


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


def run(args):
    """Run ``flightsim lesson``; exit code 0 (passed or not: the debrief says)."""
    from flightsim.simulation.lessons import LESSONS

    lesson = LESSONS.get(args.name)
    if lesson is None:
        raise InputError("lesson", args.name, f"no lesson {args.name!r}; the lessons are {', '.join(LESSONS)}")
    if not args.headless:
        return _in_the_app(args)
    result, rows, sim = fly_lesson(lesson, args.controls, args.autopilot, args.seed)
    from flightsim.app.lesson_companion import debrief_plot
    from flightsim.simulation.lesson_debrief import data_folder, debrief_text, keep

    try:
        saved = keep(lesson, result, rows, sim.start.runway, debrief_plot)
    except OSError as exc:
        raise write_error("lesson", data_folder(), exc) from None
    if args.json:
        print(json.dumps({**result.as_dict(), **saved}, indent=2))
    else:
        print(debrief_text(lesson, result, saved))
    return 0


def _in_the_app(args):
    """``flightsim lesson NAME`` with a window: ``flightsim fly`` with the 172R, the lesson loaded (its brief
    shown, the flight paused until it starts)."""
    from flightsim.commands.cli import build_parser
    from flightsim.commands.fly import run as fly

    fly_args = build_parser().parse_args(["fly", "--aircraft", "c172"])
    fly_args.lesson, fly_args.lesson_seed = args.name, args.seed
    return fly(fly_args)


def fly_lesson(lesson, controls=None, autopilot=None, seed=0, pilot=None):
    """Fly ``lesson`` without a window: ``(Result, trace rows, the flight)``; ``pilot(sim)``, where given, sets the
    controls before every step (a pilot written in Python: a test's, a policy's)."""
    from flightsim.commands.simulate import engage_autopilot, fly
    from flightsim.simulation.controls import ControlSchedule
    from flightsim.simulation.lessons import LessonEnd, lesson_flight, score

    sim = lesson_flight(lesson, seed)
    schedule = ControlSchedule.from_csv(controls, sim.controls) if controls else None
    if autopilot is not None:
        engage_autopilot(sim, autopilot, schedule)
    if pilot is not None:
        sim.followers.append(lambda: pilot(sim))
        pilot(sim)
    rows = fly(sim, int(round(lesson.seconds / sim.dt)), schedule, until=LessonEnd(lesson))
    crashed = sim.status is not None and not sim.diverged
    return score(lesson, rows, sim.start.runway, sim.status, crashed), rows, sim

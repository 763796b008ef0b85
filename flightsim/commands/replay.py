"""``flightsim replay TRACE.csv``: play a recorded trace back in the app.

The trace comes from ``flightsim simulate --out`` or from the app's record
key.  The window is the flight's: HUD and cameras work as in flight, the
controls shown are the recorded ones, pause, reset and time scale work, and
a slider in the HUD seeks.  The keys that fly the airplane do nothing.

The trace is read before any window opens: a damaged file ends in one line
``flightsim: error: FILE: line N, column X: reason`` and exit code 2.
"""

from __future__ import annotations

import argparse

from flightsim.commands.fly import add_window_arguments, check_window_args, open_app
from flightsim.commands.options import add_aircraft_argument

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``replay`` arguments to ``parser``."""
    parser.add_argument("trace", metavar="TRACE.csv",
                        help="a trace CSV (flightsim simulate --out, or recorded in the app)")
    add_aircraft_argument(parser, "the aircraft to draw")
    add_window_arguments(parser)


def run(args) -> int:
    """Replay (or capture frames of the replay); return the exit code. Bad input raises InputError, which the CLI
    prints as one line (exit 2)."""
    size, frames = check_window_args(args)
    from flightsim.simulation.replay import Replay

    replay = Replay(args.trace, aircraft=args.aircraft)
    from flightsim.app.scene.airplane_model import model_spec_for
    from flightsim.app.window import configure_pyglet

    model = model_spec_for(replay.aircraft, args.model)
    configure_pyglet(headless=args.headless)
    from flightsim.app.input.keymap import load_keymap

    keymap = load_keymap(args.keymap)
    return open_app(args, replay, keymap, size, frames, caption=f"flightsim replay - {replay.path}",
                    model_spec=model)

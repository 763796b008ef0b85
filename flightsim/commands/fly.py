"""``flightsim fly``: open the window and fly (also ``flightsim`` with no arguments).

Options parse here without importing pyglet or imgui, so other subcommands
stay quick; :func:`run` imports them.  Exit codes: 0 after a normal flight
or capture, 2 for bad input (``flightsim: error: ...``) or when there is no
display or no OpenGL 3.3 (one line saying what is missing and what to do).

The window options (size, camera, capture, keymap, ...) are shared with
``flightsim replay`` (:func:`add_window_arguments`, :func:`open_app`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flightsim.errors import InputError

__all__ = ["add_arguments", "add_window_arguments", "check_window_args", "open_app", "parse_size", "run"]

EXIT_USAGE = 2
DEFAULT_SIZE = "1280x720"
CAPTURE_FRAMES = 60
CAMERAS = ("chase", "cockpit", "orbit", "tower")
MAX_GHOST_SUBSTEPS = 64          # as flightsim.app.app.MAX_GHOST_SUBSTEPS (not imported: no GUI at parse time)


def add_window_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the window and its capture (shared by ``fly`` and ``replay``)."""
    parser.add_argument("--size", default=DEFAULT_SIZE, metavar="WxH",
                        help=f"window size in pixels (default {DEFAULT_SIZE})")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen")
    parser.add_argument("--camera", choices=CAMERAS, default="chase", help="starting camera (default chase)")
    parser.add_argument("--keymap", metavar="FILE",
                        help="keyboard map TOML merged over configs/keymap.toml")
    parser.add_argument("--screenshot", metavar="PATH",
                        help=f"save the last frame as PNG and exit (after --frames, default {CAPTURE_FRAMES})")
    parser.add_argument("--frames", type=int, metavar="N",
                        help="run N frames (paced at 60 per second, the simulation in real time) and exit")
    parser.add_argument("--headless", action="store_true",
                        help="render off-screen with EGL (no X display needed); implies --frames")
    parser.add_argument("--msaa", type=int, default=0, metavar="SAMPLES",
                        help="multisample anti-aliasing samples (0 = off; costly on software renderers)")
    parser.add_argument("--no-gamepad", action="store_true", help="ignore game controllers")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``fly`` options to ``parser``."""
    parser.add_argument("--aircraft", metavar="FILE",
                        help="aircraft TOML (default: the book's airplane, configs/bourg.toml)")
    parser.add_argument("--integrator", default="euler", metavar="NAME",
                        help="orientation integrator to start with (see `flightsim integrators`; "
                             "switch live in the HUD); default euler, the book's")
    parser.add_argument("--dt", type=float, default=None, metavar="SECONDS",
                        help="physics step (default 1/120 s)")
    add_window_arguments(parser)
    parser.add_argument("--ghost", action="store_true",
                        help="fly a ghost: a second airplane integrated by --ghost-integrator, drawn translucent")
    parser.add_argument("--ghost-integrator", default="rk4", metavar="NAME",
                        help="the ghost's integrator (default rk4, a reference)")
    parser.add_argument("--ghost-substeps", default="8", metavar="N",
                        help=f"ghost steps per physics step, 1..{MAX_GHOST_SUBSTEPS} (default 8)")
    parser.add_argument("--record-dir", default=".", metavar="DIR",
                        help="where the record key writes traces (default: the current directory)")
    parser.add_argument("--controls", metavar="CSV",
                        help="fly this control schedule (as `flightsim simulate --controls`) instead of the "
                             "keys and the gamepad")


def parse_size(text):
    """``"WxH"`` -> (width, height); raise InputError for anything else."""
    parts = str(text).lower().replace(" ", "").split("x")
    try:
        width, height = (int(p) for p in parts)
    except ValueError:
        raise InputError("--size", "", f"expected WIDTHxHEIGHT in pixels, e.g. 1280x720, got {text!r}") from None
    if not (1 <= width <= 16384 and 1 <= height <= 16384):
        raise InputError("--size", "", f"width and height must be 1..16384 pixels, got {text!r}")
    return width, height


def check_window_args(args):
    """Validate the window options before opening a window; return (size, frames)."""
    size = parse_size(args.size)
    frames = args.frames
    if frames is not None and frames < 1:
        raise InputError("--frames", "", f"must be at least 1, got {frames}")
    if args.screenshot is not None:
        parent = Path(args.screenshot).expanduser().resolve().parent
        if not parent.is_dir():
            raise InputError("--screenshot", "", f"directory {str(parent)!r} does not exist")
        if frames is None:
            frames = CAPTURE_FRAMES
    if args.headless and frames is None:
        frames = CAPTURE_FRAMES
    if args.msaa < 0 or args.msaa > 16:
        raise InputError("--msaa", "", f"must be 0..16, got {args.msaa}")
    return size, frames


def _check_lab_args(args):
    """Validate the ghost and recording options; return the ghost's sub-steps."""
    from flightsim.physics.integrators import INTEGRATORS

    if args.ghost_integrator not in INTEGRATORS:
        raise InputError("--ghost-integrator", "", f"unknown integrator {args.ghost_integrator!r}; "
                         f"valid: {', '.join(INTEGRATORS)}")
    try:
        substeps = int(args.ghost_substeps)
    except ValueError:
        raise InputError("--ghost-substeps", "", f"must be a whole number, got {args.ghost_substeps!r}") from None
    if not 1 <= substeps <= MAX_GHOST_SUBSTEPS:
        raise InputError("--ghost-substeps", "", f"must be 1..{MAX_GHOST_SUBSTEPS}, got {substeps}")
    if not Path(args.record_dir).expanduser().is_dir():
        raise InputError("--record-dir", "", f"directory {args.record_dir!r} does not exist")
    return substeps


def run(args) -> int:
    """Fly (or capture frames); return the exit code. Bad input raises InputError, which the CLI prints as one line (exit 2)."""
    size, frames = check_window_args(args)
    substeps = _check_lab_args(args)
    from flightsim.app.window import configure_pyglet

    configure_pyglet(headless=args.headless)
    from flightsim.app.keymap import load_keymap
    from flightsim.simulation.controls import ControlSchedule
    from flightsim.simulation.flight import DEFAULT_DT, Simulation

    keymap = load_keymap(args.keymap)
    sim = Simulation(aircraft=args.aircraft, integrator=args.integrator,
                     dt=DEFAULT_DT if args.dt is None else args.dt)
    schedule = ControlSchedule.from_csv(args.controls, sim.controls) if args.controls else None
    return open_app(args, sim, keymap, size, frames, caption=f"flightsim - {sim.aircraft.name}",
                    ghost=args.ghost, ghost_integrator=args.ghost_integrator, ghost_substeps=substeps,
                    record_dir=Path(args.record_dir).expanduser(), schedule=schedule)


def open_app(args, sim, keymap, size, frames, caption, **app_options):
    """Open the window, run a :class:`~flightsim.app.app.FlightApp` on ``sim`` and close it; return 0,
    or 2 when there is no usable display (one line on stderr)."""
    from flightsim.app.window import DisplayUnavailable, open_window
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES

    try:
        window = open_window(*size, fullscreen=args.fullscreen, visible=not args.headless,
                             caption=caption, samples=args.msaa)
    except DisplayUnavailable as exc:
        print(f"flightsim: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from flightsim.app.app import FlightApp

    app = FlightApp(window, sim, keymap, INTEGRATORS, TIME_SCALES, use_gamepads=not args.no_gamepad,
                    **app_options)
    saved = None
    try:
        app.cameras.set_mode(args.camera)
        app.run(frames=frames, screenshot=args.screenshot, fps_cap=60.0 if frames is not None else None)
    finally:
        saved = app.close()
    if saved is not None:
        print(f"flightsim: trace saved: {saved}", file=sys.stderr)
    return 0

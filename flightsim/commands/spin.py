"""``flightsim spin``: a torque-free rigid body tumbling in space, its ghost, and the integrators' numerics.

Options parse here without importing pyglet or imgui; :func:`run` imports
them.  Exit codes: 0 after a normal run or capture, 2 for bad input
(``flightsim: error: ...``) or when there is no display.
"""

from __future__ import annotations

import sys

from flightsim.commands.fly import add_capture_arguments, check_window_args
from flightsim.commands.options import seconds, write_error
from flightsim.errors import InputError

EXIT_USAGE = 2


def add_arguments(parser):
    """Add the ``spin`` options to ``parser``."""
    from flightsim.simulation.lab import SPIN_BODIES

    parser.add_argument("--body", default="t-handle", metavar="NAME|FILE.toml",
                        help=f"the body: {', '.join(SPIN_BODIES)}, or a TOML file with inertia (kg·m²: three "
                             "principal moments or a 3×3 tensor) and omega (rad/s) (default t-handle)")
    parser.add_argument("--integrator", default="euler", metavar="NAME",
                        help="the body's integrator (see `flightsim integrators`; switch live in the HUD); "
                             "default euler")
    parser.add_argument("--ghost", default="exact", metavar="NAME",
                        help="the ghost beside it: exact (the closed-form solution, default), an integrator, or none")
    parser.add_argument("--dt", type=seconds, default=1 / 60, metavar="SECONDS",
                        help="physics step, e.g. 1/60 (default) or 1/30")
    add_capture_arguments(parser)


def _simulation(args):
    """The :class:`~flightsim.simulation.spin.SpinSimulation` the options ask for (InputError naming the option)."""
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.spin import EXACT, SpinSimulation, resolve_spin_body

    try:
        body = resolve_spin_body(args.body)
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError("--body", "", str(exc).split(": ", 1)[-1]) from None
    for option, name in (("--integrator", args.integrator), ("--ghost", args.ghost)):
        if name not in INTEGRATORS and not (option == "--ghost" and name in ("exact", "none")):
            extra = "exact, none, " if option == "--ghost" else ""
            raise InputError(option, "", f"unknown integrator {name!r}; valid: {extra}{', '.join(INTEGRATORS)}")
    ghost = {"exact": EXACT, "none": None}.get(args.ghost, args.ghost)
    return SpinSimulation(body, args.integrator, args.dt, ghost)


def run(args) -> int:
    """Open the window and show the spinning body (or capture frames); return the exit code."""
    size, frames = check_window_args(args)
    sim = _simulation(args)
    from flightsim.app.window import DisplayUnavailable, configure_pyglet

    configure_pyglet(headless=args.headless)
    from flightsim.app.window import open_window

    try:
        window = open_window(*size, fullscreen=args.fullscreen, visible=not args.headless,
                             caption=f"flightsim spin - {sim.body.label}", samples=args.msaa)
    except DisplayUnavailable as exc:
        print(f"flightsim: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from flightsim.app.spin_app import SpinApp
    from flightsim.physics.integrators import INTEGRATORS

    app = SpinApp(window, sim, INTEGRATORS)
    try:
        app.run(frames=frames, screenshot=args.screenshot, fps_cap=60.0 if frames is not None else None)
    except OSError as exc:
        if args.screenshot is None:
            raise
        raise write_error("--screenshot", args.screenshot, exc) from None
    finally:
        app.close()
    return 0

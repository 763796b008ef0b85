"""The ``flightsim`` command line.

``flightsim`` with no subcommand flies (``flightsim fly``).  Bad input ends
in one line ``flightsim: error: …`` on stderr and exit code 2, never a
traceback: a bad option (argparse, :class:`~flightsim.commands.options.OneLineParser`),
a bad file (:class:`~flightsim.errors.InputError`), or a bad argument the
simulation rejects (its ``ValueError`` names the argument; the flag is named
here, :func:`~flightsim.commands.options.option_error`).
"""

import os
import sys

import flightsim
from flightsim.commands.options import OneLineParser, option_error
from flightsim.errors import InputError

EXIT_USAGE = 2


def _cmd_integrators(args):
    from flightsim.math import kernels
    from flightsim.physics.integrators import INTEGRATORS

    print(f"{'name':<16} {'order':>5}  description")
    for it in INTEGRATORS.values():
        print(f"{it.name:<16} {it.order:>5}  {it.description}")
    print()
    print("Per-step error of each orientation increment against the exact exponential")
    print("(rotation-angle error in rad for a step turning by θ, and |Δq| − 1 before normalising):")
    angles = (0.01, 0.1, 0.5)
    head = "".join(f"  {'θ=' + str(a) + ' angle':>15} {'|Δq|-1':>10}" for a in angles)
    print(f"{'increment':<16}{head}")
    for name in kernels.INCREMENTS:
        cells = []
        for a in angles:
            err, nerr = kernels.increment_error(name, a)
            cells.append(f"  {err:>15.2e} {nerr:>10.1e}")
        print(f"{name:<16}{''.join(cells)}")
    return 0


def _no_arguments(parser):
    """A command without options."""


#: The subcommands: name, help, module in :mod:`flightsim.commands` (None: this one), how its
#: options are added, and what runs it.  Each module imports the heavy parts (the app, numba
#: compilation) only when it runs.
COMMANDS = (
    ("fly", "open the window and fly (the default)", "fly", "add_arguments", "run"),
    ("replay", "play a trace CSV back in the window (HUD and cameras as in flight)", "replay", "add_arguments", "run"),
    ("aircraft", "list the shipped airplanes (the names --aircraft takes)", "aircraft", "add_arguments", "run"),
    ("airfields", "list the world's airfields, runways, ILS and VOR stations (the names --airfield and --runway "
     "take; --json)", "airfields", "add_arguments", "run"),
    ("integrators", "list the orientation integrators (name, order, description)", None, _no_arguments,
     _cmd_integrators),
    ("simulate", "run a flight with no window; write a trace CSV", "simulate", "add_arguments", "run"),
    ("lesson", "fly a scored lesson (landing, engine-failure, steep-turns, crosswind-landing, partial-panel) and "
     "get its debrief", "lesson", "add_arguments", "run"),
    ("trim", "find the steady flight (pitch, throttle, elevator, ...) at an airspeed", "trim",
     "add_condition_arguments", "run_trim"),
    ("modes", "the airplane's dynamic modes about a trim (short period, phugoid, ...)", "trim",
     "add_condition_arguments", "run_modes"),
    ("wind", "write the Dryden turbulence met flying straight and level North (CSV)", "wind", "add_arguments",
     "run"),
    ("bench", "measure every integrator's accuracy and cost; write a table and plots", "bench", "add_arguments", "run"),
    ("devices", "list the joysticks and game controllers plugged in, their axes and buttons (--watch: live)",
     "devices", "add_arguments", "run"),
    ("warmup", "compile all of the physics ahead (a first start compiles only what it flies)", "warmup",
     "add_arguments", "run"),
    ("spin", "a torque-free body tumbling in space (T-handle, racket, ...) beside its exact ghost", "spin",
     "add_arguments", "run"),
    ("script", "run a JSBSim script (<runscript>: its aircraft, reset file, run and CSV outputs) as JSBSim does",
     "script", "add_arguments", "run"),
    ("campaign", "fly a spec's dispersed runs (here on every core, or --ray on a cluster); write each run's row "
     "(Parquet, CSV) and a summary with plots", "campaign", "add_arguments", "run"),
    ("verify", "fly a JSBSim aircraft (yours: a path) in flightsim and in JSBSim; print README's table row "
     "(exit 1: outside the bounds)", "verify", "add_arguments", "run"),
)


def build_parser(only=None):
    """The argument parser with every subcommand of :data:`COMMANDS`.

    ``only`` names the one subcommand whose options are added (the one being run): the others
    are listed with their help line but their modules are not imported, so a command starts
    without importing what the others need (``flightsim --version`` in a quarter of a second).
    """
    import importlib

    parser = OneLineParser(
        prog="flightsim",
        description="Fly Bourg's airplane (or a Cessna 172R) and see the numerics of its quaternion integrators.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {flightsim.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, text, module, add, run in COMMANDS:
        p = sub.add_parser(name, help=text)
        if only is not None and name != only:
            continue
        if module is not None:
            module = importlib.import_module(f"flightsim.commands.{module}")
            add, run = getattr(module, add), getattr(module, run)
        add(p)
        p.set_defaults(func=run)
    return parser


def main(argv=None):
    """Entry point of the ``flightsim`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = ["fly", *argv]
    names = [c[0] for c in COMMANDS]
    parser = build_parser(only=argv[0] if argv[0] in names else "")
    args = parser.parse_args(argv)
    try:
        # nothing to compile, or says so itself (verify: once its input is checked, so that an error is one line)
        if args.command in ("aircraft", "airfields", "integrators", "devices", "warmup", "verify"):
            return int(args.func(args) or 0)
        from flightsim.commands.first_start import GENERIC, first_start

        said = []
        # (a command that flies no aircraft, the spin lab's body, says so only when numba starts: GENERIC)
        cold = (first_start(args.aircraft, getattr(args, "integrator", "euler")) if hasattr(args, "aircraft")
                else None)
        args.first_start = cold         # (found once: the app's splash says the same, fly.open_app)

        def say():
            if not said:
                print(f"flightsim: {cold.message if cold is not None else GENERIC}", file=sys.stderr, flush=True)
                said.append(True)

        if cold is not None and cold.sure:  # said before the imports (most of a second): the cache says it compiles
            say()
        from flightsim.physics.compiling import CompileWatch

        with CompileWatch(on_first=say):
            return int(args.func(args) or 0)
    except InputError as exc:
        print(f"flightsim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:   # the simulation's "dt: ...", "integrator: ...": the flag that set it
        error = option_error(exc)
        if error is None:
            raise
        print(f"flightsim: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `flightsim integrators | head`: the reader left; that is fine
        sys.stdout = open(os.devnull, "w")
        return 0

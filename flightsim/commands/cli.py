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


def _add_fly(sub):
    from flightsim.commands import fly as fly_command

    p = sub.add_parser("fly", help="open the window and fly (the default)")
    fly_command.add_arguments(p)
    p.set_defaults(func=fly_command.run)
    return p


def _add_replay(sub):
    from flightsim.commands import replay as replay_command

    p = sub.add_parser("replay", help="play a trace CSV back in the window (HUD and cameras as in flight)")
    replay_command.add_arguments(p)
    p.set_defaults(func=replay_command.run)
    return p


def build_parser():
    """The argument parser with every subcommand."""
    parser = OneLineParser(
        prog="flightsim",
        description="Fly Bourg's airplane and see the numerics of its quaternion integrators.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {flightsim.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_fly(sub)
    _add_replay(sub)
    p = sub.add_parser("integrators", help="list the orientation integrators (name, order, description)")
    p.set_defaults(func=_cmd_integrators)
    from flightsim.commands import bench as bench_command, simulate as simulate_command

    p = sub.add_parser("simulate", help="run a flight with no window; write a trace CSV")
    simulate_command.add_arguments(p)
    p.set_defaults(func=simulate_command.run)
    from flightsim.commands import trim as trim_command

    p = sub.add_parser("trim", help="find the steady flight (pitch, throttle, elevator, ...) at an airspeed")
    trim_command.add_condition_arguments(p)
    p.set_defaults(func=trim_command.run_trim)
    p = sub.add_parser("modes", help="the airplane's dynamic modes about a trim (short period, phugoid, ...)")
    trim_command.add_condition_arguments(p)
    p.set_defaults(func=trim_command.run_modes)
    from flightsim.commands import wind as wind_command

    p = sub.add_parser("wind", help="write the Dryden turbulence met flying straight and level North (CSV)")
    wind_command.add_arguments(p)
    p.set_defaults(func=wind_command.run)
    p = sub.add_parser("bench", help="measure every integrator's accuracy and cost; write a table and plots")
    bench_command.add_arguments(p)
    p.set_defaults(func=bench_command.run)
    return parser


def main(argv=None):
    """Entry point of the ``flightsim`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = ["fly", *argv]
    args = parser.parse_args(argv)
    try:
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

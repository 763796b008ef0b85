"""``flightsim script``: run a JSBSim script (``<runscript>``) as ``JSBSim --root=DIR --script=FILE`` runs it, its
aircraft flown by flightsim: its events run, their notices printed on stdout as JSBSim prints them, its outputs
written (see :mod:`flightsim.simulation.script`)."""

import sys

from flightsim.physics.planet import PLANET_CHOICES


def add_arguments(p):
    """Options of ``flightsim script``."""
    p.add_argument("script", metavar="SCRIPT.xml", help="the JSBSim script (a path, or one under --root)")
    p.add_argument("--root", metavar="DIR",
                   help="JSBSim's root folder (its aircraft/ folder holds NAME/NAME.xml and the reset files; "
                        "default: the jsbsim package's data)")
    p.add_argument("--integrator", default="rk4", metavar="NAME",
                   help="an integrator listed by `flightsim integrators` (default: rk4)")
    p.add_argument("--planet", choices=PLANET_CHOICES, default=None,
                   help="the planet (default: round, the aircraft file's <planet> or WGS-84)")


def run(args):
    """Run the script; exit 0, 2 on bad input (one line, nothing written), 1 when the flight stops early."""
    from flightsim.simulation.script import run_script

    try:
        script = run_script(args.script, args.root, args.integrator, args.planet)
    except RuntimeError as exc:
        print(f"flightsim: {args.script}: {exc}; nothing written", file=sys.stderr)
        return 1
    for out in script.outputs:
        print(f"flightsim: wrote {out.path}")
    return 0

"""``flightsim bench``: measure every integrator; write a Markdown table and log-log plots."""

import importlib.util
import sys

from flightsim.commands.options import output_folder, write_error
from flightsim.errors import InputError


def add_arguments(p):
    p.add_argument("--out", default="bench", metavar="DIR",
                   help="folder for integrators.md, error_vs_dt.png, error_vs_cost.png (default: ./bench)")
    p.add_argument("--quick", action="store_true", help="three steps instead of five, a coarser airplane reference")
    p.add_argument("--integrators", metavar="NAMES", help="comma-separated subset (default: all)")


def run(args):
    """Run the measurements; print the table; return 0."""
    from flightsim.commands import lab_report
    from flightsim.physics.integrators import INTEGRATORS

    if importlib.util.find_spec("scipy") is None:  # the free-body reference needs it
        raise InputError("flightsim bench", "", "needs scipy: pip install -e '.[bench]'")
    names = None
    if args.integrators:
        names = [n.strip() for n in args.integrators.split(",") if n.strip()]
        unknown = [n for n in names if n not in INTEGRATORS]
        if unknown:
            raise InputError("--integrators", "", f"unknown name {unknown[0]!r}; valid: {', '.join(INTEGRATORS)}")
    out = output_folder("--out", args.out, create=True)      # before the measurements, which take minutes
    try:
        _, table, plots = lab_report.run(out, quick=args.quick, progress=sys.stderr.isatty(), names=names)
    except OSError as exc:
        raise write_error("--out", exc.filename or out, exc) from None
    print(table)
    print(f"wrote {out / 'integrators.md'}")
    for p in plots:
        print(f"wrote {p}")
    if not plots:
        print("no plots: matplotlib is not installed (pip install -e '.[bench]')")
    return 0

"""NASA's NESC six-degree-of-freedom check cases flown by flightsim: the largest difference to the reference.

What is measured
----------------
Each case of :data:`flightsim.verify.nesc.CASES` (atmospheric cases 1–4 and 6–9 of NASA/TM-2015-218675) is a
JSBSim script under ``configs/nesc/`` (its vehicle, its planet in the aircraft file's ``<planet>``, its initial
conditions and its output of NESC's column names).  flightsim runs it as ``flightsim script`` does
(:func:`flightsim.simulation.script.run_script`: the round planet, the script's own dt — 100 Hz, 200 Hz for
case 4), with each integrator asked for; the output is compared with the median of the reference simulations
that agree with each other (``configs/nesc/reference/``, NASA's data thinned to whole seconds; which
simulations and why: ``configs/nesc/README.md``) at every whole second.  Each cell is the largest difference
over the run as a fraction of the issue's bound: altitude 2 ft, latitude and longitude 2e-6°, Euler angles
0.05° (a cell ≤ 1 is within the bound).

By default every case with ``rk4``, ``midpoint`` and ``euler`` (fourth, second and first order), then the two
tumbling-brick cases (2 and 3, 100 Hz) with every registered integrator: where the choice of integrator shows.

How to run
----------
::

    python benchmarks/nesc.py                       # the table of every case, then the brick cases' table
    python benchmarks/nesc.py --cases 2,6 --integrators rk4,exact
    python benchmarks/nesc.py --markdown            # README's tables
"""

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.script import run_script
from flightsim.verify import nesc

#: The integrators of the table of every case: fourth, second and first order.
DEFAULT_INTEGRATORS = ("rk4", "midpoint", "euler")
#: The cases flown with every registered integrator.
BRICK_CASES = (2, 3)


def fly(case, integrator):
    """Fly ``case`` with ``integrator`` through the script path; returns (fraction per variable, seconds)."""
    root = nesc.nesc_root()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                script = run_script(root / case.script, root, integrator)
            seconds = time.perf_counter() - start
            columns = nesc.read_output(Path(folder) / script.outputs[0].path)
        finally:
            os.chdir(here)
    return nesc.compare(case.number, columns), seconds


def table(rows, variables, markdown):
    """The rows ``(case, integrator, fractions)`` as text or Markdown."""
    short = [v.replace("eulerAngle_deg_", "").replace("altitudeMsl_ft", "altitude").replace("_deg", "")
             for v in variables]
    head = ["case", "integrator", *short, "worst"]
    lines = []
    for case, integrator, fractions in rows:
        cells = [fractions.get(v) for v in variables]
        worst = max(c for c in cells if c is not None)
        lines.append([str(case), integrator, *("—" if c is None else f"{c:.3f}" for c in cells), f"{worst:.3f}"])
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(r) + " |" for r in lines]
        return "\n".join(out)
    widths = [max(len(r[k]) for r in [head, *lines]) for k in range(len(head))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *lines])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=None, metavar="N,N", help="the cases (default: all)")
    parser.add_argument("--integrators", default=",".join(DEFAULT_INTEGRATORS), metavar="NAMES",
                        help=f"the integrators of the first table (default: {','.join(DEFAULT_INTEGRATORS)})")
    parser.add_argument("--no-brick-sweep", action="store_true",
                        help="leave out the brick cases flown with every registered integrator")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    cases = nesc.CASES if args.cases is None else tuple(nesc.case(int(n)) for n in args.cases.split(","))
    names = args.integrators.split(",")
    for name in names:
        if name not in INTEGRATORS:
            parser.error(f"--integrators: unknown integrator {name!r}")
    variables = list(nesc.POSITION + nesc.ANGLES)
    rows = []
    for case in cases:
        for name in names:
            fractions, seconds = fly(case, name)
            rows.append((case.number, name, fractions))
            print(f"case {case.number:2d} {name:>16}: worst {max(fractions.values()):.3f} of the bounds "
                  f"({seconds:.1f} s)", file=sys.stderr)
    print("NESC check cases: largest |flightsim - reference median| over whole seconds, as a fraction of the bound "
          "(altitude 2 ft, latitude/longitude 2e-6 deg, Euler angles 0.05 deg)\n")
    print(table(rows, variables, args.markdown))
    if args.no_brick_sweep:
        return 0
    sweep = []
    for number in BRICK_CASES:
        if args.cases is not None and all(c.number != number for c in cases):
            continue
        case = nesc.case(number)
        for name in INTEGRATORS:
            fractions, seconds = fly(case, name)
            sweep.append((number, name, fractions))
            print(f"case {number:2d} {name:>16}: worst {max(fractions.values()):.3f} ({seconds:.1f} s)",
                  file=sys.stderr)
    if sweep:
        print("\nThe tumbling brick (cases 2 and 3) at 100 Hz with every registered integrator:\n")
        print(table(sweep, variables, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())

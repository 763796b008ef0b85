"""JSBSim flying NASA's NESC atmospheric check cases: its distance from the references, in bounds.

Runs every case's script of ``configs/nesc/scripts`` in the installed ``jsbsim`` package (the
root folder ``configs/nesc``), each in a process of its own, reads its CSV output and compares it
with ``configs/nesc/reference/atmos_NN.csv`` at every whole second (``flightsim.verify.nesc.compare``):
each cell is the largest ``|JSBSim - reference| / bound`` (bounds: 2 ft, 2e-6 deg, 0.05 deg), so
1.0 is at the bound. The last column is the reference's own spread, in the same units, for the
case's worst variable::

    python benchmarks/nesc_jsbsim.py [--markdown FILE] [--keep DIR] [--set PROPERTY=VALUE ...] [CASE ...]

``--keep DIR`` keeps the CSV outputs there. ``--set`` sets a JSBSim property after the script is
loaded, before the initial conditions run, for every case (the files are JSBSim's defaults otherwise):
``--set simulation/integrator/rate/rotational=5`` flies the body rates with Adams-Bashforth 4 (JSBSim's
defaults: 1, rectangular Euler, for the rotational rates and the attitude; 3 and 4, Adams-Bashforth 2
and 3, for the velocity and the position).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from flightsim.verify.nesc import CASES, bound, case, compare, nesc_root, read_output, reference

RUN = """
import sys, jsbsim
root, script, out = sys.argv[1:4]
fdm = jsbsim.FGFDMExec(root)
fdm.set_debug_level(0)
if not fdm.load_script(script):
    sys.exit("JSBSim did not load " + script)
for setting in sys.argv[4:]:
    name, value = setting.split("=")
    fdm[name] = float(value)
fdm.set_output_filename(0, out)
fdm.run_ic()
while fdm.run():
    pass
print(jsbsim.__version__)
"""


def run_case(number: int, folder: Path, settings=()) -> tuple[Path, str]:
    """Run one case's script in JSBSim (its own process); its CSV output and JSBSim's version."""
    entry = case(number)
    out = folder / f"nesc_{number:02d}.csv"
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(nesc_root()), entry.script, str(out), *settings],
        capture_output=True, text=True, cwd=folder, check=False,
    )
    if done.returncode or not out.exists():
        raise RuntimeError(f"case {number}: JSBSim failed\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return out, done.stdout.strip().splitlines()[-1]


def spread(number: int, name: str) -> float:
    """The reference's largest spread of one variable, in bounds."""
    return float(np.max(reference(number)[name + "_spread"])) / bound(name)


SHORT = {"altitudeMsl_ft": "alt", "latitude_deg": "lat", "longitude_deg": "lon",
         "eulerAngle_deg_Yaw": "yaw", "eulerAngle_deg_Pitch": "pitch", "eulerAngle_deg_Roll": "roll"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", type=int, help="case numbers (default: all)")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown to FILE")
    parser.add_argument("--keep", type=Path, help="keep the CSV outputs in DIR")
    parser.add_argument("--set", action="append", default=[], metavar="PROPERTY=VALUE",
                        help="set a JSBSim property before the initial conditions (repeatable)")
    args = parser.parse_args(argv)
    numbers = args.cases or [entry.number for entry in CASES]
    names = list(SHORT)
    rows = []
    version = "?"
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for number in numbers:
            out, version = run_case(number, folder.resolve(), args.set)
            fractions = compare(number, read_output(out))
            worst = max(fractions, key=fractions.get)
            rows.append((number, fractions, worst, spread(number, worst)))
    header = ["case"] + [SHORT[name] for name in names] + ["worst", "ref spread"]
    title = f"JSBSim {version} on the NESC check cases: largest |JSBSim - reference| / bound over whole seconds"
    if args.set:
        title += " (" + ", ".join(args.set) + ")"
    lines = [title,
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for number, fractions, worst, ref_spread in rows:
        cells = [f"{fractions[name]:.3f}" if name in fractions else "-" for name in names]
        lines.append(f"| {number} | " + " | ".join(cells) + f" | {SHORT[worst]} | {ref_spread:.3f} |")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

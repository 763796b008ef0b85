"""Regenerate ``configs/nesc/reference/atmos_NN.csv`` from NASA's published NESC trajectories.

The source is the folder of NASA's files, ``Atmospheric_checkcases/Atmos_NN_*/Atmos_NN_sim_0K.csv``
(NASA/TM-2015-218675's six reference simulations; NASA Open Source Agreement 1.3), as NASA's
simupy-flight repository distributes them under ``NESC_data/`` (https://github.com/nasa/simupy-flight);
this project keeps a copy in the shared folder ``/work/shared/reference/nesc`` (see its ``SOURCE.md``).

For each case and each compared variable (``flightsim.verify.nesc``'s cases), every simulation's
series is interpolated linearly from its own time steps to the whole seconds 0 ... 30 (Euler angles
unwrapped first), and the reference is the median of the simulations that agree with each other,
with the spread (largest minus smallest of them; angles modulo 360). The agreeing simulations are
found by dropping, one at a time, the simulation furthest from the median of all (as a fraction of
the bounds, over all compared variables) while it is more than one bound away and at least three
would remain; the script checks that this gives the simulations ``CASES`` names, and prints each
simulation's distance::

    python benchmarks/nesc_reference.py [--source /work/shared/reference/nesc] [--check]

``--check`` writes nothing and fails when the files differ from what it would write.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

import numpy as np

from flightsim.verify.nesc import ANGLES, CASES, bound, nesc_root

SOURCE = Path("/work/shared/reference/nesc")
SECONDS = np.arange(0.0, 31.0)
#: a simulation further than this from the median (in bounds) is dropped as an outlier
FAR = 1.0

HEADER = """\
# NASA NESC atmospheric check case {number:02d} ({title}): the median of the published reference
# simulations {sims} at each whole second (interpolated linearly from each simulation's own time
# steps), and <variable>_spread = the largest difference between them. Units: s, ft, deg.
# Source: NASA/TM-2015-218675, data from NASA's simupy-flight repository (NESC_data/), distributed
# under the NASA Open Source Agreement 1.3 (see ../LICENSE-NOSA-1.3.txt and ../README.md).
# Regenerate with benchmarks/nesc_reference.py.
"""


def read_sim(path: Path) -> dict[str, np.ndarray]:
    """One simulation's CSV: column name -> values."""
    with open(path, newline="") as handle:
        rows = csv.reader(handle)
        header = [name.strip() for name in next(rows)]
        values = np.array([[float(cell) for cell in row] for row in rows if row], dtype=float)
    return {name: values[:, k] for k, name in enumerate(header)}


def at_seconds(sim: dict[str, np.ndarray], name: str) -> np.ndarray:
    """One variable at the whole seconds (angles unwrapped, so continuous)."""
    values = sim[name]
    if name in ANGLES:
        values = np.degrees(np.unwrap(np.radians(values)))
    return np.interp(SECONDS, sim["time"], values)


def aligned(series: dict[str, np.ndarray], name: str) -> dict[str, np.ndarray]:
    """Angles shifted by whole turns onto the first simulation's, so medians and spreads are modulo 360."""
    if name not in ANGLES or not series:
        return series
    first = next(iter(series.values()))
    return {key: value - 360.0 * np.round((value - first) / 360.0) for key, value in series.items()}


def distances(sims: dict[str, dict[str, np.ndarray]], keep: list[str], variables) -> dict[str, float]:
    """Each kept simulation's largest distance from the kept ones' median, in bounds."""
    far = dict.fromkeys(keep, 0.0)
    for name in variables:
        series = aligned({key: at_seconds(sims[key], name) for key in keep if name in sims[key]}, name)
        if len(series) < 2:
            continue
        median = np.median(np.array(list(series.values())), axis=0)
        for key, value in series.items():
            far[key] = max(far[key], float(np.max(np.abs(value - median))) / bound(name))
    return far


def agreeing(sims: dict[str, dict[str, np.ndarray]], variables) -> tuple[list[str], list[str]]:
    """The agreeing simulations, and a line per step of the selection."""
    keep = sorted(sims)
    lines = []
    while True:
        far = distances(sims, keep, variables)
        lines.append("  " + "  ".join(f"sim {key}: {far[key]:8.3f}" for key in keep))
        worst = max(keep, key=far.get)
        if far[worst] <= FAR or len(keep) <= 3:
            return keep, lines
        lines.append(f"  drop sim {worst}")
        keep.remove(worst)


def table(entry, sims: dict[str, dict[str, np.ndarray]]) -> str:
    """The reference file's text."""
    columns = {"time": SECONDS}
    for name in entry.variables:
        series = aligned({key: at_seconds(sims[key], name) for key in entry.sims if name in sims[key]}, name)
        stack = np.array(list(series.values()))
        median = np.median(stack, axis=0)
        if name in ANGLES:
            median = (median + 180.0) % 360.0 - 180.0
        columns[name] = median
        columns[name + "_spread"] = stack.max(axis=0) - stack.min(axis=0)
    out = io.StringIO()
    out.write(HEADER.format(number=entry.number, title=entry.title, sims=", ".join(entry.sims)))
    out.write(",".join(columns) + "\n")
    for k in range(len(SECONDS)):
        out.write(",".join(f"{columns[name][k]:.12g}" for name in columns) + "\n")
    return out.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="NASA's NESC folder (default %(default)s)")
    parser.add_argument("--check", action="store_true", help="write nothing; fail if the files would change")
    args = parser.parse_args(argv)
    folder = nesc_root() / "reference"
    failed = False
    for entry in CASES:
        paths = sorted((args.source / "Atmospheric_checkcases").glob(f"Atmos_{entry.number:02d}_*/*_sim_*.csv"))
        if not paths:
            print(f"case {entry.number}: no files under {args.source}", file=sys.stderr)
            return 2
        sims = {path.stem[-2:]: read_sim(path) for path in paths}
        keep, lines = agreeing(sims, entry.variables)
        print(f"case {entry.number:02d} ({entry.title}): agreeing sims {', '.join(keep)}")
        print("\n".join(lines))
        if tuple(keep) != entry.sims:
            print(f"  CASES names sims {', '.join(entry.sims)}: update flightsim/verify/nesc.py", file=sys.stderr)
            failed = True
            continue
        text = table(entry, sims)
        path = folder / f"atmos_{entry.number:02d}.csv"
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"  {path} differs", file=sys.stderr)
                failed = True
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

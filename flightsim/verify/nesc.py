"""NASA's NESC atmospheric check cases: the thinned references and the comparison with them.

NASA/TM-2015-218675, "Check-cases for verification of 6-degree-of-freedom flight vehicle
simulations" (NASA Engineering and Safety Center, 2015), published the trajectories of six
simulations flying the same cases. ``configs/nesc/`` holds the cases 1, 2, 3, 4, 6, 7, 8 and 9
as JSBSim scripts and, in ``configs/nesc/reference/atmos_NN.csv``, the median of the
simulations that agree with each other at each whole second (with their spread), made by
``benchmarks/nesc_reference.py`` from NASA's files (NASA Open Source Agreement 1.3; see
``configs/nesc/README.md``).

This module reads those references and compares a run's output with them, as fractions of
the bounds in :data:`BOUNDS`. It does not run anything itself (and does not import jsbsim).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "ANGLES",
    "BOUNDS",
    "CASES",
    "POSITION",
    "NescCase",
    "bound",
    "case",
    "compare",
    "nesc_root",
    "read_output",
    "reference",
]

#: The compared position variables (NESC's column names).
POSITION = ("altitudeMsl_ft", "latitude_deg", "longitude_deg")
#: The compared Euler angles (NESC's column names), in degrees, compared modulo 360.
ANGLES = ("eulerAngle_deg_Yaw", "eulerAngle_deg_Pitch", "eulerAngle_deg_Roll")

#: The bounds of the comparison: altitude in ft, latitude and longitude in deg, the Euler angles in deg.
BOUNDS = {
    "altitudeMsl_ft": 2.0,
    "latitude_deg": 2e-6,
    "longitude_deg": 2e-6,
    "eulerAngle_deg_*": 0.05,
}


@dataclass(frozen=True)
class NescCase:
    """One NESC atmospheric check case.

    Attributes
    ----------
    number : int
        The case's number in NASA/TM-2015-218675 (1 for Atmos_01 ...).
    title : str
        The case's title, as the report names it.
    script : str
        The JSBSim script, relative to :func:`nesc_root`.
    variables : tuple of str
        The compared variables (NESC's column names).
    sims : tuple of str
        The simulations ("01" ... "06") whose median is the reference.
    why : str
        Why these simulations (which were left out, and why).
    """

    number: int
    title: str
    script: str
    variables: tuple[str, ...]
    sims: tuple[str, ...]
    why: str

    @property
    def bounds(self) -> dict[str, float]:
        """The bound of each compared variable (see :data:`BOUNDS`)."""
        return {name: bound(name) for name in self.variables}


_ALL = POSITION + ANGLES
_AGREE = "all the published simulations agree within a fraction of the bounds"

#: The eight cases, in order.
CASES = (
    NescCase(1, "Dropped sphere with no drag", "scripts/nesc_01.xml", _ALL, ("01", "02", "03", "04", "05", "06"),
             _AGREE + " (sim 03 logs no Euler angles)"),
    NescCase(2, "Tumbling brick with no damping or drag", "scripts/nesc_02.xml", _ALL, ("01", "04", "05", "06"),
             "sim 02 drifts in attitude by degrees (up to 3.7 deg by 30 s, as the report says); "
             "no sim 03 was published"),
    NescCase(3, "Tumbling brick with dynamic damping, no drag", "scripts/nesc_03.xml", _ALL, ("04", "05", "06"),
             "sim 02 drifts in attitude by degrees (0.6 deg) and sim 01 by 0.3 deg in yaw; the three others "
             "agree within 0.09 deg (spread up to 1.8 times the angle bound); no sim 03 was published"),
    NescCase(4, "Dropped sphere over non-rotating, spherical Earth", "scripts/nesc_04.xml", _ALL,
             ("04", "05", "06"),
             "sim 02 ends 18 ft lower and 5 deg off in attitude (up to 100 and 9 bounds); "
             "only sims 02, 04, 05, 06 were published"),
    NescCase(6, "Dropped sphere over rotating, ellipsoidal Earth", "scripts/nesc_06.xml", _ALL,
             ("01", "02", "03", "04", "05", "06"), _AGREE + " (sim 03 logs no Euler angles)"),
    NescCase(7, "Sphere dropped through a steady wind field", "scripts/nesc_07.xml", _ALL,
             ("01", "02", "03", "04", "05", "06"), _AGREE + " (sim 03 logs no Euler angles)"),
    NescCase(8, "Sphere dropped through a varying wind field", "scripts/nesc_08.xml", _ALL,
             ("01", "02", "03", "04", "05", "06"), _AGREE + " (sim 03 logs no Euler angles)"),
    NescCase(9, "Sphere launched ballistically eastward along Equator", "scripts/nesc_09.xml", _ALL,
             ("04", "05", "06"),
             "sims 01 and 03 end 4 ft below the others (and 1.2e-5 deg further west); sim 02 ends 1.4 ft below "
             "sims 04 and 05 and 4.5e-6 deg west of them, 2.1 longitude bounds from the median of 02, 04, 05, 06; "
             "04, 05 and 06 agree within 0.44 bounds"),
)


def nesc_root() -> Path:
    """The folder of the NESC cases: a JSBSim root (``aircraft/``, ``scripts/``) and ``reference/``.

    Returns
    -------
    pathlib.Path
        ``configs/nesc`` of the repository this module belongs to.
    """
    return Path(__file__).resolve().parents[2] / "configs" / "nesc"


def case(number: int) -> NescCase:
    """The case of that number.

    Parameters
    ----------
    number : int
        The case's number (1, 2, 3, 4, 6, 7, 8 or 9).

    Returns
    -------
    NescCase
        Its entry of :data:`CASES`.

    Raises
    ------
    KeyError
        When no such case is kept here.
    """
    for entry in CASES:
        if entry.number == number:
            return entry
    raise KeyError(f"no NESC case {number} here (cases: {', '.join(str(c.number) for c in CASES)})")


def bound(name: str) -> float:
    """The bound of one compared variable.

    Parameters
    ----------
    name : str
        NESC's column name.

    Returns
    -------
    float
        Its bound from :data:`BOUNDS` (every Euler angle shares ``eulerAngle_deg_*``).
    """
    if name.startswith("eulerAngle_deg_"):
        return BOUNDS["eulerAngle_deg_*"]
    return BOUNDS[name]


def _read_csv(path: Path) -> tuple[list[str], np.ndarray]:
    with open(path, newline="") as handle:
        rows = csv.reader(line for line in handle if not line.startswith("#"))
        header = [name.strip() for name in next(rows)]
        values = np.array([[float(cell) for cell in row] for row in rows if row], dtype=float)
    return header, values.reshape(-1, len(header))


def reference(number: int) -> dict[str, np.ndarray]:
    """The thinned reference of one case.

    Parameters
    ----------
    number : int
        The case's number.

    Returns
    -------
    dict of str to numpy.ndarray
        ``"time"`` (the whole seconds, s), each compared variable (the median of the agreeing
        simulations) and ``<variable>_spread`` (the largest difference between them), one value
        per whole second.
    """
    case(number)
    header, values = _read_csv(nesc_root() / "reference" / f"atmos_{number:02d}.csv")
    return {name: values[:, k].copy() for k, name in enumerate(header)}


def read_output(path: str | Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Read a JSBSim CSV output (its first column ``Time``).

    Parameters
    ----------
    path : str or pathlib.Path
        The CSV file JSBSim wrote.

    Returns
    -------
    dict of str to (numpy.ndarray, numpy.ndarray)
        Each column's caption -> (times, values), the times in s.
    """
    header, values = _read_csv(Path(path))
    if not header or header[0] != "Time":
        raise ValueError(f"{path}: not a JSBSim CSV output (its first column is {header[:1]}, not 'Time')")
    times = values[:, 0]
    return {name: (times, values[:, k]) for k, name in enumerate(header) if k}


def _wrap(difference: np.ndarray) -> np.ndarray:
    return (difference + 180.0) % 360.0 - 180.0


def compare(number: int, columns: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, float]:
    """Compare a run with one case's reference, at every whole second.

    Parameters
    ----------
    number : int
        The case's number.
    columns : dict of str to (numpy.ndarray, numpy.ndarray)
        Caption -> (times in s, values), as :func:`read_output` gives them; the captions are
        NESC's column names. A run's values are interpolated linearly to the whole seconds
        (those past its last time are not compared).

    Returns
    -------
    dict of str to float
        Each compared variable the run logs -> the largest ``|run - reference| / bound`` over the
        whole seconds (angles' differences wrapped to [-180, 180)); ``nan`` where no whole second
        is covered.
    """
    entry = case(number)
    ref = reference(number)
    fractions = {}
    for name in entry.variables:
        if name not in columns:
            continue
        times, values = (np.asarray(a, dtype=float) for a in columns[name])
        seconds = ref["time"]
        inside = (seconds >= times[0] - 1e-9) & (seconds <= times[-1] + 1e-9)
        if not inside.any():
            fractions[name] = float("nan")
            continue
        if name in ANGLES:
            # unwrap before interpolating: a wrap between two samples is not a swing across the circle
            values = np.degrees(np.unwrap(np.radians(values)))
        run = np.interp(seconds[inside], times, values)
        difference = run - ref[name][inside]
        if name in ANGLES:
            difference = _wrap(difference)
        fractions[name] = float(np.max(np.abs(difference)) / bound(name))
    return fractions

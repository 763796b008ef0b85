"""Flight traces: a table of states over time, written as CSV.

Columns (book frames, lengths in the aircraft file's unit, angles in degrees
with aviation signs)::

    t, x, y, z, vx, vy, vz, qw, qx, qy, qz, p, q, r, roll, pitch, heading,
    airspeed, alpha, throttle, elevator, aileron, rudder, flaps

``x, y, z`` earth position (x North, y West, z up); ``vx, vy, vz`` earth
velocity; ``qw..qz`` orientation body → earth; ``p, q, r`` body angular
velocity (rad/s, about body x forward, y left, z up); roll + right wing down,
pitch + nose up, heading 0–360 clockwise from North; alpha the angle of
attack of the body x axis.
"""

import csv
import os
import tempfile
from pathlib import Path

import numpy as np

from flightsim import quat

STATE_COLUMNS = ("t", "x", "y", "z", "vx", "vy", "vz", "qw", "qx", "qy", "qz", "p", "q", "r")
DERIVED_COLUMNS = ("roll", "pitch", "heading", "airspeed", "alpha")
CONTROL_COLUMNS = ("throttle", "elevator", "aileron", "rudder", "flaps")
COLUMNS = STATE_COLUMNS + DERIVED_COLUMNS + CONTROL_COLUMNS


def table(times, states, controls):
    """The trace as one float array, columns :data:`COLUMNS`.

    Parameters
    ----------
    times : array_like, shape (N,)
        s.
    states : array_like, shape (N, 13)
        ``[x, v, q, ω]`` rows (see :mod:`flightsim.integrators`).
    controls : array_like, shape (N, 5)
        throttle, elevator, aileron, rudder, flaps.
    """
    times = np.asarray(times, dtype=np.float64).reshape(-1, 1)
    states = np.asarray(states, dtype=np.float64).reshape(-1, 13)
    q = states[:, 6:10]
    angles = quat.aviation_angles(q).reshape(-1, 3)
    vb = quat.rotate(quat.conj(q), states[:, 3:6]).reshape(-1, 3)
    airspeed = np.linalg.norm(states[:, 3:6], axis=1, keepdims=True)
    alpha = np.degrees(np.arctan2(-vb[:, 2], vb[:, 0])).reshape(-1, 1)
    return np.hstack([times, states, angles, airspeed, alpha, np.asarray(controls, dtype=np.float64).reshape(-1, 5)])


def write_csv(path, rows):
    """Write a trace table atomically: a temporary file beside ``path``, renamed when complete."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            for row in rows:
                w.writerow([f"{v:.10g}" for v in row])
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

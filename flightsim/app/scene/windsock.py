"""The airfield's windsock: a striped sock on a pole that swings downwind and fills with the wind.

Earth frame as in the book (x North, y West, z up, feet).  The sock is the
FAA pattern (AC 150/5345-27): five alternating orange and white bands, each
band about 3 kt, so the sock stands straight out at 15 kt and hangs down in
calm air.  :func:`windsock_matrix` is pure numpy: the renderer draws
:func:`windsock_mesh` with it.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.app.scene import meshes
from flightsim.app.scene.meshes import Mesh, rgba
from flightsim.physics.constants import KNOT

__all__ = ["FULL_KNOTS", "SOCK_LENGTH", "sock_wind", "windsock_matrix", "windsock_mesh"]

FULL_KNOTS = 15.0
"""Wind speed at which the sock stands straight out, kt (FAA AC 150/5345-27)."""
SOCK_LENGTH = 12.0
"""ft."""
HANG_DEG = 80.0
"""How far below the horizontal the sock hangs in calm air, deg."""


def windsock_mesh(length=SOCK_LENGTH, mouth=1.5, tail=0.75, bands=5, segments=14) -> Mesh:
    """The sock in its own frame: a tapered tube along +x from its mouth at the origin, striped.

    Parameters
    ----------
    length, mouth, tail : float
        Length and the radii of the mouth and the tail, ft.
    bands : int
        Alternating orange and white bands, orange at the mouth.
    """
    a = np.linspace(0.0, 2.0 * math.pi, segments, endpoint=False)
    rings, colors = [], []
    orange, white = rgba("#f26b1d"), rgba("#f2f2ee")
    for k in range(bands):                       # each band its own two rings: sharp edges between bands
        for x in (k / bands, (k + 1) / bands):
            r = mouth + (tail - mouth) * x
            rings.append(np.stack([np.full_like(a, x * length), r * np.cos(a), r * np.sin(a)], axis=-1))
            colors.append(np.broadcast_to(orange if k % 2 == 0 else white, (segments, 4)))
    sock = meshes.grid_surface(np.array(rings), np.array(colors), wrap=True)
    hoop = meshes.cylinder(mouth + 0.08, 0.3, "#dddddd", segments=segments, caps=False)
    return Mesh.merge([sock, hoop])


def windsock_matrix(mount, wind) -> np.ndarray:
    """Earth matrix (4x4) of the sock hung at ``mount`` (ft) in the earth-frame ``wind`` velocity (ft/s).

    The sock points where the wind blows *to*; it rises from hanging :data:`HANG_DEG` below the
    horizontal in calm air to straight out at :data:`FULL_KNOTS`.  A non-finite wind reads as calm.
    """
    w = np.nan_to_num(np.asarray(wind, dtype=np.float64)[:3], nan=0.0, posinf=0.0, neginf=0.0)
    horizontal = math.hypot(w[0], w[1])
    yaw = math.atan2(w[1], w[0]) if horizontal > 1e-6 else 0.0
    fill = min(horizontal / (FULL_KNOTS * KNOT), 1.0)
    droop = math.radians(HANG_DEG) * (1.0 - fill) ** 1.5
    return meshes.translation(mount) @ meshes.rotation_z(yaw) @ meshes.rotation_y(droop)


def sock_wind(telemetry_wind, airplane_height, spec=None, sock_height=20.0):
    """The wind shown at the sock (earth frame, ft/s).

    With the flight's :class:`~flightsim.physics.wind.WindSpec` known (a live flight), the steady
    wind at the sock's height plus what the airplane meets beyond its own steady wind (gusts and
    turbulence, so the sock moves with them); without it (a replay), the wind the airplane met.
    """
    w = np.asarray(telemetry_wind, dtype=np.float64)[:3]
    if spec is None:
        return w
    return spec.steady(sock_height) + (w - spec.steady(max(float(airplane_height), 0.0)))

"""The airfield's runway: where it lies, for the starts (simulation) and the scene (app).

Earth frame as in the book: x North, y West, z up, feet; the ground is the
plane z = 0.  The runway (36/18) lies along the x axis centred on the
origin, 5000 ft ahead of the book's start position (-5000, 0, 2000) flying
North, so a pilot can fly to it and land.  The scenery
(:mod:`flightsim.app.scene.scenery`) draws this runway; the ``runway`` and
``approach`` starts (:mod:`flightsim.simulation.starts`) put the airplane on
it or on its glide path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["RUNWAY", "Runway"]


@dataclass(frozen=True)
class Runway:
    """A runway rectangle on the ground.

    Attributes
    ----------
    center : tuple of float
        (x, y) of its centre, earth frame, ft.
    heading_deg : float
        Direction of the first threshold's landing run, clockwise from North, deg.
    length, width : float
        ft.
    numbers : tuple of str
        Designators read from the first and the second threshold.
    """

    center: tuple = (0.0, 0.0)
    heading_deg: float = 0.0
    length: float = 3000.0
    width: float = 75.0
    numbers: tuple = ("36", "18")

    def axes(self):
        """Unit vectors (along, left) of the runway in earth (x, y)."""
        h = math.radians(self.heading_deg)
        along = np.array([math.cos(h), -math.sin(h)])          # heading clockwise; y is West
        left = np.array([math.sin(h), math.cos(h)])
        return along, left

    def threshold(self):
        """Earth (x, y) of the first threshold (the start of the landing run ``heading_deg``), ft."""
        along, _ = self.axes()
        return np.asarray(self.center, dtype=np.float64) - 0.5 * self.length * along

    def point(self, distance, offset=0.0):
        """Earth (x, y) ``distance`` ft down the runway from the first threshold, ``offset`` ft left of the centre
        line."""
        along, left = self.axes()
        return self.threshold() + distance * along + offset * left

    def local(self, x, y):
        """``(distance past the first threshold, offset left of the centre line)``, ft, of earth (x, y): floats, or
        arrays of x, y arrays."""
        along, left = self.axes()
        d = np.stack([np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)], axis=-1) - self.threshold()
        if d.ndim == 1:
            return float(d @ along), float(d @ left)
        return d @ along, d @ left

    def contains(self, x, y):
        """True when earth (x, y) lies on the runway's rectangle."""
        distance, offset = self.local(x, y)
        return 0.0 <= distance <= self.length and abs(offset) <= 0.5 * self.width


RUNWAY = Runway()
"""The airfield's runway: 36/18 along the x axis through the origin; threshold 36 at x = -1500 ft."""

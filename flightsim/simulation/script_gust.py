"""JSBSim's one-minus-cosine gust (``FGWinds::CosineGust``), blown by a script's ``atmosphere/cosine-gust/*``.

The properties (:data:`PROPERTIES`, each the script's own, at JSBSim's default until it is set): the startup,
steady and end durations (s), the magnitude (ft/s), the frame of the direction (0 none, 1 body, 2 wind, 3 local
North-East-down: :data:`FRAMES`) and the direction's X, Y, Z components (normalised; all 0: no gust); writing
``atmosphere/cosine-gust/start`` starts (non-zero) or stops (0) it (``FGWinds::StartGust``).

As ``FGWinds::Run`` once a frame, after the script: while the gust runs, its wind is the direction — turned to
North-East-down once, at its first frame, through that frame's attitude (body: ``Tl2b⁻¹``; wind: ``Tl2b⁻¹ Tw2b``,
with that frame's α and β; local: as it is; none: no gust) — times the magnitude times the profile
(:func:`profile`) of the time since it started (0 at its first frame, ``dt`` more each frame); once that time passes
the three durations the gust stops, its wind 0 from that frame.  The gust adds to the steady wind
(``atmosphere/wind-*-fps``) as ``vTotalWindNED`` does.  Units: ft/s, s; frames NED and JSBSim's body axes (x
forward, y right, z down).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["FRAMES", "PROPERTIES", "START", "CosineGust", "profile"]

#: The gust's settings a script writes → JSBSim's default (``FGWinds.h``: ``OneMinusCosineProfile``,
#: ``OneMinusCosineGust``).
PROPERTIES = {
    "atmosphere/cosine-gust/startup-duration-sec": 2.0,
    "atmosphere/cosine-gust/steady-duration-sec": 4.0,
    "atmosphere/cosine-gust/end-duration-sec": 2.0,
    "atmosphere/cosine-gust/magnitude-ft_sec": 1.0,
    "atmosphere/cosine-gust/frame": 3.0,
    "atmosphere/cosine-gust/X-velocity-ft_sec": 0.0,
    "atmosphere/cosine-gust/Y-velocity-ft_sec": 0.0,
    "atmosphere/cosine-gust/Z-velocity-ft_sec": 0.0,
}
#: The switch that starts (or stops) the gust.
START = "atmosphere/cosine-gust/start"
#: ``FGWinds::eGustFrame``.
FRAMES = {0: "none", 1: "body", 2: "wind", 3: "local"}


def profile(start, steady, end, t):
    """``FGWinds::CosineGustProfile``: the gust's fraction (0..1) ``t`` s after it started: ``(1 − cos πt/start)/2``
    rising, 1 steady, falling back as the rise's mirror, 0 outside."""
    if 0.0 <= t <= start:
        return (1.0 - math.cos(math.pi * t / start)) / 2.0
    if start < t <= start + steady:
        return 1.0
    if start + steady < t <= start + steady + end:
        return (1.0 - math.cos(math.pi * (1.0 - (t - (start + steady)) / end))) / 2.0
    return 0.0


class CosineGust:
    """One gust's running state (``FGWinds``' ``oneMinusCosineGust``): whether it runs, the time since it
    started (s) and its direction in North-East-down (fixed at its first frame)."""

    def __init__(self):
        self.running = False
        self.elapsed = 0.0
        self.direction = None

    def start(self, running):
        """``atmosphere/cosine-gust/start`` written (``FGWinds::StartGust``)."""
        self.running = bool(running)

    def frame(self, read, tl2b, tw2b, dt):
        """This frame's gust (North, East, down, ft/s), the gust's clock moved on by ``dt``: ``read(name)`` gives
        the :data:`PROPERTIES`, ``tl2b`` is the local (NED) → body matrix and ``tw2b`` the wind → body matrix
        (JSBSim's axes) of this frame.  Zero while it does not run."""
        if not self.running:
            return np.zeros(3)
        p = {name: read(name) for name in PROPERTIES}
        factor = profile(p["atmosphere/cosine-gust/startup-duration-sec"],
                         p["atmosphere/cosine-gust/steady-duration-sec"],
                         p["atmosphere/cosine-gust/end-duration-sec"], self.elapsed)
        if self.direction is None or not np.any(self.direction):
            v = np.array([p["atmosphere/cosine-gust/X-velocity-ft_sec"], p["atmosphere/cosine-gust/Y-velocity-ft_sec"],
                          p["atmosphere/cosine-gust/Z-velocity-ft_sec"]])
            norm = float(np.linalg.norm(v))
            if norm != 0.0:
                v = v / norm
            kind = FRAMES.get(int(p["atmosphere/cosine-gust/frame"]), "none")
            self.direction = (tl2b.T @ v if kind == "body" else tl2b.T @ (tw2b @ v) if kind == "wind"
                              else v if kind == "local" else np.zeros(3))
        gust = factor * self.direction * p["atmosphere/cosine-gust/magnitude-ft_sec"]
        self.elapsed += dt
        total = (p["atmosphere/cosine-gust/startup-duration-sec"] + p["atmosphere/cosine-gust/steady-duration-sec"]
                 + p["atmosphere/cosine-gust/end-duration-sec"])
        if self.elapsed > total:
            self.running = False
            self.elapsed = 0.0
            self.direction = None
            gust = np.zeros(3)
        return gust

"""Graphics quality levels (``--quality low|medium|high|auto``) and the automatic choice.

A :class:`Quality` says what the renderer and the HUD may spend: per-pixel
or per-vertex lighting of the airplane, the close-up grass grain, the sky
dome's detail, the runway's anisotropic filtering, anti-aliased HUD lines,
how often the HUD is redrawn.
Every level draws the same world (sky, fields, airfield, town, woods, hills,
airplane, shadow, ghost); ``low`` only draws it more cheaply.

``auto`` (:class:`AutoQuality`) starts from the OpenGL renderer string - a
software rasteriser (Mesa's llvmpipe, softpipe, SwiftShader, Windows' GDI
renderer, ...) gets ``low``, a GPU ``high`` - then watches the frame time in
the first seconds and steps down a level while the median frame is slower
than :data:`AUTO_SLOW_MS`.  No OpenGL here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["AUTO_SLOW_MS", "AutoQuality", "LEVELS", "QUALITY_CHOICES", "Quality", "SOFTWARE_RENDERERS",
           "is_software", "quality_level"]


@dataclass(frozen=True)
class Quality:
    """What one quality level draws.

    Attributes
    ----------
    name : str
    airplane_per_pixel : bool
        Light the airplane per fragment, with a specular highlight (else per vertex).
    grass_grain : bool
        The grass grain on the ground close to the eye (below 500 ft).
    sky_segments : (int, int)
        The sky dome's azimuth and elevation divisions (its colour is per vertex).
    runway_anisotropy : float
        Anisotropic filtering of the runway texture (1: none).
    hud_antialias : bool
        Anti-aliased lines and shapes in the HUD (imgui).
    backdrops : bool
        The side panels' backgrounds and the cockpit frame are opaque and
        drawn by the scene before anything else, so the scene behind them is
        never shaded and imgui blends no background (else the panels are
        see-through; see :attr:`flightsim.app.hud.state.Hud.backdrops`).
    airplane_detail : float
        Fraction of the fuselage's rings and segments drawn (the
        ``detail`` of :func:`flightsim.app.scene.airplane_model.build_airplane`).
    ground_detail_ft : float
        Draw the ground's fields one by one within this distance of the eye
        (ft); beyond, each road block of fields in its mean colour (as the
        far ring always is).
    terrain_detail_ft : float
        The terrain's chunks nearer than this are drawn at full resolution, each doubling of the distance
        halving it (:func:`flightsim.app.scene.terrain_view.chunk_levels`).
    terrain_far_stride : int
        The far terrain's grid stride, 16 or 32 (:func:`flightsim.app.scene.terrain_view.terrain_draw_ranges`).
    hud_hz : float
        Redraw the HUD at most this many times a second (and at once after
        any input), copying the last picture in between
        (:meth:`flightsim.app.hud.gui.ImguiLayer.hud_image`); 0: every frame.
    """

    name: str
    airplane_per_pixel: bool
    grass_grain: bool
    sky_segments: tuple
    runway_anisotropy: float
    hud_antialias: bool
    backdrops: bool
    airplane_detail: float = 1.0
    ground_detail_ft: float = math.inf
    hud_hz: float = 0.0
    terrain_detail_ft: float = 16000.0
    terrain_far_stride: int = 16


LEVELS = {
    "low": Quality("low", airplane_per_pixel=False, grass_grain=False, sky_segments=(24, 7),
                   runway_anisotropy=1.0, hud_antialias=False, backdrops=True,
                   airplane_detail=0.5, ground_detail_ft=12000.0, hud_hz=20.0,
                   terrain_detail_ft=1500.0, terrain_far_stride=32),
    "medium": Quality("medium", airplane_per_pixel=False, grass_grain=True, sky_segments=(32, 10),
                      runway_anisotropy=4.0, hud_antialias=True, backdrops=False),
    "high": Quality("high", airplane_per_pixel=True, grass_grain=True, sky_segments=(48, 14),
                    runway_anisotropy=8.0, hud_antialias=True, backdrops=False),
}
"""The levels by name, cheapest first."""

QUALITY_CHOICES = ("auto", *LEVELS)
"""What ``--quality`` accepts."""

SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader",
                      "gdi generic", "microsoft basic render", "lavapipe")
"""Substrings (lower case) of OpenGL renderer strings that name a software rasteriser."""

AUTO_SLOW_MS = 22.0
"""``auto`` steps down a level while the median frame of its sample is slower than this (ms, < 45 fps)."""


def is_software(renderer: str) -> bool:
    """The OpenGL renderer string names a software rasteriser."""
    text = (renderer or "").lower()
    return any(name in text for name in SOFTWARE_RENDERERS)


def quality_level(name: str) -> Quality:
    """The :class:`Quality` called ``name`` (one of :data:`LEVELS`).

    Raises
    ------
    ValueError
        Not a level; the message lists them.
    """
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"quality: unknown level {name!r}; choose from {', '.join(QUALITY_CHOICES)}") from None


class AutoQuality:
    """``--quality auto``: the level from the renderer, then from the frame time in the first seconds.

    Parameters
    ----------
    renderer : str
        ``GL_RENDERER``.
    sample_frames : int
        Frames per measurement (after :attr:`skip` frames of warm-up).
    rounds : int
        Measurements at most; after them the level stays.

    Attributes
    ----------
    level : Quality
        The level to draw with now.
    settled : bool
        No more changes will come.
    """

    skip = 20

    def __init__(self, renderer, sample_frames=90, rounds=2):
        self.level = LEVELS["low" if is_software(renderer) else "high"]
        self.sample_frames = int(sample_frames)
        self.rounds_left = int(rounds)
        self._times = np.zeros(self.sample_frames)
        self._seen = 0
        self.settled = self.level.name == "low"

    def observe(self, frame_seconds) -> Quality | None:
        """Add one frame's period; return the new level when it changes, else None."""
        if self.settled:
            return None
        self._seen += 1
        k = self._seen - self.skip - 1
        if k < 0:
            return None
        self._times[k] = frame_seconds
        if k + 1 < self.sample_frames:
            return None
        slow = float(np.median(self._times)) * 1e3 > AUTO_SLOW_MS
        self.rounds_left -= 1
        self._seen = 0
        names = list(LEVELS)
        if slow and self.level.name != "low":
            self.level = LEVELS[names[names.index(self.level.name) - 1]]
            self.settled = self.level.name == "low" or self.rounds_left <= 0
            return self.level
        self.settled = True
        return None

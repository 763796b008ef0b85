"""The map panel's side of the app: the track flown, the terrain's picture as a texture, what the map marks.

The map (key ``L``, :func:`flightsim.app.hud.map_panel.map_panel`) shows the region North up: the terrain
shaded by height (:func:`flightsim.app.scene.terrain_view.map_image`, made once, when the map first opens,
and kept as one OpenGL texture imgui draws), the airfields' runways and names, the VOR stations, the
airplane and its track over the last :data:`TRACK_SECONDS`.  The track is recorded whether or not the map
is shown (a point a :data:`TRACK_PERIOD` of simulation time, in a ring buffer); the texture and the
airfields are read only once the map opens.  Positions are in the home frame (x North, y West, ft).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

__all__ = ["MapCompanion", "MapReadout", "TRACK_PERIOD", "TRACK_SECONDS", "Track", "map_marks"]

TRACK_PERIOD = 1.0
"""Simulation seconds between the track's points."""

TRACK_SECONDS = 600.0
"""The track's length: the last ten minutes."""


class Track:
    """The airplane's positions over the last :data:`TRACK_SECONDS`, a point every :data:`TRACK_PERIOD`
    of simulation time (a ring buffer: nothing is allocated while flying)."""

    def __init__(self, seconds=TRACK_SECONDS, period=TRACK_PERIOD):
        self.period = float(period)
        self._xy = np.zeros((max(int(seconds / period), 2), 2))
        self.clear()

    def clear(self):
        """Forget the track (a reset)."""
        self._next = 0
        self._count = 0
        self._last_t = -np.inf

    def add(self, t, position):
        """Record ``position`` (home frame, ft) at simulation time ``t`` if a period has passed since the last
        point (or the clock went back: a reset or a replay's seek start a new track)."""
        if t < self._last_t:
            self.clear()
        if t - self._last_t < self.period or not np.isfinite(position[0]) or not np.isfinite(position[1]):
            return
        self._last_t = t
        self._xy[self._next] = position[0], position[1]
        self._next = (self._next + 1) % len(self._xy)
        self._count = min(self._count + 1, len(self._xy))

    def points(self) -> np.ndarray:
        """The track's (x, y) points, oldest first, ft (a copy)."""
        if self._count < len(self._xy):
            return self._xy[:self._count].copy()
        return np.roll(self._xy, -self._next, axis=0)


@dataclass(frozen=True)
class MapReadout:
    """What the map panel draws this frame.

    Attributes
    ----------
    texture : int
        The terrain's picture (OpenGL texture name; 0: no terrain, a plain background).
    extent : (float, float, float, float)
        ``(x_min, x_max, y_min, y_max)`` of the picture, ft.
    airfields : tuple
        ``(id, (x, y), runways)`` each, ``runways`` a tuple of ``((x0, y0), (x1, y1), width_ft, grass)``:
        the thresholds.
    vors : tuple
        ``(id, frequency_mhz, (x, y))`` each.
    position : (float, float)
        The airplane, ft.
    heading : float
        Its heading, deg.
    track : numpy.ndarray, shape (n, 2)
        The track flown, oldest first, ft.
    """

    texture: int
    extent: tuple
    airfields: tuple
    vors: tuple
    position: tuple
    heading: float
    track: np.ndarray


def map_marks():
    """The world's airfields and VOR stations as the map marks them (``MapReadout.airfields``, ``.vors``)."""
    from flightsim.simulation.world import load_world

    world = load_world()
    fields = tuple((f.id, tuple(f.position), tuple((tuple(r.thresholds[0]), tuple(r.thresholds[1]), r.width_ft,
                                                     r.surface == "grass") for r in f.runways))
                   for f in world.airfields.values())
    stations = tuple((v.id, v.frequency_mhz, (v.x, v.y)) for v in world.vors)
    return fields, stations


class MapCompanion:
    """The map panel's state in the app: shown or not, the track, the terrain's picture.

    Parameters
    ----------
    terrain : flightsim.physics.terrain.Terrain or None
        The terrain drawn (None: the map has a plain background around home).
    """

    def __init__(self, terrain):
        self.terrain = terrain
        self.show = False
        self.track = Track()
        self._texture = None
        self._marks = None
        self._extent = (-60000.0, 60000.0, -60000.0, 60000.0) if terrain is None else terrain.extent

    def toggle(self, on=None):
        """Show the map (``on`` True), hide it (False) or switch it (None)."""
        self.show = (not self.show) if on is None else bool(on)

    def readout(self, position, heading) -> MapReadout | None:
        """The map's :class:`MapReadout` (None while it is hidden); the first call makes the texture (a current
        OpenGL context) and reads the airfields."""
        if not self.show:
            return None
        if self._marks is None:
            try:
                self._marks = map_marks()
            except Exception:            # a bad user airfield file: the map shows the terrain alone
                self._marks = ((), ())
        if self._texture is None:
            self._texture = 0 if self.terrain is None else _upload(self._image())
        return MapReadout(self._texture, self._extent, self._marks[0], self._marks[1],
                          (float(position[0]), float(position[1])), float(heading), self.track.points())

    def _image(self):
        from flightsim.app.scene.terrain_view import map_image

        return map_image(self.terrain)

    def close(self):
        """Free the texture (the GL context must still be current)."""
        if self._texture:
            from pyglet import gl

            name = gl.GLuint(self._texture)
            gl.glDeleteTextures(1, ctypes.byref(name))
        self._texture = None


def _upload(image) -> int:
    """An RGBA uint8 image (row 0 at the top) as a linear-filtered, edge-clamped GL texture; its name."""
    from pyglet import gl

    image = np.ascontiguousarray(image)
    h, w = image.shape[:2]
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex.value)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, w, h, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                    image.ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
    for parameter, value in ((gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR), (gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR),
                             (gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_EDGE), (gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_EDGE)):
        gl.glTexParameteri(gl.GL_TEXTURE_2D, parameter, value)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return tex.value

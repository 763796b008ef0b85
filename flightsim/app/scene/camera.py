"""Cameras: chase, cockpit, orbit (mouse) and tower, and the projection.

A camera turns the airplane's drawn pose (earth-frame position, body->earth
rotation matrix) into a :class:`View`: an eye position in float64 earth
coordinates and a rotation.  The renderer draws everything relative to the
eye, so the view matrix is a pure rotation.  The cameras the app places
itself (chase, orbit, tower) never go below the ground: their eye stays
:data:`EYE_CLEARANCE` above the terrain under it (the world's
:class:`~flightsim.physics.terrain.Terrain`, the same triangles the
renderer draws near the eye), or above the plane z = 0 without one; the
cockpit's eye rides in the airplane.  Matrices are 4x4 numpy arrays
in column-vector convention (``p' = M @ p``); pyrr builds the projection and
the look-at rotation (pyrr's own matrices are row-vector, hence the
transposes).  No OpenGL here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyrr

__all__ = ["CAMERA_MODES", "EYE_CLEARANCE", "CameraRig", "View", "frustum_planes", "look_rotation", "spheres_visible"]

CAMERA_MODES = ("chase", "cockpit", "orbit", "tower")
"""Camera names in switching order."""

_UP = np.array([0.0, 0.0, 1.0])

EYE_CLEARANCE = 10.0
"""How far above the ground (the terrain under the eye, or z = 0 without one) the chase, orbit and tower
cameras' eye stays at least, ft: more than the near clip plane's reach (1-2 ft) on the steepest slopes."""


def look_rotation(forward, up) -> np.ndarray:
    """4x4 view rotation (earth -> camera) looking along ``forward`` with ``up`` roughly up.

    Built with :func:`pyrr.matrix44.create_look_at` from the origin, so the
    camera's -z axis points along ``forward`` (OpenGL convention).
    """
    f = np.asarray(forward, dtype=np.float64)
    u = np.asarray(up, dtype=np.float64)
    if abs(np.dot(f / np.linalg.norm(f), u / np.linalg.norm(u))) > 0.999:
        u = np.array([1.0, 0.0, 0.0]) if abs(f[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    m = pyrr.matrix44.create_look_at(np.zeros(3), f, u, dtype=np.float64)
    return np.asarray(m).T


def frustum_planes(view_proj) -> np.ndarray:
    """The six clip planes (a, b, c, d) of a view-projection matrix, normalised, inside positive."""
    m = np.asarray(view_proj, dtype=np.float64)
    rows = [m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1], m[3] + m[2], m[3] - m[2]]
    planes = np.array(rows)
    return planes / np.linalg.norm(planes[:, :3], axis=1, keepdims=True)


def spheres_visible(planes, centers, radii) -> np.ndarray:
    """Which bounding spheres (centres (n, 3) in the matrix's input frame) touch the frustum."""
    c = np.asarray(centers, dtype=np.float64).reshape(-1, 3)
    dist = c @ planes[:, :3].T + planes[:, 3]
    return np.all(dist >= -np.asarray(radii, dtype=np.float64).reshape(-1, 1), axis=1)


@dataclass
class View:
    """What a camera sees.

    Attributes
    ----------
    eye : numpy.ndarray, shape (3,)
        Camera position, earth frame, ft (float64).
    rotation : numpy.ndarray, shape (4, 4)
        Earth -> camera rotation (column-vector convention).
    fov_deg : float
        Vertical field of view.
    near, far : float
        Clip distances, ft.
    """

    eye: np.ndarray
    rotation: np.ndarray
    fov_deg: float = 60.0
    near: float = 1.0
    far: float = 420000.0

    def projection(self, aspect) -> np.ndarray:
        """4x4 perspective projection for a width/height ``aspect`` (guarded against 0)."""
        aspect = max(float(aspect), 1e-3)
        m = pyrr.matrix44.create_perspective_projection(self.fov_deg, aspect, self.near, self.far,
                                                        dtype=np.float64)
        return np.asarray(m).T

    def view_proj(self, aspect) -> np.ndarray:
        """Camera-relative earth frame -> clip space."""
        return self.projection(aspect) @ self.rotation

    @property
    def forward(self) -> np.ndarray:
        """Unit viewing direction, earth frame."""
        return -self.rotation[2, :3]


def _smooth(current, target, dt, tau):
    """Exponential approach of ``current`` to ``target`` with time constant ``tau``."""
    if current is None or not np.all(np.isfinite(current)):
        return np.array(target, dtype=np.float64)
    k = 1.0 - math.exp(-max(dt, 0.0) / tau)
    return current + (np.asarray(target) - current) * k


def _normalized(v, fallback):
    n = np.linalg.norm(v)
    return v / n if n > 1e-9 else np.asarray(fallback, dtype=np.float64)


class CameraRig:
    """The switchable cameras around one airplane.

    Parameters
    ----------
    cockpit_eye : array_like, shape (3,)
        Pilot's eye in body coordinates, ft.
    size : float
        Radius of the airplane, ft (sets the chase and orbit distances).
    tower : array_like, shape (3,)
        Earth position of the tower camera, ft.
    terrain : flightsim.physics.terrain.Terrain, optional
        The ground under the cameras (home frame, ft); None: the plane z = 0.

    Attributes
    ----------
    mode : str
        One of :data:`CAMERA_MODES`.
    orbit_yaw, orbit_pitch : float
        Orbit camera angles, degrees: yaw 0 looks North (the camera stands
        South of the airplane), pitch positive looks down from above.
    orbit_distance : float
        ft.
    head_yaw, head_pitch : float
        Cockpit head turn, degrees (mouse drag), positive left / up.
    """

    def __init__(self, cockpit_eye, size, tower=(380.0, -580.0, 80.0), terrain=None):
        self.cockpit_eye = np.asarray(cockpit_eye, dtype=np.float64)
        self.size = float(size)
        self.tower = np.asarray(tower, dtype=np.float64)
        self.terrain = terrain
        self.mode = "chase"
        self.orbit_yaw = 30.0
        self.orbit_pitch = 15.0
        self.orbit_distance = 2.2 * self.size
        self.head_yaw = 0.0
        self.head_pitch = 0.0
        self._chase_forward = None
        self._chase_up = None

    def set_mode(self, mode):
        """Switch to camera ``mode`` (a name in :data:`CAMERA_MODES`)."""
        if mode not in CAMERA_MODES:
            raise ValueError(f"unknown camera {mode!r}; choose from {', '.join(CAMERA_MODES)}")
        self.mode = mode
        self.head_yaw = self.head_pitch = 0.0

    def cycle(self):
        """Switch to the next camera; return its name."""
        self.set_mode(CAMERA_MODES[(CAMERA_MODES.index(self.mode) + 1) % len(CAMERA_MODES)])
        return self.mode

    def reset(self):
        """Forget the chase camera's smoothing (after a reset or a jump)."""
        self._chase_forward = None
        self._chase_up = None

    def drag(self, dx, dy):
        """Mouse drag by (dx, dy) pixels: turns the orbit camera or the pilot's head."""
        if self.mode == "orbit":
            self.orbit_yaw = (self.orbit_yaw - 0.3 * dx) % 360.0
            self.orbit_pitch = float(np.clip(self.orbit_pitch - 0.3 * dy, -10.0, 89.0))
        elif self.mode == "cockpit":
            self.head_yaw = float(np.clip(self.head_yaw - 0.25 * dx, -150.0, 150.0))
            self.head_pitch = float(np.clip(self.head_pitch + 0.25 * dy, -60.0, 70.0))

    def scroll(self, amount):
        """Mouse wheel: zoom the orbit camera in (positive) or out."""
        if self.mode == "orbit":
            self.orbit_distance = float(np.clip(self.orbit_distance * 0.9 ** amount,
                                                0.6 * self.size, 60.0 * self.size))

    def ground(self, x, y) -> float:
        """The ground's height under earth ``x``, ``y`` (ft): the terrain's (:meth:`Terrain.height
        <flightsim.physics.terrain.Terrain.height>`), or 0 without one."""
        return 0.0 if self.terrain is None else float(self.terrain.height(x, y))

    def _above_ground(self, eye):
        """``eye`` (earth, ft; changed in place and returned) raised to :data:`EYE_CLEARANCE` above the ground
        under it where it is lower: one height lookup."""
        eye[2] = max(eye[2], self.ground(eye[0], eye[1]) + EYE_CLEARANCE)
        return eye

    def view(self, position, rotation, dt) -> View:
        """The active camera's view of the airplane.

        Parameters
        ----------
        position : array_like, shape (3,)
            Airplane CG, earth frame, ft.
        rotation : array_like, shape (3, 3)
            Body -> earth rotation matrix.
        dt : float
            Seconds since the last call (for the chase camera's lag).
        """
        p = np.asarray(position, dtype=np.float64)
        r = np.asarray(rotation, dtype=np.float64)
        if self.mode == "cockpit":
            return self._cockpit(p, r)
        if self.mode == "orbit":
            return self._orbit(p)
        if self.mode == "tower":
            return self._tower(p)
        return self._chase(p, r, dt)

    def _chase(self, p, r, dt):
        forward = r[:, 0]
        self._chase_forward = _normalized(_smooth(self._chase_forward, forward, dt, 0.35), forward)
        self._chase_up = _normalized(_smooth(self._chase_up, r[:, 2], dt, 0.35), _UP)
        f = self._chase_forward
        # Stay level (the airplane is seen banking) unless pointing nearly straight up or down.
        up = _UP if abs(f[2]) < 0.9 else self._chase_up
        eye = self._above_ground(p - f * (1.55 * self.size) + up * (0.3 * self.size))
        target = p + f * (0.35 * self.size) + up * (0.05 * self.size)
        return View(eye, look_rotation(target - eye, up), 55.0, 1.0)

    def _cockpit(self, p, r):
        eye = p + r @ self.cockpit_eye
        yaw, pitch = math.radians(self.head_yaw), math.radians(self.head_pitch - 5.0)
        look_body = np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch)])
        return View(eye, look_rotation(r @ look_body, r[:, 2]), 70.0, 0.25)

    def _orbit(self, p):
        yaw, pitch = math.radians(self.orbit_yaw), math.radians(self.orbit_pitch)
        # Yaw is a compass bearing (clockwise from North); earth y points West.
        direction = np.array([math.cos(pitch) * math.cos(yaw), -math.cos(pitch) * math.sin(yaw), -math.sin(pitch)])
        eye = self._above_ground(p - direction * self.orbit_distance)
        return View(eye, look_rotation(p - eye, _UP), 55.0, 1.0)

    def _tower(self, p):
        eye = self._above_ground(self.tower.copy())
        d = p - eye
        dist = float(np.linalg.norm(d))
        fov = float(np.clip(math.degrees(2.0 * math.atan2(3.0 * self.size, max(dist, 1.0))), 4.0, 60.0))
        return View(eye, look_rotation(d if dist > 1e-6 else [1.0, 0.0, 0.0], _UP), fov, 2.0)

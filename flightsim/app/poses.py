"""What the renderer is given for an airplane each frame: its pose, its gear, its propeller, its ghost's.

Pure functions of the flight (no OpenGL): a non-finite state never becomes a
pose (the last finite one is kept), the gear legs follow the telemetry's
compressions and the rudder, the drawn propeller turns with the engine.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.app.scene.renderer import GhostPose
from flightsim.math import quat

__all__ = ["PROP_RPM_PER_RAD_S", "START_POSE", "cockpit_hidden", "finite_pose", "gear_pose", "ghost_pose",
           "propeller_spin"]

#: The drawn propeller turns at 1 rad/s per this many engine rpm.
PROP_RPM_PER_RAD_S = 30.0

#: The pose drawn when a flight has never had a finite one: 100 ft up, level, heading North.
START_POSE = (np.array([0.0, 0.0, 100.0]), np.eye(3))


def finite_pose(source, fallback):
    """The interpolated pose of ``source`` (a flight source or a ghost: its ``render_pose()``) as
    (position (earth, ft), rotation matrix (body → earth)), or ``fallback`` if it is not finite."""
    try:
        pos, q = source.render_pose()
        pos = np.asarray(pos, dtype=np.float64)
        if np.all(np.isfinite(pos)) and np.all(np.isfinite(q)) and np.dot(q, q) > 0.0:
            return pos, quat.to_matrix(q)
    except (ValueError, FloatingPointError):
        pass
    return fallback


def cockpit_hidden(model):
    """The parts of ``model`` hidden from the cockpit: the glare shield (a HUD overlay) replaces the nose, the
    gear and the propeller."""
    return [i for i, p in enumerate(model.parts)
            if p.name in ("nose", "cabin", "gear", "propeller") or p.kind == "wheel"]


def gear_pose(aircraft, compressions, controls):
    """Per contact point: leg compression (ft) and steering angle (deg, + right), for the airplane model.

    ``compressions`` as in the telemetry's gear (empty: legs extended);
    steering follows the rudder for the wheels that steer.
    """
    pose = np.zeros((len(aircraft.gear), 2))
    if len(compressions) == len(aircraft.gear):
        pose[:, 0] = np.nan_to_num(np.asarray(compressions, dtype=np.float64))
    rudder = controls.rudder if math.isfinite(controls.rudder) else 0.0
    pose[:, 1] = [min(max(rudder, -1.0), 1.0) * c.steering_deg for c in aircraft.gear]
    return pose


def propeller_spin(rpm, throttle):
    """How fast the drawn propeller turns (rad/s): in proportion to the engine's speed, 2400 rpm as 80 rad/s (the
    true 250 rad/s would alias to a crawl at 60 frames a second); with no engine (rpm 0), from the throttle."""
    if rpm > 0.0:
        return rpm / PROP_RPM_PER_RAD_S
    return 25.0 + 55.0 * min(max(throttle, 0.0), 1.0)


def ghost_pose(ghost, model, prop_angle, matrices, deflections, gear, pilot_at=None, fuselage=()):
    """The ghost's :class:`~flightsim.app.scene.renderer.GhostPose`, or None while its pose is not finite.

    Parameters
    ----------
    ghost : flightsim.simulation.ghost.Ghost
    model : flightsim.app.scene.airplane_model.AirplaneModel
        The airplane's model (the ghost is drawn with it).
    prop_angle : float
        The drawn propeller's angle (rad): the airplane's.
    matrices, deflections, gear
        The airplane's part matrices, surface deflections and :func:`gear_pose`: reused where the ghost's
        are the same.
    pilot_at : numpy.ndarray, optional
        The cockpit camera's airplane position (earth, ft): within the model's radius of it the pilot sits
        inside the ghost's cabin too, and its ``fuselage`` parts are hidden.
    """
    pose = finite_pose(ghost, None)
    if pose is None:
        return None
    ghost_deflections = np.nan_to_num(ghost.sim.surface_deflections())
    ghost_gear = gear_pose(ghost.sim.aircraft, ghost.sim.gear_compressions(), ghost.sim.controls)
    if not (np.array_equal(ghost_deflections, deflections) and np.array_equal(ghost_gear, gear)):
        matrices = model.part_matrices(ghost_deflections, prop_angle, ghost_gear)
    inside = pilot_at is not None and np.linalg.norm(pose[0] - pilot_at) < model.radius
    return GhostPose(pose[0], pose[1], matrices, fuselage if inside else ())

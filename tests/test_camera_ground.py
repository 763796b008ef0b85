"""The cameras the app places itself (chase, orbit, tower) never go below the ground: on the world's terrain their
eye stays :data:`~flightsim.app.scene.camera.EYE_CLEARANCE` above the surface under it (the shipped region's
steepest slope, an airplane stopped on it facing every way), on the flat ground above z = 0; the cockpit's eye
rides in the airplane.  The app hands its terrain to its cameras (a c172 stopped against that slope)."""

import math

import numpy as np
import pytest

from flightsim.app.scene.airplane_model import build_airplane
from flightsim.app.scene.camera import EYE_CLEARANCE, CameraRig
from flightsim.math import quat
from flightsim.physics.terrain import load_terrain, surface
from flightsim.simulation.flight import FlightState, resolve_aircraft

HEADINGS = np.arange(0.0, 360.0, 30.0)


@pytest.fixture(scope="module")
def c172():
    return resolve_aircraft("c172")


@pytest.fixture(scope="module")
def model(c172):
    return build_airplane(c172)


@pytest.fixture(scope="module")
def slope():
    """The world's steepest slope: a point inside its steepest cell, ``(x, y, h)`` ft, its tangent and the heading
    down it, deg (earth x North, y West: down is ``(-dh/dx, -dh/dy)``, East ``-y``)."""
    terrain = load_terrain()
    gx, gy = np.gradient(terrain.heights, terrain.spacing)
    i, j = np.unravel_index(np.argmax(np.hypot(gx, gy)), gx.shape)
    x, y = terrain.x0 + (i + 0.3) * terrain.spacing, terrain.y0 + (j + 0.6) * terrain.spacing
    h, dx, dy = surface(terrain, x, y)
    return np.array([x, y, float(h)]), math.hypot(float(dx), float(dy)), math.degrees(math.atan2(dy, -dx)) % 360.0


def _clearance(terrain, eye):
    return eye[2] - float(terrain.height(eye[0], eye[1]))


def test_chase_eye_stays_above_the_slope_an_airplane_stopped_on_facing_every_way(model, slope):
    terrain = load_terrain()
    point, tangent, _ = slope
    assert tangent > 1.0                                     # steeper than 45 degrees: the test means something
    p = point + [0.0, 0.0, 5.0]                              # stopped against it, the CG 5 ft above the surface
    free, held = [], []
    for heading in HEADINGS:
        r = quat.to_matrix(quat.from_aviation_angles(0.0, 0.0, heading))
        free.append(_clearance(terrain, CameraRig(model.cockpit_eye, model.radius).view(p, r, 1 / 60).eye))
        view = CameraRig(model.cockpit_eye, model.radius, terrain=terrain).view(p, r, 1 / 60)
        held.append(_clearance(terrain, view.eye))
        assert np.dot(view.forward, p - view.eye) > 0.0     # still looking at the airplane
    # facing down the slope the chase camera behind it would be inside the hill by tens of feet ...
    assert min(free) < -30.0, free
    # ... and is held above it, no higher than it needs; facing up it is where it always was
    assert min(held) == pytest.approx(EYE_CLEARANCE) and all(h >= EYE_CLEARANCE - 1e-9 for h in held), held
    assert max(held) == pytest.approx(max(free))


def test_orbit_and_tower_eyes_stay_above_the_slope_and_the_cockpit_rides_in_the_airplane(model, slope):
    terrain = load_terrain()
    point, _, _ = slope
    p = point + [0.0, 0.0, 5.0]
    r = quat.to_matrix(quat.from_aviation_angles(0.0, 0.0, 90.0))
    rig = CameraRig(model.cockpit_eye, model.radius, tower=point - [0.0, 0.0, 200.0], terrain=terrain)
    rig.set_mode("orbit")
    rig.drag(0.0, 1000.0)                                    # looking up from as low as it goes
    assert rig.orbit_pitch == -10.0
    for yaw in HEADINGS:
        rig.orbit_yaw = float(yaw)
        assert _clearance(terrain, rig.view(p, r, 1 / 60).eye) >= EYE_CLEARANCE - 1e-9, yaw
    rig.set_mode("tower")                                    # a tower 200 ft under the hill: lifted out of it
    assert _clearance(terrain, rig.view(p, r, 1 / 60).eye) == pytest.approx(EYE_CLEARANCE)
    rig.set_mode("cockpit")
    assert np.allclose(rig.view(p, r, 1 / 60).eye, p + r @ model.cockpit_eye)


def test_on_the_flat_ground_the_eye_stays_above_z_0(model):
    rig = CameraRig(model.cockpit_eye, model.radius)
    rig.set_mode("orbit")
    rig.drag(0.0, 1000.0)
    on_ground = np.array([0.0, 0.0, 2.2])
    for yaw in HEADINGS:
        rig.orbit_yaw = float(yaw)
        assert rig.view(on_ground, np.eye(3), 0.0).eye[2] == pytest.approx(EYE_CLEARANCE)
    rig.set_mode("chase")
    nose_up = quat.to_matrix(quat.from_aviation_angles(0.0, 60.0, 0.0))    # pitched up: the eye behind is low
    assert rig.view(on_ground, nose_up, 0.0).eye[2] == pytest.approx(EYE_CLEARANCE)


def test_the_app_on_the_world_keeps_its_chase_camera_out_of_the_hill(new_app, run_frames, c172, slope):
    app = new_app(aircraft=c172, terrain="world")
    assert app.cameras.terrain is app.terrain is load_terrain()
    point, _, down = slope
    ahead = point[:2] + 50.0 * np.array([math.cos(math.radians(down)), -math.sin(math.radians(down))])
    assert float(app.terrain.height(*ahead)) < point[2] - 50.0             # facing down the slope
    q = quat.from_aviation_angles(0.0, 0.0, down)
    app.sim.reset(FlightState(0.0, point + [0.0, 0.0, 5.0], np.zeros(3), q, np.zeros(3)))
    app.cameras.reset()
    run_frames(app, 3)
    pos, rot = app.pose
    assert app.cameras.mode == "chase"
    assert _clearance(app.terrain, app.cameras.view(pos, rot, 1 / 60).eye) >= EYE_CLEARANCE - 1e-9

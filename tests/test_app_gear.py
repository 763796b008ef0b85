"""The gear in the app: brake and parking-brake keys, the Ground panel, the wheels drawn on their legs (EGL)."""

import numpy as np
import pytest
from pyglet.window import key

from flightsim.physics.aircraft import load_aircraft
from flightsim.simulation.starts import make_start

AIRCRAFT = load_aircraft()
RUNWAY_START = make_start(AIRCRAFT, "runway")


def press(app, symbol):
    app.window.dispatch_event("on_key_press", symbol, 0)


def release(app, symbol):
    app.window.dispatch_event("on_key_release", symbol, 0)


def amber_text(img):
    """Pixels of the Ground panel's amber ("PARKING BRAKE SET") in its corner, bottom left."""
    h, w = img.shape[:2]
    px = img[int(0.7 * h):, :int(0.3 * w)].reshape(-1, 3).astype(np.int32)
    r, g, b = px[:, 0], px[:, 1], px[:, 2]
    return int(((r > 200) & (g > 140) & (g < 215) & (b < 110)).sum())


@pytest.fixture
def runway_app(new_app, run_frames):
    app = new_app(start=RUNWAY_START)
    app.hud.show = True
    run_frames(app, 2)
    return app


def test_the_brake_key_brakes_while_held(runway_app, run_frames):
    app = runway_app
    app.sim.controls.parking_brake = 0.0
    assert app.sim.controls.brake == 0.0
    press(app, key.PERIOD)
    run_frames(app, 3)
    partway = app.sim.controls.brake
    run_frames(app, 30)
    assert 0.0 < partway < 1.0 and app.sim.controls.brake == 1.0      # comes on quickly, not at once
    release(app, key.PERIOD)
    run_frames(app, 30)
    assert app.sim.controls.brake == 0.0
    press(app, key.SPACE)                                              # the other key for it
    run_frames(app, 30)
    assert app.sim.controls.brake == 1.0
    release(app, key.SPACE)


def test_the_parking_brake_key_sets_and_releases_it_and_the_ground_panel_shows_it(runway_app, run_frames):
    app = runway_app
    assert app.sim.controls.parking_brake == 1.0                      # the runway start sets it
    set_pixels = amber_text(app.capture())
    press(app, key.COMMA)
    release(app, key.COMMA)
    run_frames(app, 2)
    assert app.sim.controls.parking_brake == 0.0
    released_pixels = amber_text(app.capture())
    assert set_pixels > released_pixels + 100, (set_pixels, released_pixels)   # "PARKING BRAKE SET" is gone
    press(app, key.COMMA)
    release(app, key.COMMA)
    run_frames(app, 2)
    assert app.sim.controls.parking_brake == 1.0
    assert amber_text(app.capture()) == pytest.approx(set_pixels, rel=0.1)


def test_the_ground_panel_reads_the_gear_and_the_wheels_are_drawn_on_compressed_legs(runway_app, run_frames):
    app = runway_app
    t = app.telemetry
    wheels = [k for k, c in enumerate(AIRCRAFT.gear) if c.is_wheel]
    assert t.on_ground and t.groundspeed < 1e-6
    assert sum(t.gear[k].load for k in wheels) == pytest.approx(AIRCRAFT.mass * AIRCRAFT.gravity, rel=1e-3)
    # the wheels drawn pushed up their legs by the telemetry's compression (about 0.15 ft at rest)
    assert np.all(app.gear[wheels, 0] == [t.gear[k].compression for k in wheels])
    assert np.all((0.1 < app.gear[wheels, 0]) & (app.gear[wheels, 0] < 0.2))
    # full right rudder turns the nose wheel right by its steering angle, the mains not at all
    press(app, key.E)
    run_frames(app, 30)
    nose = next(k for k, c in enumerate(AIRCRAFT.gear) if c.name == "nose wheel")
    assert app.gear[nose, 1] == pytest.approx(AIRCRAFT.gear[nose].steering_deg)
    assert np.all(np.delete(app.gear[:, 1], nose) == 0.0)
    release(app, key.E)


def test_the_gamepad_dpad_left_brakes_and_the_left_stick_click_sets_the_parking_brake(runway_app, run_frames):
    from flightsim.app.input.pilot import GAMEPAD_BUTTONS, GAMEPAD_DPAD, Pilot

    assert GAMEPAD_BUTTONS["leftstick"] == "parking_brake" and GAMEPAD_DPAD["dpleft"] == "brake"
    pilot = Pilot(runway_app.keymap)
    controls = runway_app.sim.controls
    controls.parking_brake = 0.0
    for _ in range(30):
        pilot.update(1.0 / 60.0, controls, {"brake": 1.0})
    assert controls.brake == 1.0
    pilot.press("parking_brake")
    pilot.update(1.0 / 60.0, controls, {})
    assert controls.parking_brake == 1.0 and controls.brake < 1.0

"""The Instructor panel in the app (I): fail a thing now with a click, see it as a real cockpit shows it (the
attitude indicator drifting, the LOW VACUUM annunciator), repair it; a failures file's schedule shown armed."""

import numpy as np
from conftest import hud_latency
from pyglet.window import key
from test_app_input import centre, imgui_click

from flightsim.physics.aircraft import load_aircraft
from flightsim.simulation.failures import Failure
from flightsim.simulation.starts import make_start

C172 = load_aircraft("c172")


def click(app, run_frames, box):
    imgui_click(app, run_frames, *centre(box))


def red_pixels(img, box):
    x0, y0, x1, y1 = (int(v) for v in box)
    px = img[y0:y1, x0:x1].reshape(-1, 3).astype(np.int32)
    return int(((px[:, 0] > 200) & (px[:, 1] < 120) & (px[:, 2] < 120)).sum())


def test_the_instructor_fails_the_vacuum_pump_and_repairs_it(new_app, run_frames):
    app = new_app(aircraft=C172, start=make_start(C172, "air"), failures=(Failure("pitot", at_s=600.0),))
    app.hud.show = True
    run_frames(app, 2)
    assert "instructor:window" not in app.hud.hit_boxes
    app.window.dispatch_event("on_key_press", key.I, 0)
    app.window.dispatch_event("on_key_release", key.I, 0)
    run_frames(app, hud_latency(app))
    assert app.hud.show_instructor
    view = app.hud_bridge.view()
    assert ("pitot", "at 600 s") in view.instructor.armed and "vacuum" in view.instructor.kinds
    flight = app.hud.hit_boxes["flight:window"]
    before = red_pixels(app.capture(), flight)
    click(app, run_frames, app.hud.hit_boxes["instructor:vacuum"])
    assert "vacuum" in app.sim.failures.active
    run_frames(app, 60)
    tm = app.telemetry
    assert "VAC" in tm.gauges.flags and tm.failures == ("vacuum",)
    assert red_pixels(app.capture(), flight) > before + 50            # LOW VACUUM, in red
    click(app, run_frames, app.hud.hit_boxes["instructor:vacuum"])   # the same row's button now repairs it
    assert not app.sim.failures.active
    run_frames(app, 2)
    assert app.telemetry.gauges.flags == ()

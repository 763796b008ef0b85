"""The Aircraft combo on real GL (EGL in-process): switching to the Cessna 172R and back."""

import numpy as np
from conftest import hud_latency
from test_app_input import centre, imgui_click

from flightsim.app.scene.renderer import read_pixels


def frame_pixels(app, run_frames):
    """The airplane's part of the screen (the chase camera keeps it in the middle), the panels hidden."""
    app.hud.show = False
    run_frames(app, hud_latency(app))              # until the cached HUD shows the change
    w, h = app.window.get_framebuffer_size()
    pixels = read_pixels(w, h)
    app.hud.show = True
    run_frames(app, hud_latency(app))
    return pixels[h // 4: 3 * h // 4, w // 4: 3 * w // 4].astype(np.int32)


def switch(app, run_frames, name):
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["aircraft"]))
    assert f"aircraft:{name}" in app.hud.hit_boxes, "the combo did not open"
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes[f"aircraft:{name}"]))


def test_the_aircraft_combo_switches_to_the_172_and_back_starting_the_flight_again(new_app, run_frames):
    app = new_app(size=(1280, 720))
    app.hud.show = True
    run_frames(app, 60)
    assert app.sim.aircraft.name == "Bourg's airplane" and app.sim.t > 0.5
    assert "rpm" not in app.hud.hit_boxes                     # a constant thrust: no RPM gauge
    bourg_parts = [p.name for p in app.model.parts]
    bourg_pixels = frame_pixels(app, run_frames)

    switch(app, run_frames, "c172")
    sim = app.sim
    assert sim.aircraft.name == "Cessna 172R Skyhawk"
    assert sim.t < 0.2                                          # the flight started again
    assert sim.start.kind == "file" and sim.integrator == "euler"
    assert app.scene.model is app.model and app.model.radius != 0.0
    assert app.dynamics.aircraft is sim.aircraft
    app.hud_bridge.commands.set_camera("tower")                # the camera buttons work the new airplane's cameras
    assert app.cameras.mode == "tower"
    app.hud_bridge.commands.set_camera("chase")
    run_frames(app, 30)
    assert app.telemetry.rpm > 1500.0 and "rpm" in app.hud.hit_boxes
    assert "aircraft:c172" not in app.hud.hit_boxes, "the combo closed"
    c172_pixels = frame_pixels(app, run_frames)
    # a different airplane on the screen: many pixels changed (a high wing with struts, not the book's)
    assert np.mean(np.abs(c172_pixels - bourg_pixels).sum(axis=2) > 60) > 0.01

    switch(app, run_frames, "bourg")
    assert app.sim.aircraft.name == "Bourg's airplane" and app.sim.t < 0.2
    assert [p.name for p in app.model.parts] == bourg_parts


def test_the_engine_key_stops_and_restarts_the_engine_and_the_flight_panel_says_so(new_app, run_frames):
    from pyglet.window import key

    from flightsim.physics.aircraft import load_aircraft
    from flightsim.physics.inputs import C_ENGINE
    from flightsim.simulation.starts import make_start

    c172 = load_aircraft("c172")
    app = new_app(size=(1280, 720), aircraft=c172, start=make_start(c172, "air"))
    app.hud.show = True
    run_frames(app, 30)
    running_rpm = app.telemetry.rpm
    assert app.sim.controls.engine == 1.0 and running_rpm > 2000.0
    run_frames(app, 2, redraw_hud=True)
    before = _amber_left(app)
    app.window.dispatch_event("on_key_press", key.O, 0)
    app.window.dispatch_event("on_key_release", key.O, 0)
    run_frames(app, 60, redraw_hud=True)
    assert app.sim.controls.engine == 0.0 and app.sim.flown_controls[C_ENGINE] == 0.0
    assert app.telemetry.thrust < 0.0 and 0.0 < app.telemetry.rpm < 0.7 * running_rpm   # windmilling
    assert _amber_left(app) > before + 50               # "ENGINE OFF - windmilling" under the RPM gauge
    app.window.dispatch_event("on_key_press", key.O, 0)
    app.window.dispatch_event("on_key_release", key.O, 0)
    run_frames(app, 60)
    assert app.sim.controls.engine == 1.0 and app.telemetry.thrust > 0.0


def _amber_left(app):
    """Amber pixels (the HUD's warnings) in the flight panel's line below the RPM gauge, left of the gauges."""
    x0, _, _, y1 = (int(v) for v in app.hud.hit_boxes["rpm"])
    line = app.capture()[y1 + 1: y1 + 20, 8: x0].astype(np.int32)
    return int(((line[..., 0] > 200) & (line[..., 1] > 140) & (line[..., 1] < 215) & (line[..., 2] < 110)).sum())

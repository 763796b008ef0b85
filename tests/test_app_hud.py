"""The HUD as registered panels over a narrow view of the flight, on real GL (EGL)."""

import pytest
from conftest import hud_latency

from flightsim.app.cockpit import Cockpit
from flightsim.app.hud.hud_view import HudCommands, HudView
from flightsim.app.hud.panels import NUMERICS_SECTIONS, PANELS
from flightsim.physics.planet import place_text
from flightsim.simulation.source import LIVE


def test_the_panels_are_registered_in_one_list():
    assert [p.__name__ for p in PANELS] == ["cockpit_overlay", "flight_panel", "gear_panel", "numerics_panel",
                                            "nav_panel", "dynamics_panel", "input_panel", "map_panel",
                                            "instructor_panel", "lesson_panel", "status_banner", "key_help"]
    assert [s.__name__ for s in NUMERICS_SECTIONS] == [
        "aircraft_section", "integrator_section", "timing_section", "clock_section", "run_section", "camera_section",
        "sound_section", "recording_section", "dynamics_section", "autopilot_section", "lessons_section",
        "ghost_section", "charts_section"]


@pytest.fixture
def probed(flight_app, run_frames):
    """A probe panel added to the app's HUD: it records what each frame's panels are given."""
    seen = []

    def probe(view, do, hud):
        seen.append((view, do, hud))

    flight_app.reset()
    flight_app.sim.paused = False
    flight_app.hud.panels.append(probe)
    run_frames(flight_app, 1)
    yield flight_app, seen
    flight_app.hud.panels.remove(probe)
    flight_app.sim.paused = False
    flight_app.sim.time_scale = 1.0
    flight_app.cameras.set_mode("chase")


def test_a_new_panel_is_one_function_over_the_view_and_the_commands(probed, run_frames):
    app, seen = probed
    view, do, hud = seen[-1]
    assert isinstance(view, HudView) and isinstance(do, HudCommands) and hud is app.hud
    assert view.telemetry is app.telemetry and view.capabilities == LIVE and view.playback is None
    assert view.t == app.sim.t and view.integrator == app.sim.integrator and not view.ghost.on
    assert view.camera.mode == "chase" and view.keymap.describe("reset") == app.keymap.describe("reset")
    # The commands reach the flight and the app.
    do.toggle_pause()
    assert app.sim.paused
    do.toggle_pause()
    do.set_time_scale(2.0)
    do.set_camera("orbit")
    do.set_renormalize(False)
    do.set_ghost(True)
    run_frames(app, hud_latency(app))                    # (the panels run when the cached HUD is redrawn)
    view = seen[-1][0]
    assert (view.time_scale, view.camera.mode, view.renormalize, view.ghost.on) == (2.0, "orbit", False, True)
    assert app.sim.time_scale == 2.0 and not app.sim.renormalize and app.ghost is not None
    do.set_ghost_substeps(100)                            # clamped to what the app offers
    do.set_ghost_integrator("rkmk4")
    run_frames(app, Cockpit.COMPILE_NOTICE_FRAMES)         # (its first use on this machine compiles it: frames later)
    assert app.ghost.integrator == "rkmk4" and app.ghost.substeps == 64
    do.set_ghost(False)
    do.set_renormalize(True)
    app.cockpit.configure_ghost("rk4", 8)
    with pytest.raises(AttributeError):
        do.reset = None                                   # frozen: a panel cannot swap the app's commands
    with pytest.raises(AttributeError):
        view.paused = True                                # nor write into the view


# ------------------------------------------------------------------ the HUD's timers run on the app's clock


def test_a_message_shows_for_its_seconds_of_the_apps_clock():
    from flightsim.app.hud.state import Hud
    from flightsim.physics.integrators import INTEGRATORS

    hud = Hud(INTEGRATORS, (1.0,))
    for _ in range(2):
        hud.tick(0.25)
    hud.notify("hello", 1.5)
    assert hud.message_until == 2.0
    shown = []
    for _ in range(8):
        hud.tick(0.25)
        shown.append(hud.message_shown)
    assert shown == [True] * 5 + [False] * 3           # 1.5 s of ticks, however long they took


def test_a_message_expires_after_its_seconds_of_frame_time(new_app, run_frames):
    """The banner's message goes after its 1.5 s of frame time: 6 frames of 0.25 s, drawn in a fraction of that."""
    app = new_app()
    assert app.quality.hud_hz > 0.0                     # the cached HUD, as on software OpenGL
    run_frames(app, 2, 0.25)
    app.press("ghost")                                  # "ghost: on, rk4" for 1.5 s
    assert app.hud.message.startswith("ghost: on") and app.hud.clock == 0.5
    shown, banner = [], []
    for _ in range(8):
        run_frames(app, 1, 0.25)
        shown.append(app.hud.message_shown)
        banner.append(bool(app.gui.image.overlay))      # the banner is blended over the scene
    assert shown == [True] * 5 + [False] * 3
    assert any(banner[:5]), "the message never reached the picture"
    run_frames(app, hud_latency(app, 0.25), 0.25)
    assert app.gui.image.overlay == (), "the message is still drawn after it ran out"


def stall_colours(app):
    """Pixels of the STALL warning in the Flight panel: (bright red, orange)."""
    x0, y0, x1, y1 = (int(v) for v in app.hud.hit_boxes["flight:window"])
    r, g, b = app.capture()[y0:y1, x0:x1].reshape(-1, 3).astype(int).T
    return int(((r > 220) & (g < 80) & (b < 80)).sum()), int(((r > 220) & (g > 105) & (g < 150) & (b < 80)).sum())


def test_the_stall_warning_blinks_at_its_rate_on_the_frame_clock(new_app, run_frames):
    import numpy as np

    from flightsim.app.hud.panels import STALL_BLINK_HZ, stall_flash
    from flightsim.simulation.flight import FlightState

    assert STALL_BLINK_HZ == 1.5
    assert [stall_flash(k / 6.0) for k in range(8)] == [True, True, False, False] * 2     # a third of a second each
    app = new_app()
    s = app.sim.state
    # Level, sinking at 60 ft/s and moving at 20: the wing meets the air at about 72 degrees.
    app.sim.set_state(FlightState(s.t, s.position, np.array([20.0, 0.0, -60.0]), s.q, s.omega))
    app.sim.paused = True
    dt = 1.0 / 30.0
    run_frames(app, hud_latency(app, dt), dt)
    assert app.telemetry.stall
    phases = []
    for _ in range(60):                                 # 2 s of frame time
        run_frames(app, 1, dt)
        red, orange = stall_colours(app)
        assert max(red, orange) > 30 and min(red, orange) == 0, (red, orange)
        phases.append(red > orange)
    toggles = np.flatnonzero(np.diff(phases)) + 1
    # 1.5 blinks a second: a change of colour every third of a second (10 frames), give or take the cached
    # HUD's redraw (every 3 frames here) - whatever the wall time the frames took.
    assert 5 <= len(toggles) <= 7, phases
    assert np.all((np.diff(toggles) >= 7) & (np.diff(toggles) <= 13)), toggles


# ------------------------------------------------------------------ the shared app


def test_a_shared_app_is_put_back_even_after_a_failing_test(_shared_flight_app):
    """What the conftest's ``flight_app`` does after every test, pass or fail (``restoring``)."""
    from conftest import restoring

    app = _shared_flight_app
    base = app.test_baseline
    with pytest.raises(RuntimeError, match="the test failed"):
        with restoring(app):
            app.set_quality("high")
            app.hud.show, app.hud.show_help = False, True
            app.hud.panels.append(lambda view, do, hud: None)
            app.hud.notify("left behind", 60.0)
            app.sim.paused, app.sim.time_scale = True, 4.0
            app.sim.set_integrator("rk4")
            app.cameras.set_mode("tower")
            app.cockpit.set_ghost(True)
            app.cockpit.set_dynamics(True)
            app.pilot.press("pitch_up")
            app.schedule = object()
            raise RuntimeError("the test failed")
    assert app.quality is base.quality and app.hud.backdrops == base.quality.backdrops
    assert app.hud.show and not app.hud.show_help and tuple(app.hud.panels) == base.panels
    assert not app.hud.message_shown and not app.pilot.held and app.schedule is None
    assert not app.sim.paused and app.sim.time_scale == 1.0 and app.sim.integrator == base.integrator
    assert app.cameras.mode == "chase" and app.ghost is None and not app.dynamics.show
    assert app.sim.t < 0.1 and app.sim.status is None


def test_the_flight_panel_says_where_on_the_planet(probed, run_frames):
    app, seen = probed
    run_frames(app, hud_latency(app))                    # (the panels run when the cached HUD is redrawn)
    t = seen[-1][0].telemetry
    assert t.planet == app.sim.planet.name == "flat"
    # the flat earth frame laid on WGS-84 at 0°, 0°: the book's airplane a mile from its origin, the CG's height
    assert abs(t.lat) < 0.02 and abs(t.lon) < 1e-6
    assert t.alt_msl == pytest.approx(t.altitude + app.sim.aircraft.contact_height, abs=1e-9)
    assert place_text(37.612341, -122.380124) == "37.61234° N  122.38012° W"
    assert place_text(-33.9, 151.2) == "33.90000° S  151.20000° E"

"""The autopilot in the app: Y engages it where the airplane is, the Numerics window's section sets what it flies,
the flight director shows on the attitude indicator (real pixels), a pilot's key disconnects it and the HUD says
why, a replay cannot engage it."""

import numpy as np
from pyglet.window import key
from test_app_trim import hold, tap

from flightsim.app.scene.renderer import read_pixels
from flightsim.simulation.autopilot import Selection
from flightsim.simulation.flight import resolve_aircraft
from flightsim.simulation.starts import make_start


def _magenta(app):
    """Pixels of the flight director's magenta in the left half of the window (the Flight panel)."""
    w, h = app.window.get_framebuffer_size()
    rgb = read_pixels(w, h)[:, : w // 2].astype(int)
    return int(np.count_nonzero((rgb[..., 0] > 200) & (rgb[..., 1] < 90) & (rgb[..., 2] > 180)))


def test_y_engages_it_the_panel_flies_a_new_heading_and_a_key_disconnects_it(new_app, run_frames):
    aircraft = resolve_aircraft("c172")
    app = new_app(aircraft=aircraft, start=make_start(aircraft, "air"))
    run_frames(app, 3, redraw_hud=True)
    assert _magenta(app) == 0 and not app.sim.autopilot.engaged
    tap(app, key.Y, run_frames)
    ap = app.sim.autopilot
    assert ap.engaged and ap.modes == "HDG ALT SPD"
    assert ap.selection.heading == 0.0 and abs(ap.selection.altitude - 1500.0) < 1.0
    view = app.hud_view()
    assert view.autopilot == "HDG ALT SPD" and view.director is not None
    # the section's heading field, as a click on its + would: the autopilot turns right, the director banks
    assert app.cockpit.set_autopilot(Selection(heading=45.0, altitude=ap.selection.altitude,
                                               airspeed=ap.selection.airspeed))
    run_frames(app, 120, redraw_hud=True)
    bank, _ = app.sim.autopilot.director
    assert bank > 10.0 and app.telemetry.roll > 5.0 and ap.engaged
    assert _magenta(app) > 40                           # the director's bar is drawn
    hold(app, key.LEFT, run_frames, 20)                 # the pilot rolls: it lets go and says why
    assert not ap.engaged and ap.message == "autopilot disconnected: pilot input on the aileron"
    assert app.hud.message == ap.message                # said once on the HUD
    run_frames(app, 3, redraw_hud=True)
    assert app.hud_view().autopilot_message == ap.message and _magenta(app) == 0
    tap(app, key.Y, run_frames)                         # on again where it is now, and off
    assert ap.engaged
    tap(app, key.Y, run_frames)
    assert not ap.engaged and ap.message == "autopilot off (Y)"


def test_on_the_ground_it_says_why_and_stays_off(new_app, run_frames):
    aircraft = resolve_aircraft("c172")
    app = new_app(aircraft=aircraft, start=make_start(aircraft, "runway"))
    run_frames(app, 2)
    tap(app, key.Y, run_frames)
    assert not app.sim.autopilot.engaged
    assert app.hud.message == "Autopilot: on the ground; engage it in flight"


def test_the_approach_hands_back_at_200_ft_with_a_chime_on_the_hud(new_app, run_frames):
    aircraft = resolve_aircraft("c172")
    app = new_app(aircraft=aircraft, start=make_start(aircraft, "approach"))
    assert app.cockpit.set_autopilot(Selection(approach=True))
    assert app.sim.autopilot.modes == "LOC GS SPD"
    for _ in range(40):                                 # 40 s at most: the start is 350 ft up, a minute out
        run_frames(app, 15, dt=1.0 / 15.0)
        if not app.sim.autopilot.engaged:
            break
    assert app.hud.message == "[chime] approach: 200 ft above the runway - your airplane"
    assert app.hud_view().autopilot == "" and not app.sim.autopilot.chime


def test_the_course_selector_steers_the_nav_mode_tracking_its_vor(new_app, run_frames):
    aircraft = resolve_aircraft("c172")
    app = new_app(aircraft=aircraft, start=make_start(aircraft, "air"))
    run_frames(app, 2)
    assert app.cockpit.set_autopilot(Selection(altitude=2000.0, nav=("HOM", 90.0)))
    ap = app.sim.autopilot
    assert ap.modes.startswith("NAV") and app.sim.nav.obs == 90.0
    app.hud_bridge.commands.set_obs(120.0)              # the OBS turned in the NAV window
    assert app.sim.nav.obs == 120.0 and ap.engaged and ap.selection.nav == ("HOM", 120.0)
    run_frames(app, 2)
    assert ap.describe().startswith("NAV ALT SPD engaged: HOM course 120°")
    app.sim.nav.tune("VAL")                             # another station: the OBS turns the radio only
    app.hud_bridge.commands.set_obs(200.0)
    assert app.sim.nav.obs == 200.0 and ap.selection.nav == ("HOM", 120.0)

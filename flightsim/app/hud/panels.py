"""The HUD's panels: one function each, registered in :data:`PANELS` (and :data:`NUMERICS_SECTIONS`).

Every panel has the same signature, ``panel(view, do, hud)``:

* ``view`` - a :class:`~flightsim.app.hud.hud_view.HudView`, what it may read;
* ``do`` - a :class:`~flightsim.app.hud.hud_view.HudCommands`, what it may ask
  for (pause, reset, set the integrator, seek, switch the ghost, ...);
* ``hud`` - the :class:`~flightsim.app.hud.state.Hud`'s own state: whether panels
  are shown, hit boxes (:meth:`~flightsim.app.hud.state.Hud.remember`), messages
  (:meth:`~flightsim.app.hud.state.Hud.notify`) and the integrator menus.

A panel decides for itself whether it shows, and reads the source's
:class:`~flightsim.simulation.source.Capabilities` (not its type) to choose
what applies: a replay has no integrator combo or ghost, but a time slider.
A new panel is one new function added to :data:`PANELS`; a new part of the
Numerics window, one added to :data:`NUMERICS_SECTIONS`.

Panels, in drawing order:

* :func:`cockpit_overlay` - the glare shield and windscreen posts (cockpit camera);
* :func:`flight_panel` (left) - attitude indicator and heading tape,
  airspeed (through the air) and ground speed, altitude, where on the planet
  (:func:`place_section`: latitude, longitude, height above the ellipsoid, the planet), vertical speed,
  angle of attack, stall warning, the wind (:func:`wind_section`: an arrow
  relative to the nose, direction and speed, turbulence), throttle, flaps,
  the control surfaces, the elevator trim and *Trim now*;
* :func:`numerics_panel` (right) - the sections: integrator, timings,
  clock, pause / reset / time scale, camera, recording, the Dynamics panel's
  switch, ghost, strip charts;
* :func:`dynamics_panel` (bottom, while shown) - the modes about the trim, each
  mode's ``λ·dt`` against the integrator's stability region, and which modes
  the integrator makes diverge at its dt;
* :func:`nav_panel` (bottom, left of the Numerics window) - the NAV radio: an HSI (course arrow and
  deviation bar, TO/FROM, the glide slope for an ILS), the station's identifier, frequency, DME, radial,
  the station list to tune and the course selector (OBS);
* :func:`gear_panel` (bottom left, below 100 ft) - the ground: ground speed,
  brakes, parking brake, each gear leg's load and compression;
* :func:`~flightsim.app.hud.map_panel.map_panel` (key L, while shown) - the terrain, the airfields, the
  navaids, the airplane and its track, zoom and pan;
* :func:`status_banner` - a stopped flight with a reset button, PAUSED,
  the end of a replay, REC, short messages;
* :func:`key_help` - the keys (F1).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from imgui_bundle import imgui, implot

from flightsim.app.hud.instruments import (
    CHART_FLAGS,
    FT_S_TO_KT,
    X_FLAGS,
    attitude_indicator,
    bar,
    chart_limits,
    cockpit_frame,
    cockpit_shapes,
    heading_tape,
    hsi,
    plain_lines,
    three_lights,
    vec2,
    wind_arrow,
    wind_relative,
)
from flightsim.app.hud.map_panel import map_panel
from flightsim.app.input.joystick import CENTRED
from flightsim.app.input.pilot import GAMEPAD_BUTTONS, GAMEPAD_DPAD, GAMEPAD_DPAD_PRESS, GAMEPAD_HELD
from flightsim.app.scene.camera import CAMERA_MODES
from flightsim.physics.planet import place_text
from flightsim.simulation.autopilot import SPEC_KEYS, Selection
from flightsim.simulation.flight import GEAR_LOCKED, GEAR_UP
from flightsim.simulation.navigation import station as find_station

__all__ = ["NUMERICS_SECTIONS", "PANELS", "STALL_BLINK_HZ", "aircraft_section", "autopilot_section", "camera_section",
           "charts_section", "clock_section", "cockpit_overlay", "dynamics_panel", "dynamics_section", "flight_panel",
           "gear_panel", "ghost_section", "instructor_panel", "integrator_section", "key_help", "nav_panel",
           "numerics_panel",
           "place_section",
           "recording_section", "run_section", "sound_section", "stall_flash", "status_banner", "timing_section",
           "wind_section"]

PANEL_ALPHA = 0.62
"""Opacity of the side panels' background (the scene shows through)."""
BACKDROP_WINDOWS = ("flight:window", "ground:window", "numerics:window", "nav:window")
"""The windows (:attr:`~flightsim.app.hud.state.Hud.hit_boxes`) whose background the scene draws when
:attr:`~flightsim.app.hud.state.Hud.backdrops` is on."""
BACKDROP_RGB = (51, 56, 64)
"""Their opaque background then (about what the see-through one looks like over the landscape)."""

NUMERICS_WIDTH = 330.0
"""Width of the Numerics window, imgui pixels."""
PLOT_WIDTH = NUMERICS_WIDTH - 20.0
"""Width of its charts."""

_PANEL_FLAGS = (imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.always_auto_resize
                | imgui.WindowFlags_.no_focus_on_appearing | imgui.WindowFlags_.no_saved_settings)

_HELP_ACTIONS = (("pitch_up", "pitch up (stick back)"), ("pitch_down", "pitch down (stick forward)"),
                 ("roll_left", "roll left"), ("roll_right", "roll right"), ("yaw_left", "rudder left"),
                 ("yaw_right", "rudder right"), ("throttle_up", "throttle up"),
                 ("throttle_down", "throttle down"), ("trim_nose_down", "elevator trim nose down (wheel forward)"),
                 ("trim_nose_up", "elevator trim nose up (wheel back)"),
                 ("trim_now", "trim now: level flight here, stick centred"), ("flaps_down", "flaps down a notch"),
                 ("flaps_up", "flaps up a notch"), ("pause", "pause"), ("reset", "reset"),
                 ("camera", "next camera"), ("screenshot", "screenshot (PNG)"), ("help", "this help"),
                 ("hud", "hide / show panels"), ("ghost", "ghost airplane on / off"),
                 ("ghost_resync", "resync the ghost"), ("record", "record a trace (start / stop)"),
                 ("dynamics", "Dynamics panel: modes and stability"),
                 ("brake", "wheel brakes (hold; with rudder: differential)"),
                 ("parking_brake", "parking brake set / release"), ("autopilot", "autopilot on / off"),
                 ("engine", "engine off (mixture cut) / running"),
                 ("gear", "gear lever up / down (gear that retracts)"), ("mute", "sound off / on"),
                 ("devices", "Input panel: joysticks, their axes, calibration"),
                 ("map", "map: terrain, airfields, navaids, your track (wheel zooms, drag pans)"),
                 ("instructor", "Instructor: fail the engine, an instrument, a control; repair it"), ("quit", "quit"))

STALL_BLINK_HZ = 1.5
"""The stall warning's blink, cycles a second of the app's clock (:attr:`~flightsim.app.hud.state.Hud.clock`):
bright red for the first half of each cycle, orange for the second."""

_RED = imgui.ImVec4(1.0, 0.35, 0.3, 1.0)
_GHOST_BLUE = imgui.ImVec4(0.62, 0.84, 1.0, 1.0)
#: What the autopilot's fields accept (as ``--autopilot`` does): heading wraps, the others clip.
AP_LIMITS = {name: SPEC_KEYS[key][:2] for name, key in (("heading", "hdg"), ("altitude", "alt"),
                                                        ("vertical_speed", "vs"), ("airspeed", "ias"))}
_GREEN = imgui.ImVec4(0.45, 0.95, 0.45, 1.0)
_REGION = imgui.ImVec4(1.0, 0.84, 0.25, 1.0)


def _remember_window(hud, name):
    """Record the current window's rectangle as ``hit_boxes[name]``."""
    pos, extent = imgui.get_window_pos(), imgui.get_window_size()
    hud.hit_boxes[name] = (pos.x, pos.y, pos.x + extent.x, pos.y + extent.y)


def stall_flash(clock):
    """The stall warning is in its bright half of the blink at ``clock`` seconds of the app's clock."""
    return int(clock * 2.0 * STALL_BLINK_HZ) % 2 == 0


def _panels_fit(hud):
    """The side panels are shown and the window is big enough for them."""
    size = imgui.get_io().display_size
    return hud.show and size.x >= 200 and size.y >= 150


# ------------------------------------------------------------------ overlays


def cockpit_overlay(view, do, hud):
    """From the cockpit: the glare shield and windscreen posts, behind the panels.

    With :attr:`~flightsim.app.hud.state.Hud.backdrops` on, the scene draws them while they are opaque.
    """
    if view.camera.mode == "cockpit":
        size = imgui.get_io().display_size
        if hud.backdrops and cockpit_shapes(size.x, size.y, view.camera.head_yaw, view.camera.head_pitch)[0] >= 1.0:
            return
        cockpit_frame(size.x, size.y, view.camera.head_yaw, view.camera.head_pitch)


def _panel_background(hud):
    """The next window's background: see-through, or none where the scene draws it (backdrops)."""
    imgui.set_next_window_bg_alpha(0.0 if hud.backdrops else PANEL_ALPHA)


def status_banner(view, do, hud):
    """Top centre: a stopped flight (with a reset button), PAUSED, the end of a replay, REC, a message."""
    lines = []
    if view.status:
        lines.append(("status", view.status))
    elif view.paused:
        lines.append(("paused", "PAUSED"))
    elif view.capabilities.can_seek and view.t >= view.playback.end:
        lines.append(("end", f"end of the trace: Reset ({view.keymap.describe('reset')}) plays it again"))
    if view.recorder.recording:
        lines.append(("rec", f"REC  {view.recorder.seconds:.1f} s"))
    if hud.message_shown:
        lines.append(("message", hud.message))
    if not lines:
        return
    width = imgui.get_io().display_size.x
    imgui.set_next_window_pos(vec2(width * 0.5, 12), imgui.Cond_.always, vec2(0.5, 0.0))
    imgui.set_next_window_bg_alpha(0.8)
    imgui.begin("##status", None, imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize
                | imgui.WindowFlags_.no_saved_settings | imgui.WindowFlags_.no_focus_on_appearing)
    for kind, text in lines:
        if kind == "status":
            imgui.text_colored(_RED, text)
            if imgui.button(f"Reset ({view.keymap.describe('reset')})"):
                do.reset()
        elif kind == "rec":
            imgui.text_colored(_RED, text)
        else:
            imgui.text(text)
    imgui.end()


def key_help(view, do, hud):
    """The keys, the mouse and the gamepad (F1 opens and closes it)."""
    if not hud.show_help:
        return
    size = imgui.get_io().display_size
    imgui.set_next_window_pos(vec2(size.x * 0.5, size.y * 0.5), imgui.Cond_.always, vec2(0.5, 0.5))
    imgui.set_next_window_bg_alpha(0.9)
    _, keep = imgui.begin("Keys (F1 closes)", True, imgui.WindowFlags_.always_auto_resize
                          | imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.no_saved_settings)
    if imgui.begin_table("keys", 2, imgui.TableFlags_.row_bg):
        for action, text in _HELP_ACTIONS:
            imgui.table_next_row()
            imgui.table_next_column()
            imgui.text(view.keymap.describe(action))
            imgui.table_next_column()
            imgui.text(text)
        imgui.end_table()
    imgui.separator()
    imgui.text("Mouse: drag to orbit (orbit camera) or look around (cockpit); wheel zooms.")
    pad = ", ".join(f"{b} {a}" for b, a in {**GAMEPAD_BUTTONS, **GAMEPAD_HELD, **GAMEPAD_DPAD,
                                             **GAMEPAD_DPAD_PRESS}.items())
    imgui.text("Gamepad: left stick elevator/aileron, right stick rudder and throttle,")
    imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + 520.0)
    imgui.text_wrapped("triggers throttle down/up; " + pad + ".")
    imgui.pop_text_wrap_pos()
    imgui.text_disabled(f"keymap: {view.keymap.source}")
    imgui.end()
    if not keep:
        hud.show_help = False


# ------------------------------------------------------------------ flight


def gear_lights(position):
    """What the gear lights show for a gear at ``position`` (1 down, 0 up; None: fixed gear): ``"down"`` (three
    greens: down and locked), ``"transit"`` (red: moving), ``"up"`` (no light) or None (fixed: no lights)."""
    if position is None:
        return None
    if position >= GEAR_LOCKED:             # FGLGear's thresholds: a wheel is a contact only above 0.99
        return "down"
    return "up" if position <= GEAR_UP else "transit"


def gear_section(t, c, view):
    """The three greens of a gear that retracts (:func:`gear_lights`): green down and locked, red in transit, dark
    when up; nothing for fixed gear."""
    lights = gear_lights(getattr(t, "gear_position", None))
    if lights is None:
        return
    key = f" ({view.keymap.describe('gear')})" if view.capabilities.can_fly else ""
    lever = "down" if c.gear >= 0.5 else "up"
    text = {"down": "down", "up": "up", "transit": f"going {lever} {t.gear_position * 100:3.0f}%"}[lights]
    three_lights(lights, text + key)


def flight_panel(view, do, hud):
    """Left: the instruments and the controls' positions."""
    if not _panels_fit(hud):
        return
    t, c = view.telemetry, view.controls
    imgui.set_next_window_pos(vec2(8, 8), imgui.Cond_.always)
    _panel_background(hud)
    imgui.begin("Flight", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    size = 184.0
    g, failed = t.gauges, t.failures
    shown = g if g is not None and "vacuum" in failed else t          # the vacuum gyros as they drift
    attitude_indicator(shown.roll, shown.pitch, size, view.director)
    heading_tape(shown.heading, size)
    pitot_static = g is not None and ("pitot" in failed or "static" in failed)
    kt = t.airspeed * FT_S_TO_KT
    aircraft = view.aircraft
    if aircraft is not None and aircraft.airspeed_unit == "kt":      # the airspeed indicator of a light airplane
        ias = g.airspeed_kt if pitot_static else t.indicated_airspeed * FT_S_TO_KT
        imgui.text(f"IAS {ias:5.1f} kt  TAS {kt:5.1f} kt  "
                   f"GS {t.groundspeed * FT_S_TO_KT:5.1f} kt" + (f"  M {t.mach:.2f}" if t.mach >= 0.3 else ""))
    else:
        imgui.text(f"Airspeed {kt:6.1f} kt  ({t.airspeed:5.1f} ft/s)  GS {t.groundspeed * FT_S_TO_KT:5.1f} kt")
    if pitot_static:                    # the pitot-static instruments, as they read with a tube or port blocked
        imgui.text(f"Altimeter {g.altitude_ft:6.0f} ft")
    else:
        imgui.text(f"Altitude {t.altitude:7.0f} ft")
    place_section(t)
    vs = g.vertical_speed_fpm if pitot_static else t.vertical_speed * 60.0
    imgui.text(f"Vert spd {vs:+7.0f} ft/min")
    if g is not None and g.flags:       # the flags and annunciators a real cockpit shows
        imgui.text_colored(_RED, "  ".join(FLAG_TEXT[f] for f in g.flags))
    imgui.text(f"AoA      {t.alpha:+6.1f} deg")
    imgui.text(f"Roll {t.roll:+6.1f}  Pitch {t.pitch:+5.1f}  Hdg {t.heading:05.1f}")
    if t.stall:
        imgui.text_colored(imgui.ImVec4(1.0, 0.2 if stall_flash(hud.clock) else 0.5, 0.2, 1.0), "STALL")
    elif t.on_ground:
        imgui.text_colored(imgui.ImVec4(0.6, 1.0, 0.6, 1.0), "on the ground")
    else:
        imgui.text(" ")
    if view.autopilot:
        imgui.text_colored(_GREEN, f"AP  {view.autopilot}")
    elif view.autopilot_message:
        imgui.text_colored(_AMBER, view.autopilot_message)
    wind_section(view, do, hud)
    imgui.separator()
    bar("Throttle", c.throttle, 0.0, 1.0, f"{c.throttle * 100:3.0f}%  {t.thrust:4.0f} lbf")
    if aircraft is not None and aircraft.propeller:
        bar("RPM", t.rpm, 0.0, RPM_GAUGE_MAX, f"{t.rpm:4.0f} rpm")
        hud.remember("rpm")
        if c.engine < 0.5:
            imgui.text_colored(_AMBER, "ENGINE OFF" + (" - propeller stopped" if t.rpm <= 0.0 else " - windmilling"))
    for k, gauge in enumerate(t.engines):        # a JSBSim aircraft's engines, each by its kind
        label = f"Eng {k + 1}" if len(t.engines) > 1 else "Engine"
        if gauge[0] == "turbine":
            bar(f"{label} N1", gauge[1], 0.0, 110.0, f"N1 {gauge[1]:5.1f}%  N2 {gauge[2]:5.1f}%")
        else:
            bar(f"{label} RPM", gauge[1], 0.0, RPM_GAUGE_MAX, f"{gauge[1]:4.0f} rpm")
    bar("Flaps", c.flaps, 0.0, 1.0, f"{c.flaps * 100:3.0f}%")
    gear_section(t, c, view)
    bar("Elevator", c.elevator, -1.0, 1.0, f"{c.elevator:+.2f}")
    if view.capabilities.can_fly:      # a recording holds the elevator flown (stick + trim) as its elevator
        bar("Trim", c.elevator_trim, -1.0, 1.0, f"{c.elevator_trim:+.3f} (+ nose up)")
        hud.remember("trim")
    bar("Aileron", c.aileron, -1.0, 1.0, f"{c.aileron:+.2f}")
    bar("Rudder", c.rudder, -1.0, 1.0, f"{c.rudder:+.2f}")
    if view.capabilities.can_fly:
        if imgui.button(f"Trim now ({view.keymap.describe('trim_now')})"):
            do.trim_now()
        hud.remember("trim_now")
        if imgui.is_item_hovered():
            imgui.set_tooltip("level flight at this airspeed, altitude and heading:\n"
                              "throttle and elevator trim set, stick centred")
    imgui.text_disabled(view.input_status if view.capabilities.can_fly else "controls as recorded")
    _remember_window(hud, "flight:window")
    imgui.end()


def place_section(t):
    """Where on the planet the airplane is, on one line: its latitude and longitude, its height above the
    ellipsoid and the planet's name (a source that says none, nothing)."""
    if t.lat is None:
        return
    imgui.text(f"{place_text(t.lat, t.lon, 4)}  MSL {t.alt_msl:.0f} ft" + (f"  {t.planet}" if t.planet else ""))


def wind_section(view, do, hud):
    """Part of the Flight panel: the wind relative to the airplane (an arrow), its speed and the turbulence."""
    t = view.telemetry
    from_deg, speed_kt, rel = wind_relative(t.wind, t.heading)
    if speed_kt < 0.05 and t.turbulence == "none":
        imgui.text_disabled("Wind     calm")
        return
    imgui.separator()
    wind_arrow(rel, speed_kt, 46.0)
    imgui.same_line()
    imgui.begin_group()
    imgui.text(f"Wind {from_deg:03.0f}° / {speed_kt:4.1f} kt")
    imgui.text(f"from {rel:03.0f}° rel. to the nose")
    imgui.text(f"Turbulence {t.turbulence}")
    imgui.end_group()


# ------------------------------------------------------------------ gear

_AMBER = imgui.ImVec4(1.0, 0.72, 0.25, 1.0)


#: The Ground panel shows below this height above the ground (ft), where the gear matters.
GEAR_PANEL_BELOW = 100.0


def nav_panel(view, do, hud):
    """Bottom, left of the Numerics window: the NAV radio's HSI and what it receives; tune it from the station
    list, turn the course selector (OBS) with -/+ or typed (an ILS's course is its runway's)."""
    nav = view.nav
    if nav is None or not _panels_fit(hud):
        return
    size = imgui.get_io().display_size
    right = hud.hit_boxes.get("numerics:window", (size.x,) * 4)[0]
    imgui.set_next_window_pos(vec2(right - 8, size.y - 8), imgui.Cond_.always, vec2(1.0, 1.0))
    _panel_background(hud)
    imgui.begin("NAV", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    with plain_lines():
        _nav(view, nav, do, hud)
    _remember_window(hud, "nav:window")
    imgui.end()


def _nav(view, nav, do, hud):
    r = nav.reading
    hsi(view.telemetry.heading, nav.obs, r.course_dots, r.gs_dots if nav.ils else None,
        None if not r.valid or nav.ils else r.to_from == "TO", 132.0)
    if r.valid:
        imgui.text(f"{r.ident}  {r.to_from if not nav.ils else 'LOC'}")
        dme = f"DME {r.dme_nm:5.1f} nm"
        imgui.text(dme + (f"  R {r.radial:03.0f}" if not nav.ils else ""))
    else:
        imgui.text_colored(_AMBER, "no signal" if nav.station else "not tuned")
        imgui.text(" ")
    imgui.set_next_item_width(150.0)
    if imgui.begin_combo("##nav_station", nav.station or "tune..."):
        for name in nav.stations:
            if imgui.selectable(name, name == nav.station)[0]:
                do.tune_nav(name)
        imgui.end_combo()
    hud.remember("nav_station")
    imgui.set_next_item_width(110.0)
    changed, typed = imgui.input_int("OBS", int(round(nav.obs)) % 360, 1, 10)
    hud.remember("nav_obs")
    if changed and not nav.ils:
        do.set_obs(float(typed % 360))


def gear_panel(view, do, hud):
    """Bottom left, near the ground: ground speed, the brakes and the parking brake, each leg's load and compression."""
    if not _panels_fit(hud) or not view.telemetry.gear:
        return
    if view.telemetry.altitude > GEAR_PANEL_BELOW and not view.telemetry.on_ground:
        return
    t, c = view.telemetry, view.controls
    size = imgui.get_io().display_size
    imgui.set_next_window_pos(vec2(8, size.y - 8), imgui.Cond_.always, vec2(0.0, 1.0))
    _panel_background(hud)
    imgui.begin("Ground", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    _remember_window(hud, "ground:window")
    imgui.text(f"Gnd speed {t.groundspeed * FT_S_TO_KT:5.1f} kt  ({t.groundspeed:5.1f} ft/s)")
    brake = c.brake if np.isfinite(c.brake) else 0.0
    bar("Brakes", brake, 0.0, 1.0, f"{brake * 100:3.0f}%  ({view.keymap.describe('brake')})")
    if c.parking_brake >= 0.5:
        imgui.text_colored(_AMBER, f"PARKING BRAKE SET  ({view.keymap.describe('parking_brake')})")
    else:
        imgui.text_disabled(f"parking brake off  ({view.keymap.describe('parking_brake')})")
    imgui.separator()
    for leg in t.gear:
        if leg.wheel:
            squash = leg.compression / leg.travel if leg.travel > 0 else 0.0
            imgui.text(leg.name.removesuffix(" wheel"))
            imgui.same_line(96.0)
            imgui.progress_bar(min(max(squash, 0.0), 1.0), vec2(92.0, imgui.get_text_line_height()), "")
            if imgui.is_item_hovered():
                imgui.set_tooltip(f"{leg.name}: leg compressed {leg.compression:.2f} of {leg.travel:g} ft")
            imgui.same_line()
            imgui.text(f"{leg.load:6.0f} lbf")
        elif leg.load > 0.0 or leg.compression > 0.0:
            imgui.text_colored(_RED, f"{leg.name} on the ground")
    imgui.end()


# ------------------------------------------------------------------ numerics


def numerics_panel(view, do, hud):
    """Right: the Numerics window, its :data:`NUMERICS_SECTIONS` one under the other."""
    if not _panels_fit(hud):
        return
    width = imgui.get_io().display_size.x
    imgui.set_next_window_pos(vec2(width - NUMERICS_WIDTH - 8, 8), imgui.Cond_.always)
    imgui.set_next_window_size(vec2(NUMERICS_WIDTH, 0), imgui.Cond_.always)
    _panel_background(hud)
    imgui.begin("Numerics", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    for section in NUMERICS_SECTIONS:
        section(view, do, hud)
    _remember_window(hud, "numerics:window")
    imgui.end()


#: Full scale of the RPM gauge (a light airplane's tachometer reads to about 3000 rpm).
RPM_GAUGE_MAX = 3000.0


def aircraft_section(view, do, hud):
    """The Aircraft combo: fly another shipped airplane (the flight starts again); a replay's is disabled."""
    a = view.aircraft
    if a is None:
        return
    can = view.capabilities.can_fly
    imgui.begin_disabled(not can)
    imgui.set_next_item_width(-1.0)
    opened = imgui.begin_combo("##aircraft", f"aircraft: {a.name} ({a.title})")
    hud.remember("aircraft")
    if imgui.is_item_hovered(imgui.HoveredFlags_.allow_when_disabled) and not opened:
        imgui.set_tooltip("fly another airplane: the flight starts again" if can
                          else "a replay shows the recorded airplane")
    if opened:
        for name in a.choices:
            if imgui.selectable(name, name == a.name)[0] and name != a.name:
                do.set_aircraft(name)
            hud.remember(f"aircraft:{name}")
        imgui.end_combo()
    imgui.end_disabled()


def integrator_section(view, do, hud):
    """The integrator combo (switching is live) and the renormalise toggle, and ``|q| - 1``.

    Where the source cannot switch integrators (a replay) a disabled combo
    names where the states come from.
    """
    if view.capabilities.can_switch_integrator:
        hud.method_combo("integrator", view.integrator, do.set_integrator)
        changed, on = imgui.checkbox("renormalise q every step", view.renormalize)
        if changed:
            do.set_renormalize(on)
        imgui.text(f"|q| - 1      {view.telemetry.qnorm_error:+.3e}")
        if view.telemetry.unconverged:
            imgui.text_colored(_AMBER, "not converged: the last iterate was taken")
    else:
        _fixed_source(view, hud)
        imgui.text_disabled("|q| - 1      (q normalised on reading)")


def _fixed_source(view, hud):
    """In place of the integrator combo: a disabled one reading the source (``replay: FILE``)."""
    playback = view.playback
    label = view.integrator if playback is None else f"{view.integrator}: {Path(str(playback.path)).name}"
    imgui.begin_disabled(True)
    imgui.set_next_item_width(-1.0)
    if imgui.begin_combo("##integrator", label):
        imgui.end_combo()
    imgui.end_disabled()
    hud.remember("integrator")
    if imgui.is_item_hovered(imgui.HoveredFlags_.allow_when_disabled):
        imgui.set_tooltip("no integrator runs" if playback is None
                          else f"recorded states from {playback.path}; no integrator runs")


def timing_section(view, do, hud):
    """Physics cost per step (or the recording's rows), the frame time and its split."""
    s = view.stats
    if view.capabilities.can_seek:
        imgui.text(f"recorded     {view.playback.rows} rows, dt {view.dt * 1000:.2f} ms")
    else:
        imgui.text(f"physics      {view.telemetry.step_us:7.1f} us/step  x{s.steps_last}")
    imgui.text(f"frame        {s.period_ms:6.2f} ms  ({s.fps:4.0f} fps)")
    imgui.text_disabled(f"  physics {s.physics_ms:4.2f}  draw {s.draw_ms:4.2f}  HUD {s.hud_ms:4.2f} ms")


def clock_section(view, do, hud):
    """The simulation time and step; for a playback, "t / end" and a slider that seeks."""
    if not view.capabilities.can_seek:
        imgui.text(f"sim time     {view.telemetry.t:8.2f} s   dt {view.dt * 1000:.2f} ms")
        return
    playback = view.playback
    imgui.text(f"replay t     {view.t:8.2f} / {playback.end:.2f} s")
    imgui.set_next_item_width(-1.0)
    changed, value = imgui.slider_float("##seek", float(view.t), float(playback.start), float(playback.end),
                                        "%.2f s")
    hud.remember("seek")
    if changed:
        do.seek(value)


def run_section(view, do, hud):
    """Pause / Resume, Reset, and the time scale."""
    if imgui.button("Resume" if view.paused else "Pause", vec2(80, 0)):
        do.toggle_pause()
    imgui.same_line()
    if imgui.button("Reset", vec2(80, 0)):
        do.reset()
    imgui.same_line()
    scales = hud.time_scales
    scale_index = min(range(len(scales)), key=lambda i: abs(scales[i] - view.time_scale))
    imgui.set_next_item_width(-1.0)
    changed, scale_index = imgui.combo("##timescale", scale_index, [f"x{v:g} time" for v in scales])
    if changed:
        do.set_time_scale(scales[scale_index])


def camera_section(view, do, hud):
    """One radio button per camera."""
    imgui.text("camera")
    for mode in CAMERA_MODES:
        imgui.same_line()
        if imgui.radio_button(mode, view.camera.mode == mode):
            do.set_camera(mode)


def sound_section(view, do, hud):
    """Mute and the volume, where there is sound."""
    if view.sound is None:
        return
    muted, volume = view.sound
    changed, muted = imgui.checkbox(f"mute ({view.keymap.describe('mute')})", muted)
    hud.remember("mute")
    imgui.same_line()
    imgui.set_next_item_width(-1.0)
    moved, volume = imgui.slider_float("##volume", volume, 0.0, 1.0, "volume %.2f")
    hud.remember("volume")
    if changed or moved:
        do.set_sound(muted, volume)


def recording_section(view, do, hud):
    """Record / Stop a trace of every step, and what was recorded."""
    if not view.capabilities.can_record:
        return
    rec = view.recorder
    key = view.keymap.describe("record")
    if imgui.button(f"Stop ({key})" if rec.recording else f"Record ({key})", vec2(100, 0)):
        do.toggle_recording()
    hud.remember("record")
    imgui.same_line()
    if rec.recording:
        imgui.text_colored(_RED, f"REC {rec.seconds:6.1f} s  {rec.rows} steps")
    elif rec.last_path is not None:
        imgui.text_disabled(f"saved {rec.last_path.name}")
        if imgui.is_item_hovered():
            imgui.set_tooltip(str(rec.last_path))
    else:
        imgui.text_disabled("trace of every step (CSV)")


def dynamics_section(view, do, hud):
    """The Dynamics panel's switch."""
    switched, on = imgui.checkbox(f"Dynamics panel ({view.keymap.describe('dynamics')}): modes, stability",
                                  view.dynamics is not None)
    hud.remember("dynamics")
    if switched:
        do.set_dynamics(on)


def autopilot_section(view, do, hud):
    """The autopilot: engage / disconnect, what is engaged (or why it disconnected), the selected heading,
    altitude, vertical speed and airspeed (+/- or typed: each change flies at once), the approach to runway 36."""
    if not view.capabilities.can_fly or view.autopilot_selection is None:
        return
    with plain_lines():
        _autopilot_section(view, do, hud)


def _autopilot_section(view, do, hud):
    on = bool(view.autopilot)
    # open at first when it flies from the start (--autopilot); otherwise folded, to keep the charts in view
    if not imgui.collapsing_header(f"autopilot ({view.keymap.describe('autopilot')})",
                                   imgui.TreeNodeFlags_.default_open if on else 0):
        return
    t, sel = view.telemetry, view.autopilot_selection
    switched, want = imgui.checkbox("engaged" if on else "engage: hold the heading and altitude", on)
    hud.remember("autopilot")
    if switched:
        do.set_autopilot(Selection(heading=float(round(t.heading) % 360)) if want else None)
    if on:
        imgui.same_line()
        imgui.text_colored(_GREEN, view.autopilot)
    elif view.autopilot_message:
        imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + PLOT_WIDTH)
        imgui.text_colored(_AMBER, view.autopilot_message)
        imgui.pop_text_wrap_pos()
    if not on:
        return
    fields = (("heading", "HDG  deg", 1, 10, t.heading), ("altitude", "ALT  ft", 100, 1000, t.altitude),
              ("vertical_speed", "VS   ft/min", 100, 500, t.vertical_speed * 60.0),
              ("airspeed", "IAS  kt", 1, 10, t.indicated_airspeed * FT_S_TO_KT))
    for name, label, step, fast, now in fields:
        value = getattr(sel, name)
        shown = int(round(now if value is None else value))
        imgui.set_next_item_width(130.0)
        changed, typed = imgui.input_int(label, shown, step, fast)
        hud.remember(f"autopilot_{name}")
        if changed:
            low, high = AP_LIMITS[name]
            typed = typed % 360 if name == "heading" else min(max(typed, low), high)
            leave = {"nav": None} if name == "heading" else {}         # a heading typed leaves NAV for HDG
            do.set_autopilot(replace(sel, approach=False, runway=None, **leave, **{name: float(typed)}))
    if imgui.button("Approach runway 36 (LOC, GS)", vec2(-1.0, 0)):
        do.set_autopilot(Selection(airspeed=sel.airspeed, approach=True))
    hud.remember("autopilot_approach")
    nav = view.nav
    station = nav.station.split()[0] if nav is not None and nav.station else ""
    if nav is not None and nav.ils and station != "I-KHOM36":
        if imgui.button(f"Approach {station} (APR: LOC, GS)", vec2(-1.0, 0)):
            ils = find_station(station)
            do.set_autopilot(Selection(airspeed=sel.airspeed, approach=True, runway=(ils.airfield, ils.runway)))
        hud.remember("autopilot_apr")
    elif nav is not None and station and not nav.ils:
        if imgui.button(f"NAV: track {station} course {nav.obs:03.0f}", vec2(-1.0, 0)):
            do.set_autopilot(replace(sel, approach=False, runway=None, heading=None, nav=(station, nav.obs)))
        hud.remember("autopilot_nav")


def ghost_section(view, do, hud):
    """The ghost: on/off, its integrator and sub-steps, resync, the difference in numbers and a chart."""
    if not view.capabilities.can_ghost:
        return
    with plain_lines():
        _ghost_section(view, do, hud)


def _ghost_section(view, do, hud):
    if not imgui.collapsing_header("ghost: a second integrator", imgui.TreeNodeFlags_.default_open):
        return
    ghost = view.ghost
    key = view.keymap.describe("ghost")
    label = f"fly a ghost ({key})" if ghost.on else f"fly a ghost ({key}): {ghost.integrator} x{ghost.substeps}"
    switched, on = imgui.checkbox(label, ghost.on)
    hud.remember("ghost")
    if switched:
        do.set_ghost(on)
    if not ghost.on:                    # one line while off: the options come with the ghost
        return
    imgui.same_line()
    if imgui.button(f"Resync ({view.keymap.describe('ghost_resync')})", vec2(-1.0, 0)):
        do.resync_ghost()
    hud.remember("ghost_resync")
    hud.method_combo("ghost_integrator", ghost.integrator, do.set_ghost_integrator)
    imgui.set_next_item_width(110.0)
    changed, substeps = imgui.input_int("sub-steps per step", ghost.substeps)
    hud.remember("ghost_substeps")
    if changed:
        do.set_ghost_substeps(substeps)
    if switched and not on:             # switched off just now
        return
    if ghost.status:
        imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + PLOT_WIDTH)
        imgui.text_colored(_RED, f"ghost {ghost.status}")
        imgui.pop_text_wrap_pos()
    att, pos = ghost.difference
    imgui.text_colored(_GHOST_BLUE, f"difference   {att:9.3g} deg  {pos:9.3g} ft")
    _ghost_chart(view.telemetry.t, ghost.history)


def _ghost_chart(t_now, history):
    """Attitude difference (deg, left axis) and position difference (ft, right axis) over 30 s."""
    if implot.begin_plot("##ghost", vec2(PLOT_WIDTH, 84), CHART_FLAGS):
        implot.setup_axes("", "deg", X_FLAGS, implot.AxisFlags_.auto_fit)
        implot.setup_axis(implot.ImAxis_.y2, "ft", implot.AxisFlags_.opposite | implot.AxisFlags_.no_grid_lines
                          | implot.AxisFlags_.auto_fit)
        implot.setup_axis_limits(implot.ImAxis_.x1, t_now - history.span, t_now, imgui.Cond_.always)
        implot.setup_legend(implot.Location_.north_west, implot.LegendFlags_.horizontal)
        xs, att = history.series("attitude")
        if len(xs):
            implot.plot_line("attitude", xs, att)
            implot.set_axes(implot.ImAxis_.x1, implot.ImAxis_.y2)
            implot.plot_line("position", *history.series("position"))
        implot.end_plot()


def charts_section(view, do, hud):
    """Two strip charts over 30 s: attitude (roll, pitch; heading on a right axis) and ``|q| - 1``."""
    with plain_lines():
        if imgui.collapsing_header("strip charts (30 s)", imgui.TreeNodeFlags_.default_open):
            _charts(view.telemetry.t, view.history)


def _charts(t_now, history):
    span = history.span
    if implot.begin_plot("##attitude", vec2(PLOT_WIDTH, 118), CHART_FLAGS):
        implot.setup_axes("", "deg", X_FLAGS, 0)
        implot.setup_axis(implot.ImAxis_.y2, "hdg", implot.AxisFlags_.opposite | implot.AxisFlags_.no_grid_lines)
        implot.setup_axis_limits(implot.ImAxis_.x1, t_now - span, t_now, imgui.Cond_.always)
        _, roll = history.series("roll")
        xs, pitch = history.series("pitch")
        lo, hi = chart_limits(np.concatenate([roll, pitch]), (-180.0, 180.0))
        implot.setup_axis_limits(implot.ImAxis_.y1, lo, hi, imgui.Cond_.always)
        implot.setup_axis_limits(implot.ImAxis_.y2, 0.0, 360.0, imgui.Cond_.always)
        implot.setup_legend(implot.Location_.north_west, implot.LegendFlags_.horizontal)
        if len(xs):
            implot.plot_line("roll", xs, roll)
            implot.plot_line("pitch", xs, pitch)
            implot.set_axes(implot.ImAxis_.x1, implot.ImAxis_.y2)
            implot.plot_line("heading", *history.series("heading"))
        implot.end_plot()
    if implot.begin_plot("##qnorm", vec2(PLOT_WIDTH, 78), CHART_FLAGS | implot.Flags_.no_legend):
        implot.setup_axes("", "|q|-1", X_FLAGS, implot.AxisFlags_.auto_fit)
        implot.setup_axis_limits(implot.ImAxis_.x1, t_now - span, t_now, imgui.Cond_.always)
        xs, ys = history.series("qnorm_error")
        if len(xs):
            implot.plot_line("|q| - 1", xs, ys)
        implot.end_plot()


# ------------------------------------------------------------------ dynamics

DYNAMICS_PLOT = (230.0, 200.0)
"""Size of the Dynamics panel's λ·dt plot, imgui pixels."""

_DYNAMICS_FLAGS = (imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.always_auto_resize
                   | imgui.WindowFlags_.no_focus_on_appearing | imgui.WindowFlags_.no_saved_settings)
_Z_PLOT_FLAGS = (implot.Flags_.equal | implot.Flags_.no_menus | implot.Flags_.no_box_select
                 | implot.Flags_.no_title | implot.Flags_.no_legend)
_MU_TIP = ("|mu|: how much one step multiplies the mode (exactly |e^(lambda dt)|).\n"
           "diverges: the integrator makes the mode grow (|mu| > 1, faster than the airplane does).")
_PLOT_TIP = ("Each mode's lambda*dt (a pair: and its conjugate) over the integrator's stability region\n"
             "(the textbook test-equation picture: inside, the step keeps that mode bounded).\n"
             "Red marks come from the step's own multipliers on the airplane: a partitioned step\n"
             "(Bourg's Euler) keeps some modes bounded outside Euler's disk, so believe the colour.")


def dynamics_panel(view, do, hud):
    """The modes of the trim, and what the integrators in use make of them at their dt (while shown)."""
    d = view.dynamics
    if d is None or not _panels_fit(hud):
        return
    size = imgui.get_io().display_size
    left = hud.hit_boxes.get("flight:window", (0.0, 0.0, 0.0, 0.0))[2]           # between the side panels
    right = hud.hit_boxes.get("numerics:window", (size.x,) * 4)[0]
    imgui.set_next_window_pos(vec2(0.5 * (left + right), size.y - 8), imgui.Cond_.always, vec2(0.5, 1.0))
    imgui.set_next_window_bg_alpha(0.72)
    _, keep = imgui.begin(f"Dynamics ({view.keymap.describe('dynamics')})", True,
                          _DYNAMICS_FLAGS | imgui.WindowFlags_.no_move)
    with plain_lines():
        _dynamics(view, d, do, hud)
    _remember_window(hud, "dynamics:window")
    imgui.end()
    if not keep:
        do.set_dynamics(False)


def input_panel(view, do, hud):
    """The joysticks read now (J opens and closes it): each bound axis's control and value as a bar, and a button
    that measures each axis's travel (calibration)."""
    if view.devices is None or not _panels_fit(hud):
        return
    size = imgui.get_io().display_size
    left = hud.hit_boxes.get("flight:window", (0.0, 0.0, 0.0, 0.0))[2]
    right = hud.hit_boxes.get("numerics:window", (size.x,) * 4)[0]
    imgui.set_next_window_pos(vec2(0.5 * (left + right), 8), imgui.Cond_.always, vec2(0.5, 0.0))
    imgui.set_next_window_bg_alpha(0.95)
    _, keep = imgui.begin(f"Input ({view.keymap.describe('devices')})", True,
                          _DYNAMICS_FLAGS | imgui.WindowFlags_.no_move)
    _remember_window(hud, "input:window")
    if not view.devices:
        imgui.text("No joystick, yoke or pedals read: plug one in (looked for every 2 s),")
        imgui.text("or see `flightsim devices` and the keymap's [[joystick]] tables.")
    for k, device in enumerate(view.devices):
        if k:
            imgui.separator()
        imgui.text(device.name)
        imgui.same_line()
        imgui.text_disabled(f"keymap {device.binding}")
        for a in device.axes:
            # a bound axis shows its control's value (dead zone, curve, inversion applied); the others the reading
            centred = a.control in CENTRED or not a.control
            shown = a.value if a.control else a.reading
            bar(a.axis, shown, -1.0 if centred else 0.0, 1.0, f"{shown:+.2f}  {a.control or '(not bound)'}")
            hud.remember(f"input:{device.name}:{a.axis}")
        if imgui.button(("Done##" if device.calibrating else "Calibrate##") + device.name):
            do.calibrate(device.name)
        hud.remember(f"input:calibrate:{device.name}")
        if device.calibrating:
            imgui.same_line()
            imgui.text_colored(_AMBER, "move every axis through its whole travel")
    imgui.end()
    if not keep:
        do.set_devices(False)


#: The cockpit's failure flags (:data:`flightsim.simulation.gauges.FLAGS`) as the flight panel shows them.
FLAG_TEXT = {"VAC": "LOW VACUUM", "NAV": "NAV OFF", "AP": "AP FAIL", "TC": "TC OFF"}
#: What the Instructor panel calls each failure.
FAILURE_LABELS = {"engine": "Engine quits", "engine_partial": "Engine: half power", "engine_rough": "Engine rough",
                  "jam_aileron": "Aileron jammed", "jam_elevator": "Elevator jammed", "jam_rudder": "Rudder jammed",
                  "trim_runaway": "Trim runaway (nose down)", "pitot": "Pitot tube blocked",
                  "static": "Static port blocked", "vacuum": "Vacuum pump", "electrical": "Electrical system",
                  "brake_left": "Left brake", "brake_right": "Right brake", "tyre_left": "Left tyre flat",
                  "tyre_right": "Right tyre flat"}


def instructor_panel(view, do, hud):
    """The instructor's station (I opens and closes it): each failure this aircraft can have, failed (red, how long
    ago, a Repair button) or working (a Fail button), the scheduled ones still to come (``--failures``), and
    Repair all."""
    readout = view.instructor
    if readout is None or not _panels_fit(hud):
        return
    size = imgui.get_io().display_size
    imgui.set_next_window_pos(vec2(0.5 * size.x, 0.5 * size.y), imgui.Cond_.always, vec2(0.5, 0.5))
    imgui.set_next_window_bg_alpha(0.95)
    _, keep = imgui.begin(f"Instructor ({view.keymap.describe('instructor')})", True,
                          _DYNAMICS_FLAGS | imgui.WindowFlags_.no_move)
    _remember_window(hud, "instructor:window")
    active = dict(readout.active)
    armed = {}
    for kind, when in readout.armed:
        armed.setdefault(kind, when)
    if imgui.begin_table("failures", 3, imgui.TableFlags_.row_bg):
        for kind in readout.kinds:
            imgui.table_next_row()
            imgui.table_next_column()
            imgui.text(FAILURE_LABELS[kind])
            imgui.table_next_column()
            if kind in active:
                imgui.text_colored(_RED, f"FAILED {readout.t - active[kind]:4.0f} s ago")
            elif kind in armed:
                imgui.text_colored(_AMBER, f"armed: {armed[kind]}")
            else:
                imgui.text_disabled("working")
            imgui.table_next_column()
            if kind in active:
                if imgui.small_button(f"Repair##{kind}"):
                    do.repair(kind)
            elif imgui.small_button(f"Fail now##{kind}"):
                do.fail(kind)
            hud.remember(f"instructor:{kind}")
        imgui.end_table()
    if imgui.button("Repair all"):
        do.repair(None)
    hud.remember("instructor:repair_all")
    imgui.end()
    if not keep:
        do.set_instructor(False)


def lessons_section(view, do, hud):
    """The Lessons menu: a lesson to fly (its brief shown, the flight paused until it starts)."""
    if not view.lessons:
        return
    if imgui.collapsing_header("Lessons"):
        for name, title in view.lessons:
            if imgui.small_button(f"{title}##lesson"):
                do.load_lesson(name)
            hud.remember(f"lessons:{name}")


def lesson_panel(view, do, hud):
    """The lesson flown: its brief (before it starts), its criteria live (while flying), its debrief (at the end:
    the score per criterion, the profile and the view from above, the best score so far)."""
    r = view.lesson
    if r is None or not _panels_fit(hud):
        return
    lesson = r.lesson
    size = imgui.get_io().display_size
    if r.state == "flying":
        imgui.set_next_window_pos(vec2(0.5 * size.x, 8), imgui.Cond_.always, vec2(0.5, 0.0))
    else:
        imgui.set_next_window_pos(vec2(0.5 * size.x, 0.5 * size.y), imgui.Cond_.always, vec2(0.5, 0.5))
    imgui.set_next_window_bg_alpha(0.95 if r.state != "flying" else PANEL_ALPHA)
    imgui.begin(f"Lesson: {lesson.title}", None, _DYNAMICS_FLAGS | imgui.WindowFlags_.no_move)
    _remember_window(hud, "lesson:window")
    if r.state == "brief":
        imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + 460.0)
        imgui.text_wrapped(lesson.brief)
        imgui.pop_text_wrap_pos()
        imgui.separator()
        imgui.text("Scored on (full points / none):")
        for c in lesson.criteria:
            imgui.bullet_text(f"{c.label}: {c.full:g} / {c.zero:g} {c.unit}")
        if r.best is not None:
            imgui.text(f"Best so far: {r.best:.0f}")
        if imgui.button("Start"):
            do.start_lesson()
        hud.remember("lesson:start")
        imgui.same_line()
        if imgui.button("Cancel##lesson"):
            do.close_lesson()
    elif r.state == "flying":
        imgui.text(f"{r.t:5.0f} s of {lesson.seconds:.0f}")
        for c in lesson.criteria:
            v = r.live.get(c.key)
            shown = "-" if v is None or v != v else f"{v:.1f} {c.unit}"
            colour = _GREEN if v is not None and v == v and c.points(v) >= 50.0 else _AMBER
            imgui.text_colored(colour, f"{c.label}: {shown}")
    else:
        _debrief(r, do, hud)
    imgui.end()


def _debrief(r, do, hud):
    """A finished lesson's debrief (the Lesson panel's last state)."""
    lesson, result = r.lesson, r.result
    imgui.text_colored(_GREEN if result.passed else _RED,
                       f"{result.score:.0f} / 100 - {'passed' if result.passed else 'not passed'}"
                       + (f"   (best {r.best:.0f})" if r.best is not None else ""))
    if result.status:
        imgui.text_colored(_RED, result.status)
    if imgui.begin_table("debrief", 3, imgui.TableFlags_.row_bg):
        for c in lesson.criteria:
            v = result.values[c.key]
            imgui.table_next_row()
            imgui.table_next_column()
            imgui.text(c.label)
            imgui.table_next_column()
            imgui.text("not reached" if v != v else f"{v:.1f} {c.unit}")
            imgui.table_next_column()
            imgui.text(f"{result.points[c.key]:5.1f} points")
        imgui.end_table()
    along = np.asarray(r.along)
    if len(along) and implot.begin_plot("##profile", vec2(460, 150), CHART_FLAGS):
        implot.setup_axes("past the threshold, ft", "height, ft", implot.AxisFlags_.auto_fit,
                          implot.AxisFlags_.auto_fit)
        if lesson.start == "approach":
            d = np.linspace(min(float(along.min()), 0.0), 400.0, 40)
            implot.plot_line("3 deg glide path", d, np.maximum((400.0 - d) * np.tan(np.radians(3.0)), 0.0))
        implot.plot_line("flown", along, np.asarray(r.height))
        implot.end_plot()
    if len(along) and implot.begin_plot("##top", vec2(460, 110), CHART_FLAGS):
        right = np.asarray(r.right)
        reach = max(100.0, 1.1 * float(np.max(np.abs(right))))         # the runway's width shows to scale
        implot.setup_axes("past the threshold, ft", "right of centre, ft", implot.AxisFlags_.auto_fit, 0)
        implot.setup_axis_limits(implot.ImAxis_.y1, -reach, reach, imgui.Cond_.always)
        implot.plot_shaded("runway", np.array([0.0, 3000.0]), np.array([37.5, 37.5]), np.array([-37.5, -37.5]))
        implot.plot_line("flown", along, right)
        implot.end_plot()
    if r.saved:
        imgui.text_disabled(f"kept: {r.saved['trace']}")
    if imgui.button("Fly again"):
        do.load_lesson(lesson.name)
    hud.remember("lesson:again")
    imgui.same_line()
    if imgui.button("Close##debrief"):
        do.close_lesson()
    hud.remember("lesson:close")


def _dynamics(view, d, do, hud):
    imgui.text(d.header)
    if view.capabilities.can_fly:
        imgui.same_line()
        if imgui.small_button("Re-linearise here"):
            do.relinearise()
        hud.remember("relinearise")
        if imgui.is_item_hovered():
            imgui.set_tooltip("the modes about level flight at this airspeed, altitude and heading\n"
                              "(the flight goes on as it is: Trim now trims it)")
    if d.error:
        imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + 520.0)
        imgui.text_colored(_RED, d.error)
        imgui.pop_text_wrap_pos()
    if not d.modes:
        return
    imgui.begin_group()
    _mode_table(d, hud)
    for step in d.steps:            # the plot's legend, with each integrator's largest stable dt
        limit = "-" if step.largest_stable_dt is None else f"{step.largest_stable_dt:.3g} s"
        ghost = step.role == "ghost"
        imgui.text_colored(_GHOST_BLUE if ghost else _REGION,
                           f"{'ghost ' if ghost else ''}{step.integrator} region, dt {step.dt * 1000:.3g} ms: "
                           f"largest stable dt {limit}")
        if ghost and step.diverging:        # (the flight's are marked in the table)
            imgui.text_colored(_RED, f"  the ghost diverges at its dt: {', '.join(step.diverging)}")
            hud.remember("dynamics:diverging:ghost")
    if d.steps:
        imgui.text_colored(_GREEN, "λ·dt: bounded")
        imgui.same_line()
        imgui.text_colored(_RED, "diverges")
        imgui.same_line()
        imgui.text_disabled("(the step's own |μ|)" if len(d.steps) == 1 else "(ghost: diamonds)")
        changed, hud.dynamics_zoom = imgui.checkbox("zoom on the modes", hud.dynamics_zoom)
        hud.remember("dynamics:zoom")
        if changed:
            hud.dynamics_refits = 3
    else:
        imgui.text_disabled("a replay runs no integrator: no stability region")
    imgui.end_group()
    if d.steps:
        imgui.same_line()
        _z_plot(d, hud)


def _mode_table(d, hud):
    columns = ["mode", "λ (1/s)", "period s", "ζ", "t½ s"]
    steps = d.steps[:1]               # the flight's integrator (the ghost's: in the plot)
    columns += [f"|μ| {s.integrator}" for s in steps]
    if not imgui.begin_table("modes", len(columns), imgui.TableFlags_.row_bg | imgui.TableFlags_.sizing_fixed_fit
                             | imgui.TableFlags_.borders_inner_v):
        return
    for name in columns:
        imgui.table_setup_column(name)
    imgui.table_headers_row()
    for i, mode in enumerate(d.modes):
        imgui.table_next_row()
        imgui.table_next_column()
        imgui.text(mode.name)
        hud.remember(f"dynamics:mode:{mode.name}")
        imgui.table_next_column()
        imgui.text(f"{mode.real:+.2f}±{mode.imag:.2f}i" if mode.imag > 0.0 else f"{mode.real:+.2f}")
        imgui.table_next_column()
        imgui.text("-" if mode.period is None else f"{mode.period:.1f}")
        imgui.table_next_column()
        imgui.text(f"{mode.damping_ratio:+.2f}")
        imgui.table_next_column()
        if mode.time_to_half is not None:
            imgui.text(f"{mode.time_to_half:.2f}")
        elif mode.time_to_double is not None:
            imgui.text(f"2× {mode.time_to_double:.1f}")        # the airplane's own growth, not the step's
        else:
            imgui.text("-")
        for step in steps:
            imgui.table_next_column()
            at = step.modes[i]
            imgui.text(f"{abs(at.multiplier):.3f}")
            if mode.name in step.beyond_region or mode.name in step.inside_region:
                imgui.same_line(0.0, 2.0)
                imgui.text("*")
            if not at.stable:
                imgui.same_line()
                imgui.text_colored(_RED, "diverges")
                hud.remember(f"dynamics:diverges:{step.role}:{mode.name}")
    imgui.end_table()
    if imgui.is_item_hovered():
        imgui.set_tooltip(_MU_TIP)
    if steps and (steps[0].beyond_region or steps[0].inside_region):
        imgui.text_disabled("* outside the curve, yet this step keeps it bounded" if steps[0].beyond_region
                            else "* inside the curve, yet this step makes it diverge")
        hud.remember("dynamics:footnote")
        if imgui.is_item_hovered():
            imgui.set_tooltip(_PLOT_TIP)


_SPECS = {
    ("flight", True): implot.Spec(marker=implot.Marker_.circle, marker_size=4.0, marker_fill_color=_GREEN,
                                  marker_line_color=_GREEN),
    ("ghost", True): implot.Spec(marker=implot.Marker_.diamond, marker_size=4.0, marker_fill_color=_GHOST_BLUE,
                                 marker_line_color=_GHOST_BLUE),
    ("flight", False): implot.Spec(marker=implot.Marker_.circle, marker_size=5.0, marker_fill_color=_RED,
                                   marker_line_color=_RED),
    ("ghost", False): implot.Spec(marker=implot.Marker_.diamond, marker_size=5.0, marker_fill_color=_RED,
                                  marker_line_color=_RED),
}
_REGION_SPECS = {"flight": implot.Spec(line_color=_REGION, line_weight=1.5),
                 "ghost": implot.Spec(line_color=_GHOST_BLUE, line_weight=1.5)}


def _fit(steps, zoom, pixels):
    """Axis limits ``(x0, x1, y0, y1)``, equal units per pixel, around every mode's λ·dt and the origin
    (and the stability regions unless ``zoom``), for a plot area of ``pixels`` (w, h)."""
    parts = [(np.zeros(1), np.zeros(1))]
    parts += [p for s in steps for p in (s.stable_points, s.unstable_points)]
    if not zoom:
        parts += [s.region for s in steps]
    xs = np.concatenate([p[0] for p in parts])
    ys = np.concatenate([p[1] for p in parts])
    xs, ys = xs[np.isfinite(xs)], ys[np.isfinite(ys)]
    w, h = max(pixels[0], 20.0), max(pixels[1], 20.0)
    scale = max(float(np.ptp(xs)) / w, float(np.ptp(ys)) / h, 1e-6) * 1.12      # a margin: no marker cut in half
    cx, cy = 0.5 * (xs.min() + xs.max()), 0.5 * (ys.min() + ys.max())
    return cx - scale * w / 2, cx + scale * w / 2, cy - scale * h / 2, cy + scale * h / 2


def _z_plot(d, hud):
    """λ·dt of every mode (marked red where the step diverges) over the stability regions."""
    if hud.dynamics_fitted != d.generation:       # new numbers: fit the axes to them
        hud.dynamics_fitted, hud.dynamics_refits = d.generation, 3     # (again while an auto-sized window settles)
    if not implot.begin_plot("##lambda_dt", vec2(*DYNAMICS_PLOT), _Z_PLOT_FLAGS):
        return
    implot.setup_axes("Re λ·dt", "Im λ·dt")
    if hud.dynamics_refits > 0:
        hud.dynamics_refits -= 1
        pixels = hud.dynamics_plot_pixels or (DYNAMICS_PLOT[0] - 60.0, DYNAMICS_PLOT[1] - 45.0)
        implot.setup_axes_limits(*_fit(d.steps, hud.dynamics_zoom, pixels), imgui.Cond_.always)
    for step in d.steps:
        ghost = step.role == "ghost"
        implot.plot_line(f"{step.integrator} region{' (ghost)' if ghost else ''}", *step.region,
                         spec=_REGION_SPECS[step.role])
    for step in d.steps:
        ghost = step.role == "ghost"
        xs, ys = step.stable_points
        if len(xs):
            label = f"ghost λ·dt/{round(d.steps[0].dt / step.dt)}" if ghost and len(d.steps) > 1 else "λ·dt"
            implot.plot_scatter(label, xs, ys, spec=_SPECS[(step.role, True)])
        xs, ys = step.unstable_points
        if len(xs):
            implot.plot_scatter("diverges", xs, ys, spec=_SPECS[(step.role, False)])
    size = implot.get_plot_size()
    hud.dynamics_plot_pixels = (size.x, size.y)
    implot.end_plot()
    hud.remember("dynamics:plot")
    if imgui.is_item_hovered():
        imgui.set_tooltip(_PLOT_TIP)


# ------------------------------------------------------------------ the registry

NUMERICS_SECTIONS = (aircraft_section, integrator_section, timing_section, clock_section, run_section, camera_section,
                     sound_section, recording_section, dynamics_section, autopilot_section, lessons_section,
                     ghost_section, charts_section)
"""The Numerics window's sections, top to bottom; each ``section(view, do, hud)``."""

PANELS = (cockpit_overlay, flight_panel, gear_panel, numerics_panel, nav_panel, dynamics_panel, input_panel,
          map_panel, instructor_panel, lesson_panel,
          status_banner, key_help)
"""The HUD, in drawing order (later ones on top); each ``panel(view, do, hud)``."""

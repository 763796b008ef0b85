"""The HUD's panels: one function each, registered in :data:`PANELS` (and :data:`NUMERICS_SECTIONS`).

Every panel has the same signature, ``panel(view, do, hud)``:

* ``view`` - a :class:`~flightsim.app.hud_view.HudView`, what it may read;
* ``do`` - a :class:`~flightsim.app.hud_view.HudCommands`, what it may ask
  for (pause, reset, set the integrator, seek, switch the ghost, ...);
* ``hud`` - the :class:`~flightsim.app.hud.Hud`'s own state: whether panels
  are shown, hit boxes (:meth:`~flightsim.app.hud.Hud.remember`), messages
  (:meth:`~flightsim.app.hud.Hud.notify`) and the integrator menus.

A panel decides for itself whether it shows, and reads the source's
:class:`~flightsim.simulation.source.Capabilities` (not its type) to choose
what applies: a replay has no integrator combo or ghost, but a time slider.
A new panel is one new function added to :data:`PANELS`; a new part of the
Numerics window, one added to :data:`NUMERICS_SECTIONS`.

Panels, in drawing order:

* :func:`cockpit_overlay` - the glare shield and windscreen posts (cockpit camera);
* :func:`flight_panel` (left) - attitude indicator and heading tape,
  airspeed, altitude, vertical speed, angle of attack, stall warning,
  throttle, flaps and the control surfaces;
* :func:`numerics_panel` (right) - the sections: integrator, timings,
  clock, pause / reset / time scale, camera, recording, ghost, strip charts;
* :func:`gear_panel` (bottom left) - the ground: ground speed, brakes,
  parking brake, each gear leg's load and compression;
* :func:`status_banner` - a stopped flight with a reset button, PAUSED,
  the end of a replay, REC, short messages;
* :func:`key_help` - the keys (F1).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from imgui_bundle import imgui, implot

from flightsim.app.camera import CAMERA_MODES
from flightsim.app.instruments import (CHART_FLAGS, FT_S_TO_KT, X_FLAGS, attitude_indicator, bar, chart_limits,
                                       cockpit_frame, heading_tape, plain_lines, vec2)
from flightsim.app.pilot import GAMEPAD_BUTTONS, GAMEPAD_DPAD, GAMEPAD_HELD

__all__ = ["NUMERICS_SECTIONS", "PANELS", "camera_section", "charts_section", "clock_section", "cockpit_overlay",
           "flight_panel", "gear_panel", "ghost_section", "integrator_section", "key_help", "numerics_panel",
           "recording_section", "run_section", "status_banner", "timing_section"]

NUMERICS_WIDTH = 330.0
"""Width of the Numerics window, imgui pixels."""
PLOT_WIDTH = NUMERICS_WIDTH - 20.0
"""Width of its charts."""

_PANEL_FLAGS = (imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.always_auto_resize
                | imgui.WindowFlags_.no_focus_on_appearing | imgui.WindowFlags_.no_saved_settings)

_HELP_ACTIONS = (("pitch_up", "pitch up (stick back)"), ("pitch_down", "pitch down (stick forward)"),
                 ("roll_left", "roll left"), ("roll_right", "roll right"), ("yaw_left", "rudder left"),
                 ("yaw_right", "rudder right"), ("throttle_up", "throttle up"),
                 ("throttle_down", "throttle down"), ("flaps_down", "flaps down a notch"),
                 ("flaps_up", "flaps up a notch"), ("pause", "pause"), ("reset", "reset"),
                 ("camera", "next camera"), ("screenshot", "screenshot (PNG)"), ("help", "this help"),
                 ("hud", "hide / show panels"), ("ghost", "ghost airplane on / off"),
                 ("ghost_resync", "resync the ghost"), ("record", "record a trace (start / stop)"),
                 ("quit", "quit"))
_HELP_ACTIONS += (("brake", "wheel brakes (hold; with rudder: differential)"),
                  ("parking_brake", "parking brake set / release"))

_RED = imgui.ImVec4(1.0, 0.35, 0.3, 1.0)
_GHOST_BLUE = imgui.ImVec4(0.62, 0.84, 1.0, 1.0)


def _panels_fit(hud):
    """The side panels are shown and the window is big enough for them."""
    size = imgui.get_io().display_size
    return hud.show and size.x >= 200 and size.y >= 150


# ------------------------------------------------------------------ overlays


def cockpit_overlay(view, do, hud):
    """From the cockpit: the glare shield and windscreen posts, behind the panels."""
    if view.camera.mode == "cockpit":
        size = imgui.get_io().display_size
        cockpit_frame(size.x, size.y, view.camera.head_yaw, view.camera.head_pitch)


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
    if hud.message and time.monotonic() < hud.message_until:
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
    pad = ", ".join(f"{b} {a}" for b, a in {**GAMEPAD_BUTTONS, **GAMEPAD_HELD}.items())
    imgui.text("Gamepad: left stick elevator/aileron, right stick rudder and throttle,")
    imgui.text("triggers throttle down/up; " + pad + ".")
    imgui.text(", ".join(f"D-pad {d} {a}" for d, a in GAMEPAD_DPAD.items()) + " (hold).")
    imgui.text_disabled(f"keymap: {view.keymap.source}")
    imgui.end()
    if not keep:
        hud.show_help = False


# ------------------------------------------------------------------ flight


def flight_panel(view, do, hud):
    """Left: the instruments and the controls' positions."""
    if not _panels_fit(hud):
        return
    t, c = view.telemetry, view.controls
    imgui.set_next_window_pos(vec2(8, 8), imgui.Cond_.always)
    imgui.set_next_window_bg_alpha(0.62)
    imgui.begin("Flight", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    size = 184.0
    attitude_indicator(t.roll, t.pitch, size)
    heading_tape(t.heading, size)
    kt = t.airspeed * FT_S_TO_KT
    imgui.text(f"Airspeed {kt:6.1f} kt  ({t.airspeed:5.1f} ft/s)")
    imgui.text(f"Altitude {t.altitude:7.0f} ft")
    imgui.text(f"Vert spd {t.vertical_speed * 60.0:+7.0f} ft/min")
    imgui.text(f"AoA      {t.alpha:+6.1f} deg")
    imgui.text(f"Roll {t.roll:+6.1f}  Pitch {t.pitch:+5.1f}  Hdg {t.heading:05.1f}")
    if t.stall:
        flash = int(time.monotonic() * 3.0) % 2 == 0
        imgui.text_colored(imgui.ImVec4(1.0, 0.2 if flash else 0.5, 0.2, 1.0), "STALL")
    elif t.on_ground:
        imgui.text_colored(imgui.ImVec4(0.6, 1.0, 0.6, 1.0), "on the ground")
    else:
        imgui.text(" ")
    imgui.separator()
    bar("Throttle", c.throttle, 0.0, 1.0, f"{c.throttle * 100:3.0f}%  {t.thrust:4.0f} lbf")
    bar("Flaps", c.flaps, 0.0, 1.0, f"{c.flaps * 100:3.0f}%")
    bar("Elevator", c.elevator, -1.0, 1.0, f"{c.elevator:+.2f}")
    bar("Aileron", c.aileron, -1.0, 1.0, f"{c.aileron:+.2f}")
    bar("Rudder", c.rudder, -1.0, 1.0, f"{c.rudder:+.2f}")
    imgui.text_disabled(view.input_status if view.capabilities.can_fly else "controls as recorded")
    imgui.end()


# ------------------------------------------------------------------ gear

_AMBER = imgui.ImVec4(1.0, 0.72, 0.25, 1.0)


def gear_panel(view, do, hud):
    """Bottom left: ground speed, the brakes and the parking brake, each gear leg's load and compression."""
    if not _panels_fit(hud) or not view.telemetry.gear:
        return
    t, c = view.telemetry, view.controls
    size = imgui.get_io().display_size
    imgui.set_next_window_pos(vec2(8, size.y - 8), imgui.Cond_.always, vec2(0.0, 1.0))
    imgui.set_next_window_bg_alpha(0.62)
    imgui.begin("Ground", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    imgui.text(f"Gnd speed {t.ground_speed * FT_S_TO_KT:5.1f} kt  ({t.ground_speed:5.1f} ft/s)")
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
    imgui.set_next_window_bg_alpha(0.62)
    imgui.begin("Numerics", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
    for section in NUMERICS_SECTIONS:
        section(view, do, hud)
    imgui.end()


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


# ------------------------------------------------------------------ the registry

NUMERICS_SECTIONS = (integrator_section, timing_section, clock_section, run_section, camera_section,
                     recording_section, ghost_section, charts_section)
"""The Numerics window's sections, top to bottom; each ``section(view, do, hud)``."""

PANELS = (cockpit_overlay, flight_panel, gear_panel, numerics_panel, status_banner, key_help)
"""The HUD, in drawing order (later ones on top); each ``panel(view, do, hud)``."""

"""The imgui head-up display: instruments, numerics, strip charts, help.

Panels:

* **Flight** (left): attitude indicator (artificial horizon with pitch
  ladder and bank scale) and heading tape, airspeed, altitude, vertical
  speed, angle of attack, stall warning, throttle, flaps and the control
  surfaces' positions.
* **Numerics** (right): the integrator combo (every registered integrator;
  switching is live), renormalise toggle, ``|q| - 1``, physics µs per
  step, frame time split, pause / reset / time scale, camera, trace
  recording, the **ghost** section (on/off, its integrator and sub-steps, a
  resync button, the attitude and position difference as numbers and as a
  strip chart), and implot strip charts of roll, pitch, heading and
  ``|q| - 1`` over the last 30 s.  In a replay the integrator combo reads
  "replay", and a time slider seeks.
* A crash banner with a reset button, "REC" while recording, a key-help
  overlay (F1) and short messages (e.g. "screenshot saved").

Roll, pitch and heading come from the simulation's telemetry, which converts
the quaternion with the book's function and aviation signs.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
from imgui_bundle import imgui, implot

from flightsim.app.camera import CAMERA_MODES
from flightsim.app.pilot import GAMEPAD_BUTTONS, GAMEPAD_HELD

__all__ = ["Hud", "FT_S_TO_KT"]

FT_S_TO_KT = 0.592484
"""Knots per ft/s."""

_SKY = imgui.IM_COL32(64, 132, 214, 255)
_GROUND = imgui.IM_COL32(142, 96, 52, 255)
_WHITE = imgui.IM_COL32(255, 255, 255, 255)
_YELLOW = imgui.IM_COL32(255, 214, 0, 255)
_BLACK = imgui.IM_COL32(0, 0, 0, 200)
_DIM = imgui.IM_COL32(255, 255, 255, 110)
_BAR_BG = imgui.IM_COL32(40, 44, 52, 220)
_BAR_FG = imgui.IM_COL32(240, 162, 44, 255)

_CHART_FLAGS = (implot.Flags_.no_menus | implot.Flags_.no_box_select | implot.Flags_.no_mouse_text
                | implot.Flags_.no_inputs | implot.Flags_.no_title)
_X_FLAGS = implot.AxisFlags_.no_tick_labels | implot.AxisFlags_.no_grid_lines

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

_RED = imgui.ImVec4(1.0, 0.35, 0.3, 1.0)
_GHOST_BLUE = imgui.ImVec4(0.62, 0.84, 1.0, 1.0)


def _v(x, y):
    return imgui.ImVec2(float(x), float(y))


class Hud:
    """Builds the imgui windows each frame.

    Parameters
    ----------
    integrators : mapping
        Name -> integrator (``.label``, ``.order``, ``.description``), in
        the order to list them.
    time_scales : sequence of float
        Time scales offered.
    """

    def __init__(self, integrators, time_scales):
        self.names = list(integrators)
        self.labels = [f"{integrators[n].label}  (order {integrators[n].order})" for n in self.names]
        self.descriptions = [integrators[n].description for n in self.names]
        self.time_scales = list(time_scales)
        self.show = True
        self.show_help = False
        #: screen rectangles (x0, y0, x1, y1), imgui pixels from the top left, of widgets drawn in the
        #: last frame, by name ("integrator", "integrator:rk4", ...): where a click lands.
        self.hit_boxes = {}
        self.message = ""
        self._message_until = 0.0

    def notify(self, text, seconds=3.0):
        """Show ``text`` for a few seconds."""
        self.message = text
        self._message_until = time.monotonic() + seconds

    def draw(self, app):
        """Build this frame's windows (between ``imgui.new_frame()`` and ``imgui.render()``).

        Parameters
        ----------
        app : flightsim.app.app.FlightApp
            Read: ``sim``, ``telemetry``, ``stats``, ``history``, ``cameras``,
            ``gamepads``, ``keymap``, ``replay``, ``recorder`` and the ``ghost_*`` settings; called: ``reset()``, ``toggle_recording()``, ``set_ghost()``,
            ``resync_ghost()``, ``configure_ghost()``.
        """
        io = imgui.get_io()
        width, height = io.display_size.x, io.display_size.y
        self.hit_boxes = {}
        if app.cameras.mode == "cockpit":
            cockpit_frame(width, height, app.cameras.head_yaw, app.cameras.head_pitch)
        if self.show and width >= 200 and height >= 150:
            self._flight_panel(app)
            self._numerics_panel(app, width)
        self._status_banner(app, width)
        if self.show_help:
            self._help(app, width, height)

    # ------------------------------------------------------------------ flight

    def _flight_panel(self, app):
        t = app.telemetry
        c = app.sim.controls
        imgui.set_next_window_pos(_v(8, 8), imgui.Cond_.always)
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
        imgui.text_disabled("controls as recorded" if app.replay else app.gamepads.status)
        imgui.end()

    # ------------------------------------------------------------------ numerics

    def _numerics_panel(self, app, width):
        sim, t, s = app.sim, app.telemetry, app.stats
        panel_w = 330.0
        imgui.set_next_window_pos(_v(width - panel_w - 8, 8), imgui.Cond_.always)
        imgui.set_next_window_size(_v(panel_w, 0), imgui.Cond_.always)
        imgui.set_next_window_bg_alpha(0.62)
        imgui.begin("Numerics", None, _PANEL_FLAGS | imgui.WindowFlags_.no_move)
        if app.replay:
            self._replay_source(sim)
        else:
            self._integrator_combo(sim)
            _, sim.renormalize = imgui.checkbox("renormalise q every step", sim.renormalize)
        if app.replay:
            imgui.text_disabled("|q| - 1      (q normalised on reading)")
        else:
            imgui.text(f"|q| - 1      {t.qnorm_error:+.3e}")
        if app.replay:
            imgui.text(f"recorded     {len(sim.table)} rows, dt {sim.dt * 1000:.2f} ms")
        else:
            imgui.text(f"physics      {t.step_us:7.1f} us/step  x{s.steps_last}")
        imgui.text(f"frame        {s.period_ms:6.2f} ms  ({s.fps:4.0f} fps)")
        imgui.text_disabled(f"  physics {s.physics_ms:4.2f}  draw {s.draw_ms:4.2f}  HUD {s.hud_ms:4.2f} ms")
        if app.replay:
            self._seek(sim)
        else:
            imgui.text(f"sim time     {t.t:8.2f} s   dt {sim.dt * 1000:.2f} ms")
        if imgui.button("Resume" if sim.paused else "Pause", _v(80, 0)):
            sim.paused = not sim.paused
        imgui.same_line()
        if imgui.button("Reset", _v(80, 0)):
            app.reset()
        imgui.same_line()
        scale_index = min(range(len(self.time_scales)), key=lambda i: abs(self.time_scales[i] - sim.time_scale))
        imgui.set_next_item_width(-1.0)
        changed, scale_index = imgui.combo("##timescale", scale_index,
                                           [f"x{v:g} time" for v in self.time_scales])
        if changed:
            sim.time_scale = self.time_scales[scale_index]
        imgui.text("camera")
        for mode in CAMERA_MODES:
            imgui.same_line()
            if imgui.radio_button(mode, app.cameras.mode == mode):
                app.cameras.set_mode(mode)
        # Plain (not anti-aliased) lines in the charts: a software renderer pays for every extra triangle.
        dl = imgui.get_window_draw_list()
        dl.push_draw_flag(imgui.ImDrawFlags_.aa_lines, False)
        if not app.replay:
            self._recording(app)
            self._ghost_section(app, panel_w - 20.0)
        if imgui.collapsing_header("strip charts (30 s)", imgui.TreeNodeFlags_.default_open):
            self._charts(app, panel_w - 20.0)
        dl.pop_draw_flag()
        imgui.end()

    def _remember(self, name):
        lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        self.hit_boxes[name] = (lo.x, lo.y, hi.x, hi.y)

    def _integrator_combo(self, sim):
        """Every registered integrator; choosing one switches the running simulation."""
        self._method_combo("integrator", sim.integrator, sim.set_integrator)

    def _method_combo(self, key, current_name, choose):
        """A combo of every registered integrator; ``choose(name)`` when another is picked.

        Hit boxes: ``key`` (the combo) and ``key:NAME`` (its entries, while open).
        """
        current = self.names.index(current_name) if current_name in self.names else 0
        imgui.set_next_item_width(-1.0)
        opened = imgui.begin_combo(f"##{key}", self.labels[current], imgui.ComboFlags_.height_largest)
        self._remember(key)
        if imgui.is_item_hovered() and not opened:
            imgui.set_tooltip(self.descriptions[current])
        if not opened:
            return
        for index, (name, label) in enumerate(zip(self.names, self.labels)):
            if imgui.selectable(label, index == current)[0] and index != current:
                choose(name)
                self.notify(f"{key.replace('_', ' ')}: {name}")
            self._remember(f"{key}:{name}")
            if imgui.is_item_hovered():
                imgui.set_tooltip(self.descriptions[index])
        imgui.end_combo()

    # ------------------------------------------------------------------ replay

    def _replay_source(self, replay):
        """In place of the integrator combo: a disabled one reading "replay" and the trace's name."""
        imgui.begin_disabled(True)
        imgui.set_next_item_width(-1.0)
        if imgui.begin_combo("##integrator", f"replay: {_file_name(replay.path)}"):
            imgui.end_combo()
        imgui.end_disabled()
        self._remember("integrator")
        if imgui.is_item_hovered(imgui.HoveredFlags_.allow_when_disabled):
            imgui.set_tooltip(f"recorded states from {replay.path}; no integrator runs")

    def _seek(self, replay):
        """The replay clock: "t / end" and a slider that seeks."""
        imgui.text(f"replay t     {replay.t:8.2f} / {replay.end:.2f} s")
        imgui.set_next_item_width(-1.0)
        changed, value = imgui.slider_float("##seek", float(replay.t), float(replay.start), float(replay.end),
                                            "%.2f s")
        self._remember("seek")
        if changed:
            replay.seek(value)

    # ------------------------------------------------------------------ recording and ghost

    def _recording(self, app):
        rec = app.recorder
        key = app.keymap.describe("record")
        if imgui.button(f"Stop ({key})" if rec.recording else f"Record ({key})", _v(100, 0)):
            app.toggle_recording()
        self._remember("record")
        imgui.same_line()
        if rec.recording:
            imgui.text_colored(_RED, f"REC {rec.seconds:6.1f} s  {rec.rows} steps")
        elif rec.last_path is not None:
            imgui.text_disabled(f"saved {rec.last_path.name}")
            if imgui.is_item_hovered():
                imgui.set_tooltip(str(rec.last_path))
        else:
            imgui.text_disabled("trace of every step (CSV)")

    def _ghost_section(self, app, plot_w):
        """On/off, its integrator and sub-steps, resync, the difference in numbers and a chart."""
        if not imgui.collapsing_header("ghost: a second integrator", imgui.TreeNodeFlags_.default_open):
            return
        ghost = app.ghost
        key = app.keymap.describe("ghost")
        label = f"fly a ghost ({key})" if ghost else f"fly a ghost ({key}): {app.ghost_integrator} x{app.ghost_substeps}"
        changed, on = imgui.checkbox(label, ghost is not None)
        self._remember("ghost")
        if changed:
            app.set_ghost(on)
        if ghost is None:                   # one line while off: the options come with the ghost
            return
        imgui.same_line()
        if imgui.button(f"Resync ({app.keymap.describe('ghost_resync')})", _v(-1.0, 0)):
            app.resync_ghost()
        self._remember("ghost_resync")
        self._method_combo("ghost_integrator", app.ghost_integrator,
                           lambda name: app.configure_ghost(integrator=name))
        imgui.set_next_item_width(110.0)
        changed, substeps = imgui.input_int("sub-steps per step", app.ghost_substeps)
        self._remember("ghost_substeps")
        if changed:
            app.configure_ghost(substeps=substeps)
        if app.ghost is None:
            return
        status = ghost.sim.status
        if status:
            imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + plot_w)
            imgui.text_colored(_RED, f"ghost {status}")
            imgui.pop_text_wrap_pos()
        att, pos = app.ghost_difference
        imgui.text_colored(_GHOST_BLUE, f"difference   {att:9.3g} deg  {pos:9.3g} ft")
        self._ghost_chart(app, plot_w)

    def _ghost_chart(self, app, plot_w):
        """Attitude difference (deg, left axis) and position difference (ft, right axis) over 30 s."""
        t_now = app.telemetry.t
        history = app.ghost_history
        if implot.begin_plot("##ghost", _v(plot_w, 84), _CHART_FLAGS):
            implot.setup_axes("", "deg", _X_FLAGS, implot.AxisFlags_.auto_fit)
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

    def _charts(self, app, plot_w):
        """Two implot strip charts: attitude (roll, pitch; heading on a right axis) and |q| - 1."""
        t_now = app.telemetry.t
        span = app.history.span
        flags, x_flags = _CHART_FLAGS, _X_FLAGS
        if implot.begin_plot("##attitude", _v(plot_w, 118), flags):
            implot.setup_axes("", "deg", x_flags, 0)
            implot.setup_axis(implot.ImAxis_.y2, "hdg", implot.AxisFlags_.opposite | implot.AxisFlags_.no_grid_lines)
            implot.setup_axis_limits(implot.ImAxis_.x1, t_now - span, t_now, imgui.Cond_.always)
            _, roll = app.history.series("roll")
            xs, pitch = app.history.series("pitch")
            lo, hi = _chart_limits(np.concatenate([roll, pitch]), (-180.0, 180.0))
            implot.setup_axis_limits(implot.ImAxis_.y1, lo, hi, imgui.Cond_.always)
            implot.setup_axis_limits(implot.ImAxis_.y2, 0.0, 360.0, imgui.Cond_.always)
            implot.setup_legend(implot.Location_.north_west, implot.LegendFlags_.horizontal)
            if len(xs):
                implot.plot_line("roll", xs, roll)
                implot.plot_line("pitch", xs, pitch)
                implot.set_axes(implot.ImAxis_.x1, implot.ImAxis_.y2)
                implot.plot_line("heading", *app.history.series("heading"))
            implot.end_plot()
        if implot.begin_plot("##qnorm", _v(plot_w, 78), flags | implot.Flags_.no_legend):
            implot.setup_axes("", "|q|-1", x_flags, implot.AxisFlags_.auto_fit)
            implot.setup_axis_limits(implot.ImAxis_.x1, t_now - span, t_now, imgui.Cond_.always)
            xs, ys = app.history.series("qnorm_error")
            if len(xs):
                implot.plot_line("|q| - 1", xs, ys)
            implot.end_plot()

    # ------------------------------------------------------------------ overlays

    def _status_banner(self, app, width):
        status = app.sim.status
        lines = []
        if status:
            lines.append(("status", status))
        elif app.sim.paused:
            lines.append(("paused", "PAUSED"))
        elif app.replay and app.sim.t >= app.sim.end:
            lines.append(("end", f"end of the trace: Reset ({app.keymap.describe('reset')}) plays it again"))
        if app.recorder.recording:
            lines.append(("rec", f"REC  {app.recorder.seconds:.1f} s"))
        if self.message and time.monotonic() < self._message_until:
            lines.append(("message", self.message))
        if not lines:
            return
        imgui.set_next_window_pos(_v(width * 0.5, 12), imgui.Cond_.always, _v(0.5, 0.0))
        imgui.set_next_window_bg_alpha(0.8)
        imgui.begin("##status", None, imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize
                    | imgui.WindowFlags_.no_saved_settings | imgui.WindowFlags_.no_focus_on_appearing)
        for kind, text in lines:
            if kind == "status":
                imgui.text_colored(_RED, text)
                if imgui.button(f"Reset ({app.keymap.describe('reset')})"):
                    app.reset()
            elif kind == "rec":
                imgui.text_colored(_RED, text)
            else:
                imgui.text(text)
        imgui.end()

    def _help(self, app, width, height):
        imgui.set_next_window_pos(_v(width * 0.5, height * 0.5), imgui.Cond_.always, _v(0.5, 0.5))
        imgui.set_next_window_bg_alpha(0.9)
        _, keep = imgui.begin("Keys (F1 closes)", True, imgui.WindowFlags_.always_auto_resize
                              | imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.no_saved_settings)
        if imgui.begin_table("keys", 2, imgui.TableFlags_.row_bg):
            for action, text in _HELP_ACTIONS:
                imgui.table_next_row()
                imgui.table_next_column()
                imgui.text(app.keymap.describe(action))
                imgui.table_next_column()
                imgui.text(text)
            imgui.end_table()
        imgui.separator()
        imgui.text("Mouse: drag to orbit (orbit camera) or look around (cockpit); wheel zooms.")
        pad = ", ".join(f"{b} {a}" for b, a in {**GAMEPAD_BUTTONS, **GAMEPAD_HELD}.items())
        imgui.text("Gamepad: left stick elevator/aileron, right stick rudder and throttle,")
        imgui.text("triggers throttle down/up; " + pad + ".")
        imgui.text_disabled(f"keymap: {app.keymap.source}")
        imgui.end()
        if not keep:
            self.show_help = False


def _file_name(path):
    return Path(str(path)).name


def cockpit_frame(width, height, head_yaw, head_pitch):
    """The cockpit around the view: a glare shield across the bottom and the windscreen posts.

    Drawn behind the HUD windows; it fades out as the pilot turns the head
    (the overlay is fixed to the screen).
    """
    fade = max(0.0, 1.0 - max(abs(head_yaw) / 25.0, abs(head_pitch) / 20.0))
    if fade <= 0.0 or width < 40 or height < 40:
        return
    a = int(255 * fade)
    dl = imgui.get_background_draw_list()
    top_mid, top_side = height * 0.80, height * 0.86
    n = 24
    edge = [_v(width * i / n, top_side - (top_side - top_mid) * math.sin(math.pi * i / n)) for i in range(n + 1)]
    dl.add_convex_poly_filled([*edge, _v(width, height), _v(0, height)], imgui.IM_COL32(38, 41, 48, a))
    for p, q in zip(edge[:-1], edge[1:]):
        dl.add_line(p, q, imgui.IM_COL32(78, 84, 96, a), 3.0)
    post = imgui.IM_COL32(30, 32, 38, a)
    for side in (0, 1):
        x0 = width * (0.06 if side == 0 else 0.94)
        x1 = width * (0.16 if side == 0 else 0.84)
        dl.add_line(_v(x0, top_side), _v(x1, 0), post, max(6.0, width * 0.012))
    dl.add_rect_filled(_v(0, 0), _v(width, max(4.0, height * 0.012)), post)


def _chart_limits(ys, limits):
    """Y range of a chart: the data's range with a margin, at least 10 degrees, within ``limits``."""
    finite = ys[ys == ys] if len(ys) else ys
    if not len(finite):
        return limits
    lo, hi = float(finite.min()), float(finite.max())
    mid, half = 0.5 * (lo + hi), max(0.5 * (hi - lo) * 1.15, 5.0)
    return max(mid - half, limits[0]), min(mid + half, limits[1])


def bar(label, value, lo, hi, text):
    """A labelled horizontal gauge; centred at zero when ``lo < 0``."""
    dl = imgui.get_window_draw_list()
    imgui.text(f"{label:<9}")
    imgui.same_line(78.0)
    p = imgui.get_cursor_screen_pos()
    w, h = 110.0, imgui.get_text_line_height()
    dl.add_rect_filled(p, _v(p.x + w, p.y + h), _BAR_BG, 2.0)
    value = min(max(value if math.isfinite(value) else 0.0, lo), hi)
    zero = p.x + w * (0.0 - lo) / (hi - lo)
    x = p.x + w * (value - lo) / (hi - lo)
    dl.add_rect_filled(_v(min(zero, x), p.y + 2), _v(max(zero, x) + 1, p.y + h - 2), _BAR_FG, 1.0)
    if lo < 0.0:
        dl.add_line(_v(zero, p.y), _v(zero, p.y + h), _DIM, 1.0)
    imgui.dummy(_v(w, h))
    imgui.same_line()
    imgui.text(text)


def attitude_indicator(roll_deg, pitch_deg, size):
    """An artificial horizon: sky and ground turned by roll, shifted by pitch, with pitch ladder and bank scale.

    Positive roll (right wing down) turns the horizon anticlockwise; positive
    pitch (nose up) moves it down.
    """
    dl = imgui.get_window_draw_list()
    p = imgui.get_cursor_screen_pos()
    cx, cy = p.x + size * 0.5, p.y + size * 0.5
    half = size * 0.5
    k = half / 25.0                                   # px per degree of pitch
    roll = math.radians(roll_deg if math.isfinite(roll_deg) else 0.0)
    pitch = pitch_deg if math.isfinite(pitch_deg) else 0.0
    ux, uy = math.cos(roll), -math.sin(roll)          # along the horizon (screen, y down)
    nx, ny = -math.sin(roll), -math.cos(roll)         # towards the sky
    hx, hy = cx - nx * pitch * k, cy - ny * pitch * k
    big = size * 3.0
    dl.push_clip_rect(p, _v(p.x + size, p.y + size), True)
    dl.add_rect_filled(p, _v(p.x + size, p.y + size), _SKY)
    dl.add_convex_poly_filled([
        _v(hx + ux * big, hy + uy * big),
        _v(hx + ux * big - nx * big, hy + uy * big - ny * big),
        _v(hx - ux * big - nx * big, hy - uy * big - ny * big),
        _v(hx - ux * big, hy - uy * big),
    ], _GROUND)
    dl.add_line(_v(hx - ux * big, hy - uy * big), _v(hx + ux * big, hy + uy * big), _WHITE, 2.0)
    start = int(math.floor((pitch - 30.0) / 5.0)) * 5
    for deg in range(start, start + 65, 5):
        if deg == 0 or abs(deg) > 90:
            continue
        length = size * (0.2 if deg % 10 == 0 else 0.09)
        ox, oy = hx + nx * deg * k, hy + ny * deg * k
        dl.add_line(_v(ox - ux * length, oy - uy * length), _v(ox + ux * length, oy + uy * length), _WHITE, 1.5)
        if deg % 10 == 0:
            dl.add_text(_v(ox + ux * (length + 4) - 8, oy + uy * (length + 4) - 7), _WHITE, f"{abs(deg)}")
    # Bank scale (fixed) and the sky pointer (turns with the horizon).
    r = half - 10.0
    for a in (-60, -45, -30, -20, -10, 0, 10, 20, 30, 45, 60):
        ar = math.radians(a)
        inner = r - (9.0 if a % 30 == 0 else 5.0)
        dl.add_line(_v(cx + math.sin(ar) * r, cy - math.cos(ar) * r),
                    _v(cx + math.sin(ar) * inner, cy - math.cos(ar) * inner), _WHITE, 2.0)
    tip = (cx + nx * (r - 10), cy + ny * (r - 10))
    dl.add_triangle_filled(_v(*tip), _v(tip[0] - ux * 6 - nx * 10, tip[1] - uy * 6 - ny * 10),
                           _v(tip[0] + ux * 6 - nx * 10, tip[1] + uy * 6 - ny * 10), _YELLOW)
    # The fixed airplane symbol.
    for side in (-1, 1):
        x0, x1 = cx + side * size * 0.13, cx + side * size * 0.32
        dl.add_rect_filled(_v(min(x0, x1), cy - 2), _v(max(x0, x1), cy + 2), _BLACK)
        dl.add_line(_v(x0, cy), _v(x1, cy), _YELLOW, 3.0)
        dl.add_line(_v(x0, cy), _v(x0, cy + 8), _YELLOW, 3.0)
    dl.add_rect_filled(_v(cx - 3, cy - 3), _v(cx + 3, cy + 3), _YELLOW)
    dl.pop_clip_rect()
    dl.add_rect(p, _v(p.x + size, p.y + size), _DIM, 4.0, 1.5)
    imgui.dummy(_v(size, size))


def heading_tape(heading_deg, width):
    """A compass tape: 60 degrees around the heading, cardinal letters, the heading boxed."""
    dl = imgui.get_window_draw_list()
    p = imgui.get_cursor_screen_pos()
    h = 30.0
    heading = heading_deg % 360.0 if math.isfinite(heading_deg) else 0.0
    dl.push_clip_rect(p, _v(p.x + width, p.y + h), True)
    dl.add_rect_filled(p, _v(p.x + width, p.y + h), _BAR_BG)
    px_per_deg = width / 60.0
    cx = p.x + width * 0.5
    first = int(math.floor((heading - 32.0) / 5.0)) * 5
    names = {0: "N", 90: "E", 180: "S", 270: "W"}
    for d in range(first, first + 70, 5):
        x = cx + (d - heading) * px_per_deg
        tall = d % 10 == 0
        dl.add_line(_v(x, p.y + h), _v(x, p.y + h - (9 if tall else 5)), _WHITE, 1.0)
        if d % 30 == 0:
            label = names.get(d % 360, f"{(d % 360) // 10:d}")
            dl.add_text(_v(x - 4 * len(label), p.y + 2), _YELLOW if d % 90 == 0 else _WHITE, label)
    dl.pop_clip_rect()
    box = f"{heading:03.0f}"
    dl.add_rect_filled(_v(cx - 18, p.y - 2), _v(cx + 18, p.y + 15), _BLACK)
    dl.add_text(_v(cx - 12, p.y), _WHITE, box)
    dl.add_triangle_filled(_v(cx, p.y + h - 8), _v(cx - 5, p.y + h), _v(cx + 5, p.y + h), _YELLOW)
    imgui.dummy(_v(width, h + 2))

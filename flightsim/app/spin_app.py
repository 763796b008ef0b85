"""``flightsim spin``'s window: a torque-free body tumbling in space, its ghost, and the numerics.

Each frame the :class:`~flightsim.simulation.spin.SpinSimulation` advances by
the frame time at its fixed step, the :class:`~flightsim.app.scene.spin_scene.SpinScene`
draws the body (left), its ghost (right, translucent: the closed-form
solution or a second integrator) and their angular-momentum vectors, and
one imgui window shows the numerics as ``flightsim fly`` does: the
integrator combo (switch live), the ghost combo, dt, |q| − 1, µs per step,
pause / reset / time scale, and strip charts of the energy and |L| drift,
|q| − 1 and the attitude difference to the ghost.

Keys: P pause, R reset, B resync the ghost, F12 screenshot, Esc quit.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from imgui_bundle import imgui, implot

from flightsim.app.frame_loop import run_frames
from flightsim.app.hud.gui import ImguiLayer
from flightsim.app.hud.history import History
from flightsim.app.hud.instruments import CHART_FLAGS, X_FLAGS, plain_lines, vec2
from flightsim.app.recorder import stamped_path
from flightsim.app.scene.renderer import read_pixels, save_png
from flightsim.app.scene.spin_scene import SpinScene
from flightsim.simulation.flight import TIME_SCALES
from flightsim.simulation.spin import EXACT

__all__ = ["SPIN_SERIES", "SpinApp"]

#: What the strip charts record from each :class:`~flightsim.simulation.spin.SpinReadout`.
SPIN_SERIES = ("energy_drift", "momentum_drift", "qnorm_error", "ghost_difference")
PANEL_WIDTH = 340.0
_FLAGS = (imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.always_auto_resize
          | imgui.WindowFlags_.no_focus_on_appearing | imgui.WindowFlags_.no_saved_settings)
_RED = imgui.ImVec4(1.0, 0.35, 0.3, 1.0)
_GHOST_BLUE = imgui.ImVec4(0.62, 0.84, 1.0, 1.0)


class SpinApp:
    """Window, spinning body, scene and HUD together.

    Parameters
    ----------
    window : pyglet.window.Window
        With an OpenGL 3.3 core context.
    sim : flightsim.simulation.spin.SpinSimulation
    integrators : mapping
        Name → integrator, for the combos.
    screenshot_dir : str or Path
        Where F12 saves screenshots.

    Attributes
    ----------
    readout : flightsim.simulation.spin.SpinReadout
        After the last frame's physics.
    hit_boxes : dict
        Screen rectangles of the HUD's widgets from the last frame (``"integrator"``,
        ``"integrator:NAME"``, ``"ghost"``, ``"pause"``, ...), for tests.
    """

    def __init__(self, window, sim, integrators, screenshot_dir="."):
        self.window = window
        self.sim = sim
        self.integrators = integrators
        self.screenshot_dir = Path(screenshot_dir)
        window.switch_to()
        self.scene = SpinScene(sim.body)
        self.history = History(span=30.0, rate=10.0, series=SPIN_SERIES)
        self.readout = sim.readout()
        self.hit_boxes = {}
        self.closed = False
        self.message = ""
        self.last_pixels = None
        self._screenshot_requested = False
        window.push_handlers(self.on_key_press, self.on_close)
        self.gui = ImguiLayer(window)
        self.gui.settle(self._panel)

    # ------------------------------------------------------------------ input

    def on_key_press(self, symbol, modifiers):
        from pyglet.event import EVENT_HANDLED
        from pyglet.window import key

        if self.gui.want_keyboard:
            return None
        actions = {key.P: self.toggle_pause, key.R: self.reset, key.B: self.sim.resync_ghost,
                   key.F12: self.request_screenshot, key.ESCAPE: self.on_close}
        if symbol in actions:
            actions[symbol]()
            return EVENT_HANDLED
        return None

    def on_close(self):
        self.closed = True

    def toggle_pause(self):
        self.sim.paused = not self.sim.paused

    def reset(self):
        self.sim.reset()
        self.history.clear()

    def request_screenshot(self):
        self._screenshot_requested = True

    # ------------------------------------------------------------------ frame

    def frame(self, dt):
        """Advance and draw one frame of ``dt`` seconds (the back buffer is not swapped)."""
        sim = self.sim
        sim.advance(dt)
        self.readout = sim.readout()
        self.history.append(self.readout)
        ghost = sim.ghost_pose()
        momentum = sim.momentum_earth()
        size = self.window.get_framebuffer_size()
        beside = size[0] - int((PANEL_WIDTH + 20.0) * size[0] / max(self.window.width, 1))
        self.scene.draw(size, sim.attitude(), momentum, ghost, sim.ghost_momentum() if ghost is not None else None,
                        scene_width=beside if beside > 0.45 * size[0] else None)
        self.gui.frame(dt, self._panel)
        if self._screenshot_requested:
            self._screenshot_requested = False
            try:
                self.message = f"screenshot saved: {self.save_screenshot(stamped_path(self.screenshot_dir, '.png'))}"
            except OSError as exc:
                self.message = f"screenshot not saved: {exc.strerror or exc}"

    def capture(self):
        """The current back buffer as (height, width, 3) uint8, row 0 at the top."""
        self.last_pixels = read_pixels(*self.window.get_framebuffer_size())
        return self.last_pixels

    def save_screenshot(self, path):
        """Save the back buffer as a PNG (all or nothing); return the path."""
        path = Path(path)
        save_png(self.capture(), path)
        return path

    def run(self, frames=None, screenshot=None, fps_cap=None):
        """The frame loop, until the window closes or for ``frames`` frames (then ``screenshot``)."""
        return run_frames(self, frames, screenshot, fps_cap)

    def close(self):
        """Free the GUI and the scene, close the window."""
        try:
            self.gui.shutdown()
            self.scene.delete()
        finally:
            self.window.close()

    # ------------------------------------------------------------------ HUD

    def _remember(self, name):
        lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        self.hit_boxes[name] = (lo.x, lo.y, hi.x, hi.y)

    def _panel(self):
        sim, r = self.sim, self.readout
        self.hit_boxes = {}
        size = imgui.get_io().display_size
        imgui.set_next_window_pos(vec2(size.x - PANEL_WIDTH - 10.0, 10.0), imgui.Cond_.always)
        imgui.set_next_window_size_constraints(vec2(PANEL_WIDTH, 0.0), vec2(PANEL_WIDTH, size.y - 20.0))
        imgui.begin(f"Numerics: {sim.body.label}", None, _FLAGS)
        self._integrator_combo("integrator", "integrator", sim.integrator, sim.set_integrator)
        ghost_name = "exact solution" if sim.ghost == EXACT else (sim.ghost or "none")
        imgui.set_next_item_width(200.0)
        if imgui.begin_combo("ghost", ghost_name, imgui.ComboFlags_.height_largest):
            for name, label in ((EXACT, "exact solution"), *((n, n) for n in self.integrators), (None, "none")):
                if imgui.selectable(label, name == sim.ghost)[0]:
                    sim.set_ghost(name)
                self._remember(f"ghost:{label}")
            imgui.end_combo()
        self._remember("ghost")
        imgui.text(f"dt          {sim.dt * 1000:8.2f} ms  ({1 / sim.dt:.0f} Hz)")
        imgui.text(f"|q| - 1     {r.qnorm_error:+9.2e}")
        imgui.text(f"µs/step     {r.us_per_step:8.2f}")
        imgui.text(f"t           {r.t:8.2f} s   |ω| {math.sqrt(sum(w * w for w in r.omega)):6.2f} rad/s")
        imgui.text(f"energy      {r.energy_drift:+9.2e}  (E/E0 - 1)")
        imgui.text(f"|L|         {r.momentum_drift:+9.2e}  (|L|/|L0| - 1)")
        if sim.ghost is not None:
            imgui.text_colored(_GHOST_BLUE, f"ghost       {r.ghost_difference:8.3f} deg apart")
        if not r.running:
            imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + PANEL_WIDTH - 20.0)
            imgui.text_colored(_RED, sim.status)
            imgui.pop_text_wrap_pos()
        if imgui.button("resume" if sim.paused else "pause"):
            self.toggle_pause()
        self._remember("pause")
        imgui.same_line()
        if imgui.button("reset"):
            self.reset()
        self._remember("reset")
        imgui.same_line()
        if imgui.button("resync ghost"):
            sim.resync_ghost()
        self._remember("resync")
        imgui.same_line()
        imgui.set_next_item_width(70.0)
        if imgui.begin_combo("speed", f"{sim.time_scale:g}x"):
            for s in TIME_SCALES:
                if imgui.selectable(f"{s:g}x", s == sim.time_scale)[0]:
                    sim.time_scale = s
            imgui.end_combo()
        if self.message:
            imgui.text_disabled(self.message)
        with plain_lines():
            self._chart("energy_drift", "E/E0-1")
            self._chart("momentum_drift", "|L|/L0-1")
            self._chart("qnorm_error", "|q|-1")
            if sim.ghost is not None:
                self._chart("ghost_difference", "ghost deg")
        imgui.end()

    def _integrator_combo(self, label, key, current, choose):
        imgui.set_next_item_width(200.0)
        if imgui.begin_combo(label, current, imgui.ComboFlags_.height_largest):
            for name in self.integrators:
                if imgui.selectable(name, name == current)[0]:
                    choose(name)
                self._remember(f"{key}:{name}")
            imgui.end_combo()
        self._remember(key)

    def _chart(self, series, label):
        t_now = self.readout.t
        if implot.begin_plot(f"##{series}", vec2(PANEL_WIDTH - 20.0, 70.0), CHART_FLAGS | implot.Flags_.no_legend):
            implot.setup_axes("", label, X_FLAGS, implot.AxisFlags_.auto_fit)
            implot.setup_axis_limits(implot.ImAxis_.x1, t_now - self.history.span, t_now, imgui.Cond_.always)
            xs, ys = self.history.series(series)
            ok = np.isfinite(ys)
            if ok.any():
                implot.plot_line(label, xs[ok], ys[ok])
            implot.end_plot()

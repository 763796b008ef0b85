"""imgui and implot on a pyglet window: contexts, font, style, the GL renderer.

The renderer (:mod:`flightsim.app.hud.imgui_renderer`: imgui-bundle's pyglet
backend, drawn through pyglet's GL) listens to the window's input events
and feeds imgui before the flight controls see them; ``want_keyboard`` /
``want_mouse`` tell the app when imgui is using them.

:meth:`ImguiLayer.frame` builds and draws the windows every frame.
:meth:`ImguiLayer.hud_image` and :meth:`ImguiLayer.refresh_due` (``low``
quality) draw them into a texture at most ``hz`` times a second, and at
once after a click, a key press or a scroll, as a :class:`HudImage` that
the scene renderer copies onto every frame: on a software rasteriser
imgui's thousands of small glyph triangles cost more than the rest of the
HUD, and the readouts read at 20 Hz as they do at 100 (flight simulators
offer the same trade as an "instrument refresh rate" setting).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

import numpy as np

__all__ = ["HudImage", "ImguiLayer"]

FONT_SIZE = 15.0


@dataclass(frozen=True)
class HudImage:
    """The HUD as last drawn into a texture, and where to copy it.

    Rectangles are ``(x0, y0, x1, y1)`` in framebuffer pixels from the top
    left, the texture the framebuffer's size with premultiplied alpha.

    Attributes
    ----------
    texture : int
        GL texture id (RGBA8, framebuffer size, row 0 at the bottom).
    size : (int, int)
        Framebuffer width and height it was drawn for.
    opaque : tuple of tuple
        Opaque rectangles (the side panels over their backdrop): copied
        before the scene, which is then never shaded behind them.
    overlay : tuple of tuple
        Everything else imgui drew (banner, help, popups): blended over the
        finished scene.
    generation : int
        Counts the redraws (the renderer rebuilds its quads when it changes).
    """

    texture: int
    size: tuple
    opaque: tuple
    overlay: tuple
    generation: int


def _halves(draw_lists):
    """imgui's draw lists in two consecutive parts of about equal vertex counts (one part if only one list)."""
    if len(draw_lists) < 2:
        return [draw_lists] if draw_lists else []
    sizes = [d.vtx_buffer.size() for d in draw_lists]
    runs = list(accumulate(sizes))[:-1]
    k = min(range(len(runs)), key=lambda i: abs(2 * runs[i] - runs[-1] - sizes[-1])) + 1
    return [draw_lists[:k], draw_lists[k:]]


class _Memory:
    """``size`` bytes at ``address`` for numpy (``np.asarray``), read-only: no ctypes array type per size (ctypes
    keeps every array type it makes, so a ``c_char * n`` for each new size of imgui's buffers grew the app by a
    type of some 3 kB each time the HUD's vertex count was new)."""

    def __init__(self, address, size):
        self.__array_interface__ = {"data": (address, True), "shape": (size,), "typestr": "|u1", "version": 3}


def _memory(address, size, dtype):
    """The bytes at ``address`` seen as an array of ``dtype`` (a view, no copy)."""
    return np.asarray(_Memory(address, size)).view(dtype)


def _font_path():
    """Roboto from imgui-bundle's assets, or None (imgui's built-in font is used)."""
    import imgui_bundle

    path = Path(imgui_bundle.__file__).parent / "assets" / "fonts" / "Roboto" / "Roboto-Regular.ttf"
    return path if path.is_file() else None


class ImguiLayer:
    """imgui context, implot context and renderer for one window.

    Parameters
    ----------
    window : pyglet.window.Window
        Must be the current GL context.
    antialias : bool
        Anti-aliased lines and filled shapes (each costs a fringe of extra
        blended triangles on a software renderer).
    """

    def __init__(self, window, antialias=True):
        from imgui_bundle import imgui, implot

        from flightsim.app.hud.imgui_renderer import PygletImguiRenderer

        self._imgui = imgui
        self._implot = implot
        self.context = imgui.create_context()
        self.plot_context = implot.create_context()
        self.activate()
        io = imgui.get_io()
        io.set_ini_filename(None)
        font = _font_path()
        if font is not None:
            io.fonts.add_font_from_file_ttf(str(font), FONT_SIZE)
        style = imgui.get_style()
        style.window_rounding = 6.0
        style.frame_rounding = 3.0
        style.window_border_size = 0.0
        style.item_spacing = imgui.ImVec2(6.0, 3.0)
        implot.get_style().plot_padding = imgui.ImVec2(4.0, 4.0)
        self.set_antialias(antialias)
        self.renderer = PygletImguiRenderer(window)
        self.window = window
        self._targets = []                    # two (framebuffer, texture, size): shown, and drawn into
        self._image = None                    # the HudImage copied now
        self._next = None                     # drawn, copied from the next frame on
        self._chunks = []                     # the built imgui frame's draw lists not drawn yet, in parts
        self._pending = False                 # a built imgui frame is not drawn into a texture yet
        self._opaque = None
        self._since = 0.0
        self._dirty = True
        self._generation = 0
        # (not key releases or typed text: a held flight key repeats its text, and releases show nothing;
        # a new window size is seen from the framebuffer's in hud_image)
        window.push_handlers(on_mouse_press=self._input, on_mouse_release=self._input,
                             on_mouse_scroll=self._input, on_key_press=self._input)

    def _input(self, *args):
        self._dirty = True                    # and let the event go on to the other handlers

    @property
    def image(self) -> HudImage | None:
        """The cached HUD as last drawn (None before the first, and when the HUD is drawn every frame)."""
        return self._image

    def invalidate(self):
        """Redraw the cached HUD before the next scene (:meth:`hud_image`): something it shows changed."""
        self._dirty = True

    def activate(self):
        """Make this layer's contexts current (several windows may exist, e.g. in tests)."""
        self._imgui.set_current_context(self.context)
        self._implot.set_current_context(self.plot_context)

    def set_antialias(self, on):
        """Anti-aliased lines and filled shapes on or off."""
        self.activate()
        style = self._imgui.get_style()
        style.anti_aliased_lines = bool(on)
        style.anti_aliased_fill = bool(on)

    @property
    def want_keyboard(self) -> bool:
        """imgui is using the keyboard (a text field has focus)."""
        return bool(self._imgui.get_io().want_capture_keyboard)

    @property
    def want_mouse(self) -> bool:
        """The mouse is over an imgui window or dragging one of its widgets."""
        return bool(self._imgui.get_io().want_capture_mouse)

    def settle(self, build, frames=2):
        """Run ``frames`` imgui frames of ``build()`` without drawing them (at start-up).

        A new window sizes itself to its contents over its first frames and
        shows an empty stub until then: settled first, the first frame drawn
        (``flightsim fly --frames 1 --screenshot``) shows the whole HUD.
        """
        for _ in range(frames):
            self._run(1.0 / 60.0, build)

    def frame(self, dt, build):
        """Run one imgui frame: ``build()`` adds the windows, then it is drawn.

        Parameters
        ----------
        dt : float
            Seconds since the last frame (the backend's own clock is not used).
        build : callable
        """
        self.renderer.render(self._run(dt, build))

    def _run(self, dt, build):
        """One imgui frame of ``dt`` seconds in this layer's contexts: ``build()``; return its draw data."""
        imgui = self._imgui
        self.activate()
        imgui.get_io().delta_time = min(max(float(dt), 1e-4), 0.5)
        imgui.new_frame()
        try:
            build()
        finally:
            imgui.render()
        return imgui.get_draw_data()

    def hud_image(self, dt, build, underlay=None) -> HudImage | None:
        """Before the scene: the cached HUD to copy this frame (cached mode, ``low`` quality).

        Built and drawn here, before the scene, when there is none yet, the
        framebuffer changed size, or after an input event or
        :meth:`invalidate` (so a click or a key shows at once).  Otherwise
        a redraw is spread over four frames, so no frame pays for all of
        it: :meth:`refresh_due` builds the windows after one frame's scene;
        the next two frames each draw half of them (by vertices) into the
        spare texture here, before their scene; the frame after that copies
        it.

        Parameters
        ----------
        dt : float
            Seconds since the last frame.
        build : callable
            Adds the windows, as for :meth:`frame`.
        underlay : callable, optional
            Called with the texture's framebuffer bound, before imgui draws;
            draws opaque shapes under it and returns their rectangles (imgui
            pixels from the top left), the image's ``opaque`` part.

        Returns
        -------
        HudImage or None
            None while the framebuffer has no area.
        """
        width, height = self.window.get_framebuffer_size()
        if width <= 0 or height <= 0:
            return None
        self._since += dt
        if self._dirty or self._image is None or self._image.size != (width, height):
            self._build(build)
            self._image, self._next = self._draw_texture(underlay, width, height, everything=True), None
        elif self._next is not None:
            self._image, self._next = self._next, None
        elif self._pending:                   # (an empty frame too: a HUD that shows nothing now is drawn so)
            self._next = self._draw_texture(underlay, width, height)
        return self._image

    def refresh_due(self, build, hz):
        """After the scene: build the windows for the next redraw if ``1 / hz`` seconds have passed."""
        idle = self._image is not None and not self._pending and self._next is None
        if idle and self._since >= 1.0 / hz - 1e-9:        # (a sum of frame times may fall short by a rounding)
            self._build(build)

    def _build(self, build):
        """Run an imgui frame (its draw data waits for :meth:`_draw_texture`)."""
        since, self._since, self._dirty = self._since, 0.0, False
        self._chunks = _halves(list(self._run(since, build).cmd_lists))
        self._pending = True
        self._opaque = None

    def _draw_texture(self, underlay, width, height, everything=False) -> HudImage | None:
        """Draw the next half of the last built imgui frame (or ``everything`` left) into the spare texture.

        Returns the finished :class:`HudImage` after the last part, else None.
        """
        from pyglet import gl

        self.activate()
        texture = self._bind_spare(width, height)
        if self._opaque is None:              # the first part: clear, and the panels' backgrounds
            gl.glDisable(gl.GL_SCISSOR_TEST)
            gl.glClearColor(0.0, 0.0, 0.0, 0.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT)
            size = self.window.get_size()
            sx, sy = width / max(size[0], 1), height / max(size[1], 1)
            self._opaque = tuple((x0 * sx, y0 * sy, x1 * sx, y1 * sy)
                                 for x0, y0, x1, y1 in (underlay() if underlay else ()))
        while self._chunks:
            part = self._imgui.ImDrawData()
            for draw_list in self._chunks.pop(0):
                part.add_draw_list(draw_list)
            self.renderer.render(part, over_alpha=True)
            if not everything:
                break
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        if self._chunks:
            return None
        self._pending = False
        opaque = self._opaque
        overlay = [r for r in self._list_extents(width, height)
                   if not any(o[0] <= r[0] and o[1] <= r[1] and r[2] <= o[2] and r[3] <= o[3] for o in opaque)]
        self._generation += 1
        return HudImage(texture, (width, height), opaque, tuple(overlay), self._generation)

    def _list_extents(self, width, height):
        """Each imgui draw list's extent, framebuffer pixels from the top left.

        A command's pixels lie inside its clip rectangle and inside the box
        of the vertices its indices name (a window's first command clips to
        the whole screen; a clipped child's vertices reach far out of it):
        the list's extent is the union over its commands of the two boxes'
        intersection.
        """
        imgui = self._imgui
        scale = imgui.get_io().display_framebuffer_scale
        scale_xy = np.array([scale.x, scale.y])
        index = np.dtype(np.uint16 if imgui.INDEX_SIZE == 2 else np.uint32)
        rects = []
        for commands in imgui.get_draw_data().cmd_lists:
            n_vtx, n_idx = commands.vtx_buffer.size(), commands.idx_buffer.size()
            cmds = [(c.idx_offset, c.elem_count, c.vtx_offset, *c.clip_rect) for c in commands.cmd_buffer
                    if c.elem_count > 0]
            if n_vtx == 0 or n_idx == 0 or not cmds:
                continue
            pos = _memory(commands.vtx_buffer.data_address(), n_vtx * imgui.VERTEX_SIZE,
                          np.float32).reshape(n_vtx, -1)[:, :2]
            idx = _memory(commands.idx_buffer.data_address(), n_idx * index.itemsize, index)
            c = np.array(cmds)
            first, count = c[:, 0].astype(np.int64), c[:, 1].astype(np.int64)
            if np.any(first[1:] != first[:-1] + count[:-1]):      # not one run of indices (imgui's are)
                rects.append((0.0, 0.0, float(width), float(height)))
                continue
            used = pos[idx[first[0]:first[-1] + count[-1]].astype(np.int64)
                       + np.repeat(c[:, 2].astype(np.int64), count)]
            starts = first - first[0]
            # (the backend has scaled the clip rectangles to framebuffer pixels; the vertices are imgui's)
            lo = np.maximum(np.minimum.reduceat(used, starts) * scale_xy, c[:, 3:5])
            hi = np.minimum(np.maximum.reduceat(used, starts) * scale_xy, c[:, 5:7])
            drawn = np.all(hi > lo, axis=1)
            if not drawn.any():
                continue
            x0, y0 = np.maximum(np.floor(lo[drawn].min(axis=0)), 0.0)
            x1, y1 = np.minimum(np.ceil(hi[drawn].max(axis=0)), (width, height))
            if x1 > x0 and y1 > y0:
                rects.append((float(x0), float(y0), float(x1), float(y1)))
        return rects

    def _bind_spare(self, width, height):
        """Bind the framebuffer of the HUD texture not shown now (both made or remade at this size); return
        the texture id."""
        from pyglet import gl

        if self._targets and self._targets[0][2] != (width, height):
            self._delete_targets()
        if not self._targets:
            for _ in range(2):
                fbo, tex = gl.GLuint(), gl.GLuint()
                gl.glGenTextures(1, ctypes.byref(tex))
                gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
                gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, width, height, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                                None)
                for name in (gl.GL_TEXTURE_MIN_FILTER, gl.GL_TEXTURE_MAG_FILTER):
                    gl.glTexParameteri(gl.GL_TEXTURE_2D, name, gl.GL_NEAREST)
                gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
                gl.glGenFramebuffers(1, ctypes.byref(fbo))
                gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
                gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, tex, 0)
                self._targets.append((fbo, tex, (width, height)))
        shown = self._image.texture if self._image is not None else None
        fbo, tex, _ = next(t for t in self._targets if t[1].value != shown)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glViewport(0, 0, width, height)
        return tex.value

    def _delete_targets(self):
        from pyglet import gl

        if gl.current_context is not None:      # (else they went with the context)
            self.window.switch_to()
            for fbo, tex, _ in self._targets:
                gl.glDeleteFramebuffers(1, ctypes.byref(fbo))
                gl.glDeleteTextures(1, ctypes.byref(tex))
        self._targets = []
        self._image = self._next = None

    def shutdown(self):
        """Free the GL objects and the contexts."""
        imgui = self._imgui
        self.activate()
        try:
            self._delete_targets()
            self.renderer.shutdown()
        finally:
            self._implot.destroy_context(self.plot_context)
            imgui.destroy_context(self.context)

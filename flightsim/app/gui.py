"""imgui and implot on a pyglet window: contexts, font, style, the GL renderer.

Uses imgui-bundle's pyglet backend (``create_renderer``), which draws
through PyOpenGL; PyOpenGL's per-call error checking is switched off
before it is first imported (it costs milliseconds a frame).  The backend
listens to the window's input events and feeds imgui before the flight
controls see them; ``want_keyboard`` / ``want_mouse`` tell the app when
imgui is using them.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ImguiLayer"]

FONT_SIZE = 15.0


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
        import OpenGL

        OpenGL.ERROR_CHECKING = False
        OpenGL.ERROR_LOGGING = False
        from imgui_bundle import imgui, implot
        from imgui_bundle.python_backends.pyglet_backend import create_renderer

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
        self.renderer = create_renderer(window)
        self._nearest = set()

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

    def frame(self, dt, build):
        """Run one imgui frame: ``build()`` adds the windows, then it is drawn.

        Parameters
        ----------
        dt : float
            Seconds since the last frame (the backend's own clock is not used).
        build : callable
        """
        imgui = self._imgui
        self.activate()
        imgui.get_io().delta_time = min(max(float(dt), 1e-4), 0.5)
        imgui.new_frame()
        try:
            build()
        finally:
            imgui.render()
        self.renderer.render(imgui.get_draw_data())
        self._sample_nearest()

    def _sample_nearest(self):
        """Sample imgui's textures (the font atlas) without filtering.

        imgui draws glyphs pixel-aligned at their rasterised size, so the
        picture is the same, and a software renderer fills the panels about
        twice as fast as with bilinear filtering.  New or re-created
        textures are caught on the frame after they appear.
        """
        from pyglet import gl

        for tex in self._imgui.get_platform_io().textures:
            tex_id = int(tex.tex_id)
            if tex_id and tex_id not in self._nearest:
                gl.glBindTexture(gl.GL_TEXTURE_2D, tex_id)
                gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
                gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
                gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
                self._nearest.add(tex_id)

    def shutdown(self):
        """Free the GL objects and the contexts."""
        imgui = self._imgui
        self.activate()
        try:
            self.renderer.shutdown()
        finally:
            self._implot.destroy_context(self.plot_context)
            imgui.destroy_context(self.context)

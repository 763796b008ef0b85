"""The window's first picture while the physics compiles (a first start on a machine): what it is doing, and how far.

:class:`Splash` is given to a :class:`~flightsim.physics.compiling.CompileWatch`:
nothing is drawn unless numba compiles; then the window shows the message it
was given and a bar of the functions compiled so far against the count it was
given (both the caller's: what is cold in the cache for this flight), redrawn
at most ten times a second (each redraw also keeps the window answering its
system's events).
"""

from __future__ import annotations

import time

__all__ = ["Splash"]

BACKGROUND = (0.11, 0.13, 0.17, 1.0)
BAR_RGB = (240, 170, 40)


class Splash:
    """A splash on ``window`` while numba compiles.

    Parameters
    ----------
    window : pyglet.window.Window
        With an OpenGL 3.3 core context (:func:`flightsim.app.window.open_window`).
    message : str
        What is being compiled and about how long it takes.
    compiles : int
        How many functions numba is expected to compile: the bar's full length.

    Attributes
    ----------
    frames : int
        Pictures drawn (0: nothing was compiled).
    fraction : float
        The bar's fill in the last picture (0..1).
    """

    def __init__(self, window, message, compiles):
        self.window = window
        self.message = message
        self.compiles = max(int(compiles), 1)
        self.frames = 0
        self.fraction = 0.0
        self._last = 0.0
        self._drawn = None          # the batch and what changes in it, made at the first picture

    def first(self):
        """The first compile starts: show the message at once."""
        self.show(0, 0.0, force=True)

    def _picture(self):
        """The batch (made once: a label costs milliseconds to make), the parts that never change (held here so
        they stay in the batch), the bar's fill, the count's label and the bar's full width."""
        import pyglet

        width, height = self.window.get_size()
        batch = pyglet.graphics.Batch()
        bar_w = int(width * 0.6)
        x0, y0 = (width - bar_w) // 2, height // 2 - 30
        fixed = [
            pyglet.text.Label("flightsim", font_size=28, x=width // 2, y=height // 2 + 110, anchor_x="center",
                              color=(230, 230, 230, 255), batch=batch),
            # what is compiled can be a long sentence (a JSBSim aircraft's parts): wrapped, growing up from the bar
            pyglet.text.Label(self.message, font_size=14, x=width // 2, y=height // 2 + 5, anchor_x="center",
                              anchor_y="bottom", multiline=True, width=int(width * 0.8), align="center",
                              color=(230, 230, 230, 255), batch=batch),
            pyglet.shapes.Rectangle(x0, y0, bar_w, 14, color=(70, 75, 85), batch=batch),
        ]
        fill = pyglet.shapes.Rectangle(x0, y0, 1, 14, color=BAR_RGB, batch=batch)
        count = pyglet.text.Label("", font_size=11, x=width // 2, y=y0 - 30, anchor_x="center",
                                  color=(180, 180, 180, 255), batch=batch)
        return batch, fixed, fill, count, bar_w

    def show(self, compiled, seconds, force=False):
        """Draw the message and the bar: ``compiled`` functions in ``seconds``."""
        now = time.perf_counter()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        from pyglet import gl

        window = self.window
        window.switch_to()
        window.dispatch_events()
        if self._drawn is None:
            self._drawn = self._picture()
        batch, _, fill, count, bar_w = self._drawn
        self.fraction = min(compiled / self.compiles, 0.99)
        fill.width = max(int(bar_w * self.fraction), 1)
        count.text = f"{compiled} functions compiled, {seconds:.0f} s"
        fb_w, fb_h = window.get_framebuffer_size()
        gl.glViewport(0, 0, fb_w, fb_h)
        gl.glClearColor(*BACKGROUND)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        batch.draw()
        window.flip()
        self.frames += 1

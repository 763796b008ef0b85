"""The first start's splash (:class:`flightsim.app.splash.Splash`), drawn with real OpenGL and read back."""

import numpy as np

from flightsim.app.scene.renderer import read_pixels
from flightsim.app.splash import BAR_RGB, Splash

COMPILES = 40


def _bar_and_text(window):
    px = read_pixels(*window.get_framebuffer_size()).astype(int)
    bar = np.all(np.abs(px - np.array(BAR_RGB)) < 8, axis=-1)
    light = px.min(axis=-1) > 150                                # the labels' light grey and white
    return bar.sum(), light


def test_the_splash_fills_its_bar_as_functions_compile_and_says_how_many(headless_gl):
    from flightsim.app.window import open_window

    window = open_window(640, 360, visible=False)
    try:
        splash = Splash(window, "compiling the physics for bourg (its loads; the euler step) \N{EM DASH} about 6 s, "
                                "first start only", COMPILES)
        splash.show(0, 0.0, force=True)
        empty, text0 = _bar_and_text(window)
        splash.show(COMPILES // 2, 3.0, force=True)
        half, text_half = _bar_and_text(window)
        splash.show(COMPILES, 6.0, force=True)
        full, _ = _bar_and_text(window)
        splash.show(COMPILES, 6.0)                    # within 0.1 s of the last: not drawn again
    finally:
        window.close()
    bar_w = int(640 * 0.6)
    assert empty < 20 * 14                                        # a sliver at the start
    assert abs(half - bar_w * 14 / 2) < 14 * 12                   # half way
    assert full > 0.95 * bar_w * 14                               # nearly full, never past 0.99
    assert text0.sum() > 1000                                     # the title and the message are drawn
    assert (text0 != text_half).any()                             # and the count under the bar changed
    assert splash.frames == 3


def test_a_long_message_is_wrapped_inside_the_window(headless_gl):
    """A JSBSim aircraft's sentence names several parts: it wraps, no letter drawn off the window's edges."""
    from flightsim.app.window import open_window
    from flightsim.commands.first_start import FirstStart

    message = FirstStart("737.xml", "rk4", ["jsbsim", "model", "powered", "step"]).message
    window = open_window(640, 360, visible=False)
    try:
        splash = Splash(window, message, COMPILES)
        splash.show(1, 0.5, force=True)
        _, light = _bar_and_text(window)
    finally:
        window.close()
    assert len(message) > 100                                       # a line 640 pixels wide would not hold it
    columns = np.flatnonzero(light.any(axis=0))
    assert columns.min() >= 0.09 * 640 and columns.max() <= 0.91 * 640        # a margin either side
    rows = light[:, 64:-64].any(axis=1)
    lines = np.count_nonzero(rows[1:] & ~rows[:-1])                 # runs of lit rows: title, message lines, count
    assert lines >= 4

"""Opening an OpenGL 3.3 core window with pyglet, on a screen or headless (EGL).

:func:`configure_pyglet` must run before anything imports ``pyglet.window``:
it chooses between an X display and EGL headless rendering.
:func:`open_window` then creates the window and checks the
context, raising :class:`DisplayUnavailable` with a one-line explanation
and remedy when there is no display or no OpenGL 3.3.
"""

from __future__ import annotations

import os

__all__ = ["DisplayUnavailable", "configure_pyglet", "open_window", "MIN_GL"]

MIN_GL = (3, 3)
"""The OpenGL core version the renderer needs."""

_configured = None


class DisplayUnavailable(RuntimeError):
    """No display or no suitable OpenGL: the message says what is missing and what to do."""


def configure_pyglet(headless: bool) -> None:
    """Set pyglet's platform options, once per process.

    Parameters
    ----------
    headless : bool
        Render off-screen through EGL (no X server needed) instead of
        opening a window on ``$DISPLAY``.

    No display is needed yet (pyglet's hidden shadow window is turned
    off), so key names and files can be checked before :func:`open_window`.

    Raises
    ------
    DisplayUnavailable
        When the process was already configured the other way.
    """
    global _configured
    if _configured is not None:
        if _configured != headless:
            raise DisplayUnavailable("cannot switch between headless and windowed mode in one process")
        return
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["headless"] = bool(headless)
    pyglet.options["vsync"] = None if not headless else False
    _configured = headless
    if headless:
        # pyglet.input's Linux backend expects the X window module to be loaded.
        try:
            import pyglet.window.xlib  # noqa: F401
        except Exception:  # no libX11: gamepads are unavailable, rendering still works
            pass


def _config_candidates(gl, samples):
    """GL configs to try, best first: 8-bit RGBA, 24-bit depth, stencil (multisampled if asked); then less."""
    common = dict(major_version=MIN_GL[0], minor_version=MIN_GL[1], forward_compatible=True,
                  double_buffer=True, red_size=8, green_size=8, blue_size=8, alpha_size=8)
    multi = [gl.Config(depth_size=24, stencil_size=8, sample_buffers=1, samples=samples, **common)] \
        if samples > 1 else []
    return multi + [
        gl.Config(depth_size=24, stencil_size=8, **common),
        gl.Config(depth_size=24, **common),
        gl.Config(depth_size=16, **common),
    ]


def open_window(width, height, *, fullscreen=False, visible=True, caption="flightsim", resizable=True,
                samples=0):
    """Create a pyglet window with an OpenGL 3.3 core context.

    Parameters
    ----------
    width, height : int
        Client size in pixels (ignored when fullscreen).
    fullscreen : bool
    visible : bool
        Show the window (headless windows are never shown).
    caption : str
    resizable : bool
    samples : int
        Multisampling (anti-aliasing) samples per pixel; 0 for none.

    Returns
    -------
    pyglet.window.Window

    Raises
    ------
    DisplayUnavailable
        No display could be opened, or the driver offers no OpenGL 3.3
        core context.
    """
    if _configured is None:
        raise RuntimeError("call configure_pyglet() first")
    if not _configured and not os.environ.get("DISPLAY"):
        raise DisplayUnavailable(
            "no display: DISPLAY is not set; run under a virtual display with "
            "`xvfb-run -a flightsim`, or render off-screen with `flightsim fly --headless`")
    try:
        import pyglet
        import pyglet.window
        from pyglet import gl
    except Exception as exc:  # pragma: no cover - depends on the machine
        raise DisplayUnavailable(f"cannot initialise pyglet ({exc}); run under `xvfb-run -a flightsim` "
                                 "or pass --headless") from None
    last_error = None
    for config in _config_candidates(gl, samples):
        try:
            headless = _configured
            kwargs = dict(config=config, caption=caption, resizable=resizable, visible=visible and not headless)
            if fullscreen:
                kwargs["fullscreen"] = True
            else:
                kwargs.update(width=int(width), height=int(height))
            window = pyglet.window.Window(**kwargs)
            break
        except pyglet.window.NoSuchConfigException as exc:
            last_error = exc
        except Exception as exc:  # pyglet raises various types when the display is unusable
            name = type(exc).__name__
            if "Display" in name or "display" in str(exc).lower():
                raise DisplayUnavailable(
                    f"cannot open the X display {os.environ.get('DISPLAY', '')!r}; run under "
                    "`xvfb-run -a flightsim` or render off-screen with `flightsim fly --headless`") from None
            last_error = exc
    else:
        raise DisplayUnavailable(
            f"no OpenGL {MIN_GL[0]}.{MIN_GL[1]} core context available ({last_error}); update the graphics "
            "driver, or use Mesa's software renderer (apt-get install libgl1-mesa-dri; "
            "LIBGL_ALWAYS_SOFTWARE=1 flightsim)")
    version = _context_version(window)
    if version < MIN_GL:
        window.close()
        raise DisplayUnavailable(
            f"OpenGL {version[0]}.{version[1]} found but {MIN_GL[0]}.{MIN_GL[1]} core is needed; update "
            "the graphics driver or use Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a flightsim)")
    return window


def _context_version(window):
    """(major, minor) of the window's context."""
    from pyglet import gl

    major, minor = gl.GLint(), gl.GLint()
    window.switch_to()
    gl.glGetIntegerv(gl.GL_MAJOR_VERSION, major)
    gl.glGetIntegerv(gl.GL_MINOR_VERSION, minor)
    return major.value, minor.value

"""The window's frame loop, shared by the flight app and the spin scene.

An app given to :func:`run_frames` has a ``window`` (pyglet), a ``gui``
(:class:`~flightsim.app.hud.gui.ImguiLayer`), a ``closed`` flag, ``frame(dt)``
(advance and draw, back buffer not swapped) and ``save_screenshot(path)``.
"""

from __future__ import annotations

import time

__all__ = ["poll_devices", "run_frames"]


def poll_devices(platform_loop):
    """Let pyglet read input devices (gamepads, hot-plug) without blocking."""
    try:
        platform_loop.step(0.0)
    except Exception:  # a device vanished mid-read: pyglet closes it; keep flying
        pass


def run_frames(app, frames=None, screenshot=None, fps_cap=None, devices=False):
    """Run ``app``'s frames until its window closes, or for ``frames`` frames (then save ``screenshot``).

    Parameters
    ----------
    frames : int, optional
        Stop after this many frames.
    screenshot : str or Path, optional
        Save the last frame there (PNG).
    fps_cap : float, optional
        Sleep so frames are at least ``1 / fps_cap`` apart (the simulation
        always advances by the real elapsed time; the first frame by 1/60 s).
    devices : bool
        Poll input devices every frame (:func:`poll_devices`).

    Returns
    -------
    int
        Frames drawn.
    """
    import pyglet

    window = app.window
    platform_loop = pyglet.app.platform_event_loop
    last = time.perf_counter()
    drawn = 0
    min_frame = 1.0 / fps_cap if fps_cap else 0.0
    while not app.closed and (frames is None or drawn < frames):
        now = time.perf_counter()
        if now - last < min_frame:
            time.sleep(min_frame - (now - last))
            now = time.perf_counter()
        dt, last = now - last, now
        window.switch_to()
        app.gui.activate()
        window.dispatch_events()
        if devices:
            poll_devices(platform_loop)
        pyglet.clock.tick()
        if app.closed or window.has_exit:
            break
        app.frame(dt if drawn else 1.0 / 60.0)
        drawn += 1
        if screenshot is not None and frames is not None and drawn == frames:
            app.save_screenshot(screenshot)
        window.flip()
    return drawn

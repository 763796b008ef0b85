"""Shared fixtures for the desktop app's tests (tests/test_app_*.py).

In-process GL tests render off-screen through EGL with Mesa (pyglet's
headless mode, no X server needed); the CLI tests start the real
``flightsim`` command under ``xvfb-run``.  Nothing here is mocked: the
fixtures open real OpenGL 3.3 core contexts and read back real pixels.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
"""The checkout under test; put first on sys.path so its ``flightsim`` is the one imported,
whichever checkout the editable install happens to point at."""
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def pytest_configure(config):
    """Put pyglet in EGL headless mode before any test module imports ``pyglet.window``.

    Only options are set here (no window, no GL); subprocesses that run the
    CLI under ``xvfb-run`` choose their own mode.  Subprocesses (the
    ``flightsim`` console script, ``python -c``) get this checkout first on
    PYTHONPATH too, so they run the code under test, not whichever checkout
    the editable install points at.
    """
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    from flightsim.app.window import configure_pyglet

    configure_pyglet(headless=True)


@pytest.fixture(scope="session")
def headless_gl():
    """pyglet is in EGL headless mode (see :func:`pytest_configure`)."""
    import pyglet

    assert pyglet.options["headless"]


@pytest.fixture(scope="session")
def xvfb_run():
    """Path of ``xvfb-run``; the CLI tests need it (install: apt-get install xvfb xauth)."""
    path = shutil.which("xvfb-run")
    assert path, "xvfb-run not found: apt-get install -y xvfb xauth libgl1-mesa-dri"
    return path


def _make_app(size=(960, 540), **sim_kwargs):
    """A FlightApp on a new headless window with the book's airplane (caller closes it)."""
    from flightsim.app.app import FlightApp
    from flightsim.app.keymap import load_keymap
    from flightsim.app.window import open_window
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES, Simulation

    window = open_window(*size, visible=False)
    sim = Simulation(**sim_kwargs)
    return FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)


def _run_frames(app, n, dt=1.0 / 60.0):
    """Dispatch queued window events and run ``n`` frames of ``dt`` seconds each.

    A HUD cached in a texture (``low`` quality) is redrawn every frame, as
    after an input event, so a test that changes what it shows sees it in
    the next frame (``tests/test_app_hud_cache.py`` tests the timing).
    """
    for _ in range(n):
        app.window.switch_to()
        app.gui.activate()
        app.window.dispatch_events()
        app.gui.invalidate()
        app.frame(dt)
        app.window.flip()


@pytest.fixture(scope="session")
def run_frames():
    """``run_frames(app, n, dt=1/60)``: dispatch queued window events and run ``n`` frames."""
    return _run_frames


@pytest.fixture
def new_app(headless_gl):
    """Factory ``new_app(size=(960, 540), **simulation_kwargs)``; the apps are closed afterwards."""
    apps = []

    def factory(*args, **kwargs):
        app = _make_app(*args, **kwargs)
        apps.append(app)
        return app

    yield factory
    for app in apps:
        app.close()


@pytest.fixture(scope="module")
def flight_app(headless_gl):
    """One app shared by a test module (start-up costs about a second); tests reset it as needed."""
    app = _make_app()
    yield app
    app.close()

"""Shared fixtures for the desktop app's tests (tests/test_app_*.py).

In-process GL tests render off-screen through EGL with Mesa (pyglet's
headless mode, no X server needed); the CLI tests start the real
``flightsim`` command under ``xvfb-run``.  Nothing here is mocked: the
fixtures open real OpenGL 3.3 core contexts and read back real pixels.

Mesa's llvmpipe is a software renderer, so the apps here run what a user on
software OpenGL gets by default: ``--quality auto`` resolves to ``low``,
whose HUD is drawn into a texture and copied, redrawn at once after input
and otherwise at :attr:`~flightsim.app.scene.quality.Quality.hud_hz` (the cached
HUD, :meth:`flightsim.app.hud.gui.ImguiLayer.hud_image`).  :func:`_run_frames`
runs frames as the app's own loop does; a test that needs the HUD redrawn in
every frame says so (``run_frames(..., redraw_hud=True)``, with its reason).

What the suite needs outside Python - the ``flightsim`` console script and
Xvfb - is checked once at session start (:func:`pytest_sessionstart`): when
something is missing the session stops with one message saying what and how
to install it, instead of every module that uses it failing on its own.
"""

from __future__ import annotations

import compileall
import math
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

# numba's OpenMP threads sleep between parallel calls instead of spinning (as the campaign's LocalExecutor asks):
# the suite's two workers share the two cores, and spinning threads made every per-step parallel call (the
# autopilot's, the failures', a campaign chunk's) wait out a scheduler tick.  The same bits either way.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

REPO = Path(__file__).resolve().parents[1]
"""The checkout under test; put first on sys.path so its ``flightsim`` is the one imported,
whichever checkout the editable install happens to point at."""
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

FLIGHTSIM = shutil.which("flightsim")
"""The ``flightsim`` console script (checked at session start; modules use this, not their own look-up)."""
XVFB_RUN = shutil.which("xvfb-run")
"""``xvfb-run``, which starts Xvfb for the tests that run the CLI with a display (checked at session start)."""

INSTALL_PACKAGE = "pip install -e '.[test]'"
INSTALL_XVFB = "apt-get install -y xvfb xauth libgl1 libglx-mesa0 libgl1-mesa-dri libegl1 libegl-mesa0"


def one_line_error(r, prefix="", quiet=False):
    """The one line a command that refused its input printed (exit 2, no traceback): the line.

    ``prefix``: how the line must start (``"flightsim: error: "``); ``quiet``: nothing on stdout either, and no
    warning on stderr.  A first start's notice that numba compiles ("... first start only") is not the refusal: a
    cold cache (a fresh CI machine) prints it before a flight that then refuses, so it is left out."""
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.strip() and "first start only" not in line]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith(prefix), r.stderr
    if quiet:
        assert r.stdout == "" and "Warning" not in r.stderr, r.stdout + r.stderr
    return lines[0]


def missing_requirements(which=shutil.which):
    """What the suite needs and cannot find, as ``[(what is missing, the command that installs it)]``."""
    missing = []
    if which("flightsim") is None:
        missing.append(("the `flightsim` console script is not on PATH (flightsim is not installed)",
                        INSTALL_PACKAGE))
    lacking = [name for name in ("xvfb-run", "Xvfb") if which(name) is None]
    if lacking:
        missing.append((f"{' and '.join(lacking)} not found (the CLI tests run the app under Xvfb)", INSTALL_XVFB))
    return missing


def requirements_message(missing):
    """One line for :func:`missing_requirements`' list: what is missing and the command that installs it."""
    return "flightsim tests cannot run: " + "; ".join(f"{what} - install: {fix}" for what, fix in missing)


#: What most test files compile first, in two parts of about the same compile time (~1.5 min each on a cold cache
#: here), each run in a process of its own before pytest-xdist's workers start (:func:`pytest_sessionstart`): the
#: integrators' compiled loop on a free body, the book's airplane flying (its loads and steps) and the batch's
#: step; and JSBSim's c172p flying (the JSBSim models' kernels and its programs: 17 test files fly it).
WARM_UP = (
    "from flightsim.physics.rigidbody import propagate\n"
    "from flightsim.simulation.batch import BatchSimulation\nfrom flightsim.simulation.flight import Simulation\n"
    "propagate([1.0, 0.0, 0.0, 0.0], [0.1, 2.0, 0.1], [[1.0, 0, 0], [0, 2.0, 0], [0, 0, 3.0]], 0.01, 2, 'euler')\n"
    "Simulation().advance(0.05)\nBatchSimulation(2, integrator='rk4').step(2)\n",
    "from flightsim.simulation.flight import Simulation\nSimulation('jsbsim:c172p').advance(0.05)\n",
)


def pytest_sessionstart(session):
    """Stop at once, with one message, if the console script or Xvfb is missing (not an error per module).

    Then, once (in pytest-xdist's controller, before its workers start): write the package's bytecode, as ``pip
    install`` does for an installed copy (where ``PYTHONDONTWRITEBYTECODE`` is set, as on these machines, each of
    the suite's hundreds of ``flightsim`` subprocesses would compile the sources it imports again); and with two
    workers or more, compile :data:`WARM_UP` into numba's cache, each part in a process of its own: on a cold
    cache every worker would otherwise compile the same kernels at the same moment (measured: 180 s of the
    workers' time, each of those kernels compiled twice; the c172p's compile takes another ~1.5 min).  What fails
    here fails again, with its message, in the tests."""
    missing = missing_requirements()
    if missing:
        pytest.exit(requirements_message(missing), returncode=pytest.ExitCode.USAGE_ERROR)
    if hasattr(session.config, "workerinput"):
        return
    compileall.compile_dir(REPO / "flightsim", quiet=2)
    if (getattr(session.config.option, "numprocesses", None) or 0) >= 2:
        started = time.perf_counter()
        parts = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for code in WARM_UP]
        failed = [f"part {k + 1} failed (exit {code})" for k, code in enumerate(part.wait() for part in parts) if code]
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"numba's cache warmed for the workers (conftest's WARM_UP, {len(parts)} processes) "
                                f"in {time.perf_counter() - started:.0f} s" + "".join(f"; {f}" for f in failed))


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
def xvfb_run(worker_id):
    """``xvfb-run`` with a free display number of this test worker's own: the command to put before a program.

    ``xvfb-run -a`` takes the first free display from ``-n`` up; two pytest-xdist workers starting it at the same
    moment would both see ``:99`` free and one Xvfb would fail, so each worker searches from a number of its own.
    (Its absence stops the session at start: :func:`pytest_sessionstart`.)
    """
    assert XVFB_RUN, requirements_message(missing_requirements())
    worker = int(worker_id.removeprefix("gw")) if worker_id.startswith("gw") else 0
    return [XVFB_RUN, "-a", "-n", str(100 + 20 * worker)]


def _make_app(size=(960, 540), **sim_kwargs):
    """A FlightApp on a new headless window with the book's airplane (caller closes it).

    Its quality is the default, ``auto``: on Mesa's llvmpipe that is ``low``, with the cached HUD.
    """
    from flightsim.app.app import FlightApp
    from flightsim.app.input.keymap import load_keymap
    from flightsim.app.window import open_window
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES, Simulation

    window = open_window(*size, visible=False)
    sim = Simulation(**sim_kwargs)
    return FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)


def _run_frames(app, n, dt=1.0 / 60.0, redraw_hud=False):
    """Dispatch queued window events and run ``n`` frames of ``dt`` seconds each, as the app's loop does.

    A HUD cached in a texture (``low`` quality, the default here) is redrawn
    at once after input (a key, a click, :meth:`~flightsim.app.app.FlightApp.press`)
    and otherwise at its rate: a change made behind the app's back shows
    within :func:`hud_latency` frames.  ``redraw_hud=True`` redraws it in
    every frame instead - for a test that needs that, saying why.
    """
    for _ in range(n):
        app.window.switch_to()
        app.gui.activate()
        app.window.dispatch_events()
        if redraw_hud:
            app.gui.invalidate()
        app.frame(dt)
        app.window.flip()


def hud_latency(app, dt=1.0 / 60.0):
    """Frames of ``dt`` after which a cached HUD shows a change made without input, a new window included.

    A redraw comes due ``1 / hud_hz`` seconds after the last one began (and
    no sooner than the last one is shown); it is built after that frame's
    scene, drawn in halves before the next two frames' scenes and copied by
    the third (:meth:`flightsim.app.hud.gui.ImguiLayer.hud_image`).  A window
    new to imgui (a popup, the Dynamics panel) is sized in its first redraw
    and drawn from its second: two redraws.  (2 frames when the HUD is drawn
    every frame, for the same reason.)
    """
    hz = app.quality.hud_hz
    if hz <= 0.0:
        return 2
    period = max(math.ceil(1.0 / (hz * dt) - 1e-9), 3)
    return 2 * period + 3


@pytest.fixture(scope="session")
def run_frames():
    """``run_frames(app, n, dt=1/60, redraw_hud=False)``: dispatch queued window events and run ``n`` frames."""
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


# ------------------------------------------------------------------ an app shared by a module's tests


@dataclass(frozen=True)
class AppBaseline:
    """What a shared app is put back to after each test (:func:`restore_app`)."""

    quality: object
    panels: tuple
    aircraft_source: str
    integrator: str
    renormalize: bool
    ghost_integrator: str
    ghost_substeps: int
    screenshot_dir: Path
    record_dir: Path

    @classmethod
    def of(cls, app):
        return cls(app.quality, tuple(app.hud.panels), str(app.sim.aircraft.source), app.sim.integrator,
                   app.sim.renormalize, app.ghosts.integrator, app.ghosts.substeps, app.screenshot_dir,
                   app.recorder.directory)


def _make_shared_app(**sim_kwargs):
    """An app for a module's tests to share; :func:`restoring` puts it back after each one."""
    app = _make_app(**sim_kwargs)
    app.test_baseline = AppBaseline.of(app)
    return app


def restore_app(app, base):
    """Put a shared app back to ``base`` whatever the last test did or left half done.

    Every step runs even if one before it fails; the first failure is raised
    at the end (a teardown error of the test that broke the app).
    """
    from imgui_bundle import imgui

    def release_mouse():
        app.gui.activate()
        io = imgui.get_io()
        for button in range(3):
            io.add_mouse_button_event(button, False)
        io.add_mouse_pos_event(-1.0, -1.0)         # nowhere: no widget stays hovered

    def recording():
        if app.recorder.recording:
            app.recorder.stop()

    def gamepad():
        if app.gamepads.controller is not None:
            app.gamepads.disconnect(app.gamepads.controller)

    def aircraft():
        if str(app.sim.aircraft.source) != base.aircraft_source:
            app.cockpit.set_aircraft(base.aircraft_source)

    def flight():
        sim = app.sim
        sim.paused, sim.time_scale, sim.renormalize = False, 1.0, base.renormalize
        if sim.integrator != base.integrator:
            sim.set_integrator(base.integrator)

    def ghost():
        app.cockpit.pending = None
        app.cockpit.set_ghost(False)
        app.cockpit.configure_ghost(base.ghost_integrator, base.ghost_substeps)

    def hud():
        h = app.hud
        h.panels[:] = base.panels
        h.show, h.show_help, h.message, h.message_until, h.dynamics_zoom = True, False, "", 0.0, False
        h.show_devices = False
        app.map.show, h.map_follow, h.map_scale, h.map_center = False, True, 1.0 / 700.0, (0.0, 0.0)

    def dynamics():
        from flightsim.app.cockpit import start_trim
        from flightsim.app.dynamics_companion import DynamicsCompanion

        sim = app.sim
        app.dynamics = DynamicsCompanion(sim.aircraft, getattr(sim, "atmosphere", "constant"), start_trim(sim))

    def quality():
        if app.quality != base.quality:
            app.set_quality(base.quality)

    def places():
        app.screenshot_dir, app.recorder.directory = base.screenshot_dir, base.record_dir

    def camera():
        app.cameras.set_mode("chase")

    def start_again():
        app.reset()
        app.gui.invalidate()
        _run_frames(app, 2)                         # imgui takes the mouse release; the HUD shows the reset

    steps = (app.pilot.release_all, release_mouse, recording, gamepad, lambda: setattr(app, "schedule", None),
             aircraft, flight, ghost, hud, dynamics, quality, places, camera, start_again)
    failure = None
    for step in steps:
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - the other steps must still run
            failure = failure or exc
    if failure is not None:
        raise failure


@contextmanager
def restoring(app):
    """Lend a shared app to one test, its GL context current, and put it back afterwards (:func:`restore_app`),
    pass or fail (a test run before it on this worker may have closed a window of its own)."""
    app.window.switch_to()
    try:
        yield app
    finally:
        restore_app(app, app.test_baseline)


@pytest.fixture(scope="module")
def _shared_flight_app(headless_gl):
    app = _make_shared_app()
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def flight_app(_shared_flight_app):
    """One app shared by a test module (start-up costs about a second), put back after each test, pass or fail."""
    with restoring(_shared_flight_app) as app:
        yield app


def non_physical(node, where=""):
    """Where ``node`` (parsed TOML) holds NaN, an infinity or an absurd magnitude (|x| >= 1e300)."""
    if isinstance(node, dict):
        return [p for key, value in node.items() for p in non_physical(value, f"{where}.{key}" if where else key)]
    if isinstance(node, list):
        return [p for i, value in enumerate(node) for p in non_physical(value, f"{where}[{i}]")]
    if isinstance(node, float) and not (math.isfinite(node) and abs(node) < 1e300):
        return [where]
    return []

"""``flightsim spin``: the free-body scene draws a body and its ghost (real GL pixels), switches live, reads
body files with one-line errors, and runs as a user runs it."""

import subprocess

import numpy as np
import pytest
from conftest import (
    FLIGHTSIM,  # found (or the session stopped) at session start
    _run_frames,
)
from pyglet.window import mouse

from flightsim.errors import InputError
from flightsim.math import quat
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.lab import SPIN_BODIES
from flightsim.simulation.spin import EXACT, SpinSimulation, load_spin_body


def new_spin_app(**kwargs):
    from flightsim.app.spin_app import SpinApp
    from flightsim.app.window import open_window

    sim = SpinSimulation(SPIN_BODIES[kwargs.pop("body", "t-handle")], **kwargs)
    return SpinApp(open_window(960, 540, visible=False), sim, INTEGRATORS)


@pytest.fixture(scope="module")
def _shared_spin_app(headless_gl):
    app = new_spin_app(integrator="splitting", ghost=EXACT)
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def spin_app(_shared_spin_app):
    """One spin app shared by the module, put back after each test, pass or fail: integrator, ghost, pause, time."""
    app = _shared_spin_app
    try:
        yield app
    finally:
        app.sim.set_integrator("splitting")
        app.sim.set_ghost(EXACT)
        app.sim.paused = False
        app.sim.time_scale = 1.0
        app.reset()


frames = _run_frames          # dispatch the window's events and run n frames (conftest)


def drawn(pixels, x0, x1):
    """Pixels in columns x0..x1 (fractions of the scene, left of the panel) that are not empty space."""
    from flightsim.app.scene.spin_scene import SPACE_COLOR

    h, w, _ = pixels.shape
    scene = w - 380                       # the Numerics panel's columns are not the scene
    part = pixels[:, int(x0 * scene):int(x1 * scene)].astype(int)
    space = np.array(SPACE_COLOR) * 255
    return part[np.abs(part - space).max(axis=2) > 25]


def test_the_scene_draws_the_body_and_its_translucent_ghost(spin_app):
    frames(spin_app, 20)
    pixels = spin_app.capture()
    body, ghost = drawn(pixels, 0.0, 0.5), drawn(pixels, 0.5, 1.0)
    assert len(body) > 1500 and len(ghost) > 1500, (len(body), len(ghost))
    assert len(drawn(pixels, 0.75, 1.0)) > 300              # the ghost's own place (empty without one, below)
    # the ghost is tinted light blue and translucent: bluer and darker than the body
    assert ghost[:, 2].mean() > ghost[:, 0].mean() + 20
    assert body[:, 0].mean() > ghost[:, 0].mean() + 40
    assert spin_app.readout.ghost_difference < 5.0      # splitting at 60 Hz beside the exact solution


def test_without_a_ghost_only_the_body_is_drawn(spin_app):
    spin_app.sim.set_ghost(None)
    try:
        frames(spin_app, 2)
        pixels = spin_app.capture()
        assert len(drawn(pixels, 0.75, 1.0)) == 0          # where the ghost was: empty space
        assert len(drawn(pixels, 0.25, 0.75)) > 1500       # the body, now in the middle
    finally:
        spin_app.sim.set_ghost(EXACT)


def click(app, x, y):
    h = app.window.get_size()[1]
    for event, args in (("on_mouse_motion", (x, h - y, 0, 0)), ("on_mouse_press", (x, h - y, mouse.LEFT, 0)),
                        ("on_mouse_release", (x, h - y, mouse.LEFT, 0))):
        app.window.dispatch_event(event, *args)
        frames(app, 1)
    frames(app, 1)


def centre(box):
    return 0.5 * (box[0] + box[2]), 0.5 * (box[1] + box[3])


def test_switching_integrators_in_the_hud_mid_spin_does_not_jump(spin_app):
    frames(spin_app, 30)
    sim = spin_app.sim
    start_y, start_t, start_integrator = sim.y.copy(), sim.t, sim.integrator
    used = []                                   # the integrator of every step the app takes from here
    real_step = sim.step

    def step():
        used.append(sim.integrator)
        return real_step()

    sim.step = step
    for target in ("midpoint", "gyro-implicit", "rk4", "splitting"):
        click(spin_app, *centre(spin_app.hit_boxes["integrator"]))
        assert f"integrator:{target}" in spin_app.hit_boxes, "the combo did not open"
        before_q, before_w, before_t = sim.attitude(), sim.y[10:13].copy(), sim.t
        click(spin_app, *centre(spin_app.hit_boxes[f"integrator:{target}"]))
        assert sim.integrator == target
        elapsed = sim.t - before_t
        assert elapsed > 0                                   # it kept spinning through the switch
        # no jump: turned no further than the spin rate allows, ω moved only as the dynamics moves it
        assert quat.angle_between(before_q, sim.attitude()) <= np.linalg.norm(before_w) * elapsed * 1.05 + 1e-9
        assert np.linalg.norm(sim.y[10:13] - before_w) <= 2.0 * np.linalg.norm(before_w) * elapsed * 20
    del sim.step
    # switched in the HUD mid-spin is switched between two steps, nothing more: a twin stepped with the same
    # integrators in the same order ends on the very same state, |L| included
    twin = SpinSimulation(sim.body, start_integrator, sim.dt, ghost=None)
    twin.y, twin.t = start_y, start_t
    for name in used:
        twin.set_integrator(name)
        assert twin.step()
    assert set(used) == {"splitting", "midpoint", "gyro-implicit", "rk4"} and sim.t == twin.t
    np.testing.assert_array_equal(sim.y, twin.y)
    assert spin_app.readout.momentum_drift == twin.readout().momentum_drift


def test_every_step_across_every_switch_is_continuous():
    sim = SpinSimulation(SPIN_BODIES["tennis-racket"], "euler", 1 / 60, ghost="rk4")
    for name in list(INTEGRATORS) * 2:
        sim.set_integrator(name)
        q, w = sim.attitude(), sim.y[10:13].copy()
        assert sim.step(), sim.status
        assert quat.angle_between(q, sim.attitude()) <= np.linalg.norm(w) * sim.dt * 1.05, name
        assert np.dot(q, sim.attitude()) > 0, name
        assert np.linalg.norm(sim.y[10:13] - w) < 0.5 * np.linalg.norm(w), name


def test_a_diverging_integrator_stops_with_a_message_and_reset_recovers():
    sim = SpinSimulation(SPIN_BODIES["jsbsim"], "euler", 1 / 60, ghost=None)
    for _ in range(2000):
        if not sim.step():
            break
    assert not sim.running and sim.status.startswith("stopped at t = ") and "with integrator 'euler'" in sim.status
    assert np.all(np.isfinite(sim.y)) and np.all(np.isfinite(sim.attitude()))   # the last finite state is kept
    sim.reset()
    assert sim.running and sim.t == 0.0


def test_body_file_reads_moments_or_a_tensor(tmp_path):
    path = tmp_path / "crate.toml"
    path.write_text('name = "crate"\ninertia = [0.02, 0.05, 0.06]\nomega = [0.1, 8.0, 0.1]\n')
    body = load_spin_body(path)
    assert body.name == "crate" and np.allclose(np.diag(body.tensor), [0.02, 0.05, 0.06])
    assert body.omega0 == (0.1, 8.0, 0.1)
    path.write_text("inertia = [[2.0, 0.1, 0.0], [0.1, 3.0, 0.0], [0.0, 0.0, 4.0]]\nomega = [1.0, 0.0, 0.0]\n")
    assert load_spin_body(path).tensor[0, 1] == 0.1


@pytest.mark.parametrize("text, message", [
    ("inertia = [1.0, 2.0]\nomega = [1.0, 0.0, 0.0]\n", "crate.toml: inertia: must have 3 values, got 2"),
    ("inertia = [1.0, -2.0, 3.0]\nomega = [1.0, 0.0, 0.0]\n", "crate.toml: inertia[1]: must be > 0"),
    ("inertia = [[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]\nomega = [1.0, 0, 0]\n",
     "crate.toml: inertia: is not symmetric"),
    ("inertia = [1.0, 2.0, 3.0]\n", "crate.toml: omega: required key is missing"),
    ("inertia = [1.0, 2.0, 3.0]\nomega = [0.0, 0.0, 0.0]\n", "crate.toml: omega: must not be zero"),
    ("inertia = [1.0, 2.0, 3.0]\nomega = [1.0, 0.0, 0.0]\nomgea = 3\n", "crate.toml: omgea: unknown key; did you mean"),
    # non-physical sizes are refused where they are read, not found later by an overflowing exact solution
    ("inertia = [1e200, 2e200, 3e200]\nomega = [1.0, 0.0, 0.0]\n", "crate.toml: inertia[0]: must be <= 1e+09"),
    ("inertia = [[1e300, 0, 0], [0, 1, 0], [0, 0, 1]]\nomega = [1.0, 0, 0]\n", "crate.toml: inertia[0][0]: must be <="),
    ("inertia = [1.0, nan, 3.0]\nomega = [1.0, 0.0, 0.0]\n", "crate.toml: inertia[1]:"),
    ("inertia = [1.0, 2.0, 3.0]\nomega = [inf, 0.0, 0.0]\n", "crate.toml: omega[0]:"),
])
def test_bad_body_file_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "crate.toml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_spin_body(path)
    assert str(err.value).startswith(str(tmp_path / "crate.toml")[: -len("crate.toml")]) and message in str(err.value)


def run(*args):
    return subprocess.run([FLIGHTSIM, "spin", *args], capture_output=True, text=True, timeout=300)


def test_spin_headless_saves_a_screenshot(tmp_path):
    out = tmp_path / "spin.png"
    r = run("--headless", "--frames", "10", "--screenshot", str(out), "--body", "brick", "--integrator", "midpoint",
            "--ghost", "euler", "--size", "800x450")
    assert r.returncode == 0, r.stderr
    import pyglet

    image = pyglet.image.load(str(out))
    assert (image.width, image.height) == (800, 450)


@pytest.mark.parametrize("args, where", [
    (["--body", "frisbee"], "--body: unknown body 'frisbee'"),
    (["--ghost", "rk5"], "--ghost: unknown integrator 'rk5'"),
    (["--integrator", "rk5"], "--integrator: unknown integrator 'rk5'"),
    (["--dt", "0"], "--dt"),
])
def test_spin_bad_options_are_one_line_and_exit_2(tmp_path, args, where):
    r = run("--headless", "--frames", "1", *args)
    assert r.returncode == 2 and where in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_spin_bad_body_file_names_file_and_field(tmp_path):
    body = tmp_path / "mine.toml"
    body.write_text("inertia = [1.0, 2.0, 3.0]\nomega = [1.0, 'fast', 0.0]\n")
    out = tmp_path / "never.png"
    r = run("--headless", "--body", str(body), "--screenshot", str(out))
    assert r.returncode == 2 and f"{body}: omega[1]:" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()

"""The integrator lab in the app, on real GL (EGL in-process; the CLI under xvfb-run): the ghost
airplane, recording a trace with a key, and replaying traces."""

import os
import subprocess

import numpy as np
import pytest
from conftest import FLIGHTSIM, hud_latency, restoring
from pyglet.window import key
from test_app_cli import XVFB_SCREEN, env_without, load_png, one_line_error
from test_app_input import centre, imgui_click

from flightsim.math import quat
from flightsim.simulation import trace
from flightsim.simulation.controls import Controls, ControlSchedule
from flightsim.simulation.flight import FlightState
from flightsim.simulation.source import PLAYBACK

#: Set FLIGHTSIM_TEST_SHOTS=DIR to keep some of the rendered images for a look.
SHOTS = os.environ.get("FLIGHTSIM_TEST_SHOTS")

MANOEUVRE = ControlSchedule([0.0, 2.0, 4.0], [[0.8, 0.3, 0.4, 0.0, 0.0], [0.8, 0.4, -0.5, 0.0, 0.0],
                                              [0.8, 0.6, 0.0, 0.0, 0.0]], Controls())
"""A climbing right turn, a roll to the left, a pull: enough for two integrators to part."""


def press(app, symbol, run_frames):
    """Press and release a key, and run the frame that handles it (events before physics)."""
    app.window.dispatch_event("on_key_press", symbol, 0)
    app.window.dispatch_event("on_key_release", symbol, 0)
    run_frames(app, 1)


def fly(app, run_frames, frames, dt=1.0 / 60.0):
    """Fly the manoeuvre (by simulation time) for ``frames`` frames."""
    app.schedule = MANOEUVRE
    run_frames(app, frames, dt)
    app.schedule = None


@pytest.fixture(scope="module")
def _shared_coarse_app(headless_gl):
    from conftest import _make_shared_app

    app = _make_shared_app(dt=1.0 / 30.0)
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def coarse_app(_shared_coarse_app):
    """An app flying Euler at a coarse 1/30 s, so a ghost parts from it quickly (shared; put back after each test)."""
    with restoring(_shared_coarse_app) as app:
        yield app


def fresh(app, run_frames, ghost=None, substeps=8):
    app.cockpit.set_ghost(False)
    app.reset()
    app.sim.paused = False
    app.hud.show = True
    app.cameras.set_mode("chase")
    if ghost is not None:
        app.cockpit.configure_ghost(ghost, substeps)
        app.cockpit.set_ghost(True)
    run_frames(app, 1)


# ------------------------------------------------------------------ ghost


def test_a_ghost_with_the_same_integrator_is_drawn_exactly_on_the_airplane(flight_app, run_frames):
    fresh(flight_app, run_frames, ghost=flight_app.sim.integrator, substeps=1)
    fly(flight_app, run_frames, 40)
    ghost = flight_app.ghost
    assert ghost.sim.t == flight_app.sim.t > 0.5
    assert ghost.difference() == (0.0, 0.0)
    assert np.array_equal(ghost.sim.vector, flight_app.sim.vector)
    drawn = flight_app.ghost_pose
    assert np.array_equal(drawn.position, flight_app.pose[0]) and np.array_equal(drawn.rotation, flight_app.pose[1])
    xs, att = flight_app.ghosts.history.series("attitude")
    assert len(xs) > 3 and not att.any() and not flight_app.ghosts.history.series("position")[1].any()
    flight_app.cockpit.set_ghost(False)
    assert flight_app.ghost is None and not flight_app.sim.followers


def test_euler_against_an_rk4_ghost_shows_a_growing_difference_in_the_hud(coarse_app, run_frames):
    app = coarse_app
    fresh(app, run_frames, ghost="rk4", substeps=8)
    fly(app, run_frames, 12, dt=0.25)                      # 3 s of flight
    early = app.ghosts.difference
    fly(app, run_frames, 12, dt=0.25)
    att, pos = app.ghosts.difference
    assert early[0] > 0.0 and att > 0.0 and 0.0 < early[1] < pos     # the attitude error comes and goes
    assert (att, pos) == app.ghost.difference()
    # The chart has the history: starting at 0 after the resync, growing to the readout.
    xs, atts = app.ghosts.history.series("attitude")
    _, poss = app.ghosts.history.series("position")
    assert atts[0] == 0.0 and poss[0] == 0.0 and atts[-1] == att and poss[-1] == pos and len(xs) > 10
    assert "ghost_resync" in app.hud.hit_boxes and "ghost_integrator" in app.hud.hit_boxes


def test_the_ghost_is_drawn_translucent_beside_the_airplane(coarse_app, run_frames, tmp_path):
    app = coarse_app
    fresh(app, run_frames, ghost="rk4", substeps=8)
    fly(app, run_frames, 80, dt=0.25)                      # 20 s: tens of feet apart
    assert app.ghosts.difference[1] > 10.0
    app.sim.paused = True
    app.hud.show = False
    app.cameras.set_mode("orbit")
    app.cameras.orbit_yaw, app.cameras.orbit_pitch = 90.0, 20.0
    run_frames(app, hud_latency(app))                      # the cached HUD: panels gone, PAUSED shown
    with_ghost = app.capture().astype(int)
    ghost_position = app.ghost_pose.position
    app.cockpit.set_ghost(False)
    run_frames(app, hud_latency(app))
    without = app.capture().astype(int)
    if SHOTS:
        from flightsim.app.scene.renderer import save_png

        save_png(with_ghost.astype(np.uint8), os.path.join(SHOTS, "ghost-on.png"))
        save_png(without.astype(np.uint8), os.path.join(SHOTS, "ghost-off.png"))
    delta = with_ghost - without
    changed = np.abs(delta).max(axis=2) > 12
    assert changed.sum() > 300, "no ghost in the picture"
    # It is where the ghost is: project its position into the picture.
    view = app.cameras.view(*app.pose, 0.0)
    h, w = changed.shape
    clip = view.view_proj(w / h) @ np.r_[ghost_position - view.eye, 1.0]
    px, py = (clip[0] / clip[3] + 1) * 0.5 * w, (1 - clip[1] / clip[3]) * 0.5 * h
    ys, xs = np.nonzero(changed)
    assert abs(np.median(xs) - px) < 0.08 * w and abs(np.median(ys) - py) < 0.08 * h, (px, py, xs.mean(), ys.mean())
    # Translucent and light blue: the scene shows through, bluer than it was.
    d = delta[changed]
    assert np.percentile(np.abs(d).max(axis=1), 90) < 160, "the ghost looks opaque"
    assert (d[:, 2] - d[:, 0]).mean() > 10, "the ghost is not tinted blue"
    app.sim.paused = False


def test_clicking_resync_and_the_ghost_keys(coarse_app, run_frames):
    app = coarse_app
    fresh(app, run_frames)
    assert app.ghost is None
    press(app, key.G, run_frames)                          # on
    assert app.ghost is not None and app.ghost.integrator == "rk4"
    fly(app, run_frames, 8, dt=0.25)
    assert app.ghost.difference()[1] > 0.5
    app.sim.paused = True                                  # so no step follows the click
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["ghost_resync"]))
    assert app.ghost.difference() == (0.0, 0.0) and app.ghosts.difference == (0.0, 0.0)
    app.sim.paused = False
    fly(app, run_frames, 4, dt=0.25)
    assert app.ghost.difference()[1] > 0.0
    app.sim.paused = True
    press(app, key.B, run_frames)                          # resync by key
    assert app.ghost.difference() == (0.0, 0.0)
    app.sim.paused = False
    # The ghost's integrator by mouse, from the HUD's combo: the ghost goes on from where it was.
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["ghost_integrator"]))
    assert "ghost_integrator:rkmk4" in app.hud.hit_boxes, "the ghost's combo did not open"
    before = app.ghost.sim.t
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["ghost_integrator:rkmk4"]))
    assert app.ghost.integrator == "rkmk4" and app.ghosts.integrator == "rkmk4" and app.ghost.sim.t > before
    assert app.sim.integrator == "euler", "the airplane's integrator changed"
    app.cockpit.configure_ghost("rk4", 8)
    press(app, key.G, run_frames)                          # off
    assert app.ghost is None and not app.sim.followers


def test_a_ghost_blowing_up_stops_only_itself_and_reset_resyncs_it(coarse_app, run_frames):
    app = coarse_app
    fresh(app, run_frames, ghost="euler", substeps=1)
    fly(app, run_frames, 4, dt=0.25)
    g = app.ghost.sim.state                                # a ghost gone wild: its next step is not finite
    app.ghost.sim.set_state(FlightState(g.t, g.position, g.velocity, g.q, np.full(3, 1e300)))
    fly(app, run_frames, 8, dt=0.25)
    assert app.ghost.sim.status and "non-finite" in app.ghost.sim.status
    assert app.sim.status is None and app.sim.t > 2.9, "the airplane stopped with its ghost"
    assert np.all(np.isfinite(app.ghost_pose.position)) and np.all(np.isfinite(app.ghosts.difference))
    app.reset()
    assert app.ghost.sim.status is None and app.ghost.sim.t == 0.0 and app.ghost.difference() == (0.0, 0.0)
    app.cockpit.set_ghost(False)


# ------------------------------------------------------------------ recording


def test_the_record_key_writes_a_trace_that_replays(new_app, run_frames, tmp_path):
    app = new_app(size=(640, 360))
    app.recorder.directory = tmp_path
    fly(app, run_frames, 20)
    start_t, start_y = app.sim.t, app.sim.vector
    press(app, key.T, run_frames)
    assert app.recorder.recording
    fly(app, run_frames, 60)
    rows = app.recorder.rows
    end_t = app.sim.t
    press(app, key.T, run_frames)
    assert not app.recorder.recording and app.sim.followers == []
    files = list(tmp_path.glob("flightsim-*.csv"))
    assert files == [app.recorder.last_path]
    assert files[0].name in app.hud.message
    table = trace.read_csv(files[0])
    assert len(table) == rows > 100                       # every physics step, not every frame
    assert table[0, 0] == pytest.approx(start_t, abs=1e-9) and table[-1, 0] == pytest.approx(end_t)
    assert np.allclose(table[0, 1:14], start_y, rtol=1e-9, atol=1e-9)
    assert np.allclose(np.diff(table[:, 0]), app.sim.dt)
    col = trace.COLUMNS.index
    assert table[-1, col("throttle")] == pytest.approx(0.8) and table[-1, col("elevator")] == pytest.approx(0.3)
    # A reset while recording saves what was recorded (the clock cannot go back in a trace).
    press(app, key.T, run_frames)
    fly(app, run_frames, 5)
    app.reset()
    assert not app.recorder.recording and len(list(tmp_path.glob("flightsim-*.csv"))) == 2


# ------------------------------------------------------------------ replay


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A 6 s trace from `flightsim simulate --out`, every 4th step."""
    tmp = tmp_path_factory.mktemp("replay")
    controls = tmp / "c.csv"
    controls.write_text("t,throttle,aileron,elevator\n0,0.7,0.3,0.1\n3,,-0.2,\n")
    out = tmp / "trace.csv"
    r = subprocess.run([FLIGHTSIM, "simulate", "--duration", "6", "--controls", str(controls), "--out", str(out),
                        "--every", "4"], capture_output=True, text=True, env=env_without())
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture
def replay_app(headless_gl, recorded):
    from flightsim.app.app import FlightApp
    from flightsim.app.input.keymap import load_keymap
    from flightsim.app.window import open_window
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES
    from flightsim.simulation.replay import Replay

    app = FlightApp(open_window(960, 540, visible=False), Replay(recorded), load_keymap(), INTEGRATORS,
                    TIME_SCALES, use_gamepads=False)
    yield app
    app.close()


def test_a_replay_shows_the_recorded_attitude_at_the_recorded_times(replay_app, recorded, run_frames):
    app = replay_app
    rows = trace.read_csv(recorded)
    col = trace.COLUMNS.index
    assert app.capabilities == PLAYBACK and app.sim.integrator == "replay"
    app.sim.paused = True
    for row in rows[::37]:
        app.sim.seek(row[0])
        run_frames(app, 1)
        t = app.telemetry
        assert t.t == row[0]
        assert (t.roll, t.pitch, t.heading) == pytest.approx((row[col("roll")], row[col("pitch")],
                                                              row[col("heading")]), abs=1e-6)
        pos, rot = app.pose
        assert np.allclose(pos, row[1:4]) and np.allclose(rot, quat.to_matrix(row[7:11]), atol=1e-12)
        assert app.sim.controls.aileron == row[col("aileron")]
    # The clock runs with the frame time, and the keys that fly do nothing.
    app.sim.paused = False
    app.sim.reset()
    app.window.dispatch_event("on_key_press", key.LEFT, 0)
    run_frames(app, 30)
    app.window.dispatch_event("on_key_release", key.LEFT, 0)
    assert app.sim.t == pytest.approx(0.5, abs=1e-9)
    assert app.sim.controls.aileron == 0.3, "not the recorded aileron (0.3 until 3 s)"
    assert app.ghost is None and not app.recorder.recording
    press(app, key.G, run_frames)
    press(app, key.T, run_frames)
    assert app.ghost is None and not app.recorder.recording


def test_the_replay_slider_seeks(replay_app, run_frames):
    app = replay_app
    app.sim.paused = True
    run_frames(app, 2)
    x0, y0, x1, y1 = app.hud.hit_boxes["seek"]
    imgui_click(app, run_frames, x0 + 0.75 * (x1 - x0), 0.5 * (y0 + y1))
    expected = app.sim.start + 0.75 * (app.sim.end - app.sim.start)
    assert abs(app.sim.t - expected) < 0.05 * (app.sim.end - app.sim.start)
    assert app.telemetry.t == app.sim.t
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["integrator"]))
    assert not any(name.startswith("integrator:") for name in app.hud.hit_boxes), "the replay's combo opened"


def test_replay_command_under_xvfb_writes_a_screenshot(xvfb_run, recorded, tmp_path):
    out = tmp_path / "replay.png"
    r = subprocess.run([*xvfb_run, *XVFB_SCREEN, FLIGHTSIM, "replay", str(recorded), "--screenshot", str(out),
                        "--frames", "30"], capture_output=True, text=True, timeout=300,
                       env=env_without("PYOPENGL_PLATFORM"))
    assert r.returncode == 0, r.stderr
    img = load_png(out)
    assert img.shape == (720, 1280, 3)
    sky = img[:70, 450:830].reshape(-1, 3).mean(axis=0)
    assert sky[2] > 150 and sky[2] > sky[0] + 40, sky


@pytest.mark.parametrize("damage, where", [
    ("cell", "line 3, column qx: not a number: 'abc'"),
    ("time", "line 4, column t: time must increase"),
    ("short", f"line 2: expected {len(trace.COLUMNS)} cells, got 3"),
])
def test_a_damaged_trace_is_one_line_and_exit_2(recorded, tmp_path, damage, where):
    lines = recorded.read_text().splitlines()
    if damage == "cell":
        cells = lines[2].split(",")
        cells[trace.COLUMNS.index("qx")] = "abc"
        lines[2] = ",".join(cells)
    elif damage == "time":
        lines[3] = "0" + lines[3][lines[3].index(","):]
    else:
        lines[1] = "0,1,2"
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n")
    r = subprocess.run([FLIGHTSIM, "replay", str(bad), "--headless"], capture_output=True, text=True,
                       env=env_without("DISPLAY", "PYOPENGL_PLATFORM"))
    assert one_line_error(r).startswith(f"flightsim: error: {bad}: {where}")


@pytest.mark.parametrize("args, expected", [
    (["--ghost-integrator", "nope"], "flightsim: error: --ghost-integrator: unknown integrator 'nope'; valid: euler"),
    (["--ghost-substeps", "0"], "flightsim: error: --ghost-substeps: must be 1..64, got 0"),
    (["--ghost-substeps", "two"], "flightsim: error: --ghost-substeps: must be a whole number, got 'two'"),
    (["--record-dir", "/no/such/dir"], "flightsim: error: --record-dir: directory '/no/such/dir' does not exist"),
    (["--controls", "/no/such.csv"], "flightsim: error: /no/such.csv: file not found"),
])
def test_bad_lab_options_are_one_line_and_exit_2(args, expected):
    r = subprocess.run([FLIGHTSIM, "fly", "--ghost", "--headless", *args], capture_output=True, text=True,
                       env=env_without("DISPLAY", "PYOPENGL_PLATFORM"))
    assert one_line_error(r).startswith(expected)

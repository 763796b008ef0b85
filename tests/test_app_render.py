"""Real OpenGL (Mesa through EGL): what the app draws, read back as pixels."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import hud_latency

from flightsim.physics.aircraft import DEFAULT_AIRCRAFT

#: Set FLIGHTSIM_TEST_SHOTS=DIR to keep some of the rendered images for a look.
SHOTS = Path(os.environ["FLIGHTSIM_TEST_SHOTS"]) if os.environ.get("FLIGHTSIM_TEST_SHOTS") else None


def region(img, x0, x1, y0, y1):
    """Pixels in fractions of the width (x) and height (y), y from the top."""
    h, w = img.shape[:2]
    return img[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)].reshape(-1, 3).astype(np.int32)


def amber(px):
    """The control surfaces' colour (#f2a22c lit): strong red, medium green, little blue."""
    r, g, b = px[:, 0], px[:, 1], px[:, 2]
    return (r > 150) & (g > 0.45 * r) & (g < r - 40) & (b < 0.45 * r)


def bright(px):
    return np.all(px > 205, axis=1)


def start_scene(app, run_frames, hud=True):
    app.reset()
    app.cameras.set_mode("chase")
    app.hud.show = hud
    app.hud.show_help = False
    run_frames(app, max(8, hud_latency(app)))     # (the cached HUD shows the panels shown or hidden)
    return app.capture()


def test_start_scene_has_sky_ground_airplane_and_hud_text(flight_app, run_frames, tmp_path):
    img = start_scene(flight_app, run_frames)
    assert img.shape == (540, 960, 3)
    sky = region(img, 0.35, 0.65, 0.0, 0.12).mean(axis=0)
    assert sky[2] > 150 and sky[2] > sky[0] + 40, f"top centre is not sky blue: {sky}"
    ground = region(img, 0.35, 0.65, 0.85, 1.0).mean(axis=0)
    assert ground[1] > ground[2] + 15 and ground[2] < 140, f"bottom centre is not ground: {ground}"
    centre = region(img, 0.3, 0.7, 0.38, 0.72)
    assert amber(centre).sum() > 150, "the airplane's control surfaces are not at the centre"
    assert bright(centre).sum() > 150, "the airplane's white body is not at the centre"
    # The HUD's flight panel has text; without the HUD the same place has none.
    text = bright(region(img, 0.01, 0.28, 0.45, 0.65)).sum()
    assert text > 150, "no HUD text in the flight panel"
    no_hud = start_scene(flight_app, run_frames, hud=False)
    assert bright(region(no_hud, 0.01, 0.28, 0.45, 0.65)).sum() < text / 5
    flight_app.save_screenshot(tmp_path / "start.png")
    assert (tmp_path / "start.png").stat().st_size > 10000


def test_airplane_pixels_come_from_the_airplane(flight_app, run_frames):
    img = start_scene(flight_app, run_frames, hud=False)
    pos, rot = flight_app.pose
    view = flight_app.cameras.view(pos, rot, 0.0)
    flight_app.scene.draw(view, flight_app.window.get_framebuffer_size(), pos, rot,
                          flight_app.model.part_matrices(np.zeros((8, 2))), show_airplane=False)
    empty = flight_app.capture()
    centre = (0.3, 0.7, 0.38, 0.72)
    assert amber(region(img, *centre)).sum() > 150
    assert amber(region(empty, *centre)).sum() < 5
    changed = np.any(np.abs(img.astype(int) - empty.astype(int)) > 30, axis=2)
    changed[: int(0.15 * changed.shape[0])] = False          # the message banner may differ
    ys, xs = np.nonzero(changed)
    h, w = changed.shape
    assert abs(xs.mean() - w / 2) < 0.05 * w and 0.35 * h < ys.mean() < 0.7 * h


def test_every_camera_draws_something_different(flight_app, run_frames):
    shots = {}
    for mode in ("chase", "cockpit", "orbit", "tower"):
        flight_app.reset()
        flight_app.hud.show = False
        flight_app.cameras.set_mode(mode)
        run_frames(flight_app, hud_latency(flight_app))         # (until the cached HUD is hidden too)
        shots[mode] = flight_app.capture().astype(int)
        sky = region(shots[mode], 0.4, 0.6, 0.0, 0.08).mean(axis=0)
        assert sky[2] > sky[0] + 30, mode
    modes = list(shots)
    for i, a in enumerate(modes):
        for b in modes[i + 1:]:
            assert np.abs(shots[a] - shots[b]).mean() > 5, (a, b)
    # From the cockpit the nose is ahead, below the horizon: the bottom centre is the airplane.
    assert np.abs(shots["cockpit"] - shots["chase"])[int(0.8 * 540):, 400:560].mean() > 20


def test_control_surfaces_visibly_deflect(flight_app, run_frames):
    flight_app.reset()
    flight_app.hud.show = False
    flight_app.sim.paused = True
    flight_app.cameras.set_mode("orbit")
    flight_app.cameras.orbit_yaw, flight_app.cameras.orbit_pitch = 25.0, 30.0
    run_frames(flight_app, hud_latency(flight_app))         # (the cached HUD hidden, PAUSED shown)
    neutral = flight_app.capture().astype(int)
    c = flight_app.sim.controls
    c.elevator, c.aileron, c.rudder = 1.0, 1.0, 1.0
    flight_app.pilot.held = {"pitch_up", "roll_right", "yaw_right"}
    run_frames(flight_app, 2)
    deflected = flight_app.capture().astype(int)
    if SHOTS:
        from flightsim.app.scene.renderer import save_png

        save_png(neutral.astype(np.uint8), SHOTS / "surfaces-neutral.png")
        save_png(deflected.astype(np.uint8), SHOTS / "surfaces-deflected.png")
    flight_app.pilot.release_all()
    flight_app.sim.paused = False
    diff = np.any(np.abs(deflected - neutral) > 40, axis=2)
    assert diff[int(0.3 * 540):int(0.8 * 540), int(0.25 * 960):int(0.75 * 960)].sum() > 200


def test_non_finite_pose_never_reaches_the_renderer(flight_app, run_frames, monkeypatch):
    flight_app.reset()
    flight_app.cameras.set_mode("chase")
    run_frames(flight_app, 3)
    good = flight_app.pose
    monkeypatch.setattr(flight_app.sim, "render_pose",
                        lambda: (np.full(3, np.nan), np.array([np.nan, 0.0, 0.0, 0.0])))
    run_frames(flight_app, 3)
    pos, rot = flight_app.pose
    assert np.all(np.isfinite(pos)) and np.all(np.isfinite(rot))
    assert np.allclose(pos, good[0])
    img = flight_app.capture()
    assert region(img, 0.35, 0.65, 0.0, 0.12).mean(axis=0)[2] > 150


def test_a_crash_is_shown_and_reset_recovers(new_app, run_frames, tmp_path):
    text = DEFAULT_AIRCRAFT.read_text()
    text = text.replace("position = [-5000.0, 0.0, 2000.0]", "position = [0.0, 0.0, 4.0]")
    text = text.replace("velocity = [60.0, 0.0, 0.0] ", "velocity = [60.0, 0.0, -40.0]")
    path = tmp_path / "crash.toml"
    path.write_text(text)
    app = new_app(aircraft=path)
    run_frames(app, 20)
    assert app.sim.status and "crash" in app.sim.status
    img = app.capture()
    red = region(img, 0.2, 0.8, 0.0, 0.15)
    assert ((red[:, 0] > 200) & (red[:, 1] < 140)).sum() > 30, "no red status line in the banner"
    assert np.all(np.isfinite(app.pose[0]))
    app.press("reset")
    assert app.sim.status is None and app.sim.t == 0.0


@pytest.mark.parametrize("size", [(1, 1), (7, 5), (64, 36), (200, 120)])
def test_tiny_windows_render_without_errors(new_app, run_frames, size):
    app = new_app(size=size)
    run_frames(app, 3)
    img = app.capture()
    assert img.shape == (size[1], size[0], 3)


def test_screenshot_key_writes_a_png(flight_app, run_frames, tmp_path):
    from pyglet.window import key

    flight_app.screenshot_dir = tmp_path
    flight_app.window.dispatch_event("on_key_press", key.F12, 0)
    run_frames(flight_app, 1)
    files = list(tmp_path.glob("flightsim-*.png"))
    assert len(files) == 1 and files[0].stat().st_size > 10000
    import pyglet

    image = pyglet.image.load(str(files[0]))
    assert (image.width, image.height) == flight_app.window.get_framebuffer_size()
    shutil.rmtree(tmp_path, ignore_errors=True)


@pytest.mark.parametrize("shape", [(4096, 128), (16, 64)])
def test_mip_chain_matches_gl_generate_mipmap(flight_app, shape):
    """The runway's mipmaps are made with numpy (llvmpipe compiles shaders for its first
    glGenerateMipmap, ~0.1 s of start-up): each level is the mean of its block of the image
    at least as closely as GL's own levels are (the runway: 2.6 grey levels at most against 4.4)."""
    import ctypes

    from pyglet import gl

    from flightsim.app.scene import textures

    rng = np.random.default_rng(3)
    image = textures.runway_texture() if shape == (4096, 128) else rng.integers(0, 256, (*shape, 4), dtype=np.uint8)
    assert image.shape[:2] == shape
    levels = textures.mip_chain(image)
    assert len(levels) == int(np.log2(max(shape))) + 1 and levels[-1].shape[:2] == (1, 1)
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    try:
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex.value)
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, shape[1], shape[0], 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                        np.ascontiguousarray(image).ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
        gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
        for level, ours in enumerate(levels):
            h, w = ours.shape[:2]
            exact = image.astype(float).reshape(h, shape[0] // h, w, shape[1] // w, 4).mean(axis=(1, 3))
            theirs = np.empty_like(ours)
            gl.glGetTexImage(gl.GL_TEXTURE_2D, level, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                             theirs.ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
            ours_err, gl_err = np.abs(ours - exact).max(), np.abs(theirs - exact).max()
            assert ours_err <= gl_err, (level, ours.shape, ours_err, gl_err)
            assert gl_err < 8.0, (level, gl_err)       # GL's levels were read back for real
    finally:
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
        gl.glDeleteTextures(1, ctypes.byref(tex))

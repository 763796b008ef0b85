"""The HUD cached in a texture (``low`` quality): the same pixels as drawn directly, redrawn on time and on input.

Real GL (EGL in-process).  The conftest's frame runner runs frames as the
app's loop does (the cached HUD is what every app test sees on Mesa's
llvmpipe); these tests look at its timing frame by frame.
"""

import dataclasses

import numpy as np
import pytest
from conftest import hud_latency
from pyglet.window import mouse

from flightsim.app.scene.quality import LEVELS


def frame(app, dt):
    """One frame as the app's own loop runs it (no forced HUD redraw)."""
    app.window.switch_to()
    app.gui.activate()
    app.window.dispatch_events()
    app.frame(dt)
    app.window.flip()


def test_low_quality_caches_the_hud_and_the_others_draw_it_every_frame():
    assert LEVELS["low"].hud_hz == 20.0
    assert LEVELS["medium"].hud_hz == 0.0 and LEVELS["high"].hud_hz == 0.0


@pytest.mark.parametrize("camera", ["chase", "cockpit"])
def test_the_cached_hud_shows_the_same_pixels_as_the_hud_drawn_directly(new_app, run_frames, camera):
    app = new_app(size=(960, 540))
    app.set_quality("low")
    app.cameras.set_mode(camera)          # (from the cockpit, the panels are in front of its frame)
    app.sim.paused = True                 # a still scene: only the frame-time readouts change
    app.hud.show_help = True              # a see-through window over the scene: the blended part
    run_frames(app, hud_latency(app))     # (set behind the app's back: shown at the HUD's rate)
    assert app.gui.image is not None and app.gui.image.overlay, "the help window is not blended over the scene"
    cached = app.capture().astype(int)
    boxes = dict(app.hud.hit_boxes)
    app.set_quality(dataclasses.replace(LEVELS["low"], hud_hz=0.0))
    run_frames(app, 4)
    direct = app.capture().astype(int)
    assert app.hud.hit_boxes.keys() == boxes.keys()
    differs = np.abs(cached - direct).max(axis=2) > 8
    # Everything but a few readouts that change from frame to frame (frame time, fps) is the same.
    assert differs.mean() < 0.01, f"{differs.mean():.3%} of the pixels differ"
    for name in ("flight:window", "numerics:window"):
        x0, y0, x1, y1 = (int(round(v)) for v in boxes[name])
        assert differs[y0:y1, x0:x1].mean() < 0.03, name
    # The help window (see-through, in the middle) is there in both: its white text over the scene.
    h, w = differs.shape
    for img in (cached, direct):
        assert (img[h // 4: 3 * h // 4, w // 3: 2 * w // 3].min(axis=2) > 200).sum() > 200, "no help text"


def test_the_cached_hud_is_redrawn_at_its_rate_and_at_once_after_input(new_app):
    app = new_app(size=(960, 540))
    app.set_quality("low")
    frame(app, 1 / 60)
    first = _generation(app)
    for _ in range(120):                  # one second of frames at 120 a second
        frame(app, 1 / 120)
    redraws = _generation(app) - first
    assert 17 <= redraws <= 23, redraws   # 20 a second
    # A click redraws it in the very next frame, before the scene copies it.
    before = _generation(app)
    h = app.window.get_size()[1]
    app.window.dispatch_event("on_mouse_press", 480, h - 270, mouse.LEFT, 0)
    frame(app, 1 / 1000)
    assert _generation(app) == before + 1
    app.window.dispatch_event("on_mouse_release", 480, h - 270, mouse.LEFT, 0)
    # A key's action too: pausing shows PAUSED in the next frame.
    frame(app, 1 / 1000)
    before = _generation(app)
    app.press("pause")
    frame(app, 1 / 1000)
    assert app.sim.paused and _generation(app) == before + 1
    # (imgui shows a new auto-sized window from its second frame: the next redraw, on time, which is
    # built after one frame's scene, drawn in halves before the next two and copied by the one after)
    frame(app, 1 / 15)
    shown = []
    for _ in range(3):
        frame(app, 1 / 1000)
        shown.append(bool(app.gui.image.overlay))
    assert shown == [False, False, True], "the PAUSED banner is not blended over the scene in time"
    # Without input, nothing is redrawn within a twentieth of a second.
    before = _generation(app)
    for _ in range(3):
        frame(app, 1 / 1000)
    assert _generation(app) == before


def _generation(app):
    """How many times the cached HUD has been drawn (its image's counter)."""
    return app.gui.image.generation


def test_a_hud_that_draws_nothing_is_redrawn_empty_on_time(new_app, run_frames):
    """Panels hidden and the last message run out: the redraw on time is an empty picture, not the last one kept."""
    app = new_app(size=(960, 540))
    app.set_quality("low")
    app.press("hud")                      # the panels hidden (a key: redrawn at once)
    app.hud.notify("a short message", 0.5)
    run_frames(app, hud_latency(app))     # (the banner is a new window: sized in one redraw, drawn in the next)
    assert app.hud.message_shown and app.gui.image.overlay and app.gui.image.opaque == ()
    top = app.capture()[:60, 300:660].astype(int)
    assert (top.min(axis=2) > 200).sum() > 50, "no message text"
    run_frames(app, 30 + hud_latency(app))  # half a second of frames, then a redraw on time
    assert not app.hud.message_shown
    assert app.gui.image.overlay == () and app.gui.image.opaque == (), "the last picture is kept"
    top = app.capture()[:60, 300:660].astype(int)
    assert (top.min(axis=2) > 200).sum() == 0, "the message is still drawn"


def test_at_low_quality_the_panels_reach_the_window_edge_and_the_scene_is_drawn_around_them(new_app, run_frames,
                                                                                         monkeypatch):
    from flightsim.app.hud.panels import BACKDROP_RGB
    from flightsim.app.scene import renderer

    app = new_app(size=(960, 540))
    app.set_quality("low")
    app.sim.paused = True
    run_frames(app, hud_latency(app) + 2)
    x0, y0, x1, y1 = (int(round(v)) for v in app.hud.hit_boxes["flight:window"])
    assert x0 > 0 and y0 > 0                                     # imgui's window stands off the edge ...
    img = app.capture().astype(int)
    strip = img[y0 + 10:y1 - 10, 0:x0]                           # ... its backdrop does not
    assert np.abs(strip - np.array(BACKDROP_RGB)).max() <= 2
    assert app.gui.image.opaque[0][:2] == (0.0, 0.0)
    passes = app.scene.passes
    assert passes is not None and 1 <= len(passes) <= 3          # the scene drawn in a few rectangles
    # the scene beside the panel: the same pixels as drawn in one pass
    monkeypatch.setattr(renderer, "SCENE_RECT_PASSES", 0)
    run_frames(app, 2)
    assert app.scene.passes is None
    one = app.capture().astype(int)
    scene = np.ones(one.shape[:2], bool)
    for bx0, by0, bx1, by1 in app.gui.image.opaque:            # (the panels' readouts change frame to frame)
        scene[int(by0):int(np.ceil(by1)), int(bx0):int(np.ceil(bx1))] = False
    assert scene.mean() > 0.15
    assert np.abs(one - img).max(axis=2)[scene].max() <= 2

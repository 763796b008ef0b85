"""The map panel (key L) on a real window: it opens and closes with the key, shows the terrain's picture, the
airfields, the VORs and the airplane's track, zooms with the wheel and pans with a drag; and the track's ring
buffer."""

import numpy as np
import pytest
from conftest import hud_latency
from pyglet.window import key, mouse
from test_app_input import centre, imgui_click

from flightsim.app.map_companion import Track
from flightsim.app.scene import terrain_view
from flightsim.physics.terrain import load_terrain


def press(app, symbol):
    app.window.dispatch_event("on_key_press", symbol, 0)
    app.window.dispatch_event("on_key_release", symbol, 0)


def test_l_opens_the_map_with_the_terrain_airfields_and_stations_and_closes_it(new_app, run_frames):
    app = new_app(terrain="world")                          # flown on the world's terrain, as `flightsim fly` is
    assert app.terrain is load_terrain()
    assert app.hud_view().map is None and "map:window" not in app.hud.hit_boxes
    press(app, key.L)
    run_frames(app, hud_latency(app))
    assert app.map.show and "map:window" in app.hud.hit_boxes and "map:canvas" in app.hud.hit_boxes
    m = app.hud_view().map
    assert m.texture > 0 and m.extent == load_terrain().extent
    fields = {ident for ident, _, _ in m.airfields}
    assert {"KHOM", "KCST", "KVAL", "KLAK", "2GR", "KMTN"} <= fields
    assert {"HOM", "VAL", "PKS"} <= {ident for ident, _, _ in m.vors}
    # the picture is drawn: the map's canvas is not one colour, and differs from the scene without the map
    x0, y0, x1, y1 = (int(v) for v in app.hud.hit_boxes["map:canvas"])
    shown = app.capture()[y0 + 4:y1 - 4, x0 + 4:x1 - 4]
    assert shown.reshape(-1, 3).std(axis=0).max() > 5.0
    press(app, key.L)
    run_frames(app, hud_latency(app))
    assert not app.map.show and app.hud_view().map is None and "map:window" not in app.hud.hit_boxes


def test_the_track_follows_the_flight_and_the_wheel_zooms_and_a_drag_pans(flight_app, run_frames):
    app = flight_app                                        # flat: no terrain, a plain map with the airfields
    assert app.terrain is None
    app.map.toggle(True)
    run_frames(app, 150)                                    # 2.5 s of flight: a point a second
    m = app.hud_view().map
    assert m.texture == 0 and {"KHOM", "KMTN"} <= {ident for ident, _, _ in m.airfields}
    assert len(m.track) >= 2 and m.track[-1][0] > m.track[0][0]          # flying North
    assert np.allclose(app.hud.map_center, m.position, atol=300.0)      # following the airplane
    cx, cy = centre(app.hud.hit_boxes["map:canvas"])
    h = app.window.get_size()[1]
    scale = app.hud.map_scale
    app.window.dispatch_event("on_mouse_motion", cx, h - cy, 0, 0)
    app.window.dispatch_event("on_mouse_scroll", cx, h - cy, 0, 2)
    run_frames(app, hud_latency(app))
    assert app.hud.map_scale == pytest.approx(scale * 1.25 ** 2) and not app.hud.map_follow
    before = app.hud.map_center
    app.window.dispatch_event("on_mouse_press", cx, h - cy, mouse.LEFT, 0)
    for k in range(4):                                      # 40 pixels to the right, a frame at a time
        run_frames(app, 1)
        app.window.dispatch_event("on_mouse_drag", cx + 10 * (k + 1), h - cy, 10, 0, mouse.LEFT, 0)
    app.window.dispatch_event("on_mouse_release", cx + 40, h - cy, mouse.LEFT, 0)
    run_frames(app, hud_latency(app))
    after = app.hud.map_center
    # the map dragged to the right shows what lies West (+y) of the centre before
    assert after[1] - before[1] == pytest.approx(40.0 / app.hud.map_scale, rel=0.3)
    assert after[0] == pytest.approx(before[0], abs=1.0)
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["map:follow"]))
    assert app.hud.map_follow


def test_track_ring_buffer_keeps_the_last_points_oldest_first():
    t = Track(seconds=5.0, period=1.0)
    for k in range(12):
        t.add(0.5 * k, (float(k), -float(k)))
    assert t.points().tolist() == [[2.0, -2.0], [4.0, -4.0], [6.0, -6.0], [8.0, -8.0], [10.0, -10.0]]
    t.add(0.0, (1.0, 1.0))                                  # the clock went back (a reset): a new track
    assert t.points().tolist() == [[1.0, 1.0]]


def test_map_image_is_north_up_east_right():
    terrain = load_terrain()
    img = terrain_view.map_image(terrain, size=256)
    assert img.shape[2] == 4 and max(img.shape[:2]) <= 256 and (img[..., 3] == 255).all()
    blue = (img[..., 2].astype(int) - img[..., 0]) > 40                 # water
    # the sea lies West (y > 70,000 ft): the left of the picture; the range East: the right
    assert blue[:, : img.shape[1] // 5].mean() > 0.5 and blue[:, -img.shape[1] // 5:].mean() < 0.1

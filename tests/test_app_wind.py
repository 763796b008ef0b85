"""The wind in the scene: the windsock's pose (pure numpy) and its real pixels (Mesa through EGL)."""

import math

import numpy as np
import pytest

from flightsim.app.scene.windsock import FULL_KNOTS, HANG_DEG, KNOT, sock_wind, windsock_matrix
from flightsim.physics.wind import Gust, WindSpec, wind_vector

MOUNT = np.array([10.0, 20.0, 20.0])


def sock_axis(m):
    """Earth direction of the sock's axis (mouth -> tail) and its mouth."""
    return m[:3, 0], m[:3, 3]


@pytest.mark.parametrize("from_deg, toward", [(90.0, (0.0, 1.0)), (270.0, (0.0, -1.0)), (0.0, (-1.0, 0.0)),
                                              (180.0, (1.0, 0.0))])
def test_the_sock_points_where_the_wind_blows_to(from_deg, toward):
    axis, mouth = sock_axis(windsock_matrix(MOUNT, wind_vector(from_deg, 20.0 * KNOT)))
    np.testing.assert_allclose(mouth, MOUNT)
    np.testing.assert_allclose(axis, [toward[0], toward[1], 0.0], atol=1e-12)   # straight out above 15 kt


def test_the_sock_fills_with_the_wind_and_hangs_in_calm_air():
    def droop(knots):
        axis, _ = sock_axis(windsock_matrix(MOUNT, wind_vector(90.0, knots * KNOT)))
        return math.degrees(math.asin(-axis[2]))

    angles = [droop(k) for k in (0.0, 3.0, 7.5, 12.0, FULL_KNOTS, 30.0)]
    assert angles[0] == pytest.approx(HANG_DEG)
    assert all(a > b for a, b in zip(angles[:4], angles[1:5], strict=True)), angles
    assert angles[4] == pytest.approx(0.0, abs=1e-9) and angles[5] == pytest.approx(0.0, abs=1e-9)
    for bad in ([np.nan, 0.0, 0.0], [np.inf, 1.0, 0.0]):
        m = windsock_matrix(MOUNT, bad)
        assert np.all(np.isfinite(m))


def test_the_sock_shows_the_steady_wind_at_its_height_plus_the_gusts():
    spec = WindSpec(from_deg=270.0, speed=20.0, gusts=(Gust(0.0, 2.0, (0.0, 0.0, 5.0)),))
    from flightsim.physics.wind import Shear
    sheared = WindSpec(from_deg=270.0, speed=20.0, shear=Shear("power", 1000.0))
    met = np.array([1.0, -20.0, 5.0])            # what an airplane at 2000 ft meets: steady + a gust
    np.testing.assert_allclose(sock_wind(met, 2000.0, spec), met)
    low = sock_wind(sheared.steady(2000.0), 2000.0, sheared)
    assert np.linalg.norm(low) == pytest.approx(20.0 * (20.0 / 1000.0) ** (1 / 7))   # the sock is at 20 ft
    np.testing.assert_allclose(sock_wind(met, 2000.0, None), met)                    # a replay: the wind met


def orange(px):
    """The sock's orange bands (#f26b1d lit): strong red, green well below it, little blue."""
    r, g, b = px[..., 0].astype(int), px[..., 1].astype(int), px[..., 2].astype(int)
    return (r > 150) & (g < 0.62 * r) & (b < 0.4 * r)


def sock_pixels(new_app, run_frames, wind):
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.simulation.starts import make_start

    aircraft = load_aircraft()
    app = new_app((960, 540), aircraft=aircraft, start=make_start(aircraft, "runway"), wind=wind)
    app.cameras.set_mode("chase")
    app.hud.show = False
    run_frames(app, 6)
    img = app.capture()
    h, w = img.shape[:2]
    window = img[int(0.25 * h):int(0.45 * h), int(0.12 * w):int(0.40 * w)]   # around the sock, left of the runway
    ys, xs = np.nonzero(orange(window))
    return xs, ys, img


def test_the_windsock_is_drawn_and_swings_with_the_wind(new_app, run_frames, tmp_path):
    east_x, east_y, img = sock_pixels(new_app, run_frames, WindSpec(from_deg=90.0, speed=15.0 * KNOT))
    west_x, west_y, _ = sock_pixels(new_app, run_frames, WindSpec(from_deg=270.0, speed=15.0 * KNOT))
    calm_x, calm_y, _ = sock_pixels(new_app, run_frames, None)
    for xs in (east_x, west_x, calm_x):
        assert len(xs) > 8, "no windsock pixels left of the runway"
    # From behind the airplane on runway 36 (looking North): a wind from the East blows the sock to the
    # left (West), one from the West to the right; in calm air it hangs, lower and narrower.
    assert east_x.mean() < west_x.mean() - 5, (east_x.mean(), west_x.mean())
    assert np.ptp(calm_x) < 0.6 * min(np.ptp(east_x), np.ptp(west_x))
    assert calm_y.max() > max(east_y.max(), west_y.max())

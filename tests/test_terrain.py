"""The shipped terrain (``assets/terrain/region.npz``) and its compiled surface (:mod:`flightsim.physics.terrain`)."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from flightsim.physics.terrain import (
    WATER,
    Terrain,
    load_terrain,
    pack_terrain,
    surface,
    terrain_height,
)
from flightsim.resources import data_file

#: The world's airfields (id, centre x, y ft, elevation ft, heading deg, length, width ft): ``tools/make_terrain.py``.
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
from make_terrain import AIRFIELDS, runway_frame  # noqa: E402

FT2_PER_SQMI = 5280.0 ** 2


@pytest.fixture(scope="module")
def world():
    return load_terrain()


def test_extent_at_least_150_km_square(world):
    x_min, x_max, y_min, y_max = world.extent
    assert x_max - x_min >= 150e3 / 0.3048 and y_max - y_min >= 150e3 / 0.3048
    assert x_min < -240000 and x_max > 240000 and y_min < -240000 and y_max > 240000
    assert world.heights.shape == world.landuse.shape and 600 <= world.heights.shape[0] <= 800


def test_the_range_peaks_6000_to_10000_ft(world):
    y = world.y0 + world.spacing * np.arange(world.heights.shape[1])
    band = world.heights[:, (y < -150000) & (y > -220000)]
    assert 6000.0 <= band.max() <= 10000.0
    assert world.heights.max() <= 10000.0
    # peaks all along it, North to South: in each quarter
    quarters = np.array_split(band, 4, axis=0)
    assert all(q.max() > 6000.0 for q in quarters)


def test_water_lakes_and_sea(world):
    water = world.landuse == WATER
    cell = world.spacing ** 2 / FT2_PER_SQMI
    west = world.y0 + world.spacing * np.arange(world.heights.shape[1]) > 100000
    assert water[:, west].mean() > 0.9                       # the sea, to the West
    assert np.all(world.heights[water] == np.round(world.heights[water]))   # flat water surfaces
    # lakes: water well inland, above sea level
    inland = water & (world.heights > 100.0)
    assert inland.sum() * cell > 8.0
    levels = set(np.unique(world.heights[inland]).tolist())
    assert len(levels) >= 2


@pytest.mark.parametrize("field", AIRFIELDS, ids=[a[0] for a in AIRFIELDS])
def test_airfield_pads_flat_at_their_elevation(world, field):
    _, cx, cy, elev, heading, length, width = field
    h = math.radians(heading)
    along = np.linspace(-length / 2, length / 2, 41)
    across = np.linspace(-width / 2, width / 2, 5)
    a, c = np.meshgrid(along, across)
    x = cx + a * math.cos(h) + c * math.sin(h)
    y = cy - a * math.sin(h) + c * math.cos(h)
    back, side = runway_frame(x, y, cx, cy, heading)
    assert np.allclose(back, a) and np.allclose(side, c)
    heights = world.height(x, y)
    assert np.max(np.abs(heights - elev)) < 1.0


def test_home_flat_at_sea_level(world):
    r = np.linspace(0.0, 12000.0, 60)
    t = np.linspace(0.0, 2.0 * math.pi, 48)
    rr, tt = np.meshgrid(r, t)
    assert np.all(world.height(rr * np.cos(tt), rr * np.sin(tt)) == 0.0)
    assert np.all(world.landuse[np.hypot(*np.meshgrid(world.x0 + world.spacing * np.arange(world.heights.shape[0]),
                                                    world.y0 + world.spacing * np.arange(world.heights.shape[1]),
                                                    indexing="ij")) < 12000.0] != WATER)


def test_compiled_lookup_equals_the_numpy_triangles(world):
    packed = pack_terrain(world)
    rng = np.random.default_rng(7)
    x = rng.uniform(-260000.0, 260000.0, 3000)
    y = rng.uniform(-260000.0, 260000.0, 3000)
    x[:5] = world.x0 + world.spacing * np.array([0, 3, 759, 100, 200])   # on vertices and the grid's edges
    y[:5] = world.y0 + world.spacing * np.array([0, 4, 759, 100.5, 200.25])
    h, dx, dy = surface(world, x, y)
    got = np.array([terrain_height(packed, float(a), float(b)) for a, b in zip(x, y, strict=True)])
    assert np.allclose(got[:, 0], h, rtol=0.0, atol=1e-9)
    assert np.allclose(got[:, 1], dx, rtol=0.0, atol=1e-12) and np.allclose(got[:, 2], dy, rtol=0.0, atol=1e-12)
    # the triangles: exact at the vertices, continuous across the diagonal and the cells' edges
    i, j = 300, 420
    xv, yv = world.x0 + i * world.spacing, world.y0 + j * world.spacing
    assert terrain_height(packed, xv, yv)[0] == world.heights[i, j]
    s = world.spacing
    for a, b in ((0.3, 0.3), (0.0, 0.6), (0.7, 1.0), (1.0, 0.2)):
        lo = terrain_height(packed, xv + a * s - 1e-7, yv + b * s + 1e-7)[0]
        hi = terrain_height(packed, xv + a * s + 1e-7, yv + b * s - 1e-7)[0]
        assert abs(lo - hi) < 1e-4
    assert terrain_height(packed, 1e6, 0.0) == (0.0, 0.0, 0.0)


def test_slope_sign():
    # a ramp rising to the North (x) and falling to the West (y)
    xs = np.arange(5)[:, None] * 100.0
    ys = np.arange(6)[None, :] * 100.0
    ramp = Terrain(heights=0.1 * xs - 0.05 * ys + 500.0, landuse=np.ones((5, 6), np.uint8), x0=-200.0, y0=-250.0,
                   spacing=100.0)
    h, dx, dy = terrain_height(pack_terrain(ramp), 10.0, 20.0)
    assert dx == pytest.approx(0.1) and dy == pytest.approx(-0.05)
    assert h == pytest.approx(500.0 + 0.1 * 210.0 - 0.05 * 270.0)
    assert terrain_height(pack_terrain(ramp), 60.0, 20.0)[0] > h


def test_the_script_makes_the_shipped_file(tmp_path):
    # the same seed, the same heights (the script run as a user does, into a copy)
    code = ("import sys; sys.path.insert(0, 'tools'); import make_terrain as m, numpy as np; "
            "h, lu = m.make(); d = np.load(m.OUT); "
            "print(np.array_equal(h, d['heights']), np.array_equal(lu, d['landuse']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=REPO)
    assert out.stdout.split() == ["True", "True"]
    assert data_file("assets", "terrain", "region.npz").stat().st_size <= 3e6


def test_every_shipped_runway_lies_on_its_flat_pad(world):
    """The airfield files (configs/airfields/, :mod:`flightsim.simulation.world`) agree with the pads the script
    flattened: every runway flat at its field's elevation, end to end and edge to edge."""
    from flightsim.simulation.world import load_airfields

    for field in load_airfields().values():
        for data in field.runways:
            runway = data.runway()
            h = math.radians(runway.heading_deg)
            a, c = np.meshgrid(np.linspace(-runway.length / 2, runway.length / 2, 41),
                               np.linspace(-runway.width / 2, runway.width / 2, 5))
            x = runway.center[0] + a * math.cos(h) + c * math.sin(h)
            y = runway.center[1] - a * math.sin(h) + c * math.cos(h)
            assert np.max(np.abs(world.height(x, y) - field.elevation_ft)) < 1.0, field.id

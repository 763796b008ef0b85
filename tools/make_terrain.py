"""Make the shipped terrain ``assets/terrain/region.npz`` from a fixed seed: ``python tools/make_terrain.py``.

The region is the world's (issue 39): 150 km × 150 km around the home field (|x|, |y| ≤ 246,675 ft: 150.4 km;
the world's 246,000 ft would be 149.96 km), in the home frame (x North, y West, z up, ft; grid index ``[i, j]``
at ``x = x0 + i spacing``, ``y = y0 + j spacing``). The sea lies to the West (beyond a ragged coast near ``y =
+70,000`` ft), a broad valley East of home, a North–South range about ``y = −150,000 … −220,000`` ft with peaks
6,000–10,000 ft, hills between, three lakes (their surface flat at their level); the heights fall to sea level
over the grid's last few km (the terrain is sea level outside the grid,
:func:`flightsim.physics.terrain.terrain_height`). Each airfield of the world's table (:data:`AIRFIELDS`) stands
on a flat pad at its elevation (its runway ±1,000 ft beyond its ends and ±500 ft beside, widened by a grid
cell's diagonal so that every triangle under the runway is flat), blended smoothly into the land around; home is
flat farmland at 0 ft within 12,000 ft of the origin.

Heights are fractal value noise (octaves of smoothly interpolated random lattices, numpy only) and ridged
noise (``1 − |n|``) in the range, laid on a regional profile across the region (West to East: sea, coastal
plain, valley, foothills, range).  Land use (:mod:`flightsim.physics.terrain`'s codes) follows height, slope
and water: water, snow above 8,200 ft, rock on steep or high ground, forest on hills, grass and farmland on
low flat land, a town beside each airfield but home.

Why shipped rather than built at start: the field takes a few seconds of numpy to make, the same bits on
every machine only as long as numpy's generator and floating point agree; a shipped file (≈2 MB) is the
same surface for the physics, the renderer and the navigation radios everywhere, its tests check the file a
user flies on, and a start does not pay for it.  Run this script again (same seed: the same file) after
changing it.
"""

import math
from pathlib import Path

import numpy as np

SEED = 39
#: Grid: ``N × N`` vertices ``SPACING`` ft apart from ``(X0, Y0)``.
N = 760
SPACING = 650.0
X0 = Y0 = -246675.0
#: Land use codes (as :mod:`flightsim.physics.terrain`).
WATER, FARMLAND, GRASS, FOREST, ROCK, SNOW, TOWN = range(7)
#: The world's airfields: id, centre x, y (ft), elevation (ft), heading (deg true), length, width (ft).
AIRFIELDS = (
    ("KHOM", 0.0, 0.0, 0.0, 0.0, 3000.0, 75.0),
    ("KCST", 40000.0, 60000.0, 12.0, 90.0, 5000.0, 100.0),
    ("KVAL", -50000.0, -80000.0, 1250.0, 270.0, 4500.0, 100.0),
    ("KLAK", 110000.0, -60000.0, 820.0, 320.0, 4000.0, 75.0),
    ("2GR", 70000.0, -20000.0, 400.0, 40.0, 1800.0, 60.0),
    ("KMTN", -100000.0, -185000.0, 5800.0, 170.0, 3200.0, 60.0),
)
#: Lakes: centre x, y (ft), semi-axes along x and y (ft), surface level (ft).
LAKES = (
    (128000.0, -68000.0, 9000.0, 6000.0, 790.0),
    (-12000.0, -112000.0, 7000.0, 4500.0, 1400.0),
    (60000.0, -160000.0, 5000.0, 3500.0, 4300.0),
)
HOME_RADIUS = 12000.0
PEAK_LIMIT = 9800.0
OUT = Path(__file__).resolve().parent.parent / "assets" / "terrain" / "region.npz"


def smoothstep(t):
    """0 below 0, 1 above 1, ``3t² − 2t³`` between."""
    t = np.clip(t, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def value_noise(rng, n, cell):
    """A value-noise octave on an ``n × n`` grid: a random lattice every ``cell`` vertices, smoothly
    interpolated; values in [−1, 1]."""
    m = int(math.ceil(n / cell)) + 2
    lattice = rng.uniform(-1.0, 1.0, (m, m))
    u = np.arange(n) / cell
    i0 = np.floor(u).astype(int)
    f = smoothstep(u - i0)
    a = lattice[i0][:, i0] * (1 - f)[None, :] + lattice[i0][:, i0 + 1] * f[None, :]
    b = lattice[i0 + 1][:, i0] * (1 - f)[None, :] + lattice[i0 + 1][:, i0 + 1] * f[None, :]
    return a * (1 - f)[:, None] + b * f[:, None]


def fractal(rng, n, cell, octaves, ridged=False):
    """Octaves of :func:`value_noise` (each half the cell and half the amplitude), normalised to about
    [−1, 1]; ``ridged``: ``1 − |noise|`` per octave (sharp crests), in [0, 1]."""
    total = np.zeros((n, n))
    amp, norm = 1.0, 0.0
    for _ in range(octaves):
        octave = value_noise(rng, n, max(cell, 1.0))
        if ridged:
            octave = (1.0 - np.abs(octave)) ** 2
        total += amp * octave
        norm += amp
        amp *= 0.5
        cell /= 2.0
    return total / norm


def runway_frame(x, y, cx, cy, heading_deg):
    """Distances along and across a runway centred at (cx, cy) with ``heading_deg`` (true, from North,
    clockwise; y is West, so the heading's direction is (cos h, −sin h))."""
    h = math.radians(heading_deg)
    dx, dy = x - cx, y - cy
    along = dx * math.cos(h) - dy * math.sin(h)
    across = dx * math.sin(h) + dy * math.cos(h)
    return along, across


def make(seed=SEED):
    """The terrain: ``(heights float32 (N, N) ft, landuse uint8 (N, N))``."""
    rng = np.random.default_rng(seed)
    axis = X0 + SPACING * np.arange(N)
    x, y = np.meshgrid(axis, axis, indexing="ij")
    # Regional profile across the region (y: West +, East −), the coast and the range's line wandering North–South.
    coast = 75000.0 + 40000.0 * fractal(rng, N, 200, 3)[:, 380:381] + 0.0 * y
    coast = coast + 7000.0 * fractal(rng, N, 16, 4)
    ridge_line = -185000.0 + 14000.0 * np.sin(x / 70000.0 + 0.7)
    plain = 80.0 * smoothstep((coast - y) / 20000.0)
    valley = 1400.0 * smoothstep((-y - 10000.0) / 90000.0)
    foothills = 1800.0 * smoothstep((-y - 110000.0) / 40000.0)
    across = (y - ridge_line) / 26000.0
    range_core = np.exp(-across * across)
    base = plain + valley + foothills + 2600.0 * range_core
    base -= 1200.0 * smoothstep((-y - 225000.0) / 20000.0)
    hills = fractal(rng, N, 48, 6)
    ridged = fractal(rng, N, 40, 6, ridged=True)
    roughness = 150.0 + 1200.0 * smoothstep((-y - 60000.0) / 70000.0)
    h = base + roughness * hills + 6800.0 * range_core ** 1.5 * ridged
    # The range's peaks within 6,000–10,000 ft: a soft ceiling above 8,500.
    top = 8500.0
    over = np.maximum(h - top, 0.0)
    h = np.where(h > top, top + (PEAK_LIMIT - top) * np.tanh(over / (PEAK_LIMIT - top)), h)
    sea = y > coast
    h = np.where(sea, 0.0, np.maximum(h, 1.0 + 0.0 * h))
    # Fall to sea level at the grid's edge (the terrain is sea level outside it).
    edge = np.minimum.reduce([x - X0, axis[-1] - x, y - Y0, axis[-1] - y]) / 16000.0
    fade = smoothstep(edge)
    h = h * fade
    water = sea | (fade < 1.0) & (h < 2.0)
    h = np.where(water, 0.0, h)
    # Lakes: flat at their level, the shore lifted to at least it.
    for cx, cy, ax, ay, level in LAKES:
        d = np.sqrt(((x - cx) / ax) ** 2 + ((y - cy) / ay) ** 2) + 0.25 * hills
        inside = d < 1.0
        shore = smoothstep((d - 1.0) / 1.5)
        h = np.where(inside, level, np.where(d < 2.5, np.maximum(h, level + 5.0 + 0.0 * h) * shore
                                             + (level + 5.0) * (1.0 - shore), h))
        water |= inside
    slope = slope_deg(h)
    # Airfields: pads flat at their elevation, blended over 4,000 ft; home flat at 0 within 12,000 ft.
    margin = SPACING * math.sqrt(2.0)
    for _, cx, cy, elev, heading, length, width in AIRFIELDS:
        along, across_rw = runway_frame(x, y, cx, cy, heading)
        da = np.maximum(np.abs(along) - (length / 2 + 1000.0 + margin), 0.0)
        dc = np.maximum(np.abs(across_rw) - (width / 2 + 500.0 + margin), 0.0)
        w = smoothstep(1.0 - np.hypot(da, dc) / 4000.0)
        h = w * elev + (1.0 - w) * h
        water &= w <= 0.0
    r = np.hypot(x, y)
    w = smoothstep(1.0 - (r - HOME_RADIUS - margin) / 8000.0)
    h = w * 0.0 + (1.0 - w) * h
    water &= w <= 0.0
    slope = slope_deg(h)
    landuse = land_use(rng, h, slope, water, x, y)
    return h.astype(np.float32), landuse


def slope_deg(h):
    """The slope at each vertex (deg), from central differences."""
    gx, gy = np.gradient(h, SPACING)
    return np.degrees(np.arctan(np.hypot(gx, gy)))


def land_use(rng, h, slope, water, x, y):
    """Land use codes from height, slope and water (the module docstring)."""
    patches = fractal(rng, N, 20, 4)
    use = np.full(h.shape, FARMLAND, dtype=np.uint8)
    use[(patches > 0.15) | (h > 1800.0)] = GRASS
    use[((h > 1200.0) & (patches > -0.2)) | ((slope > 10.0) & (h < 6500.0))] = FOREST
    use[(slope > 32.0) | (h > 6800.0)] = ROCK
    use[(h > 8200.0) & (slope < 40.0)] = SNOW
    for name, cx, cy, *_ in AIRFIELDS:
        if name != "KHOM":
            town = np.hypot(x - (cx + 6000.0), y - (cy + 4000.0)) < 3500.0 + 1500.0 * patches
            use[town & ~water] = TOWN
    home = np.hypot(x, y) < HOME_RADIUS
    use[home] = FARMLAND
    use[water] = WATER
    return use


def main():
    """Write :data:`OUT` and print its figures."""
    heights, landuse = make()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, heights=heights, landuse=landuse, x0=X0, y0=Y0, spacing=SPACING)
    cell_area = SPACING * SPACING / 5280.0 ** 2
    print(f"{OUT}: {OUT.stat().st_size / 1e6:.2f} MB, {N} × {N} at {SPACING:g} ft, "
          f"highest {heights.max():.0f} ft, water {np.count_nonzero(landuse == WATER) * cell_area:.0f} sq mi")


if __name__ == "__main__":
    main()

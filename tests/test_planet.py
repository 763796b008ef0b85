"""The round planet's physics (:mod:`flightsim.physics.planet`): geodetic coordinates, J2 gravitation, the view
of the Earth-centred inertial state, and every integrator flying it (no CLI)."""

import math

import numpy as np
import pytest

from flightsim.physics import aero
from flightsim.physics import planet as planets
from flightsim.physics.integrators import INTEGRATORS

W = planets.WGS84
A, B = W.a, W.b
E2 = 1.0 - (B / A) ** 2


def prime_radius(lat):
    """N, the prime vertical's radius of curvature at geodetic ``lat`` (rad), ft."""
    return A / math.sqrt(1.0 - E2 * math.sin(lat) ** 2)


# --------------------------------------------------------------------------- geodetic ↔ ECEF

PLACES = [(lat, lon) for lat in (90.0, -90.0, 0.0, 1e-10, 37.5, -89.9999, 89.99999999)
          for lon in (0.0, 179.999999999, -180.0, 180.0, -122.4, 45.0)]
#: An ECEF coordinate of 2·10⁷ ft is a double to 3.7·10⁻⁹ ft (its last bit): the round trip's height is as good as
#: three of those, its latitude and longitude to 1e-12 rad.
ULP_FT = 3.8e-9


@pytest.mark.parametrize("h", [-1000.0, 0.0, 35_000.0, 1.0e6])
@pytest.mark.parametrize("lat,lon", PLACES)
def test_geodetic_and_ecef_round_trip(lat, lon, h):
    x, y, z = planets.ecef(math.radians(lat), math.radians(lon), h, A, B)
    lat2, lon2, h2 = planets.geodetic(x, y, z, A, B)
    assert abs(h2 - h) < 3 * ULP_FT
    assert abs(lat2 - math.radians(lat)) < 1e-12
    if abs(lat) < 90.0:
        dlon = (lon2 - math.radians(lon) + math.pi) % (2.0 * math.pi) - math.pi     # ±180°: one meridian
        assert abs(dlon) < 1e-12
        assert -math.pi <= lon2 <= math.pi
    # (at ±90° every longitude is the same point: the point's check below is the one that counts)
    x2, y2, z2 = planets.ecef(lat2, lon2, h2, A, B)
    assert math.dist((x, y, z), (x2, y2, z2)) < 3 * ULP_FT


def test_geodetic_at_the_poles_and_on_the_equator_by_hand():
    assert planets.geodetic(0.0, 0.0, B, A, B) == pytest.approx((math.pi / 2, 0.0, 0.0), abs=3 * ULP_FT)
    assert planets.geodetic(0.0, 0.0, -B - 100.0, A, B) == pytest.approx((-math.pi / 2, 0.0, 100.0), abs=3 * ULP_FT)
    assert planets.geodetic(-A - 5.0, 0.0, 0.0, A, B) == pytest.approx((0.0, math.pi, 5.0), abs=3 * ULP_FT)
    assert planets.geodetic(0.0, A, 0.0, A, B) == pytest.approx((0.0, math.pi / 2, 0.0), abs=3 * ULP_FT)
    # a sphere: the geocentric latitude
    r = 2.0e7
    lat, lon, h = planets.geodetic(r * math.cos(0.3), 0.0, r * math.sin(0.3), r - 10.0, r - 10.0)
    assert (lat, lon, h) == pytest.approx((0.3, 0.0, 10.0), abs=3 * ULP_FT)


# --------------------------------------------------------------------------- gravitation


def test_j2_gravitation_at_the_equator_and_the_pole_by_hand():
    gm, j2 = W.gm, W.j2
    gx, gy, gz = planets.gravitation(A, 0.0, 0.0, gm, A, j2)
    assert gx == pytest.approx(-gm / A**2 * (1.0 + 1.5 * j2), rel=1e-14) and gy == 0.0 and gz == 0.0
    # U = −μ/r (1 − J2 (a/r)² P2(sin φ)): at the pole P2 = 1, g = μ/r² (1 − 3 J2 (a/r)²)
    gx, gy, gz = planets.gravitation(0.0, 0.0, B, gm, A, j2)
    assert gz == pytest.approx(-gm / B**2 * (1.0 - 3.0 * j2 * (A / B) ** 2), rel=1e-14) and gx == 0.0 == gy
    gx, gy, gz = planets.gravitation(0.0, 0.0, -B, gm, A, j2)
    assert gz == pytest.approx(gm / B**2 * (1.0 - 3.0 * j2 * (A / B) ** 2), rel=1e-14)
    # in ft/s²: 32.1 at the equator, 32.26 at the pole (WGS-84: 9.7803 and 9.8322 m/s² with the centrifugal term)
    g_eq = gm / A**2 * (1.0 + 1.5 * j2) - W.omega**2 * A
    assert g_eq * 0.3048 == pytest.approx(9.7803253, rel=1e-5)
    # no J2: 1/R² pointing at the centre
    g = planets.gravitation(3.0e7, -4.0e7, 1.0e7, gm, A, 0.0)
    r = math.sqrt(26.0e14)
    assert g == pytest.approx(tuple(-gm / r**3 * c for c in (3.0e7, -4.0e7, 1.0e7)), rel=1e-14)


def test_j2_gravitation_is_the_gradient_of_its_potential():
    gm, j2 = W.gm, W.j2

    def potential(p):
        r = np.linalg.norm(p)
        s = p[2] / r
        return -gm / r * (1.0 - j2 * (A / r) ** 2 * 0.5 * (3.0 * s * s - 1.0))

    p = np.array(planets.ecef(math.radians(37.0), math.radians(-122.0), 10_000.0, A, B))
    d = 1.0
    grad = np.array([(potential(p + d * e) - potential(p - d * e)) / (2 * d) for e in np.eye(3)])
    np.testing.assert_allclose(planets.gravitation(*p, gm, A, j2), -grad, rtol=1e-7)


# --------------------------------------------------------------------------- the view


def random_views(rng, n):
    views = np.zeros((n, 13))
    views[:, 0:2] = rng.uniform(-300_000.0, 300_000.0, (n, 2))
    views[:, 2] = rng.uniform(-100.0, 45_000.0, n)
    views[:, 3:6] = rng.uniform(-800.0, 800.0, (n, 3))
    q = rng.normal(size=(n, 4))
    views[:, 6:10] = q / np.linalg.norm(q, axis=1, keepdims=True)
    views[:, 10:13] = rng.uniform(-2.0, 2.0, (n, 3))
    return views


@pytest.mark.parametrize("lat,lon", [(0.0, 0.0), (37.6, -122.4), (-89.0, 179.9), (60.0, -180.0), (89.99, 10.0)])
def test_to_view_and_from_view_are_inverse(lat, lon):
    packed = planets.pack(W, math.radians(lat), math.radians(lon))
    rng = np.random.default_rng(7)
    eci, back = np.zeros(13), np.zeros(13)
    for t, view in zip((0.0, 123.4, 86_164.0, 5.0e5), random_views(rng, 4), strict=True):
        planets.from_view(t, view, packed, eci)
        planets.to_view(t, eci, packed, back)
        if np.dot(back[6:10], view[6:10]) < 0.0:
            back[6:10] = -back[6:10]        # q and −q: one attitude
        np.testing.assert_allclose(back[0:3], view[0:3], rtol=0, atol=1e-8)
        np.testing.assert_allclose(back[3:13], view[3:13], rtol=0, atol=1e-8)
        # and the other way round: a view of an ECI state goes back to it
        again = np.zeros(13)
        planets.from_view(t, back, packed, again)
        np.testing.assert_allclose(again[0:3], eci[0:3], rtol=0, atol=1e-7)
        np.testing.assert_allclose(again[3:13], eci[3:13], rtol=0, atol=1e-8)


@pytest.mark.parametrize("lat", [0.0, 30.0, 45.0, -60.0, 90.0])
def test_a_body_at_rest_on_the_turning_earth_moves_with_it(lat):
    """View velocity 0: the inertial velocity is Ω × r, |v| = Ω (N + h) cos lat, and the inertial rates are Ω."""
    lon, h = 10.0, 2000.0
    packed = planets.pack(W, math.radians(lat), math.radians(lon))
    view = np.zeros(13)
    view[2], view[6] = h, 1.0
    for t in (0.0, 3600.0):
        eci = np.zeros(13)
        planets.from_view(t, view, packed, eci)
        r, v = eci[0:3], eci[3:6]
        np.testing.assert_allclose(v, np.cross([0.0, 0.0, W.omega], r), rtol=0, atol=1e-12)
        phi = math.radians(lat)
        assert np.linalg.norm(v) == pytest.approx(W.omega * (prime_radius(phi) + h) * math.cos(phi), abs=1e-9)
        assert np.linalg.norm(eci[10:13]) == pytest.approx(W.omega, rel=1e-12)
        # ECEF = Rz(−Ω t)·ECI: the body stays over its point
        th = W.omega * t
        xe = (math.cos(th) * r[0] + math.sin(th) * r[1], -math.sin(th) * r[0] + math.cos(th) * r[1], r[2])
        lat2, lon2, h2 = planets.geodetic(*xe, A, B)
        assert abs(lat2 - phi) < 1e-12 and abs(h2 - h) < 1e-8
        assert abs(lat) == 90.0 or abs(lon2 - math.radians(lon)) < 1e-12


# --------------------------------------------------------------------------- flying it

INERTIA = np.diag([1.0, 2.0, 3.0])
INERTIA_INV = np.linalg.inv(INERTIA)


def dropped(planet, lat, lon, h, rates=(0.0, 0.0, 0.0)):
    """A free body (no loads but the planet's gravitation) let go at rest relative to the Earth: its packed
    loads' parameters and its ECI state."""
    packed = planets.pack(planet, math.radians(lat), math.radians(lon), gravity=0.0)
    params = aero.free_body(1.0)._replace(planet=packed)
    view = np.zeros(13)
    view[2], view[6], view[10:13] = h, 1.0, rates
    y = np.zeros(13)
    planets.from_view(0.0, view, packed, y)
    return params, y


def fly(name, params, y0, dt, seconds=2.0):
    y = y0.copy()
    INTEGRATORS[name].run(y, 0.0, dt, int(round(seconds / dt)), params, INERTIA, INERTIA_INV, True)
    return y


def test_a_body_dropped_on_a_still_sphere_falls_as_one_over_r_squared():
    """r̈ = −μ/r² from rest: r(t) = r0 − g t²/2 − g² t⁴/(12 r0) + O(t⁶), g = μ/r0²; straight down."""
    sphere = planets.Planet("sphere", True, a=2.09e7, b=2.09e7, omega=0.0, gm=W.gm, j2=0.0)
    params, y0 = dropped(sphere, 30.0, -50.0, 5000.0)
    r0 = np.linalg.norm(y0[0:3])
    assert r0 == pytest.approx(2.09e7 + 5000.0, abs=1e-6) and not np.any(y0[3:6])
    y = fly("rk4", params, y0, 1.0 / 400.0)
    g, t = sphere.gm / r0**2, 2.0
    assert np.linalg.norm(y[0:3]) == pytest.approx(r0 - g * t * t / 2.0 - g * g * t**4 / (12.0 * r0), abs=1e-6)
    assert np.linalg.norm(np.cross(y[0:3], y0[0:3])) / r0 < 1e-7          # along the radius
    assert np.linalg.norm(y[3:6]) == pytest.approx(g * t * (1.0 + g * t * t / (3.0 * r0)), rel=1e-10)
    # its view: 2 g ft lower, falling straight down, not turning
    view = np.zeros(13)
    planets.to_view(t, y, params.planet, view)
    assert view[2] == pytest.approx(5000.0 - g * t * t / 2.0, abs=1e-3) and abs(view[0]) < 1e-6 > abs(view[1])
    np.testing.assert_allclose(view[10:13], 0.0, atol=1e-15)


def test_every_integrator_flies_the_round_planet_to_its_order():
    """A tumbling free body dropped at 45° N on the turning WGS-84 Earth for 2 s: each integrator at dt = 0.02 s
    against rk4 at dt/16, within C·dtᵒʳᵈᵉʳ (position ft, attitude quaternion) above rounding (positions are
    2·10⁷ ft)."""
    params, y0 = dropped(W, 45.0, 10.0, 1000.0, rates=(0.3, -0.2, 0.1))
    dt = 0.02
    reference = fly("rk4", params, y0, dt / 16.0)
    view = np.zeros(13)
    planets.to_view(2.0, reference, params.planet, view)
    g = planets.pack(W, math.radians(45.0), math.radians(10.0))[planets.P_G]      # the effective gravity there
    assert view[2] == pytest.approx(1000.0 - 2.0 * g, abs=0.02)
    for name, method in INTEGRATORS.items():
        y = fly(name, params, y0, dt)
        position = np.linalg.norm(y[0:3] - reference[0:3])
        q = y[6:10] if np.dot(y[6:10], reference[6:10]) >= 0.0 else -y[6:10]
        attitude = np.linalg.norm(q - reference[6:10])
        assert position < 50.0 * dt**method.order + 1e-6, (name, position)
        assert attitude < 0.1 * dt**method.order + 1e-10, (name, attitude)
        if method.order == 1:           # and first order it is: half the step, half the error
            half = np.linalg.norm(fly(name, params, y0, dt / 2.0)[0:3] - reference[0:3])
            assert position / half == pytest.approx(2.0, rel=0.05), name

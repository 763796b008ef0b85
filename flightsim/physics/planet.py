"""The planet a flight flies on: Bourg's flat, still Earth, or a round, rotating one (JSBSim's ``FGInertial``).

A :class:`Planet` is data: a flat planet (constant gravity down the earth z axis, no rotation: the book's,
and flightsim's own aircraft's default) or an ellipsoid of revolution (equatorial radius ``a``, polar radius
``b``, rotation rate Ω about its polar axis, ``GM`` and ``J2``): :data:`WGS84` by default, or what a JSBSim
aircraft file's ``<planet>`` element says (:func:`planet_from_element`).

On a round planet the integrators advance the state in an **Earth-centred inertial** frame (ECI, JSBSim's
``FGPropagate``): position and velocity in ECI (ft, ft/s), the attitude quaternion body → ECI, and the body
rates with respect to inertial space.  The equations keep the form every step of
:mod:`flightsim.physics.steps` integrates (``ẋ = v``, ``v̇ = a``, ``q̇ = ½ q ⊗ ω``, ``I ω̇ = M − ω × Iω``):
the Coriolis and centripetal terms appear when the state is seen from the turning Earth, which is what the
loads do.  Each load evaluation turns the ECI state into the **view** (:func:`to_view`), the flat-planet
state the aircraft's loads read (flightsim's frames: x North, y West, z up):

- position: the North and West distances from the start point in the start's tangent plane, and the height
  above the ellipsoid (geodetic, :func:`geodetic`: to rounding, valid at the poles and across the
  date line);
- velocity: relative to the Earth, in the local North-West-up frame where the airplane is;
- attitude: body → that local frame (so roll, pitch and heading are relative to the local horizon);
- body rates: relative to the Earth (JSBSim's ``velocities/p-rad_sec``…).

The loads' earth-frame force then goes back to ECI, and the gravitation (J2, JSBSim's ``GetGravityJ2``; 1/R²
where J2 is 0) is added there.  The atmosphere and the wind, evaluated in the view, move with the Earth.

The compiled functions take the packed planet (:func:`pack`: a float64 array, ``P_*`` entries), which also
holds the scratch view the loads read.  Units: ft, s, rad; ECEF axes x through (0°, 0°), z through the North
pole; ECI coincides with ECEF at t = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flightsim.math.compiler import borrowing_jit
from flightsim.math.kernels import quat_of_entries, turn

__all__ = ["FLAT", "WGS84", "Planet", "ecef", "effective_gravity", "from_geodetic", "from_view", "geodetic",
           "gravitation", "pack", "to_view"]


@dataclass(frozen=True)
class Planet:
    """A planet: flat, or an ellipsoid of revolution that turns about its polar axis.

    Attributes
    ----------
    name : str
    round : bool
        False: Bourg's flat Earth (the other fields unused).
    a, b : float
        Equatorial and polar radius, ft.
    omega : float
        Rotation rate about the polar axis, rad/s (east-going: the sun rises in the east).
    gm : float
        Gravitational parameter, ft³/s².
    j2 : float
        Second zonal harmonic (dimensionless); 0: a point mass, gravitation 1/R².
    """

    name: str
    round: bool
    a: float = 0.0
    b: float = 0.0
    omega: float = 0.0
    gm: float = 0.0
    j2: float = 0.0

    def __post_init__(self):
        if self.round:
            for field in ("a", "b", "gm"):
                value = getattr(self, field)
                if not (math.isfinite(value) and value > 0.0):
                    raise ValueError(f"{field}: must be finite and > 0, got {value}")
            if self.b > self.a:
                raise ValueError(f"polar radius {self.b} ft is larger than the equatorial radius {self.a} ft")
            for field in ("omega", "j2"):
                if not math.isfinite(getattr(self, field)):
                    raise ValueError(f"{field}: must be finite, got {getattr(self, field)}")


#: Bourg's flat, still Earth.
FLAT = Planet("flat", False)
#: WGS-84, with JSBSim's constants (``FGInertial``'s defaults).
WGS84 = Planet("WGS-84", True, a=20925646.32546, b=20855486.5951, omega=7.292115e-5, gm=14.0764417572e15,
               j2=1.08262982e-3)

# Entries of the packed planet: the ellipsoid, the start (its point on the ellipsoid in ECEF, its North, West and
# up axes, its latitude and longitude), the view's gravity (added back to the loads, which subtract it), and the
# scratch view (13 numbers) with the local axes in ECI (9) of the last evaluation; then the time and ECI state
# that view was made of (14: :func:`to_view` gives it again without the work when asked for the same, NaN before
# the first) and the four numbers its latitude and longitude are the angles of; and the last time the Earth's
# turn was asked for with its cosine and sine (the stages of a step share their times); then whether the
# gravity-gradient torque acts (0 or 1) and the body's inertia tensor it needs (9, slug·ft², body frame).
(P_A, P_B, P_OMEGA, P_GM, P_J2, P_E2, P_EP2) = range(7)
P_ORIGIN, P_NORTH, P_WEST, P_UP = 7, 10, 13, 16
P_LAT0, P_LON0, P_G = 19, 20, 21
P_VIEW = 24
P_VIEW_END = P_VIEW + 13
P_AXES = P_VIEW_END
P_KEY = P_AXES + 9
P_ANGLES = P_KEY + 14
P_TURN = P_ANGLES + 4
P_TORQUE = P_TURN + 3
P_INERTIA = P_TORQUE + 1
PLANET_SIZE = P_INERTIA + 9


def pack(planet, lat, lon, gravity=None, inertia=None):
    """The packed round planet for a flight that starts at geodetic ``lat``, ``lon`` (rad); None for a flat one.

    Parameters
    ----------
    planet : Planet
    lat, lon : float
        The start, rad: the origin of the view's North and West distances.
    gravity : float, optional
        The constant gravity the flat view's loads subtract (ft/s²), added back here; default: the effective
        gravity (gravitation and the centrifugal term) at the start, on the ellipsoid, so that a flat trim
        holds on the round planet.
    inertia : array_like, optional
        The body's inertia tensor (3×3, slug·ft², body frame) for the gravity-gradient torque
        (:func:`gravity_torque`, off until :func:`set_gravity_torque`); default zeros.
    """
    if not planet.round:
        return None
    if not (math.isfinite(lat) and abs(lat) <= 0.5 * math.pi + 1e-12):
        raise ValueError(f"latitude: must be within ±90°, got {math.degrees(lat)}")
    if not math.isfinite(lon):
        raise ValueError(f"longitude: must be finite, got {lon}")
    p = np.zeros(PLANET_SIZE)
    p[P_A], p[P_B], p[P_OMEGA], p[P_GM], p[P_J2] = planet.a, planet.b, planet.omega, planet.gm, planet.j2
    p[P_E2] = 1.0 - (planet.b / planet.a) ** 2
    p[P_EP2] = (planet.a / planet.b) ** 2 - 1.0
    p[P_ORIGIN:P_ORIGIN + 3] = ecef(lat, lon, 0.0, planet.a, planet.b)
    north, west, up = local_axes(lat, lon)
    p[P_NORTH:P_NORTH + 3], p[P_WEST:P_WEST + 3], p[P_UP:P_UP + 3] = north, west, up
    p[P_LAT0], p[P_LON0] = lat, lon
    p[P_G] = effective_gravity(planet, lat, lon) if gravity is None else gravity
    p[P_KEY:P_KEY + 14] = math.nan
    p[P_TURN] = math.nan
    if inertia is not None:
        p[P_INERTIA:P_INERTIA + 9] = np.asarray(inertia, dtype=np.float64).reshape(9)
    return p


def set_gravity_torque(packed, on):
    """Turn the gravity-gradient torque (:func:`gravity_torque`) on or off in a packed round planet (JSBSim's
    ``simulation/gravitational-torque``, off by default)."""
    packed[P_TORQUE] = 1.0 if on else 0.0


def effective_gravity(planet, lat, lon, h=0.0):
    """The gravity an airplane at rest relative to the Earth feels at geodetic ``lat``, ``lon`` (rad) and height
    ``h`` above the ellipsoid (ft): the gravitation (:func:`gravitation`, J2) plus the centrifugal term Ω²·(x, y, 0),
    along the local down (ft/s², positive).  On WGS-84 at (0°, 0°): 32.0875 ft/s² at sea level, 32.0752 at
    4000 ft (flat planets' standard gravity: 32.1740).  What a level trim on the round planet balances (JSBSim's
    trim, whose ``FGAccelerations`` adds the same two terms)."""
    x, y, z = ecef(lat, lon, h, planet.a, planet.b)
    gx, gy, gz = gravitation(x, y, z, planet.gm, planet.a, planet.j2)
    w2 = planet.omega * planet.omega
    _, _, up = local_axes(lat, lon)
    return float(-((gx + w2 * x) * up[0] + (gy + w2 * y) * up[1] + gz * up[2]))


def local_axes(lat, lon):
    """The local North, West and up axes at geodetic ``lat``, ``lon`` (rad), in ECEF."""
    sp, cp, sl, cl = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
    return (np.array([-sp * cl, -sp * sl, cp]), np.array([sl, -cl, 0.0]), np.array([cp * cl, cp * sl, sp]))


@borrowing_jit
def ecef(lat, lon, h, a, b):
    """ECEF position (ft) of geodetic latitude, longitude (rad) and height above the ellipsoid ``h`` (ft)."""
    e2 = 1.0 - (b / a) * (b / a)
    sp, cp = math.sin(lat), math.cos(lat)
    n = a / math.sqrt(1.0 - e2 * sp * sp)
    return (n + h) * cp * math.cos(lon), (n + h) * cp * math.sin(lon), (n * (1.0 - e2) + h) * sp


@borrowing_jit
def geodetic_frame(x, y, z, a, b):
    """Geodetic latitude, longitude (rad), height (ft) of the ECEF point ``(x, y, z)``, with their sines and cosines.

    To rounding (:func:`_geodetic_parts`), valid on the polar axis (where the longitude is 0), across the date
    line and for a sphere (``a = b``).  Returns ``(lat, lon, h, sin lat, cos lat, sin lon, cos lon)``.
    """
    num, p, h, sp, cp, sl, cl = _geodetic_parts(x, y, z, a, b)
    return math.atan2(num, p), math.atan2(sl, cl), h, sp, cp, sl, cl


@borrowing_jit
def _geodetic_parts(x, y, z, a, b):
    """:func:`geodetic_frame` without its two angles: ``(num, den, h, sin lat, cos lat, sin lon, cos lon)``, the
    latitude being ``atan2(num, den)`` and the longitude ``atan2(sin lon, cos lon)``.

    Bowring's iteration on the parametric latitude β (Bowring 1976, "Transformation from spatial to geographical
    coordinates", Survey Review 23(181)), ``tan φ = (z + e'² b sin³β) / (p − e² a cos³β)``, ``tan β = (b/a) tan φ``,
    from ``tan β₀ = a z / (b p)``, done twice, in sines and cosines only: the latitude to rounding (2e-16 rad
    over the whole Earth from −1000 ft to 300 000 ft, the poles and the equator included: a test checks it), at
    half the cost of Heikkinen's closed form (1982), which needs a cube root, and as accurate (the height within
    1.4e-8 ft of the point's, both, the rounding of its ECEF coordinates).  The height is the point's offset from
    its foot on the ellipsoid along the normal, ``(p − N cos φ) cos φ + (z − N (1 − e²) sin φ) sin φ``: stationary in φ,
    and one subtraction of nearly equal numbers per component.  A sphere (``a = b``) is exact at once.
    """
    a2, b2 = a * a, b * b
    e2 = 1.0 - b2 / a2
    ep2 = a2 / b2 - 1.0
    p = math.sqrt(x * x + y * y)
    sb, cb = a * z, b * p
    m = 1.0 / math.sqrt(sb * sb + cb * cb)
    sb, cb = sb * m, cb * m
    num = den = sp = cp = 0.0
    for _ in range(2):
        num = z + ep2 * b * sb * sb * sb
        den = p - e2 * a * cb * cb * cb
        m = 1.0 / math.sqrt(num * num + den * den)
        sp, cp = num * m, den * m
        sb, cb = b * sp, a * cp
        m = 1.0 / math.sqrt(sb * sb + cb * cb)
        sb, cb = sb * m, cb * m
    n = a / math.sqrt(1.0 - e2 * sp * sp)
    h = (p - n * cp) * cp + (z - n * (1.0 - e2) * sp) * sp
    if p > 0.0:
        sl, cl = y / p, x / p
    else:
        sl, cl = 0.0, 1.0
    return num, den, h, sp, cp, sl, cl


@borrowing_jit
def geodetic(x, y, z, a, b):
    """Geodetic latitude, longitude (rad) and height above the ellipsoid (ft) of an ECEF point (ft)."""
    lat, lon, h, _, _, _, _ = geodetic_frame(x, y, z, a, b)
    return lat, lon, h


@borrowing_jit
def gravitation(x, y, z, gm, a, j2):
    """The gravitational acceleration (ft/s², no centrifugal term) at ``(x, y, z)`` (ft, ECEF or ECI).

    J2 as JSBSim's ``FGInertial::GetGravityJ2`` (the geocentric latitude's sine is z/r); a point mass (1/R²)
    where ``j2`` is 0.  The field is symmetric about the polar axis, so it reads the same in ECI and ECEF.
    """
    r2 = x * x + y * y + z * z
    r = math.sqrt(r2)
    s2 = z * z / r2
    pre = 1.5 * j2 * (a / r) * (a / r)
    k = gm / (r2 * r)
    kxy = k * (1.0 + pre * (1.0 - 5.0 * s2))
    return -kxy * x, -kxy * y, -k * (1.0 + pre * (3.0 - 5.0 * s2)) * z


@borrowing_jit
def to_view(t, y, planet, out):
    """The view of the ECI state ``y`` at time ``t`` (the module docstring) into ``out`` (13 numbers).

    Also writes the local North, West and up axes in ECI into ``planet[P_AXES:P_AXES + 9]`` (rows), which
    :func:`eci_acceleration` reads.  Returns the geodetic latitude and longitude (rad).

    The view last made is kept in the planet with the time and state it was made of (``P_VIEW``, ``P_KEY``):
    asked for the same time and state again, to the bit, it is copied, not made again.  A step asks twice for
    the view of each state it ends on: after the step (what the ground, the wind and the instruments read) and
    at its next step's start (a JSBSim aircraft's flight controls, the integrator's first evaluation of the
    loads).
    """
    view_in_place(t, y, planet)
    v = P_VIEW
    for i in range(13):
        out[i] = planet[v + i]
    return view_lat_lon(planet)


@borrowing_jit
def view_lat_lon(planet):
    """The geodetic latitude and longitude (rad) of the view last made (:func:`to_view`, :func:`view_in_place`):
    what a JSBSim aircraft's flight controls read as ``position/lat-geod-rad`` and ``position/long-gc-rad``."""
    g = P_ANGLES
    return math.atan2(planet[g], planet[g + 1]), math.atan2(planet[g + 2], planet[g + 3])


@borrowing_jit
def to_view_after(t, y, planet, out, before):
    """:func:`to_view` of the state a step ended on, its quaternion on the hemisphere of the view ``before`` the
    step (so that the view's attitude never jumps between the two signs): one compiled call for a flight's step."""
    lat, lon = to_view(t, y, planet, out)
    if out[6] * before[6] + out[7] * before[7] + out[8] * before[8] + out[9] * before[9] < 0.0:
        out[6], out[7], out[8], out[9] = -out[6], -out[7], -out[8], -out[9]
    return lat, lon


@borrowing_jit
def view_in_place(t, y, planet):
    """:func:`to_view` into the planet's scratch view ``planet[P_VIEW:P_VIEW_END]`` alone (what the loads read),
    made only when ``t`` and ``y`` are not those it was last made of."""
    k = P_KEY
    same = planet[k] == t
    i = 0
    while same and i < 13:
        same = planet[k + 1 + i] == y[i]
        i += 1
    if not same:
        _make_view(t, y, planet)
        planet[k] = t
        for i in range(13):
            planet[k + 1 + i] = y[i]


@borrowing_jit
def _make_view(t, y, planet):
    """:func:`to_view`'s work: the view into ``planet[P_VIEW:P_VIEW_END]``, the local axes into ``P_AXES``, and the
    numbers the latitude and longitude are the angles of into ``P_ANGLES``."""
    out = planet[P_VIEW:P_VIEW_END]
    a, b, om = planet[P_A], planet[P_B], planet[P_OMEGA]
    if planet[P_TURN] != t:
        th = om * t
        planet[P_TURN], planet[P_TURN + 1], planet[P_TURN + 2] = t, math.cos(th), math.sin(th)
    c, s = planet[P_TURN + 1], planet[P_TURN + 2]
    xe = c * y[0] + s * y[1]
    ye = -s * y[0] + c * y[1]
    ze = y[2]
    num, p, h, sp, cp, sl, cl = _geodetic_parts(xe, ye, ze, a, b)
    planet[P_ANGLES], planet[P_ANGLES + 1], planet[P_ANGLES + 2], planet[P_ANGLES + 3] = num, p, sl, cl
    dx, dy, dz = xe - planet[P_ORIGIN], ye - planet[P_ORIGIN + 1], ze - planet[P_ORIGIN + 2]
    out[0] = dx * planet[P_NORTH] + dy * planet[P_NORTH + 1] + dz * planet[P_NORTH + 2]
    out[1] = dx * planet[P_WEST] + dy * planet[P_WEST + 1] + dz * planet[P_WEST + 2]
    out[2] = h
    # the local axes in ECEF
    nx, ny, nz = -sp * cl, -sp * sl, cp
    wx, wy = sl, -cl
    ux, uy, uz = cp * cl, cp * sl, sp
    # velocity relative to the Earth, ECEF: R(−θ) v − Ω × r
    vx = c * y[3] + s * y[4] + om * ye
    vy = -s * y[3] + c * y[4] - om * xe
    vz = y[5]
    out[3] = vx * nx + vy * ny + vz * nz
    out[4] = vx * wx + vy * wy
    out[5] = vx * ux + vy * uy + vz * uz
    # the local axes in ECI: R(θ) applied to each
    k = P_AXES
    planet[k], planet[k + 1], planet[k + 2] = c * nx - s * ny, s * nx + c * ny, nz
    planet[k + 3], planet[k + 4], planet[k + 5] = c * wx - s * wy, s * wx + c * wy, 0.0
    planet[k + 6], planet[k + 7], planet[k + 8] = c * ux - s * uy, s * ux + c * uy, uz
    # q local←body = q local←ECI ⊗ q ECI←body; the rows of local←ECI are the axes in ECI
    lw, lx, ly, lz = quat_of_entries(planet[k], planet[k + 1], planet[k + 2], planet[k + 3], planet[k + 4],
                                     planet[k + 5], planet[k + 6], planet[k + 7], planet[k + 8])
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    out[6], out[7], out[8], out[9] = turn(lw, lx, ly, lz, qw, 1.0, qx, qy, qz)      # q_local←ECI ⊗ q
    # body rates relative to the Earth: ω − R(body←ECI) (0, 0, Ω)
    n2 = qw * qw + qx * qx + qy * qy + qz * qz
    ex, ey, ez = _rotate_back(qw, qx, qy, qz, om)
    out[10] = y[10] - ex / n2
    out[11] = y[11] - ey / n2
    out[12] = y[12] - ez / n2


@borrowing_jit
def _rotate_back(qw, qx, qy, qz, om):
    """The ECI vector ``(0, 0, Ω)`` in the body frame of ``q`` (body → ECI), times |q|²."""
    return _qv(qw, -qx, -qy, -qz, 0.0, 0.0, om)


@borrowing_jit
def _qv(qw, qx, qy, qz, vx, vy, vz):
    """QVRotate ``q ⊗ (0, v) ⊗ q*`` for an unnormalised q (the result times |q|²)."""
    return (vx * (qw * qw + qx * qx - qy * qy - qz * qz) + 2.0 * vy * (qx * qy - qw * qz)
            + 2.0 * vz * (qx * qz + qw * qy),
            2.0 * vx * (qx * qy + qw * qz) + vy * (qw * qw - qx * qx + qy * qy - qz * qz)
            + 2.0 * vz * (qy * qz - qw * qx),
            2.0 * vx * (qx * qz - qw * qy) + 2.0 * vy * (qy * qz + qw * qx)
            + vz * (qw * qw - qx * qx - qy * qy + qz * qz))


@borrowing_jit
def gravity_torque(y, planet):
    """The gravity-gradient torque on the body at the ECI state ``y`` (ft·lbf, body frame), where
    ``planet[P_TORQUE]`` turns it on; zero otherwise.

    ``M = (3 |g| / r) R̂ × (J R̂)``, ``R̂`` the unit vector from the Earth's centre to the CG in the body frame,
    ``r`` its distance, ``|g|`` the gravitation there (:func:`gravitation`) and ``J`` the inertia tensor
    (``planet[P_INERTIA:]``): Harris and Lyle, *Spacecraft Gravitational Torques*, NASA SP-8024 (1969), eq. 2, as
    JSBSim's ``FGAccelerations::CalculatePQRdot`` adds it.  (JSBSim's body axes, y right and z down, are
    flightsim's turned half a turn about x: the cross product keeps its form.)
    """
    if planet[P_TORQUE] == 0.0:
        return 0.0, 0.0, 0.0
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    bx, by, bz = _qv(qw, -qx, -qy, -qz, y[0], y[1], y[2])      # times |q|²: its length is divided out below
    n = math.sqrt(bx * bx + by * by + bz * bz)
    bx, by, bz = bx / n, by / n, bz / n
    gx, gy, gz = gravitation(y[0], y[1], y[2], planet[P_GM], planet[P_A], planet[P_J2])
    k = 3.0 * math.sqrt(gx * gx + gy * gy + gz * gz) / math.sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2])
    j = P_INERTIA
    jx = planet[j] * bx + planet[j + 1] * by + planet[j + 2] * bz
    jy = planet[j + 3] * bx + planet[j + 4] * by + planet[j + 5] * bz
    jz = planet[j + 6] * bx + planet[j + 7] * by + planet[j + 8] * bz
    return k * (by * jz - bz * jy), k * (bz * jx - bx * jz), k * (bx * jy - by * jx)


@borrowing_jit
def eci_acceleration(y, planet, ax, ay, az):
    """The ECI acceleration of the CG: the view's earth-frame acceleration ``(ax, ay, az)`` (its flat gravity
    ``planet[P_G]`` taken out) turned to ECI with the axes :func:`to_view` wrote, plus the gravitation at ``y``."""
    k = P_AXES
    az = az + planet[P_G]
    gx, gy, gz = gravitation(y[0], y[1], y[2], planet[P_GM], planet[P_A], planet[P_J2])
    return (ax * planet[k] + ay * planet[k + 3] + az * planet[k + 6] + gx,
            ax * planet[k + 1] + ay * planet[k + 4] + az * planet[k + 7] + gy,
            ax * planet[k + 2] + ay * planet[k + 5] + az * planet[k + 8] + gz)


@borrowing_jit
def from_geodetic(t, lat, lon, h, view, planet, out):
    """The ECI state at time ``t`` (into ``out``) of an airplane at geodetic ``lat``, ``lon`` (rad), height ``h``
    (ft) whose velocity, attitude and rates are ``view[3:13]`` as :func:`to_view` gives them (relative to the
    Earth, in the local North-West-up frame there)."""
    a, b, om = planet[P_A], planet[P_B], planet[P_OMEGA]
    th = om * t
    c, s = math.cos(th), math.sin(th)
    xe, ye, ze = ecef(lat, lon, h, a, b)
    sp, cp, sl, cl = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
    nx, ny, nz = -sp * cl, -sp * sl, cp
    wx, wy = sl, -cl
    ux, uy, uz = cp * cl, cp * sl, sp
    vn, vw, vu = view[3], view[4], view[5]
    vx = vn * nx + vw * wx + vu * ux - om * ye      # + Ω × r
    vy = vn * ny + vw * wy + vu * uy + om * xe
    vz = vn * nz + vu * uz
    out[0], out[1], out[2] = c * xe - s * ye, s * xe + c * ye, ze
    out[3], out[4], out[5] = c * vx - s * vy, s * vx + c * vy, vz
    r00, r01, r02 = c * nx - s * ny, s * nx + c * ny, nz
    r10, r11, r12 = c * wx - s * wy, s * wx + c * wy, 0.0
    r20, r21, r22 = c * ux - s * uy, s * ux + c * uy, uz
    lw, lx, ly, lz = quat_of_entries(r00, r01, r02, r10, r11, r12, r20, r21, r22)
    # q ECI←body = (q local←ECI)* ⊗ q local←body
    qw, qx, qy, qz = turn(lw, -lx, -ly, -lz, view[6], 1.0, view[7], view[8], view[9])
    n = math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    qw, qx, qy, qz = qw / n, qx / n, qy / n, qz / n
    out[6], out[7], out[8], out[9] = qw, qx, qy, qz
    ex, ey, ez = _qv(qw, -qx, -qy, -qz, 0.0, 0.0, om)
    out[10], out[11], out[12] = view[10] + ex, view[11] + ey, view[12] + ez


@borrowing_jit
def from_view(t, view, planet, out):
    """The ECI state (into ``out``) whose view at time ``t`` is ``view``: :func:`to_view`'s inverse.

    The position: the point at the view's height above the ellipsoid whose tangent-plane North and West
    distances from the start are the view's, found by moving along the start's up axis (a few iterations,
    to 2e-8 ft).  Returns the geodetic latitude and longitude (rad).
    """
    a, b = planet[P_A], planet[P_B]
    o, n_, w_, u_ = P_ORIGIN, P_NORTH, P_WEST, P_UP
    bx = planet[o] + view[0] * planet[n_] + view[1] * planet[w_]
    by = planet[o + 1] + view[0] * planet[n_ + 1] + view[1] * planet[w_ + 1]
    bz = planet[o + 2] + view[0] * planet[n_ + 2] + view[1] * planet[w_ + 2]
    up = view[2]
    lat = lon = 0.0
    for _ in range(60):
        x, y, z = bx + up * planet[u_], by + up * planet[u_ + 1], bz + up * planet[u_ + 2]
        lat, lon, h = geodetic(x, y, z, a, b)
        miss = view[2] - h
        up += miss
        if abs(miss) < 2e-8:           # (the conversion's own rounding: ~1.4e-8 ft)
            break
    from_geodetic(t, lat, lon, view[2], view, planet, out)
    return lat, lon


#: Where the earth frame's origin lies when no latitude and longitude are given: JSBSim's default initial position.
DEFAULT_LAT = 0.0
DEFAULT_LON = 0.0
#: The names ``--planet`` takes.
PLANET_CHOICES = ("flat", "round")


def check_lat(lat):
    """``lat`` (deg) as a float; ValueError naming it beyond ±90° or not a number."""
    lat = float(lat)
    if not (math.isfinite(lat) and -90.0 <= lat <= 90.0):
        raise ValueError(f"latitude: must be within ±90°, got {lat}")
    return lat


def check_lon(lon):
    """``lon`` (deg) as a float in [−180, 180); ValueError naming it when not a finite number."""
    lon = float(lon)
    if not math.isfinite(lon):
        raise ValueError(f"longitude: must be a finite number of degrees, got {lon}")
    return wrap_lon(lon)


def wrap_lon(lon):
    """A longitude (deg) in [−180, 180)."""
    return (lon + 180.0) % 360.0 - 180.0


def resolve(choice, aircraft_planet=None, jsbsim=False):
    """The :class:`Planet` a flight flies on.

    Parameters
    ----------
    choice : None, "flat", "round" or Planet
        None: the aircraft's default — round for a JSBSim aircraft (its file's ``<planet>``, else
        :data:`WGS84`), as JSBSim flies it; flat for flightsim's own.  "round": the aircraft file's planet or
        WGS-84.
    aircraft_planet : Planet, optional
        The aircraft file's ``<planet>``.
    jsbsim : bool
        A JSBSim aircraft.
    """
    if isinstance(choice, Planet):
        return choice
    if choice is None:
        choice = "round" if jsbsim else "flat"
    if choice == "flat":
        return FLAT
    if choice == "round":
        return WGS84 if aircraft_planet is None else aircraft_planet
    raise ValueError(f"planet: must be one of {', '.join(PLANET_CHOICES)}, got {choice!r}")


def flat_geodetic(lat0, lon0, x, y):
    """Latitude and longitude (deg) of the flat earth frame's point ``(x, y)`` (ft North, West) laid on WGS-84 at
    its origin ``(lat0, lon0)`` (deg): the distances over the meridian's and the prime vertical's radii of
    curvature there.  ``x``, ``y`` may be arrays (then so are the latitudes and longitudes)."""
    e2 = 1.0 - (WGS84.b / WGS84.a) ** 2
    s = math.sin(math.radians(lat0))
    w = math.sqrt(1.0 - e2 * s * s)
    meridian = WGS84.a * (1.0 - e2) / (w * w * w)
    prime = WGS84.a / w
    lat = lat0 + np.degrees(x / meridian)
    c = math.cos(math.radians(lat0))
    lon = lon0 - (np.degrees(y / (prime * c)) if c > 1e-12 else 0.0 * y)
    return lat, wrap_lon(lon)


def place_text(lat, lon, digits=5):
    """A latitude and longitude (deg) as a pilot reads them: ``37.61234° N  122.38012° W``."""
    return (f"{abs(lat):.{digits}f}° {'N' if lat >= 0.0 else 'S'}  "
            f"{abs(lon):.{digits}f}° {'E' if lon >= 0.0 else 'W'}")


def describe(planet, lat, lon):
    """The planet and where the earth frame's origin lies on it (deg), in words: ``flat (the earth frame's
    origin at 0.00000° N  0.00000° E)``, ``WGS-84, round and rotating (origin 45.00000° N  10.00000° E)``."""
    where = place_text(lat, lon)
    if not planet.round:
        return f"flat (the earth frame's origin at {where})"
    return f"{planet.name}, round{' and rotating' if planet.omega else ''} (origin {where})"

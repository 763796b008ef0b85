"""JSBSim's sensor components' own parts: their noise, the accelerometer's, gyro's and magnetometer's inputs.

``FGSensor`` (a ``<sensor>`` and the three below, which derive from it) degrades its input in this order: lag,
noise, drift, gain, bias, delay, quantization, clip (``FGSensor::ProcessSensorSignal``).  The lag, drift, gain,
bias, delay and quantization are :mod:`flightsim.physics.jsbsim.program`'s ``_sensor``, ``_delay`` and
``_quantize``; here are the rest, called by the compiled flight controls (:mod:`~flightsim.physics.jsbsim.fcs`):

* **noise** (:func:`noise`) — ``<noise variation="ABSOLUTE|PERCENT" distribution="UNIFORM|GAUSSIAN">``: the
  output plus (or times 1 +) the amplitude times a random number, uniform on [−1, 1) or normal (mean 0,
  standard deviation 1).  JSBSim draws it from its executive's ``RandomNumberGenerator``, one for the whole
  aircraft (its sensors draw from it in turn, frame by frame): C++'s ``std::default_random_engine`` seeded with
  ``simulation/randomseed`` (0 unless set), with ``std::uniform_real_distribution`` and
  ``std::normal_distribution``.  The package's JSBSim is built with GCC, whose library makes these a
  ``minstd_rand0`` engine (``x ← 16807 x mod (2³¹ − 1)``, seed 0 taken as 1), ``generate_canonical`` from two
  draws of it, and Marsaglia's polar method keeping its second number for the next call; flightsim computes
  the same, to the bit, its state (the seed last applied, the engine, the kept normal number and whether one is
  kept) in property slots of its own (:data:`GENERATOR`), so that it travels with the property array; it starts
  where JSBSim's is when a flight begins, after ``RunIC``'s two passes of the flight controls drew their numbers
  (:data:`RUN_IC_PASSES`).  Writing
  ``simulation/randomseed`` re-seeds it at the next draw (JSBSim's ``SRand``: at once; writing the seed it
  already has does not re-seed here).  flightsim's settled passes (trim, a start: the settle switch) draw
  nothing and add no noise, where JSBSim's trim frames draw, so a noisy sensor's numbers are JSBSim's in a flight
  with no trim (and after a seed written once a trim is done).  A sensor's own
  ``fcs/NAME/randomseed`` (JSBSim's per-sensor generator) is not modelled.
* **accelerometer** (:func:`accelerometer`, ``FGAccelerometer``) — the specific force at its ``<location>``:
  the CG's (FGAccelerations' ``vBodyAccel``, forces over mass, the last frame's) plus ``ω̇ × r + ω × (ω × r)``
  (the inertial rates and their rate), ``r`` the location relative to the CG in the body frame (FGMassBalance's
  ``StructuralToBody``, the CG as it is now), turned into the sensor's axes and the ``<axis>`` taken;
* **gyro** (``FGGyro``) — the inertial body rates turned into the sensor's axes (compiled from the rates);
* **magnetometer** (:func:`magnetometer`, ``FGMagnetometer``) — the Earth's field (SimGear's ``calc_magvar``:
  the WMM2005 model to degree 12, its secular variation linear from 2005.0; nT) in the local frame (North,
  East, down) turned into the body frame and the sensor's axes.  As JSBSim's, the field is computed when the
  aircraft loads (at latitude 0, longitude 0, height 0: FGPropagate's position then) and again every 1000th run
  of the sensor, at the position of that frame; the date is the day the aircraft loads (UTC), as
  ``FGMagnetometer`` takes it from the clock, its month counted from 0 as JSBSim passes it.  JSBSim's trim runs
  its models (and so counts the sensor's runs) as many times as its iterations take, flightsim's settled passes
  do not count: in Test_F450_Launch (a ground trim at its second frame) JSBSim computes the field again at frame
  586, flightsim at frame 997 (JSBSim's without the trim) — 411 trim runs apart; the field between is 0°N 0°E's.

The sensor's axes: ``<orientation>`` (roll, pitch, yaw) makes ``FGSensorOrientation``'s matrix (the body vector
into the sensor's frame), of which the ``<axis>``'s row is used (X, Y, Z).  Frames: JSBSim's body axes (x
forward, y right, z down), as the properties the compiled flight controls read and write are JSBSim's; ft/s²,
rad/s, nT.
"""

from __future__ import annotations

import datetime
import math

import numpy as np

from flightsim.math.kernels import borrowing_jit

__all__ = ["GENERATOR", "INERTIAL_UPDATE_RATE", "RANDOM_SEED", "accelerometer", "julian_days",
           "magnetic_field", "magnetometer", "noise", "normal", "orientation_rows", "seed", "uniform"]

#: The executive's random seed (``FGFDMExec::SRand``: 0 unless written).
RANDOM_SEED = "simulation/randomseed"
#: The name of the executive's generator's state (its slots ``…/flightsim-state-0..3``: the seed last applied, the
#: engine's state, the normal number kept, whether one is kept).
GENERATOR = "simulation/flightsim-random"
#: The generator's slots and their values when seeded with 0 (the engine at 1, nothing kept).
GENERATOR_START = (0.0, 1.0, 0.0, 0.0)
#: How many times JSBSim's ``RunIC`` runs the flight controls before the first frame (no time passing): their
#: noisy sensors' draws are taken from the generator before a flight starts (and a magnetometer's runs counted,
#: :data:`MAGNETOMETER_START`).
RUN_IC_PASSES = 2
#: ``minstd_rand0``'s modulus and ``generate_canonical``'s range (its largest value less its smallest, plus 1).
_M = 2147483647
_RANGE = float(_M - 1)
#: FGMagnetometer's ``INERTIAL_UPDATE_RATE``: the field is computed again every this many runs.
INERTIAL_UPDATE_RATE = 1000
#: The slots of a magnetometer's state: its run counter and the field (North, East, down; nT).
MAGNETOMETER_STATE = 4
#: Its counter when the aircraft has loaded (FGMagnetometer's constructor computed the field once) and a script
#: flies its first frame: JSBSim's ``RunIC`` runs the flight controls twice before it.
MAGNETOMETER_START = 3.0
#: FGPropagate's height when the aircraft loads (its location before any initial condition: 0°N 0°E, 4 ft above
#: the WGS-84 ellipsoid), where FGMagnetometer's constructor computes the field first.
LOAD_HEIGHT_FT = 4.0
#: JSBSim's ft → m (FGJSBBase ``fttom``).
_FT_TO_M = 0.3048


# ----------------------------------------------------------------------------- the random numbers


def seed(value):
    """``minstd_rand0::seed(value)`` of JSBSim's seed (an ``int`` taken as ``unsigned int``): the engine's state."""
    x = (int(value) & 0xFFFFFFFF) % _M
    return float(x if x else 1)


@borrowing_jit
def _seed_state(props, g, value):
    """The generator at ``props[g:g + 4]`` seeded with ``value`` (engine and distributions reset)."""
    x = (np.int64(value) & 0xFFFFFFFF) % np.int64(2147483647)
    props[g] = value
    props[g + 1] = float(x) if x != 0 else 1.0
    props[g + 2] = 0.0
    props[g + 3] = 0.0


@borrowing_jit
def _canonical(props, g):
    """``std::generate_canonical<double, 53>`` over the engine at ``props[g + 1]``: two draws, in [0, 1)."""
    total, scale = 0.0, 1.0
    for _ in range(2):
        x = float(np.int64(16807) * np.int64(props[g + 1]) % np.int64(2147483647))
        props[g + 1] = x
        total += (x - 1.0) * scale
        scale *= _RANGE
    value = total / scale
    if value >= 1.0:
        value = np.nextafter(1.0, 0.0)
    return value


@borrowing_jit
def uniform(props, g):
    """``std::uniform_real_distribution<double>(−1, 1)``: a number in [−1, 1) (the generator at ``g``)."""
    return _canonical(props, g) * 2.0 - 1.0


@borrowing_jit
def normal(props, g):
    """``std::normal_distribution<double>(0, 1)`` (libstdc++'s: Marsaglia's polar method, the second number kept
    for the next call)."""
    if props[g + 3] != 0.0:
        props[g + 3] = 0.0
        return props[g + 2]
    while True:
        x = 2.0 * _canonical(props, g) - 1.0
        y = 2.0 * _canonical(props, g) - 1.0
        r2 = x * x + y * y
        if r2 <= 1.0 and r2 != 0.0:
            break
    mult = math.sqrt(-2.0 * math.log(r2) / r2)
    props[g + 2] = x * mult
    props[g + 3] = 1.0
    return y * mult


@borrowing_jit
def noise(props, g, x, amplitude, absolute, gaussian, seed_value, settle):
    """``FGSensor::Noise`` on ``x``: ``x + amplitude·n`` (``absolute``) or ``x (1 + amplitude·n)``, ``n`` the next
    uniform or normal (``gaussian``) number of the generator at ``props[g:g + 4]``, re-seeded first where
    ``seed_value`` (``simulation/randomseed``) is not the seed it last applied.  Settled (``settle``): ``x``."""
    if settle:
        return x
    if seed_value != props[g]:
        _seed_state(props, g, seed_value)
    n = normal(props, g) if gaussian else uniform(props, g)
    if absolute:
        return x + amplitude * n
    return x * (1.0 + amplitude * n)


# ----------------------------------------------------------------------------- the sensors' inputs


def orientation_rows(roll, pitch, yaw):
    """``FGSensorOrientation``'s matrix (rad): the body vector into the sensor's frame, a 3×3 array."""
    cp, sp, cr, sr, cy, sy = (math.cos(pitch), math.sin(pitch), math.cos(roll), math.sin(roll), math.cos(yaw),
                              math.sin(yaw))
    return np.array([[cp * cy, cp * sy, -sp],
                     [sr * sp * cy - cr * sy, sr * sp * sy + cr * cy, sr * cp],
                     [cr * sp * cy + sr * sy, cr * sp * sy - sr * cy, cr * cp]])


@borrowing_jit
def accelerometer(ax, ay, az, pdot, qdot, rdot, p, q, r, rx, ry, rz, m1, m2, m3):
    """``FGAccelerometer::Run``'s input: the specific force at the CG ``a`` (JSBSim's body frame, ft/s²) plus
    ``ω̇ × r + ω × (ω × r)`` (the inertial rates ``ω`` (rad/s) and their rate ``ω̇`` (rad/s²), the location
    ``r`` relative to the CG (ft)), along the sensor's axis ``(m1, m2, m3)`` (a row of its orientation)."""
    cx, cy, cz = q * rz - r * ry, r * rx - p * rz, p * ry - q * rx
    vx = ax + (qdot * rz - rdot * ry) + (q * cz - r * cy)
    vy = ay + (rdot * rx - pdot * rz) + (r * cx - p * cz)
    vz = az + (pdot * ry - qdot * rx) + (p * cy - q * cx)
    return m1 * vx + m2 * vy + m3 * vz


# WMM2005 (SimGear's coremag.cxx): the Gauss coefficients g, h (nT) and their secular variation (nT/year), degree n
# and order m ≤ n ≤ 12, row n.
_G = np.array([
    [0.0] * 13,
    [-29556.8, -1671.7] + [0.0] * 11,
    [-2340.6, 3046.9, 1657.0] + [0.0] * 10,
    [1335.4, -2305.1, 1246.7, 674.0] + [0.0] * 9,
    [919.8, 798.1, 211.3, -379.4, 100.0] + [0.0] * 8,
    [-227.4, 354.6, 208.7, -136.5, -168.3, -14.1] + [0.0] * 7,
    [73.2, 69.7, 76.7, -151.2, -14.9, 14.6, -86.3] + [0.0] * 6,
    [80.1, -74.5, -1.4, 38.5, 12.4, 9.5, 5.7, 1.8] + [0.0] * 5,
    [24.9, 7.7, -11.6, -6.9, -18.2, 10.0, 9.2, -11.6, -5.2] + [0.0] * 4,
    [5.6, 9.9, 3.5, -7.0, 5.1, -10.8, -1.3, 8.8, -6.7, -9.1] + [0.0] * 3,
    [-2.3, -6.3, 1.6, -2.6, 0.0, 3.1, 0.4, 2.1, 3.9, -0.1, -2.3, 0.0, 0.0],
    [2.8, -1.6, -1.7, 1.7, -0.1, 0.1, -0.7, 0.7, 1.8, 0.0, 1.1, 4.1, 0.0],
    [-2.4, -0.4, 0.2, 0.8, -0.3, 1.1, -0.5, 0.4, -0.3, -0.3, -0.1, -0.3, -0.1]])
_H = np.array([
    [0.0] * 13,
    [0.0, 5079.8] + [0.0] * 11,
    [0.0, -2594.7, -516.7] + [0.0] * 10,
    [0.0, -199.9, 269.3, -524.2] + [0.0] * 9,
    [0.0, 281.5, -226.0, 145.8, -304.7] + [0.0] * 8,
    [0.0, 42.4, 179.8, -123.0, -19.5, 103.6] + [0.0] * 7,
    [0.0, -20.3, 54.7, 63.6, -63.4, -0.1, 50.4] + [0.0] * 6,
    [0.0, -61.5, -22.4, 7.2, 25.4, 11.0, -26.4, -5.1] + [0.0] * 5,
    [0.0, 11.2, -21.0, 9.6, -19.8, 16.1, 7.7, -12.9, -0.2] + [0.0] * 4,
    [0.0, -20.1, 12.9, 12.6, -6.7, -8.1, 8.0, 2.9, -7.9, 6.0] + [0.0] * 3,
    [0.0, 2.4, 0.2, 4.4, 4.8, -6.5, -1.1, -3.4, -0.8, -2.3, -7.9, 0.0, 0.0],
    [0.0, 0.3, 1.2, -0.8, -2.5, 0.9, -0.6, -2.7, -0.9, -1.3, -2.0, -1.2, 0.0],
    [0.0, -0.4, 0.3, 2.4, -2.6, 0.6, 0.3, 0.0, 0.0, 0.3, -0.9, -0.4, 0.8]])
_GT = np.zeros((13, 13))
_HT = np.zeros((13, 13))
for _n, _row in enumerate(([8.0, 10.6], [-15.1, -7.8, -0.8], [0.4, -2.6, -1.2, -6.5], [-2.5, 2.8, -7.0, 6.2, -3.8],
                           [-2.8, 0.7, -3.2, -1.1, 0.1, -0.8], [-0.7, 0.4, -0.3, 2.3, -2.1, -0.6, 1.4],
                           [0.2, -0.1, -0.3, 1.1, 0.6, 0.5, -0.4, 0.6],
                           [0.1, 0.3, -0.4, 0.3, -0.3, 0.2, 0.4, -0.7, 0.4]), start=1):
    _GT[_n, :len(_row)] = _row
for _n, _row in enumerate(([0.0, -20.9], [0.0, -23.2, -14.6], [0.0, 5.0, -7.0, -0.6], [0.0, 2.2, 1.6, 5.8, 0.1],
                           [0.0, 0.0, 1.7, 2.1, 4.8, -1.1], [0.0, -0.6, -1.9, -0.4, -0.5, -0.3, 0.7],
                           [0.0, 0.6, 0.4, 0.2, 0.3, -0.8, -0.2, 0.1],
                           [0.0, -0.2, 0.1, 0.3, 0.4, 0.1, -0.2, 0.4, 0.4]), start=1):
    _HT[_n, :len(_row)] = _row
#: WGS-84's semi-axes and the magnetic reference radius (km), as coremag.cxx.
_A_KM, _B_KM, _R0_KM = 6378.137, 6356.7523142, 6371.2


def julian_days(yy, mm, dd):
    """SimGear's ``yymmdd_to_julian_days`` (integer arithmetic as C's, truncating): ``yy`` < 50 is 20yy, else
    19yy (so 126 is 2026)."""
    def div(a, b):
        return int(a / b)

    yy = 2000 + yy if yy < 50 else 1900 + yy
    jd = dd - 32075 + div(1461 * (yy + 4800 + div(mm - 14, 12)), 4)
    jd += div(367 * (mm - 2 - div(mm - 14, 12) * 12), 12)
    return jd - div(3 * div(yy + 4900 + div(mm - 14, 12), 100), 4)


def load_date(now=None):
    """The date ``FGMagnetometer`` takes when the aircraft loads: today (UTC) as ``gmtime`` gives it — years since
    1900, the month from 0 — through :func:`julian_days`."""
    now = datetime.datetime.now(datetime.timezone.utc) if now is None else now
    return float(julian_days(now.year - 1900, now.month - 1, now.day))


#: The WMM2005 epoch's Julian day (coremag's ``yymmdd_to_julian_days(5, 1, 1)``).
_EPOCH = float(julian_days(5, 1, 1))


@borrowing_jit
def _legendre(n, m, c, s):
    """coremag's Schmidt quasi-normalised ``P[n][m]`` and its derivative ``DP[n][m]`` at co-latitude cosine ``c``
    and sine ``s``, by its recurrences (the diagonal, then up the column), the same operations in the same order
    (no arrays: the compiled flight controls allocate nothing)."""
    p, dp = 1.0, 0.0
    if m >= 1:
        p, dp = s, c
    for k in range(2, m + 1):
        root = math.sqrt((2.0 * k - 1) / (2.0 * k))
        p, dp = p * s * root, (dp * s + p * c) * root
    if n == m:
        return p, dp
    if m == 0:
        p2, dp2, p, dp = p, dp, c, -s
        if n == 1:
            return p, dp
        start = 2
    else:
        p2, dp2, start = 0.0, 0.0, m + 1
    for k in range(start, n + 1):
        r1 = math.sqrt((k - 1) * (k - 1) - m * m)
        r2 = 1.0 / math.sqrt(k * k - m * m)
        pk = (p * c * (2.0 * k - 1) - p2 * r1) * r2
        dpk = ((dp * c - p * s) * (2.0 * k - 1) - dp2 * r1) * r2
        p2, dp2, p, dp = p, dp, pk, dpk
    return p, dp


@borrowing_jit
def magnetic_field(lat, lon, h_km, date):
    """SimGear's ``calc_magvar`` field: (North, East, down) nT at geodetic latitude ``lat``, longitude ``lon``
    (rad), height ``h_km`` (km) on Julian day ``date``."""
    sinlat, coslat = math.sin(lat), math.cos(lat)
    a2, b2 = _A_KM * _A_KM, _B_KM * _B_KM
    sr = math.sqrt(a2 * coslat * coslat + b2 * sinlat * sinlat)
    theta = math.atan2(coslat * (h_km * sr + a2), sinlat * (h_km * sr + b2))
    r = math.sqrt(h_km * h_km + 2.0 * h_km * sr + (a2 * a2 - (a2 * a2 - b2 * b2) * sinlat * sinlat)
                  / (a2 - (a2 - b2) * sinlat * sinlat))
    c, s = math.cos(theta), math.sin(theta)
    inv_s = 1.0 / (s + (1.0e-8 if s == 0.0 else 0.0))
    years = (date - _EPOCH) / 365.25
    b_r = b_theta = b_phi = 0.0
    fn0 = _R0_KM / r
    fn = fn0 * fn0
    for n in range(1, 13):
        c1 = c2 = c3 = 0.0
        for m in range(n + 1):
            g = _G[n, m] + years * _GT[n, m]
            h = _H[n, m] + years * _HT[n, m]
            sm, cm = math.sin(m * lon), math.cos(m * lon)
            p, dp = _legendre(n, m, c, s)
            tmp = g * cm + h * sm
            c1 += tmp * p
            c2 += tmp * dp
            c3 += m * (g * sm - h * cm) * p
        fn *= fn0
        b_r += (n + 1) * c1 * fn
        b_theta -= c2 * fn
        b_phi += c3 * fn * inv_s
    psi = theta - (math.pi / 2.0 - lat)
    sp, cp = math.sin(psi), math.cos(psi)
    return -b_theta * cp - b_r * sp, b_phi, b_theta * sp - b_r * cp


@borrowing_jit
def magnetometer(props, s, lat, lon, h_ft, phi, theta, psi, m1, m2, m3, date, settle):
    """``FGMagnetometer::Run``'s input: the field held at ``props[s + 1:s + 4]`` (computed again, at this
    latitude, longitude (rad) and height (ft), when its run counter ``props[s]`` is a multiple of
    :data:`INERTIAL_UPDATE_RATE`; a settled pass does not count) turned into the body frame of the Euler
    angles ``phi``, ``theta``, ``psi`` (rad; FGPropagate's ``Tl2b``) and along the sensor's axis
    ``(m1, m2, m3)``."""
    if not settle:
        if props[s] % INERTIAL_UPDATE_RATE == 0.0:
            props[s + 1], props[s + 2], props[s + 3] = magnetic_field(lat, lon, h_ft * _FT_TO_M * 0.001, date)
        props[s] += 1.0
    n, e, d = props[s + 1], props[s + 2], props[s + 3]
    cf, sf, ct, st, cs, ss = math.cos(phi), math.sin(phi), math.cos(theta), math.sin(theta), math.cos(psi), \
        math.sin(psi)
    bx = ct * cs * n + ct * ss * e - st * d
    by = (sf * st * cs - cf * ss) * n + (sf * st * ss + cf * cs) * e + sf * ct * d
    bz = (cf * st * cs + sf * ss) * n + (cf * st * ss - sf * cs) * e + cf * ct * d
    return m1 * bx + m2 * by + m3 * bz

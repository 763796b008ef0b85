"""Orientation increments: turn a quaternion by a small body-frame rotation vector.

Each formula (and Bourg's first-order ``euler`` increment beside them) is written once, as a scalar function ``dq_<name>(px, py, pz, h)``
returning ``(ca, sa)`` with the increment ``Δq = (ca, sa·φ)``, ``φ = ω h``
(rad).  The same compiled function serves the single-body integrators
(:mod:`flightsim.integrators`) and the vectorised batch kernels in
:data:`KERNELS`, which return ``q ⊗ Δq(φ)`` for ``q`` of shape ``(N, 4)`` and
``φ`` of shape ``(N, 3)``.

The module also holds the other scalar formulas that compiled code needs —
QVRotate, quaternion ↔ matrix — each written once and used both by the
compiled physics and, through the ``*_rows`` loops, by :mod:`flightsim.quat`.

Sources
-------
- ``exact``, ``taylor2``, ``taylor2-half``, ``taylor2-quarter``: the seed note
  "rotate quaternion by vector" (``rotate_quaternion_by_vector_vec`` and
  ``_Fast``, with its half- and quarter-angle refinements).  The seed
  multiplies the increment on the left for an earth-frame φ; ω here is
  body-frame, so the increment goes on the right: ``q ⊗ Δq``.
- ``bullet``: Bullet's ``integrateTransform`` exponential map (after Grassia,
  1998), with its small-rate Taylor branch and its angular-motion clamp.
"""

import math

import numpy as np
from numba import njit, prange

#: Bullet's ANGULAR_MOTION_THRESHOLD: at most a quarter turn of π per step.
BULLET_ANGULAR_MOTION_THRESHOLD = 0.25 * math.pi
#: Bullet's default fixed step, used by the batch ``bullet`` kernel when no dt is given.
BULLET_DEFAULT_DT = 1.0 / 60.0

jit = njit(cache=True, fastmath=False)


@jit
def dq_first_order(px, py, pz, h):
    """Bourg's increment ``q ← q + ½ q ⊗ (0, ω) h``: Δq = (1, φ/2), first order."""
    return 1.0, 0.5


@jit
def dq_exact(px, py, pz, h):
    """Exact increment ``(cos θ/2, sin(θ/2)/θ · φ)``, θ = |φ| (seed, ``_vec``)."""
    r2 = px * px + py * py + pz * pz
    theta = math.sqrt(r2)
    if theta < 1e-8:
        # sin(θ/2)/θ to machine precision, without dividing by ~0.
        return 1.0 - r2 / 8.0, 0.5 - r2 / 48.0
    return math.cos(0.5 * theta), math.sin(0.5 * theta) / theta


@jit
def dq_taylor2(px, py, pz, h):
    """Second-order Taylor increment: ``sa = 1/2 − r²/48``, ``ca = 1 − r²/8`` (seed, ``_Fast``)."""
    r2 = px * px + py * py + pz * pz
    return 1.0 - r2 * (1.0 / 8.0), 0.5 - r2 * (1.0 / 48.0)


@jit
def dq_taylor2_half(px, py, pz, h):
    """Taylor at the half angle, doubled once (+5 multiplications, seed)."""
    r2 = px * px + py * py + pz * pz
    sa = 0.25 - r2 * (1.0 / 384.0)
    ca = 1.0 - r2 * (1.0 / 32.0)
    return ca * ca - sa * sa * r2, 2.0 * ca * sa


@jit
def dq_taylor2_quarter(px, py, pz, h):
    """Taylor at the quarter angle, doubled twice (seed)."""
    r2 = px * px + py * py + pz * pz
    sa = 0.125 - r2 * (1.0 / 3072.0)
    ca = 1.0 - r2 * (1.0 / 128.0)
    ca, sa = ca * ca - sa * sa * r2, 2.0 * ca * sa
    return ca * ca - sa * sa * r2, 2.0 * ca * sa


@jit
def dq_bullet(px, py, pz, h):
    """Bullet's ``integrateTransform`` exponential map, as the engine has it.

    With ω = φ/h and θ = |ω|: θ is clamped so that θh ≤ π/4; if θ < 0.001
    rad/s the axis factor is the Taylor series ``h/2 − h³θ²/48``, otherwise
    ``sin(θh/2)/θ``.  As in Bullet, the factor uses the *clamped* θ but
    multiplies the *unclamped* ω, so when the clamp acts Δq is not unit and,
    once normalised, turns by ``2 atan2(|ω| sin(π/8)/θc, cos(π/8))``.
    Returned as ``(ca, sa)`` with ``sa`` per unit of φ (= factor / h).
    """
    r2 = px * px + py * py + pz * pz
    rate = math.sqrt(r2) / h
    if rate * h > BULLET_ANGULAR_MOTION_THRESHOLD:
        rate = BULLET_ANGULAR_MOTION_THRESHOLD / h
    if rate < 0.001:
        factor = 0.5 * h - (h * h * h) * 0.020833333333 * rate * rate
    else:
        factor = math.sin(0.5 * rate * h) / rate
    return math.cos(0.5 * rate * h), factor / h


@jit
def turn(qw, qx, qy, qz, ca, sa, px, py, pz):
    """``q ⊗ (ca, sa·φ)``: apply a body-frame increment (Hamilton product on the right)."""
    x = sa * px
    y = sa * py
    z = sa * pz
    return (
        qw * ca - qx * x - qy * y - qz * z,
        qw * x + qx * ca + qy * z - qz * y,
        qw * y + qy * ca + qz * x - qx * z,
        qw * z + qz * ca + qx * y - qy * x,
    )


@jit
def qv_rotate(qw, qx, qy, qz, vx, vy, vz):
    """Bourg's QVRotate, ``q ⊗ (0, v) ⊗ q*``, as ``v + 2w(u×v) + 2u×(u×v)``."""
    tx = 2.0 * (qy * vz - qz * vy)
    ty = 2.0 * (qz * vx - qx * vz)
    tz = 2.0 * (qx * vy - qy * vx)
    return (
        vx + qw * tx + (qy * tz - qz * ty),
        vy + qw * ty + (qz * tx - qx * tz),
        vz + qw * tz + (qx * ty - qy * tx),
    )


@jit
def quat_to_matrix(n, x, y, z, R):
    """Fill ``R`` (3, 3) with the rotation matrix body → earth of a unit quaternion (Bourg's r11 … r33).

    Writes into ``R`` rather than returning a new array, so the same function is
    also callable from Python (the integrators' Python path) without boxing.
    """
    R[0, 0] = n * n + x * x - y * y - z * z
    R[0, 1] = 2.0 * (x * y - z * n)
    R[0, 2] = 2.0 * (x * z + y * n)
    R[1, 0] = 2.0 * (x * y + z * n)
    R[1, 1] = n * n - x * x + y * y - z * z
    R[1, 2] = 2.0 * (y * z - x * n)
    R[2, 0] = 2.0 * (x * z - y * n)
    R[2, 1] = 2.0 * (y * z + x * n)
    R[2, 2] = n * n - x * x - y * y + z * z


@jit
def matrix_to_quat(R):
    """Quaternion of a rotation matrix by Shepperd's method (the largest of w, x, y, z as pivot), unnormalised."""
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    if tr >= R[0, 0] and tr >= R[1, 1] and tr >= R[2, 2]:
        s = 2.0 * math.sqrt(1.0 + tr)
        return 0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s
    if R[0, 0] >= R[1, 1] and R[0, 0] >= R[2, 2]:
        s = 2.0 * math.sqrt(1.0 + R[0, 0] - R[1, 1] - R[2, 2])
        return (R[2, 1] - R[1, 2]) / s, 0.25 * s, (R[0, 1] + R[1, 0]) / s, (R[0, 2] + R[2, 0]) / s
    if R[1, 1] >= R[2, 2]:
        s = 2.0 * math.sqrt(1.0 - R[0, 0] + R[1, 1] - R[2, 2])
        return (R[0, 2] - R[2, 0]) / s, (R[0, 1] + R[1, 0]) / s, 0.25 * s, (R[1, 2] + R[2, 1]) / s
    s = 2.0 * math.sqrt(1.0 - R[0, 0] - R[1, 1] + R[2, 2])
    return (R[1, 0] - R[0, 1]) / s, (R[0, 2] + R[2, 0]) / s, (R[1, 2] + R[2, 1]) / s, 0.25 * s

@jit
def rotate_rows(q, v, out):
    """``out[i] = QVRotate(q[i], v[i])`` for rows of (N, 4) and (N, 3)."""
    for i in range(q.shape[0]):
        out[i, 0], out[i, 1], out[i, 2] = qv_rotate(q[i, 0], q[i, 1], q[i, 2], q[i, 3], v[i, 0], v[i, 1], v[i, 2])
    return out


@jit
def matrix_rows(q, out):
    """``out[i]`` = the rotation matrix of ``q[i]``."""
    for i in range(q.shape[0]):
        quat_to_matrix(q[i, 0], q[i, 1], q[i, 2], q[i, 3], out[i])
    return out


@jit
def quat_rows(R, out):
    """``out[i]`` = the (unnormalised) quaternion of ``R[i]``."""
    for i in range(R.shape[0]):
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = matrix_to_quat(R[i])
    return out


#: name → scalar increment function, in the order the HUD lists them.
INCREMENTS = {
    "euler": dq_first_order,
    "exact": dq_exact,
    "taylor2": dq_taylor2,
    "taylor2-half": dq_taylor2_half,
    "taylor2-quarter": dq_taylor2_quarter,
    "bullet": dq_bullet,
}
#: name → the integer that selects it in :func:`increment` (compiled code takes no function arguments).
INCREMENT_IDS = {name: k for k, name in enumerate(INCREMENTS)}


@jit
def increment(kind, px, py, pz, h):
    """``(ca, sa)`` of the increment numbered ``kind`` in :data:`INCREMENT_IDS`.

    Compiled code selects a formula by number rather than by passing a
    function, so every compiled function is a plain module-level one that
    numba caches on disk.
    """
    if kind == 0:
        return dq_first_order(px, py, pz, h)
    if kind == 1:
        return dq_exact(px, py, pz, h)
    if kind == 2:
        return dq_taylor2(px, py, pz, h)
    if kind == 3:
        return dq_taylor2_half(px, py, pz, h)
    if kind == 4:
        return dq_taylor2_quarter(px, py, pz, h)
    return dq_bullet(px, py, pz, h)


@njit(cache=True, parallel=True)
def batch_turn(q, phi, h, kind, out):
    """``out[i] = q[i] ⊗ Δq(φ[i])`` with the increment numbered ``kind``, rows shared among the cores."""
    for i in prange(q.shape[0]):
        px = phi[i, 0]
        py = phi[i, 1]
        pz = phi[i, 2]
        ca, sa = increment(kind, px, py, pz, h)
        w, x, y, z = turn(q[i, 0], q[i, 1], q[i, 2], q[i, 3], ca, sa, px, py, pz)
        out[i, 0] = w
        out[i, 1] = x
        out[i, 2] = y
        out[i, 3] = z
    return out


def _batch_kernel(name):
    kind = INCREMENT_IDS[name]

    def kernel(q, phi, dt=BULLET_DEFAULT_DT, out=None):
        q = np.ascontiguousarray(q, dtype=np.float64)
        phi = np.ascontiguousarray(phi, dtype=np.float64)
        if q.ndim != 2 or q.shape[1] != 4:
            raise ValueError(f"q: expected shape (N, 4), got {q.shape}")
        if phi.shape != (q.shape[0], 3):
            raise ValueError(f"phi: expected shape ({q.shape[0]}, 3), got {phi.shape}")
        if not (math.isfinite(dt) and dt > 0.0):
            raise ValueError(f"dt: must be finite and > 0, got {dt}")
        if out is None:
            out = np.empty_like(q)
        return batch_turn(q, phi, float(dt), kind, out)

    kernel.__name__ = f"kernel_{name.replace('-', '_')}"
    kernel.__doc__ = (
        f"Batch ``{name}`` update: ``q[i] ⊗ Δq(phi[i])`` for q (N, 4), body-frame phi (N, 3) rad.\n\n"
        f"See :func:`{INCREMENTS[name].py_func.__name__}`. ``dt`` (s) matters only to ``bullet``."
    )
    return kernel


#: name → batch kernel ``f(q, phi, dt=1/60, out=None) -> q ⊗ Δq(phi)``.
KERNELS = {name: _batch_kernel(name) for name in INCREMENTS}


def increment_error(name, angle, h=BULLET_DEFAULT_DT):
    """One step's error of an increment against the exact exponential.

    Parameters
    ----------
    name : str
        A key of :data:`INCREMENTS`.
    angle : float
        Rotation angle of the step, ``|φ| = |ω| h`` (rad), about a fixed axis.
    h : float
        Step (s); only ``bullet`` depends on it.

    Returns
    -------
    (float, float)
        ``(angle_error, norm_error)``: the rotation-angle error (rad) of the
        normalised increment and ``|Δq| − 1`` before normalising.
    """
    axis = np.array([0.48, -0.6, 0.64])  # unit, no symmetry with the body axes
    px, py, pz = axis * angle
    ca, sa = INCREMENTS[name](px, py, pz, h)
    s = abs(sa) * angle
    got = 2.0 * math.atan2(s, ca)
    return abs(got - angle), math.hypot(ca, s) - 1.0

"""Rigid-body time steps: one function per method, each advancing the 13-number state by one step ``h`` in place.

Every step advances the same state, a float64 array of 13 numbers::

    y = [x(3) earth position, v(3) earth velocity, q(4) body→earth [w,x,y,z], ω(3) body rad/s]

given a *loads* function ``loads(t, y, params) -> (ax, ay, az, mx, my, mz)``:
the earth-frame acceleration of the centre of mass (gravity and the landing
gear's ground reaction included) and the body-frame moment about it.  Angular
velocity goes through the full inertia tensor by Euler's equations,
``I dω/dt = M − ω × Iω``; orientation follows ``dq/dt = ½ q ⊗ (0, ω)`` for
body-frame ω (Bourg, ch. 11), so every orientation step is ``q ← q ⊗ Δq``.

All steps are one-step methods on this one state (none keeps a history), so
switching between two steps never makes the state jump.

The steps are module-level functions compiled (and cached on disk) by numba
around :func:`flightsim.physics.aero.airplane_loads` (imported as ``loads``),
which with no elements is also the free body's loads
(:func:`flightsim.physics.aero.free_body`); the very same source runs as plain
Python with a Python loads callable
(:func:`flightsim.physics.step_entries.python_step`).

A step is ``step_<name>(y, t, h, params, inertia, inertia_inv, renorm, increment_id)
-> |q| − 1`` (:data:`STEP_ARGS`), compiled and evaluating ``loads(t, y,
params)`` (directly or through a helper of this module).  Every such function
of this module is a step: :data:`STEPS` numbers them in the order they are
written here, and :func:`step_by_number` runs one by its number (an if-chain
generated from :data:`STEPS` by :func:`flightsim.math.compiler.compiled_dispatch`).
The registry, :data:`flightsim.physics.integrators.INTEGRATORS`, names them.
"""

import math
from types import FunctionType

import numpy as np

from flightsim.math import kernels
from flightsim.math.compiler import borrowing_entry_jit, borrowing_inline_jit, borrowing_jit, compiled_dispatch, jit
from flightsim.math.kernels import matrix_to_quat, quat_to_matrix, turn
from flightsim.physics.aero import D_UNCONVERGED, loads_inline
from flightsim.physics.aero import airplane_loads as loads

#: Slices of the state vector.
X, V, Q, W = slice(0, 3), slice(3, 6), slice(6, 10), slice(10, 13)
STATE_SIZE = 13
#: What a step returns for a step or increment number outside the registry, in place of ``|q| − 1``
#: (which is never below −1): a status, not a result — :func:`flightsim.physics.integrators.check_selectors`
#: turns it into an error.
UNKNOWN_SELECTOR = -2.0


# --------------------------------------------------------------------------- helpers


@borrowing_jit
def omega_dot(wx, wy, wz, mx, my, mz, inertia, inertia_inv):
    """Euler's equations, body frame: ``dω/dt = I⁻¹ (M − ω × Iω)`` (rad/s²)."""
    hx = inertia[0, 0] * wx + inertia[0, 1] * wy + inertia[0, 2] * wz
    hy = inertia[1, 0] * wx + inertia[1, 1] * wy + inertia[1, 2] * wz
    hz = inertia[2, 0] * wx + inertia[2, 1] * wy + inertia[2, 2] * wz
    rx = mx - (wy * hz - wz * hy)
    ry = my - (wz * hx - wx * hz)
    rz = mz - (wx * hy - wy * hx)
    return (
        inertia_inv[0, 0] * rx + inertia_inv[0, 1] * ry + inertia_inv[0, 2] * rz,
        inertia_inv[1, 0] * rx + inertia_inv[1, 1] * ry + inertia_inv[1, 2] * rz,
        inertia_inv[2, 0] * rx + inertia_inv[2, 1] * ry + inertia_inv[2, 2] * rz,
    )


@borrowing_jit
def store_q(y, qw, qx, qy, qz, renorm):
    """Write q into the state, renormalised if asked; return ``|q| − 1`` before that.

    Returns NaN instead when any entry of the state is no longer finite, so a
    caller can stop on one cheap check.
    """
    n = math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    if renorm and n > 0.0:
        qw /= n
        qx /= n
        qy /= n
        qz /= n
    y[6] = qw
    y[7] = qx
    y[8] = qy
    y[9] = qz
    total = 0.0
    for k in range(y.shape[0]):
        total += y[k]
    if not (math.isfinite(total) and math.isfinite(n) and n > 0.0):
        return math.nan
    return n - 1.0


@borrowing_jit
def cross(ax, ay, az, bx, by, bz):
    """Vector product ``a × b``."""
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@borrowing_jit
def group_turn(increment_id, qw, qx, qy, qz, px, py, pz, h):
    """``q ⊗ Δq(φ)`` with the increment numbered ``increment_id``; the exact exponential when ``increment_id < 0``."""
    if increment_id < 0:
        return exp_turn(qw, qx, qy, qz, px, py, pz)
    ca, sa = kernels.increment(increment_id, px, py, pz, h)
    return turn(qw, qx, qy, qz, ca, sa, px, py, pz)


@borrowing_jit
def exp_turn(qw, qx, qy, qz, px, py, pz):
    """``q ⊗ Exp(φ)``: turn by the body-frame rotation vector φ exactly."""
    ca, sa = kernels.dq_exact(px, py, pz, 1.0)
    return turn(qw, qx, qy, qz, ca, sa, px, py, pz)


# --------------------------------------------------------------------------- steps
# Every step has the signature step(y, t, h, params, inertia, inertia_inv, renorm, increment_id) -> |q|-1
# (STEP_ARGS) and evaluates the module-level ``loads`` (directly or through a helper of this
# module).  They are plain module-level compiled functions, so numba caches them on disk;
# :func:`flightsim.physics.step_entries.python_step` runs the same source as Python with other loads.
# A new step is written here (numbered in STEPS by its place in this file) and named by an
# ``Integrator`` entry of :data:`flightsim.physics.integrators.INTEGRATORS`; nothing else lists it.


@borrowing_jit
def translate(y, h, ax, ay, az):
    """Bourg's order for the centre of mass: v += a h, then x += v h with the new v."""
    y[3] += ax * h
    y[4] += ay * h
    y[5] += az * h
    y[0] += y[3] * h
    y[1] += y[4] * h
    y[2] += y[5] * h


@borrowing_jit
def euler_kick(y, h, ax, ay, az, dx, dy, dz):
    """Bourg's order for the rest of the state: v += a h, then x += v h with the new v, ω += α h."""
    translate(y, h, ax, ay, az)
    y[10] += dx * h
    y[11] += dy * h
    y[12] += dz * h


@borrowing_jit
def step_semi_implicit(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Bourg's StepSimulation order with the orientation update ``q ⊗ Δq(ω_new h)``.

    Loads; v += a h; x += v h (new v); ω += α h; q ← q ⊗ Δq(ω h) with the
    new ω and the increment numbered ``increment_id`` (:data:`flightsim.kernels.INCREMENT_IDS`);
    renormalise.  First order on the coupled state.  ``increment_id`` must name an
    increment: any other returns :data:`UNKNOWN_SELECTOR`, the state untouched.
    """
    if increment_id < 0 or increment_id >= kernels.INCREMENT_COUNT:
        return UNKNOWN_SELECTOR
    ax, ay, az, mx, my, mz = loads(t, y, params)
    dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
    euler_kick(y, h, ax, ay, az, dx, dy, dz)
    px = y[10] * h
    py = y[11] * h
    pz = y[12] * h
    ca, sa = kernels.increment(increment_id, px, py, pz, h)
    qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], ca, sa, px, py, pz)
    return store_q(y, qw, qx, qy, qz, renorm)


@jit
def step_matrix(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Integrate R directly: ``R ← R + h R Ω(ω)`` (body-frame ω), re-orthonormalised.

    Translation and ω as in Bourg's step.  Re-orthonormalisation iterates
    the Newton step of the polar decomposition, ``R ← (3R − R Rᵀ R)/2``,
    until RᵀR = I to rounding (symmetric, so no axis is favoured, unlike
    Gram–Schmidt).  The result is reported as a quaternion on the same
    hemisphere as the previous one.
    """
    ax, ay, az, mx, my, mz = loads(t, y, params)
    dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
    euler_kick(y, h, ax, ay, az, dx, dy, dz)
    R = np.empty((3, 3))
    quat_to_matrix(y[6], y[7], y[8], y[9], R)
    om = np.zeros((3, 3))
    om[0, 1] = -y[12] * h
    om[0, 2] = y[11] * h
    om[1, 0] = y[12] * h
    om[1, 2] = -y[10] * h
    om[2, 0] = -y[11] * h
    om[2, 1] = y[10] * h
    R = R + R @ om
    if renorm:
        for _ in range(8):
            RtR = R.T @ R
            off = np.abs(RtR - np.eye(3)).max()
            if off < 1e-15:
                break
            R = 1.5 * R - 0.5 * (R @ RtR)
    qw, qx, qy, qz = matrix_to_quat(R)
    if qw * y[6] + qx * y[7] + qy * y[8] + qz * y[9] < 0.0:
        qw, qx, qy, qz = -qw, -qx, -qy, -qz
    return store_q(y, qw, qx, qy, qz, False)


@borrowing_jit
def step_buss2(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Buss's augmented second-order attitude step (Buss 2000; JSBSim ``eBuss2``).

    ``ω̄ = ω + ½ h α + (h²/12) ω × α`` — the body-frame sign of Buss's
    ``α × ω`` term for earth-frame ω — then ``q ← q ⊗ Exp(h ω̄)``; ω by
    rectangular Euler (JSBSim's default rate integrator), translation as Bourg.
    """
    ax, ay, az, mx, my, mz = loads(t, y, params)
    wx, wy, wz = y[10], y[11], y[12]
    dx, dy, dz = omega_dot(wx, wy, wz, mx, my, mz, inertia, inertia_inv)
    cx, cy, cz = cross(wx, wy, wz, dx, dy, dz)
    c = h * h / 12.0
    px = (wx + 0.5 * h * dx + c * cx) * h
    py = (wy + 0.5 * h * dy + c * cy) * h
    pz = (wz + 0.5 * h * dz + c * cz) * h
    qw, qx, qy, qz = exp_turn(y[6], y[7], y[8], y[9], px, py, pz)
    euler_kick(y, h, ax, ay, az, dx, dy, dz)
    return store_q(y, qw, qx, qy, qz, renorm)


@borrowing_inline_jit
def derivative(t, y, params, inertia, inertia_inv):
    """``dy/dt`` as a 13-tuple: [v, a, ½ q ⊗ (0, ω), I⁻¹(M − ω × Iω)].

    Written into its compiled caller, and the loads with it (:func:`flightsim.physics.aero.loads_inline`:
    for flightsim's own aircraft on a flat planet no call passes the loads' parameters): call it from one place
    in a compiled function (:func:`step_rk4` calls it in its loop over the stages).
    """
    ax, ay, az, mx, my, mz = loads_inline(t, y, params)
    qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], 0.0, 0.5, y[10], y[11], y[12])  # ca = 0, sa = ½: ½ q ⊗ (0, ω)
    dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
    return y[3], y[4], y[5], ax, ay, az, qw, qx, qy, qz, dx, dy, dz


@borrowing_entry_jit
def rk4_deriv(t, y, params, inertia, inertia_inv, out):
    """``out = dy/dt`` (:func:`derivative` into an array)."""
    k = derivative(t, y, params, inertia, inertia_inv)
    for i in range(STATE_SIZE):
        out[i] = k[i]


@borrowing_jit
def twice_added(s, k):
    """``s + 2 k`` of two 13-tuples, entry by entry."""
    return (s[0] + 2.0 * k[0], s[1] + 2.0 * k[1], s[2] + 2.0 * k[2], s[3] + 2.0 * k[3], s[4] + 2.0 * k[4],
            s[5] + 2.0 * k[5], s[6] + 2.0 * k[6], s[7] + 2.0 * k[7], s[8] + 2.0 * k[8], s[9] + 2.0 * k[9],
            s[10] + 2.0 * k[10], s[11] + 2.0 * k[11], s[12] + 2.0 * k[12])


@borrowing_jit
def added(s, k):
    """``s + k`` of two 13-tuples, entry by entry."""
    return (s[0] + k[0], s[1] + k[1], s[2] + k[2], s[3] + k[3], s[4] + k[4], s[5] + k[5], s[6] + k[6],
            s[7] + k[7], s[8] + k[8], s[9] + k[9], s[10] + k[10], s[11] + k[11], s[12] + k[12])


@borrowing_jit
def step_rk4(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Classical Runge–Kutta 4 on the whole state with ``dq/dt = ½ q ⊗ (0, ω)``.

    Four load evaluations per step; q renormalised at the end.  The stages
    are evaluated in ``y`` itself, the start state and the slopes held as
    tuples (no array is allocated); each number is the same expression as
    ``y + ½h k1`` … ``y + (h/6)(k1 + 2 k2 + 2 k3 + k4)`` on arrays (the sum
    gathered stage by stage in the same order: ``((k1 + 2 k2) + 2 k3) + k4``).
    The four stages are one loop around one :func:`derivative`, so the
    compiled step holds one copy of the loads, written into it.
    """
    y0 = (y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7], y[8], y[9], y[10], y[11], y[12])
    total = y0
    for stage in range(4):
        if stage == 0:
            ts = t
        elif stage < 3:
            ts = t + 0.5 * h
        else:
            ts = t + h
        k = derivative(ts, y, params, inertia, inertia_inv)
        if stage == 0:
            total = k
        elif stage < 3:
            total = twice_added(total, k)
        else:
            total = added(total, k)
        if stage < 3:
            c = h if stage == 2 else 0.5 * h
            for i in range(STATE_SIZE):
                y[i] = y0[i] + c * k[i]
    for i in range(STATE_SIZE):
        y[i] = y0[i] + (h / 6.0) * total[i]
    return store_q(y, y[6], y[7], y[8], y[9], renorm)


@jit
def rkmk4_stage(t, y0, dy, u, params, inertia, inertia_inv, out, ku, increment_id, h):
    """One RKMK4 stage at x, v, ω = y0 + dy and q = q0 ⊗ Exp(u) (Exp by the increment ``increment_id``).

    Writes the derivatives of x, v, ω into ``out`` and ``dexp⁻¹_{−u}(ω)`` into ``ku``.
    """
    ys = y0 + dy
    ys[6], ys[7], ys[8], ys[9] = group_turn(increment_id, y0[6], y0[7], y0[8], y0[9], u[0], u[1], u[2], h)
    ax, ay, az, mx, my, mz = loads(t, ys, params)
    out[0:3] = ys[3:6]
    out[3] = ax
    out[4] = ay
    out[5] = az
    out[10], out[11], out[12] = omega_dot(ys[10], ys[11], ys[12], mx, my, mz, inertia, inertia_inv)
    wx, wy, wz = ys[10], ys[11], ys[12]
    c1x, c1y, c1z = cross(u[0], u[1], u[2], wx, wy, wz)
    c2x, c2y, c2z = cross(u[0], u[1], u[2], c1x, c1y, c1z)
    ku[0] = wx + 0.5 * c1x + c2x / 12.0
    ku[1] = wy + 0.5 * c1y + c2y / 12.0
    ku[2] = wz + 0.5 * c1z + c2z / 12.0


@jit
def step_rkmk4(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Runge–Kutta–Munthe-Kaas 4: RK4 in the Lie algebra, q moved only by exponentials.

    The orientation is ``q0 ⊗ Exp(u)``; stage ``i`` evaluates the loads at
    ``q0 ⊗ Exp(u_i)`` and maps the body rate back to ``u̇`` with
    ``dexp⁻¹_{−u}(ω) = ω + ½ u × ω + (1/12) u × (u × ω)`` (truncated where
    4th order allows).  Position, velocity and ω follow the classical RK4
    tableau.  |q| = 1 to rounding, with no renormalisation (Munthe-Kaas 1999).

    With ``increment_id ≥ 0`` the group exponential is replaced by one of the seed's
    increments: ω is then no longer advanced by first-order Euler, so the
    increment's own error is what separates the variants.  An ``increment_id`` that
    names no increment (below −1, or past the last) returns
    :data:`UNKNOWN_SELECTOR`, the state untouched.
    """
    if increment_id < -1 or increment_id >= kernels.INCREMENT_COUNT:
        return UNKNOWN_SELECTOR
    k1 = np.zeros(13)
    k2 = np.zeros(13)
    k3 = np.zeros(13)
    k4 = np.zeros(13)
    u1 = np.empty(3)
    u2 = np.empty(3)
    u3 = np.empty(3)
    u4 = np.empty(3)
    zero = np.zeros(3)
    zeros = np.zeros(13)
    rkmk4_stage(t, y, zeros, zero, params, inertia, inertia_inv, k1, u1, increment_id, h)
    rkmk4_stage(t + 0.5 * h, y, 0.5 * h * k1, 0.5 * h * u1, params, inertia, inertia_inv, k2, u2, increment_id, h)
    rkmk4_stage(t + 0.5 * h, y, 0.5 * h * k2, 0.5 * h * u2, params, inertia, inertia_inv, k3, u3, increment_id, h)
    rkmk4_stage(t + h, y, h * k3, h * u3, params, inertia, inertia_inv, k4, u4, increment_id, h)
    u = (h / 6.0) * (u1 + 2.0 * u2 + 2.0 * u3 + u4)
    qw, qx, qy, qz = group_turn(increment_id, y[6], y[7], y[8], y[9], u[0], u[1], u[2], h)
    dy = (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    y[0:6] += dy[0:6]
    y[10:13] += dy[10:13]
    return store_q(y, qw, qx, qy, qz, renorm)


# --------------------------------------------------------------------------- spinning bodies
# The integrators game and robotics engines (and numerical analysts) use for a fast-spinning
# asymmetric body: implicit or clamped gyroscopic terms, a symplectic splitting, implicit midpoint.


@borrowing_jit
def mat_vec(A, x, y, z):
    """``A (x, y, z)`` for a 3×3 array ``A``."""
    return (A[0, 0] * x + A[0, 1] * y + A[0, 2] * z,
            A[1, 0] * x + A[1, 1] * y + A[1, 2] * z,
            A[2, 0] * x + A[2, 1] * y + A[2, 2] * z)


@borrowing_jit
def solve33(J, bx, by, bz):
    """``J⁻¹ b`` for a 3×3 array ``J`` by Cramer's rule (as Bullet's ``btMatrix3x3::solve33``)."""
    c0x = J[1, 1] * J[2, 2] - J[1, 2] * J[2, 1]
    c0y = J[1, 2] * J[2, 0] - J[1, 0] * J[2, 2]
    c0z = J[1, 0] * J[2, 1] - J[1, 1] * J[2, 0]
    det = J[0, 0] * c0x + J[0, 1] * c0y + J[0, 2] * c0z
    if det == 0.0:
        return math.nan, math.nan, math.nan
    x = (bx * c0x + J[0, 1] * (J[1, 2] * bz - by * J[2, 2]) + J[0, 2] * (by * J[2, 1] - J[1, 1] * bz)) / det
    y = (J[0, 0] * (by * J[2, 2] - J[1, 2] * bz) + bx * c0y + J[0, 2] * (J[1, 0] * bz - by * J[2, 0])) / det
    z = (J[0, 0] * (J[1, 1] * bz - by * J[2, 1]) + J[0, 1] * (by * J[2, 0] - J[1, 0] * bz) + bx * c0z) / det
    return x, y, z


@borrowing_jit
def gyro_jacobian(wx, wy, wz, inertia, c, J):
    """``J = I + c (ω̃ I − (Iω)~)``: the Jacobian of ``I ω + c ω × Iω`` in ω (Bullet's ``evalEulerEqnDeriv``)."""
    hx, hy, hz = mat_vec(inertia, wx, wy, wz)
    for j in range(3):
        ix, iy, iz = inertia[0, j], inertia[1, j], inertia[2, j]
        # column j of ω̃ I is ω × (I e_j); of (Iω)~ it is (Iω) × e_j
        cx, cy, cz = cross(wx, wy, wz, ix, iy, iz)
        ex = 1.0 if j == 0 else 0.0
        ey = 1.0 if j == 1 else 0.0
        ez = 1.0 if j == 2 else 0.0
        dx, dy, dz = cross(hx, hy, hz, ex, ey, ez)
        J[0, j] = inertia[0, j] + c * (cx - dx)
        J[1, j] = inertia[1, j] + c * (cy - dy)
        J[2, j] = inertia[2, j] + c * (cz - dz)


@jit
def step_gyro_implicit(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Bullet's implicit gyroscopic step (``btRigidBody::computeGyroscopicImpulseImplicit_Body``).

    In the body frame, one Newton step from ``ω`` of the backward-Euler
    gyroscopic equation ``I (ω' − ω) + h ω' × Iω' = 0``:
    ``ω' = ω − J⁻¹ (h ω × Iω)`` with ``J = I + h (ω̃ I − (Iω)~)``; the external
    moment is added explicitly, ``ω' += h I⁻¹ M`` (Bullet's
    ``m_externalTorqueImpulse``); v, x by Bourg's order; then
    ``q ← q ⊗ Exp(h ω')``.  First order; backward Euler takes energy out, so
    a fast spin never blows up.
    """
    ax, ay, az, mx, my, mz = loads(t, y, params)
    wx, wy, wz = y[10], y[11], y[12]
    hx, hy, hz = mat_vec(inertia, wx, wy, wz)
    fx, fy, fz = cross(wx, wy, wz, hx, hy, hz)
    J = np.empty((3, 3))
    gyro_jacobian(wx, wy, wz, inertia, h, J)
    dx, dy, dz = solve33(J, h * fx, h * fy, h * fz)
    ex, ey, ez = mat_vec(inertia_inv, mx, my, mz)
    y[10] = wx - dx + h * ex
    y[11] = wy - dy + h * ey
    y[12] = wz - dz + h * ez
    translate(y, h, ax, ay, az)
    qw, qx, qy, qz = exp_turn(y[6], y[7], y[8], y[9], y[10] * h, y[11] * h, y[12] * h)
    return store_q(y, qw, qx, qy, qz, renorm)


@borrowing_jit
def step_gyro_clamped(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Jolt's explicit gyroscopic step with the angular momentum's magnitude kept (``ApplyGyroscopicForce``).

    Body-frame ``L = Iω``; ``L' = L − h ω × L``, rescaled to ``|L'| = |L|``
    ("to avoid introducing energy into the system due to the Euler step",
    Jolt's ``MotionProperties::ApplyGyroscopicForceInternal``; Avian does the
    same); ``ω' = I⁻¹ L' + h I⁻¹ M``; v, x by Bourg's order;
    ``q ← q ⊗ Exp(h ω')``.  First order.
    """
    ax, ay, az, mx, my, mz = loads(t, y, params)
    wx, wy, wz = y[10], y[11], y[12]
    lx, ly, lz = mat_vec(inertia, wx, wy, wz)
    cx, cy, cz = cross(wx, wy, wz, lx, ly, lz)
    nx, ny, nz = lx - h * cx, ly - h * cy, lz - h * cz
    n2 = nx * nx + ny * ny + nz * nz
    s = math.sqrt((lx * lx + ly * ly + lz * lz) / n2) if n2 > 0.0 else 0.0
    gx, gy, gz = mat_vec(inertia_inv, nx * s + h * mx, ny * s + h * my, nz * s + h * mz)
    y[10], y[11], y[12] = gx, gy, gz
    translate(y, h, ax, ay, az)
    qw, qx, qy, qz = exp_turn(y[6], y[7], y[8], y[9], gx * h, gy * h, gz * h)
    return store_q(y, qw, qx, qy, qz, renorm)


@jit
def principal_axes(inertia, axes, moments):
    """Principal axes of the inertia tensor (columns of ``axes``, body frame) and the moments about them.

    Cyclic Jacobi rotations (Golub & Van Loan, §8.5), to rounding; a diagonal
    tensor is returned as it is.
    """
    A = inertia.copy()
    for i in range(3):
        for j in range(3):
            axes[i, j] = 1.0 if i == j else 0.0
    for _ in range(12):
        off = abs(A[0, 1]) + abs(A[0, 2]) + abs(A[1, 2])
        if off <= 1e-300 or off <= 1e-17 * (abs(A[0, 0]) + abs(A[1, 1]) + abs(A[2, 2])):
            break
        for p, r in ((0, 1), (0, 2), (1, 2)):
            if A[p, r] == 0.0:
                continue
            theta = (A[r, r] - A[p, p]) / (2.0 * A[p, r])
            tt = (1.0 if theta >= 0.0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1.0))
            c = 1.0 / math.sqrt(tt * tt + 1.0)
            s = tt * c
            for k in range(3):  # A ← Jᵀ A J with the rotation J in the (p, r) plane
                akp, akr = A[k, p], A[k, r]
                A[k, p] = c * akp - s * akr
                A[k, r] = s * akp + c * akr
            for k in range(3):
                apk, ark = A[p, k], A[r, k]
                A[p, k] = c * apk - s * ark
                A[r, k] = s * apk + c * ark
            for k in range(3):
                vkp, vkr = axes[k, p], axes[k, r]
                axes[k, p] = c * vkp - s * vkr
                axes[k, r] = s * vkp + c * vkr
    for i in range(3):
        moments[i] = A[i, i]


@borrowing_jit
def free_rotor(qw, qx, qy, qz, L, ux, uy, uz, moment, tau):
    """Exact flow for ``tau`` of the free rotor ``H = (u·L)²/(2 I_u)`` about the principal axis u.

    The body turns about u by ``θ = (u·L) tau / I_u``: ``q ← q ⊗ Exp(θ u)``,
    and the body-frame momentum ``L`` turns the other way, ``L ← Rot(u, −θ) L``
    (Rodrigues), so the earth-frame momentum ``R(q) L`` does not change.
    """
    lu = ux * L[0] + uy * L[1] + uz * L[2]
    theta = lu * tau / moment
    c = math.cos(theta)
    s = math.sin(theta)
    cx, cy, cz = cross(ux, uy, uz, L[0], L[1], L[2])
    L[0] = L[0] * c - cx * s + ux * lu * (1.0 - c)
    L[1] = L[1] * c - cy * s + uy * lu * (1.0 - c)
    L[2] = L[2] * c - cz * s + uz * lu * (1.0 - c)
    return exp_turn(qw, qx, qy, qz, theta * ux, theta * uy, theta * uz)


#: Order of the principal axes (by moment, smallest first) in the splitting's symmetric composition
#: A(h/2) B(h/2) C(h) B(h/2) A(h/2) with (A, B, C) these: the smallest moment outside, the largest in the
#: middle was the most accurate of the six on the JSBSim body and the NESC brick (4–17× less attitude error).
SPLIT_ORDER = (0, 1, 2)


@jit
def free_flow_split(qw, qx, qy, qz, L, inertia, h):
    """The free rigid body over ``h`` by the symmetric splitting of its kinetic energy (McLachlan 1993; DLM 1997).

    ``T = Σ L_i²/(2 I_i)`` over the principal axes; each term's flow is an
    exact rotation (:func:`free_rotor`), composed symmetrically so the step is
    second order, symplectic and time-reversible, with the earth-frame
    momentum conserved exactly and the energy bounded.
    """
    axes = np.empty((3, 3))
    moments = np.empty(3)
    principal_axes(inertia, axes, moments)
    order = np.argsort(moments)
    a = order[SPLIT_ORDER[0]]
    b = order[SPLIT_ORDER[1]]
    c = order[SPLIT_ORDER[2]]
    qw, qx, qy, qz = free_rotor(qw, qx, qy, qz, L, axes[0, a], axes[1, a], axes[2, a], moments[a], 0.5 * h)
    qw, qx, qy, qz = free_rotor(qw, qx, qy, qz, L, axes[0, b], axes[1, b], axes[2, b], moments[b], 0.5 * h)
    qw, qx, qy, qz = free_rotor(qw, qx, qy, qz, L, axes[0, c], axes[1, c], axes[2, c], moments[c], h)
    qw, qx, qy, qz = free_rotor(qw, qx, qy, qz, L, axes[0, b], axes[1, b], axes[2, b], moments[b], 0.5 * h)
    return free_rotor(qw, qx, qy, qz, L, axes[0, a], axes[1, a], axes[2, a], moments[a], 0.5 * h)


@jit
def step_splitting(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Kick–drift–kick: the external loads as half kicks around the free body's exact splitting.

    Kick: ``v += ½h a``, ``L += ½h M`` (body frame).  Drift: ``x += h v``
    and the free rigid body by :func:`free_flow_split`.  Kick: ``v += ½h a``,
    ``L += ½h M`` with the loads at the end of the step, evaluated where an
    Euler predictor (``v, L`` + the first half kick again) puts v and ω, so
    that loads depending on v and ω (the airplane's damping) keep it second
    order.  With no loads it is the free-body splitting alone: symplectic,
    momentum exact, energy bounded for ever (Dullweber, Leimkuhler &
    McLachlan 1997; Reich 1994; McLachlan 1993).
    """
    ax, ay, az, mx, my, mz = loads(t, y, params)
    y[3] += 0.5 * h * ax
    y[4] += 0.5 * h * ay
    y[5] += 0.5 * h * az
    y[0] += h * y[3]
    y[1] += h * y[4]
    y[2] += h * y[5]
    L = np.empty(3)
    lx, ly, lz = mat_vec(inertia, y[10], y[11], y[12])
    L[0] = lx + 0.5 * h * mx
    L[1] = ly + 0.5 * h * my
    L[2] = lz + 0.5 * h * mz
    qw, qx, qy, qz = free_flow_split(y[6], y[7], y[8], y[9], L, inertia, h)
    y[6], y[7], y[8], y[9] = qw, qx, qy, qz
    # predictor for the loads at the end: the half kick once more
    vx, vy, vz = y[3], y[4], y[5]
    y[3] += 0.5 * h * ax
    y[4] += 0.5 * h * ay
    y[5] += 0.5 * h * az
    y[10], y[11], y[12] = mat_vec(inertia_inv, L[0] + 0.5 * h * mx, L[1] + 0.5 * h * my, L[2] + 0.5 * h * mz)
    ax, ay, az, mx, my, mz = loads(t + h, y, params)
    y[3] = vx + 0.5 * h * ax
    y[4] = vy + 0.5 * h * ay
    y[5] = vz + 0.5 * h * az
    y[10], y[11], y[12] = mat_vec(inertia_inv, L[0] + 0.5 * h * mx, L[1] + 0.5 * h * my, L[2] + 0.5 * h * mz)
    return store_q(y, qw, qx, qy, qz, renorm)


#: Implicit midpoint: the iteration stops when a correction is below this, relative, or after MIDPOINT_ITERATIONS.
MIDPOINT_TOLERANCE = 1e-14
MIDPOINT_ITERATIONS = 40
#: A correction that stops shrinking within this factor of the tolerance is rounding (converged); beyond it the
#: iteration diverges (the step's loads change faster than a fixed point on them can follow).
MIDPOINT_STALL = 1e4


@jit
def step_midpoint(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """The implicit midpoint rule on the whole state, solved to rounding, renormalised.

    ``y₁ = y₀ + h f(t + ½h, ȳ)``, ``ȳ = ½(y₀ + y₁)``, solved for ȳ.  ω by
    Newton's method on ``I(ω̄ − ω₀) − ½h (M − ω̄ × Iω̄) = 0`` with the exact
    gyroscopic Jacobian plus ``∂M/∂ω`` by forward differences at the start
    (three extra load evaluations), x and v by fixed-point iteration on the
    loads, and q in closed form for a given ω̄: the midpoint rule on
    ``dq/dt = ½ q ⊗ (0, ω̄)`` is the Cayley transform
    ``q̄ = (q₀ + ¼h q₀ ⊗ ω̄) / (1 + (¼h|ω̄|)²)``, so |q| = 1 to rounding.
    For the free body, energy ½ω·Iω and |Iω| are quadratic invariants and
    are kept exactly (Hairer, Lubich & Wanner, Geometric Numerical
    Integration, IV.2 and VII.5; Austin, Krishnaprasad & Wang 1993).
    Second order, A-stable.  Where :data:`MIDPOINT_ITERATIONS` iterations do not
    converge (a step far beyond the fixed-point iteration's reach on the
    loads), the last iterate is taken and ``params.diag[D_UNCONVERGED]`` says
    so (1; 0 after a step that converged): the telemetry's ``unconverged``.
    """
    x0, x1, x2 = y[0], y[1], y[2]
    v0, v1, v2 = y[3], y[4], y[5]
    q0w, q0x, q0y, q0z = y[6], y[7], y[8], y[9]
    w0x, w0y, w0z = y[10], y[11], y[12]
    tm = t + 0.5 * h
    c = 0.5 * h
    # ∂M/∂ω at the start, by forward differences (zero for a free body)
    ys = y.copy()
    _, _, _, m0x, m0y, m0z = loads(tm, ys, params)
    dM = np.zeros((3, 3))
    eps = 1e-7 * max(math.sqrt(w0x * w0x + w0y * w0y + w0z * w0z), 1e-6)
    for j in range(3):
        ys[10 + j] += eps
        _, _, _, mx, my, mz = loads(tm, ys, params)
        ys[10 + j] -= eps
        dM[0, j] = (mx - m0x) / eps
        dM[1, j] = (my - m0y) / eps
        dM[2, j] = (mz - m0z) / eps
    J = np.empty((3, 3))
    wx, wy, wz = w0x, w0y, w0z
    pw, px, py, pz = q0w, q0x, q0y, q0z
    last = math.inf
    converged = False
    for k in range(MIDPOINT_ITERATIONS):
        ax, ay, az, mx, my, mz = loads(tm, ys, params)
        # v̄, x̄ by fixed point on the loads
        vx, vy, vz = v0 + c * ax, v1 + c * ay, v2 + c * az
        dv = abs(vx - ys[3]) + abs(vy - ys[4]) + abs(vz - ys[5])
        ys[3], ys[4], ys[5] = vx, vy, vz
        ys[0], ys[1], ys[2] = x0 + c * vx, x1 + c * vy, x2 + c * vz
        # ω̄ by a Newton step
        hx, hy, hz = mat_vec(inertia, wx, wy, wz)
        gx, gy, gz = cross(wx, wy, wz, hx, hy, hz)
        ix, iy, iz = mat_vec(inertia, wx - w0x, wy - w0y, wz - w0z)
        rx = ix - c * (mx - gx)
        ry = iy - c * (my - gy)
        rz = iz - c * (mz - gz)
        gyro_jacobian(wx, wy, wz, inertia, c, J)
        for i in range(3):
            for j in range(3):
                J[i, j] -= c * dM[i, j]
        dx, dy, dz = solve33(J, rx, ry, rz)
        wx, wy, wz = wx - dx, wy - dy, wz - dz
        ys[10], ys[11], ys[12] = wx, wy, wz
        # q̄ in closed form (Cayley), normalised for the loads
        a = 0.25 * h
        pw, px, py, pz = turn(q0w, q0x, q0y, q0z, 1.0, a, wx, wy, wz)
        d = 1.0 + a * a * (wx * wx + wy * wy + wz * wz)
        pw, px, py, pz = pw / d, px / d, py / d, pz / d
        n = math.sqrt(pw * pw + px * px + py * py + pz * pz)
        ys[6], ys[7], ys[8], ys[9] = pw / n, px / n, py / n, pz / n
        change = abs(dx) + abs(dy) + abs(dz) + dv
        scale = abs(wx) + abs(wy) + abs(wz) + abs(vx) + abs(vy) + abs(vz)
        if change <= MIDPOINT_TOLERANCE * scale:
            converged = True
            break
        if k > 1 and change >= last:
            # the correction stopped shrinking: down to rounding (converged), or an iteration that diverges
            converged = change <= MIDPOINT_STALL * MIDPOINT_TOLERANCE * scale
            break
        last = change
    params.diag[D_UNCONVERGED] = 0.0 if converged else 1.0
    y[0], y[1], y[2] = 2.0 * ys[0] - x0, 2.0 * ys[1] - x1, 2.0 * ys[2] - x2
    y[3], y[4], y[5] = 2.0 * ys[3] - v0, 2.0 * ys[4] - v1, 2.0 * ys[5] - v2
    y[10], y[11], y[12] = 2.0 * wx - w0x, 2.0 * wy - w0y, 2.0 * wz - w0z
    return store_q(y, 2.0 * pw - q0w, 2.0 * px - q0x, 2.0 * py - q0y, 2.0 * pz - q0z, renorm)


# --------------------------------------------------------------------------- numbering

#: Parameters of every step function, in order: what makes a compiled function of this module a step.
STEP_ARGS = ("y", "t", "h", "params", "inertia", "inertia_inv", "renorm", "increment_id")


def _steps_of(namespace):
    """The compiled functions defined in ``namespace`` (a module's globals) that take :data:`STEP_ARGS`, in the
    order they are defined."""
    found = []
    for f in namespace.values():
        py_func = getattr(f, "py_func", None)
        if isinstance(py_func, FunctionType) and py_func.__globals__ is namespace:
            code = py_func.__code__
            if code.co_varnames[: code.co_argcount] == STEP_ARGS:
                found.append(f)
    return tuple(found)


#: The step functions, numbered as :func:`step_by_number` dispatches them: in the order they are written here.
STEPS = _steps_of(globals())

#: ``step_by_number(number, y, t, h, params, inertia, inertia_inv, renorm, increment_id)``: run the step
#: numbered ``number`` in :data:`STEPS` (compiled code takes no function arguments) — an if-chain
#: written from :data:`STEPS` by :func:`flightsim.math.compiler.compiled_dispatch`, cached on disk.
step_by_number = compiled_dispatch(
    "step_by_number", "number", STEP_ARGS, STEPS,
    "Run the step numbered ``number`` in STEPS (every step function of flightsim.physics.steps, in order); "
    "UNKNOWN_SELECTOR for a number outside it.",
    unknown="UNKNOWN_SELECTOR", decorator=borrowing_jit,
)

#: :func:`step_by_number`, written into its compiled caller (numba's ``inline="always"``): the if-chain becomes
#: the caller's, so the caller calls the chosen step itself, and no function passes the loads' parameters
#: between them (the batch's kernels, :mod:`flightsim.simulation.batch`, which step every airplane every step).
step_by_number_inline = compiled_dispatch(
    "step_by_number_inline", "number", STEP_ARGS, STEPS,
    "Run the step numbered ``number`` in STEPS, written into the caller (as step_by_number).",
    unknown="UNKNOWN_SELECTOR", decorator=borrowing_inline_jit,
)

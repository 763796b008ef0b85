"""Rigid-body time steppers, selectable by name: :data:`INTEGRATORS`.

Every integrator advances the same state, a float64 array of 13 numbers::

    y = [x(3) earth position, v(3) earth velocity, q(4) body→earth [w,x,y,z], ω(3) body rad/s]

through one step ``h`` in place, given a *loads* function
``loads(t, y, params) -> (ax, ay, az, mx, my, mz)``: the earth-frame
acceleration of the centre of mass (gravity and the landing gear's ground
reaction included) and the body-frame moment about it.  Angular velocity goes through the full inertia tensor by
Euler's equations, ``I dω/dt = M − ω × Iω``; orientation follows
``dq/dt = ½ q ⊗ (0, ω)`` for body-frame ω (Bourg, ch. 11), so every
orientation step is ``q ← q ⊗ Δq``.

All integrators are one-step methods on this one state (none keeps a
history), so switching between two steps never makes the state jump.

The steps are module-level functions compiled (and cached on disk) by numba
around :func:`flightsim.physics.aero.airplane_loads`, which with no elements is also
the free body's loads (:func:`flightsim.physics.aero.free_body`); the very same source
runs as plain Python with a Python loads callable (:meth:`Integrator.python_step`).
Layout follows scipy's ``solve_ivp`` registry: a name → object mapping whose
objects carry their ``order``; an unknown name raises with the valid ones.

Adding an integrator is one step function and one registration: write
``step_<name>(y, t, h, params, inertia, inertia_inv, renorm, kind) -> |q| − 1``
here with ``@jit``, evaluating ``loads(t, y, params)`` (directly or through a
helper of this module), and add an :class:`Integrator` entry naming it to
:data:`INTEGRATORS`.  Everything else follows from the registry: the step's
number in :data:`STEPS`, the compiled :func:`step_by_number` dispatch (an
if-chain generated from :data:`STEPS`, see
:func:`flightsim.kernels.compiled_dispatch`) and the Python re-make used for
Python loads (:data:`LOADS_CALLERS`, found by walking the functions' code).
Import fails, naming the function, if a step has the wrong parameters or never
evaluates the loads.  A flight (:class:`flightsim.simulation.Simulation`) compiles only
its own integrator's step: :func:`step_entry` calls that one step and no other, so a
first start does not compile all of them (the batch and :meth:`Integrator.run` keep
the dispatch).  A variant with another orientation increment reuses a
step: ``Integrator(..., step_rkmk4, increment="bullet")``.
"""

import math
from collections import OrderedDict
from types import CodeType, FunctionType

import numpy as np

from flightsim.math import kernels
from flightsim.physics.aero import D_UNCONVERGED, LoadParams, airplane_loads as loads, step_start
from flightsim.math.kernels import matrix_to_quat, quat_to_matrix, turn

#: Slices of the state vector.
X, V, Q, W = slice(0, 3), slice(3, 6), slice(6, 10), slice(10, 13)
STATE_SIZE = 13
#: What a step returns for a step or increment number outside the registry, in place of ``|q| − 1``
#: (which is never below −1): a status, not a result — :func:`check_selectors` turns it into an error.
UNKNOWN_SELECTOR = -2.0

jit = kernels.jit
#: For the functions that allocate no array (see :data:`flightsim.math.kernels.borrowing_jit`).
borrow = kernels.borrowing_jit
#: For the functions Python calls every step (:data:`flightsim.math.kernels.borrowing_entry_jit`).
borrow_entry = kernels.borrowing_entry_jit


# --------------------------------------------------------------------------- helpers


@borrow
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


@borrow
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


@borrow
def cross(ax, ay, az, bx, by, bz):
    """Vector product ``a × b``."""
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@borrow
def group_turn(kind, qw, qx, qy, qz, px, py, pz, h):
    """``q ⊗ Δq(φ)`` with the increment numbered ``kind``, or the exact exponential when ``kind < 0``."""
    if kind < 0:
        return exp_turn(qw, qx, qy, qz, px, py, pz)
    ca, sa = kernels.increment(kind, px, py, pz, h)
    return turn(qw, qx, qy, qz, ca, sa, px, py, pz)


@borrow
def exp_turn(qw, qx, qy, qz, px, py, pz):
    """``q ⊗ Exp(φ)``: turn by the body-frame rotation vector φ exactly."""
    ca, sa = kernels.dq_exact(px, py, pz, 1.0)
    return turn(qw, qx, qy, qz, ca, sa, px, py, pz)


# --------------------------------------------------------------------------- steps
# Every step has the signature step(y, t, h, params, inertia, inertia_inv, renorm, kind) -> |q|-1
# (STEP_ARGS) and evaluates the module-level ``loads`` (directly or through a helper of this
# module).  They are plain module-level @jit functions, so numba caches them on disk;
# :func:`python_step` runs the same source as Python with other loads.  A new step is written
# here and named by an ``Integrator`` entry in INTEGRATORS below; nothing else lists it.


@borrow
def translate(y, h, ax, ay, az):
    """Bourg's order for the centre of mass: v += a h, then x += v h with the new v."""
    y[3] += ax * h
    y[4] += ay * h
    y[5] += az * h
    y[0] += y[3] * h
    y[1] += y[4] * h
    y[2] += y[5] * h


@borrow
def euler_kick(y, h, ax, ay, az, dx, dy, dz):
    """Bourg's order for the rest of the state: v += a h, then x += v h with the new v, ω += α h."""
    translate(y, h, ax, ay, az)
    y[10] += dx * h
    y[11] += dy * h
    y[12] += dz * h


@borrow
def step_semi_implicit(y, t, h, params, inertia, inertia_inv, renorm, kind):
    """Bourg's StepSimulation order with the orientation update ``q ⊗ Δq(ω_new h)``.

    Loads; v += a h; x += v h (new v); ω += α h; q ← q ⊗ Δq(ω h) with the
    new ω and the increment numbered ``kind`` (:data:`flightsim.kernels.INCREMENT_IDS`);
    renormalise.  First order on the coupled state.  ``kind`` must name an
    increment: any other returns :data:`UNKNOWN_SELECTOR`, the state untouched.
    """
    if kind < 0 or kind >= kernels.INCREMENT_COUNT:
        return UNKNOWN_SELECTOR
    ax, ay, az, mx, my, mz = loads(t, y, params)
    dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
    euler_kick(y, h, ax, ay, az, dx, dy, dz)
    px = y[10] * h
    py = y[11] * h
    pz = y[12] * h
    ca, sa = kernels.increment(kind, px, py, pz, h)
    qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], ca, sa, px, py, pz)
    return store_q(y, qw, qx, qy, qz, renorm)


@jit
def step_matrix(y, t, h, params, inertia, inertia_inv, renorm, kind):
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


@borrow
def step_buss2(y, t, h, params, inertia, inertia_inv, renorm, kind):
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


@borrow
def derivative(t, y, params, inertia, inertia_inv):
    """``dy/dt`` as a 13-tuple: [v, a, ½ q ⊗ (0, ω), I⁻¹(M − ω × Iω)]."""
    ax, ay, az, mx, my, mz = loads(t, y, params)
    qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], 0.0, 0.5, y[10], y[11], y[12])  # ca = 0, sa = ½: ½ q ⊗ (0, ω)
    dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
    return y[3], y[4], y[5], ax, ay, az, qw, qx, qy, qz, dx, dy, dz


@borrow_entry
def rk4_deriv(t, y, params, inertia, inertia_inv, out):
    """``out = dy/dt`` (:func:`derivative` into an array)."""
    k = derivative(t, y, params, inertia, inertia_inv)
    for i in range(STATE_SIZE):
        out[i] = k[i]


@borrow
def step_rk4(y, t, h, params, inertia, inertia_inv, renorm, kind):
    """Classical Runge–Kutta 4 on the whole state with ``dq/dt = ½ q ⊗ (0, ω)``.

    Four load evaluations per step; q renormalised at the end.  The stages
    are evaluated in ``y`` itself, the start state and the slopes held as
    tuples (no array is allocated); each number is the same expression as
    ``y + ½h k1`` … ``y + (h/6)(k1 + 2 k2 + 2 k3 + k4)`` on arrays.
    """
    y0 = (y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7], y[8], y[9], y[10], y[11], y[12])
    k1 = derivative(t, y, params, inertia, inertia_inv)
    for i in range(STATE_SIZE):
        y[i] = y0[i] + 0.5 * h * k1[i]
    k2 = derivative(t + 0.5 * h, y, params, inertia, inertia_inv)
    for i in range(STATE_SIZE):
        y[i] = y0[i] + 0.5 * h * k2[i]
    k3 = derivative(t + 0.5 * h, y, params, inertia, inertia_inv)
    for i in range(STATE_SIZE):
        y[i] = y0[i] + h * k3[i]
    k4 = derivative(t + h, y, params, inertia, inertia_inv)
    for i in range(STATE_SIZE):
        y[i] = y0[i] + (h / 6.0) * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
    return store_q(y, y[6], y[7], y[8], y[9], renorm)


@jit
def rkmk4_stage(t, y0, dy, u, params, inertia, inertia_inv, out, ku, kind, h):
    """One RKMK4 stage at x, v, ω = y0 + dy and q = q0 ⊗ Exp(u) (Exp by the increment ``kind``).

    Writes the derivatives of x, v, ω into ``out`` and ``dexp⁻¹_{−u}(ω)`` into ``ku``.
    """
    ys = y0 + dy
    ys[6], ys[7], ys[8], ys[9] = group_turn(kind, y0[6], y0[7], y0[8], y0[9], u[0], u[1], u[2], h)
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
def step_rkmk4(y, t, h, params, inertia, inertia_inv, renorm, kind):
    """Runge–Kutta–Munthe-Kaas 4: RK4 in the Lie algebra, q moved only by exponentials.

    The orientation is ``q0 ⊗ Exp(u)``; stage ``i`` evaluates the loads at
    ``q0 ⊗ Exp(u_i)`` and maps the body rate back to ``u̇`` with
    ``dexp⁻¹_{−u}(ω) = ω + ½ u × ω + (1/12) u × (u × ω)`` (truncated where
    4th order allows).  Position, velocity and ω follow the classical RK4
    tableau.  |q| = 1 to rounding, with no renormalisation (Munthe-Kaas 1999).

    With ``kind ≥ 0`` the group exponential is replaced by one of the seed's
    increments: ω is then no longer advanced by first-order Euler, so the
    increment's own error is what separates the variants.  A ``kind`` that
    names no increment (below −1, or past the last) returns
    :data:`UNKNOWN_SELECTOR`, the state untouched.
    """
    if kind < -1 or kind >= kernels.INCREMENT_COUNT:
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
    rkmk4_stage(t, y, zeros, zero, params, inertia, inertia_inv, k1, u1, kind, h)
    rkmk4_stage(t + 0.5 * h, y, 0.5 * h * k1, 0.5 * h * u1, params, inertia, inertia_inv, k2, u2, kind, h)
    rkmk4_stage(t + 0.5 * h, y, 0.5 * h * k2, 0.5 * h * u2, params, inertia, inertia_inv, k3, u3, kind, h)
    rkmk4_stage(t + h, y, h * k3, h * u3, params, inertia, inertia_inv, k4, u4, kind, h)
    u = (h / 6.0) * (u1 + 2.0 * u2 + 2.0 * u3 + u4)
    qw, qx, qy, qz = group_turn(kind, y[6], y[7], y[8], y[9], u[0], u[1], u[2], h)
    dy = (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    y[0:6] += dy[0:6]
    y[10:13] += dy[10:13]
    return store_q(y, qw, qx, qy, qz, renorm)


# --------------------------------------------------------------------------- spinning bodies
# The integrators game and robotics engines (and numerical analysts) use for a fast-spinning
# asymmetric body: implicit or clamped gyroscopic terms, a symplectic splitting, implicit midpoint.


@borrow
def mat_vec(A, x, y, z):
    """``A (x, y, z)`` for a 3×3 array ``A``."""
    return (A[0, 0] * x + A[0, 1] * y + A[0, 2] * z,
            A[1, 0] * x + A[1, 1] * y + A[1, 2] * z,
            A[2, 0] * x + A[2, 1] * y + A[2, 2] * z)


@borrow
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


@borrow
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
def step_gyro_implicit(y, t, h, params, inertia, inertia_inv, renorm, kind):
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


@borrow
def step_gyro_clamped(y, t, h, params, inertia, inertia_inv, renorm, kind):
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


@borrow
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
def step_splitting(y, t, h, params, inertia, inertia_inv, renorm, kind):
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
def step_midpoint(y, t, h, params, inertia, inertia_inv, renorm, kind):
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


# --------------------------------------------------------------------------- registry

#: Parameters of every step function, in order (checked when the dispatch is compiled).
STEP_ARGS = ("y", "t", "h", "params", "inertia", "inertia_inv", "renorm", "kind")

_steps = []  # step functions in the order step_by_number numbers them: first use in INTEGRATORS
_dispatch_compiled = False


def _step_number(step, name):
    """Number of ``step`` in the compiled dispatch; a step new to the registry takes the next one."""
    for k, known in enumerate(_steps):
        if known is step:
            return k
    if _dispatch_compiled:
        fname = getattr(getattr(step, "py_func", step), "__name__", repr(step))
        raise RuntimeError(
            f"integrator {name!r}: step {fname} is not in the compiled dispatch; new step functions are "
            f"registered by an Integrator entry of INTEGRATORS in {__name__}"
        )
    _steps.append(step)
    return len(_steps) - 1


#: The steps that apply one of the seed's increments (``kind``): whether each needs one (True) or falls
#: back on the exact exponential without one (False).  Every other step ignores ``kind``.
INCREMENT_STEPS = ((step_semi_implicit, True), (step_rkmk4, False))


def _increment_use(step):
    """True: ``step`` needs an increment; False: it may take one; None: it applies none."""
    for known, needs in INCREMENT_STEPS:
        if known is step:
            return needs
    return None


def check_selectors(name, number, kind):
    """Refuse a step number or increment number outside the registry: ``LookupError`` naming it.

    Compiled code cannot raise freely, so the compiled dispatch returns
    :data:`UNKNOWN_SELECTOR` for a number it does not know; this is the check
    in Python, before the compiled call or on that status after it.
    """
    if not 0 <= number < len(_steps):
        raise LookupError(f"integrator {name!r}: step number {number} is not in the registry "
                          f"(0 to {len(_steps) - 1}: {', '.join(f.py_func.__name__ for f in _steps)})")
    needs = _increment_use(_steps[number])
    lowest = 0 if needs else -1
    if needs is not None and not lowest <= kind < kernels.INCREMENT_COUNT:
        raise LookupError(f"integrator {name!r}: increment number {kind} is not in the registry "
                          f"({lowest} to {kernels.INCREMENT_COUNT - 1}: {', '.join(kernels.INCREMENT_IDS)})")


def explicit_euler_stability(z):
    """``R(z) = 1 + z``: explicit Euler on ω (the Bourg-order steps, ``matrix``, ``buss2``)."""
    return 1.0 + z


def rk4_stability(z):
    """``R(z) = 1 + z + z²/2 + z³/6 + z⁴/24``: any 4-stage 4th-order Runge–Kutta tableau (``rk4``, ``rkmk4*``)."""
    return 1.0 + z + z * z / 2.0 + z ** 3 / 6.0 + z ** 4 / 24.0


def heun_stability(z):
    """``R(z) = 1 + z + z²/2``: the splitting's kick-drift-kick with its predicted end kick (Heun's method)."""
    return 1.0 + z + z * z / 2.0


def midpoint_stability(z):
    """``R(z) = (1 + z/2)/(1 − z/2)``: the implicit midpoint rule (A-stable; |R| = 1 on the imaginary axis)."""
    return (1.0 + z / 2.0) / (1.0 - z / 2.0)


class Integrator:
    """A named rigid-body stepper.

    Creating one registers its step function: the first :class:`Integrator`
    naming a step function numbers it in :data:`STEPS` and so in the compiled
    :func:`step_by_number`.  New step functions can be registered only while
    this module builds :data:`INTEGRATORS`; later objects (a variant with
    another increment, say) may reuse the registered ones.

    Attributes
    ----------
    name : str
        Registry key, e.g. ``"rk4"``.
    label : str
        Short text for the HUD.
    order : int
        Global order of accuracy on the coupled state (q, ω), as
        ``tests/test_integrators.py`` measures it.
    description : str
        What it is and where it comes from.
    increment : str or None
        Name of the orientation increment in :data:`flightsim.kernels.INCREMENTS`
        it applies once per step, if it is one of the seed's kernels.
    function : numba dispatcher
        The compiled step function (signature :data:`STEP_ARGS`).
    stability : callable or None
        Its stability function ``R(z)`` on the linear test equation ``ẏ = λy``
        (``z = λ dt``), where known in closed form; None: measured
        (:func:`flightsim.physics.stability.amplification`).
    number, kind : int
        Number of the step function in :data:`STEPS`, and of the increment in
        :data:`flightsim.kernels.INCREMENT_IDS` (−1: none).
    """

    def __init__(self, name, label, order, description, step, increment=None, stability=None):
        fname = getattr(getattr(step, "py_func", step), "__name__", repr(step))
        needs = _increment_use(step)
        if increment is not None and increment not in kernels.INCREMENT_IDS:
            raise ValueError(f"integrator {name!r}: unknown increment {increment!r}; "
                             f"valid: {', '.join(kernels.INCREMENT_IDS)}")
        if increment is not None and needs is None:
            raise ValueError(f"integrator {name!r}: {fname} applies no increment, so increment={increment!r} "
                             f"would be ignored")
        if increment is None and needs:
            raise ValueError(f"integrator {name!r}: {fname} needs an increment, one of "
                             f"{', '.join(kernels.INCREMENT_IDS)}")
        self.name = name
        self.stability = stability
        self.label = label
        self.order = order
        self.description = description
        self.increment = increment
        self.function = step
        self.number = _step_number(step, name)
        self.kind = kernels.INCREMENT_IDS[increment] if increment else -1

    def step(self, y, t, h, params, inertia, inertia_inv, renorm=True):
        """Advance ``y`` in place by ``h`` (compiled); return ``|q| − 1`` before renormalising.

        NaN when the state is no longer finite.  ``params`` is a
        :class:`~flightsim.physics.aero.LoadParams` from :func:`flightsim.physics.aero.pack`
        (or :func:`flightsim.physics.aero.free_body`).  ``LookupError`` if
        :attr:`number` or :attr:`kind` was set to one the registry lacks.
        """
        err = step_fields(self.number, y, t, h, tuple(params), inertia, inertia_inv, renorm, self.kind)
        if err == UNKNOWN_SELECTOR:
            check_selectors(self.name, self.number, self.kind)
        return err

    def run(self, y, t0, h, steps, params, inertia, inertia_inv, renorm=True):
        """``steps`` compiled steps in one call; returns the largest ``||q| − 1|`` seen (as :meth:`step`)."""
        worst = run_steps(self.number, y, t0, h, steps, params, inertia, inertia_inv, renorm, self.kind)
        if worst == UNKNOWN_SELECTOR:
            check_selectors(self.name, self.number, self.kind)
        return worst

    @property
    def entry(self):
        """This integrator's compiled step alone (:func:`step_entry`), for a flight that steps from Python."""
        return step_entry(self.function)

    def python_step(self, python_loads):
        """The same step as plain Python, with a Python ``loads(t, y, params)`` callable.

        Returns ``step(y, t, h, params, inertia, inertia_inv, renorm) -> |q| − 1``.
        """
        f = python_step(self.function, python_loads)
        name, number, kind = self.name, self.number, self.kind

        def step(y, t, h, params, inertia, inertia_inv, renorm=True):
            err = f(y, t, h, params, inertia, inertia_inv, renorm, kind)
            if err == UNKNOWN_SELECTOR:
                check_selectors(name, number, kind)
            return err

        return step

    def __repr__(self):
        return f"<Integrator {self.name!r} order={self.order}>"


def _register(*integrators):
    registry = OrderedDict()
    for it in integrators:
        if it.name in registry:
            raise ValueError(f"integrator {it.name!r} registered twice")
        registry[it.name] = it
    return registry


_SEED = (
    "the seed note 'rotate quaternion by vector'"
)

#: name → :class:`Integrator`, in the order the HUD lists them.
INTEGRATORS = _register(
    Integrator(
        "euler", "Euler (Bourg)", 1,
        "Bourg's StepSimulation: v, x, ω by explicit Euler, then q += ½ q⊗(0,ω) dt with the new ω, "
        "renormalised (Physics for Game Developers, ch. 11/15; Bullet's QUATERNION_DERIVATIVE).",
        step_semi_implicit, increment="euler", stability=explicit_euler_stability,
    ),
    Integrator(
        "exact", "Exact exp", 1,
        "Bourg's order for v, x, ω; q ⊗ (cos θ/2, sin(θ/2)/θ·φ), φ = ω dt: exact for constant ω "
        f"({_SEED}, rotate_quaternion_by_vector_vec).",
        step_semi_implicit, increment="exact", stability=explicit_euler_stability,
    ),
    Integrator(
        "taylor2", "Taylor 2", 1,
        "Bourg's order for v, x, ω; q ⊗ (1 − θ²/8, (½ − θ²/48)·φ): no trigonometry, no square root "
        f"({_SEED}, rotate_quaternion_by_vector_Fast).",
        step_semi_implicit, increment="taylor2", stability=explicit_euler_stability,
    ),
    Integrator(
        "taylor2-half", "Taylor 2, half angle", 1,
        f"As taylor2 at the half angle, doubled once: five more multiplications ({_SEED}).",
        step_semi_implicit, increment="taylor2-half", stability=explicit_euler_stability,
    ),
    Integrator(
        "taylor2-quarter", "Taylor 2, quarter angle", 1,
        f"As taylor2 at the quarter angle, doubled twice ({_SEED}).",
        step_semi_implicit, increment="taylor2-quarter", stability=explicit_euler_stability,
    ),
    Integrator(
        "bullet", "Bullet exp map", 1,
        "Bourg's order for v, x, ω; Bullet's integrateTransform exponential map (Grassia 1998) with its "
        "small-rate Taylor branch and its π/4-per-step angular-motion clamp (the clamped rate in the "
        "factor, the unclamped ω on the axis, then normalised — as Bullet does).",
        step_semi_implicit, increment="bullet", stability=explicit_euler_stability,
    ),
    Integrator(
        "matrix", "Rotation matrix", 1,
        "Bourg's order for v, x, ω; R += dt·R·Ω(ω) integrated directly, re-orthonormalised by polar "
        "(Newton) iterations, reported as a quaternion (Physics for Game Developers, ch. 11).",
        step_matrix, stability=explicit_euler_stability,
    ),
    Integrator(
        "buss2", "Buss 2 (JSBSim)", 1,
        "Buss's augmented second-order attitude step, ω̄ = ω + ½dt α + dt²/12 ω×α, q ⊗ Exp(dt ω̄); ω, v, x "
        "by Euler as JSBSim's defaults (Buss 2000; JSBSim FGPropagate eBuss2). Attitude is 2nd order for a "
        "given ω; the Euler step of ω makes the coupled state 1st order.",
        step_buss2, stability=explicit_euler_stability,
    ),
    Integrator(
        "rk4", "Runge-Kutta 4", 4,
        "Classical Runge-Kutta 4 on the whole state (x, v, q, ω) with dq/dt = ½ q⊗(0,ω), renormalised at "
        "the end: four load evaluations per step.",
        step_rk4, stability=rk4_stability,
    ),
    Integrator(
        "rkmk4", "RK Munthe-Kaas 4", 4,
        "Runge-Kutta-Munthe-Kaas 4: RK4 in the Lie algebra with dexp⁻¹ to 2nd order, q moved only by "
        "exponentials so |q| = 1 by construction (Munthe-Kaas 1999; Iserles et al. 2000).",
        step_rkmk4, stability=rk4_stability,
    ),
    *(
        Integrator(
            f"rkmk4-{inc}", f"RKMK4 + {label}", order,
            f"RKMK4 with the {inc} increment in place of the exact exponential: ω, v, x by 4th-order "
            f"stages, so the increment's own error shows ({note}).",
            step_rkmk4, increment=inc, stability=rk4_stability,
        )
        for inc, label, order, note in (
            ("taylor2", "Taylor 2", 4, "local error O(θ⁵): stays 4th order"),
            ("taylor2-half", "Taylor 2, half", 4, "O(θ⁵), 16× smaller than taylor2"),
            ("taylor2-quarter", "Taylor 2, quarter", 4, "O(θ⁵), 256× smaller than taylor2"),
            ("euler", "Euler increment", 2, "Bourg's (1, φ/2): local error O(θ³), so 2nd order"),
        )
    ),
    Integrator(
        "gyro-implicit", "Gyro implicit (Bullet)", 1,
        "Bullet's implicit gyroscopic term: one Newton step of backward Euler for ω in the body frame, "
        "ω' = ω − J⁻¹(dt ω×Iω), J = I + dt(ω̃I − (Iω)~), the moment added explicitly, then q ⊗ Exp(dt ω') "
        "(Bullet btRigidBody::computeGyroscopicImpulseImplicit_Body, BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY). "
        "Loses energy instead of gaining it: stable on fast spins.",
        step_gyro_implicit, stability=explicit_euler_stability,
    ),
    Integrator(
        "gyro-clamped", "Gyro clamped (Jolt)", 1,
        "Jolt's gyroscopic step: L' = L − dt ω×L in the body frame, rescaled to |L'| = |L|, the moment added "
        "explicitly, then q ⊗ Exp(dt ω') (Jolt MotionProperties::ApplyGyroscopicForceInternal; Avian the same). "
        "|L| is kept; the energy is not.",
        step_gyro_clamped, stability=explicit_euler_stability,
    ),
    Integrator(
        "splitting", "Symplectic splitting", 2,
        "Kick-drift-kick: the loads as half kicks around the free rigid body split into exact rotations about "
        "its principal axes, A(dt/2) B(dt/2) C(dt) B(dt/2) A(dt/2) (McLachlan 1993; Reich 1994; Dullweber, "
        "Leimkuhler & McLachlan 1997): symplectic, earth-frame momentum exact, energy bounded for ever.",
        step_splitting, stability=heun_stability,
    ),
    Integrator(
        "midpoint", "Implicit midpoint", 2,
        "The implicit midpoint rule on the whole state, solved to rounding (Newton for ω with the exact "
        "gyroscopic Jacobian, q by the Cayley transform), renormalised: keeps the free body's energy and |L| "
        "exactly, A-stable (Hairer, Lubich & Wanner, Geometric Numerical Integration, IV.2, VII.5).",
        step_midpoint, stability=midpoint_stability,
    ),
)


#: The step functions, numbered as :func:`step_by_number` dispatches them (first use in :data:`INTEGRATORS`).
STEPS = tuple(_steps)

#: ``step_by_number(number, y, t, h, params, inertia, inertia_inv, renorm, kind)``: run the step
#: numbered ``number`` in :data:`STEPS` (compiled code takes no function arguments) — an if-chain
#: written from :data:`STEPS` by :func:`flightsim.kernels.compiled_dispatch`, cached on disk.
step_by_number = kernels.compiled_dispatch(
    "step_by_number", "number", STEP_ARGS, STEPS,
    "Run the step numbered ``number`` in STEPS (generated from the INTEGRATORS registry); "
    "UNKNOWN_SELECTOR for a number outside it.",
    unknown="UNKNOWN_SELECTOR", decorator=borrow,
)
_dispatch_compiled = True


@borrow_entry
def step_fields(number, y, t, h, fields, inertia, inertia_inv, renorm, kind):
    """:func:`step_by_number` for a call from Python, given ``fields = tuple(params)``, after what runs once per
    step (:func:`flightsim.physics.aero.step_start`: a JSBSim aircraft's flight controls and engines).

    At every call from Python numba types the arguments, and for a named tuple
    it spells out the class and every field name: an airplane ``euler`` step
    called from Python took 4.9 µs with the named tuple against 3.1 µs with a
    plain one.  So a caller that steps from Python passes the values, made
    once with ``tuple(params)`` (the arrays stay shared, so ``controls`` and
    ``diag`` written in place still count), and the
    :class:`~flightsim.physics.aero.LoadParams` is rebuilt here at no cost.
    """
    params = LoadParams(*fields)
    step_start(t, y, h, params)
    return step_by_number(number, y, t, h, params, inertia, inertia_inv, renorm, kind)


@borrow_entry
def run_steps(number, y, t0, h, steps, params, inertia, inertia_inv, renorm, kind):
    """``steps`` steps in one compiled loop, each after :func:`~flightsim.physics.aero.step_start`; returns the
    largest ``||q| − 1|`` seen (NaN if it blew up; :data:`UNKNOWN_SELECTOR` for a number outside the registry)."""
    worst = 0.0
    for k in range(steps):
        step_start(t0 + k * h, y, h, params)
        e = step_by_number(number, y, t0 + k * h, h, params, inertia, inertia_inv, renorm, kind)
        if not math.isfinite(e) or e == UNKNOWN_SELECTOR:
            return e
        worst = max(worst, abs(e))
    return worst


_ENTRIES = {}


def step_entry(step):
    """:func:`step_fields` for one step function only: what a flight compiles, not every registered step.

    :func:`step_fields` goes through :func:`step_by_number`, whose if-chain
    names every step in :data:`STEPS`, so compiling it compiles them all (most
    of a first start's ~20 s of numba).  The entry for ``step`` calls that one
    step directly; it is written the first time it is asked for and compiled
    (or loaded from numba's disk cache, under its own name
    ``step_fields__<step>``) at its first call.

    Parameters
    ----------
    step : numba dispatcher
        A step function of :data:`STEPS`.

    Returns
    -------
    numba dispatcher
        ``entry(y, t, h, fields, inertia, inertia_inv, renorm, kind) -> |q| − 1`` (``fields = tuple(params)``).
    """
    fname = step.py_func.__name__
    entry = _ENTRIES.get(fname)
    if entry is None:
        if globals().get(fname) is not step:
            raise ValueError(f"{fname} is not a step function of {__name__}")
        name = f"step_fields__{fname}"
        source = (f"def {name}(y, t, h, fields, inertia, inertia_inv, renorm, kind):\n"
                  f"    params = LoadParams(*fields)\n"
                  f"    step_start(t, y, h, params)\n"
                  f"    return {fname}(y, t, h, params, inertia, inertia_inv, renorm, kind)\n")
        entry = _ENTRIES[fname] = kernels.compile_source(name, source, borrow_entry)
    return entry


def entry_compiled(entry):
    """Whether calling ``entry`` (a compiled function) now costs no compiling: compiled in this process, or
    found in numba's disk cache for this source (:func:`flightsim.kernels.in_disk_cache`)."""
    return bool(entry.signatures) or kernels.in_disk_cache(entry)


def _names_used(code):
    """Global and attribute names a code object (and the code nested in it) refers to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names_used(const)
    return names


def _loads_callers(namespace):
    """Names of this module's compiled functions that evaluate ``loads``, directly or through one another."""
    uses = {
        name: _names_used(f.py_func.__code__)
        for name, f in namespace.items()
        if isinstance(getattr(f, "py_func", None), FunctionType) and f.py_func.__globals__ is namespace
    }
    callers = set()
    grew = True
    while grew:
        grew = False
        for name, used in uses.items():
            if name not in callers and ("loads" in used or used & callers):
                callers.add(name)
                grew = True
    return frozenset(callers)


#: The compiled functions of this module that evaluate ``loads`` (found by walking their code):
#: what :func:`python_step` re-makes as Python around another loads.
LOADS_CALLERS = _loads_callers(globals())
_ignoring = [s.py_func.__name__ for s in STEPS if s.py_func.__name__ not in LOADS_CALLERS]
if _ignoring:
    raise RuntimeError(f"{', '.join(_ignoring)}: a step must evaluate loads(t, y, params), or it ignores every load")
del _ignoring


def python_step(step, python_loads):
    """The Python source of a compiled ``step``, run as Python with ``python_loads`` as its loads.

    Every function in :data:`LOADS_CALLERS` is re-made from its code object
    with a copy of this module's globals in which ``loads`` is replaced, so
    the Python path runs exactly the compiled path's source; the helpers that
    never evaluate the loads stay compiled.
    """
    env = dict(globals())
    env["loads"] = python_loads
    for name in LOADS_CALLERS:
        f = globals()[name].py_func
        env[name] = FunctionType(f.__code__, env, name, f.__defaults__, f.__closure__)
    return env[step.py_func.__name__]


def get(name):
    """Look up an integrator; an unknown name raises ``ValueError`` listing the valid ones."""
    try:
        return INTEGRATORS[name]
    except (KeyError, TypeError):
        valid = ", ".join(INTEGRATORS)
        raise ValueError(f"integrator: unknown name {name!r}; valid: {valid}") from None

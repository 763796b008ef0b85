"""Rigid-body time steppers, selectable by name: :data:`INTEGRATORS`.

Every integrator advances the same state, a float64 array of 13 numbers::

    y = [x(3) earth position, v(3) earth velocity, q(4) body→earth [w,x,y,z], ω(3) body rad/s]

through one step ``h`` in place, given a *loads* function
``loads(t, y, params) -> (ax, ay, az, mx, my, mz)``: the earth-frame
acceleration of the centre of mass (gravity included) and the body-frame
moment about it.  Angular velocity goes through the full inertia tensor by
Euler's equations, ``I dω/dt = M − ω × Iω``; orientation follows
``dq/dt = ½ q ⊗ (0, ω)`` for body-frame ω (Bourg, ch. 11), so every
orientation step is ``q ← q ⊗ Δq``.

All integrators are one-step methods on this one state (none keeps a
history), so switching between two steps never makes the state jump.

The steppers are compiled by numba for a given loads function
(:meth:`Integrator.stepper`), and the very same source runs as plain Python
when the loads are a Python callable (:meth:`Integrator.py_stepper`).
Layout follows scipy's ``solve_ivp`` registry: a name → object mapping whose
objects carry their ``order``; an unknown name raises with the valid ones.
"""

import math
from collections import OrderedDict

import numpy as np
from numba import njit

from flightsim import kernels
from flightsim.kernels import turn

#: Slices of the state vector.
X, V, Q, W = slice(0, 3), slice(3, 6), slice(6, 10), slice(10, 13)
STATE_SIZE = 13

jit = kernels.jit


def _python(f):
    """Stand-in for :data:`jit` that leaves a function as Python."""
    return f


# --------------------------------------------------------------------------- helpers


@jit
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


@jit
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
    if not math.isfinite(total):
        return math.nan
    return n - 1.0


@jit
def cross(ax, ay, az, bx, by, bz):
    """Vector product ``a × b``."""
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@jit
def exp_turn(qw, qx, qy, qz, px, py, pz):
    """``q ⊗ Exp(φ)``: turn by the body-frame rotation vector φ exactly."""
    ca, sa = kernels.dq_exact(px, py, pz, 1.0)
    return turn(qw, qx, qy, qz, ca, sa, px, py, pz)


# --------------------------------------------------------------------------- step factories
# Each factory returns step(y, t, h, params, inertia, inertia_inv, renorm) -> |q|-1,
# compiled with ``jit`` around the given loads function.


def _semi_implicit(increment):
    """Bourg's StepSimulation order with the orientation update ``q ⊗ Δq(ω_new h)``.

    Loads; v += a h; x += v h (new v); ω += α h; q ← q ⊗ Δq(ω h) with the
    new ω; renormalise.  First order on the coupled state.
    """

    def factory(loads, jit):
        @jit
        def step(y, t, h, params, inertia, inertia_inv, renorm):
            ax, ay, az, mx, my, mz = loads(t, y, params)
            y[3] += ax * h
            y[4] += ay * h
            y[5] += az * h
            y[0] += y[3] * h
            y[1] += y[4] * h
            y[2] += y[5] * h
            dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
            y[10] += dx * h
            y[11] += dy * h
            y[12] += dz * h
            px = y[10] * h
            py = y[11] * h
            pz = y[12] * h
            ca, sa = increment(px, py, pz, h)
            qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], ca, sa, px, py, pz)
            return store_q(y, qw, qx, qy, qz, renorm)

        return step

    return factory


def _matrix(loads, jit):
    """Integrate R directly: ``R ← R + h R Ω(ω)`` (body-frame ω), re-orthonormalised.

    Translation and ω as in Bourg's step.  Re-orthonormalisation iterates
    the Newton step of the polar decomposition, ``R ← (3R − R Rᵀ R)/2``,
    until RᵀR = I to rounding (symmetric, so no axis is favoured, unlike
    Gram–Schmidt).  The result
    is reported as a quaternion on the same hemisphere as the previous one.
    """

    @jit
    def step(y, t, h, params, inertia, inertia_inv, renorm):
        ax, ay, az, mx, my, mz = loads(t, y, params)
        y[3] += ax * h
        y[4] += ay * h
        y[5] += az * h
        y[0] += y[3] * h
        y[1] += y[4] * h
        y[2] += y[5] * h
        dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
        y[10] += dx * h
        y[11] += dy * h
        y[12] += dz * h
        R = quat_to_matrix(y[6], y[7], y[8], y[9])
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

    return step


def _buss2(loads, jit):
    """Buss's augmented second-order attitude step (Buss 2000; JSBSim ``eBuss2``).

    ``ω̄ = ω + ½ h α + (h²/12) ω × α`` — the body-frame sign of Buss's
    ``α × ω`` term for earth-frame ω — then ``q ← q ⊗ Exp(h ω̄)``; ω by
    rectangular Euler (JSBSim's default rate integrator), translation as Bourg.
    """

    @jit
    def step(y, t, h, params, inertia, inertia_inv, renorm):
        ax, ay, az, mx, my, mz = loads(t, y, params)
        wx, wy, wz = y[10], y[11], y[12]
        dx, dy, dz = omega_dot(wx, wy, wz, mx, my, mz, inertia, inertia_inv)
        cx, cy, cz = cross(wx, wy, wz, dx, dy, dz)
        c = h * h / 12.0
        px = (wx + 0.5 * h * dx + c * cx) * h
        py = (wy + 0.5 * h * dy + c * cy) * h
        pz = (wz + 0.5 * h * dz + c * cz) * h
        qw, qx, qy, qz = exp_turn(y[6], y[7], y[8], y[9], px, py, pz)
        y[3] += ax * h
        y[4] += ay * h
        y[5] += az * h
        y[0] += y[3] * h
        y[1] += y[4] * h
        y[2] += y[5] * h
        y[10] += dx * h
        y[11] += dy * h
        y[12] += dz * h
        return store_q(y, qw, qx, qy, qz, renorm)

    return step


def _rk4(loads, jit):
    """Classical Runge–Kutta 4 on the whole state with ``dq/dt = ½ q ⊗ (0, ω)``.

    Four load evaluations per step; q renormalised at the end.
    """

    @jit
    def deriv(t, y, params, inertia, inertia_inv, out):
        ax, ay, az, mx, my, mz = loads(t, y, params)
        out[0:3] = y[3:6]
        out[3] = ax
        out[4] = ay
        out[5] = az
        qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], 0.0, 0.5, y[10], y[11], y[12])
        out[6] = qw  # turn() with ca = 0, sa = ½ is ½ q ⊗ (0, ω)
        out[7] = qx
        out[8] = qy
        out[9] = qz
        out[10], out[11], out[12] = omega_dot(
            y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv
        )

    @jit
    def step(y, t, h, params, inertia, inertia_inv, renorm):
        k1 = np.empty(13)
        k2 = np.empty(13)
        k3 = np.empty(13)
        k4 = np.empty(13)
        deriv(t, y, params, inertia, inertia_inv, k1)
        deriv(t + 0.5 * h, y + 0.5 * h * k1, params, inertia, inertia_inv, k2)
        deriv(t + 0.5 * h, y + 0.5 * h * k2, params, inertia, inertia_inv, k3)
        deriv(t + h, y + h * k3, params, inertia, inertia_inv, k4)
        y += (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        return store_q(y, y[6], y[7], y[8], y[9], renorm)

    return step


def _rkmk4(loads, jit):
    """Runge–Kutta–Munthe-Kaas 4: RK4 in the Lie algebra, q moved only by exponentials.

    The orientation is ``q0 ⊗ Exp(u)``; stage ``i`` evaluates the loads at
    ``q0 ⊗ Exp(u_i)`` and maps the body rate back to ``u̇`` with
    ``dexp⁻¹_{−u}(ω) = ω + ½ u × ω + (1/12) u × (u × ω)`` (truncated where
    4th order allows).  Position, velocity and ω follow the classical RK4
    tableau.  |q| = 1 to rounding, with no renormalisation (Munthe-Kaas 1999).
    """

    @jit
    def stage(t, y0, dy, u, params, inertia, inertia_inv, out, ku):
        # Evaluate the derivatives at x, v, ω = y0 + dy and q = q0 ⊗ Exp(u).
        ys = y0 + dy
        ys[6], ys[7], ys[8], ys[9] = exp_turn(y0[6], y0[7], y0[8], y0[9], u[0], u[1], u[2])
        ax, ay, az, mx, my, mz = loads(t, ys, params)
        out[0:3] = ys[3:6]
        out[3] = ax
        out[4] = ay
        out[5] = az
        out[10], out[11], out[12] = omega_dot(
            ys[10], ys[11], ys[12], mx, my, mz, inertia, inertia_inv
        )
        wx, wy, wz = ys[10], ys[11], ys[12]
        c1x, c1y, c1z = cross(u[0], u[1], u[2], wx, wy, wz)
        c2x, c2y, c2z = cross(u[0], u[1], u[2], c1x, c1y, c1z)
        ku[0] = wx + 0.5 * c1x + c2x / 12.0
        ku[1] = wy + 0.5 * c1y + c2y / 12.0
        ku[2] = wz + 0.5 * c1z + c2z / 12.0

    @jit
    def step(y, t, h, params, inertia, inertia_inv, renorm):
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
        stage(t, y, zeros, zero, params, inertia, inertia_inv, k1, u1)
        stage(t + 0.5 * h, y, 0.5 * h * k1, 0.5 * h * u1, params, inertia, inertia_inv, k2, u2)
        stage(t + 0.5 * h, y, 0.5 * h * k2, 0.5 * h * u2, params, inertia, inertia_inv, k3, u3)
        stage(t + h, y, h * k3, h * u3, params, inertia, inertia_inv, k4, u4)
        u = (h / 6.0) * (u1 + 2.0 * u2 + 2.0 * u3 + u4)
        qw, qx, qy, qz = exp_turn(y[6], y[7], y[8], y[9], u[0], u[1], u[2])
        dy = (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        y[0:6] += dy[0:6]
        y[10:13] += dy[10:13]
        return store_q(y, qw, qx, qy, qz, renorm)

    return step


@jit
def quat_to_matrix(n, x, y, z):
    """Rotation matrix body → earth of a unit quaternion (compiled twin of quat.to_matrix)."""
    R = np.empty((3, 3))
    R[0, 0] = n * n + x * x - y * y - z * z
    R[0, 1] = 2.0 * (x * y - z * n)
    R[0, 2] = 2.0 * (x * z + y * n)
    R[1, 0] = 2.0 * (x * y + z * n)
    R[1, 1] = n * n - x * x + y * y - z * z
    R[1, 2] = 2.0 * (y * z - x * n)
    R[2, 0] = 2.0 * (x * z - y * n)
    R[2, 1] = 2.0 * (y * z + x * n)
    R[2, 2] = n * n - x * x - y * y + z * z
    return R


@jit
def matrix_to_quat(R):
    """Quaternion of a rotation matrix by Shepperd's method (compiled, unnormalised)."""
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


# --------------------------------------------------------------------------- registry


class Integrator:
    """A named rigid-body stepper.

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
    """

    def __init__(self, name, label, order, description, factory, increment=None, loads_per_step=1):
        self.name = name
        self.label = label
        self.order = order
        self.description = description
        self.increment = increment
        self.loads_per_step = loads_per_step
        self._factory = factory
        self._compiled = {}

    def stepper(self, loads):
        """Compiled step for a numba-compiled ``loads`` (built once per loads function).

        Returns
        -------
        callable
            ``step(y, t, h, params, inertia, inertia_inv, renorm) -> float``:
            advances ``y`` in place by ``h`` and returns ``|q| − 1`` before
            renormalising.
        """
        key = id(loads)
        if key not in self._compiled:
            self._compiled[key] = (loads, self._factory(loads, jit))
        return self._compiled[key][1]

    def py_stepper(self, loads):
        """The same step as plain Python, for a ``loads`` that is a Python callable."""
        return self._factory(loads, _python)

    def __repr__(self):
        return f"<Integrator {self.name!r} order={self.order}>"


def _register(*integrators):
    return OrderedDict((i.name, i) for i in integrators)


_SEED = (
    "the seed note 'rotate quaternion by vector'"
)

#: name → :class:`Integrator`, in the order the HUD lists them.
INTEGRATORS = _register(
    Integrator(
        "euler", "Euler (Bourg)", 1,
        "Bourg's StepSimulation: v, x, ω by explicit Euler, then q += ½ q⊗(0,ω) dt with the new ω, "
        "renormalised (Physics for Game Developers, ch. 11/15; Bullet's QUATERNION_DERIVATIVE).",
        _semi_implicit(kernels.dq_first_order), increment="euler",
    ),
    Integrator(
        "exact", "Exact exp", 1,
        "Bourg's order for v, x, ω; q ⊗ (cos θ/2, sin(θ/2)/θ·φ), φ = ω dt: exact for constant ω "
        f"({_SEED}, rotate_quaternion_by_vector_vec).",
        _semi_implicit(kernels.dq_exact), increment="exact",
    ),
    Integrator(
        "taylor2", "Taylor 2", 1,
        "Bourg's order for v, x, ω; q ⊗ (1 − θ²/8, (½ − θ²/48)·φ): no trigonometry, no square root "
        f"({_SEED}, rotate_quaternion_by_vector_Fast).",
        _semi_implicit(kernels.dq_taylor2), increment="taylor2",
    ),
    Integrator(
        "taylor2-half", "Taylor 2, half angle", 1,
        f"As taylor2 at the half angle, doubled once: five more multiplications ({_SEED}).",
        _semi_implicit(kernels.dq_taylor2_half), increment="taylor2-half",
    ),
    Integrator(
        "taylor2-quarter", "Taylor 2, quarter angle", 1,
        f"As taylor2 at the quarter angle, doubled twice ({_SEED}).",
        _semi_implicit(kernels.dq_taylor2_quarter), increment="taylor2-quarter",
    ),
    Integrator(
        "bullet", "Bullet exp map", 1,
        "Bourg's order for v, x, ω; Bullet's integrateTransform exponential map (Grassia 1998) with its "
        "small-rate Taylor branch and its π/4-per-step angular-motion clamp (the clamped rate in the "
        "factor, the unclamped ω on the axis, then normalised — as Bullet does).",
        _semi_implicit(kernels.dq_bullet), increment="bullet",
    ),
    Integrator(
        "matrix", "Rotation matrix", 1,
        "Bourg's order for v, x, ω; R += dt·R·Ω(ω) integrated directly, re-orthonormalised by polar "
        "(Newton) iterations, reported as a quaternion (Physics for Game Developers, ch. 11).",
        _matrix,
    ),
    Integrator(
        "buss2", "Buss 2 (JSBSim)", 1,
        "Buss's augmented second-order attitude step, ω̄ = ω + ½dt α + dt²/12 ω×α, q ⊗ Exp(dt ω̄); ω, v, x "
        "by Euler as JSBSim's defaults (Buss 2000; JSBSim FGPropagate eBuss2). Attitude is 2nd order for a "
        "given ω; the Euler step of ω makes the coupled state 1st order.",
        _buss2,
    ),
    Integrator(
        "rk4", "Runge-Kutta 4", 4,
        "Classical Runge-Kutta 4 on the whole state (x, v, q, ω) with dq/dt = ½ q⊗(0,ω), renormalised at "
        "the end: four load evaluations per step.",
        _rk4, loads_per_step=4,
    ),
    Integrator(
        "rkmk4", "RK Munthe-Kaas 4", 4,
        "Runge-Kutta-Munthe-Kaas 4: RK4 in the Lie algebra with dexp⁻¹ to 2nd order, q moved only by "
        "exponentials so |q| = 1 by construction (Munthe-Kaas 1999; Iserles et al. 2000).",
        _rkmk4, loads_per_step=4,
    ),
)


def get(name):
    """Look up an integrator; an unknown name raises ``ValueError`` listing the valid ones."""
    try:
        return INTEGRATORS[name]
    except (KeyError, TypeError):
        valid = ", ".join(INTEGRATORS)
        raise ValueError(f"integrator: unknown name {name!r}; valid: {valid}") from None

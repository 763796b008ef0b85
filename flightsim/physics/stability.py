"""Linear stability of the integrators: their regions in the complex plane and the largest stable dt.

An integrator applied to the linear test equation ``ẏ = λ y`` multiplies the
solution by ``R(z)`` per step, ``z = λ dt``; it is stable where ``|R(z)| ≤ 1``.
A mode of the airplane with eigenvalue λ stays bounded in the simulation only
while ``λ dt`` lies inside that region (for a physically decaying mode; a
growing one, like a divergent spiral, grows whatever the integrator).

That picture is exact for a method that treats the whole state alike (RK4,
RKMK4).  Bourg's step and its relatives are *partitioned*: v and ω by
explicit Euler, then x and q with the *new* v and ω (symplectic Euler), so on
the airplane's coupled modes they are more stable than explicit Euler's disk
says.  What decides is the step's own amplification matrix on the airplane:
:func:`mode_multipliers` differentiates one step of the integrator at the trim
(``Φ = ∂ step / ∂ x``, central differences in the linear model's states) and
gives each mode its multiplier ``μ`` (``e^{λ dt}`` for an exact step); a mode
whose ``|μ|`` exceeds both 1 and ``|e^{λ dt}|`` is one the integrator makes
diverge.  :func:`largest_stable_dt` is the largest dt with none.

Each registered integrator brings its region: its ``stability`` attribute is
the stability function where one is known in closed form (explicit Euler
``1 + z``, classical RK4 ``1 + z + z²/2 + z³/6 + z⁴/24``), or None — then
:func:`amplification` *measures* ``R(z)`` by taking one step of the
integrator on the test equation written as a rigid body: unit inertia (so
``ω × Iω = 0``) and a body moment ``M = Λ ω`` with ``Λ = [[Re λ, −Im λ],
[Im λ, Re λ]]`` on (ωx, ωy), which is ``ẏ = λ y`` for ``y = ωx + i ωy``.
"""

import math
from functools import lru_cache

import numpy as np

from flightsim.physics import integrators, modes, rigidbody

#: Stability functions in closed form (the registry's integrators carry them).
explicit_euler = integrators.explicit_euler_stability
rk4 = integrators.rk4_stability


def measured_amplification(name, z):
    """``R(z)`` of the integrator ``name`` measured by one step on the rigid-body test equation.

    Parameters
    ----------
    name : str
        A registered integrator.
    z : complex
        ``λ dt``.
    """
    z = complex(z)

    def torque(t, q, w):
        return np.array([z.real * w[0] - z.imag * w[1], z.imag * w[0] + z.real * w[1], 0.0])

    # A small ω keeps the body's turn in the step small (the test equation is linear in ω; the
    # attitude update of some steps, the matrix one, Bullet's clamp, is not linear in the angle).
    w0 = 1e-6
    try:
        _, w = rigidbody.propagate([1, 0, 0, 0], [w0, 0.0, 0.0], np.eye(3), 1.0, 1, name, torque=torque)
    except FloatingPointError:
        return complex(math.inf, 0.0)
    return complex(w[0], w[1]) / w0


def amplification(name, z):
    """``R(z)`` of integrator ``name``: its stability function if it has one, else measured."""
    function = getattr(integrators.get(name), "stability", None)
    if function is not None:
        return complex(function(complex(z)))
    return measured_amplification(name, z)


def _stable(name, z):
    return abs(amplification(name, z)) <= 1.0 + 1e-12


@lru_cache(maxsize=None)
def region_boundary(name, rays=96, reach=8.0, tolerance=1e-4):
    """Boundary of the stability region of integrator ``name``, as a closed polyline.

    Found by bisection along rays from ``z = −0.5`` (inside every region
    here) to the first point where ``|R(z)| > 1``, out to ``reach``.

    Returns
    -------
    numpy.ndarray, shape (rays + 1, 2)
        ``[Re z, Im z]`` points, the first repeated at the end.
    """
    centre = -0.5
    points = []
    for k in range(rays):
        angle = 2.0 * math.pi * k / rays
        d = complex(math.cos(angle), math.sin(angle))
        inside, outside = 0.0, None
        r = 0.05
        while r <= reach:
            if _stable(name, centre + r * d):
                inside = r
                r *= 1.25
            else:
                outside = r
                break
        if outside is None:
            outside = inside
        while outside - inside > tolerance:
            mid = 0.5 * (inside + outside)
            inside, outside = (mid, outside) if _stable(name, centre + mid * d) else (inside, mid)
        z = centre + inside * d
        points.append((z.real, z.imag))
    points.append(points[0])
    return np.array(points)


def region_dt_limit(name, eigenvalues, dt_max=10.0, resolution=1e-3):
    """Largest dt at which every decaying ``λ`` has ``λ dt`` inside the region of ``name``.

    The test-equation prediction; for partitioned steps see :func:`largest_stable_dt`.
    Growing or neutral modes (``Re λ ≥ 0``) are left out: they grow whatever the integrator does.
    """
    lams = [complex(lam) for lam in eigenvalues if complex(lam).real < 0.0]
    return _bisect_dt(lambda dt: all(_stable(name, lam * dt) for lam in lams), dt_max, resolution)


def _bisect_dt(ok, dt_max, resolution):
    """Largest dt ≤ dt_max with ``ok(dt)``, scanning up from 1e-3 s by factors of 1.1, then bisecting."""
    dt = 1e-3
    if not ok(dt):
        return 0.0
    while dt * 1.1 <= dt_max and ok(dt * 1.1):
        dt *= 1.1
    if dt * 1.1 > dt_max:
        return dt_max if ok(dt_max) else dt
    lo, hi = dt, dt * 1.1
    while (hi - lo) / lo > resolution:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def step_jacobian(name, linear, dt, model):
    """``Φ = ∂ x_{n+1} / ∂ x_n`` of one step of integrator ``name`` at the trim of ``linear``.

    Central differences over the linear model's states (:data:`flightsim.physics.modes.STATES`),
    with the trim's controls held.
    """
    trim = linear.trim
    method = integrators.get(name)
    x0 = modes.linear_state(trim.state)
    controls = np.array([trim.throttle, trim.elevator, trim.aileron, trim.rudder, trim.flaps])

    def step(x):
        y = modes.state_vector(x, trim)
        model.set_controls(controls)
        method.step(y, 0.0, dt, model.params, model.inertia, model.inertia_inv)
        return modes.linear_state(y)

    V = trim.airspeed
    h = np.array([1e-4 * V, 1e-4 * V, 1e-4 * V, 1e-5, 1e-5, 1e-5, 1e-6, 1e-6])
    P = np.empty((8, 8))
    for j in range(8):
        e = np.zeros(8)
        e[j] = h[j]
        P[:, j] = (step(x0 + e) - step(x0 - e)) / (2.0 * h[j])
    return P


def mode_multipliers(name, linear, named_modes, dt, model):
    """Each mode's multiplier per step under integrator ``name`` at ``dt``.

    The eigenvalues of :func:`step_jacobian` are matched to the modes by their
    eigenvectors (in the scaled coordinates :func:`flightsim.physics.modes.dynamic_modes` uses).

    Returns
    -------
    list of (Mode, complex, bool)
        The mode, its multiplier μ, and whether the integrator keeps it bounded
        (``|μ| ≤ max(1, |e^{λ dt}|)``, to a relative 1e-6).
    """
    mus, vecs = np.linalg.eig(step_jacobian(name, linear, dt, model))
    V = linear.trim.airspeed
    scale = np.array([1 / V, 1 / V, 1 / V, 1.0, 1.0, 1.0, 1.0, 1.0])
    w = vecs * scale[:, None]
    w /= np.linalg.norm(w, axis=0)
    result = []
    for mode in named_modes:
        v = mode.eigenvector * scale
        v = v / np.linalg.norm(v)
        k = int(np.argmax(np.abs(np.conj(v) @ w)))
        mu = complex(mus[k])
        exact = abs(np.exp(mode.eigenvalue * dt))
        result.append((mode, mu, bool(abs(mu) <= max(1.0, exact) * (1.0 + 1e-6))))
    return result


def largest_stable_dt(name, linear, named_modes, model, dt_max=2.0, resolution=1e-3):
    """Largest dt (s) at which integrator ``name`` keeps every mode of the trimmed airplane bounded.

    See :func:`mode_multipliers`; modes the airplane itself makes grow are not held against it.
    """
    return _bisect_dt(lambda dt: all(ok for _, _, ok in mode_multipliers(name, linear, named_modes, dt, model)),
                      dt_max, resolution)

"""Rotational propagation of a free (or torqued) rigid body.

:func:`propagate` advances an orientation quaternion and a body-frame angular
velocity through Euler's equations with any registered integrator.  With no
torque the whole loop runs compiled; with a torque callable (plain Python or
numba-compiled, called from Python) the very same integrator source runs as
Python around it (:meth:`~flightsim.physics.integrators.Integrator.python_step`).
"""

import math

import numpy as np

from flightsim.math import quat
from flightsim.physics import aero, divergence, integrators
from flightsim.physics.steps import STATE_SIZE, Q, W

#: Loads parameters of a free body (no elements, no thrust, no gravity).
FREE_BODY = aero.free_body()


def check_inertia(inertia, name="inertia"):
    """Validate a 3×3 inertia tensor: finite, symmetric, positive definite.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The tensor and its inverse (float64, C-contiguous).

    Raises
    ------
    ValueError
        Naming ``name`` and the reason.
    """
    tensor = np.asarray(inertia, dtype=np.float64)
    if tensor.shape != (3, 3):
        raise ValueError(f"{name}: expected shape (3, 3), got {tensor.shape}")
    if not np.all(np.isfinite(tensor)):
        raise ValueError(f"{name}: contains a non-finite value")
    scale = np.max(np.abs(tensor))
    if scale == 0.0:
        raise ValueError(f"{name}: is zero (singular)")
    if not np.allclose(tensor, tensor.T, rtol=0.0, atol=1e-12 * scale):
        raise ValueError(f"{name}: is not symmetric")
    eig = np.linalg.eigvalsh(tensor)
    if eig[0] <= 1e-12 * scale:
        raise ValueError(f"{name}: is singular or not positive definite (eigenvalues {eig})")
    return np.ascontiguousarray(tensor), np.ascontiguousarray(np.linalg.inv(tensor))


def check_dt(dt, name="dt"):
    """Return ``dt`` as a float, or raise ``ValueError`` unless it is finite and > 0."""
    try:
        value = float(dt)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be a number, got {dt!r}") from None
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name}: must be finite and > 0, got {dt!r}")
    return value


def propagate(q0, omega0, inertia, dt, steps, integrator="euler", torque=None, renormalize=True):
    """Advance a rigid body's orientation and angular velocity.

    Parameters
    ----------
    q0 : array_like, shape (4,)
        Initial orientation, body → earth, ``[w, x, y, z]`` (normalised here).
    omega0 : array_like, shape (3,)
        Initial angular velocity, body frame, rad/s.
    inertia : array_like, shape (3, 3)
        Inertia tensor about the centre of mass, body frame; products of
        inertia allowed; symmetric positive definite.
    dt : float
        Step, s.
    steps : int
        Number of steps (≥ 0).
    integrator : str
        A name in :data:`flightsim.integrators.INTEGRATORS`.
    torque : callable or None
        ``torque(t, q, omega) -> body moment (3,)``; None for a free body.
    renormalize : bool
        Renormalise q after each step (where the integrator does so).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Final ``q`` (4,) and ``omega`` (3,).

    Raises
    ------
    ValueError
        Bad input, naming the argument.
    FloatingPointError
        The integration diverged (the state stopped being finite, or q degenerated); the only exception a
        diverging integration raises, worded as every flight's stop (:mod:`flightsim.physics.divergence`).
    """
    q = quat.normalize(quat.as_quat(q0, "q0"))
    if q.shape != (4,):
        raise ValueError(f"q0: expected shape (4,), got {q.shape}")
    w = quat.as_vec(omega0, "omega0")
    if w.shape != (3,):
        raise ValueError(f"omega0: expected shape (3,), got {w.shape}")
    tensor, inertia_inv = check_inertia(inertia)
    h = check_dt(dt)
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps: must be a whole number ≥ 0, got {steps!r}")
    method = integrators.get(integrator)
    if torque is not None and not callable(torque):
        raise ValueError(f"torque: must be callable (t, q, omega) -> moment, or None, got {torque!r}")

    y = np.zeros(STATE_SIZE)
    y[Q] = q
    y[W] = w
    t = None
    if torque is None:
        worst = method.run(y, 0.0, h, int(steps), FREE_BODY, tensor, inertia_inv, bool(renormalize))
    else:

        def loads(t, y, params):
            m = np.asarray(torque(t, y[6:10].copy(), y[10:13].copy()), dtype=np.float64)
            if m.shape != (3,) or not np.all(np.isfinite(m)):
                if not np.all(np.isfinite(y)):
                    return math.nan, math.nan, math.nan, math.nan, math.nan, math.nan   # the state diverged
                raise ValueError(f"torque: must return 3 finite numbers, got {m!r}")
            return 0.0, 0.0, 0.0, m[0], m[1], m[2]

        step = method.python_step(loads)
        worst = 0.0
        for k in range(int(steps)):
            worst = divergence.python_step_result(step, y, k * h, h, FREE_BODY, tensor, inertia_inv, bool(renormalize))
            if divergence.diverged(worst):
                t = k * h
                break
    if divergence.diverged(worst):
        raise FloatingPointError(divergence.message(method.name, t, h, y))
    return y[Q].copy(), y[W].copy()

"""How a step says it diverged: one test, one reason, one message, on every path.

Every compiled step (:mod:`flightsim.physics.integrators`) returns ``|q| − 1``
before renormalising, and NaN when the state is no longer finite or its
quaternion has degenerated to zero length (``store_q``); the compiled physics
never raises on arithmetic (numba's ``error_model="numpy"``: a division by
zero gives inf or NaN, which that test then sees).  So there is one signal,
:func:`diverged`, and everything that steps a state — the flight
(:class:`flightsim.simulation.flight.Simulation`), the batch, the spin scene's
body and its ghost, :func:`flightsim.physics.rigidbody.propagate`, the lab —
reads it and words the stop with :func:`message`:

    stopped at t = 1.250 s: the state became non-finite with integrator 'euler' at dt = 0.05 s

A flight stops there and keeps its last finite state (never raises);
:func:`~flightsim.physics.rigidbody.propagate`, which returns a state, raises
:class:`FloatingPointError` with the same message.

The same step run as plain Python (a Python torque: :meth:`Integrator.python_step
<flightsim.physics.integrators.Integrator.python_step>`) meets Python's
arithmetic instead, which raises where IEEE arithmetic gives inf or NaN
(``ZeroDivisionError``, ``OverflowError``, a math domain ``ValueError`` on an
infinite angle); :func:`python_step_result` turns those into the same signal.
"""

import math

import numpy as np

#: The reasons :func:`reason` gives.
NONFINITE = "the state became non-finite"
DEGENERATE = "the quaternion degenerated to zero length"


def diverged(err):
    """True when a step's return value ``err`` (``|q| − 1``) says the state diverged (NaN or infinite)."""
    return not math.isfinite(err)


def reason(y):
    """Why the 13-number state ``y`` (``[x, v, q, ω]``) cannot go on: :data:`NONFINITE` or :data:`DEGENERATE`."""
    y = np.asarray(y, dtype=np.float64)
    if not np.all(np.isfinite(y)):
        return NONFINITE
    if not float(np.dot(y[6:10], y[6:10])) > 0.0:
        return DEGENERATE
    return NONFINITE      # finite, yet the step said NaN: something in between overflowed


def message(integrator, t, dt, y):
    """The stop message of a step that diverged from time ``t`` (s) with ``integrator`` (a name) at step ``dt`` (s).

    ``y`` is the state the step left (its :func:`reason` goes into the text); ``t`` None when the time is not
    known (a run of compiled steps).
    """
    when = "stopped" if t is None else f"stopped at t = {t:.3f} s"
    return f"{when}: {reason(y)} with integrator '{integrator}' at dt = {dt:g} s"


def python_step_result(step, y, *args):
    """Run a Python-run step ``step(y, *args)``; return its ``|q| − 1``, or NaN where Python's arithmetic raised on
    a diverging state.

    ``ZeroDivisionError`` and ``OverflowError`` (Python raises where IEEE gives inf), and a ``ValueError`` raised
    while the state is no longer finite (``math.cos(inf)``), are divergence; a ``ValueError`` with a finite state
    is a real error (a torque callable refusing its input) and goes on up.
    """
    try:
        return step(y, *args)
    except ArithmeticError:
        return math.nan
    except ValueError:
        if np.all(np.isfinite(y)):
            raise
        return math.nan


def check_state(y, what):
    """Refuse a state a step could not start from: ``ValueError("<what>: …")`` unless every number of the
    13-number state ``y`` (or rows of them) is finite and each q's |q|² is positive (a q of 1e-170 squares to 0)."""
    rows = np.asarray(y, dtype=np.float64).reshape(-1, 13)
    if not np.all(np.isfinite(rows)):
        raise ValueError(f"{what}: not finite")
    if not np.all(np.einsum("ij,ij->i", rows[:, 6:10], rows[:, 6:10]) > 0.0):
        raise ValueError(f"{what}: q is zero (or too small to square)")

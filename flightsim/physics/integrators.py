"""Rigid-body integrators, selectable by name: the registry :data:`INTEGRATORS`.

Each :class:`Integrator` names a step function of :mod:`flightsim.physics.steps`
(which advances the 13-number state ``[x, v, q, ω]`` by one step in place) and
says what it is: its label, order, description, the orientation increment of
:data:`flightsim.kernels.INCREMENTS` it applies (if any) and its stability
function.  Layout follows scipy's ``solve_ivp`` registry: a name → object
mapping whose objects carry their ``order``; an unknown name raises with the
valid ones (:func:`get`).

Adding an integrator is one step function and one registration: write
``step_<name>(y, t, h, params, inertia, inertia_inv, renorm, increment_id) -> |q| − 1``
in :mod:`flightsim.physics.steps`, evaluating ``loads(t, y, params)``, and add
an :class:`Integrator` entry naming it to :data:`INTEGRATORS`.  Everything
else follows: the step's number in :data:`STEPS` and the compiled
:func:`step_by_number` dispatch (:mod:`flightsim.physics.steps`), the Python
re-make used for Python loads (:mod:`flightsim.physics.step_entries`).  Import
fails, naming the function, if a step has the wrong parameters, never
evaluates the loads, or is named by no entry here.  A flight
(:class:`flightsim.simulation.Simulation`) compiles only its own integrator's
step: :func:`step_entry` calls that one step and no other, so a first start
does not compile all of them (the batch and :meth:`Integrator.run` keep the
dispatch).  A variant with another orientation increment reuses a step:
``Integrator(..., step_rkmk4, increment="bullet")``.

This module is the public :mod:`flightsim.integrators`: besides the registry it
re-exports, as before, the names of :mod:`flightsim.physics.steps` (the state's
layout, the step functions and their helpers) and of
:mod:`flightsim.physics.step_entries` (how Python runs a step).
"""

from collections import OrderedDict

from flightsim.math.kernels import INCREMENT_COUNT, INCREMENT_IDS
from flightsim.physics import steps

# the names of the steps and of their entries, re-exported: ``integrators.step_rk4``, ``integrators.X`` … as before
from flightsim.physics.step_entries import (  # noqa: F401
    LOADS_CALLERS,
    LOADS_NAMES,
    entry_compiled,
    python_step,
    run_steps,
    start_fields,
    step_entry,
    step_fields,
)
from flightsim.physics.steps import (  # noqa: F401
    MIDPOINT_ITERATIONS,
    MIDPOINT_STALL,
    MIDPOINT_TOLERANCE,
    SPLIT_ORDER,
    STATE_SIZE,
    STEP_ARGS,
    STEPS,
    UNKNOWN_SELECTOR,
    Q,
    V,
    W,
    X,
    added,
    cross,
    derivative,
    euler_kick,
    exp_turn,
    free_flow_split,
    free_rotor,
    group_turn,
    gyro_jacobian,
    mat_vec,
    omega_dot,
    principal_axes,
    rk4_deriv,
    rkmk4_stage,
    solve33,
    step_buss2,
    step_by_number,
    step_by_number_inline,
    step_gyro_clamped,
    step_gyro_implicit,
    step_matrix,
    step_midpoint,
    step_rk4,
    step_rkmk4,
    step_semi_implicit,
    step_splitting,
    store_q,
    translate,
    twice_added,
)


def _step_number(step, name):
    """Number of ``step`` in the compiled dispatch (:data:`STEPS`); a function that is not a step there raises."""
    for k, known in enumerate(STEPS):
        if known is step:
            return k
    fname = getattr(getattr(step, "py_func", step), "__name__", repr(step))
    raise RuntimeError(
        f"integrator {name!r}: step {fname} is not in the compiled dispatch; new step functions are written in "
        f"{steps.__name__} (each compiled function there taking {', '.join(STEP_ARGS)} is one)"
    )


#: The steps that apply one of the seed's increments (``increment_id``): whether each needs one (True) or falls
#: back on the exact exponential without one (False).  Every other step ignores ``increment_id``.
INCREMENT_STEPS = ((step_semi_implicit, True), (step_rkmk4, False))


def _increment_use(step):
    """True: ``step`` needs an increment; False: it may take one; None: it applies none."""
    for known, needs in INCREMENT_STEPS:
        if known is step:
            return needs
    return None


def check_selectors(name, number, increment_id):
    """Refuse a step number or increment number outside the registry: ``LookupError`` naming it.

    Compiled code cannot raise freely, so the compiled dispatch returns
    :data:`UNKNOWN_SELECTOR` for a number it does not know; this is the check
    in Python, before the compiled call or on that status after it.
    """
    if not 0 <= number < len(STEPS):
        raise LookupError(f"integrator {name!r}: step number {number} is not in the registry "
                          f"(0 to {len(STEPS) - 1}: {', '.join(f.py_func.__name__ for f in STEPS)})")
    needs = _increment_use(STEPS[number])
    lowest = 0 if needs else -1
    if needs is not None and not lowest <= increment_id < INCREMENT_COUNT:
        raise LookupError(f"integrator {name!r}: increment number {increment_id} is not in the registry "
                          f"({lowest} to {INCREMENT_COUNT - 1}: {', '.join(INCREMENT_IDS)})")


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

    It names one of the step functions of :mod:`flightsim.physics.steps`
    (numbered there in :data:`STEPS`, the compiled :func:`step_by_number`'s
    numbers); every one of them is named by an entry of :data:`INTEGRATORS`,
    and later objects (a variant with another increment, say) may reuse them.

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
    number, increment_id : int
        Number of the step function in :data:`STEPS`, and of the increment in
        :data:`flightsim.kernels.INCREMENT_IDS` (−1: none).
    """

    def __init__(self, name, label, order, description, step, increment=None, stability=None):
        fname = getattr(getattr(step, "py_func", step), "__name__", repr(step))
        needs = _increment_use(step)
        if increment is not None and increment not in INCREMENT_IDS:
            raise ValueError(f"integrator {name!r}: unknown increment {increment!r}; "
                             f"valid: {', '.join(INCREMENT_IDS)}")
        if increment is not None and needs is None:
            raise ValueError(f"integrator {name!r}: {fname} applies no increment, so increment={increment!r} "
                             f"would be ignored")
        if increment is None and needs:
            raise ValueError(f"integrator {name!r}: {fname} needs an increment, one of "
                             f"{', '.join(INCREMENT_IDS)}")
        self.name = name
        self.stability = stability
        self.label = label
        self.order = order
        self.description = description
        self.increment = increment
        self.function = step
        self.number = _step_number(step, name)
        self.increment_id = INCREMENT_IDS[increment] if increment else -1

    def step(self, y, t, h, params, inertia, inertia_inv, renorm=True):
        """Advance ``y`` in place by ``h`` (compiled); return ``|q| − 1`` before renormalising.

        NaN when the state is no longer finite.  ``params`` is a
        :class:`~flightsim.physics.aero.LoadParams` from :func:`flightsim.physics.aero.pack`
        (or :func:`flightsim.physics.aero.free_body`).  ``LookupError`` if
        :attr:`number` or :attr:`increment_id` was set to one the registry lacks.
        """
        err = step_fields(self.number, y, t, h, tuple(params), inertia, inertia_inv, renorm, self.increment_id)
        if err == UNKNOWN_SELECTOR:
            check_selectors(self.name, self.number, self.increment_id)
        return err

    def run(self, y, t0, h, steps, params, inertia, inertia_inv, renorm=True):
        """``steps`` compiled steps in one call; returns the largest ``||q| − 1|`` seen (as :meth:`step`)."""
        worst = run_steps(self.number, y, t0, h, steps, params, inertia, inertia_inv, renorm, self.increment_id)
        if worst == UNKNOWN_SELECTOR:
            check_selectors(self.name, self.number, self.increment_id)
        return worst

    @property
    def entry(self):
        """This integrator's compiled step alone (:func:`step_entry`), for a flight that steps from Python."""
        return step_entry(self.function)

    @property
    def integrate_entry(self):
        """This integrator's compiled step without what runs once per step before it (:func:`step_entry` with
        ``start=False``), for a flight that ran that already (:func:`~flightsim.physics.step_entries.start_fields`,
        :meth:`flightsim.simulation.flight.Simulation.begin_step`)."""
        return step_entry(self.function, start=False)

    def python_step(self, python_loads):
        """The same step as plain Python, with a Python ``loads(t, y, params)`` callable.

        Returns ``step(y, t, h, params, inertia, inertia_inv, renorm) -> |q| − 1``.
        """
        f = python_step(self.function, python_loads)
        name, number, increment_id = self.name, self.number, self.increment_id

        def step(y, t, h, params, inertia, inertia_inv, renorm=True):
            err = f(y, t, h, params, inertia, inertia_inv, renorm, increment_id)
            if err == UNKNOWN_SELECTOR:
                check_selectors(name, number, increment_id)
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


_unnamed = [s.py_func.__name__ for s in STEPS if all(it.function is not s for it in INTEGRATORS.values())]
if _unnamed:
    raise RuntimeError(f"{', '.join(_unnamed)}: a step function that no Integrator of INTEGRATORS names")
del _unnamed


def get(name):
    """Look up an integrator; an unknown name raises ``ValueError`` listing the valid ones."""
    try:
        return INTEGRATORS[name]
    except (KeyError, TypeError):
        valid = ", ".join(INTEGRATORS)
        raise ValueError(f"integrator: unknown name {name!r}; valid: {valid}") from None

"""Every registered integrator against one reference (poliastro-style).

The reference is scipy's DOP853 at tight tolerance on Euler's equations and
dq/dt = ½ q ⊗ (0, ω), written here independently of flightsim; it is itself
checked against the public numbers of the JSBSim and NASA test bodies.
"""

import math
import os
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from flightsim.math import kernels, quat
from flightsim.physics import integrators, rigidbody, step_entries, steps
from flightsim.physics.integrators import INTEGRATORS

NAMES = list(INTEGRATORS)

# An asymmetric body with products of inertia (slug·ft², any consistent units).
INERTIA = np.array([[10.0, 0.8, -0.5], [0.8, 20.0, 0.6], [-0.5, 0.6, 26.0]])
Q0 = quat.normalize(np.array([0.9, 0.1, -0.2, 0.3]))
W0 = np.array([1.0, 2.0, 0.5])
T = 2.0


def rhs(t, s, inertia):
    q, w = s[:4], s[4:]
    qdot = 0.5 * np.array(
        [
            -q[1] * w[0] - q[2] * w[1] - q[3] * w[2],
            q[0] * w[0] + q[2] * w[2] - q[3] * w[1],
            q[0] * w[1] + q[3] * w[0] - q[1] * w[2],
            q[0] * w[2] + q[1] * w[1] - q[2] * w[0],
        ]
    )
    wdot = np.linalg.solve(inertia, -np.cross(w, inertia @ w))
    return np.r_[qdot, wdot]


def reference(q0, w0, inertia, t_end):
    sol = solve_ivp(rhs, (0.0, t_end), np.r_[q0, w0], method="DOP853", rtol=1e-13, atol=1e-13, args=(inertia,))
    s = sol.y[:, -1]
    return s[:4] / np.linalg.norm(s[:4]), s[4:]


@pytest.fixture(scope="module")
def ref():
    return reference(Q0, W0, INERTIA, T)


def errors(q, w, q_ref, w_ref):
    """Attitude error (rad) and relative ω error, each checked on its own."""
    return quat.angle_between(q, q_ref), np.linalg.norm(w - w_ref) / np.linalg.norm(w_ref)


def test_reference_reproduces_public_test_bodies():
    # JSBSim's rotation study: I = diag(10, 20, 26), ω0 = (1, 15, 1) rad/s, 10 s.
    _, w = reference(np.array([1.0, 0, 0, 0]), np.array([1.0, 15.0, 1.0]), np.diag([10.0, 20.0, 26.0]), 10.0)
    assert np.allclose(w, [-8.93298, 10.95152, 7.17716], atol=2e-5)
    # NASA NESC check case 2, the dragless tumbling brick, 30 s.
    brick = np.diag([0.001894220, 0.006211019, 0.007194665])
    _, w = reference(np.array([1.0, 0, 0, 0]), np.radians([10.0, 20.0, 30.0]), brick, 30.0)
    assert np.allclose(w, [0.220232, -0.303643, 0.543139], atol=2e-6)


@pytest.mark.parametrize("name", NAMES)
def test_converges_at_claimed_order(name, ref):
    order = INTEGRATORS[name].order
    counts = [200, 400, 800] if order == 1 else [25, 50, 100]
    errs = np.array([errors(*rigidbody.propagate(Q0, W0, INERTIA, T / n, n, name), *ref) for n in counts])
    slopes = np.log2(errs[:-1] / errs[1:])  # one column for attitude, one for ω
    # the coupled state converges at the order of its slowest part
    assert np.all(np.abs(slopes.min(axis=1) - order) < 0.25), (errs, slopes)


@pytest.mark.parametrize("name", ["rk4", "rkmk4"])
def test_public_bodies_with_fourth_order_methods(name):
    _, w = rigidbody.propagate([1.0, 0, 0, 0], [1.0, 15.0, 1.0], np.diag([10.0, 20.0, 26.0]), 1e-3, 10_000, name)
    assert np.allclose(w, [-8.93298, 10.95152, 7.17716], atol=1e-4)
    brick = np.diag([0.001894220, 0.006211019, 0.007194665])
    _, w = rigidbody.propagate([1.0, 0, 0, 0], np.radians([10.0, 20.0, 30.0]), brick, 0.01, 3000, name)
    assert np.allclose(w, [0.220232, -0.303643, 0.543139], atol=1e-5)


def invariants(q, w, inertia):
    energy = 0.5 * w @ inertia @ w
    momentum_earth = quat.rotate(q, inertia @ w)
    return energy, momentum_earth


@pytest.mark.parametrize("name", NAMES)
def test_energy_and_earth_momentum_drift_shrink_with_order(name):
    order = INTEGRATORS[name].order
    e0, h0 = invariants(Q0, W0, INERTIA)
    drifts = []
    for dt in (0.01, 0.005):
        q, w = rigidbody.propagate(Q0, W0, INERTIA, dt, int(round(T / dt)), name)
        e, h = invariants(q, w, INERTIA)
        drifts.append(max(abs(e - e0) / e0, np.linalg.norm(h - h0) / np.linalg.norm(h0)))
    bound = {1: 0.05, 2: 1e-4, 4: 1e-7}[order]
    assert drifts[1] < bound
    assert drifts[0] / drifts[1] > 2.0 ** order * 0.8, drifts


@pytest.mark.parametrize("name", NAMES)
def test_unit_norm(name):
    q, _ = rigidbody.propagate(Q0, W0 * 5, INERTIA, 0.01, 500, name)
    assert abs(np.linalg.norm(q) - 1.0) < 1e-12


def test_lie_group_method_is_unit_without_renormalising_and_euler_is_not():
    q, _ = rigidbody.propagate(Q0, W0 * 5, INERTIA, 0.01, 500, "rkmk4", renormalize=False)
    assert abs(np.linalg.norm(q) - 1.0) < 1e-12
    q, _ = rigidbody.propagate(Q0, W0 * 5, INERTIA, 0.01, 500, "euler", renormalize=False)
    assert np.linalg.norm(q) - 1.0 > 1e-3


@pytest.mark.parametrize("name", ["exact", "bullet", "buss2", "rkmk4"])
def test_exact_for_constant_omega(name):
    # A sphere's ω never changes, so these exponential-map methods have nothing to approximate.
    w0 = np.array([0.3, -1.2, 0.7])
    q, w = rigidbody.propagate(Q0, w0, 4.0 * np.eye(3), 0.05, 400, name)
    expected = quat.mul(Q0, quat.from_rotation_vector(w0 * 20.0))
    assert quat.angle_between(q, expected) < 1e-11
    assert np.array_equal(w, w0)


def test_kernels_differ_visibly_when_omega_is_fourth_order():
    # With ω, v, x advanced by RKMK4 stages, the increment's own error separates the variants.
    body = np.diag([10.0, 20.0, 26.0])
    q_ref, _ = reference(np.array([1.0, 0, 0, 0]), np.array([1.0, 15.0, 1.0]), body, 2.0)
    errs = {}
    for name in ("rkmk4-euler", "rkmk4-taylor2", "rkmk4"):
        q, _ = rigidbody.propagate([1.0, 0, 0, 0], [1.0, 15.0, 1.0], body, 1 / 240, 480, name)
        errs[name] = quat.angle_between(q, q_ref)
    assert errs["rkmk4-euler"] > 100 * errs["rkmk4-taylor2"] > 100 * errs["rkmk4"]


def test_kernels_differ_visibly_at_constant_omega():
    # With ω exact, the orientation error is the increment's own: taylor2 ≫ half ≫ quarter ≫ exact.
    w0 = np.array([0.3, -1.2, 0.7]) * 5
    expected = quat.mul(Q0, quat.from_rotation_vector(w0 * 2.0))
    errs = {}
    for name in ("euler", "taylor2", "taylor2-half", "taylor2-quarter", "exact"):
        q, _ = rigidbody.propagate(Q0, w0, np.eye(3), 0.02, 100, name)
        errs[name] = quat.angle_between(q, expected)
    assert errs["euler"] > errs["taylor2"] > errs["taylor2-half"] > errs["taylor2-quarter"] > errs["exact"]
    assert errs["exact"] < 1e-12


@pytest.mark.parametrize("name, local_order", [("taylor2", 5), ("taylor2-half", 5), ("taylor2-quarter", 5)])
def test_taylor_increments_local_order_and_ranking(name, local_order):
    e1, _ = kernels.increment_error(name, 0.2)
    e2, _ = kernels.increment_error(name, 0.1)
    assert math.log2(e1 / e2) == pytest.approx(local_order, abs=0.3)


def test_taylor_variants_ordered_by_accuracy():
    for angle in (0.05, 0.3, 1.0):
        errors = [kernels.increment_error(n, angle)[0] for n in ("taylor2", "taylor2-half", "taylor2-quarter")]
        norms = [abs(kernels.increment_error(n, angle)[1]) for n in ("taylor2", "taylor2-half", "taylor2-quarter")]
        assert errors[0] > errors[1] > errors[2]
        assert norms[0] > norms[1] > norms[2]
        assert kernels.increment_error("exact", angle)[0] < 1e-15


def test_bullet_clamp():
    h = 0.1
    for rate in (10.0, 40.0):  # rate·h = 1 and 4 rad: above the π/4 threshold
        phi = np.array([0.0, 0.0, rate * h])
        out = kernels.KERNELS["bullet"](np.array([[1.0, 0, 0, 0]]), phi[None], dt=h)[0]
        turned = quat.angle_between(quat.normalize(out), [1.0, 0, 0, 0])
        clamped = (math.pi / 4) / h
        expected = 2 * math.atan2(rate * math.sin(math.pi / 8) / clamped, math.cos(math.pi / 8))
        assert turned == pytest.approx(expected, rel=1e-12)
        assert np.linalg.norm(out) > 1.0  # unclamped ω on the axis: not unit before normalising
    # Below the threshold Bullet is the exact exponential, in either branch.
    for rate in (0.0005, 0.5):
        phi = np.array([[rate * h, 0.0, 0.0]])
        out = kernels.KERNELS["bullet"](np.array([[1.0, 0, 0, 0]]), phi, dt=h)
        exact = kernels.KERNELS["exact"](np.array([[1.0, 0, 0, 0]]), phi)
        assert np.allclose(out, exact, atol=1e-15)


@pytest.mark.parametrize("name", list(kernels.KERNELS))
def test_batch_kernel_equals_single_body_step(name):
    rng = np.random.default_rng(3)
    q = rng.normal(size=(20, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w = rng.normal(size=(20, 3))
    h = 0.05
    batch = kernels.KERNELS[name](q, w * h, dt=h)
    batch /= np.linalg.norm(batch, axis=1, keepdims=True)
    for i in range(20):
        single, _ = rigidbody.propagate(q[i], w[i], np.eye(3), h, 1, name)
        assert np.allclose(batch[i], single, atol=1e-15)
    # and the batch is q ⊗ Δq, Δq the increment as a quaternion
    ca, sa = kernels.INCREMENTS[name](*(w[0] * h), h)
    assert np.allclose(kernels.KERNELS[name](q[:1], w[:1] * h, dt=h)[0], quat.mul(q[0], np.r_[ca, sa * w[0] * h]))


@pytest.mark.parametrize("name", NAMES)
def test_python_torque_runs_the_same_integrator(name):
    zero = lambda t, q, w: np.zeros(3)  # noqa: E731
    a = rigidbody.propagate(Q0, W0, INERTIA, 0.01, 50, name)
    b = rigidbody.propagate(Q0, W0, INERTIA, 0.01, 50, name, torque=zero)
    assert np.allclose(a[0], b[0], atol=1e-14) and np.allclose(a[1], b[1], atol=1e-14)


def test_constant_torque_about_a_principal_axis():
    # Sphere, torque about z: ω_z = ω0 + (M/I) t, angle = ω0 t + ½ (M/I) t² — RK4 integrates it exactly.
    torque = lambda t, q, w: np.array([0.0, 0.0, 2.0])  # noqa: E731
    q, w = rigidbody.propagate([1.0, 0, 0, 0], [0, 0, 0.5], 4.0 * np.eye(3), 0.1, 10, "rk4", torque=torque)
    assert w[2] == pytest.approx(0.5 + 0.5 * 1.0)
    assert np.allclose(q, quat.from_axis_angle([0, 0, 1.0], 0.5 + 0.25), atol=1e-12)


def test_switching_integrator_between_steps_never_jumps():
    y = np.zeros(integrators.STATE_SIZE)
    y[integrators.Q] = Q0
    y[integrators.W] = W0 * 3
    h = 0.01
    inertia, inertia_inv = rigidbody.check_inertia(INERTIA)
    for k in range(3 * len(NAMES)):
        name = NAMES[k % len(NAMES)]
        before = y.copy()
        INTEGRATORS[name].step(y, k * h, h, rigidbody.FREE_BODY, inertia, inertia_inv, True)
        turned = quat.angle_between(before[integrators.Q], y[integrators.Q])
        assert turned < np.linalg.norm(before[integrators.W]) * h * 1.05 + 1e-12, name
        assert np.dot(before[integrators.Q], y[integrators.Q]) > 0  # same hemisphere: no sign flip
        assert np.linalg.norm(y[integrators.W] - before[integrators.W]) < 0.5 * np.linalg.norm(before[integrators.W])


def test_unknown_integrator_lists_valid_names():
    with pytest.raises(ValueError, match="unknown name 'rk5'.*euler.*rkmk4"):
        rigidbody.propagate(Q0, W0, INERTIA, 0.01, 1, "rk5")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"q0": [0.0, 0, 0, 0]}, "q0: zero"),
        ({"q0": [np.nan, 0, 0, 0]}, "q0: contains a non-finite"),
        ({"q0": [1.0, 0, 0]}, "q0: expected shape"),
        ({"omega0": [1.0, 2.0]}, "omega0: expected shape"),
        ({"omega0": [1.0, np.inf, 0]}, "omega0: contains a non-finite"),
        ({"inertia": np.diag([1.0, 0.0, 1.0])}, "inertia: is singular"),
        ({"inertia": [[1.0, 0.5, 0], [0, 1, 0], [0, 0, 1]]}, "inertia: is not symmetric"),
        ({"inertia": np.eye(2)}, "inertia: expected shape"),
        ({"dt": 0.0}, "dt: must be finite and > 0"),
        ({"dt": -0.1}, "dt: must be finite and > 0"),
        ({"dt": float("nan")}, "dt: must be finite and > 0"),
        ({"steps": -1}, "steps: must be a whole number"),
        ({"steps": 2.5}, "steps: must be a whole number"),
        ({"torque": 3.0}, "torque: must be callable"),
    ],
)
def test_bad_input(kwargs, message):
    args = {"q0": Q0, "omega0": W0, "inertia": INERTIA, "dt": 0.01, "steps": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        rigidbody.propagate(**args)


def test_registry_entries_are_complete():
    required = {"euler", "exact", "taylor2", "taylor2-half", "taylor2-quarter", "bullet", "matrix", "buss2", "rk4",
                "rkmk4"}
    assert required <= set(INTEGRATORS)
    for it in INTEGRATORS.values():
        assert it.name and it.label and it.description and it.order in (1, 2, 3, 4)


# --------------------------------------------------------------------------- torque and the registry


def varying_torque(t, q, w):
    """A body moment that changes with time about all three axes."""
    return np.array([0.3 * math.sin(t), -0.2, 0.1 * math.cos(2.0 * t)])


def torqued_reference(q0, w0, inertia, t_end):
    """DOP853 on Euler's equations with :func:`varying_torque` and dq/dt = ½ q ⊗ (0, ω)."""

    def torqued(t, s):
        return rhs(t, s, inertia) + np.r_[np.zeros(4), np.linalg.solve(inertia, varying_torque(t, s[:4], s[4:]))]

    sol = solve_ivp(torqued, (0.0, t_end), np.r_[q0, w0], method="DOP853", rtol=1e-13, atol=1e-13)
    s = sol.y[:, -1]
    return s[:4] / np.linalg.norm(s[:4]), s[4:]


@pytest.fixture(scope="module")
def torqued_ref():
    return torqued_reference(Q0, W0, INERTIA, T)


@pytest.mark.parametrize("name", NAMES)
def test_nonzero_torque_reaches_every_integrator(name, torqued_ref):
    order = INTEGRATORS[name].order
    counts = [400, 800] if order == 1 else [40, 80]
    errs = np.array([
        errors(*rigidbody.propagate(Q0, W0, INERTIA, T / n, n, name, torque=varying_torque), *torqued_ref)
        for n in counts
    ])
    dt = T / counts[-1]
    # at the smaller step: within the integrator's own truncation error of the torqued reference …
    assert np.all(errs[-1] < 5.0 * dt ** order), errs
    # … converging at its order (the state's slowest part), so the torque acts at the right time in the step …
    slopes = np.log2(errs[0] / errs[1])  # attitude, ω
    assert abs(slopes.min() - order) < 0.3, (errs, slopes)
    # … and far from where the same integrator goes without the torque.
    free = errors(*rigidbody.propagate(Q0, W0, INERTIA, dt, counts[-1], name), *torqued_ref)
    assert np.all(np.array(free) > 0.02) and np.all(np.array(free) > 20.0 * errs[-1]), (free, errs)


@pytest.mark.parametrize("name", NAMES)
def test_compiled_airplane_moment_agrees_with_python_path(name):
    # The airplane's compiled loads make a real moment; one step through the compiled dispatch and
    # one through the Python re-make of the same step (calling the same compiled loads) agree.
    from flightsim.physics import aero
    from flightsim.physics.aircraft import load_aircraft

    aircraft = load_aircraft()
    params = aero.pack(aircraft)
    params.controls[:5] = (0.8, 0.4, -0.6, 0.3, 0.5)
    y = np.zeros(integrators.STATE_SIZE)
    y[integrators.X] = (0.0, 0.0, 2000.0)
    y[integrators.V] = (150.0, 10.0, -5.0)
    y[integrators.Q] = quat.from_aviation_angles(10.0, 5.0, 30.0)
    y[integrators.W] = (0.2, -0.1, 0.05)
    moment = np.array(aero.airplane_loads(0.0, y, params)[3:])
    assert np.linalg.norm(moment) > 1e3  # ft·lbf: a torque that matters
    inertia, inertia_inv = rigidbody.check_inertia(aircraft.inertia)
    h = 1 / 120
    compiled, python = y.copy(), y.copy()
    e1 = INTEGRATORS[name].step(compiled, 0.3, h, params, inertia, inertia_inv, True)
    e2 = INTEGRATORS[name].python_step(aero.airplane_loads)(python, 0.3, h, params, inertia, inertia_inv, True)
    assert np.allclose(compiled, python, rtol=1e-13, atol=1e-13) and e1 == pytest.approx(e2, abs=1e-15)
    free = y.copy()
    INTEGRATORS[name].step(free, 0.3, h, params._replace(positions=params.positions[:0]), inertia, inertia_inv, True)
    assert np.linalg.norm(compiled[integrators.W] - free[integrators.W]) > 1e-3  # the moment moved ω


@pytest.mark.parametrize("name", NAMES)
def test_compiled_dispatch_runs_the_registered_step(name):
    it = INTEGRATORS[name]
    assert steps.STEPS[it.number] is it.function
    rng = np.random.default_rng(7)
    y = np.r_[rng.normal(size=6), quat.normalize(rng.normal(size=4)), rng.normal(size=3)]
    inertia, inertia_inv = rigidbody.check_inertia(INERTIA)
    by_number, direct = y.copy(), y.copy()
    a = it.step(by_number, 0.1, 0.01, rigidbody.FREE_BODY, inertia, inertia_inv, True)
    b = it.function(direct, 0.1, 0.01, rigidbody.FREE_BODY, inertia, inertia_inv, True, it.increment_id)
    assert np.array_equal(by_number, direct) and a == b


def test_stepping_from_python_with_plain_fields_is_the_same_compiled_step():
    # Simulation.step and Integrator.step pass tuple(params) (cheap for numba to type at each call);
    # step_fields rebuilds the very LoadParams type that pack() gives, so it is the same step.
    from numba import njit, typeof

    from flightsim.physics import aero
    from flightsim.physics.aircraft import load_aircraft

    params = aero.pack(load_aircraft())
    rebuild = njit(lambda fields: aero.LoadParams(*fields))
    rebuild(tuple(params))
    assert rebuild.nopython_signatures[0].return_type == typeof(params) == typeof(rigidbody.FREE_BODY)
    params.controls[:5] = (0.7, 0.2, -0.3, 0.1, 0.0)
    y = np.zeros(integrators.STATE_SIZE)
    y[integrators.X], y[integrators.V], y[integrators.Q] = (0.0, 0.0, 2000.0), (150.0, 0.0, 0.0), (1.0, 0, 0, 0)
    inertia, inertia_inv = rigidbody.check_inertia(load_aircraft().inertia)
    for it in INTEGRATORS.values():
        a, b = y.copy(), y.copy()
        ea = step_entries.step_fields(it.number, a, 0.0, 0.01, tuple(params), inertia, inertia_inv, True,
                                      it.increment_id)
        eb = steps.step_by_number(it.number, b, 0.0, 0.01, params, inertia, inertia_inv, True, it.increment_id)
        assert np.array_equal(a, b) and ea == eb, it.name


def test_every_step_is_in_the_dispatch_and_evaluates_the_loads():
    # Read the generated chain back: selector k reaches STEPS[k], for every registered step.
    stubs = dict(vars(steps))
    for step in steps.STEPS:
        stubs[step.py_func.__name__] = lambda *args, _name=step.py_func.__name__: _name
    chain = steps.step_by_number.py_func
    probe = type(chain)(chain.__code__, stubs)
    assert [probe(k, *[None] * 8) for k in range(len(steps.STEPS))] == [
        s.py_func.__name__ for s in steps.STEPS]
    assert {it.function for it in INTEGRATORS.values()} == set(steps.STEPS)
    # every step reaches the loads (helpers included), so the Python path swaps them all
    assert {s.py_func.__name__ for s in steps.STEPS} <= step_entries.LOADS_CALLERS
    assert {"rk4_deriv", "rkmk4_stage"} <= step_entries.LOADS_CALLERS
    assert not {"omega_dot", "store_q", "euler_kick"} & step_entries.LOADS_CALLERS


def _defined_in(module):
    """Public names a module defines itself (its functions, classes and top-level assignments, not its imports)."""
    import ast

    names = set()
    for node in ast.parse(Path(module.__file__).read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return {n for n in names if not n.startswith("_")}


def test_the_public_module_keeps_the_names_of_the_steps_and_of_their_entries():
    # flightsim.integrators (this module) was the steps, their registry and their entries in one file: users'
    # scripts keep finding each name there, the very object of the module that owns it
    for module in (steps, step_entries):
        names = _defined_in(module)
        assert {"STATE_SIZE", "step_rk4", "derivative", "step_by_number", "step_fields", "python_step"} & names
        for name in names:
            assert getattr(integrators, name) is getattr(module, name), f"integrators.{name}"


def test_increment_dispatch_covers_every_registered_increment():
    assert list(kernels.INCREMENT_IDS) == list(kernels.INCREMENTS) == list(kernels.KERNELS)
    for name, formula in kernels.INCREMENTS.items():
        for phi in ((0.01, -0.02, 0.03), (0.5, 0.2, -0.9)):
            assert kernels.increment(kernels.INCREMENT_IDS[name], *phi, 0.01) == formula(*phi, 0.01), name


def test_a_step_outside_the_registry_is_refused_loudly():
    from numba import njit

    # a new step function after the dispatch is compiled: it would never be reached
    @njit
    def step_new(y, t, h, params, inertia, inertia_inv, renorm, increment_id):
        return 0.0

    with pytest.raises(RuntimeError, match="step_new is not in the compiled dispatch"):
        integrators.Integrator("new", "New", 1, "not registered", step_new)
    # reusing a registered step with another increment is fine
    variant = integrators.Integrator("rkmk4-bullet", "RKMK4 + Bullet", 1, "a variant", steps.step_rkmk4,
                                     increment="bullet")
    assert variant.number == INTEGRATORS["rkmk4"].number and variant.increment_id == kernels.INCREMENT_IDS["bullet"]


def test_registration_refuses_an_increment_missing_unknown_or_ignored():
    semi, rk4 = steps.step_semi_implicit, steps.step_rk4
    with pytest.raises(ValueError, match="step_semi_implicit needs an increment, one of euler, exact"):
        integrators.Integrator("semi", "Semi", 1, "no increment", semi)
    with pytest.raises(ValueError, match="unknown increment 'bulet'; valid: euler, exact"):
        integrators.Integrator("semi", "Semi", 1, "a typo", semi, increment="bulet")
    with pytest.raises(ValueError, match="step_rk4 applies no increment, so increment='bullet' would be ignored"):
        integrators.Integrator("rk4-bullet", "RK4", 4, "ignored", rk4, increment="bullet")
    # rkmk4 without one uses the exact exponential
    assert integrators.Integrator("rkmk4-exp", "RKMK4", 4, "exact", steps.step_rkmk4).increment_id == -1


@pytest.mark.parametrize("number, increment_id", [(len(steps.STEPS), 0), (-1, 0), (0, -1),
                                          (0, len(kernels.INCREMENTS)), (INTEGRATORS["rkmk4"].number, -2)])
def test_a_selector_outside_the_registry_runs_nothing_and_is_named(number, increment_id):
    y = np.zeros(integrators.STATE_SIZE)
    y[integrators.Q] = (1.0, 0.0, 0.0, 0.0)
    y[integrators.W] = (0.1, 0.2, 0.3)
    before = y.copy()
    args = (y, 0.0, 0.01, tuple(rigidbody.FREE_BODY), np.eye(3), np.eye(3), True, increment_id)
    # the compiled dispatch returns a status no step returns (|q| − 1 ≥ −1), not the last function's answer
    assert step_entries.step_fields(number, *args) == steps.UNKNOWN_SELECTOR
    np.testing.assert_array_equal(y, before)
    it = integrators.Integrator("probe", "Probe", 1, "numbers set by hand", steps.step_rk4)
    it.number, it.increment_id = number, increment_id
    with pytest.raises(LookupError, match=r"integrator 'probe': (step|increment) number -?\d+ is not in the registry"):
        it.step(y, 0.0, 0.01, rigidbody.FREE_BODY, np.eye(3), np.eye(3))
    with pytest.raises(LookupError, match="is not in the registry"):
        it.run(y, 0.0, 0.01, 3, rigidbody.FREE_BODY, np.eye(3), np.eye(3))
    np.testing.assert_array_equal(y, before)


def test_the_increment_dispatch_answers_nan_for_an_unknown_increment_id():
    assert all(math.isnan(v) for v in kernels.increment(len(kernels.INCREMENTS), 0.1, 0.2, 0.3, 0.01))
    assert all(math.isnan(v) for v in kernels.increment(-1, 0.1, 0.2, 0.3, 0.01))


def test_a_flight_and_a_batch_refuse_an_integrator_whose_numbers_were_broken(monkeypatch):
    from flightsim.simulation.batch import BatchSimulation
    from flightsim.simulation.flight import Simulation

    broken = integrators.Integrator("broken", "Broken", 1, "increment lost", steps.step_semi_implicit,
                                    increment="euler")
    broken.increment_id = -1      # what an Integrator registered without an increment used to get: Bullet's update ran
    monkeypatch.setitem(INTEGRATORS, "broken", broken)
    sim = Simulation(integrator="broken")
    y = sim.vector
    with pytest.raises(LookupError, match="integrator 'broken': increment number -1 is not in the registry"):
        sim.step()
    np.testing.assert_array_equal(sim.vector, y)
    batch = BatchSimulation(2, integrator="broken")
    with pytest.raises(LookupError, match="integrator 'broken': increment number -1"):
        batch.step(1)


def test_integrator_has_no_dead_loads_per_step():
    assert not hasattr(INTEGRATORS["rk4"], "loads_per_step")


DEMO = """
from flightsim.math.compiler import compiled_dispatch, entry_jit, jit


@jit
def double(x):
    return 2.0 * x


@jit
def square(x):
    return x * x


@jit
def add(x, y):
    return x + y


pick = compiled_dispatch("pick", "number", ("x",), {functions}, "demo", unknown="-1.0", decorator=entry_jit)
"""


def test_generated_dispatch_is_cached_on_disk(tmp_path):
    (tmp_path / "dispatch_demo.py").write_text(DEMO.format(functions="(double, square)"))
    code = "import dispatch_demo as d; print(d.pick(0, 3.0), d.pick(1, 3.0), d.pick(5, 3.0), " \
           "sum(d.pick.stats.cache_hits.values()))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[1])])}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                           cwd=tmp_path).stdout.split() for _ in range(2)]
    assert runs[0] == ["6.0", "9.0", "-1.0", "0"]  # compiled (a selector past the end runs none: unknown)
    assert runs[1] == ["6.0", "9.0", "-1.0", "1"]  # loaded from the disk cache


@pytest.mark.parametrize("functions, message", [
    ("(double, add)", r"add\(x, y\) must take \(x\)"),
    ("(double, lambda x: x)", "must be a compiled"),
    ("()", "nothing to dispatch"),
])
def test_generated_dispatch_checks_its_functions(tmp_path, functions, message):
    path = tmp_path / "dispatch_bad.py"
    path.write_text(DEMO.format(functions=functions))
    with pytest.raises(ValueError, match=message):
        runpy.run_path(str(path))

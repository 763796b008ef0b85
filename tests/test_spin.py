"""The integrators for spinning bodies and the exact torque-free top (issue 14).

The closed form is checked against scipy's DOP853 at tolerance 1e-13 (the
reference tests/test_integrators.py uses, written there independently of
flightsim); the integrators against the closed form.
"""

import math

import numpy as np
import pytest
from test_integrators import reference

from flightsim.math import quat
from flightsim.physics import integrators, rigidbody
from flightsim.physics.integrators import INTEGRATORS
from flightsim.physics.top import FreeTop

NEW = ("gyro-implicit", "gyro-clamped", "splitting", "midpoint")

#: The JSBSim rotation-study body: fast (|ω| ≈ 15 rad/s), explicit Euler diverges on it at 60 Hz.
JSBSIM = (np.diag([10.0, 20.0, 26.0]), np.array([1.0, 15.0, 1.0]))
#: An asymmetric body with products of inertia, started off the identity.
SKEW = np.array([[10.0, 0.8, -0.5], [0.8, 20.0, 0.6], [-0.5, 0.6, 26.0]])
Q0 = quat.normalize(np.array([0.9, 0.1, -0.2, 0.3]))


@pytest.mark.parametrize("inertia, q0, w0, t_end", [
    (JSBSIM[0], [1.0, 0, 0, 0], JSBSIM[1], 10.0),                                   # about the largest axis
    (np.diag([0.001894220, 0.006211019, 0.007194665]), [1.0, 0, 0, 0], np.radians([10.0, 20.0, 30.0]), 30.0),
    (SKEW, Q0, [1.0, 2.0, 0.5], 7.0),                                               # products of inertia
    (np.diag([1.0, 2.0, 3.0]), [1.0, 0, 0, 0], [5.0, 0.3, 0.1], 20.0),              # about the smallest axis
    (np.diag([1.0, 2.0, 3.0]), [1.0, 0, 0, 0], [0.1, 5.0, 0.1], 20.0),              # near the intermediate
    (np.diag([2.0, 2.0, 3.0]), Q0, [1.0, 0.3, 2.0], 5.0),                           # symmetric tops
    (np.diag([1.0, 3.0, 3.0]), Q0, [1.0, 0.3, 2.0], 5.0),
])
def test_closed_form_matches_the_ode_reference(inertia, q0, w0, t_end):
    top = FreeTop(inertia, q0, w0)
    q, w = top.at(t_end)
    q_ref, w_ref = reference(quat.normalize(np.asarray(q0, float)), np.asarray(w0, float), inertia, t_end)
    assert quat.angle_between(q, q_ref) < 1e-10
    assert np.abs(w - w_ref).max() < 1e-10 * np.abs(w_ref).max()
    # and along the way: energy and the earth-frame momentum are the invariants they must be
    qs, ws = top.at(np.linspace(0.0, t_end, 40))
    energy = 0.5 * np.einsum("ni,ij,nj->n", ws, inertia, ws)
    assert np.allclose(energy, top.energy, rtol=1e-12)
    assert np.allclose(quat.rotate(qs, ws @ inertia), top.momentum, rtol=0, atol=1e-11 * np.linalg.norm(top.momentum))
    assert np.all(np.einsum("ni,ni->n", qs[1:], qs[:-1]) > 0)          # one hemisphere, row to row


def test_closed_form_of_a_sphere_and_of_a_steady_spin():
    w0 = np.array([0.3, -1.2, 0.7])
    q, w = FreeTop(4.0 * np.eye(3), Q0, w0).at(3.0)
    assert quat.angle_between(q, quat.mul(Q0, quat.from_rotation_vector(3.0 * w0))) < 1e-12
    assert np.array_equal(w, w0)
    q, w = FreeTop(np.diag([1.0, 2.0, 3.0]), Q0, [0.0, 0.0, 2.0]).at(1.5)
    assert quat.angle_between(q, quat.mul(Q0, quat.from_axis_angle([0, 0, 1.0], 3.0))) < 1e-12


@pytest.mark.parametrize("name", NEW)
def test_converges_at_its_order_against_the_closed_form(name):
    inertia, w0 = JSBSIM
    t_end = 1.0
    q_ref, w_ref = FreeTop(inertia, Q0, w0).at(t_end)
    order = INTEGRATORS[name].order
    steps = (400, 800, 1600) if order == 1 else (100, 200, 400)
    errs = []
    for n in steps:
        q, w = rigidbody.propagate(Q0, w0, inertia, t_end / n, n, name)
        errs.append(max(quat.angle_between(q, q_ref), np.linalg.norm(w - w_ref) / np.linalg.norm(w_ref)))
    slopes = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert np.all(np.abs(slopes - order) < 0.2), (errs, slopes)


def drift_history(name, inertia, w0, dt=1 / 60, steps=100_000, chunk=200):
    """Relative energy and |L| errors every ``chunk`` steps (inf once the state is not finite)."""
    inertia, inertia_inv = rigidbody.check_inertia(inertia)
    y = np.zeros(integrators.STATE_SIZE)
    y[integrators.Q] = (1.0, 0.0, 0.0, 0.0)
    y[integrators.W] = w0
    e0, l0 = 0.5 * w0 @ inertia @ w0, np.linalg.norm(inertia @ w0)
    energy, momentum = [], []
    method = INTEGRATORS[name]
    for k in range(steps // chunk):
        # never raises
        worst = method.run(y, k * chunk * dt, dt, chunk, rigidbody.FREE_BODY, inertia, inertia_inv, True)
        if not math.isfinite(worst):
            energy.append(math.inf)
            momentum.append(math.inf)
            break
        w = y[integrators.W]
        energy.append((0.5 * w @ inertia @ w - e0) / e0)
        momentum.append((np.linalg.norm(inertia @ w) - l0) / l0)
    return np.array(energy), np.array(momentum)


@pytest.mark.parametrize("name", ["splitting", "midpoint"])
def test_geometric_integrators_keep_energy_bounded_for_1e5_steps_where_euler_blows_up(name):
    inertia, w0 = JSBSIM
    energy, momentum = drift_history(name, inertia, w0)
    assert len(energy) == 500 and np.all(np.isfinite(energy))
    early, late = np.abs(energy[:50]).max(), np.abs(energy[250:]).max()   # the first tenth, the second half
    assert late < 1e-3 and late <= 1.5 * early + 1e-13, (early, late)        # bounded: not growing with time
    assert np.abs(momentum).max() < 1e-10                                    # |L| kept (to rounding)
    if name == "midpoint":
        assert np.abs(energy).max() < 1e-11                                  # a quadratic invariant: exact
    euler, _ = drift_history("euler", inertia, w0)
    assert not np.isfinite(euler[-1])


def test_gyro_implicit_stays_bounded_where_euler_diverges():
    inertia, w0 = JSBSIM
    energy, momentum = drift_history("gyro-implicit", inertia, w0, steps=20_000)
    assert np.all(np.isfinite(energy)) and np.all(energy <= 1e-12) and np.all(momentum <= 1e-12)
    assert np.all(np.diff(energy) <= 1e-12)                 # backward Euler only ever takes energy out
    euler, _ = drift_history("euler", inertia, w0, steps=20_000)
    assert not np.isfinite(euler[-1])
    # Jolt's clamp keeps |L| instead, and the energy stays near where it was
    energy, momentum = drift_history("gyro-clamped", inertia, w0, steps=20_000)
    assert np.abs(momentum).max() < 1e-12 and np.abs(energy).max() < 1e-2


def test_bullet_newton_step_is_the_formula():
    # One step of gyro-implicit, written out as Bullet's computeGyroscopicImpulseImplicit_Body has it.
    inertia, w = np.diag([1.0, 2.0, 3.0]), np.array([0.4, 6.0, -0.2])
    h = 1 / 30
    J = inertia + h * (np.cross(w, inertia.T).T - np.cross(inertia @ w, np.eye(3)).T)
    expected = w - np.linalg.solve(J, h * np.cross(w, inertia @ w))
    _, got = rigidbody.propagate([1.0, 0, 0, 0], w, inertia, h, 1, "gyro-implicit")
    assert np.allclose(got, expected, rtol=1e-14, atol=0)


def test_splitting_keeps_the_earth_frame_momentum_exactly_with_products_of_inertia():
    top = FreeTop(SKEW, Q0, [3.0, -2.0, 4.0])
    q, w = rigidbody.propagate(Q0, [3.0, -2.0, 4.0], SKEW, 1 / 30, 3000, "splitting")
    assert np.allclose(quat.rotate(q, SKEW @ w), top.momentum, rtol=0, atol=1e-11 * np.linalg.norm(top.momentum))


def test_long_runs_tell_bounded_from_secular_from_diverged():
    # what `flightsim bench` reports in long_runs.md (quick: 2·10⁴ steps, a coarser dt scan)
    from flightsim.commands import lab_report
    from flightsim.simulation import lab

    runs = {n: lab.long_run(n, quick=True) for n in ("euler", "rk4", "gyro-implicit", "splitting", "midpoint")}
    kinds = {n: (r.energy_kind, r.momentum_kind) for n, r in runs.items()}
    assert kinds["euler"][0].startswith("diverged at") and kinds["rk4"] == ("secular", "secular")
    assert kinds["gyro-implicit"] == ("damped", "damped")
    assert kinds["splitting"] == ("bounded", "exact") and kinds["midpoint"] == ("exact", "exact")
    # on the T-handle near its intermediate axis: Euler fails at once, the geometric ones last longest
    assert runs["euler"].stable_dt == 0.0 and runs["gyro-implicit"].faithful_dt == 0.0
    assert runs["splitting"].faithful_dt > 2 * runs["rk4"].faithful_dt > 0.0
    assert runs["midpoint"].faithful_dt > 2 * runs["rk4"].faithful_dt
    table = lab_report.long_run_markdown(list(runs.values()), lab.LONG_STEPS // 5)
    assert "2e4 steps" in table and "\\|L\\| drift" in table
    assert table.count("\n") == 2 + len(runs) and "| `midpoint` | " in table


def test_the_spin_scene_keeps_time_with_the_flights_accumulator():
    from flightsim.simulation.clock import MAX_FRAME
    from flightsim.simulation.flight import Simulation
    from flightsim.simulation.lab import SPIN_BODIES
    from flightsim.simulation.spin import SpinSimulation

    for dt in (1 / 60, 1 / 120, 0.01):
        spin = SpinSimulation(next(iter(SPIN_BODIES.values())), dt=dt, ghost=None)
        flight = Simulation(dt=dt)
        for frame in (0.0123, 10.0, -1.0, float("nan"), 0.1):
            assert spin.advance(frame) == flight.advance(frame)
        assert spin.advance(MAX_FRAME) == round(MAX_FRAME / dt)   # a whole clamped frame, despite rounding

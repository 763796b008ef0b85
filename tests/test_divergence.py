"""One way to diverge: every path that steps a state finds a diverged step the same way and says so the same way.

Each path — the flight, the batch, the flight's ghost, the spin scene's body and its ghost,
``propagate`` (compiled and Python torque), the lab — is driven to divergence with every
registered integrator (so every family: Bourg-order increments, the matrix, Buss, the
Runge–Kutta and Lie-group steps, the gyroscopic steps, the splitting, the implicit midpoint),
from a finite state that overflows in one step (ω ≈ 1e160 rad/s: ω × Iω is inf) and from a
quaternion whose |q|² underflows to zero.
"""

import math

import numpy as np
import pytest

from flightsim.physics import divergence, integrators, rigidbody
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation import lab
from flightsim.simulation.batch import NONFINITE, RUNNING, BatchSimulation
from flightsim.simulation.flight import FlightState, Simulation
from flightsim.simulation.ghost import Ghost
from flightsim.simulation.lab import SPIN_BODIES
from flightsim.simulation.spin import SpinSimulation

#: Overflow is what these tests cause on purpose: numpy's warnings about it (from the Python-run steps and the
#: lab's reference energy) are expected, not news.
pytestmark = [pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")]

NAMES = list(INTEGRATORS)
HUGE = 1e160           # rad/s: squared it overflows
TINY = 1e-170          # |q|: squared it underflows to 0
REASONS = (divergence.NONFINITE, divergence.DEGENERATE)


def _said(message, name, dt):
    """The one message: when, why (one of the reasons), which integrator, which dt."""
    assert message.startswith("stopped"), message
    assert any(r in message for r in REASONS), message
    assert f"with integrator '{name}' at dt = {dt:g} s" in message, message


def _blown(state, omega=None, q=None):
    return FlightState(state.t, state.position, state.velocity, state.q if q is None else np.asarray(q, float),
                       state.omega if omega is None else np.asarray(omega, float))


@pytest.mark.parametrize("name", NAMES)
def test_the_flight_stops_keeps_its_last_finite_state_and_names_the_integrator(name):
    sim = Simulation(integrator=name)
    for _ in range(3):
        assert sim.step()
    good = sim.state
    bad = _blown(good, omega=[HUGE, -HUGE, HUGE])
    sim.set_state(bad)
    assert sim.step() is False                  # no exception, whatever the integrator
    assert not sim.running and sim.diverged
    _said(sim.status, name, sim.dt)
    y = sim.vector
    assert np.all(np.isfinite(y))               # the last finite state: what was loaded
    np.testing.assert_array_equal(y, np.concatenate([bad.position, bad.velocity, bad.q, bad.omega]))
    assert sim.step() is False and sim.advance(0.1) == 0
    assert math.isfinite(sim.telemetry().roll)        # the instruments read the kept state


def test_a_state_no_step_could_start_from_is_refused_when_loaded():
    sim = Simulation()
    for bad in ([TINY, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, math.nan, 0.0, 0.0]):
        with pytest.raises(ValueError, match="state at t = 0.0: (q is zero|not finite)"):
            sim.set_state(_blown(sim.state, q=bad))
    b = BatchSimulation(2)
    states = b.states.copy()
    states[1, 6:10] = TINY
    with pytest.raises(ValueError, match="states: q is zero"):
        b.set_states(None, states)
    assert sim.running and b.running.all()


def test_a_degenerate_quaternion_is_named_as_such():
    y = np.zeros(13)
    assert divergence.reason(y) == divergence.DEGENERATE
    y[6] = math.inf
    assert divergence.reason(y) == divergence.NONFINITE


@pytest.mark.parametrize("name", NAMES)
def test_the_batch_stops_only_the_diverged_airplane_with_the_flights_message(name):
    b = BatchSimulation(3, integrator=name)
    b.step(2)
    states = b.states.copy()
    states[1, 10:13] = HUGE
    b.set_states([1], states[1:2])
    stopped = b.step(2)
    assert stopped.tolist() == [1]
    assert b.status.tolist() == [RUNNING, NONFINITE, RUNNING]
    _said(b.messages[1], name, b.dt)
    assert np.all(np.isfinite(b.states))
    np.testing.assert_array_equal(b.states[1], states[1])


@pytest.mark.parametrize("name", ["euler", "matrix", "rk4", "rkmk4", "gyro-implicit", "splitting", "midpoint"])
def test_a_diverging_ghost_stops_alone_and_the_flight_goes_on(name):
    sim = Simulation()
    ghost = Ghost(sim, integrator=name, substeps=2)
    ghost.sim.set_state(_blown(ghost.sim.state, omega=[HUGE, 0.0, HUGE]))
    for _ in range(3):
        assert sim.step()
    assert ghost.sim.diverged
    _said(ghost.sim.status, name, ghost.sim.dt)
    assert np.all(np.isfinite(ghost.sim.vector)) and sim.running


@pytest.mark.parametrize("name", NAMES)
def test_the_spin_body_and_its_ghost_stop_the_same_way(name):
    body = SPIN_BODIES[next(iter(SPIN_BODIES))]
    spin = SpinSimulation(body, integrator="rk4", ghost=name)
    spin.ghost_y[integrators.W] = HUGE
    assert spin.step()                          # the body goes on; the ghost stopped
    _said(spin.ghost_status, name, spin.dt)
    assert spin.ghost_pose() is None and spin.ghost_momentum() is None and np.all(np.isfinite(spin.ghost_y))
    spin.resync_ghost()
    assert spin.ghost_status is None and spin.ghost_pose() is not None

    spin = SpinSimulation(body, integrator=name, ghost=None)
    spin.y[integrators.W] = HUGE
    before = spin.y.copy()
    assert spin.step() is False and not spin.running
    _said(spin.status, name, spin.dt)
    np.testing.assert_array_equal(spin.y, before)
    assert spin.advance(1.0) == 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("torque", [None, "python"])
def test_propagate_raises_floating_point_error_only(name, torque):
    if torque == "python":
        def torque(t, q, w):
            return -0.1 * w
    with pytest.raises(FloatingPointError) as info:
        rigidbody.propagate([1.0, 0.0, 0.0, 0.0], [HUGE, 2.0, -HUGE], np.diag([1.0, 2.0, 3.0]), 0.01, 5, name,
                            torque=torque)
    _said(str(info.value), name, 0.01)


def test_propagate_still_refuses_a_bad_torque_with_a_finite_state():
    with pytest.raises(ValueError, match="torque: must return 3 finite numbers"):
        rigidbody.propagate([1, 0, 0, 0], [0.1, 0.2, 0.3], np.eye(3), 0.01, 5, "rk4", torque=lambda t, q, w: [0, 0])


def test_the_lab_counts_a_diverged_flight_as_infinite_error():
    with pytest.raises(FloatingPointError, match="with integrator 'matrix' at dt = 3 s"):
        lab.fly_manoeuvre("matrix", 3.0)
    times, energy, momentum = lab.spin_run("euler", np.diag([1.0, 2.0, 3.0]), [HUGE, 1.0, HUGE], 0.01, 10)
    assert math.isinf(energy[-1]) and math.isinf(momentum[-1])

"""The simulation's public boundary: a live Simulation and a Replay are both FlightSources, told apart by
their capabilities; whole states load through set_state; nothing reaches into private attributes."""

import ast
from pathlib import Path

import numpy as np
import pytest

from flightsim.simulation import LIVE, PLAYBACK, Capabilities, FlightSource, FlightState, Playback, Simulation, trace
from flightsim.simulation.ghost import Ghost
from flightsim.simulation.replay import Replay

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """A 2 s trace of the book's airplane in a gentle right turn, every step."""
    sim = Simulation(dt=0.02)
    sim.controls.aileron, sim.controls.elevator = 0.2, 0.1
    times, states, controls = [sim.t], [sim.vector], [sim.controls.clamped().as_array()]
    while sim.t < 2.0 - 1e-9:
        sim.step()
        times.append(sim.t)
        states.append(sim.vector)
        controls.append(sim.controls.clamped().as_array())
    path = tmp_path_factory.mktemp("source") / "turn.csv"
    trace.write_csv(path, trace.table(np.array(times), np.array(states), np.array(controls)))
    return path


def test_a_simulation_and_a_replay_are_flight_sources_with_declared_capabilities(recording):
    sim, replay = Simulation(), Replay(recording)
    assert isinstance(sim, FlightSource) and isinstance(replay, FlightSource)
    assert isinstance(replay, Playback) and not isinstance(sim, Playback)
    assert sim.capabilities == LIVE and replay.capabilities == PLAYBACK
    assert isinstance(LIVE, Capabilities)
    assert LIVE.can_fly and LIVE.can_switch_integrator and LIVE.can_record and LIVE.can_ghost and not LIVE.can_seek
    assert PLAYBACK.can_seek and not (PLAYBACK.can_fly or PLAYBACK.can_switch_integrator or PLAYBACK.can_record
                                      or PLAYBACK.can_ghost)
    assert not isinstance(object(), FlightSource)


@pytest.mark.parametrize("kind", ["live", "replay"])
def test_every_source_behaves_the_same_through_the_interface(kind, recording):
    source = Simulation(dt=0.02) if kind == "live" else Replay(recording)
    start = source.state
    assert np.array_equal(source.vector, np.r_[start.position, start.velocity, start.q, start.omega])
    assert source.running and source.status is None and source.t == start.t
    assert source.advance(0.1) > 0 and source.t == pytest.approx(start.t + 0.1)
    now, before = source.state, source.previous
    assert now.t > before.t >= start.t
    pos, q = source.render_pose()
    assert np.all(np.isfinite(pos)) and abs(np.linalg.norm(q) - 1.0) < 1e-9
    t = source.telemetry()
    assert t.t == source.t and t.integrator == source.integrator and np.isfinite(t.roll)
    assert source.surface_deflections().shape == (len(source.aircraft.elements), 2)
    source.paused = True
    assert source.advance(0.1) == 0 and source.t == now.t
    source.paused = False
    source.time_scale = 2.0
    source.advance(0.1)
    assert source.t == pytest.approx(now.t + 0.2)
    source.reset()
    assert source.t == start.t and np.array_equal(source.vector, start.position.tolist() + start.velocity.tolist()
                                                  + start.q.tolist() + start.omega.tolist())
    # Whole states: what a source shows, it takes back.
    source.advance(0.25)
    state, previous = source.state, source.previous
    source.reset()
    source.set_state(state, previous)
    assert np.array_equal(source.vector, np.r_[state.position, state.velocity, state.q, state.omega])
    assert source.previous.t == previous.t and np.array_equal(source.previous.position, previous.position)


def test_set_state_loads_a_whole_state_bit_for_bit():
    sim = Simulation(dt=0.01)
    q = np.array([0.9, 0.1, -0.2, 0.3])                        # not unit: loaded as it is
    state = FlightState(3.0, np.array([10.0, -20.0, 500.0]), np.array([150.0, 1.0, -2.0]), q,
                        np.array([0.1, -0.2, 0.05]))
    before = FlightState(2.99, np.array([8.5, -20.0, 500.0]), state.velocity, q, state.omega)
    sim.controls.throttle = 0.9
    sim.set_state(state, before)
    assert sim.t == 3.0 and sim.running and not sim.on_ground
    assert np.array_equal(sim.vector, np.r_[state.position, state.velocity, q, state.omega])
    assert sim.controls.throttle == 0.9, "the controls are not part of the state"
    assert sim.previous.t == 2.99 and np.array_equal(sim.previous.position, before.position)
    # The render pose blends from the previous state to this one.
    assert np.array_equal(sim.render_pose()[0], before.position)
    sim.advance(0.005)
    assert sim.steps == 0 and np.allclose(sim.render_pose()[0], 0.5 * (before.position + state.position))
    # Without a previous state, nothing blends; a status loads a stopped flight; on the ground: the wheels
    # pressed into it carry load.
    low = FlightState(0.0, np.array([0.0, 0.0, sim.aircraft.contact_height - 0.1]), np.zeros(3),
                      np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(3))
    sim.set_state(low, status="stopped for a test")
    assert np.array_equal(sim.previous.position, low.position) and sim.on_ground and not sim.running
    assert sim.advance(0.1) == 0


@pytest.mark.parametrize("field, value", [("position", [np.nan, 0.0, 0.0]), ("q", [0.0, 0.0, 0.0, 0.0]),
                                          ("omega", [np.inf, 0.0, 0.0]), ("velocity", [1.0, 2.0])])
def test_set_state_refuses_a_state_that_cannot_fly(field, value):
    sim = Simulation()
    good = sim.state
    kwargs = {name: getattr(good, name) for name in ("t", "position", "velocity", "q", "omega")}
    kwargs[field] = np.array(value)
    with pytest.raises(ValueError):
        sim.set_state(FlightState(**kwargs))
    assert np.array_equal(sim.vector, np.r_[good.position, good.velocity, good.q, good.omega])


def test_a_replay_loads_a_state_by_its_time(recording):
    replay = Replay(recording)
    replay.seek(1.3)
    replay.seek(1.5)
    state, previous = replay.state, replay.previous
    replay.reset()
    replay.set_state(state, previous)
    assert (replay.t, replay.previous.t) == (1.5, 1.3)
    assert np.array_equal(replay.vector, np.r_[state.position, state.velocity, state.q, state.omega])
    replay.set_state(FlightState(99.0, *state_parts(state)))
    assert replay.t == replay.end and replay.previous.t == replay.end
    with pytest.raises(ValueError):
        replay.set_state(state, status="crashed")
    with pytest.raises(ValueError):
        replay.set_integrator("rk4")
    assert replay.rows == len(trace.read_csv(recording))


def state_parts(state):
    return state.position, state.velocity, state.q, state.omega


def test_a_ghost_follows_through_the_public_interface():
    main = Simulation(dt=0.02)
    ghost = Ghost(main, "euler", substeps=1)
    main.controls.aileron = 0.4
    for _ in range(50):
        main.step()
    assert np.array_equal(ghost.sim.vector, main.vector) and ghost.difference() == (0.0, 0.0)
    assert ghost.sim.t == main.t and ghost.sim.controls.aileron == 0.4
    ghost.configure("rk4", 4)                                   # keeps its state, goes on with another method
    assert np.array_equal(ghost.sim.vector, main.vector) and ghost.sim.dt == main.dt / 4
    for _ in range(50):
        main.step()
    assert ghost.difference()[0] > 0.0
    ghost.resync()
    assert ghost.difference() == (0.0, 0.0) and ghost.sim.status is None
    ghost.detach()
    assert main.followers == []


#: A named tuple's public methods carry an underscore so as not to clash with its fields.
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def _private_reaches(path):
    """``obj._name`` where ``obj`` is neither ``self``/``cls`` (nor ``super()``) nor a module imported by the file.

    A named tuple's public API (:data:`NAMEDTUPLE_API`) is not private.
    """
    tree = ast.parse(path.read_text(), str(path))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.update(a.asname or a.name for a in node.names if a.name[:1].islower())
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and node.attr not in NAMEDTUPLE_API):
            base = node.value
            if isinstance(base, ast.Name) and (base.id in ("self", "cls") or base.id in modules):
                continue
            if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
                continue                                    # the object's own method, as its base class has it
            yield f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"


def test_nothing_reaches_into_another_objects_private_attributes():
    files = sorted((ROOT / "flightsim").rglob("*.py")) + sorted((ROOT / "tests").glob("*.py"))
    reaches = [hit for path in files for hit in _private_reaches(path)]
    assert not reaches, "\n".join(reaches)

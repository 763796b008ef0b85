"""A policy that learns: PPO (``examples/train_ppo.py``, skrl's JAX backend) on ``flightsim/HeadingHold-v0``, the
policy file it saves (:mod:`flightsim.gym.policy`), and the saved policy flying a campaign's batch and the app.

The learning test runs the example as a user does, for a short run on 20-second episodes (the 60-second task's
first updates pass through a dip that takes about two million decisions; README's curve), and checks the mean
evaluation reward rises well past both the untrained policy's and a random policy's on the same episodes.
The flying tests use the policy README's curve trained, shipped as ``examples/heading_hold_ppo.npz``.
"""

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from conftest import FLIGHTSIM
from pyglet.window import key
from test_app_trim import hold

import flightsim.gym  # noqa: F401  (registers the environments)
from flightsim.errors import InputError
from flightsim.gym.policy import FlightAsBatch, PolicyFlight, PolicyPilot, load_policy, save_policy
from flightsim.gym.tasks import HeadingHold, wrap180
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.flight import Simulation, resolve_aircraft
from flightsim.simulation.starts import make_start

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "train_ppo.py"
SHIPPED = REPO / "examples" / "heading_hold_ppo.npz"


def _example():
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _env():
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    return env


# ------------------------------------------------------------------------------------------ learning


def test_a_short_training_raises_the_reward_past_the_untrained_and_a_random_policy(tmp_path):
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, str(EXAMPLE), "--envs", "128", "--rollouts", "16", "--steps", "1.6e5",
                        "--eval-every", "4e4", "--eval-episodes", "16", "--episode-seconds", "20", "--no-autopilot",
                        "--out", str(out)], capture_output=True, text=True, timeout=900, env=_env())
    assert r.returncode == 0, r.stderr[-2000:]
    with open(out / "curve.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    decisions = [int(row["decisions"]) for row in rows]
    assert decisions[0] == 0 and decisions[-1] >= 160_000 and decisions == sorted(decisions)
    first, last = float(rows[0]["mean_reward"]), float(rows[-1]["mean_reward"])
    # a random policy on the same 16 evaluation episodes (20 s, 200 decisions each: rewards in [-200, 200])
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=16, vectorization_mode="vector_entry_point",
                              episode_seconds=20.0)
    envs.action_space.seed(1)
    rewards, _ = _example().run_episodes(envs, lambda obs: envs.action_space.sample(), 12345)
    random_mean = float(rewards.mean())
    assert last > first + 50.0 and last > random_mean + 50.0, (first, last, random_mean, rows)
    assert "policy saved" in r.stdout
    best = load_policy(out / "policy.npz")
    assert best.meta["trained_steps"] in decisions and best.env_kwargs["episode_seconds"] == 20.0


def test_the_saved_policy_acts_as_the_trained_network_and_reloads_identically(tmp_path):
    """The file holds skrl's network and its observation scaler: its numpy actions are the network's mean actions
    (to float32 rounding); read twice, it acts bit for bit the same, and each row whatever the rows beside it."""
    import jax
    import jax.numpy as jnp

    example = _example()
    args = example.make_parser().parse_args([])
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=4, vectorization_mode="vector_entry_point")
    agent = example.build_agent(envs.single_observation_space, envs.single_action_space, 4, args,
                                np.array([0.0, 0.0, 0.0, -0.1]))
    # weights and scaler statistics unlike their start (as training leaves them)
    keys = iter(jax.random.split(jax.random.PRNGKey(7), 64))
    params = jax.tree_util.tree_map(lambda p: p + 0.5 * jax.random.normal(next(keys), p.shape, p.dtype),
                                    agent.policy.state_dict.params)
    agent.policy.state_dict = agent.policy.state_dict.replace(params=params)
    scaler = agent.checkpoint_modules["observation_preprocessor"]
    rng = np.random.default_rng(3)
    for _ in range(3):
        scaler(jnp.asarray(rng.normal(0.2, 0.7, (64, 12)), dtype=jnp.float32), train=True)
    layers, scale, log_std = example.export_policy(agent)
    path = save_policy(tmp_path / "p.npz", layers, {"env_id": "flightsim/HeadingHold-v0", "env_kwargs": {}},
                       log_std, observation_scale=scale)
    obs = rng.normal(0.0, 1.5, (200, 12)).astype(np.float32)
    _, outputs = agent.policy.act({"observations": scaler(jnp.asarray(obs))}, role="policy")
    theirs = np.clip(np.asarray(outputs["mean_actions"]), -1.0, 1.0)
    a, b = load_policy(path), load_policy(path)
    ours = a.act(obs)
    assert ours.dtype == np.float32 and ours.shape == (200, 4)
    assert np.abs(ours - theirs).max() < 1e-5 and np.abs(theirs).max() > 0.3
    assert np.array_equal(ours, b.act(obs))
    assert all(np.array_equal(a.act(obs[k]), ours[k]) for k in (0, 57, 199))
    assert np.array_equal(a.act(obs[50:53]), ours[50:53])


def _write(path, **arrays):
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("case,where", [
    ("missing", "no such policy file"),
    ("text", "not a flightsim policy file"),
    ("no-meta", "meta: missing"),
    ("format", "meta.format: expected 'flightsim-policy'"),
    ("chain", "layer1.weight: takes 5 inputs, the layer before gives 8"),
    ("actions", "layer0.weight: gives 3 actions, not 4"),
    ("scale", "obs_variance: expected 2 finite numbers"),
])
def test_a_bad_policy_file_is_one_line_naming_the_entry(tmp_path, case, where):
    meta = np.array('{"format": "flightsim-policy", "version": 1, "env_id": "flightsim/HeadingHold-v0"}')
    w = np.zeros((2, 8), np.float32)
    path = tmp_path / "p.npz"
    if case == "text":
        path.write_text("hello")
    elif case == "no-meta":
        _write(path, **{"layer0.weight": w})
    elif case == "format":
        _write(path, meta=np.array('{"format": "other", "version": 1}'))
    elif case == "chain":
        _write(path, meta=meta, **{"layer0.weight": w, "layer0.bias": np.zeros(8, np.float32),
                                   "layer1.weight": np.zeros((5, 4), np.float32), "layer1.bias": np.zeros(4)})
    elif case == "actions":
        _write(path, meta=meta, **{"layer0.weight": np.zeros((2, 3)), "layer0.bias": np.zeros(3)})
    elif case == "scale":
        _write(path, meta=meta, obs_mean=np.zeros(2), obs_variance=np.array([1.0, np.nan]),
               **{"layer0.weight": np.zeros((2, 4)), "layer0.bias": np.zeros(4)})
    with pytest.raises(InputError) as info:
        load_policy(path)
    line = str(info.value)
    assert line.startswith(str(path)) and where in line and "\n" not in line


# ------------------------------------------------------------------------------------------ flying it


def test_the_policy_pilot_flies_a_campaigns_batch_back_to_its_undispersed_heading_and_altitude():
    """The campaign's protocol on a batch: a start turned by the drawn ``start_heading_deg`` and moved by
    ``start_altitude_ft`` is flown back to the undispersed heading and altitude; each airplane's controls are its
    own (the same airplane alone flies the same)."""
    aircraft = resolve_aircraft(None)
    start = make_start(aircraft, "air")
    turns = np.array([40.0, -60.0, 25.0])
    climbs = np.array([-300.0, 200.0, 0.0])

    def flown(index):
        n = len(index)
        batch = BatchSimulation(n, aircraft, "euler", start=start)
        task = HeadingHold(n, batch=batch)        # the task's own start draw: turned and moved as the campaign does
        states = task.draw(np.random.default_rng(0), n, {"heading": 0.0, "altitude": 2500.0}, np.arange(n))
        from flightsim.math import quat

        turn = quat.from_aviation_angles(np.zeros(n), np.zeros(n), turns[index])
        states[:, 3:6] = quat.rotate(turn, states[:, 3:6])
        states[:, 6:10] = quat.normalize(quat.mul(turn, states[:, 6:10]))
        states[:, 2] += climbs[index]
        batch.reset(states=states)
        pilot = PolicyPilot(SHIPPED, None)
        pilot.start(batch, {"start_heading_deg": turns[index], "start_altitude_ft": climbs[index]})
        assert pilot.hz == 10.0
        np.testing.assert_allclose(wrap180(pilot.driver.task.target_heading), 0.0, atol=1e-9)
        np.testing.assert_allclose(pilot.driver.task.target_altitude, 2500.0, atol=1e-6)
        every = int(round(1.0 / (pilot.hz * batch.dt)))
        for _ in range(300):                       # 30 s
            pilot.fly(batch)
            batch.step(every)
        return batch, pilot.driver.task.flight()

    batch, f = flown([0, 1, 2])
    assert np.all(batch.running)
    assert np.all(np.abs(wrap180(f["heading"])) < 10.0), f["heading"]
    assert np.all(np.abs(f["altitude"] - 2500.0) < 100.0), f["altitude"]
    alone, _ = flown([1])
    assert np.array_equal(alone.states[0], batch.states[1])


def test_a_policy_flies_the_apps_flight_and_the_pilots_hand_takes_over(new_app, run_frames):
    """``fly --policy`` in the app's frame loop (headless): the policy turns the airplane toward its target
    heading; the pilot's key on the aileron disconnects it and the HUD says why."""
    aircraft = resolve_aircraft(None)
    app = new_app(aircraft=aircraft, start=make_start(aircraft, "air"))
    run_frames(app, 2)
    app.policy = PolicyFlight(load_policy(SHIPPED), app.sim, heading=60.0)
    assert app.policy.target[0] == 60.0
    error0 = abs(wrap180(60.0 - app.telemetry.heading))
    run_frames(app, 150, dt=1.0 / 15.0)             # 10 s
    error = abs(wrap180(60.0 - app.telemetry.heading))
    assert app.policy.engaged and error < error0 - 30.0, (error0, error)
    hold(app, key.LEFT, run_frames, 20)
    assert not app.policy.engaged and app.policy.message == "policy disconnected: pilot input on the aileron"
    assert app.hud.message == app.policy.message
    aileron = app.sim.controls.aileron
    run_frames(app, 30, dt=1.0 / 15.0)              # the policy no longer sets the controls
    assert app.sim.controls.aileron == aileron or abs(app.sim.controls.aileron) < 1e-9


def test_flight_as_batch_reads_what_the_batch_reads():
    """The app's flight seen as a batch of one gives the task the same observation as a batch airplane in the same
    state."""
    aircraft = resolve_aircraft(None)
    start = make_start(aircraft, "air")
    sim = Simulation(aircraft=aircraft, start=start)
    for _ in range(50):
        sim.step()
    one = HeadingHold(1, batch=FlightAsBatch(sim))
    batch = BatchSimulation(1, aircraft, "euler", start=start)
    batch.reset(states=sim.vector[None, :], controls=sim.flown_controls[None, :])
    other = HeadingHold(1, batch=batch)
    for task in (one, other):
        task.target_heading[:] = 30.0
        task.target_altitude[:] = 2000.0
    np.testing.assert_allclose(one.observe(), other.observe(), atol=1e-6)


def _fly(args):
    return subprocess.run([FLIGHTSIM, "fly", *args], capture_output=True, text=True, timeout=300,
                          env=_env())


def test_fly_policy_as_a_user_runs_it_and_its_bad_input(tmp_path):
    shot = tmp_path / "shot.png"
    r = _fly(["--headless", "--frames", "20", "--size", "320x200", "--policy", str(SHIPPED),
              "--policy-target", "hdg=90,alt=2000", "--screenshot", str(shot)])
    assert r.returncode == 0, r.stderr[-2000:]
    assert shot.is_file() and shot.stat().st_size > 1000
    for args, words in (
            (["--policy", str(tmp_path / "none.npz")], "none.npz: no such policy file"),
            (["--policy-target", "hdg=90"], "--policy-target: needs --policy"),
            (["--policy", str(SHIPPED), "--policy-target", "ias=90"], "--policy-target: only hdg=DEG and alt=FT"),
            (["--policy", str(SHIPPED), "--autopilot", "hdg=90"], "--policy: a policy flies instead of --autopilot"),
            (["--policy", str(SHIPPED), "--aircraft", "c172"], "the policy flies the"),
    ):
        r = _fly(["--headless", "--frames", "2", *args])
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and words in lines[0], (args, r.stderr)

"""The Gymnasium environments: checked by Gymnasium, vectorised over the batch, deterministic, flown by the PD
example."""

import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import VectorEnv

import flightsim.gym
from flightsim.gym.autopilot import AutopilotAgent
from flightsim.gym.envs import FlightVectorEnv, HeadingHoldEnv, LandingEnv
from flightsim.gym.tasks import HeadingHold, Landing

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
from pd_autopilot import fly, readings  # noqa: E402


@pytest.mark.parametrize("env_id", flightsim.gym.ENV_IDS)
def test_gymnasium_checks_the_environment(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["t"] == 0.0
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(obs) and np.isfinite(reward)
    assert info["t"] == pytest.approx(0.1)           # agent_hz 10: twelve steps of 1/120 s
    env.close()


def test_the_keyword_arguments_reach_the_simulation():
    env = gymnasium.make("flightsim/HeadingHold-v0", integrator="rk4", dt=1 / 60, agent_hz=20, wind="270@15",
                         turbulence="light").unwrapped
    batch = env.task.batch
    assert batch.integrator == "rk4" and batch.dt == pytest.approx(1 / 60) and env.task.substeps == 3
    assert env.task.wind.turbulence == "light" and env.task.wind.speed == pytest.approx(15 * 1.68781)
    env.reset(seed=1)
    steady = env.task.wind.steady(float(batch.states[0, 2]))
    assert steady[1] < -25.0                            # from the West: blowing towards the East (earth −y)
    gust = batch.wind[0, :3] - steady                   # and the turbulence on top of it
    assert 0.0 < np.linalg.norm(gust) < 30.0
    with pytest.raises(ValueError, match="^agent_hz: "):
        HeadingHoldEnv(dt=1 / 120, agent_hz=7)
    with pytest.raises(ValueError, match="^integrator: unknown name"):
        HeadingHoldEnv(integrator="nope")
    with pytest.raises(ValueError, match="^wind: "):
        HeadingHoldEnv(wind="west")
    with pytest.raises(ValueError, match="^turbulence: "):
        HeadingHoldEnv(turbulence="stormy")


def test_the_observation_is_documented_and_scaled():
    for task in (HeadingHold, Landing):
        assert all(len(entry) == 3 and entry[1] > 0 for entry in task.OBSERVATION)
    env = HeadingHoldEnv()
    obs, _ = env.reset(seed=4, options=dict(heading=90.0, altitude=2000.0, target_heading=120.0,
                                            target_altitude=1800.0))
    r = readings(obs)
    assert r["heading_error"] == pytest.approx(30.0, abs=1e-3)
    assert r["altitude_error"] == pytest.approx(-200.0, abs=1e-2)
    assert r["roll"] == pytest.approx(0.0, abs=1e-3) and abs(r["airspeed_error"]) < 1e-3
    assert np.all(np.abs(obs) < 1.0)


def test_make_vec_is_one_batch_not_n_environments():
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=5, vectorization_mode="vector_entry_point")
    base = envs.unwrapped if hasattr(envs, "unwrapped") else envs
    assert isinstance(base, FlightVectorEnv) and isinstance(base, VectorEnv)
    assert base.task.batch.n == 5 and envs.num_envs == 5
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (5, len(HeadingHold.OBSERVATION)) and envs.observation_space.contains(obs)
    obs, rewards, terminated, truncated, _ = envs.step(envs.action_space.sample())
    assert obs.shape == (5, 12) and rewards.shape == terminated.shape == truncated.shape == (5,)
    envs.close()


def test_autoreset_on_the_step_after_a_crash_and_the_others_fly_on():
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=3, vectorization_mode="vector_entry_point")
    task = envs.unwrapped.task
    envs.reset(seed=2)
    dive = np.zeros((3, 4), dtype=np.float32)
    dive[0] = (-1.0, 0.0, 0.0, 1.0)              # airplane 0: full nose down, full throttle
    for _ in range(600):
        obs, rewards, terminated, truncated, infos = envs.step(dive)
        if terminated[0]:
            break
    assert terminated[0] and not terminated[1:].any() and rewards[0] == -100.0
    assert infos["status"][0].startswith("crashed at t = ") and infos["_status"][0]
    t_others = task.batch.times[1:].copy()
    obs, rewards, terminated, truncated, _ = envs.step(dive)
    # the crashed one starts a new episode (its action ignored), the others take their step
    assert task.batch.times[0] == 0.0 and rewards[0] == 0.0 and not terminated[0] and not truncated[0]
    assert task.batch.status[0] == 0 and abs(readings(obs[0])["roll"]) < 1e-6
    np.testing.assert_allclose(task.batch.times[1:], t_others + 0.1)


def test_same_seed_and_actions_same_trajectory_bit_for_bit():
    def run():
        envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=4, vectorization_mode="vector_entry_point",
                                  turbulence="moderate")
        envs.action_space.seed(5)
        out = [envs.reset(seed=9)[0]]
        for _ in range(40):
            out.append(envs.step(envs.action_space.sample())[0])
        envs.close()
        return np.array(out)

    first, second = run(), run()
    np.testing.assert_array_equal(first, second)
    env = HeadingHoldEnv(turbulence="moderate")
    a = env.reset(seed=9)[0]
    assert np.array_equal(a, env.reset(seed=9)[0]) and not np.array_equal(a, env.reset(seed=10)[0])


def test_the_pd_autopilot_holds_heading_and_altitude_for_a_minute():
    env = gymnasium.make("flightsim/HeadingHold-v0", wind="300@15", episode_seconds=100.0)
    log = fly(env, seed=0, options=dict(heading=90.0, altitude=2500.0, target_heading=130.0, target_altitude=2800.0))
    held = [row for row in log if row["t"] > 40.0 - 1e-9]
    assert log[-1]["t"] == pytest.approx(100.0) and len(held) >= 600       # a simulated minute, every decision
    assert max(abs(row["heading_error"]) for row in held) < 2.0
    assert max(abs(row["altitude_error"]) for row in held) < 50.0
    assert abs(log[0]["heading_error"]) > 30.0 and abs(log[0]["altitude_error"]) > 250.0   # it had to turn and climb


def test_landing_from_the_approach_start_holding_the_trim_is_a_success():
    env = LandingEnv()
    obs, _ = env.reset(seed=0, options=dict(offset=0.0, height=0.0))
    throttle = env.task.start.controls.throttle
    action = np.array([0.0, 0.0, 0.0, 2.0 * throttle - 1.0], dtype=np.float32)
    total = 0.0
    for _ in range(900):
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            break
    assert terminated and info["on_ground"] and "status" not in info
    assert reward > 50.0 and 55.0 < info["t"] < 70.0
    assert obs[list(dict.fromkeys(n for n, _, _ in Landing.OBSERVATION)).index("on_ground")] == 1.0


def test_rgb_array_frames_come_from_the_renderer(headless_gl):
    env = gymnasium.make("flightsim/HeadingHold-v0", render_mode="rgb_array")
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.float32))
    frame = env.render()
    assert frame.shape == (360, 640, 3) and frame.dtype == np.uint8
    # sky above, ground below, the airplane and the HUD in between: far from one colour
    assert frame[:, :, 2].std() > 20.0 and len(np.unique(frame.reshape(-1, 3), axis=0)) > 500
    env.close()


def test_importing_the_environments_loads_no_drawing_library():
    code = ("import sys, gymnasium, flightsim.gym; env = gymnasium.make('flightsim/Landing-v0'); env.reset(seed=0); "
            "env.step(env.action_space.sample()); "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('pyglet', 'OpenGL', 'imgui_bundle')], 'drawing'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_reset_mask_resets_only_those_sub_environments():
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=3, vectorization_mode="vector_entry_point")
    batch = envs.unwrapped.task.batch
    first, _ = envs.reset(seed=1)
    envs.step(np.zeros((3, 4), dtype=np.float32))
    flown = batch.states.copy()
    obs, _ = envs.reset(options={"reset_mask": np.array([False, True, False])})
    assert list(batch.times) == [pytest.approx(0.1), 0.0, pytest.approx(0.1)]
    np.testing.assert_array_equal(batch.states[[0, 2]], flown[[0, 2]])
    assert obs.shape == first.shape and not np.array_equal(obs[1], first[1])   # a new random start and target


def test_human_mode_opens_the_window(xvfb_run):
    code = ("import gymnasium, numpy as np, flightsim.gym; "
            "env = gymnasium.make('flightsim/HeadingHold-v0', render_mode='human'); env.reset(seed=0); "
            "env.step(np.zeros(4, dtype=np.float32)); "
            "view = env.unwrapped.view; assert view is not None and not view.headless and view.app.window.visible; "
            "env.close(); print('window ok')")
    proc = subprocess.run([*xvfb_run, sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "window ok" in proc.stdout, proc.stderr


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_nan_action_is_refused_naming_its_index_and_nothing_is_flown(bad):
    env = HeadingHoldEnv()
    env.reset(seed=0)
    batch = env.unwrapped.task.batch
    before, t = batch.controls.copy(), batch.times.copy()
    action = np.zeros(4, dtype=np.float32)
    action[1] = bad
    with pytest.raises(ValueError, match=r"^action\[1\] \(aileron\): (nan|inf) is not a finite number$"):
        env.step(action)
    np.testing.assert_array_equal(batch.controls, before)
    np.testing.assert_array_equal(batch.times, t)
    assert batch.running.all()

    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=3, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    actions = np.zeros((3, 4), dtype=np.float32)
    actions[2, 3] = bad
    with pytest.raises(ValueError, match=r"^action\[2\]\[3\] \(throttle\)"):
        envs.step(actions)
    envs.close()


def test_flightsims_autopilot_flies_the_heading_hold_task_as_an_agent():
    env = gymnasium.make("flightsim/HeadingHold-v0", episode_seconds=100.0)
    agent = AutopilotAgent(env)
    obs, _ = env.reset(seed=0, options=dict(heading=90.0, altitude=2500.0, target_heading=130.0,
                                            target_altitude=2800.0))
    rewards = []
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act())
        rewards.append(reward)
        if terminated or truncated:
            break
    o = readings(obs)
    assert truncated and info["t"] == pytest.approx(100.0)
    assert abs(o["heading_error"]) < 1.0 and abs(o["altitude_error"]) < 20.0
    assert np.mean(rewards[-400:]) > 0.95
    assert env.unwrapped.task.batch.autopilot.codes[0] == 112     # HDG ALT SPD all the way


def test_the_autopilot_agent_engages_again_after_each_autoreset_and_flies_the_approach():
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=3, vectorization_mode="vector_entry_point",
                              episode_seconds=5.0)
    agent = AutopilotAgent(envs)
    envs.reset(seed=2)
    for _ in range(60):                                             # 6 s: an autoreset at 5 s
        *_, truncated, _ = envs.step(agent.act())
    batch = envs.unwrapped.task.batch
    assert batch.autopilot.engaged.all() and np.all(batch.times < 2.0)
    env = LandingEnv()
    agent = AutopilotAgent(env)
    env.reset(seed=0, options=dict(offset=60.0, height=20.0))
    loops = env.task.batch.autopilot.loops
    while loops.engaged[0] or not loops.messages[0]:
        env.step(agent.act())
    assert loops.chime[0] and loops.messages[0] == "approach: 200 ft above the runway - your airplane"
    _, offset = env.task.runway_frame()
    assert abs(offset[0]) < 20.0 and abs(env.task.quantity("glide_error", None)[0]) < 15.0

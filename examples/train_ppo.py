"""Train a PPO policy on ``flightsim/HeadingHold-v0`` with Stable-Baselines3, many airplanes in one batch.

Not a dependency of flightsim and not run by the tests: install it yourself
(``pip install stable-baselines3`` brings PyTorch), then::

    python examples/train_ppo.py                          # 64 airplanes, 2·10⁶ decisions, saves heading_hold_ppo.zip
    python examples/train_ppo.py --envs 256 --steps 5e6 --integrator rk4

The airplanes are one :class:`flightsim.gym.envs.FlightVectorEnv` (one
compiled call steps them all), shown to Stable-Baselines3 through
:class:`BatchVecEnv`, a small adapter to its ``VecEnv`` interface:
Stable-Baselines3 resets a finished sub-environment in the same step and
keeps the last observation in ``info["terminal_observation"]``, where
Gymnasium's vector environments reset it in the next step; the adapter asks
the vector environment for that partial reset with ``reset_mask``.
"""

import argparse

import gymnasium
import numpy as np
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

import flightsim.gym  # noqa: F401  (registers the environments)


class BatchVecEnv(VecEnv):
    """A Gymnasium vector environment (next-step autoreset) as a Stable-Baselines3 ``VecEnv``."""

    def __init__(self, envs):
        self.envs = envs
        self.render_mode = None
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
        self._actions = None

    def reset(self):
        seed = self._seeds[0]
        obs, _ = self.envs.reset(seed=seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions):
        self._actions = np.asarray(actions, dtype=np.float32)

    def step_wait(self):
        obs, rewards, terminated, truncated, _ = self.envs.step(self._actions)
        done = terminated | truncated
        infos = [{} for _ in range(self.num_envs)]
        if np.any(done):
            for k in np.flatnonzero(done):
                infos[k]["terminal_observation"] = obs[k].copy()
                infos[k]["TimeLimit.truncated"] = bool(truncated[k] and not terminated[k])
            obs, _ = self.envs.reset(options={"reset_mask": done})
        return obs, rewards.astype(np.float32), done, infos

    def close(self):
        self.envs.close()

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name) if attr_name == "render_mode" else getattr(self.envs, attr_name)
                for _ in self._get_indices(indices)]

    def set_attr(self, attr_name, value, indices=None):
        setattr(self.envs, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        return [getattr(self.envs, method_name)(*method_args, **method_kwargs) for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._get_indices(indices)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=64, help="airplanes flying at once")
    parser.add_argument("--steps", type=float, default=2e6, help="decisions to train for (all airplanes)")
    parser.add_argument("--integrator", default="euler")
    parser.add_argument("--turbulence", default="none")
    parser.add_argument("--out", default="heading_hold_ppo.zip")
    args = parser.parse_args()
    envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=args.envs, vectorization_mode="vector_entry_point",
                              integrator=args.integrator, turbulence=args.turbulence)
    venv = VecMonitor(BatchVecEnv(envs))
    model = PPO("MlpPolicy", venv, n_steps=256, batch_size=4096, learning_rate=3e-4, gamma=0.99, verbose=1, seed=0)
    model.learn(total_timesteps=int(args.steps))
    model.save(args.out)
    print(f"policy saved: {args.out}")
    venv.close()


if __name__ == "__main__":
    main()

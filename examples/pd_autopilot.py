"""A PD autopilot that holds heading and altitude in ``flightsim/HeadingHold-v0``.

Two loops on the observation (see :class:`flightsim.gym.tasks.HeadingHold`):
heading error → bank angle → aileron (with roll-rate damping), and altitude
error → vertical speed → elevator (with pitch-rate damping); the throttle
holds the cruise airspeed around the throttle the episode started with, and
the rudder turns the sideslip away.  Run it::

    python examples/pd_autopilot.py            # prints the errors every 10 s of one episode
    python examples/pd_autopilot.py --render   # and writes the last frame to autopilot.png
"""

import argparse

import gymnasium
import numpy as np

import flightsim.gym  # noqa: F401  (registers the environments)
from flightsim.gym.tasks import HeadingHold

SCALES = {name: scale for name, scale, _ in HeadingHold.OBSERVATION}
NAMES = [name for name, _, _ in HeadingHold.OBSERVATION]


def readings(obs):
    """The observation in its units (deg, ft, ft/s, rad/s): a dict by name."""
    return {name: float(v) * SCALES[name] for name, v in zip(NAMES, obs, strict=True)}


class PDAutopilot:
    """Heading and altitude hold for the book's airplane: ``action = pilot(obs)``.

    Parameters
    ----------
    throttle : float
        The throttle (0..1) the airplane was trimmed with: the airspeed loop works around it.
    """

    max_bank = 25.0        # deg
    max_climb = 15.0       # ft/s

    def __init__(self, throttle):
        self.throttle = throttle

    def __call__(self, obs):
        o = readings(obs)
        bank = np.clip(0.8 * o["heading_error"], -self.max_bank, self.max_bank)
        aileron = 0.03 * (bank - o["roll"]) - 0.4 * o["p"]
        climb = np.clip(0.15 * o["altitude_error"], -self.max_climb, self.max_climb)
        # in a bank the lift tilts: pull a little more to hold the height
        elevator = 0.02 * (climb - o["vertical_speed"]) - 0.5 * o["q"] + 0.004 * abs(o["roll"])
        throttle = self.throttle - 0.02 * o["airspeed_error"]
        rudder = 0.05 * o["beta"] - 0.3 * o["r"]
        return np.clip(np.array([elevator, aileron, rudder, 2.0 * throttle - 1.0], dtype=np.float32), -1.0, 1.0)


def fly(env, seed=0, options=None, seconds=None):
    """One episode with the autopilot; returns the readings after each decision (a list of dicts)."""
    obs, _ = env.reset(seed=seed, options=options)
    pilot = PDAutopilot(readings(obs)["throttle"])
    log = []
    while True:
        obs, reward, terminated, truncated, info = env.step(pilot(obs))
        log.append(dict(readings(obs), t=info["t"], reward=reward))
        if terminated or truncated or (seconds is not None and info["t"] >= seconds):
            return log


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--render", action="store_true", help="save the last frame as autopilot.png")
    args = parser.parse_args()
    env = gymnasium.make("flightsim/HeadingHold-v0", episode_seconds=120.0,
                         render_mode="rgb_array" if args.render else None)
    log = fly(env, args.seed)
    for row in log[::100]:
        print(f"t = {row['t']:5.1f} s  heading error {row['heading_error']:+7.2f}°  "
              f"altitude error {row['altitude_error']:+7.1f} ft  airspeed error {row['airspeed_error']:+6.1f} ft/s")
    if args.render:
        from PIL import Image

        Image.fromarray(env.render()).save("autopilot.png")
        print("frame saved: autopilot.png")
    env.close()


if __name__ == "__main__":
    main()

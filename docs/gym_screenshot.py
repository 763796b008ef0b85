"""Make docs/gym-landing.png: a frame of ``flightsim/Landing-v0`` (``render_mode="rgb_array"``) 4 s before touchdown.

The approach start with no offset, flown with the trim's throttle and the stick centred for
56 s of simulated time (560 decisions at 10 Hz); run from the repository root::

    python docs/gym_screenshot.py
"""

from pathlib import Path

import gymnasium
import numpy as np
from PIL import Image

import flightsim.gym  # noqa: F401  (registers the environments)

OUT = Path(__file__).resolve().parent / "gym-landing.png"


def main():
    env = gymnasium.make("flightsim/Landing-v0", render_mode="rgb_array", size=(960, 540))
    env.reset(seed=0, options=dict(offset=0.0, height=0.0))
    throttle = env.unwrapped.task.start.controls.throttle
    action = np.array([0.0, 0.0, 0.0, 2.0 * throttle - 1.0], dtype=np.float32)
    for _ in range(560):
        env.step(action)
    Image.fromarray(env.render()).save(OUT)
    env.close()
    print(f"saved {OUT}")


if __name__ == "__main__":
    main()

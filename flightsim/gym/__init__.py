"""Gymnasium environments for flightsim (the optional extra ``flightsim[rl]``).

Importing this package registers:

``flightsim/HeadingHold-v0``
    Hold a target heading and altitude given in the observation, from a
    random trimmed state and target (:class:`flightsim.gym.tasks.HeadingHold`).
``flightsim/Landing-v0``
    From the approach start to a touchdown on the runway
    (:class:`flightsim.gym.tasks.Landing`).

Keyword arguments of both (``gymnasium.make(id, **kwargs)``): ``aircraft``,
``integrator``, ``dt`` (physics step, s), ``agent_hz`` (decisions per
second), ``wind`` (``"270@15"``), ``turbulence``, ``episode_seconds``,
``render_mode`` (``"rgb_array"``: frames from flightsim's renderer off-screen;
``"human"``: a window), ``planet`` (``"flat"``, ``"round"``), ``lat``, ``lon``
(deg: the runway's centre on it).  ``gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point")`` gives N airplanes stepped together
(:class:`flightsim.gym.envs.FlightVectorEnv`).

The observation, action and reward are documented on the tasks
(:mod:`flightsim.gym.tasks`); ``OBSERVATION`` lists each entry with its scale
and unit.  :class:`flightsim.gym.autopilot.AutopilotAgent` flies either task with
flightsim's own autopilot, a baseline for a learned policy.  Nothing here imports a drawing library until a frame
is asked for.
"""

from gymnasium.envs.registration import register, registry

from flightsim.gym.autopilot import AutopilotAgent
from flightsim.gym.envs import (
    FlightEnv,
    FlightVectorEnv,
    HeadingHoldEnv,
    HeadingHoldVectorEnv,
    LandingEnv,
    LandingVectorEnv,
)
from flightsim.gym.tasks import ACTIONS, HeadingHold, Landing

__all__ = ["ACTIONS", "AutopilotAgent", "ENV_IDS", "FlightEnv", "FlightVectorEnv", "HeadingHold", "HeadingHoldEnv",
           "HeadingHoldVectorEnv", "Landing", "LandingEnv", "LandingVectorEnv"]

#: The registered environment ids.
ENV_IDS = ("flightsim/HeadingHold-v0", "flightsim/Landing-v0")

for _id, _env, _vector in ((ENV_IDS[0], "HeadingHoldEnv", "HeadingHoldVectorEnv"),
                           (ENV_IDS[1], "LandingEnv", "LandingVectorEnv")):
    if _id not in registry:
        register(id=_id, entry_point=f"flightsim.gym.envs:{_env}",
                 vector_entry_point=f"flightsim.gym.envs:{_vector}")

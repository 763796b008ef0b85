"""flightsim's own autopilot as an agent for the Gymnasium tasks: a baseline an agent can be measured against.

:class:`AutopilotAgent` engages :class:`~flightsim.simulation.autopilot.BatchAutopilot` on the task's
airplanes at the start of each episode, with the task's target — heading and altitude select for
:class:`~flightsim.gym.tasks.HeadingHold`, the coupled approach to runway 36 for
:class:`~flightsim.gym.tasks.Landing` — so that the autopilot flies every physics step, as it does in
``flightsim fly``; its actions are the controls the autopilot set, so that the environment's step keeps them
(an action that moved a control beyond the autopilot's pilot threshold would disconnect it, as a pilot's hand
does).  The approach hands back at 200 ft above the runway; from there the agent holds the controls as they
were (the landing is the pilot's)::

    env = gymnasium.make("flightsim/HeadingHold-v0")
    agent = AutopilotAgent(env)
    obs, info = env.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act())
        if terminated or truncated:
            break
"""

import numpy as np

from flightsim.gym.envs import FlightVectorEnv
from flightsim.gym.tasks import HeadingHold, Landing
from flightsim.simulation.autopilot import Selection
from flightsim.simulation.controls import AILERON, ELEVATOR, RUDDER, THROTTLE

__all__ = ["AutopilotAgent"]


class AutopilotAgent:
    """Actions from flightsim's autopilot for a :class:`~flightsim.gym.envs.FlightEnv` or
    :class:`~flightsim.gym.envs.FlightVectorEnv` (wrapped or not) of a task it knows.

    Attributes
    ----------
    gains : flightsim.simulation.autopilot.Gains or None
        The gains of the first engagement (the task's start trim), kept for every later episode.
    """

    def __init__(self, env):
        self.task = env.unwrapped.task
        self._single = not isinstance(env.unwrapped, FlightVectorEnv)
        if not isinstance(self.task, (HeadingHold, Landing)):
            raise ValueError(f"AutopilotAgent: no autopilot target for the task {type(self.task).__name__}")
        self.gains = None

    def _selection(self, a):
        task = self.task
        if isinstance(task, Landing):
            return Selection(approach=True)
        return Selection(heading=float(task.target_heading[a]), altitude=float(task.target_altitude[a]))

    def act(self):
        """``(4,)`` (one airplane) or ``(N, 4)`` actions: the controls the autopilot flies, engaging it first on
        the airplanes whose episode has just begun."""
        batch = self.task.batch
        autopilot = batch.autopilot
        loops = autopilot.loops
        for a in np.flatnonzero(~loops.engaged & batch.running):
            if not loops.messages[a] and not batch.on_ground[a]:      # not engaged since its episode began
                self.gains = autopilot.engage(self._selection(a), [a], gains=self.gains)
        c = batch.controls
        actions = np.stack((c[:, ELEVATOR] - self.task.trim_elevator, c[:, AILERON], c[:, RUDDER],
                            2.0 * c[:, THROTTLE] - 1.0), axis=1)
        actions = np.clip(actions, -1.0, 1.0)
        return actions[0] if self._single else actions

"""Gymnasium environments over the batched simulation: one airplane (``Env``) or N (``VectorEnv``).

Both run a :class:`~flightsim.gym.tasks.Task` (:class:`~flightsim.gym.tasks.HeadingHold`
or :class:`~flightsim.gym.tasks.Landing`) on a
:class:`~flightsim.simulation.batch.BatchSimulation`; the vector environment
steps all its airplanes in one compiled call per physics step, and resets
finished ones with Gymnasium's default next-step autoreset: the step after
an episode ends returns that sub-environment's first observation of a new
episode, with reward 0, not terminated, not truncated, and ignores its action.

Same seed, same actions: the same trajectories bit for bit (every random
draw — starts, targets, turbulence seeds — comes from the environment's
generator, and the compiled step is the same sequence of operations per
airplane whatever the number of threads).
"""

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from flightsim.gym.tasks import OBS_LIMIT, HeadingHold, Landing
from flightsim.simulation.flight import DEFAULT_DT

RENDER_MODES = ["human", "rgb_array"]


def _spaces(task_class):
    observation = spaces.Box(-OBS_LIMIT, OBS_LIMIT, shape=(len(task_class.OBSERVATION),), dtype=np.float32)
    action = spaces.Box(-1.0, 1.0, shape=(4,), dtype=np.float32)
    return observation, action


class FlightEnv(gymnasium.Env):
    """One airplane flying a task (see :mod:`flightsim.gym`).

    Parameters
    ----------
    aircraft : None, str or Path
        Aircraft file (None: the book's airplane).
    integrator : str
        Any registered integrator (``flightsim integrators``).
    dt : float
        Physics step, s.
    agent_hz : float
        Decisions per second (``1/(dt·agent_hz)`` physics steps each, a whole number).
    wind : None, str, tuple or WindSpec
        ``"270@15"`` (from 270° true at 15 kt), ``(270, 15)``, a
        :class:`~flightsim.physics.wind.WindSpec`, or None (calm).
    turbulence : str
        ``none``, ``light``, ``moderate``, ``severe`` (Dryden; a new seed each episode).
    render_mode : None, "rgb_array" or "human"
    episode_seconds : float, optional
        Simulated seconds before truncation (default: the task's, 60 s or 120 s).
    size : (int, int)
        Frame size for rendering, pixels.
    planet : None, "flat", "round" or Planet
        The planet flown (:func:`flightsim.physics.planet.resolve`; None: the aircraft's default).
    lat, lon : float, optional
        Latitude and longitude (deg) of the earth frame's origin, the runway's centre (default 0°, 0°).
    airfield, runway : str, optional
        The landing task's runway end (an airfield's identifier and one of its ends, ``flightsim airfields``;
        default the home runway 36).
    failures : str, Path or iterable of Failure, optional
        Failures on a schedule (a failures file, :func:`flightsim.simulation.failures.read_failures`), each
        episode's from its start (every kind; the agent observes through the failed instruments).
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 30}
    task_class = None

    def __init__(self, aircraft=None, integrator="euler", dt=DEFAULT_DT, agent_hz=10.0, wind=None,
                 turbulence="none", render_mode=None, episode_seconds=None, size=(640, 360), planet=None, lat=None,
                 lon=None, airfield=None, runway=None, failures=None):
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode: must be one of {RENDER_MODES} or None, got {render_mode!r}")
        self.task = self.task_class(1, aircraft=aircraft, integrator=integrator, dt=dt, agent_hz=agent_hz,
                                    wind=wind, turbulence=turbulence, episode_seconds=episode_seconds,
                                    planet=planet, lat=lat, lon=lon, airfield=airfield, runway=runway,
                                    failures=failures)
        self.observation_space, self.action_space = _spaces(self.task_class)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, render_fps=self.task.agent_hz)
        self.size = tuple(size)
        self._view = None

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.task.reset(np.array([0]), self.np_random, options)
        if self.render_mode == "human":
            self.render()
        return self.task.observe()[0], self._info()

    def step(self, action):
        self.task.act(np.asarray(action)[None, :])
        stopped = self.task.advance()
        f = self.task.flight()
        reward, terminated, truncated = self.task.evaluate(stopped, f)
        if self.render_mode == "human":
            self.render()
        return self.task.observe(f)[0], float(reward[0]), bool(terminated[0]), bool(truncated[0]), self._info()

    def _info(self):
        b = self.task.batch
        info = {"t": float(b.times[0]), "on_ground": bool(b.on_ground[0])}
        if b.messages[0] is not None:
            info["status"] = b.messages[0]
        return info

    @property
    def view(self):
        """The :class:`flightsim.gym.render.View` drawing this environment (None until the first frame)."""
        return self._view

    def render(self):
        """``rgb_array``: the frame, (height, width, 3) uint8, drawn by flightsim's renderer off-screen (EGL);
        ``human``: draws into a window.  None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='rgb_array' or 'human'")
            return None
        if self._view is None:
            from flightsim.gym.render import View

            self._view = View(self.task, headless=self.render_mode == "rgb_array", size=self.size)
        return self._view.draw(0)

    def close(self):
        if self._view is not None:
            self._view.close()
            self._view = None
        super().close()


class FlightVectorEnv(VectorEnv):
    """``num_envs`` airplanes flying a task, stepped together (one compiled call per physics step).

    The arguments are those of :class:`FlightEnv` (``render_mode`` ``rgb_array``
    draws sub-environment 0).  Autoreset: next-step
    (``metadata["autoreset_mode"]``).  ``infos`` is empty but for the key
    ``status`` (the stop message of each sub-environment that crashed, else
    None) on steps where one ended.  ``device="cuda"`` steps the airplanes on an NVIDIA GPU
    (:class:`~flightsim.simulation.batch.BatchSimulation`'s ``device``).
    """

    metadata = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}
    task_class = None

    def __init__(self, num_envs=1, aircraft=None, integrator="euler", dt=DEFAULT_DT, agent_hz=10.0, wind=None,
                 turbulence="none", render_mode=None, episode_seconds=None, size=(640, 360), planet=None, lat=None,
                 lon=None, airfield=None, runway=None, failures=None, device="cpu"):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode: the vector environment renders 'rgb_array' or None, got {render_mode!r}")
        self.num_envs = int(num_envs)
        self.task = self.task_class(self.num_envs, aircraft=aircraft, integrator=integrator, dt=dt,
                                    agent_hz=agent_hz, wind=wind, turbulence=turbulence,
                                    episode_seconds=episode_seconds, planet=planet, lat=lat, lon=lon,
                                    airfield=airfield, runway=runway, failures=failures, device=device)
        self.single_observation_space, self.single_action_space = _spaces(self.task_class)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, render_fps=self.task.agent_hz)
        self.size = tuple(size)
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._view = None

    def reset(self, *, seed=None, options=None):
        """Reset every sub-environment, or those in ``options["reset_mask"]`` (a bool array), as Gymnasium's own.

        Observations of all the sub-environments are returned either way.
        """
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        super().reset(seed=seed)
        index = np.arange(self.num_envs) if mask is None else np.flatnonzero(np.asarray(mask, dtype=bool))
        self.task.reset(index, self.np_random, options)
        self._autoreset[index] = False
        return self.task.observe(), {}

    def step(self, actions):
        task = self.task
        again = np.flatnonzero(self._autoreset)
        if again.shape[0]:
            task.reset(again, self.np_random)
        if again.shape[0]:
            go = np.flatnonzero(~self._autoreset)
            task.act(np.asarray(actions)[go], go)
        else:
            task.act(actions)
        stopped = task.advance(hold=again)
        f = task.flight()
        reward, terminated, truncated = task.evaluate(stopped, f)
        reward[again] = 0.0
        terminated[again] = False
        truncated[again] = False
        self._autoreset = terminated | truncated
        infos = {}
        if np.any(self._autoreset):
            infos["status"] = np.array(task.batch.messages, dtype=object)
            infos["_status"] = terminated.copy()
        return task.observe(f), reward.astype(np.float64), terminated, truncated, infos

    def render(self):
        """The frame of sub-environment 0 (``rgb_array``), or None."""
        if self.render_mode is None:
            return None
        if self._view is None:
            from flightsim.gym.render import View

            self._view = View(self.task, headless=True, size=self.size)
        return self._view.draw(0)

    def close_extras(self, **kwargs):
        if self._view is not None:
            self._view.close()
            self._view = None


class HeadingHoldEnv(FlightEnv):
    """``flightsim/HeadingHold-v0``: hold a target heading and altitude (:class:`~flightsim.gym.tasks.HeadingHold`)."""

    task_class = HeadingHold


class LandingEnv(FlightEnv):
    """``flightsim/Landing-v0``: from the approach start to a touchdown on the runway
    (:class:`~flightsim.gym.tasks.Landing`)."""

    task_class = Landing


class HeadingHoldVectorEnv(FlightVectorEnv):
    """The vector form of ``flightsim/HeadingHold-v0``."""

    task_class = HeadingHold


class LandingVectorEnv(FlightVectorEnv):
    """The vector form of ``flightsim/Landing-v0``."""

    task_class = Landing

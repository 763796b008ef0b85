"""The tasks behind the Gymnasium environments, for N airplanes at once (one :class:`BatchSimulation`).

A task owns a :class:`~flightsim.simulation.batch.BatchSimulation` and says
where an episode starts, what an agent sees (:meth:`Task.observe`), how an
action becomes the controls (:meth:`Task.act`) and what each decision earns
(:meth:`Task.evaluate`).  The single environment is a task of one airplane,
the vector environment a task of ``num_envs``: the same code either way.

Frames and units: earth x North, y West, z up (ft); angles in degrees with
aviation signs (roll + right wing down, pitch + nose up, heading clockwise
from North); rates p, q, r in rad/s with aviation signs (p + rolling right,
q + pitching up, r + yawing right).

Actions, four numbers in [−1, 1]: elevator (+ nose up, added to the start's
elevator trim), aileron (+ roll right), rudder (+ nose right), throttle
(−1 idle … +1 full; thrust ∝ (a + 1)/2).
"""

import math
from pathlib import Path

import numpy as np

from flightsim.math import quat
from flightsim.physics.wind import KNOT, WindSpec
from flightsim.simulation.batch import CRASHED, NONFINITE, BatchSimulation
from flightsim.simulation.controls import (
    AILERON,
    CONTROL_NAMES,
    ELEVATOR,
    ENGINE,
    FLAPS,
    GEAR,
    RUDDER,
    THROTTLE,
    flown_row,
    refuse_nonfinite,
)
from flightsim.simulation.flight import DEFAULT_DT, resolve_aircraft
from flightsim.simulation.starts import AIM_DISTANCE, GLIDE_ANGLE, make_start

#: Observations are clipped to ±this (their scales put ordinary flight well inside ±1).
OBS_LIMIT = 10.0
#: Names of the four action entries.
ACTIONS = ("elevator", "aileron", "rudder", "throttle")


def wrap180(deg):
    """Angles folded into [−180, 180) degrees."""
    return (np.asarray(deg) + 180.0) % 360.0 - 180.0


def wind_spec(wind, turbulence, seed=0):
    """A :class:`~flightsim.physics.wind.WindSpec` from the environments' ``wind`` and ``turbulence`` arguments.

    ``wind``: None (calm), a ``WindSpec`` (its turbulence replaced by ``turbulence``
    unless that is ``"none"``), ``"DEG@KNOTS"`` (blowing from DEG true at KNOTS) or
    ``(deg, knots)``.  Raises ``ValueError("wind: …")`` for anything else.
    """
    if isinstance(wind, WindSpec):
        if turbulence != "none":
            return WindSpec(wind.from_deg, wind.speed, turbulence, wind.seed, wind.shear, wind.gusts)
        return wind
    if wind is None:
        deg, knots = 0.0, 0.0
    elif isinstance(wind, str):
        try:
            deg, knots = (float(part) for part in wind.split("@"))
        except ValueError:
            raise ValueError(f"wind: expected DEG@KNOTS (e.g. 270@15), got {wind!r}") from None
    else:
        try:
            deg, knots = (float(part) for part in wind)
        except (TypeError, ValueError):
            raise ValueError(f"wind: expected None, a WindSpec, 'DEG@KNOTS' or (deg, knots), got {wind!r}") from None
    return WindSpec(deg % 360.0 if deg != 360.0 else deg, knots * KNOT, turbulence, seed)


def failures_of(failures):
    """The failures an environment flies: None (none), a failures file's path (:func:`~flightsim.simulation.failures.
    read_failures`) or :class:`~flightsim.simulation.failures.Failure` objects."""
    if failures is None:
        return ()
    if isinstance(failures, (str, Path)):
        from flightsim.simulation.failures import read_failures

        return read_failures(failures)
    return tuple(failures)


def substeps_of(dt, agent_hz):
    """Physics steps per decision, ``1/(dt·agent_hz)``; ``ValueError`` unless it is a whole number ≥ 1."""
    if not (math.isfinite(agent_hz) and agent_hz > 0.0):
        raise ValueError(f"agent_hz: must be > 0, got {agent_hz!r}")
    ratio = 1.0 / (dt * agent_hz)
    steps = round(ratio)
    if steps < 1 or abs(ratio - steps) > 1e-6 * ratio:
        raise ValueError(f"agent_hz: 1/(dt·agent_hz) must be a whole number of physics steps, got {ratio:g} "
                         f"(dt = {dt:g} s, agent_hz = {agent_hz:g})")
    return steps


#: The airplane's attitude, rates and angles to the air: (name, scale, meaning) rows both tasks observe.
ATTITUDE = (
    ("roll", 180.0, "deg, + right wing down"),
    ("pitch", 90.0, "deg, + nose up"),
    ("p", 1.0, "roll rate, rad/s, + rolling right"),
    ("q", 1.0, "pitch rate, rad/s, + nose up"),
    ("r", 1.0, "yaw rate, rad/s, + nose right"),
    ("alpha", 20.0, "angle of attack, deg"),
    ("beta", 20.0, "sideslip, deg, + air from the right"),
)


class Task:
    """N airplanes flying one task.

    Parameters
    ----------
    n : int
        Airplanes.
    aircraft : None, str, Path or Aircraft
        None: the book's airplane.
    integrator : str
        Any name in :data:`flightsim.physics.integrators.INTEGRATORS`.
    dt : float
        Physics step, s.
    agent_hz : float
        Decisions per second; ``1/(dt·agent_hz)`` physics steps per decision.
    wind, turbulence
        See :func:`wind_spec`; the turbulence seed of each episode is drawn
        from the environment's random generator.
    episode_seconds : float
        Simulated time after which an episode is truncated.
    planet : None, "flat", "round" or Planet
        The planet the airplanes fly on (:func:`flightsim.physics.planet.resolve`; None: the batch's default).
    lat, lon : float, optional
        Latitude and longitude (deg) of the earth frame's origin (the runway's centre; default 0°, 0°).
        The three are passed to the :class:`~flightsim.simulation.batch.BatchSimulation` where given.
    airfield, runway : str, optional
        The runway end of a task that starts on the approach (:class:`Landing`): an airfield's identifier and one
        of its runway ends (:func:`flightsim.simulation.world.runway_end`; default the home runway 36).  A task
        that starts in the air refuses them (ValueError).
    failures : str, Path or iterable of Failure, optional
        See :func:`failures_of`.
    batch : BatchSimulation or None
        Airplanes flown by someone else (a campaign's batch, the app's flight seen as a batch of one:
        :class:`flightsim.gym.policy.FlightAsBatch`): the task observes them (:meth:`observe`) and sets their
        controls (:meth:`act`) but builds no batch of its own; ``n`` must be its size.  The start (its trim, the
        cruise speed the observation is relative to) is still the task's own, as the environments' are, so that
        a policy trained on them reads the same numbers.  Needs ``states``, ``wind``, ``controls``,
        ``on_ground``, ``status``, ``times``, ``dt`` and :meth:`set_controls
        <flightsim.simulation.batch.BatchSimulation.set_controls>`.
    device : {"cpu", "cuda"}
        Where the task's own batch steps (:class:`~flightsim.simulation.batch.BatchSimulation`'s ``device``).
    """

    #: Entries of the observation, with their scales (a person reads ``obs * scale`` in the units named).
    OBSERVATION = ()
    default_seconds = 60.0

    def __init__(self, n, aircraft=None, integrator="euler", dt=DEFAULT_DT, agent_hz=10.0, wind=None,
                 turbulence="none", episode_seconds=None, planet=None, lat=None, lon=None, airfield=None,
                 runway=None, failures=None, batch=None, device="cpu"):
        self.aircraft = resolve_aircraft(aircraft)
        self.wind = wind_spec(wind, turbulence)
        # another's batch keeps its own step: the decisions are as near agent_hz as whole steps make them
        self.substeps = substeps_of(dt, agent_hz) if batch is None else max(1, round(1.0 / (batch.dt * agent_hz)))
        self.agent_hz = float(agent_hz)
        self.episode_seconds = float(episode_seconds or self.default_seconds)
        #: where the batch flies: the start is trimmed for the same planet (its gravity there)
        self.where = {"planet": planet, "lat": lat, "lon": lon}
        #: the runway end of a runway or approach start (None, None: the home runway 36)
        self.place = {"airfield": airfield, "runway": runway}
        self.start = self.make_start()
        #: the start's runway's elevation (ft above sea level): the altitude observed is above it
        self.elevation = self.start.elevation
        if batch is None:
            self.batch = BatchSimulation(n, self.aircraft, integrator, dt, start=self.start,
                                         wind=None if self.wind.calm else self.wind, **self.where,
                                         failures=failures_of(failures), device=device)
        elif batch.n != n:
            raise ValueError(f"batch: {batch.n} airplanes, the task has {n}")
        else:
            self.batch = batch
        self.n = n
        self.trim_elevator = np.zeros(n)
        self.flaps = np.zeros(n)
        self.gear = np.ones(n)          # the gear lever as the start has it (1 down, 0 up)
        self.scale = np.array([s for _, s, _ in self.OBSERVATION])

    # ------------------------------------------------------------------ episodes

    def make_start(self):
        """The trimmed :class:`~flightsim.simulation.starts.Start` episodes are drawn around (in still air)."""
        raise NotImplementedError

    def draw(self, rng, m, options, index):
        """``m`` start states ``(m, 13)`` in still air drawn from ``rng`` (the task's per-episode values of the
        airplanes ``index`` set too); ``options`` may fix them (see the task)."""
        raise NotImplementedError

    def reset(self, index, rng, options=None):
        """Start new episodes for the airplanes ``index``, drawn from ``rng`` (a numpy Generator)."""
        options = options or {}
        m = index.shape[0]
        states = self.draw(rng, m, options, index)
        if not self.wind.calm:
            states[:, 3:6] += np.stack([self.wind.steady(float(h)) for h in states[:, 2]])
        seeds = rng.integers(0, 2 ** 31 - 1, size=m)
        c = self.start.controls
        controls = np.tile(flown_row(c), (m, 1))
        self.trim_elevator[index] = c.elevator_trim
        self.flaps[index] = c.flaps
        self.gear[index] = controls[:, GEAR]
        self.batch.reset(index, states, controls, seeds)

    def act(self, actions, index=None):
        """Set the controls of the airplanes ``index`` (default all) from ``(m, 4)`` actions in [−1, 1].

        The actions are clipped to the action space; the controls they make go through the one controls
        boundary (:meth:`BatchSimulation.set_controls <flightsim.simulation.batch.BatchSimulation.set_controls>`).

        Raises
        ------
        ValueError
            An action entry that is NaN or infinite, naming its index (``action[1] (aileron): nan is not a
            finite number``); no controls change.
        """
        index = np.arange(self.n) if index is None else index
        a = refuse_nonfinite(np.asarray(actions, dtype=np.float64).reshape(index.shape[0], 4), "action", ACTIONS)
        a = np.clip(a, -1.0, 1.0)
        u = np.zeros((index.shape[0], len(CONTROL_NAMES)))
        u[:, ENGINE] = 1.0
        u[:, THROTTLE] = 0.5 * (a[:, 3] + 1.0)
        u[:, ELEVATOR] = a[:, 0] + self.trim_elevator[index]
        u[:, AILERON] = a[:, 1]
        u[:, RUDDER] = a[:, 2]
        u[:, FLAPS] = self.flaps[index]
        u[:, GEAR] = self.gear[index]
        self.batch.set_controls(u, index)

    def advance(self, hold=None):
        """One decision's physics steps for every running airplane not in ``hold``; returns those stopped now."""
        return self.batch.step(self.substeps, hold=hold)

    # ------------------------------------------------------------------ what the agent sees

    def flight(self):
        """Per airplane, by name: roll, pitch, heading, alpha, beta (deg), airspeed, vertical_speed (ft/s),
        p, q, r (rad/s), altitude (ft above the ground: above the start's runway's elevation)."""
        y = self.batch.states
        q = y[:, 6:10]
        roll, pitch, heading = quat.aviation_angles(q).T
        vb = quat.rotate(quat.conj(q), y[:, 3:6] - self.batch.wind[:, :3])
        airspeed = np.linalg.norm(vb, axis=1)
        alpha = np.degrees(np.arctan2(-vb[:, 2], vb[:, 0]))
        beta = np.degrees(np.arcsin(np.clip(-vb[:, 1] / np.maximum(airspeed, 1e-9), -1.0, 1.0)))
        return dict(roll=roll, pitch=pitch, heading=heading, airspeed=airspeed, alpha=alpha, beta=beta,
                    p=y[:, 10], q=-y[:, 11], r=-y[:, 12],
                    altitude=y[:, 2] - self.aircraft.contact_height - self.elevation, vertical_speed=y[:, 5])

    def observe(self, f=None):
        """``(N, len(OBSERVATION))`` float32: each entry divided by its scale, clipped to ±:data:`OBS_LIMIT`.

        ``f``: :meth:`flight` of the current states, if the caller has it.
        """
        f = self.shown(self.flight() if f is None else f)
        raw = np.stack([self.quantity(name, f) for name, _, _ in self.OBSERVATION], axis=1)
        return np.clip(raw / self.scale, -OBS_LIMIT, OBS_LIMIT).astype(np.float32)

    def shown(self, f):
        """:meth:`flight`'s values as the cockpit's instruments show them: with failures on a schedule, a blocked
        pitot or static port's airspeed, height and vertical speed and a failed vacuum pump's attitude and heading
        (:meth:`flightsim.simulation.gauges.BatchGauges.implied`), so that an agent flies on what it can see; the
        reward still scores the true flight.  Without failures ``f`` itself."""
        gauges = self.batch.gauges
        if gauges is None:
            return f
        y = self.batch.states
        f = dict(f)
        airspeed, height, f["vertical_speed"], f["roll"], f["pitch"], f["heading"] = gauges.implied(
            y[:, 2], f["airspeed"], self.batch.air_density, f["vertical_speed"], f["roll"], f["pitch"], f["heading"])
        f["altitude"] = f["altitude"] + (height - y[:, 2])
        f["airspeed"] = airspeed
        return f

    def quantity(self, name, f):
        """One observation entry, in its unit, for every airplane."""
        return f[name]

    def evaluate(self, stopped, f):
        """``(reward, terminated, truncated)`` arrays after a decision.

        ``stopped``: the airplanes stopped in it; ``f``: :meth:`flight` of the current states.
        """
        raise NotImplementedError

    def crashed(self):
        """``(N,)`` bool: stopped by a crash or a non-finite state."""
        return (self.batch.status == CRASHED) | (self.batch.status == NONFINITE)

    def timed_out(self):
        """``(N,)`` bool: the episode's time is up."""
        return self.batch.times >= self.episode_seconds - 0.5 * self.batch.dt


class HeadingHold(Task):
    """Hold a target heading and altitude, from a random trimmed state and a random target.

    Start: level flight trimmed at the aircraft's cruise speed (solved once),
    turned to a heading drawn uniformly in [0, 360)° at an altitude drawn
    uniformly in [1500, 4000] ft; target heading the start's ± up to
    :attr:`max_turn` degrees, target altitude the start's ± up to
    :attr:`max_climb` ft (``options``: ``heading``, ``altitude``,
    ``target_heading``, ``target_altitude`` fix them).

    Reward per decision: ``1 − |Δψ|/90° − |Δh|/500 ft`` with each error
    term capped at 1 (so in [−1, 1]); a crash ends the episode with −100.
    """

    OBSERVATION = (
        ("heading_error", 180.0, "target − heading, deg, folded into ±180"),
        ("altitude_error", 1000.0, "target − altitude, ft"),
        ("airspeed_error", 100.0, "airspeed through the air − cruise speed, ft/s"),
        ("vertical_speed", 50.0, "ft/s, + up"),
        *ATTITUDE,
        ("throttle", 1.0, "throttle in force, 0..1"),
    )
    max_turn = 90.0
    max_climb = 500.0
    altitudes = (1500.0, 4000.0)

    def __init__(self, n, **kwargs):
        self.target_heading = np.zeros(n)
        self.target_altitude = np.zeros(n)
        super().__init__(n, **kwargs)
        self.cruise = float(self.start.trim.airspeed)

    def make_start(self):
        return make_start(self.aircraft, "air", **self.where, **self.place)

    def draw(self, rng, m, options, index):
        heading = rng.uniform(0.0, 360.0, m)
        altitude = rng.uniform(*self.altitudes, m)
        turn = rng.uniform(-self.max_turn, self.max_turn, m)
        climb = rng.uniform(-self.max_climb, self.max_climb, m)
        heading = np.full(m, float(options.get("heading", 0.0))) if "heading" in options else heading
        altitude = np.full(m, float(options.get("altitude"))) if "altitude" in options else altitude
        target_h = np.full(m, float(options["target_heading"])) if "target_heading" in options else heading + turn
        target_a = np.full(m, float(options["target_altitude"])) if "target_altitude" in options else altitude + climb
        self.target_heading[index] = np.mod(target_h, 360.0)
        self.target_altitude[index] = target_a
        y0 = self.start.state
        start_heading = float(quat.aviation_angles(y0[6:10])[2])
        turn_q = quat.from_aviation_angles(np.zeros(m), np.zeros(m), heading - start_heading)
        states = np.tile(y0, (m, 1))
        states[:, 3:6] = quat.rotate(turn_q, np.tile(y0[3:6], (m, 1)))
        states[:, 6:10] = quat.normalize(quat.mul(turn_q, np.tile(y0[6:10], (m, 1))))
        states[:, 2] = altitude + self.aircraft.contact_height
        return states

    def quantity(self, name, f):
        if name == "heading_error":
            return wrap180(self.target_heading - f["heading"])
        if name == "altitude_error":
            return self.target_altitude - f["altitude"]
        if name == "airspeed_error":
            return f["airspeed"] - self.cruise
        if name == "throttle":
            return self.batch.controls[:, 0]
        return f[name]

    def evaluate(self, stopped, f):
        dpsi = np.abs(wrap180(self.target_heading - f["heading"]))
        dh = np.abs(self.target_altitude - f["altitude"])
        reward = 1.0 - np.minimum(dpsi / 90.0, 1.0) - np.minimum(dh / 500.0, 1.0)
        terminated = self.crashed()
        reward = np.where(terminated, -100.0, reward)
        return reward, terminated, self.timed_out() & ~terminated


class Landing(Task):
    """From the approach start (3° glide path to runway 36, or ``airfield=``, ``runway=``'s, flaps down) to a
    touchdown on the runway.

    Start: :func:`flightsim.simulation.starts.approach_start`, moved by up to
    ±100 ft across the centre line and ±30 ft in height (``options``:
    ``offset``, ``height`` fix them).  Success: a wheel carries load on the
    runway's rectangle without a crash.

    Reward per decision: ``−0.01 (|y|/100 ft + |Δh_glide|/50 ft)`` (y the
    distance from the centre line, Δh_glide the height above the glide
    path); the episode ends with ``+100 − 5·sink rate (ft/s) − |y|/5 ft``
    on a touchdown on the runway, −50 on a touchdown off it, −100 on a crash.
    """

    OBSERVATION = (
        ("distance_to_aim", 5000.0, "ground distance to the aim point along the runway, ft"),
        ("offset", 500.0, "distance left of the centre line, ft"),
        ("glide_error", 100.0, "height above the 3° glide path, ft"),
        ("altitude", 1000.0, "ft above the ground"),
        ("airspeed_error", 50.0, "airspeed through the air − approach speed, ft/s"),
        ("vertical_speed", 20.0, "ft/s, + up"),
        ("heading_error", 180.0, "heading − runway heading, deg, folded into ±180"),
        *ATTITUDE,
        ("on_ground", 1.0, "1 when a wheel carries load"),
    )
    default_seconds = 120.0
    max_offset = 100.0
    max_height = 30.0

    def __init__(self, n, **kwargs):
        super().__init__(n, **kwargs)
        self.approach_speed = float(self.start.trim.airspeed)
        #: the runway landed on (the home runway 36, or ``airfield=``, ``runway=``'s end as its first threshold)
        self.runway = self.start.runway
        along, left = self.runway.axes()
        self._along, self._left = along, left
        self._threshold = self.runway.threshold()
        # the glide path through the wheels' aim point, as the CG flies it at the start
        distance, _ = self.runway.local(*self.start.state[0:2])
        slope = math.tan(math.radians(-GLIDE_ANGLE))
        self._cg_above_path = float(self.start.state[2]) - (AIM_DISTANCE - distance) * slope

    def make_start(self):
        return make_start(self.aircraft, "approach", **self.where, **self.place)

    def draw(self, rng, m, options, index):
        offset = (np.full(m, float(options["offset"])) if "offset" in options
                  else rng.uniform(-self.max_offset, self.max_offset, m))
        height = (np.full(m, float(options["height"])) if "height" in options
                  else rng.uniform(-self.max_height, self.max_height, m))
        states = np.tile(self.start.state, (m, 1))
        states[:, 0] += offset * self._left[0]
        states[:, 1] += offset * self._left[1]
        states[:, 2] += height
        return states

    def runway_frame(self):
        """Per airplane ``(distance past the threshold, offset left of the centre line)``, ft."""
        d = self.batch.states[:, 0:2] - self._threshold
        return d @ self._along, d @ self._left

    def quantity(self, name, f):
        distance, offset = self.runway_frame()
        if name == "distance_to_aim":
            return AIM_DISTANCE - distance
        if name == "offset":
            return offset
        if name == "glide_error":
            path = (AIM_DISTANCE - distance) * math.tan(math.radians(-GLIDE_ANGLE)) + self._cg_above_path
            return self.batch.states[:, 2] - path
        if name == "airspeed_error":
            return f["airspeed"] - self.approach_speed
        if name == "heading_error":
            return wrap180(f["heading"] - self.runway.heading_deg)
        if name == "on_ground":
            return self.batch.on_ground.astype(np.float64)
        return f[name]

    def evaluate(self, stopped, f):
        distance, offset = self.runway_frame()
        glide = self.quantity("glide_error", None)
        reward = -0.01 * (np.abs(offset) / 100.0 + np.abs(glide) / 50.0)
        crashed = self.crashed()
        down = self.batch.on_ground & ~crashed
        rw = self.runway
        on_runway = (distance >= 0.0) & (distance <= rw.length) & (np.abs(offset) <= 0.5 * rw.width)
        sink = np.maximum(-self.batch.states[:, 5], 0.0)
        reward = np.where(down & on_runway, 100.0 - 5.0 * sink - np.abs(offset) / 5.0, reward)
        reward = np.where(down & ~on_runway, -50.0, reward)
        reward = np.where(crashed, -100.0, reward)
        terminated = crashed | down
        return reward, terminated, self.timed_out() & ~terminated

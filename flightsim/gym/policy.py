"""Saved policies: a small documented file, acting with numpy only, and a pilot that flies one.

A policy trained on a task (``examples/train_ppo.py`` trains one with PPO on
``flightsim/HeadingHold-v0``) is saved as a **flightsim policy file**, a numpy
``.npz`` archive (read with ``numpy.load(path, allow_pickle=False)``) holding:

``meta``
    A JSON string: ``format`` (``"flightsim-policy"``), ``version`` (1),
    ``env_id`` (the environment it was trained on), ``env_kwargs`` (the
    environment's arguments it was trained with: ``agent_hz`` decisions per
    second, ``integrator``, ``dt`` s, …), ``observation`` and ``action`` (the
    entries' names, in order, as :data:`flightsim.gym.tasks.HeadingHold.OBSERVATION`
    and :data:`flightsim.gym.tasks.ACTIONS` name them), ``activation``
    (``"tanh"``), and free notes (``library``, ``trained_steps``).
``layer0.weight``, ``layer0.bias``, ``layer1.weight``, … (float32)
    A multilayer perceptron: ``h = activation(h @ weight + bias)`` for every
    layer but the last, which is linear; ``weight`` is ``(inputs, outputs)``.
    Its input is the task's observation (each entry divided by its scale,
    :meth:`flightsim.gym.tasks.Task.observe`), its output the mean of the
    policy's action distribution: the action flown, clipped to [−1, 1].
``obs_mean``, ``obs_variance`` (float32, optional)
    The observation is standardised before the first layer,
    ``clip((obs − obs_mean) / (sqrt(obs_variance) + meta.obs_epsilon), ±meta.obs_clip)``
    (the running scaler the policy was trained behind).
``log_std`` (float32, optional)
    The log standard deviations of the Gaussian the policy explored with in
    training (not used to act).

:func:`load_policy` reads one (any problem is one
:class:`~flightsim.errors.InputError` line naming the file, the entry and the
reason); :meth:`Policy.act` maps ``(N, observations)`` to ``(N, 4)`` actions.
:class:`PolicyPilot` flies a saved policy on a campaign's batch (the campaign's
pilot protocol: ``hz``, ``start(batch, draws)``, ``fly(batch)``), through the
task's own observation and action code (:class:`~flightsim.gym.tasks.Task`
built around the campaign's batch).
"""

import json
import zipfile
from pathlib import Path

import numpy as np
from numba import njit

from flightsim.errors import InputError

__all__ = ["FORMAT", "FlightAsBatch", "Policy", "PolicyDriver", "PolicyFlight", "PolicyPilot", "load_policy",
           "save_policy"]

#: The ``format`` entry of a policy file's ``meta``.
FORMAT = "flightsim-policy"
VERSION = 1
#: The hidden layers' activations a policy file may name (its ``meta.activation``), by their code in :func:`_dense`.
ACTIVATIONS = {"tanh": 1, "relu": 2, "elu": 3}


@njit(cache=True)
def _dense(x, w, b, activation):
    """One layer, ``activation(x @ w + b)`` in float32, row by row, each output summed over the inputs in their
    order: a row's result does not depend on the rows beside it (a campaign's runs do not depend on their chunk).
    ``activation``: 0 none, 1 tanh, 2 relu, 3 elu."""
    n, k = x.shape
    m = w.shape[1]
    out = np.empty((n, m), dtype=np.float32)
    for r in range(n):
        for j in range(m):
            out[r, j] = b[j]
        for i in range(k):
            xi = x[r, i]
            for j in range(m):
                out[r, j] += xi * w[i, j]
        if activation != 0:
            for j in range(m):
                v = out[r, j]
                if activation == 1:
                    out[r, j] = np.tanh(v)
                elif activation == 2:
                    out[r, j] = max(v, np.float32(0.0))
                elif v < 0.0:
                    out[r, j] = np.expm1(v)
    return out


class Policy:
    """A deterministic policy read from a policy file: observations in, actions out (numpy, float32).

    Parameters
    ----------
    layers : list of (ndarray, ndarray)
        ``(weight (inputs, outputs), bias (outputs,))`` per layer, the last one linear.
    meta : dict
        The file's ``meta`` (see the module).
    log_std : ndarray, optional
        The training's exploration log standard deviations.
    path : Path, optional
        The file it was read from (named in errors).
    observation_scale : tuple, optional
        ``(mean, variance, clip, epsilon)``: the observation standardised first (see the module).

    Attributes
    ----------
    env_id : str
        The environment it was trained on.
    env_kwargs : dict
        Its arguments in training (``agent_hz``, ``integrator``, ``dt`` …).
    agent_hz : float
        Decisions per second it was trained at.
    """

    def __init__(self, layers, meta, log_std=None, path=None, observation_scale=None):
        self.path = path
        self.scale = None
        if observation_scale is not None:
            mean, variance, clip, epsilon = observation_scale
            self.scale = (np.asarray(mean, dtype=np.float32),
                          (np.sqrt(np.asarray(variance, dtype=np.float32)) + np.float32(epsilon)).astype(np.float32),
                          np.float32(clip))
        self.layers = [(np.ascontiguousarray(w, dtype=np.float32), np.ascontiguousarray(b, dtype=np.float32))
                       for w, b in layers]
        self.meta = dict(meta)
        self.log_std = None if log_std is None else np.asarray(log_std, dtype=np.float32)
        self.activation = ACTIVATIONS[self.meta.get("activation", "tanh")]
        self.env_id = self.meta["env_id"]
        self.env_kwargs = dict(self.meta.get("env_kwargs", {}))
        self.agent_hz = float(self.env_kwargs.get("agent_hz", 10.0))

    @property
    def observation_size(self):
        """Entries of the observation the policy reads."""
        return self.layers[0][0].shape[0]

    def act(self, observations):
        """``(N, 4)`` float32 actions in [−1, 1] (elevator, aileron, rudder, throttle) for ``(N, observation_size)``
        observations (or ``(4,)`` for one ``(observation_size,)`` observation)."""
        x = np.asarray(observations, dtype=np.float32)
        one = x.ndim == 1
        h = np.ascontiguousarray(x[None, :] if one else x)
        if h.ndim != 2 or h.shape[1] != self.observation_size:
            raise ValueError(f"observations: expected (N, {self.observation_size}), got {x.shape}")
        if self.scale is not None:
            mean, std, clip = self.scale
            h = np.clip((h - mean) / std, -clip, clip).astype(np.float32)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            h = _dense(h, w, b, 0 if k == last else self.activation)
        actions = np.clip(h, np.float32(-1.0), np.float32(1.0))
        return actions[0] if one else actions


def save_policy(path, layers, meta, log_std=None, observation_scale=None):
    """Write a policy file (see the module) atomically: a temporary file beside ``path``, renamed onto it.

    Parameters
    ----------
    path : str or Path
        The file (``.npz`` is appended by numpy if missing: give it).
    layers : list of (ndarray, ndarray)
        ``(weight (inputs, outputs), bias)`` per layer, the last one linear.
    meta : dict
        ``env_id``, ``env_kwargs``, ``observation``, ``action``, ``activation`` and notes; ``format`` and
        ``version`` are set here.
    log_std : ndarray, optional
    observation_scale : dict, optional
        ``mean``, ``variance`` (arrays), ``clip``, ``epsilon``: the observation's standardisation.
    """
    path = Path(path)
    arrays = {}
    if observation_scale is not None:
        arrays["obs_mean"] = np.asarray(observation_scale["mean"], dtype=np.float32)
        arrays["obs_variance"] = np.asarray(observation_scale["variance"], dtype=np.float32)
        meta = {**meta, "obs_clip": float(observation_scale["clip"]),
                "obs_epsilon": float(observation_scale["epsilon"])}
    for k, (w, b) in enumerate(layers):
        arrays[f"layer{k}.weight"] = np.asarray(w, dtype=np.float32)
        arrays[f"layer{k}.bias"] = np.asarray(b, dtype=np.float32)
    if log_std is not None:
        arrays["log_std"] = np.asarray(log_std, dtype=np.float32)
    meta = {"format": FORMAT, "version": VERSION, **{k: v for k, v in meta.items() if k not in ("format", "version")}}
    arrays["meta"] = np.array(json.dumps(meta))
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb") as file:
        np.savez(file, **arrays)
    tmp.replace(path)
    return path


def load_policy(path):
    """Read a policy file (see the module) into a :class:`Policy`.

    Raises
    ------
    flightsim.errors.InputError
        A missing or unreadable file, no ``meta``, another format, a missing layer, or layers whose shapes do not
        chain: one line naming the file, the entry and the reason.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "", "no such policy file")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise InputError(path, "", f"not a flightsim policy file (a numpy .npz archive): {exc}") from None
    if "meta" not in arrays:
        raise InputError(path, "meta", "missing: not a flightsim policy file")
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError as exc:
        raise InputError(path, "meta", f"not JSON: {exc}") from None
    if not isinstance(meta, dict):
        raise InputError(path, "meta", f"expected a JSON object, got {meta!r}")
    if meta.get("format") != FORMAT:
        raise InputError(path, "meta.format", f"expected {FORMAT!r}, got {meta.get('format')!r}")
    if meta.get("version") != VERSION:
        raise InputError(path, "meta.version", f"expected {VERSION}, got {meta.get('version')!r}")
    if not isinstance(meta.get("env_id"), str):
        raise InputError(path, "meta.env_id", "missing: the environment the policy was trained on")
    if meta.get("activation", "tanh") not in ACTIVATIONS:
        raise InputError(path, "meta.activation", f"expected one of {sorted(ACTIVATIONS)}, got {meta['activation']!r}")
    layers = []
    while f"layer{len(layers)}.weight" in arrays:
        k = len(layers)
        if f"layer{k}.bias" not in arrays:
            raise InputError(path, f"layer{k}.bias", "missing")
        w, b = arrays[f"layer{k}.weight"], arrays[f"layer{k}.bias"]
        if w.ndim != 2 or b.shape != (w.shape[1],):
            raise InputError(path, f"layer{k}", f"weight {w.shape} and bias {b.shape} do not make a layer")
        if layers and layers[-1][0].shape[1] != w.shape[0]:
            raise InputError(path, f"layer{k}.weight", f"takes {w.shape[0]} inputs, the layer before gives "
                                                       f"{layers[-1][0].shape[1]}")
        if not (np.all(np.isfinite(w)) and np.all(np.isfinite(b))):
            raise InputError(path, f"layer{k}", "not finite")
        layers.append((w, b))
    if not layers:
        raise InputError(path, "layer0.weight", "missing: the policy has no layers")
    if layers[-1][0].shape[1] != 4:
        raise InputError(path, f"layer{len(layers) - 1}.weight", f"gives {layers[-1][0].shape[1]} actions, not 4")
    scale = None
    if "obs_mean" in arrays or "obs_variance" in arrays:
        size = layers[0][0].shape[0]
        for name in ("obs_mean", "obs_variance"):
            if name not in arrays or arrays[name].shape != (size,) or not np.all(np.isfinite(arrays[name])):
                raise InputError(path, name, f"expected {size} finite numbers (with obs_mean and obs_variance)")
        if np.any(arrays["obs_variance"] < 0.0):
            raise InputError(path, "obs_variance", "negative")
        for name in ("obs_clip", "obs_epsilon"):
            if not isinstance(meta.get(name), (int, float)) or not meta[name] >= 0.0:
                raise InputError(path, f"meta.{name}", f"expected a number ≥ 0, got {meta.get(name)!r}")
        scale = (arrays["obs_mean"], arrays["obs_variance"], meta["obs_clip"], meta["obs_epsilon"])
    names = meta.get("observation")
    if names is not None and len(names) != layers[0][0].shape[0]:
        raise InputError(path, "meta.observation", f"names {len(names)} entries, layer0 takes {layers[0][0].shape[0]}")
    return Policy(layers, meta, arrays.get("log_std"), path=path, observation_scale=scale)


def _task_class(policy):
    from flightsim.gym.tasks import HeadingHold, Landing

    tasks = {"flightsim/HeadingHold-v0": HeadingHold, "flightsim/Landing-v0": Landing}
    if policy.env_id not in tasks:
        raise InputError(policy.path, "meta.env_id", f"{policy.env_id!r} is not one of {', '.join(tasks)}")
    return tasks[policy.env_id]


class FlightAsBatch:
    """One :class:`~flightsim.simulation.flight.Simulation` (the app's flight) seen as a batch of one airplane: what
    a :class:`~flightsim.gym.tasks.Task` reads and writes (``states``, ``wind``, ``controls`` …), so that the task's
    own observation and action code runs on it.

    :meth:`set_controls` moves the four controls a policy flies (throttle, elevator, aileron, rudder) in the
    flight's :class:`~flightsim.simulation.controls.Controls`, the elevator less its trim (so that the elevator
    flown is the row's); the flaps, the gear and the rest stay the pilot's.
    """

    n = 1
    #: the task observes the flight's true values (a batch's failed instruments are its ``gauges``; the app's
    #: failures show on the cockpit's instruments, to the pilot)
    gauges = None

    def __init__(self, sim):
        self.sim = sim
        self.aircraft = sim.aircraft
        self.dt = sim.dt

    @property
    def states(self):
        return self.sim.vector[None, :]

    @property
    def wind(self):
        return self.sim.wind[None, :]

    @property
    def controls(self):
        return self.sim.flown_controls.reshape(1, -1)

    @property
    def on_ground(self):
        return np.array([self.sim.on_ground])

    @property
    def times(self):
        return np.array([self.sim.t])

    def set_controls(self, controls, index=None):
        from flightsim.simulation.controls import AILERON, ELEVATOR, RUDDER, THROTTLE, flown

        u = flown(np.asarray(controls, dtype=np.float64).reshape(1, -1))[0]
        c = self.sim.controls
        c.throttle = float(u[THROTTLE])
        c.elevator = float(u[ELEVATOR]) - min(max(c.elevator_trim, -1.0), 1.0)
        c.aileron = float(u[AILERON])
        c.rudder = float(u[RUDDER])


class PolicyDriver:
    """A policy flying airplanes it did not train on: its task's observation and action code
    (:class:`~flightsim.gym.tasks.Task` built around ``batch``) between the airplanes and the policy.

    The task's start is the one the policy was trained from (the aircraft's trimmed cruise or approach): the
    observation is relative to its cruise speed and the elevator action to its trim, as in training; the flaps
    and the gear stay as ``batch`` has them now.

    Parameters
    ----------
    policy : Policy
    batch : flightsim.simulation.batch.BatchSimulation or FlightAsBatch

    Raises
    ------
    flightsim.errors.InputError
        A policy of an unknown task, or trained on another aircraft than ``batch`` flies.
    """

    def __init__(self, policy, batch):
        from flightsim.simulation.controls import FLAPS, GEAR

        self.policy = policy
        kwargs = policy.env_kwargs
        where = {k: kwargs[k] for k in ("planet", "lat", "lon", "airfield", "runway") if kwargs.get(k) is not None}
        task = _task_class(policy)(batch.n, aircraft=kwargs.get("aircraft"), agent_hz=policy.agent_hz, batch=batch,
                                   **where)
        if task.aircraft.name != batch.aircraft.name:
            raise InputError(policy.path, "meta.env_kwargs.aircraft",
                             f"the policy flies the {task.aircraft.name}, not the {batch.aircraft.name}")
        if policy.observation_size != len(task.OBSERVATION):
            raise InputError(policy.path, "layer0.weight", f"takes {policy.observation_size} observations, "
                                                           f"{policy.env_id} gives {len(task.OBSERVATION)}")
        self.task = task
        task.trim_elevator[:] = task.start.controls.elevator_trim
        controls = batch.controls
        task.flaps[:] = controls[:, FLAPS]
        task.gear[:] = controls[:, GEAR]

    def decide(self, index=None):
        """Set the controls of the airplanes ``index`` (default all) from the policy's actions on their
        observations (:meth:`~flightsim.gym.tasks.Task.observe`, :meth:`~flightsim.gym.tasks.Task.act`)."""
        obs = self.task.observe()
        if index is None:
            self.task.act(self.policy.act(obs))
        else:
            index = np.asarray(index, dtype=np.int64)
            if index.shape[0]:
                self.task.act(self.policy.act(obs[index]), index)


class PolicyPilot:
    """A saved policy as a campaign's pilot (``[pilot] policy = "FILE"``; the campaign's pilot protocol).

    ``hz`` is the policy's decisions per second.  A heading-hold policy holds the campaign's undispersed start:
    each airplane's target is its heading and altitude at the start less the drawn ``start.heading_deg`` and
    ``start.altitude_ft`` offsets, so a dispersed start is flown back to them.  A landing policy flies to the
    runway it was trained on.  Each airplane's actions come from its own observation only.

    Parameters
    ----------
    path : str or Path
        The policy file (:func:`load_policy`).
    spec : flightsim.simulation.campaign.spec.CampaignSpec, optional
        The campaign: its ``aircraft`` must be the one the policy was trained on (else
        :class:`~flightsim.errors.InputError`); the policy's own file says what it flies.
    """

    def __init__(self, path, spec=None):
        self.policy = load_policy(path)
        self.spec = spec
        if spec is not None and getattr(spec, "aircraft", None) is not None:
            from flightsim.simulation.flight import resolve_aircraft

            flies, campaign = (resolve_aircraft(self.policy.env_kwargs.get("aircraft")).name,
                               resolve_aircraft(spec.aircraft).name)
            if flies != campaign:
                raise InputError(path, "meta.env_kwargs.aircraft", f"the policy flies the {flies}, not the "
                                                                   f"campaign's {campaign}")
        self.hz = self.policy.agent_hz
        self.driver = None

    def start(self, batch, draws):
        """Build the task's view of ``batch`` and each airplane's target (a heading-hold policy's)."""
        from flightsim.gym.tasks import HeadingHold

        self.driver = PolicyDriver(self.policy, batch)
        task = self.driver.task
        if isinstance(task, HeadingHold):
            f = task.flight()
            turn = np.asarray(draws.get("start_heading_deg", np.zeros(batch.n)), dtype=np.float64)
            climb = np.asarray(draws.get("start_altitude_ft", np.zeros(batch.n)), dtype=np.float64)
            task.target_heading[:] = np.mod(f["heading"] - turn, 360.0)
            task.target_altitude[:] = f["altitude"] - climb

    def fly(self, batch):
        """The running airplanes' controls from the policy."""
        self.driver.decide(np.flatnonzero(batch.running))



class PolicyFlight:
    """A saved policy flying one :class:`~flightsim.simulation.flight.Simulation` (``flightsim fly --policy``):
    a decision every ``1/hz`` s of simulated time, made after the physics step that ends the interval (a follower of
    the flight, as the app's control schedule is), until :meth:`disconnect` (the pilot's hand on a control).

    Parameters
    ----------
    policy : Policy
    sim : flightsim.simulation.flight.Simulation
    heading, altitude : float, optional
        A heading-hold policy's target: heading (deg true) and altitude (ft above the start's runway, as the
        task observes it); default the flight's own at the start.

    Attributes
    ----------
    engaged : bool
        The policy flies.
    message : str
        Why it stopped ("" while it flies).
    """

    def __init__(self, policy, sim, heading=None, altitude=None):
        from flightsim.gym.tasks import HeadingHold

        self.sim = sim
        self.policy = policy
        self.driver = PolicyDriver(policy, FlightAsBatch(sim))
        task = self.driver.task
        if isinstance(task, HeadingHold):
            f = task.flight()
            task.target_heading[0] = float(f["heading"][0]) % 360.0 if heading is None else float(heading) % 360.0
            task.target_altitude[0] = float(f["altitude"][0]) if altitude is None else float(altitude)
        self.every = task.substeps
        self.engaged = True
        self.message = ""
        self._steps = 0
        sim.followers.append(self.follow)
        self.driver.decide()

    @property
    def target(self):
        """``(heading deg, altitude ft)`` of a heading-hold policy, else None."""
        task = self.driver.task
        if not hasattr(task, "target_heading"):
            return None
        return float(task.target_heading[0]), float(task.target_altitude[0])

    def follow(self):
        """After each physics step: a decision every :attr:`every` steps while engaged and flying."""
        if not self.engaged or self.sim.status is not None:
            return
        self._steps += 1
        if self._steps >= self.every:
            self._steps = 0
            self.driver.decide()

    def disconnect(self, why):
        """Stop flying, saying ``why`` (:attr:`message`); the controls stay where the policy left them."""
        self.engaged = False
        self.message = why
        if self.follow in self.sim.followers:
            self.sim.followers.remove(self.follow)

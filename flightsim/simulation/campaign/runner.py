"""A chunk of a campaign's runs flown on the batch: :func:`run_chunk`.

The runs ``start..stop-1`` become the airplanes of one
:class:`~flightsim.simulation.batch.BatchSimulation` (the spec's aircraft, integrator, step and start).  Each
airplane takes its run's draws (:mod:`flightsim.simulation.campaign.dispersions`): its own steady wind and
turbulence (:meth:`~flightsim.simulation.batch.BatchSimulation.set_wind`), loading
(:meth:`~flightsim.simulation.batch.BatchSimulation.set_loading`), start moved and turned, autopilot targets and
failure; the pilot (:mod:`flightsim.simulation.campaign.pilots`) takes over, and the batch steps until every
airplane has stopped:

- ``touchdown``: the first physics step after which a wheel carries load (``stop.touchdown``);
- ``crash``: the batch's crash (a touchdown too fast, a hard point, a leg past its travel);
- ``nonfinite``: the state diverged;
- ``below``: the CG below ``stop.below_ft``;
- ``time``: ``stop.time_s`` of flight.

A stopped airplane sits the remaining steps out (the batch's ``hold``).  Each airplane's row
(:data:`COLUMNS_OUTCOME`) is computed from its own state only, by scalar code, never by a numpy
transcendental function over the chunk's arrays (numpy's SIMD loops and their scalar tails may round
differently, so a value would depend on the airplane's place in the chunk): the same (spec, run) gives the
same row bit for bit whatever the chunk (``tests/test_campaign_core.py``).

Outcome columns (:data:`COLUMNS_OUTCOME`):

``stop_reason``
    str, one of :data:`STOP_REASONS`.
``time_s``
    The run's time of flight when it stopped, s.
``touchdown_along_ft``, ``touchdown_across_ft``
    Where the CG was at the touchdown (or crash), in the runway's frame
    (:meth:`flightsim.simulation.airfield.Runway.local`): ft past the threshold flown to, and ft **right** of the
    centre line (as a pilot reads a drift); NaN for the other stops.
``sink_rate_fpm``
    The sink rate in the step before the touchdown (or crash), ft/min (+ down); NaN otherwise.
``touchdown_speed_kt``
    The airspeed (true, through the air) in the step before the touchdown (or crash), kt; NaN otherwise.
``max_load_factor``
    The largest normal load factor over the flight: the specific force along body z from each physics step's
    mean acceleration, in g (1 in level flight; the touchdown's step included).
``max_bank_deg``, ``max_alpha_deg``
    The largest ``|bank|`` and angle of attack (through the air, the wind included) at the end of each physics
    step, deg.
``fuel_used_lb``
    NaN: flightsim's own aircraft burn no fuel (their mass is constant), and the JSBSim aircraft's fuel is not
    read yet.

Traces: the runs of ``spec.traces`` in the chunk get a thinned trace (every ``spec.trace_every_s``, and the
stop), columns :data:`TRACE_COLUMNS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from flightsim.math.compiler import entry_jit
from flightsim.math.kernels import aviation_angles_of
from flightsim.physics.constants import KNOT
from flightsim.simulation.campaign.dispersions import draws as draws_of
from flightsim.simulation.campaign.pilots import AutopilotPilot, decision_steps, make_pilot

__all__ = ["COLUMNS_OUTCOME", "STOP_REASONS", "TRACE_COLUMNS", "ChunkResult", "run_chunk"]

#: Why a run stopped.
STOP_REASONS = ("touchdown", "crash", "below", "time", "nonfinite")
#: The outcome columns of a run's row, after ``run`` and the draws (see the module docstring).
COLUMNS_OUTCOME = ("stop_reason", "time_s", "touchdown_along_ft", "touchdown_across_ft", "sink_rate_fpm",
                   "touchdown_speed_kt", "max_load_factor", "max_bank_deg", "max_alpha_deg", "fuel_used_lb")
#: A thinned trace's columns: time (s), position (earth ft: x North, y West, z up), velocity (earth ft/s),
#: roll, pitch, heading (deg, aviation signs), airspeed (kt, true), angle of attack (deg), the controls flown
#: (throttle 0..1, elevator, aileron, rudder −1..1), and 1 where a wheel carries load.
TRACE_COLUMNS = ("t", "x", "y", "z", "vx", "vy", "vz", "roll", "pitch", "heading", "airspeed_kt", "alpha",
                 "throttle", "elevator", "aileron", "rudder", "on_ground")
_ENTRIES = 8          # per airplane: roll, pitch, heading, airspeed (ft/s), alpha, load factor, sink (ft/s), speed


@dataclass
class ChunkResult:
    """The rows and traces of the runs ``start..stop-1``.

    Attributes
    ----------
    start, stop : int
    rows : dict of str to numpy.ndarray
        Equal-length arrays in column order: ``run`` (int64), the draws, then :data:`COLUMNS_OUTCOME`.
    traces : dict of int to dict
        Run → ``{column: array}`` (:data:`TRACE_COLUMNS`) for the runs of ``spec.traces`` in the chunk.
    """

    start: int
    stop: int
    rows: dict = field(default_factory=dict)
    traces: dict = field(default_factory=dict)


@entry_jit
def _measure(Y, P, W, dt, g, index, out, worst, keep):
    """For the airplanes ``index``: their attitude, airspeed, angle of attack and load factor over the last step
    into ``out[a]`` (:data:`_ENTRIES`), and with ``keep`` the largest load factor, ``|bank|`` and angle of attack
    so far into ``worst[a]``; one airplane at a time with scalar math (the same bits for any chunk).

    ``Y``, ``P``: states after and before the step; ``W``: the winds (earth ft/s in columns 0..2)."""
    for i in range(index.shape[0]):
        a = index[i]
        y = Y[a]
        qw, qx, qy, qz = y[6], y[7], y[8], y[9]
        roll, pitch, heading = aviation_angles_of(qw, qx, qy, qz)
        # body axes in the earth frame: the columns of R(q)
        xb0 = 1.0 - 2.0 * (qy * qy + qz * qz)
        xb1 = 2.0 * (qx * qy + qw * qz)
        xb2 = 2.0 * (qx * qz - qw * qy)
        zb0 = 2.0 * (qx * qz + qw * qy)
        zb1 = 2.0 * (qy * qz - qw * qx)
        zb2 = 1.0 - 2.0 * (qx * qx + qy * qy)
        ax, ay, az = y[3] - W[a, 0], y[4] - W[a, 1], y[5] - W[a, 2]
        speed = math.sqrt(ax * ax + ay * ay + az * az)
        u = ax * xb0 + ay * xb1 + az * xb2
        w = ax * zb0 + ay * zb1 + az * zb2
        alpha = math.degrees(math.atan2(-w, u)) if speed > 1.0 else 0.0
        fx = (y[3] - P[a, 3]) / dt
        fy = (y[4] - P[a, 4]) / dt
        fz = (y[5] - P[a, 5]) / dt + g
        n = (fx * zb0 + fy * zb1 + fz * zb2) / g
        bx, by, bz = P[a, 3] - W[a, 0], P[a, 4] - W[a, 1], P[a, 5] - W[a, 2]
        out[a, 0], out[a, 1], out[a, 2], out[a, 3] = roll, pitch, heading, speed
        out[a, 4], out[a, 5], out[a, 6] = alpha, n, -P[a, 5]
        out[a, 7] = math.sqrt(bx * bx + by * by + bz * bz)
        if keep:
            worst[a, 0] = max(worst[a, 0], n)
            worst[a, 1] = max(worst[a, 1], abs(roll))
            worst[a, 2] = max(worst[a, 2], alpha)


@lru_cache(maxsize=4)
def _setting(spec):
    """What every chunk of ``spec`` shares, made once per process: the aircraft, the start, the autopilot's
    gains (from one airplane at the undispersed start)."""
    from flightsim.physics.aircraft import atmosphere_of
    from flightsim.simulation.batch import BatchSimulation
    from flightsim.simulation.flight import resolve_aircraft
    from flightsim.simulation.starts import make_start

    aircraft = resolve_aircraft(spec.aircraft)
    start = make_start(aircraft, spec.start, atmosphere=atmosphere_of(aircraft), wind=spec.wind,
                       airfield=spec.airfield, runway=spec.runway)
    gains = None
    if spec.pilot == "autopilot":
        one = BatchSimulation(1, aircraft, spec.integrator, dt=spec.dt, start=start, wind=spec.wind,
                              seeds=[spec.wind.seed])
        gains = AutopilotPilot.gains_for(spec.pilot_value, one)
    return aircraft, start, gains


def _start_states(start_state, drawn, n):
    """Each run's start: the undispersed start moved along, left and up, faster, and turned right, by its draws
    (scalar math, airplane by airplane)."""
    states = np.tile(start_state, (n, 1))
    keys = ("start_along_ft", "start_left_ft", "start_altitude_ft", "start_speed_kt", "start_heading_deg")
    if not any(k in drawn for k in keys):
        return states
    y = start_state
    _, _, heading = (float(v) for v in aviation_angles_of.py_func(float(y[6]), float(y[7]), float(y[8]),
                                                                    float(y[9])))
    h = math.radians(heading)
    along, left = (math.cos(h), -math.sin(h)), (math.sin(h), math.cos(h))
    for i in range(n):
        s = states[i]
        d_along = float(drawn["start_along_ft"][i]) if "start_along_ft" in drawn else 0.0
        d_left = float(drawn["start_left_ft"][i]) if "start_left_ft" in drawn else 0.0
        s[0] += d_along * along[0] + d_left * left[0]
        s[1] += d_along * along[1] + d_left * left[1]
        if "start_altitude_ft" in drawn:
            s[2] += float(drawn["start_altitude_ft"][i])
        if "start_speed_kt" in drawn:
            v = math.sqrt(s[3] * s[3] + s[4] * s[4] + s[5] * s[5])
            if v > 0.0:
                f = max(v + float(drawn["start_speed_kt"][i]) * KNOT, 0.0) / v
                s[3], s[4], s[5] = s[3] * f, s[4] * f, s[5] * f
        if "start_heading_deg" in drawn:
            turn = -math.radians(float(drawn["start_heading_deg"][i]))    # right: clockwise seen from above
            c, sn = math.cos(turn), math.sin(turn)
            s[3], s[4] = c * s[3] - sn * s[4], sn * s[3] + c * s[4]
            # q ← (cos(turn/2), 0, 0, sin(turn/2)) ⊗ q: the rotation about earth z first
            cw, sz = math.cos(0.5 * turn), math.sin(0.5 * turn)
            w, x, yq, z = s[6], s[7], s[8], s[9]
            s[6], s[7], s[8], s[9] = cw * w - sz * z, cw * x - sz * yq, cw * yq + sz * x, cw * z + sz * w
    return states


def _apply_draws(batch, aircraft, spec, drawn, n):
    """The draws that change the airplanes themselves: their winds, turbulence seeds and loading."""
    from flightsim.physics.wind import LEVELS  # noqa: F401 (the levels the draws name)

    wind = {}
    if "wind_speed_kt" in drawn:
        wind["speed"] = np.array([float(v) * KNOT for v in drawn["wind_speed_kt"]])
    if "wind_from_deg" in drawn:
        wind["from_deg"] = np.array([float(v) % 360.0 for v in drawn["wind_from_deg"]])
    if "wind_turbulence" in drawn:
        wind["turbulence"] = list(drawn["wind_turbulence"])
    if "wind_seed" in drawn:
        wind["seeds"] = np.asarray(drawn["wind_seed"], dtype=np.int64)
    if wind:
        batch.set_wind(None, **wind)
    if "weight_lb" in drawn or "cg_ft" in drawn:
        mass = (np.array([float(w) / float(aircraft.gravity) for w in drawn["weight_lb"]])
                if "weight_lb" in drawn else None)
        batch.set_loading(None, mass=mass, cg_shift=drawn.get("cg_ft"))


def run_chunk(spec, start, stop):
    """Fly the runs ``start..stop-1`` of ``spec`` and return their rows and traces.

    Parameters
    ----------
    spec : flightsim.simulation.campaign.spec.CampaignSpec
    start, stop : int
        ``0 <= start < stop``.

    Returns
    -------
    ChunkResult
        Pure and deterministic: the same (spec, run) gives the same row bit for bit whatever the chunk.
    """
    from flightsim.simulation.batch import CRASHED, NONFINITE, BatchSimulation

    start, stop = int(start), int(stop)
    if not 0 <= start < stop:
        raise ValueError(f"chunk: need 0 <= start < stop, got [{start}, {stop})")
    n = stop - start
    aircraft, where, gains = _setting(replace(spec, runs=1))       # (the same for any count of runs)
    drawn = draws_of(spec, start, stop)
    failures = ()
    if "failure_kind" in drawn:
        from flightsim.simulation.failures import Failure

        # a failure that never happens: the batch then flies its failures, which the draws set off
        failures = (Failure("engine", happens=False),)
    batch = BatchSimulation(n, aircraft, spec.integrator, dt=spec.dt, start=where, wind=spec.wind,
                            seeds=np.full(n, spec.wind.seed, dtype=np.int64), failures=failures)
    _apply_draws(batch, aircraft, spec, drawn, n)
    batch.reset(states=_start_states(where.state, drawn, n))
    pilot = make_pilot(spec, where, gains)
    pilot.start(batch, drawn)
    every = decision_steps(pilot, spec.dt)
    fail_kind = drawn.get("failure_kind")
    fail_at = drawn.get("failure_at_s", np.zeros(n)) if fail_kind is not None else None
    failed = np.zeros(n, dtype=bool)

    g = float(aircraft.gravity)
    runway = where.runway
    steps = int(math.ceil(spec.time_s / spec.dt - 1e-9))
    thin = max(1, int(round(spec.trace_every_s / spec.dt)))
    traced = {r - start: [] for r in spec.traces if start <= r < stop}

    active = np.ones(n, dtype=bool)
    reason = np.full(n, "time", dtype=object)
    time_s = np.full(n, np.nan)
    at = np.full((n, 4), np.nan)                   # along, right, sink (ft/s), airspeed (ft/s)
    worst = np.zeros((n, 3))                        # load factor, |bank|, alpha
    worst[:, 0] = -np.inf
    worst[:, 2] = -np.inf
    m = np.zeros((n, _ENTRIES))
    everyone = np.arange(n, dtype=np.int64)
    before = batch.states.copy()
    _measure(batch.states, batch.states, batch.wind, spec.dt, g, everyone, m, worst, False)
    m[:, 5] = 1.0
    no = np.zeros(n, dtype=bool)
    for a in traced:
        traced[a].append(_trace_row(batch, a, m))

    for k in range(steps):
        if not active.any():
            break
        if fail_kind is not None:
            due = np.flatnonzero(active & ~failed & (batch.times >= fail_at))
            for a in due:
                if fail_kind[a] != "none":
                    batch.failures.fail(str(fail_kind[a]), [a], batch.times)
            failed[due] = True
        if k % every == 0:
            pilot.fly(batch)
        before[:] = batch.states
        batch.step(1, hold=~active)
        flew = active.copy()
        status = batch.status
        crashed = active & (status == CRASHED)
        diverged = active & (status == NONFINITE)
        ended = crashed | diverged
        # (a crashed airplane is put at rest: its measures are those of the step before)
        _measure(batch.states, before, batch.wind, spec.dt, g, np.flatnonzero(active & ~ended), m, worst, True)
        if crashed.any():
            _measure(before, before, batch.wind, spec.dt, g, np.flatnonzero(crashed), m, worst, False)
        flying = active & ~ended
        down = flying & batch.on_ground if spec.touchdown else no
        low = flying & ~down & (batch.states[:, 2] < spec.below_ft) if spec.below_ft is not None else no
        if (ended | down | low).any():
            for mask, why in ((crashed, "crash"), (diverged, "nonfinite"), (down, "touchdown"), (low, "below")):
                for a in np.flatnonzero(mask):
                    reason[a] = why
                    time_s[a] = batch.times[a]
                    if why in ("crash", "touchdown"):
                        along, left = runway.local(float(batch.states[a, 0]), float(batch.states[a, 1]))
                        at[a] = along, -left, m[a, 6], m[a, 7]
                    active[a] = False
        for a in traced:
            if flew[a] and ((k + 1) % thin == 0 or not active[a] or k == steps - 1):
                traced[a].append(_trace_row(batch, a, m))
    time_s[active] = batch.times[active]

    rows = {"run": np.arange(start, stop, dtype=np.int64)}
    rows.update(drawn)
    rows["stop_reason"] = reason.astype(str).astype(object)
    rows["time_s"] = time_s
    rows["touchdown_along_ft"] = at[:, 0].copy()
    rows["touchdown_across_ft"] = at[:, 1].copy()
    rows["sink_rate_fpm"] = at[:, 2] * 60.0
    rows["touchdown_speed_kt"] = at[:, 3] / KNOT
    rows["max_load_factor"] = worst[:, 0].copy()
    rows["max_bank_deg"] = worst[:, 1].copy()
    rows["max_alpha_deg"] = worst[:, 2].copy()
    rows["fuel_used_lb"] = np.full(n, np.nan)
    traces = {start + a: {c: np.array([r[j] for r in traced[a]]) for j, c in enumerate(TRACE_COLUMNS)}
              for a in traced}
    return ChunkResult(start, stop, rows, traces)


def _trace_row(batch, a, m):
    """Airplane ``a``'s trace row now (:data:`TRACE_COLUMNS`), from the measures ``m``."""
    from flightsim.simulation.controls import AILERON, ELEVATOR, RUDDER, THROTTLE

    y = batch.states[a]
    c = batch.flown_controls[a] if batch.failures is not None else batch.controls[a]
    return (float(batch.times[a]), *(float(v) for v in y[0:6]), float(m[a, 0]), float(m[a, 1]), float(m[a, 2]),
            float(m[a, 3]) / KNOT, float(m[a, 4]), float(c[THROTTLE]), float(c[ELEVATOR]), float(c[AILERON]),
            float(c[RUDDER]), float(batch.on_ground[a]))

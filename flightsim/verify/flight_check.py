"""flightsim flying a JSBSim aircraft beside JSBSim itself: the trim and a 30 s doublet, compared.

The issue's targets, measured the same way by the tests and by
``benchmarks/jsbsim_flight.py``:

* **trim**: :func:`flightsim.physics.trim.trim` against JSBSim's own full trim
  (:func:`flightsim.verify.flight_oracle.jsbsim_trim`) at the same true
  airspeed and altitude, level flight: α and throttle (a glider, which JSBSim's
  trim cannot trim, is set in JSBSim at flightsim's glide:
  :func:`~flightsim.verify.flight_oracle.jsbsim_glide`; its trajectory
  then shows whether JSBSim holds that glide);
* **trajectory**: from each one's own trim, the same doublet programme
  (:func:`~flightsim.verify.flight_oracle.doublet_controls`: aileron
  then elevator, flightsim's signs) flown by flightsim (the integrator and step
  given, RK4 at 1/120 s by default) and by JSBSim
  (:func:`~flightsim.verify.flight_oracle.jsbsim_doublet`); the
  largest differences of airspeed, height change, roll, pitch and heading
  change (:func:`~flightsim.verify.flight_oracle.compare_trajectories`).

Both fly on the same planet: by default JSBSim as it ships (its rotating
WGS-84 Earth, J2) and flightsim on its round planet, from the same geodetic
latitude and longitude (0°, 0°); ``planet="flat"`` flies both on a flat,
still planet (JSBSim bent onto one: :func:`~flightsim.verify.flight_oracle.flat_fdm`).
On the round planet flightsim trims with the effective gravity at the start
(:func:`flightsim.physics.planet.effective_gravity`, what JSBSim's trim
balances), not the aircraft's flat standard gravity (0.3 % more at 0°N).

Needs the ``jsbsim`` package (a dependency).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flightsim.math import quat
from flightsim.physics import trim as trim_module
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.fuel import FUEL_FREEZE
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import Start, start_gravity
from flightsim.verify import flight_oracle as oracle

__all__ = ["ALPHA_TOLERANCE", "THROTTLE_TOLERANCE", "FlightComparison", "compare_flight", "flightsim_doublet"]

#: The constant-speed propellers' rpm command flightsim flies with (``model.ENGINE_COMMANDS``: the highest rpm),
#: given to JSBSim's trim too.
ADVANCE = 1.0
#: The issue's bounds on the trims: flightsim's α less JSBSim's (deg) and throttle less JSBSim's (0..1).
ALPHA_TOLERANCE, THROTTLE_TOLERANCE = 0.1, 0.01


@dataclass(frozen=True)
class FlightComparison:
    """flightsim against JSBSim on one aircraft: the trims and the doublet.

    Attributes
    ----------
    name : str
        ``jsbsim:NAME``, or the path to the aircraft file.
    airspeed, altitude : float
        The condition (true airspeed ft/s, ft).
    alpha, throttle : tuple of float
        (flightsim's, JSBSim's) trimmed α (deg) and throttle.
    trajectory : TrajectoryDifference
        The largest differences over the doublet.
    tolerance : TrajectoryDifference
        The issue's tolerance for this aircraft (``"jet"`` for turbines, ``"light"`` otherwise).
    """

    name: str
    airspeed: float
    altitude: float
    alpha: tuple
    throttle: tuple
    trajectory: oracle.TrajectoryDifference
    tolerance: oracle.TrajectoryDifference

    @property
    def trim_ok(self):
        """α within 0.1° and throttle within 0.01 (:data:`ALPHA_TOLERANCE`, :data:`THROTTLE_TOLERANCE`)."""
        return (abs(self.alpha[0] - self.alpha[1]) <= ALPHA_TOLERANCE
                and abs(self.throttle[0] - self.throttle[1]) <= THROTTLE_TOLERANCE)

    @property
    def trajectory_ok(self):
        return self.trajectory.within(self.tolerance)


def flightsim_doublet(aircraft, point, duration=30.0, dt=1.0 / 120.0, integrator="rk4", elevator=0.1,
                      aileron=0.1, schedule=oracle.doublet_controls, delay=None, planet=None, lat=0.0, lon=0.0):
    """Fly ``aircraft`` from the trim ``point`` (:class:`~flightsim.physics.trim.TrimPoint`) through
    ``schedule`` in flightsim and record it as a :class:`~flightsim.verify.flight_oracle.Trajectory`.

    Step ``i`` starts at ``t = i·dt`` with ``schedule(t − delay, point, elevator, aileron)``'s controls (the
    trim's elevator flown as the elevator, the trim wheel at 0).  ``delay`` defaults to one step: JSBSim's
    frame integrates first (FGPropagate) and computes the loads after, so a command written before its
    ``run()`` at ``t`` moves the airplane from ``t + dt`` on; flightsim's step uses its controls at once.
    The recorded controls are the schedule's at ``t`` (as JSBSim's trajectory records them).  ``planet``,
    ``lat``, ``lon`` (deg): the :class:`~flightsim.simulation.flight.Simulation`'s (None: the aircraft's default,
    round for a JSBSim aircraft); the altitude recorded is the view's z, north and east its x and −y.
    """
    delay = dt if delay is None else float(delay)
    start = Start("trim", point.state.copy(), Controls(throttle=point.throttle, elevator=point.elevator,
                                                        aileron=point.aileron, rudder=point.rudder,
                                                        flaps=point.flaps), point)
    sim = Simulation(aircraft, integrator, dt, atmosphere="isa", start=start, planet=planet, lat=lat, lon=lon)
    if sim.aircraft.jsbsim is not None:     # (JSBSim's oracle flies with its fuel frozen: flightsim's too)
        sim.set_jsbsim_property(FUEL_FREEZE, 1.0)
    frames = int(round(duration / dt))
    rows = np.empty((frames + 1, 10))
    controls = np.empty((frames + 1, 5))
    y0 = sim.vector.copy()

    def record(y):
        roll, pitch, heading = quat.aviation_angles(y[6:10])
        v_air = float(np.linalg.norm(y[3:6]))
        return (v_air, y[2], roll, pitch, heading % 360.0, y[10], y[11], y[12], y[0] - y0[0], -(y[1] - y0[1]))

    times = np.arange(frames + 1) * dt
    rows[0] = record(sim.vector)
    for i in range(frames + 1):
        controls[i] = schedule(float(times[i]), point, elevator, aileron)
        if i == frames:
            break
        throttle, de, da, dr, df = schedule(float(times[i]) - delay, point, elevator, aileron)
        c = sim.controls
        c.throttle, c.elevator, c.aileron, c.rudder, c.flaps = throttle, de, da, dr, df
        if not sim.step():
            raise RuntimeError(f"flightsim stopped {aircraft.name!r} at t = {times[i]:.3f} s: {sim.status}")
        rows[i + 1] = record(sim.vector)
    return oracle.Trajectory(times, *rows.T.copy(), *controls.T.copy())


def trajectory_of_trace(table):
    """A :class:`~flightsim.verify.flight_oracle.Trajectory` from a flightsim trace table
    (:func:`flightsim.simulation.trace.table`; lengths in ft for JSBSim's aircraft): the altitude is the
    trace's z, north and east its x and −y from the first row."""
    from flightsim.simulation.trace import COLUMNS

    table = np.asarray(table, dtype=np.float64)
    c = {name: table[:, k] for k, name in enumerate(COLUMNS) if k < table.shape[1]}
    return oracle.Trajectory(t=c["t"], airspeed=c["airspeed"], altitude=c["z"], roll=c["roll"], pitch=c["pitch"],
                             heading=c["heading"], p=c["p"], q=c["q"], r=c["r"], north=c["x"] - c["x"][0],
                             east=-(c["y"] - c["y"][0]), throttle=c["throttle"], elevator=c["elevator"],
                             aileron=c["aileron"], rudder=c["rudder"], flaps=c["flaps"])


def trim_gravity(aircraft, altitude, planet="round", lat=0.0, lon=0.0):
    """The gravity flightsim trims ``aircraft`` with (ft/s²): on the round planet (the aircraft's: its file's
    ``<planet>`` or WGS-84) the effective gravity at geodetic ``lat``, ``lon`` (deg) and ``altitude`` (ft above the
    ellipsoid), which the round flight and JSBSim's trim feel there; on the flat one the aircraft's own
    (:func:`flightsim.simulation.starts.start_gravity`)."""
    return start_gravity(aircraft, altitude, planet, lat, lon)


def compare_flight(name, airspeed, altitude, duration=30.0, dt=1.0 / 120.0, integrator="rk4", elevator=0.1,
                   aileron=0.1, planet="round", lat=0.0, lon=0.0):
    """Trim ``name`` (``jsbsim:NAME``, or a path to a JSBSim aircraft file) in flightsim and in JSBSim at
    ``airspeed`` (true, ft/s) and ``altitude`` (ft), fly the doublet in both, and compare
    (:class:`FlightComparison`).

    ``planet``: "round" (the default: JSBSim as it ships, flightsim's round planet, both starting at geodetic
    ``lat``, ``lon``, deg; flightsim trims with :func:`trim_gravity`) or "flat" (both on a flat, still planet).
    """
    if planet not in oracle.PLANETS:
        raise ValueError(f"planet: must be one of {', '.join(oracle.PLANETS)}, got {planet!r}")
    aircraft = load_aircraft(name)
    bare = name[len("jsbsim:"):] if name.startswith("jsbsim:") else name      # (JSBSim's name, or the path)
    model = trim_module.AirplaneModel(aircraft, "isa", gravity=trim_gravity(aircraft, altitude, planet, lat, lon))
    point = trim_module.trim(aircraft, airspeed, altitude, heading=0.0, atmosphere="isa", lateral="no-sideslip",
                             model=model)
    place = {"planet": planet, "lat": lat, "lon": lon}
    if aircraft.jsbsim.engine_count:
        theirs = oracle.jsbsim_trim(bare, airspeed, altitude, dt=dt, advance=ADVANCE, **place)
    else:                           # a glider: JSBSim set at flightsim's glide (its trim needs an engine)
        theirs = oracle.jsbsim_glide(bare, airspeed, altitude, point.alpha, point.climb_angle, point.elevator, dt=dt,
                                     **place)
    ours = flightsim_doublet(aircraft, point, duration, dt, integrator, elevator, aileron, **place)
    reference = oracle.jsbsim_doublet(bare, theirs, duration, dt, elevator, aileron)
    kind = "jet" if aircraft.jsbsim.engine_count and aircraft.max_thrust > 0 else "light"
    return FlightComparison(name, float(airspeed), float(altitude), (point.alpha, theirs.alpha),
                            (point.throttle, theirs.throttle), oracle.compare_trajectories(reference, ours),
                            oracle.TOLERANCES[kind])

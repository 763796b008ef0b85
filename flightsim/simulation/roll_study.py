"""The F-16 roll study: each integrator's attitude error through a full-aileron 360° roll.

An aircraft that rolls at 200–300 °/s is where a quaternion integrator's error
shows in the attitude.  The study trims the aircraft in level flight (by
default JSBSim's F-16 at 400 kt true, 15,000 ft), then flies the same
programme with every integrator at each step rate asked for: the trim's
controls for :data:`LEAD` s, full right aileron until the *reference* has
rolled 360° (rounded to the 60 Hz grid, so that every rate lets go at the
same instant), the trim's aileron again for :data:`SETTLE` s.  The reference is
RK4 at :data:`REFERENCE_HZ`; every flight is compared with it on the common
60 Hz grid, by the angle of the rotation between the two attitudes
(``2 acos |⟨q_ref, q⟩|``, deg), and the roll angles at the end of the roll.

The flight controls (the F-16's fly-by-wire) run once per step, as JSBSim
runs them once per frame, so a step rate is also the control law's sample
rate: the error measured is what a user flying at that rate sees against a
fine-stepped flight, the integrator's and the discrete control law's
together.  The integrators' own share shows in their spread at one rate.

Cost is measured in the same run: wall-clock microseconds per simulated step
of the programme flown in compiled steps (one airplane of a
:class:`~flightsim.simulation.batch.BatchSimulation`; the median of
:data:`REPEATS` timed flights), and its ratio to RK4's at the same rate.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from flightsim.physics import trim as trim_module
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import Start

__all__ = ["LEAD", "REFERENCE_HZ", "RollFlight", "RollStudy", "roll_study", "roll_table"]

#: Seconds flown at the trim before the stick goes over.
LEAD = 0.25
#: Seconds flown after the roll, the aileron back at the trim's.
SETTLE = 0.5
#: The reference's step rate, Hz (RK4).
REFERENCE_HZ = 1920
#: The common grid the flights are compared on, Hz (every rate studied is a multiple of it).
GRID_HZ = 60
#: Timed flights per integrator and rate (the median is reported).
REPEATS = 3
#: 400 kt in ft/s.
KNOT = 1852.0 / (3600.0 * 0.3048)


@dataclass(frozen=True)
class RollFlight:
    """One integrator at one step rate.

    Attributes
    ----------
    integrator : str
    hz : int
        Steps per second.
    attitude_error : float
        The largest angle between its attitude and the reference's on the 60 Hz grid, deg (NaN: it diverged).
    roll_error : float
        Its roll angle less the reference's at the end of the roll, deg.
    peak_rate : float
        Its largest roll rate, deg/s.
    us_per_step : float
        Median wall-clock time of a compiled step, µs.
    cost_vs_rk4 : float
        ``us_per_step`` over RK4's at the same rate (same run).
    """

    integrator: str
    hz: int
    attitude_error: float
    roll_error: float
    peak_rate: float
    us_per_step: float
    cost_vs_rk4: float


@dataclass(frozen=True)
class RollStudy:
    """The study's flights and the reference's figures.

    Attributes
    ----------
    aircraft : str
    airspeed, altitude : float
        ft/s (true), ft.
    roll_time : float
        When the aileron was let go: the reference's time to roll 360° on the 60 Hz grid, s from the start.
    reference_peak_rate : float
        The reference's largest roll rate, deg/s.
    flights : tuple of RollFlight
    errors : dict
        ``(integrator, hz)`` → ``(t, error deg)`` arrays on the grid, for plots.
    """

    aircraft: str
    airspeed: float
    altitude: float
    roll_time: float
    reference_peak_rate: float
    flights: tuple
    errors: dict


def _cost(aircraft, point, integrator, hz, aileron_until, duration):
    """µs per step of the programme flown in compiled steps (one airplane of a
    :class:`~flightsim.simulation.batch.BatchSimulation`: three calls, the stick over and back between them)."""
    from flightsim.simulation.batch import BatchSimulation

    dt = 1.0 / hz
    batch = BatchSimulation(1, aircraft, integrator, dt, atmosphere="isa", start=_start(point))
    lead, held = int(round(LEAD * hz)), int(round(aileron_until * hz))
    steps = int(round(duration * hz))
    batch.step(1)                                         # (loaded, the first call's costs paid)
    batch.reset()
    began = time.perf_counter()
    batch.step(lead)
    batch.controls[0, 2] = 1.0
    batch.step(held - lead)
    batch.controls[0, 2] = point.aileron
    batch.step(steps - held)
    return 1e6 * (time.perf_counter() - began) / steps


def _start(point):
    return Start("trim", point.state.copy(), Controls(throttle=point.throttle, elevator=point.elevator,
                                                      aileron=point.aileron, rudder=point.rudder, flaps=point.flaps),
                 point)


def _fly(aircraft, point, integrator, hz, aileron_until, duration):
    """Fly the programme; the states on the 60 Hz grid and the roll rates (deg/s) (None if it diverged)."""
    dt = 1.0 / hz
    sim = Simulation(aircraft, integrator, dt, atmosphere="isa", start=_start(point))
    steps = int(round(duration * hz))
    every = hz // GRID_HZ
    grid = [sim.vector.copy()]
    rates = [sim.vector[10]]
    for i in range(steps):
        t = i * dt
        sim.controls.aileron = 1.0 if LEAD <= t + 1e-9 < aileron_until else point.aileron
        if not sim.step():
            return None, None
        rates.append(sim.vector[10])
        if (i + 1) % every == 0:
            grid.append(sim.vector.copy())
    return np.array(grid), np.degrees(np.array(rates))


def _unwrapped_roll(states):
    """The roll angle of each state (aviation signs, deg), unwrapped: the angle turned through."""
    from flightsim.math import quat

    roll = np.array([quat.aviation_angles(s[6:10])[0] for s in states])
    return np.degrees(np.unwrap(np.radians(roll)))


def _angle(a, b):
    dots = np.abs(np.sum(a[:, 6:10] * b[:, 6:10], axis=1)
                  / (np.linalg.norm(a[:, 6:10], axis=1) * np.linalg.norm(b[:, 6:10], axis=1)))
    return np.degrees(2.0 * np.arccos(np.minimum(dots, 1.0)))


def roll_study(aircraft="jsbsim:f16", airspeed=400.0 * KNOT, altitude=15000.0, rates=(60, 120), integrators=None,
               progress=None):
    """Run the study (see the module docstring); ``integrators`` a subset of the registry's names (default
    all), ``progress(text)`` called as each flight starts."""
    plane = load_aircraft(aircraft)
    point = trim_module.trim(plane, airspeed, altitude, heading=0.0, atmosphere="isa")
    names = list(INTEGRATORS) if integrators is None else list(integrators)
    # the reference first, the stick held until it has rolled 360° (found on a long hold, then flown exactly)
    probe, _ = _fly(plane, point, "rk4", REFERENCE_HZ, 10.0, LEAD + 4.0)
    roll = _unwrapped_roll(probe)
    over = np.nonzero(roll >= roll[0] + 360.0)[0]
    if not len(over):
        raise RuntimeError(f"{aircraft} does not roll 360° in 4 s at full aileron")
    k = int(over[0])            # interpolate the grid time the reference passes 360°
    t360 = (k - 1 + (roll[0] + 360.0 - roll[k - 1]) / (roll[k] - roll[k - 1])) / GRID_HZ
    until = round(t360 * GRID_HZ) / GRID_HZ        # on the grid: every rate lets go of the stick at once
    duration = math.ceil((until + SETTLE) * GRID_HZ) / GRID_HZ
    reference, ref_rates = _fly(plane, point, "rk4", REFERENCE_HZ, until, duration)
    end = int(round(until * GRID_HZ))
    ref_roll = _unwrapped_roll(reference)
    flights, errors = [], {}
    for hz in rates:
        rk4_cost = None
        for name in (["rk4"] + [n for n in names if n != "rk4"]):
            if progress:
                progress(f"{name} at {hz} Hz")
            states, p = _fly(plane, point, name, hz, until, duration)
            if states is None:
                flights.append(RollFlight(name, hz, math.nan, math.nan, math.nan, math.nan, math.nan))
                continue
            peak = float(np.max(np.abs(p)))
            us = float(np.median([_cost(plane, point, name, hz, until, duration) for _ in range(REPEATS)]))
            rk4_cost = us if name == "rk4" else rk4_cost
            error = _angle(states, reference)
            errors[(name, hz)] = (np.arange(len(error)) / GRID_HZ, error)
            if name in names:
                flights.append(RollFlight(name, hz, float(np.max(error)),
                                          float(_unwrapped_roll(states)[end] - ref_roll[end]), peak, us,
                                          us / rk4_cost))
    return RollStudy(aircraft, float(airspeed), float(altitude), float(until),
                     float(np.max(np.abs(ref_rates))), tuple(flights), errors)


def roll_table(study):
    """A Markdown table of ``study``: each integrator's attitude error and cost at each rate."""
    rates = sorted({f.hz for f in study.flights})
    by = {(f.integrator, f.hz): f for f in study.flights}
    names = list(dict.fromkeys(f.integrator for f in study.flights))
    head = "| integrator | " + " | ".join(f"attitude error at {hz} Hz (deg) | roll at the end (deg) | µs/step "
                                          f"(× RK4)" for hz in rates) + " |"
    lines = [head, "|---|" + "---|---|---|" * len(rates)]
    for name in names:
        cells = []
        for hz in rates:
            f = by.get((name, hz))
            if f is None or math.isnan(f.attitude_error):
                cells += ["diverged", "", ""]
            else:
                cells += [f"{f.attitude_error:.3g}", f"{f.roll_error:+.3g}", f"{f.us_per_step:.1f} "
                                                                             f"(×{f.cost_vs_rk4:.2f})"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


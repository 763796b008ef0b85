"""Simulation layer: the fixed-timestep flight and what is built on it.

* :mod:`~flightsim.simulation.source` - :class:`FlightSource`, what the app
  needs from a flight (live or played back), and its :class:`Capabilities`;
* :mod:`~flightsim.simulation.flight` - :class:`Simulation`: one airplane,
  fixed step, accumulator and interpolated render pose, ground contact and
  crashes, the divergence stop;
* :mod:`~flightsim.simulation.batch` - :class:`BatchSimulation`: many airplanes in one compiled call;
* :mod:`~flightsim.simulation.clock` - the fixed-step accumulator every real-time loop shares;
* :mod:`~flightsim.simulation.starts` - where a flight starts (runway,
  approach, trimmed in the air, the aircraft file's state);
* :mod:`~flightsim.simulation.airfield` - the runway (the starts and the scene use it);
* :mod:`~flightsim.simulation.controls` - pilot controls, the one controls boundary
  (:func:`~flightsim.simulation.controls.flown`) and control schedules (CSV);
* :mod:`~flightsim.simulation.trace` - trace CSV files (write atomically, read, validate);
* :mod:`~flightsim.simulation.ghost` - a second airplane flying the same inputs
  with another integrator;
* :mod:`~flightsim.simulation.replay` - a recorded trace played back as a flight;
* :mod:`~flightsim.simulation.lab` - the integrator lab's reference solutions and measurements,
  the spinning bodies and their long runs;
* :mod:`~flightsim.simulation.spin` - the torque-free body of ``flightsim spin`` with its ghost.

``from flightsim.simulation import Simulation`` is the public way in; the
names below are re-exported from :mod:`~flightsim.simulation.flight` and
:mod:`~flightsim.simulation.source`.
"""

from flightsim.simulation.flight import (
    DEFAULT_DT,
    MAX_FRAME,
    TIME_SCALES,
    FlightState,
    GearLeg,
    Simulation,
    Telemetry,
    deflections,
    instruments,
    resolve_aircraft,
)
from flightsim.simulation.source import LIVE, PLAYBACK, Capabilities, FlightSource, Playback

__all__ = [
    "LIVE",
    "PLAYBACK",
    "Capabilities",
    "FlightSource",
    "Playback",
    "DEFAULT_DT",
    "MAX_FRAME",
    "TIME_SCALES",
    "FlightState",
    "GearLeg",
    "Simulation",
    "Telemetry",
    "deflections",
    "instruments",
    "resolve_aircraft",
]

"""Where a flight starts: the aircraft file's initial state, or a trimmed steady flight.

A :class:`Start` is a state and the controls that go with it.  The kinds,
chosen with ``--start`` (and ``--trim`` for ``simulate``):

``air``     level flight trimmed at the aircraft file's ``cruise_speed``, at its
            initial position, altitude and heading (``flightsim fly``'s default);
``trim``    steady flight trimmed at a given airspeed (altitude, flight-path
            angle and flaps may be given too);
``file``    the aircraft file's ``[initial]`` state and throttle, as it is (the book's start).

The trimmed starts are trimmed relative to the air (the trim is solved in
still air): in a wind, the steady wind at the start's height
(:meth:`flightsim.physics.wind.WindSpec.steady`) is added to the trimmed
velocity, so the airplane starts in steady flight through the air and drifts
with it.

The trimmed starts hold the trim's elevator as *elevator trim*
(:attr:`flightsim.simulation.controls.Controls.elevator_trim`), so a stick
released to centre keeps the airplane in trim.
"""

from dataclasses import dataclass

import numpy as np

from flightsim.physics.trim import trim as solve_trim
from flightsim.simulation.controls import Controls

#: Start kinds for ``--start`` (``trim`` is asked for with ``--trim V``).
START_KINDS = ("air", "file")


@dataclass(frozen=True)
class Start:
    """A starting state and its controls.

    Attributes
    ----------
    kind : str
        ``"air"``, ``"trim"`` or ``"file"``.
    state : numpy.ndarray
        13-number state ``[x, v, q, ω]`` (earth ft, ft/s; q body → earth; body rad/s).
    controls : Controls
        The pilot's controls at the start (trimmed elevator as ``elevator_trim``).
    trim : flightsim.physics.trim.TrimPoint or None
        The trim solved for, for the trimmed kinds.
    """

    kind: str
    state: np.ndarray
    controls: Controls
    trim: object = None

    def describe(self):
        """One line for a person: where and how the flight starts."""
        if self.trim is None:
            return "the aircraft file's initial state"
        t = self.trim
        return (f"trimmed at {t.airspeed:g} ft/s, altitude {t.altitude:g} ft, climb angle {t.climb_angle:g}°: "
                f"pitch {t.pitch:.2f}°, throttle {t.throttle:.3f}, elevator trim {t.elevator:+.3f}")


def file_start(aircraft):
    """The aircraft file's ``[initial]`` state with its initial throttle."""
    from flightsim.math import quat

    y = np.zeros(13)
    y[0:3] = aircraft.initial_position
    y[3:6] = aircraft.initial_velocity
    y[6:10] = quat.from_aviation_angles(*aircraft.initial_attitude_deg)
    y[10:13] = aircraft.initial_omega
    return Start("file", y, Controls(throttle=aircraft.initial_throttle))


def trimmed_start(aircraft, airspeed, altitude=None, climb_angle=0.0, flaps=0.0, atmosphere="constant",
                  kind="trim", wind=None):
    """Steady flight trimmed at ``airspeed`` (ft/s) from the aircraft file's initial position and heading.

    ``airspeed`` and ``climb_angle`` are relative to the air; ``wind``
    (:class:`~flightsim.physics.wind.WindSpec`, optional) adds its steady
    wind at the start's height to the earth velocity (turbulence and gusts
    are not part of a start).

    Raises
    ------
    ValueError
        A bad argument (naming it), or :class:`flightsim.physics.trim.TrimError`.
    """
    point = solve_trim(aircraft, airspeed, altitude, climb_angle, flaps, atmosphere=atmosphere)
    y = point.state_at(aircraft.initial_position[0], aircraft.initial_position[1])
    if wind is not None:
        y[3:6] += wind.steady(float(y[2]))
    controls = Controls(throttle=point.throttle, aileron=point.aileron, rudder=point.rudder, flaps=point.flaps,
                        elevator_trim=point.elevator)
    return Start(kind, y, controls, point)


def make_start(aircraft, kind="air", airspeed=None, altitude=None, climb_angle=0.0, flaps=0.0,
               atmosphere="constant", wind=None):
    """The :class:`Start` of the given kind (see the module docstring).

    Raises
    ------
    ValueError
        ``kind: ...`` for an unknown kind or an aircraft with no cruise speed; bad trim arguments.
    """
    if kind == "file":
        return file_start(aircraft)
    if kind == "air":
        speed = getattr(aircraft, "cruise_speed", None)
        if speed is None:
            raise ValueError(f"start: {aircraft.source} has no [initial] cruise_speed; use --start file")
        return trimmed_start(aircraft, speed, altitude, 0.0, 0.0, atmosphere, kind="air", wind=wind)
    if kind == "trim":
        return trimmed_start(aircraft, airspeed, altitude, climb_angle, flaps, atmosphere, wind=wind)
    raise ValueError(f"start: unknown kind {kind!r}; valid: {', '.join(START_KINDS)}")

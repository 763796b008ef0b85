"""Where a flight starts: on the runway, on final approach, trimmed in the air, or the file's state.

A :class:`Start` is a state and the controls that go with it.  The kinds,
chosen with ``--start`` (and ``--trim`` for ``simulate``):

``runway``    at rest on the runway the scene draws
              (:data:`flightsim.simulation.airfield.RUNWAY`): at the threshold
              of its southern end, heading North along the centre line, engine
              idle (throttle 0), parking brake set, settled on its gear
              (:func:`settle`);
``approach``  trimmed on a 3° glide path to that runway, aligned with it, flaps
              down, at the aircraft file's ``approach_speed``, about a minute
              (:data:`APPROACH_SECONDS`) before the wheels touch at
              :data:`AIM_DISTANCE` past the threshold;
``air``       level flight trimmed at the aircraft file's ``cruise_speed`` (a JSBSim aircraft's, flightsim's
              estimate: where that speed cannot be held level, the nearest that can), at its
              initial position, altitude and heading (``flightsim fly``'s default), the gear up where it
              retracts (:func:`retracts`; the ``runway`` and ``approach`` starts have it down);
``trim``      steady flight trimmed at a given airspeed (altitude, flight-path
              angle and flaps may be given too);
``file``      the aircraft file's ``[initial]`` state and throttle, as it is (the book's start).

The trimmed starts are trimmed relative to the air (the trim is solved in
still air): in a wind, the steady wind at the start's height
(:meth:`flightsim.physics.wind.WindSpec.steady`) is added to the trimmed
velocity, so the airplane starts in steady flight through the air and drifts
with it.

The ``runway`` and ``approach`` starts take another airfield's runway end with ``airfield=``, ``runway=``
(:func:`flightsim.simulation.world.runway_end`; ``--airfield ID --runway NN``): the airplane stands at that
end's threshold (or flies its glide path) at the field's elevation, the gear's contact points at
z = elevation (ft above sea level).  Without them: the home field's runway 36 (KHOM 36), as before, bit for
bit.  The physics' ground is the terrain's surface where the world's terrain is flown; on the bare plane
z = 0 only the home field (elevation 0) and the approach starts are flown as placed.

The trimmed starts hold the trim's elevator as *elevator trim*
(:attr:`flightsim.simulation.controls.Controls.elevator_trim`), so a stick
released to centre keeps the airplane in trim.
"""

import math
from dataclasses import dataclass

import numpy as np

from flightsim.math import quat
from flightsim.physics import aero
from flightsim.physics import planet as planets
from flightsim.physics.aircraft import atmosphere_of
from flightsim.physics.constants import NAUTICAL_MILE
from flightsim.physics.ground import contact_depths
from flightsim.physics.inputs import C_ENGINE, C_GEAR
from flightsim.physics.trim import AirplaneModel, TrimError, trimmable_speeds
from flightsim.physics.trim import trim as solve_trim
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.controls import Controls

#: Start kinds for ``--start`` (``trim`` is asked for with ``--trim V``).
START_KINDS = ("runway", "approach", "air", "file")
#: The runway start: how far down the runway from the threshold the CG stands, ft (the tail is on the runway).
RUNWAY_START_DISTANCE = 25.0
#: The approach: flight-path angle (deg), flap setting, seconds to touchdown, aim point past the threshold (ft).
GLIDE_ANGLE = -3.0
APPROACH_FLAPS = 1.0
APPROACH_SECONDS = 60.0
AIM_DISTANCE = 400.0
#: Without an ``approach_speed`` in the aircraft file: this times the slowest speed trimmable on the glide path.
APPROACH_MARGIN = 1.3


@dataclass(frozen=True)
class Start:
    """A starting state and its controls.

    Attributes
    ----------
    kind : str
        ``"runway"``, ``"approach"``, ``"air"``, ``"trim"`` or ``"file"``.
    state : numpy.ndarray
        13-number state ``[x, v, q, ω]`` (earth ft, ft/s; q body → earth; body rad/s).
    controls : Controls
        The pilot's controls at the start (trimmed elevator as ``elevator_trim``).
    trim : flightsim.physics.trim.TrimPoint or None
        The trim solved for, for the trimmed kinds.
    end : flightsim.simulation.world.RunwayEnd or None
        The runway end a ``runway`` or ``approach`` start was placed at (None: the home runway 36).
    """

    kind: str
    state: np.ndarray
    controls: Controls
    trim: object = None
    end: object = None

    @property
    def runway(self):
        """The :class:`~flightsim.simulation.airfield.Runway` of the start's runway end (:data:`RUNWAY` by
        default), its first threshold the one flown to."""
        return RUNWAY if self.end is None else self.end.runway

    @property
    def elevation(self):
        """The start's runway's elevation, ft above sea level (0 at home)."""
        return 0.0 if self.end is None else float(self.end.elevation_ft)

    def describe(self):
        """One line for a person: where and how the flight starts."""
        field = "" if self.end is None else f" of {self.end.airfield} (elevation {self.elevation:g} ft)"
        if self.kind == "runway":
            x, y = self.state[0], self.state[1]
            return (f"at rest on runway {self.runway.numbers[0]}{field} at ({x:g}, {y:g}) ft, engine idle, parking "
                    f"brake set, settled on the gear (CG {self.state[2] - self.elevation:.2f} ft above the ground)")
        if self.trim is None:
            return "the aircraft file's initial state"
        t = self.trim
        where = ""
        if self.kind == "approach":
            distance, _ = self.runway.local(self.state[0], self.state[1])
            to = "" if self.end is None else f" of {self.end.name}"
            where = f"on final approach {-distance:.0f} ft before the threshold{to}, flaps {t.flaps:g}, "
        return (f"{where}trimmed at {t.airspeed:g} ft/s, altitude {t.altitude:g} ft, climb angle {t.climb_angle:g}°: "
                f"pitch {t.pitch:.2f}°, throttle {t.throttle:.3f}, elevator trim {t.elevator:+.3f}")


def file_start(aircraft):
    """The aircraft file's ``[initial]`` state with its initial throttle."""
    y = np.zeros(13)
    y[0:3] = aircraft.initial_position
    y[3:6] = aircraft.initial_velocity
    y[6:10] = quat.from_aviation_angles(*aircraft.initial_attitude_deg)
    y[10:13] = aircraft.initial_omega
    return Start("file", y, Controls(throttle=aircraft.initial_throttle))


def retracts(aircraft):
    """Whether the gear lever moves ``aircraft``'s gear: a JSBSim aircraft whose contacts retract and whose
    flight controls move ``gear/gear-pos-norm``
    (:attr:`JSBSimModel.retractable <flightsim.physics.jsbsim.model.JSBSimModel.retractable>`); flightsim's own
    aircraft keep their gear down."""
    model = getattr(aircraft, "jsbsim", None)
    return model is not None and model.retractable


def trim_controls(point):
    """The pilot's controls that hold a trim: throttle, aileron, rudder, flaps, and the elevator as trim (stick
    centred)."""
    return Controls(throttle=point.throttle, aileron=point.aileron, rudder=point.rudder, flaps=point.flaps,
                    engine=point.engine, gear=point.gear, elevator_trim=point.elevator)


def _in_the_wind(y, wind):
    """``y`` (trimmed relative to the air) with the steady wind at its height added to its ground velocity."""
    if wind is not None:
        y[3:6] += wind.steady(float(y[2]))
    return y


def start_gravity(aircraft, altitude=None, planet=None, lat=None, lon=None):
    """The gravity a start is trimmed with, ft/s²: on a round planet (``planet`` as
    :class:`~flightsim.simulation.flight.Simulation` takes it; None: the aircraft's default, round for a JSBSim
    aircraft) the effective gravity at geodetic ``lat``, ``lon`` (deg; default the earth frame's origin) and
    ``altitude`` (ft; default the aircraft file's initial one) — what the round flight feels there
    (:func:`flightsim.physics.planet.effective_gravity`: 0.3 % below standard gravity at the equator); on a flat
    planet the aircraft's own."""
    body = planets.resolve(planet, getattr(aircraft, "planet", None), getattr(aircraft, "jsbsim", None) is not None)
    if not body.round:
        return float(aircraft.gravity)
    h = float(aircraft.initial_position[2]) if altitude is None else float(altitude)
    lat = planets.DEFAULT_LAT if lat is None else planets.check_lat(lat)
    lon = planets.DEFAULT_LON if lon is None else planets.check_lon(lon)
    return planets.effective_gravity(body, math.radians(lat), math.radians(lon), h)


def _solve(aircraft, airspeed, altitude, climb_angle, flaps, heading=None, atmosphere=None, gravity=None, gear=1.0):
    """:func:`~flightsim.physics.trim.trim` with the constant gravity ``gravity`` (None: the aircraft's) and the
    gear lever ``gear`` (1 down, 0 up)."""
    model = None if gravity is None else AirplaneModel(aircraft, atmosphere, gravity=gravity)
    return solve_trim(aircraft, airspeed, altitude, climb_angle, flaps, heading, atmosphere=atmosphere, model=model,
                      gear=gear)


def trimmed_start(aircraft, airspeed, altitude=None, climb_angle=0.0, flaps=0.0, atmosphere=None,
                  kind="trim", wind=None, gravity=None, gear=1.0):
    """Steady flight trimmed at ``airspeed`` (ft/s) from the aircraft file's initial position and heading.

    ``airspeed`` and ``climb_angle`` are relative to the air; ``wind``
    (:class:`~flightsim.physics.wind.WindSpec`, optional) adds its steady
    wind at the start's height to the earth velocity (turbulence and gusts
    are not part of a start).  ``gravity``: the trim's (ft/s², :func:`start_gravity`; None: the aircraft's).
    ``gear``: the gear lever trimmed with and held (1 down, 0 up; only a gear that :func:`retracts` reads it).

    Raises
    ------
    ValueError
        A bad argument (naming it), or :class:`flightsim.physics.trim.TrimError`.
    """
    point = _solve(aircraft, airspeed, altitude, climb_angle, flaps, atmosphere=atmosphere, gravity=gravity,
                   gear=gear)
    y = _in_the_wind(point.state_at(aircraft.initial_position[0], aircraft.initial_position[1]), wind)
    return Start(kind, y, trim_controls(point), point)


def settle(aircraft, north, west, heading, controls=None, atmosphere=None):
    """The airplane at rest on its gear: the height and pitch where the legs carry its weight.

    Newton's method on the vertical force and the pitching moment of the
    loads (:func:`flightsim.physics.aero.airplane_loads`, gear included) at
    rest, wings level, over the CG's height and the pitch.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    north, west : float
        Earth x, y of the CG, ft.
    heading : float
        deg clockwise from North.
    controls : Controls, optional
        The controls (the thrust counts; default: all zero).

    Returns
    -------
    numpy.ndarray
        The 13-number state.

    Raises
    ------
    ValueError
        No rest found (no wheels, or a gear that cannot carry the airplane).
    """
    params = aero.pack(aircraft, atmosphere)
    u = (controls or Controls()).clamped()
    params.controls[:5] = [u.throttle, u.elevator, u.aileron, u.rudder, u.flaps]
    params.controls[C_ENGINE] = u.engine
    params.controls[C_GEAR] = u.gear
    inertia = np.asarray(aircraft.inertia)

    def state(x):
        y = np.zeros(13)
        y[0], y[1], y[2] = north, west, x[0]
        y[6:10] = quat.from_aviation_angles(0.0, x[1], heading)
        return y

    def residual(x):
        y = state(x)
        aero.settle(0.0, y, params)
        a = aero.airplane_loads(0.0, y, params)
        return np.array([a[2], a[4] / inertia[1, 1]])

    def rest_from(x):
        for _ in range(60):
            f = residual(x)
            if np.max(np.abs(f)) < 1e-10:
                break
            jac = np.empty((2, 2))
            for j, h in enumerate((1e-6, 1e-5)):
                step = np.zeros(2)
                step[j] = h
                jac[:, j] = (residual(x + step) - residual(x - step)) / (2.0 * h)
            try:
                dx = np.linalg.solve(jac, -f)
            except np.linalg.LinAlgError:
                dx = np.array([-0.05 * np.sign(f[0]), 0.0])     # in the air: nothing to solve yet, come down
            x = x + np.clip(dx, [-0.2, -2.0], [0.2, 2.0])
        return x

    x = rest_from(np.array([aircraft.contact_height, 0.0]))
    wheels = [k for k, c in enumerate(aircraft.gear) if c.is_wheel]
    if wheels and (np.max(np.abs(residual(x))) > 1e-6 or np.min(contact_depths(aircraft, state(x))[wheels]) <= 0.0):
        # no rest, or a wheel in the air (the balance over the main wheels, nose high): bounded least squares
        # from the legs pressed by the weight shared evenly, polished by Newton
        from scipy.optimize import least_squares

        stiffness = sum(aircraft.gear[k].stiffness for k in wheels)
        x0 = [aircraft.contact_height - aircraft.mass * aircraft.gravity / stiffness, 0.0]
        sol = least_squares(residual, x0, bounds=([x0[0] - 3.0, -20.0], [aircraft.contact_height + 1.0, 20.0]),
                            x_scale=[0.1, 1.0], xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=200)
        x = rest_from(sol.x)
    if np.max(np.abs(residual(x))) > 1e-6:
        raise ValueError(f"start: {aircraft.source}: the gear does not hold the airplane at rest")
    return state(x)


def runway_start(aircraft, atmosphere=None, end=None):
    """At rest at the threshold of runway end ``end`` (a :class:`~flightsim.simulation.world.RunwayEnd`; None: the
    home runway's southern end, 36), along its landing heading, engine idle, parking brake set, settled on the
    gear at the field's elevation."""
    runway = RUNWAY if end is None else end.runway
    north, west = runway.point(RUNWAY_START_DISTANCE)
    controls = Controls(throttle=0.0, parking_brake=1.0)
    y = settle(aircraft, north, west, runway.heading_deg, controls, atmosphere)
    if end is not None:
        y[2] += float(end.elevation_ft)          # settled on level ground: the same at the field's height
    return Start("runway", y, controls, end=end)


def approach_start(aircraft, atmosphere=None, wind=None, gravity=None, end=None):
    """Trimmed on a :data:`GLIDE_ANGLE` glide path to the runway, :data:`APPROACH_SECONDS` from touchdown.

    Trimmed relative to the air, like :func:`trimmed_start`: in a wind the
    airplane starts aligned with the runway and drifts with the air mass.

    The speed is the aircraft file's ``approach_speed`` (or :data:`APPROACH_MARGIN`
    times the slowest speed trimmable on the glide path, flaps down: slow to
    find); the wheels meet the ground at :data:`AIM_DISTANCE` past the threshold.  ``gravity``: the trim's
    (ft/s², :func:`start_gravity`; None: the aircraft's).  ``end``: the runway end flown to
    (:class:`~flightsim.simulation.world.RunwayEnd`; None: the home runway 36); the glide path ends at its
    elevation.
    """
    runway = RUNWAY if end is None else end.runway
    elevation = 0.0 if end is None else float(end.elevation_ft)
    speed = getattr(aircraft, "approach_speed", None)
    if speed is None:
        speeds = trimmable_speeds(aircraft, 500.0 + elevation, GLIDE_ANGLE, APPROACH_FLAPS, runway.heading_deg,
                                  atmosphere=atmosphere)
        if speeds is None:
            raise ValueError(f"start: {aircraft.source}: no steady glide at {GLIDE_ANGLE:g}° with flaps down")
        speed = APPROACH_MARGIN * speeds[0]
    gamma = math.radians(GLIDE_ANGLE)
    distance = speed * math.cos(gamma) * APPROACH_SECONDS        # ground distance to the aim point, ft
    # The wheels follow the glide path: the CG is the lowest wheel's depth below it higher.
    probe = _solve(aircraft, speed, 1000.0 + elevation, GLIDE_ANGLE, APPROACH_FLAPS, runway.heading_deg, atmosphere,
                   gravity)
    r = np.array([c.position for c in aircraft.gear if c.is_wheel] or [c.position for c in aircraft.gear])
    below = -float(np.min(quat.rotate(probe.state[6:10], r)[:, 2]))
    altitude = elevation + below + distance * math.tan(-gamma)
    point = _solve(aircraft, speed, altitude, GLIDE_ANGLE, APPROACH_FLAPS, runway.heading_deg, atmosphere, gravity)
    north, west = runway.point(AIM_DISTANCE - distance)
    if end is not None:
        _clear_of_terrain(runway, end, distance, elevation)
    return Start("approach", _in_the_wind(point.state_at(north, west), wind), trim_controls(point), point, end=end)


#: How far below the glide path the world's terrain must stay for an approach start, ft.
APPROACH_CLEARANCE = 100.0


def _clear_of_terrain(runway, end, distance, elevation):
    """Refuse an approach start to ``end`` whose glide path, the last ``distance`` ft to the aim point, passes
    less than :data:`APPROACH_CLEARANCE` (near the runway half its height above it) over the world's terrain (a
    strip in the mountains has no straight-in approach from a minute out): one line naming the runway end and
    where the terrain stands."""
    from flightsim.errors import InputError
    from flightsim.physics.terrain import load_terrain

    d = np.linspace(0.0, distance, max(2, int(distance / 250.0) + 1))       # back from the aim point, ft
    along, _ = runway.axes()
    x, y = (runway.point(AIM_DISTANCE)[:, None] - np.outer(along, d))
    rise = d * math.tan(math.radians(abs(GLIDE_ANGLE)))
    path = elevation + rise
    ground = load_terrain().height(x, y)
    # (the clearance asked for grows from nothing at the aim point to APPROACH_CLEARANCE: half the path's rise)
    short = ground - (path - np.minimum(APPROACH_CLEARANCE, 0.5 * rise))
    k = int(np.argmax(short))
    if short[k] > 0.0:
        gap = path[k] - ground[k]
        how = (f"runs into the terrain ({ground[k]:.0f} ft, {-gap:.0f} ft above the path)" if gap < 0.0 else
               f"passes only {gap:.0f} ft over the terrain ({ground[k]:.0f} ft)")
        raise InputError("--start", "approach", f"the {abs(GLIDE_ANGLE):g}° glide path to {end.airfield}/{end.end} "
                         f"{how} {d[k] / NAUTICAL_MILE:.1f} nm out: start on the runway or in the air")


def start_end(airfield=None, runway=None):
    """The :class:`~flightsim.simulation.world.RunwayEnd` of ``airfield`` (an identifier; None: the home field)
    and ``runway`` (an end's identifier; None: the airfield's first), or None when neither is given (the home
    runway 36 as :data:`RUNWAY` has it).

    Raises
    ------
    flightsim.errors.InputError
        An unknown airfield or runway end (``--airfield``/``--runway``, listing the valid ones) or a bad file.
    """
    if airfield is None and runway is None:
        return None
    from flightsim.simulation.world import HOME, runway_end

    return runway_end(HOME if airfield is None else str(airfield), None if runway is None else str(runway))


def make_start(aircraft, kind="air", airspeed=None, altitude=None, climb_angle=0.0, flaps=0.0,
               atmosphere=None, wind=None, planet=None, lat=None, lon=None, airfield=None, runway=None, gear=None):
    """The :class:`Start` of the given kind (see the module docstring).

    ``planet``, ``lat``, ``lon``: where it will fly, as :class:`~flightsim.simulation.flight.Simulation` takes
    them (None: the aircraft's default planet, round for a JSBSim aircraft, at the earth frame's origin); a
    trimmed start on a round planet is trimmed with the effective gravity there (:func:`start_gravity`).  A
    :class:`~flightsim.simulation.batch.BatchSimulation` flies on a flat planet: give it ``planet="flat"``.
    ``airfield``, ``runway``: the runway end of the ``runway`` and ``approach`` starts (:func:`start_end`;
    None for both: the home runway 36, as before).  ``atmosphere``: "constant" or "isa", None (the default) the
    aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).  ``gear``: the gear lever of the
    trimmed starts (1 down, 0 up; None: as a pilot has it, up in the ``air`` start where it :func:`retracts`,
    down on the ``approach`` and for a ``trim``); the ``runway`` start's is down.

    Raises
    ------
    ValueError
        ``kind: ...`` for an unknown kind or an aircraft with no cruise speed; bad trim arguments;
        ``start: ...`` for an airfield or runway given with another kind.
    flightsim.errors.InputError
        An unknown airfield or runway end.
    """
    atmosphere = atmosphere_of(aircraft, atmosphere)
    end = start_end(airfield, runway)
    if end is not None and kind not in ("runway", "approach"):
        raise ValueError(f"start: an airfield's runway ({end.name}) is where the runway and approach starts are "
                         f"placed, not the {kind} start")
    if kind == "file":
        return file_start(aircraft)
    if kind == "runway":
        return runway_start(aircraft, atmosphere, end)
    elevation = 0.0 if end is None else float(end.elevation_ft)
    h = (float(aircraft.initial_position[2]) if altitude is None else altitude) if kind != "approach" else elevation
    g = start_gravity(aircraft, h, planet, lat, lon)
    g = None if g == float(aircraft.gravity) else g         # (a flat planet's: the trims as they were)
    if kind == "approach":
        return approach_start(aircraft, atmosphere, wind, g, end)
    if kind == "air":
        speed = getattr(aircraft, "cruise_speed", None)
        if speed is None:
            raise ValueError(f"start: {aircraft.source} has no [initial] cruise_speed; use --start file")
        lever = (0.0 if retracts(aircraft) else 1.0) if gear is None else gear
        try:
            return trimmed_start(aircraft, speed, altitude, 0.0, 0.0, atmosphere, kind="air", wind=wind, gravity=g,
                                 gear=lever)
        except TrimError:
            if getattr(aircraft, "jsbsim", None) is None:     # (a file's own cruise speed: its error stands)
                raise
            # a JSBSim aircraft's cruise speed is flightsim's estimate: the nearest speed it holds level instead
            h = float(aircraft.initial_position[2]) if altitude is None else altitude
            span = trimmable_speeds(aircraft, h, atmosphere=atmosphere, gear=lever)
            if span is None:
                raise
            lo, hi = span
            near = min(max(speed, lo + 0.05 * (hi - lo)), hi - 0.05 * (hi - lo))
            return trimmed_start(aircraft, near, altitude, 0.0, 0.0, atmosphere, kind="air", wind=wind, gravity=g,
                                 gear=lever)
    if kind == "trim":
        return trimmed_start(aircraft, airspeed, altitude, climb_angle, flaps, atmosphere, wind=wind, gravity=g,
                             gear=1.0 if gear is None else gear)
    raise ValueError(f"start: unknown kind {kind!r}; valid: {', '.join(START_KINDS)}")

"""The fixed-timestep flight simulation: one airplane, ground, controls, integrator.

One step, in this order (with ``euler`` exactly Bourg's StepSimulation):

1. copy the pilot's controls into the loads' parameters;
2. the integrator advances the state ``[x, v, q, ω]`` by ``dt``, evaluating
   the loads (:func:`flightsim.physics.aero.airplane_loads`) as often as
   its method needs: the body-frame aerodynamic force rotated to the earth
   frame with QVRotate, gravity, and the landing gear's ground reaction
   (:func:`flightsim.physics.gear.gear_loads`: springs, dampers and tyre
   friction of the contact points below the ground z = 0); ω goes through
   the inertia tensor;
3. a diverged state (non-finite, or a degenerate quaternion) stops the
   simulation with a message (:mod:`flightsim.physics.divergence`; the last
   finite state is kept, so NaN never reaches a renderer or a trace; a step
   never raises on divergence);
4. the ground (:func:`flightsim.physics.ground.ground_after_step`, the batch's
   very code): which wheels carry load (:attr:`Simulation.on_ground`), and
   a crash, which stops the flight with a message naming what happened: a
   touchdown sinking faster than the aircraft file's ``crash_sink_rate``, a
   hard point (wing tip, nose, tail) touching the ground, or a gear leg
   compressed past its travel.  The crashed airplane is put where the
   contact happened (between the last two states), at rest.

The pilot's controls reach the loads through the one controls boundary,
:func:`flightsim.simulation.controls.flown_row` (NaN refused, values clipped).

Real-time driving follows Gaffer's "Fix Your Timestep": :meth:`Simulation.advance`
runs the shared accumulator (:class:`flightsim.simulation.clock.FixedStep`:
clamped, time-scaled frame time, whole steps of ``dt``);
:meth:`Simulation.render_pose` interpolates between the previous and the
current state.

:class:`Simulation` is a :class:`~flightsim.simulation.source.FlightSource`
with the :data:`~flightsim.simulation.source.LIVE` capabilities: the app,
the ghost and the recorder use that interface (and :meth:`Simulation.set_state`
to load a whole state), never the private attributes.
"""

import functools
import math
import operator
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from flightsim.math import kernels, quat
from flightsim.physics import aero, divergence, gear, integrators, steps
from flightsim.physics import planet as planets
from flightsim.physics.aircraft import Aircraft, atmosphere_of
from flightsim.physics.aircraft_file import load_aircraft
from flightsim.physics.constants import RHO_SL
from flightsim.physics.ground import (  # noqa: F401 (contact_depths, state_between: this module's API)
    GROUND_OK,
    GROUND_SINK_CRASH,
    GearLimits,
    contact_depths,
    crash,
    ground_after_step_fields,
    ground_contact,
    state_between,
)
from flightsim.physics.rigidbody import check_dt
from flightsim.physics.step_entries import start_fields
from flightsim.physics.terrain import resolve_terrain, terrain_clearance_bound, terrain_height
from flightsim.physics.trim import TrimError
from flightsim.physics.trim import trim as solve_trim
from flightsim.physics.wind import WindModel, wingspan_of
from flightsim.simulation.autopilot import Autopilot
from flightsim.simulation.clock import MAX_FRAME, FixedStep  # noqa: F401 (MAX_FRAME: this module's API)
from flightsim.simulation.controls import Controls, flown_row
from flightsim.simulation.failures import KINDS, Failures
from flightsim.simulation.gauges import Gauges
from flightsim.simulation.navigation import NavRadio, default_station, terrain_heights
from flightsim.simulation.source import LIVE
from flightsim.simulation.starts import file_start

#: Default physics step, s (JSBSim's default rate, 120 Hz).
DEFAULT_DT = 1.0 / 120.0
#: Time scales the app offers.
TIME_SCALES = (0.25, 0.5, 1.0, 2.0, 4.0)
#: ``gear/gear-pos-norm`` from which a gear that retracts is down and locked, and up to which it is up (FGLGear's:
#: a retractable wheel is a contact above 0.99).
GEAR_LOCKED, GEAR_UP = 0.99, 0.01
#: Every value of a :class:`Controls`, as a tuple (read in C): what the loads were last given, so a control added to
#: the class is never left out of the comparison.
_CONTROL_VALUES = operator.attrgetter(*(f.name for f in fields(Controls)))


@dataclass(frozen=True)
class FlightState:
    """A snapshot of the airplane's state.

    Attributes
    ----------
    t : float
        Simulation time, s.
    position, velocity : numpy.ndarray
        Earth frame (x North, y West, z up), ft and ft/s.
    q : numpy.ndarray
        Orientation body → earth, ``[w, x, y, z]``.
    omega : numpy.ndarray
        Angular velocity, body frame, rad/s.
    """

    t: float
    position: np.ndarray
    velocity: np.ndarray
    q: np.ndarray
    omega: np.ndarray

    @classmethod
    def from_vector(cls, t, y):
        return cls(float(t), y[0:3].copy(), y[3:6].copy(), y[6:10].copy(), y[10:13].copy())


@dataclass(frozen=True)
class GearLeg:
    """One ground contact point as the instruments see it.

    Attributes
    ----------
    name : str
        As in the aircraft file (``"nose wheel"``, ``"left wing tip"``).
    wheel : bool
        A wheel (False: a hard point).
    load : float
        Force of the ground on it, lbf (0 clear of the ground).
    compression : float
        How far it is pressed into the ground (a wheel: how far its leg is
        compressed), ft.
    travel : float
        A wheel's leg travel, ft (0 for a hard point).
    """

    name: str
    wheel: bool
    load: float
    compression: float
    travel: float


@dataclass(frozen=True)
class Telemetry:
    """What a pilot's instruments show; angles in degrees with aviation signs.

    Attributes
    ----------
    roll, pitch, heading : float
        From the quaternion via Bourg's conversion: roll + right wing down,
        pitch + nose up, heading 0–360 clockwise from North.
    airspeed, vertical_speed : float
        ft/s: airspeed through the air ``|v − wind|``; vertical speed over the ground.
    altitude : float
        Height of the CG above the ground, ft.
    alpha : float
        Angle of attack of the body x axis relative to the air, deg.
    stall : bool
        A wing element is beyond its table (the book's stall flag).
    qnorm_error : float
        ``|q| − 1`` of the last step before renormalising.
    step_us : float
        Wall time of a physics step, µs (average over the last ~100 steps).
    on_ground : bool
        A wheel carries load.
    gear : tuple of GearLeg
        Each contact point of the aircraft file, in its order.
    """

    t: float
    roll: float
    pitch: float
    heading: float
    airspeed: float
    altitude: float
    vertical_speed: float
    alpha: float
    stall: bool
    qnorm_error: float
    step_us: float
    throttle: float
    thrust: float
    on_ground: bool
    integrator: str
    #: Horizontal speed over the ground, ft/s.
    groundspeed: float = 0.0
    #: Wind at the airplane, earth frame (x North, y West, z up), ft/s.
    wind: tuple = (0.0, 0.0, 0.0)
    #: Turbulence level (``none``, ``light``, ``moderate``, ``severe``).
    turbulence: str = "none"
    #: Sideslip relative to the air, deg (+ wind from the right of the nose).
    beta: float = 0.0
    #: Each contact point of the aircraft file, in its order (:class:`GearLeg`).
    gear: tuple = ()
    #: Engine speed, rev/min (0 for an airplane with a constant thrust, the book's).
    rpm: float = 0.0
    #: Indicated airspeed, ft/s: the airspeed times sqrt(density / standard sea-level density) (the
    #: equivalent airspeed; no instrument or position error).  Equal to ``airspeed`` at sea level.
    indicated_airspeed: float = 0.0
    #: Mach number (a JSBSim aircraft's; 0 for flightsim's own).
    mach: float = 0.0
    #: A JSBSim aircraft's engine gauges, per engine: ``("turbine", N1 %, N2 %)`` or ``("piston", rpm)``.
    engines: tuple = ()
    #: The last step was an implicit one (``midpoint``) whose iteration did not converge: it took its last iterate.
    unconverged: bool = False
    #: Where on the planet the CG is: geodetic latitude and longitude (deg, + North, + East) and height above the
    #: ellipsoid (ft) (:attr:`Simulation.geodetic`); None where the source does not say.
    lat: float = None
    lon: float = None
    alt_msl: float = None
    #: The planet's name (``flat``, ``WGS-84``, a JSBSim aircraft's own); empty where the source does not say.
    planet: str = ""
    #: Where a gear that retracts is (``gear/gear-pos-norm``: 1 down and locked, 0 up); None for fixed gear (and
    #: where the source does not say).
    gear_position: float = None
    #: What the cockpit's instruments show (:class:`~flightsim.simulation.gauges.GaugeReadings`, failed ones as
    #: they fail); None where the source does not say.
    gauges: object = None
    #: The failures in force, by kind (:data:`flightsim.simulation.failures.KINDS` order).
    failures: tuple = ()


def gear_legs(aircraft, params):
    """The :class:`GearLeg` of each contact point from the loads' last evaluation (``params.gear_diag``)."""
    diag = params.gear_diag
    return tuple(GearLeg(c.name, c.is_wheel, float(diag[k, gear.GD_LOAD]), float(diag[k, gear.GD_DEPTH]),
                         float(c.max_compression)) for k, c in enumerate(aircraft.gear))


def air_velocity_body(y, wind=None):
    """The velocity through the air ``v − wind`` in the body frame (ft/s) of a 13-number state."""
    v = y[3:6] if wind is None else y[3:6] - np.asarray(wind, dtype=np.float64)[:3]
    return quat.rotate(quat.conj(y[6:10]), v)


def instruments(y, wind=None):
    """Roll, pitch, heading (deg, aviation signs), airspeed (ft/s) and alpha (deg) of a state vector.

    Parameters
    ----------
    y : numpy.ndarray
        13-number state ``[x, v, q, ω]``.
    wind : array_like, optional
        Earth-frame wind (x North, y West, z up), ft/s: airspeed and alpha
        are relative to the air ``v − wind`` (default: still air).
    """
    roll, pitch, heading = quat.aviation_angles(y[6:10])
    vb = air_velocity_body(y, wind)
    alpha = math.degrees(math.atan2(-vb[2], vb[0])) if abs(vb[0]) + abs(vb[2]) > 1e-9 else 0.0
    return float(roll), float(pitch), float(heading), float(np.linalg.norm(vb)), alpha


def sideslip(y, wind=None):
    """Sideslip relative to the air, deg: + when the air comes from the right of the nose (aviation sign)."""
    vb = air_velocity_body(y, wind)
    speed = float(np.linalg.norm(vb))
    # body y is left: air from the right means the airplane moves to the right, vb[1] < 0
    return math.degrees(math.asin(max(min(-vb[1] / speed, 1.0), -1.0))) if speed > 1e-9 else 0.0


def deflections(params, controls, aircraft=None):
    """Per element ``[flap setting −1..1, incidence change deg]`` for a controls array; for a JSBSim aircraft
    (``aircraft.jsbsim``) per surface of :data:`flightsim.physics.jsbsim.model.SURFACES` ``[position deg
    (JSBSim's signs), 0]`` as its flight controls hold them now in ``params``.

    ``params`` is the airplane's :class:`~flightsim.physics.aero.LoadParams`.
    """
    if params.jsb_on:
        slots, scale = aircraft.jsbsim.surface_slots
        out = np.zeros((len(slots), 2))
        out[:, 0] = params.jsb_props[slots] * scale
        return out
    elem, elem_i = params.elements, params.element_refs
    return np.array([aero.element_deflections(elem, elem_i, controls, k) for k in range(elem.shape[0])]).reshape(-1, 2)


def indicated(airspeed, density):
    """Indicated airspeed (ft/s) from the true ``airspeed`` (ft/s) and the air's ``density`` (slug/ft³).

    The equivalent airspeed ``V sqrt(ρ / ρ_SL)`` (ρ_SL the standard sea level's), what a pitot-static
    airspeed indicator shows with no instrument and position error at low Mach numbers.
    """
    return float(airspeed * math.sqrt(max(density, 0.0) / RHO_SL))


def ground_for(terrain, start):
    """The terrain a flight from ``start`` stands on: ``terrain`` as given, except None for a start on an airfield
    above sea level (``start.elevation``), which is the world's (``"world"``: the plane z = 0 lies below its
    runway)."""
    if terrain is None and getattr(start, "elevation", 0.0) != 0.0:
        return "world"
    return terrain


def resolve_aircraft(aircraft):
    """An :class:`Aircraft` from None (the book's), a path, or an Aircraft."""
    if isinstance(aircraft, Aircraft):
        return aircraft
    return load_aircraft(None if aircraft is None else Path(aircraft))


class Simulation:
    """A flight of one airplane with a fixed step and a live-selectable integrator.

    A :class:`~flightsim.simulation.source.FlightSource` that can be flown,
    recorded, followed by a ghost and switched between integrators
    (:data:`~flightsim.simulation.source.LIVE`).

    Parameters
    ----------
    aircraft : None, str, Path or Aircraft
        None flies the book's airplane (``configs/bourg.toml``).
    integrator : str
        A name in :data:`flightsim.integrators.INTEGRATORS`.
    dt : float
        Physics step, s.
    atmosphere : {"constant", "isa"} or None
        The book's constant air density, or the standard atmosphere; None (the default): the aircraft's own
        (its file's ``atmosphere``: :func:`~flightsim.physics.aircraft.atmosphere_of`).
    renormalize : bool
        Renormalise q after every step.
    start : flightsim.simulation.starts.Start, optional
        Where :meth:`reset` puts the airplane, and with which controls (default:
        the aircraft file's initial state, :func:`~flightsim.simulation.starts.file_start`).
    wind : flightsim.physics.wind.WindSpec, optional
        The wind (steady, turbulence, gusts); None or calm: still air, the
        book's flight bit for bit.  Sampled once per step
        (:class:`~flightsim.physics.wind.WindModel`) and held through the
        integrator's stages.
    terrain : None, "world", "off" or flightsim.physics.terrain.Terrain
        The ground under the gear and the crash check: None or ``"off"`` the
        plane z = 0 (the default: nothing of the terrain is compiled; None for a
        start on an airfield above sea level is the world's terrain, the plane
        lying below its runway: :func:`ground_for`),
        ``"world"`` the shipped region (:func:`~flightsim.physics.terrain.load_terrain`),
        or a terrain of one's own; on a round planet looked up with the view's x, y.
    failures : iterable of flightsim.simulation.failures.Failure, optional
        Failures scheduled (:func:`~flightsim.simulation.failures.read_failures`); more fail at once through
        :attr:`failures`.
    crashes : bool
        True (the default): a touchdown too fast, a hard point on the ground, a leg past its travel or a gear-up
        landing stops the flight (:attr:`status`).  False: nothing on the ground stops it, the contacts' forces
        alone act, as in JSBSim, whose ``FGLGear::CrashDetect`` only reports (``flightsim script``).
    instruments : bool
        True (the default): what the cockpit's instruments show is worked out after every step
        (:attr:`gauges`).  False: not (a run no one watches, ``flightsim script``; the failures still trigger).
    warm : bool
        True (the default): the integrator's whole step is loaded (or compiled) now (:meth:`warm_up`), not in
        the first frame that needs it.  False: when first needed (a run that steps only through
        :meth:`begin_step` may never need it).

    Raises
    ------
    flightsim.errors.InputError
        A bad aircraft file.
    ValueError
        An unknown integrator, a bad dt or atmosphere, terrain; the message starts
        with the argument's name (``"dt: must be finite and > 0, got 0"``).
    """

    capabilities = LIVE

    def __init__(self, aircraft=None, integrator="euler", dt=DEFAULT_DT, atmosphere=None, renormalize=True,
                 start=None, wind=None, planet=None, lat=None, lon=None, terrain=None, failures=(), crashes=True,
                 instruments=True, warm=True):
        self.aircraft = resolve_aircraft(aircraft)
        self.crashes = bool(crashes)
        self.instruments = bool(instruments)
        atmosphere = atmosphere_of(self.aircraft, atmosphere)
        self.start = file_start(self.aircraft) if start is None else start
        #: the ground's terrain as asked for (None, ``"world"`` or a :class:`~flightsim.physics.terrain.Terrain`)
        #: and packed (None: the plane z = 0)
        self.terrain = ground_for(terrain, self.start)
        self._terrain = resolve_terrain(self.terrain)
        self.dt = check_dt(dt)
        #: the planet (:class:`~flightsim.physics.planet.Planet`) and the latitude and longitude (deg) of the earth
        #: frame's origin on it
        self.planet = planets.resolve(planet, getattr(self.aircraft, "planet", None),
                                      self.aircraft.jsbsim is not None)
        if self.aircraft.jsbsim is not None:        # (an INERTIAL external force needs the round planet's axes)
            self.aircraft.jsbsim.external.check_planet(self.planet)
        self.lat = planets.DEFAULT_LAT if lat is None else planets.check_lat(lat)
        self.lon = planets.DEFAULT_LON if lon is None else planets.check_lon(lon)
        flat = aero.pack(self.aircraft, atmosphere)._replace(terrain=self._terrain)
        if self.aircraft.jsbsim is not None:        # this flight's own contacts: a flat tyre changes its friction
            flat = flat._replace(jsb_contacts=flat.jsb_contacts.copy())
        #: a JSBSim aircraft's tanks and point masses (:class:`~flightsim.physics.jsbsim.fuel.FuelFlight`): its
        #: mass, CG and inertia follow them; None for flightsim's own aircraft
        self._inertia = np.array(self.aircraft.inertia, dtype=np.float64)      # (this flight's: fuel burns)
        self._inertia_inv = np.array(self.aircraft.inertia_inv, dtype=np.float64)
        self._fuel, flat = _fuel_flight(self.aircraft, flat, self._inertia, self._inertia_inv)
        #: where each contact's weight on wheels is in ``jsb_last`` (FGGroundReactions' ``GetWOW``: any)
        self._wow_index = None if self.aircraft.jsbsim is None else _wow_index(flat.jsb_contacts.shape[0])
        packed = planets.pack(self.planet, math.radians(self.lat), math.radians(self.lon),
                              inertia=self.aircraft.inertia)
        if packed is not None:
            # the view's constant gravity: the effective gravity at the origin (planets.pack), which the loads
            # subtract and the planet adds back, so that the steady states (a JSBSim aircraft's settled specific
            # force) and sim.gravity are the round planet's there, not the aircraft's flat gravity
            flat = flat._replace(gravity=float(packed[planets.P_G]))
        self._params = flat._replace(planet=packed)
        #: the loads' parameters with no planet: what reads the state's flat view (the ground, the instruments)
        self._view_fields = tuple(flat)
        self.atmosphere = atmosphere
        self._controls_array = self._params.controls
        self._diag = self._params.diag
        self._wind = self._params.wind
        #: the wind (None: still air, nothing sampled)
        self.wind_spec = None if wind is None or wind.calm else wind
        self._wind_model = None if self.wind_spec is None else WindModel(self.wind_spec, wingspan_of(self._params))
        #: the contact points as the ground check reads them (a wheel?, how deep each may go)
        self._gear = GearLimits(self.aircraft, crashes=self.crashes)
        self._travel = self._gear.travel
        #: [a wheel touches the ground], [a wheel carries load]: arrays, as the compiled ground check writes them
        self._wheels_down_flag = np.zeros(1, dtype=np.bool_)
        self._on_ground_flag = np.zeros(1, dtype=np.bool_)
        self._clock = FixedStep(self.dt)
        #: whether :meth:`begin_step` ran what the next step runs before it integrates
        self._begun = False
        #: whether a JSBSim aircraft's models were settled since the last step (a trim: the next step's start runs
        #: its engines burning nothing, as JSBSim's trim does)
        self._settled = False
        #: the controls values last copied into the loads' controls array (skip the copy while they hold)
        self._flown_key = None
        #: the auxiliary properties' slots (:meth:`jsbsim_auxiliary_values`), found when first asked for
        self._aux_slots = None
        #: the parameters as a plain tuple for :func:`~flightsim.physics.step_entries.step_fields` (cheaper per call)
        self._param_fields = tuple(self._params)
        #: on a round planet the Earth-centred inertial state the integrator advances (and the one before),
        #: ``_y`` then being its flat view (:func:`flightsim.physics.planet.to_view`); None on a flat planet
        self._eci = None if packed is None else np.zeros(steps.STATE_SIZE)
        self._prev_eci = None if packed is None else np.zeros(steps.STATE_SIZE)
        #: while held down (:attr:`hold_down`) the position and attitude where it is held (``x`` then ``q``, the
        #: view's); None when free.  Released after :meth:`begin_step`, the step begun still holds it
        #: (``_release``), as JSBSim's frame integrates the accelerations its models found while held
        self._held_at = None
        self._release = False
        self.renormalize = bool(renormalize)
        #: callables run after every completed step (e.g. a ghost airplane keeping pace)
        self.followers = []
        #: the autopilot (:class:`~flightsim.simulation.autopilot.Autopilot`): it sets the controls before each
        #: step while engaged
        self.autopilot = Autopilot()
        #: the NAV radio (:class:`~flightsim.simulation.navigation.NavRadio`): tuned to the ILS of the runway the
        #: start names, else the home VOR (HOM); the trace's and the HSI's readings
        #: (line of sight over the terrain the flight stands on, where it has one)
        self.nav = NavRadio(default=default_station(self.start), height=terrain_heights(getattr(self, "terrain", None)))
        #: what goes wrong (:class:`~flightsim.simulation.failures.Failures`) and what the instruments then show
        #: (:class:`~flightsim.simulation.gauges.Gauges`)
        self.failures = Failures(failures, engines=1 if self.aircraft.jsbsim is None
                                 else self.aircraft.jsbsim.engine_count)
        self.failures.attach(self._params.gear, self._params.gear_refs, self._params.engine)
        if self.aircraft.jsbsim is not None:
            self.failures.attach_jsbsim(self.aircraft.jsbsim, self._params.jsb_props, self._params.jsb_contacts)
        self.gauges = Gauges(self.failures)
        self.paused = False
        self.time_scale = 1.0
        self.set_integrator(integrator)
        self.reset()
        if warm:
            self.warm_up()

    # ------------------------------------------------------------------ state

    def with_aircraft(self, aircraft):
        """A new flight of ``aircraft`` (an :class:`Aircraft`, a name or a path) started as this one was.

        Same integrator, step, atmosphere, renormalisation and wind; the same
        kind of start (``runway``, ``approach``, ``file``; a trimmed start
        becomes the new aircraft's ``air`` start, level at its cruise speed).

        Raises
        ------
        ValueError
            The new aircraft cannot start so (no cruise speed, no trim).
        flightsim.errors.InputError
            A bad aircraft file.
        """
        from flightsim.simulation.starts import make_start

        aircraft = resolve_aircraft(aircraft)
        kind = self.start.kind if self.start.kind in ("runway", "approach", "file") else "air"
        planet = self.planet if self.planet.round else "flat"
        end = getattr(self.start, "end", None)         # (the runway end of a runway or approach start)
        start = make_start(aircraft, kind, atmosphere=self.atmosphere, wind=self.wind_spec, planet=planet,
                           lat=self.lat, lon=self.lon, **({} if end is None else
                                                         {"airfield": end.airfield, "runway": end.end}))
        return Simulation(aircraft, self.integrator, self.dt, self.atmosphere, self.renormalize, start=start,
                          wind=self.wind_spec, planet=planet, lat=self.lat, lon=self.lon, terrain=self.terrain)

    def reset(self, state=None):
        """Back to the start (or to ``state``) with the start's controls, clock at 0.

        Parameters
        ----------
        state : FlightState, optional
            Start here instead (e.g. on final approach); its ``t`` is kept.

        Raises
        ------
        ValueError
            A state that is not finite or has a zero quaternion.
        """
        self._y = np.zeros(steps.STATE_SIZE)
        if state is None:
            self._y[:] = self.start.state
        else:
            self._y[steps.X] = quat.as_vec(state.position, "position")
            self._y[steps.V] = quat.as_vec(state.velocity, "velocity")
            self._y[steps.Q] = quat.normalize(state.q)
            self._y[steps.W] = quat.as_vec(state.omega, "omega")
        self._prev = self._y.copy()
        self.t = 0.0 if state is None else float(state.t)
        self._to_eci()
        self._hold_again()
        self._t_prev = 0.0
        self.controls = replace(self.start.controls)
        self.status = None
        self._begun = self._settled = False
        #: True once a step diverged (:attr:`status` says how); a crash leaves it False
        self.diverged = False
        self.qnorm_error = 0.0
        self.steps = 0
        self._clock.reset()
        self._step_seconds = 0.0
        self.failures.reset()
        self.failures.airplane(self.t)
        self.gauges.reset()
        self._contact_now()
        self._instruments()
        if self._wind_model is not None:
            self._wind_model.reset()
            self._wind_model.sample(self.t, self._y, 0.0, self._wind)
        self._settle()

    def _settle(self):
        """A JSBSim aircraft's flight controls and engines as loaded, then settled for the controls and state
        now (:func:`flightsim.physics.aero.settle`); nothing for flightsim's own aircraft."""
        if self._params.jsb_on:
            props = self._params.jsb_props
            if self._fuel is not None:      # (FGPropulsion's FuelFreeze outlives a reset, as JSBSim's)
                frozen = props[self._fuel.system.freeze_slot]
                props[:] = self.aircraft.jsbsim.initial
                props[self._fuel.system.freeze_slot] = frozen
                self._fuel.reset(props)
                self._set_mass(float(self.aircraft.mass))
            else:
                props[:] = self.aircraft.jsbsim.initial
            self._flown_key = None
            self._load_controls()
            aero.settle(self.t, self._y, aero.LoadParams(*self._view_fields))

    def mass_now(self):
        """The flight's mass now (slug), its inertia tensor (body frame, slug·ft²) and, for a JSBSim aircraft, the
        loads' arrays that hold lever arms about its CG now (``jsb_scalars``, ``jsb_turbines``, ``jsb_propellers``,
        ``jsb_external``; its fuel burns and its masses move: :mod:`flightsim.physics.jsbsim.fuel`)."""
        arrays = {} if self._fuel is None else {k: getattr(self._params, k) for k in (
            "jsb_scalars", "jsb_turbines", "jsb_propellers", "jsb_external")}
        return float(self._param_fields[_MASS_FIELD]), self._inertia.copy(), arrays

    def _set_mass(self, mass):
        """The mass (slug) the steps and the loads read, and the gravity-gradient torque's tensor (a round planet's)
        from the integrator's."""
        if mass != self._param_fields[_MASS_FIELD]:     # (the fields the steps read: a named tuple's own
            fields = list(self._param_fields)           # constructor costs more than the step's balance)
            fields[_MASS_FIELD] = mass
            self._param_fields = tuple(fields)
            view = list(self._view_fields)
            view[_MASS_FIELD] = mass
            self._view_fields = tuple(view)
        if self._params.planet is not None:
            self._params.planet[planets.P_INERTIA:planets.P_INERTIA + 9] = self._inertia.ravel()

    def _mass_balance(self, nudge=True, wow=None):
        """A JSBSim aircraft's ``FGMassBalance::Run``: its mass, CG and inertia from its tanks and point masses
        now (:meth:`~flightsim.physics.jsbsim.fuel.FuelFlight.balance`) into the loads and the integrator; on the
        ground (``nudge``, a wheel's weight on it) the CG's move shifts the state the other way, so that the
        airplane's structure stays where it stands (``FGPropagate::NudgeBodyLocation``; ``wow``: whether a contact
        bears weight, None: as the last loads found)."""
        fuel = self._fuel
        if not fuel.balance(self._params.jsb_props):
            return
        self._set_mass(fuel.mass)
        if not nudge:
            return
        dx, dy, dz = fuel.delta.tolist()
        if not (dx or dy or dz):
            return
        held = self._held_at is not None
        if not held:
            if wow is None:
                wow = bool(self._params.jsb_last[self._wow_index].any())     # (a NaN bears, as != 0)
            if not wow:
                return
        # (held down or on the ground, as FGMassBalance::Run: JSBSim's body axes → flightsim's, then to the earth
        # frame: quat.rotate's kernel, on the state's quaternion, which its step has checked)
        moved = kernels.rotate_rows(self._y[6:10].reshape(1, 4), np.array([[dx, -dy, -dz]]), np.empty((1, 3)))[0]
        self._y[0:3] -= moved
        if held:
            self._held_at[:3] -= moved
        self._to_eci()

    def set_state(self, state, previous=None, status=None):
        """Load a whole state, bit for bit: the flight goes on from ``state``.

        Unlike :meth:`reset` the controls, the step count and the clock's
        accumulator are kept, and q is not renormalised.

        Parameters
        ----------
        state : FlightState
            The new current state; the clock goes to ``state.t``.
        previous : FlightState, optional
            The state one step before, where the render interpolation starts
            (default: ``state`` itself, so the pose does not blend).
        status : str, optional
            None (the default) to run on; a message to load a stopped flight.

        Raises
        ------
        ValueError
            A state that is not finite or has a zero quaternion.
        """
        previous = state if previous is None else previous
        y, prev = _state_vector(state), _state_vector(previous)
        self._y[:] = y
        self._prev[:] = prev
        self.t, self._t_prev = float(state.t), float(previous.t)
        self._to_eci()
        self._hold_again()
        self.status = status
        self._begun = False                 # (the next step starts again from this state)
        self.diverged = False
        self._contact_now()
        if self._wind_model is not None:   # the wind where the airplane now is; the turbulence does not advance
            self._wind_model.sample(self.t, self._y, 0.0, self._wind)

    @property
    def state(self):
        """The current :class:`FlightState`."""
        return FlightState.from_vector(self.t, self._y)

    @property
    def previous(self):
        """The :class:`FlightState` one step before :attr:`state`."""
        return FlightState.from_vector(self._t_prev, self._prev)

    @property
    def vector(self):
        """A copy of the 13-number state ``[x, v, q, ω]``."""
        return self._y.copy()

    @property
    def running(self):
        """True until a crash or a diverged state stops the flight."""
        return self.status is None

    @property
    def on_ground(self):
        """A wheel carries load (after the last step, or the state just loaded)."""
        return bool(self._on_ground_flag[0])

    @property
    def _wheels_down(self):
        """A wheel touches the ground."""
        return bool(self._wheels_down_flag[0])

    @property
    def flown_controls(self):
        """The controls row the loads read in the last step (:data:`~flightsim.simulation.controls.CONTROL_NAMES`
        order; the elevator trim added, every value within its range): what a trace records.  A copy."""
        return self._controls_array.copy()

    # ------------------------------------------------------------------ integrator

    @property
    def integrator(self):
        """Name of the orientation integrator in use."""
        return self._integrator.name

    def set_integrator(self, name):
        """Switch integrator between two steps; the state carries over unchanged.

        Raises
        ------
        ValueError
            ``"integrator: unknown name 'x'; valid: …"``.
        """
        method = integrators.get(name)
        self._integrator = method
        self._step_number, self._increment_id = method.number, method.increment_id
        self._step_entry = method.entry
        self._integrate_entry = None        # (the step without its start, compiled when first asked for)

    def warm_up(self, integrator=None):
        """Load (or compile, the first time on this machine) the step of ``integrator`` (default: the one flying)
        now, on a scratch copy of the state, not during a flying frame (the flight is left as it is)."""
        method = self._integrator if integrator is None else integrators.get(integrator)
        scratch = tuple(f.copy() if isinstance(f, np.ndarray) else f for f in self._param_fields)   # (its state too)
        y = self._y if self._eci is None else self._eci
        method.entry(y.copy(), 0.0, self.dt, scratch, self._inertia, self._inertia_inv, True, method.increment_id)

    # ------------------------------------------------------------------ planet

    def _to_eci(self):
        """On a round planet, the Earth-centred inertial state whose view is ``_y`` now (a reset, a loaded state,
        a crash, a trim)."""
        if self._eci is not None:
            planets.from_view(self.t, self._y, self._params.planet, self._eci)

    def _to_view(self):
        """On a round planet, ``_y`` ← the view of the Earth-centred inertial state after a step (its quaternion on
        the hemisphere of the one before, so the view never jumps between the two signs)."""
        planets.to_view_after(self.t, self._eci, self._params.planet, self._y, self._prev)

    @property
    def gravity_torque(self):
        """Whether the gravity-gradient torque acts on the body (JSBSim's ``simulation/gravitational-torque``,
        :func:`flightsim.physics.planet.gravity_torque`): off by default; on a round planet only."""
        packed = self._params.planet
        return packed is not None and bool(packed[planets.P_TORQUE])

    @gravity_torque.setter
    def gravity_torque(self, on):
        if self._params.planet is None:
            if on:
                raise ValueError("gravity_torque: the gravity-gradient torque needs the round planet "
                                 "(planet='round')")
            return
        planets.set_gravity_torque(self._params.planet, on)

    @property
    def hold_down(self):
        """Whether the airplane is held where it is, at rest on the ground (JSBSim's ``forces/hold-down``: a
        launcher on its pad, its engines running).

        JSBSim (``FGFDMExec::SetHoldDown``) zeroes the body's velocity and rates relative to the Earth at once,
        and while held ``FGAccelerations`` makes its accelerations zero in the body frame: the airplane turns
        with the Earth and its loads move it no more, while its engines, fuel and flight controls run on.  Here
        each step integrates as ever (the models and engines run) and the state is then put back where it was
        held, at rest relative to the Earth (on a round planet the inertial state whose view that is).  Released
        (False), it flies on from there: from the step after the one :meth:`begin_step` began, if it began one
        (JSBSim's frame, whose script runs between its models and the integration, integrates the accelerations
        its models found while held).  Held (True), the step begun holds it too (JSBSim's ``SetHoldDown`` sets the
        held accelerations at once).
        """
        return self._held_at is not None and not self._release

    @hold_down.setter
    def hold_down(self, on):
        if not on:
            if self._begun and self._held_at is not None:
                self._release = True
            else:
                self._held_at = None
            return
        self._release = False
        if self._held_at is None:
            self._y[steps.V] = 0.0
            self._y[steps.W] = 0.0
            self._held_at = np.concatenate([self._y[steps.X], self._y[steps.Q]])
            self._to_eci()

    def _hold_again(self):
        """A new state while held down (a reset, a loaded state): held where it now is."""
        if self._held_at is not None:
            self._held_at, self._release = None, False
            self.hold_down = True

    def _hold(self):
        """After a step while held down: the state back where it is held, at rest relative to the Earth."""
        self._y[steps.X] = self._held_at[:3]
        self._y[steps.V] = 0.0
        self._y[steps.Q] = self._held_at[3:]
        self._y[steps.W] = 0.0
        self._to_eci()

    @property
    def geodetic(self):
        """Geodetic latitude and longitude (deg) and height above the ellipsoid (mean sea level, ft) of the CG.

        On a flat planet the earth frame laid on WGS-84 at its origin (:attr:`lat`, :attr:`lon`): North and West
        distances over the radii of curvature there.
        """
        if self._eci is None:
            lat, lon = planets.flat_geodetic(self.lat, self.lon, float(self._y[0]), float(self._y[1]))
            return lat, lon, float(self._y[2])
        lat, lon = planets.to_view(self.t, self._eci, self._params.planet, np.empty(steps.STATE_SIZE))
        return math.degrees(lat), planets.wrap_lon(math.degrees(lon)), float(self._y[2])

    def jsbsim_property(self, name):
        """The value now of the JSBSim aircraft's own property ``name`` (its property array, as the loads last
        wrote it).

        Raises
        ------
        KeyError
            Not a JSBSim aircraft, or no such property in its array.
        """
        return float(self._params.jsb_props[self._jsbsim_slot(name)])

    @property
    def jsbsim_properties(self):
        """The JSBSim aircraft's property array itself, live (what the next step's loads read; a script's engine
        start marches its engines on it), or None for flightsim's own aircraft."""
        return self._params.jsb_props if self.aircraft.jsbsim is not None else None

    def contact_wow(self):
        """A JSBSim aircraft's contacts in its file's order (FGLGear's ``GearNumber``), each
        ``(JSBSim's prefix, weight on it)``: ``("gear/unit[k]", True)`` for a BOGEY, ``("contact/unit[k]", …)`` for
        a STRUCTURE, as its ground reactions last found them; empty for flightsim's own aircraft."""
        if self.aircraft.jsbsim is None:
            return ()
        from flightsim.physics.jsbsim import ground_reactions as G
        from flightsim.physics.jsbsim.loads import LAST_FIELDS

        rows, last = self._params.jsb_contacts, self._params.jsb_last
        return tuple((f"{'gear' if rows[k, G.C_KIND] == G.BOGEY else 'contact'}/unit[{k}]",
                      bool(last[LAST_FIELDS + k * G.CONTACT_FIELDS + G.S_WOW] != 0.0)) for k in range(rows.shape[0]))

    def jsbsim_gear_force(self):
        """A JSBSim aircraft's ground reactions' force as they last found it (``forces/fb[xyz]-gear-lbs``: JSBSim's
        body axes, x forward, y right, z down, lbf); zeros for flightsim's own aircraft."""
        if self.aircraft.jsbsim is None:
            return (0.0, 0.0, 0.0)
        from flightsim.physics.jsbsim.loads import L_GEAR

        last = self._params.jsb_last
        return float(last[L_GEAR]), float(last[L_GEAR + 1]), float(last[L_GEAR + 2])

    def _jsbsim_slot(self, name):
        """The slot of the JSBSim aircraft's property ``name`` in its array (KeyError: none)."""
        model = self.aircraft.jsbsim
        if model is None or name not in model.properties:
            raise KeyError(name)
        return model.properties[name]

    def set_jsbsim_property(self, name, value):
        """Write the JSBSim aircraft's own property ``name`` (its property array): what reads it next sees
        ``value``; what computes it overwrites it (as in JSBSim, where a script may write any node).

        Raises
        ------
        KeyError
            Not a JSBSim aircraft, or no such property in its array.
        """
        self._params.jsb_props[self._jsbsim_slot(name)] = float(value)

    @property
    def jsbsim_temperature_bias(self):
        """A JSBSim aircraft's atmosphere: its temperature above the standard's at every height (°R, JSBSim's
        ``atmosphere/delta-T``; 0 the standard atmosphere; 0 for flightsim's own aircraft)."""
        if self.aircraft.jsbsim is None:
            return 0.0
        from flightsim.physics.jsbsim.loads import L_TEMPERATURE_BIAS

        return float(self._params.jsb_last[L_TEMPERATURE_BIAS])

    def set_jsbsim_temperature_bias(self, bias):
        """Warm (or cool) a JSBSim aircraft's atmosphere by ``bias`` °R at every height from the next load evaluation
        on (``FGStandardAtmosphere::SetTemperatureBias``: :func:`flightsim.physics.jsbsim.atmosphere.
        biased_atmosphere`).

        Raises
        ------
        KeyError
            Not a JSBSim aircraft.
        ValueError
            Not a finite number, or colder than absolute zero at sea level.
        """
        from flightsim.physics.jsbsim.loads import L_ATMOSPHERE, L_TEMPERATURE_BIAS

        if self.aircraft.jsbsim is None:
            raise KeyError("not a JSBSim aircraft")
        bias = float(bias)
        if not math.isfinite(bias) or bias <= -518.67:
            raise ValueError(f"temperature bias: must be finite and above -518.67 °R (absolute zero at sea level), "
                             f"got {bias!r}")
        last = self._params.jsb_last
        last[L_TEMPERATURE_BIAS] = bias
        last[L_ATMOSPHERE] = 0.0            # (the atmosphere kept for the last altitude is no longer this one)

    def jsbsim_auxiliary(self):
        """Every one of JSBSim's ``FGAuxiliary`` properties flightsim computes
        (:data:`flightsim.physics.jsbsim.auxiliary.AUXILIARY`) at the state now, whether or not the aircraft
        reads it: name → value (the aircraft's property array untouched; α̇, β̇ and the accelerations from the
        last step's).

        Raises
        ------
        KeyError
            Not a JSBSim aircraft.
        """
        values, index = self.jsbsim_auxiliary_values()
        return {name: float(values[k]) for name, k in index.items()}

    def jsbsim_auxiliary_values(self):
        """:meth:`jsbsim_auxiliary` as an array and each property's index in it (name → index): for a reader of a
        few of them.

        Raises
        ------
        KeyError
            Not a JSBSim aircraft.
        """
        if self.aircraft.jsbsim is None:
            raise KeyError("not a JSBSim aircraft")
        names, compute = _auxiliary_kernel()
        known = self._aux_slots
        fields = list(self._view_fields)
        props = fields[_PROPS_FIELD]
        n = props.shape[0]
        # (the slots of the array's and the scratch's, found once)
        if (known is None or known[0] is not fields[_AUX_SLOTS_FIELD] or known[1] != n
                or known[4].shape != fields[_LAST_FIELD].shape):
            slots = np.array([s if s >= 0 else n + k for k, s in enumerate(fields[_AUX_SLOTS_FIELD])],
                             dtype=np.int64)
            known = self._aux_slots = (fields[_AUX_SLOTS_FIELD], n, slots,
                                       dict(zip(names, (int(s) for s in slots), strict=True)),
                                       np.empty_like(fields[_LAST_FIELD]))
        scratch = np.concatenate([props, np.zeros(len(names))])
        last = known[4]                     # (the last loads' copy, which the computation may write: this
        last[...] = fields[_LAST_FIELD]     # flight's own scratch)
        fields[_AUX_SLOTS_FIELD], fields[_PROPS_FIELD], fields[_LAST_FIELD] = known[2], scratch, last
        compute(self._y, aero.LoadParams(*fields), scratch)
        return scratch, known[3]

    def own_jsbsim_commands(self, leave=()):
        """This flight's own copy of the JSBSim aircraft's command rows (``jsb_commands``,
        :data:`flightsim.physics.jsbsim.loads.COMMAND_FIELDS`), returned to be changed in place: a row turned to
        a constant (source −1) holds its command whatever the pilot's controls (a script's ``<set>``).  The
        aircraft's own rows (shared by every flight and trim of it) stay as loaded.

        ``leave``: property names whose rows this flight drops, on its first copy: nothing then writes those
        commands but what computes them (the c172x's automatic mixture, a system's output) or a one-off write
        (a script's, as JSBSim's FGFCS holds a command property until something writes it)."""
        cmds = self._params.jsb_commands
        if cmds is self.aircraft.jsbsim.commands:
            names, leave = self.aircraft.jsbsim.properties.names, set(leave)
            keep = [k for k in range(cmds.shape[0]) if names[int(cmds[k, 0])] not in leave]
            cmds = np.ascontiguousarray(cmds[keep]) if len(keep) < cmds.shape[0] else cmds.copy()
            flat = aero.LoadParams(*self._view_fields)._replace(jsb_commands=cmds)
            self._params = self._params._replace(jsb_commands=cmds, mass=self._param_fields[_MASS_FIELD])
            self._view_fields = tuple(flat)
            self._param_fields = tuple(self._params)
        return cmds

    def settle_jsbsim(self):
        """The JSBSim aircraft's flight controls and engines settled for the controls and state now (a trim's
        end), its other properties kept (:func:`flightsim.physics.aero.settle`)."""
        if self._params.jsb_on:
            self._settled = True
            self._flown_key = None
            self._load_controls()
            aero.settle(self.t, self._y, aero.LoadParams(*self._view_fields))

    def hold_jsbsim_acceleration(self, uvw_dot):
        """The body acceleration (JSBSim's body axes, x forward, y right, z down; ft/s²: ``FGAccelerations``'
        ``vUVWdot``) a JSBSim aircraft's next loads read for ``FGAuxiliary``'s α̇ and β̇, until the next step or
        settle computes its own (a settle leaves it 0): a linearization's second frame at a point, which reads the
        first's (:mod:`flightsim.simulation.linearization`).

        Raises
        ------
        KeyError
            Not a JSBSim aircraft.
        """
        if self.aircraft.jsbsim is None:
            raise KeyError("not a JSBSim aircraft")
        self._params.jsb_last[3:6] = np.asarray(uvw_dot, dtype=np.float64).reshape(3)

    @property
    def inertial(self):
        """The Earth-centred inertial state ``[x, v, q, ω]`` (ft, ft/s, body → ECI, inertial body rates rad/s) on
        a round planet (a copy); None on a flat one."""
        return None if self._eci is None else self._eci.copy()

    # ------------------------------------------------------------------ stepping

    def step(self):
        """Advance one fixed step (even when paused). Returns False once stopped.

        Never raises on divergence: a diverged step stops the flight, keeps the
        last finite state and says why in :attr:`status`.

        Raises
        ------
        ValueError
            A NaN or infinite control (naming it): refused before the step.
        LookupError
            The integrator's step or increment number is not in the registry
            (:func:`~flightsim.physics.integrators.check_selectors`).
        """
        if self.status is not None:
            return False
        begun, self._begun = self._begun, False
        if not begun:
            self._before_step()
            if self._fuel is not None:
                self._mass_balance()
        self._prev[:] = self._y
        self._t_prev = self.t
        stepped = self._y
        if self._eci is not None:
            self._prev_eci[:] = self._eci
            stepped = self._eci
        if begun and self._integrate_entry is None:
            self._integrate_entry = self._integrator.integrate_entry
        start = time.perf_counter()
        err = (self._integrate_entry if begun else self._step_entry)(
            stepped, self.t, self.dt, self._param_fields, self._inertia, self._inertia_inv, self.renormalize,
            self._increment_id)
        elapsed = time.perf_counter() - start
        if err == steps.UNKNOWN_SELECTOR:      # the state untouched: a step or increment number unknown
            integrators.check_selectors(self.integrator, self._step_number, self._increment_id)
        if not begun and self._fuel is not None and not self._settled:
            # (the engines' frame ran at the step's start: their burn; not after a settle — a trim, a state set —
            # whose engines JSBSim's trim runs burning nothing)
            self._fuel.consume(self._params.jsb_props, self.dt)
        self._settled = False
        # exponential average over ~100 steps, seeded by the first one
        self._step_seconds += (0.01 if self._step_seconds else 1.0) * (elapsed - self._step_seconds)
        self.steps += 1
        if divergence.diverged(err):
            self.status = divergence.message(self.integrator, self.t, self.dt, stepped)
            self.diverged = True
            stepped[:] = self._prev if self._eci is None else self._prev_eci
            return False
        self.t += self.dt
        if self._eci is not None:
            self._to_view()
        if self._held_at is not None:
            self._hold()
            if self._release:
                self._held_at, self._release = None, False
        self.qnorm_error = err
        self._ground()
        if self._wind_model is not None:   # once per step: the wind the next step holds through its stages
            self._wind_model.sample(self.t, self._y, self.dt, self._wind)
        if self.instruments or self.failures.scheduled:
            self._instruments()
        for follow in self.followers:
            follow()
        return self.status is None

    def _before_step(self):
        """What a step does first: the failures due, the autopilot's controls, the controls copied in."""
        failed = self.failures.active
        if failed:
            if "electrical" in failed and self.autopilot.engaged:
                self.autopilot.disconnect("electrical failure")
            self.failures.airplane(self.t)
        if self.autopilot.engaged:
            self.autopilot.fly(self)
        self._load_controls()

    def begin_step(self, advance=True):
        """Run now what the next :meth:`step` runs before it integrates (the failures, the autopilot, the
        controls copied in, and a JSBSim aircraft's once-a-step models: its flight controls, auxiliary values and
        engines at the state now, :func:`flightsim.physics.aero.step_start`); that step then integrates only.

        JSBSim's frame (``FGFDMExec::Run``) runs its script *before* its models, so a script reads the flight
        controls' outputs the models computed in the last frame, on the last frame's state; a caller that runs a
        script between :meth:`begin_step` and :meth:`step` reads them as JSBSim's does.  What it changes in
        between (the controls, the aircraft's properties) reaches the step after (a state set or reset in
        between: the step runs its start again).  Nothing if the flight has stopped or the step is begun already.

        ``advance`` False: the models run on a copy of their state, so that nothing of them moves (JSBSim's
        ``RunIC``, no time passing); only the loads they hold through the step (the engines', the external
        forces) are kept for it.
        """
        if self.status is not None or self._begun:
            return
        self._before_step()
        gas = self._params.jsb_on and self._params.jsb_gas.shape[0] > 0
        if self._fuel is not None and (advance or not gas):     # (gas cells: RunIC's balance, _run_ic_gas)
            self._mass_balance()
        y = self._y if self._eci is None else self._eci
        if advance:
            start_fields(y, self.t, self.dt, self._param_fields)
            if self._fuel is not None and not self._settled:
                self._fuel.consume(self._params.jsb_props, self.dt)
            self._settled = False
        elif self._params.jsb_on:
            scratch = tuple(f.copy() if isinstance(f, np.ndarray) else f for f in self._param_fields)
            start_fields(y.copy(), self.t, self.dt, scratch)
            self._params.jsb_held[:] = aero.LoadParams(*scratch).jsb_held
            if gas and self._fuel is not None:
                self._run_ic_gas(y, scratch)
        self._begun = True

    def _run_ic_gas(self, y, scratch):
        """The gas cells through the second of ``FGFDMExec::RunIC``'s two frames with no time passing, on the
        flight's own properties, as JSBSim's move there (the first, ``Initialize``'s ``Run``, is the start's settle,
        :func:`flightsim.physics.aero.settle`, whose cells ran for 0 s from the loaded ones): their moment and
        inertia now known, the frame's mass balance — its CG's move nudging an aircraft on the ground (its
        contacts' weight found by the start's loads on the copy ``scratch`` the other models ran on) — and cells,
        given what the frame's flight controls and functions computed on the copy (the cells' heat, blowers and
        valves, the point masses' weights and locations); their loads replace, in the first step's held loads,
        those found on the copy."""
        from flightsim.physics.jsbsim import loads as L
        from flightsim.physics.jsbsim.buoyancy import run_ic_frame

        copy = aero.LoadParams(*scratch)
        aero.loads_fields(self.t, y.copy(), scratch)            # (FGGroundReactions in RunIC's first frame)
        wow = bool(np.any(copy.jsb_last[self._wow_index] != 0.0))
        props, s, last, st = self._params.jsb_props, copy.jsb_scalars, copy.jsb_last, copy.jsb_state_slots
        gas, loads = s[L.J_GAS_SLOTS:L.J_LOAD_SLOTS], s[L.J_LOAD_SLOTS:L.J_LOAD_SLOTS + 9]
        k = L.L_ATMOSPHERE
        attitude = [copy.jsb_props[int(st[j])] for j in (L.ST_PHI, L.ST_THETA, L.ST_PSI)]
        found = np.array([copy.jsb_props[int(j)] for j in loads[:6]])
        out = np.zeros(6)
        # (what this frame's flight controls and functions, run on the copy, give the mass balance and the cells)
        system = self._fuel.system
        for slots in (self.aircraft.jsbsim.buoyancy.input_slots, system.mass_slots, system.location_slots.ravel()):
            props[slots] = copy.jsb_props[slots]
        self._mass_balance(wow=wow)
        run_ic_frame(props, self._params.jsb_gas, gas, loads, last[k + 2], last[k + 3], last[k + 4], copy.planet,
                     self._params.gravity, *attitude, out)
        self._params.jsb_held[:] += out - found

    def _instruments(self):
        """After a step: the scheduled failures due now, and what the instruments show."""
        y = self._y
        if self.failures.scheduled:
            ground = 0.0 if self._terrain is None else terrain_height(self._terrain, float(y[0]), float(y[1]))[0]
            self.failures.trigger(self.t, float(y[2]) - self.aircraft.contact_height - ground)
        if not self.instruments:
            return
        air = y[3:6] - self._wind[:3]
        attitude = None
        if "vacuum" in self.failures.active:
            attitude = quat.aviation_angles(y[6:10])
        self.gauges.update(self.t, float(y[2]), math.sqrt(float(air @ air)), float(self._diag[aero.D_RHO]),
                           attitude)

    def _load_controls(self):
        """Copy the pilot's controls through the controls boundary (:func:`~flightsim.simulation.controls.flown_row`:
        NaN refused, the elevator trimmed, each value clipped to its range) into the loads' parameters.

        Skipped while the controls hold the values last copied (a NaN never equals itself, so it is always
        checked).
        """
        c = self.controls
        if self.failures.active:
            self._controls_array[:] = self.failures.controls(flown_row(c), self.t, c.elevator, c.elevator_trim)
            self._flown_key = None
            return
        key = _CONTROL_VALUES(c)
        if key != self._flown_key:
            self._controls_array[:] = flown_row(c)
            self._flown_key = key

    def advance(self, frame_seconds):
        """Run the steps a frame of ``frame_seconds`` of wall time calls for.

        The frame time is clamped to [0, :data:`MAX_FRAME`], scaled by
        :attr:`time_scale` and added to the accumulator; whole steps are
        taken while it holds ``dt``.  Nothing happens while paused or stopped.

        Returns
        -------
        int
            Steps taken.
        """
        if self.paused or self.status is not None:
            return 0
        return self._clock.run(frame_seconds, self.time_scale, self.step)

    @property
    def alpha(self):
        """Fraction of a step left in the accumulator, in [0, 1): the render blend factor."""
        return self._clock.alpha

    def render_pose(self):
        """Position and orientation to draw, between the previous and the current state.

        Position is interpolated linearly; orientation by a hemisphere-checked nlerp.
        """
        a = self.alpha
        pos = self._prev[0:3] + a * (self._y[0:3] - self._prev[0:3])
        return pos, quat.nlerp(self._prev[6:10], self._y[6:10], a)

    # ------------------------------------------------------------------ ground

    def _evaluate_loads(self):
        """Evaluate the loads at the current state (fills the loads' ``diag`` and ``gear_diag``); return them."""
        self._load_controls()
        return aero.loads_fields(self.t, self._y, self._view_fields)

    def _contact_now(self):
        """Ground contact of the state just loaded (a reset, a whole state): no touchdown, no crash check.

        The braked wheels start holding where they are (if at rest).
        """
        self._load_controls()
        self._params.gear_anchor[:] = 0.0
        if self._clear_of_ground():
            # clear of the ground: the loads alone, as the contact would evaluate them (no wheel to hold); and
            # an air start compiles no ground contact
            aero.loads_fields(self.t, self._y, self._view_fields)
            self._wheels_down_flag[0] = self._on_ground_flag[0] = False
            return
        touching, loaded, _ = ground_contact(self.t, self._y, self._view_fields, self._travel)
        self._wheels_down_flag[0], self._on_ground_flag[0] = touching, loaded

    def _ground(self):
        """After a step: which wheels carry load, and a crash (touchdown too fast, a hard point, a leg's travel).

        The batch's compiled check (:func:`~flightsim.physics.ground.ground_after_step`); the height test
        first, so a flight far above the ground does not pay for a call.
        """
        if not self._wheels_down_flag[0] and self._clear_of_ground():
            self._on_ground_flag[0] = False
            return
        if self.crashes and self._gear_up_landing():
            return
        g = self._gear
        code = ground_after_step_fields(self._y, self._prev, self.t, self._view_fields, self._wheels_down_flag,
                                        self._on_ground_flag, 0, g.travel, g.wheels_only, g.sink_rate)
        if code != GROUND_OK and self.crashes:
            self._crash(g.limits(code), code == GROUND_SINK_CRASH)

    def _gear_up_landing(self):
        """A wheel of a gear that retracts touching the ground while the gear is not down and locked
        (``gear/gear-pos-norm`` below :data:`GEAR_LOCKED`, FGLGear's 0.99): the flight ends as a gear-up landing.
        JSBSim makes such a wheel no contact at all; the files give no shape of the belly, so the belly is taken
        to meet the ground where the wheels would (a strut's length early), and the landing is a crash.  True when
        it ended so."""
        position = self.gear_position
        if position is None or position >= GEAR_LOCKED:
            return False
        retracting = np.array(self.aircraft.jsbsim.retracting_gear, dtype=bool)
        depth = contact_depths(self.aircraft, self._y, self._terrain)
        touching = retracting & (depth > 0.0)
        if not touching.any():
            return False
        limits = np.where(retracting, 0.0, np.inf)
        sink = float(-self._prev[5])
        y, message = crash(self.aircraft, self._prev, self._y, self.t, self.dt, limits, False, self._terrain)
        when = message.split(": ", 1)[0]
        how = "up" if position <= GEAR_UP else "not down and locked"
        what = ("the gear retracted on the ground: the belly fell onto it" if self._wheels_down_flag[0]
                else "gear-up landing: the belly hit the ground")
        self.status = (f"{when}: {what} at {np.linalg.norm(self._prev[3:6]):.0f} ft/s (sink rate {sink:.1f} ft/s) "
                       f"with the gear {how} (gear/gear-pos-norm {position:.2f})")
        self._y[:] = y
        self._prev[:] = y
        self._to_eci()
        self._contact_now()
        return True

    def _clear_of_ground(self):
        """Whether the airplane is surely clear of the ground (the plane z = 0, or the terrain's surface)."""
        if self._terrain is None:
            return self._y[2] > self._params.gear_reach
        return terrain_clearance_bound(self._terrain, float(self._y[0]), float(self._y[1]), float(self._y[2]),
                                       self._params.gear_reach)

    def _crash(self, limits, sink_crash):
        """Stop the flight: the airplane put at rest where the contact happened, the status saying what happened."""
        y, self.status = crash(self.aircraft, self._prev, self._y, self.t, self.dt, limits, sink_crash, self._terrain)
        self._y[:] = y
        self._prev[:] = y
        self._to_eci()
        self._contact_now()

    # ------------------------------------------------------------------ trim

    def trim_now(self):
        """Trim for level flight at the current airspeed, altitude and heading, and fly on from there.

        The airplane is put in that steady flight where it is (same position and
        heading, wings level, no rotation), the throttle set and the elevator
        trimmed to hold it with the stick centred; aileron and rudder take the
        trim's values.

        Returns
        -------
        flightsim.physics.trim.TrimPoint

        Raises
        ------
        flightsim.physics.trim.TrimError
            No level flight at this speed and altitude (the message says why), or
            a wheel is on the ground; nothing changes.
        """
        if self._wheels_down:
            raise TrimError("cannot trim on the ground: a steady flight needs the wheels off it", "no solution")
        y = self._y
        heading = float(quat.aviation_angles(y[6:10])[2])
        wind = self._wind[:3].copy()
        point = solve_trim(self.aircraft, float(np.linalg.norm(y[3:6] - wind)), float(y[2]), 0.0,
                           min(max(self.controls.flaps, 0.0), 1.0), heading, atmosphere=self.atmosphere,
                           report_range=False, gear=1.0 if self.controls.gear >= 0.5 else 0.0)
        state = point.state_at(y[0], y[1])
        state[3:6] += wind   # steady flight relative to the air
        self.set_state(FlightState.from_vector(self.t, state))
        c = self.controls
        c.throttle, c.aileron, c.rudder = point.throttle, point.aileron, point.rudder
        c.elevator, c.elevator_trim = 0.0, point.elevator
        return point

    # ------------------------------------------------------------------ instruments

    def telemetry(self):
        """A :class:`Telemetry` of the current state (evaluates the loads once, for the stall flag and the gear)."""
        y = self._y
        self._evaluate_loads()
        wind = self._wind[:3]
        roll, pitch, heading, airspeed, alpha = instruments(y, wind)
        engines, mach = ((), 0.0) if self.aircraft.jsbsim is None else self.aircraft.jsbsim.gauges(
            self._params.jsb_props)
        lat, lon, alt_msl = self.geodetic
        return Telemetry(
            t=self.t,
            roll=roll,
            pitch=pitch,
            heading=heading,
            airspeed=airspeed,
            altitude=float(y[2] - self.aircraft.contact_height),
            vertical_speed=float(y[5]),
            alpha=alpha,
            stall=bool(self._diag[aero.D_STALL]),
            qnorm_error=float(self.qnorm_error),
            step_us=1e6 * self._step_seconds,
            throttle=float(self._controls_array[aero.C_THROTTLE]),
            thrust=float(self._diag[aero.D_THRUST]),
            rpm=float(self._diag[aero.D_RPM]),
            indicated_airspeed=indicated(airspeed, float(self._diag[aero.D_RHO])),
            on_ground=self.on_ground,
            integrator=self.integrator,
            groundspeed=float(math.hypot(y[3], y[4])),
            gear=gear_legs(self.aircraft, self._params),
            wind=tuple(float(w) for w in wind),
            turbulence="none" if self.wind_spec is None else self.wind_spec.turbulence,
            beta=sideslip(y, wind),
            mach=mach,
            engines=engines,
            unconverged=bool(self._diag[aero.D_UNCONVERGED]) and self.integrator == "midpoint",
            lat=lat, lon=lon, alt_msl=alt_msl, planet=self.planet.name,
            gear_position=self.gear_position,
            gauges=self.gauges.readings(roll, pitch, heading),
            failures=tuple(k for k in KINDS if k in self.failures.active),
        )

    @property
    def gear_position(self):
        """Where a gear that retracts is now (a JSBSim aircraft's ``gear/gear-pos-norm``: 1 down, 0 up), or None
        for fixed gear (:func:`~flightsim.simulation.starts.retracts`)."""
        model = self.aircraft.jsbsim
        if model is None or not model.retractable:
            return None
        return float(self._params.jsb_props[model.gear_position_slot])

    @property
    def air_density(self):
        """The air's density at the last loads evaluation, slug/ft³."""
        return float(self._diag[aero.D_RHO])

    @property
    def gravity(self):
        """The aircraft's gravity, ft/s²: on a round planet the effective gravity at the earth frame's origin
        (:func:`flightsim.physics.planet.effective_gravity`)."""
        return float(self._params.gravity)

    @property
    def rpm(self):
        """Engine speed at the last loads evaluation, rev/min (0 for an airplane with a constant thrust)."""
        return float(self._diag[aero.D_RPM])

    def hold_wind(self, wind):
        """Hold ``wind`` (6 numbers, as :attr:`wind`) through the next steps: for a flight with no wind of its own.

        A flight with a wind (``wind=`` given) samples its own after every step
        and overwrites this.
        """
        self._wind[:] = np.asarray(wind, dtype=np.float64).reshape(6)

    @property
    def wind(self):
        """The wind the next step holds: ``[wx, wy, wz]`` earth ft/s and ``[p_g, q_g, r_g]`` body rad/s (a copy)."""
        return self._wind.copy()

    def gear_compressions(self):
        """How far each contact point is pressed into the ground now, ft (in the aircraft file's order)."""
        return np.maximum(contact_depths(self.aircraft, self._y, self._terrain), 0.0)

    def surface_deflections(self):
        """Per element: ``[flap setting −1..1 (+1 trailing edge up), incidence change deg]``; for a JSBSim
        aircraft per surface of :data:`flightsim.physics.jsbsim.model.SURFACES` ``[position deg (JSBSim's
        signs), 0]``."""
        self._load_controls()
        return deflections(self._params, self._controls_array, self.aircraft)

    def loads(self):
        """The loads on the airplane now, with the current controls.

        Returns
        -------
        numpy.ndarray
            ``[ax, ay, az, mx, my, mz]``: the earth-frame acceleration of the
            CG (ft/s², gravity included) and the body-frame moment about the
            CG (ft·lbf).
        """
        self._load_controls()
        return np.array(aero.loads_fields(self.t, self._y, self._view_fields))


#: Where the mass is among :class:`~flightsim.physics.aero.LoadParams`' fields.
_MASS_FIELD = aero.LoadParams._fields.index("mass")
#: The loads' fields :meth:`Simulation.jsbsim_auxiliary_values` replaces.
_PROPS_FIELD, _LAST_FIELD, _AUX_SLOTS_FIELD = (aero.LoadParams._fields.index(k) for k in (
    "jsb_props", "jsb_last", "jsb_aux_slots"))


@functools.cache
def _auxiliary_kernel():
    """The JSBSim aircraft's ``FGAuxiliary`` names and their compiled computation (imported at the first read:
    :meth:`Simulation.jsbsim_auxiliary_values`)."""
    from flightsim.physics.jsbsim.auxiliary import AUXILIARY
    from flightsim.physics.jsbsim.loads import _auxiliary_at

    return AUXILIARY, _auxiliary_at


def _wow_index(contacts):
    """Where each of ``contacts`` JSBSim contacts keeps its weight on wheels in ``jsb_last``: a slice (one field
    in each contact's equal block)."""
    from flightsim.physics.jsbsim import ground_reactions as G
    from flightsim.physics.jsbsim.loads import LAST_FIELDS

    start = LAST_FIELDS + G.S_WOW
    return slice(start, start + contacts * G.CONTACT_FIELDS, G.CONTACT_FIELDS)


def _fuel_flight(aircraft, flat, inertia, inertia_inv):
    """A JSBSim ``aircraft``'s :class:`~flightsim.physics.jsbsim.fuel.FuelFlight` over this flight's own copies of
    the loads' arrays that hold lever arms (put into ``flat``, returned with it) and its integrator's ``inertia``
    and ``inertia_inv``; ``(None, flat)`` for flightsim's own aircraft."""
    model = aircraft.jsbsim
    if model is None or model.fuel is None:
        return None, flat
    from flightsim.physics.jsbsim import ground_reactions as G
    from flightsim.physics.jsbsim import loads as L
    from flightsim.physics.jsbsim.fuel import FuelFlight
    from flightsim.physics.jsbsim.propeller import PR_X
    from flightsim.physics.jsbsim.rocket import R_STARVED
    from flightsim.physics.jsbsim.turbine import E_X

    flat = flat._replace(jsb_scalars=flat.jsb_scalars.copy(), jsb_turbines=flat.jsb_turbines.copy(),
                         jsb_propellers=flat.jsb_propellers.copy(), jsb_external=flat.jsb_external.copy())
    columns = {"scalars": (L.J_RP, L.J_EYE), "engines": E_X, "propellers": PR_X,
               "external": flat.jsb_external.shape[1] - 3, "contacts": G.C_X, "inertia": L.J_INERTIA,
               "starved": R_STARVED}
    return FuelFlight(model.fuel, model.mass.cg, flat.jsb_scalars, flat.jsb_turbines, flat.jsb_propellers,
                      flat.jsb_external, flat.jsb_contacts, inertia, inertia_inv, columns), flat


def _state_vector(state):
    """The 13-number vector ``[x, v, q, ω]`` of a :class:`FlightState`, unchanged; ValueError if it cannot fly."""
    y = np.concatenate([np.asarray(state.position, dtype=np.float64).reshape(3),
                        np.asarray(state.velocity, dtype=np.float64).reshape(3),
                        np.asarray(state.q, dtype=np.float64).reshape(4),
                        np.asarray(state.omega, dtype=np.float64).reshape(3)])
    if not math.isfinite(state.t):
        raise ValueError(f"state at t = {state.t}: not finite")
    divergence.check_state(y, f"state at t = {state.t}")
    return y

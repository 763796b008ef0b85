"""The airplane as data: the frozen dataclasses describing an aircraft and its parts.

An aircraft file (TOML, see ``configs/bourg.toml``) describes the airplane of
Bourg, *Physics for Game Developers* (chapters 7 and 15) as a set of
elements, each a small lifting surface or body with its own mass, design
position, local inertia, geometry and coefficient table, with its landing
gear, propulsion and optional masses.  This module is the data model: an
:class:`Aircraft` and its :class:`Element`, :class:`Table`,
:class:`ControlLink`, :class:`Contact`, :class:`Mass` and :class:`Propeller`,
and the values their fields may take.  Reading and checking a file, and the
quantities derived at load (mass properties, positions relative to the CG, a
propeller's static thrust), are :mod:`flightsim.physics.aircraft_file`.

Units are English throughout: ft, slug, lbf, degrees for angles stored in the
file, s.  Frames: earth x North, y West, z up; body x forward, y left, z up;
design coordinates are body axes with their origin at a reference point at the
tail.

:func:`load_aircraft`, :func:`mass_properties`, :data:`CONFIG_DIR`,
:data:`DEFAULT_AIRCRAFT`, :func:`aircraft_path` and :func:`shipped_aircraft`
are importable from here as before: they live in
:mod:`~flightsim.physics.aircraft_file`, which imports this module, and are
looked up there when first asked for (a module ``__getattr__``), so either
module may be imported first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from flightsim.physics.constants import HP, NAUTICAL_MILE  # noqa: F401 (HP: importable from here as before)
from flightsim.physics.wind import WindSpec

if TYPE_CHECKING:
    # For the checkers only: at run time these come from the module ``__getattr__`` below, when
    # first asked for (aircraft_file imports this module, so it cannot be imported here).
    from flightsim.physics.aircraft_file import (
        CONFIG_DIR,
        DEFAULT_AIRCRAFT,
        aircraft_path,
        load_aircraft,
        mass_properties,
        shipped_aircraft,
    )

__all__ = [
    "CONFIG_DIR",
    "DEFAULT_AIRCRAFT",
    "LINK_INPUTS",
    "PARTS",
    "TABLE_KINDS",
    "UNITS",
    "GEAR_KINDS",
    "Aircraft",
    "Contact",
    "ControlLink",
    "Element",
    "GroundEffect",
    "Mass",
    "Propeller",
    "Table",
    "aircraft_path",
    "load_aircraft",
    "mass_properties",
    "shipped_aircraft",
    "with_loading",
]

UNITS = {"length": "ft", "mass": "slug", "force": "lbf", "angle": "deg"}
"""The only units an aircraft file may declare (for now)."""

PARTS = ("wing", "tailplane", "fin", "fuselage")
"""Allowed ``part`` values of an element (they tell the renderer what to draw)."""

LINK_INPUTS = ("elevator", "aileron", "rudder", "flaps")
"""Pilot inputs a control link may follow (see :mod:`flightsim.simulation.controls`)."""

TABLE_KINDS = ("lifting", "symmetric", "drag")
"""Kinds of coefficient table."""

GEAR_KINDS = ("wheel", "hard_point")
"""Kinds of ground contact point: a wheel on a sprung leg, or a hard point of the structure (touching is a crash)."""

PROPULSION_KINDS = ("thrust", "propeller")
"""``[propulsion] kind``: a constant thrust per throttle (the book's), or an engine turning a propeller."""

AIRSPEED_UNITS = {"ft/s": 1.0, "kt": 3600.0 / NAUTICAL_MILE}
"""``[instruments] airspeed``: the unit the airspeed indicator reads, and ft/s → that unit."""


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ControlLink:
    """How an element follows one pilot input.

    Parameters
    ----------
    input : str
        One of :data:`LINK_INPUTS`.
    gain : float
        For a flap link, the flap setting is ``gain * input`` (+1 selects the
        trailing-edge-up table, -1 the trailing-edge-down table).  For an
        incidence link, the incidence change in degrees is ``gain * input``.
    """

    input: str
    gain: float


@dataclass(frozen=True, eq=False)
class Table:
    """Aerodynamic coefficients of one element as a function of angle of attack.

    Arrays are float64 and read-only.

    Parameters
    ----------
    name : str
        Key of the table in the file (``[tables.NAME]``).
    kind : str
        ``"lifting"`` (wings, elevators), ``"symmetric"`` (the rudder: ``alpha``
        holds breakpoints of ``|alpha|``, CL is negated for alpha < 0) or
        ``"drag"`` (the fuselage: a constant drag coefficient only).
    alpha : numpy.ndarray
        Breakpoints in degrees, strictly increasing; empty for ``"drag"``.
    cl, cd : numpy.ndarray
        Coefficients with the flap neutral, one per breakpoint.  For
        ``"drag"``: ``cl`` is empty and ``cd`` has shape (1,).
    cl_te_down, cl_te_up, cd_te_down, cd_te_up : numpy.ndarray or None
        Lifting tables only: flap setting -1 (trailing edge down) and +1
        (trailing edge up).  ``None`` for the other kinds.
    outside_cl, outside_cd : float
        Coefficients outside the breakpoints (the book's stalled 0 and 0.75).
        For ``"drag"`` they are 0 and the constant drag coefficient.
    """

    name: str
    kind: str
    alpha: np.ndarray
    cl: np.ndarray
    cd: np.ndarray
    cl_te_down: np.ndarray | None
    cl_te_up: np.ndarray | None
    cd_te_down: np.ndarray | None
    cd_te_up: np.ndarray | None
    outside_cl: float
    outside_cd: float


@dataclass(frozen=True, eq=False)
class Element:
    """One lift/drag element of the airplane (Bourg ch. 7).

    Arrays are float64, shape (3,), read-only.

    Parameters
    ----------
    name : str
        Unique name, e.g. ``"left outboard wing"``.
    part : str
        One of :data:`PARTS`.
    mass : float
        Mass in slug, > 0.
    design_position : numpy.ndarray
        Position of the element's centre in design coordinates, ft (body axes
        x forward, y left, z up; origin at the reference point at the tail).
    local_inertia : numpy.ndarray
        Moments of inertia (Ixx, Iyy, Izz) about the element's own centre,
        body axes, slug*ft^2.
    incidence_deg, dihedral_deg : float
        Incidence and dihedral, degrees (they orient the surface normal).
    area : float
        Reference area, ft^2, > 0.
    table : str
        Name of the element's :class:`Table`.
    flap : ControlLink or None
        The input moving the element's flap, if any.
    incidence_control : ControlLink or None
        The input turning the whole element (the book's rudder), if any.
    position : numpy.ndarray
        Position relative to the centre of gravity, body frame, ft
        (``design_position - Aircraft.cg``).
    """

    name: str
    part: str
    mass: float
    design_position: np.ndarray
    local_inertia: np.ndarray
    incidence_deg: float
    dihedral_deg: float
    area: float
    table: str
    flap: ControlLink | None
    incidence_control: ControlLink | None
    position: np.ndarray


@dataclass(frozen=True, eq=False)
class Contact:
    """A point of the airplane that can touch the ground: a wheel on a sprung leg, or a hard point.

    A wheel's leg is a spring and a damper: pressed ``c`` ft into the
    ground at ``dc/dt`` ft/s it pushes with ``stiffness * c + damping *
    dc/dt`` lbf (never pulls), and the tyre rubs along and across its
    heading with the friction coefficients below (see
    :func:`flightsim.physics.gear.gear_loads`).  A hard point (a wing tip,
    the nose, the tail) has the same spring, damper and ``static_friction``;
    touching the ground with it is a crash.

    Arrays are float64, shape (3,), read-only.

    Parameters
    ----------
    name : str
        Unique among the contact points, e.g. ``"nose wheel"``.
    kind : str
        ``"wheel"`` or ``"hard_point"`` (:data:`GEAR_KINDS`).
    design_position : numpy.ndarray
        Design coordinates, ft (as the elements'): a wheel's lowest point
        with its leg fully extended, or the hard point.
    stiffness : float
        Spring rate, lbf/ft (> 0).
    damping : float
        Damper rate, lbf*s/ft (>= 0).
    static_friction : float
        Coefficient of friction of a tyre across its heading (side force), or
        of a hard point in any direction; also the most friction a wheel can
        make in all (the friction circle).
    rolling_friction : float
        Coefficient of rolling friction along a wheel's heading, brakes off
        (0 for a hard point).
    brake_friction : float
        Coefficient of friction along a wheel's heading with the brake full
        on (0: no brake on this wheel).
    steering_deg : float
        Largest steering angle, deg, reached at full rudder (rudder +1 turns
        the wheel to the right); 0 for a wheel that does not steer.
    max_compression : float
        A wheel's leg travel, ft: compressing it further is a crash (0 for a
        hard point: any touch is one).
    position : numpy.ndarray
        Relative to the centre of gravity, body frame, ft
        (``design_position - Aircraft.cg``).
    """

    name: str
    kind: str
    design_position: np.ndarray
    stiffness: float
    damping: float
    static_friction: float
    rolling_friction: float
    brake_friction: float
    steering_deg: float
    max_compression: float
    position: np.ndarray

    @property
    def is_wheel(self):
        """True for a wheel, False for a hard point."""
        return self.kind == "wheel"


@dataclass(frozen=True, eq=False)
class Mass:
    """A mass that is not an aerodynamic element: an engine, fuel, people, baggage (``[[masses]]``).

    Parameters
    ----------
    name : str
        Unique among the masses.
    mass : float
        slug.
    design_position : numpy.ndarray
        Design coordinates of its centre, ft (as the elements').
    local_inertia : numpy.ndarray
        (Ixx, Iyy, Izz) about its own centre, body axes, slug*ft^2.
    """

    name: str
    mass: float
    design_position: np.ndarray
    local_inertia: np.ndarray


@dataclass(frozen=True, eq=False)
class Propeller:
    """An engine turning a fixed-pitch propeller (``[propulsion] kind = "propeller"``).

    See :func:`flightsim.physics.aero.propeller` for how thrust and speed follow.

    Parameters
    ----------
    max_power : float
        Engine power at ``rated_rpm``, full throttle, standard sea level, ft·lbf/s
        (the file gives hp).
    rated_rpm : float
        The engine speed of ``max_power``, rev/min.
    idle_power : float
        The throttle's air flow at idle (closed), a fraction of the engine's rated-speed flow (see
        :func:`flightsim.physics.aero.propeller`).
    diameter : float
        Propeller diameter, ft.
    advance_ratio, thrust_coefficient, power_coefficient : numpy.ndarray
        The propeller's table: J = V/(nD) from 0, strictly increasing; C_T =
        T/(ρ n² D⁴); C_P = P/(ρ n³ D⁵), positive at J = 0 and not rising with J
        (negative where the air drives the propeller: windmilling).
    displacement : float
        The engine's swept volume, ft³ (the file gives in³); 0: no friction or pumping loss.
    static_thrust : float
        Thrust at full throttle, at rest, standard sea level, lbf; derived.
    static_rpm : float
        The engine's speed then, rev/min; derived.
    """

    max_power: float
    rated_rpm: float
    idle_power: float
    diameter: float
    advance_ratio: np.ndarray
    thrust_coefficient: np.ndarray
    power_coefficient: np.ndarray
    displacement: float
    static_thrust: float
    static_rpm: float


@dataclass(frozen=True)
class GroundEffect:
    """How the ground changes a wing's lift and induced drag near it (``[ground_effect]``), after McCormick,
    *Aerodynamics, Aeronautics and Flight Mechanics* (1979), ch. 4: the induced drag is multiplied by
    ``φ = (16 h/b)² / (1 + (16 h/b)²)`` (h the element's height above the ground, b the span) and the lift
    slope grows as the induced angle shrinks by the same factor, ``a = a₀ / (1 + φ a₀ (1 + τ) / (π A))``.

    Parameters
    ----------
    span : float
        The wing's span b, ft.
    aspect_ratio : float
        A = b² / S.
    span_efficiency : float
        e of the induced drag ``C_L² / (π e A)`` the elements' tables hold.
    lift_slope : float
        The section's lift slope a₀, per degree.
    tau : float
        Helmbold/Glauert's τ of the finite wing's lift slope.
    elements : tuple of int
        The elements (their indices in :attr:`Aircraft.elements`) that feel it: the wing's.
    """

    span: float
    aspect_ratio: float
    span_efficiency: float
    lift_slope: float
    tau: float
    elements: tuple


@dataclass(frozen=True, eq=False)
class Aircraft:
    """A validated airplane with its mass properties (Bourg ch. 7 and 15).

    Arrays are float64 and read-only; copy them (``np.array(a)``) to modify.

    Parameters
    ----------
    name : str
        Display name.
    source : pathlib.Path
        The file it was loaded from.
    elements : tuple of Element
        The elements in file order.
    tables : dict of str to Table
        Coefficient tables by name.
    air_density : float
        slug/ft^3.
    gravity : float
        Magnitude of the gravitational acceleration, ft/s^2 (> 0; it acts
        along earth -z).
    max_thrust : float
        lbf; thrust = throttle * max_thrust along body +x.  With a
        propeller: its static thrust at full throttle, standard sea level
        (thrust then falls with airspeed and altitude).
    initial_throttle : float
        0..1.
    initial_position : numpy.ndarray
        Earth frame, ft (x North, y West, z up).
    initial_velocity : numpy.ndarray
        Earth frame, ft/s.
    initial_attitude_deg : numpy.ndarray
        (roll, pitch, heading) in degrees with pilot signs: roll right wing
        down +, pitch nose up +, heading clockwise from North.
    initial_omega : numpy.ndarray
        Angular velocity, body frame, rad/s.
    cruise_speed : float or None
        Airspeed of the trimmed level flight ``flightsim fly`` starts in, ft/s
        (``[initial] cruise_speed``, optional).
    approach_speed : float or None
        Airspeed of the ``approach`` start's 3° glide, flaps down, ft/s
        (``[initial] approach_speed``, optional).
    crash_sink_rate : float
        Touch-down sink rate above which the landing is a crash, ft/s.
    gear : tuple of Contact
        The ground contact points (``[[gear]]``), wheels and hard points, in
        file order.
    contact_height : float
        Height of the CG above the ground when the lowest wheel (the lowest
        contact point if there is no wheel) touches, legs extended, the
        airplane level, ft (derived from :attr:`gear`; the altimeter reads
        the CG's height less this).
    mass : float
        Total mass, slug.
    cg : numpy.ndarray
        Centre of gravity in design coordinates, ft.
    inertia : numpy.ndarray
        Inertia tensor about the CG, body frame, slug*ft^2, shape (3, 3).
    inertia_inv : numpy.ndarray
        Its inverse, shape (3, 3).
    propeller : Propeller or None
        The engine and propeller; None for a constant thrust (the book's).
    masses : tuple of Mass
        The masses besides the elements (``[[masses]]``; included in
        :attr:`mass`, :attr:`cg` and :attr:`inertia`).
    model : pathlib.Path or None
        The airplane model file (how the app draws it), from the file's
        ``model`` key: a file name in the shipped ``assets/models`` or a path
        relative to the aircraft file; None: the default model.
    airspeed_unit : str
        What the airspeed indicator reads (:data:`AIRSPEED_UNITS`):
        ``"ft/s"`` (true airspeed, the default) or ``"kt"`` (indicated).
    wind : flightsim.physics.wind.WindSpec or None
        The file's optional ``[wind]`` section (see
        :func:`~flightsim.physics.wind.load_wind_section`); the command line's
        wind options win over it.
    ground_effect : GroundEffect or None
        The file's optional ``[ground_effect]``: which elements feel the ground, and the wing they belong to.
    jsbsim : flightsim.physics.jsbsim.model.JSBSimModel or None
        A JSBSim aircraft's compiled blocks (its loads come from them, not from
        :attr:`elements`); None for flightsim's own aircraft files.
    planet : flightsim.physics.planet.Planet or None
        A JSBSim aircraft file's ``<planet>`` (what a round-planet flight flies on); None where the file has none,
        and for flightsim's own aircraft files.
    atmosphere : {"constant", "isa"}
        The air its figures assume, what a flight flies in unless told otherwise (:func:`atmosphere_of`): the
        file's top-level ``atmosphere`` (``"constant"``, :attr:`air_density` at every height, when absent);
        ``"isa"`` for a JSBSim aircraft (JSBSim's standard atmosphere).
    """

    name: str
    source: Path
    elements: tuple[Element, ...]
    tables: dict[str, Table]
    air_density: float
    gravity: float
    max_thrust: float
    initial_throttle: float
    initial_position: np.ndarray
    initial_velocity: np.ndarray
    initial_attitude_deg: np.ndarray
    initial_omega: np.ndarray
    cruise_speed: float | None
    approach_speed: float | None
    crash_sink_rate: float
    gear: tuple[Contact, ...]
    contact_height: float
    mass: float
    cg: np.ndarray
    inertia: np.ndarray
    inertia_inv: np.ndarray
    propeller: Propeller | None = None
    masses: tuple[Mass, ...] = ()
    model: Path | None = None
    airspeed_unit: str = "ft/s"
    wind: WindSpec | None = None
    ground_effect: GroundEffect | None = None
    jsbsim: object | None = None
    planet: object | None = None
    atmosphere: str = "constant"


#: The airs a flight may fly in: the aircraft file's constant density, or the standard atmosphere.
ATMOSPHERES = ("constant", "isa")


def atmosphere_of(aircraft, atmosphere=None):
    """The air a flight of ``aircraft`` flies in: ``atmosphere`` where given, else the aircraft's own.

    The one place the default is resolved: every function that takes ``atmosphere=None`` (the simulation, its
    starts, trim, the modes, the autopilot's gains, the commands) asks here.

    Parameters
    ----------
    aircraft : Aircraft
        Its :attr:`Aircraft.atmosphere` (``"constant"`` for the book's airplane, ``"isa"`` for the 172R and the
        JSBSim aircraft) is the default.
    atmosphere : {"constant", "isa"} or None
        An explicit choice wins; None: the aircraft's.

    Returns
    -------
    str
        ``"constant"`` or ``"isa"``.

    Raises
    ------
    ValueError
        For another value (the message names ``atmosphere``).
    """
    chosen = getattr(aircraft, "atmosphere", "constant") if atmosphere is None else atmosphere
    if chosen not in ATMOSPHERES:
        raise ValueError(f"atmosphere: must be 'constant' or 'isa', got {chosen!r}")
    return chosen


def _read_only(a):
    a = np.array(a, dtype=np.float64)
    a.setflags(write=False)
    return a


def with_loading(aircraft, mass=None, cg_shift=0.0):
    """``aircraft`` loaded otherwise: its total ``mass`` (slug; None: its own) and its CG moved ``cg_shift`` ft
    forward along body x.

    The mass added (or taken off) is a point mass at the CG, as JSBSim adds a point mass there: the CG stays
    and the inertia about it is the file's.  A CG shift (a load moved, the weight and balance's arm) moves
    every element's and contact point's position relative to the CG back by ``cg_shift``; the inertia about
    the new CG is taken as the file's (a load moved a few inches changes it by well under 1 %: the parallel-axis
    term of the whole airplane's mass over 0.5 ft is 1.4 % of the 172R's Iyy).  What a
    :class:`~flightsim.simulation.batch.BatchSimulation` airplane flies with
    :meth:`~flightsim.simulation.batch.BatchSimulation.set_loading`.

    Parameters
    ----------
    aircraft : Aircraft
        flightsim's own (a JSBSim aircraft's mass and balance are its file's: ``ValueError``).
    mass : float, optional
        slug, finite and > 0.
    cg_shift : float
        ft, + forward.

    Returns
    -------
    Aircraft
    """
    if aircraft.jsbsim is not None:
        raise ValueError("loading: a JSBSim aircraft's weight and balance are its file's own")
    mass = float(aircraft.mass if mass is None else mass)
    if not (np.isfinite(mass) and mass > 0.0) or not np.isfinite(cg_shift):
        raise ValueError(f"loading: mass must be finite and > 0 and the CG shift finite, got {mass:g}, {cg_shift:g}")
    d = np.array([float(cg_shift), 0.0, 0.0])
    return replace(aircraft, mass=mass, cg=_read_only(aircraft.cg + d),
                   elements=tuple(replace(e, position=_read_only(e.position - d)) for e in aircraft.elements),
                   gear=tuple(replace(c, position=_read_only(c.position - d)) for c in aircraft.gear))


#: Names of :mod:`flightsim.physics.aircraft_file` (reading a file) importable from here.
_FROM_FILE = ("CONFIG_DIR", "DEFAULT_AIRCRAFT", "aircraft_path", "load_aircraft", "mass_properties",
              "shipped_aircraft")


def __getattr__(name):
    """:func:`load_aircraft` and the other names of :data:`_FROM_FILE`, from :mod:`flightsim.physics.aircraft_file`."""
    if name in _FROM_FILE:
        from flightsim.physics import aircraft_file

        return getattr(aircraft_file, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_FROM_FILE])

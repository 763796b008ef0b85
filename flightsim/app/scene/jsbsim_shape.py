"""What a JSBSim aircraft looks like, guessed from its XML: the numbers a drawing of it needs.

A JSBSim aircraft file says nothing about its outer shape; it gives the
aerodynamic references (``<metrics>``: the wing's area, span and mean
chord, the tails' areas and arms, the aerodynamic reference point, the
pilot's eye), the ground contacts (``<ground_reactions>``), the engines'
thrusters (``<propulsion>``) and the mass balance.  :class:`Shape` turns
those into a plausible airframe - a trapezoidal wing, horizontal and
vertical tails, a fuselage, wheels, propellers and nacelles - so that a
glider, a high-wing trainer, a jet and an airliner are told apart at a
glance.  Every number is either read from the file or guessed by a rule
written down here; nothing is per-aircraft.

It is the scene's alone: the physics neither computes nor keeps it.  The app reads it from the loaded
aircraft's file when it builds the airplane's model (:func:`shape_of`).

Frame and units: flightsim's body frame, ft, x forward, y LEFT, z UP,
origin at the centre of gravity as loaded (:attr:`MassBalance.cg
<flightsim.physics.jsbsim.mass.MassBalance.cg>`: empty weight, point
masses and fuel).  A structural point ``r`` (in; x aft, y right, z up) is
``((cg_x - r_x) / 12, (cg_y - r_y) / 12, (r_z - cg_z) / 12)``, i.e.
JSBSim's body vector (X, Y, Z) with Y and Z negated.  Angles in degrees.
Arrays are float64 and read-only.

The rules
---------
*Engines* (:class:`Engine`).  A ``<propeller>`` thruster is a propeller
(its ``<diameter>`` and ``<numblades>`` read from the thruster file); a
``<nozzle>`` or a ``<rocket_engine>`` a rocket; a ``<rotor>`` a rotor (not
drawn).  A ``<direct>`` thruster is a jet, except a propeller in disguise:
a piston, turboprop or electric engine, or a turbine whose thruster sits
within 1 ft of the centreline and 2 ft of the CG's height, ahead of the
pilot's eye (the T-6 Texan II's PT6A is a ``turbine_engine`` with a direct
thruster at its nose).  A propeller without a diameter in its files gets
24 % of the span (4 to 14 ft) and 3 blades.  Mounts
(:attr:`Engine.mount`): 0.6 fuselage heights or more off the centreline a
propeller or jet is on the wing (or, for a jet, on the rear fuselage: see
*Tails*); closer in, a propeller ahead of AERORP is in the nose, anything
else inside the fuselage.  :attr:`Shape.kind` is ``"glider"`` without
engines, ``"jet"`` with any jet or rocket, else ``"prop"``;
:attr:`Shape.role` refines it for the proportions and colours:
``"glider"``; jets are ``"airliner"`` from 40 000 lb with a wing aspect
ratio of 5.5 or more, else ``"fighter"``; propeller aircraft are
``"transport"`` from 12 500 lb, ``"trainer"`` when low-winged with the eye
on the centreline (tandem seats), else ``"light"``.

*Wing* (:class:`Surface`).  Span, area and mean aerodynamic chord ``c``
(``<chord>``) from the metrics.  The taper ratio λ solves ``c / (S/b) = 4/3
(1 + λ + λ²) / (1 + λ)²`` (a trapezoid's MAC over its mean chord) when that
ratio lies in (1.005, 4/3); otherwise (a MAC at or below S/b, as the
737's) a default: 0.3 for swept jets, 0.5 for straight jets and gliders,
0.6 for propeller aircraft.  Quarter-chord sweep: 30° for a fighter, 25°
for an airliner, none for a jet under 20 000 lb with an aspect ratio of 5.5
or more (the T-37, the F-80) nor for any propeller aircraft or glider.  The
MAC's quarter chord is at ``AERORP`` (JSBSim's moment reference, the wing's
aerodynamic centre in practice), which places the root.

*Fuselage* (:class:`Fuselage`).  It ends at 80 % of the fin's root chord
(the rudder overhangs, as on most aircraft).  Its nose is the hub of a
tractor propeller on the centreline; else ``a`` fuselage heights ahead of
the pilot's eye (``a`` = 0.6 airliner/transport, 1.0 light/trainer, 1.4
glider, 1.5 fighter); else 0.9 tail arms ahead of AERORP; never behind a
contact point on the centreline.  Its height is its length over a fineness
ratio (glider 11, light and trainer 6.5, transport and fighter 8.5,
airliner 9.5), and enough for a pilot sitting off the centreline, 2
(|y_eye| + 1.2 ft); its width is its height times 0.7 (glider), 0.85
(light, fighter), 0.8 (trainer) or 1 (transport, airliner).  Its axis is
``k`` heights below the eye (``k`` = 0.45 fighter, 0.3 otherwise; on the
CG without an eye), kept within 0.35 heights of the CG, and raised if need
be so that its belly is at least 1.5 wheel radii above the lowest wheel's
contact point.  An ``EYEPOINT`` is ignored when it is the CG or the
structural origin (the SGS gives both at 0).

*Wing height* (:attr:`Shape.wing_height`), the first rule that decides:
(1) a jet on the wing (see *Engines*) more than 0.1 heights below the axis
hangs under a low wing; (2) contact points at the wing tips (|y| ≥ 0.75
b/2) give the root's height, the tips' less 3° of dihedral (1.5° for a
glider's long wing): more than 0.2 heights above the axis is a high wing,
below by as much a low wing, else mid; (3) ``AERORP`` more than 0.2 heights
above or below the axis; (4) otherwise a glider is high-winged and
anything else low-winged.  (c172p, J3Cub: high by their tip contacts; 737:
low by its engines; SGS: high by AERORP; A4, T-6: low by default.)  The
root then sits 0.46 heights above the axis (high), on it (mid) or 0.38
below (low).  Dihedral: 1.5° high, 3° mid or glider, 5° low, 0° for
fighters.

*Tails*.  The horizontal tail's MAC quarter chord is ``htailarm`` behind
AERORP's (3 mean chords when the file gives none), the fin's ``vtailarm``
behind (the horizontal arm when none).  Missing areas: 18 % (horizontal)
and 13 % (vertical) of the wing's, except for a tailless wing of aspect
ratio below 2.4 (Concorde, the Shuttle), which gets no horizontal tail.
Aspect ratios (span²/area; height²/area for the fin): horizontal 4.5
(props, gliders), 4 (airliners), 3 (fighters); fin 1.5, 1.3, 1.2.  Taper
0.35 for jets, 0.6 otherwise; quarter-chord sweep 30° for a swept-wing
jet's horizontal tail, 35° (jets) or 25° for the fin.  The fin stands 0.2
heights above the axis; the horizontal tail 0.1 heights above it, or on
top of the fin (a T-tail) when jets are mounted on the rear fuselage (off
the fuselage but within 1.2 heights plus half a width of the centreline,
behind the wing root's mid-chord).

*Contacts* (:class:`Contact`).  Every ``<contact>`` in document order;
``gear_index`` counts the ``BOGEY`` ones only (the k-th BOGEY in the file
is ``Aircraft.gear[k]``).  Which BOGEYs are wheels
(:attr:`Contact.is_wheel`), among those inboard of 55 % of the half-span:
the main gear is the lowest of the off-centre ones (|y| > 0.5 ft, less than
30 % of the CG's height above the lowest point) with those within 0.5 ft
above it (or the lowest point, when none is off-centre), and any beside
them (within 0.5 ft in x and z); a contact ahead of the mains less than 5°
above them makes a tricycle (its nose wheels are those; a point behind
needs less than 3°); otherwise the aircraft is a tail-dragger and points
behind the mains less than 20° above them are its tail wheels.  Contacts
all within 0.5 ft of one another (the SGS puts every one at the origin)
are no wheels at all.  Tyres: radius ``0.3 + 0.28 (W / 1000 lb)^(1/3)`` ft.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.jsbsim.mass import MassBalance, Metrics
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path, package_root

__all__ = ["Contact", "Engine", "Fuselage", "Shape", "Surface", "shape_of"]

_IN = 1.0 / 12.0


def _freeze(obj, name):
    """Make ``obj.name`` a read-only float64 array (as :class:`flightsim.physics.aircraft.Aircraft`'s)."""
    a = np.array(getattr(obj, name), dtype=np.float64)
    a.setflags(write=False)
    object.__setattr__(obj, name, a)
_TO_INCHES = {"IN": 1.0, "FT": 12.0, "M": 39.370079, "CM": 0.39370079, "MM": 0.039370079}


@dataclass(frozen=True, eq=False)
class Surface:
    """A trapezoidal lifting surface: the wing, the horizontal tail (both halves) or the fin.

    Attributes
    ----------
    area : float
        Planform area, ft² (both halves of a wing or horizontal tail).
    span : float
        Tip to tip, ft (the fin: its height above its root).
    root_chord, tip_chord : float
        ft.
    sweep_deg : float
        Sweep of the quarter-chord line, degrees (+ tips aft).
    dihedral_deg : float
        Degrees, + tips up (0 for the fin).
    root : numpy.ndarray, shape (3,)
        The root chord's quarter-chord point, body frame, ft (y = 0).
    """

    area: float
    span: float
    root_chord: float
    tip_chord: float
    sweep_deg: float
    dihedral_deg: float
    root: np.ndarray

    def __post_init__(self):
        _freeze(self, "root")

    @property
    def taper(self) -> float:
        """Tip chord over root chord."""
        return self.tip_chord / self.root_chord

    @property
    def aspect_ratio(self) -> float:
        """span² / area (the fin: height² / area)."""
        return self.span ** 2 / self.area

    @property
    def mac(self) -> float:
        """The mean aerodynamic chord, ft: ``2/3 c_r (1 + λ + λ²) / (1 + λ)``."""
        lam = self.taper
        return 2.0 / 3.0 * self.root_chord * (1 + lam + lam * lam) / (1 + lam)

    def semispan(self, vertical=False) -> float:
        """Root to tip along the span, ft: half the span, or the fin's whole height (``vertical``)."""
        return self.span if vertical else 0.5 * self.span

    def chord(self, eta) -> float:
        """The chord at ``eta`` (0 root .. 1 tip), ft."""
        return self.root_chord * (1.0 - (1.0 - self.taper) * eta)

    def quarter_chord(self, eta, side=1.0, vertical=False) -> np.ndarray:
        """The quarter-chord point at ``eta`` of the left (``side`` = +1) or right (−1) half, or of the fin
        (``vertical``), body frame, ft."""
        s = self.semispan(vertical) * eta
        d = math.radians(self.dihedral_deg)
        along = np.array([0.0, 0.0, 1.0]) if vertical else np.array([0.0, side * math.cos(d), math.sin(d)])
        return self.root + s * along - np.array([s * math.tan(math.radians(self.sweep_deg)), 0.0, 0.0])

    def leading_edge(self, eta, side=1.0, vertical=False) -> np.ndarray:
        """The leading-edge point at ``eta`` (see :meth:`quarter_chord`), body frame, ft."""
        return self.quarter_chord(eta, side, vertical) + np.array([0.25 * self.chord(eta), 0.0, 0.0])


@dataclass(frozen=True, eq=False)
class Fuselage:
    """A body of revolution-like fuselage along body x.

    Attributes
    ----------
    nose_x, tail_x : float
        Its ends, body frame, ft.
    axis_z : float
        Height of its axis (the middle of its deepest section), ft.
    height, width : float
        Its deepest section, ft.
    """

    nose_x: float
    tail_x: float
    axis_z: float
    height: float
    width: float

    @property
    def length(self) -> float:
        """Nose to tail, ft."""
        return self.nose_x - self.tail_x


@dataclass(frozen=True, eq=False)
class Contact:
    """A ``<contact>`` point of ``<ground_reactions>``.

    Attributes
    ----------
    name : str
    type : str
        ``"BOGEY"`` (a wheel or a skid) or ``"STRUCTURE"`` (a hard point).
    position : numpy.ndarray, shape (3,)
        Body frame, ft.
    gear_index : int or None
        A BOGEY's place among the file's BOGEYs (its index in ``Aircraft.gear``); None for STRUCTURE.
    is_wheel : bool
        Drawn as a wheel (see the module's rules).
    """

    name: str
    type: str
    position: np.ndarray
    gear_index: int | None
    is_wheel: bool

    def __post_init__(self):
        _freeze(self, "position")


@dataclass(frozen=True, eq=False)
class Engine:
    """An engine's thruster, as it will be drawn.

    Attributes
    ----------
    name : str
        The engine file's name (``file=``).
    kind : str
        ``"propeller"``, ``"jet"``, ``"rocket"`` or ``"rotor"``.
    mount : str
        ``"nose"`` (a propeller on the centreline ahead of the wing), ``"wing"`` (off the fuselage, a
        nacelle), ``"fuselage"`` (inside it: a jet's nozzle, a pusher propeller on the centreline) or
        ``"rear"`` (a jet pod on the rear fuselage).
    position : numpy.ndarray, shape (3,)
        The thruster's location, body frame, ft.
    diameter : float
        A propeller's or rotor's diameter, ft (0 for jets and rockets).
    blades : int
        Propeller blades (0 for jets and rockets).
    """

    name: str
    kind: str
    mount: str
    position: np.ndarray
    diameter: float
    blades: int

    def __post_init__(self):
        _freeze(self, "position")


@dataclass(frozen=True, eq=False)
class Shape:
    """A JSBSim aircraft's airframe as a drawing needs it (body frame, ft; see the module for every rule).

    Attributes
    ----------
    name : str
        The file's ``<fdm_config name=…>``.
    kind : str
        ``"glider"``, ``"prop"`` or ``"jet"``.
    role : str
        ``"glider"``, ``"light"``, ``"trainer"``, ``"transport"``, ``"fighter"`` or ``"airliner"``.
    weight : float
        As loaded, lb.
    wing : Surface
        Area, span and mean chord exactly as ``<metrics>`` gives them (the MAC of :attr:`wing` is the file's
        chord when the taper is solved from it).
    wing_height : str
        ``"high"``, ``"mid"`` or ``"low"``.
    htail : Surface or None
        None for a tailless aircraft.
    vtail : Surface
        The fin (``span`` its height, ``root`` at its base).
    t_tail : bool
        The horizontal tail sits on top of the fin.
    fuselage : Fuselage
    eye : numpy.ndarray or None
        The pilot's eye (``EYEPOINT``), or None when the file gives none (or a meaningless one).
    contacts : tuple of Contact
        Every contact point, in the file's order.
    engines : tuple of Engine
        In the file's order.
    has_flaps : bool
        The flight controls output a flap position (``…flap-pos…``).
    wheel_radius : float
        The tyres' radius, ft: ``0.3 + 0.28 (W / 1000 lb)^(1/3)``.
    """

    name: str
    kind: str
    role: str
    weight: float
    wing: Surface
    wing_height: str
    htail: Surface | None
    vtail: Surface
    t_tail: bool
    fuselage: Fuselage
    eye: np.ndarray | None
    contacts: tuple
    engines: tuple
    has_flaps: bool
    wheel_radius: float

    def __post_init__(self):
        if self.eye is not None:
            _freeze(self, "eye")

    @property
    def pilot_eye(self) -> np.ndarray:
        """:attr:`eye`, or without one a guess: on the centreline as far behind the nose as the nose rule puts
        an eye ahead of it, 0.3 fuselage heights above the axis (body frame, ft)."""
        if self.eye is not None:
            return self.eye.copy()
        f = self.fuselage
        return np.array([f.nose_x - _LEAD.get(self.role, 1.0) * f.height, 0.0, f.axis_z + 0.3 * f.height])

    @property
    def gear(self) -> tuple:
        """The BOGEY contacts in file order: ``gear[k]`` has ``gear_index == k`` (``Aircraft.gear``'s order)."""
        return tuple(c for c in self.contacts if c.gear_index is not None)

    @property
    def wheels(self) -> tuple:
        """The contacts drawn as wheels."""
        return tuple(c for c in self.contacts if c.is_wheel)

    @classmethod
    def read(cls, source) -> "Shape":
        """The shape of a JSBSim aircraft.

        Parameters
        ----------
        source : JSBSimFile or str or os.PathLike
            The aircraft file read, or its name (``"jsbsim:c172p"``, ``"c172p"``) or path.

        Returns
        -------
        Shape

        Raises
        ------
        flightsim.errors.InputError
            The file lacks what every aircraft needs (``<metrics>``, ``<mass_balance>``).
        """
        if not isinstance(source, JSBSimFile):
            source = JSBSimFile(aircraft_path(str(source)) if not Path(str(source)).is_file() else source)
        return _read(source)


def shape_of(aircraft):
    """The :class:`Shape` of a loaded JSBSim aircraft (an :class:`~flightsim.physics.aircraft.Aircraft` with
    ``jsbsim``), read from its file (``aircraft.source``); None for an aircraft of flightsim's own (drawn from its
    elements)."""
    if getattr(aircraft, "jsbsim", None) is None:
        return None
    return Shape.read(aircraft.source)


# ---------------------------------------------------------------------------------------------------------------
# Reading


def _read(source):
    metrics = Metrics.read(source)
    mass = MassBalance.read(source)
    cg = np.asarray(mass.cg, dtype=np.float64)

    def body(r):
        """Structural (in) -> flightsim body (ft about the CG)."""
        return np.array([(cg[0] - r[0]) * _IN, (cg[1] - r[1]) * _IN, (r[2] - cg[2]) * _IN])

    weight = float(mass.weight)
    rp = body(metrics.aero_rp)
    eye_struct = _named_location(source, "EYEPOINT")
    eye = None
    if eye_struct is not None and np.linalg.norm(np.subtract(eye_struct, cg)) > 1.0 and any(eye_struct):
        eye = body(eye_struct)

    raw_contacts = _contacts(source, body)
    engines_raw = [(name, kind, body(r), diameter, blades) for name, kind, r, diameter, blades
                   in _engines(source)]
    # A turbine's direct thruster on the centreline, ahead of the eye and near the CG's height drives a propeller.
    engines = []
    for name, kind, r, diameter, blades in engines_raw:
        if kind == "direct-turbine":
            ahead = eye is not None and r[0] > eye[0]
            kind = "propeller" if ahead and abs(r[1]) < 1.0 and abs(r[2]) < 2.0 else "jet"
        if kind == "propeller" and diameter <= 0.0:
            diameter = float(np.clip(0.24 * metrics.wing_span, 4.0, 14.0))
            blades = blades or 3
        engines.append((name, kind, r, diameter, blades))
    kinds = {k for _, k, *_ in engines}
    kind = "glider" if not engines else ("jet" if kinds & {"jet", "rocket"} else "prop")

    span, area, mac = float(metrics.wing_span), float(metrics.wing_area), float(metrics.chord)
    if not (span > 0.0 and area > 0.0):
        raise InputError(source.path, "metrics", "the wing's span and area must be positive to draw it")
    aspect = span * span / area
    if kind == "jet":
        role = "airliner" if weight >= 40000.0 and aspect >= 5.5 else "fighter"
    elif kind == "prop":
        role = "transport" if weight >= 12500.0 else "light"      # "trainer" once the wing height is known
    else:
        role = "glider"
    straight_jet = kind == "jet" and aspect >= 5.5 and weight < 20000.0

    # --- the wing's planform
    ratio = mac / (area / span) if mac > 0.0 else 0.0
    if 1.005 < ratio < 4.0 / 3.0:
        taper = _taper_from_mac_ratio(ratio)
    elif kind == "jet":
        taper = 0.5 if straight_jet else 0.3
    else:
        taper = 0.5 if kind == "glider" else 0.6
    sweep = 0.0
    if kind == "jet" and not straight_jet:
        sweep = 25.0 if role == "airliner" else 30.0
    root_chord = 2.0 * area / (span * (1.0 + taper))
    # the MAC's spanwise station; its quarter chord is at AERORP
    y_mac = span / 6.0 * (1.0 + 2.0 * taper) / (1.0 + taper)
    x_root_qc = rp[0] + y_mac * math.tan(math.radians(sweep))

    # --- tails
    lh = metrics.htail_arm if metrics.htail_arm > 0.0 else 3.0 * (mac if mac > 0.0 else area / span)
    lv = metrics.vtail_arm if metrics.vtail_arm > 0.0 else lh
    sh = metrics.htail_area if metrics.htail_area > 0.0 else (0.0 if aspect < 2.4 else 0.18 * area)
    sv = metrics.vtail_area if metrics.vtail_area > 0.0 else 0.13 * area
    ar_h, ar_v = {"airliner": (4.0, 1.3), "fighter": (3.0, 1.2)}.get(role, (4.5, 1.5))
    lam_t = 0.35 if kind == "jet" else 0.6
    h_sweep = 30.0 if sweep > 0.0 else 0.0
    v_sweep = 35.0 if kind == "jet" else 25.0
    fin_height = math.sqrt(ar_v * sv)
    fin_root = 2.0 * sv / (fin_height * (1.0 + lam_t))
    fin_y_mac = fin_height / 3.0 * (1.0 + 2.0 * lam_t) / (1.0 + lam_t)
    x_fin_qc = rp[0] - lv + fin_y_mac * math.tan(math.radians(v_sweep))
    if sh > 0.0:
        h_span = math.sqrt(ar_h * sh)
        h_root = 2.0 * sh / (h_span * (1.0 + lam_t))
        h_y_mac = h_span / 6.0 * (1.0 + 2.0 * lam_t) / (1.0 + lam_t)
        x_h_qc = rp[0] - lh + h_y_mac * math.tan(math.radians(h_sweep))

    # --- the fuselage
    x_tail = x_fin_qc - 0.55 * fin_root                           # 80 % of the fin's root chord
    fineness, lead = _FINENESS[role], _LEAD[role]
    tractor = [r for _, k, r, *_ in engines if k == "propeller" and abs(r[1]) < 1.0 and r[0] > rp[0]]
    if tractor:
        x_nose = max(r[0] for r in tractor)
    elif eye is not None and eye[0] > x_tail:
        x_nose = eye[0] + lead * (eye[0] - x_tail) / (fineness - lead)
    else:
        x_nose = rp[0] + (0.85 if kind == "glider" else 0.9) * lh
    central = [c[2][0] for c in raw_contacts if abs(c[2][1]) < 1.0 and np.linalg.norm(c[2]) > 1e-9]
    if central:
        x_nose = max(x_nose, max(central))
    length = max(x_nose - x_tail, 1.0)
    height = length / fineness
    if eye is not None:
        height = max(height, 2.0 * (abs(eye[1]) + 1.2))
    width = height * _WIDTH[role]
    if eye is not None:
        axis_z = eye[2] - (0.45 if role == "fighter" else 0.3) * height
    else:
        axis_z = 0.0
    axis_z = float(np.clip(axis_z, -0.35 * height, 0.35 * height))     # the CG (z = 0) inside the fuselage

    # --- the gear (wheels decide the belly's lowest height)
    wheel_radius = 0.3 + 0.28 * (max(weight, 1.0) / 1000.0) ** (1.0 / 3.0)
    wheel_flags = _wheels(raw_contacts, span)
    wheel_z = [c[2][2] for c, w in zip(raw_contacts, wheel_flags, strict=True) if w]
    if wheel_z:
        axis_z = max(axis_z, min(wheel_z) + 1.5 * wheel_radius + 0.5 * height)

    # --- engines' mounts
    drawn = []
    for name, k, r, diameter, blades in engines:
        off = abs(r[1]) >= 0.6 * height
        if k == "propeller":
            mount = "wing" if off else ("nose" if r[0] > rp[0] else "fuselage")
        elif k in ("jet", "rocket"):
            if not off:
                mount = "fuselage"
            elif r[0] < x_root_qc - 0.5 * root_chord and abs(r[1]) < 1.2 * height + 0.5 * width:
                mount = "rear"
            else:
                mount = "wing"
        else:
            mount = "fuselage"
        drawn.append(Engine(name, k, mount, np.asarray(r, dtype=np.float64), float(diameter),
                            int(blades) if k == "propeller" else 0))

    # --- the wing's height
    wing_height = None
    if any(e.kind == "jet" and e.mount == "wing" and e.position[2] < axis_z - 0.1 * height for e in drawn):
        wing_height = "low"
    if wing_height is None:
        tips = [c[2] for c in raw_contacts if abs(c[2][1]) >= 0.75 * 0.5 * span]
        if tips:
            tip_z = float(np.mean([t[2] for t in tips]))
            reach = float(np.mean([abs(t[1]) for t in tips])) - 0.5 * width
            dihedral_guess = 1.5 if kind == "glider" else 3.0
            wing_height = _height_class(tip_z - reach * math.tan(math.radians(dihedral_guess)) - axis_z,
                                        height) or "mid"
    if wing_height is None:
        wing_height = _height_class(rp[2] - axis_z, height)
    if wing_height is None:
        wing_height = "high" if kind == "glider" else "low"
    if role == "light" and wing_height == "low" and eye is not None and abs(eye[1]) < 0.2:
        role = "trainer"
        width = height * _WIDTH[role]
    root_z = axis_z + {"high": 0.46, "mid": 0.0, "low": -0.38}[wing_height] * height
    if role == "fighter":
        dihedral = 0.0
    elif kind == "glider" or wing_height == "mid":
        dihedral = 3.0
    else:
        dihedral = 1.5 if wing_height == "high" else 5.0
    wing = Surface(area, span, root_chord, taper * root_chord, sweep, dihedral,
                   np.array([x_root_qc, 0.0, root_z]))

    # --- tails' heights: the fin on the tail cone's top; the tailplane at the cone or on top of the fin
    fin_base = axis_z + 0.2 * height
    vtail = Surface(sv, fin_height, fin_root, lam_t * fin_root, v_sweep, 0.0,
                    np.array([x_fin_qc, 0.0, fin_base]))
    t_tail = any(e.mount == "rear" for e in drawn)
    htail = None
    if sh > 0.0:
        h_z = fin_base + 0.97 * fin_height if t_tail else axis_z + 0.1 * height
        htail = Surface(sh, h_span, h_root, lam_t * h_root, h_sweep, 0.0, np.array([x_h_qc, 0.0, h_z]))

    contacts = []
    index = 0
    for (name, ctype, r), w in zip(raw_contacts, wheel_flags, strict=True):
        contacts.append(Contact(name, ctype, r, index if ctype == "BOGEY" else None, bool(w)))
        index += ctype == "BOGEY"

    return Shape(name=source.root.get("name") or source.path.stem, kind=kind, role=role, weight=weight,
                 wing=wing, wing_height=wing_height, htail=htail, vtail=vtail, t_tail=t_tail,
                 fuselage=Fuselage(float(x_nose), float(x_tail), float(axis_z), float(height), float(width)),
                 eye=eye, contacts=tuple(contacts), engines=tuple(drawn), has_flaps=_has_flaps(source),
                 wheel_radius=float(wheel_radius))


#: Fuselage length over height, eye to nose in heights, width over height, by role (see the module's rules).
_FINENESS = {"glider": 11.0, "light": 6.5, "trainer": 6.5, "transport": 8.5, "fighter": 8.5, "airliner": 9.5}
_LEAD = {"glider": 1.4, "light": 1.0, "trainer": 1.0, "transport": 0.6, "fighter": 1.5, "airliner": 0.6}
_WIDTH = {"glider": 0.7, "light": 0.85, "trainer": 0.8, "transport": 1.0, "fighter": 0.85, "airliner": 1.0}


def _height_class(dz, height):
    """``"high"``/``"low"`` when ``dz`` is more than 0.2 fuselage heights above/below the axis, else None
    (``"mid"`` only from wing-tip evidence: see :func:`_read`)."""
    if dz > 0.2 * height:
        return "high"
    if dz < -0.2 * height:
        return "low"
    return None


def _taper_from_mac_ratio(ratio):
    """λ in (0, 1] with ``4/3 (1 + λ + λ²) / (1 + λ)² = ratio`` (MAC over mean geometric chord)."""
    q = 0.75 * ratio                      # (1 + λ + λ²) = q (1 + λ)²  ->  (1 - q) λ² + (1 - 2q) λ + (1 - q) = 0
    a, b = 1.0 - q, 1.0 - 2.0 * q
    disc = max(b * b - 4.0 * a * a, 0.0)
    lam = (-b - math.sqrt(disc)) / (2.0 * a)
    return float(np.clip(lam, 0.15, 1.0))


def _named_location(source, name):
    """The ``<metrics>/<location name=NAME>`` in the structural frame (in), or None."""
    el = source.section("metrics")
    loc = next((loc for loc in el.findall("location") if loc.get("name") == name), None)
    return None if loc is None else source.location(loc, f"metrics/location[{name}]")


def _contacts(source, body):
    """``[(name, type, body position)]`` of every ``<contact>`` in document order."""
    block = source.section("ground_reactions", required=False)
    out = []
    for k, c in enumerate(() if block is None else block.findall("contact")):
        where = f"ground_reactions/contact[{k}]"
        ctype = (c.get("type") or "BOGEY").strip().upper()
        out.append((c.get("name") or f"contact {k}", ctype, body(source.location(c.find("location"),
                                                                                    f"{where}/location"))))
    return out


def _wheels(contacts, span):
    """Which contacts are drawn as wheels (see the module's rules)."""
    flags = [False] * len(contacts)
    candidates = [i for i, (_, t, r) in enumerate(contacts) if t == "BOGEY" and abs(r[1]) <= 0.55 * 0.5 * span]
    if not candidates:
        return flags
    pts = np.array([contacts[i][2] for i in candidates])
    if np.ptp(pts, axis=0).max() < 0.5:
        return flags
    z_min = pts[:, 2].min()
    tolerance = max(0.5, -0.3 * z_min)                   # 30 % of the CG's height above the lowest point
    off = [i for i in candidates if abs(contacts[i][2][1]) > 0.5 and contacts[i][2][2] < z_min + tolerance]
    if off:
        z_off = min(contacts[i][2][2] for i in off)
        off = [i for i in off if contacts[i][2][2] < z_off + 0.5]
    seed = off or [min(candidates, key=lambda i: contacts[i][2][2])]
    x_m = float(np.mean([contacts[i][2][0] for i in seed]))
    z_m = float(np.mean([contacts[i][2][2] for i in seed]))
    mains = [i for i in candidates if i in seed or (abs(contacts[i][2][0] - x_m) <= 0.5
                                                    and abs(contacts[i][2][2] - z_m) < 0.5)]
    for i in mains:
        flags[i] = True

    def angle(i):
        x, _, z = contacts[i][2]
        return math.degrees(math.atan2(z - z_m, abs(x - x_m)))

    rest = [i for i in candidates if i not in mains]
    ahead = [i for i in rest if contacts[i][2][0] > x_m + 0.5]
    behind = [i for i in rest if contacts[i][2][0] < x_m - 0.5]
    noses = [i for i in ahead if angle(i) < 5.0]
    if noses:
        for i in noses + [i for i in behind if angle(i) < 3.0]:
            flags[i] = True
    else:
        for i in behind:
            if angle(i) < 20.0:
                flags[i] = True
    return flags


def _engines(source):
    """``[(file name, kind, structural location, diameter ft, blades)]``; kind ``"propeller"``, ``"jet"``,
    ``"rocket"``, ``"rotor"`` or ``"direct-turbine"`` (decided by the caller)."""
    block = source.section("propulsion", required=False)
    here = source.path.parent
    folders = (here / "Engines", here / "engine", package_root() / "engine")
    out = []
    for k, engine in enumerate(() if block is None else block.findall("engine")):
        where = f"propulsion/engine[{k}]"
        thruster = engine.find("thruster")
        if thruster is None or thruster.find("location") is None:
            continue
        r = source.location(thruster.find("location"), f"{where}/thruster/location")
        engine_tag = _root_tag(source, engine.get("file"), folders)
        troot = _root(source, thruster.get("file"), folders)
        ttag = None if troot is None else troot.tag
        diameter, blades = 0.0, 0
        if ttag in ("propeller", "rotor"):
            kind = "propeller" if ttag == "propeller" else "rotor"
            d = troot.find("diameter")
            if d is not None:
                unit = (d.get("unit") or ("FT" if ttag == "rotor" else "IN")).upper()
                diameter = source.parse_number(d.text, f"{where}/thruster/diameter") * _TO_INCHES.get(unit, 1.0) * _IN
            n = troot.find("numblades")
            blades = int(source.parse_number(n.text, f"{where}/thruster/numblades")) if n is not None else 2
        elif ttag == "nozzle" or engine_tag == "rocket_engine":
            kind = "rocket"
        elif engine_tag in ("piston_engine", "turboprop_engine", "electric_engine", "brushless_dc_motor"):
            kind, blades = "propeller", 3
        else:
            kind = "direct-turbine"
        out.append((engine.get("file") or f"engine {k}", kind, r, diameter, blades))
    return out


def _root(source, name, folders):
    """The root element of an engine or thruster file, or None when it cannot be found or read."""
    if not name:
        return None
    try:
        return source.included(name, folders, "", "")
    except InputError:
        return None


def _root_tag(source, name, folders):
    root = _root(source, name, folders)
    return None if root is None else root.tag


_FLAP = re.compile(r"flap[-_]?pos", re.IGNORECASE)


def _has_flaps(source):
    """Whether the flight controls (``<flight_control>``, ``<system>`` files) output a flap position."""
    roots = []
    for tag in ("flight_control", "autopilot"):
        try:
            el = source.section(tag, required=False)
        except InputError:
            el = None
        if el is not None:
            roots.append(el)
    here = source.path.parent
    for system in source.root.findall("system"):
        name = system.get("file")
        if not name:
            roots.append(system)
            continue
        root = _root(source, name, (here, here / "Systems", here / "systems", package_root() / "systems"))
        if root is not None:
            roots.append(root)
    return any(_FLAP.search(out.text or "") for root in roots for out in root.iter("output"))

"""A JSBSim aircraft made a flightsim :class:`~flightsim.physics.aircraft.Aircraft`, and its loads' arrays.

:func:`load_jsbsim_aircraft` reads a JSBSim aircraft file (``jsbsim:NAME``
or a path to its ``.xml``) into an :class:`~flightsim.physics.aircraft.Aircraft`
that every part of flightsim flies as it flies its own: the mass, CG and
inertia tensor (``<mass_balance>``, point masses and tanks, as
``FGMassBalance::Run``), the landing gear (``<ground_reactions>``: its
contact points as flightsim's gear, :func:`contacts`, for the ground's
machinery — touchdown, crash — and JSBSim's own model of them,
``jsb_contacts``, for the loads: :mod:`~flightsim.physics.jsbsim.ground_reactions`),
no aerodynamic elements, and a
:class:`JSBSimModel` in ``Aircraft.jsbsim`` holding what the compiled loads
(:mod:`flightsim.physics.jsbsim.loads`) read: the aerodynamics, the flight
controls and the engines compiled for one stack machine over one property
array (and from it to numba, :attr:`JSBSimModel.native`), the pilot's commands in JSBSim's meaning
(:data:`COMMANDS`) and the state the flight controls read.

Every property the aircraft's functions read must be computed here; one
that is not ends the load with an :class:`~flightsim.errors.InputError`
naming the file, the block that reads it and the property.

Frames: JSBSim's structural frame (x aft, y right, z up, in) becomes
flightsim's design coordinates ``(−x, −y, z) / 12`` ft, so a point's
position relative to the CG is flightsim's body frame (x forward, y left,
z up); JSBSim's body-frame tensors turn with ``D = diag(1, −1, −1)``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.aero import ENGINE_FIELDS
from flightsim.physics.aircraft import Aircraft, Contact
from flightsim.physics.constants import RHO_SL
from flightsim.physics.inputs import INPUTS
from flightsim.physics.jsbsim import ground_reactions as G
from flightsim.physics.jsbsim import loads as L
from flightsim.physics.jsbsim.aero import CL_SQUARED, LIFT, STALL_LATCH, Aerodynamics
from flightsim.physics.jsbsim.auxiliary import AUXILIARY, slots_of
from flightsim.physics.jsbsim.buoyancy import BuoyantForces
from flightsim.physics.jsbsim.external import ExternalForces
from flightsim.physics.jsbsim.fcs import BUILTIN, SETTLE, FlightControls
from flightsim.physics.jsbsim.fuel import FuelSystem
from flightsim.physics.jsbsim.mass import INCH_TO_FT, MassBalance, Metrics, tank_properties
from flightsim.physics.jsbsim.native import compile_blocks
from flightsim.physics.jsbsim.program import OP_STORE, Properties, canonical
from flightsim.physics.jsbsim.propeller import RS_ENGINE_RPM, RS_RPM
from flightsim.physics.jsbsim.propulsion import E_MIL, S_N1, S_N2, Propulsion, frame_addresses
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path

__all__ = ["COMMANDS", "GRAVITY", "JSBSimModel", "contacts", "fleet", "inertia_about_cg", "load_jsbsim_aircraft",
           "planet_of"]

#: JSBSim's slug ↔ pound (``FGJSBBase::slugtolb``), also the flat planet's gravity (ft/s²).
GRAVITY = 32.174049
#: The pilot's controls in JSBSim's commands: property → (flightsim input or None for a constant, scale, low,
#: high).  Elevator and rudder change sign (flightsim: +1 nose up, nose right; JSBSim: +1 trailing edge down,
#: trailing edge left); the flaps' −1..1 of flightsim's lever is 0..1 here; the trims are part of the elevator
#: flightsim flies (the controls boundary adds them), so JSBSim's trims stay 0.
COMMANDS = {
    "fcs/elevator-cmd-norm": ("elevator", -1.0, -1.0, 1.0),
    "fcs/aileron-cmd-norm": ("aileron", 1.0, -1.0, 1.0),
    "fcs/rudder-cmd-norm": ("rudder", -1.0, -1.0, 1.0),
    "fcs/flap-cmd-norm": ("flaps", 1.0, 0.0, 1.0),
    "fcs/steer-cmd-norm": ("rudder", 1.0, -1.0, 1.0),
    "fcs/left-brake-cmd-norm": ("brake", 1.0, 0.0, 1.0),
    "fcs/right-brake-cmd-norm": ("brake", 1.0, 0.0, 1.0),
    "fcs/center-brake-cmd-norm": ("brake", 1.0, 0.0, 1.0),
    "fcs/pitch-trim-cmd-norm": (None, 0.0, -1.0, 1.0),
    "fcs/roll-trim-cmd-norm": (None, 0.0, -1.0, 1.0),
    "fcs/yaw-trim-cmd-norm": (None, 0.0, -1.0, 1.0),
    "fcs/speedbrake-cmd-norm": (None, 0.0, 0.0, 1.0),
    "fcs/spoiler-cmd-norm": (None, 0.0, 0.0, 1.0),
}
#: The gear lever's command (``FGFCS::SetGearCmd``) and the position the aircraft's tables read (``GetGearPos``).
GEAR_COMMAND, GEAR_POSITION = "gear/gear-cmd-norm", "gear/gear-pos-norm"
#: Per engine: its throttle (flightsim's one lever), its mixture (rich), a constant-speed propeller's rpm command
#: (the highest: a governor's takeoff and climb setting; JSBSim's default, 0, is its lowest) and its magnetos (both).
ENGINE_COMMANDS = {"fcs/throttle-cmd-norm[{k}]": ("throttle", 1.0, 0.0, 1.0),
                   "fcs/mixture-cmd-norm[{k}]": (None, 1.0, 0.0, 1.0),
                   "fcs/advance-cmd-norm[{k}]": (None, 1.0, 0.0, 1.0),
                   "propulsion/magneto_cmd": (None, 3.0, 0.0, 3.0)}
#: FGAtmosphere's sea-level temperature (°R): the standard atmosphere's, flightsim's JSBSim aircraft's.
SEA_LEVEL_TEMPERATURE = "atmosphere/T-sl-R"
#: The first engine's speed (a piston's), the engine gauge of the loads' diagnostics.
RPM = "propulsion/engine/engine-rpm"
#: The surfaces the app draws, as :attr:`JSBSimModel.surface_slots` orders them.
SURFACES = ("fcs/elevator-pos-deg", "fcs/left-aileron-pos-deg", "fcs/right-aileron-pos-deg", "fcs/rudder-pos-deg",
            "fcs/flap-pos-deg")
#: How far (deg) the app draws flaps that the flight controls give normalised only.
FLAP_NORM_DEG = 40.0
#: JSBSim's contact types: a wheel on a sprung leg, or a point of the structure.
CONTACT_KINDS = {"BOGEY": "wheel", "STRUCTURE": "hard_point"}
#: A leg's travel (crash beyond it) in multiples of its compression under the whole weight (at least 0.5 ft).
TRAVEL_FACTOR = 3.0
#: Touch-down sink rate above which a landing is a crash, ft/s (JSBSim's files give none).
CRASH_SINK_RATE = 12.0
#: The lift coefficient of :func:`cruise_speed`'s cruise (a glider's glide), and the height of the default start
#: (ft).
CRUISE_CL, GLIDE_CL, START_ALTITUDE = 0.4, 0.5, 3000.0


def design(r_in):
    """A structural point (in: x aft, y right, z up) in flightsim's design coordinates, ft (x fwd, y left, z up)."""
    r = np.asarray(r_in, dtype=np.float64)
    return np.array([-r[0], -r[1], r[2]]) * INCH_TO_FT


def _flip(tensor):
    """A JSBSim body-frame tensor in flightsim's body axes (``D J D``, D = diag(1, −1, −1))."""
    d = np.array([1.0, -1.0, -1.0])
    return tensor * np.outer(d, d)


def mass_properties_of(mass):
    """FGMassBalance's outputs (``inertia/*``) as loaded, by name (the products as ``GetIxy``, ``GetIxz``,
    ``GetIyz`` give them: ``−J₁₂``, ``+J₁₃``, ``−J₂₃``)."""
    j = inertia_about_cg(mass)
    return {"inertia/empty-weight-lbs": mass.empty_weight, "inertia/ixx-slugs_ft2": j[0, 0],
            "inertia/iyy-slugs_ft2": j[1, 1], "inertia/izz-slugs_ft2": j[2, 2], "inertia/ixy-slugs_ft2": -j[0, 1],
            "inertia/ixz-slugs_ft2": j[0, 2], "inertia/iyz-slugs_ft2": -j[1, 2]}


def inertia_about_cg(mass):
    """The inertia tensor about the CG as loaded, JSBSim's body frame, slug·ft² (``FGMassBalance::Run``): the
    empty airplane's moved from its CG (parallel axes), plus each point mass and each tank's contents."""
    cg = mass.cg

    def point(weight, r):
        v = mass.structural_to_body(r, cg)
        m = weight / GRAVITY
        return m * (np.dot(v, v) * np.eye(3) - np.outer(v, v))

    j = np.array(mass.inertia, dtype=np.float64) + point(mass.empty_weight, mass.empty_cg)
    for _, w, r in mass.point_masses:
        j = j + point(w, r)
    for c, r in mass.tanks:
        j = j + point(c, r)
    return j


#: A SQUARE damper's units (JSBSim's factors to lbf·s²/ft²).
SQUARE_DAMPING = {"LBS/FT2/SEC2": 1.0, "N/M2/SEC2": 1.0 / 47.880259}


def _square(el):
    """Whether a damper element is a SQUARE one (``type="SQUARE"``: the force the speed squared times it)."""
    return el is not None and (el.get("type") or "").strip() == "SQUARE"


def square_damping(source, el, what):
    """A SQUARE damper's coefficient, lbf·s²/ft² (its ``unit=`` one of :data:`SQUARE_DAMPING`, or none)."""
    value = source.number(el, what)
    unit = (el.get("unit") or "LBS/FT2/SEC2").strip().upper()
    if unit not in SQUARE_DAMPING:
        raise InputError(source.path, what, f"unit {unit!r} cannot be converted to LBS/FT2/SEC2")
    return value * SQUARE_DAMPING[unit]


def orientation_matrix(source, el, what):
    """A BOGEY's ``<orientation>`` (roll, pitch, yaw; rad or deg) as FGLGear's ``mTGear``: the transformation
    matrix of those Euler angles (FGQuaternion's ``GetT``)."""
    angles = []
    for axes in (("roll", "x"), ("pitch", "y"), ("yaw", "z")):
        child = next((el.find(a) for a in axes if el.find(a) is not None), None)
        angles.append(0.0 if child is None else source.number(child, f"{what}/{axes[0]}"))
    unit = (el.get("unit") or "RAD").strip().upper()
    if unit not in ("RAD", "DEG"):
        raise InputError(source.path, what, f"unit {unit!r} is not an angle (RAD, DEG)")
    phi, theta, psi = (math.radians(a) for a in angles) if unit == "DEG" else angles
    cf, sf, ct, st, cp, sp = math.cos(phi), math.sin(phi), math.cos(theta), math.sin(theta), math.cos(psi), \
        math.sin(psi)
    return np.array([[ct * cp, ct * sp, -st],
                     [sf * st * cp - cf * sp, sf * st * sp + cf * cp, sf * ct],
                     [cf * st * cp + sf * sp, cf * st * sp - sf * cp, cf * ct]])


def contacts(source, weight, cg_design):
    """``<ground_reactions>`` as flightsim's gear: each ``BOGEY`` a wheel, each ``STRUCTURE`` a hard point (the
    contact points the ground's machinery reads — :mod:`flightsim.physics.ground`, the gear's legs; the loads are
    JSBSim's own, :meth:`JSBSimModel._contacts`).

    Wheels first, then hard points, each in file order (the model's wheels are numbered so).  Spring and
    damper as the file gives them; static friction the file's; rolling friction the file's; a braked wheel
    (``brake_group`` other than NONE) brakes with its static friction (``FGLGear``: the brake blends rolling into
    static friction); steering the file's ``max_steer`` (castoring wheels, |max_steer| ≥ 360, do not steer);
    travel :data:`TRAVEL_FACTOR` times the leg's compression under the whole weight.
    """
    block = source.section("ground_reactions", required=False)
    found = {"wheel": [], "hard_point": []}
    for k, el in enumerate(() if block is None else block.findall("contact")):
        where = f"ground_reactions/contact[{k}]"
        kind = CONTACT_KINDS.get((el.get("type") or "BOGEY").upper())
        if kind is None:
            raise InputError(source.path, f"{where} type", f"{el.get('type')!r} is not a contact type "
                                                           f"({', '.join(CONTACT_KINDS)})")

        def value(tag, unit=None, default=0.0, el=el, where=where):
            return source.child_number(el, tag, unit, where, default)

        # (a strut force function gives no spring: its leg's travel from the weight, as for a spring of W per ft)
        stiffness = value("spring_coeff", "LBS/FT", weight if el.find("strut_force") is not None else None)
        damping = (square_damping(source, el.find("damping_coeff"), f"{where}/damping_coeff")
                   if _square(el.find("damping_coeff")) else value("damping_coeff", "LBS/FT/SEC", 0.0))
        steer = math.degrees(value("max_steer", "RAD", 0.0))
        braked = (el.findtext("brake_group") or "NONE").strip().upper() != "NONE"
        found[kind].append(dict(
            name=el.get("name") or f"contact {k}", kind=kind, design_position=design(source.location(
                el.find("location"), f"{where}/location")),
            stiffness=stiffness, damping=damping, static_friction=value("static_friction"),
            rolling_friction=value("rolling_friction") if kind == "wheel" else 0.0,
            brake_friction=value("static_friction") if kind == "wheel" and braked else 0.0,
            steering_deg=abs(steer) if kind == "wheel" and abs(steer) < 360.0 else 0.0,
            max_compression=max(0.5, TRAVEL_FACTOR * weight / stiffness) if kind == "wheel" else 0.0))
    seen = set()
    gear = []
    for spec in found["wheel"] + found["hard_point"]:
        name = spec["name"]
        while name in seen:
            name += "'"
        seen.add(name)
        spec["name"] = name
        gear.append(Contact(**spec, position=spec["design_position"] - cg_design))
    return tuple(gear)


def _engine_outputs(props, engines):
    """The properties the engines write: their state and outputs (the slots of their rows) and their functions."""
    program = engines.program
    slots = {int(v) for table in (engines.slots, engines.piston_slots, engines.propeller_slots) for v in table.ravel()
             if v >= 0}
    slots |= {int(arg) for code in (program.code, engines.post_program.code) for op, arg in code if op == OP_STORE}
    return {props.names[k] for k in slots} | set(engines.defaults)


def cruise_speed(weight, area, cl=CRUISE_CL):
    """A cruise (or glide) true airspeed, ft/s: where the wing's lift coefficient is ``cl`` at the start's
    height in the standard atmosphere."""
    from flightsim.physics.jsbsim.atmosphere import standard_atmosphere

    rho = standard_atmosphere(START_ALTITUDE)[2]
    return math.sqrt(2.0 * weight / (rho * area * cl))


@dataclass(frozen=True, eq=False)
class JSBSimModel:
    """An aircraft's compiled blocks over one property array, and the arrays the compiled loads read.

    Attributes
    ----------
    properties : Properties
    metrics, mass : Metrics, MassBalance
    aero : Aerodynamics
    fcs : FlightControls
    propulsion : Propulsion
    initial : numpy.ndarray
        The property array as loaded (the declared values, the metrics, the built-in defaults).
    """

    source: JSBSimFile
    properties: Properties
    metrics: Metrics
    mass: MassBalance
    aero: Aerodynamics
    fcs: FlightControls
    propulsion: Propulsion
    initial: np.ndarray
    commands: np.ndarray
    state_slots: np.ndarray
    aux_slots: np.ndarray
    scalars: np.ndarray
    external: ExternalForces
    contacts: np.ndarray
    #: FlightGear's properties the blocks read (declared in the file: their declared value here, as in JSBSim alone).
    flightgear_reads: tuple = ()
    #: The tanks and point masses (:class:`~flightsim.physics.jsbsim.fuel.FuelSystem`): the mass, CG and inertia
    #: as they change in flight.
    fuel: object = None
    #: The gas cells and ballonets (:class:`~flightsim.physics.jsbsim.buoyancy.BuoyantForces`; none: no rows).
    buoyancy: object = None

    @classmethod
    def read(cls, source):
        props = Properties()
        for name in ("aero/alpha-rad", "aero/beta-rad", "atmosphere/sigma", "atmosphere/rho-slugs_ft3",
                     "velocities/mach", "simulation/dt", SETTLE, LIFT):
            props.slot(name)
        metrics, mass = Metrics.read(source), MassBalance.read(source)
        fcs = FlightControls(source, props)
        aero = Aerodynamics(source, props, extra=functools.partial(cls._strut_functions, source))
        cg = mass.cg
        external = ExternalForces(source, props, lambda r: mass.structural_to_body(r, cg))
        buoyancy = BuoyantForces(source, props)

        def extra(builder, post):   # (the external forces' magnitudes, the gas cells' heat and blower functions)
            external.compile_functions(builder)
            buoyancy.compile_functions(builder, post)

        engines = Propulsion(source, props, extra=extra)
        engines.locate(lambda r: mass.structural_to_body(r, cg))
        for name in fcs.outputs:        # (under no force's or moment's name: a property of its own, as in JSBSim)
            if name in external.bound and name not in external.writable:
                raise InputError(source.path, "flight_control", f"writes {name!r}, but <external_reactions> "
                                 "has no such force or moment property (or its magnitude is a function)")
        commands = {**COMMANDS, **{canonical(pattern.format(k=k)): spec for k in range(len(engines.kinds))
                                   for pattern, spec in ENGINE_COMMANDS.items()}}
        # the gear lever: JSBSim's pilot writes gear/gear-cmd-norm, the aircraft's own flight controls (a kinematic,
        # "Gear Control") move gear/gear-pos-norm after it; fixed gear keeps its command at 1 (down)
        commands[GEAR_COMMAND] = ("gear", 1.0, 0.0, 1.0) if cls._retracting(source) else (None, 1.0, 0.0, 1.0)
        rows = [(props.slot(name), -1 if control is None else INPUTS.index(control), scale, lo, hi)
                for name, (control, scale, lo, hi) in commands.items()]
        state_slots = np.array([(props[n] if n in props else -1) if n in L.STATE_IF_READ else props.slot(n)
                                for n in L.STATE], dtype=np.int64)
        props.slot(GEAR_POSITION)
        for name in (*L.PROP_LOADS, SEA_LEVEL_TEMPERATURE):     # (the thrusters' loads, FGPropulsion's, and the
            props.slot(name)                                    # sea-level temperature: a script may read them)
        contact_rows, wheels = cls._contacts(source, props, mass, fcs)
        for n in SURFACES:
            props.slot(n)
        # (FGMassBalance's outputs, as loaded: flightsim's JSBSim aircraft keep their mass; the CG structural, in)
        own = {**metrics.properties(), **tank_properties(source), "inertia/weight-lbs": mass.weight,
               "inertia/mass-slugs": mass.weight / GRAVITY, SEA_LEVEL_TEMPERATURE: 518.67,
               **{f"inertia/cg-{axis}-in": float(v) for axis, v in zip("xyz", mass.cg, strict=True)}}
        own.update(cls._retracting(source))
        # (the tanks, the point masses and FGMassBalance's outputs: changing in flight, flightsim.physics.jsbsim.fuel)
        fuel, fuel_values = FuelSystem.read(source, props, mass)
        fuel = fuel.with_engines(engines.kinds).with_gas(buoyancy.gas_slots)
        own.update(fuel_values)
        own.update(mass_properties_of(mass))
        cls._check_inputs(source, props, aero, fcs, engines, set(own) | set(commands) | set(L.PROP_LOADS)
                          | buoyancy.outputs
                          | set(L.GEAR_LOADS)
                          | {props.names[int(slot)] for slot in contact_rows[:, :2].ravel() if slot >= 0}
                          | {canonical(GEAR_POSITION)} | cls._compressions(source)
                          | {"simulation/sim-time-sec", "gear/wow"})
        aux_slots = slots_of(props)
        # (FGFCS: the gear down, 1, until something moves it)
        initial = props.array({canonical(GEAR_POSITION): 1.0, **external.defaults, **buoyancy.defaults,
                               **aero.defaults, **fcs.defaults, **engines.defaults})
        for k, v in own.items():
            if k in props:
                initial[props[k]] = v
        rp = mass.structural_to_body(metrics.aero_rp, cg)
        scalars = np.zeros(L.SCALARS)
        scalars[L.J_FORCE_AXES] = aero.force_axes
        scalars[L.J_SPAN], scalars[L.J_CHORD], scalars[L.J_AREA] = metrics.wing_span, metrics.chord, metrics.wing_area
        scalars[L.J_RP:L.J_RP + 3] = rp
        scalars[L.J_DT_SLOT], scalars[L.J_SETTLE_SLOT] = props["simulation/dt"], props[SETTLE]
        scalars[L.J_ALPHA_SLOT], scalars[L.J_BETA_SLOT] = props["aero/alpha-rad"], props["aero/beta-rad"]
        scalars[L.J_LIFT_SLOT], scalars[L.J_SIGMA_SLOT] = props[LIFT], props["atmosphere/sigma"]
        scalars[L.J_RHO_SLOT] = props["atmosphere/rho-slugs_ft3"]
        scalars[L.J_RPM_SLOT] = props[RPM] if RPM in props else -1
        scalars[L.J_EYE:L.J_EYE + 3] = mass.structural_to_body(metrics.eye_point, cg)
        for k, name in enumerate(L.PROP_LOADS):
            scalars[L.J_PROP_SLOTS + k] = props[name] if name in props else -1
        scalars[L.J_TIME_SLOT] = props["simulation/sim-time-sec"] if "simulation/sim-time-sec" in props else -1
        scalars[L.J_GEAR_WOW_SLOT] = props["gear/wow"] if "gear/wow" in props else -1
        scalars[L.J_WHEELS] = wheels
        scalars[L.J_RP_SHIFT_SLOT] = aero.rp_shift_slot
        for k, name in enumerate(L.GEAR_LOADS):
            scalars[L.J_GEAR_FORCE_SLOTS + k] = props[name] if name in props else -1
        scalars[L.J_INERTIA:L.J_INERTIA + 9] = inertia_about_cg(mass).ravel()
        scalars[L.J_INERTIA + 9:L.J_INERTIA + 18] = np.linalg.inv(inertia_about_cg(mass)).ravel()
        scalars[L.J_STEER_CMD_SLOT] = props["fcs/steer-cmd-norm"]
        scalars[L.J_GEAR_POS_SLOT] = props[GEAR_POSITION]
        scalars[L.J_BRAKE_SLOTS:L.J_BRAKE_SLOTS + 3] = [props[n] for n in L.BRAKES]
        if buoyancy.rows.shape[0]:
            scalars[L.J_GAS_SLOTS:L.J_LOAD_SLOTS] = buoyancy.gas_slots
            scalars[L.J_LOAD_SLOTS:L.J_LOAD_SLOTS + 9] = buoyancy.load_slots
        scalars[L.J_LOAD_SLOTS + 6:L.J_LOAD_SLOTS + 9] = [props.slot(f"inertia/cg-{axis}-in") for axis in "xyz"]
        scalars[L.J_VRP:L.J_VRP + 3] = metrics.visual_point
        written = set(fcs.outputs)
        for k, name in enumerate(L.WIND_PROPERTIES):
            scalars[L.J_WIND_SLOTS + k] = props[name] if name in written else -1
        return cls(source, props, metrics, mass, aero, fcs, engines, initial,
                   np.array(rows, dtype=np.float64).reshape(-1, L.COMMAND_FIELDS), state_slots, aux_slots, scalars,
                   external, contact_rows,
                   tuple(sorted({n for n in (*fcs.inputs, *aero.inputs, *getattr(engines, "inputs", ()))
                                 if n.startswith("/")})), fuel, buoyancy)

    @staticmethod
    def _contacts(source, props, mass, fcs):
        """The ``jsb_contacts`` rows (:data:`~flightsim.physics.jsbsim.ground_reactions.CONTACT_COLUMNS`), one per
        ``<contact>`` in file order (FGLGear's ``GearNumber`` ``k``), as ``FGLGear``'s constructor reads it: its
        ``gear/unit[k]/…`` (a STRUCTURE's ``contact/unit[k]/…``) ``WOW`` and ``wheel-speed-fps`` where a block reads
        them, its row in flightsim's gear (wheels first: :func:`contacts`), its location relative to the CG, the
        strut (a STRUCTURE's default spring the empty weight per ft, its dampers the same and, without a rebound
        damper, the damper), the friction coefficients (a STRUCTURE's static and dynamic 1 by default), the
        steering (castering at ``max_steer`` 360 or ``<castered>``), the brake group's command, the retraction and
        the strut's orientation; and how many wheels there are.

        Raises
        ------
        flightsim.errors.InputError
            A contact type or brake group JSBSim does not know, or a ``CORNERING_COEFF`` table (not supported):
            the file, the contact's element and why.
        """
        block = source.section("ground_reactions", required=False)
        elements = list(() if block is None else block.findall("contact"))
        kinds = [CONTACT_KINDS.get((el.get("type") or "BOGEY").upper()) for el in elements]
        order = [k for k, kind in enumerate(kinds) if kind == "wheel"] + [k for k, kind in enumerate(kinds)
                                                                           if kind == "hard_point"]
        brakes = {"LEFT": "fcs/left-brake-cmd-norm", "RIGHT": "fcs/right-brake-cmd-norm",
                  "CENTER": "fcs/center-brake-cmd-norm", "NOSE": "fcs/center-brake-cmd-norm",
                  "TAIL": "fcs/center-brake-cmd-norm", "NONE": None, "": None}
        cg = mass.cg
        rows = []
        for k, (el, kind) in enumerate(zip(elements, kinds, strict=True)):
            where = f"ground_reactions/contact[{k}]"
            if kind is None:
                raise InputError(source.path, f"{where} type", f"{el.get('type')!r} is not a contact type "
                                                               f"({', '.join(CONTACT_KINDS)})")
            for table in el.findall("table"):
                raise InputError(source.path, f"{where}/table",
                                 f"a {table.get('name') or 'tyre'} table is not supported")
            bogey = kind == "wheel"
            base = canonical(f"{'gear' if bogey else 'contact'}/unit[{k}]")
            row = np.full(len(G.CONTACT_COLUMNS), 0.0)
            row[G.C_WOW_SLOT], row[G.C_WHEEL_SPEED_SLOT] = (props[n] if n in props else -1
                                                            for n in (f"{base}/WOW", f"{base}/wheel-speed-fps"))
            row[G.C_GEAR_ROW] = order.index(k)
            row[G.C_KIND] = G.BOGEY if bogey else G.STRUCTURE
            row[G.C_X:G.C_X + 3] = mass.structural_to_body(source.location(el.find("location"), f"{where}/location"),
                                                           cg)

            def number(tag, unit=None, default=None, el=el, where=where):
                return source.child_number(el, tag, unit, where, default)

            def damper(tag, el=el, where=where):
                child = el.find(tag)
                if child is None:
                    return None
                if _square(child):
                    return square_damping(source, child, f"{where}/{tag}"), 1.0
                return number(tag, "LBS/FT/SEC"), 0.0

            spring = mass.empty_weight if not bogey else 0.0
            damping, rebound = ((spring, 0.0), (10.0 * spring, 0.0)) if not bogey else ((0.0, 0.0), (0.0, 0.0))
            static, dynamic = (1.0, 1.0) if not bogey else (0.0, 0.0)
            if el.find("spring_coeff") is not None:
                spring = number("spring_coeff", "LBS/FT")
            damping = damper("damping_coeff") or damping
            rebound = damper("damping_coeff_rebound") or damping
            row[G.C_SPRING] = spring
            row[G.C_DAMPING], row[G.C_DAMPING_SQUARE] = damping
            row[G.C_REBOUND], row[G.C_REBOUND_SQUARE] = rebound
            row[G.C_STATIC] = number("static_friction", default=static)
            row[G.C_DYNAMIC] = number("dynamic_friction", default=dynamic)
            row[G.C_ROLLING] = number("rolling_friction", default=0.0)
            steer = 0.0                     # (deg: FGLGear converts to degrees; 360 means castering)
            if el.find("max_steer") is not None:
                unit = (el.find("max_steer").get("unit") or "DEG").strip().upper()
                steer = number("max_steer") * (180.0 / math.pi if unit == "RAD" else 1.0)
            castered = el.find("castered")
            row[G.C_MAX_STEER] = steer
            if (steer == 360.0 and castered is None) or (castered is not None
                                                         and number("castered", default=0.0) != 0.0):
                row[G.C_STEERING] = G.CASTERED
            else:
                row[G.C_STEERING] = G.FIXED if steer == 0.0 else G.STEERED
            group = (el.findtext("brake_group") or "").strip()
            if group not in brakes:
                raise InputError(source.path, f"{where}/brake_group",
                                 f"{group!r} is not a brake group ({', '.join(b for b in brakes if b)})")
            row[G.C_BRAKE_SLOT] = props[brakes[group]] if brakes[group] else -1
            row[G.C_RETRACTABLE] = float(int(number("retractable", default=0.0)) > 0)
            position = canonical(f"{base}/pos-norm")
            row[G.C_UNIT_POSITION_SLOT] = props[position] if row[G.C_RETRACTABLE] and position in props else -1
            strut = canonical(G.STRUT_FORCE.format(unit=f"{'gear' if bogey else 'contact'}/unit[{k}]"))
            row[G.C_STRUT_SLOT] = props[strut] if el.find("strut_force") is not None else -1
            row[G.C_COMPRESSION_SLOT], row[G.C_COMPRESSION_SPEED_SLOT] = (
                props[n] if n in props else -1 for n in (f"{base}/compression-ft", f"{base}/compression-velocity-fps"))
            steer_position = canonical(f"fcs/steer-pos-deg[{k}]")
            row[G.C_STEER_POSITION_SLOT] = props[steer_position] if steer_position in fcs.outputs else -1
            orientation = el.find("orientation")
            t = (orientation_matrix(source, orientation, f"{where}/orientation")
                 if orientation is not None and bogey else np.eye(3))
            row[G.C_T:G.C_T + 9] = t.ravel()
            rows.append(row)
        return (np.array(rows, dtype=np.float64).reshape(-1, len(G.CONTACT_COLUMNS)),
                sum(kind == "wheel" for kind in kinds))

    @staticmethod
    def _compressions(source):
        """Each contact's ``…/compression-ft`` and ``…/compression-velocity-fps`` (FGLGear's, written by the ground
        reactions' every evaluation)."""
        block = source.section("ground_reactions", required=False)
        out = set()
        for k, el in enumerate(() if block is None else block.findall("contact")):
            bogey = CONTACT_KINDS.get((el.get("type") or "BOGEY").upper()) == "wheel"
            base = f"{'gear' if bogey else 'contact'}/unit[{k}]"
            out |= {canonical(f"{base}/compression-ft"), canonical(f"{base}/compression-velocity-fps")}
        return out

    @staticmethod
    def _strut_functions(source, builder):
        """Each ``<contact>``'s ``<strut_force><function>`` compiled into ``builder`` (the aerodynamics' program),
        its value stored into its :data:`~flightsim.physics.jsbsim.ground_reactions.STRUT_FORCE` property."""
        block = source.section("ground_reactions", required=False)
        for k, el in enumerate(() if block is None else block.findall("contact")):
            strut = el.find("strut_force")
            if strut is None:
                continue
            where = f"ground_reactions/contact[{k}]/strut_force"
            bogey = CONTACT_KINDS.get((el.get("type") or "BOGEY").upper()) == "wheel"
            builder.function(strut.find("function") if strut.find("function") is not None else strut,
                             f"{where}/function")
            builder.store(canonical(G.STRUT_FORCE.format(unit=f"{'gear' if bogey else 'contact'}/unit[{k}]")))

    @staticmethod
    def _retracting(source):
        """``gear/unit[k]/pos-norm`` of each retractable wheel: FGLGear's own ``GearPos``, 1 (down) unless
        something writes it (its gear extends with ``gear/gear-pos-norm``, which flightsim's gear does not
        read)."""
        block = source.section("ground_reactions", required=False)
        return {canonical(f"gear/unit[{k}]/pos-norm"): 1.0
                for k, el in enumerate(() if block is None else block.findall("contact"))
                if (el.findtext("retractable") or "0").strip() not in ("0", "")}

    @staticmethod
    def _check_inputs(source, props, aero, fcs, engines, supplied):
        """Refuse an aircraft whose blocks read a property nothing computes (naming the block and the property)."""
        computed = (supplied | set(AUXILIARY) | set(BUILTIN) | set(L.STATE) | set(fcs.outputs) | set(fcs.defaults)
                    | set(aero.defaults) | {name for name, _, _ in aero.functions}
                    | {CL_SQUARED, STALL_LATCH, LIFT, SETTLE, "simulation/dt"} | _engine_outputs(props, engines))
        for block, reads in (("flight_control", fcs.inputs), ("aerodynamics", aero.inputs),
                             ("propulsion", getattr(engines, "inputs", ()))):
            missing = [n for n in reads if n not in computed]
            undefined = [n for n in missing if n.startswith("/")]
            if undefined:           # FlightGear's tree: JSBSim alone stops at run_ic on such a read, as here
                raise InputError(source.path, block, f"reads {undefined[0]!r}, a FlightGear property nothing "
                                 "defines without FlightGear (JSBSim itself cannot run this aircraft alone)")
            if missing:
                raise InputError(source.path, block, f"reads {missing[0]!r}, which flightsim does not compute"
                                 + (f" (and {len(missing) - 1} more: {', '.join(missing[1:4])}…)"
                                    if len(missing) > 1 else ""))

    def fields(self):
        """The ``jsb_*`` fields of :class:`~flightsim.physics.aero.LoadParams` (fresh state arrays)."""
        fcs, aero, eng = self.fcs.program, self.aero.program, self.propulsion.program
        return dict(
            jsb_on=True, jsb_props=self.initial.copy(), jsb_native=self.native.addresses,
            jsb_frames=frame_addresses(self.propulsion.pistons),
            jsb_held=np.zeros(6), jsb_last=np.zeros(L.LAST_FIELDS + G.state_size(self.contacts.shape[0])),
            jsb_scalars=self.scalars, jsb_commands=self.commands, jsb_state_slots=self.state_slots,
            jsb_aux_slots=self.aux_slots, jsb_axis_slots=self.aero.axis_slots,
            jsb_frame_slots=self.aero.state_slots, jsb_limits=self.aero.limits,
            jsb_fcs_constants=fcs.constants, jsb_fcs_tables=fcs.tables, jsb_fcs_data=fcs.table_data,
            jsb_aero_constants=aero.constants, jsb_aero_tables=aero.tables, jsb_aero_data=aero.table_data,
            jsb_engine_constants=eng.constants, jsb_engine_tables=eng.tables, jsb_engine_data=eng.table_data,
            **dict(zip(ENGINE_FIELDS, self.propulsion.arrays, strict=True)), jsb_external=self.external.rows,
            jsb_gas=self.buoyancy.rows, jsb_contacts=self.contacts,
        )

    def gauges(self, props):
        """What the engine instruments read, per engine in file order: ``("turbine", N1 %, N2 %)``,
        ``("piston", engine rpm)`` (a turboprop's: its propeller's rpm) or ``("rocket", 0)``/``("electric", 0)``;
        and the Mach number (the last auxiliary values in ``props``)."""
        out = []
        for kind, row in self.propulsion.kinds:
            if kind == "turbine":
                s = self.propulsion.slots[row]
                out.append(("turbine", float(props[s[S_N1]]), float(props[s[S_N2]])))
            elif kind in ("turboprop", "brushless"):      # (its propeller's rpm, on the rpm gauge)
                out.append(("piston", float(props[self.propulsion.propeller_slots[row, RS_RPM]])))
            elif kind != "piston":              # (a rocket's, an electric engine's: no spool or propeller)
                out.append((kind, 0.0))
            else:
                out.append(("piston", float(props[self.propulsion.propeller_slots[row, RS_ENGINE_RPM]])))
        return tuple(out), float(props[self.properties["velocities/mach"]])

    @functools.cached_property
    def surface_slots(self):
        """The slots of :data:`SURFACES` (deg, JSBSim's signs) and each one's scale to degrees: the flaps' from
        ``fcs/flap-pos-norm`` (times :data:`FLAP_NORM_DEG`) where the flight controls write no degrees (found
        once: the app reads them every frame)."""
        slots = [self.properties[n] for n in SURFACES]
        scale = np.ones(len(SURFACES))
        if "fcs/flap-pos-deg" not in self.fcs.outputs and "fcs/flap-pos-norm" in self.fcs.outputs:
            slots[-1], scale[-1] = self.properties["fcs/flap-pos-norm"], FLAP_NORM_DEG
        return np.array(slots, dtype=np.int64), scale

    @functools.cached_property
    def native(self):
        """The flight controls', aerodynamics' and engines' programs compiled (:mod:`~flightsim.physics.jsbsim.native`):
        generated and compiled the first time the aircraft is flown on this machine, loaded from the cache after."""
        programs = {"fcs": self.fcs.program, "aero": self.aero.program, "engine": self.propulsion.program,
                    "engine_post": self.propulsion.post_program}
        return compile_blocks(programs, len(self.properties), Path(self.source.path).stem)

    @functools.cached_property
    def retractable(self):
        """Whether the gear lever moves this aircraft's gear: a ``<contact>`` has ``<retractable>`` and the
        aircraft's flight controls write ``gear/gear-pos-norm`` (its "Gear Control" kinematic: the time the gear
        takes is the aircraft's, as in JSBSim, where ``FGLGear`` only reads the position)."""
        return bool(self._retracting(self.source)) and canonical(GEAR_POSITION) in self.fcs.outputs

    @functools.cached_property
    def retracting_gear(self):
        """Per contact of the aircraft's ``gear`` (wheels first, then hard points, as :func:`contacts` orders them):
        whether it retracts (its ``<retractable>``) — with the gear not down and locked it is no wheel, as in
        ``FGLGear``."""
        block = self.source.section("ground_reactions", required=False)
        rows = [(CONTACT_KINDS.get((el.get("type") or "BOGEY").upper()),
                 (el.findtext("retractable") or "0").strip() not in ("0", ""))
                for el in (() if block is None else block.findall("contact"))]
        return tuple(r for kind, r in rows if kind == "wheel") + tuple(r for kind, r in rows if kind != "wheel")

    @property
    def gear_position_slot(self):
        """The property slot of ``gear/gear-pos-norm`` (0 up .. 1 down)."""
        return self.properties[GEAR_POSITION]

    @property
    def engine_count(self):
        """How many engines (of every kind)."""
        return len(self.propulsion.kinds)



def planet_of(source):
    """The aircraft file's ``<planet>`` as a :class:`~flightsim.physics.planet.Planet` (``FGInertial::Load``):
    ``semimajor_axis`` or ``equatorial_radius``, ``semiminor_axis`` or ``polar_radius`` (to ft),
    ``rotation_rate`` (rad/s), ``GM`` (ft³/s²), ``J2``; WGS-84's value for each one left out.  None when the
    file has no ``<planet>``.

    Raises
    ------
    flightsim.errors.InputError
        A value that is not a number, a unit that does not convert, or a planet that cannot be (a radius not
        above 0, a polar radius above the equatorial one): the file, the element and why.
    """
    from flightsim.physics.planet import WGS84, Planet

    el = source.section("planet", required=False)
    if el is None:
        return None

    def value(tags, unit, default, positive=False):
        for tag in tags:
            child = el.find(tag)
            if child is not None:
                number = source.number(child, f"planet/{tag}", unit)
                if positive and not number > 0.0:
                    raise InputError(source.path, f"planet/{tag}", f"must be > 0 {unit}, got {number:g}")
                return number
        return default

    a = value(("semimajor_axis", "equatorial_radius"), "FT", WGS84.a, positive=True)
    b = value(("semiminor_axis", "polar_radius"), "FT", WGS84.b, positive=True)
    omega = value(("rotation_rate",), "RAD/SEC", WGS84.omega)
    gm = value(("GM",), "FT3/SEC2", WGS84.gm, positive=True)
    j2 = value(("J2",), None, WGS84.j2)
    try:
        return Planet(el.get("name") or "planet", True, a=a, b=b, omega=omega, gm=gm, j2=j2)
    except ValueError as exc:
        raise InputError(source.path, "planet", str(exc)) from None


def load_jsbsim_aircraft(name):
    """Read a JSBSim aircraft (``"jsbsim:NAME"`` or a path to its ``.xml``) into an :class:`Aircraft`.

    Raises
    ------
    flightsim.errors.InputError
        A file that cannot be read, or an element, component, function or property that flightsim does not
        compute, named.
    """
    path = aircraft_path(name) if str(name).startswith("jsbsim:") else Path(name)
    source = JSBSimFile(path)
    model = JSBSimModel.read(source)
    mass = model.mass
    weight = mass.weight
    cg = design(mass.cg)
    inertia = _flip(inertia_about_cg(mass))
    gear = contacts(source, weight, cg)
    wheels = [c for c in gear if c.is_wheel] or list(gear)
    speed = cruise_speed(weight, model.metrics.wing_area, CRUISE_CL if model.engine_count else GLIDE_CL)
    title = source.root.get("name") or path.stem
    return Aircraft(
        name=title, source=path, elements=(), tables={}, air_density=RHO_SL, gravity=GRAVITY,
        max_thrust=float(np.sum(model.propulsion.engines[:, E_MIL])),
        initial_throttle=0.0, initial_position=np.array([0.0, 0.0, START_ALTITUDE]),
        initial_velocity=np.array([speed, 0.0, 0.0]), initial_attitude_deg=np.zeros(3), initial_omega=np.zeros(3),
        cruise_speed=speed, approach_speed=None, crash_sink_rate=CRASH_SINK_RATE,
        gear=gear, contact_height=float(-min(c.position[2] for c in wheels)) if wheels else 0.0,
        mass=weight / GRAVITY, cg=cg, inertia=inertia, inertia_inv=np.linalg.inv(inertia),
        airspeed_unit="kt", jsbsim=model, planet=planet_of(source), atmosphere="isa")


def fleet():
    """The ``jsbsim`` package's aircraft read: ``[(NAME, Aircraft or the InputError that refused it)]``, by name."""
    from flightsim.physics.jsbsim.xmlfile import aircraft_names

    out = []
    for name in aircraft_names():
        try:
            out.append((name, load_jsbsim_aircraft(f"jsbsim:{name}")))
        except InputError as exc:
            out.append((name, exc))
    return out

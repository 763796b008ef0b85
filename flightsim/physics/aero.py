"""Body-frame loads of an airplane made of aerodynamic elements (Bourg ch. 7/15).

:func:`pack` turns an :class:`~flightsim.physics.aircraft.Aircraft` into flat arrays
and scalars, the named tuple :class:`LoadParams` (``params``); :func:`airplane_loads`
is the compiled loads function the integrators call,
``loads(t, y, params) -> (ax, ay, az, mx, my, mz)``, and reads ``params`` by
field name only.

Per element, in the body frame (x forward, y left, z up), as the book does:

1. local velocity relative to the air ``v_air + (ω − ω_g) × r`` (r: element
   position relative to the CG), ``v_air = R^T (v − wind)`` the body-frame
   velocity through the air and ω_g the turbulence's rotation (the ``wind``
   field, :mod:`flightsim.physics.wind`; zero in still air, where this is the
   book's ``v_body + ω × r``);
2. drag direction ``−v_local/|v_local|``;
3. lift direction ``(drag × n) × drag`` normalised, n the element's normal
   ``(sin i, cos i sin d, cos i cos d)`` for incidence i and dihedral d;
4. angle of attack ``asin(drag · n)``;
5. coefficients from the element's table (flap setting blended, see
   :func:`coefficients`), force ``(lift CL + drag CD) ½ ρ |v|² S``, moment
   ``r × force``.

Thrust acts along body +x: ``throttle × max_thrust`` for an airplane with a
constant thrust (the book's), or a propeller's thrust (:func:`propeller`),
which falls with airspeed and with the air's density.  The total force is rotated body → earth with
QVRotate (``q ⊗ F ⊗ q*``) and gravity added; the moment stays in the body
frame.  Units are the aircraft file's (ft, slug, lbf).

The landing gear (:func:`flightsim.physics.gear.gear_loads`, its own
module) joins the loads in the same evaluation: each contact point below the
ground (z = 0) pushes up with its spring and damper and rubs along the ground
with its friction, so every integrator, at every Runge–Kutta stage, sees the
ground as it sees the air.  Above the ground it adds nothing, and the loads
are bit for bit those without a gear.  The density is the file's constant, or
the standard atmosphere's (:func:`isa_density`, constants from
:mod:`flightsim.physics.constants`).

The gear's names (``pack_gear``, ``wheel_brake``, ``gear_loads``,
``contact_loads``, ``hold_brakes``, the ``G_*``, ``R_*``, ``GD_*``, ``A_*``
and ``BRAKE_*`` constants) and the controls' layout (``INPUTS``, ``C_*``,
:mod:`flightsim.physics.inputs`) are importable from here as before;
``ground_contact`` is :func:`flightsim.physics.ground.ground_contact`.

A JSBSim aircraft (``Aircraft.jsbsim``, :mod:`flightsim.physics.jsbsim`) has no
elements: its ``jsb_*`` fields hold its compiled blocks, and :func:`airplane_loads`
hands it to :func:`flightsim.physics.jsbsim.loads.jsbsim_loads` (the aerodynamics at
every stage); :func:`step_start` runs its flight controls and engines once per step,
before the integrator, and :func:`settle` puts them at their steady state (trim, a
start).  For flightsim's own aircraft both do nothing and the loads are bit for bit
those before.

Every compiled function here only reads and writes the arrays it is given:
they are compiled with :data:`~flightsim.math.compiler.borrowing_jit` (and its
entry and inlined kinds), without numba's reference counting of the
parameters' arrays.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from flightsim.math.compiler import borrowing_entry_jit, borrowing_inline_jit, borrowing_jit
from flightsim.math.kernels import arcsin_one, qv_rotate
from flightsim.physics.constants import (
    ISA_DENSITY_EXPONENT,
    ISA_LAPSE,
    ISA_SCALE_HEIGHT,
    ISA_TROPOPAUSE,
    P_SL,
    PASCAL,
    RHO_SL,
)

# the gear's names and the controls' layout, re-exported: ``aero.gear_loads``, ``aero.INPUTS``… as before
from flightsim.physics.gear import (  # noqa: F401
    A_ON,
    A_X,
    A_Y,
    BRAKE_BOTH,
    BRAKE_LEFT,
    BRAKE_NONE,
    BRAKE_RIGHT,
    G_BRAKE,
    G_DAMPING,
    G_ROLLING,
    G_STATIC,
    G_STEER,
    G_STIFFNESS,
    G_TRAVEL,
    GD_DEPTH,
    GD_LOAD,
    GD_RATE,
    GEAR_HARD,
    GEAR_WHEEL,
    HOLD_DISTANCE,
    R_BRAKE,
    R_KIND,
    SLIP_SPEED,
    SLIP_TAN,
    contact_loads,
    gear_loads,
    hold_brakes,
    pack_gear,
    wheel_brake,
)
from flightsim.physics.inputs import (  # noqa: F401
    C_BRAKE,
    C_ENGINE,
    C_GEAR,
    C_PARKING_BRAKE,
    C_RUDDER,
    C_THROTTLE,
    INPUTS,
)
from flightsim.physics.jsbsim.loads import jsbsim_loads
from flightsim.physics.jsbsim.loads import settle_start as jsbsim_settle_start
from flightsim.physics.jsbsim.loads import step_start as jsbsim_step_start
from flightsim.physics.planet import P_VIEW, P_VIEW_END, eci_acceleration, gravity_torque, view_in_place

KIND_LIFTING, KIND_SYMMETRIC, KIND_DRAG = 0, 1, 2
KINDS = {"lifting": KIND_LIFTING, "symmetric": KIND_SYMMETRIC, "drag": KIND_DRAG}
#: Columns of the element array ``elem``.
E_INCIDENCE, E_DIHEDRAL, E_AREA, E_FLAP_GAIN, E_INC_GAIN = range(5)
#: Columns of the integer element array ``elem_i``.
I_TABLE, I_FLAP_INPUT, I_INC_INPUT, I_IS_WING, I_GROUND_EFFECT = range(5)
#: Entries of ``ground_effect`` (:func:`pack_ground_effect`): the wing's span (ft; 0: no ground effect), its
#: induced-drag factor ``1 / (π e A)``, and ``a₀ (1 + τ) / (π A)`` (the induced angle per unit of section lift).
GE_SPAN, GE_INDUCED, GE_COUPLING = range(3)
#: Entries of the diagnostics array written by each loads evaluation (and, ``D_UNCONVERGED``, by an implicit
#: step: 1 when its iteration did not converge and it took the last iterate).
D_STALL, D_RHO, D_THRUST, D_RPM, D_UNCONVERGED = range(5)
DIAG_FIELDS = 5
#: Below this local airspeed (ft/s) an element makes no load (the book does not update its drag direction).
MIN_SPEED = 1.0
#: Entries of the engine array ``engine`` (:func:`propeller`): brake power at the rated speed, full throttle, sea
#: level (ft·lbf/s), rated speed (rev/s), propeller diameter (ft), the throttle's flow at idle (a fraction of the
#: rated-speed flow), sea-level density of the lapse (slug/ft³), indicated power per unit flow (ft·lbf/s),
#: friction work per revolution at rest and its growth with speed, linear and quadratic (ft·lbf, per rev/s, per
#: (rev/s)²), pumping work per revolution at a full vacuum, sea level (ft·lbf); the fraction of its indicated power
#: (of a constant thrust, of its thrust) the engine gives (1; less with a failure:
#: :mod:`flightsim.simulation.failures`).
P_POWER, P_RATED, P_DIAMETER, P_IDLE, P_RHO0, P_INDICATED, P_FRICTION0, P_FRICTION1, P_FRICTION2, P_PUMP, \
    P_AVAILABLE = range(11)
#: Friction mean effective pressure of a spark-ignition engine, ``FMEP = a + b N + c N²`` with N in thousands of
#: rev/min (Pa): Heywood, *Internal Combustion Engine Fundamentals* (1988), eq. 13.19 (Barnes-Moss: motored
#: engines, the throttle wide open).  The volumetric efficiency of the pumping loss (JSBSim's ``FGPiston``'s).
FMEP = (0.97e5, 0.15e5, 0.05e5)
VOLUMETRIC_EFFICIENCY = 0.85
#: The open throttle passes this multiple of the engine's rated-speed flow; ``K`` of the blend of the throttle's
#: flow and the cylinders' (:func:`propeller`).
THROTTLE_OPEN = 1.5
THROTTLE_SHARPNESS = 6.0
#: Rows of ``prop_table``: advance ratio J = V/(nD), thrust coefficient C_T = T/(ρn²D⁴), power coefficient
#: C_P = P/(ρn³D⁵).
PT_J, PT_CT, PT_CP = range(3)
#: Bisection steps solving for the propeller's speed (each halves the bracket; 2⁻⁴⁴ ≈ 6e-14 of it remains).
PROP_ITERATIONS = 44


class LoadParams(NamedTuple):
    """The loads' parameters, read by name (numba compiles a named tuple to a struct).

    Arrays and scalars that :func:`airplane_loads` needs, made by :func:`pack`
    (an airplane) or :func:`free_body`.  The arrays ``controls`` and ``diag``
    are written in place (by the simulation before each step, and by every
    loads evaluation); everything else is fixed once packed.  New inputs of the
    loads (wind, propeller tables…) join as new fields, as the landing
    gear's did; every field is required, so a constructor that misses one
    fails.  The element, table and gear arrays have one row per element,
    table or contact point; their columns are named by the ``E_*``, ``I_*``
    constants of this module and the ``G_*``, ``R_*``, ``GD_*``, ``A_*`` ones
    of :mod:`flightsim.physics.gear`.
    """

    #: (n, 3) float: element positions relative to the CG, body frame (ft).
    positions: np.ndarray
    #: (n, 5) float: per element incidence (deg), dihedral (deg), area (ft²), flap gain, incidence gain: ``E_*``.
    elements: np.ndarray
    #: (n, 5) int: per element table number, flap input, incidence input (−1: none), is-wing flag, feels the
    #: ground: ``I_*``.
    element_refs: np.ndarray
    #: (n, 3) float: each element's normal at its fixed incidence, body frame (:func:`element_normal`); the loads
    #: use it for the elements without an incidence control.
    normals: np.ndarray
    #: (nt, w) float: each table's angle-of-attack breakpoints (deg).
    table_alpha: np.ndarray
    #: (nt, 6, w) float: CL, CL flap down, CL flap up, CD, CD flap down, CD flap up at the breakpoints.
    table_values: np.ndarray
    #: (nt,) int: breakpoints in use per table.
    table_size: np.ndarray
    #: (nt,) int: ``KIND_*`` per table.
    table_kind: np.ndarray
    #: (nt, 2) float: CL and CD outside the breakpoints (stalled).
    table_outside: np.ndarray
    #: Air density (slug/ft³); at sea level when ``isa``.
    air_density: float
    #: Gravity (ft/s²), along earth −z.
    gravity: float
    #: Mass (slug).
    mass: float
    #: Thrust at full throttle (lbf), along body +x.
    max_thrust: float
    #: Density from the standard atmosphere at the airplane's altitude instead of the constant.
    isa: bool
    #: (10,) float: pilot inputs in :data:`INPUTS` order; written by the simulation before each step.
    controls: np.ndarray
    #: (3,) float: written by each loads evaluation: ``D_*``.
    diag: np.ndarray
    #: (6,) float: the wind, written by the simulation once per step and held through the integrator's
    #: stages: earth wind velocity (ft/s, x North, y West, z up) and the turbulence's rotation
    #: (p_g, q_g, r_g, body rad/s); see :mod:`flightsim.physics.wind`.  Zero: still air.
    wind: np.ndarray
    #: (m, 3) float: ground contact points relative to the CG, body frame (ft): a wheel's lowest point, leg extended.
    gear_positions: np.ndarray
    #: (m, 7) float: per contact point stiffness, damping, friction coefficients, steering (rad), travel: ``G_*``.
    gear: np.ndarray
    #: (m, 2) int: per contact point its kind and brake input: ``R_*``.
    gear_refs: np.ndarray
    #: Farthest contact point from the CG (ft): with the CG higher than this nothing touches.
    gear_reach: float
    #: (m, 3) float: written by each loads evaluation: ``GD_*`` per contact point.
    gear_diag: np.ndarray
    #: (m, 3) float: where each braked wheel holds (``A_*``); written between steps by
    #: :func:`~flightsim.physics.gear.hold_brakes`.
    gear_anchor: np.ndarray
    #: Thrust from an engine and a propeller (:func:`propeller`) instead of ``throttle × max_thrust``.
    propeller: bool
    #: (10,) float: the engine and propeller's scalars, ``P_*`` (zeros without a propeller).
    engine: np.ndarray
    #: (3, k) float: the propeller's table, rows ``PT_*`` (J, C_T, C_P) at k advance ratios (k ≥ 2).
    prop_table: np.ndarray
    #: (3,) float: the wing's ground effect, ``GE_*`` (zeros: none; :class:`flightsim.physics.aircraft.GroundEffect`).
    ground_effect: np.ndarray
    # A JSBSim aircraft (:mod:`flightsim.physics.jsbsim.loads`; :func:`no_jsbsim` for the others): its loads come
    # from these and not from the elements.
    #: The loads are a JSBSim aircraft's: True; None for flightsim's own aircraft.  None, not False: the two are
    #: then different types to numba, so each kind of aircraft compiles its own loads only (:func:`airplane_loads`).
    #: Every ``jsb_*`` field is None for flightsim's own aircraft (:func:`no_jsbsim`).
    jsb_on: object
    #: The loads are flightsim's own: True; None for a JSBSim aircraft's (the other way round from ``jsb_on``):
    #: numba prunes a branch by an argument's type only when that type is None, so each kind of aircraft needs a
    #: None of its own for :func:`own_loads` to drop the other kind's code (a JSBSim aircraft compiled all of
    #: flightsim's own aerodynamics before).
    own_on: object
    #: (p,) float: the property array (written by every evaluation; one per airplane).
    jsb_props: np.ndarray
    #: (6,) float: the thrusters' body loads held through a step (JSBSim's body frame; one per airplane).
    jsb_held: np.ndarray
    #: float: the last step's body velocity and acceleration for α̇ (``loads.LAST_FIELDS``; one per airplane).
    jsb_last: np.ndarray
    #: float: ``loads.J_*`` scalars (reference lengths, the aerodynamic reference point, slots).
    jsb_scalars: np.ndarray
    #: (c, 5) float: the pilot's controls into JSBSim's commands (``loads.COMMAND_FIELDS``).
    jsb_commands: np.ndarray
    #: int: slots of ``loads.STATE``.
    jsb_state_slots: np.ndarray
    #: int: slots of the auxiliary properties (``auxiliary.AUXILIARY``).
    jsb_aux_slots: np.ndarray
    #: (6, n) int: the aerodynamics' functions summed per axis.
    jsb_axis_slots: np.ndarray
    #: int: the aerodynamics' frame-state slots (``Aerodynamics.state_slots``).
    jsb_frame_slots: np.ndarray
    #: (2,) float: the stall hysteresis limits (rad).
    jsb_limits: np.ndarray
    #: (3,) int: the addresses of the compiled flight controls, aerodynamics and engines' programs
    #: (:mod:`flightsim.physics.jsbsim.native`, ``BLOCKS`` order), each called on the block's arrays below.
    jsb_native: np.ndarray
    #: (2,) int: the addresses of a piston's frame and of a propeller-driving turbine's (0: the aircraft has none;
    #: ``propulsion.frame_addresses``): compiled for the aircraft that has them only.
    jsb_frames: np.ndarray
    #: The flight controls' program's numbers, tables and table data (``Program`` arrays).
    jsb_fcs_constants: np.ndarray
    jsb_fcs_tables: np.ndarray
    jsb_fcs_data: np.ndarray
    #: The aerodynamics' program's.
    jsb_aero_constants: np.ndarray
    jsb_aero_tables: np.ndarray
    jsb_aero_data: np.ndarray
    #: The engines' program's.
    jsb_engine_constants: np.ndarray
    jsb_engine_tables: np.ndarray
    jsb_engine_data: np.ndarray
    #: The engines: ``Propulsion.arrays`` (turbines, pistons, propellers, the propellers' tables).
    jsb_turbines: np.ndarray
    jsb_turbine_slots: np.ndarray
    jsb_pistons: np.ndarray
    jsb_piston_slots: np.ndarray
    jsb_propellers: np.ndarray
    jsb_propeller_slots: np.ndarray
    jsb_engine_table_index: np.ndarray
    jsb_engine_table_data: np.ndarray
    #: (n, 7) float: the external forces (``external.ExternalForces.rows``), held with the thrust.
    jsb_external: np.ndarray
    #: (n, GAS_FIELDS) float: the gas cells and their ballonets (``buoyancy.BuoyantForces.rows``; their state is
    #: properties), whose loads are held with the thrust.
    jsb_gas: np.ndarray
    #: (n, 3) float: the contacts' properties the flight controls read (``loads.C_*``).
    jsb_contacts: np.ndarray
    #: The planet: None for Bourg's flat one (the state is the earth frame's), or the packed round planet
    #: (:func:`flightsim.physics.planet.pack`; one per airplane: it holds the scratch view), the state then
    #: Earth-centred inertial and the loads evaluated in its view (:func:`round_loads`).  None, not an empty
    #: array, so that a flat flight compiles no planet at all (as ``jsb_on``).
    planet: object
    #: The ground: None for the plane z = 0 (nothing of the terrain compiled), or the packed terrain
    #: (:func:`flightsim.physics.terrain.pack_terrain`; shared, read only) under the contact points
    #: (:func:`flightsim.physics.gear.terrain_contact_loads`) and the ground check
    #: (:mod:`flightsim.physics.ground`); looked up with the state's (on a round planet its view's) x, y.
    terrain: object


def pack_propeller(prop):
    """The propeller fields of :class:`LoadParams` for a :class:`~flightsim.physics.aircraft.Propeller` or None.

    The indicated power per unit flow is what gives the file's brake power at the rated speed, full throttle,
    sea level, after the friction and the pumping there.

    Returns
    -------
    dict
        ``propeller``, ``engine``, ``prop_table``.
    """
    if prop is None:
        engine = np.zeros(11)
        engine[P_AVAILABLE] = 1.0
        return dict(propeller=False, engine=engine, prop_table=np.zeros((3, 2)))
    engine = np.zeros(11)
    engine[P_AVAILABLE] = 1.0
    n = prop.rated_rpm / 60.0
    engine[P_POWER] = prop.max_power
    engine[P_RATED] = n
    engine[P_DIAMETER] = prop.diameter
    engine[P_IDLE] = prop.idle_power
    engine[P_RHO0] = RHO_SL
    per_rev = PASCAL * prop.displacement / 2.0              # a 4-stroke engine: one cycle per 2 revolutions
    engine[P_FRICTION0] = FMEP[0] * per_rev
    engine[P_FRICTION1] = FMEP[1] * 0.06 * per_rev         # N / 1000 = 0.06 n (n rev/s)
    engine[P_FRICTION2] = FMEP[2] * 0.06 * 0.06 * per_rev
    engine[P_PUMP] = P_SL * prop.displacement / 2.0 * VOLUMETRIC_EFFICIENCY
    flow = (THROTTLE_OPEN ** -THROTTLE_SHARPNESS + 1.0) ** (-1.0 / THROTTLE_SHARPNESS)   # full throttle, rated
    losses = (engine[P_FRICTION0] + (engine[P_FRICTION1] + engine[P_FRICTION2] * n) * n) * n \
        + engine[P_PUMP] * (1.0 - flow) * n
    engine[P_INDICATED] = (prop.max_power + losses) / flow
    table = np.array([prop.advance_ratio, prop.thrust_coefficient, prop.power_coefficient], dtype=np.float64)
    return dict(propeller=True, engine=engine, prop_table=table)


def pack_ground_effect(ground):
    """The ``ground_effect`` field of :class:`LoadParams` (``GE_*``) for a
    :class:`~flightsim.physics.aircraft.GroundEffect` or None (zeros: the elements never feel the ground)."""
    out = np.zeros(3)
    if ground is not None:
        out[GE_SPAN] = ground.span
        out[GE_INDUCED] = 1.0 / (math.pi * ground.span_efficiency * ground.aspect_ratio)
        out[GE_COUPLING] = math.degrees(ground.lift_slope) * (1.0 + ground.tau) / (math.pi * ground.aspect_ratio)
    return out


def static_propeller(prop):
    """``(thrust lbf, rpm)`` of ``prop`` at full throttle, at rest, standard sea level."""
    fields = pack_propeller(prop)
    thrust, rpm = propeller(1.0, True, 0.0, RHO_SL, fields["engine"], fields["prop_table"])
    return float(thrust), float(rpm)


#: The :class:`LoadParams` fields of ``Propulsion.arrays``, in its order.
ENGINE_FIELDS = ("jsb_turbines", "jsb_turbine_slots", "jsb_pistons", "jsb_piston_slots", "jsb_propellers",
                 "jsb_propeller_slots", "jsb_engine_table_index", "jsb_engine_table_data")


def no_jsbsim():
    """The ``jsb_*`` fields of :class:`LoadParams` for an aircraft that is not JSBSim's: all None.

    None, not empty arrays: numba then gives the fields no room at all, so every compiled function that takes
    the parameters (and the wrapper that unboxes them from Python at each entry) handles some thirty arrays
    fewer for flightsim's own aircraft.
    """
    return dict.fromkeys(name for name in LoadParams._fields if name.startswith("jsb_"))


def pack_jsbsim(aircraft):
    """The ``jsb_*`` fields for ``aircraft``: its JSBSim model's, or :func:`no_jsbsim`."""
    model = getattr(aircraft, "jsbsim", None)
    return no_jsbsim() if model is None else model.fields()


def pack(aircraft, atmosphere=None):
    """Flatten an aircraft into the parameters of :func:`airplane_loads`.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    atmosphere : {"constant", "isa"} or None
        The book's constant density, or the standard atmosphere's density at
        the airplane's altitude (troposphere, scaled to the file's sea-level
        density); None: the aircraft's own
        (:func:`~flightsim.physics.aircraft.atmosphere_of`).

    Returns
    -------
    LoadParams
        ``controls`` (:data:`INPUTS`: throttle, elevator, aileron, rudder,
        flaps, brake, parking brake) is written by the simulation before
        each step; ``diag`` and ``gear_diag`` are written by the loads.
    """
    from flightsim.physics.aircraft import atmosphere_of  # (the aircraft module's loader imports this one)

    atmosphere = atmosphere_of(aircraft, atmosphere)
    names = list(aircraft.tables)
    n = len(aircraft.elements)
    r = np.array([e.position for e in aircraft.elements], dtype=np.float64).reshape(n, 3)
    elem = np.zeros((n, 5))
    elem_i = np.full((n, 5), -1, dtype=np.int64)
    ground = aircraft.ground_effect
    for k, e in enumerate(aircraft.elements):
        elem[k, E_INCIDENCE] = e.incidence_deg
        elem[k, E_DIHEDRAL] = e.dihedral_deg
        elem[k, E_AREA] = e.area
        elem_i[k, I_TABLE] = names.index(e.table)
        elem_i[k, I_IS_WING] = 1 if e.part == "wing" else 0
        elem_i[k, I_GROUND_EFFECT] = 1 if ground is not None and k in ground.elements else 0
        if e.flap is not None:
            elem[k, E_FLAP_GAIN] = e.flap.gain
            elem_i[k, I_FLAP_INPUT] = INPUTS.index(e.flap.input)
        if e.incidence_control is not None:
            elem[k, E_INC_GAIN] = e.incidence_control.gain
            elem_i[k, I_INC_INPUT] = INPUTS.index(e.incidence_control.input)
    width = max([len(t.alpha) for t in aircraft.tables.values()] + [1])
    nt = len(names)
    tab_alpha = np.zeros((nt, width))
    tab_vals = np.zeros((nt, 6, width))
    tab_n = np.zeros(nt, dtype=np.int64)
    tab_kind = np.zeros(nt, dtype=np.int64)
    tab_out = np.zeros((nt, 2))
    for k, name in enumerate(names):
        t = aircraft.tables[name]
        tab_kind[k] = KINDS[t.kind]
        tab_out[k] = (t.outside_cl, t.outside_cd)
        if t.kind == "drag":
            tab_vals[k, 3, 0] = t.cd[0]
            continue
        m = len(t.alpha)
        tab_n[k] = m
        tab_alpha[k, :m] = t.alpha
        neutral = (t.cl, t.cl, t.cl, t.cd, t.cd, t.cd)
        columns = (t.cl, t.cl_te_down, t.cl_te_up, t.cd, t.cd_te_down, t.cd_te_up)
        for j, (col, fallback) in enumerate(zip(columns, neutral, strict=True)):
            tab_vals[k, j, :m] = fallback if col is None else col
    # the compiled function's own source run as Python (the same libm, the same bits): packing compiles nothing
    normal = element_normal.py_func
    normals = np.array([normal(float(elem[k, E_INCIDENCE]) + 0.0, float(elem[k, E_DIHEDRAL])) for k in range(n)],
                       dtype=np.float64).reshape(n, 3)
    return LoadParams(
        positions=r, elements=elem, element_refs=elem_i, normals=normals,
        table_alpha=tab_alpha, table_values=tab_vals, table_size=tab_n, table_kind=tab_kind, table_outside=tab_out,
        air_density=float(aircraft.air_density), gravity=float(aircraft.gravity), mass=float(aircraft.mass),
        max_thrust=float(aircraft.max_thrust), isa=atmosphere == "isa",
        controls=resting_controls(), diag=np.zeros(DIAG_FIELDS), wind=np.zeros(6), **pack_gear(aircraft.gear),
        **pack_propeller(aircraft.propeller), ground_effect=pack_ground_effect(aircraft.ground_effect),
        **pack_jsbsim(aircraft), own_on=None if getattr(aircraft, "jsbsim", None) is not None else True,
        planet=None, terrain=None,
    )


def resting_controls():
    """A controls array (:data:`INPUTS` order) with every control at 0 but the engine, running, and the gear
    lever, down."""
    u = np.zeros(len(INPUTS))
    u[C_ENGINE] = 1.0
    u[C_GEAR] = 1.0
    return u


def free_body(mass=1.0):
    """:class:`LoadParams` of a body with no aerodynamic elements, thrust, gravity or gear: a free rigid body.

    Same field types as :func:`pack`, so the same compiled steps serve both.
    """
    return LoadParams(
        positions=np.zeros((0, 3)), elements=np.zeros((0, 5)), element_refs=np.zeros((0, 5), dtype=np.int64),
        normals=np.zeros((0, 3)),
        table_alpha=np.zeros((0, 1)), table_values=np.zeros((0, 6, 1)), table_size=np.zeros(0, dtype=np.int64),
        table_kind=np.zeros(0, dtype=np.int64), table_outside=np.zeros((0, 2)),
        air_density=0.0, gravity=0.0, mass=float(mass), max_thrust=0.0, isa=False,
        controls=resting_controls(), diag=np.zeros(DIAG_FIELDS), wind=np.zeros(6), **pack_gear(()),
        **pack_propeller(None), ground_effect=pack_ground_effect(None), **no_jsbsim(), own_on=True, planet=None,
        terrain=None,
    )


@borrowing_jit
def isa_density(rho0, altitude_ft):
    """Standard-atmosphere density (troposphere, to 36 089 ft, isothermal above), scaled to ``rho0``.

    ``ρ = ρ0 (1 − ISA_LAPSE h)^ISA_DENSITY_EXPONENT`` up to :data:`~flightsim.physics.constants.ISA_TROPOPAUSE`,
    times ``exp(−(h − ISA_TROPOPAUSE) / ISA_SCALE_HEIGHT)`` above it (U.S. Standard Atmosphere 1976;
    :mod:`flightsim.physics.constants`); ``altitude_ft`` below 0 counts as 0.
    """
    h = min(max(altitude_ft, 0.0), ISA_TROPOPAUSE)
    ratio = (1.0 - ISA_LAPSE * h) ** ISA_DENSITY_EXPONENT
    if altitude_ft > ISA_TROPOPAUSE:
        ratio *= math.exp(-(altitude_ft - ISA_TROPOPAUSE) / ISA_SCALE_HEIGHT)
    return rho0 * ratio


@borrowing_entry_jit
def propeller(throttle, running, v_axial, rho, engine, table):
    """Thrust (lbf) and speed (rev/min) of a piston engine turning a fixed-pitch propeller: running, idling,
    windmilling, or stopped.

    The speed ``n`` (rev/s) is where the engine's torque and the propeller's balance (quasi-steady: no
    rotor inertia).  The engine's brake power is ``P = P_i − P_f − P_p``:

    - indicated ``P_i = P_ind σ m`` while it runs (0 off), ``m`` the air it breathes as a fraction of
      its rated-speed flow at ambient density: the smaller of what the throttle passes (``A = idle +
      (OPEN − idle) throttle``, choked: the same at any speed) and what the cylinders pump (``r = n /
      n_rated``), blended as ``m = (A⁻ᴷ + r⁻ᴷ)^(−1/K)``; so an open throttle's power grows with the
      speed as a piston engine's does, and a closed one's hardly does.  The indicated power follows the
      air's density ``σ = ρ / ρ_SL`` (the charge the cylinders hold at a given speed and throttle, the fuel
      metered to it: the handbook's mixture leaned for the most power above 3,000 ft); the friction and the
      pumping below do not lapse, and with them the brake power lapses as a normally aspirated engine's,
      Gagg and Ferrar's ``1.132 σ − 0.132`` (NACA TN 504, 1934; Gudmundsson, *General Aviation Aircraft
      Design*, eq. 7-16: its ``0.132`` is the friction, 13 % of the rated power, that does not lapse): the
      172R's 160 hp at 2400 rpm is 130.5 hp at 5,800 ft ISA (σ 0.841, 0.815 of it; Gagg and Ferrar 0.820)
      and 120.3 hp at 8,000 ft (0.752; 0.758).  (Their lapse applied to the indicated power, the friction
      then taken off again, counted the friction twice: 0.791 at 5,800 ft, 0.719 at 8,000 ft.);
    - friction ``P_f = FMEP V_d n / 2``, :data:`FMEP` growing with the speed (Heywood's correlation for
      motored engines), running or not;
    - pumping ``P_p = (1 − μ) p V_d η_v n / 2`` across a manifold pressure ``μ = m / r`` of the ambient
      (a closed throttle's vacuum), ``p`` the ambient pressure taken as ``σ p_SL``.

    The propeller absorbs ``C_P(J) ρ n³ D⁵`` and gives ``C_T(J) ρ n² D⁴`` at ``J = V / (nD)``.  Beyond
    the table's last advance ratio ``C_T / J²`` and ``C_P / J²`` hold (the stopped propeller's limit:
    its drag and the air's torque on it grow as ``V²``).  Engine off, the air turns the propeller
    (negative ``C_P``) against the friction and the pumping; where the air's torque on the stopped
    propeller is less than the engine's friction at rest, it stays stopped (``n = 0``) and drags
    ``(C_T / J²) ρ V² D²``.  The torque surplus falls with ``n``, so the speed is unique: bisection.

    Parameters
    ----------
    throttle : float
        0..1 (clipped).
    running : bool
        The engine runs (False: mixture cut, magnetos off).
    v_axial : float
        Airspeed along the propeller's axis (body x), ft/s; negative counts as 0.
    rho : float
        Air density, slug/ft³.
    engine, table : numpy.ndarray
        The :class:`LoadParams` fields ``engine`` (``P_*``) and ``prop_table`` (``PT_*``).

    Returns
    -------
    (float, float)
        Thrust along the axis (lbf; negative: drag) and the propeller's speed (rev/min).
    """
    thr = min(max(throttle, 0.0), 1.0)
    v = max(v_axial, 0.0)
    d = engine[P_DIAMETER]
    if rho <= 0.0:
        return 0.0, 0.0
    sigma = rho / engine[P_RHO0]
    lapse = sigma * engine[P_AVAILABLE] if running else 0.0
    k = table.shape[1]
    xs, cts, cps = table[PT_J], table[PT_CT], table[PT_CP]
    opening = engine[P_IDLE] + (THROTTLE_OPEN - engine[P_IDLE]) * thr
    # the power surplus per revolution (ft·lbf, 2π × the torque) as n → 0: the engine's, and the air's on the
    # stopped propeller
    surplus0 = (engine[P_INDICATED] * lapse / engine[P_RATED] - engine[P_FRICTION0]
                - _beyond(cps, xs, k) * rho * v * v * d * d * d)
    if surplus0 <= 0.0:                                  # stopped: the air cannot turn it against the friction
        return _beyond(cts, xs, k) * rho * v * v * d * d, 0.0
    lo, hi = 0.0, max(3.0 * engine[P_RATED], 10.0 * v / d)
    f_lo = surplus0
    f_hi = _surplus(hi, opening, lapse, sigma, v, rho, d, engine, xs, cps, k)
    for _ in range(PROP_ITERATIONS):
        mid = 0.5 * (lo + hi)
        f = _surplus(mid, opening, lapse, sigma, v, rho, d, engine, xs, cps, k)
        if f > 0.0:
            lo, f_lo = mid, f
        else:
            hi, f_hi = mid, f
    # one secant step inside the last bracket (the speed is then smooth in the inputs to rounding)
    n = lo + (hi - lo) * f_lo / (f_lo - f_hi) if f_lo > 0.0 > f_hi else 0.5 * (lo + hi)
    return _coefficient(v / (n * d), xs, cts, k) * rho * n * n * d * d * d * d, 60.0 * n


@borrowing_jit
def _surplus(n, opening, lapse, sigma, v, rho, d, engine, xs, cps, k):
    """The engine's brake power less the propeller's, over ``n`` (ft·lbf per revolution) at ``n`` rev/s > 0."""
    r = n / engine[P_RATED]
    m = (opening ** -THROTTLE_SHARPNESS + r ** -THROTTLE_SHARPNESS) ** (-1.0 / THROTTLE_SHARPNESS)
    engine_power = (engine[P_INDICATED] * lapse * m / n - engine[P_FRICTION0]
                    - (engine[P_FRICTION1] + engine[P_FRICTION2] * n) * n - engine[P_PUMP] * sigma * (1.0 - m / r))
    return engine_power - _coefficient(v / (n * d), xs, cps, k) * rho * n * n * d * d * d * d * d


@borrowing_jit
def _coefficient(j, xs, ys, k):
    """A propeller coefficient at advance ratio ``j``: the table's, and beyond its last row ``y / J²`` held."""
    if j < xs[k - 1]:
        return interpolate(j, xs, ys, k)
    return _beyond(ys, xs, k) * j * j


@borrowing_jit
def _beyond(ys, xs, k):
    """``y / J²`` at the table's last row: the stopped propeller's coefficient per ``(V / nD)²``."""
    return ys[k - 1] / (xs[k - 1] * xs[k - 1])


@borrowing_jit
def in_ground_effect(cl, cd, height, ground):
    """A wing element's ``(C_L, C_D)`` at ``height`` ft above the ground, from its free-air table values.

    McCormick's factor ``φ = (16 h/b)² / (1 + (16 h/b)²)`` scales the induced angle and the induced drag
    (:class:`flightsim.physics.aircraft.GroundEffect`): the lift grows by ``(1 + c) / (1 + φ c)`` (``c =
    a₀ (1 + τ) / (π A)``, attached flow) and the table's induced drag ``k C_L²`` becomes ``φ k C_L'²``.
    Below the ground (a crash under way) it is as at the ground.
    """
    x = 16.0 * max(height, 0.0) / ground[GE_SPAN]
    phi = x * x / (1.0 + x * x)
    coupling = ground[GE_COUPLING]
    near = cl * (1.0 + coupling) / (1.0 + phi * coupling)
    k = ground[GE_INDUCED]
    return near, cd - k * cl * cl + phi * k * near * near


@borrowing_jit
def interpolate(alpha, xs, ys, n):
    """Linear interpolation of ``ys[:n]`` at ``alpha`` over breakpoints ``xs[:n]`` (inside the range)."""
    k, f = segment(alpha, xs, n)
    return interpolate_at(ys, k, f, n)


@borrowing_jit
def segment(alpha, xs, n):
    """Where ``alpha`` lies among the breakpoints ``xs[:n]``: ``(k, f)``, ``alpha`` at the fraction ``f`` of
    ``xs[k−1] … xs[k]``.

    ``k`` is the first breakpoint with ``alpha <= xs[k]`` (``k = n``: past the last), so a search serves every
    column of a table (:func:`interpolate_at`).
    """
    for k in range(1, n):
        if alpha <= xs[k]:
            return k, (alpha - xs[k - 1]) / (xs[k] - xs[k - 1])
    return n, 0.0


@borrowing_jit
def interpolate_at(ys, k, f, n):
    """``ys`` at the :func:`segment` ``(k, f)``: linear between ``ys[k−1]`` and ``ys[k]``; ``ys[n−1]`` past the last."""
    if k >= n:
        return ys[n - 1]
    return ys[k - 1] + f * (ys[k] - ys[k - 1])


@borrowing_inline_jit
def coefficients(alpha, flap, table_kind, xs, vals, n, out_cl, out_cd):
    """Lift and drag coefficients at ``alpha`` (deg) with flap setting ``flap`` in [−1, 1] from a table of
    kind ``table_kind`` (``KIND_*``).

    ``flap`` blends linearly from the neutral table (0) to the trailing-edge-up
    table (+1) or the trailing-edge-down table (−1), so ±1 gives exactly the
    book's settings.  Returns ``(cl, cd, inside)``; outside the breakpoints
    the table's stalled values and ``inside = False``.  Written into its compiled caller (the loads' loop over
    the elements: no call per element).
    """
    if table_kind == KIND_DRAG:
        return 0.0, vals[3, 0], True
    a = abs(alpha) if table_kind == KIND_SYMMETRIC else alpha
    if a < xs[0] or a > xs[n - 1]:
        return out_cl, out_cd, False
    k, f = segment(a, xs, n)
    cl = interpolate_at(vals[0], k, f, n)
    cd = interpolate_at(vals[3], k, f, n)
    if flap > 0.0:
        cl += flap * (interpolate_at(vals[2], k, f, n) - cl)
        cd += flap * (interpolate_at(vals[5], k, f, n) - cd)
    elif flap < 0.0:
        cl -= flap * (interpolate_at(vals[1], k, f, n) - cl)
        cd -= flap * (interpolate_at(vals[4], k, f, n) - cd)
    if table_kind == KIND_SYMMETRIC and alpha < 0.0:
        cl = -cl
    return cl, cd, True


@borrowing_jit
def element_normal(incidence_deg, dihedral_deg):
    """An element's normal ``(sin i, cos i sin d, cos i cos d)``, body frame, for incidence i and dihedral d (deg)."""
    inc = math.radians(incidence_deg)
    dih = math.radians(dihedral_deg)
    return math.sin(inc), math.cos(inc) * math.sin(dih), math.cos(inc) * math.cos(dih)


@borrowing_entry_jit
def element_deflections(elem, elem_i, controls, k):
    """Flap setting (−1..1) and incidence change (deg) of element ``k`` for the controls."""
    flap = 0.0
    if elem_i[k, I_FLAP_INPUT] >= 0:
        flap = min(max(elem[k, E_FLAP_GAIN] * controls[elem_i[k, I_FLAP_INPUT]], -1.0), 1.0)
    dinc = 0.0
    if elem_i[k, I_INC_INPUT] >= 0:
        dinc = elem[k, E_INC_GAIN] * controls[elem_i[k, I_INC_INPUT]]
    return flap, dinc


@borrowing_inline_jit
def airplane_loads(t, y, params):
    """Loads of the packed airplane (:class:`LoadParams`) at state ``y`` (see :mod:`flightsim.integrators`).

    A JSBSim aircraft's come from :func:`flightsim.physics.jsbsim.loads.jsbsim_loads`, flightsim's own
    aircraft's from :func:`own_loads`, which chooses between the two by the types of ``params.jsb_on`` and
    ``params.own_on`` (see there).  Inlined into its compiled callers (numba's ``inline="always"``), so it adds
    no function between them and the loads; called from Python, it calls :func:`loads_fields`.

    Returns
    -------
    tuple of float
        ``(ax, ay, az)`` earth-frame acceleration of the CG (ft/s², gravity
        included) and ``(mx, my, mz)`` body-frame moment about the CG (ft·lbf).
    """
    return own_loads(t, y, params, params.jsb_on, params.own_on, params.planet)


def loads_inline(t, y, params):
    """:func:`airplane_loads`, written whole into its compiled caller for flightsim's own aircraft on a flat planet.

    Compiled, for such an airplane's parameters (``params.planet`` and ``params.jsb_on`` None, ``params.own_on``
    not), the body of :func:`own_flat_loads` becomes part of the caller (numba's typed inlining of an overload,
    :func:`_loads_inline_of_type`): no call between the caller and the loads' arithmetic, where a call passes
    the whole :class:`LoadParams` (some 200 machine words for the book's airplane) every time.  For every other
    kind of parameters it is :func:`airplane_loads`.  The same arithmetic either way, bit for bit.  Meant for
    one call site per compiled step (:func:`flightsim.physics.steps.derivative` in
    :func:`~flightsim.physics.steps.step_rk4`'s loop over its stages): each site holds a copy of the loads,
    which numba compiles.
    """
    return airplane_loads(t, y, params)


@overload(loads_inline, inline="always", target="cpu")
def _loads_inline_of_type(t, y, params):
    kinds = dict(zip(params.fields, params.types, strict=True))
    if (isinstance(kinds["planet"], types.NoneType) and isinstance(kinds["jsb_on"], types.NoneType)
            and not isinstance(kinds["own_on"], types.NoneType)):
        return own_flat_loads.py_func
    return lambda t, y, params: airplane_loads(t, y, params)


@overload(loads_inline)
def _loads_inline_elsewhere(t, y, params):
    """:func:`loads_inline` for numba's other targets (a GPU's, :mod:`flightsim.simulation.batch_cuda`): there
    numba-cuda does not lower the loads' body inlined by type, and it is :func:`airplane_loads`."""
    return lambda t, y, params: airplane_loads(t, y, params)


@airplane_loads.from_python
def _airplane_loads_from_python(t, y, params):
    return loads_fields(t, y, tuple(params))


@borrowing_jit
def own_loads(t, y, params, jsb_on, own_on, planet):
    """The loads of the packed airplane on its planet: :func:`flat_loads` on a flat one (``planet`` None), and
    on a round one (the state Earth-centred inertial) :func:`round_loads`, which evaluate :func:`flat_loads` on
    the state's flat view.  ``planet`` (``params.planet``) is an argument so that numba drops the round planet's
    branch when compiling for a flat one (as :func:`flat_loads` does with ``jsb_on`` and ``own_on``).
    """
    if planet is not None:
        return round_loads(t, y, params, jsb_on, own_on, planet)
    return flat_loads(t, y, params, jsb_on, own_on)


@borrowing_jit
def flat_loads(t, y, params, jsb_on, own_on):
    """Loads of flightsim's own packed airplane: aerodynamics and thrust (the module docstring), gravity, and
    the ground reaction of the gear (:func:`~flightsim.physics.gear.gear_loads`) where a contact point is below
    the ground; as :func:`airplane_loads`, on a flat planet (or a round planet's flat view).

    A JSBSim aircraft's (``jsb_on``, its ``params.jsb_on``, not None) are :func:`jsbsim_loads`'.  ``jsb_on`` and
    ``own_on`` are arguments so that numba, compiling, drops the branch of the other kind (its dead-branch pruning
    resolves ``x is None`` where ``x``'s type is None): each kind of aircraft compiles its own loads only, with no
    function between.  A JSBSim aircraft's ``own_on`` is None: only the first branch is kept; flightsim's own
    aircraft's ``jsb_on`` is None: the branch's call is dropped, its zeros (never returned) kept.
    """
    if own_on is None:
        if jsb_on is not None:
            return jsbsim_loads(t, y, params)
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return own_flat_loads(t, y, params)


@borrowing_inline_jit
def own_flat_loads(t, y, params):
    """The loads of flightsim's own packed airplane on a flat planet (or a round planet's flat view): the body of
    :func:`flat_loads` for its kind, written into each compiled caller (numba's ``inline="always"``): into
    :func:`flat_loads`, and whole into a step through :func:`loads_inline`."""
    r, elem, elem_i, normals = params.positions, params.elements, params.element_refs, params.normals
    tab_alpha, tab_vals, tab_n, tab_kind, tab_out = (
        params.table_alpha, params.table_values, params.table_size, params.table_kind, params.table_outside
    )
    controls, diag = params.controls, params.diag
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
    wind = params.wind
    # Velocity through the air into the body frame: QVRotate(~q, v − wind) (q normalised on the fly for RK stages).
    vbx, vby, vbz = qv_rotate(qw, -qx, -qy, -qz, y[3] - wind[0], y[4] - wind[1], y[5] - wind[2])
    vbx *= inv
    vby *= inv
    vbz *= inv
    # Rotation relative to the air: the turbulence's gradient across the airplane is ω_g × r.
    wx, wy, wz = y[10] - wind[3], y[11] - wind[4], y[12] - wind[5]
    rho = params.air_density
    if params.isa:
        rho = isa_density(rho, y[2])
    # earth z of the body axes (the third row of the rotation, times |q|²): an element's height above the ground
    up_x, up_y, up_z = 2.0 * (qx * qz - qw * qy), 2.0 * (qy * qz + qw * qx), qw * qw - qx * qx - qy * qy + qz * qz
    fx = fy = fz = 0.0
    mx = my = mz = 0.0
    stall = 0.0
    for k in range(r.shape[0]):
        rx, ry, rz = r[k, 0], r[k, 1], r[k, 2]
        lx = vbx + wy * rz - wz * ry
        ly = vby + wz * rx - wx * rz
        lz = vbz + wx * ry - wy * rx
        speed2 = lx * lx + ly * ly + lz * lz
        if speed2 < MIN_SPEED * MIN_SPEED:
            continue
        inv_speed = 1.0 / math.sqrt(speed2)
        dx, dy, dz = -lx * inv_speed, -ly * inv_speed, -lz * inv_speed
        flap, dinc = element_deflections(elem, elem_i, controls, k)
        if elem_i[k, I_INC_INPUT] >= 0:
            nx, ny, nz = element_normal(elem[k, E_INCIDENCE] + dinc, elem[k, E_DIHEDRAL])
        else:                                         # fixed: the normal packed with the same function
            nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
        # lift direction (drag × n) × drag
        cx, cy, cz = dy * nz - dz * ny, dz * nx - dx * nz, dx * ny - dy * nx
        ux, uy, uz = cy * dz - cz * dy, cz * dx - cx * dz, cx * dy - cy * dx
        ul = math.sqrt(ux * ux + uy * uy + uz * uz)
        if ul > 1e-12:
            inv_ul = 1.0 / ul
            ux *= inv_ul
            uy *= inv_ul
            uz *= inv_ul
        alpha = math.degrees(arcsin_one(min(max(dx * nx + dy * ny + dz * nz, -1.0), 1.0)))
        tb = elem_i[k, I_TABLE]
        cl, cd, inside = coefficients(
            alpha, flap, tab_kind[tb], tab_alpha[tb], tab_vals[tb], tab_n[tb], tab_out[tb, 0], tab_out[tb, 1]
        )
        if elem_i[k, I_GROUND_EFFECT] == 1 and inside:
            height = y[2] + (up_x * rx + up_y * ry + up_z * rz) * inv
            cl, cd = in_ground_effect(cl, cd, height, params.ground_effect)
        if not inside and elem_i[k, I_IS_WING] == 1:
            stall = 1.0
        q_s = 0.5 * rho * speed2 * elem[k, E_AREA]
        ex = (ux * cl + dx * cd) * q_s
        ey = (uy * cl + dy * cd) * q_s
        ez = (uz * cl + dz * cd) * q_s
        fx += ex
        fy += ey
        fz += ez
        mx += ry * ez - rz * ey
        my += rz * ex - rx * ez
        mz += rx * ey - ry * ex
    if params.propeller:
        thrust, rpm = propeller(controls[C_THROTTLE], controls[C_ENGINE] >= 0.5, vbx, rho, params.engine,
                                params.prop_table)
    else:
        thrust, rpm = controls[C_THROTTLE] * params.max_thrust * params.engine[P_AVAILABLE], 0.0
    fx += thrust
    diag[D_STALL] = stall
    diag[D_RHO] = rho
    diag[D_THRUST] = thrust
    diag[D_RPM] = rpm
    ex, ey, ez = qv_rotate(qw, qx, qy, qz, fx, fy, fz)
    m = params.mass
    gx, gy, gz, gmx, gmy, gmz, touching = gear_loads(y, params, qw, qx, qy, qz, inv, params.terrain)
    if touching:
        return (ex * inv / m + gx / m, ey * inv / m + gy / m, ez * inv / m - params.gravity + gz / m,
                mx + gmx, my + gmy, mz + gmz)
    return ex * inv / m, ey * inv / m, ez * inv / m - params.gravity, mx, my, mz


@borrowing_jit
def round_loads(t, y, params, jsb_on, own_on, planet):
    """The loads at the Earth-centred inertial state ``y`` on the packed round ``planet``: those of its flat view
    (:func:`flightsim.physics.planet.to_view`: where the airplane is, relative to the turning Earth and its local
    horizon), the acceleration turned back to ECI with the planet's gravitation
    (:func:`flightsim.physics.planet.eci_acceleration`); the moment stays in the body frame, the gravity-gradient
    torque added where it is on (:func:`flightsim.physics.planet.gravity_torque`)."""
    view_in_place(t, y, planet)
    view = planet[P_VIEW:P_VIEW_END]
    ax, ay, az, mx, my, mz = flat_loads(t, view, params, jsb_on, own_on)
    ax, ay, az = eci_acceleration(y, planet, ax, ay, az)
    tx, ty, tz = gravity_torque(y, planet)
    return ax, ay, az, mx + tx, my + ty, mz + tz


@borrowing_entry_jit
def loads_fields(t, y, fields):
    """:func:`airplane_loads` for a call from Python, given ``fields = tuple(params)``: numba types a named tuple
    at every call from Python (slowly, and keeping a cache of some 80 kB that fills over the first tens of
    thousands of calls, which a long flight's instruments made look like a leak); a plain tuple it does not."""
    return airplane_loads(t, y, LoadParams(*fields))


@borrowing_inline_jit
def step_start(t, y, h, params):
    """What runs once per step before the integrator's: a JSBSim aircraft's flight controls and engines
    (:func:`flightsim.physics.jsbsim.loads.step_start`); nothing for flightsim's own aircraft (compiled, nothing
    at all: :func:`_step_start`)."""
    _step_start(t, y, h, params, params.jsb_on, params.planet)


@borrowing_jit
def _step_start(t, y, h, params, jsb_on, planet):
    """:func:`step_start`, with ``params.jsb_on`` an argument so that numba drops the JSBSim call when compiling
    for flightsim's own aircraft (as :func:`own_loads` does); on a round planet on the state's view."""
    if jsb_on is not None:
        if planet is None:
            jsbsim_step_start(t, y, h, params)
        else:
            view_in_place(t, y, planet)
            view = planet[P_VIEW:P_VIEW_END]
            jsbsim_step_start(t, view, h, params)


def settle(t, y, params):
    """Put a JSBSim aircraft's flight controls and engines at their steady state for the controls and state
    ``y`` (trim, a start); nothing for flightsim's own aircraft (called from Python)."""
    if params.jsb_on is not None:
        jsbsim_settle_start(t, y, 1.0 / 120.0, params)


def __getattr__(name):
    """``aero.ground_contact``, as before the ground contact moved to :mod:`flightsim.physics.ground`.

    (Looked up when first asked for: the ground imports the loads, so the loads cannot import it.)
    """
    if name == "ground_contact":
        from flightsim.physics.ground import ground_contact

        return ground_contact
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

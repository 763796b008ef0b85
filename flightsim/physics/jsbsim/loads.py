"""A JSBSim aircraft's loads inside flightsim's compiled step: once per step, and at every integrator stage.

JSBSim runs its models once a frame, in one order (``FGFDMExec::Run``):
FGPropagate, FGAtmosphere, the FCS, FGMassBalance, FGAuxiliary, FGPropulsion,
FGAerodynamics.  flightsim integrates with several load evaluations per step
(four for RK4), so the models are split by what they are:

* **once per step** (:func:`step_start`, before the integrator's step): the
  pilot's commands into JSBSim's ``fcs/*-cmd-norm``, the state the FCS reads
  (attitude, rates, height), the atmosphere, the flight controls (their
  kinematics move ``dt``), the auxiliary properties at the step's start, the
  aerodynamics' own frame state (cl² from the last lift, the stall latch) and
  the engines (spools, propeller speed: they integrate discretely, as in
  JSBSim), the external forces and the gas cells (:mod:`~flightsim.physics.
  jsbsim.buoyancy`: their frame in two halves around the engines' post
  functions).  The thrusters', external forces' and cells' body loads are
  then held through the step (zero-order hold, as the surfaces are);
* **at every stage** (:func:`jsbsim_loads`, called by
  :func:`flightsim.physics.aero.airplane_loads`): the auxiliary properties at
  the stage's state (α, β, q̄, Mach, ...), the aerodynamics block and its
  body loads, the held thrust, gravity and the ground reactions (JSBSim's own: FGLGear's struts and
  FGAccelerations' friction solve, :mod:`~flightsim.physics.jsbsim.ground_reactions`).

α̇ and β̇ use the air-relative body acceleration of the last step (JSBSim's
uses the last frame's), from the change of the body velocity over it.

Frames: flightsim's state (earth x North, y West, z up; body x forward, y
left, z up) is turned into JSBSim's (local North-East-Down; body x forward,
y right, z down) at the boundary: a body vector ``(x, y, z)`` is JSBSim's
``(x, −y, −z)``, and back.  The earth is flat (or a round planet's flat view,
:func:`flightsim.physics.planet.to_view`), the ground at z = 0 and the altitude
above sea level the CG's z.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit, qv_rotate
from flightsim.physics.gear import BRAKE_BOTH, BRAKE_LEFT, BRAKE_RIGHT, wheel_brake
from flightsim.physics.jsbsim.aero import axes_to_body, frame_start
from flightsim.physics.jsbsim.atmosphere import R_AIR, SEA_LEVEL_PRESSURE, biased_atmosphere
from flightsim.physics.jsbsim.auxiliary import (
    A_PDOT,
    A_QDOT,
    A_RDOT,
    A_SIGMA,
    A_THETA,
    auxiliary_in,
    euler_rates_in,
    motion_in,
    put_atmosphere,
)
from flightsim.physics.jsbsim.buoyancy import buoyant_frame, cells_first, gravity_magnitude
from flightsim.physics.jsbsim.external import external_loads
from flightsim.physics.jsbsim.ground_reactions import (
    contacts_frame,
    contacts_geometry,
    ground_reactions,
    steering_after_fcs,
)
from flightsim.physics.jsbsim.native import call_block
from flightsim.physics.jsbsim.propulsion import engines_frame_by_address, engines_steady
from flightsim.physics.planet import P_A, P_B, P_GM, P_KEY, P_OMEGA, WGS84, ecef, view_lat_lon
from flightsim.physics.terrain import terrain_height

__all__ = ["COMMAND_FIELDS", "J_AREA", "J_CHORD", "J_FORCE_AXES", "J_RP", "J_SPAN", "LAST_FIELDS", "STATE",
           "jsbsim_loads", "settle_start", "step_start"]

#: Entries of the scalars array ``jsb_scalars``: the force axes (``FORCE_AXES``), wing span, chord, area
#: (ft, ft, ft²), the aerodynamic reference point relative to the CG in JSBSim's body frame (ft, 3),
#: the slots of ``simulation/dt``, of the kinematics' settle switch, of α, β, the last lift, σ, the first engine's
#: speed (−1: none) and the density; the pilot's eye relative to the CG in JSBSim's body frame (ft, 3); the slots
#: (−1: none reads it) of the thrusters' loads ``forces/fb[xyz]-prop-lbs``, ``moments/[lmn]-prop-lbsft`` (6), of
#: ``simulation/sim-time-sec`` and of ``gear/wow``; how many wheels lead the gear rows; the slots of the gear's
#: force ``forces/fb[xyz]-gear-lbs`` (3); the slot of the aerodynamic reference point's shift (−1: none); the slots
#: of the wind's properties a system writes (3, :data:`WIND_PROPERTIES`; −1: none writes it); the inertia tensor
#: about the CG and its inverse (JSBSim's body frame, slug·ft², 9 each, row by row: the friction's solve,
#: :mod:`~flightsim.physics.jsbsim.ground_reactions`); the slots of ``fcs/steer-cmd-norm`` and of
#: ``gear/gear-pos-norm``; the slots of :data:`BRAKES`.
(J_FORCE_AXES, J_SPAN, J_CHORD, J_AREA, J_RP, _RP_Y, _RP_Z, J_DT_SLOT, J_SETTLE_SLOT, J_ALPHA_SLOT, J_BETA_SLOT,
 J_LIFT_SLOT, J_SIGMA_SLOT, J_RPM_SLOT, J_RHO_SLOT, J_EYE, _EYE_Y, _EYE_Z, J_PROP_SLOTS, _P1, _P2, _P3, _P4, _P5,
 J_TIME_SLOT, J_GEAR_WOW_SLOT, J_WHEELS, J_GEAR_FORCE_SLOTS, _G1, _G2, J_RP_SHIFT_SLOT, J_WIND_SLOTS, _W1,
 _W2) = range(34)
J_INERTIA = 34
J_STEER_CMD_SLOT, J_GEAR_POS_SLOT, J_BRAKE_SLOTS = 52, 53, 54
#: The thrusters' loads properties, in ``J_PROP_SLOTS`` order.
PROP_LOADS = ("forces/fbx-prop-lbs", "forces/fby-prop-lbs", "forces/fbz-prop-lbs", "moments/l-prop-lbsft",
              "moments/m-prop-lbsft", "moments/n-prop-lbsft")
#: The gear's force properties, in ``J_GEAR_FORCE_SLOTS`` order.
GEAR_LOADS = ("forces/fbx-gear-lbs", "forces/fby-gear-lbs", "forces/fbz-gear-lbs")
#: The wind's properties a system may write (NED, ft/s), in ``J_WIND_SLOTS`` order: where the flight controls
#: write one (−1: none does), the wind the step flies is theirs (JSBSim's systems run before FGAuxiliary).
WIND_PROPERTIES = ("atmosphere/wind-north-fps", "atmosphere/wind-east-fps", "atmosphere/wind-down-fps")
#: The slots of the gas cells' outputs (:data:`~flightsim.physics.jsbsim.buoyancy.GAS_OUTPUTS`, 10) and of their
#: loads and the CG they are about (:data:`~flightsim.physics.jsbsim.buoyancy.LOAD_OUTPUTS`, 9); unused without cells.
J_GAS_SLOTS, J_LOAD_SLOTS = 57, 67
#: The visual reference point (``VRP``), structural frame, in (3); the CG's slots are ``J_LOAD_SLOTS + 6 …``
#: (always filled).
J_VRP = 76
#: How many entries ``jsb_scalars`` has.
SCALARS = 79
#: JSBSim's brake groups' commands (FGFCS's ``BrakePos``: left, right, center) and the side of flightsim's brakes
#: each one is (:func:`flightsim.physics.gear.wheel_brake`).
BRAKES = ("fcs/left-brake-cmd-norm", "fcs/right-brake-cmd-norm", "fcs/center-brake-cmd-norm")
BRAKE_SIDES = (BRAKE_LEFT, BRAKE_RIGHT, BRAKE_BOTH)
#: JSBSim's ``slugtolb``: a slug's weight in lbf at standard gravity.
SLUG_TO_LB = 32.174049
#: Columns of the commands array ``jsb_commands``: the property's slot, the pilot input (an index of
#: :data:`flightsim.physics.inputs.INPUTS`, or −1 for a constant), the scale (the constant for −1), the
#: lowest and highest value.
COMMAND_FIELDS = 5
#: What an accelerometer reads (:mod:`~flightsim.physics.jsbsim.sensors`), JSBSim's body frame: FGAccelerations'
#: ``vBodyAccel`` (the specific force at the CG, ft/s²: flightsim's names, JSBSim ties it to no property) and
#: ``vPQRidot`` (rad/s²), the last frame's (the last evaluation's force, the rates' change over the last step).
SENSOR_STATE = ("accelerations/flightsim-body-accel-x-ft_sec2", "accelerations/flightsim-body-accel-y-ft_sec2",
                "accelerations/flightsim-body-accel-z-ft_sec2", "accelerations/pidot-rad_sec2",
                "accelerations/qidot-rad_sec2", "accelerations/ridot-rad_sec2")
#: The state JSBSim's FGPropagate gives the FCS, written once per step (slot −1 where nothing reads it), and
#: what FGAccelerations gives an accelerometer (:data:`SENSOR_STATE`).
STATE = ("attitude/phi-rad", "attitude/theta-rad", "attitude/psi-rad", "attitude/phi-deg", "attitude/theta-deg",
         "attitude/psi-deg", "attitude/roll-rad", "attitude/pitch-rad", "attitude/heading-true-rad",
         "position/h-sl-ft", "position/h-agl-ft", "velocities/h-dot-fps", "velocities/pi-rad_sec",
         "velocities/qi-rad_sec", "velocities/ri-rad_sec",
         "position/lat-geod-rad", "position/lat-gc-rad", "position/long-gc-rad", "position/lat-geod-deg",
         "position/lat-gc-deg", "position/long-gc-deg", "velocities/v-north-fps", "velocities/v-east-fps",
         "velocities/v-down-fps", "atmosphere/pressure-altitude", "velocities/eci-x-fps", "velocities/eci-y-fps",
         "velocities/eci-z-fps", "velocities/eci-velocity-mag-fps", "inertial/sea-level-radius_ft",
         "orbital/apoapsis-radius-ft", "orbital/periapsis-radius-ft", *SENSOR_STATE, "position/vrp-gc-latitude_deg",
         "position/vrp-longitude_deg", "position/vrp-radius-ft")
#: Of :data:`STATE`, those computed only where the aircraft reads them (their slot −1 otherwise: a launcher's
#: guidance reads them, an airplane's does not).
#: WGS-84's semi-major and semi-minor axes (ft) and GM (ft³/s²), for the flat planet's orbital values.
_WGS84_A, _WGS84_B, _WGS84_GM = WGS84.a, WGS84.b, WGS84.gm
STATE_IF_READ = ("inertial/sea-level-radius_ft", "orbital/apoapsis-radius-ft", "orbital/periapsis-radius-ft",
                 *SENSOR_STATE, "position/vrp-gc-latitude_deg", "position/vrp-longitude_deg", "position/vrp-radius-ft")
(ST_PHI, ST_THETA, ST_PSI, ST_PHI_DEG, ST_THETA_DEG, ST_PSI_DEG, ST_ROLL, ST_PITCH, ST_HEADING, ST_H, ST_AGL,
 ST_HDOT, ST_PI, ST_QI, ST_RI, ST_LAT, ST_LAT_GC, ST_LON, ST_LAT_DEG, ST_LAT_GC_DEG, ST_LON_DEG, ST_VN, ST_VE,
 ST_VD, ST_PRESSURE_ALTITUDE, ST_ECI_VX, ST_ECI_VY, ST_ECI_VZ, ST_ECI_V, ST_SEA_LEVEL_RADIUS, ST_APOAPSIS,
 ST_PERIAPSIS, ST_BODY_ACCEL, _, _, ST_PQRIDOT, _, _, ST_VRP_LAT, ST_VRP_LON, ST_VRP_RADIUS) = range(len(STATE))
#: The flat earth laid on JSBSim's WGS84 planet at 0°N 0°E: its radii of curvature there (meridian, prime
#: vertical), ft, turning North and West distances into latitude and longitude.
MERIDIAN_RADIUS = 20925646.32546 * (20855486.5951 / 20925646.32546) ** 2
PRIME_VERTICAL_RADIUS = 20925646.32546
#: Most passes :func:`step_start` makes settling cl² on its own lift (it converges in a few).
SETTLE_ITERATIONS = 50
#: Entries of ``jsb_last``: the air-relative body velocity (JSBSim's axes) at the last step's start, its
#: derivative over the last step, and 1 once a step has been taken (0: no derivative yet); then the standard
#: atmosphere last computed (1 when there is one, its altitude, and its temperature, pressure, density and speed of
#: sound, :data:`L_ATMOSPHERE`): a step's start and its stages at the same altitude compute it once; then the last
#: evaluation's specific force (FGAccelerations' ``vBodyAccel``, ft/s², :data:`L_FORCE`), the body rates at the
#: last step's start (:data:`L_RATES`) and their derivative over it (:data:`L_RATES_DOT`), the last
#: evaluation's gear force (lbf, :data:`L_GEAR`), JSBSim's axes; the atmosphere's temperature bias (°R, JSBSim's
#: ``atmosphere/delta-T``, :data:`L_TEMPERATURE_BIAS`; 0: the standard atmosphere); then each contact's state
#: (:data:`~flightsim.physics.jsbsim.ground_reactions.CONTACT_FIELDS` each, from :data:`LAST_FIELDS` on).
LAST_FIELDS = 26
L_ATMOSPHERE = 7
L_FORCE = 13
L_RATES = 16
L_RATES_DOT = 19
L_GEAR = 22
L_TEMPERATURE_BIAS = 25
#: The standard sea-level temperature, °R.
SEA_LEVEL_TEMPERATURE = 518.67


@borrowing_jit
def _put(props, slot, value):
    if slot >= 0:
        props[slot] = value


@borrowing_jit
def _body_air(y, wind):
    """The air-relative velocity and rates in JSBSim's body frame: ``(u, v, w, p, q, r)`` and ``1/|q|²``."""
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
    bx, by, bz = qv_rotate(qw, -qx, -qy, -qz, y[3] - wind[0], y[4] - wind[1], y[5] - wind[2])
    return (bx * inv, -by * inv, -bz * inv, y[10] - wind[3], -(y[11] - wind[4]), -(y[12] - wind[5]), inv)


@borrowing_jit
def _tb2l_row(y):
    """Rows 0, 1 and 2 of JSBSim's body → local (NED) rotation, from flightsim's q (normalised on the fly)."""
    w, x, yy, z = y[6], y[7], y[8], y[9]
    n = w * w + x * x + yy * yy + z * z
    s = 2.0 / n
    r00 = 1.0 - s * (yy * yy + z * z)
    r10 = s * (x * yy + w * z)
    r20 = s * (x * z - w * yy)
    r21 = s * (yy * z + w * x)
    r22 = 1.0 - s * (x * x + yy * yy)
    r01 = s * (x * yy - w * z)
    r02 = s * (x * z + w * yy)
    # T = D R D with D = diag(1, −1, −1): both frames flipped about x
    return r00, -r01, -r02, -r10, -r20, r21, r22


@borrowing_jit
def _agl(y, terrain):
    """The CG's height above the ground under it (ft; FGPropagate's ``GetDistanceAGL``): above the plane z = 0, or
    the packed terrain's surface (``terrain``: ``params.terrain``, an argument so that numba drops the terrain's
    branch on the plane)."""
    if terrain is None:
        return y[2]
    return y[2] - terrain_height(terrain, y[0], y[1])[0]


@borrowing_jit
def _biased_ratios(props, slots, t, rho, bias):
    """``atmosphere/sigma`` and ``atmosphere/theta`` in an atmosphere ``bias`` °R warmer than the standard: over its
    own sea-level density and temperature, as JSBSim's (``SetTemperatureBias`` moves them; the sea-level pressure
    stays, and so does ``atmosphere/delta``)."""
    if bias != 0.0:
        t_sl = SEA_LEVEL_TEMPERATURE + bias
        if slots[A_SIGMA] >= 0:
            props[slots[A_SIGMA]] = rho / (SEA_LEVEL_PRESSURE / (R_AIR * t_sl))
        if slots[A_THETA] >= 0:
            props[slots[A_THETA]] = t / t_sl


@borrowing_jit
def _auxiliary_at(y, params, props):
    """FGAuxiliary at state ``y`` (the last step's accelerations for α̇, β̇)."""
    s, last = params.jsb_scalars, params.jsb_last
    u, v, w, p, q, r, _ = _body_air(y, params.wind)
    _, _, _, _, t20, t21, t22 = _tb2l_row(y)
    rpx, rpy, rpz = s[J_RP], s[J_RP + 1], s[J_RP + 2]
    mac_down = t20 * rpx + t21 * rpy + t22 * rpz
    t, pressure, rho, sound = _atmosphere(last, y[2])
    agl = _agl(y, params.terrain)
    auxiliary_in(props, params.jsb_aux_slots, u, v, w, last[3], last[4], last[5], p, q, r, agl, s[J_SPAN],
                 s[J_CHORD], s[J_AREA], mac_down, t, pressure, rho, sound)
    _biased_ratios(props, params.jsb_aux_slots, t, rho, last[L_TEMPERATURE_BIAS])
    st = params.jsb_state_slots
    euler_rates_in(props, params.jsb_aux_slots, props[int(st[ST_PHI])], props[int(st[ST_THETA])], p, q, r)
    # the pilot's eye: the specific force plus ω̇ × r + ω × (ω × r) (FGAuxiliary, the planet not turning)
    fx, fy, fz = last[L_FORCE], last[L_FORCE + 1], last[L_FORCE + 2]
    wx, wy, wz = y[10], -y[11], -y[12]
    ax, ay, az = last[L_RATES_DOT], last[L_RATES_DOT + 1], last[L_RATES_DOT + 2]
    ex, ey, ez = s[J_EYE], s[J_EYE + 1], s[J_EYE + 2]
    cx, cy, cz = wy * ez - wz * ey, wz * ex - wx * ez, wx * ey - wy * ex
    px = fx + (ay * ez - az * ey) + (wy * cz - wz * cy)
    py = fy + (az * ex - ax * ez) + (wz * cx - wx * cz)
    pz = fz + (ax * ey - ay * ex) + (wx * cy - wy * cx)
    motion_in(props, params.jsb_aux_slots, math.sqrt(u * u + v * v + w * w) / sound, pressure, y[3], -y[4], -y[5],
              fx, fy, fz, px, py, pz, props[int(s[J_LIFT_SLOT])] / (params.mass * SLUG_TO_LB))
    # FGAccelerations' body angular acceleration (accelerations/pdot-rad_sec2 …): the rates' change over the last step
    slots = params.jsb_aux_slots
    _put(props, slots[A_PDOT], ax)
    _put(props, slots[A_QDOT], ay)
    _put(props, slots[A_RDOT], az)


@borrowing_jit
def _atmosphere(last, altitude):
    """The standard atmosphere at ``altitude`` (ft), its temperature biased by ``last``'s
    :data:`L_TEMPERATURE_BIAS`: the one kept in ``last`` when it is this altitude's (a new bias clears it)."""
    k = L_ATMOSPHERE
    if last[k] == 0.0 or last[k + 1] != altitude:
        last[k + 2], last[k + 3], last[k + 4], last[k + 5] = biased_atmosphere(altitude, last[L_TEMPERATURE_BIAS])
        last[k], last[k + 1] = 1.0, altitude
    return last[k + 2], last[k + 3], last[k + 4], last[k + 5]


@borrowing_jit
def _aero(props, params):
    """The aerodynamics block on ``props`` (its functions, then the axes summed): JSBSim body loads about the CG."""
    call_block(params.jsb_native[1], props, params.jsb_aero_constants, params.jsb_aero_tables, params.jsb_aero_data)
    s = params.jsb_scalars
    shift = int(s[J_RP_SHIFT_SLOT])             # (FGAerodynamics' AeroRPShift: aft, a fraction of the chord)
    rpx = s[J_RP] - (props[shift] * s[J_CHORD] if shift >= 0 else 0.0)
    return axes_to_body(props, params.jsb_axis_slots, int(s[J_FORCE_AXES]), props[int(s[J_ALPHA_SLOT])],
                        props[int(s[J_BETA_SLOT])], rpx, s[J_RP + 1], s[J_RP + 2], int(s[J_LIFT_SLOT]))


@borrowing_jit
def jsbsim_loads(t, y, params):
    """The loads of a JSBSim aircraft at state ``y`` (an integrator stage): as
    :func:`flightsim.physics.aero.airplane_loads` returns them — earth-frame acceleration of the CG (ft/s²,
    gravity and the gear included) and the body-frame moment about it (ft·lbf), in flightsim's frames.

    The flight controls and the engines are those of :func:`step_start` (held through the step).
    """
    props, s = params.jsb_props, params.jsb_scalars
    _auxiliary_at(y, params, props)
    # the contacts' compressions first: the aerodynamics' program computes the strut force functions from them
    dt, settle = props[int(s[J_DT_SLOT])], props[int(s[J_SETTLE_SLOT])] != 0.0
    contacts_geometry(y, params, params.terrain, LAST_FIELDS, dt, settle, props[int(s[J_GEAR_POS_SLOT])], None)
    x, yy, z, roll, m, n = _aero(props, params)
    held = params.jsb_held
    fx, fy, fz = x + held[0], -(yy + held[1]), -(z + held[2])          # JSBSim body → flightsim body
    mx, my, mz = roll + held[3], -(m + held[4]), -(n + held[5])
    params.diag[1] = props[int(params.jsb_scalars[J_RHO_SLOT])]          # (aero.D_RHO: the air's density)
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
    ex, ey, ez = qv_rotate(qw, qx, qy, qz, fx, fy, fz)
    mass = params.mass
    # the ground reactions (FGLGear, FGAccelerations' friction), given the other loads (JSBSim's body frame)
    gx, gy, gz, gl, gm, gn, touching = ground_reactions(
        y, params, x + held[0], yy + held[1], z + held[2], roll + held[3], m + held[4], n + held[5], LAST_FIELDS,
        dt, settle)
    last = params.jsb_last
    last[L_GEAR] = last[L_GEAR + 1] = last[L_GEAR + 2] = 0.0
    if touching:
        fx, fy, fz = fx + gx, fy - gy, fz - gz
        mx, my, mz = mx + gl, my - gm, mz - gn
        ex, ey, ez = qv_rotate(qw, qx, qy, qz, fx, fy, fz)
        last[L_GEAR], last[L_GEAR + 1], last[L_GEAR + 2] = gx, gy, gz
    # the specific force, for the load factors (JSBSim's axes)
    last[L_FORCE], last[L_FORCE + 1], last[L_FORCE + 2] = fx / mass, -fy / mass, -fz / mass
    return ex * inv / mass, ey * inv / mass, ez * inv / mass - params.gravity, mx, my, mz


@borrowing_jit
def _systems_wind(props, s, wind):
    """The wind components the aircraft's systems wrote (``atmosphere/wind-*-fps``, NED) into the step's wind
    (flightsim's earth frame: North, West, up); the others as they were."""
    k = J_WIND_SLOTS
    if s[k] >= 0:
        wind[0] = props[int(s[k])]
    if s[k + 1] >= 0:
        wind[1] = -props[int(s[k + 1])]
    if s[k + 2] >= 0:
        wind[2] = -props[int(s[k + 2])]


@borrowing_jit
def _commands(props, commands, controls):
    """The pilot's controls into JSBSim's command properties (``jsb_commands`` rows, :data:`COMMAND_FIELDS`)."""
    for k in range(commands.shape[0]):
        source = int(commands[k, 1])
        value = commands[k, 2] if source < 0 else commands[k, 2] * controls[source]
        lo, hi = commands[k, 3], commands[k, 4]
        props[int(commands[k, 0])] = lo if value < lo else (hi if value > hi else value)


@borrowing_jit
def _brakes(props, commands, controls, slots):
    """The brake groups' commands from flightsim's brakes (:func:`~flightsim.physics.gear.wheel_brake`: the
    parking brake, the toe brakes, the brake eased on the side away from the rudder), where the pilot's input
    gives them (a script holding one at a value keeps it)."""
    for k in range(commands.shape[0]):
        if commands[k, 1] < 0.0:
            continue
        slot = int(commands[k, 0])
        for j in range(3):
            if slot == int(slots[j]):
                props[slot] = wheel_brake(controls, BRAKE_SIDES[j])


@borrowing_jit
def _state_into(props, slots, y, planet, terrain, s):
    """What FGPropagate gives the FCS: Euler angles (JSBSim's: φ right wing down, θ nose up, ψ 0..2π from
    North), height above sea level and ground (``terrain``: ``params.terrain``, :func:`_agl`), climb rate, the
    inertial body rates, latitude and longitude.

    ``y`` is the flat earth's state, or a round planet's view (:func:`flightsim.physics.planet.to_view`).
    ``planet`` (``params.planet``) is None on a flat planet — the planet does not turn, the body rates are the
    inertial ones, and the latitude and longitude are the North and West distances over
    :data:`MERIDIAN_RADIUS` and :data:`PRIME_VERTICAL_RADIUS` (the flat earth laid at 0°N 0°E) — or the packed
    round planet: the view's geodetic latitude and longitude (:func:`~flightsim.physics.planet.view_lat_lon`, of the
    view), the geocentric latitude of the CG, and the rates plus the Earth's turn Ω (North Ω cos φ, up Ω sin φ in
    the local frame) in body axes.  An argument so that numba drops the other branch (as
    :func:`flightsim.physics.aero.own_loads`).  The inertial velocity (``velocities/eci-*``, FGPropagate's
    ``vInertialVelocity``): on a round planet the ECI state's the view was made of (``P_KEY``); on the flat
    one the earth-frame velocity in the axes of ECEF at 0°N 0°E (x up, y East, z North), the planet still.
    Where the aircraft reads them: the sea-level radius under the CG (FGLocation's ``GetSeaLevelRadius``, of the
    geocentric latitude) and the orbit's apoapsis and periapsis radii (``FGPropagate::ComputeOrbitalParameters``,
    from the ECI position and velocity; on the flat planet of WGS-84's a + the height up the x axis, its GM).
    """
    t00, t01, t02, t10, t20, t21, t22 = _tb2l_row(y)
    phi = theta = psi = 0.0             # (each angle computed only where the aircraft reads it)
    if slots[ST_PHI] >= 0 or slots[ST_PHI_DEG] >= 0 or slots[ST_ROLL] >= 0:
        phi = math.atan2(t21, t22)
    if slots[ST_THETA] >= 0 or slots[ST_THETA_DEG] >= 0 or slots[ST_PITCH] >= 0:
        theta = -math.asin(min(max(t20, -1.0), 1.0))
    if slots[ST_PSI] >= 0 or slots[ST_PSI_DEG] >= 0 or slots[ST_HEADING] >= 0:
        psi = math.atan2(t10, t00)
        if psi < 0.0:
            psi += 2.0 * math.pi
    _put(props, slots[ST_PHI], phi)
    _put(props, slots[ST_THETA], theta)
    _put(props, slots[ST_PSI], psi)
    _put(props, slots[ST_PHI_DEG], math.degrees(phi))
    _put(props, slots[ST_THETA_DEG], math.degrees(theta))
    _put(props, slots[ST_PSI_DEG], math.degrees(psi))
    _put(props, slots[ST_ROLL], phi)
    _put(props, slots[ST_PITCH], theta)
    _put(props, slots[ST_HEADING], psi)
    _put(props, slots[ST_H], y[2])
    if slots[ST_AGL] >= 0:
        props[slots[ST_AGL]] = _agl(y, terrain)
    _put(props, slots[ST_HDOT], y[5])
    if planet is None:
        ex = ey = ez = 0.0                      # (the planet does not turn: the inertial rates are the rates)
        lat, lon = y[0] / MERIDIAN_RADIUS, -y[1] / PRIME_VERTICAL_RADIUS
        lat_gc = lat                            # (near the equator the two latitudes agree)
        vx, vy, vz = y[5], -y[4], y[3]
    else:
        lat, lon = view_lat_lon(planet)
        xe, ye, ze = ecef(lat, lon, y[2], planet[P_A], planet[P_B])
        lat_gc = math.atan2(ze, math.sqrt(xe * xe + ye * ye))
        om = planet[P_OMEGA]
        qw, qx, qy, qz = y[6], y[7], y[8], y[9]
        n2 = qw * qw + qx * qx + qy * qy + qz * qz
        ex, ey, ez = qv_rotate(qw, -qx, -qy, -qz, om * math.cos(lat), 0.0, om * math.sin(lat))
        ex, ey, ez = ex / n2, ey / n2, ez / n2
        vx, vy, vz = planet[P_KEY + 4], planet[P_KEY + 5], planet[P_KEY + 6]
    _put(props, slots[ST_PI], y[10] + ex)       # (flightsim's body axes → JSBSim's)
    _put(props, slots[ST_QI], -(y[11] + ey))
    _put(props, slots[ST_RI], -(y[12] + ez))
    _put(props, slots[ST_LAT], lat)
    _put(props, slots[ST_LAT_GC], lat_gc)
    _put(props, slots[ST_LON], lon)
    _put(props, slots[ST_LAT_DEG], math.degrees(lat))
    _put(props, slots[ST_LAT_GC_DEG], math.degrees(lat_gc))
    _put(props, slots[ST_LON_DEG], math.degrees(lon))
    _put(props, slots[ST_VN], y[3])
    _put(props, slots[ST_VE], -y[4])
    _put(props, slots[ST_VD], -y[5])
    _put(props, slots[ST_PRESSURE_ALTITUDE], y[2])      # (the standard atmosphere's: the altitude itself)
    _put(props, slots[ST_ECI_VX], vx)
    _put(props, slots[ST_ECI_VY], vy)
    _put(props, slots[ST_ECI_VZ], vz)
    _put(props, slots[ST_ECI_V], math.sqrt(vx * vx + vy * vy + vz * vz))
    if slots[ST_SEA_LEVEL_RADIUS] >= 0:
        a, b = (_WGS84_A, _WGS84_B) if planet is None else (planet[P_A], planet[P_B])
        ec = b / a
        c = math.cos(lat_gc)
        props[slots[ST_SEA_LEVEL_RADIUS]] = a * ec / math.sqrt(1.0 - (1.0 - ec * ec) * c * c)
    if slots[ST_APOAPSIS] >= 0 or slots[ST_PERIAPSIS] >= 0:
        if planet is None:
            rx, ry, rz, gm = _WGS84_A + y[2], 0.0, 0.0, _WGS84_GM
        else:
            rx, ry, rz, gm = planet[P_KEY + 1], planet[P_KEY + 2], planet[P_KEY + 3], planet[P_GM]
        apo, peri = _apsides(rx, ry, rz, vx, vy, vz, gm)
        _put(props, slots[ST_APOAPSIS], apo)
        _put(props, slots[ST_PERIAPSIS], peri)
    if slots[ST_VRP_LAT] >= 0 or slots[ST_VRP_LON] >= 0 or slots[ST_VRP_RADIUS] >= 0:
        _visual_point(props, slots, y, planet, s, lat, lon)


@borrowing_jit
def _visual_point(props, slots, y, planet, s, lat, lon):
    """FGAuxiliary's visual reference point (``vLocationVRP``: the CG's location moved by ``Tb2l`` times the VRP
    about the CG): its geocentric latitude and its longitude (deg) and its distance from the Earth's centre (ft).
    On the flat planet the North and East offsets move the latitude and longitude over the radii of
    :func:`_state_into`, and the radius is WGS-84's equatorial one plus the height."""
    k = J_LOAD_SLOTS + 6
    cx, cy, cz = props[int(s[k])], props[int(s[k + 1])], props[int(s[k + 2])]
    bx, by, bz = (cx - s[J_VRP]) / 12.0, (s[J_VRP + 1] - cy) / 12.0, (cz - s[J_VRP + 2]) / 12.0
    dn, dw, du = qv_rotate(y[6], y[7], y[8], y[9], bx, -by, -bz)         # (flightsim's body → earth: N, W, up)
    if planet is None:
        vlat, vlon = (y[0] + dn) / MERIDIAN_RADIUS, -(y[1] + dw) / PRIME_VERTICAL_RADIUS
        radius = _WGS84_A + y[2] + du
    else:
        xe, ye, ze = ecef(lat, lon, y[2], planet[P_A], planet[P_B])
        sl, cl, so, co = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
        de = -dw                                # (North, East, up in ECEF at the geodetic latitude)
        xe += -sl * co * dn - so * de + cl * co * du
        ye += -sl * so * dn + co * de + cl * so * du
        ze += cl * dn + sl * du
        vlat, vlon = math.atan2(ze, math.sqrt(xe * xe + ye * ye)), math.atan2(ye, xe)
        radius = math.sqrt(xe * xe + ye * ye + ze * ze)
    _put(props, slots[ST_VRP_LAT], math.degrees(vlat))
    _put(props, slots[ST_VRP_LON], math.degrees(vlon))
    _put(props, slots[ST_VRP_RADIUS], radius)


@borrowing_jit
def _apsides(rx, ry, rz, vx, vy, vz, gm):
    """The apoapsis and periapsis radii (ft) of the orbit of ECI position ``r`` (ft) and velocity ``v`` (ft/s)
    about a body of ``gm`` (ft³/s²), as ``FGPropagate::ComputeOrbitalParameters``: h²/(GM (1 ∓ e))."""
    hx, hy, hz = ry * vz - rz * vy, rz * vx - rx * vz, rx * vy - ry * vx
    h = math.sqrt(hx * hx + hy * hy + hz * hz)
    rn = math.sqrt(rx * rx + ry * ry + rz * rz)
    ex = (vy * hz - vz * hy) / gm - rx / rn
    ey = (vz * hx - vx * hz) / gm - ry / rn
    ez = (vx * hy - vy * hx) / gm - rz / rn
    e = math.sqrt(ex * ex + ey * ey + ez * ez)
    return h * h / (gm * (1 - e)), h * h / (gm * (1 + e))


@borrowing_jit
def _settled_fcs(props, params):
    """The flight controls settled: run until no property changes (at most :data:`SETTLE_ITERATIONS` passes), so
    that a loop through the channels (a gain scheduled on the surface it moves, read through a filter) sits at
    its own steady state, not at one pass from whatever the evaluation before left."""
    last_sum = last_moment = math.nan      # (a pass that changes nothing leaves both sums as they were)
    for _ in range(SETTLE_ITERATIONS):
        call_block(params.jsb_native[0], props, params.jsb_fcs_constants, params.jsb_fcs_tables,
                   params.jsb_fcs_data)
        total = moment = 0.0
        for k in range(props.shape[0]):
            total += props[k]
            moment += (k + 1.0) * props[k]
        if total == last_sum and moment == last_moment:
            break
        last_sum, last_moment = total, moment


@borrowing_jit
def _frame_inputs(t, y, h, params, settle):
    """What a step's start gives the flight controls before they run (the commands, the state, the time, the
    gear's last forces and contacts, the atmosphere), in JSBSim's order; the settle switch and the step."""
    props, s, last = params.jsb_props, params.jsb_scalars, params.jsb_last
    props[int(s[J_DT_SLOT])] = h
    props[int(s[J_SETTLE_SLOT])] = 1.0 if settle else 0.0
    _commands(props, params.jsb_commands, params.controls)
    _brakes(props, params.jsb_commands, params.controls, s[J_BRAKE_SLOTS:J_BRAKE_SLOTS + 3])
    _state_into(props, params.jsb_state_slots, y, params.planet, params.terrain, s)
    st = params.jsb_state_slots
    for k in range(3):          # (FGAccelerations ran last frame: what an accelerometer reads)
        _put(props, st[ST_BODY_ACCEL + k], last[L_FORCE + k])
        _put(props, st[ST_PQRIDOT + k], last[L_RATES_DOT + k])
    _put(props, int(s[J_TIME_SLOT]), t)
    for k in range(3):          # (FGGroundReactions ran last frame: the last evaluation's)
        _put(props, int(s[J_GEAR_FORCE_SLOTS + k]), last[L_GEAR + k])
    # (FGGroundReactions ran last frame: the last evaluation's contacts; the pilot's steering command)
    contacts_frame(props, params, h, settle, LAST_FIELDS, props[int(s[J_STEER_CMD_SLOT])], int(s[J_GEAR_WOW_SLOT]))
    t, pressure, rho, sound = _atmosphere(last, y[2])
    put_atmosphere(props, params.jsb_aux_slots, t, pressure, rho, sound)
    _biased_ratios(props, params.jsb_aux_slots, t, rho, last[L_TEMPERATURE_BIAS])


@borrowing_jit
def _engine_block(props, params):
    """The engines' functions (their program) after the aerodynamics' frame state; σ."""
    frame_start(props, params.jsb_frame_slots, params.jsb_limits)
    call_block(params.jsb_native[2], props, params.jsb_engine_constants, params.jsb_engine_tables,
               params.jsb_engine_data)
    return props[int(params.jsb_scalars[J_SIGMA_SLOT])]


@borrowing_jit
def _post_block(props, params):
    """The engines' post functions (their own program, over the engines' constants), after their frames."""
    call_block(params.jsb_native[3], props, params.jsb_engine_constants, params.jsb_engine_tables,
               params.jsb_engine_data)


@borrowing_jit
def _gas_first(props, params, dt):
    """The gas cells' first half (:func:`~flightsim.physics.jsbsim.buoyancy.cells_first`, a frame of ``dt`` s on
    the atmosphere of the step's start), before the engines' post functions compute the ballonets' heat and
    blowers from it."""
    if params.jsb_gas.shape[0]:
        last, k = params.jsb_last, L_ATMOSPHERE
        cells_first(props, params.jsb_gas, dt, last[k + 2], last[k + 3], last[k + 4],
                    gravity_magnitude(params.planet, params.gravity))


@borrowing_jit
def _held(props, params, dt):
    """The engines' loads just computed held, the external forces added (FGExternalReactions: after the FCS and
    the engines), then the gas cells' (FGBuoyantForces: their frame of ``dt`` s, 0 in a settle as in JSBSim's
    trim, on the atmosphere of the step's start), and the diagnostics and the thrusters' load properties
    written."""
    s, held = params.jsb_scalars, params.jsb_held
    params.diag[2] = math.sqrt(held[0] * held[0] + held[1] * held[1] + held[2] * held[2])   # (the thrust alone)
    for k in range(6):
        _put(props, int(s[J_PROP_SLOTS + k]), held[k])
    st = params.jsb_state_slots
    external_loads(props, params.jsb_external, held, props[int(st[ST_PHI])], props[int(st[ST_THETA])],
                   props[int(st[ST_PSI])], props[int(s[J_ALPHA_SLOT])], props[int(s[J_BETA_SLOT])], params.planet)
    if params.jsb_gas.shape[0]:         # (the second half: the first ran before the engines' post functions)
        last, k = params.jsb_last, L_ATMOSPHERE
        buoyant_frame(props, params.jsb_gas, s[J_GAS_SLOTS:J_LOAD_SLOTS], s[J_LOAD_SLOTS:J_LOAD_SLOTS + 9], dt,
                      last[k + 2], last[k + 3], last[k + 4],
                      gravity_magnitude(params.planet, params.gravity), props[int(st[ST_PHI])],
                      props[int(st[ST_THETA])], props[int(st[ST_PSI])], held)


@borrowing_jit
def step_start(t, y, h, params):
    """Once per step, before the integrator's: commands, state, atmosphere, FCS, auxiliary properties, the
    aerodynamics' frame state and the engines, in JSBSim's order; the engines' loads and the external forces (a
    pushback's, a hook's) held in ``jsb_held``.  (:func:`settle_start` is the same for a steady state: the
    integrators' compiled steps take only this one.)
    """
    props, s, last = params.jsb_props, params.jsb_scalars, params.jsb_last
    u, v, w, _, _, _, _ = _body_air(y, params.wind)
    wx, wy, wz = y[10], -y[11], -y[12]
    if last[6] != 0.0:
        last[3], last[4], last[5] = (u - last[0]) / h, (v - last[1]) / h, (w - last[2]) / h
        r = L_RATES
        last[r + 3], last[r + 4], last[r + 5] = (wx - last[r]) / h, (wy - last[r + 1]) / h, (wz - last[r + 2]) / h
    last[0], last[1], last[2] = u, v, w
    last[L_RATES], last[L_RATES + 1], last[L_RATES + 2] = wx, wy, wz
    last[6] = 1.0
    _frame_inputs(t, y, h, params, np.bool_(False))     # (a flag, not a literal: one compile for both)
    call_block(params.jsb_native[0], props, params.jsb_fcs_constants, params.jsb_fcs_tables, params.jsb_fcs_data)
    steering_after_fcs(props, params, LAST_FIELDS)
    _systems_wind(props, s, params.wind)
    _auxiliary_at(y, params, props)             # (FGAuxiliary after the FCS)
    sigma = _engine_block(props, params)
    engines_frame_by_address(props, params.jsb_turbines, params.jsb_turbine_slots, params.jsb_pistons,
                             params.jsb_piston_slots, params.jsb_propellers, params.jsb_propeller_slots,
                             params.jsb_engine_table_index, params.jsb_engine_table_data, params.jsb_frames, h,
                             sigma, params.jsb_held)
    _gas_first(props, params, h)
    _post_block(props, params)
    _held(props, params, h)
    params.diag[3] = props[int(s[J_RPM_SLOT])] if s[J_RPM_SLOT] >= 0 else 0.0


def settle_start(t, y, h, params):
    """:func:`step_start` for a steady state (trim, a start, a linearisation): the last step's acceleration is
    zero, the specific force the steady turn's less gravity, and the flight controls read this state's auxiliary
    values (not the last evaluation's) and run to their fixed point (kinematics at their commands, filters at
    their steady state); the engines at their steady state; cl² from this state's own lift.  A settled
    evaluation so does not depend on the one before (a linearisation's differences).

    Called from Python: the steady engines (:func:`~flightsim.physics.jsbsim.propulsion.engines_steady`) go
    between two compiled halves, so that a first start compiles the solvers of only the kinds of engine the
    aircraft has.
    """
    sigma = _settle_inputs(t, y, h, params)
    engines_steady(params.jsb_props, params.jsb_turbines, params.jsb_turbine_slots, params.jsb_pistons,
                   params.jsb_piston_slots, params.jsb_propellers, params.jsb_propeller_slots,
                   params.jsb_engine_table_index, params.jsb_engine_table_data, sigma, params.jsb_held)
    _settle_outputs(params)


@borrowing_entry_jit
def _settle_inputs(t, y, h, params):
    """:func:`settle_start` up to the engines: their inputs settled; returns σ."""
    props, last = params.jsb_props, params.jsb_last
    u, v, w, _, _, _, _ = _body_air(y, params.wind)
    wx, wy, wz = y[10], -y[11], -y[12]
    last[3] = last[4] = last[5] = 0.0
    last[L_RATES_DOT] = last[L_RATES_DOT + 1] = last[L_RATES_DOT + 2] = 0.0
    _, _, _, _, t20, t21, t22 = _tb2l_row(y)
    g = params.gravity
    last[L_FORCE] = wy * w - wz * v - g * t20
    last[L_FORCE + 1] = wz * u - wx * w - g * t21
    last[L_FORCE + 2] = wx * v - wy * u - g * t22
    last[0], last[1], last[2] = u, v, w
    last[L_RATES], last[L_RATES + 1], last[L_RATES + 2] = wx, wy, wz
    last[6] = 0.0                               # (after a settle the next step has no derivative yet)
    _frame_inputs(t, y, h, params, np.bool_(True))
    _auxiliary_at(y, params, props)             # (the FCS's "last frame" auxiliary values: this state's)
    _settled_fcs(props, params)
    steering_after_fcs(props, params, LAST_FIELDS)
    _systems_wind(props, params.jsb_scalars, params.wind)
    return _engine_block(props, params)


@borrowing_entry_jit
def _settle_outputs(params):
    """:func:`settle_start` after the engines: their loads held, the flight controls settled on them, cl²."""
    props, s = params.jsb_props, params.jsb_scalars
    _gas_first(props, params, 0.0)
    _post_block(props, params)
    _held(props, params, 0.0)
    # flight controls that read the engines' outputs (DHC6's thrust coefficient) read this state's, not the last
    # evaluation's (settled again: a fixed point, so nothing else moves)
    _settled_fcs(props, params)
    params.diag[3] = props[int(s[J_RPM_SLOT])] if s[J_RPM_SLOT] >= 0 else 0.0
    # cl² from this state's own lift, a fixed point (the lift's drag part reads cl²), iterated until it holds
    slot = params.jsb_frame_slots[0]
    for _ in range(SETTLE_ITERATIONS):
        before = props[slot] if slot >= 0 else 0.0
        _aero(props, params)
        frame_start(props, params.jsb_frame_slots, params.jsb_limits)
        if slot < 0 or props[slot] == before:
            break

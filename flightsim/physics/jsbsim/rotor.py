"""JSBSim's helicopter rotor (``FGRotor``) with its transmission (``FGTransmission``), driven by an electric engine
(``FGElectric``): read from its ``<rotor>`` file, computed once per frame.

Each frame, as ``FGElectric::Calculate`` then ``FGRotor::Calculate``:

* the engine's power is ``<power>`` × throttle (``…/power-hp``), handed to the rotor in ft·lbf/s (not below 0 while
  the engine turns at most 0.1 rpm);
* the rotor's rpm is its own (``…/rotor-rpm``), or with ``<ExternalRPM>`` another's: engine ``n``'s rotor rpm ×
  its gear ratio / this one's (``<ExternalRPM> n``), or ``…/x-rpm-dict`` (``-1``, or an engine not yet read or this
  one, as JSBSim switches them), always within ``[minrpm, maxrpm]``;
* the controls are ``…/collective-ctrl-rad``, ``…/lateral-ctrl-rad`` and ``…/longitudinal-ctrl-rad``
  (``<controlmap>`` MAIN), ``…/antitorque-ctrl-rad`` alone (TAIL), or ``…/tail-collective-ctrl-rad`` with the
  two cyclic ones (TANDEM);
* the ground effect (``<groundeffectexp>`` > 1e-5): the height above ground (``position/h-agl-ft``, not below 0)
  through a 1 Hz lag filter (JSBSim's ``Filter``), shifted by ``<groundeffectshift>``, scales the inflow by
  ``1 − …/groundeffect-scale-norm · exp(−exp · h) · rpm / nominal`` (within [0.5, 1]);
* the hub's air velocity in the control axes (/SH79/ eqs. 19–22: the shaft axes turned by the wind's azimuth β)
  gives the advance ratio μ (at most 0.7); the induced inflow ν follows its momentum value with the lag
  ``<inflowlag>`` (integrated exactly over the step for μ and λ held), then the inflow ratio λ, the thrust
  coefficient and the thrust (/SH79/ eq. 27), the coning a0 (eq. 29), the flapping a1, b1 from the body rates
  (eq. 32), the H (drag) and J (side) forces (eqs. 38, 39), the torque (Bramwell's eqs. 3.43–3.44 with a blade
  drag estimate), the downwash angles (with the last frame's flapping, as JSBSim computes them first);
* the loads: the thrust, H and J forces turned from the control axes to the shaft, the hinge-offset moments
  ``½ e b Ω² M_blade (b1s, a1s)`` and the torque × ``<sense>`` (+1 counter-clockwise seen from above, 0 a coaxial
  rotor's none), into the thruster's axes (its ``<orient>``: ``FGForce``'s ``mT``) and the body, about the CG;
* the rpm: without ``<ExternalRPM>``, ``FGTransmission::Calculate`` over the step — the engine's torque (power /
  ω, less ``<gearloss>``) and the rotor's (its torque plus ``…/brake-ctrl-norm`` × ``<maxbrakepower>`` / ω) turn
  the engine side (``<gearmoment>``) and the rotor (``<polarmoment>``) together, or apart through the clutch
  (``…/clutch-ctrl-norm``) and the free-wheel unit (``…/free-wheel-transmission``, through a 200 /s lag);
  with it, the engine's rpm is the rotor's × the gear ratio.

The inflow's lag and the two lag filters step JSBSim's ``FGRotor::dt``, the simulation's step when the aircraft was
loaded (``simulation/dt``); the transmission steps the frame's (0.5 s in ``FGPropulsion::GetSteadyState``'s march,
0 in ``RunIC``'s frame).

The engine's row is a row of the piston array (:attr:`~flightsim.physics.jsbsim.propulsion.Propulsion.pistons`,
its :data:`~flightsim.physics.jsbsim.piston.PE_KIND` :data:`ROTOR`; the ``RO_*`` columns), the rotor's location,
gear ratio and ``mT`` the propeller array's columns (``propeller.PR_GEAR``, ``PR_X`` … ``PR_Z``, ``PR_T``); its
properties are slots of both slot rows (:data:`ROTOR_ENGINE_SLOTS`, ``RE_*``, in the piston's;
:data:`ROTOR_SLOTS`, ``RR_*``, in the propeller's), its state in the property array.

Refused by name: an ``<ExternalRPM>`` naming an engine that drives no rotor, an unknown ``<controlmap>`` (JSBSim
logs it and takes MAIN), a ``<pointing>`` thruster, a rotor driven by anything but an electric engine.

Frames: JSBSim's body frame (x forward, y right, z down); lbf, lbf·ft, ft, slug·ft², rad, rpm, s.  Source: JSBSim
1.3.3 ``FGRotor.cpp``, ``FGTransmission.cpp``, ``FGElectric.cpp``; /SH79/ Shaughnessy, Deaux and Yenni, NASA
TP-1285 (1979).
"""

from __future__ import annotations

import math

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.piston import PE_KIND
from flightsim.physics.jsbsim.propeller import PR_GEAR, PR_T, PR_X, PR_Y, PR_Z, _orientation

__all__ = ["ROTOR", "ROTOR_ENGINE_SLOTS", "ROTOR_SLOTS", "read_rotor", "rotor_frame", "rotor_defaults"]

#: :data:`~flightsim.physics.jsbsim.piston.PE_KIND` of an electric engine driving a rotor.
ROTOR = 3.0
#: Columns of its row (in the piston array): the engine's power (W), then the rotor's radius (ft), blades, nominal,
#: minimal and maximal rpm, whether its rpm is another's (``<ExternalRPM>``: 1), the source's gear ratio, the blade
#: chord (ft), the lift-curve slope (/rad), the twist (rad), the hinge offset (ft), the blade's mass moment
#: (slug·ft), the rotor's polar moment (slug·ft²), the inflow lag (s), the tip-loss factor, the ground effect's
#: exponent and shift (ft), the Lock number / ρ, the solidity, the brake's power (ft·lbf/s), the gear's friction
#: (ft·lbf/s) and moment (slug·ft²), the sense (−1, 0, 1), the control map (0 MAIN, 1 TAIL, 2 TANDEM).
(RO_POWER, RO_RADIUS, RO_BLADES, RO_NOMINAL_RPM, RO_MIN_RPM, RO_MAX_RPM, RO_EXTERNAL, RO_SOURCE_GEAR, RO_CHORD,
 RO_LIFT_SLOPE, RO_TWIST, RO_HINGE, RO_MASS_MOMENT, RO_POLAR, RO_INFLOW_LAG, RO_TIP_LOSS, RO_GE_EXP, RO_GE_SHIFT,
 RO_LOCK_BY_RHO, RO_SOLIDITY, RO_BRAKE_POWER, RO_GEAR_LOSS, RO_GEAR_MOMENT, RO_SENSE, RO_CONTROL_MAP) = range(25)
assert RO_CONTROL_MAP < PE_KIND

#: The engine side's properties (slots of the piston slot row; ``{e}`` ``propulsion/engine[k]``, ``{k}`` k): the
#: throttle, the power (JSBSim's), the engine rpm (FGRotor's), the brake and clutch (FGTransmission's), the free-wheel
#: unit's state (JSBSim's), then flightsim's names for what JSBSim keeps unbound: FGTransmission's engine and rotor
#: rpm (rotor rpm, before the rotor's limits), its free-wheel lag filter's last input and output, the rotor's
#: h-agl filter's last input and output (ft); and the step the rotor's lags take.
ROTOR_ENGINE_SLOTS = ("fcs/throttle-pos-norm[{k}]", "{e}/power-hp", "{e}/engine-rpm", "{e}/brake-ctrl-norm",
                      "{e}/clutch-ctrl-norm", "{e}/free-wheel-transmission", "{e}/transmission-engine-rpm",
                      "{e}/transmission-rotor-rpm", "{e}/free-wheel-lag-in", "{e}/free-wheel-lag-norm",
                      "{e}/hagl-filter-in-ft", "{e}/hagl-filtered-ft", "simulation/dt")
(RE_THROTTLE, RE_HP, RE_ENGINE_RPM, RE_BRAKE, RE_CLUTCH, RE_FREE_WHEEL, RE_GEAR_ENGINE_RPM, RE_GEAR_ROTOR_RPM,
 RE_LAG_IN, RE_LAG_OUT, RE_HAGL_IN, RE_HAGL_OUT, RE_DT) = range(len(ROTOR_ENGINE_SLOTS))
#: The rotor's properties (slots of the propeller slot row), JSBSim's names: its outputs and state, its controls
#: (the collective's name by the control map; the cyclic ones −1 for a TAIL rotor), the rpm it follows (−1: its own),
#: then what it reads.
ROTOR_SLOTS = ("{e}/rotor-rpm", "{e}/thrust-lbs", "{e}/a0-rad", "{e}/a1-rad", "{e}/b1-rad", "{e}/inflow-ratio",
               "{e}/advance-ratio", "{e}/induced-inflow-ratio", "{e}/vi-fps", "{e}/thrust-coefficient",
               "{e}/torque-lbsft", "{e}/theta-downwash-rad", "{e}/phi-downwash-rad", "{e}/groundeffect-scale-norm",
               "{collective}", "{e}/lateral-ctrl-rad", "{e}/longitudinal-ctrl-rad", "{source}",
               "velocities/u-aero-fps", "velocities/v-aero-fps", "velocities/w-aero-fps",
               "velocities/p-aero-rad_sec", "velocities/q-aero-rad_sec", "velocities/r-aero-rad_sec",
               "atmosphere/rho-slugs_ft3", "position/h-agl-ft")
(RR_RPM, RR_THRUST, RR_A0, RR_A1, RR_B1, RR_LAMBDA, RR_MU, RR_NU, RR_VI, RR_CT, RR_TORQUE, RR_THETA_DW, RR_PHI_DW,
 RR_GE_SCALE, RR_COLLECTIVE, RR_LATERAL, RR_LONGITUDINAL, RR_SOURCE, RR_U, RR_V, RR_W, RR_P, RR_Q, RR_R, RR_RHO,
 RR_HAGL) = range(len(ROTOR_SLOTS))
#: The collective's property by control map (FGRotor::bindmodel).
COLLECTIVE = ("{e}/collective-ctrl-rad", "{e}/antitorque-ctrl-rad", "{e}/tail-collective-ctrl-rad")
_MAPS = {"MAIN": 0, "TAIL": 1, "TANDEM": 2}

#: JSBSim's hp → W, hp → ft·lbf/s, rpm → rad/s and back (FGTransmission's constants).
HP_TO_WATTS, HP_TO_FTLBS = 745.7, 550.0
_RPM_TO_OMEGA, _OMEGA_TO_RPM = 0.104719755119659774615421446109, 9.54929658551372014613302580235
_POWER_UNITS = {"HP": 1.0, "WATTS": 0.001341022}
_KNOWN = {"diameter", "numblades", "gearratio", "nominalrpm", "minrpm", "maxrpm", "chord", "liftcurveslope",
          "twist", "hingeoffset", "flappingmoment", "massmoment", "polarmoment", "inflowlag", "tiplossfactor",
          "maxbrakepower", "gearloss", "gearmoment", "controlmap", "ExternalRPM", "groundeffectexp",
          "groundeffectshift", "documentation", "description"}


def _constrain(low, x, high):
    """JSBSim's ``Constrain``: ``x`` within ``[low, high]`` (the low bound tested first)."""
    return low if x < low else (high if x > high else x)


@borrowing_jit
def _limit(low, x, high):
    """:func:`_constrain`, compiled."""
    return low if x < low else (high if x > high else x)


def read_rotor(source, engine_root, thruster, rotor, k, where, rotors):
    """The rows of electric engine ``k`` driving the ``<rotor>`` ``rotor`` (its ``<thruster>`` element
    ``thruster``): ``(row, prop_row, controls)`` — its piston-array row (``RO_*``, :data:`ROTOR`), its
    propeller-array row (gear ratio, ``mT``; the location about the CG left 0) and ``{"collective": name,
    "source": name or None, "cyclic": bool}``, as ``FGRotor``'s constructor reads them.  ``rotors`` maps the
    engines read before to their gear ratio (None: not a rotor)."""
    from flightsim.physics.jsbsim import piston as _piston
    from flightsim.physics.jsbsim import propeller as _propeller
    from flightsim.physics.jsbsim.rocket import _check, _value

    _check(source, engine_root, where, {"power", "documentation", "description"}, "an electric engine")
    here = f"{where}/thruster"
    for child in rotor:
        if child.tag not in _KNOWN:
            raise InputError(source.path, f"{here}/{child.tag}", "not supported in a rotor")

    def value(tag, default, unit=None, at_least=None):
        el = rotor.find(tag)
        if el is None:
            return default
        if unit in ("HP",):
            given = (el.get("unit") or "HP").upper()
            if given not in _POWER_UNITS:
                raise InputError(source.path, f"{here}/{tag}", f"unit {given!r} cannot be converted to HP")
            return source.number(el, f"{here}/{tag}") * _POWER_UNITS[given]
        number = source.number(el, f"{here}/{tag}", unit)
        if at_least is not None and number < at_least:
            raise InputError(source.path, f"{here}/{tag}", f"must be at least {at_least:g}, not {number:g}")
        return number

    row = [0.0] * _piston.ROW_FIELDS
    row[PE_KIND] = ROTOR
    row[RO_POWER] = _value(source, engine_root, "power", where, {"WATTS": 1.0, "HP": 1.0 / 0.001341022},
                           HP_TO_WATTS)
    sense = thruster.find("sense")
    s = 1.0 if sense is None else source.number(sense, f"{here}/sense")
    row[RO_SENSE] = -1.0 if s < -0.1 else (0.0 if s < 0.1 else 1.0)
    cmap = rotor.find("controlmap")
    name = "MAIN" if cmap is None else (cmap.text or "").strip().upper()
    if name not in _MAPS:
        raise InputError(source.path, f"{here}/controlmap", f"unknown control map {name!r} (MAIN, TAIL or TANDEM)")
    row[RO_CONTROL_MAP] = _MAPS[name]
    source_name = None
    external = rotor.find("ExternalRPM")
    row[RO_SOURCE_GEAR] = 1.0
    if external is not None:
        row[RO_EXTERNAL] = 1.0
        n = int(source.number(external, f"{here}/ExternalRPM"))
        if n >= 0 and n in rotors and n != k:
            if rotors[n] is None:
                raise InputError(source.path, f"{here}/ExternalRPM", f"engine {n} drives no rotor (its rpm is "
                                 "not modelled as a source)")
            row[RO_SOURCE_GEAR] = rotors[n]
            source_name = f"propulsion/engine[{n}]/rotor-rpm"
        else:                   # (FGRotor: itself or an engine not read yet is discarded for x-rpm-dict)
            source_name = f"propulsion/engine[{k}]/x-rpm-dict"
    # FGRotor::Configure: read, the holes filled with its estimates, then the derived parameters
    radius = _constrain(1e-3, 0.5 * value("diameter", 42.0, "FT"), 1e9)
    blades = float(int(value("numblades", 3.0)))
    gear = _constrain(1e-9, value("gearratio", 1.0), 1e9)
    nominal = _constrain(2.0, value("nominalrpm", (750.0 / radius) / (2.0 * math.pi) * 60.0), 1e9)
    minimal = _constrain(1.0, value("minrpm", 1.0), nominal - 1.0)
    maximal = _constrain(nominal, value("maxrpm", 2.0 * nominal), 1e9)
    chord = value("chord", _constrain(0.07, 2.0 / radius, 0.14) * math.pi * radius / blades, "FT")
    slope = value("liftcurveslope", 6.0)
    twist = value("twist", -0.17, "RAD")
    hinge = value("hingeoffset", 0.05 * radius, "FT")
    flapping = _constrain(1e-9, value("flappingmoment", chord ** 2 * (radius - hinge) ** 2 * 0.57, "SLUG*FT2"), 1e9)
    mass_moment = _constrain(1e-9, value("massmoment", (3.0 * flapping / radius ** 2) * (0.45 * radius)), 1e9)
    polar = _constrain(1e-9, value("polarmoment", 1.1 * flapping * blades, "SLUG*FT2"), 1e9)
    tip_loss = value("tiplossfactor", 1.0)
    power_estimate = 0.5 * blades * chord * radius * radius
    brake = value("maxbrakepower", power_estimate / 30.0, "HP") * HP_TO_FTLBS
    ge_exp = value("groundeffectexp", 0.0)
    ge_shift = value("groundeffectshift", 0.0, "FT")
    r4 = radius * radius * radius * radius
    lock_by_rho = slope * chord * r4 / flapping
    solidity = blades * chord / (math.pi * radius)
    omega = (nominal / 60.0) * 2.0 * math.pi
    lag = _constrain(1e-6, value("inflowlag", 16.0 / (lock_by_rho * 0.002356 * omega)), 2.0)
    gear_moment = _constrain(1e-6, value("gearmoment", 0.1 * polar, "SLUG*FT2"), 1e9)
    gear_loss = _constrain(0.0, value("gearloss", 0.0025 * power_estimate, "HP"), 1e9) * HP_TO_FTLBS
    for column, v in ((RO_RADIUS, radius), (RO_BLADES, blades), (RO_NOMINAL_RPM, nominal), (RO_MIN_RPM, minimal),
                      (RO_MAX_RPM, maximal), (RO_CHORD, chord), (RO_LIFT_SLOPE, slope), (RO_TWIST, twist),
                      (RO_HINGE, hinge), (RO_MASS_MOMENT, mass_moment), (RO_POLAR, polar), (RO_INFLOW_LAG, lag),
                      (RO_TIP_LOSS, tip_loss), (RO_GE_EXP, ge_exp), (RO_GE_SHIFT, ge_shift),
                      (RO_LOCK_BY_RHO, lock_by_rho), (RO_SOLIDITY, solidity), (RO_BRAKE_POWER, brake),
                      (RO_GEAR_LOSS, gear_loss), (RO_GEAR_MOMENT, gear_moment)):
        row[column] = v
    prop_row = [0.0] * _propeller.ROW_FIELDS
    prop_row[PR_GEAR] = gear
    prop_row[PR_T:PR_T + 9] = _orientation(source, thruster, here)
    controls = {"collective": COLLECTIVE[_MAPS[name]], "source": source_name, "cyclic": name != "TAIL"}
    return row, prop_row, controls


def rotor_defaults():
    """The rotor's state as ``FGRotor``'s and ``FGTransmission``'s constructors leave it: ``{suffix: value}`` of
    ``propulsion/engine[k]/…`` (the rest 0)."""
    return {"inflow-ratio": -0.001, "induced-inflow-ratio": 0.001, "groundeffect-scale-norm": 1.0,
            "clutch-ctrl-norm": 1.0, "free-wheel-transmission": 1.0}


@borrowing_jit
def _transmission(props, row, s, power, torque, dt):
    """``FGTransmission::Calculate`` over ``dt`` s: the engine side's and the rotor's rpm (``RE_GEAR_*``) from the
    engine's ``power`` (ft·lbf/s) and the rotor's ``torque`` (lbf·ft), with the clutch, brake and free-wheel unit."""
    engine_rpm, rotor_rpm = props[s[RE_GEAR_ENGINE_RPM]], props[s[RE_GEAR_ROTOR_RPM]]
    engine_omega = engine_rpm * _RPM_TO_OMEGA
    safe_engine = 1e-1 if engine_omega < 1e-1 else engine_omega
    engine_torque = power / safe_engine
    rotor_omega = rotor_rpm * _RPM_TO_OMEGA
    safe_rotor = 1e-1 if rotor_omega < 1e-1 else rotor_omega
    engine_torque -= row[RO_GEAR_LOSS] / safe_engine
    torque += _limit(0.0, props[s[RE_BRAKE]], 1.0) * row[RO_BRAKE_POWER] / safe_rotor
    polar, gear_moment = row[RO_POLAR], row[RO_GEAR_MOMENT]
    engine_d = engine_torque / gear_moment * dt
    rotor_d = -torque / polar * dt
    free_wheel = 0.0 if rotor_omega + rotor_d > engine_omega + engine_d else 1.0
    props[s[RE_FREE_WHEEL]] = free_wheel
    step = props[s[RE_DT]]          # (FreeWheelLag: JSBSim's Filter(200, dt) of the step at load)
    denom = 2.0 + 200.0 * step
    lag = (free_wheel + props[s[RE_LAG_IN]]) * (200.0 * step / denom) + props[s[RE_LAG_OUT]] * \
        ((2.0 - 200.0 * step) / denom)
    props[s[RE_LAG_IN]] = free_wheel
    props[s[RE_LAG_OUT]] = lag
    coupling = lag * _limit(0.0, props[s[RE_CLUTCH]], 1.0)
    if coupling < 0.999999:
        engine_d = (engine_torque - torque * coupling) / (polar * coupling + gear_moment) * dt
        rotor_d = (engine_torque * coupling - torque) / (polar + gear_moment * coupling) * dt
        engine_rpm += engine_d * _OMEGA_TO_RPM
        rotor_rpm += rotor_d * _OMEGA_TO_RPM
        c2 = coupling * coupling
        engine_rpm = (1.0 - c2) * engine_rpm + c2 * 0.02 * (49.0 * engine_rpm + rotor_rpm)
        rotor_rpm = (1.0 - c2) * rotor_rpm + c2 * 0.02 * (engine_rpm + 49.0 * rotor_rpm)
        if abs(engine_rpm - rotor_rpm) < 1e-3:
            engine_rpm = rotor_rpm = 0.5 * (engine_rpm + rotor_rpm)
    else:
        d_omega = (engine_torque - torque) / (polar + gear_moment) * dt
        rotor_rpm += d_omega * _OMEGA_TO_RPM
        engine_rpm = rotor_rpm
    props[s[RE_GEAR_ENGINE_RPM]] = max(engine_rpm, 0.0)
    props[s[RE_GEAR_ROTOR_RPM]] = max(rotor_rpm, 0.0)


@borrowing_jit
def _to_shaft(pr, x, y, z):
    """A body-frame vector in the rotor's shaft axes: ``TboToHsr · mT^T · v`` (FGRotor's ``hub_vel_body2ca``)."""
    t = PR_T
    nx = pr[t] * x + pr[t + 3] * y + pr[t + 6] * z
    ny = pr[t + 1] * x + pr[t + 4] * y + pr[t + 7] * z
    nz = pr[t + 2] * x + pr[t + 5] * y + pr[t + 8] * z
    return nz, ny, -nx


@borrowing_jit
def _add_loads(pr, fs_u, fs_v, fs_w, ms_l, ms_m, ms_n, out):
    """Forces and moments in the shaft axes to the body about the CG, added into ``out``: ``mT · HsrToTbo`` each,
    then the moment of the force at the rotor's location (``FGForce::GetBodyForces``)."""
    t = PR_T
    fx, fy, fz = -fs_w, fs_v, fs_u          # (HsrToTbo)
    mx, my, mz = -ms_n, ms_m, ms_l
    bx = pr[t] * fx + pr[t + 1] * fy + pr[t + 2] * fz
    by = pr[t + 3] * fx + pr[t + 4] * fy + pr[t + 5] * fz
    bz = pr[t + 6] * fx + pr[t + 7] * fy + pr[t + 8] * fz
    x, y, z = pr[PR_X], pr[PR_Y], pr[PR_Z]
    out[0] += bx
    out[1] += by
    out[2] += bz
    out[3] += (pr[t] * mx + pr[t + 1] * my + pr[t + 2] * mz) + (y * bz - z * by)
    out[4] += (pr[t + 3] * mx + pr[t + 4] * my + pr[t + 5] * mz) + (z * bx - x * bz)
    out[5] += (pr[t + 6] * mx + pr[t + 7] * my + pr[t + 8] * mz) + (x * by - y * bx)


@borrowing_jit
def rotor_frame(props, row, s, pr, ps, tb, data, dt, out):
    """One frame of an electric engine and its rotor (``FGElectric::Calculate``, ``FGRotor::Calculate``), the
    transmission stepping ``dt`` s: the rotor's outputs and state into ``props``, its loads added into ``out``.
    ``tb`` and ``data`` are unused (the frame's signature is every propeller-driving engine's)."""
    gear = pr[PR_GEAR]
    hp = row[RO_POWER] * props[s[RE_THROTTLE]] / HP_TO_WATTS
    props[s[RE_HP]] = hp
    power = hp * HP_TO_FTLBS
    rpm = props[ps[RR_RPM]]
    if rpm * gear <= 0.1:
        power = max(power, 0.0)
    step = props[s[RE_DT]]
    rho = props[ps[RR_RHO]]
    if row[RO_EXTERNAL] != 0.0 and ps[RR_SOURCE] >= 0:
        rpm = props[ps[RR_SOURCE]] * (row[RO_SOURCE_GEAR] / gear)
    rpm = _limit(row[RO_MIN_RPM], rpm, row[RO_MAX_RPM])
    omega = (rpm / 60.0) * 2.0 * math.pi
    a_ic = props[ps[RR_LATERAL]] if ps[RR_LATERAL] >= 0 else 0.0
    b_ic = props[ps[RR_LONGITUDINAL]] if ps[RR_LONGITUDINAL] >= 0 else 0.0
    theta = props[ps[RR_COLLECTIVE]]
    ge = 1.0
    if row[RO_GE_EXP] > 1e-5:
        h = max(props[ps[RR_HAGL]], 0.0)
        denom = 2.0 + step
        filtered = (h + props[s[RE_HAGL_IN]]) * (step / denom) + props[s[RE_HAGL_OUT]] * ((2.0 - step) / denom)
        props[s[RE_HAGL_IN]] = h
        props[s[RE_HAGL_OUT]] = filtered
        ge -= props[ps[RR_GE_SCALE]] * (math.exp(-(filtered + row[RO_GE_SHIFT]) * row[RO_GE_EXP])
                                         * (rpm / row[RO_NOMINAL_RPM]))
        ge = _limit(0.5, ge, 1.0)
    # the hub's velocity and the fuselage's rates in the control axes (/SH79/ eqs. 19-22, 30, 31)
    u, v, w = props[ps[RR_U]], props[ps[RR_V]], props[ps[RR_W]]
    p, q, r = props[ps[RR_P]], props[ps[RR_Q]], props[ps[RR_R]]
    x, y, z = pr[PR_X], pr[PR_Y], pr[PR_Z]
    su, sv, sw = _to_shaft(pr, u + (q * z - r * y), v + (r * x - p * z), w + (p * y - q * x))
    beta = math.atan2(sv, su)
    cb, sb = math.cos(beta), math.sin(beta)
    uw = su * cb + sv * sb
    ww = sw - b_ic * su - a_ic * sv
    ap, aq, _ = _to_shaft(pr, p, q, r)
    pw = ap * cb + aq * sb
    qw = -ap * sb + aq * cb
    # inflow and thrust (/SH79/ eqs. 24-27; the inflow's lag integrated over the step)
    radius, twist, slope, solidity = row[RO_RADIUS], row[RO_TWIST], row[RO_LIFT_SLOPE], row[RO_SOLIDITY]
    tip = row[RO_TIP_LOSS]
    b2 = tip * tip
    b3 = b2 * tip
    b4 = b3 * tip
    tip_speed = omega * radius
    mu = uw / tip_speed
    if mu > 0.7:
        mu = 0.7
    mu2 = mu * mu
    lam = props[ps[RR_LAMBDA]]
    nu = props[ps[RR_NU]]
    ct_t0 = (1.0 / 3.0 * b3 + 1.0 / 2.0 * tip * mu2 - 4.0 / (9.0 * math.pi) * mu * mu2) * theta
    ct_t1 = (1.0 / 4.0 * b4 + 1.0 / 4.0 * b2 * mu2) * twist
    ct_l = (1.0 / 2.0 * b2 + 1.0 / 4.0 * mu2) * lam
    c0 = (slope / 2.0) * (ct_l + ct_t0 + ct_t1) * solidity
    c0 = c0 / (2.0 * math.sqrt(mu2 + lam * lam) + 1e-15)
    nu = ge * ((nu - c0) * math.exp(-step / row[RO_INFLOW_LAG]) + c0)
    lam = ww / tip_speed - nu
    ct_l = (1.0 / 2.0 * b2 + 1.0 / 4.0 * mu2) * lam
    ct_over_sigma = (slope / 2.0) * (ct_l + ct_t0 + ct_t1)
    blades, chord = row[RO_BLADES], row[RO_CHORD]
    thrust = blades * chord * radius * rho * (tip_speed * tip_speed) * ct_over_sigma
    c_t = ct_over_sigma * solidity
    v_induced = nu * tip_speed
    # coning (/SH79/ eq. 29) and flapping (eq. 32)
    lock = row[RO_LOCK_BY_RHO] * rho
    a0 = lock * ((1.0 / 6.0 + 0.04 * mu * mu * mu) * lam + (1.0 / 8.0 + 1.0 / 8.0 * mu * mu) * theta
                 + (1.0 / 10.0 + 1.0 / 12.0 * mu * mu) * twist)
    mu2_2 = mu * mu / 2.0
    t075 = theta + 0.75 * twist
    a_1 = 1.0 / (1.0 - mu2_2) * ((2.0 * lam + (8.0 / 3.0) * t075) * mu + pw / omega - 16.0 * qw / (lock * omega))
    b_1 = 1.0 / (1.0 + mu2_2) * ((4.0 / 3.0) * mu * a0 - qw / omega - 16.0 * pw / (lock * omega))
    a_dw = 1.0 / (1.0 - mu2_2) * ((2.0 * lam + (8.0 / 3.0) * t075) * mu - 24.0 * qw / (lock * omega)
                                  * (1.0 - (0.29 * t075 / (c_t / solidity))))
    # drag and side forces (/SH79/ eqs. 38, 39), torque (Bramwell 3.43, 3.44)
    h_drag = thrust * a_dw
    cy_over_sigma = (0.75 * b_1 * lam - 1.5 * a0 * mu * lam + 0.25 * a_1 * b_1 * mu - a0 * a_1 * (mu * mu)
                     + (1.0 / 6.0) * a0 * a_1 - (0.75 * mu * a0 - (1.0 / 3.0) * b_1 - 0.5 * (mu * mu) * b_1) * t075)
    cy_over_sigma *= slope / 2.0
    j_side = blades * chord * radius * rho * (tip_speed * tip_speed) * cy_over_sigma
    x_dr = 6.0 * c_t / (slope * solidity)
    delta_dr = 0.009 + 0.3 * (x_dr * x_dr)
    torque = (rho * blades * chord * delta_dr * (tip_speed * tip_speed) * (radius * radius) * (1.0 + 4.5 * (mu * mu))
              / 8.0 - (thrust * lam + h_drag * mu) * radius)
    # downwash angles: the air's velocity alone, with the last frame's flapping (as JSBSim computes them first)
    du, dv, dw = _to_shaft(pr, u, v, w)
    props[ps[RR_THETA_DW]] = math.atan2(-du, v_induced - dw) + props[ps[RR_A1]]
    props[ps[RR_PHI_DW]] = math.atan2(dv, v_induced - dw) + props[ps[RR_B1]]
    # the loads (/SH79/ eqs. 40, 41, 43)
    a1s = a_1 * cb + b_1 * sb - b_ic
    b1s = b_1 * cb - a_1 * sb + a_ic
    mf = 0.5 * row[RO_HINGE] * blades * omega * omega * row[RO_MASS_MOMENT]
    _add_loads(pr, -h_drag * cb - j_side * sb + thrust * b_ic, -h_drag * sb + j_side * cb + thrust * a_ic, -thrust,
               mf * b1s, mf * a1s, torque * row[RO_SENSE], out)
    props[ps[RR_THRUST]] = thrust
    props[ps[RR_A0]] = a0
    props[ps[RR_A1]] = a1s
    props[ps[RR_B1]] = b1s
    props[ps[RR_LAMBDA]] = lam
    props[ps[RR_MU]] = mu
    props[ps[RR_NU]] = nu
    props[ps[RR_VI]] = v_induced
    props[ps[RR_CT]] = c_t
    props[ps[RR_TORQUE]] = torque
    # the rpm: the transmission's, or another's
    if row[RO_EXTERNAL] == 0.0:
        _transmission(props, row, s, power, torque, dt)
        props[s[RE_ENGINE_RPM]] = props[s[RE_GEAR_ENGINE_RPM]] * gear
        rpm = props[s[RE_GEAR_ROTOR_RPM]]
    else:
        props[s[RE_ENGINE_RPM]] = rpm * gear
    props[ps[RR_RPM]] = _limit(row[RO_MIN_RPM], rpm, row[RO_MAX_RPM])

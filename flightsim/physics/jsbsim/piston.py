"""JSBSim's piston engine (``FGPiston``), with its starter, magnetos and supercharger, driving a propeller.

Each frame, as ``FGPiston::Calculate`` (the fuel it flows burnt by the flight, :mod:`~flightsim.physics.
jsbsim.fuel`; starved, ``{e}/starved``, it gets none, as at mixture 0):

* the manifold pressure seeks ``p_ram · Ze / (Ze + Z_airbox + Z_throttle (1 −
  throttle)²)``, the impedances of the engine (``Ze``: the peak over the mean
  piston speed), the air box and the throttle, with a first-order lag of
  ``man-press-lag`` seconds (``doMAP``: FGPiston's ``TMAP``); ``p_ram`` is the
  ambient pressure plus ``ram-air-factor`` × the pitot's impact pressure;
* a supercharger (``numboostspeeds`` > 0) multiplies it by ``1 + (mul − 1) ·
  rpm / ratedrpm`` of the boost speed in use, ``mul`` the rated MAP
  (``standard pressure + ratedboost``) over the standard pressure at its
  ``ratedaltitude``, and clips it at the rated MAP (at the ``takeoffboost``
  MAP with the throttle above 0.98) unless ``boostoverride``; the speed
  changes with the ambient pressure 1000 ft above each rated altitude
  (± 1000 Pa), or, ``boostmanual``, is set from outside
  (``propulsion/engine[k]/boost-speed``); the pumping loss uses ``TMAP``, the
  air flow the boosted MAP (``doBoostControl``, ``doMAP``); ``ratedpower*`` is
  only checked (> 0) as FGPiston checks it;
* the air flow is the swept volume × the volumetric efficiency (reduced by
  the manifold-to-exhaust pressure ratio, Taylor eq. 6-10) × the manifold
  density (``doAirFlow``); the fuel flow follows the mixture, ``1.3 ·
  mixture`` the sea-level equivalence ratio (``doFuelFlow``);
* the power is ``fuel flow / BSFC × mixture efficiency(fuel/air)`` less the
  static friction, plus the pumping and friction losses ``(PMEP + FMEP) ·
  displacement · RPM / (cycles · 22371)`` (``doEnginePower``); the BSFC, when
  the file gives none, is JSBSim's estimate for its maximum power;
* the engine stops below 80 % of its idle rpm, without fuel flow, with the
  magnetos off (``{e}/magneto_cmd`` 0), or when its indicated power falls
  under 0.125 hp, and starts with a magneto on and fuel flowing above 80 % of
  idle (``doEngineStartup``): cranked by its starter (``{e}/starter_cmd``,
  ``Cranking``: the starter's torque, ``starter-torque`` lbf·ft falling to
  none at ``starter-rpm``, turning the propeller while the engine stands) or
  windmilling; on one magneto its power drops by ``sparkfaildrop``;
* the power drives the propeller (:mod:`flightsim.physics.jsbsim.propeller`), whose rpm × its gear ratio
  is the engine's.

The engine's constants are a row of :data:`ROW_FIELDS` floats (``PE_*``), its
properties a row of slots (``PS_*``, named in :data:`PISTON_SLOTS`); its state
— ``TMAP`` (``tmap-pa``, flightsim's own name: JSBSim does not show it),
running, the last fuel flow, the boost speed, the propeller's rpm, blade angle
and point of action — lives in the property array under JSBSim's names.

A supercharger's drive loss (``boost-loss-factor`` > 0, ``doMAP``): ``BoostLossHP = TMAP · v̇_air · γ/(γ − 1) ·
((MAP/TMAP)^((γ − 1)/γ) − 1) · factor / 745.7`` (γ 1.414, one stage), ``v̇_air`` the *last* frame's volume flow
of air (m³/s, ``doAirFlow``'s, kept in ``{e}/v-dot-air-m3_sec``, flightsim's name; 0 at load as in JSBSim),
taken off the brake power (``{e}/boostloss-hp``); the steady state takes it at its own air flow (the fixed point
``GetSteadyState`` marches to).  The engine's own ``<function>`` elements are compiled by
:class:`~flightsim.physics.jsbsim.propulsion.Propulsion` (run with the engines' functions).

Not modelled, and refused by name (:class:`~flightsim.errors.InputError`):
any element JSBSim's ``FGPiston`` does not read.
The exhaust gas temperature (``doEGT``, ``{e}/egt-degF``): running with air flowing, the burnt fuel's energy
(47.3 MJ/kg × the ``COMBUSTION`` table's efficiency at the equivalence ratio, FGPiston's default table
without one, × 0.30) over the exhaust's heat capacity above the ambient temperature; stopped, it falls
towards the ambient with a time constant of 100 s.
Elements that only feed what is not computed here (cylinder head and oil temperatures) are read as
accepted and have no effect.  Units: Pa, K, kg/s and hp inside the engine as
JSBSim's, lb/s for the fuel flow, ft·lbf/s for the power handed to the
propeller.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_entry_jit, borrowing_inline_jit, borrowing_jit
from flightsim.physics.constants import FT_TO_M
from flightsim.physics.jsbsim.propeller import (
    PR_GEAR,
    PR_MAX_PITCH,
    PR_MAX_RPM,
    PR_MIN_PITCH,
    PR_MIN_RPM,
    RS_ADVANCE_CMD,
    RS_ADVANCE_POS,
    RS_CONSTANT_SPEED,
    RS_FEATHER_CMD,
    RS_FEATHER_POS,
    RS_PITCH,
    RS_RPM,
    TB_ENGINE_2,
    TB_MIXTURE,
    propeller_calculate_reversible,
    propeller_power_required,
    table_value,
)

__all__ = ["PISTON_SLOTS", "call_frame", "read_piston", "piston_frame", "piston_steady", "volume_flow"]

#: Columns of a piston engine's row: idle and maximum rpm, the stroke (in), the peak mean piston speed (ft/s),
#: the air box's and the throttle's impedance, the manifold pressure's lag (s), the volumetric efficiency, the
#: compression ratio, the displacement (m³), the brake specific fuel consumption (lb/hp/h), the static friction
#: (hp), the dynamic (Pa per m/s) and static (Pa) friction mean effective pressure, the cycles per power stroke,
#: the ram-air factor.
(PE_IDLE_RPM, PE_MAX_RPM, PE_STROKE, PE_PEAK_MPS, PE_Z_AIRBOX, PE_Z_THROTTLE, PE_MAP_LAG, PE_VOL_EFF,
 PE_COMPRESSION, PE_DISPLACEMENT, PE_ISFC, PE_STATIC_FRICTION, PE_FMEP_DYNAMIC, PE_FMEP_STATIC, PE_CYCLES,
 PE_RAM_AIR) = range(16)
#: Then the supercharger's, as FGPiston's constructor derives them: how many boost speeds (0: none), the boost
#: override (no clipping to the rated MAP), manual boost-speed control, whether a takeoff boost is fitted, the
#: switching hysteresis (Pa), the ambient pressures at which the speed changes (2, Pa), and per speed (3 each)
#: the rated and takeoff manifold pressure (Pa), the boost multiplier and the rated rpm.
(PE_BOOST_SPEEDS, PE_BOOST_OVERRIDE, PE_BOOST_MANUAL, PE_TAKEOFF_BOOST, PE_HYSTERESIS) = range(16, 21)
PE_SWITCH_PRESSURE, PE_RATED_MAP, PE_TAKEOFF_MAP, PE_BOOST_MUL, PE_RATED_RPM = 21, 23, 26, 29, 32
#: The row's last column says which engine it is (the same array holds every engine that drives a propeller): 0 a
#: piston (this module's), else :mod:`~flightsim.physics.jsbsim.turboprop`'s kinds.
PE_KIND = 35
#: Then the starter and the magnetos (FGPiston's ``StarterRPM``, ``StarterTorque``, lbf·ft, and ``SparkFailDrop``:
#: the power's factor on one magneto).
PE_STARTER_RPM, PE_STARTER_TORQUE, PE_SPARK_DROP = 36, 37, 38
#: The supercharger's drive-loss factor (``boost-loss-factor``; 0 none).
PE_BOOST_LOSS = 39
#: How many columns a piston's row has.
ROW_FIELDS = 40
#: The piston's COMBUSTION table (combustion efficiency over the equivalence ratio: ``doEGT``) in its table row.
TB_COMBUSTION = TB_ENGINE_2
#: FGPiston's default COMBUSTION table, when the file has none.
DEFAULT_COMBUSTION = ((0.00, 0.980), (0.90, 0.980), (1.00, 0.970), (1.05, 0.950), (1.10, 0.900), (1.15, 0.850),
                      (1.20, 0.790), (1.30, 0.700), (1.40, 0.630), (1.50, 0.570), (1.60, 0.525), (2.00, 0.345))
#: FGPiston's ``FG_MAX_BOOST_SPEEDS``.
MAX_BOOST_SPEEDS = 3

#: Columns of a piston's slot row, and the property each is, for engine ``k`` (``{e}``: ``propulsion/engine[k]``,
#: ``{k}`` its index): what it reads from the flight controls, its state and outputs, the atmosphere it reads.
#: ``{e}/magneto_cmd`` (0 off, 1 left, 2 right, 3 both) and ``{e}/starter_cmd`` (0/1) are flightsim's own names for
#: FGPiston's ``Magnetos`` and FGEngine's ``Starter`` (JSBSim sets them through ``propulsion/magneto_cmd`` and
#: ``propulsion/starter_cmd``), ``{e}/cranking`` its ``Cranking``; ``{e}/starter-norm`` is JSBSim's (the starter's
#: gain, 1).
#: ``{e}/tmap-pa`` is flightsim's own: FGPiston's ``TMAP``, the lagged manifold pressure before the supercharger
#: (JSBSim does not show it; ``map-pa`` is the boosted one, equal to it without boost or at 0 rpm).
#: ``{e}/failure-power-norm`` is flightsim's own too: the fraction of its indicated power a failure leaves it
#: (:mod:`flightsim.simulation.failures`' partial power and rough running; 1 healthy).
#: ``{e}/boostloss-hp`` is JSBSim's (the supercharger's drive loss), ``{e}/v-dot-air-m3_sec`` flightsim's own
#: (FGPiston's ``v_dot_air``, the last frame's volume flow of air, which the drive loss reads); ``{e}/egt-degF``
#: JSBSim's exhaust gas temperature, ``{e}/egt-degK`` flightsim's name for FGPiston's ``ExhaustGasTemp_degK``.
PISTON_SLOTS = ("fcs/throttle-pos-norm[{k}]", "fcs/mixture-pos-norm[{k}]", "{e}/map-pa", "{e}/map-inhg",
                "{e}/set-running", "{e}/fuel-flow-rate-pps", "{e}/power-hp", "atmosphere/P-psf", "atmosphere/T-R",
                "velocities/mach", "{e}/boost-speed", "{e}/tmap-pa", "{e}/magneto_cmd", "{e}/starter_cmd",
                "{e}/starter-norm", "{e}/cranking", "{e}/failure-power-norm", "{e}/boostloss-hp",
                "{e}/v-dot-air-m3_sec", "{e}/egt-degF", "{e}/egt-degK", "{e}/starved")
(PS_THROTTLE, PS_MIXTURE, PS_MAP, PS_MAP_INHG, PS_RUNNING, PS_FUEL_FLOW, PS_POWER_HP, PS_PRESSURE,
 PS_TEMPERATURE, PS_MACH, PS_BOOST_SPEED, PS_TMAP, PS_MAGNETOS, PS_STARTER, PS_STARTER_GAIN,
 PS_CRANKING, PS_POWER, PS_BOOST_LOSS, PS_V_DOT_AIR, PS_EGT_F, PS_EGT_K, PS_STARVED) = range(len(PISTON_SLOTS))

# FGJSBBase's and FGPiston's constants, computed as JSBSim computes them.
_INCH_TO_FT = 1.0 / 12.0
_IN3_TO_M3 = _INCH_TO_FT * _INCH_TO_FT * _INCH_TO_FT / (1.0 / (FT_TO_M * FT_TO_M * FT_TO_M))
INHG_TO_PA = 3386.38
_PSF_TO_PA = 47.88
_HP_TO_FTLBS = 550.0
_R_AIR = 287.3                      # J/kg/K
_STANDARD_PRESSURE = 101320.73      # Pa
_SH_RATIO = 1.4                     # FGAtmosphere::SHRatio, for the pitot's total pressure
_PITOT_A = (_SH_RATIO - 1.0) / 2.0
_PITOT_B = _SH_RATIO / (_SH_RATIO - 1.0)
_PITOT_C = 2.0 * _PITOT_B
_PITOT_D = 1.0 / (_SH_RATIO - 1.0)
_PITOT_COEFF = (0.5 * (_SH_RATIO + 1.0)) ** _PITOT_B * ((_SH_RATIO + 1.0) / (_SH_RATIO - 1.0)) ** _PITOT_D

#: FGPiston's default mixture efficiency (fuel/air ratio → efficiency), when the file has no MIXTURE table.
DEFAULT_MIXTURE = ((0.05000, 0.00000), (0.05137, 0.00862), (0.05179, 0.21552), (0.05430, 0.48276),
                   (0.05842, 0.70690), (0.06312, 0.83621), (0.06942, 0.93103), (0.07786, 1.00000),
                   (0.08845, 1.00000), (0.09270, 0.98276), (0.10120, 0.93103), (0.11455, 0.72414),
                   (0.12158, 0.45690), (0.12435, 0.23276), (0.12500, 0.00000))

#: Unit conversions FGXMLElement makes to the unit FGPiston asks for: target → {given: factor}.
_UNITS = {
    "INHG": {"INHG": 1.0, "PA": 1.0 / 3386.0, "PSI": 2.03625437, "ATM": 29.9246899, "PSF": 1.0 / 70.7180803},
    "IN3": {"IN3": 1.0, "CC": 1.0 / 16.387064, "LTR": 61.0237441, "FT3": 1728.0},
    "HP": {"HP": 1.0, "WATTS": 0.001341022},
    "LBS/HP*HR": {"LBS/HP*HR": 1.0, "KG/KW*HR": 1.0 / 0.6083},
    "IN": {"IN": 1.0, "FT": 12.0, "M": 3.2808399 * 12.0},
    "PA": {"PA": 1.0, "INHG": 3386.0},
    "PSI": {"PSI": 1.0, "INHG": 1.0 / 2.03625437},
    "FT": {"FT": 1.0, "M": 3.2808399, "IN": 1.0 / 12.0},
}
#: The elements FGPiston reads that this module computes with: tag → (FGPiston's default, unit).
_USED = {"minmp": (6.5, "INHG"), "maxmp": (28.5, "INHG"), "man-press-lag": (1.0, None),
         "displacement": (360.0, "IN3"), "maxhp": (200.0, "HP"), "static-friction": (1.5, "HP"),
         "cycles": (4.0, None), "idlerpm": (600.0, None), "maxrpm": (2800.0, None), "bsfc": (-1.0, "LBS/HP*HR"),
         "volumetric-efficiency": (0.85, None), "compression-ratio": (8.5, None), "stroke": (4.375, "IN"),
         "air-intake-impedance-factor": (-999.0, None), "ram-air-factor": (1.0, None),
         "dynamic-fmep": (18400.0, "PA"), "static-fmep": (46500.0, "PA"), "peak-piston-speed": (100.0, None),
         "starter-rpm": (-1.0, None), "starter-torque": (-1.0, None), "sparkfaildrop": (0.0, None)}
#: The supercharger's elements, which FGPiston reads only with ``<numboostspeeds>``: tag → (default, unit).
_BOOST = {"numboostspeeds": (0.0, None), "boostoverride": (0.0, None), "boostmanual": (0.0, None),
          "takeoffboost": (0.0, "PSI"), "boost-loss-factor": (0.0, None),
          **{f"ratedboost{i}": (0.0, "PSI") for i in (1, 2, 3)}, **{f"ratedpower{i}": (0.0, "HP") for i in (1, 2, 3)},
          **{f"ratedrpm{i}": (2500.0, None) for i in (1, 2, 3)},
          **{f"ratedaltitude{i}": (0.0, "FT") for i in (1, 2, 3)}}
#: Elements FGPiston reads only for what is not computed here (temperatures, oil, the starter, one magneto,
#: the throttle's limits FGPiston does not use, boost settings it reads only with <numboostspeeds>).
_ACCEPTED = {"maxthrottle", "minthrottle", "bore", "cylinders", "cylinder-head-mass",
             "cooling-factor", "oil-pressure-relief-valve-psi", "design-oil-temp-degK",
             "oil-pressure-rpm-max", "oil-viscosity-index", "documentation", "description", "table",
             "injected"}                                                  # (FGPiston does not read it)


def _number(source, root, tag, where):
    """Element ``tag`` of the engine as ``FindElementValueAsNumberConvertTo`` gives it, or FGPiston's default."""
    default, unit = _USED[tag] if tag in _USED else _BOOST[tag]
    el = root.find(tag)
    if el is None:
        return default
    value = source.parse_number(el.text, f"{where}/{tag}")
    given = el.get("unit")
    if unit is None or given is None:
        return value
    factor = _UNITS[unit].get(given)
    if factor is None:
        raise InputError(source.path, f"{where}/{tag}", f"unit {given!r} cannot be converted to {unit}")
    return value * factor


def read_piston(source, root, where, tables):
    """A ``<piston_engine>`` as FGPiston's constructor reads it (``root``: the engine file's root element).

    Returns
    -------
    row : list of float
        :data:`ROW_FIELDS` columns, derived as the constructor derives them (the BSFC estimate, the impedances).
    mixture, combustion : tuple
        The MIXTURE and COMBUSTION tables' ``(start, rows, 1)`` in ``tables`` (FGPiston's defaults when the file
        has none).
    """
    for child in root:
        if child.tag == "function":             # (compiled by Propulsion with the engines' functions)
            continue
        if child.tag not in _USED and child.tag not in _ACCEPTED and child.tag not in _BOOST:
            raise InputError(source.path, f"{where}/{child.tag}", "not supported in a piston engine")
    v = {tag: _number(source, root, tag, where) for tag in _USED}
    if root.find("numboostspeeds") is not None:          # (FGPiston reads the rest only with it)
        v.update({tag: _number(source, root, tag, where) for tag in _BOOST})
    mixture = combustion = None
    for el in root.findall("table"):
        name = el.get("name", "")
        if name == "MIXTURE":
            mixture = tables.read(source, el, f"{where}/table name='MIXTURE'")
        elif name == "COMBUSTION":                    # (the exhaust gas temperature's)
            combustion = tables.read(source, el, f"{where}/table name='COMBUSTION'")
        else:
            raise InputError(source.path, f"{where}/table name={name!r}", "unknown piston engine table "
                             "(JSBSim's are MIXTURE and COMBUSTION)")
    if mixture is None:
        mixture = tables.add([k for k, _ in DEFAULT_MIXTURE], [e for _, e in DEFAULT_MIXTURE])
    if combustion is None:
        combustion = tables.add([k for k, _ in DEFAULT_COMBUSTION], [e for _, e in DEFAULT_COMBUSTION])
    return _derived(v), mixture, combustion


def _derived(v):
    """The row from the file's values ``v`` (by tag), with what FGPiston's constructor derives from them."""
    displacement_si = v["displacement"] * _IN3_TO_M3
    stroke, max_rpm, vol_eff = v["stroke"], v["maxrpm"], v["volumetric-efficiency"]
    rated_mps = (max_rpm * stroke) / 360
    isfc = v["bsfc"]
    max_mp = v["maxmp"]
    if isfc < 0:                                       # FGPiston: the BSFC that makes maxhp at maxrpm and maxmp
        pmep = 29.92 - max_mp
        pmep *= INHG_TO_PA * vol_eff
        fmep = v["dynamic-fmep"] * rated_mps * FT_TO_M + v["static-fmep"]
        hp_loss = ((pmep + fmep) * displacement_si * max_rpm) / (v["cycles"] * 22371)
        isfc = (1.1 * v["displacement"] * max_rpm * vol_eff * (max_mp / 29.92)) / \
            (9411 * (v["maxhp"] + hp_loss - v["static-friction"]))
    if max_mp > 29.9:                                  # (FGPiston: no boosting with a bogus number)
        max_mp = 29.9
    min_map, max_map = v["minmp"] * INHG_TO_PA, max_mp * INHG_TO_PA
    peak = v["peak-piston-speed"]
    z_airbox = v["air-intake-impedance-factor"]
    if z_airbox < 0.0:
        ze = peak / rated_mps
        z_airbox = (_STANDARD_PRESSURE * ze / max_map) - ze
    z_throttle = (peak / ((v["idlerpm"] * stroke) / 360)) * (_STANDARD_PRESSURE / min_map - 1) - z_airbox
    row = [0.0] * ROW_FIELDS
    row[PE_IDLE_RPM], row[PE_MAX_RPM], row[PE_STROKE], row[PE_PEAK_MPS] = v["idlerpm"], max_rpm, stroke, peak
    row[PE_Z_AIRBOX], row[PE_Z_THROTTLE], row[PE_MAP_LAG] = z_airbox, z_throttle, v["man-press-lag"]
    row[PE_VOL_EFF], row[PE_COMPRESSION], row[PE_DISPLACEMENT] = vol_eff, v["compression-ratio"], displacement_si
    row[PE_ISFC], row[PE_STATIC_FRICTION] = isfc, v["static-friction"]
    row[PE_FMEP_DYNAMIC], row[PE_FMEP_STATIC] = v["dynamic-fmep"], v["static-fmep"]
    row[PE_CYCLES], row[PE_RAM_AIR] = v["cycles"], v["ram-air-factor"]
    row[PE_STARTER_RPM] = v["starter-rpm"] if v["starter-rpm"] >= 0.0 else 2 * v["idlerpm"]
    row[PE_STARTER_TORQUE] = v["starter-torque"] if v["starter-torque"] >= 0.0 else v["maxhp"] * 0.4   # (a wag)
    row[PE_SPARK_DROP] = min(max(1 - v["sparkfaildrop"], 0.0), 1.0)
    row[PE_BOOST_LOSS] = max(v.get("boost-loss-factor", 0.0), 0.0)
    _boost(v, row)
    return row


def std_pressure_100k(altitude):
    """``FGPiston::GetStdPressure100K``: the standard pressure (psf) at ``altitude`` ft (at most 100 000 ft), a
    polynomial fit."""
    altitude = min(altitude, 100000.0)
    coef = (2116.217, -7.648932746E-2, 1.0925498604E-6, -7.1135726027E-12, 1.7470331356E-17)
    alt = [1.0]
    for _ in range(4):
        alt.append(alt[-1] * altitude)
    press = 0.0
    for c, a in zip(coef, alt, strict=True):
        press += c * a
    return press


def _boost(v, row):
    """The supercharger's columns of the row as FGPiston's constructor sets them up: each speed's rated MAP
    (``standard_pressure + ratedboost · 6895``), takeoff MAP and multiplier ``rated MAP / p_std(rated altitude)``;
    a speed with a bad rating (boost or power ≤ 0, altitude < 0 or below the last) ends the count, one less; the
    switch-over pressure of each speed but the last at its rated altitude + 1000 ft, hysteresis 1000 Pa."""
    speeds = int(v.get("numboostspeeds", 0.0))
    rated_boost = [v.get(f"ratedboost{i + 1}", 0.0) for i in range(MAX_BOOST_SPEEDS)]
    takeoff = v.get("takeoffboost", 0.0)
    row[PE_TAKEOFF_BOOST] = 1.0 if takeoff > rated_boost[0] else 0.0
    for i in range(MAX_BOOST_SPEEDS):
        row[PE_BOOST_MUL + i], row[PE_RATED_MAP + i], row[PE_TAKEOFF_MAP + i] = 1.0, 100000.0, 100000.0
        row[PE_RATED_RPM + i] = v.get(f"ratedrpm{i + 1}", 2500.0)
    i = 0
    while i < speeds:
        altitude = v[f"ratedaltitude{i + 1}"]
        if rated_boost[i] <= 0.0 or v[f"ratedpower{i + 1}"] <= 0.0 or altitude < 0.0 or \
                (i > 0 and altitude < v[f"ratedaltitude{i}"]):
            speeds -= 1
            break
        if i < speeds - 1:
            switch = altitude + 1000 if altitude > 0.0 else 0.0   # (FGPiston: its BoostSwitchAltitude, 0, if below)
            row[PE_SWITCH_PRESSURE + i] = std_pressure_100k(switch) * _PSF_TO_PA
            row[PE_HYSTERESIS] = 1000.0
        row[PE_RATED_MAP + i] = _STANDARD_PRESSURE + rated_boost[i] * 6895
        if takeoff > rated_boost[0]:
            row[PE_TAKEOFF_MAP + i] = row[PE_RATED_MAP + i] + ((takeoff - rated_boost[0]) * 6895)
            row[PE_TAKEOFF_BOOST] = 1.0
        else:
            row[PE_TAKEOFF_MAP + i] = row[PE_RATED_MAP + i]
            row[PE_TAKEOFF_BOOST] = 0.0
        row[PE_BOOST_MUL + i] = row[PE_RATED_MAP + i] / (std_pressure_100k(altitude) * _PSF_TO_PA)
        i += 1
    row[PE_BOOST_SPEEDS] = max(speeds, 0)
    row[PE_BOOST_OVERRIDE] = 1.0 if int(v.get("boostoverride", 0.0)) == 1 else 0.0
    row[PE_BOOST_MANUAL] = 1.0 if int(v.get("boostmanual", 0.0)) == 1 else 0.0


def ambient_map(pressure_psf):
    """The manifold pressure of a stopped engine (``FGPiston::ResetToIC``): the ambient pressure, Pa."""
    return pressure_psf * _PSF_TO_PA


# ----------------------------------------------------------------------------- compiled


@borrowing_jit
def pitot_total_pressure(mach, pressure):
    """``FGAuxiliary::PitotTotalPressure``: isentropic below Mach 1, Rayleigh's pitot formula above (same unit
    as ``pressure``).  JSBSim's piston reads it as ``in.TotalPressure``."""
    if mach < 0:
        return pressure
    if mach < 1:
        return pressure * (1.0 + _PITOT_A * mach * mach) ** _PITOT_B
    return pressure * _PITOT_COEFF * mach ** _PITOT_C / (_PITOT_C * mach * mach - 1.0) ** _PITOT_D


@borrowing_jit
def _ambient(props, s, row):
    """``FGPiston::Calculate``'s inputs: the ambient and the ram pressure (Pa) and the temperature (K)."""
    pressure = props[s[PS_PRESSURE]]
    p_amb = pressure * _PSF_TO_PA
    p = pitot_total_pressure(props[s[PS_MACH]], pressure) * _PSF_TO_PA
    return p_amb, (p - p_amb) * row[PE_RAM_AIR] + p_amb, props[s[PS_TEMPERATURE]] / 1.8


@borrowing_jit
def _manifold_target(row, throttle, mps, p_ram):
    """The manifold pressure ``doMAP`` seeks: ``p_ram Ze / (Ze + Z_airbox + Zt)``, Pa."""
    zt = (1 - throttle) * (1 - throttle) * row[PE_Z_THROTTLE]
    ze = row[PE_PEAK_MPS] / mps if mps > 0 else 999999
    return p_ram * (ze / (ze + row[PE_Z_AIRBOX] + zt))


@borrowing_jit
def _running(running, spark, fuel_flow, rpm, idle_rpm):
    """``doEngineStartup``: a running engine stops without spark (magnetos off), without fuel flow (the last
    frame's) or below 80 % of idle; a stopped one starts with spark and fuel above 80 % of idle (the starter's
    cranking, or windmilling)."""
    if running:
        return spark and fuel_flow > 0.0 and not rpm < idle_rpm * 0.8
    return spark and fuel_flow > 0.0 and rpm > idle_rpm * 0.8


@borrowing_jit
def _horsepower(row, tb, data, running, rpm, mps, manifold, tmap, p_amb, t_amb, mixture, magnetos, crank, failed,
                boost_loss):
    """``doAirFlow``, ``doFuelFlow``, ``doEnginePower``: the brake power (hp), the indicated power (hp) and the
    fuel flow (lb/s) at manifold pressure ``manifold`` (Pa; the supercharger's ``TMAP`` before it, ``tmap``, gives
    the pumping loss) and engine ``rpm``; running on one magneto (``magnetos`` not 3) the power drops by the spark
    fail drop, and by ``failed`` (the fraction a failure leaves, flightsim's own: 1 healthy); stopped and cranking,
    the starter's torque (``crank``: its gain, 0 without the starter) falling linearly to none at the starter's
    rpm gives the indicated power; ``boost_loss`` (hp) is the supercharger's drive loss, taken off the brake power.
    Also returns the volume flow of air (m³/s, ``v_dot_air``)."""
    v_dot_air = volume_flow(row, rpm, manifold, p_amb)
    m_dot_air = v_dot_air * (manifold / (_R_AIR * t_amb))
    equivalence_ratio = 1.3 * mixture * 101325.0 / p_amb
    m_dot_fuel = (m_dot_air * equivalence_ratio) / 14.7
    fuel_flow = m_dot_fuel * 2.2046
    ihp = -row[PE_STATIC_FRICTION]
    fmep = 0.0
    if running:
        efficiency = table_value(tb, data, TB_MIXTURE, m_dot_fuel / m_dot_air)
        fmep = -row[PE_FMEP_DYNAMIC] * mps * FT_TO_M - row[PE_FMEP_STATIC]
        power = (1.0 if magnetos == 3 else row[PE_SPARK_DROP]) * failed
        ihp = (fuel_flow * 3600 / row[PE_ISFC]) * efficiency * power - row[PE_STATIC_FRICTION]
    elif crank != 0.0:
        k_torque = 1.0 - rpm / row[PE_STARTER_RPM] if rpm < row[PE_STARTER_RPM] else 0.0
        ihp = row[PE_STARTER_TORQUE] * k_torque * crank * max(rpm, 1.0) / 5252
    pmep = (tmap - p_amb) * row[PE_VOL_EFF]
    pumping_hp = ((pmep + fmep) * row[PE_DISPLACEMENT] * rpm) / (row[PE_CYCLES] * 22371)
    return ihp + pumping_hp - boost_loss, ihp, fuel_flow, v_dot_air


@borrowing_jit
def _exhaust_temperature(tb, data, running, v_dot_air, manifold, mixture, p_amb, t_amb, last, dt):
    """``doEGT``: the exhaust gas temperature (K) — running with air flowing, the energy balance of the burnt
    fuel (47.3 MJ/kg × the COMBUSTION table's efficiency at the equivalence ratio × 0.30) over the exhaust's heat
    capacity (c_p 1005 and 1700 J/kg/K) above the ambient ``t_amb``; otherwise ``last`` falling towards the
    ambient with a time constant of 100 s over the step ``dt``."""
    m_dot_air = v_dot_air * (manifold / (_R_AIR * t_amb))
    if running and m_dot_air > 0.0:
        equivalence_ratio = 1.3 * mixture * 101325.0 / p_amb
        m_dot_fuel = (m_dot_air * equivalence_ratio) / 14.7
        efficiency = table_value(tb, data, TB_COMBUSTION, equivalence_ratio)
        enthalpy = m_dot_fuel * 47.3e6 * efficiency * 0.30
        heat_capacity = (1005.0 * m_dot_air) + (1700.0 * m_dot_fuel)
        return t_amb + enthalpy / heat_capacity
    return last + ((t_amb - last) / 100.0) * dt


@borrowing_jit
def volume_flow(row, rpm, manifold, p_amb):
    """``doAirFlow``'s ``v_dot_air`` (m³/s): the swept volume at engine ``rpm`` times the volumetric efficiency,
    reduced by the manifold-to-exhaust pressure ratio (``manifold`` and ``p_amb`` in Pa; Taylor eq. 6-10)."""
    gamma = 1.3
    cr = row[PE_COMPRESSION]
    mratio = cr if manifold < 1. else p_amb / manifold
    if mratio > cr:
        mratio = cr
    ve = ((gamma - 1) / gamma) + (cr - mratio) / (gamma * (cr - 1))
    swept_volume = (row[PE_DISPLACEMENT] * (rpm / 60)) / 2
    return swept_volume * (row[PE_VOL_EFF] * ve)


@borrowing_jit
def _boost_loss(row, tmap, manifold, v_dot_air):
    """``doMAP``'s ``BoostLossHP`` (hp): the supercharger's drive loss at ``TMAP`` and ``MAP`` (Pa) with the air
    flow ``v_dot_air`` (m³/s); 0 without a ``boost-loss-factor``."""
    if row[PE_BOOST_LOSS] <= 0.0:
        return 0.0
    gamma, stages = 1.414, 1.0
    return ((stages * tmap * v_dot_air * gamma) / (gamma - 1)) * \
        ((manifold / tmap) ** ((gamma - 1) / (stages * gamma)) - 1) * row[PE_BOOST_LOSS] / 745.7


@borrowing_jit
def _shaft_power(hp, rpm):
    """The power handed to the propeller, ft·lbf/s: none negative while the engine stands (``Calculate``)."""
    power = hp * _HP_TO_FTLBS
    if rpm <= 0.1:
        power = max(power, 0.0)
    return power


@borrowing_jit
def _boost_control(row, speed, p_amb):
    """``doBoostControl``: the boost speed (0, 1, 2) this frame from the last, ``speed``: manual, kept within the
    speeds there are; automatic, one up below the switch-over pressure less the hysteresis, one down above the last
    one's plus it."""
    n = int(row[PE_BOOST_SPEEDS])
    if row[PE_BOOST_MANUAL] != 0.0:
        if speed > n - 1:
            speed = n - 1
        if speed < 0:
            speed = 0
    else:
        if speed < n - 1:
            if p_amb < row[PE_SWITCH_PRESSURE + speed] - row[PE_HYSTERESIS]:
                speed += 1
        if speed > 0:
            if p_amb > row[PE_SWITCH_PRESSURE + speed - 1] + row[PE_HYSTERESIS]:
                speed -= 1
    return speed


@borrowing_jit
def _boosted(row, speed, tmap, rpm, throttle):
    """``doMAP``'s supercharger: ``TMAP · (1 + (mul − 1) rpm / rated rpm)`` of boost speed ``speed``, clipped to
    its rated MAP (its takeoff MAP with a takeoff boost fitted and the throttle above 0.98) unless overridden; Pa.
    Without a supercharger, ``tmap``."""
    if row[PE_BOOST_SPEEDS] <= 0:
        return tmap
    take_off = row[PE_TAKEOFF_BOOST] != 0.0 and throttle > 0.98
    boost_factor = ((row[PE_BOOST_MUL + speed] - 1) / row[PE_RATED_RPM + speed]) * rpm + 1
    manifold = tmap * boost_factor
    if row[PE_BOOST_OVERRIDE] == 0.0:
        if take_off:
            if manifold > row[PE_TAKEOFF_MAP + speed]:
                manifold = row[PE_TAKEOFF_MAP + speed]
        elif manifold > row[PE_RATED_MAP + speed]:
            manifold = row[PE_RATED_MAP + speed]
    return manifold


@borrowing_jit
def _boost_speed(props, row, s, p_amb):
    """This frame's boost speed (``doBoostControl`` on the ``boost-speed`` property, as an int), written back."""
    if row[PE_BOOST_SPEEDS] <= 0:
        return 0
    speed = _boost_control(row, int(props[s[PS_BOOST_SPEED]]), p_amb)
    props[s[PS_BOOST_SPEED]] = speed
    return speed


@borrowing_inline_jit
def piston_frame(props, row, s, pr, ps, tb, data, dt, out):
    """One frame of a piston engine and its propeller (``FGPiston::Calculate``), ``dt`` s.

    Reads the throttle and mixture positions, the atmosphere (pressure psf, temperature °R, Mach) and the
    state (``TMAP``, running, the last fuel flow, the boost speed, the propeller's rpm and blade angle) from
    ``props``; writes the new state, the manifold pressure and the power (hp), then runs the propeller
    (:func:`~flightsim.physics.jsbsim.propeller.propeller_calculate`), which adds its body loads about the CG into
    ``out`` (lbf, ft·lbf; x forward, y right, z down).
    """
    p_amb, p_ram, t_amb = _ambient(props, s, row)
    rpm = props[ps[RS_RPM]] * pr[PR_GEAR]
    mps = (rpm * row[PE_STROKE]) / 360
    magnetos = int(props[s[PS_MAGNETOS]])
    cranking = props[s[PS_STARTER]] != 0.0
    running = _running(props[s[PS_RUNNING]] != 0.0, magnetos != 0, props[s[PS_FUEL_FLOW]], rpm, row[PE_IDLE_RPM])
    speed = _boost_speed(props, row, s, p_amb)
    throttle = props[s[PS_THROTTLE]]
    tmap = props[s[PS_TMAP]]
    step = tmap - _manifold_target(row, throttle, mps, p_ram)
    if row[PE_MAP_LAG] > dt:
        step *= dt / row[PE_MAP_LAG]
    tmap -= step
    manifold = _boosted(row, speed, tmap, rpm, throttle)
    crank = props[s[PS_STARTER_GAIN]] if cranking else 0.0
    loss = _boost_loss(row, tmap, manifold, props[s[PS_V_DOT_AIR]])       # (the last frame's air flow)
    # (a starved engine, FGPropulsion::ConsumeFuel's last frame: doFuelFlow's flows and equivalence ratio 0, as
    # at mixture 0; flightsim's own fuel.STARVED flag)
    mixture = props[s[PS_MIXTURE]] if props[s[PS_STARVED]] == 0.0 else 0.0
    hp, ihp, fuel_flow, v_dot_air = _horsepower(row, tb, data, running, rpm, mps, manifold, tmap, p_amb, t_amb,
                                                mixture, magnetos, crank, props[s[PS_POWER]], loss)
    props[s[PS_BOOST_LOSS]] = loss
    props[s[PS_V_DOT_AIR]] = v_dot_air
    if ihp < 0.1250:
        running = False
    egt = _exhaust_temperature(tb, data, running, v_dot_air, manifold, mixture, p_amb, t_amb,
                               props[s[PS_EGT_K]], dt)                       # (doEGT, after doEnginePower)
    props[s[PS_EGT_K]] = egt
    props[s[PS_EGT_F]] = 1.8 * egt - 459.4                                 # (JSBSim's KelvinToFahrenheit)
    props[s[PS_TMAP]] = tmap
    props[s[PS_MAP]] = manifold
    props[s[PS_MAP_INHG]] = manifold / INHG_TO_PA
    props[s[PS_RUNNING]] = 1.0 if running else 0.0
    props[s[PS_FUEL_FLOW]] = fuel_flow
    props[s[PS_POWER_HP]] = hp
    props[s[PS_CRANKING]] = 1.0 if cranking else 0.0
    # (the reversible frame itself, not reversed: one function fewer to compile)
    propeller_calculate_reversible(props, pr, ps, tb, data, _shaft_power(hp, rpm), dt, out, np.bool_(False), 0.0)


@borrowing_jit
def _excess_power(props, row, s, pr, ps, tb, data, prop_rpm, pitch):
    """At propeller rpm ``prop_rpm`` and blade angle ``pitch`` with the manifold pressure settled and the engine
    running: the engine's power less the propeller's (ft·lbf/s; the excess torque × ω), the indicated power (hp),
    the fuel flow (lb/s) and ``TMAP`` (Pa)."""
    p_amb, p_ram, t_amb = _ambient(props, s, row)
    rpm = prop_rpm * pr[PR_GEAR]
    mps = (rpm * row[PE_STROKE]) / 360
    throttle = props[s[PS_THROTTLE]]
    tmap = _manifold_target(row, throttle, mps, p_ram)
    manifold = _boosted(row, _settled_boost_speed(props, row, s, p_amb), tmap, rpm, throttle)
    mixture, magnetos, failed = props[s[PS_MIXTURE]], int(props[s[PS_MAGNETOS]]), props[s[PS_POWER]]
    hp, ihp, fuel_flow, v_dot_air = _horsepower(row, tb, data, np.bool_(True), rpm, mps, manifold, tmap, p_amb,
                                                t_amb, mixture, magnetos, 0.0, failed, 0.0)
    if row[PE_BOOST_LOSS] > 0.0:        # (the drive loss at its own air flow: GetSteadyState's fixed point)
        hp = hp - _boost_loss(row, tmap, manifold, v_dot_air)
    excess = _shaft_power(hp, rpm) - propeller_power_required(props, pr, ps, tb, data, prop_rpm, pitch)
    return excess, ihp, fuel_flow, tmap, v_dot_air


@borrowing_jit
def _settled_boost_speed(props, row, s, p_amb):
    """The boost speed ``doBoostControl`` settles on from the one in ``props`` (each frame moves it one step)."""
    if row[PE_BOOST_SPEEDS] <= 0:
        return 0
    speed = int(props[s[PS_BOOST_SPEED]])
    for _ in range(2 * MAX_BOOST_SPEEDS):
        speed = _boost_control(row, speed, p_amb)
    return speed


@borrowing_inline_jit
def _equilibrium(props, row, s, pr, ps, tb, data, pitch):
    """The highest propeller rpm at or above 80 % of idle where the engine's power is the propeller's at blade
    angle ``pitch`` and a little more rpm leaves a deficit (a stable equilibrium): found by stepping down from
    above the maximum rpm until the excess turns positive, then by bisection to the last bit.  −1 when there is
    none."""
    lo = row[PE_IDLE_RPM] * 0.8 / pr[PR_GEAR] * (1.0 + 1e-12)
    hi = 2.0 * max(row[PE_MAX_RPM], row[PE_IDLE_RPM]) / pr[PR_GEAR]
    while _excess_power(props, row, s, pr, ps, tb, data, hi, pitch)[0] > 0.0:
        hi *= 2.0
        if hi > 1e7:
            return -1.0
    below, above = -1.0, hi
    n = 256
    for i in range(1, n + 1):
        x = hi * (lo / hi) ** (i / n)
        if _excess_power(props, row, s, pr, ps, tb, data, x, pitch)[0] > 0.0:
            below = x
            break
        above = x
    if below < 0.0:
        return -1.0
    for _ in range(200):
        mid = 0.5 * (below + above)
        if mid <= below or mid >= above:
            break
        if _excess_power(props, row, s, pr, ps, tb, data, mid, pitch)[0] > 0.0:
            below = mid
        else:
            above = mid
    f_below = _excess_power(props, row, s, pr, ps, tb, data, below, pitch)[0]
    f_above = _excess_power(props, row, s, pr, ps, tb, data, above, pitch)[0]
    return below if abs(f_below) <= abs(f_above) else above


@borrowing_inline_jit
def _governed(props, row, s, pr, ps, tb, data):
    """A propeller's steady blade angle and rpm: a governor (constant-speed mode, not feathered) holds the rpm
    commanded where a blade angle within the limits balances the engine's power there (found by bisection); else
    the angle is pinned at the limit the governor drives it to (the finest when even that absorbs too much, the
    coarsest when even that absorbs too little) and the rpm is where the power balances at it.  Feathered: the
    coarsest; manual (or fixed pitch): the angle as set.  ``(pitch, rpm)``, rpm −1 when there is none.

    (Written into its one caller, :func:`piston_steady`, with :func:`_equilibrium` called at one place: each is a
    function fewer whose code numba optimises and emits again with everything it calls.)"""
    lo, hi = pr[PR_MIN_PITCH], pr[PR_MAX_PITCH]
    if lo == hi:
        pitch = lo
    elif props[ps[RS_CONSTANT_SPEED]] == 0.0:
        pitch = props[ps[RS_PITCH]]
    elif props[ps[RS_FEATHER_CMD]] != 0.0:
        pitch = hi
    else:
        rpm = pr[PR_MIN_RPM] + (pr[PR_MAX_RPM] - pr[PR_MIN_RPM]) * props[ps[RS_ADVANCE_CMD]]
        if rpm <= 200 or rpm * pr[PR_GEAR] < row[PE_IDLE_RPM] * 0.8:
            pitch = lo
        elif _excess_power(props, row, s, pr, ps, tb, data, rpm, lo)[0] <= 0.0:
            pitch = lo
        elif _excess_power(props, row, s, pr, ps, tb, data, rpm, hi)[0] >= 0.0:
            pitch = hi
        else:
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                if mid <= lo or mid >= hi:
                    break
                if _excess_power(props, row, s, pr, ps, tb, data, rpm, mid)[0] > 0.0:
                    lo = mid
                else:
                    hi = mid
            f_lo = _excess_power(props, row, s, pr, ps, tb, data, rpm, lo)[0]
            f_hi = _excess_power(props, row, s, pr, ps, tb, data, rpm, hi)[0]
            return (lo if abs(f_lo) <= abs(f_hi) else hi), rpm
    return pitch, _equilibrium(props, row, s, pr, ps, tb, data, pitch)


def _pointer(context, builder, array_type, value):
    array = context.make_array(array_type)(context, builder, value)
    return array.data, builder.extract_value(array.shape, 0)


@intrinsic
def call_frame(typingctx, address, props, row, s, pr, ps, tb, data, dt, out):
    """Call the frame at ``address`` (:data:`flightsim.physics.jsbsim.propulsion.FRAME_SIGNATURE`: a piston's or a
    propeller-driving turbine's C callback) on these arrays (contiguous; ``props`` and ``data`` with their sizes)."""
    sig = types.void(address, props, row, s, pr, ps, tb, data, dt, out)

    def codegen(context, builder, signature, args):
        (props_p, n_props), (data_p, n_data) = (_pointer(context, builder, signature.args[k], args[k]) for k in (1, 7))
        row_p, s_p, pr_p, ps_p, tb_p, out_p = (_pointer(context, builder, signature.args[k], args[k])[0]
                                               for k in (2, 3, 4, 5, 6, 9))
        double_p, int_p, i64 = ir.DoubleType().as_pointer(), ir.IntType(64).as_pointer(), ir.IntType(64)
        fnty = ir.FunctionType(ir.VoidType(), [double_p, i64, double_p, int_p, double_p, int_p, int_p, double_p, i64,
                                               ir.DoubleType(), double_p])
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(fn, [props_p, n_props, row_p, s_p, pr_p, ps_p, tb_p, data_p, n_data, args[8], out_p])
        return context.get_dummy_value()

    return sig, codegen



@borrowing_entry_jit         # (called from Python only: engines_steady)
def piston_steady(props, row, s, pr, ps, tb, data, out, frame):
    """Put a piston engine and its propeller at their steady state for the throttle, mixture, rpm command
    (``fcs/advance-cmd-norm[k]``) and flight condition in ``props`` (the manifold pressure at its target, the boost
    speed settled, the blade angle and rpm where the engine's power is the propeller's with the governor at rest,
    :func:`_governed`; running), then compute the frame's outputs and loads (added into ``out``) once, with no
    time passing.  False when the engine has no running equilibrium (it would stop: below 80 % of idle, or
    under 0.125 indicated hp); the state is then left as it was.

    The frame is called through ``frame``, the address of its C callback (``propulsion._piston_frame_c``, compiled
    for every aircraft with a piston): numba optimises and emits a function's code again with all it calls, for
    each function that calls it, so called directly the frame's code was compiled once more here."""
    props[ps[RS_ADVANCE_POS]] = props[ps[RS_ADVANCE_CMD]]
    props[ps[RS_FEATHER_POS]] = props[ps[RS_FEATHER_CMD]]
    if props[s[PS_RUNNING]] == 0.0:        # (stopped: it stays so, its loads as they are, as GetSteadyState's
        call_frame(frame, props, row, s, pr, ps, tb, data, 0.0, out)       # frames leave a stopped engine)
        return True
    pitch, rpm = _governed(props, row, s, pr, ps, tb, data)
    if rpm < 0.0:
        return False
    _, ihp, fuel_flow, tmap, v_dot_air = _excess_power(props, row, s, pr, ps, tb, data, rpm, pitch)
    if ihp < 0.1250:
        return False
    p_amb = _ambient(props, s, row)[0]
    if row[PE_BOOST_SPEEDS] > 0:
        props[s[PS_BOOST_SPEED]] = _settled_boost_speed(props, row, s, p_amb)
    props[ps[RS_RPM]] = rpm
    props[ps[RS_PITCH]] = pitch
    props[s[PS_TMAP]] = tmap
    props[s[PS_RUNNING]] = 1.0
    props[s[PS_FUEL_FLOW]] = fuel_flow
    props[s[PS_V_DOT_AIR]] = v_dot_air
    call_frame(frame, props, row, s, pr, ps, tb, data, 0.0, out)
    return True

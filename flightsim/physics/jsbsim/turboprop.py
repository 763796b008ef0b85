"""JSBSim's turboprop engine (``FGTurboProp``) in its running phase, and a turbine (``FGTurbine``) driving a
propeller: each driving an ``FGPropeller`` (:mod:`flightsim.physics.jsbsim.propeller`).

**FGTurboProp** (``<turboprop_engine>``), as ``FGTurboProp::Calculate`` and
``FGTurboProp::Run`` each frame of ``dt`` s, running (``propulsion/set-running``):

* the power lever is ``fcs/throttle-pos-norm[k]``; with the reverser on
  (``propulsion/engine[k]/reverser`` ≠ 0) the propeller is reversed (its blade
  angle follows the lever toward ``reversepitch``) and the engine's throttle is
  0 below ``betarangeend`` (%), ``(lever − beta) / (1 − beta) ·
  reversemaxpower`` (%) above it;
* the IELU (``<ielumaxtorque>`` > 0, ft·lbf): while the propeller's last torque
  exceeds it and the throttle is not below the last one, the throttle is the
  last one less ``0.1 dt``; after an intervention, the last one plus ``0.05
  dt`` while the lever is not below it (``…/ielu_intervent``, and the last
  throttle ``…/ielu-throttle``: flightsim's name for FGTurboProp's hidden
  ``OldThrottle``).  FGTurboProp skips it for a ``Condition`` ≥ 1, which only
  FlightGear sets (``SetCondition``): here it is 0, as in JSBSim alone;
* N1 (%) seeks ``idlen1 + throttle (maxn1 − idlen1)`` exponentially
  (``ExpSeek``: time constant ``n1idle_max_delay`` up, 2.4 × that down);
* the power (hp) is ``EnginePowerRPM_N1(engine rpm, N1) × EnginePowerVC``, at most
  ``maxpower``; ``EnginePowerVC`` is the file's ``<function>`` (or the older bare
  ``<table>``) of that name, at ``propulsion/engine[k]/EnginePowerVC``; the engine
  rpm is the propeller's × its gear ratio (the table's rows are read as they are,
  clamped at their ends);
* ``CombustionEfficiency_N1(N1)`` (``…/combustion_efficiency``; FGTurboProp's
  default table when the file has none), the engine temperature
  (``…/engtemp-c``, seeking the last ITT, 300 s up, 400 s down) and the ITT
  (``…/itt-c``, seeking ``ITT_N1(N1 + 300 ΔN1, 1)``, ``itt_delay`` up, 1.2 ×
  down) are computed as JSBSim does; the fuel flow, oil and starter are not
  (fuel burn is frozen here);
* the propeller gets ``550 hp`` ft·lbf/s (not below 0 while the engine turns at
  0.1 rpm or less), the rpm command ``fcs/advance-pos-norm[k]`` and the feather
  ``fcs/feather-pos-norm[k]`` as a piston's does.

Not modelled: the start, spin-up, off and trim phases (engines run; JSBSim sets
N1 to ``idlen1`` on the first frame after a zero time step — ``run_ic``, its
trim — and gives no power during one; flightsim's steady state keeps N1 where it
settles), starvation and cutoff.

**A turbine driving a propeller** (``<turbine_engine>`` with a ``<propeller>``
thruster, e.g. C130's t56): as JSBSim 1.3.3's ``FGTurbine::Calculate``, the
thrust the turbine computes (lbf, :func:`~flightsim.physics.jsbsim.propulsion.engines_frame`'s
turbines, kept at flightsim's ``propulsion/engine[k]/turbine-thrust-lbs``) is
handed to ``FGPropeller::Calculate`` as its power in ft·lbf/s, and FGTurbine
never sets the propeller's rpm command or feather: its governor holds
``minrpm`` (FGPropeller's ``Advance`` stays 0; flightsim's
``…/propeller-advance`` and ``…/propeller-feather``, always 0).
``propulsion/engine[k]/thrust-lbs`` is the propeller's thrust.  The turbine starts, runs and is cut off in its
phases as a direct one (:mod:`flightsim.physics.jsbsim.turbine`: off, its thrust and so the propeller's power
0, the propeller windmilling or at rest).

Each engine is a row of the piston array (:data:`~flightsim.physics.jsbsim.piston.PE_KIND`
:data:`TURBOPROP` or :data:`TURBINE_PROPELLER`; columns ``TP_*``) and of its
slots (:data:`TURBOPROP_SLOTS`), with its propeller's rows; its tables are
spans of the propellers' :class:`~flightsim.physics.jsbsim.propeller.Tables`
(EnginePowerRPM_N1 at ``TB_MIXTURE``, ITT_N1 at ``TB_ENGINE_2``,
CombustionEfficiency_N1 at ``TB_ENGINE_3``).  Units: hp and ft·lbf/s, ft·lbf,
rpm, %, °C, s.  Refused by name (:class:`~flightsim.errors.InputError`): an
element or function FGTurboProp does not read, a missing EnginePowerVC,
EnginePowerRPM_N1 or ITT_N1, a turboprop driving anything but a propeller.
"""

from __future__ import annotations

import copy
import math

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit
from flightsim.physics.jsbsim.brushless import BRUSHLESS, BS_THROTTLE, motor_outputs, motor_power
from flightsim.physics.jsbsim.piston import PE_KIND
from flightsim.physics.jsbsim.propeller import (
    PR_GEAR,
    PR_MAX_PITCH,
    PR_MAX_RPM,
    PR_MIN_PITCH,
    PR_MIN_RPM,
    PR_SENSE,
    RS_ADVANCE_CMD,
    RS_ADVANCE_POS,
    RS_CONSTANT_SPEED,
    RS_FEATHER_CMD,
    RS_FEATHER_POS,
    RS_PITCH,
    RS_RPM,
    RS_TORQUE,
    TB_ENGINE_2,
    TB_ENGINE_3,
    TB_MIXTURE,
    propeller_calculate,
    propeller_calculate_reversible,
    propeller_power_required,
    table_value,
    table_value_2d,
)

__all__ = ["TURBOPROP", "TURBINE_PROPELLER", "TURBOPROP_SLOTS", "read_turboprop", "powered_frame",
           "powered_steady"]

#: :data:`~flightsim.physics.jsbsim.piston.PE_KIND` of a turboprop's row, of a turbine's propeller's, and of an
#: electric engine's propeller's (its power, ``FGElectric``'s, at the slot of :data:`ELECTRIC_POWER`); 3.0 is a
#: rotor's (``rotor.ROTOR``), 5.0 a brushless motor's (``brushless.BRUSHLESS``).
TURBOPROP, TURBINE_PROPELLER, ELECTRIC_PROPELLER = 1.0, 2.0, 4.0
#: Columns of a turboprop's row: idle and maximum N1 (%), the maximum power (hp), N1's time constant
#: (``n1idle_max_delay``, s), the beta range's end and the reverse power (fractions), the IELU's torque
#: (ft·lbf; ≤ 0: none), the ITT's time constant (s).
(TP_IDLE_N1, TP_MAX_N1, TP_MAX_POWER, TP_DELAY, TP_BETA_END, TP_REVERSE_POWER, TP_IELU_TORQUE,
 TP_ITT_DELAY) = range(8)
#: Columns of a turboprop's slot row, and the property each is (``{e}``: ``propulsion/engine[k]``); a turbine's
#: propeller has one, the turbine's thrust (:data:`TURBINE_THRUST`).
TURBOPROP_SLOTS = ("fcs/throttle-pos-norm[{k}]", "{e}/n1", "{e}/power-hp", "{e}/EnginePowerVC", "{e}/reverser",
                   "{e}/ielu_intervent", "{e}/ielu-throttle", "{e}/itt-c", "{e}/engtemp-c",
                   "{e}/combustion_efficiency")
(TS_THROTTLE, TS_N1, TS_POWER_HP, TS_VC, TS_REVERSER, TS_IELU, TS_IELU_THROTTLE, TS_ITT, TS_ENGTEMP,
 TS_COMBUSTION) = range(len(TURBOPROP_SLOTS))
#: flightsim's name for the thrust a turbine driving a propeller computes (lbf), which it hands on as power.
TURBINE_THRUST = "{e}/turbine-thrust-lbs"
#: flightsim's name for the power an electric engine driving a propeller hands it (ft·lbf/s).
ELECTRIC_POWER = "{e}/flightsim-shaft-power-ftlbs_sec"
#: flightsim's names for FGPropeller's ``Advance`` and ``Feathered`` behind a turbine (never set: 0).
TURBINE_PROPELLER_CONTROLS = ("{e}/propeller-advance", "{e}/propeller-feather")

_HP_TO_FTLBS = 550.0
#: FGTurboProp's CombustionEfficiency_N1 when the file gives none.
DEFAULT_COMBUSTION = ((60.0, 12.0 / 52.0), (82.0, 12.0 / 30.0), (96.0, 12.0 / 16.0), (100.0, 1.0), (104.0, 1.5),
                      (110.0, 6.0))
#: What FGTurboProp::Load reads (tag → its default), and what it reads only for what is not modelled (or not at
#: all: ``milthrust``, ``idlen2``, ``maxn2`` appear in the package's files).
_READ = {"idlen1": 30.0, "maxn1": 100.0, "maxpower": 0.0, "n1idle_max_delay": 1.0, "betarangeend": 0.0,
         "reversemaxpower": 0.0, "ielumaxtorque": -1.0, "itt_delay": 0.05}
_ACCEPTED = {"psfc", "idlefuelflow", "maxstartingtime", "startern1", "milthrust", "idlen2", "maxn2",
             "documentation", "description", "function", "table"}
_TABLES = ("EnginePowerRPM_N1", "ITT_N1", "CombustionEfficiency_N1")


def read_turboprop(source, root, where, builder, tables, prefix):
    """A ``<turboprop_engine>`` (``root``) as ``FGTurboProp::Load`` reads it: its row (``TP_*`` columns, the kind
    in ``PE_KIND``) and its tables' columns of the engine's table row (EnginePowerRPM_N1, ITT_N1,
    CombustionEfficiency_N1 stored in ``tables``); its EnginePowerVC compiled by ``builder`` into
    ``{prefix}/EnginePowerVC``."""
    from flightsim.physics.jsbsim.piston import ROW_FIELDS
    from flightsim.physics.jsbsim.propeller import TABLE_FIELDS

    for child in root:
        if child.tag not in _READ and child.tag not in _ACCEPTED:
            raise InputError(source.path, f"{where}/{child.tag}", "not read by JSBSim's FGTurboProp (not supported)")
    row = [0.0] * ROW_FIELDS
    for column, tag in enumerate(_READ):
        el = root.find(tag)
        row[column] = _READ[tag] if el is None else source.number(el, f"{where}/{tag}")
    row[TP_BETA_END] = min(max(row[TP_BETA_END] / 100.0, 0.0), 0.99999)
    row[TP_REVERSE_POWER] /= 100.0
    row[PE_KIND] = TURBOPROP
    vc = None
    for function in root.findall("function"):
        name = function.get("name", "")
        if name != "EnginePowerVC":
            raise InputError(source.path, f"{where}/function name={name!r}", "not supported in a turboprop (only "
                             "EnginePowerVC)")
        vc = function
    table_row = [0] * TABLE_FIELDS
    for el in root.findall("table"):
        name = el.get("name", "")
        here = f"{where}/table name={name!r}"
        if name == "EnginePowerVC" and vc is None:        # (the older form: a bare table, as a function)
            bare = copy.deepcopy(el)
            bare.attrib.pop("name")
            vc = root.makeelement("function", {"name": name})
            vc.append(bare)
            continue
        if name not in _TABLES:
            raise InputError(source.path, here, "unknown turboprop table (JSBSim's are EnginePowerVC, "
                             "EnginePowerRPM_N1, ITT_N1, CombustionEfficiency_N1)")
        column = (TB_MIXTURE, TB_ENGINE_2, TB_ENGINE_3)[_TABLES.index(name)]
        table_row[column:column + 3] = tables.read(source, el, here, two_d=name != "CombustionEfficiency_N1")
    if vc is None:
        raise InputError(source.path, where, "the EnginePowerVC function is missing")
    for name, column in (("EnginePowerRPM_N1", TB_MIXTURE), ("ITT_N1", TB_ENGINE_2)):
        if table_row[column + 1] == 0:
            raise InputError(source.path, where, f"the {name} table is missing")
    if table_row[TB_ENGINE_3 + 1] == 0:
        keys, values = zip(*DEFAULT_COMBUSTION, strict=True)
        table_row[TB_ENGINE_3:TB_ENGINE_3 + 3] = tables.add(keys, values)
    builder.function(vc, f"{where}/function name='EnginePowerVC'")
    builder.store(f"{prefix}/EnginePowerVC")
    return row, table_row


# ----------------------------------------------------------------------------- compiled


@borrowing_jit
def _exp_seek(v, target, accel_tau, decel_tau, dt):
    """FGTurboProp::ExpSeek: ``v`` toward ``target`` exponentially, time constant ``accel_tau`` up, ``decel_tau``
    down."""
    if v > target:
        v = (v - target) * math.exp(-dt / decel_tau) + target
    elif v < target:
        v = (target - v) * (1 - math.exp(-dt / accel_tau)) + v
    return v


@borrowing_jit
def _lever(props, row, s):
    """The throttle the engine runs on before the IELU, the reverser on, and the propeller's reverse coefficient
    (``FGTurboProp::Calculate``)."""
    throttle = props[s[TS_THROTTLE]]
    reversed_ = props[s[TS_REVERSER]] != 0.0
    coef = 0.0
    if reversed_:
        coef = throttle
        if throttle < row[TP_BETA_END]:
            throttle = 0.0
        else:
            throttle = (throttle - row[TP_BETA_END]) / (1 - row[TP_BETA_END]) * row[TP_REVERSE_POWER]
    return throttle, reversed_, coef


@borrowing_jit
def _horsepower(props, row, s, tb, data, rpm, n1):
    """``EnginePowerRPM_N1(rpm, N1) × EnginePowerVC``, at most ``maxpower`` (hp); ``rpm`` the engine's."""
    hp = table_value_2d(tb, data, TB_MIXTURE, rpm, n1) * props[s[TS_VC]]
    if hp > row[TP_MAX_POWER]:
        hp = row[TP_MAX_POWER]
    return hp


@borrowing_jit
def _turboprop_frame(props, row, s, pr, ps, tb, data, dt, out):
    """One frame of a running turboprop and its propeller (``FGTurboProp::Calculate`` and ``Run``), ``dt`` s."""
    throttle, reversed_, coef = _lever(props, row, s)
    rpm = props[ps[RS_RPM]] * pr[PR_GEAR]
    if row[TP_IELU_TORQUE] > 0.0:
        old = props[s[TS_IELU_THROTTLE]]
        if abs(props[ps[RS_TORQUE]]) > row[TP_IELU_TORQUE] and throttle >= old:
            throttle = old - 0.1 * dt
            intervene = True
        elif props[s[TS_IELU]] != 0.0 and throttle >= old:
            throttle = old + 0.05 * dt
            intervene = True
        else:
            intervene = False
        props[s[TS_IELU]] = 1.0 if intervene else 0.0
        props[s[TS_IELU_THROTTLE]] = throttle
    old_n1 = props[s[TS_N1]]
    n1 = _exp_seek(old_n1, row[TP_IDLE_N1] + throttle * (row[TP_MAX_N1] - row[TP_IDLE_N1]), row[TP_DELAY],
                   row[TP_DELAY] * 2.4, dt)
    hp = _horsepower(props, row, s, tb, data, rpm, n1)
    props[s[TS_COMBUSTION]] = table_value(tb, data, TB_ENGINE_3, n1)
    itt = props[s[TS_ITT]]
    props[s[TS_ENGTEMP]] = _exp_seek(props[s[TS_ENGTEMP]], itt, 300, 400, dt)
    goal = table_value_2d(tb, data, TB_ENGINE_2, (n1 - old_n1) * 300 + n1, 1)
    props[s[TS_ITT]] = _exp_seek(itt, goal, row[TP_ITT_DELAY], row[TP_ITT_DELAY] * 1.2, dt)
    props[s[TS_N1]] = n1
    props[s[TS_POWER_HP]] = hp
    power = hp * _HP_TO_FTLBS
    if rpm <= 0.1:
        power = max(power, 0.0)
    propeller_calculate_reversible(props, pr, ps, tb, data, power, dt, out, reversed_, coef)


@borrowing_jit
def powered_frame(props, row, s, pr, ps, tb, data, dt, out):
    """One frame (``dt`` s) of a turboprop (:data:`TURBOPROP`) or of a turbine's or an electric engine's propeller
    (:data:`TURBINE_PROPELLER`, :data:`ELECTRIC_PROPELLER`: the engine has run, its output at ``s[0]`` is the
    propeller's power) with its propeller, whose body loads
    about the CG are added into ``out`` (lbf, ft·lbf; JSBSim's body frame)."""
    if row[PE_KIND] == TURBOPROP:
        _turboprop_frame(props, row, s, pr, ps, tb, data, dt, out)
    elif row[PE_KIND] == BRUSHLESS:
        power, current = motor_power(row, props[s[BS_THROTTLE]], props[ps[RS_RPM]])
        motor_outputs(props, row, s, power, current)
        propeller_calculate(props, pr, ps, tb, data, power, dt, out)
    else:
        propeller_calculate(props, pr, ps, tb, data, props[s[0]], dt, out)


@borrowing_jit
def _shaft_power(props, row, s, pr, tb, data, throttle, prop_rpm):
    """The power the engine hands its propeller at propeller rpm ``prop_rpm`` (ft·lbf/s), a turboprop's N1 settled
    at ``throttle``."""
    if row[PE_KIND] == BRUSHLESS:
        return motor_power(row, props[s[BS_THROTTLE]], prop_rpm)[0]
    if row[PE_KIND] != TURBOPROP:
        return props[s[0]]
    rpm = prop_rpm * pr[PR_GEAR]
    n1 = row[TP_IDLE_N1] + throttle * (row[TP_MAX_N1] - row[TP_IDLE_N1])
    power = _horsepower(props, row, s, tb, data, rpm, n1) * _HP_TO_FTLBS
    if rpm <= 0.1:
        power = max(power, 0.0)
    return power


@borrowing_jit
def _excess(props, row, s, pr, ps, tb, data, throttle, prop_rpm, pitch):
    """The engine's power less the propeller's at ``prop_rpm`` and blade angle ``pitch`` (ft·lbf/s)."""
    return (_shaft_power(props, row, s, pr, tb, data, throttle, prop_rpm)
            - propeller_power_required(props, pr, ps, tb, data, prop_rpm, pitch))


@borrowing_jit
def _equilibrium(props, row, s, pr, ps, tb, data, throttle, pitch):
    """The highest propeller rpm where the power balances at blade angle ``pitch`` and a little more rpm leaves a
    deficit (a stable equilibrium), as :func:`flightsim.physics.jsbsim.piston._equilibrium` finds it; −1 when
    there is none above 10⁻⁶ of the search's top."""
    hi = 2.0 * max(pr[PR_MAX_RPM], 2000.0)
    while _excess(props, row, s, pr, ps, tb, data, throttle, hi, pitch) > 0.0:
        hi *= 2.0
        if hi > 1e7:
            return -1.0
    lo = hi * 1e-6
    below, above = -1.0, hi
    n = 256
    for i in range(1, n + 1):
        x = hi * (lo / hi) ** (i / n)
        if _excess(props, row, s, pr, ps, tb, data, throttle, x, pitch) > 0.0:
            below = x
            break
        above = x
    if below < 0.0:
        return -1.0
    for _ in range(200):
        mid = 0.5 * (below + above)
        if mid <= below or mid >= above:
            break
        if _excess(props, row, s, pr, ps, tb, data, throttle, mid, pitch) > 0.0:
            below = mid
        else:
            above = mid
    f_below = _excess(props, row, s, pr, ps, tb, data, throttle, below, pitch)
    f_above = _excess(props, row, s, pr, ps, tb, data, throttle, above, pitch)
    return below if abs(f_below) <= abs(f_above) else above


@borrowing_jit
def _governed(props, row, s, pr, ps, tb, data, throttle):
    """The steady blade angle and propeller rpm at ``throttle`` (:func:`flightsim.physics.jsbsim.piston._governed`'s
    rules: the governor holds the rpm commanded where a blade angle within the limits balances the power, else
    the angle is pinned at the limit it is driven to; feathered the coarsest, manual as set); rpm −1: none."""
    lo, hi = pr[PR_MIN_PITCH], pr[PR_MAX_PITCH]
    if lo == hi:
        return lo, _equilibrium(props, row, s, pr, ps, tb, data, throttle, lo)
    if props[ps[RS_CONSTANT_SPEED]] == 0.0:
        pitch = props[ps[RS_PITCH]]
        return pitch, _equilibrium(props, row, s, pr, ps, tb, data, throttle, pitch)
    if props[ps[RS_FEATHER_CMD]] != 0.0:
        return hi, _equilibrium(props, row, s, pr, ps, tb, data, throttle, hi)
    rpm = pr[PR_MIN_RPM] + (pr[PR_MAX_RPM] - pr[PR_MIN_RPM]) * props[ps[RS_ADVANCE_CMD]]
    if rpm <= 200 or _excess(props, row, s, pr, ps, tb, data, throttle, rpm, lo) <= 0.0:
        return lo, _equilibrium(props, row, s, pr, ps, tb, data, throttle, lo)
    if _excess(props, row, s, pr, ps, tb, data, throttle, rpm, hi) >= 0.0:
        return hi, _equilibrium(props, row, s, pr, ps, tb, data, throttle, hi)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if _excess(props, row, s, pr, ps, tb, data, throttle, rpm, mid) > 0.0:
            lo = mid
        else:
            hi = mid
    f_lo = _excess(props, row, s, pr, ps, tb, data, throttle, rpm, lo)
    f_hi = _excess(props, row, s, pr, ps, tb, data, throttle, rpm, hi)
    return (lo if abs(f_lo) <= abs(f_hi) else hi), rpm


@borrowing_jit
def _torque(props, row, s, pr, tb, data, throttle, rpm):
    """The propeller's torque at the steady state (``FGPropeller``'s ``−sense · power / ω``, ft·lbf)."""
    omega = rpm / 60.0 * 2.0 * math.pi
    return -pr[PR_SENSE] * _shaft_power(props, row, s, pr, tb, data, throttle, rpm) / max(0.01, omega)


@borrowing_entry_jit         # (called from Python only: engines_steady)
def powered_steady(props, row, s, pr, ps, tb, data, out):
    """Put a turboprop (or a turbine's propeller, the turbine already steady) at its steady state for the lever, rpm
    command and flight condition in ``props`` — N1 at its target, the blade angle and rpm where the engine's power
    is the propeller's with the governor at rest (:func:`_governed`); where the propeller's torque would exceed
    the IELU's, the throttle the IELU holds it at (the torque at the limit, found by bisection: JSBSim's march
    hovers about it) — then compute the frame's outputs and loads (added into ``out``) once, with no time
    passing.  False (the state left as it was) when there is none: no equilibrium, or the reverser on."""
    props[ps[RS_ADVANCE_POS]] = props[ps[RS_ADVANCE_CMD]]
    props[ps[RS_FEATHER_POS]] = props[ps[RS_FEATHER_CMD]]
    throttle = 0.0
    if row[PE_KIND] == TURBOPROP:
        throttle, reversed_, _ = _lever(props, row, s)
        if reversed_:
            return False
    pitch, rpm = _governed(props, row, s, pr, ps, tb, data, throttle)
    if rpm < 0.0 and row[PE_KIND] == BRUSHLESS:
        rpm = 0.0                       # (a motor with no voltage to turn its propeller stands still)
    if rpm < 0.0:
        return False
    if row[PE_KIND] == TURBOPROP:
        limit = row[TP_IELU_TORQUE]
        lever = throttle
        if limit > 0.0 and abs(_torque(props, row, s, pr, tb, data, throttle, rpm)) > limit:
            lo, hi = 0.0, throttle
            pitch, rpm = _governed(props, row, s, pr, ps, tb, data, lo)
            if rpm < 0.0 or abs(_torque(props, row, s, pr, tb, data, lo, rpm)) > limit:
                return False
            for _ in range(100):
                mid = 0.5 * (lo + hi)
                if mid <= lo or mid >= hi:
                    break
                p_mid, r_mid = _governed(props, row, s, pr, ps, tb, data, mid)
                if r_mid >= 0.0 and abs(_torque(props, row, s, pr, tb, data, mid, r_mid)) <= limit:
                    lo = mid
                else:
                    hi = mid
            throttle = lo
            pitch, rpm = _governed(props, row, s, pr, ps, tb, data, throttle)
        props[s[TS_IELU_THROTTLE]] = throttle
        props[s[TS_IELU]] = 1.0 if throttle < lever else 0.0
        n1 = row[TP_IDLE_N1] + throttle * (row[TP_MAX_N1] - row[TP_IDLE_N1])
        props[s[TS_N1]] = n1
        itt = table_value_2d(tb, data, TB_ENGINE_2, n1, 1)
        props[s[TS_ITT]] = itt
        props[s[TS_ENGTEMP]] = itt
        props[ps[RS_TORQUE]] = _torque(props, row, s, pr, tb, data, throttle, rpm)
    props[ps[RS_RPM]] = rpm
    props[ps[RS_PITCH]] = pitch
    powered_frame(props, row, s, pr, ps, tb, data, 0.0, out)
    return True

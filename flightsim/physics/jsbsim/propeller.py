"""JSBSim's propeller (``FGPropeller``), fixed-pitch, variable-pitch or constant-speed: read from its
``<propeller>`` file, computed once per frame.

A propeller turns at its own RPM, a state integrated once per frame from the
torque the engine's power leaves over, ``RPM += ExcessTorque / Ixx · dt``
(``FGPropeller::Calculate``).  At advance ratio ``J = V / (n D)`` its
``C_THRUST`` and ``C_POWER`` tables (each optionally scaled by ``ct_factor``/
``cp_factor`` and by ``CT_MACH``/``CP_MACH`` tables of the helical tip Mach
number) give the thrust ``C_T ρ n² D⁴`` and the power it absorbs
``C_P ρ n³ D⁵``; momentum theory gives the induced velocity in the disk; the
P-factor moves the thrust's point of action off the shaft; the engine's
torque reacts on the airframe and the spinning propeller is a gyroscope.

A variable-pitch propeller (``minpitch`` ≠ ``maxpitch``) reads its 2-D
``C_THRUST``/``C_POWER`` tables at (J, blade angle); its blade angle
(``propulsion/engine[k]/blade-angle``, deg, a state in the property array) is
moved each frame, before C_P is looked up, by its governor when
``constant-speed-mode`` is 1 (``<maxrpm>`` given, or ``<constspeed>``):
``pitch −= (rpm commanded − rpm) · dt`` above 200 rpm, the rpm commanded
``minrpm + (maxrpm − minrpm) · fcs/advance-pos-norm[k]``, within the pitch
limits; feathered (``fcs/feather-pos-norm[k]`` ≠ 0) it goes 1/300 of the way to
``maxpitch`` a frame; in manual mode it stays as set from outside (an FCS
writing ``blade-angle``).  JSBSim's FGFCS copies ``fcs/advance-cmd-norm[k]`` and
``fcs/feather-cmd-norm[k]`` to their positions at the start of its frame;
flightsim's flight controls (``fcs.py``) copy only the throttle and mixture,
so the propeller makes these two copies itself at the start of its frame (no
FCS of JSBSim's aircraft reads or writes the positions in between).
FGPiston never reverses its propeller; a turboprop does (its reverser: the blade angle then
follows the throttle toward ``reversepitch``, :func:`_governor`).

The thruster's constants are a row of :data:`ROW_FIELDS` floats (the ``PR_*``
columns), its properties a row of slots (the ``RS_*`` columns), its tables
spans of one flat array (:class:`Tables`, looked up as ``FGTable::GetValue``).

Frames: the thruster's own axes (x along the shaft, forward) are the body
axes turned by its ``<orient>`` (JSBSim's ``FGForce`` transform ``mT``); the
loads are summed in JSBSim's body frame (x forward, y right, z down) about the
CG; locations in the structural frame are in inches (x aft, y right, z up).
Units: ft, s, slug, lbf, ft·lbf/s, rpm, deg (the blade angle).

Refused by name (:class:`~flightsim.errors.InputError`): a ``<pointing>``
thruster, unknown tables, a table of the wrong shape (C_THRUST and C_POWER are
2-D for a variable-pitch propeller, 1-D otherwise).
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_inline_jit, borrowing_jit
from flightsim.physics.jsbsim.program import _bilinear, _lookup_1d

__all__ = ["PROPELLER_SLOTS", "Tables", "read_propeller", "propeller_calculate", "propeller_calculate_reversible",
           "propeller_power_required",
           "table_value"]

#: Columns of a propeller's row: Ixx (slug·ft²), diameter D (ft), D⁴, D⁵, gear ratio (engine rpm / propeller
#: rpm), the C_T and C_P factors, the P-factor, the sense (+1 clockwise seen from behind), the angular
#: momentum's sense multiplier (−1 for a file of version > 1), the thruster's location y and z (structural
#: frame, in), its location about the CG (body frame, ft; :meth:`Propulsion.locate`), and the thruster-to-body
#: transform ``mT`` row by row (``T11 T12 T13 T21 … T33``).
(PR_IXX, PR_DIAMETER, PR_D4, PR_D5, PR_GEAR, PR_CT_FACTOR, PR_CP_FACTOR, PR_P_FACTOR, PR_SENSE, PR_SENSE_MULT,
 PR_LOC_Y, PR_LOC_Z, PR_X, PR_Y, PR_Z, PR_T) = range(16)
#: Then the pitch's limits (deg; equal: a fixed-pitch propeller), the governor's rpm range (propeller rpm: the
#: rpm commanded is ``minrpm + (maxrpm − minrpm) · advance``), the reversed blade angle ``reversepitch`` (deg; only
#: a turboprop reverses its propeller).
(PR_MIN_PITCH, PR_MAX_PITCH, PR_MIN_RPM, PR_MAX_RPM, PR_REVERSE_PITCH) = range(PR_T + 9, PR_T + 14)
#: How many columns a propeller's row has.
ROW_FIELDS = PR_T + 14

#: Columns of a propeller's slot row, and the property each one is, for engine ``k`` (``{e}`` is
#: ``propulsion/engine[k]``).  What the propeller writes comes first, then what it reads.
PROPELLER_SLOTS = (
    "{e}/propeller-rpm", "{e}/engine-rpm", "{e}/thrust-lbs", "{e}/prop-induced-velocity_fps", "{e}/advance-ratio",
    "{e}/thrust-coefficient", "{e}/helical-tip-Mach", "{e}/propeller-power-ftlbps", "{e}/propeller-torque-ftlb",
    "{e}/y-position", "{e}/z-position",
    "velocities/u-aero-fps", "velocities/v-aero-fps", "velocities/w-aero-fps",
    "velocities/p-aero-rad_sec", "velocities/q-aero-rad_sec", "velocities/r-aero-rad_sec",
    "velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec",
    "atmosphere/rho-slugs_ft3", "atmosphere/a-fps",
    "{e}/blade-angle", "fcs/advance-pos-norm[{k}]", "fcs/feather-pos-norm[{k}]",
    "fcs/advance-cmd-norm[{k}]", "fcs/feather-cmd-norm[{k}]", "{e}/constant-speed-mode",
)
(RS_RPM, RS_ENGINE_RPM, RS_THRUST, RS_INDUCED, RS_ADVANCE, RS_CT, RS_TIP_MACH, RS_POWER, RS_TORQUE, RS_ACTING_Y,
 RS_ACTING_Z, RS_U, RS_V, RS_W, RS_P, RS_Q, RS_R, RS_PI, RS_QI, RS_RI, RS_RHO, RS_SOUND,
 RS_PITCH, RS_ADVANCE_POS, RS_FEATHER_POS, RS_ADVANCE_CMD, RS_FEATHER_CMD, RS_CONSTANT_SPEED) = \
    range(len(PROPELLER_SLOTS))

#: Each engine's tables: the ``(start, rows, columns)`` of each in :attr:`Tables.data` (rows 0: none; columns 1: a
#: 1-D table), by these columns: the piston's MIXTURE efficiency (a turboprop's EnginePowerRPM_N1), the propeller's
#: C_THRUST, C_POWER (2-D, over J and the blade angle, for a variable-pitch propeller), CT_MACH, CP_MACH; then an
#: engine's further tables (a turboprop's ITT_N1 and CombustionEfficiency_N1).
(TB_MIXTURE, TB_CT, TB_CP, TB_CT_MACH, TB_CP_MACH, TB_ENGINE_2, TB_ENGINE_3) = (0, 3, 6, 9, 12, 15, 18)
#: How many columns an engine's table row has.
TABLE_FIELDS = 21

_PROPELLER_TABLES = {"C_THRUST": TB_CT, "C_POWER": TB_CP, "CT_MACH": TB_CT_MACH, "CP_MACH": TB_CP_MACH}
_KNOWN = {"ixx", "diameter", "numblades", "gearratio", "minpitch", "maxpitch", "table", "ct_factor", "cp_factor",
          "reversepitch", "minrpm", "maxrpm", "constspeed", "documentation", "description",
          "sense", "p_factor"}      # (these two JSBSim reads from the <thruster> only: in the propeller file, ignored)
_TWO_PI = 2.0 * math.pi


class Tables:
    """JSBSim's ``FGTable``s of one or two keys stored end to end in one float array.

    A 1-D table is its keys, then its values; a 2-D table its row keys, its column keys, then its values row by
    row.  Each is known by its ``(start, rows, columns)`` (columns 1: a 1-D table).

    Attributes
    ----------
    data : list of float
    """

    def __init__(self):
        self.data = []

    def add(self, keys, values):
        """Store a 1-D table; its ``(start, rows, 1)``."""
        start = len(self.data)
        self.data.extend(float(k) for k in keys)
        self.data.extend(float(v) for v in values)
        return start, len(keys), 1

    def read(self, source, el, where, two_d=False):
        """Store the ``<table>`` ``el``, its one ``<tableData>`` of ``key value`` lines (1-D) or, with ``two_d``, a
        line of column keys then lines of ``row-key value…`` (2-D); keys increasing.  Its ``(start, rows,
        columns)``."""
        blocks = el.findall("tableData")
        if len(blocks) != 1:
            raise InputError(source.path, where, "a table with one <tableData> is required here")
        lines = [[source.parse_number(x, f"{where}/tableData") for x in line.split()]
                 for line in "".join(blocks[0].itertext()).splitlines() if line.strip()]
        if not lines:
            raise InputError(source.path, f"{where}/tableData", "<tableData> is empty")
        columns = lines.pop(0) if two_d else [0.0]
        width = len(columns) + 1
        for line in lines:
            if len(line) != width:
                raise InputError(source.path, f"{where}/tableData", f"{'a 2-D' if two_d else 'a 1-D'} table needs "
                                 f"{width} numbers a line here: {' '.join(map(str, line))!r}")
        keys = [line[0] for line in lines]
        if not keys:
            raise InputError(source.path, f"{where}/tableData", "<tableData> has no rows")
        for what, k in (("row", keys), ("column", columns)):
            if any(b <= a for a, b in zip(k, k[1:], strict=False)):
                raise InputError(source.path, f"{where}/tableData", f"the {what} breakpoints must increase: {k}")
        start = len(self.data)
        self.data.extend(keys)
        if two_d:
            self.data.extend(columns)
        for line in lines:
            self.data.extend(line[1:])
        return start, len(keys), len(columns)

    def array(self):
        """:attr:`data` as a float64 array (one element at least, for the compiled code)."""
        return np.array(self.data or [0.0], dtype=np.float64)


def read_propeller(source, thruster, prop, where, tables):
    """A ``<propeller>`` (``prop``, read from the file its ``<thruster>`` element ``thruster`` names) as JSBSim's
    ``FGPropeller`` constructor reads it.

    Returns
    -------
    row : list of float
        :data:`ROW_FIELDS` columns (the location about the CG left 0, for :meth:`Propulsion.locate`).
    table_row : list of int
        The C_THRUST, C_POWER, CT_MACH, CP_MACH columns of the engine's table row (others 0).
    location : tuple
        The thruster's location, structural frame, in.
    constant_speed : float
        ``propulsion/engine[k]/constant-speed-mode``'s initial value: 1 with a governor (``<maxrpm>``, unless
        ``<constspeed>`` says otherwise), else 0 (a variable-pitch propeller's blade angle then set from outside).
    """
    here = f"{where}/propeller"
    for child in prop:
        if child.tag not in _KNOWN:
            raise InputError(source.path, f"{here}/{child.tag}", "not supported in a propeller")

    def value(tag, unit=None, default=None):
        el = prop.find(tag)
        if el is None:
            if default is None:
                raise InputError(source.path, f"{here}/{tag}", "required element is missing")
            return default
        return source.number(el, f"{here}/{tag}", unit)

    row = [0.0] * ROW_FIELDS
    row[PR_MIN_PITCH], row[PR_MAX_PITCH] = value("minpitch", default=0.0), value("maxpitch", default=0.0)
    row[PR_MIN_RPM], row[PR_MAX_RPM] = value("minrpm", default=0.0), value("maxrpm", default=0.0)
    row[PR_REVERSE_PITCH] = value("reversepitch", default=0.0)
    variable = row[PR_MIN_PITCH] != row[PR_MAX_PITCH]
    constant_speed = 1.0 if prop.find("maxrpm") is not None else 0.0
    if prop.find("constspeed") is not None:
        constant_speed = float(int(value("constspeed")))
    row[PR_IXX] = max(value("ixx", "SLUG*FT2"), 1e-06)
    d = row[PR_DIAMETER] = max(value("diameter", "FT"), 0.001)
    row[PR_D4] = d * d * d * d
    row[PR_D5] = row[PR_D4] * d
    row[PR_GEAR] = max(value("gearratio", default=1.0), 0.001)
    row[PR_CT_FACTOR], row[PR_CP_FACTOR] = value("ct_factor", default=1.0), value("cp_factor", default=1.0)
    version = prop.get("version")
    row[PR_SENSE_MULT] = -1.0 if version is not None and source.parse_number(version, f"{here} version") > 1.0 \
        else 1.0
    sense = thruster.find("sense")
    row[PR_SENSE] = 1.0 if sense is None or source.number(sense, f"{where}/sense") >= 0.0 else -1.0
    p_factor = thruster.find("p_factor")
    row[PR_P_FACTOR] = 0.0 if p_factor is None else source.number(p_factor, f"{where}/p_factor")
    if row[PR_P_FACTOR] < 0.0:
        raise InputError(source.path, f"{where}/p_factor", "must not be negative (JSBSim refuses it)")
    location = source.location(thruster.find("location"), f"{where}/location")
    row[PR_LOC_Y], row[PR_LOC_Z] = location[1], location[2]
    row[PR_T:PR_T + 9] = _orientation(source, thruster, where)
    table_row = [0] * TABLE_FIELDS
    for el in prop.findall("table"):
        name = el.get("name", "")
        column = _PROPELLER_TABLES.get(name)
        if column is None:
            raise InputError(source.path, f"{here}/table name={name!r}", "unknown propeller table (JSBSim's are "
                             "C_THRUST, C_POWER, CT_MACH, CP_MACH)")
        two_d = variable and column in (TB_CT, TB_CP)          # (FGPropeller: GetValue(J, Pitch))
        table_row[column:column + 3] = tables.read(source, el, f"{here}/table name={name!r}", two_d)
    for name in ("C_THRUST", "C_POWER"):
        if table_row[_PROPELLER_TABLES[name] + 1] == 0:
            raise InputError(source.path, here, f"the {name} table is missing")
    return row, table_row, location, constant_speed


def _orientation(source, thruster, where):
    """The thruster-to-body transform ``mT`` of its ``<orient>`` (roll, pitch, yaw), row by row, as
    ``FGForce::UpdateCustomTransformMatrix``."""
    if thruster.find("pointing") is not None:
        raise InputError(source.path, f"{where}/pointing", "a <pointing> thruster is not supported (use <orient>)")
    angles = {"roll": 0.0, "pitch": 0.0, "yaw": 0.0}
    orient = thruster.find("orient")
    if orient is not None:
        unit = (orient.get("unit") or "RAD").upper()
        if unit not in ("RAD", "DEG"):
            raise InputError(source.path, f"{where}/orient", f"unit {unit!r} is not an angle")
        scale = 1.0 / (180.0 / math.pi) if unit == "DEG" else 1.0        # (FGXMLElement's DEG → RAD)
        for axis in angles:
            el = orient.find(axis)
            if el is not None:
                angles[axis] = source.number(el, f"{where}/orient/{axis}") * scale
    cp, sp = math.cos(angles["pitch"]), math.sin(angles["pitch"])
    cr, sr = math.cos(angles["roll"]), math.sin(angles["roll"])
    cy, sy = math.cos(angles["yaw"]), math.sin(angles["yaw"])
    srsp, crcy, crsy = sr * sp, cr * cy, cr * sy
    return [cp * cy, srsp * cy - crsy, crcy * sp + sr * sy,
            cp * sy, srsp * sy + crcy, crsy * sp - sr * cy,
            -sp, sr * cp, cr * cp]


# ----------------------------------------------------------------------------- compiled


@borrowing_inline_jit
def table_value(tables, data, column, key):
    """``FGTable::GetValue(key)`` of the engine's 1-D table in ``column`` of its table row ``tables``.  (Written
    into each caller: called with a column constant, numba compiled a copy for each column.)"""
    start, n = tables[column], tables[column + 1]
    return _lookup_1d(data, start, start + n, n, key)


@borrowing_inline_jit
def table_value_2d(tables, data, column, row_key, col_key):
    """``FGTable::GetValue(rowKey, colKey)`` of the engine's 2-D table in ``column`` of its table row: bilinear,
    the factors constrained to [0, 1] (the end values beyond the breakpoints)."""
    rk, n_rows, n_cols = tables[column], tables[column + 1], tables[column + 2]
    if n_cols == 1:
        return _lookup_1d(data, rk, rk + n_rows, n_rows, row_key)
    ck = rk + n_rows
    return _bilinear(data, rk, ck, ck + n_cols, n_rows, n_cols, row_key, col_key)


@borrowing_jit
def _local_air_velocity(props, pr, ps):
    """The air's velocity at the propeller in its own axes, ft/s: ``mT^T (UVW_aero + PQR_aero × r)``, r its
    location about the CG (Stevens & Lewis eq. 8.2-1, as ``FGPropeller::Calculate``)."""
    p, q, r = props[ps[RS_P]], props[ps[RS_Q]], props[ps[RS_R]]
    x, y, z = pr[PR_X], pr[PR_Y], pr[PR_Z]
    a1 = props[ps[RS_U]] + (q * z - r * y)
    a2 = props[ps[RS_V]] + (r * x - p * z)
    a3 = props[ps[RS_W]] + (p * y - q * x)
    t = PR_T
    return (a1 * pr[t] + a2 * pr[t + 3] + a3 * pr[t + 6], a1 * pr[t + 1] + a2 * pr[t + 4] + a3 * pr[t + 7],
            a1 * pr[t + 2] + a2 * pr[t + 5] + a3 * pr[t + 8])


@borrowing_jit
def _advance(pr, vel, rps, sound):
    """The advance ratio ``J = V / (D n)`` (``V / D`` below 0.01 rev/s) and the helical tip Mach number
    ``√(V_tip² + V²) / a`` (``FGPropeller::Calculate``)."""
    d = pr[PR_DIAMETER]
    v_tip = rps * d * math.pi
    tip_mach = math.sqrt(v_tip * v_tip + vel * vel) / sound
    j = vel / (d * rps) if rps > 0.01 else vel / d
    return j, tip_mach


@borrowing_jit
def _governor(props, pr, ps, dt, reversed_, reverse_coef):
    """The blade angle as ``FGPropeller::GetPowerRequired`` moves it before it looks C_P up (deg): a constant-speed
    propeller's governor, above 200 rpm, turns it by ``(rpm − rpm commanded) · dt``, the rpm commanded
    ``minrpm + (maxrpm − minrpm) · advance``, within ``[minpitch, maxpitch]``; feathered, it goes 1/300 of the
    way to ``maxpitch`` each frame (whatever ``dt``); in manual mode (``constant-speed-mode`` 0) it is left as set
    from outside.  Reversed (a turboprop's reverser, ``reverse_coef`` its throttle), it goes 1/200 of the way to
    ``minpitch − (minpitch − reversepitch) · reverse_coef`` each frame above 200 rpm and, above ``maxrpm``, coarser
    by ``(rpm − maxrpm) / 50`` within ``[reversepitch, maxpitch]``."""
    pitch = props[ps[RS_PITCH]]
    if props[ps[RS_CONSTANT_SPEED]] != 0.0:
        if props[ps[RS_FEATHER_POS]] == 0.0:
            rpm = props[ps[RS_RPM]]
            if not reversed_:
                rpm_req = pr[PR_MIN_RPM] + (pr[PR_MAX_RPM] - pr[PR_MIN_RPM]) * props[ps[RS_ADVANCE_POS]]
                if rpm > 200:
                    pitch -= (rpm_req - rpm) * dt
                if pitch < pr[PR_MIN_PITCH]:
                    pitch = pr[PR_MIN_PITCH]
                elif pitch > pr[PR_MAX_PITCH]:
                    pitch = pr[PR_MAX_PITCH]
            else:
                pitch_req = pr[PR_MIN_PITCH] - (pr[PR_MIN_PITCH] - pr[PR_REVERSE_PITCH]) * reverse_coef
                if rpm > 200:
                    pitch += (pitch_req - pitch) / 200
                if rpm > pr[PR_MAX_RPM]:
                    pitch += (pr[PR_MAX_RPM] - rpm) / 50
                    if pitch < pr[PR_REVERSE_PITCH]:
                        pitch = pr[PR_REVERSE_PITCH]
                    elif pitch > pr[PR_MAX_PITCH]:
                        pitch = pr[PR_MAX_PITCH]
        else:
            pitch += (pr[PR_MAX_PITCH] - pitch) / 300
    return pitch


@borrowing_jit
def _power_coefficient(pr, tb, data, j, pitch, tip_mach):
    """C_P at advance ratio ``j`` and blade angle ``pitch`` (a fixed-pitch propeller's of J alone), × cp_factor ×
    CP_MACH(M_tip)."""
    if pr[PR_MAX_PITCH] == pr[PR_MIN_PITCH]:
        cp = table_value(tb, data, TB_CP, j)
    else:
        cp = table_value_2d(tb, data, TB_CP, j, pitch)
    cp *= pr[PR_CP_FACTOR]
    if tb[TB_CP_MACH + 1] > 0:
        cp *= table_value(tb, data, TB_CP_MACH, tip_mach)
    return cp


@borrowing_jit
def _power_required(pr, tb, data, j, pitch, tip_mach, rps, rho):
    """``FGPropeller::GetPowerRequired`` after the governor: ``C_P · n³ D⁵ ρ`` (n at least 0.01 rev/s),
    ft·lbf/s."""
    cp = _power_coefficient(pr, tb, data, j, pitch, tip_mach)
    local = 0.01 if rps < 0.01 else rps
    return cp * local * local * local * pr[PR_D5] * rho


@borrowing_jit
def propeller_power_required(props, pr, ps, tb, data, rpm, pitch):
    """The power the propeller absorbs at ``rpm`` (propeller rpm) and blade angle ``pitch`` (deg) in the flight
    condition in ``props``, ft·lbf/s (``FGPropeller::GetPowerRequired`` with the governor still; for the steady
    state)."""
    vel = _local_air_velocity(props, pr, ps)[0]
    rps = rpm / 60.0
    j, tip_mach = _advance(pr, vel, rps, props[ps[RS_SOUND]])
    return _power_required(pr, tb, data, j, pitch, tip_mach, rps, props[ps[RS_RHO]])


@borrowing_jit
def _induced_velocity(vel, thrust, rho, area):
    """Momentum theory's velocity induced in the disk (McCormick eq. 6.15), signs handled as JSBSim does, ft/s."""
    vel2sum = vel * abs(vel) + 2.0 * thrust / (rho * area)
    if vel2sum > 0.0:
        return 0.5 * (-vel + math.sqrt(vel2sum))
    return 0.5 * (-vel - math.sqrt(-vel2sum))


@borrowing_jit
def _p_factor(props, pr, ps, vel, lv, lw, induced):
    """P-factor as ``FGPropeller::Calculate``: the thrust's point of action moved off the shaft by
    ``sense · p_factor · angle / V_t`` times the tangential velocity (in, structural frame), ``angle`` that of the
    flow through the disk; kept as it was when there is no tangential flow."""
    if pr[PR_P_FACTOR] > 0.0001:
        tangential = math.sqrt(lv * lv + lw * lw)
        if tangential > 0.0001:
            angle = math.atan2(tangential, vel + induced)
            factor = pr[PR_SENSE] * pr[PR_P_FACTOR] * angle / tangential
            props[ps[RS_ACTING_Y]] = pr[PR_LOC_Y] + factor * lw
            props[ps[RS_ACTING_Z]] = pr[PR_LOC_Z] + factor * lv


@borrowing_jit
def _add_loads(props, pr, ps, thrust, torque, momentum, out):
    """The thruster's body loads about the CG added into ``out`` (``FGPropeller::Calculate`` then
    ``FGForce::GetBodyForces``): force ``mT (T, 0, 0)``; moment ``PQRi × mT (H, 0, 0) + mT (Q, 0, 0)`` (the
    gyroscopic moment of the angular momentum H, the torque reaction Q) plus the arm of the point of action
    (with the P-factor's shift) × the force."""
    t = PR_T
    c1, c2, c3 = pr[t], pr[t + 3], pr[t + 6]                  # mT's first column: the shaft in body axes
    pi, qi, ri = props[ps[RS_PI]], props[ps[RS_QI]], props[ps[RS_RI]]
    h1, h2, h3 = c1 * momentum, c2 * momentum, c3 * momentum
    fx, fy, fz = c1 * thrust, c2 * thrust, c3 * thrust
    x = pr[PR_X]
    y = pr[PR_Y] + (props[ps[RS_ACTING_Y]] - pr[PR_LOC_Y]) / 12.0
    z = pr[PR_Z] - (props[ps[RS_ACTING_Z]] - pr[PR_LOC_Z]) / 12.0
    out[0] += fx
    out[1] += fy
    out[2] += fz
    out[3] += (qi * h3 - ri * h2) + c1 * torque + (y * fz - z * fy)
    out[4] += (ri * h1 - pi * h3) + c2 * torque + (z * fx - x * fz)
    out[5] += (pi * h2 - qi * h1) + c3 * torque + (x * fy - y * fx)


@borrowing_jit
def propeller_calculate(props, pr, ps, tb, data, engine_power, dt, out):
    """One frame of a propeller given the engine's power (ft·lbf/s): ``FGPropeller::Calculate``, not reversed
    (:func:`propeller_calculate_reversible`)."""
    # (not reversed: a flag numba types ``bool``, not ``Literal[bool]``, so both callers share one compile)
    propeller_calculate_reversible(props, pr, ps, tb, data, engine_power, dt, out, np.bool_(False), 0.0)


@borrowing_jit
def propeller_calculate_reversible(props, pr, ps, tb, data, engine_power, dt, out, reversed_, reverse_coef):
    """One frame of a propeller given the engine's power (ft·lbf/s): ``FGPropeller::Calculate``; ``reversed_`` and
    ``reverse_coef`` are what a turboprop hands it (``SetReverse``, ``SetReverseCoef``: see :func:`_governor`).

    Copies the rpm and feather commands to their positions (FGFCS's copies, see the module), moves a
    variable-pitch propeller's blade angle (:func:`_governor`), then writes its thrust (lbf), induced velocity
    (ft/s), advance ratio, thrust coefficient, helical tip Mach,
    absorbed power (ft·lbf/s), torque (ft·lbf) and point of action into ``props``, adds its body loads about the
    CG into ``out`` (lbf, ft·lbf), then integrates its rpm once, ``RPM += 60 ExcessTorque / (2π Ixx) · dt`` (not
    below 0), and writes it with the engine's rpm (× the gear ratio).
    """
    props[ps[RS_ADVANCE_POS]] = props[ps[RS_ADVANCE_CMD]]        # (FGFCS::Run's copies: see the module)
    props[ps[RS_FEATHER_POS]] = props[ps[RS_FEATHER_CMD]]
    vel, lv, lw = _local_air_velocity(props, pr, ps)
    rho = props[ps[RS_RHO]]
    rps = props[ps[RS_RPM]] / 60.0
    d = pr[PR_DIAMETER]
    area = 0.25 * d * d * math.pi
    j, tip_mach = _advance(pr, vel, rps, props[ps[RS_SOUND]])
    pitch = pr[PR_MIN_PITCH]
    if pr[PR_MAX_PITCH] != pr[PR_MIN_PITCH]:
        pitch = _governor(props, pr, ps, dt, reversed_, reverse_coef)
        props[ps[RS_PITCH]] = pitch
    power_required = _power_required(pr, tb, data, j, pitch, tip_mach, rps, rho)
    power_available = engine_power - power_required
    if pr[PR_MAX_PITCH] == pr[PR_MIN_PITCH]:
        ct = table_value(tb, data, TB_CT, j)
    else:
        ct = table_value_2d(tb, data, TB_CT, j, pitch)
    ct *= pr[PR_CT_FACTOR]
    if tb[TB_CT_MACH + 1] > 0:
        ct *= table_value(tb, data, TB_CT_MACH, tip_mach)
    thrust = ct * rps * rps * pr[PR_D4] * rho
    induced = _induced_velocity(vel, thrust, rho, area)
    _p_factor(props, pr, ps, vel, lv, lw, induced)
    omega = rps * 2.0 * math.pi
    torque = -pr[PR_SENSE] * engine_power / max(0.01, omega)
    momentum = pr[PR_IXX] * omega * pr[PR_SENSE] * pr[PR_SENSE_MULT]
    excess_torque = power_available / omega if omega > 0.01 else power_available / 1.0
    rpm = (rps + ((excess_torque / pr[PR_IXX]) / _TWO_PI) * dt) * 60.0
    _add_loads(props, pr, ps, thrust, torque, momentum, out)
    props[ps[RS_RPM]] = 0.0 if rpm < 0.0 else rpm
    props[ps[RS_ENGINE_RPM]] = props[ps[RS_RPM]] * pr[PR_GEAR]
    props[ps[RS_THRUST]] = thrust
    props[ps[RS_INDUCED]] = induced
    props[ps[RS_ADVANCE]] = j
    props[ps[RS_CT]] = ct
    props[ps[RS_TIP_MACH]] = tip_mach
    props[ps[RS_POWER]] = power_required
    props[ps[RS_TORQUE]] = torque

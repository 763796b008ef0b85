"""JSBSim's fixed-pitch propeller (``FGPropeller``): read from its ``<propeller>`` file, computed once per frame.

A propeller turns at its own RPM, a state integrated once per frame from the
torque the engine's power leaves over, ``RPM += ExcessTorque / Ixx · dt``
(``FGPropeller::Calculate``).  At advance ratio ``J = V / (n D)`` its
``C_THRUST`` and ``C_POWER`` tables (each optionally scaled by ``ct_factor``/
``cp_factor`` and by ``CT_MACH``/``CP_MACH`` tables of the helical tip Mach
number) give the thrust ``C_T ρ n² D⁴`` and the power it absorbs
``C_P ρ n³ D⁵``; momentum theory gives the induced velocity in the disk; the
P-factor moves the thrust's point of action off the shaft; the engine's
torque reacts on the airframe and the spinning propeller is a gyroscope.

The thruster's constants are a row of :data:`ROW_FIELDS` floats (the ``PR_*``
columns), its properties a row of slots (the ``RS_*`` columns), its tables
spans of one flat array (:class:`Tables`, looked up as ``FGTable::GetValue``).

Frames: the thruster's own axes (x along the shaft, forward) are the body
axes turned by its ``<orient>`` (JSBSim's ``FGForce`` transform ``mT``); the
loads are summed in JSBSim's body frame (x forward, y right, z down) about the
CG; locations in the structural frame are in inches (x aft, y right, z up).
Units: ft, s, slug, lbf, ft·lbf/s, rpm.

Refused by name (:class:`~flightsim.errors.InputError`): variable-pitch and
constant-speed propellers (``minpitch`` ≠ ``maxpitch``, ``maxrpm``,
``constspeed``), a ``<pointing>`` thruster, unknown tables and 2-D tables.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.program import _lookup_1d

__all__ = ["PROPELLER_SLOTS", "Tables", "read_propeller", "propeller_calculate", "propeller_power_required",
           "table_value"]

#: Columns of a propeller's row: Ixx (slug·ft²), diameter D (ft), D⁴, D⁵, gear ratio (engine rpm / propeller
#: rpm), the C_T and C_P factors, the P-factor, the sense (+1 clockwise seen from behind), the angular
#: momentum's sense multiplier (−1 for a file of version > 1), the thruster's location y and z (structural
#: frame, in), its location about the CG (body frame, ft; :meth:`Propulsion.locate`), and the thruster-to-body
#: transform ``mT`` row by row (``T11 T12 T13 T21 … T33``).
(PR_IXX, PR_DIAMETER, PR_D4, PR_D5, PR_GEAR, PR_CT_FACTOR, PR_CP_FACTOR, PR_P_FACTOR, PR_SENSE, PR_SENSE_MULT,
 PR_LOC_Y, PR_LOC_Z, PR_X, PR_Y, PR_Z, PR_T) = range(16)
#: How many columns a propeller's row has.
ROW_FIELDS = PR_T + 9

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
)
(RS_RPM, RS_ENGINE_RPM, RS_THRUST, RS_INDUCED, RS_ADVANCE, RS_CT, RS_TIP_MACH, RS_POWER, RS_TORQUE, RS_ACTING_Y,
 RS_ACTING_Z, RS_U, RS_V, RS_W, RS_P, RS_Q, RS_R, RS_PI, RS_QI, RS_RI, RS_RHO, RS_SOUND) = range(len(PROPELLER_SLOTS))

#: Each engine's tables: the ``(start, rows)`` pair of each in :attr:`Tables.data` (rows 0: none), by these
#: columns: the piston's MIXTURE efficiency, the propeller's C_THRUST, C_POWER, CT_MACH, CP_MACH.
(TB_MIXTURE, TB_CT, TB_CP, TB_CT_MACH, TB_CP_MACH) = (0, 2, 4, 6, 8)
#: How many columns an engine's table row has.
TABLE_FIELDS = 10

_PROPELLER_TABLES = {"C_THRUST": TB_CT, "C_POWER": TB_CP, "CT_MACH": TB_CT_MACH, "CP_MACH": TB_CP_MACH}
_KNOWN = {"ixx", "diameter", "numblades", "gearratio", "minpitch", "maxpitch", "table", "ct_factor", "cp_factor",
          "reversepitch", "minrpm", "maxrpm", "constspeed", "documentation", "description",
          "sense", "p_factor"}      # (these two JSBSim reads from the <thruster> only: in the propeller file, ignored)
_TWO_PI = 2.0 * math.pi


class Tables:
    """One-dimensional tables (JSBSim's ``FGTable`` of one key) stored end to end in one float array.

    Attributes
    ----------
    data : list of float
        Each table's keys, then its values.
    """

    def __init__(self):
        self.data = []

    def add(self, keys, values):
        """Store a table; its ``(start, rows)``."""
        start = len(self.data)
        self.data.extend(float(k) for k in keys)
        self.data.extend(float(v) for v in values)
        return start, len(keys)

    def read(self, source, el, where):
        """Store the 1-D ``<table>`` ``el`` (its one ``<tableData>`` of ``key value`` lines, keys increasing);
        its ``(start, rows)``."""
        blocks = el.findall("tableData")
        if len(blocks) != 1:
            raise InputError(source.path, where, "a 1-D table with one <tableData> is required here")
        keys, values = [], []
        for line in "".join(blocks[0].itertext()).splitlines():
            if not line.strip():
                continue
            numbers = [source.parse_number(x, f"{where}/tableData") for x in line.split()]
            if len(numbers) != 2:
                raise InputError(source.path, f"{where}/tableData", f"a 1-D table needs two numbers a line: "
                                 f"{line.strip()!r}")
            keys.append(numbers[0])
            values.append(numbers[1])
        if not keys:
            raise InputError(source.path, f"{where}/tableData", "<tableData> is empty")
        if any(b <= a for a, b in zip(keys, keys[1:])):
            raise InputError(source.path, f"{where}/tableData", f"the row breakpoints must increase: {keys}")
        return self.add(keys, values)

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

    _refuse_variable_pitch(source, prop, here, value("minpitch", default=0.0), value("maxpitch", default=0.0))
    row = [0.0] * ROW_FIELDS
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
    for k, el in enumerate(prop.findall("table")):
        name = el.get("name", "")
        column = _PROPELLER_TABLES.get(name)
        if column is None:
            raise InputError(source.path, f"{here}/table name={name!r}", "unknown propeller table (JSBSim's are "
                             "C_THRUST, C_POWER, CT_MACH, CP_MACH)")
        table_row[column:column + 2] = tables.read(source, el, f"{here}/table name={name!r}")
    for name in ("C_THRUST", "C_POWER"):
        if table_row[_PROPELLER_TABLES[name] + 1] == 0:
            raise InputError(source.path, here, f"the {name} table is missing")
    return row, table_row, location


def _refuse_variable_pitch(source, prop, where, min_pitch, max_pitch):
    """Only ``minpitch == maxpitch`` is a fixed-pitch propeller (``FGPropeller``: ``MaxPitch == MinPitch``)."""
    if min_pitch == max_pitch:
        return
    governor = [tag for tag in ("maxrpm", "minrpm", "constspeed") if prop.find(tag) is not None]
    if governor:
        raise InputError(source.path, f"{where}/{governor[0]}", "a constant-speed propeller (governor: "
                         f"{', '.join('<' + t + '>' for t in governor)}) is not supported; fixed pitch only")
    raise InputError(source.path, f"{where}/maxpitch", f"a variable-pitch propeller (minpitch {min_pitch} ≠ maxpitch "
                     f"{max_pitch}) is not supported; fixed pitch only")


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


@borrowing_jit
def table_value(tables, data, column, key):
    """``FGTable::GetValue(key)`` of the engine's table in ``column`` of its table row ``tables``."""
    start, n = tables[column], tables[column + 1]
    return _lookup_1d(data, start, start + n, n, key)


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
def _power_required(pr, tb, data, j, tip_mach, rps, rho):
    """``FGPropeller::GetPowerRequired`` of a fixed-pitch propeller: ``C_P(J) · cp_factor · CP_MACH(M_tip) ·
    n³ D⁵ ρ`` (n at least 0.01 rev/s), ft·lbf/s."""
    cp = table_value(tb, data, TB_CP, j)
    cp *= pr[PR_CP_FACTOR]
    if tb[TB_CP_MACH + 1] > 0:
        cp *= table_value(tb, data, TB_CP_MACH, tip_mach)
    local = 0.01 if rps < 0.01 else rps
    return cp * local * local * local * pr[PR_D5] * rho


@borrowing_jit
def propeller_power_required(props, pr, ps, tb, data, rpm):
    """The power the propeller absorbs at ``rpm`` (propeller rpm) in the flight condition in ``props``,
    ft·lbf/s (``FGPropeller::GetPowerRequired``; for the steady state)."""
    vel = _local_air_velocity(props, pr, ps)[0]
    rps = rpm / 60.0
    j, tip_mach = _advance(pr, vel, rps, props[ps[RS_SOUND]])
    return _power_required(pr, tb, data, j, tip_mach, rps, props[ps[RS_RHO]])


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
    """One frame of a fixed-pitch propeller given the engine's power (ft·lbf/s): ``FGPropeller::Calculate``.

    Writes its thrust (lbf), induced velocity (ft/s), advance ratio, thrust coefficient, helical tip Mach,
    absorbed power (ft·lbf/s), torque (ft·lbf) and point of action into ``props``, adds its body loads about the
    CG into ``out`` (lbf, ft·lbf), then integrates its rpm once, ``RPM += 60 ExcessTorque / (2π Ixx) · dt`` (not
    below 0), and writes it with the engine's rpm (× the gear ratio).
    """
    vel, lv, lw = _local_air_velocity(props, pr, ps)
    rho = props[ps[RS_RHO]]
    rps = props[ps[RS_RPM]] / 60.0
    d = pr[PR_DIAMETER]
    area = 0.25 * d * d * math.pi
    j, tip_mach = _advance(pr, vel, rps, props[ps[RS_SOUND]])
    power_required = _power_required(pr, tb, data, j, tip_mach, rps, rho)
    power_available = engine_power - power_required
    ct = table_value(tb, data, TB_CT, j)
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

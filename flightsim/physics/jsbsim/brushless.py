"""JSBSim's brushless DC motor (``FGBrushLessDCMotor``) driving a propeller: read from its
``<brushless_dc_motor>`` file, computed once per frame.

Drela's three-constant motor model, as ``FGBrushLessDCMotor::Calculate``: the battery's voltage scaled by the
throttle, ``V = maxvolts · throttle``; the current ``I = (V − rpm / Kv) / R`` (``rpm`` the propeller's: the motor
turns it directly); the torque ``(I − I₀) / Kv`` (``I₀`` the no-load current) in W/rpm turned into ft·lbf
(× 60 / (2π · 1.3558), JSBSim's ``WattperRPMtoftpound``) at every current but 0 (a motor at rest with no
voltage: no torque), as the ``jsbsim`` package (1.3.3) computes it: its braking motor's power and the rpm it
leaves (the throttle cut at 8760 rpm: −0.9599 hp at −77.99 A; −5.7e-7 hp at −0.008 A; 0 at 0 A) are those,
where the sources read here (FGBrushLessDCMotor.cpp since 2022) write ``(I + I₀) / Kv`` below ``−I₀`` and 0
between ``±I₀``; the power handed to the propeller
``2π · max(rpm, 0.0001) · torque / 60`` (ft·lbf/s),
``propulsion/engine[k]/power-hp`` that over 745.7 times 1.3558 (JSBSim's ``hptowatts``, ``NMtoftpound``) and
``…/current-amperes`` the current.  The propeller (:func:`~flightsim.physics.jsbsim.propeller.propeller_calculate`)
then integrates its rpm from the power it has left over.

The motor is a row of the piston array (:data:`~flightsim.physics.jsbsim.piston.PE_KIND` :data:`BRUSHLESS`;
columns ``BL_*``) and of its slots (:data:`BRUSHLESS_SLOTS`), with its propeller's rows, as a turboprop's
(:mod:`~flightsim.physics.jsbsim.turboprop`, whose ``powered_frame`` and ``powered_steady`` call it).  Its
propeller starts at rest (FGPropeller's RPM 0: nothing starts an electric motor).  Units: V, A, Ω, rpm/V,
ft·lbf, ft·lbf/s, hp.  Refused by name (:class:`~flightsim.errors.InputError`): a missing ``<maxvolts>``,
``<velocityconstant>``, ``<coilresistance>`` or ``<noloadcurrent>`` (JSBSim's mandatory parameters), an element
FGBrushLessDCMotor does not read, a motor driving anything but a propeller.
"""

from __future__ import annotations

import math

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.piston import PE_KIND, ROW_FIELDS

__all__ = ["BRUSHLESS", "BRUSHLESS_SLOTS", "motor_power", "read_brushless"]

#: :data:`~flightsim.physics.jsbsim.piston.PE_KIND` of a brushless motor's row.
BRUSHLESS = 5.0
#: Columns of its row: the battery's voltage (V), the speed constant Kv (rpm/V), the coil's resistance (Ω), the
#: no-load current (A).
(BL_MAX_VOLTS, BL_KV, BL_RESISTANCE, BL_NO_LOAD_CURRENT) = range(4)
#: Columns of its slot row, and the property each one is (``{e}``: ``propulsion/engine[k]``).
BRUSHLESS_SLOTS = ("fcs/throttle-pos-norm[{k}]", "{e}/power-hp", "{e}/current-amperes")
(BS_THROTTLE, BS_POWER_HP, BS_CURRENT) = range(len(BRUSHLESS_SLOTS))
#: FGBrushLessDCMotor's constants: N·m per ft·lbf, W per hp, and W/rpm → ft·lbf.
NM_PER_FTLB = 1.3558
HP_TO_WATTS = 745.7
WATT_PER_RPM_TO_FTLB = 60.0 / (2.0 * math.pi * NM_PER_FTLB)
#: The elements FGBrushLessDCMotor (and FGEngine) reads, with the unit each is converted to where it has one.
_PARAMETERS = {"maxvolts": (BL_MAX_VOLTS, "VOLTS"), "velocityconstant": (BL_KV, None),
               "coilresistance": (BL_RESISTANCE, "OHMS"), "noloadcurrent": (BL_NO_LOAD_CURRENT, "AMPERES")}
_ACCEPTED = {"documentation", "description"}


def read_brushless(source, root, where):
    """A ``<brushless_dc_motor>`` (``root``) as ``FGBrushLessDCMotor``'s constructor reads it: its row
    (``BL_*`` columns, the kind in ``PE_KIND``)."""
    for child in root:
        if child.tag not in _PARAMETERS and child.tag not in _ACCEPTED:
            raise InputError(source.path, f"{where}/{child.tag}", "not read by JSBSim's FGBrushLessDCMotor (not "
                             "supported)")
    row = [0.0] * ROW_FIELDS
    for tag, (column, unit) in _PARAMETERS.items():
        el = root.find(tag)
        if el is None:
            raise InputError(source.path, f"{where}/{tag}", "a mandatory parameter is missing")
        given = (el.get("unit") or el.get("units") or "").strip().upper()
        if unit is not None and given not in ("", unit):
            raise InputError(source.path, f"{where}/{tag} unit", f"{given!r} is not {unit}")
        row[column] = source.number(el, f"{where}/{tag}")
    for tag in ("velocityconstant", "coilresistance"):
        if row[_PARAMETERS[tag][0]] <= 0.0:
            raise InputError(source.path, f"{where}/{tag}", f"must be above 0, not {row[_PARAMETERS[tag][0]]:g} "
                             "(the current divides by it)")
    row[PE_KIND] = BRUSHLESS
    return row


@borrowing_jit
def motor_power(row, throttle, rpm):
    """The motor's power handed to its propeller at ``throttle`` and propeller ``rpm`` (ft·lbf/s) and its current
    (A), as ``FGBrushLessDCMotor::Calculate``."""
    current = (row[BL_MAX_VOLTS] * throttle - rpm / row[BL_KV]) / row[BL_RESISTANCE]
    torque = 0.0
    if current != 0.0:          # (at rest with no voltage: no torque, as the package's motor)
        torque = (current - row[BL_NO_LOAD_CURRENT]) / row[BL_KV] * WATT_PER_RPM_TO_FTLB
    return ((2.0 * math.pi) * max(rpm, 0.0001) * torque) / 60.0, current


@borrowing_jit
def motor_outputs(props, row, s, power, current):
    """``…/power-hp`` and ``…/current-amperes`` written (the power in ft·lbf/s)."""
    props[s[BS_POWER_HP]] = power / HP_TO_WATTS * NM_PER_FTLB
    props[s[BS_CURRENT]] = current

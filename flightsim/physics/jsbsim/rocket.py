"""JSBSim's liquid-fuelled rocket (``FGRocket``) with its nozzle (``FGNozzle``), and its electric engine
(``FGElectric``) with a direct thruster.

Rocket, as ``FGRocket::Calculate`` and ``FGPropulsion::ConsumeFuel`` each frame:

* the thrust in vacuum is ``isp × the propellant flow``, where the flow is what
  the *last* frame burned over this frame's step, ``(fuel + oxidizer
  expended) / dt``; a throttle below ``<minthrottle>`` or a starved engine
  gives none (``PctPower`` 0, flame-out);
* then the burn: ``PctPower`` is the throttle position (``<maxthrottle>`` is
  read but, as in JSBSim, does not scale it), the fuel flow ``PropFlowMax /
  (1 + MxR) × PctPower`` and the oxidizer flow ``PropFlowMax MxR / (1 + MxR)
  × PctPower`` (lb/s), ``PropFlowMax`` the file's ``<slfuelflowmax>`` +
  ``<sloxiflowmax>`` (MxR their ratio) or its ``<propflowmax>`` (and
  ``<mixtureratio>``); they are the next frame's propellant;
* the nozzle's thrust is ``max(0, vacuum thrust − P_ambient × area)``
  (``FGNozzle::Calculate``: ``atmosphere/P-psf``, the file's ``<area>``, ft²);
  a ``direct`` thruster takes the vacuum thrust as it is.

**Fuel burn.**  A flight burns the propellant (:mod:`~flightsim.physics.jsbsim.fuel`: the tanks drain
after each frame, and a rocket whose tanks run dry is starved from the next, its row's ``R_STARVED``; with
``propulsion/fuel_freeze`` they keep their contents, as below).  JSBSim's liquid rocket has no thrust at all with
``propulsion/fuel_freeze`` = 1, as the other engines' oracles fly: its thrust
is made of the propellant ``ConsumeFuel`` drained, and a frozen
``ConsumeFuel`` drains none (nor does it during JSBSim's trim, so a rocket
gives no thrust in ``FGTrim``; measured on x24b: 0 lbf frozen, 35 851 lbf at
throttle 0.8 and 30 000 ft burning).  So flightsim models the rocket as JSBSim
computes it *with the burn running* — the flows above and the thrust they make
— but drains nothing: the oracle (:func:`~flightsim.verify.oracle.
replay_propulsion`) flies JSBSim with the burn on and puts every tank's
contents back before each frame, so both have the mass and CG of the file's
tanks.  The engine is starved, as ``ConsumeFuel`` decides, when none of the
tanks it feeds from (``<feed>``, priority > 0) holds fuel above its unusable
amount, or it feeds from oxidizer tanks and none holds oxidizer: as loaded that is decided from the file
(X15's oxidizer tank is empty: its rocket never burns, in JSBSim too), then by the burn each frame.

The state is the last frame's flows (``propulsion/engine[k]/fuel-flow-rate-pps``
and ``…/oxi-flow-rate-pps``, JSBSim's names; a frame burns ``flow × dt``,
JSBSim's ``FuelExpended``): 0 at load, as JSBSim's ``run_ic``, which burns over
a zero step, leaves what the first frame reads, so the rocket thrusts from its
second frame.  ``…/isp`` and ``…/mixture-ratio`` are properties as in JSBSim
(settable; the file's values by default), ``…/vacuum-thrust_lbs`` and
``…/thrust-lbs`` outputs.  The steady state (trim) has the flows at the
throttle's.

Electric, as ``FGElectric::Calculate``: the power is ``<power>`` (W, 745.7 by
default) × throttle, ``…/power-hp`` = that / 745.7; the thruster is handed
``hp × 550`` ft·lbf/s (not below 0 while its rpm is at most 0.1: a direct
thruster's always is, so a negative throttle gives none), which a ``direct``
thruster takes as its thrust, in lbf (``FGThruster::Calculate``).  No state:
it follows the throttle in the same frame.  An electric engine driving a
rotor is :mod:`~flightsim.physics.jsbsim.rotor`'s; one driving a propeller hands
it that power (:func:`electric_frame`, the propeller's frame
:func:`~flightsim.physics.jsbsim.turboprop.powered_frame`).

The engine's own ``<function>`` elements are compiled by
:class:`~flightsim.physics.jsbsim.propulsion.Propulsion` (pre functions before the engines' frames, post
functions after them).

Solid rocket (a ``<thrust_table>``), as ``FGRocket::Calculate`` and ``ConsumeFuel`` each frame, the burn
running and nothing drained as for the liquid one:

* the propellant burnt (``…/propellant-expended-lbs``, flightsim's name for FGRocket's
  ``TotalPropellantExpended``) grows by what the last frame burned (``…/fuel-expended-lbs``, its
  ``FuelExpended``: the last flow × that frame's step);
* once the throttle is exactly 1 — or while it burns (``…/burn-time-sec``, its ``BurnTime``, above 0) — and
  unless starved, the vacuum thrust is the table's value at the propellant burnt (``…/thrust-table-lbs``: the
  engines' program looks it up before their frames, :class:`~flightsim.physics.jsbsim.propulsion.Propulsion`)
  × (1 + ``…/thrust-variation_pct``) × (1 + ``…/total-isp-variation_pct``) (the file's ``<variation>``),
  rising as ``sin(π/2 · t/buildup)`` over the ``<builduptime>``; the burn time then grows by the step;
  otherwise none;
* the nozzle's thrust as the liquid rocket's; the flow the thrust over the ``<isp>`` / (1 + the Isp variation)
  (``CalcFuelNeed``), unless the propellant is out.  The motor is starved, as ``ConsumeFuel`` finds its tanks
  drained, once the propellant burnt reaches the usable contents of the fuel tanks it feeds from (each tank fed
  by it alone, as J246's boosters'); a starved frame keeps the last flow (``ConsumeFuel`` returns before
  ``CalcFuelNeed``).

The steady state (trim) leaves a solid rocket as it is (``FGRocket::Calculate`` returns while JSBSim's
integration is suspended): its loads those of its last thrust.

Not modelled, and refused by name: an ``<isp>`` function, a nozzle or
direct thruster's reverser (its angle is taken as 0, as for the turbines).

The thrust acts along the thruster's orientation (pitch, yaw: ``propulsion/engine[k]/pitch-angle-rad`` and
``…/yaw-angle-rad``, the file's ``<orient>`` by default, which flight controls may move) at its location
about the CG: JSBSim's body frame (x forward, y right, z down); lbf, lbf·ft,
lb/s, ft², psf.
"""

from __future__ import annotations

import math

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit

__all__ = ["ROCKET_STATE", "SOLID_STATE", "ELECTRIC_STATE", "propellant", "read_rocket", "solid", "read_electric",
           "rocket_frame", "rocket_steady", "electric_frame", "starved"]

#: Columns of a rocket's row (in :attr:`~flightsim.physics.jsbsim.propulsion.Propulsion.engines`): its minimum
#: throttle, its propellant flow at full throttle (lb/s), its nozzle's exit area (ft², 0 for a direct thruster),
#: whether it is starved (1) — then the thruster's location about the CG (ft) and orientation (rad), the
#: columns ``propulsion.E_X`` … ``E_YAW``.
R_MIN_THROTTLE, R_FLOW_MAX, R_AREA, R_STARVED = 0, 1, 2, 3
#: A solid rocket's: 1 (a liquid one's 0), its thrust's build-up time (s), its Isp (s), the usable propellant of the
#: tanks it feeds from (lb).
R_SOLID, R_BUILDUP, R_ISP, R_PROPELLANT = 4, 5, 6, 7
#: An electric engine's: its power at full throttle (W); and, at every row's ``propulsion.E_PROPELLER``, 1 where it
#: drives a propeller.
L_POWER, L_PROPELLER = 0, 21
#: The thruster's columns in every row: location (ft), pitch and yaw (rad); the row's kind column.
T_X, T_Y, T_Z, T_PITCH, T_YAW = 10, 11, 12, 13, 14
#: Slot columns shared with a turbine's: its throttle position and its thrust (``propulsion.S_THROTTLE``,
#: ``S_THRUST``).
K_THROTTLE, K_THRUST = 0, 10
#: A rocket's other slot columns: its last flows of fuel and oxidizer (lb/s), its vacuum thrust, Isp, mixture
#: ratio, and the ambient pressure (psf) its nozzle reads; an electric engine's: its power (hp).
K_FUEL_FLOW, K_OXI_FLOW, K_VACUUM, K_ISP, K_MXR, K_PRESSURE = 1, 2, 3, 4, 5, 6
K_HP = 1
#: A solid rocket's: its propellant burnt (lb), the thrust and Isp variations, its burn time (s), its thrust
#: table's value at the propellant burnt (lbf) and what the last frame burned (lb).
K_EXPENDED, K_VARIATION, K_ISP_VARIATION, K_BURN_TIME, K_TABLE, K_FUEL_EXPENDED = 2, 4, 5, 7, 8, 9
#: Every rocket's and electric engine's thruster angles (rad; FGThruster's ``pitch-angle-rad``, ``yaw-angle-rad``).
K_PITCH, K_YAW = 11, 12
#: Their properties (``{e}``: ``propulsion/engine[k]``), JSBSim's names.
ANGLES = ("{e}/pitch-angle-rad", "{e}/yaw-angle-rad")
#: A rocket's properties in slot columns 1 … 6 (``{e}``: ``propulsion/engine[k]``), JSBSim's names.
ROCKET_STATE = ("{e}/fuel-flow-rate-pps", "{e}/oxi-flow-rate-pps", "{e}/vacuum-thrust_lbs", "{e}/isp",
                "{e}/mixture-ratio", "atmosphere/P-psf")
#: A solid rocket's, in slot columns 1 … 9: JSBSim's names, and flightsim's for FGRocket's unbound
#: ``TotalPropellantExpended``, ``BurnTime``, ``FuelExpended`` and its table's value.
SOLID_STATE = ("{e}/fuel-flow-rate-pps", "{e}/propellant-expended-lbs", "{e}/vacuum-thrust_lbs",
               "{e}/thrust-variation_pct", "{e}/total-isp-variation_pct", "atmosphere/P-psf", "{e}/burn-time-sec",
               "{e}/thrust-table-lbs", "{e}/fuel-expended-lbs")
#: An electric engine's, in slot column 1.
ELECTRIC_STATE = ("{e}/power-hp",)

#: JSBSim's hp → W (``FGElectric``'s ``hptowatts``) and hp → ft·lbf/s (``FGJSBBase::hptoftlbssec``).
HP_TO_WATTS, HP_TO_FTLBS = 745.7, 550.0
#: The units a flow or a power may be given in, to lb/s and W (JSBSim's conversion table).
_FLOW_UNITS = {"LBS/SEC": 1.0, "N/SEC": 0.224808943}
_POWER_UNITS = {"WATTS": 1.0, "HP": 1.0 / 0.001341022}

_ROCKET_KNOWN = {"isp", "maxthrottle", "minthrottle", "slfuelflowmax", "sloxiflowmax", "propflowmax",
                 "mixtureratio", "builduptime", "documentation", "description", "thrust_table", "variation"}
_ELECTRIC_KNOWN = {"power", "documentation", "description"}


def _value(source, root, tag, where, units, default=None):
    """The number of ``root``'s ``<tag>`` in the first unit of ``units`` (a ``{unit: factor}``), or ``default``."""
    el = root.find(tag)
    if el is None:
        if default is None:
            raise InputError(source.path, f"{where}/{tag}", "required element is missing")
        return default
    value = source.number(el, f"{where}/{tag}")
    unit = el.get("unit")
    if unit is None or units is None:
        return value
    if unit.upper() not in units:
        raise InputError(source.path, f"{where}/{tag}", f"unit {unit!r} cannot be converted to "
                         f"{next(iter(units))}")
    return value * units[unit.upper()]


def _check(source, root, where, known, what):
    """Refuse what ``root`` has that is not modelled: elements JSBSim does not read."""
    for child in root:
        if child.tag == "function":         # (compiled by Propulsion with the engines' functions)
            continue
        if child.tag not in known:
            raise InputError(source.path, f"{where}/{child.tag}", f"not supported in {what}")


def read_rocket(source, root, nozzle, where, row):
    """Fill ``row`` (``R_*``: the thruster's columns left as they are) for a ``<rocket_engine>``; return its
    ``{property: value}`` defaults but for the engine's prefix (a liquid rocket's ``isp``, ``mixture-ratio``; a
    solid one's ``thrust-variation_pct``, ``total-isp-variation_pct``), as ``FGRocket``'s constructor reads it;
    ``nozzle`` the thruster's root element (``<nozzle>`` or ``<direct>``).  A solid rocket's thrust table is
    compiled by the caller (:func:`solid`)."""
    _check(source, root, where, _ROCKET_KNOWN, "a rocket engine")
    isp = root.find("isp")
    if isp is None:
        raise InputError(source.path, f"{where}/isp", "required element is missing (a rocket's specific impulse)")
    if isp.find("function") is not None:
        raise InputError(source.path, f"{where}/isp/function", "an Isp function is not supported")
    row[R_MIN_THROTTLE] = _value(source, root, "minthrottle", where, None, 0.0)
    _value(source, root, "maxthrottle", where, None, 1.0)       # (read, unused: FGRocket's PctPower is the throttle)
    mxr = 0.0
    if root.find("slfuelflowmax") is not None:
        fuel = _value(source, root, "slfuelflowmax", where, _FLOW_UNITS)
        oxi = _value(source, root, "sloxiflowmax", where, _FLOW_UNITS, 0.0)
        row[R_FLOW_MAX] = oxi + fuel
        mxr = oxi / fuel
    elif root.find("propflowmax") is not None:
        row[R_FLOW_MAX] = _value(source, root, "propflowmax", where, _FLOW_UNITS)
        mxr = _value(source, root, "mixtureratio", where, None, 0.0)
    if nozzle.tag == "nozzle":
        area = nozzle.find("area")
        if area is None:
            raise InputError(source.path, f"{where}/thruster/area", "required element is missing (the nozzle's exit "
                             "area)")
        row[R_AREA] = source.number(area, f"{where}/thruster/area", "FT2")
        for child in nozzle:
            if child.tag not in ("area", "pe", "documentation", "description"):
                raise InputError(source.path, f"{where}/thruster/{child.tag}", "not supported in a nozzle")
    elif nozzle.tag != "direct":
        raise InputError(source.path, f"{where}/thruster", f"a rocket engine drives a <nozzle> or a <direct> "
                         f"thruster, not a <{nozzle.tag}>")
    if solid(root):
        row[R_SOLID], row[R_ISP] = 1.0, source.number(isp, f"{where}/isp")
        row[R_BUILDUP] = _value(source, root, "builduptime", where, None, 0.0)
        variation = root.find("variation")
        values = {"thrust": 0.0, "total_isp": 0.0}
        for tag in values:
            if variation is not None and variation.find(tag) is not None:
                values[tag] = source.number(variation.find(tag), f"{where}/variation/{tag}")
        return {"thrust-variation_pct": values["thrust"], "total-isp-variation_pct": values["total_isp"]}
    return {"isp": source.number(isp, f"{where}/isp"), "mixture-ratio": mxr}


def solid(root):
    """Whether a ``<rocket_engine>`` is a solid rocket: it has a ``<thrust_table>`` (``FGRocket``)."""
    return root.find("thrust_table") is not None


def propellant(source, engine, where):
    """The usable propellant (lb) of the fuel tanks engine element ``engine`` feeds from (``<feed>``, priority >
    0): each one's contents less its unusable amount, as ``ConsumeFuel`` finds them full."""
    from flightsim.physics.jsbsim.mass import tank_properties
    from flightsim.physics.jsbsim.program import canonical

    tanks = source.section("propulsion").findall("tank")
    props = tank_properties(source)
    total = 0.0
    for feed in engine.findall("feed"):
        k = int(source.number(feed, f"{where}/feed"))
        if not 0 <= k < len(tanks) or (tanks[k].get("type") or "").upper() != "FUEL":
            continue
        priority = tanks[k].find("priority")
        if priority is not None and int(source.number(priority, f"propulsion/tank[{k}]/priority")) == 0:
            continue
        base = canonical(f"propulsion/tank[{k}]")
        unusable = tanks[k].find("unusable-volume")
        unusable = 0.0 if unusable is None else \
            source.number(unusable, f"propulsion/tank[{k}]/unusable-volume") * props[f"{base}/density-lbs_per_gal"]
        total += max(props[f"{base}/contents-lbs"] - unusable, 0.0)
    return total


def read_electric(source, root, thruster, where, row):
    """Fill ``row`` (``L_POWER``: the thruster's columns left as they are) for an ``<electric_engine>``, as
    ``FGElectric``'s constructor reads it; ``thruster`` the thruster's root element (only ``<direct>``)."""
    _check(source, root, where, _ELECTRIC_KNOWN, "an electric engine")
    if thruster.tag not in ("direct", "propeller"):
        raise InputError(source.path, f"{where}/thruster", f"an electric engine driving a <{thruster.tag}> is not "
                         "supported yet (a direct thruster, a propeller or a rotor only)")
    row[L_POWER] = _value(source, root, "power", where, _POWER_UNITS, HP_TO_WATTS)


def starved(source, engine, where, rocket):
    """Whether JSBSim's ``FGPropulsion::ConsumeFuel`` finds engine element ``engine`` starved with the tanks as the
    file fills them: no fuel tank it feeds from (``<feed>``, priority > 0) holds more than its unusable fuel, or —
    a ``rocket`` — it feeds from oxidizer tanks and none holds more than that."""
    from flightsim.physics.jsbsim.mass import tank_properties
    from flightsim.physics.jsbsim.program import canonical

    block = source.section("propulsion", required=False)
    tanks = [] if block is None else block.findall("tank")
    props = tank_properties(source)
    fuel = oxidizer = has_oxidizer = False
    for feed in engine.findall("feed"):
        k = int(source.number(feed, f"{where}/feed"))
        if not 0 <= k < len(tanks):
            raise InputError(source.path, f"{where}/feed", f"no tank {k} (the file has {len(tanks)})")
        tank = tanks[k]
        priority = tank.find("priority")
        if priority is not None and int(source.number(priority, f"propulsion/tank[{k}]/priority")) == 0:
            continue
        base = canonical(f"propulsion/tank[{k}]")
        contents = props[f"{base}/contents-lbs"]
        unusable = tank.find("unusable-volume")
        unusable = 0.0 if unusable is None else \
            source.number(unusable, f"propulsion/tank[{k}]/unusable-volume") * props[f"{base}/density-lbs_per_gal"]
        kind = (tank.get("type") or "").upper()
        if kind == "FUEL":
            fuel = fuel or contents > unusable
        elif kind == "OXIDIZER" and rocket:
            has_oxidizer = True
            oxidizer = oxidizer or contents > unusable
    return (not fuel) or (has_oxidizer and not oxidizer)


@borrowing_jit
def thruster_loads(row, thrust, out):
    """A thruster's ``thrust`` (lbf) along its orientation at its location (``T_*`` of ``row``): its body force
    and moment about the CG added into ``out`` (``FGForce::GetBodyForces``)."""
    turned_loads(row, thrust, row[T_PITCH], row[T_YAW], out)


@borrowing_jit
def _gimballed_loads(props, row, s, thrust, out):
    """:func:`thruster_loads` at the thruster's angles now: ``propulsion/engine[k]/pitch-angle-rad`` and
    ``…/yaw-angle-rad`` (FGThruster's, which the flight controls may move: a launcher's thrust vector control;
    the file's ``<orient>`` by default)."""
    turned_loads(row, thrust, props[s[K_PITCH]], props[s[K_YAW]], out)


@borrowing_jit
def turned_loads(row, thrust, pitch, yaw, out):
    """A thruster's ``thrust`` (lbf) turned by ``pitch`` and ``yaw`` (rad) at its location (``T_X`` … of ``row``):
    its body force and moment about the CG added into ``out``."""
    cp, sp, cy, sy = math.cos(pitch), math.sin(pitch), math.cos(yaw), math.sin(yaw)
    fx, fy, fz = cp * cy * thrust, cp * sy * thrust, -sp * thrust
    x, y, z = row[T_X], row[T_Y], row[T_Z]
    out[0] += fx
    out[1] += fy
    out[2] += fz
    out[3] += y * fz - z * fy
    out[4] += z * fx - x * fz
    out[5] += x * fy - y * fx


@borrowing_jit
def _rocket_thrust(props, row, s, flow):
    """The rocket's vacuum and nozzle thrust from a propellant ``flow`` (lb/s), into ``props``; the thrust."""
    vacuum = props[s[K_ISP]] * flow
    thrust = max(0.0, vacuum - props[s[K_PRESSURE]] * row[R_AREA])
    props[s[K_VACUUM]] = vacuum
    props[s[K_THRUST]] = thrust
    return thrust


@borrowing_jit
def _burn(props, row, s):
    """``ConsumeFuel``'s flows for the throttle (``CalcFuelNeed``, ``CalcOxidizerNeed``) into ``props``, unless
    starved (then they stay)."""
    if row[R_STARVED] != 0.0:
        return
    throttle = props[s[K_THROTTLE]]
    pct = 0.0 if throttle < row[R_MIN_THROTTLE] else throttle
    mxr = props[s[K_MXR]]
    props[s[K_FUEL_FLOW]] = row[R_FLOW_MAX] / (1 + mxr) * pct
    props[s[K_OXI_FLOW]] = row[R_FLOW_MAX] * mxr / (1 + mxr) * pct


@borrowing_jit
def _solid_frame(props, row, s, dt, out):
    """One frame (``dt`` s) of a solid rocket (``FGRocket::Calculate``, then ``ConsumeFuel``): its thrust from
    its table at the propellant burnt (looked up into ``K_TABLE`` before the frame), the flow it burns, its
    nozzle's loads added into ``out``."""
    starved = row[R_STARVED] != 0.0 or row[R_PROPELLANT] - props[s[K_EXPENDED]] <= 0.0
    total = props[s[K_EXPENDED]] + props[s[K_FUEL_EXPENDED]]
    props[s[K_EXPENDED]] = total
    burn = props[s[K_BURN_TIME]]
    vacuum = 0.0
    if (props[s[K_THROTTLE]] == 1.0 or burn > 0.0) and not starved:
        vacuum = props[s[K_TABLE]] * (props[s[K_VARIATION]] + 1) * (props[s[K_ISP_VARIATION]] + 1)
        if burn <= row[R_BUILDUP] and row[R_BUILDUP] > 0.0:
            vacuum *= math.sin((burn / row[R_BUILDUP]) * math.pi / 2.0)
        props[s[K_BURN_TIME]] = burn + dt
    thrust = max(0.0, vacuum - props[s[K_PRESSURE]] * row[R_AREA])
    props[s[K_VACUUM]] = vacuum
    props[s[K_THRUST]] = thrust
    if not (row[R_STARVED] != 0.0 or row[R_PROPELLANT] - total <= 0.0):
        flow = vacuum / row[R_ISP]
        flow /= (1 + props[s[K_ISP_VARIATION]])
        props[s[K_FUEL_FLOW]] = flow
        props[s[K_FUEL_EXPENDED]] = flow * dt
    _gimballed_loads(props, row, s, thrust, out)


@borrowing_jit
def rocket_frame(props, row, s, dt, out):
    """One frame (``dt`` s) of a liquid rocket (``FGRocket::Calculate``, then ``ConsumeFuel``'s flows): its
    thrust from the last frame's propellant, its nozzle's loads added into ``out``; a solid one's
    (:func:`_solid_frame`)."""
    if row[R_SOLID] != 0.0:
        _solid_frame(props, row, s, dt, out)
        return
    throttle = props[s[K_THROTTLE]]
    if throttle < row[R_MIN_THROTTLE] or row[R_STARVED] != 0.0:
        thrust = _rocket_thrust(props, row, s, 0.0)
    else:
        thrust = _rocket_thrust(props, row, s, (props[s[K_FUEL_FLOW]] * dt + props[s[K_OXI_FLOW]] * dt) / dt)
    _burn(props, row, s)
    _gimballed_loads(props, row, s, thrust, out)


@borrowing_entry_jit         # (called from Python only: engines_steady)
def rocket_steady(props, row, s, out):
    """A liquid rocket at its steady state for its throttle: the flows at the throttle's and the thrust they make
    (the fixed point of :func:`rocket_frame`); its loads added into ``out``.  A solid rocket stays as it is (JSBSim's
    rocket does nothing while its integration is suspended), its loads those of its last thrust."""
    if row[R_SOLID] != 0.0:
        _gimballed_loads(props, row, s, props[s[K_THRUST]], out)
        return
    _burn(props, row, s)
    throttle = props[s[K_THROTTLE]]
    flow = 0.0 if throttle < row[R_MIN_THROTTLE] or row[R_STARVED] != 0.0 else \
        props[s[K_FUEL_FLOW]] + props[s[K_OXI_FLOW]]
    _gimballed_loads(props, row, s, _rocket_thrust(props, row, s, flow), out)


@borrowing_jit
def electric_frame(props, row, s, out):
    """One frame of an electric engine (``FGElectric::Calculate``): its power and a direct thruster's thrust into
    ``props``, its loads added into ``out``; one that drives a propeller (:data:`L_PROPELLER`) puts its power (ft·lbf/s)
    where the thrust would go, for its propeller's frame (:func:`~flightsim.physics.jsbsim.turboprop.
    powered_frame`), and has no loads of its own."""
    hp = row[L_POWER] * props[s[K_THROTTLE]] / HP_TO_WATTS
    props[s[K_HP]] = hp
    if row[L_PROPELLER] != 0.0:
        props[s[K_THRUST]] = hp * HP_TO_FTLBS       # (FGElectric: at rest, rpm ≤ 0.1, never below 0; ≥ 0 here)
        return
    thrust = max(hp * HP_TO_FTLBS, 0.0)             # (the thruster's rpm, a direct one's, is 0)
    props[s[K_THRUST]] = thrust
    _gimballed_loads(props, row, s, thrust, out)

"""An aircraft's ``<buoyant_forces>``: gas cells and their ballonets (JSBSim's ``FGBuoyantForces``,
``FGGasCell`` and ``FGBallonet``).

Each ``<gas_cell type="HYDROGEN|HELIUM|AIR">`` is an ellipsoid (``x_radius``, ``y_radius``, ``z_radius``) or a
cylinder along x (``x_width``, ``y_radius``, ``z_radius``) of gas at its ``<location>`` (structural frame, in),
its contents in mol, its temperature (°R) and pressure (lbf/ft²) kept from frame to frame; a ``<ballonet>`` is a
bag of air inside it.  Once a frame, as ``FGGasCell::Calculate`` (after the engines and the external forces):

- the gas's temperature follows its ``<heat>`` functions (lbf·ft/s, summed) less the work of its expansion and
  the heat its ballonets took in the last frame, ``ΔT = (dU dt − P dV_ideal − Q_ballonets) / (C_v n R)``
  (without heat functions the gas is at the air's temperature);
- its pressure is the ideal gas's in the room its ballonets leave, at least the air's, at most the air's plus the
  ``max_overpressure``; an open valve (``buoyant_forces/gas-cell[i]/valve_open``, which the flight controls write,
  × ``valve_coefficient``, ft⁴·s/slug) lets out ``valve_open × coefficient × ΔP × dt`` ft³, ΔP the pressure above
  the air's at the cell's top (the gas column's height, the cell's height times its fullness);
- each ballonet then: its temperature from its own heat functions, its pressure the ideal one, at least the
  cell's; its ``<blower_input>`` function (ft³/s) blows air in; its valve (or an overpressure) lets air out, never
  below 1 mol;
- the contents above the overpressure are cut; the volume is the gas's plus the ballonets', and the cell lifts
  ``V ρ g`` (the air's density, the gravitation's magnitude: ``FGInertial::GetGravity``) straight up, in the
  local frame (North-East-down), turned into the body axes by the attitude (``FGForce``'s ``tLocalBody``) and
  acting at the cell's location about the CG: ``r × F``.

The gas's and the ballonets' air's mass, their moment (lbf·in) and their inertia about the CG (an ellipsoid's
``m (b² + c²)/5``…, a cylinder's ``m b c/2`` and ``m b c/4 + m l²/12``, moved by the parallel axes) join the
mass balance of the next frame (``FGMassBalance``'s ``GasMass``, ``GasMoment``, ``GasInertia``:
:mod:`flightsim.physics.jsbsim.fuel`).  Before the first frame the mass is the gas's as loaded, its moment and
inertia none (JSBSim's cells compute them in their first frame only).

The cells' state is properties (``buoyant_forces/gas-cell[i]/temp-R``, ``pressure-psf``, ``volume-ft3``,
``buoyancy-lbs``, ``contents-mol``, ``valve_open``, ``max_volume-ft3``, and a ballonet's under
``…/ballonet[j]/``), read and written as JSBSim's, so that the flight controls and the scripts see them; the
loads are ``forces/fb[xyz]-buoyancy-lbs`` and ``moments/[lmn]-buoyancy-lbsft`` (JSBSim's body axes).  As loaded
the gas is at the standard sea-level air's temperature and pressure (the atmosphere JSBSim's cells are built
in).  The cells' heat functions are evaluated with the engines' program, before the cells' frame; the frame runs in
two halves, the cells' temperature, pressure and valve (:func:`cells_first`) before the engines' post functions,
the ballonets and the rest (:func:`buoyant_frame`) after them, and the ballonets' heat and blower functions are
evaluated with the post functions between: a ballonet's functions read its cell's state of this frame, as JSBSim's.

Units: ft, slug, lbf, °R, mol (JSBSim's ``R`` = 3.4071 lbf·ft/(mol·°R)); locations structural, in.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit
from flightsim.physics.jsbsim.atmosphere import SEA_LEVEL_PRESSURE
from flightsim.physics.jsbsim.mass import INCH_TO_FT
from flightsim.physics.jsbsim.program import OP_SUM, canonical
from flightsim.physics.planet import P_A, P_GM, P_J2, P_KEY, gravitation

__all__ = ["BuoyantForces", "GAS_FIELDS", "GAS_OUTPUTS", "LOAD_OUTPUTS", "buoyant_frame", "cells_first",
           "run_ic_frame"]

#: JSBSim's gas constant, lbf·ft/(mol·°R), and the gases' molar masses, slug/mol (``FGGasCell``).
R_GAS = 3.4071
MOLAR_MASS = {"HYDROGEN": 0.00013841, "HELIUM": 0.00027409, "AIR": 0.0019186}
#: The gases' heat capacity at constant volume over R (``Cv_gas``; an unknown gas is air).
CV = {"HYDROGEN": 2.5, "HELIUM": 1.5, "AIR": 2.5}
#: The standard sea-level temperature, °R: the gas's as loaded.
SEA_LEVEL_TEMPERATURE = 518.67
#: JSBSim's slug ↔ pound.
SLUG_TO_LB = 32.174049
#: Shapes: an ellipsoid, a cylinder along x, another (a sum of parts; no inertia).
ELLIPSOID, CYLINDER, OTHER = 1.0, 2.0, 0.0

#: Columns of a row (a cell, then its ballonets): the kind (0 a cell, 1 a ballonet), a cell's number of
#: ballonets, the molar mass (slug/mol), C_v/R, the location (structural, in), the shape (:data:`ELLIPSOID` …),
#: the x, y, z radii and the x width (ft), the height (2 z_radius + z_width, ft), the largest volume (ft³), the
#: largest overpressure (lbf/ft²), the valve coefficient (ft⁴·s/slug); then the slots of the temperature,
#: pressure, volume, buoyancy (−1: a ballonet's), contents, valve opening, the last frame's ideal volume change,
#: the heat functions' sum (−1: none), the blower's flow (−1: none) and a ballonet's heat flow of the last frame
#: (−1: a cell's); then a cell's temperature and pressure before this frame, kept between the frame's two halves
#: (−1: a ballonet's).
(G_KIND, G_COUNT, G_MOLAR, G_CV, G_X, G_Y, G_Z, G_SHAPE, G_RX, G_RY, G_RZ, G_XW, G_HEIGHT, G_MAX_VOLUME,
 G_OVERPRESSURE, G_VALVE, G_TEMP, G_PRESSURE, G_VOLUME, G_BUOYANCY, G_CONTENTS, G_VALVE_OPEN, G_DVOLUME, G_HEAT,
 G_BLOWER, G_HEAT_FLOW, G_OLD_TEMP, G_OLD_PRESSURE) = range(28)
GAS_FIELDS = 28
#: The gas's mass (slug), its moment (lbf·in, structural) and its inertia about the CG (slug·ft², JSBSim's body
#: axes: xx, xy, xz, yy, yz, zz), written each frame for the next mass balance (flightsim's own properties).
GAS_OUTPUTS = ("buoyant_forces/flightsim-gas-mass-slugs", "buoyant_forces/flightsim-gas-moment-x-lbsin",
               "buoyant_forces/flightsim-gas-moment-y-lbsin", "buoyant_forces/flightsim-gas-moment-z-lbsin",
               "buoyant_forces/flightsim-gas-ixx", "buoyant_forces/flightsim-gas-ixy",
               "buoyant_forces/flightsim-gas-ixz", "buoyant_forces/flightsim-gas-iyy",
               "buoyant_forces/flightsim-gas-iyz", "buoyant_forces/flightsim-gas-izz")
#: ``FGBuoyantForces::bind``: the loads (JSBSim's body axes), then the CG the arms are about (FGMassBalance's).
LOAD_OUTPUTS = ("forces/fbx-buoyancy-lbs", "forces/fby-buoyancy-lbs", "forces/fbz-buoyancy-lbs",
                "moments/l-buoyancy-lbsft", "moments/m-buoyancy-lbsft", "moments/n-buoyancy-lbsft",
                "inertia/cg-x-in", "inertia/cg-y-in", "inertia/cg-z-in")
#: Each cell's and ballonet's published properties (after its base name), in the rows' slot order.
STATE_NAMES = ("temp-R", "pressure-psf", "volume-ft3", "buoyancy-lbs", "contents-mol", "valve_open")


def _shape(source, el, where):
    """``(shape, x radius, y radius, z radius, x width, height, largest volume)`` of a cell or ballonet (ft, ft³),
    as ``FGGasCell``'s constructor reads them.

    Raises
    ------
    flightsim.errors.InputError
        No radius or width along one of the axes: the file, the element and why.
    """
    dims = {}
    for tag in ("x_radius", "y_radius", "z_radius", "x_width", "y_width", "z_width"):
        dims[tag] = source.child_number(el, tag, "FT", where, 0.0)
    for axis in "xyz":
        if el.find(f"{axis}_radius") is None and el.find(f"{axis}_width") is None:
            raise InputError(source.path, where, f"the shape needs {axis}_radius or {axis}_width")
    a, b, c = dims["x_radius"], dims["y_radius"], dims["z_radius"]
    xw, yw, zw = dims["x_width"], dims["y_width"], dims["z_width"]
    if a != 0.0 and b != 0.0 and c != 0.0 and xw == 0.0 and yw == 0.0 and zw == 0.0:
        shape, volume = ELLIPSOID, 4.0 * math.pi * a * b * c / 3.0
    elif a == 0.0 and b != 0.0 and c != 0.0 and xw != 0.0 and yw == 0.0 and zw == 0.0:
        shape, volume = CYLINDER, math.pi * b * c * xw
    else:                   # (JSBSim warns "unsupported shape" and sums the parts)
        shape = OTHER
        volume = (4.0 * math.pi * a * b * c / 3.0 + math.pi * b * c * xw + math.pi * a * c * yw
                  + math.pi * a * b * zw + 2.0 * a * yw * zw + 2.0 * b * xw * zw + 2.0 * c * xw * yw + xw * yw * zw)
    return shape, a, b, c, xw, 2.0 * c + zw, volume


def _filled(volume, max_volume, overpressure, temperature, pressure):
    """``(contents mol, pressure, volume)`` as loaded (``FGGasCell``'s and ``FGBallonet``'s constructors):
    ``volume`` (the fullness's, 0 none given) at ``temperature`` and ``pressure``, held by the overpressure."""
    if volume != 0.0:
        contents = pressure * volume / (R_GAS * temperature)
        ideal = contents * R_GAS * temperature / max_volume
        if ideal > pressure + overpressure:
            contents = (pressure + overpressure) * max_volume / (R_GAS * temperature)
            pressure = pressure + overpressure
        else:
            pressure = max(ideal, pressure)
    else:
        contents = pressure * max_volume / (R_GAS * temperature)
    return contents, pressure, contents * R_GAS * temperature / pressure


class BuoyantForces:
    """The ``<buoyant_forces>`` block of ``source`` (none: no rows).

    Parameters
    ----------
    source : flightsim.physics.jsbsim.xmlfile.JSBSimFile
    properties : flightsim.physics.jsbsim.program.Properties
        Where the cells' slots are made.

    Attributes
    ----------
    rows : numpy.ndarray
        ``(n, GAS_FIELDS)`` float: each cell, then its ballonets.
    defaults : dict
        The properties as loaded (name → value): each cell's and ballonet's state, the declared ``<property>``s,
        the gas's mass for the first mass balance.
    functions : list of (Element, str, str, float)
        The heat and blower functions: the element, where it is (for messages), the property it fills, and whose
        (0 a cell's, 1 a ballonet's).
    sums : list of (tuple of str, str, float)
        Each cell's or ballonet's heat functions' properties, the slot their sum goes into, and whose.
    outputs : frozenset of str
        Every property the block computes (for the check of what the blocks read).
    gas_slots : numpy.ndarray
        (10,) int: the slots of :data:`GAS_OUTPUTS` (empty without cells).
    load_slots : numpy.ndarray
        (9,) int: the slots of :data:`LOAD_OUTPUTS` (empty without cells).
    input_slots : numpy.ndarray
        int: the slots of what the cells' frame reads that other blocks compute before it — the heat and blower
        functions' values and sums, the valves' openings (the flight controls write them).
    """

    def __init__(self, source, properties):
        block = source.section("buoyant_forces", required=False)
        rows, self.defaults, self.functions, self.sums = [], {}, [], []
        outputs = set()
        gas_mass = 0.0
        cells = [] if block is None else list(block)
        k = 0
        for el in cells:
            where = f"buoyant_forces/{source.where(el)}"
            if el.tag in ("documentation", "description", "limitation"):
                continue
            if el.tag == "property":
                name = (el.text or "").strip()
                properties.slot(name)
                self.defaults[canonical(name)] = source.parse_number(el.get("value", "0"), f"{where} value")
                outputs.add(canonical(name))
                continue
            if el.tag != "gas_cell":
                raise InputError(source.path, where, "not supported (gas cells and properties only)")
            base = f"buoyant_forces/gas-cell[{k}]"
            row, contents, gas = self._row(source, properties, el, where, base, 0.0, SEA_LEVEL_TEMPERATURE,
                                           SEA_LEVEL_PRESSURE, outputs)
            gas_mass += contents * row[G_MOLAR]
            ballonets = el.findall("ballonet")
            row[G_COUNT] = len(ballonets)
            rows.append(row)
            for j, b in enumerate(ballonets):
                brow, _, _ = self._row(source, properties, b, f"{where}/{source.where(b)}", f"{base}/ballonet[{j}]",
                                       1.0, gas[0], gas[1], outputs)
                rows.append(brow)
            k += 1
        self.rows = np.array(rows, dtype=np.float64).reshape(-1, GAS_FIELDS)
        if self.rows.shape[0]:
            self.gas_slots = np.array([properties.slot(n) for n in GAS_OUTPUTS], dtype=np.int64)
            self.load_slots = np.array([properties.slot(n) for n in LOAD_OUTPUTS], dtype=np.int64)
            self.defaults[canonical(GAS_OUTPUTS[0])] = gas_mass
            outputs.update(canonical(n) for n in (*GAS_OUTPUTS, *LOAD_OUTPUTS[:6]))
        else:
            self.gas_slots = self.load_slots = np.zeros(0, dtype=np.int64)
        self.outputs = frozenset(outputs)
        inputs = {properties.slot(f[2]) for f in self.functions} | {properties.slot(t[1]) for t in self.sums}
        inputs |= {int(v) for v in self.rows[:, G_VALVE_OPEN]}
        self.input_slots = np.array(sorted(inputs), dtype=np.int64)

    def _row(self, source, properties, el, where, base, kind, temperature, pressure, outputs):
        """One cell's (``kind`` 0) or ballonet's (1) row, its properties as loaded at ``temperature`` and
        ``pressure`` (a ballonet: its cell's); returns the row, the contents (mol) and ``(temperature,
        pressure)``."""
        row = np.full(GAS_FIELDS, -1.0)
        gas = (el.get("type") or "").strip() if kind == 0.0 else "AIR"
        row[G_KIND], row[G_COUNT] = kind, 0.0
        row[G_MOLAR], row[G_CV] = MOLAR_MASS.get(gas, MOLAR_MASS["AIR"]), CV.get(gas, CV["AIR"])
        if el.find("location") is None:
            raise InputError(source.path, f"{where}/location", "missing (a gas cell's and a ballonet's location)")
        row[G_X:G_Z + 1] = source.location(el.find("location"), f"{where}/location")
        shape, a, b, c, xw, height, max_volume = _shape(source, el, where)
        row[G_SHAPE], row[G_RX], row[G_RY], row[G_RZ], row[G_XW] = shape, a, b, c, xw
        row[G_HEIGHT], row[G_MAX_VOLUME] = height, max_volume
        row[G_OVERPRESSURE] = source.child_number(el, "max_overpressure", "LBS/FT2", where, 0.0)
        row[G_VALVE] = max(source.child_number(el, "valve_coefficient", "FT4*SEC/SLUG", where, 0.0), 0.0)
        volume = 0.0
        if el.find("fullness") is not None:
            fullness = source.child_number(el, "fullness", None, where)
            if fullness >= 0.0:
                volume = fullness * max_volume
        contents, pressure, volume = _filled(volume, max_volume, row[G_OVERPRESSURE], temperature, pressure)
        names = [canonical(f"{base}/{n}") for n in STATE_NAMES]
        values = (temperature, pressure, volume, 0.0, contents, 0.0)
        for column, name, value in zip((G_TEMP, G_PRESSURE, G_VOLUME, G_BUOYANCY, G_CONTENTS, G_VALVE_OPEN),
                                       names, values, strict=True):
            if kind == 1.0 and column == G_BUOYANCY:
                continue
            row[column] = properties.slot(name)
            self.defaults[name] = value
            outputs.add(name)
        top = canonical(f"{base}/max_volume-ft3")
        properties.slot(top)
        self.defaults[top] = max_volume
        outputs.add(top)
        row[G_DVOLUME] = properties.slot(f"{base}/flightsim-dvolume-ideal-ft3")
        heat = [] if el.find("heat") is None else el.find("heat").findall("function")
        if heat:
            names = []
            for n, fn in enumerate(heat):
                name = (fn.get("name") or "").strip() or f"{base}/flightsim-heat[{n}]"
                self.functions.append((fn, f"{where}/heat/{source.where(fn)}", name, kind))
                names.append(name)
                outputs.add(canonical(name))
            total = f"{base}/flightsim-heat-lbsft_sec"
            row[G_HEAT] = properties.slot(total)
            self.sums.append((tuple(names), total, kind))
        blower = el.find("blower_input")
        if kind == 1.0 and blower is not None:
            fn = blower.find("function")
            if fn is None:
                raise InputError(source.path, f"{where}/blower_input", "needs a <function> (ft³/s)")
            name = (fn.get("name") or "").strip() or f"{base}/flightsim-blower-ft3_sec"
            self.functions.append((fn, f"{where}/blower_input/function", name, kind))
            row[G_BLOWER] = properties.slot(name)
            outputs.add(canonical(name))
        if kind == 1.0:
            row[G_HEAT_FLOW] = properties.slot(f"{base}/flightsim-heat-flow-lbsft_sec")
        else:
            row[G_OLD_TEMP] = properties.slot(f"{base}/flightsim-last-temp-R")
            row[G_OLD_PRESSURE] = properties.slot(f"{base}/flightsim-last-pressure-psf")
        return row, contents, (temperature, pressure)

    def compile_functions(self, builder, post):
        """Add the cells' heat functions to ``builder`` and the ballonets' heat and blower functions to ``post``
        (:class:`~flightsim.physics.jsbsim.program.ProgramBuilder`: the engines' program and their post program,
        which runs between the cells' two halves, :func:`cells_first` and :func:`buoyant_frame`, so that a
        ballonet's functions read its cell's temperature and pressure of this frame, as ``FGBallonet::Calculate``
        evaluates them), each stored into its property, and each one's heat functions' sum into its own."""
        for el, where, name, kind in self.functions:
            target = post if kind else builder
            target.function(el, where)
            target.store(name)
        for names, total, kind in self.sums:
            target = post if kind else builder
            for name in names:
                target.push_property(name, "buoyant_forces/heat")
            target.emit(OP_SUM, len(names), pops=len(names), pushes=1)
            target.store(total)


@borrowing_jit
def _shape_inertia(row, mass):
    """A cell's or ballonet's own ``(Ixx, Iyy, Izz)`` about its centre, slug·ft² (``FGGasCell::Calculate``)."""
    a, b, c = row[G_RX], row[G_RY], row[G_RZ]
    if row[G_SHAPE] == ELLIPSOID:
        return 0.2 * mass * (b * b + c * c), 0.2 * mass * (a * a + c * c), 0.2 * mass * (a * a + b * b)
    if row[G_SHAPE] == CYLINDER:
        side = 0.25 * mass * b * c + mass * row[G_XW] * row[G_XW] / 12.0
        return 0.5 * mass * b * c, side, side
    return 0.0, 0.0, 0.0


@borrowing_jit
def _mass_terms(row, mass, cx, cy, cz):
    """A cell's or ballonet's ``mass`` (slug): its inertia about the CG ``(cx, cy, cz)`` (in) — its shape's own
    plus ``FGMassBalance::GetPointmassInertia`` — as xx, xy, xz, yy, yz, zz (slug·ft², JSBSim's body axes), and
    its weight's moment (lbf·in, structural)."""
    ixx, iyy, izz = _shape_inertia(row, mass)
    vx, vy, vz = INCH_TO_FT * (cx - row[G_X]), INCH_TO_FT * (row[G_Y] - cy), INCH_TO_FT * (cz - row[G_Z])
    sx, sy, sz = mass * vx, mass * vy, mass * vz
    weight = mass * SLUG_TO_LB
    return (ixx + sy * vy + sz * vz, -sx * vy, -sx * vz, iyy + sx * vx + sz * vz, -sy * vz, izz + sx * vx + sy * vy,
            row[G_X] * weight, row[G_Y] * weight, row[G_Z] * weight)


@borrowing_jit
def _ballonet_frame(props, row, cell, dt, air_pressure):
    """``FGBallonet::Calculate`` of ``row`` in the cell ``cell`` (its pressure and temperature this frame's)."""
    t_slot, p_slot, n_slot = int(row[G_TEMP]), int(row[G_PRESSURE]), int(row[G_CONTENTS])
    old_t, old_p = props[t_slot], props[p_slot]
    du = props[int(row[G_HEAT])] if row[G_HEAT] >= 0.0 else 0.0
    contents = props[n_slot]
    if contents > 0.0:
        props[t_slot] = old_t + (du * dt - old_p * props[int(row[G_DVOLUME])]) / (row[G_CV] * contents * R_GAS)
    else:
        props[t_slot] = props[int(cell[G_TEMP])]
    temperature = props[t_slot]
    pressure = max(contents * R_GAS * temperature / row[G_MAX_VOLUME], props[int(cell[G_PRESSURE])])
    props[p_slot] = pressure
    if row[G_BLOWER] >= 0.0:
        added = props[int(row[G_BLOWER])] * dt
        if added > 0.0:
            contents += pressure * added / (R_GAS * temperature)
    relief = pressure > air_pressure + row[G_OVERPRESSURE]
    opening = props[int(row[G_VALVE_OPEN])]
    if row[G_VALVE] > 0.0 and (opening > 0.0 or relief):
        valved = (1.0 if relief else opening) * row[G_VALVE] * (pressure - air_pressure) * dt
        contents = max(1.0, contents - pressure * valved / (R_GAS * temperature))
    props[n_slot] = contents
    props[int(row[G_VOLUME])] = contents * R_GAS * temperature / pressure
    props[int(row[G_DVOLUME])] = contents * R_GAS * (temperature / pressure - old_t / old_p)
    props[int(row[G_HEAT_FLOW])] = du


@borrowing_jit
def cells_first(props, rows, dt, air_temperature, air_pressure, air_density, gravity):
    """The first half of the gas cells' frame (``FGGasCell::Calculate`` up to its ballonets'): each cell's
    temperature, pressure and valve on its state in ``props``, its temperature and pressure before the frame kept
    for :func:`buoyant_frame`.  The air's temperature (°R), pressure (lbf/ft²), density (slug/ft³) and the
    gravitation's magnitude (ft/s²) are the frame's."""
    k = 0
    while k < rows.shape[0]:
        row = rows[k]
        count = int(row[G_COUNT])
        t_slot, p_slot, n_slot = int(row[G_TEMP]), int(row[G_PRESSURE]), int(row[G_CONTENTS])
        old_t, old_p = props[t_slot], props[p_slot]
        props[int(row[G_OLD_TEMP])], props[int(row[G_OLD_PRESSURE])] = old_t, old_p
        ballonets_volume = ballonets_heat = 0.0
        for b in range(k + 1, k + 1 + count):
            ballonets_volume += props[int(rows[b, G_VOLUME])]
            ballonets_heat += props[int(rows[b, G_HEAT_FLOW])]
        contents = props[n_slot]
        if row[G_HEAT] >= 0.0 and contents > 0.0:
            props[t_slot] = old_t + (props[int(row[G_HEAT])] * dt - old_p * props[int(row[G_DVOLUME])]
                                     - ballonets_heat) / (row[G_CV] * contents * R_GAS)
        else:
            props[t_slot] = air_temperature
        temperature = props[t_slot]
        top = air_pressure + row[G_OVERPRESSURE]
        ideal = contents * R_GAS * temperature / (row[G_MAX_VOLUME] - ballonets_volume)
        pressure = top if ideal > top else max(ideal, air_pressure)
        props[p_slot] = pressure
        opening = props[int(row[G_VALVE_OPEN])]
        if row[G_VALVE] > 0.0 and opening > 0.0:
            gas_volume = contents * R_GAS * temperature / pressure
            height = row[G_HEIGHT] * min(1.0, gas_volume / row[G_MAX_VOLUME])
            gas_density = row[G_MOLAR] * pressure / (R_GAS * temperature)
            delta = max(0.0, pressure + height * gravity * (air_density - gas_density) - air_pressure)
            valved = opening * row[G_VALVE] * delta * dt
            props[n_slot] = max(0.0, contents - pressure * valved / (R_GAS * temperature))
        k += 1 + count


@borrowing_jit
def buoyant_frame(props, rows, gas_slots, load_slots, dt, air_temperature, air_pressure, air_density, gravity,
                  phi, theta, psi, held):
    """The second half of the gas cells' frame (after :func:`cells_first` and the ballonets' functions): the
    ballonets (``FGBallonet::Calculate``), the contents held by the overpressure, the volume and the lift; the
    buoyancy forces and moments (JSBSim's body axes, lbf and lbf·ft about the CG that ``props`` holds, from the
    attitude ``phi``, ``theta``, ``psi``) written to :data:`LOAD_OUTPUTS` and added to ``held``, the gas's mass,
    moment and inertia to :data:`GAS_OUTPUTS` (``gas_slots``, ``load_slots``: their slots, as floats: the scalars
    ``jsb_scalars`` holds).  The air's as :func:`cells_first`'s (``FGBuoyantForces::Run``'s ``in``)."""
    cx, cy, cz = props[int(load_slots[6])], props[int(load_slots[7])], props[int(load_slots[8])]
    # the local frame's down in the body axes (FGPropagate's Tl2b, its third column)
    sf, cf, st, ct = math.sin(phi), math.cos(phi), math.sin(theta), math.cos(theta)
    dx, dy, dz = -st, sf * ct, cf * ct
    fx = fy = fz = mx = my = mz = 0.0
    jxx = jxy = jxz = jyy = jyz = jzz = wx = wy = wz = total = 0.0
    k = 0
    while k < rows.shape[0]:
        row = rows[k]
        count = int(row[G_COUNT])
        t_slot, p_slot, n_slot = int(row[G_TEMP]), int(row[G_PRESSURE]), int(row[G_CONTENTS])
        old_t, old_p = props[int(row[G_OLD_TEMP])], props[int(row[G_OLD_PRESSURE])]
        temperature, pressure, contents = props[t_slot], props[p_slot], props[n_slot]
        top = air_pressure + row[G_OVERPRESSURE]
        ballonets_volume = 0.0
        for b in range(k + 1, k + 1 + count):
            _ballonet_frame(props, rows[b], row, dt, air_pressure)
            ballonets_volume += props[int(rows[b, G_VOLUME])]
        if contents * R_GAS * temperature / (row[G_MAX_VOLUME] - ballonets_volume) > top:
            contents = top * (row[G_MAX_VOLUME] - ballonets_volume) / (R_GAS * temperature)
        props[n_slot] = contents
        volume = contents * R_GAS * temperature / pressure + ballonets_volume
        props[int(row[G_VOLUME])] = volume
        props[int(row[G_DVOLUME])] = contents * R_GAS * (temperature / pressure - old_t / old_p)
        lift = volume * air_density * gravity
        props[int(row[G_BUOYANCY])] = lift
        # (FGForce::GetBodyForces: (0, 0, −B) local, turned to the body, at the location about the CG)
        bx, by, bz = -lift * dx, -lift * dy, -lift * dz
        rx, ry, rz = INCH_TO_FT * (cx - row[G_X]), INCH_TO_FT * (row[G_Y] - cy), INCH_TO_FT * (cz - row[G_Z])
        fx, fy, fz = fx + bx, fy + by, fz + bz
        mx += ry * bz - rz * by
        my += rz * bx - rx * bz
        mz += rx * by - ry * bx
        for b in range(k, k + 1 + count):        # (the gas, then each ballonet's air)
            mass = props[int(rows[b, G_CONTENTS])] * rows[b, G_MOLAR]
            a0, a1, a2, a3, a4, a5, m0, m1, m2 = _mass_terms(rows[b], mass, cx, cy, cz)
            jxx, jxy, jxz, jyy, jyz, jzz = jxx + a0, jxy + a1, jxz + a2, jyy + a3, jyz + a4, jzz + a5
            wx, wy, wz, total = wx + m0, wy + m1, wz + m2, total + mass
        k += 1 + count
    ls = load_slots
    props[int(ls[0])], props[int(ls[1])], props[int(ls[2])] = fx, fy, fz
    props[int(ls[3])], props[int(ls[4])], props[int(ls[5])] = mx, my, mz
    held[0], held[1], held[2] = held[0] + fx, held[1] + fy, held[2] + fz
    held[3], held[4], held[5] = held[3] + mx, held[4] + my, held[5] + mz
    g = gas_slots
    props[int(g[0])], props[int(g[1])], props[int(g[2])], props[int(g[3])] = total, wx, wy, wz
    props[int(g[4])], props[int(g[5])], props[int(g[6])] = jxx, jxy, jxz
    props[int(g[7])], props[int(g[8])], props[int(g[9])] = jyy, jyz, jzz


@borrowing_jit
def gravity_magnitude(planet, flat_gravity):
    """The gravitation's magnitude at the frame's position (``FGInertial::GetGravity().Magnitude()``, ft/s²): the
    round ``planet``'s J2 field at the ECI position its view was made of, or ``flat_gravity`` (``planet`` None)."""
    if planet is None:
        return flat_gravity
    gx, gy, gz = gravitation(planet[P_KEY + 1], planet[P_KEY + 2], planet[P_KEY + 3], planet[P_GM], planet[P_A],
                             planet[P_J2])
    return math.sqrt(gx * gx + gy * gy + gz * gz)


@borrowing_entry_jit
def run_ic_frame(props, rows, gas_slots, load_slots, air_temperature, air_pressure, air_density, planet,
                 flat_gravity, phi, theta, psi, out):
    """The gas cells' part of one of ``FGFDMExec::RunIC``'s frames, which run with no time passing: their frame of
    0 s (:func:`cells_first`, :func:`buoyant_frame`; the ballonets' functions as ``props`` holds them) on
    ``props``, the gravitation the round ``planet``'s (None: ``flat_gravity``); their loads into ``out`` (zeroed
    first; JSBSim's body axes).  Called from Python."""
    for a in range(6):
        out[a] = 0.0
    gravity = gravity_magnitude(planet, flat_gravity)
    cells_first(props, rows, 0.0, air_temperature, air_pressure, air_density, gravity)
    buoyant_frame(props, rows, gas_slots, load_slots, 0.0, air_temperature, air_pressure, air_density, gravity,
                  phi, theta, psi, out)

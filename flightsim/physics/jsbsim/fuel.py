"""Fuel burn and a JSBSim aircraft's mass, CG and inertia changing in flight.

As JSBSim runs them each frame:

* ``FGMassBalance::Run`` (before the engines): the weight is the empty
  weight, the tanks' contents and the point masses' weights
  (``inertia/pointmass-weight-lbs[i]``, which a script may write); the CG
  their weighted mean (structural frame, in); the inertia about it the empty
  airplane's own tensor, plus each mass moved by the parallel axes
  (``GetPointmassInertia``: the empty airplane's and the point masses' about
  the new CG, the tanks' about the *last* frame's, as
  ``FGPropulsion::CalculateTankInertias`` computes them before the mass
  balance runs), plus the point masses' own shapes (their inertia grows with
  their weight) and the tanks' contents' own (:func:`~flightsim.physics.
  jsbsim.mass.tank_inertia`).  On the ground (weight on any wheel) the CG's
  move shifts the airplane's location the other way, so that its structure
  stays where it stood (``FGPropagate::NudgeBodyLocation``).
* ``FGPropulsion::ConsumeFuel`` (after each engine's frame): unless
  ``propulsion/fuel_freeze``, each engine's feed tanks — those of its
  ``<feed>`` list holding more than their unusable fuel, selected (priority
  > 0), at the lowest priority number that has any — share its fuel need
  (``…/fuel-flow-rate-pps`` × dt) equally (``FGTank::Drain``: never below
  the unusable amount); a rocket's oxidizer likewise from its oxidizer tanks.
  An engine with none is starved: a piston then gets no fuel (its fuel flow
  and power as at mixture 0, so it stops), a rocket no thrust, a turbine
  (and a turbine driving a propeller) goes off (``FGTurbine::Calculate``: no
  thrust, its spools winding down), from the next frame on, and burns nothing;
  tanks filled again end the starvation.  Then each tank's external
  flow (``…/external-flow-rate-pps``, ``FGTank::Calculate``) and
  ``propulsion/total-fuel-lbs``.

Every lever arm about the CG the loads hold (the aerodynamic reference point,
the pilot's eye, the contacts, the thrusters, the external forces) moves
with the CG.  Not modelled: refuelling and dumping (``propulsion/refuel``,
``…/fuel_dump``), the tanks' temperature, a turboprop's (``FGTurboProp``'s)
starvation (flightsim's turboprops burn nothing and have no off phase: they
run on with empty tanks).  The gas cells' mass, moment and inertia
(:mod:`~flightsim.physics.jsbsim.buoyancy`, their last frame's) join the balance.

Frames: JSBSim's structural frame (in) and body frame (ft, x forward, y
right, z down); the caller turns the tensor into flightsim's body axes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit
from flightsim.physics.jsbsim.mass import FUEL_DENSITY, INCH_TO_FT, _inertia_matrix, grain_shape
from flightsim.physics.jsbsim.program import canonical

__all__ = ["FUEL_FREEZE", "FuelSystem", "FuelFlight", "MASS_OUTPUTS", "TANK_FIELDS", "STARVED"]

#: JSBSim's ``lbtoslug``'s inverse (``slugtolb``).
SLUG_TO_LB = 32.174049
#: Each tank's properties (``FGTank::bind``), after ``propulsion/tank[k]/``, in the order of
#: :attr:`FuelSystem.tank_slots`' columns.
TANK_FIELDS = ("contents-lbs", "unusable-volume-gal", "priority", "pct-full", "external-flow-rate-pps",
               "density-lbs_per_gal")
(T_CONTENTS, T_UNUSABLE, T_PRIORITY, T_PCT, T_FLOW, T_DENSITY) = range(len(TANK_FIELDS))
#: FGMassBalance's outputs (``bind``) and FGPropulsion's totals, as :meth:`FuelFlight.balance` writes them.
MASS_OUTPUTS = ("inertia/weight-lbs", "inertia/mass-slugs", "inertia/empty-weight-lbs", "inertia/cg-x-in",
                "inertia/cg-y-in", "inertia/cg-z-in", "inertia/ixx-slugs_ft2", "inertia/iyy-slugs_ft2",
                "inertia/izz-slugs_ft2", "inertia/ixy-slugs_ft2", "inertia/ixz-slugs_ft2", "inertia/iyz-slugs_ft2",
                "propulsion/total-fuel-lbs", "propulsion/total-oxidizer-lbs")
#: The switch that stops the burn (``FGPropulsion::SetFuelFreeze``).
FUEL_FREEZE = "propulsion/fuel_freeze"
#: flightsim's own per-engine flag of a starved piston or turbine (1: no fuel reaches it; FGEngine's ``Starved``),
#: read by its frame.
STARVED = "{e}/starved"
#: Point-mass shapes (``PointMass::esShape``): none given (its own ``<ixx>``…), tube, cylinder, sphere, ball.
SHAPES = {"tube": 1, "cylinder": 2, "sphere": 3, "ball": 4}
TANK_FUEL, TANK_OXIDIZER = 1, 2
#: Engine kinds the burn tells apart: another (a turbine, a turboprop), a piston, a rocket, an electric engine.
ENGINE_KINDS = {"piston": 1, "rocket": 2, "electric": 3}
#: Columns of :attr:`FuelSystem.tank_own`: the grain (0 a liquid, 1 CYLINDRICAL, 2 ENDBURNING), a liquid's
#: coefficient, the grain's radius, length and bore radius (in) and its density (slug/in³).
GRAIN_FIELDS = 6


def _tank_base(k):
    return canonical(f"propulsion/tank[{k}]")


@dataclass(frozen=True, eq=False)
class FuelSystem:
    """A JSBSim aircraft's masses and tanks as its file gives them, and the property slots they live in.

    Attributes
    ----------
    empty_weight : float
        lb.
    empty_cg : numpy.ndarray
        in, structural frame.
    base_inertia : numpy.ndarray
        The empty airplane's own tensor (``baseJ``), JSBSim's body axes, slug·ft².
    masses : numpy.ndarray
        (n, 3) point masses' locations as loaded, in.
    mass_slots : numpy.ndarray
        (n,) slots of ``inertia/pointmass-weight-lbs[i]``.
    location_slots : numpy.ndarray
        (n, 3) slots of ``inertia/pointmass-location-X-inches[i]``, ``…-Y-…``, ``…-Z-…`` (``PointMass::bind``:
        the flight controls and the scripts may move a point mass).
    mass_shapes : numpy.ndarray
        (n, 3): shape (:data:`SHAPES`, 0 none), radius and length (ft).
    mass_own : numpy.ndarray
        (n, 3, 3): a shapeless point mass's own tensor.
    tanks : numpy.ndarray
        (m, 3) tanks' locations, in.
    tank_slots : numpy.ndarray
        (m, :data:`TANK_FIELDS`) slots.
    tank_capacity, tank_kind : numpy.ndarray
        lb; :data:`TANK_FUEL`, :data:`TANK_OXIDIZER` or 0.
    tank_own : numpy.ndarray
        (m, :data:`GRAIN_FIELDS`) per tank what its contents' own inertia is made of (``FGTank::CalculateInertias``):
        a liquid's coefficient (I = coefficient × contents, all three axes), or a solid grain's kind, radius,
        length, bore (in) and density (slug/in³).
    feeds : tuple
        Per engine (file order) its ``<feed>`` tank numbers.
    engines : tuple
        Per engine ``(kind, row)`` (``Propulsion.kinds``).
    flow_slots : numpy.ndarray
        (k, 2) slots of ``…/fuel-flow-rate-pps`` and ``…/oxi-flow-rate-pps`` (−1: none).
    starved_slots : numpy.ndarray
        (k,) slot of a piston's or turbine's :data:`STARVED` (−1: neither).
    output_slots : numpy.ndarray
        Slots of :data:`MASS_OUTPUTS` (−1: none).
    freeze_slot : int
    gas_slots : numpy.ndarray
        The slots of the gas cells' mass, moment and inertia
        (:data:`~flightsim.physics.jsbsim.buoyancy.GAS_OUTPUTS`; empty: no cells): ``FGMassBalance``'s ``GasMass``,
        ``GasMoment`` and ``GasInertia``.
    """

    empty_weight: float
    empty_cg: np.ndarray
    base_inertia: np.ndarray
    masses: np.ndarray
    mass_slots: np.ndarray
    location_slots: np.ndarray
    mass_shapes: np.ndarray
    mass_own: np.ndarray
    tanks: np.ndarray
    tank_slots: np.ndarray
    tank_capacity: np.ndarray
    tank_kind: np.ndarray
    tank_own: np.ndarray
    feeds: tuple
    engines: tuple
    flow_slots: np.ndarray
    starved_slots: np.ndarray
    output_slots: np.ndarray
    freeze_slot: int
    gas_slots: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @classmethod
    def read(cls, source, props, mass):
        """From the file (``source``) and its :class:`~flightsim.physics.jsbsim.mass.MassBalance` ``mass``; the
        properties' slots made in ``props`` (before its array is made).  Returns the system and the properties'
        values as loaded (name → value)."""
        el = source.section("mass_balance")
        values = {}
        masses, mslots, lslots, shapes, own = [], [], [], [], []
        for k, pm in enumerate(el.findall("pointmass")):
            name = canonical(f"inertia/pointmass-weight-lbs[{k}]")
            mslots.append(props.slot(name))
            values[name] = mass.point_masses[k][1]
            masses.append(mass.point_masses[k][2])
            here = [canonical(f"inertia/pointmass-location-{axis}-inches[{k}]") for axis in "XYZ"]
            lslots.append([props.slot(n) for n in here])
            values.update(zip(here, (float(v) for v in mass.point_masses[k][2]), strict=True))
            form = pm.find("form")
            where = f"mass_balance/pointmass[{k}]"
            if form is None:
                shapes.append((0.0, 0.0, 0.0))
                own.append(_inertia_matrix(source, pm, where))
            else:
                shapes.append((float(SHAPES.get(form.get("shape", ""), -1)),
                               source.child_number(form, "radius", "FT", f"{where}/form", 0.0),
                               source.child_number(form, "length", "FT", f"{where}/form", 0.0)))
                own.append(np.zeros((3, 3)))
        block = source.section("propulsion", required=False)
        tanks = [] if block is None else block.findall("tank")
        tslots, capacity, kinds, tank_own = [], [], [], []
        for k, tank in enumerate(tanks):
            where = f"propulsion/tank[{k}]"
            base = _tank_base(k)
            tslots.append([props.slot(f"{base}/{f}") for f in TANK_FIELDS])
            contents = mass.tanks[k][0]
            cap = source.child_number(tank, "capacity", "LBS", where, 0.00001)
            capacity.append(cap if cap != 0.0 else 0.00001)
            kinds.append({"FUEL": TANK_FUEL, "OXIDIZER": TANK_OXIDIZER}.get((tank.get("type") or "").strip(), 0))
            density = 6.6 if tank.find("density") is None else source.number(tank.find("density"),
                                                                               f"{where}/density")
            fuel_name = (tank.findtext("type") or "").strip()
            if fuel_name:
                density = FUEL_DENSITY.get(fuel_name, 6.6)
            priority = source.child_number(tank, "priority", None, where, 1.0)
            values.update({f"{base}/contents-lbs": contents, f"{base}/density-lbs_per_gal": density,
                           f"{base}/unusable-volume-gal": source.child_number(tank, "unusable-volume", None, where,
                                                                             0.0),
                           f"{base}/priority": float(int(priority)),
                           f"{base}/pct-full": 100.0 * contents / capacity[-1],
                           f"{base}/external-flow-rate-pps": 0.0})
            tank_own.append(_tank_own(source, tank, where, capacity[-1]))
        feeds, flows, starved = [], [], []
        engines = [] if block is None else block.findall("engine")
        for k, engine in enumerate(engines):
            feeds.append(tuple(int(source.number(f, f"propulsion/engine[{k}]/feed")) for f in engine.findall("feed")))
            e = canonical(f"propulsion/engine[{k}]")
            flows.append([props[n] if n in props else -1 for n in (f"{e}/fuel-flow-rate-pps",
                                                                  f"{e}/oxi-flow-rate-pps")])
            name = STARVED.format(e=e)
            starved.append(props[name] if name in props else -1)
        outputs = [props.slot(n) for n in MASS_OUTPUTS]
        freeze = props.slot(FUEL_FREEZE)
        return cls(float(mass.empty_weight), np.asarray(mass.empty_cg, dtype=np.float64),
                   _inertia_matrix(source, el, "mass_balance"),
                   np.array(masses, dtype=np.float64).reshape(-1, 3), np.array(mslots, dtype=np.int64),
                   np.array(lslots, dtype=np.int64).reshape(-1, 3),
                   np.array(shapes, dtype=np.float64).reshape(-1, 3), np.array(own).reshape(-1, 3, 3),
                   np.array([t[1] for t in mass.tanks], dtype=np.float64).reshape(-1, 3),
                   np.array(tslots, dtype=np.int64).reshape(-1, len(TANK_FIELDS)), np.array(capacity),
                   np.array(kinds, dtype=np.int64), np.array(tank_own, dtype=np.float64).reshape(-1, GRAIN_FIELDS),
                   tuple(feeds), (),
                   np.array(flows, dtype=np.int64).reshape(-1, 2), np.array(starved, dtype=np.int64),
                   np.array(outputs, dtype=np.int64), freeze), values

    def with_engines(self, kinds):
        """The same with the engines' kinds and rows (``Propulsion.kinds``)."""
        return replace(self, engines=tuple(kinds))

    def with_gas(self, slots):
        """The same with the gas cells' outputs' slots (:attr:`gas_slots`)."""
        return replace(self, gas_slots=np.asarray(slots, dtype=np.int64))

    def engine_table(self):
        """Per engine: its kind (:data:`ENGINE_KINDS`), its row, its fuel and oxidizer flow slots, its starved slot,
        how many tanks it feeds from, then those tanks (−1 after): the compiled burn's table."""
        width = max([len(f) for f in self.feeds] + [0])
        out = np.full((len(self.feeds), 6 + width), -1, dtype=np.int64)
        for k, feeds in enumerate(self.feeds):
            kind, row = self.engines[k]
            out[k, :6] = (ENGINE_KINDS.get(kind, 0), row, self.flow_slots[k, 0], self.flow_slots[k, 1],
                          self.starved_slots[k], len(feeds))
            out[k, 6:6 + len(feeds)] = feeds
        return out


def _tank_own(source, tank, where, capacity):
    """A tank's row of :attr:`FuelSystem.tank_own` (``FGTank``'s constructor and ``CalculateInertias``).

    Raises
    ------
    flightsim.errors.InputError
        A ``FUNCTION`` grain or another grain type, or a bore not smaller than the grain (as
        :func:`~flightsim.physics.jsbsim.mass.tank_inertia`).
    """
    radius = source.child_number(tank, "radius", "FT", where, 0.0) * 12.0
    grain = tank.find("grain_config")
    if grain is None:
        factor = source.child_number(tank, "inertia_factor", None, where, 1.0)
        return (0.0, factor * 0.4 * radius * radius / (144.0 * SLUG_TO_LB) if radius > 0.0 else 0.0, 0.0, 0.0,
                0.0, 0.0)
    kind, length, bore = grain_shape(source, tank, radius, where)
    if kind == "CYLINDRICAL":
        density = (capacity / SLUG_TO_LB) / (np.pi * length * (radius * radius - bore * bore))
        return (1.0, 0.0, radius, length, bore, density)
    return (2.0, 0.0, radius, length, bore, (capacity / SLUG_TO_LB) / (np.pi * length * radius * radius))


#: Entries of a flight's state array (:attr:`FuelFlight.state`): the CG the arms were computed about (the loaded
#: one), the CG now, the CG before this frame's balance (the tanks' inertia's), 1 once balanced, the CG's move
#: in this balance (JSBSim's body axes, ft), the mass (slug).
(S_CG0, S_CG, S_LAST, S_BALANCED, S_DELTA, S_MASS) = (0, 3, 6, 9, 10, 13)
STATE_SIZE = 14


@borrowing_jit
def _add_point(j, m, rx, ry, rz, cg):
    """``j`` += ``FGMassBalance::GetPointmassInertia(m, r)`` about ``cg`` (slug, in; JSBSim's body axes)."""
    vx, vy, vz = INCH_TO_FT * (cg[0] - rx), INCH_TO_FT * (ry - cg[1]), INCH_TO_FT * (cg[2] - rz)
    sx, sy, sz = m * vx, m * vy, m * vz
    xx, yy, zz = sx * vx, sy * vy, sz * vz
    xy, xz, yz = -sx * vy, -sx * vz, -sy * vz
    j[0, 0] += yy + zz
    j[0, 1] += xy
    j[0, 2] += xz
    j[1, 0] += xy
    j[1, 1] += xx + zz
    j[1, 2] += yz
    j[2, 0] += xz
    j[2, 1] += yz
    j[2, 2] += xx + yy


@borrowing_jit
def _tank_own_inertia(row, contents):
    """``FGTank::CalculateInertias``: the contents' own ``(Ixx, Iyy, Izz)``, slug·ft² (:data:`GRAIN_FIELDS`)."""
    mass = contents / SLUG_TO_LB
    if row[0] == 0.0:
        i = row[1] * contents
        return i, i, i
    radius, length, density = row[2], row[3], row[5]
    rad2 = radius * radius
    if row[0] == 1.0:
        inner = math.sqrt(rad2 - (mass / density) / (math.pi * length))
        sum_sqr = (rad2 + inner * inner) / 144.0
        iyy = mass * (3.0 * sum_sqr + length * length / 144.0) / 12.0
        return 0.5 * mass * sum_sqr, iyy, iyy
    burning = (mass / density) / (math.pi * rad2)
    iyy = mass * (3.0 * rad2 + burning * burning) / (144.0 * 12.0)
    return 0.5 * mass * rad2 / 144.0, iyy, iyy


@borrowing_jit
def _shift_rows(rows, column, base, dx, dy, dz, skip_moments):
    """Rows' arms (3 columns from ``column``) = their loaded arms ``base`` + the CG's move; an external moment's
    (``skip_moments``: column 0 not 0) stays none."""
    for k in range(rows.shape[0]):
        if skip_moments and rows[k, 0] != 0.0:
            continue
        rows[k, column] = base[k, 0] + dx
        rows[k, column + 1] = base[k, 1] + dy
        rows[k, column + 2] = base[k, 2] + dz


@borrowing_entry_jit
def mass_balance(props, masses, mass_slots, mass_shapes, mass_own, tanks, tank_slots, tank_capacity, tank_kind,
                 tank_own, gas, empty, base_j, output_slots, state, scalars, scalar_columns, scalar_base, engines,
                 engine_column, engine_base, propellers, propeller_column, propeller_base, external, external_column,
                 external_base, contacts, contact_column, contact_base, inertia, inertia_inv, work):
    """``FGMassBalance::Run`` (:class:`FuelFlight` holds the arguments): the weight, CG and inertia from the
    point masses' weights and locations (``masses``: their slots), the tanks' contents and the gas cells' mass,
    moment and inertia (``gas``: their slots, empty without cells) in ``props`` (contents above capacity cut to it,
    as ``FGTank::SetContents``); :data:`MASS_OUTPUTS` and the tanks' fullness written; every arm about the CG
    moved with it; the loads' tensor and its inverse (``scalar_columns[2]``: ``J_INERTIA``, JSBSim's axes) and the
    integrator's (``inertia``, ``inertia_inv``: flightsim's body axes) set.  ``empty``: the empty weight (lb) and CG
    (in).  ``work``: 3×3 scratch.  Returns False when nothing moved since the last call (nothing written then)."""
    n, m = masses.shape[0], tanks.shape[0]
    # (gas cells: their inertia moves with their contents' temperature and pressure, at the same mass and CG)
    changed = state[S_BALANCED] == 0.0 or gas.shape[0] > 0
    for k in range(m):
        if props[tank_slots[k, T_CONTENTS]] > tank_capacity[k]:
            props[tank_slots[k, T_CONTENTS]] = tank_capacity[k]
    # (what moved since the last balance: told by the mass and the CG, below)
    tanks_weight = 0.0
    for k in range(m):
        tanks_weight += props[tank_slots[k, T_CONTENTS]]
    masses_weight = 0.0
    for k in range(n):
        masses_weight += props[mass_slots[k]]
    gas_on = gas.shape[0] > 0
    weight = empty[0] + tanks_weight + masses_weight + (props[gas[0]] * SLUG_TO_LB if gas_on else 0.0)
    mx, my, mz = empty[0] * empty[1], empty[0] * empty[2], empty[0] * empty[3]
    px = py = pz = 0.0
    for k in range(n):
        w = props[mass_slots[k]]
        px += w * props[masses[k, 0]]
        py += w * props[masses[k, 1]]
        pz += w * props[masses[k, 2]]
    if gas_on:
        px, py, pz = px + props[gas[1]], py + props[gas[2]], pz + props[gas[3]]
    tx = ty = tz = 0.0
    for k in range(m):
        c = props[tank_slots[k, T_CONTENTS]]
        tx += tanks[k, 0] * c
        ty += tanks[k, 1] * c
        tz += tanks[k, 2] * c
    cg = state[S_CG:S_CG + 3]
    last = state[S_LAST:S_LAST + 3]
    cx, cy, cz = (mx + px + tx) / weight, (my + py + ty) / weight, (mz + pz + tz) / weight
    mass = weight / SLUG_TO_LB
    if not changed and mass == state[S_MASS] and cx == cg[0] and cy == cg[1] and cz == cg[2] \
            and last[0] == cg[0] and last[1] == cg[1] and last[2] == cg[2]:
        return False
    # the tanks' inertia (FGPropulsion::CalculateTankInertias, before this frame's mass balance: about the last
    # frame's CG; the first balance's about the loaded one)
    for a in range(3):
        last[a] = cg[a] if state[S_BALANCED] != 0.0 else state[S_CG0 + a]
    for a in range(3):
        for b in range(3):
            work[a, b] = 0.0
    for k in range(m):
        c = props[tank_slots[k, T_CONTENTS]]
        _add_point(work, c / SLUG_TO_LB, tanks[k, 0], tanks[k, 1], tanks[k, 2], last)
        ixx, iyy, izz = _tank_own_inertia(tank_own[k], c)
        work[0, 0] += ixx
        work[1, 1] += iyy
        work[2, 2] += izz
    cg[0], cg[1], cg[2] = cx, cy, cz
    j = scalars[scalar_columns[2]:scalar_columns[2] + 9]
    for a in range(3):
        for b in range(3):
            j[3 * a + b] = base_j[a, b]
    tank_j00, tank_j01, tank_j02 = work[0, 0], work[0, 1], work[0, 2]
    tank_j11, tank_j12, tank_j22 = work[1, 1], work[1, 2], work[2, 2]
    for a in range(3):
        for b in range(3):
            work[a, b] = base_j[a, b]
    _add_point(work, empty[0] / SLUG_TO_LB, empty[1], empty[2], empty[3], cg)
    base00, base01, base02 = work[0, 0], work[0, 1], work[0, 2]
    base10, base11, base12 = work[1, 0], work[1, 1], work[1, 2]
    base20, base21, base22 = work[2, 0], work[2, 1], work[2, 2]
    for a in range(3):
        for b in range(3):
            work[a, b] = 0.0
    for k in range(n):
        w = props[mass_slots[k]]
        _add_point(work, w / SLUG_TO_LB, props[masses[k, 0]], props[masses[k, 1]], props[masses[k, 2]], cg)
        shape = mass_shapes[k, 0]
        if shape == 0.0:
            for a in range(3):
                for b in range(3):
                    work[a, b] += mass_own[k, 3 * a + b]
        else:
            pm = w / SLUG_TO_LB
            r2, l2 = mass_shapes[k, 1] * mass_shapes[k, 1], mass_shapes[k, 2] * mass_shapes[k, 2]
            if shape == 1.0:
                axial, transverse = pm * r2, pm / 12.0 * (6.0 * r2 + l2)
            elif shape == 2.0:
                axial, transverse = pm * r2 / 2.0, pm / 12.0 * (3.0 * r2 + l2)
            elif shape == 3.0:
                axial = transverse = 2.0 * pm * r2 / 3.0
            elif shape == 4.0:
                axial = transverse = 2.0 * pm * r2 / 5.0
            else:
                axial = transverse = 0.0
            work[0, 0] += axial
            work[1, 1] += transverse
            work[2, 2] += transverse
    if gas_on:                              # (the gas cells' inertia, as their last frame computed it)
        work[0, 0] += props[gas[4]]
        work[0, 1] += props[gas[5]]
        work[0, 2] += props[gas[6]]
        work[1, 0] += props[gas[5]]
        work[1, 1] += props[gas[7]]
        work[1, 2] += props[gas[8]]
        work[2, 0] += props[gas[6]]
        work[2, 1] += props[gas[8]]
        work[2, 2] += props[gas[9]]
    # mJ = baseJ + the empty airplane's parallel axes, + the point masses', + the tanks', + the gas cells'
    # (FGMassBalance::Run)
    j[0] = base00 + work[0, 0] + tank_j00
    j[1] = base01 + work[0, 1] + tank_j01
    j[2] = base02 + work[0, 2] + tank_j02
    j[3] = base10 + work[1, 0] + tank_j01
    j[4] = base11 + work[1, 1] + tank_j11
    j[5] = base12 + work[1, 2] + tank_j12
    j[6] = base20 + work[2, 0] + tank_j02
    j[7] = base21 + work[2, 1] + tank_j12
    j[8] = base22 + work[2, 2] + tank_j22
    # the inverse (Stevens and Lewis, as FGMassBalance::Run)
    ixx, iyy, izz, ixy, ixz, iyz = j[0], j[4], j[8], -j[1], -j[2], -j[5]
    k1 = iyy * izz - iyz * iyz
    k2 = iyz * ixz + ixy * izz
    k3 = ixy * iyz + iyy * ixz
    denom = 1.0 / (ixx * k1 - ixy * k2 - ixz * k3)
    k1, k2, k3 = k1 * denom, k2 * denom, k3 * denom
    k4 = (izz * ixx - ixz * ixz) * denom
    k5 = (ixy * ixz + iyz * ixx) * denom
    k6 = (ixx * iyy - ixy * ixy) * denom
    inv = scalars[scalar_columns[2] + 9:scalar_columns[2] + 18]
    inv[0], inv[1], inv[2], inv[3], inv[4], inv[5], inv[6], inv[7], inv[8] = k1, k2, k3, k2, k4, k5, k3, k5, k6
    for a in range(3):                      # (flightsim's body axes: D J D, D = diag(1, −1, −1))
        for b in range(3):
            sign = 1.0 if (a == 0) == (b == 0) else -1.0
            inertia[a, b] = sign * j[3 * a + b]
            inertia_inv[a, b] = sign * inv[3 * a + b]
    state[S_DELTA] = INCH_TO_FT * (cx - last[0])
    state[S_DELTA + 1] = INCH_TO_FT * (last[1] - cy)
    state[S_DELTA + 2] = INCH_TO_FT * (cz - last[2])
    state[S_MASS] = mass
    state[S_BALANCED] = 1.0
    dx = INCH_TO_FT * (cx - state[S_CG0])
    dy = INCH_TO_FT * (state[S_CG0 + 1] - cy)
    dz = INCH_TO_FT * (cz - state[S_CG0 + 2])
    for a in range(2):
        col = scalar_columns[a]
        scalars[col] = scalar_base[a, 0] + dx
        scalars[col + 1] = scalar_base[a, 1] + dy
        scalars[col + 2] = scalar_base[a, 2] + dz
    _shift_rows(engines, engine_column, engine_base, dx, dy, dz, False)
    _shift_rows(propellers, propeller_column, propeller_base, dx, dy, dz, False)
    _shift_rows(external, external_column, external_base, dx, dy, dz, True)
    _shift_rows(contacts, contact_column, contact_base, dx, dy, dz, False)
    fuel = oxidizer = 0.0
    for k in range(m):
        c = props[tank_slots[k, T_CONTENTS]]
        props[tank_slots[k, T_PCT]] = 100.0 * c / tank_capacity[k]
        if tank_kind[k] == TANK_FUEL:
            fuel += c
        elif tank_kind[k] == TANK_OXIDIZER:
            oxidizer += c
    out = output_slots
    props[out[0]], props[out[1]], props[out[2]] = weight, mass, empty[0]
    props[out[3]], props[out[4]], props[out[5]] = cx, cy, cz
    props[out[6]], props[out[7]], props[out[8]] = j[0], j[4], j[8]
    props[out[9]], props[out[10]], props[out[11]] = -j[1], j[2], -j[5]
    props[out[12]], props[out[13]] = fuel, oxidizer
    return True


@borrowing_jit
def _feed_list(table, k, kind_wanted, contents, unusable, priority, tank_kind, found):
    """``ConsumeFuel``'s search for engine row ``k`` of ``table``: its selected feed tanks of ``kind_wanted`` holding
    more than their unusable fuel at the lowest priority number that has any, into ``found``; returns how many,
    and whether it feeds from any selected tank of that kind."""
    count = table[k, 5]
    n = contents.shape[0]
    level = 1
    found_n = 0
    has = False
    while found_n == 0 and level <= n:
        for f in range(count):
            t = table[k, 6 + f]
            if priority[t] == 0 or tank_kind[t] != kind_wanted:
                continue
            has = True
            if contents[t] > unusable[t] and priority[t] == level:
                found[found_n] = t
                found_n += 1
        if found_n == 0:
            level += 1
    return found_n, has


@borrowing_jit
def _drain(contents, unusable, found, found_n, need):
    """``FGTank::Drain`` of ``need`` (lb) shared by the ``found_n`` tanks of ``found``."""
    if found_n == 0:
        return
    per_tank = need / found_n
    for f in range(found_n):
        t = found[f]
        if contents[t] - per_tank >= unusable[t]:
            contents[t] -= per_tank
        elif contents[t] > unusable[t]:
            contents[t] = unusable[t]


@borrowing_entry_jit
def consume_fuel(props, dt, table, tank_slots, tank_capacity, tank_kind, freeze_slot, output_slots, engines,
                 starved_column, work, found):
    """``FGPropulsion::ConsumeFuel`` for each engine after its frame (``table``: :meth:`FuelSystem.engine_table`;
    the fuel flows in ``props``), each starved engine marked for its next frame (a piston's or turbine's starved
    flag, a rocket's row's ``starved_column``), then the tanks' external flows (``FGTank::Calculate``) and the totals.
    ``work``: (m, 3) scratch; ``found``: (m,) int scratch."""
    m = tank_slots.shape[0]
    if m == 0:
        return
    for t in range(m):
        work[t, 0] = props[tank_slots[t, T_CONTENTS]]
        work[t, 1] = props[tank_slots[t, T_UNUSABLE]] * props[tank_slots[t, T_DENSITY]]
        work[t, 2] = float(int(props[tank_slots[t, T_PRIORITY]]))
    contents, unusable, priority = work[:, 0], work[:, 1], work[:, 2]
    if props[freeze_slot] == 0.0:
        for k in range(table.shape[0]):
            kind = table[k, 0]
            fuel_n, _ = _feed_list(table, k, TANK_FUEL, contents, unusable, priority, tank_kind, found)
            starved = fuel_n == 0
            oxi_n, oxi_tanks = 0, False
            if kind == 2:
                # (the oxidizer's list after the fuel's, in found's other end: a rocket feeds from few tanks)
                oxi_n, oxi_tanks = _feed_list(table, k, TANK_OXIDIZER, contents, unusable, priority, tank_kind,
                                              found[fuel_n:])
                starved = starved or (oxi_tanks and oxi_n == 0)
            if kind == 2:
                engines[table[k, 1], starved_column] = 1.0 if starved else 0.0
            elif table[k, 4] >= 0:          # (a piston's or a turbine's flag)
                props[table[k, 4]] = 1.0 if starved else 0.0
            if starved or kind == 3:
                continue
            need = props[table[k, 2]] * dt if table[k, 2] >= 0 else 0.0
            _drain(contents, unusable, found, fuel_n, need)
            if kind == 2 and oxi_n > 0:
                need = props[table[k, 3]] * dt if table[k, 3] >= 0 else 0.0
                _drain(contents, unusable, found[fuel_n:], oxi_n, need)
    fuel = oxidizer = 0.0
    for t in range(m):
        flow = props[tank_slots[t, T_FLOW]]
        if flow < 0.0:
            if contents[t] + flow * dt >= unusable[t]:
                contents[t] += flow * dt
            elif contents[t] > unusable[t]:
                contents[t] = unusable[t]
        elif flow > 0.0:
            contents[t] = min(contents[t] + flow * dt, tank_capacity[t])
        props[tank_slots[t, T_CONTENTS]] = contents[t]
        props[tank_slots[t, T_PCT]] = 100.0 * contents[t] / tank_capacity[t]
        if tank_kind[t] == TANK_FUEL:
            fuel += contents[t]
        elif tank_kind[t] == TANK_OXIDIZER:
            oxidizer += contents[t]
    props[output_slots[12]], props[output_slots[13]] = fuel, oxidizer


class FuelFlight:
    """One flight's tanks, point masses and lever arms (its own copies of the loads' arrays that hold arms).

    Parameters
    ----------
    system : FuelSystem
    cg : sequence of 3 float
        The CG the arrays' arms were computed about (the aircraft's as loaded), in.
    scalars, engines, propellers, external, contacts : numpy.ndarray
        This flight's ``jsb_scalars``, ``jsb_turbines``, ``jsb_propellers``, ``jsb_external``, ``jsb_contacts``
        (changed in place: the arms, the inertia, a rocket's starvation).
    inertia, inertia_inv : numpy.ndarray
        The integrator's tensor and its inverse (flightsim's body axes), set in place.
    arm_columns : dict
        Where each array's arms are: ``{"scalars": (J_RP, J_EYE), "engines": E_X, "propellers": PR_X,
        "external": first arm column, "contacts": C_X, "inertia": J_INERTIA, "starved": R_STARVED}``.
    """

    def __init__(self, system, cg, scalars, engines, propellers, external, contacts, inertia, inertia_inv,
                 arm_columns):
        self.system = system
        c = arm_columns
        self.starved_column = c["starved"]
        self._starved0 = engines[:, c["starved"]].copy()
        self.engines = engines
        s = system
        self.state = np.zeros(STATE_SIZE)
        self.state[S_CG0:S_CG0 + 3] = cg
        self._table = s.engine_table()
        self._work = np.zeros((3, 3))
        self._tank_work = np.zeros((s.tanks.shape[0], 3))
        self._found = np.zeros(max(s.tanks.shape[0], 1) * 2, dtype=np.int64)
        # (as loaded: what a reset puts back, so that an aircraft whose masses do not move flies bit for bit as
        # its loaded arrays, not as their sums taken again in another order)
        self._loaded = [(a, a.copy()) for a in (scalars, engines, propellers, external, contacts, inertia,
                                                inertia_inv)]
        self._balance_args = (
            s.location_slots, s.mass_slots, s.mass_shapes, np.ascontiguousarray(s.mass_own.reshape(-1, 9)), s.tanks,
            s.tank_slots, s.tank_capacity, s.tank_kind, s.tank_own, s.gas_slots,
            np.array([s.empty_weight, *s.empty_cg]), np.ascontiguousarray(s.base_inertia), s.output_slots,
            self.state, scalars, np.array([*c["scalars"], c["inertia"]], dtype=np.int64),
            np.array([scalars[k:k + 3] for k in c["scalars"]]),
            engines, c["engines"], engines[:, c["engines"]:c["engines"] + 3].copy(),
            propellers, c["propellers"], propellers[:, c["propellers"]:c["propellers"] + 3].copy(),
            external, c["external"], external[:, c["external"]:c["external"] + 3].copy(),
            contacts, c["contacts"], contacts[:, c["contacts"]:c["contacts"] + 3].copy(),
            inertia, inertia_inv, self._work)
        self._cg_file = np.array(cg, dtype=np.float64)

    def reset(self, props):
        """As loaded (``props``: the property array as loaded): the arrays' arms and tensors the loaded ones, no
        engine starved but as the file leaves them; the balance of the loaded masses taken (its CG the one the
        arms are about from now on), so that only a mass that moves changes them (with gas cells the arms moved to
        that balance's CG, which the gas's mass moves from the file's)."""
        for array, loaded in self._loaded:
            array[...] = loaded
        if self.engines.shape[0]:
            self.engines[:, self.starved_column] = self._starved0
        state = self.state
        state[:] = 0.0
        state[S_CG0:S_CG0 + 3] = self._cg_file
        state[S_CG:S_CG + 3] = self._cg_file
        self.balance(props)
        if self.system.gas_slots.shape[0]:
            # (gas cells: the loaded arms are about the file's CG, without the gas, which the first balance's, with
            # the gas's mass, is not; the arms stay moved to it, as JSBSim's first frame has them)
            state[S_LAST:S_LAST + 3] = state[S_CG:S_CG + 3]
            state[S_DELTA:S_DELTA + 3] = 0.0
            return
        state[S_CG0:S_CG0 + 3] = state[S_CG:S_CG + 3]
        state[S_LAST:S_LAST + 3] = state[S_CG:S_CG + 3]
        state[S_DELTA:S_DELTA + 3] = 0.0
        for array, loaded in self._loaded:
            array[...] = loaded

    @property
    def mass(self):
        """The mass at the last balance, slug."""
        return float(self.state[S_MASS])

    @property
    def delta(self):
        """The CG's move in the last balance, JSBSim's body axes, ft (``vDeltaXYZcgBody``)."""
        return self.state[S_DELTA:S_DELTA + 3]

    def balance(self, props):
        """``FGMassBalance::Run`` on the property array ``props`` (:func:`mass_balance`): whether anything moved."""
        return mass_balance(props, *self._balance_args)

    def consume(self, props, dt):
        """``FGPropulsion::ConsumeFuel`` after the engines' frame of ``dt`` s (:func:`consume_fuel`)."""
        s = self.system
        consume_fuel(props, dt, self._table, s.tank_slots, s.tank_capacity, s.tank_kind, s.freeze_slot,
                     s.output_slots, self.engines, self.starved_column, self._tank_work, self._found)

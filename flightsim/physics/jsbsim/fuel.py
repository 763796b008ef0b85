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
  and power as at mixture 0, so it stops), a rocket no thrust, from the next
  frame on; tanks filled again end the starvation.  Then each tank's external
  flow (``…/external-flow-rate-pps``, ``FGTank::Calculate``) and
  ``propulsion/total-fuel-lbs``.

Every lever arm about the CG the loads hold (the aerodynamic reference point,
the pilot's eye, the contacts, the thrusters, the external forces) moves
with the CG.  Not modelled: refuelling and dumping (``propulsion/refuel``,
``…/fuel_dump``), the tanks' temperature, a turbine's or turboprop's
starvation (they run on with empty tanks), gas cells.

Frames: JSBSim's structural frame (in) and body frame (ft, x forward, y
right, z down); the caller turns the tensor into flightsim's body axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flightsim.physics.jsbsim.mass import FUEL_DENSITY, INCH_TO_FT, _inertia_matrix, tank_inertia
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
#: flightsim's own per-engine flag of a starved piston (1: no fuel reaches it), read by its frame.
STARVED = "{e}/starved"
#: Point-mass shapes (``PointMass::esShape``): none given (its own ``<ixx>``…), tube, cylinder, sphere, ball.
SHAPES = {"tube": 1, "cylinder": 2, "sphere": 3, "ball": 4}
TANK_FUEL, TANK_OXIDIZER = 1, 2


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
        (n, 3) point masses' locations, in.
    mass_slots : numpy.ndarray
        (n,) slots of ``inertia/pointmass-weight-lbs[i]``.
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
    tank_own : tuple
        Per tank its contents' own inertia as ``(coefficient, None)`` (a liquid's: I = coefficient × contents, all
        three axes) or ``(source, element)`` of a solid grain (:func:`tank_inertia`).
    feeds : tuple
        Per engine (file order) its ``<feed>`` tank numbers.
    engines : tuple
        Per engine ``(kind, row)`` (``Propulsion.kinds``).
    flow_slots : numpy.ndarray
        (k, 2) slots of ``…/fuel-flow-rate-pps`` and ``…/oxi-flow-rate-pps`` (−1: none).
    starved_slots : numpy.ndarray
        (k,) slot of a piston's :data:`STARVED` (−1: not a piston).
    output_slots : numpy.ndarray
        Slots of :data:`MASS_OUTPUTS` (−1: none).
    freeze_slot : int
    """

    empty_weight: float
    empty_cg: np.ndarray
    base_inertia: np.ndarray
    masses: np.ndarray
    mass_slots: np.ndarray
    mass_shapes: np.ndarray
    mass_own: np.ndarray
    tanks: np.ndarray
    tank_slots: np.ndarray
    tank_capacity: np.ndarray
    tank_kind: np.ndarray
    tank_own: tuple
    feeds: tuple
    engines: tuple
    flow_slots: np.ndarray
    starved_slots: np.ndarray
    output_slots: np.ndarray
    freeze_slot: int

    @classmethod
    def read(cls, source, props, mass):
        """From the file (``source``) and its :class:`~flightsim.physics.jsbsim.mass.MassBalance` ``mass``; the
        properties' slots made in ``props`` (before its array is made).  Returns the system and the properties'
        values as loaded (name → value)."""
        el = source.section("mass_balance")
        values = {}
        masses, mslots, shapes, own = [], [], [], []
        for k, pm in enumerate(el.findall("pointmass")):
            name = canonical(f"inertia/pointmass-weight-lbs[{k}]")
            mslots.append(props.slot(name))
            values[name] = mass.point_masses[k][1]
            masses.append(mass.point_masses[k][2])
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
            if tank.find("grain_config") is None:
                radius = source.child_number(tank, "radius", "FT", where, 0.0) * 12.0
                factor = source.child_number(tank, "inertia_factor", None, where, 1.0)
                tank_own.append((factor * 0.4 * radius * radius / (144.0 * SLUG_TO_LB) if radius > 0.0 else 0.0,
                                 None))
            else:
                tank_own.append((source, tank))
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
                   np.array(shapes, dtype=np.float64).reshape(-1, 3), np.array(own).reshape(-1, 3, 3),
                   np.array([t[1] for t in mass.tanks], dtype=np.float64).reshape(-1, 3),
                   np.array(tslots, dtype=np.int64).reshape(-1, len(TANK_FIELDS)), np.array(capacity),
                   np.array(kinds, dtype=np.int64), tuple(tank_own), tuple(feeds), (),
                   np.array(flows, dtype=np.int64).reshape(-1, 2), np.array(starved, dtype=np.int64),
                   np.array(outputs, dtype=np.int64), freeze), values

    def with_engines(self, kinds):
        """The same with the engines' kinds and rows (``Propulsion.kinds``)."""
        from dataclasses import replace
        return replace(self, engines=tuple(kinds))


def _shape_inertia(shape, radius, length, weight):
    """``PointMass::CalculateShapeInertia`` for a point mass of ``weight`` lb (JSBSim's body axes)."""
    m = weight / SLUG_TO_LB
    r2, l2 = radius * radius, length * length
    if shape == 1:
        return np.diag([m * r2, m / 12.0 * (6.0 * r2 + l2), m / 12.0 * (6.0 * r2 + l2)])
    if shape == 2:
        return np.diag([m * r2 / 2.0, m / 12.0 * (3.0 * r2 + l2), m / 12.0 * (3.0 * r2 + l2)])
    if shape == 3:
        return np.diag([2.0 * m * r2 / 3.0] * 3)
    if shape == 4:
        return np.diag([2.0 * m * r2 / 5.0] * 3)
    return np.zeros((3, 3))


def _point_inertia(m, r, cg):
    """``FGMassBalance::GetPointmassInertia``: a point of ``m`` slug at structural ``r`` (in) about ``cg``."""
    v = INCH_TO_FT * np.array([cg[0] - r[0], r[1] - cg[1], cg[2] - r[2]])
    sv = m * v
    xx, yy, zz = sv[0] * v[0], sv[1] * v[1], sv[2] * v[2]
    xy, xz, yz = -sv[0] * v[1], -sv[0] * v[2], -sv[1] * v[2]
    return np.array([[yy + zz, xy, xz], [xy, xx + zz, yz], [xz, yz, xx + yy]])


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
    arm_columns : dict
        Where each array's arms are: ``{"scalars": (J_RP, J_EYE), "engines": E_X, "propellers": PR_X,
        "external": first arm column, "contacts": C_X, "inertia": J_INERTIA, "starved": R_STARVED}``.
    """

    def __init__(self, system, cg, scalars, engines, propellers, external, contacts, arm_columns):
        self.system = system
        self.cg0 = np.asarray(cg, dtype=np.float64)
        self.scalars, self.engines, self.propellers = scalars, engines, propellers
        self.external, self.contacts = external, contacts
        self.columns = arm_columns
        c = arm_columns
        self._base = {
            "scalars": [scalars[k:k + 3].copy() for k in c["scalars"]],
            "engines": engines[:, c["engines"]:c["engines"] + 3].copy(),
            "propellers": propellers[:, c["propellers"]:c["propellers"] + 3].copy(),
            "external": external[:, c["external"]:c["external"] + 3].copy(),
            "contacts": contacts[:, c["contacts"]:c["contacts"] + 3].copy(),
        }
        self._moments = external[:, 0] != 0.0 if external.shape[0] else np.zeros(0, dtype=bool)
        self._starved0 = engines[:, c["starved"]].copy() if engines.shape[0] else np.zeros(0)
        self.reset()

    def reset(self):
        """As loaded: the arms about the loaded CG, no engine starved but as the file leaves them."""
        self.cg = self.cg0.copy()
        self.last_cg = self.cg_before = None
        self.key = None
        self.mass = None
        self.inertia = None
        self._shift(np.zeros(3))
        if self.engines.shape[0]:
            self.engines[:, self.columns["starved"]] = self._starved0

    def _shift(self, d):
        """Every arm moved by ``d`` (JSBSim's body axes, ft): the CG's move from the loaded one."""
        c, b = self.columns, self._base
        for k, base in zip(c["scalars"], b["scalars"], strict=True):
            self.scalars[k:k + 3] = base + d
        if self.engines.shape[0]:
            self.engines[:, c["engines"]:c["engines"] + 3] = b["engines"] + d
        if self.propellers.shape[0]:
            self.propellers[:, c["propellers"]:c["propellers"] + 3] = b["propellers"] + d
        if self.external.shape[0]:
            moved = b["external"] + d
            moved[self._moments] = 0.0
            self.external[:, c["external"]:c["external"] + 3] = moved
        if self.contacts.shape[0]:
            self.contacts[:, c["contacts"]:c["contacts"] + 3] = b["contacts"] + d

    def balance(self, props):
        """``FGMassBalance::Run`` on the property array ``props`` (the tanks' contents and the point masses'
        weights there): writes :data:`MASS_OUTPUTS` and the tanks' fullness, moves the arms and the loads' inertia
        (``J_INERTIA``) with the CG.  Returns ``(mass slug, J, delta)``: J JSBSim's body-axes tensor, ``delta`` the
        CG's move since the last call in JSBSim's body axes (ft; ``vDeltaXYZcgBody``), or None when nothing
        changed since the last call (then the rest is the last call's)."""
        s = self.system
        weights = props[s.mass_slots] if s.mass_slots.size else np.zeros(0)
        ts = s.tank_slots
        contents = np.minimum(props[ts[:, T_CONTENTS]], s.tank_capacity) if ts.size else np.zeros(0)
        if ts.size:
            props[ts[:, T_CONTENTS]] = contents
        key = (weights.tobytes(), contents.tobytes())
        if key == self.key and self.last_cg is not None and np.array_equal(self.last_cg, self.cg_before):
            return self.mass, self.inertia, None        # (nothing moved, and the tanks' arms are about this CG)
        self.key = key
        tanks_weight = float(np.sum(contents)) if contents.size else 0.0
        weight = s.empty_weight + tanks_weight + (float(np.sum(weights)) if weights.size else 0.0)
        moment = s.empty_weight * s.empty_cg
        if weights.size:
            moment = moment + weights @ s.masses
        if contents.size:
            moment = moment + contents @ s.tanks
        cg = moment / weight
        last = self.cg if self.last_cg is None else self.last_cg
        # the tanks' inertia (FGPropulsion::CalculateTankInertias, before this frame's mass balance: about the
        # last frame's CG)
        tank_j = np.zeros((3, 3))
        for k in range(contents.shape[0]):
            tank_j += _point_inertia(contents[k] / SLUG_TO_LB, s.tanks[k], last)
            coefficient, element = s.tank_own[k]
            if element is None:
                own = (coefficient * contents[k],) * 3
            else:
                own = tank_inertia(coefficient, element, contents[k], f"propulsion/tank[{k}]")
            tank_j += np.diag(own)
        j = s.base_inertia + _point_inertia(s.empty_weight / SLUG_TO_LB, s.empty_cg, cg)
        pm_j = np.zeros((3, 3))
        for k in range(weights.shape[0]):
            pm_j += _point_inertia(weights[k] / SLUG_TO_LB, s.masses[k], cg)
            shape, radius, length = s.mass_shapes[k]
            pm_j += s.mass_own[k] if shape == 0.0 else _shape_inertia(int(shape), radius, length, weights[k])
        j = j + pm_j + tank_j
        delta = INCH_TO_FT * np.array([cg[0] - last[0], last[1] - cg[1], cg[2] - last[2]])
        self.cg_before = last
        self.last_cg = cg
        self.cg = cg
        self.mass = weight / SLUG_TO_LB
        self.inertia = j
        self._shift(INCH_TO_FT * np.array([cg[0] - self.cg0[0], self.cg0[1] - cg[1], cg[2] - self.cg0[2]]))
        k = self.columns["inertia"]
        self.scalars[k:k + 9] = j.ravel()
        self.scalars[k + 9:k + 18] = np.linalg.inv(j).ravel()
        fuel = float(np.sum(contents[s.tank_kind == TANK_FUEL])) if contents.size else 0.0
        oxidizer = float(np.sum(contents[s.tank_kind == TANK_OXIDIZER])) if contents.size else 0.0
        values = (weight, self.mass, s.empty_weight, cg[0], cg[1], cg[2], j[0, 0], j[1, 1], j[2, 2], -j[0, 1],
                  j[0, 2], -j[1, 2], fuel, oxidizer)
        props[s.output_slots] = values
        if ts.size:
            props[ts[:, T_PCT]] = 100.0 * contents / s.tank_capacity
        return self.mass, j, delta

    def consume(self, props, dt):
        """``FGPropulsion::ConsumeFuel`` for every engine after its frame (the fuel flows in ``props``), then
        the tanks' external flows and the totals; the starved engines marked for the next frame."""
        s = self.system
        if s.tank_slots.size == 0:
            return
        ts = s.tank_slots
        contents = props[ts[:, T_CONTENTS]].copy()
        unusable = props[ts[:, T_UNUSABLE]] * props[ts[:, T_DENSITY]]
        priority = props[ts[:, T_PRIORITY]].astype(np.int64)
        frozen = props[s.freeze_slot] != 0.0
        n = contents.shape[0]
        for k, feeds in enumerate(s.feeds):
            if frozen:
                break
            kind, row = s.engines[k]
            lists = []
            starved = False
            for wanted in (TANK_FUEL, TANK_OXIDIZER) if kind == "rocket" else (TANK_FUEL,):
                found, level = [], 1
                has = False
                while not found and level <= n:
                    for t in feeds:
                        if priority[t] == 0 or s.tank_kind[t] != wanted:
                            continue
                        has = True
                        if contents[t] > unusable[t] and priority[t] == level:
                            found.append(t)
                    if not found:
                        level += 1
                lists.append(found)
                if wanted == TANK_FUEL:
                    starved = not found
                elif has and not found:
                    starved = True
            self._starve(props, k, kind, row, starved)
            if starved:
                continue
            for found, column in zip(lists, (0, 1), strict=False):
                slot = s.flow_slots[k, column]
                need = props[slot] * dt if slot >= 0 else 0.0
                if kind == "electric":
                    need = 0.0
                per_tank = need / len(found) if found else 0.0
                for t in found:
                    remaining = contents[t] - per_tank
                    if remaining >= unusable[t]:
                        contents[t] -= per_tank
                    elif contents[t] > unusable[t]:
                        contents[t] = unusable[t]
        flow = props[ts[:, T_FLOW]]
        for t in range(n):
            if flow[t] < 0.0:
                remaining = contents[t] + flow[t] * dt
                if remaining >= unusable[t]:
                    contents[t] = remaining
                elif contents[t] > unusable[t]:
                    contents[t] = unusable[t]
            elif flow[t] > 0.0:
                contents[t] = min(contents[t] + flow[t] * dt, s.tank_capacity[t])
        props[ts[:, T_CONTENTS]] = contents
        props[ts[:, T_PCT]] = 100.0 * contents / s.tank_capacity
        out = s.output_slots
        props[out[-2]] = float(np.sum(contents[s.tank_kind == TANK_FUEL]))
        props[out[-1]] = float(np.sum(contents[s.tank_kind == TANK_OXIDIZER]))

    def _starve(self, props, k, kind, row, starved):
        """Engine ``k``'s ``Starved`` flag for its next frame."""
        if kind == "piston":
            slot = self.system.starved_slots[k]
            if slot >= 0:
                props[slot] = 1.0 if starved else 0.0
        elif kind == "rocket":
            self.engines[row, self.columns["starved"]] = 1.0 if starved else 0.0

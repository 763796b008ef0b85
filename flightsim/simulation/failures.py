"""Failures: what goes wrong with an airplane, when, and what it does to the flight.

A failure is one of :data:`KINDS` (bit ``i`` of the trace's ``failures`` column is the ``i``-th kind).  Each acts
where the real one acts, in the simulation layer, so every way of flying one (the app, ``simulate``, the
environments) sees the same thing:

=================  ====================================================================================
kind               what it does
=================  ====================================================================================
engine             the engine quits: mixture cut, magnetos off (a propeller windmills, or stops against
                   its friction; a JSBSim engine's own cut-off)
engine_partial     the engine gives ``fraction`` of its indicated power (a piston's, flightsim's or JSBSim's;
                   a constant thrust gives that fraction of its thrust; a JSBSim turbine's core spools no
                   higher than leaves that fraction of its military thrust)
engine_rough       the engine misfires: its power drops in irregular bursts (a few per second, to
                   between :data:`ROUGH_LOW` and 1 of its power), the same bursts for the same ``seed``
jam_aileron,       the surface stays where it was when it jammed, whatever the stick does
jam_elevator,
jam_rudder
trim_runaway       the elevator trim runs at :data:`TRIM_RUNAWAY_RATE` to its stop (``direction`` ``down``,
                   the default, nose down; or ``up``) and stays there
pitot              the pitot tube is blocked (its drain hole too): the pressure it holds stays, so the
                   airspeed indicator reads like an altimeter (:mod:`flightsim.simulation.gauges`)
static             the static port is blocked: altimeter and vertical speed frozen, the airspeed wrong as
                   the height changes
vacuum             the vacuum pump quits: the attitude and heading indicators' gyros spin down, drift and
                   topple over minutes
electrical         the electrical system fails: the NAV radio, the autopilot and the electric gauges off
brake_left,        that side's wheel brakes do nothing
brake_right
tyre_left,         that side's main tyre is flat: it drags (its rolling friction :data:`FLAT_TYRE_FRICTION`)
tyre_right         and pulls the airplane to its side
=================  ====================================================================================

When: at once (:meth:`Failures.fail`, the Instructor panel) or on a schedule read from a failures file
(:func:`read_failures`, ``--failures FILE.toml``): a list of ``[[failure]]`` tables, each with ``kind``,
exactly one trigger (``at_s``; ``above_ft`` or ``below_ft``, the height of the airplane's lowest point above the
ground, crossed upwards or downwards; or ``window_s = [from, to]`` with a ``seed``, a time drawn uniformly in
it), and where they apply ``engine`` (1-based; all when left out), ``fraction`` (``engine_partial``, 0..1),
``direction`` (``trim_runaway``), ``probability`` (0..1, default 1: the chance, drawn with ``seed``, that it
happens at all) and ``seed`` (default 0)::

    [[failure]]
    kind = "engine"
    window_s = [20, 40]
    seed = 7

    [[failure]]
    kind = "pitot"
    above_ft = 1500
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flightsim.physics.aero import P_AVAILABLE
from flightsim.physics.gear import BRAKE_LEFT, BRAKE_RIGHT, G_ROLLING, GEAR_WHEEL, R_BRAKE, R_KIND, wheel_brake
from flightsim.physics.jsbsim.ground_reactions import C_BRAKE_SLOT, C_ROLLING
from flightsim.schema import Checker, read_toml
from flightsim.simulation.controls import (
    BRAKE,
    CONTROL_NAMES,
    ELEVATOR,
    ENGINE,
    PARKING_BRAKE,
)
from flightsim.simulation.controls import BRAKE_LEFT as B_LEFT
from flightsim.simulation.controls import BRAKE_RIGHT as B_RIGHT

__all__ = ["FLAT_TYRE_FRICTION", "KINDS", "TRIGGERS", "TRIM_RUNAWAY_RATE", "Failure", "Failures", "bits_of",
           "describe", "kinds_for", "read_failures"]

#: Every kind of failure, in the order of the trace's ``failures`` bit field (bit i: ``KINDS[i]``).
KINDS = ("engine", "engine_partial", "engine_rough", "jam_aileron", "jam_elevator", "jam_rudder", "trim_runaway",
         "pitot", "static", "vacuum", "electrical", "brake_left", "brake_right", "tyre_left", "tyre_right")
#: A failure's triggers: a file's failure has exactly one.
TRIGGERS = ("at_s", "above_ft", "below_ft", "window_s")
#: The kinds that name an engine (``engine``, 1-based).
ENGINE_KINDS = ("engine", "engine_partial", "engine_rough")
#: A runaway elevator trim's rate, of the trim's travel (−1..1) per second: a light airplane's electric trim
#: runs stop to stop in about 10 s.
TRIM_RUNAWAY_RATE = 0.2
#: A rough engine's power drops to between this fraction and 1 in each burst.
ROUGH_LOW = 0.3
#: How long (s) a rough engine's bursts last, about.
ROUGH_PERIOD = 0.25
#: A flat tyre's rolling friction coefficient (a rolling tyre's is about 0.02; a flat one's rim and rubber
#: about 0.3).
FLAT_TYRE_FRICTION = 0.3
#: The control entries a jam holds (:data:`flightsim.simulation.controls.CONTROL_NAMES` order).
_JAMMED = {"jam_aileron": "aileron", "jam_elevator": "elevator", "jam_rudder": "rudder"}


@dataclass(frozen=True)
class Failure:
    """One failure and when it happens.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    at_s, above_ft, below_ft : float or None
        The trigger: a time (s), or the lowest point's height above the ground (ft) crossed upwards
        (``above_ft``) or downwards (``below_ft``).  ``window_s`` is resolved into ``at_s`` when read.
    engine : int or None
        1-based engine number (``engine*`` kinds); None: every engine.
    fraction : float
        ``engine_partial``: the fraction of its power the engine gives (0..1).
    direction : str
        ``trim_runaway``: ``"down"`` (nose down) or ``"up"``.
    happens : bool
        Whether it happens at all (its ``probability`` drawn with its ``seed``).
    seed : int
        The seed of its draws (the window's time, the probability, a rough engine's bursts).
    """

    kind: str
    at_s: float | None = 0.0
    above_ft: float | None = None
    below_ft: float | None = None
    engine: int | None = None
    fraction: float = 0.5
    direction: str = "down"
    happens: bool = True
    seed: int = 0

    @property
    def bit(self):
        """This failure's bit in the ``failures`` bit field."""
        return 1 << KINDS.index(self.kind)


def bits_of(kinds):
    """The ``failures`` bit field of an iterable of kind names."""
    return sum(1 << KINDS.index(k) for k in set(kinds))


_FIELDS = ("kind", "engine", "fraction", "direction", "probability", "seed") + TRIGGERS


def read_failures(path, engines=None, kinds=KINDS):
    """The failures a failures file schedules (see the module's docstring), in the file's order.

    Parameters
    ----------
    path : str or Path
    engines : int, optional
        How many engines the aircraft has: an ``engine`` beyond it is refused.
    kinds : tuple of str
        The kinds the aircraft can have (:func:`kinds_for`); the others are refused.

    Returns
    -------
    tuple of Failure

    Raises
    ------
    flightsim.errors.InputError
        One line naming the file, the field (``failure[2].at_s``) and the reason: an unknown kind or key, no
        trigger or two, a time < 0, a window not increasing, a probability or fraction outside 0..1, an engine
        number the aircraft does not have.
    """
    data = read_toml(path)
    check = Checker(path)
    check.table(data, "", optional=("failure",))
    items = data.get("failure")
    if not isinstance(items, list) or not items:
        check.fail("failure", "expected one or more [[failure]] tables")
    out = []
    for i, item in enumerate(items):
        where = f"failure[{i}]"
        check.table(item, where, required=("kind",), optional=_FIELDS)
        kind = check.choice(item["kind"], f"{where}.kind", KINDS, noun="failure", label="the failures are")
        if kind not in kinds:
            check.fail(f"{where}.kind", f"{kind}: not for this aircraft (it can have {', '.join(kinds)})")
        triggers = [t for t in TRIGGERS if t in item]
        if len(triggers) != 1:
            check.fail(where, ("needs a trigger: one of " if not triggers else "has more than one trigger: ")
                       + ", ".join(triggers or TRIGGERS))
        trigger = triggers[0]
        seed = check.integer(item.get("seed", 0), f"{where}.seed", ge=0)
        rng = np.random.default_rng([seed, i])
        fields = dict(kind=kind, seed=seed, at_s=None)
        if trigger == "window_s":
            lo, hi = check.numbers(item["window_s"], f"{where}.window_s", length=2, increasing=True, ge=0.0,
                                   unit="s")
            fields["at_s"] = float(lo + (hi - lo) * rng.random())
        elif trigger == "at_s":
            fields["at_s"] = check.number(item["at_s"], f"{where}.at_s", ge=0.0, unit="s")
        else:
            fields[trigger] = check.number(item[trigger], f"{where}.{trigger}", ge=0.0, unit="ft")
        probability = check.number(item.get("probability", 1.0), f"{where}.probability", ge=0.0, le=1.0)
        fields["happens"] = bool(rng.random() < probability) if probability < 1.0 else True
        if "engine" in item:
            if kind not in ENGINE_KINDS:
                check.fail(f"{where}.engine", f"only for {', '.join(ENGINE_KINDS)}")
            top = engines if engines else None
            fields["engine"] = check.integer(item["engine"], f"{where}.engine", ge=1, **({} if top is None
                                                                                       else {"le": top}))
        if "fraction" in item:
            if kind != "engine_partial":
                check.fail(f"{where}.fraction", "only for engine_partial")
            fields["fraction"] = check.number(item["fraction"], f"{where}.fraction", ge=0.0, le=1.0)
        if "direction" in item:
            if kind != "trim_runaway":
                check.fail(f"{where}.direction", "only for trim_runaway")
            fields["direction"] = check.string(item["direction"], f"{where}.direction", choices=("down", "up"))
        out.append(Failure(**fields))
    return tuple(out)


class Failures:
    """A flight's failures: those scheduled, those active, and what they do to its controls and its airplane.

    Parameters
    ----------
    scheduled : iterable of Failure
        The schedule (:func:`read_failures`); more can fail at once with :meth:`fail`.
    engines : int
        How many engines the aircraft has.

    Attributes
    ----------
    active : dict
        kind → the :class:`Failure` in force (and its state: when it began, a jammed value, the trim's place).
    """

    def __init__(self, scheduled=(), engines=1):
        self.scheduled = [f for f in scheduled if f.happens]
        self.engines = int(engines)
        self.active = {}
        self._since = {}
        self._held = {}
        self._last_height = None
        self._schedule = tuple(self.scheduled)
        self._gear = self._refs = self._engine = self._rolling = None
        self._switches, self._props, self._cut = (), None, set()
        self._power_slots, self._contacts, self._contact_rolling, self._contact_sides = (), None, None, {}

    def reset(self):
        """Everything repaired and the schedule armed again (a flight's reset)."""
        self.repair()
        self.scheduled = list(self._schedule)
        self._last_height = None

    @property
    def bits(self):
        """The active failures as the trace's bit field (bit i: :data:`KINDS` [i])."""
        return bits_of(self.active)

    def since(self, kind):
        """When ``kind`` failed (s), or None while it works."""
        return self._since.get(kind)

    def fail(self, kind, t, engine=None, fraction=0.5, direction="down", seed=0):
        """Fail ``kind`` now (time ``t``, s); a kind already failed stays as it failed."""
        if kind not in KINDS:
            raise ValueError(f"kind: no failure {kind!r}; the failures are {', '.join(KINDS)}")
        if kind not in self.active:
            self.active[kind] = Failure(kind, at_s=t, engine=engine, fraction=fraction, direction=direction,
                                        seed=seed)
            self._since[kind] = float(t)

    def repair(self, kind=None):
        """Repair ``kind`` (None: everything); a scheduled failure that has fired does not fire again."""
        for k in list(self.active) if kind is None else [kind]:
            self.active.pop(k, None)
            self._since.pop(k, None)
            self._held.pop(k, None)
        for k in list(self._cut):               # a JSBSim engine repaired: its magnetos on, its fuel on again
            if self.engine_running(k):
                slot, _, working = self._switches[k]
                self._props[slot] = working
                self._cut.discard(k)

    def trigger(self, t, height):
        """Fire the scheduled failures whose trigger the flight has reached at time ``t`` (s) with its lowest
        point ``height`` ft above the ground; returns the kinds fired."""
        fired = []
        last = self._last_height
        for f in list(self.scheduled):
            due = ((f.at_s is not None and t >= f.at_s)
                   or (f.above_ft is not None and last is not None and last < f.above_ft <= height)
                   or (f.below_ft is not None and last is not None and last > f.below_ft >= height))
            if due:
                self.scheduled.remove(f)
                if f.kind not in self.active:
                    self.active[f.kind] = f
                    self._since[f.kind] = float(t)
                    fired.append(f.kind)
        self._last_height = float(height)
        return fired

    def controls(self, row, t, pilot_elevator, pilot_trim):
        """The controls row the airplane flies with the active failures (``row`` changed in place and returned).

        ``row`` is the pilot's row as flown (:func:`~flightsim.simulation.controls.flown_row`); a jam holds its
        surface at the value it had when it jammed, a runaway trim replaces the pilot's (``pilot_elevator``
        plus the runaway trim, clipped), a failed engine is off (one engine: the engine control; a JSBSim
        aircraft's own engines are cut by :meth:`engine_running`).
        """
        for kind, name in _JAMMED.items():
            if kind in self.active:
                k = CONTROL_NAMES.index(name)
                row[k] = self._held.setdefault(kind, float(row[k]))
        runaway = self.active.get("trim_runaway")
        if runaway is not None and "jam_elevator" not in self.active:
            begun = self._held.setdefault("trim_runaway", float(pilot_trim))
            sign = -1.0 if runaway.direction == "down" else 1.0
            trim = min(max(begun + sign * TRIM_RUNAWAY_RATE * (t - self._since["trim_runaway"]), -1.0), 1.0)
            row[ELEVATOR] = min(max(pilot_elevator + trim, -1.0), 1.0)
        quit_ = self.active.get("engine")
        if quit_ is not None and (quit_.engine is None or self.engines == 1):
            row[ENGINE] = 0.0
        left, right = "brake_left" in self.active, "brake_right" in self.active
        if left or right:
            _fail_brakes(row, left, right)
        return row

    def attach(self, gear, refs, engine):
        """Tie the failures to an airplane's arrays: the loads' ``gear`` table and ``gear_refs``
        (:mod:`flightsim.physics.gear`: a flat tyre's rolling friction) and ``engine``
        (:data:`flightsim.physics.aero.P_AVAILABLE`: the power an ``engine_partial`` or ``engine_rough`` leaves).
        """
        self._gear, self._refs, self._engine = gear, refs, engine
        self._rolling = None if gear is None else gear[:, G_ROLLING].copy()

    def attach_jsbsim(self, model, props, contacts):
        """Tie the failures to a JSBSim aircraft (``model``) flown with the property array ``props`` and the
        contacts ``contacts`` (this flight's own ``jsb_contacts``): a quit piston's magnetos off, a quit turbine's
        fuel cut off (:func:`engine_switches`); partial power and rough running through each engine's
        ``failure-power-norm`` (:func:`engine_power_slots`); a flat tyre's rolling friction on the contacts of that
        side's brake group (:func:`braked_contacts`)."""
        self._switches, self._props = engine_switches(model), props
        self._power_slots = engine_power_slots(model)
        self._contacts = contacts
        self._contact_rolling = contacts[:, C_ROLLING].copy()
        self._contact_sides = braked_contacts(model)

    def airplane(self, t):
        """Put the active failures into the attached arrays at time ``t`` (s): each step, before it flies."""
        for k, switch in enumerate(self._switches):
            if switch is not None and not self.engine_running(k):
                self._props[switch[0]] = switch[1]
                self._cut.add(k)
        for k, slot in enumerate(self._power_slots):
            if slot is not None:            # (a quit engine is its switch's: its power left whole here)
                self._props[slot] = self.power(t, k) if self.engine_running(k) else 1.0
        if self._contacts is not None:
            rolling = self._contact_rolling.copy()
            for kind, side in (("tyre_left", BRAKE_LEFT), ("tyre_right", BRAKE_RIGHT)):
                if kind in self.active:
                    rolling[self._contact_sides[side]] = FLAT_TYRE_FRICTION
            self._contacts[:, C_ROLLING] = rolling
        if self._engine is not None:
            self._engine[P_AVAILABLE] = self.power(t)
        if self._gear is not None and len(self._rolling):
            rolling = self._rolling.copy()
            for kind, side in (("tyre_left", BRAKE_LEFT), ("tyre_right", BRAKE_RIGHT)):
                if kind in self.active:
                    rolling[_main_wheels(self._refs, side)] = FLAT_TYRE_FRICTION
            self._gear[:, G_ROLLING] = rolling

    def engine_running(self, k):
        """Whether engine ``k`` (0-based) still runs (False: the ``engine`` failure names it, or all)."""
        f = self.active.get("engine")
        return f is None or (f.engine is not None and f.engine - 1 != k)

    def power(self, t, k=0):
        """The fraction (0..1) of its power engine ``k`` (0-based) gives at time ``t`` (s): 1 unless
        ``engine_partial`` or ``engine_rough`` names it, 0 where it has quit."""
        scale = 0.0 if not self.engine_running(k) else 1.0       # (a constant thrust reads no engine control)
        part = self.active.get("engine_partial")
        if part is not None and (part.engine is None or part.engine - 1 == k):
            scale *= part.fraction
        rough = self.active.get("engine_rough")
        if rough is not None and (rough.engine is None or rough.engine - 1 == k):
            scale *= rough_power(t - self._since["engine_rough"], rough.seed)
        return scale


#: The failures a batch flies: every kind (each airplane has its own engine and gear rows).
BATCH_KINDS = KINDS
#: The columns of :attr:`BatchFailures.since` whose failures change an airplane's engine, gear or contact rows.
_ROW_KINDS = [KINDS.index(k) for k in ("engine", "engine_partial", "engine_rough", "tyre_left", "tyre_right")]


class BatchFailures:
    """The failures of every airplane of a :class:`~flightsim.simulation.batch.BatchSimulation`: one schedule
    (:func:`read_failures`: every kind, :data:`BATCH_KINDS`) for each airplane, each firing on its own clock and
    height, and what they do to each one's controls (:meth:`flown`) and its own engine, gear and contact rows
    (:meth:`airplanes`), as :class:`Failures` does for one flight.

    Parameters
    ----------
    n : int
        Airplanes.
    scheduled : iterable of Failure
    constant_thrust : bool
        The aircraft's thrust is a constant times the throttle (the book's airplane): a failed engine is then the
        throttle closed (its thrust does not read the engine control).
    """

    def __init__(self, n, scheduled, constant_thrust=False):
        self.scheduled = tuple(f for f in scheduled if f.happens)
        self.n = int(n)
        self.constant_thrust = bool(constant_thrust)
        self.since = np.full((self.n, len(KINDS)), np.nan)
        self._held = np.full((self.n, len(KINDS)), np.nan)
        self._pending = np.ones((self.n, len(self.scheduled)), dtype=bool)
        self._last_height = np.full(self.n, np.nan)
        self._engine = self._gear = self._refs = self._rolling = None
        self._props, self._power_slots, self._contacts, self._contact_rolling, self._contact_sides = \
            None, (), None, None, {}
        #: whether the attached rows last got a failure's values (so that a repair writes the healthy ones once)
        self._rows_failed = False

    def attach(self, engine, gear, refs):
        """Tie the failures to the airplanes' own rows of flightsim's loads: ``engine`` ``(N, …)`` (its
        :data:`~flightsim.physics.aero.P_AVAILABLE`: partial power and rough running), ``gear`` ``(N, rows, …)``
        and the shared ``gear_refs`` (a flat tyre's rolling friction), as :meth:`Failures.attach` does for one."""
        self._engine, self._gear, self._refs = engine, gear, refs
        self._rolling = None if gear is None else gear[:, :, G_ROLLING].copy()

    def attach_jsbsim(self, model, props, contacts):
        """Tie the failures to a JSBSim aircraft's airplanes: their property rows ``props`` ``(N, slots)`` (each
        engine's ``failure-power-norm``) and contact rows ``contacts`` ``(N, contacts, …)`` (a flat tyre), as
        :meth:`Failures.attach_jsbsim` does for one."""
        self._props, self._power_slots = props, engine_power_slots(model)
        self._contacts = contacts
        self._contact_rolling = contacts[:, :, C_ROLLING].copy()
        self._contact_sides = braked_contacts(model)

    def power(self, times, k=0):
        """``(N,)`` the fraction (0..1) of its power each airplane's engine ``k`` (0-based) gives at its clock
        ``times`` (s), as :meth:`Failures.power`."""
        out = np.where(self._dead(k), 0.0, 1.0)
        part = self._failure("engine_partial")
        on = np.isfinite(self.since[:, KINDS.index("engine_partial")])
        if part.engine is None or part.engine - 1 == k:
            out[on] *= part.fraction
        rough = self._failure("engine_rough")
        j = KINDS.index("engine_rough")
        if rough.engine is None or rough.engine - 1 == k:
            for a in np.flatnonzero(np.isfinite(self.since[:, j])):
                out[a] *= rough_power(times[a] - self.since[a, j], rough.seed)
        return out

    def _failure(self, kind):
        """The schedule's failure of ``kind`` (its engine, fraction, seed), or one with the defaults of
        :class:`Failure` (a failure made at once with :meth:`fail`)."""
        return next((f for f in self.scheduled if f.kind == kind), Failure(kind))

    def _dead(self, k):
        """``(N,)`` whether each airplane's engine ``k`` has quit."""
        which = self._failure("engine").engine
        dead = np.isfinite(self.since[:, KINDS.index("engine")])
        return dead if which is None or which - 1 == k else np.zeros(self.n, dtype=bool)

    def airplanes(self, times):
        """Before a step: each airplane's engine power and tyres as its failures leave them (at its clock ``times``,
        s), in the attached rows, as :meth:`Failures.airplane` does for one flight.  Nothing is written while no
        airplane has such a failure and the rows already hold the healthy values (the batch's hot path)."""
        on = bool(np.isfinite(self.since[:, _ROW_KINDS]).any())
        if not on and not self._rows_failed:
            return
        self._rows_failed = on
        flat = {side: np.isfinite(self.since[:, KINDS.index(kind)])
                for kind, side in (("tyre_left", BRAKE_LEFT), ("tyre_right", BRAKE_RIGHT))}
        if self._engine is not None:
            self._engine[:, P_AVAILABLE] = self.power(times)
        if self._gear is not None and self._rolling.shape[1]:
            rolling = self._rolling.copy()
            for side, on in flat.items():
                rolling[np.ix_(on, _main_wheels(self._refs, side))] = FLAT_TYRE_FRICTION
            self._gear[:, :, G_ROLLING] = rolling
        for k, slot in enumerate(self._power_slots):
            if slot is not None:
                self._props[:, slot] = np.where(self._dead(k), 1.0, self.power(times, k))
        if self._contacts is not None:
            rolling = self._contact_rolling.copy()
            for side, on in flat.items():
                rolling[np.ix_(on, self._contact_sides[side])] = FLAT_TYRE_FRICTION
            self._contacts[:, :, C_ROLLING] = rolling

    @property
    def any(self):
        """Whether anything is scheduled or in force (a batch with nothing to do skips the work)."""
        return bool(self._pending.any()) or bool(np.isfinite(self.since).any())

    @property
    def bits(self):
        """``(N,)`` int64: each airplane's failures in force as the trace's bit field."""
        return (np.isfinite(self.since) * (1 << np.arange(len(KINDS)))).sum(axis=1).astype(np.int64)

    def reset(self, index):
        """The airplanes ``index`` repaired, their schedule armed again."""
        self.since[index] = np.nan
        self._held[index] = np.nan
        self._pending[index] = True
        self._last_height[index] = np.nan

    def fail(self, kind, index, times):
        """Fail ``kind`` now on the airplanes ``index`` (``times``: every airplane's clock, s); one already failed
        stays as it failed."""
        if kind not in KINDS:
            raise ValueError(f"kind: no failure {kind!r}; the failures are {', '.join(KINDS)}")
        k = KINDS.index(kind)
        index = np.asarray(index, dtype=np.int64).reshape(-1)
        fresh = index[~np.isfinite(self.since[index, k])]
        self.since[fresh, k] = times[fresh]

    def trigger(self, times, heights, running):
        """Fire what is due: each airplane at its clock ``times`` with its lowest point ``heights`` ft above the
        ground, where ``running``."""
        last = self._last_height
        for j, f in enumerate(self.scheduled):
            pending = self._pending[:, j] & running
            if not pending.any():
                continue
            if f.at_s is not None:
                due = times >= f.at_s
            elif f.above_ft is not None:
                due = (last < f.above_ft) & (heights >= f.above_ft)
            else:
                due = (last > f.below_ft) & (heights <= f.below_ft)
            due &= pending
            k = KINDS.index(f.kind)
            fresh = due & ~np.isfinite(self.since[:, k])
            self.since[fresh, k] = times[fresh]
            self._pending[due, j] = False
        self._last_height = np.where(running, heights, last)

    def cut_engines(self, props, switches):
        """A JSBSim aircraft's quit engines (``switches``: :func:`engine_switches`) switched off in each airplane's
        property row ``props`` ``(N, slots)`` (the failure's engine, or every one)."""
        for k, switch in enumerate(switches):
            if switch is not None:
                props[self._dead(k), switch[0]] = switch[1]

    def flown(self, pilot, out, times):
        """The controls each airplane flies: the pilot's rows ``pilot`` ``(N, 11)`` with the failures in force, into
        ``out`` (jams hold the value at the jam, the runaway trim runs from the pilot's elevator then, a failed
        engine is off, a failed brake does nothing)."""
        out[:] = pilot
        for kind, name in _JAMMED.items():
            k, c = KINDS.index(kind), CONTROL_NAMES.index(name)
            on = np.isfinite(self.since[:, k])
            new = on & np.isnan(self._held[:, k])
            self._held[new, k] = pilot[new, c]
            out[on, c] = self._held[on, k]
        k = KINDS.index("trim_runaway")
        on = np.isfinite(self.since[:, k]) & ~np.isfinite(self.since[:, KINDS.index("jam_elevator")])
        if on.any():        # the trim runs from where it was, the stick still adding to it (rows hold stick + trim)
            sign = -1.0 if next((f.direction for f in self.scheduled if f.kind == "trim_runaway"), "down") \
                == "down" else 1.0
            run = np.minimum(TRIM_RUNAWAY_RATE * (times[on] - self.since[on, k]), 2.0)
            out[on, ELEVATOR] = np.clip(pilot[on, ELEVATOR] + sign * run, -1.0, 1.0)
        dead = np.isfinite(self.since[:, KINDS.index("engine")])
        out[dead, ENGINE] = 0.0
        if self.constant_thrust:
            out[dead, CONTROL_NAMES.index("throttle")] = 0.0
        left = np.isfinite(self.since[:, KINDS.index("brake_left")])
        right = np.isfinite(self.since[:, KINDS.index("brake_right")])
        for a in np.flatnonzero(left | right):
            _fail_brakes(out[a], bool(left[a]), bool(right[a]))
        return out


def engine_switches(model):
    """Per engine of a JSBSim aircraft ``model``, what quits it: ``(slot, value failed, value working)`` of a
    piston's magnetos (off / both) or a turbine's fuel cut-off (on / off) in its property array; None for an engine
    that has neither (a rocket, an electric motor, a turboprop)."""
    from flightsim.physics.jsbsim import piston, turbine

    prop = model.propulsion
    out = []
    for kind, row in prop.kinds:
        if kind == "piston":
            out.append((int(prop.piston_slots[row, piston.PS_MAGNETOS]), 0.0, 3.0))
        elif kind == "turbine":
            out.append((int(prop.slots[row, turbine.S_CUTOFF]), 1.0, 0.0))
        else:
            out.append(None)
    return tuple(out)


def engine_power_slots(model):
    """Per engine of a JSBSim aircraft ``model``, the slot of its ``failure-power-norm`` (flightsim's own
    property: the fraction of its power a failure leaves a piston or a turbine) in its property array; None for
    an engine that has none (a rocket, an electric motor, a turboprop)."""
    from flightsim.physics.jsbsim import piston, turbine

    prop = model.propulsion
    out = []
    for kind, row in prop.kinds:
        if kind == "piston":
            out.append(int(prop.piston_slots[row, piston.PS_POWER]))
        elif kind == "turbine":
            out.append(int(prop.slots[row, turbine.S_POWER]))
        else:
            out.append(None)
    return tuple(out)


def braked_contacts(model):
    """A JSBSim aircraft's wheels by side: ``{BRAKE_LEFT: rows, BRAKE_RIGHT: rows}`` of its contacts (rows of
    ``jsb_contacts``) in the LEFT and the RIGHT brake groups (FGLGear's ``<brake_group>``): the main wheels whose
    tyre a ``tyre_left`` or ``tyre_right`` flattens."""
    rows, names = model.contacts, model.properties.names
    side = {"fcs/left-brake-cmd-norm": BRAKE_LEFT, "fcs/right-brake-cmd-norm": BRAKE_RIGHT}
    groups = [side.get(names[int(slot)]) if slot >= 0 else None for slot in rows[:, C_BRAKE_SLOT]]
    return {s: np.array([k for k, g in enumerate(groups) if g == s], dtype=np.int64)
            for s in (BRAKE_LEFT, BRAKE_RIGHT)}


def kinds_for(aircraft):
    """The failures ``aircraft`` can have: every kind for flightsim's own aircraft (the brakes' and the tyres' where
    it has braked wheels); for JSBSim's aircraft the engine quitting, partial power and rough running where its
    engines are pistons or turbines (:func:`engine_switches`, :func:`engine_power_slots`), the brakes and the tyres
    where it has wheels in the LEFT and RIGHT brake groups (:func:`braked_contacts`)."""
    model = getattr(aircraft, "jsbsim", None)
    if model is None:
        braked = any(c.is_wheel and c.brake_friction > 0.0 for c in aircraft.gear)
        quits = powered = True
    else:
        sides = braked_contacts(model)
        braked = all(len(rows) for rows in sides.values())
        quits = any(s is not None for s in engine_switches(model))
        powered = any(s is not None for s in engine_power_slots(model))
    return tuple(k for k in KINDS if not (k == "engine" and not quits)
                 and not (k in ("engine_partial", "engine_rough") and not powered)
                 and not (not braked and k.startswith(("brake_", "tyre_"))))


def describe(failure):
    """A scheduled failure's trigger in words: ``at 12 s``, ``above 300 ft``, ``below 200 ft``."""
    if failure.at_s is not None:
        return f"at {failure.at_s:.0f} s"
    if failure.above_ft is not None:
        return f"climbing through {failure.above_ft:.0f} ft"
    return f"descending through {failure.below_ft:.0f} ft"


def _fail_brakes(row, left, right):
    """A controls row with the failed side's brakes doing nothing: the other side keeps what it had (the pedals'
    brake eased by the rudder, its toe brake, the parking brake), carried in its own toe-brake entry."""
    on_left, on_right = wheel_brake(row, BRAKE_LEFT), wheel_brake(row, BRAKE_RIGHT)    # (the gear's own rule)
    row[BRAKE] = row[PARKING_BRAKE] = 0.0
    row[B_LEFT] = 0.0 if left else on_left
    row[B_RIGHT] = 0.0 if right else on_right


def _main_wheels(refs, side):
    """The rows of the wheels braked on ``side`` (the main wheels on that side of the centre line)."""
    return np.flatnonzero((refs[:, R_KIND] == GEAR_WHEEL) & (refs[:, R_BRAKE] == side))


def rough_power(t, seed):
    """A rough engine's power fraction ``t`` s after it began: bursts of :data:`ROUGH_PERIOD` s, each at a level
    drawn (with ``seed``) between :data:`ROUGH_LOW` and 1, one in three at full power."""
    burst = int(math.floor(max(t, 0.0) / ROUGH_PERIOD))
    u = np.random.default_rng([seed, burst]).random(2)
    return 1.0 if u[0] < 1.0 / 3.0 else ROUGH_LOW + (1.0 - ROUGH_LOW) * float(u[1])

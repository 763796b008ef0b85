"""A JSBSim script's ``<event>``s: read (``FGScript::LoadScript``) and run once a frame (``FGScript::RunScript``).

Sources (JSBSim 1.3, read, not copied): ``src/input_output/FGScript.cpp`` (the events, their sets and notices),
``src/math/FGCondition.cpp`` (the tests), ``src/math/FGPropertyValue.cpp`` and ``FGParameterValue.h`` (a test's
left side is a property, optionally ``-NAME``; its right side a number, else a property).

- ``<condition logic="AND|OR">``: each data line ``PROPERTY OP VALUE-OR-PROPERTY`` (three words; ``OP`` one of
  ``lt le gt ge eq ne``, their capitals, or ``< <= > >= == !=``) and nested ``<condition>``s; AND by default.
- ``<event name persistent="true" continuous="true">``: each frame, in file order, when its condition holds and
  it has not been triggered, every ``<set>`` starts: its original value is read, its target is ``value`` (or the
  ``<function>``'s value now; FG_DELTA adds the original), its start is the clock plus ``<delay>``.  While
  triggered and the clock has reached the start, each transiting set writes FG_STEP: the target, once (every frame
  for a continuous event, its function evaluated again); FG_RAMP: the straight line to the target over ``tc``
  seconds, then the target (once more every frame for a continuous event); FG_EXP: ``original + (1 −
  exp(−Δt / tc)) span`` every frame from then on.  A persistent or continuous event whose condition fails is
  re-armed (triggered and notified cleared); a plain one fires once.
- ``<notify>``: once per trigger, after the sets, JSBSim's lines on stdout: an empty line, ``NAME (Event K)
  executed at time: T``, the notice's ``<description>`` indented, ``    NAME = VALUE`` per ``<property>`` (its
  caption if given; ``apply=`` a template of ``<output>``'s), an empty line, with C++'s default six significant
  digits; ``format="kml"``: JSBSim's KML ``<Placemark>`` (the same lines, and the longitude, latitude and height
  above sea level in metres as its point).  A ``<property>`` nothing defines is bound late, as JSBSim's
  ``FGPropertyValue``: the run stops only when its event fires.  (An event with no ``<set>`` has its start at 0 s,
  as JSBSim's: its delay is not waited for.)
"""

from __future__ import annotations

import bisect
import heapq
import math
import operator
from dataclasses import dataclass, field

__all__ = ["ACTIONS", "COMPARE", "COMPARISONS", "TYPES", "Condition", "Event", "EventRunner", "Notice", "SetAction",
           "Test", "cpp_number", "run_events"]

#: A test's comparison words (FGCondition's table) → the comparison.
COMPARISONS = {
    "!=": "ne", "<": "lt", "<=": "le", "==": "eq", ">": "gt", ">=": "ge",
    "EQ": "eq", "GE": "ge", "GT": "gt", "LE": "le", "LT": "lt", "NE": "ne",
    "eq": "eq", "ge": "ge", "gt": "gt", "le": "le", "lt": "lt", "ne": "ne",
}
#: ``<set action=>`` values.
ACTIONS = ("FG_RAMP", "FG_STEP", "FG_EXP")
#: ``<set type=>`` values.
TYPES = ("FG_VALUE", "FG_DELTA", "FG_BOOL")


#: Each comparison by its name: a condition's (:data:`COMPARISONS`' values) and a ``<function>``'s (``nq``).
COMPARE = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
           "ne": operator.ne, "nq": operator.ne}


@dataclass(frozen=True)
class Test:
    """One data line of a condition: ``sign · left OP right`` (``right`` a float, or a property's name)."""

    left: str
    sign: float
    op: str
    right: object
    right_sign: float = 1.0

    def evaluate(self, read):
        right = self.right if isinstance(self.right, float) else self.right_sign * read(self.right)
        return COMPARE[self.op](self.sign * read(self.left), right)

    def compile(self, read):
        """:meth:`evaluate` as a function of nothing, reading with ``read``."""
        compare, left, sign, right, right_sign = COMPARE[self.op], self.left, self.sign, self.right, self.right_sign
        if isinstance(right, float):
            return lambda: compare(sign * read(left), right)
        return lambda: compare(sign * read(left), right_sign * read(right))


@dataclass(frozen=True)
class Condition:
    """``<condition logic=>``: its tests and nested conditions, all (AND) or any (OR) of them."""

    logic: str
    terms: tuple

    def evaluate(self, read):
        # (JSBSim evaluates every term: no short cut, though nothing here has side effects)
        values = [term.evaluate(read) for term in self.terms]
        return all(values) if self.logic == "AND" else any(values)

    def compile(self, read):
        """:meth:`evaluate` as a function of nothing, reading with ``read`` (its terms' reads have no effects: the
        first term that decides it decides it)."""
        terms = tuple(term.compile(read) for term in self.terms)
        if len(terms) == 1:
            return terms[0]
        if len(terms) == 2:
            a, b = terms
            return (lambda: bool(a() and b())) if self.logic == "AND" else (lambda: bool(a() or b()))
        if self.logic == "AND":
            def every():
                for term in terms:
                    if not term():
                        return False
                return True

            return every

        def some():
            for term in terms:
                if term():
                    return True
            return False

        return some

    def properties(self):
        """Every property name the condition reads."""
        out = []
        for term in self.terms:
            if isinstance(term, Condition):
                out.extend(term.properties())
            else:
                out.append(term.left)
                if not isinstance(term.right, float):
                    out.append(term.right)
        return out


@dataclass
class SetAction:
    """One ``<set>``: its target, its value or function, how it gets there, and its running state."""

    name: str
    value: float
    function: object
    action: str
    kind: str
    tc: float
    line: int = 0
    original: float = 0.0
    target: float = 0.0
    span: float = 0.0
    transiting: bool = False


@dataclass(frozen=True)
class Notice:
    """``<notify>``: its description and ``(caption, property, template or None)`` rows."""

    description: str
    rows: tuple
    kml: bool = False


@dataclass
class Event:
    """One ``<event>`` and its running state (``FGScript``'s ``struct event``)."""

    name: str
    condition: Condition
    sets: list
    notice: Notice | None = None
    persistent: bool = False
    continuous: bool = False
    delay: float = 0.0
    line: int = 0
    triggered: bool = False
    notified: bool = False
    start: float = 0.0
    fired: list = field(default_factory=list)


def run_events(events, t, read, write, evaluate, emit):
    """Run the script's events at the clock ``t`` (s), as ``FGScript::RunScript``.

    Parameters
    ----------
    events : list of Event
        Updated in place; each event's ``fired`` gets ``t`` when it triggers.
    read, write : callable
        ``read(name)`` a property's value now; ``write(name, value)`` sets it (at once: a later event reads it).
    evaluate : callable
        ``evaluate(tree, read)``: a ``<function>``'s value.
    emit : callable
        Takes each notice's text.

    (:class:`EventRunner` runs them frame after frame with their conditions compiled once.)
    """
    EventRunner(events, read, write, evaluate, emit).run(t)


class EventRunner:
    """The script's events run frame after frame (:func:`run_events`), each condition compiled once into a function
    of its properties (:meth:`Condition.compile`).

    Within a frame the conditions' reads are kept: a property read again before anything is written (an event's
    set, a notice's read) is not computed again (the reads have no effects, and between two writes nothing moves
    the flight).  Only the events that can still do something are looked at: a plain event triggered, its sets
    done and its notice given is left out until :meth:`rearm`; and, given the ``clock`` property, an event not
    triggered whose condition is all of terms one of which is ``clock ge|gt VALUE`` sleeps until the clock has
    reached ``VALUE`` (its condition is false till then, whatever the rest reads).

    Parameters
    ----------
    events, write, evaluate, emit
        As :func:`run_events`'.
    read : callable
        ``read(name)``: a property's value now, its name as the script's element gives it (a function's).
    read_canonical : callable or None
        ``read`` for a canonical name (:func:`~flightsim.simulation.script_properties.canonical_name`: a
        condition's, a ``<set>``'s), quicker; None: ``read``.
    clock : str or None
        The canonical name of the script's clock (``simulation/sim-time-sec``), a property nothing writes and that
        never goes back but at a :meth:`rearm`; None: no event sleeps.
    """

    def __init__(self, events, read, write, evaluate, emit, read_canonical=None, clock=None):
        self.events = events
        self.read, self.write, self.evaluate, self.emit = read, write, evaluate, emit
        self.fast = read if read_canonical is None else read_canonical
        self.clock = clock
        memo = self._memo = {}
        fast = self.fast

        def kept(name):
            try:
                return memo[name]
            except KeyError:
                value = memo[name] = fast(name)
                return value

        self._kept = kept
        self.conditions = [ev.condition.compile(kept) for ev in events]
        # (each event's wake: the clock's (value, op) its condition waits for, or None)
        self._waits = [_clock_wait(ev.condition, clock) for ev in events]
        self._rearmed = True                # (the awake list is built at the next frame)
        self._awake, self._sleeping = [], []

    def rearm(self):
        """Every event back as loaded (``FGScript::ResetEvents``: not triggered, not notified, its start 0 s); the
        events sleep or wake again by the clock then read."""
        for ev in self.events:
            ev.triggered, ev.notified, ev.start = False, False, 0.0
        self._rearmed = True

    def _build(self):
        """The events awake and those asleep at the clock now (after a :meth:`rearm`)."""
        self._rearmed = False
        clock = None if self.clock is None else self._kept(self.clock)
        self._awake, self._sleeping = [], []
        for index, (ev, wait) in enumerate(zip(self.events, self._waits, strict=True)):
            if _done(ev):
                continue
            if wait is not None and not ev.triggered and not ev.notified and not COMPARE[wait[1]](clock, wait[0]):
                heapq.heappush(self._sleeping, (wait[0], wait[1] == "gt", index))
            else:
                self._awake.append(index)

    def _wake(self):
        """The sleeping events whose clock has come join the awake ones."""
        sleeping = self._sleeping
        clock = self._kept(self.clock)
        while sleeping:
            value, strict, index = sleeping[0]
            if not (clock > value if strict else clock >= value):
                break
            heapq.heappop(sleeping)
            bisect.insort(self._awake, index)

    def run(self, t):
        """Run the events at the clock ``t`` (s)."""
        read, fast, evaluate, memo = self.read, self.fast, self.evaluate, self._memo
        memo.clear()
        if self._rearmed:
            self._build()
        if self._sleeping:
            self._wake()
        conditions, events = self.conditions, self.events
        order = self._awake
        done = []
        k = 0
        while k < len(order):
            index = order[k]
            k += 1
            ev = events[index]
            rearms = ev.persistent or ev.continuous
            # (a plain event once triggered stays so whatever its condition: it is not evaluated again)
            if not ev.triggered or rearms:
                if conditions[index]():
                    if not ev.triggered:
                        for s in ev.sets:
                            s.original = fast(s.name)
                            if s.function is not None:
                                s.value = evaluate(s.function, read)
                            s.target = s.original + s.value if s.kind == "FG_DELTA" else s.value
                            ev.start = t + ev.delay
                            s.span = s.target - s.original
                            s.transiting = True
                        ev.fired.append(t)
                    ev.triggered = True
                elif rearms:
                    ev.triggered = False
                    ev.notified = False
            if ev.triggered and t >= ev.start:
                for s in ev.sets:
                    if not s.transiting:
                        continue
                    span = t - ev.start
                    if s.action == "FG_RAMP":
                        if span <= s.tc:
                            new = span / s.tc * s.span + s.original
                        else:
                            new = s.target
                            if not ev.continuous:
                                s.transiting = False
                    elif s.action == "FG_STEP":
                        new = s.target
                        if not ev.continuous:
                            s.transiting = False
                        elif s.function is not None:
                            new = evaluate(s.function, read)
                    else:                   # FG_EXP
                        new = (1.0 - math.exp(-span / s.tc)) * s.span + s.original
                    self.write(s.name, new)
                    memo.clear()
                if ev.notice is not None and not ev.notified:
                    self.emit(_notice_text(ev, index, t, read, evaluate))
                    ev.notified = True
            if self._rearmed:               # (a reset in this event's sets: the events after it run re-armed)
                self._build()
                order, done = self._awake, []
                k = bisect.bisect_right(order, index)
            elif ev.triggered and not rearms and _done(ev):
                done.append(index)
        if done:
            self._awake = [index for index in self._awake if index not in done]


def _done(ev):
    """Whether the event can do nothing more until re-armed: plain, triggered, its sets done, its notice given."""
    return (ev.triggered and not (ev.persistent or ev.continuous) and not any(s.transiting for s in ev.sets)
            and (ev.notice is None or ev.notified))


def _clock_wait(condition, clock):
    """``(VALUE, op)`` of the first of ``condition``'s terms ``clock ge|gt VALUE`` (no sign, a number) where all of
    its terms must hold (AND, or one term), else None: the condition is false while the clock is short of it."""
    if clock is None or (condition.logic != "AND" and len(condition.terms) != 1):
        return None
    for term in condition.terms:
        if isinstance(term, Test) and term.left == clock and term.sign == 1.0 and term.op in ("ge", "gt") \
                and isinstance(term.right, float) and not math.isnan(term.right):
            return term.right, term.op
    return None


def cpp_number(value):
    """C++'s ``ostream << double`` at its default precision (``%g``, six significant digits)."""
    if math.isnan(value):
        return "nan" if math.copysign(1.0, value) > 0 else "-nan"
    return format(value, "g")


def _notice_text(ev, index, t, read, evaluate):
    kml = ev.notice.kml
    if kml:
        lines = ["", "<Placemark>", f"  <name> {cpp_number(t)} seconds </name>", "  <description>", "  <![CDATA[",
                 f"  <b>{ev.name} (Event {index}) executed at time: {cpp_number(t)}</b><br/>"]
    else:
        lines = ["", f"{ev.name} (Event {index}) executed at time: {cpp_number(t)}"]
    if ev.notice.description:
        lines.append(f"    {ev.notice.description}")
    for caption, name, template in ev.notice.rows:
        try:
            value = read(name) if template is None else evaluate(template, read)
        except KeyError:
            raise RuntimeError(f"event {ev.name!r} notifies property {name!r}, which does not exist (nothing "
                               "defines it)") from None
        lines.append(f"    {caption} = {cpp_number(value)}" + (" <br/>" if kml else ""))
    if kml:
        lines += ["  ]]>", "  </description>", "  <Point>", "    <altitudeMode> absolute </altitudeMode>",
                  "    <extrude> 1 </extrude>",
                  f"    <coordinates>{cpp_number(read('position/long-gc-deg'))},"
                  f"{cpp_number(read('position/lat-geod-deg'))},{cpp_number(read('position/h-sl-meters'))}"
                  "</coordinates>", "  </Point>", "</Placemark>"]
    lines.append("")
    return "\n".join(lines) + "\n"

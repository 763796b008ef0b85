"""JSBSim's scripts (``<runscript>``), run by flightsim as ``JSBSim --root=DIR --script=FILE`` runs them.

What runs (JSBSim's ``FGScript::LoadScript``, ``FGOutputType::Load``, ``FGOutputTextFile``):

- ``<use aircraft="NAME" initialize="INIT"/>``: the aircraft ``ROOT/aircraft/NAME/NAME.xml`` and its reset file
  ``ROOT/aircraft/NAME/INIT.xml`` (:mod:`flightsim.physics.jsbsim.initial`);
- ``<run start end dt>``: the flight from ``start`` to ``end`` (JSBSim runs while the clock is at most
  ``end + 0.99 dt``) with the step ``dt`` (required); its ``<property value="V"> NAME </property>`` declarations
  (a property of the aircraft's array starts at V, another one is the script's own);
- its ``<event>``s (:mod:`flightsim.simulation.script_events`), run as ``FGFDMExec::Run`` runs the script: each
  frame the clock moves, the events run on the last frame's state, then the flight steps; what they set reaches
  the flight after that step (:mod:`flightsim.simulation.script_writes`); ``simulation/terminate`` ends the run
  after its frame;
- ``<output name type="CSV|TABULAR" rate file>``: a row every ``round(1 / (dt rate))`` steps from the first,
  ``Time`` then each ``<property caption apply>`` (its caption, or JSBSim's full name ``/fdm/jsbsim/NAME``), the
  time with 10 significant digits and the values with 18 (C++'s ``precision``), comma-separated (CSV) or
  tab-separated (TABULAR); ``apply="F"`` logs the ``<function name="F" type="template">`` of the same output with
  its ``<property> # </property>`` standing for the entry's property (:func:`evaluate`); ``file=`` appends the
  children of an output-definition file beside the script (``FGModel::Upload``); an output's subsystem switches
  (``<rates> ON </rates>`` …) add JSBSim's columns for them before the properties
  (:mod:`flightsim.simulation.script_subsystems`), those flightsim cannot give left out and named in one line on
  stderr at the start;
- the ``ic/*`` properties (JSBSim's ``FGInitialCondition``): the reset file's condition, read as JSBSim's IC holds
  it; its terrain ``<elevation>`` the ground of the whole flight (:func:`terrain_plane`); its ``<trim>`` run before
  the first frame as the ``JSBSim`` program runs it (:func:`_trim_requested`); a script may write the
  height and the airspeed (:data:`~flightsim.simulation.script_properties.WRITABLE_INITIAL`), where a later
  ``do_simple_trim`` starts from, as JSBSim's FGTrim starts from the IC;
- JSBSim's one-minus-cosine gust (``atmosphere/cosine-gust/*``, :mod:`flightsim.simulation.script_gust`), added to
  the steady wind from the frame its ``start`` is written;
- JSBSim's integration settings (:data:`SETTINGS`): its integrators (taken as settings of JSBSim's own: flightsim
  integrates with ``--integrator``), the gravity model 1 (J2), the gravity-gradient torque, and the hold-down
  (``forces/hold-down``: :attr:`~flightsim.simulation.flight.Simulation.hold_down`);
- a function's ``<table>`` (compiled by the aircraft's compiler, :class:`~flightsim.physics.jsbsim.program.
  ProgramBuilder`) and ``<switch>`` (FGFunction's: the value at the index rounded, a run stopped at an index
  below 0 or past the end, as JSBSim's exception).

Everything else (``<input>``, a function element :func:`evaluate` does not compute, another ``ic/*`` written, an
integration setting flightsim does not follow) is refused naming the file, the element and its line: a script is
never run in part.  The outputs are written when the run ends, each to a temporary file renamed into place: a
failed run writes nothing (the notices printed before it stopped stay printed).
"""

from __future__ import annotations

import copy
import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.jsbsim.initial import _tl2b
from flightsim.physics.jsbsim.xmlfile import LinedXML
from flightsim.simulation import script_events as events
from flightsim.simulation import script_gust as gusts
from flightsim.simulation import script_properties as props
from flightsim.simulation import script_subsystems as subsystems
from flightsim.simulation.script_writes import GRAVITY_TORQUE, HOLD_DOWN, TRIM_MODES, TRIM_REFUSED, ScriptProperties

__all__ = ["Output", "OutputEntry", "Script", "evaluate", "load_script", "run_script"]

#: Output types and their delimiters.
OUTPUT_TYPES = {"CSV": ",", "TABULAR": "\t"}
#: The ``<function>`` operations :func:`evaluate` computes: name → (least, most arguments; None: any).
FUNCTIONS = {
    "sum": (1, None), "difference": (1, None), "product": (1, None), "quotient": (2, 2), "fmod": (2, 2),
    "pow": (2, 2), "atan2": (2, 2), "min": (1, None), "max": (1, None), "avg": (1, None),
    "abs": (1, 1), "sin": (1, 1), "cos": (1, 1), "tan": (1, 1), "asin": (1, 1), "acos": (1, 1), "atan": (1, 1),
    "exp": (1, 1), "sqrt": (1, 1), "ln": (1, 1), "log10": (1, 1), "sign": (1, 1), "floor": (1, 1),
    "ceil": (1, 1), "toradians": (1, 1), "todegrees": (1, 1), "integer": (1, 1), "fraction": (1, 1),
    "lt": (2, 2), "le": (2, 2), "gt": (2, 2), "ge": (2, 2), "eq": (2, 2), "nq": (2, 2), "not": (1, 1),
    "and": (1, None), "or": (1, None), "ifthen": (3, 3), "switch": (2, None),
}
#: JSBSim's settings of its integration a script may write (``FGPropagate``, ``FGInertial``, ``FGAccelerations``,
#: ``FGFDMExec``): name → (JSBSim's default, the values flightsim runs as JSBSim does (None: any), why the others
#: are refused).  The integrators are JSBSim's own (flightsim integrates with ``--integrator``); the gravity is J2's
#: (model 1, ``gtWGS84``); the gravity-gradient torque acts on the round planet when on
#: (:func:`flightsim.physics.planet.gravity_torque`); the hold-down holds the airplane at rest where it is
#: (:attr:`~flightsim.simulation.flight.Simulation.hold_down`).  (JSBSim's cosine gust, ``atmosphere/cosine-gust/*``,
#: blows: :mod:`flightsim.simulation.script_gust`.)
SETTINGS = {
    "simulation/integrator/rate/rotational": (1.0, None, ""),
    "simulation/integrator/rate/translational": (3.0, None, ""),
    "simulation/integrator/position/rotational": (1.0, None, ""),
    "simulation/integrator/position/translational": (4.0, None, ""),
    "simulation/gravity-model": (1.0, {1.0}, "flightsim's gravity is the planet's J2 model (JSBSim's 1, WGS84)"),
    GRAVITY_TORQUE: (0.0, {0.0, 1.0}, "the gravity-gradient torque is on (1) or off (0)"),
    HOLD_DOWN: (0.0, None, ""),
}
#: ``simulation/reset`` (``FGFDMExec::ResetToInitialConditions``) and the reset file's terrain elevation a script
#: may set before it (``FGInitialCondition::SetTerrainElevationFtIC``).
RESET, TERRAIN = "simulation/reset", "ic/terrain-elevation-ft"
#: The script's clock (``FGFDMExec``'s ``simulation/sim-time-sec``: read-only, it goes back only at a reset).
CLOCK = "simulation/sim-time-sec"
#: ``FGPropagate::WriteStateFile``: the state now written as a reset file (1 or 2: its version).
STATE_FILE = "simulation/write-state-file"
#: An output's rate and switch (``FGOutputType::SetIdx``: ``simulation/output[N]/log_rate_hz``, ``…/enabled``;
#: N the output's number, the aircraft file's first, then the script's).
OUTPUT_SETTING = re.compile(r"^simulation/output(?:\[(\d+)\])?/(log_rate_hz|enabled)$")
#: Each ``<table>`` of a script's functions compiled (:func:`_table_program`), by the element's id (the element
#: kept with it, so that its id is not reused).
_TABLES = {}


@dataclass(frozen=True)
class OutputEntry:
    """One logged column: the property, its caption (None: JSBSim's full name) and its template (or None); or a
    function of the output's own (``named``: ``prop`` is its name, its caption too)."""

    prop: str
    caption: str | None
    function: object = None
    named: bool = False


@dataclass(frozen=True)
class Output:
    """One ``<output>``: where, how and what it logs."""

    path: Path
    kind: str
    rate_hz: float
    entries: tuple
    line: int = 0
    #: the subsystem switches that are ON (:data:`flightsim.simulation.script_subsystems.SWITCHES` names)
    switches: tuple = ()
    #: the aircraft file's (``<fdm_config>``'s ``<output>``, JSBSim's ``FGFDMExec::LoadModel``: numbered before
    #: the script's) rather than the script's
    aircraft: bool = False
    #: why flightsim does not write it (an aircraft's output of a kind flightsim does not write: a SOCKET…), or
    #: None; it keeps its number (``simulation/output[N]/*``)
    unwritten: str | None = None


@dataclass(frozen=True)
class Script:
    """A JSBSim script read: the aircraft and reset files it uses, its run and its outputs.

    Attributes
    ----------
    path : Path
    name : str
    aircraft, initialize : Path
        The aircraft file and its reset file.
    start, end, dt : float
        s.
    declared : dict
        ``<run>``'s ``<property value=>`` declarations: name → value.
    outputs : tuple of Output
    events : tuple of flightsim.simulation.script_events.Event
        The ``<run>``'s events, in file order (their running state fresh).
    persistent : frozenset
        The declared properties marked ``persistent="true"``: a ``simulation/reset`` keeps their values.
    """

    path: Path
    name: str
    aircraft: Path
    initialize: Path
    start: float
    end: float
    dt: float
    declared: dict = field(default_factory=dict)
    outputs: tuple = ()
    events: tuple = ()
    persistent: frozenset = frozenset()


class _Reader:
    """A script's elements read, each error naming the file, the element and its line."""

    def __init__(self, xml):
        self.xml = xml
        self.path = xml.path

    def fail(self, el, reason, what=""):
        raise InputError(self.path, self.xml.where(el, what), reason)

    def number(self, el, attr, default=None):
        text = el.get(attr)
        if text is None:
            if default is None:
                self.fail(el, f"the {attr}= attribute is required")
            return default
        try:
            value = float(text.strip())
        except ValueError:
            self.fail(el, f"not a number: {text.strip()!r}", f"{attr}=")
        if not math.isfinite(value):
            self.fail(el, f"not a finite number: {text.strip()!r}", f"{attr}=")
        return value

    def text_number(self, el):
        text = (el.text or "").strip()
        try:
            value = float(text)
        except ValueError:
            self.fail(el, f"not a number: {text!r}")
        if not math.isfinite(value):
            self.fail(el, f"not a finite number: {text!r}")
        return value

    def refuse_unknown(self, el, allowed):
        for child in el:
            if child.tag not in allowed:
                self.fail(child, f"not supported by flightsim script (it runs {', '.join(f'<{a}>' for a in allowed)} "
                          f"inside <{el.tag}>)")


def _find_root(root):
    if root is not None:
        root = Path(root)
        if not root.is_dir():
            raise InputError("--root", "", f"{str(root)!r} is not a folder")
        return root
    from flightsim.physics.jsbsim.xmlfile import package_root

    return package_root()


def _script_path(path, root):
    """The script as JSBSim finds it: the path as given, else under the root."""
    path = Path(path)
    if path.is_file() or path.is_absolute():
        return path
    under = root / path
    return under if under.is_file() else path


def _xml_name(name):
    return name if name.endswith(".xml") else name + ".xml"


def _check_setting(reader, el, name, value, constant, what):
    """Refuse, naming ``el``, a write of :data:`SETTINGS` ``name`` to a value flightsim does not run as JSBSim
    (``constant``: ``value`` is the value written; else a function's or a delta's, refused where any is)."""
    if name in SETTINGS and SETTINGS[name][1] is not None and (not constant or value not in SETTINGS[name][1]):
        reader.fail(el, f"{name} = {value:g}: not supported ({SETTINGS[name][2]})" if constant else
                    f"{name}: only {', '.join(f'{v:g}' for v in sorted(SETTINGS[name][1]))} (a constant) is "
                    f"supported ({SETTINGS[name][2]})", what)


def _check_function(reader, el, where_name):
    """A template's tree: only what :func:`evaluate` computes."""
    children = [c for c in el if c.tag != "description"]
    if len(children) != 1:
        reader.fail(el, f"a function needs exactly one operation, found {len(children)}")

    def walk(node):
        tag = node.tag
        if tag in ("property", "p"):
            if not (node.text or "").strip():
                reader.fail(node, "empty property name")
            return
        if tag in ("value", "v"):
            reader.text_number(node)
            return
        if tag == "pi":
            return
        if tag in ("table", "t"):
            _table_program(node, reader.path, reader.xml.where(node))
            return
        if tag not in FUNCTIONS:
            reader.fail(node, f"unsupported function element (supported: property, value, pi, table, "
                        f"{', '.join(FUNCTIONS)})")
        lo, hi = FUNCTIONS[tag]
        args = [c for c in node if c.tag != "description"]
        if len(args) < lo or (hi is not None and len(args) > hi):
            reader.fail(node, f"takes {lo if lo == hi else f'at least {lo}' if hi is None else f'{lo} to {hi}'} "
                        f"arguments, got {len(args)}")
        for child in args:
            walk(child)

    walk(children[0])
    return children[0]


class _TableSource:
    """What :class:`~flightsim.physics.jsbsim.program.ProgramBuilder` asks of the file its elements come from."""

    def __init__(self, path):
        self.path = path

    def number(self, el, what):
        text = (el.text or "").strip()
        try:
            return float(text)
        except ValueError:
            raise InputError(self.path, what, f"not a number: {text!r}") from None


def _table_program(node, path=None, where=""):
    """A ``<table>`` of a script's function compiled by the aircraft's function compiler
    (:class:`~flightsim.physics.jsbsim.program.ProgramBuilder`: JSBSim's ``FGTable``, its lookups, interpolation
    and clamping): ``(program, names)``, the program storing the table's value in slot 0 from its lookup
    properties in the slots ``names`` give (each by its name).  Compiled once per element.

    Raises
    ------
    InputError
        The table is malformed (naming ``path`` and ``where``).
    """
    found = _TABLES.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    from flightsim.physics.jsbsim.program import ProgramBuilder, Properties

    properties = Properties()
    properties.slot(" value")                   # (slot 0: the result; no property has a leading space)
    builder = ProgramBuilder(_TableSource(path), properties)
    builder.value(node, where or f"<{node.tag}>")
    builder.store(" value")
    names = {name: properties[name] for name in builder.reads}
    _TABLES[id(node)] = (node, (builder.build(), names))
    return _TABLES[id(node)][1]


#: The elements of a function that name a property it reads (a table's lookups among them).
_READS = ("property", "p", "independentVar")


def _reads(tree):
    """The properties a function's ``tree`` reads (canonical names, a leading '-' taken off)."""
    return [props.canonical_name((node.text or "").strip().lstrip("-")) for node in tree.iter() if node.tag in _READS]


def _substitute(tree, prop):
    """A copy of a template's tree with each ``<property> # </property>`` reading ``prop``."""
    tree = copy.deepcopy(tree)
    for node in tree.iter():
        if node.tag in _READS and (node.text or "").strip() == "#":
            node.text = prop
    return tree


def evaluate(node, read):
    """The value of a ``<function>``'s tree (JSBSim's ``FGFunction`` arithmetic: a quotient by 0 is +inf, fmod
    is C's); ``read(name)`` gives a property's value."""
    tag = node.tag
    if tag in ("property", "p"):
        name = node.text.strip()
        return -read(name[1:]) if name.startswith("-") else read(name)
    if tag in ("value", "v"):
        return float(node.text)
    if tag == "pi":
        return math.pi
    if tag in ("table", "t"):
        program, names = _table_program(node)
        values = np.zeros(1 + max(names.values(), default=0))
        for name, slot in names.items():
            values[slot] = read(name)
        program.run(values)
        return float(values[0])
    x = [evaluate(c, read) for c in node if c.tag != "description"]
    if tag == "sum":
        out = 0.0
        for v in x:
            out += v
        return out
    if tag == "difference":
        out = x[0]
        for v in x[1:]:
            out -= v
        return out
    if tag == "product":
        out = 1.0
        for v in x:
            out *= v
        return out
    if tag == "quotient":
        return x[0] / x[1] if x[1] != 0.0 else math.inf
    if tag == "fmod":
        return math.fmod(x[0], x[1]) if x[1] != 0.0 else math.nan
    if tag == "pow":
        return x[0] ** x[1]
    if tag == "atan2":
        return math.atan2(x[0], x[1])
    if tag in ("min", "max"):
        return (min if tag == "min" else max)(x)
    if tag == "avg":
        return sum(x) / len(x)
    if tag in ("lt", "le", "gt", "ge", "eq", "nq"):
        a, b = x
        return float(events.COMPARE[tag](a, b))
    if tag == "not":
        return 0.0 if x[0] else 1.0
    if tag == "and":
        return float(all(v != 0.0 for v in x))
    if tag == "or":
        return float(any(v != 0.0 for v in x))
    if tag == "ifthen":
        return x[1] if x[0] != 0.0 else x[2]
    if tag == "switch":                 # (FGFunction's: the value at the index rounded, none below 0 or past the end)
        if x[0] < 0.0 or int(x[0] + 0.5) >= len(x) - 1:
            raise RuntimeError(f"the switch function index ({x[0]:g}) is "
                               + ("negative" if x[0] < 0.0 else f"above the range of supplied values [0:{len(x) - 2}]"))
        return x[1 + int(x[0] + 0.5)]
    v = x[0]
    unary = {
        "abs": abs, "sin": math.sin, "cos": math.cos, "tan": math.tan,
        "asin": lambda u: math.asin(u) if abs(u) <= 1.0 else math.nan,
        "acos": lambda u: math.acos(u) if abs(u) <= 1.0 else math.nan,
        "atan": math.atan, "exp": math.exp, "sqrt": lambda u: math.sqrt(u) if u >= 0.0 else math.nan,
        "ln": lambda u: math.log(u) if u > 0.0 else -math.inf,
        "log10": lambda u: math.log10(u) if u > 0.0 else -math.inf,
        "sign": lambda u: -1.0 if u < 0.0 else 1.0, "floor": math.floor, "ceil": math.ceil,
        "toradians": math.radians, "todegrees": math.degrees, "integer": lambda u: float(math.trunc(u)),
        "fraction": lambda u: u - math.trunc(u),
    }
    return float(unary[tag](v))


def _include(reader, el, folder):
    """An ``<output file=>``'s file (FGModel::Upload, found beside the script as FGOutput's include path): its
    children appended to ``el``, its attributes added where ``el`` has none."""
    name = el.get("file")
    path = Path(name) if Path(name).is_absolute() else folder / name
    if not path.is_file():
        reader.fail(el, f"no output file {name!r}: {str(path)!r} does not exist", "file=")
    included = LinedXML(path)
    if included.root.tag != "output":
        raise InputError(path, included.where(included.root), "not an output definition (its root is not <output>)")
    inner = _Reader(included)
    inner.refuse_unknown(included.root, ("property", "function", "description"))
    for f in included.root.findall("function"):
        _check_function(inner, f, f.get("name"))
    for key, value in included.root.attrib.items():
        el.attrib.setdefault(key, value)
    el.attrib.pop("file")
    for child in included.root:
        el.append(copy.deepcopy(child))


def _output(reader, el, folder, aircraft=False):
    """One ``<output>`` element (``aircraft``: of the aircraft file): its properties, then its named functions
    that are not templates (JSBSim logs each under its name)."""
    if el.get("file"):
        _include(reader, el, folder)
    kind = (el.get("type") or "CSV").upper()
    if kind not in OUTPUT_TYPES:
        reader.fail(el, f"output type {el.get('type')!r} is not supported (supported: {', '.join(OUTPUT_TYPES)})")
    name = el.get("name")
    if not name:
        reader.fail(el, "the name= attribute (the output file) is required")
    rate = reader.number(el, "rate", 1.0)
    if rate <= 0.0:
        reader.fail(el, f"the rate must be > 0 Hz, got {rate:g}", "rate=")
    reader.refuse_unknown(el, ("property", "function", "description", *subsystems.ELEMENTS))
    # (FGOutputType::Load: a switch is on where its text is exactly ON)
    switches = tuple(sorted({subsystems.ELEMENTS[c.tag] for c in el if c.tag in subsystems.ELEMENTS
                             and (c.text or "").strip() == "ON"}, key=subsystems.SWITCHES.index))
    templates, logged = {}, []
    for f in el.findall("function"):
        if not f.get("name"):
            reader.fail(f, "an output's function needs a name= (its column's, or a template's)")
        tree = _check_function(reader, f, f.get("name"))
        if (f.get("type") or "") == "template":
            templates[f.get("name")] = tree
        else:
            logged.append((OutputEntry(f.get("name"), f.get("name"), tree, named=True), f))
    entries = []
    for p in el.findall("property"):
        prop, function = _applied(reader, p, templates, "this output")
        entries.append((OutputEntry(prop, p.get("caption"), function), p))
    entries += logged
    path = Path(name).expanduser()
    return (Output(path, kind, rate, tuple(e for e, _ in entries), reader.xml.line(el), switches, aircraft),
            [p for _, p in entries])


def _aircraft_outputs(path, folder):
    """The aircraft file's ``<output>``s (JSBSim writes them for every script that uses the aircraft): each an
    :class:`Output`, one flightsim does not write kept (its number counts) with why."""
    xml = LinedXML(path)
    reader = _Reader(xml)
    outs = []
    for el in xml.root.findall("output"):
        try:
            out, _ = _output(reader, el, folder, aircraft=True)
        except InputError as exc:
            out = Output(Path(el.get("name") or "?"), (el.get("type") or "CSV").upper(), 1.0, (), xml.line(el),
                         aircraft=True, unwritten=str(exc))
        outs.append(out)
    return outs


def _applied(reader, p, templates, where):
    """A ``<property apply="F">`` entry (of an output or a notice): its property's name, and its template function
    ``F`` with the property put in (None without ``apply``); ``where`` names the templates' place in a message."""
    prop = props.canonical_name(p.text or "")
    if not prop:
        reader.fail(p, "empty property name")
    if p.get("apply") is None:
        return prop, None
    if p.get("apply") not in templates:
        reader.fail(p, f"no template function named {p.get('apply')!r} in {where}", "apply=")
    return prop, _substitute(templates[p.get("apply")], prop)


def load_script(path, root=None):
    """Read the script ``path`` (as given, else under ``root``; default root: the ``jsbsim`` package's data).

    Returns
    -------
    (Script, dict)
        The script and, for each property an output logs, the element that names it (for :func:`run_script`'s
        messages).

    Raises
    ------
    flightsim.errors.InputError
        A missing or unreadable file, an element flightsim does not run, a bad number, a ``<run>`` that ends
        before it starts, an aircraft or reset file that does not exist: the file, the element, the line.
    """
    root = _find_root(root)
    xml = LinedXML(_script_path(path, root))
    reader = _Reader(xml)
    doc = xml.root
    if doc.tag != "runscript":
        reader.fail(doc, "not a JSBSim script (its root is not <runscript>)")
    reader.refuse_unknown(doc, ("description", "use", "run", "output"))
    use = doc.find("use")
    if use is None:
        reader.fail(doc, "no <use aircraft= initialize=> in the script")
    aircraft = use.get("aircraft")
    if not aircraft:
        reader.fail(use, "the aircraft= attribute is required")
    init = use.get("initialize")
    if not init:
        reader.fail(use, "the initialize= attribute is required")
    aircraft_file = root / "aircraft" / aircraft / f"{aircraft}.xml"
    if not aircraft_file.is_file():
        reader.fail(use, f"no aircraft {aircraft!r}: {str(aircraft_file)!r} does not exist", "aircraft=")
    init_file = aircraft_file.parent / _xml_name(init)
    if not init_file.is_file():
        reader.fail(use, f"no initialization file {init!r}: {str(init_file)!r} does not exist", "initialize=")
    run = doc.find("run")
    if run is None:
        reader.fail(doc, "no <run> in the script")
    reader.refuse_unknown(run, ("property", "description", "event"))
    start = reader.number(run, "start", 0.0)
    if run.get("dt") is None:
        reader.fail(run, "the dt= attribute (the step, s) is required", "dt=")
    end = reader.number(run, "end")
    dt = reader.number(run, "dt")
    if dt <= 0.0:
        reader.fail(run, f"the step must be > 0 s, got {dt:g}", "dt=")
    if end < start:
        reader.fail(run, f"it ends ({end:g} s) before it starts ({start:g} s)", "end=")
    declared, persistent = {}, set()
    for p in run.findall("property"):
        name = props.canonical_name(p.text or "")
        if not name:
            reader.fail(p, "empty property name")
        declared[name] = reader.number(p, "value", 0.0)
        if (p.get("persistent") or "").strip() == "true":   # (FGPropertyReader: kept through a reset)
            persistent.add(name)
        _check_setting(reader, p, name, declared[name], True, "value=")
    outputs, named = _aircraft_outputs(aircraft_file, aircraft_file.parent), {}
    for el in doc.findall("output"):
        out, elements = _output(reader, el, xml.path.parent)
        outputs.append(out)
        for entry, p in zip(out.entries, elements, strict=True):
            if not entry.named:
                named.setdefault(entry.prop, p)
            if entry.function is not None:
                for name in _reads(entry.function):
                    named.setdefault(name, p)
    templates = {}
    for out_el in doc.findall("output"):
        for f in out_el.findall("function"):
            if (f.get("type") or "") == "template":
                templates.setdefault(f.get("name"), _check_function(reader, f, f.get("name")))
    reads, writes = [], []
    events = tuple(_event(reader, el, templates, reads, writes) for el in run.findall("event"))
    for name, el in reads:
        named.setdefault(name, el)
    return Script(xml.path, doc.get("name") or xml.path.stem, aircraft_file, init_file, start, end, dt, declared,
                  tuple(outputs), events, frozenset(persistent)), (named, reader, writes)


def _condition(reader, el, reads):
    """``<condition logic=>`` (FGCondition's element constructor): its data lines and nested conditions."""
    logic = el.get("logic")
    if logic is None:
        logic = "AND"
    if logic not in ("AND", "OR"):
        reader.fail(el, f"unknown logic {logic!r} (JSBSim's: AND, OR)", "logic=")
    terms = []
    texts = [el.text or ""] + [child.tail or "" for child in el]
    for text in texts:
        for line in text.split("\n"):
            words = line.split()
            if not words:
                continue
            if len(words) != 3:
                reader.fail(el, f"a test is PROPERTY OPERATOR VALUE, three words: {line.strip()!r} has "
                            f"{len(words)}")
            left, op, right = words
            if op not in events.COMPARISONS:
                reader.fail(el, f"unknown comparison {op!r} in {line.strip()!r} (JSBSim's: "
                            f"{' '.join(events.COMPARISONS)})")
            sign = -1.0 if left.startswith("-") else 1.0
            left = props.canonical_name(left.lstrip("-"))
            reads.append((left, el))
            try:
                value = float(right)
                right_sign = 1.0
            except ValueError:
                right_sign = -1.0 if right.startswith("-") else 1.0
                value = props.canonical_name(right.lstrip("-"))
                reads.append((value, el))
            terms.append(events.Test(left, sign, events.COMPARISONS[op], value, right_sign))
    for child in el:
        if child.tag != "condition":
            reader.fail(child, "only <condition> may nest inside a <condition>")
        terms.append(_condition(reader, child, reads))
    if not terms:
        reader.fail(el, "an empty condition (JSBSim refuses it too)")
    return events.Condition(logic, tuple(terms))


def _choice(reader, el, attr, choices, default):
    """``action=`` or ``type=`` as FGScript reads it: the choice whose word (``ramp``, ``delta``, ...) the value
    holds, in any case (``FG_RAMP``, ``ramp``, ``fg_ramp``); none given: ``default``; none held: refused."""
    text = el.get(attr)
    if text is None or not text.strip():
        return default
    for choice in choices:
        if choice[3:].lower() in text.lower():
            return choice
    reader.fail(el, f"unknown {attr} {text!r} (JSBSim's: {', '.join(choices)})", f"{attr}=")


def _event(reader, el, templates, reads, writes):
    """One ``<event>`` (FGScript::LoadScript's event loop), its property reads and writes collected."""
    name = el.get("name") or ""
    reader.refuse_unknown(el, ("description", "condition", "delay", "set", "notify"))
    conditions = el.findall("condition")
    if not conditions:
        reader.fail(el, f"no <condition> in the event {name!r}")
    if len(conditions) > 1:
        reader.fail(conditions[1], "an event has one <condition> (nest more inside it)")
    condition = _condition(reader, conditions[0], reads)
    delay = 0.0
    delay_el = el.find("delay")
    if delay_el is not None:
        delay = reader.text_number(delay_el)
    notice = None
    notify = el.find("notify")
    if notify is not None:
        reader.refuse_unknown(notify, ("property", "description"))
        rows = []
        for p in notify.findall("property"):
            prop, template = _applied(reader, p, templates, "the script's outputs")
            if template is not None:
                reads.extend((name, p) for name in _reads(template))
            # (a plain property is bound late, as FGPropertyValue binds it: one nothing defines stops the run only
            # when its event fires, as JSBSim's "Property … does not exist")
            rows.append((p.get("caption") or (p.text or "").strip(), prop, template))
        description = notify.find("description")
        # (FGXMLElement's FindElementValue: the description's first non-empty line)
        first = [line.strip() for line in (description.text or "").splitlines() if line.strip()] \
            if description is not None else []
        notice = events.Notice(first[0] if first else "", tuple(rows), notify.get("format") == "kml")
    sets = []
    for s in el.findall("set"):
        target = props.canonical_name(s.get("name") or "")
        if not target:
            reader.fail(s, "the name= attribute (the property to set) is required", "name=")
        action = _choice(reader, s, "action", events.ACTIONS, "FG_STEP")
        kind = _choice(reader, s, "type", events.TYPES, "FG_VALUE")
        tc = reader.number(s, "tc", 1.0)
        if tc <= 0.0:
            reader.fail(s, f"the time constant must be > 0 s, got {tc:g}", "tc=")
        function = None
        if s.get("value") is not None:
            value = reader.number(s, "value")
        elif s.find("function") is not None:
            value = 0.0
            function = _check_function(reader, s.find("function"), target)
            reads.extend((name, s) for name in _reads(function))
        else:
            reader.fail(s, "a <set> needs a value= or a <function>")
        sets.append(events.SetAction(target, value, function, action, kind, tc, reader.xml.line(s)))
        writes.append((target, s, function is None and kind != "FG_DELTA" and action == "FG_STEP", value))
    if not sets and notice is None:
        reader.fail(el, f"the event {name!r} has no <set> and no <notify>: it would do nothing")
    return events.Event(name, condition, sets, notice, el.get("persistent") == "true",
                        el.get("continuous") == "true", delay, reader.xml.line(el))


def _writable(source, out, el_line):
    """The output's path can be written: fail naming the file ``source`` (the script, or the aircraft whose output
    it is) and the output's line otherwise."""
    path = out.path
    where = f"<output> name= (line {el_line})"
    if path.is_dir():
        raise InputError(source, where, f"{str(path)!r} is a folder, not a file")
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        raise InputError(source, where, f"folder {str(path.parent)!r} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(source, where, f"cannot write {str(path)!r} (permission denied)")


def _format(value, spec=".18g"):
    """C++'s ``ostream`` (``spec``: the default, precision 18, as JSBSim writes a property)."""
    return format(value, spec) if math.isfinite(value) else ("nan" if math.isnan(value) else
                                                                ("inf" if value > 0 else "-inf"))


def _print(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def run_script(path, root=None, integrator="rk4", planet=None, emit=_print, on_frame=None):
    """Run the script ``path`` (:func:`load_script`) and write its outputs; return the :class:`Script`.

    Parameters
    ----------
    path, root : path-like
    integrator : str
        flightsim's integrator (``flightsim integrators``).
    planet : None, "flat" or "round"
        None: the aircraft's (round: its ``<planet>`` or WGS-84).
    emit : callable
        Takes the events' notices (JSBSim's text; default: printed to stdout as they happen).
    on_frame : callable or None
        Called at each frame (the first at ``start``, then after each step) as ``on_frame(t, frame, sim)``: the
        script's clock (s), the frame number and the :class:`~flightsim.simulation.flight.Simulation` (to read its
        state, e.g. with :func:`flightsim.simulation.script_properties.read_all`; it must not change it).

    Returns
    -------
    Script
        The script, its events as run (each event's ``fired``: the clock at each trigger, s).

    Raises
    ------
    flightsim.errors.InputError
        Bad input (see :func:`load_script`; an unknown property, an output that cannot be written, a reset file's
        error), before anything is flown or written.
    RuntimeError
        The flight stopped (a crash or a diverged step): nothing is written.
    """
    from flightsim.physics.jsbsim.initial import load_initial_condition
    from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
    from flightsim.physics.planet import resolve
    from flightsim.simulation.controls import Controls
    from flightsim.simulation.flight import Simulation
    from flightsim.simulation.starts import Start

    script, (named, reader, writes) = load_script(path, root)
    for out in script.outputs:
        if out.unwritten is None:
            _writable(script.aircraft if out.aircraft else reader.path, out, out.line)
    aircraft = load_jsbsim_aircraft(script.aircraft)
    chosen = resolve(planet, aircraft.planet, True)
    ic = load_initial_condition(script.initialize, chosen)
    model = aircraft.jsbsim
    constants = {name: default for name, (default, _, _) in SETTINGS.items()}
    constants.update(gusts.PROPERTIES)
    constants[gusts.START] = 0.0
    # (a property the aircraft declares and nothing of it reads — the c310's ap/active-waypoint — has no slot in its
    # array: it is the script's, at its declared value, as in JSBSim's tree)
    for block in (model.fcs, model.aero, model.external, model.propulsion):
        for name, value in block.defaults.items():
            if name not in model.properties:
                constants.setdefault(name, value)
    for name, value in script.declared.items():
        if name in model.properties:
            model.initial[model.properties[name]] = value
        else:
            constants[name] = value

    def begin_run(ic, t0):
        """A flight from the reset file's condition ``ic`` (its clock at ``t0``, s) and the script's view of it,
        the engines as the reset file leaves them and the script's declared commands held."""
        start = Start("file", ic.view_state(), Controls())
        # (JSBSim's FGLGear::CrashDetect only reports: nothing on the ground stops a script's run; no one reads the
        # cockpit's instruments; the frames step through begin_step, the whole step loaded only where a trim or a
        # reset needs it)
        sim = Simulation(aircraft, integrator, script.dt, atmosphere="isa", start=start, planet=chosen,
                         lat=ic.lat_deg, lon=ic.lon_deg, crashes=False, terrain=terrain_plane(ic.elevation_ft),
                         instruments=False, warm=False)
        if constants[GRAVITY_TORQUE] != 0.0:
            sim.gravity_torque = True
        if constants[HOLD_DOWN] != 0.0:         # (the launcher on its pad: FGFDMExec::SetHoldDown)
            sim.hold_down = True
        if t0:
            sim.set_state(replace(sim.state, t=t0))
        tree = ScriptProperties(sim, constants, ic, ic.wind_ned)
        tree.new_frame(script.start)
        tree.initial = props.initial_values(tree.read)          # (ic/*: the start, as JSBSim's IC holds it)
        for name, value in tree.initial.items():
            constants.setdefault(name, value)
        tree.initial_engines(ic.running)
        held = [name for name in script.declared if tree.kind(name)[0] == "command"]
        for name in held:               # (a pilot's command declared at a value is held there, as a <set> holds
            tree.write(name, script.declared[name])     # it: L4102's brakes)
        if held:
            tree.apply()
        return sim, tree

    sim, tree = begin_run(ic, 0.0)
    first_initial = dict(tree.initial)
    # each output's rate in frames, its switch and (below) its frame count (FGModel's exe_ctr): simulation/output[N]/*
    rates = [max(1, int(0.5 + 1.0 / (script.dt * out.rate_hz))) for out in script.outputs]
    enabled = [True] * len(script.outputs)
    for k in range(len(script.outputs)):
        for node in (f"simulation/output[{k}]", *(["simulation/output"] if k == 0 else [])):
            constants[f"{node}/log_rate_hz"] = 1.0 / (rates[k] * script.dt)
            constants[f"{node}/enabled"] = 1.0
    for name, el in named.items():
        if not tree.known(name):
            reader.fail(el, f"unknown property {name!r}: nothing defines it (not flightsim's state, not the "
                        "aircraft's own, not declared by the script)")
    for name, el, constant, value in writes:
        _check_setting(reader, el, name, value, constant, "value=")
        if name.startswith("ic/") and name not in props.WRITABLE_INITIAL and name != TERRAIN:
            reader.fail(el, f"cannot set {name!r}: of the reset's condition flightsim's trim takes only "
                        f"{', '.join(props.WRITABLE_INITIAL)} (and a reset {TERRAIN})", "name=")
        kind, reason = tree.kind(name)
        if kind == "refused":
            reader.fail(el, f"cannot set {name!r}: " + (reason or "no property of that name is defined "
                                                         "(not the aircraft's, not flightsim's, not declared)"),
                        "name=")
        if kind == "trim" and constant and int(value) not in TRIM_MODES:
            reader.fail(el, f"do_simple_trim mode {value:g}: {TRIM_REFUSED.get(int(value), 'no such mode')}",
                        "value=")
        if kind in ("running", "active") and constant and int(value) >= len(model.propulsion.kinds):
            reader.fail(el, f"{'set-running' if kind == 'running' else 'active_engine'} {value:g}: no such engine "
                        f"(the aircraft has {len(model.propulsion.kinds)})", "value=")
    if ic.trim is not None and ic.trim not in TRIM_MODES:
        raise InputError(ic.source, "trim", f"trim mode {ic.trim}: {TRIM_REFUSED.get(ic.trim, 'no such mode')}")
    columns, outputs = [], []
    for out in script.outputs:
        source = script.aircraft if out.aircraft else reader.path
        if out.unwritten is not None:
            sys.stderr.write(f"flightsim: {source}: <output> (line {out.line}): not written: {out.unwritten}\n")
        given, left = subsystems.columns(out.switches, tree.known, model)
        if out.aircraft:                # (JSBSim leaves out of an output a property it does not have, and says so)
            def given_all(e):
                return all(tree.known(n) for n in ([e.prop] if e.function is None else _reads(e.function)))

            left = left + [e.prop for e in out.entries if not given_all(e)]
            out = replace(out, entries=tuple(e for e in out.entries if given_all(e)))
        columns.append(given)
        outputs.append(out)
        if left and out.unwritten is None:
            sys.stderr.write(f"flightsim: {source}: <output> (line {out.line}): left out of {out.path.name} "
                             f"(flightsim does not give them): {', '.join(left)}\n")
    if ic.trim is not None:
        _trim_requested(tree, ic)
    counts = [1] * len(outputs)
    rows = [[] for _ in script.outputs]
    paths = [out.path for out in script.outputs]
    fresh = copy.deepcopy(script.events)        # (their running state: a script may be run again)
    end = script.end + 0.99 * script.dt
    t = script.start
    frame = 0

    def read_named(name):
        return tree.read(props.canonical_name(name))

    gust = gusts.CosineGust()

    def read_canonical(name):
        return tree.read(name)

    canonical = {}                      # (each name an output reads made canonical once)
    builtin = frozenset(props.BUILTIN)

    def cell(prop, scale, spec):
        """A column's cell, found once: its canonical name (None: "=0", a zero), whether it is a built-in
        property, its scale and format."""
        if prop == "=0":
            return None, False, scale, spec
        known = props.canonical_name(prop)
        return known, known in builtin, scale, spec

    # (each output's cells; its entries' functions and canonical names)
    plans = [([cell(prop, scale, spec) for _, prop, scale, spec in columns[k]],
              [(e.function, props.canonical_name(e.prop)) for e in out.entries]) for k, out in enumerate(outputs)]

    def log(due, t):
        """The outputs ``due`` (their indices) write a row at the clock ``t`` (s); the script's properties read
        from then on are the state's at ``t``."""
        tree.new_frame(t)
        if not due:
            return
        values = tree.view()
        tree_read, isfinite = tree.read, math.isfinite

        def read(name):
            known = canonical.get(name)
            if known is None:
                known = canonical[name] = props.canonical_name(name)
            return values[known] if known in builtin else tree_read(known)

        for k in due:
            delim = OUTPUT_TYPES[outputs[k].kind]
            cells = [format(t, ".10g")]
            append = cells.append
            given, entries = plans[k]
            for known, own, scale, spec in given:
                value = 0.0 if known is None else (values[known] if own else tree_read(known)) * scale
                append(format(value, spec) if isfinite(value) else _format(value, spec))
            for function, known in entries:
                if function is None:
                    value = values[known] if known in builtin else tree_read(known)
                else:
                    value = evaluate(function, read)
                append(format(value, ".18g") if isfinite(value) else _format(value))
            rows[k].append(delim.join(cells))

    def due():
        """The outputs that write this frame: ``FGModel::Run``'s count (every ``rate`` frames from the first after
        its ``InitModel``) and ``FGOutputType::Run``'s switch; those flightsim does not write left out."""
        out = []
        for k, rate in enumerate(rates):
            if rate != 1:
                if counts[k] >= rate:
                    counts[k] = 0
                counts[k] += 1
                if counts[k] != 2:
                    continue
            if enabled[k] and outputs[k].unwritten is None:
                out.append(k)
        return out

    def output_setting(name, value):
        """``simulation/output[N]/log_rate_hz`` (``FGOutputType::SetRateHz``: clipped to 0…1000 Hz; 0 turns the
        output off) or ``…/enabled``, written."""
        m = OUTPUT_SETTING.match(name)
        k = int(m.group(1) or 0)
        if m.group(2) == "enabled":
            enabled[k] = value != 0.0
        else:
            hz = min(max(value, 0.0), 1000.0)
            rates[k] = int(0.5 + 1.0 / (script.dt * hz)) if hz > 0.0 else 1
            enabled[k] = hz > 0.0
        for node in (f"simulation/output[{k}]", *(["simulation/output"] if k == 0 else [])):
            constants[f"{node}/log_rate_hz"] = 1.0 / (rates[k] * script.dt) if rates[k] > 0 else 0.0
            constants[f"{node}/enabled"] = 1.0 if enabled[k] else 0.0

    def write_state_file(version):
        """``simulation/write-state-file`` (``FGPropagate::WriteStateFile``): the state now (the last frame's, as
        the script reads it) as a reset file of JSBSim's ``version`` (1: body velocities, Euler angles, geocentric
        latitude, the height above the ground; 2: geodetic position and height above sea level, local velocity
        and body rates), ``initfile.<clock>.xml`` in the working folder (once the run has ended, with the
        outputs), JSBSim's text; 0 writes nothing."""
        if version == 0:
            return
        if version not in (1, 2):
            raise RuntimeError(f"{STATE_FILE} {version}: the version of a state file is 1 or 2 (JSBSim's)")
        r = read_named
        g = events.cpp_number
        if version == 1:
            lines = ['<?xml version="1.0"?>', '<initialize name="reset00">',
                     *(f'  <{tag}body unit="FT/SEC"> {g(r(f"velocities/{tag}-fps"))} </{tag}body> ' for tag in "uvw"),
                     *(f'  <{a} unit="DEG"> {g(r(f"attitude/{a}-deg"))} </{a}>' for a in ("phi", "theta", "psi")),
                     f'  <longitude unit="DEG"> {g(r("position/long-gc-deg"))} </longitude>',
                     f'  <latitude unit="DEG"> {g(r("position/lat-gc-deg"))} </latitude>',
                     f'  <altitude unit="FT"> {g(r("position/h-agl-ft"))} </altitude>', "</initialize>"]
        else:
            lines = ['<?xml version="1.0"?>', '<initialize name="IC File" version="2.0">', "",
                     '  <position frame="ECEF">',
                     f'    <latitude unit="DEG" type="geodetic"> {g(r("position/lat-geod-deg"))} </latitude>',
                     f'    <longitude unit="DEG"> {g(r("position/long-gc-deg"))} </longitude>',
                     f'    <altitudeMSL unit="FT"> {g(r("position/h-sl-ft"))} </altitudeMSL>', "  </position>", "",
                     '  <orientation unit="DEG" frame="LOCAL">',
                     *(f"    <{tag}> {g(r(f'attitude/{a}-deg'))} </{tag}>"
                       for tag, a in (("yaw", "psi"), ("pitch", "theta"), ("roll", "phi"))), "  </orientation>", "",
                     '  <velocity unit="FT/SEC" frame="LOCAL">',
                     *(f"    <{x}> {g(r(f'velocities/v-{d}-fps'))} </{x}>"
                       for x, d in (("x", "north"), ("y", "east"), ("z", "down"))), "  </velocity>", "",
                     '  <attitude_rate unit="DEG/SEC" frame="BODY">',
                     *(f"    <{tag}> {g(math.degrees(r(f'velocities/{a}-rad_sec')))} </{tag}>"
                       for tag, a in (("roll", "p"), ("pitch", "q"), ("yaw", "r"))), "  </attitude_rate>", "",
                     "</initialize>"]
        state_files.append((Path(f"initfile.{tree.read('simulation/sim-time-sec'):f}.xml"), lines))

    state_files = []                    # (written with the outputs, once the run has ended)
    reset = {"runs": 0, "now": None, "files": []}

    def reset_to_initial_conditions(value):
        """``simulation/reset`` (FGFDMExec::ResetToInitialConditions, at once, in the event's sets): the models
        as loaded, the script's declared properties back at their values (but its persistent ones), its events
        re-armed, the clock back at the start, then RunIC from the reset file's condition with the ``ic/*`` the
        script wrote (the terrain's elevation: ``ic/terrain-elevation-ft``); mode 1 starts new output files
        (``NAME_0.csv``, ``NAME_1.csv``, … as JSBSim names them), mode 0 writes the same ones again."""
        nonlocal sim, tree, gust, ic
        mode = int(value)
        if mode & ~1:
            raise RuntimeError(f"simulation/reset {value:g}: only modes 0 and 1 (a new output) are supported "
                               "(DONT_EXECUTE_RUN_IC is not)")
        moved = [name for name in props.WRITABLE_INITIAL
                 if name in first_initial and constants.get(name, first_initial[name]) != first_initial[name]]
        if moved:
            raise RuntimeError(f"simulation/reset after {moved[0]} was written: flightsim resets to the reset "
                               "file's condition with only ic/terrain-elevation-ft changed")
        kept = {name: tree.read(name) for name in script.persistent}
        counted = tree.frame            # (JSBSim's frame count goes on; its clock reads the start from now on)
        for name, value0 in script.declared.items():
            if name not in model.properties:
                constants[name] = value0
        for name in kept:
            if name not in model.properties:
                constants[name] = kept[name]
        ic = load_initial_condition(script.initialize, chosen,
                                    elevation=constants.get("ic/terrain-elevation-ft", ic.elevation_ft))
        runner.rearm()                              # (FGScript::ResetEvents: struct event's reset)
        sim, tree = begin_run(ic, -script.dt)      # (this frame's step brings its clock to 0, the script's start)
        tree.new_frame(script.start, counted)
        for name, v in kept.items():
            if name in model.properties:
                sim.set_jsbsim_property(name, v)
        if ic.trim is not None:
            _trim_requested(tree, ic)
        gust = gusts.CosineGust()
        reset["runs"] += 1
        reset["now"] = script.start
        if mode & 1:                                # (FGOutputFile::SetStartNewOutput)
            for k, out in enumerate(outputs):
                reset["files"].append((out, columns[k], rows[k][:], paths[k]))
                paths[k] = out.path.with_name(f"{out.path.stem}_{reset['runs'] - 1}{out.path.suffix}")
        for lines in rows:
            lines.clear()
        counts[:] = [1] * len(counts)                           # (FGModel::InitModel)
        sim.begin_step(advance=False)                           # (RunIC's frame: the reset file's condition)
        log(due(), script.start)
        tree.new_frame(script.start, counted)

    def write(name, value):
        if name == gusts.START:         # (FGWinds::StartGust: this frame's winds start it)
            gust.start(value != 0.0)
        if name == RESET:
            reset_to_initial_conditions(value)
            return
        if OUTPUT_SETTING.match(name):
            output_setting(name, value)
            return
        if name == STATE_FILE:
            write_state_file(int(value))
            return
        tree.write(name, value)

    # (the clock, a built-in property no script writes, schedules the events that wait for it; one the script
    # declares is its own)
    clock = None if CLOCK in constants else CLOCK
    runner = events.EventRunner(fresh, read_named, write, evaluate, emit, read_canonical, clock)
    sim.begin_step(advance=False)
    while True:
        # (FGFDMExec::Run's models have run on this frame's state: the flight controls, the engines; the first
        # frame's are RunIC's, with no time passing: the start's settled models, the engines as the reset file
        # leaves them, the loads they hold found on a copy, so that a turbine the script sets running leaves its
        # trim phase in the next frame, as JSBSim's)
        if on_frame is not None:
            on_frame(t, frame, sim)
        log(due(), t)
        if tree.terminate or t + script.dt > end:
            break
        # FGFDMExec::Run: the clock moves, the script runs on the last frame's state and models, then the state
        # moves (its models' loads held through the step) and the next frame's models run (sim.begin_step above)
        now = t + script.dt
        tree.new_frame(now, frame + 1, same_state=True)     # (the state log read, at the new clock)
        try:
            runner.run(now)
            if reset["now"] is None and constants.get(TERRAIN, ic.elevation_ft) != ic.elevation_ft:
                raise RuntimeError(f"{TERRAIN} set to {constants[TERRAIN]:g} with no simulation/reset after it: "
                                   "flightsim moves the terrain at a reset only")
        except RuntimeError as exc:
            raise RuntimeError(f"at {now:g} s: {exc}") from None
        if reset["now"] is not None:    # (a reset: this frame's models ran on the reset file's condition, and the
            now, reset["now"] = reset["now"], None      # clock went back to the start; RunIC's frame wrote the
            #                                             outputs, whose count this frame goes on)
        if not sim.step():
            raise RuntimeError(f"the flight stopped at {t:g} s: {sim.status}")
        tree.apply()
        if gust.running:                # (FGWinds after the script, on this frame's state: the next step's wind)
            tree.new_frame(now)
            tree.set_gust(gust.frame(tree.read, _tl2b(*(tree.read(f"attitude/{a}-rad") for a in ("phi", "theta",
                                                                                              "psi"))),
                                     _tw2b_of(tree.read("aero/alpha-rad"), tree.read("aero/beta-rad")), script.dt))
        t = now
        frame += 1
        # FGFDMExec::Run's models on the new state, with what the script set: the frame's outputs and the next
        # frame's script read them; the step to the next frame integrates only, on the loads they hold
        sim.begin_step()
    for out, given, lines, path in [*reset["files"], *zip(outputs, columns, rows, paths, strict=True)]:
        if out.unwritten is not None:
            continue
        delim = OUTPUT_TYPES[out.kind]
        head = delim.join(["Time", *(c[0] for c in given),
                           *(e.caption or (e.prop if e.prop.startswith("/") else props.ROOT + e.prop)
                             for e in out.entries)])
        _write_atomically(path, [head, *lines])
    for path, lines in state_files:
        _write_atomically(path, lines)
    return replace(script, events=fresh)


def _tw2b_of(alpha, beta):
    """JSBSim's wind → body matrix of ``alpha`` and ``beta`` (rad; ``FGAuxiliary::GetTw2b``)."""
    ca, sa, cb, sb = math.cos(alpha), math.sin(alpha), math.cos(beta), math.sin(beta)
    return np.array([[ca * cb, -ca * sb, -sa], [sb, cb, 0.0], [sa * cb, -sa * sb, ca]])


def _trim_requested(tree, ic):
    """The trim a reset file requests (``<trim>``), as the ``JSBSim`` program runs it (``JSBSim.cpp``: after
    ``RunIC``, before the first frame, an ``FGTrim`` of that mode): :meth:`~flightsim.simulation.script_writes.
    ScriptProperties.trim`.  The program ignores whether it converged (the flight goes on from where the trim left
    it: here from the reset file's condition, a line on stderr saying so) and sets no ``simulation/trim-completed``
    (only ``do_simple_trim`` does)."""
    try:
        tree.trim(ic.trim)
    except RuntimeError as exc:
        sys.stderr.write(f"flightsim: {ic.source}: trim: {exc}; the flight goes on from the reset file's "
                         "condition\n")
    tree.trims.clear()


def terrain_plane(elevation):
    """The ground of a reset file's terrain ``elevation`` (ft): None (the plane z = 0) at 0, else a
    :class:`~flightsim.physics.terrain.Terrain` everywhere at that height (a 2 × 2 grid whose outside, its
    ``sea_level``, is the same height): JSBSim's default ground callback, the ellipsoid raised by ``elevation``
    (on a round planet flightsim's terrain is a height above the ellipsoid)."""
    if elevation == 0.0:
        return None
    from flightsim.physics.terrain import Terrain

    return Terrain(heights=np.full((2, 2), float(elevation)), landuse=np.zeros((2, 2), dtype=np.uint8), x0=0.0,
                   y0=0.0, spacing=1.0, sea_level=float(elevation))


def _write_atomically(path, lines):
    """``lines`` into ``path`` through a temporary file in its folder, renamed into place."""
    folder = Path(os.path.realpath(path)).parent
    fd, tmp = tempfile.mkstemp(prefix=f".{Path(path).name}.", dir=folder)
    try:
        with os.fdopen(fd, "w", newline="\n") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise

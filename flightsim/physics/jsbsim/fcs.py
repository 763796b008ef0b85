"""The ``<flight_control>`` block of a JSBSim aircraft: its channels' algebraic components, compiled.

As JSBSim's ``FGFCS`` and its components run them, once a frame, channel by
channel, component by component in file order, each writing its value to its
``<output>`` properties and to ``fcs/<its name>`` (lower case, spaces as
dashes):

* ``summer`` — the inputs summed, plus ``<bias>``;
* ``pure_gain`` — ``gain × input``;
* ``scheduled_gain`` — ``gain × table × input``;
* ``aerosurface_scale`` — the input's ``<domain>`` mapped onto the ``<range>``
  (each side of zero on its own when zero-centred, the default), times ``gain``;
* ``kinematic`` — the output moved toward the commanded detent at each
  interval's rate (``FGKinemat``), its own previous output the state;
* ``fcs_function`` — a ``<function>``;
* ``switch`` — the value of its first ``<test>`` whose condition (``property
  comparison value`` lines and nested tests, AND or OR) holds, else its
  ``<default>``;

each then clipped by its ``<clipto>`` (cyclic too).  Writing a surface's
``fcs/…-pos-rad`` (or ``-deg``) sets the other unit and ``fcs/mag-…-pos-rad``
as ``FGFCS``'s tied properties do; ``gear/gear-pos-norm`` starts at 1 (gear down);
each engine's ``fcs/throttle-pos-norm[k]`` and ``fcs/mixture-pos-norm[k]`` follow their commands before the
channels run.
A kinematic moves for the step in ``simulation/dt`` (JSBSim copies its
``dt`` when the model loads; here the simulation writes the step it flies).
``<system>`` blocks run first, as JSBSim loads them before
``<flight_control>``.  Anything else — a dynamic component (filters, PID,
actuators, sensors), a channel with an ``execute`` condition, a component
``delay``, the old ``<autopilot>`` block — is refused, naming it.
"""

from __future__ import annotations

import math

from flightsim.errors import InputError
from flightsim.physics.jsbsim import program as P
from flightsim.physics.jsbsim.program import ProgramBuilder, Properties, canonical
from flightsim.physics.jsbsim.xmlfile import package_root

__all__ = ["BUILTIN", "FlightControls", "SETTLE", "SURFACES", "property_name"]

#: JSBSim's radians → degrees and back (FGJSBBase: 180/π, π/180).
RAD_TO_DEG = 180.0 / math.pi
DEG_TO_RAD = math.pi / 180.0
#: The surfaces whose ``fcs/NAME-pos-rad`` and ``-deg`` are one value; True: with ``fcs/mag-NAME-pos-rad``.
SURFACES = {"elevator": True, "left-aileron": True, "right-aileron": True, "rudder": True, "flap": False,
            "speedbrake": True, "spoiler": True}
#: Set to 1 to make kinematics reach their command at once (JSBSim's trim status); 0 in flight.
SETTLE = "simulation/flightsim-settle"
#: The step the kinematics move in, s (its default: the block's ``dt``).
DT = "simulation/dt"
#: FGFCS's own surface and gear properties (``FGFCS::bind``): they hold 0 (the gear 1: down) until a component
#: writes them.
BUILTIN = tuple(f"fcs/{surface}-pos-{unit}" for surface in SURFACES for unit in ("rad", "deg", "norm")) + tuple(
    f"fcs/mag-{surface}-pos-rad" for surface, mag in SURFACES.items() if mag) + ("gear/gear-pos-norm",
                                                                                  "gear/gear-cmd-norm")
#: Initial values of :data:`BUILTIN`.
DEFAULTS = {**{name: 0.0 for name in BUILTIN}, "gear/gear-pos-norm": 1.0, "gear/gear-cmd-norm": 1.0}

_COMPONENTS = ("summer", "pure_gain", "scheduled_gain", "aerosurface_scale", "kinematic", "fcs_function", "switch")
#: FGCondition's comparisons.
_COMPARISONS = {"==": P.OP_EQ, "eq": P.OP_EQ, "EQ": P.OP_EQ, "!=": P.OP_NQ, "ne": P.OP_NQ, "NE": P.OP_NQ,
                ">": P.OP_GT, "gt": P.OP_GT, "GT": P.OP_GT, ">=": P.OP_GE, "ge": P.OP_GE, "GE": P.OP_GE,
                "<": P.OP_LT, "lt": P.OP_LT, "LT": P.OP_LT, "<=": P.OP_LE, "le": P.OP_LE, "LE": P.OP_LE}


def property_name(name):
    """``fcs/`` + a component's name lower-cased with spaces as dashes (``FGPropertyManager::mkPropertyName``),
    or the name itself when it is a path."""
    if "/" in name:
        return name
    return "fcs/" + "".join(c.lower() if c.isupper() else ("-" if c.isspace() else c) for c in name)


class FlightControls:
    """An aircraft's ``<flight_control>`` compiled into one :class:`~flightsim.physics.jsbsim.program.Program`.

    Parameters
    ----------
    source : flightsim.physics.jsbsim.xmlfile.JSBSimFile
    properties : Properties
        Shared with the aerodynamics (the surfaces it reads are written here).
    dt : float
        The frame the kinematics move in, s.

    Attributes
    ----------
    program : Program
    outputs : list of str
        Every property the block writes.
    defaults : dict
        Initial values: FGFCS's and the block's ``<property value="…">`` declarations.
    """

    def __init__(self, source, properties=None, dt=1.0 / 120.0):
        self.source = source
        self.properties = Properties() if properties is None else properties
        self.dt = float(dt)
        self.defaults = {**DEFAULTS, DT: self.dt}
        self.outputs = []
        self._b = ProgramBuilder(source, self.properties)
        propulsion = source.section("propulsion", required=False)
        for k in range(0 if propulsion is None else len(propulsion.findall("engine"))):
            # FGFCS::Run: each engine's throttle and mixture positions follow their commands before the channels run
            for lever in ("throttle", "mixture"):
                self._b.push_property(f"fcs/{lever}-cmd-norm[{k}]", "flight_control")
                self._b.store(f"fcs/{lever}-pos-norm[{k}]")
                self.outputs.append(canonical(f"fcs/{lever}-pos-norm[{k}]"))
        if source.root.find("autopilot") is not None:
            raise InputError(source.path, "autopilot", "the <autopilot> block is not supported")
        # FGFDMExec loads the <system> blocks before <flight_control>: their channels run first
        for k, system in enumerate(source.root.findall("system")):
            self._block(self._system(system, k), f"system[{k}]")
        block = source.section("flight_control", required=False)
        if block is not None:
            self._block(block, "flight_control")
        self.program = self._b.build()

    def _system(self, el, k):
        """A ``<system>``, read from the file it names (beside the aircraft, its ``Systems/``, the package's
        ``systems/``) or inline."""
        name = el.get("file")
        if not name:
            return el
        here = self.source.path.parent
        return self.source.included(name, (here, here / "Systems", here / "systems", package_root() / "systems"),
                                    f"system[{k}] file={name!r}", "no such system file")

    def _block(self, block, where):
        for child in block:
            if child.tag == "channel":
                self._channel(child, where)
            elif child.tag == "property":
                self.defaults[canonical((child.text or "").strip())] = self.source.parse_number(
                    child.get("value", "0"), f"{where}/property {(child.text or '').strip()!r} value")
            elif child.tag not in ("documentation", "description"):
                raise InputError(self.source.path, f"{where}/<{child.tag}>", "not supported")

    @property
    def inputs(self):
        """The properties the block reads and does not write (sorted)."""
        written = set(self.outputs)
        return sorted(n for n in self._b.reads if n not in written and n not in (SETTLE, DT))

    def _channel(self, channel, block):
        where = f"{block}/{self.source.where(channel)}"
        if channel.get("execute"):
            raise InputError(self.source.path, where, "a channel's execute condition is not supported")
        for comp in channel:
            if comp.tag in ("documentation", "description"):
                continue
            here = f"{where}/{self.source.where(comp)}"
            if comp.tag not in _COMPONENTS:
                raise InputError(self.source.path, here, f"component <{comp.tag}> is not supported "
                                 f"(supported: {', '.join(_COMPONENTS)})")
            for tag in ("delay", "init"):
                if comp.find(tag) is not None:
                    raise InputError(self.source.path, f"{here}/{tag}", "not supported")
            getattr(self, f"_{comp.tag}")(comp, here)
            self._clip(comp, here)
            self._outputs(comp, here)

    def _inputs(self, comp, where, count=None):
        inputs = [(el.text or "").strip() for el in comp.findall("input")]
        if count is not None and len(inputs) != count:
            raise InputError(self.source.path, f"{where}/input", f"needs {count} <input>, found {len(inputs)}")
        if not inputs:
            raise InputError(self.source.path, f"{where}/input", "needs at least one <input>")
        for name in inputs:
            self._b.push_property(name, f"{where}/input")
        return len(inputs)

    def _gain(self, comp, where):
        gain = comp.find("gain")
        if gain is None:
            self._b.push_constant(1.0)
        else:
            self._b.parameter(gain.text, f"{where}/gain")

    def _summer(self, comp, where):
        n = self._inputs(comp, where)
        bias = comp.find("bias")
        self._b.push_constant(0.0 if bias is None else self.source.number(bias, f"{where}/bias"))
        self._b.emit(P.OP_SUM, n + 1, pops=n + 1, pushes=1)

    def _pure_gain(self, comp, where):
        self._gain(comp, where)
        self._inputs(comp, where, 1)
        self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)

    def _scheduled_gain(self, comp, where):
        table = comp.find("table")
        if table is None:
            raise InputError(self.source.path, where, "a scheduled gain needs a <table>")
        self._gain(comp, where)
        self._b.table(table, f"{where}/table")
        self._inputs(comp, where, 1)
        self._b.emit(P.OP_PRODUCT, 3, pops=3, pushes=1)

    def _aerosurface_scale(self, comp, where):
        def bounds(tag, default):
            el = comp.find(tag)
            if el is None or el.find("min") is None or el.find("max") is None:
                if default is None:
                    raise InputError(self.source.path, f"{where}/{tag}", "needs <min> and <max>")
                return default
            return (self.source.number(el.find("min"), f"{where}/{tag}/min"),
                    self.source.number(el.find("max"), f"{where}/{tag}/max"))

        in_min, in_max = bounds("domain", (-1.0, 1.0))
        out_min, out_max = bounds("range", None)
        zc = comp.find("zero_centered")
        centred = zc is None or (zc.text or "").strip() not in ("0", "false")
        self._inputs(comp, where, 1)
        self._b.emit(P.OP_SCALE, self._b.constants_block((in_min, in_max, out_min, out_max, float(centred))),
                     pops=1, pushes=1)
        self._gain(comp, where)
        self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)

    def _kinematic(self, comp, where):
        settings = comp.findall("traverse/setting")
        if len(settings) < 2:
            raise InputError(self.source.path, f"{where}/traverse", "needs more than one <setting>")
        detents = [self.source.number(s.find("position"), f"{where}/traverse/setting/position") for s in settings]
        times = [self.source.number(s.find("time"), f"{where}/traverse/setting/time") for s in settings]
        index = self._b.kinematic(detents, times, comp.find("noscale") is None)
        self._inputs(comp, where, 1)
        outputs = [(el.text or "").strip() for el in comp.findall("output")]
        self._b.push_property(outputs[0] if outputs else property_name(comp.get("name", "")), where)
        self._b.push_property(DT, where)
        self._b.push_property(SETTLE, where)
        self._b.emit(P.OP_KINEMATIC, index, pops=4, pushes=1)

    def _fcs_function(self, comp, where):
        function = comp.find("function")
        if function is None:
            raise InputError(self.source.path, where, "an fcs_function needs a <function>")
        self._b.function(function, f"{where}/function")

    def _switch(self, comp, where):
        """FGSwitch: the value of the first ``<test>`` whose condition holds, else the ``<default>`` (else 0)."""
        tests = comp.findall("test")
        for k, test in enumerate(tests):
            self._condition(test, f"{where}/test[{k}]")
            self._b.parameter(test.get("value"), f"{where}/test[{k}] value")
        default = comp.find("default")
        self._b.parameter("0" if default is None else default.get("value"), f"{where}/default value")
        for _ in tests:
            self._b.emit(P.OP_IFTHEN, 3, pops=3, pushes=1)

    def _condition(self, el, where):
        """FGCondition: each line ``property comparison value`` and each nested ``<test>``, joined by the
        element's ``logic`` (AND by default, or OR); leaves 1 or 0."""
        logic = el.get("logic") or "AND"
        if logic not in ("AND", "OR"):
            raise InputError(self.source.path, where, f"unknown logic {logic!r} (AND or OR)")
        count = 0
        for line in "".join(t for t in [el.text or ""] + [c.tail or "" for c in el]).splitlines():
            words = line.split()
            if not words:
                continue
            if len(words) != 3 or words[1] not in _COMPARISONS:
                raise InputError(self.source.path, where, f"not a condition 'property comparison value': "
                                 f"{line.strip()!r}")
            self._b.push_property(words[0], where)
            self._b.parameter(words[2], where)
            self._b.emit(_COMPARISONS[words[1]], 2, pops=2, pushes=1)
            count += 1
        for k, child in enumerate(el):
            if child.tag != el.tag:
                raise InputError(self.source.path, f"{where}/<{child.tag}>", "not a condition")
            self._condition(child, f"{where}/{child.tag}[{k}]")
            count += 1
        if not count:
            raise InputError(self.source.path, where, "an empty condition")
        self._b.emit(P.OP_AND if logic == "AND" else P.OP_OR, count, pops=count, pushes=1)

    def _clip(self, comp, where):
        clip = comp.find("clipto")
        if clip is None:
            return
        if clip.find("min") is None or clip.find("max") is None:
            raise InputError(self.source.path, f"{where}/clipto", "needs <min> and <max>")
        self._b.parameter(clip.find("min").text, f"{where}/clipto/min")
        self._b.parameter(clip.find("max").text, f"{where}/clipto/max")
        self._b.emit(P.OP_CYCLIC_CLIP if clip.get("type") == "cyclic" else P.OP_CLIP, pops=2)

    def _outputs(self, comp, where):
        names = [(el.text or "").strip() for el in comp.findall("output")] + [property_name(comp.get("name", ""))]
        for k, name in enumerate(names):
            if name.startswith("external_reactions/"):
                raise InputError(self.source.path, f"{where}/output", f"{name}: external reactions are not supported")
            if k < len(names) - 1:
                self._b.emit(P.OP_DUP, pushes=1)
            self._b.store(name)
            self.outputs.append(canonical(name))
            self._couple(canonical(name), where)

    def _couple(self, name, where):
        """After a write to a surface's ``-pos-rad`` or ``-pos-deg``: its other unit and its ``mag-`` (FGFCS)."""
        for surface, has_mag in SURFACES.items():
            rad, deg = f"fcs/{surface}-pos-rad", f"fcs/{surface}-pos-deg"
            if name not in (rad, deg):
                continue
            other, factor = (deg, RAD_TO_DEG) if name == rad else (rad, DEG_TO_RAD)
            self._b.push_property(name, where)
            self._b.push_constant(factor)
            self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)
            self._b.store(other)
            self.outputs.append(other)
            if has_mag:
                self._b.push_property(rad, where)
                self._b.emit(P.OP_ABS, 1, pops=1, pushes=1)
                self._b.store(f"fcs/mag-{surface}-pos-rad")
                self.outputs.append(f"fcs/mag-{surface}-pos-rad")

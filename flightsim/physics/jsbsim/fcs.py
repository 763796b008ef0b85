"""The flight controls of a JSBSim aircraft (``<system>``, ``<autopilot>``, ``<flight_control>``), compiled.

As JSBSim's ``FGFCS`` and its components run them, once a frame, block by
block (the ``<system>`` blocks, then ``<autopilot>``, then
``<flight_control>``: the order ``FGFDMExec`` loads them in), channel by
channel, component by component in file order, each writing its value to its
``<output>`` properties and to ``fcs/<its name>`` (lower case, spaces as
dashes).  The algebraic components:

* ``summer`` — the inputs summed, plus ``<bias>``;
* ``pure_gain`` — ``gain × input``;
* ``scheduled_gain`` — ``gain × table × input``;
* ``aerosurface_scale`` — the input's ``<domain>`` mapped onto the ``<range>``
  (each side of zero on its own when zero-centred, the default), times ``gain``;
* ``fcs_function`` — a ``<function>`` (times its ``<input>`` when it has one);
* ``switch`` — the value of its first ``<test>`` whose condition (``property
  comparison value`` lines and nested tests, AND or OR) holds, else its
  ``<default>``;
* ``deadband`` — 0 within ``<width>``/2 of zero, else the input moved that
  far toward zero, times ``<gain>``;
* ``angle`` — the signed angle from ``<source_angle>`` to ``<target_angle>``;
* ``waypoint_heading``, ``waypoint_distance`` — the initial heading and the
  length of the geodesic from a source to a target latitude and longitude on
  JSBSim's WGS84 planet (Vincenty's formula; JSBSim calls GeographicLib: the
  two agree to 1e-8).

The dynamic ones, with their discrete formulas (JSBSim 1.3's), their state in
property slots of their own (``NAME/flightsim-state-K``) so that it travels
with the property array — reset, trim, the batch and replays carry it:

* ``kinematic`` — the output moved toward the commanded detent at each
  interval's rate (``FGKinemat``), its own previous output the state;
* ``lag_filter``, ``lead_lag_filter``, ``washout_filter``,
  ``second_order_filter`` — ``FGFilter``'s Tustin forms of ``C1/(s + C1)``,
  ``(C1 s + C2)/(C3 s + C4)``, ``s/(s + C1)`` and
  ``(C1 s² + C2 s + C3)/(C4 s² + C5 s + C6)``; the first frame after a reset
  outputs 0 without reading its input, as JSBSim's ``Initialize`` does;
* ``pid`` and ``integrator`` (a PID whose ``ki`` is its ``c1``, trapezoidal by
  default) — ``FGPID``: rectangular, trapezoidal, Adams-Bashforth 2 or 3
  integration, ``<trigger>`` holding (≠ 0) or zeroing (< 0) the integral,
  ``<pvdot>`` or the input's difference for the derivative;
* ``actuator`` — ``FGActuator``: lag, rate limits (both or each ``sense``),
  deadband, hysteresis, bias, delay (failures are not modelled);
* ``sensor`` — ``FGSensor``: lag, noise, drift, gain, bias, delay,
  quantization; its ``<noise>`` (uniform or Gaussian, absolute or percent)
  drawn from JSBSim's own random numbers — its executive's generator seeded
  with ``simulation/randomseed``, the same numbers to the bit
  (:mod:`~flightsim.physics.jsbsim.sensors`; a settled pass draws none);
* ``accelerometer``, ``gyro``, ``magnetometer`` — ``FGAccelerometer``
  (the specific force at its ``<location>``), ``FGGyro`` (the inertial body
  rates), ``FGMagnetometer`` (the Earth's field, WMM2005), each along its
  ``<axis>`` of its ``<orientation>``, then a sensor's degradations
  (:mod:`~flightsim.physics.jsbsim.sensors`); JSBSim's body axes (x forward,
  y right, z down), as the properties;
* ``<delay>`` (seconds, or ``type="frames"``) on a switch, an actuator or a
  sensor, as ``FGFCSComponent::Delay``: a ring of that many frames, written
  then read one place on, so a value comes back one frame sooner than the
  length says; JSBSim ignores a delay on the other components, and so does
  flightsim.

Each is then clipped by its ``<clipto>`` (cyclic too).  Writing a surface's
``fcs/…-pos-rad`` (or ``-deg``) sets the other unit and ``fcs/mag-…-pos-rad``
as ``FGFCS``'s tied properties do; ``gear/gear-pos-norm`` starts at 1 (gear
down); each engine's ``fcs/throttle-pos-norm[k]`` and
``fcs/mixture-pos-norm[k]`` follow their commands before the channels run.
Dynamic components step ``simulation/dt`` (JSBSim copies its ``dt`` when the
model loads; here the simulation writes the step it flies).  While
``simulation/flightsim-settle`` is 1 (flightsim's trim, JSBSim's trim status)
each settles at once: a kinematic at its command, a filter at its gain at zero
frequency, an integral holds, an actuator passes its input through (as
JSBSim's does), a delay fills with its input.

Refused, naming it: a channel's ``execute`` condition or ``execrate``, a
component's ``<init>``, distributors and linear actuators; an accelerometer or
magnetometer without its ``<location>``, an ``<axis>`` that is not X, Y or Z,
an orientation's unit that is not RAD or DEG, a noise's variation or
distribution JSBSim does not know (it would take PERCENT or UNIFORM and say
so).  Not modelled: a sensor's own ``fcs/NAME/randomseed`` and its
``malfunction/fail_*`` switches.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.jsbsim import program as P
from flightsim.physics.jsbsim import sensors
from flightsim.physics.jsbsim.loads import SENSOR_STATE
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

_FILTERS = {"lag_filter": P.FILTER_LAG, "lead_lag_filter": P.FILTER_LEAD_LAG, "washout_filter": P.FILTER_WASHOUT,
            "second_order_filter": P.FILTER_ORDER2}
_COMPONENTS = ("summer", "pure_gain", "scheduled_gain", "aerosurface_scale", "kinematic", "fcs_function", "switch",
               "deadband", "angle", "waypoint_heading", "waypoint_distance", *_FILTERS, "pid", "integrator",
               "actuator", "sensor", "accelerometer", "gyro", "magnetometer")
#: A sensor's ``<axis>`` → its row of the orientation matrix (``FGSensorOrientation``).
_AXES = {"X": 0, "x": 0, "Y": 1, "y": 1, "Z": 2, "z": 2}
#: JSBSim's inch → ft (FGJSBBase ``inchtoft``) and degree → radian (its unit conversion's).
INCH_TO_FT = 1.0 / 12.0
#: FGPID's integrations by ``<ki type="…">`` (anything else: Adams-Bashforth 2).
_INTEGRATIONS = {"rect": P.INT_RECT, "trap": P.INT_TRAP, "ab2": P.INT_AB2, "ab3": P.INT_AB3}
#: The smallest step a time ``<delay>`` keeps its whole length at (its ring has room for that many frames).
DELAY_MIN_DT = 1.0 / 480.0
#: FGAngles' and FGWaypoint's degree (as JSBSim writes it).
ANGLE_DEG = 0.017453293
#: JSBSim's planet (FGInertial's WGS84): semi-major and semi-minor axes, ft.
PLANET_A, PLANET_B = 20925646.32546, 20855486.5951
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
    integrals : list
        ``(name, first state slot)`` of each PID and integrator (its state: the last two inputs, the integral).
    """

    def __init__(self, source, properties=None, dt=1.0 / 120.0):
        self.source = source
        self.properties = Properties() if properties is None else properties
        self.dt = float(dt)
        self.defaults = {**DEFAULTS, DT: self.dt}
        self.outputs = []
        self.integrals = []
        self._generator = None          # (the executive's random numbers' state slots, made at the first noise)
        self._draws = []                # (each noisy sensor's distribution, in the order they draw: Gaussian)
        self._b = ProgramBuilder(source, self.properties)
        propulsion = source.section("propulsion", required=False)
        for k in range(0 if propulsion is None else len(propulsion.findall("engine"))):
            # FGFCS::Run: each engine's throttle and mixture positions follow their commands before the channels run
            for lever in ("throttle", "mixture"):
                self._b.push_property(f"fcs/{lever}-cmd-norm[{k}]", "flight_control")
                self._b.store(f"fcs/{lever}-pos-norm[{k}]")
                self.outputs.append(canonical(f"fcs/{lever}-pos-norm[{k}]"))
        # FGFDMExec loads the <system> blocks, then <autopilot>, then <flight_control>: their channels run so
        for k, system in enumerate(source.root.findall("system")):
            self._declare(system, f"system[{k}]")
            self._block(self._system(system, k), f"system[{k}]")
        autopilot = source.root.find("autopilot")
        if autopilot is not None:
            self._declare(autopilot, "autopilot")
            self._block(self._system(autopilot, None), "autopilot")
        block = source.section("flight_control", required=False)
        if block is not None:
            self._block(block, "flight_control")
        self.program = self._b.build()
        if self._generator is not None:     # (JSBSim's RunIC ran the flight controls twice: their draws taken)
            start = np.array(sensors.GENERATOR_START)
            for _ in range(sensors.RUN_IC_PASSES):
                for gaussian in self._draws:
                    (sensors.normal if gaussian else sensors.uniform)(start, 0)
            for k, value in enumerate(start):
                self.defaults[f"{sensors.GENERATOR}/flightsim-state-{k}"] = float(value)

    def _system(self, el, k):
        """A ``<system>`` (``k`` its number) or the ``<autopilot>`` (``k`` None), read from the file it names or
        inline.  A system's file is looked for beside the aircraft, in its ``Systems/``, then in the package's
        ``systems/``; the autopilot's beside the aircraft only (``FGFCS::FindFullPathName``)."""
        name = el.get("file")
        if not name:
            return el
        here = self.source.path.parent
        if k is None:
            return self.source.included(name, (here,), f"autopilot file={name!r}", "no such autopilot file")
        return self.source.included(name, (here, here / "Systems", here / "systems", package_root() / "systems"),
                                    f"system[{k}] file={name!r}", "no such system file")

    def _block(self, block, where):
        """A system's (or the flight controls', the autopilot's) channels, run as ``FGFCS::Run`` runs them: its own
        ``<function>``s of type ``pre`` (the default) first, then the channels in order, then its ``post``
        functions (``FGModelFunctions``: each writes the property it names)."""
        functions = {"pre": [], "post": []}
        for child in block:
            if child.tag == "function":
                kind = (child.get("type") or "pre").strip()
                if kind not in functions:
                    raise InputError(self.source.path, f"{where}/{self.source.where(child)}",
                                     f"function type {kind!r} is not supported (pre or post)")
                functions[kind].append(child)
        self._functions(functions["pre"], where)
        for child in block:
            if child.tag == "channel":
                self._channel(child, where)
            elif child.tag == "property":
                self._property(child, where)
            elif child.tag not in ("documentation", "description", "limitation", "function"):
                raise InputError(self.source.path, f"{where}/<{child.tag}>", "not supported")
        self._functions(functions["post"], where)

    def _functions(self, functions, where):
        """A system's own ``<function name=…>``s, in the file's order, each into the property it names."""
        for el in functions:
            here = f"{where}/{self.source.where(el)}"
            name = (el.get("name") or "").strip()
            if not name:
                raise InputError(self.source.path, here, "a function needs a name (the property it writes)")
            self._b.function(el, here)
            self._b.store(name)
            self.outputs.append(canonical(name))

    def _declare(self, el, where):
        """The ``<property>`` declarations inside a ``<system file="…">`` element itself (FGModel::Upload reads
        them beside the file's own, overriding its values: ``FGPropertyReader::Load``'s ``override_props``)."""
        if el.get("file"):
            for child in el.findall("property"):
                self._property(child, where, override=True)

    def _property(self, el, where, override=False):
        """A ``<property>`` declaration, as ``FGPropertyReader::Load`` reads it: a property declared already (by an
        earlier system, or one flightsim defines) keeps its value unless ``override`` (a ``<system file=…>``
        element's own declarations); a new one starts at its ``value`` (0 without one)."""
        name = canonical((el.text or "").strip())
        value = self.source.parse_number(el.get("value", "0"), f"{where}/property {(el.text or '').strip()!r} value")
        if override or name not in self.defaults:
            self.defaults[name] = value

    @property
    def inputs(self):
        """The properties the block reads and does not write (sorted)."""
        written = set(self.outputs)
        return sorted(n for n in self._b.reads if n not in written and n not in (SETTLE, DT))

    def _channel(self, channel, block):
        where = f"{block}/{self.source.where(channel)}"
        for attribute in ("execute", "execrate"):
            if channel.get(attribute):
                raise InputError(self.source.path, where, f"a channel's {attribute} attribute is not supported")
        for comp in channel:
            if comp.tag in ("documentation", "description"):
                continue
            here = f"{where}/{self.source.where(comp)}"
            if comp.tag not in _COMPONENTS:
                raise InputError(self.source.path, here, f"component <{comp.tag}> is not supported "
                                 f"(supported: {', '.join(_COMPONENTS)})")
            if comp.find("init") is not None:
                raise InputError(self.source.path, f"{here}/init", "not supported")
            method = "_filter" if comp.tag in _FILTERS else "_waypoint" if comp.tag.startswith("waypoint") else \
                f"_{comp.tag}"
            getattr(self, method)(comp, here)
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
        if comp.find("input") is not None:          # FGFCSFunction: the value times its (first) input
            self._b.push_property(comp.find("input").text, f"{where}/input")
            self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)

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
        self._delay(comp, where)

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

    # ------------------------------------------------------------------ the dynamic components

    def _name(self, comp):
        return property_name(comp.get("name", ""))

    def _optional(self, comp, tag, where, default):
        """Push the parameter ``<tag>`` (a number or a property), or ``default`` when it is absent."""
        el = comp.find(tag)
        if el is None:
            self._b.push_constant(default)
        else:
            self._b.parameter(el.text, f"{where}/{tag}")

    def _number(self, comp, tag, where, default=0.0):
        el = comp.find(tag)
        return default if el is None else self.source.number(el, f"{where}/{tag}")

    def _clock(self, where):
        self._b.push_property(DT, where)
        self._b.push_property(SETTLE, where)

    def _filter(self, comp, where):
        """FGFilter: the input, ``c1``…``c6`` (absent: 0), the step and the settle switch."""
        self._b.push_constant(_FILTERS[comp.tag])
        self._inputs(comp, where, 1)
        for k in range(1, 7):
            self._optional(comp, f"c{k}", where, 0.0)
        self._clock(where)
        self._b.dynamic(P.OP_FILTER, self._b.state(self._name(comp), P.STATE[P.OP_FILTER]), where)

    def _integrator(self, comp, where):
        """``<integrator>``: FGFCS loads it as a PID whose ``ki`` is its ``c1`` (trapezoidal unless it says)."""
        if comp.find("c1") is None:
            raise InputError(self.source.path, f"{where}/c1", "required element is missing")
        self._pid(comp, where, gain="c1", integration="trap")

    def _pid(self, comp, where, gain="ki", integration="ab2"):
        ki = comp.find(gain)
        kind = P.INT_NONE if ki is None else _INTEGRATIONS.get(ki.get("type") or integration, P.INT_AB2)
        self._b.push_constant(kind)
        self._b.push_constant(float(comp.get("type") == "standard"))
        pvdot = comp.find("pvdot")
        self._b.push_constant(float(pvdot is not None))
        self._inputs(comp, where, 1)
        for tag in ("kp", gain, "kd"):
            self._optional(comp, tag, where, 0.0)
        for tag in ("pvdot", "trigger"):
            el = comp.find(tag)
            if el is None:
                self._b.push_constant(0.0)
            else:
                self._b.push_property(el.text, f"{where}/{tag}")
        self._clock(where)
        state = self._b.state(self._name(comp), P.STATE[P.OP_PID])
        self.integrals.append((self._name(comp), state))
        self._b.dynamic(P.OP_PID, state, where)

    def _actuator(self, comp, where):
        """FGActuator: lag, rate limits, deadband, hysteresis, bias, then its delay."""
        for tag in ("fail_zero", "fail_hardover", "fail_stuck"):
            if comp.find(tag) is not None:
                raise InputError(self.source.path, f"{where}/{tag}", "actuator failures are not supported")
        self._inputs(comp, where, 1)
        self._optional(comp, "lag", where, math.nan)
        rates = {}
        for el in comp.findall("rate_limit"):
            sense = (el.get("sense") or "")[:4]
            for side in ("incr", "decr"):
                if sense in ("", side):
                    rates[side] = el
        for side in ("incr", "decr"):
            if side in rates:
                self._b.parameter(rates[side].text, f"{where}/rate_limit")
            else:
                self._b.push_constant(math.nan)
        for tag in ("deadband_width", "hysteresis_width", "bias"):
            self._b.push_constant(self._number(comp, tag, where))
        self._clock(where)
        self._b.dynamic(P.OP_ACTUATOR, self._b.state(self._name(comp), P.STATE[P.OP_ACTUATOR]), where)
        self._delay(comp, where)

    def _sensor(self, comp, where, given=False):
        """FGSensor: lag, noise, drift, gain, bias, delay, quantization (``given``: the input is on the stack,
        an accelerometer's, a gyro's or a magnetometer's)."""
        if not given:
            self._inputs(comp, where, 1)
        amplitude = self._number(comp, "noise", where)
        if amplitude != 0.0:        # (FGSensor: the lag, then the noise, then the drift, gain and bias)
            for tag in ("lag", "drift_rate", "gain", "bias"):
                self._b.push_constant(self._number(comp, tag, where) if tag == "lag" else 0.0)
            self._clock(where)
            self._b.dynamic(P.OP_SENSOR, self._b.state(self._unique(comp, "lag"), P.STATE[P.OP_SENSOR]), where)
            self._noise(comp.find("noise"), amplitude, f"{where}/noise")
        for tag in ("lag", "drift_rate", "gain", "bias"):
            self._b.push_constant(0.0 if tag == "lag" and amplitude != 0.0 else self._number(comp, tag, where))
        self._clock(where)
        self._b.dynamic(P.OP_SENSOR, self._b.state(self._unique(comp), P.STATE[P.OP_SENSOR]), where)
        self._delay(comp, where)
        quantization = comp.find("quantization")
        if quantization is not None:
            here = f"{where}/quantization"
            bits = int(self._number(quantization, "bits", here))
            if bits:
                lo, hi = self._number(quantization, "min", here), self._number(quantization, "max", here)
                for value in (lo, hi, (hi - lo) / (1 << bits)):
                    self._b.push_constant(value)
                self._b.dynamic(P.OP_QUANTIZE, 0, where)

    def _unique(self, comp, part=""):
        """The name a component's state slots go under: its property's (``part``: a part of it), or, where another
        component of the same name has state already (the F450's ``AccelX`` accelerometer and ``AccelX`` sensor,
        one ``fcs/accelx`` in JSBSim; its IMU's and barometer's ``temp_C``), the same name with ``-k``."""
        base = self._name(comp) + (f"/{part}" if part else "")
        name, k = base, 1
        while f"{name}/flightsim-state-0" in self.properties:
            name, k = f"{base}-{k}", k + 1
        return name

    def _noise(self, el, amplitude, where):
        """FGSensor::Noise (:func:`~flightsim.physics.jsbsim.sensors.noise`): ``variation`` ABSOLUTE or PERCENT
        (JSBSim takes anything else as PERCENT, and says so: refused here), ``distribution`` UNIFORM or GAUSSIAN
        (else UNIFORM, said: refused); drawn from the executive's generator, seeded with
        ``simulation/randomseed``."""
        variation = (el.get("variation") or "").strip()
        distribution = (el.get("distribution") or "").strip()
        if variation not in ("ABSOLUTE", "PERCENT"):
            raise InputError(self.source.path, f"{where} variation", f"{variation!r} is not a noise variation "
                             "(ABSOLUTE or PERCENT)")
        if distribution not in ("UNIFORM", "GAUSSIAN"):
            raise InputError(self.source.path, f"{where} distribution", f"{distribution!r} is not a noise "
                             "distribution (UNIFORM or GAUSSIAN)")
        if self._generator is None:
            self._generator = self._b.state(sensors.GENERATOR, len(sensors.GENERATOR_START))
            for k, value in enumerate(sensors.GENERATOR_START):
                self.defaults[f"{sensors.GENERATOR}/flightsim-state-{k}"] = value
            self.defaults.setdefault(sensors.RANDOM_SEED, 0.0)
        self._draws.append(distribution == "GAUSSIAN")
        for value in (amplitude, variation == "ABSOLUTE", distribution == "GAUSSIAN"):
            self._b.push_constant(float(value))
        self._b.push_property(sensors.RANDOM_SEED, where)
        self._b.push_property(SETTLE, where)
        self._b.dynamic(P.OP_NOISE, self._generator, where)

    def _orientation(self, comp, where):
        """A sensor's axis: the row of ``FGSensorOrientation``'s matrix its ``<axis>`` picks (no axis: X, as
        JSBSim assumes after a warning)."""
        angles = [0.0, 0.0, 0.0]
        el = comp.find("orientation")
        if el is not None:
            unit = (el.get("unit") or "RAD").strip().upper()
            if unit not in ("RAD", "DEG"):
                raise InputError(self.source.path, f"{where}/orientation unit", f"{unit!r} is not an angle's unit "
                                 "(RAD or DEG)")
            for k, (tag, alias) in enumerate((("x", "roll"), ("y", "pitch"), ("z", "yaw"))):
                child = el.find(tag) if el.find(tag) is not None else el.find(alias)
                if child is not None:
                    angles[k] = self.source.number(child, f"{where}/orientation/{child.tag}") * (
                        DEG_TO_RAD if unit == "DEG" else 1.0)
        axis = (comp.findtext("axis") or "").strip()
        if axis and axis not in _AXES:
            raise InputError(self.source.path, f"{where}/axis", f"{axis!r} is not an axis (X, Y or Z)")
        return sensors.orientation_rows(*angles)[_AXES.get(axis, 0)]

    def _located(self, comp, where, what):
        """A sensor's ``<location>`` (structural frame, in), which JSBSim requires."""
        if comp.find("location") is None:
            raise InputError(self.source.path, f"{where}/location", f"required element is missing (no location "
                             f"given for {what})")
        return self.source.location(comp.find("location"), f"{where}/location")

    def _accelerometer(self, comp, where):
        """FGAccelerometer: the specific force at its location (:func:`~flightsim.physics.jsbsim.sensors.
        accelerometer`, the CG's location read each frame), along its axis; then FGSensor's degradations."""
        location = self._located(comp, where, "accelerometer")
        for name in (*SENSOR_STATE, "velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec"):
            self._b.push_property(name, where)
        for axis, value, sign in zip("xyz", location, (-1.0, 1.0, -1.0), strict=True):
            # FGMassBalance::StructuralToBody: (location − CG) in ft, x and z turned round
            self._b.push_constant(value)
            self._b.push_property(f"inertia/cg-{axis}-in", where)
            self._b.emit(P.OP_DIFFERENCE, 2, pops=2, pushes=1)
            self._b.push_constant(sign * INCH_TO_FT)
            self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)
        for value in self._orientation(comp, where):
            self._b.push_constant(value)
        self._b.dynamic(P.OP_ACCELEROMETER, 0, where)
        self._sensor(comp, where, given=True)

    def _gyro(self, comp, where):
        """FGGyro: the inertial body rates along its axis; then FGSensor's degradations."""
        row = self._orientation(comp, where)
        for name, value in zip(("velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec"), row,
                               strict=True):
            self._b.push_property(name, where)
            self._b.push_constant(value)
            self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)
        self._b.emit(P.OP_SUM, 3, pops=3, pushes=1)
        self._sensor(comp, where, given=True)

    def _magnetometer(self, comp, where):
        """FGMagnetometer: the Earth's field (:func:`~flightsim.physics.jsbsim.sensors.magnetometer`) in the body
        frame along its axis; then FGSensor's degradations.  Its state: the run counter and the field, which the
        aircraft's loading computed at FGPropagate's position then (0°, 0°, 4 ft) on the day it loads."""
        self._located(comp, where, "magnetometer")
        for name in ("position/lat-geod-rad", "position/long-gc-rad", "position/h-sl-ft", "attitude/phi-rad",
                     "attitude/theta-rad", "attitude/psi-rad"):
            self._b.push_property(name, where)
        for value in self._orientation(comp, where):
            self._b.push_constant(value)
        date = sensors.load_date()
        self._b.push_constant(date)
        self._b.push_property(SETTLE, where)
        name = self._unique(comp, "field")
        state = self._b.state(name, P.STATE[P.OP_MAGNETOMETER])
        field = sensors.magnetic_field(0.0, 0.0, sensors.LOAD_HEIGHT_FT * 0.3048 * 0.001, date)
        for k, value in enumerate((sensors.MAGNETOMETER_START, *field)):
            self.defaults[f"{name}/flightsim-state-{k}"] = value
        self._b.dynamic(P.OP_MAGNETOMETER, state, where)
        self._sensor(comp, where, given=True)

    def _delay(self, comp, where):
        """FGFCSComponent::Delay, where the component has a ``<delay>``: seconds (frames at the step flown, for a
        step down to :data:`DELAY_MIN_DT`) or ``type="frames"``."""
        el = comp.find("delay")
        if el is None:
            return
        here = f"{where}/delay"
        length = self.source.number(el, here)
        kind = el.get("type") or "time"
        if kind not in ("time", "frames") or length < 0.0:
            raise InputError(self.source.path, here, f"a delay of {length} {kind!r}: needs time or frames, ≥ 0")
        if kind == "frames":
            room = int(length)
            self._b.push_constant(room)
        else:
            room = int(length / DELAY_MIN_DT) + 1
            self._b.push_constant(length)
            self._b.push_property(DT, here)
            self._b.emit(P.OP_QUOTIENT, 2, pops=2, pushes=1)
            self._b.push_constant(room)
            self._b.emit(P.OP_MIN, 2, pops=2, pushes=1)
        self._b.push_property(SETTLE, here)
        self._b.dynamic(P.OP_DELAY, self._b.state(self._unique(comp, "delay"), room + 1), where)

    def _deadband(self, comp, where):
        self._inputs(comp, where, 1)
        self._optional(comp, "width", where, 0.0)
        self._b.push_constant(self._number(comp, "gain", where, 1.0))
        self._b.dynamic(P.OP_DEADBAND, 0, where)

    def _waypoint(self, comp, where):
        """FGWaypoint: the heading (rad, or ``unit="DEG"``) or the distance (ft, or ``unit="M"``) from the source
        to the target latitude and longitude, along the geodesic of JSBSim's WGS84 planet."""
        distance = comp.tag == "waypoint_distance"
        self._b.push_constant(float(distance))
        for tag in ("source_latitude", "source_longitude", "target_latitude", "target_longitude"):
            self._angle_input(comp, tag, where)
        units = {"FT": 1.0, "M": 0.3048} if distance else {"RAD": 1.0, "DEG": 57.295779513082320876798154814105}
        unit = comp.get("unit") or next(iter(units))
        if unit not in units:
            raise InputError(self.source.path, where, f"unknown unit {unit!r} ({' or '.join(units)})")
        for value in (units[unit], PLANET_A, 1.0 - PLANET_B / PLANET_A):
            self._b.push_constant(value)
        self._b.dynamic(P.OP_WAYPOINT, 0, where)

    def _angle_input(self, comp, tag, where):
        """Push the property ``<tag>`` names, in radians (``unit="DEG"``: times FGAngles' degree)."""
        el = comp.find(tag)
        if el is None:
            raise InputError(self.source.path, f"{where}/{tag}", "required element is missing")
        self._b.push_property(el.text, f"{where}/{tag}")
        if el.get("unit") == "DEG":
            self._b.push_constant(ANGLE_DEG)
            self._b.emit(P.OP_PRODUCT, 2, pops=2, pushes=1)

    def _angle(self, comp, where):
        """FGAngles: the signed angle from the source to the target angle (rad, or ``unit="DEG"``), output in
        radians or ``unit="DEG"``."""
        for tag in ("source_angle", "target_angle"):
            self._angle_input(comp, tag, where)
        unit = comp.get("unit") or "RAD"
        if unit not in ("DEG", "RAD"):
            raise InputError(self.source.path, where, f"unknown unit {unit!r} (DEG or RAD)")
        self._b.push_constant(180.0 / math.pi if unit == "DEG" else 1.0)
        self._b.dynamic(P.OP_ANGLE, 0, where)

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
        for k, name in enumerate(names):      # (an external force's: checked against the file's forces by the model)
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

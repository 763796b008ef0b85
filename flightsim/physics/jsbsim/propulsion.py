"""The ``<propulsion>`` block of a JSBSim aircraft: turbine engines with direct thrusters (running).

As JSBSim's ``FGTurbine`` in its running phase (``FGTurbine::Run``) and
``FGThruster``/``FGForce`` for a ``direct`` thruster: each frame the engine's
spools seek their commanded speeds, ``N = idle + throttle (max − idle)``, at
the rates of its ``N1SpoolUp``/``Down``, ``N2SpoolUp``/``Down`` functions (by
default ``FGSpoolUp``: ``k · 90 / (bypass + 3)`` slowed at low N2 and in thin
air); the thrust is ``idle + (mil − idle) N2norm²`` from the engine file's
``IdleThrust`` and ``MilThrust`` tables (Mach, density altitude), less the
bleed; it acts along the thruster's orientation (pitch, yaw) at its location,
giving a force and a moment about the CG in the body frame.

The engine's functions run in the same stack machine as the aerodynamics
(:mod:`flightsim.physics.jsbsim.program`), their values at
``propulsion/engine[k]/NAME`` as in JSBSim; the spools' state lives in the
property array too (``propulsion/engine[k]/n1``, ``…/n2``), so a frame is one
call of :func:`turbines`.  What is not modelled is refused by name: other
engines and thrusters, augmentation (afterburners), water injection; the
start, stall and windmilling phases are not modelled (engines run), nor is
fuel burn.

JSBSim's body frame (x forward, y right, z down); lbf, lbf·ft, ft.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.program import ProgramBuilder, Properties
from flightsim.physics.jsbsim.xmlfile import package_root

__all__ = ["Propulsion", "turbines"]

#: Columns of an engine's row in :attr:`Propulsion.engines`.
(E_MIL, E_IDLE_N1, E_IDLE_N2, E_MAX_N1, E_MAX_N2, E_BLEED, E_N1_UP, E_N1_DOWN, E_N2_UP, E_N2_DOWN, E_X, E_Y, E_Z,
 E_PITCH, E_YAW) = range(15)
#: Columns of an engine's row in :attr:`Propulsion.slots`: its throttle, its tables' and spool functions'
#: values (−1: the default FGSpoolUp), its spools, its N2norm, its thrust.
(S_THROTTLE, S_IDLE, S_MIL, S_N1_UP, S_N1_DOWN, S_N2_UP, S_N2_DOWN, S_N1, S_N2, S_N2NORM, S_THRUST) = range(11)

_SPOOL_FUNCTIONS = ("N1SpoolUp", "N1SpoolDown", "N2SpoolUp", "N2SpoolDown")
_KNOWN = {"milthrust", "maxthrust", "bypassratio", "tsfc", "atsfc", "bleed", "idlen1", "idlen2", "maxn1", "maxn2",
          "augmented", "augmethod", "injected", "function", "ignitionn1", "ignitionn2", "n1spinup", "n2spinup",
          "n1startrate", "n2startrate", "n1spindown", "n2spindown", "disable-windmill", "documentation",
          "description"}


class Propulsion:
    """An aircraft's engines and thrusters read and compiled.

    Attributes
    ----------
    program : Program
        The engines' functions (``propulsion/engine[k]/IdleThrust``, ...).
    engines : numpy.ndarray
        ``(m, 15)`` each engine's constants (the ``E_*`` columns; location in the body frame about the CG
        filled by :meth:`locate`).
    slots : numpy.ndarray
        ``(m, 11)`` int64 property slots (the ``S_*`` columns).
    locations : list of tuple
        Each thruster's location, structural frame, in.
    """

    def __init__(self, source, properties=None):
        self.source = source
        self.properties = Properties() if properties is None else properties
        builder = ProgramBuilder(source, self.properties)
        block = source.section("propulsion", required=False)
        rows, slots, self.locations = [], [], []
        for k, engine in enumerate([] if block is None else block.findall("engine")):
            where = f"propulsion/engine[{k}]"
            root = self._file(engine, "engine", where)
            if root.tag != "turbine_engine":
                raise InputError(source.path, where, f"<{root.tag}> engines are not supported yet (turbines only)")
            thruster = engine.find("thruster")
            if thruster is None or self._file(thruster, "thruster", f"{where}/thruster").tag != "direct":
                raise InputError(source.path, f"{where}/thruster", "only direct thrusters are supported yet")
            rows.append(self._turbine(root, k, where, builder, slots))
            self.locations.append(source.location(thruster.find("location"), f"{where}/thruster/location"))
            orient = thruster.find("orient")
            for j, axis in ((E_PITCH, "pitch"), (E_YAW, "yaw")):
                el = None if orient is None else orient.find(axis)
                if el is not None:
                    scale = math.pi / 180.0 if (orient.get("unit") or "DEG").upper() == "DEG" else 1.0
                    rows[-1][j] = source.number(el, f"{where}/thruster/orient/{axis}") * scale
            if orient is not None and orient.find("roll") is not None and \
                    source.number(orient.find("roll"), f"{where}/thruster/orient/roll") != 0.0:
                raise InputError(source.path, f"{where}/thruster/orient/roll", "a rolled thruster is not supported")
        self.program = builder.build()
        self.engines = np.array(rows, dtype=np.float64).reshape(-1, 15)
        self.slots = np.array(slots, dtype=np.int64).reshape(-1, 11)

    def _file(self, el, kind, where):
        """The element an ``<engine file=…>``/``<thruster file=…>`` names, from the package's ``engine/`` folder."""
        name = el.get("file")
        if not name:
            raise InputError(self.source.path, where, "needs a file= attribute")
        here = self.source.path.parent
        return self.source.included(name, (here / "Engines", here / "engine", package_root() / "engine"),
                                    f"{where} file={name!r}", f"no such {kind} file")

    def _turbine(self, root, k, where, builder, slots):
        def value(tag, default):
            el = root.find(tag)
            return default if el is None else self.source.number(el, f"{where}/{tag}", "LBS" if "thrust" in tag
                                                                   else None)

        for child in root:
            if child.tag not in _KNOWN:
                raise InputError(self.source.path, f"{where}/{child.tag}", "not supported in a turbine")
        if value("augmented", 0.0) or value("injected", 0.0):
            raise InputError(self.source.path, where, "augmentation and water injection are not supported yet")
        prefix = f"propulsion/engine[{k}]"
        names = {}
        for function in root.findall("function"):
            name = function.get("name", "")
            if name not in ("IdleThrust", "MilThrust") + _SPOOL_FUNCTIONS:
                raise InputError(self.source.path, f"{where}/function name={name!r}", "not supported in a turbine")
            builder.function(function, f"{where}/function name={name!r}")
            builder.store(f"{prefix}/{name}")
            names[name] = self.properties.slot(f"{prefix}/{name}")
        for required in ("IdleThrust", "MilThrust"):
            if required not in names:
                raise InputError(self.source.path, where, f"the {required} function is missing")
        bypass = value("bypassratio", 0.0)
        delay = 90.0 / (bypass + 3.0)
        row = [0.0] * 15
        row[E_MIL], row[E_BLEED] = value("milthrust", 10000.0), value("bleed", 0.0)
        row[E_IDLE_N1], row[E_IDLE_N2] = value("idlen1", 30.0), value("idlen2", 60.0)
        row[E_MAX_N1], row[E_MAX_N2] = value("maxn1", 100.0), value("maxn2", 100.0)
        row[E_N1_UP], row[E_N1_DOWN], row[E_N2_UP], row[E_N2_DOWN] = (1.0 * delay, 2.4 * delay, 1.0 * delay,
                                                                      3.0 * delay)
        own = [self.properties.slot(f"fcs/throttle-pos-norm[{k}]"), names["IdleThrust"], names["MilThrust"]]
        own += [names.get(n, -1) for n in _SPOOL_FUNCTIONS]
        own += [self.properties.slot(f"{prefix}/{n}") for n in ("n1", "n2", "n2norm", "thrust-lbs")]
        slots.append(own)
        return row

    def locate(self, structural_to_body):
        """Fill each engine's location about the CG (body frame, ft) from ``structural_to_body(r_in)``."""
        for k, r in enumerate(self.locations):
            self.engines[k, E_X:E_Z + 1] = structural_to_body(r)

    def run(self, props, dt, density_ratio, out=None):
        """One frame: the engines' functions, their spools and thrust (written into ``props``); returns the
        thrusters' body loads ``[X, Y, Z, L, M, N]`` about the CG."""
        out = np.zeros(6) if out is None else out
        self.program.run(props)
        turbines(props, self.engines, self.slots, dt, density_ratio, out)
        return out


@borrowing_jit
def _seek(v, target, accel, decel, dt):
    """FGTurbine::Seek: ``v`` moved toward ``target`` by ``dt`` × the rate, not past it."""
    if v > target:
        v -= dt * decel
        if v < target:
            v = target
    elif v < target:
        v += dt * accel
        if v > target:
            v = target
    return v


@borrowing_jit
def _spool_rate(props, slot, delay, n2norm, density_ratio):
    """A spool function's value, or FGSpoolUp's default: ``delay / (1 + 3 (1 − n)³ + (1 − σ))``."""
    if slot >= 0:
        return props[slot]
    n = min(1.0, n2norm + 0.1)
    return delay / (1 + 3 * (1 - n) * (1 - n) * (1 - n) + (1 - density_ratio))


@borrowing_jit
def turbines(props, engines, slots, dt, density_ratio, out):
    """One frame of every running turbine (FGTurbine::Run) and the direct thrusters' loads into ``out``."""
    for k in range(6):
        out[k] = 0.0
    for e in range(engines.shape[0]):
        row, s = engines[e], slots[e]
        throttle = props[s[S_THROTTLE]]
        mil = row[E_MIL]
        idle_thrust = mil * props[s[S_IDLE]]
        mil_thrust = (mil - idle_thrust) * props[s[S_MIL]]
        n1_factor = row[E_MAX_N1] - row[E_IDLE_N1]
        n2_factor = row[E_MAX_N2] - row[E_IDLE_N2]
        n2norm = props[s[S_N2NORM]]
        up2 = _spool_rate(props, s[S_N2_UP], row[E_N2_UP], n2norm, density_ratio)
        down2 = _spool_rate(props, s[S_N2_DOWN], row[E_N2_DOWN], n2norm, density_ratio)
        n2 = _seek(props[s[S_N2]], row[E_IDLE_N2] + throttle * n2_factor, up2, down2, dt)
        up1 = _spool_rate(props, s[S_N1_UP], row[E_N1_UP], n2norm, density_ratio)
        down1 = _spool_rate(props, s[S_N1_DOWN], row[E_N1_DOWN], n2norm, density_ratio)
        n1 = _seek(props[s[S_N1]], row[E_IDLE_N1] + throttle * n1_factor, up1, down1, dt)
        n2norm = (n2 - row[E_IDLE_N2]) / n2_factor
        thrust = idle_thrust + (mil_thrust * n2norm * n2norm)
        thrust = thrust * (1.0 - row[E_BLEED])
        props[s[S_N1]], props[s[S_N2]], props[s[S_N2NORM]], props[s[S_THRUST]] = n1, n2, n2norm, thrust
        cp, sp, cy, sy = math.cos(row[E_PITCH]), math.sin(row[E_PITCH]), math.cos(row[E_YAW]), math.sin(row[E_YAW])
        fx, fy, fz = cp * cy * thrust, cp * sy * thrust, -sp * thrust
        x, y, z = row[E_X], row[E_Y], row[E_Z]
        out[0] += fx
        out[1] += fy
        out[2] += fz
        out[3] += y * fz - z * fy
        out[4] += z * fx - x * fz
        out[5] += x * fy - y * fx

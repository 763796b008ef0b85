"""The ``<aerodynamics>`` block of a JSBSim aircraft: its functions per axis, summed into body loads.

As JSBSim's ``FGAerodynamics`` (``Load``, ``DetermineAxisSystem``, ``Run``):

1. the block's own ``<function>`` elements (outside any axis) and every
   axis's functions are computed (one :class:`~flightsim.physics.jsbsim.program.Program`);
2. each axis sums its functions in file order;
3. forces given as ``DRAG``/``SIDE``/``LIFT`` (wind axes) have drag and lift
   negated and are turned to the body frame by ``Tw2b(α, β)``; ``X``/``Y``/``Z``
   are body axes already; ``AXIAL``/``SIDE``/``NORMAL`` have axial and normal negated;
4. the moments (``ROLL``/``PITCH``/``YAW``, body axes, about the aerodynamic
   reference point) are moved to the CG: ``M = M_rp + r × F`` with ``r`` the
   reference point relative to the CG in the body frame.

Body frame here is JSBSim's (x forward, y right, z down); forces lbf, moments lbf·ft.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.mass import Metrics
from flightsim.physics.jsbsim.program import OP_SUM, ProgramBuilder, Properties, canonical

__all__ = ["AXES", "Aerodynamics", "CL_SQUARED", "FORCE_AXES", "LIFT", "STALL_LATCH", "axes_to_body", "body_loads",
           "frame_start"]

#: The lift coefficient squared, from the last frame's lift.
CL_SQUARED = "aero/cl-squared"
#: The stall hysteresis latch (0 or 1).
STALL_LATCH = "aero/stall-hyst-norm"
#: Where the block keeps its last lift (wind axes, up positive, lbf) for :data:`CL_SQUARED`.
LIFT = "forces/fwz-aero-lbs"
#: The wing's angle of attack (α plus the wing's incidence), rad, computed before the functions.
ALPHA_WING = "aero/alpha-wing-rad"
#: Where the ``<aero_ref_pt_shift_x>`` function's value (a fraction of the chord, aft +) is kept.
RP_SHIFT = "aero/flightsim-rp-shift-norm"
#: The wing area property.
AREA = "metrics/Sw-sqft"

#: Axis name → (row of the load vector 0..5, the force system it belongs to or None for a moment).
AXES = {"DRAG": (0, "wind"), "SIDE": (1, None), "LIFT": (2, "wind"), "X": (0, "body"), "Y": (1, "body"),
        "Z": (2, "body"), "AXIAL": (0, "axial"), "NORMAL": (2, "axial"), "ROLL": (3, None), "PITCH": (4, None),
        "YAW": (5, None)}
#: The force systems, as numbered for :func:`body_loads`.
FORCE_AXES = {"wind": 0, "body": 1, "axial": 2}


class Aerodynamics:
    """An aircraft's ``<aerodynamics>`` compiled.

    Parameters
    ----------
    source : flightsim.physics.jsbsim.xmlfile.JSBSimFile
    properties : Properties
        Where the block's properties get their slots (shared with the FCS, the engines, ...).
    extra : callable, optional
        ``extra(builder)`` adds functions of its own after the block's (the gear's strut force functions:
        :mod:`flightsim.physics.jsbsim.model`), evaluated with them at every load evaluation.

    Attributes
    ----------
    program : Program
        Computes every function of the block (in an order where each follows those it reads).
    axis_slots : numpy.ndarray
        ``(6, n)`` int64: the property slots each load row sums (−1 pads).
    force_axes : int
        :data:`FORCE_AXES` of the block.
    functions : list of str
        The functions' property names, in the order they are computed.
    defaults : dict
        ``<property value="…">`` declarations: name → initial value.
    """

    def __init__(self, source, properties=None, extra=None):
        self.source = source
        self.properties = Properties() if properties is None else properties
        block = source.section("aerodynamics")
        self.defaults = {}
        #: ``<alphalimits>`` (``FGAerodynamics::GetAlphaCLMin``/``Max``: the range FGTrim searches α in), rad; None:
        #: the file has none
        self.alpha_limits = None
        limits = block.find("alphalimits")
        if limits is not None:
            scale = math.pi / 180.0 if (limits.get("unit") or "").strip().upper() == "DEG" else 1.0
            self.alpha_limits = tuple(scale * source.number(limits.find(tag), f"aerodynamics/alphalimits/{tag}")
                                      for tag in ("min", "max"))
        functions = []                          # (property name, element, where)
        shift = block.find("aero_ref_pt_shift_x")
        if shift is not None:                   # FGAerodynamics' AeroRPShift: a function of its own
            if shift.find("function") is None:
                raise InputError(source.path, "aerodynamics/aero_ref_pt_shift_x", "needs a <function>")
            functions.append((RP_SHIFT, shift.find("function"), "aerodynamics/aero_ref_pt_shift_x"))
        own = []
        for child in block:
            if child.tag == "function":
                if (child.get("type") or "pre") != "pre":
                    raise InputError(source.path, f"aerodynamics/{source.where(child)}",
                                     f"function type {child.get('type')!r} is not supported")
                functions.append(self._named(child, "aerodynamics"))
                own.append(functions[-1][0])
            elif child.tag == "property":
                self.defaults[(child.text or "").strip()] = source.parse_number(
                    child.get("value", "0"), f"aerodynamics/property {(child.text or '').strip()!r} value")
        rows = [[] for _ in range(6)]
        systems = set()
        for axis in block.findall("axis"):
            name = axis.get("name", "")
            if name not in AXES:
                raise InputError(source.path, f"aerodynamics/axis name={name!r}",
                                 f"unknown axis; JSBSim's are {', '.join(AXES)}")
            frame = (axis.get("frame") or "BODY").upper()      # (JSBSim reads it on X, Y, Z and the moments only)
            row, system = AXES[name]
            if frame != "BODY" and name in ("X", "Y", "Z", "ROLL", "PITCH", "YAW"):
                raise InputError(source.path, f"aerodynamics/axis name={name!r}",
                                 f"frame {frame!r} is not supported (body axes only)")
            if system:
                systems.add(system)
            for f in axis.findall("function"):
                if f.get("apply_at_cg") == "true":
                    raise InputError(source.path, f"aerodynamics/axis name={name!r}/{source.where(f)}",
                                     "apply_at_cg is not supported")
                entry = self._named(f, f"aerodynamics/axis name={name!r}")
                functions.append(entry)
                rows[row].append(entry[0])
        if len(systems) > 1:
            raise InputError(source.path, "aerodynamics/axis",
                             f"mixed force axis systems: {', '.join(sorted(systems))}")
        self.force_axes = FORCE_AXES[systems.pop() if systems else "wind"]
        #: the functions' names as JSBSim's ``<coefficients>`` output lists them
        #: (``FGAerodynamics::GetAeroFunctionStrings``): each axis's in axis order, then the block's own
        self.output_names = tuple(name for row in rows for name in row) + tuple(own)
        self.limits = np.zeros(2)           # the stall hysteresis's min and max (rad) for frame_start
        hysteresis = block.find("hysteresis_limits")
        if hysteresis is not None:
            unit = (hysteresis.get("unit") or "RAD").upper()
            scale = {"RAD": 1.0, "DEG": math.pi / 180.0}.get(unit)
            if scale is None:
                raise InputError(source.path, "aerodynamics/hysteresis_limits", f"unit {unit!r} is not an angle")
            for k, tag in enumerate(("min", "max")):
                self.limits[k] = source.number(hysteresis.find(tag), f"aerodynamics/hysteresis_limits/{tag}") * scale
        self.functions = self._ordered(functions)
        builder = ProgramBuilder(source, self.properties)
        metrics = Metrics.read(source)
        self.chord = metrics.chord
        if ALPHA_WING in self._all_reads(functions):    # FGAerodynamics::Run, before its functions: α + incidence
            builder.push_property("aero/alpha-rad", "aerodynamics")
            builder.push_constant(metrics.wing_incidence)
            builder.emit(OP_SUM, 2, pops=2, pushes=1)
            builder.store(ALPHA_WING)
        for name, el, where in self.functions:
            builder.function(el, where)
            builder.store(name)
        if extra is not None:                   # (functions evaluated with the aerodynamics': the gear's struts)
            extra(builder)
        self.program = builder.build()
        self._reads = builder.reads
        p = self.properties
        #: the slot of the reference point's shift (a fraction of the chord, aft +; −1: none)
        self.rp_shift_slot = p[RP_SHIFT] if RP_SHIFT in p else -1
        #: cl², the stall latch (−1 where nothing reads them), the last lift, q̄, α, the wing area: for
        #: :func:`frame_start` (the metrics fill the area's slot, the auxiliary properties q̄'s and α's)
        self.state_slots = np.array([p[CL_SQUARED] if CL_SQUARED in p else -1,
                                     p[STALL_LATCH] if STALL_LATCH in p else -1, p.slot(LIFT), p.slot("aero/qbar-psf"),
                                     p.slot("aero/alpha-rad"), p.slot(AREA)], dtype=np.int64)
        width = max((len(r) for r in rows), default=0)
        self.axis_slots = np.full((6, max(width, 1)), -1, dtype=np.int64)
        for k, row in enumerate(rows):
            for j, name in enumerate(row):
                self.axis_slots[k, j] = self.properties[name]

    def _named(self, el, where):
        name = canonical((el.get("name") or "").strip())
        if not name:
            raise InputError(self.source.path, f"{where}/function", "a function needs a name")
        return name, el, f"{where}/{self.source.where(el)}"

    def _ordered(self, functions):
        """The functions in an order where each comes after the functions it reads (a cycle is refused).

        A function provides its own property and those of the named tables inside it.
        """
        provider = {}
        for entry in functions:
            name, el, where = entry
            for provided in [name] + [canonical(t.get("name").strip()) for t in el.iter("table") if t.get("name")]:
                if provided in provider:
                    raise InputError(self.source.path, where, f"{provided!r} is defined twice")
                provider[provided] = entry
        reads = {name: {canonical((p.text or "").strip().lstrip("-")) for p in el.iter()
                        if p.tag in ("property", "p", "independentVar")}
                 for name, el, _ in functions}
        done, order, visiting = set(), [], set()

        def visit(entry):
            name = entry[0]
            if name in done:
                return
            if name in visiting:
                raise InputError(self.source.path, entry[2], "the functions read each other in a cycle")
            visiting.add(name)
            for dep in sorted(reads[name] & provider.keys()):
                if provider[dep][0] != name:
                    visit(provider[dep])
            visiting.discard(name)
            done.add(name)
            order.append(entry)

        for entry in functions:
            visit(entry)
        return order

    @staticmethod
    def _all_reads(functions):
        return {canonical((p.text or "").strip().lstrip("-")) for _, el, _ in functions for p in el.iter()
                if p.tag in ("property", "p", "independentVar")}

    @property
    def inputs(self):
        """The properties the block reads and does not compute (sorted)."""
        computed = {name for name, _, _ in self.functions} | {CL_SQUARED, ALPHA_WING} | (
            {STALL_LATCH} if self.limits[1] != 0.0 else set()) | {
            canonical(t.get("name").strip()) for _, el, _ in self.functions for t in el.iter("table") if t.get("name")}
        return sorted(n for n in self._reads if n not in computed)

    def loads(self, props, alpha, beta, rp_body, out=None):
        """One frame of the block on ``props`` (written in place): :func:`frame_start`, the functions, and the
        body loads ``[X, Y, Z, L, M, N]`` about the CG returned (JSBSim's body frame; lbf, lbf·ft; see
        :func:`body_loads`)."""
        out = np.zeros(6) if out is None else out
        frame_start(props, self.state_slots, self.limits)
        self.program.run(props)
        rp = np.array(rp_body, dtype=np.float64)
        if self.rp_shift_slot >= 0:             # (the shift is aft, in the structural frame: forward in the body's)
            rp[0] -= props[self.rp_shift_slot] * self.chord
        body_loads(props, self.axis_slots, self.force_axes, alpha, beta, rp, self.state_slots[2], out)
        return out



@borrowing_jit
def frame_start(props, state_slots, limits):
    """What ``FGAerodynamics::Run`` updates before its functions, once a frame: ``aero/cl-squared`` from the
    last frame's lift (when q̄ > 1 psf; else it keeps its value) and the stall latch ``aero/stall-hyst-norm``
    (1 above the hysteresis maximum, 0 below its minimum, unchanged between).  ``state_slots`` as
    :attr:`Aerodynamics.state_slots`, ``limits`` the hysteresis minimum and maximum (rad; both 0: none)."""
    clsq, latch, lift, qbar, alpha, area = (state_slots[0], state_slots[1], state_slots[2], state_slots[3],
                                            state_slots[4], state_slots[5])
    q = props[qbar]
    if clsq >= 0 and q > 1.0:
        c = props[lift] / (props[area] * q)
        props[clsq] = c * c
    if latch >= 0 and limits[0] != 0.0 and limits[1] != 0.0:
        if props[alpha] > limits[1]:
            props[latch] = 1.0
        elif props[alpha] < limits[0]:
            props[latch] = 0.0


@borrowing_jit
def body_loads(props, axis_slots, force_axes, alpha, beta, rp, lift_slot, out):
    """The block's functions (already computed into ``props``) summed per axis into body loads about the CG.

    ``force_axes`` is :data:`FORCE_AXES`' number; ``rp`` the aerodynamic reference point relative to the CG,
    body frame, ft; ``out`` receives ``[X, Y, Z, L, M, N]`` (lbf, lbf·ft), and ``props[lift_slot]`` the lift
    (wind axes, up positive, lbf) for the next frame's cl² (:func:`axes_to_body`).
    """
    loads = axes_to_body(props, axis_slots, force_axes, alpha, beta, rp[0], rp[1], rp[2], lift_slot)
    for k in range(6):
        out[k] = loads[k]


@borrowing_jit
def axes_to_body(props, axis_slots, force_axes, alpha, beta, rpx, rpy, rpz, lift_slot):
    """:func:`body_loads` as a tuple ``(X, Y, Z, L, M, N)`` (what the compiled loads call at every stage):
    each axis's functions summed in file order; forces turned to the body frame (wind axes by ``Tw2b(α, β)``,
    drag and lift negated; axial and normal negated); the moments moved from the reference point
    ``(rpx, rpy, rpz)`` (body frame about the CG, ft) to the CG; the lift written to ``props[lift_slot]``.
    ``FGAerodynamics::Run``.
    """
    native0 = native1 = native2 = native3 = native4 = native5 = 0.0
    for j in range(axis_slots.shape[1]):
        if axis_slots[0, j] >= 0:
            native0 += props[axis_slots[0, j]]
        if axis_slots[1, j] >= 0:
            native1 += props[axis_slots[1, j]]
        if axis_slots[2, j] >= 0:
            native2 += props[axis_slots[2, j]]
        if axis_slots[3, j] >= 0:
            native3 += props[axis_slots[3, j]]
        if axis_slots[4, j] >= 0:
            native4 += props[axis_slots[4, j]]
        if axis_slots[5, j] >= 0:
            native5 += props[axis_slots[5, j]]
    if force_axes == 0:                           # wind: D, S, L → body with Tw2b(α, β), drag and lift negated
        f0, f1, f2 = -native0, native1, -native2
        ca, sa, cb, sb = math.cos(alpha), math.sin(alpha), math.cos(beta), math.sin(beta)
        x = ca * cb * f0 - ca * sb * f1 - sa * f2
        y = sb * f0 + cb * f1
        z = sa * cb * f0 - sa * sb * f1 + ca * f2
    elif force_axes == 2:                         # axial, side, normal: axial and normal negated
        x, y, z = -native0, native1, -native2
    else:
        x, y, z = native0, native1, native2
    props[lift_slot] = math.sin(alpha) * x - math.cos(alpha) * z     # −(Tb2w · F)_z, for the next cl²
    return (x, y, z, native3 + (rpy * z - rpz * y), native4 + (rpz * x - rpx * z), native5 + (rpx * y - rpy * x))

"""An aircraft's ``<external_reactions>``: forces and moments set by properties or functions (JSBSim's
``FGExternalReactions``, ``FGExternalForce``, ``FGForce``).

Each ``<force name="N" frame="F">`` pushes along its direction with a magnitude (lbf) at its ``<location>``
(structural frame, in); each ``<moment name="N" frame="F">`` turns about its direction with a magnitude
(lbf·ft).  As in JSBSim:

- the direction's components are the properties ``external_reactions/N/x``, ``/y``, ``/z`` (a moment's ``/l``,
  ``/m``, ``/n``), which start at the file's ``<direction>`` normalised and which the flight controls may write
  (a thrust vector steered by its ``fcs_function``s); they are used as written, not normalised again;
- the magnitude is the property ``external_reactions/N/magnitude`` (a moment's ``magnitude-lbsft``), or the
  element's ``<function>`` (evaluated with the engines' program, after the flight controls and the auxiliary
  values of the frame);
- the frame turns the vector into the body axes: ``BODY`` (none), ``LOCAL`` (North-East-down, by the attitude's
  Euler angles: ``FGPropagate::GetTl2b``), ``WIND`` (by α and β: ``FGAuxiliary::GetTw2b``) or ``INERTIAL``
  (Earth-centred inertial axes, JSBSim's ECI: ``FGPropagate::GetTi2b``; on the round planet, whose view's local
  North, West and up axes in ECI :func:`flightsim.physics.planet.to_view` keeps, ``Tl2b · Tec2l · Ti2ec``);
- a force adds ``F`` and the moment ``r × F`` about the CG (``r`` its location relative to the CG, body axes);
  a moment adds its vector (``FGForce::GetBodyForces``).

flightsim computes them once per step, after the flight controls and the engines, and holds them through the
step with the thrust.  Refused, naming the element: other frames, other elements than forces, moments and property
declarations; an ``INERTIAL`` one on the flat planet (no inertial axes: :meth:`ExternalForces.check_planet`).
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.program import canonical
from flightsim.physics.planet import P_AXES

__all__ = ["EXTERNAL_FIELDS", "ExternalForces", "external_loads"]

#: Columns of a row: force (0) or moment (1), its frame (:data:`FRAMES`' index), the magnitude's slot, the
#: direction's three slots, the location about the CG (JSBSim body axes, ft; a moment's unused).
(X_KIND, X_FRAME, X_SLOT, X_DIRECTION, _DY, _DZ, X_ARM, _RY, _RZ) = range(9)
EXTERNAL_FIELDS = 9
#: The frames a vector may be given in, by their code in a row.
FRAMES = ("BODY", "LOCAL", "WIND", "INERTIAL")
#: The first entry of the packed round planet's local North, West and up axes in ECI (rows: ``P_AXES``).
_AXES = P_AXES


class ExternalForces:
    """The ``<external_reactions>`` block of ``source`` (none: no rows).

    Parameters
    ----------
    source : flightsim.physics.jsbsim.xmlfile.JSBSimFile
    properties : flightsim.physics.jsbsim.program.Properties
        Where the magnitudes' and directions' slots are made.
    structural_to_body : callable
        A structural point (in) → the body frame about the CG (ft).

    Attributes
    ----------
    rows : numpy.ndarray
        ``(n, EXTERNAL_FIELDS)`` float.
    magnitudes : tuple of str
        Each force's or moment's magnitude property.
    writable : frozenset of str
        The properties the flight controls may write: the magnitudes and the directions' components.
    bound : frozenset of str
        Every property ``FGExternalForce`` binds: a force's ``magnitude``, ``x``, ``y``, ``z`` and
        ``location-x-in`` … ``location-z-in``, a moment's ``magnitude-lbsft``, ``l``, ``m``, ``n``.  The flight
        controls may write only the :attr:`writable` ones (flightsim does not move a force's location); a name
        JSBSim does not bind, as the hydrodynamics system's ``external_reactions/hydro-pitch[0]/magnitude`` (the
        old force-pair moments) on a Short S.23 that defines ``hydro-pitch`` as a moment, is a property of its own
        that nothing reads, as in JSBSim.
    defaults : dict
        Initial values: each direction normalised, each declared ``<property>`` (0 or its ``value``).
    functions : list of (Element, str, str)
        The magnitudes given by a ``<function>``: the element, where it is (for messages), the property it fills
        (:meth:`compile_functions`).
    inertial : tuple of (str, str) or None
        The file and the element of the first vector in the ``INERTIAL`` frame (:meth:`check_planet`); None if
        there is none.
    """

    def __init__(self, source, properties, structural_to_body):
        block = source.section("external_reactions", required=False)
        rows, names, writable, bound = [], [], set(), set()
        self.defaults, self.functions = {}, []
        self.inertial = None
        for el in [] if block is None else list(block):
            where = f"external_reactions/{source.where(el)}"
            if el.tag in ("documentation", "description"):
                continue
            if el.tag == "property":
                name = (el.text or "").strip()
                properties.slot(name)
                self.defaults[name] = float(el.get("value", 0.0))
                continue
            if el.tag not in ("force", "moment"):
                raise InputError(source.path, where, "not supported (forces, moments and properties only)")
            frame = el.get("frame") or "BODY"
            if frame not in FRAMES:
                raise InputError(source.path, where, f"frame {frame!r}: not supported (BODY, LOCAL, WIND and "
                                 "INERTIAL)")
            if frame == "INERTIAL" and self.inertial is None:
                self.inertial = (str(source.path), where)
            base = f"external_reactions/{el.get('name', '')}"
            moment = el.tag == "moment"
            name = f"{base}/magnitude-lbsft" if moment else f"{base}/magnitude"
            direction = np.zeros(3)
            if el.find("direction") is not None:
                direction = np.array(source.location(el.find("direction"), f"{where}/direction"))
                norm = math.sqrt(float(direction @ direction))
                if norm == 0.0:
                    raise InputError(source.path, f"{where}/direction", "a direction of length 0")
                direction = direction / norm
            components = [f"{base}/{axis}" for axis in ("lmn" if moment else "xyz")]
            bound.update(canonical(n) for n in [name, *components] + ([] if moment else [
                f"{base}/location-{axis}-in" for axis in "xyz"]))
            for component, value in zip(components, direction, strict=True):
                self.defaults[component] = float(value)
            arm = (0.0, 0.0, 0.0) if moment else structural_to_body(
                source.location(el.find("location"), f"{where}/location"))
            if el.find("function") is not None:
                self.functions.append((el.find("function"), f"{where}/function", name))
            else:
                writable.add(canonical(name))
            writable.update(canonical(c) for c in components)
            rows.append((float(moment), float(FRAMES.index(frame)), properties.slot(name),
                         *(properties.slot(c) for c in components), *arm))
            names.append(name)
        self.rows = np.array(rows, dtype=np.float64).reshape(-1, EXTERNAL_FIELDS)
        self.magnitudes = tuple(names)
        self.writable = frozenset(writable)
        self.bound = frozenset(bound)

    def check_planet(self, planet):
        """Refuse (:class:`~flightsim.errors.InputError`, naming the element) a vector in the ``INERTIAL`` frame
        on the flat ``planet`` (a :class:`~flightsim.physics.planet.Planet`): Bourg's flat Earth has no
        Earth-centred inertial axes."""
        if self.inertial is not None and not planet.round:
            raise InputError(self.inertial[0], self.inertial[1], "frame 'INERTIAL' needs the round planet "
                             "(the flat one has no Earth-centred inertial axes)")

    def compile_functions(self, builder):
        """Add the magnitudes given by ``<function>``s to ``builder`` (a
        :class:`~flightsim.physics.jsbsim.program.ProgramBuilder`: the engines' program), each stored into its
        magnitude's property."""
        for el, where, name in self.functions:
            builder.function(el, where)
            builder.store(name)


@borrowing_jit
def _to_body(frame, x, y, z, phi, theta, psi, alpha, beta, planet):
    """A vector in ``frame`` (:data:`FRAMES`' code) in JSBSim's body axes: ``Tl2b`` from the Euler angles (LOCAL),
    ``Tw2b`` from α and β (WIND); an ECI one (INERTIAL) first turned to North-East-down by the round ``planet``'s
    local axes in ECI (the view's, :func:`flightsim.physics.planet.to_view`), then as LOCAL.  ``planet`` is None
    on the flat planet (where :meth:`ExternalForces.check_planet` refuses INERTIAL before a flight)."""
    if frame == 3:
        if planet is None:
            return x, y, z
        k = _AXES
        n = x * planet[k] + y * planet[k + 1] + z * planet[k + 2]
        e = -(x * planet[k + 3] + y * planet[k + 4] + z * planet[k + 5])
        d = -(x * planet[k + 6] + y * planet[k + 7] + z * planet[k + 8])
        x, y, z, frame = n, e, d, 1
    if frame == 1:
        cf, sf, ct, st, cp, sp = math.cos(phi), math.sin(phi), math.cos(theta), math.sin(theta), math.cos(psi), \
            math.sin(psi)
        return (ct * cp * x + ct * sp * y - st * z,
                (sf * st * cp - cf * sp) * x + (sf * st * sp + cf * cp) * y + sf * ct * z,
                (cf * st * cp + sf * sp) * x + (cf * st * sp - sf * cp) * y + cf * ct * z)
    if frame == 2:
        ca, sa, cb, sb = math.cos(alpha), math.sin(alpha), math.cos(beta), math.sin(beta)
        return (ca * cb * x - ca * sb * y - sa * z, sb * x + cb * y, sa * cb * x - sa * sb * y + ca * z)
    return x, y, z


@borrowing_jit
def external_loads(props, rows, out, phi, theta, psi, alpha, beta, planet):
    """Add the forces and moments of ``rows`` at their magnitudes and directions in ``props`` to ``out`` (force,
    then moment about the CG; JSBSim's body frame, lbf and lbf·ft); ``phi``, ``theta``, ``psi`` (the attitude)
    and ``alpha``, ``beta`` (rad) turn the LOCAL and WIND frames, and the packed round ``planet`` (None: flat)
    the INERTIAL one (the local axes of the view last made: the step's)."""
    for k in range(rows.shape[0]):
        m = props[int(rows[k, X_SLOT])]
        dx = props[int(rows[k, X_DIRECTION])]
        dy = props[int(rows[k, X_DIRECTION + 1])]
        dz = props[int(rows[k, X_DIRECTION + 2])]
        fx, fy, fz = _to_body(int(rows[k, X_FRAME]), m * dx, m * dy, m * dz, phi, theta, psi, alpha, beta,
                               planet)
        if rows[k, X_KIND] != 0.0:                      # a moment
            out[3] += fx
            out[4] += fy
            out[5] += fz
            continue
        rx, ry, rz = rows[k, X_ARM], rows[k, X_ARM + 1], rows[k, X_ARM + 2]
        out[0] += fx
        out[1] += fy
        out[2] += fz
        out[3] += ry * fz - rz * fy
        out[4] += rz * fx - rx * fz
        out[5] += rx * fy - ry * fx

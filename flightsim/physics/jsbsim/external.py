"""An aircraft's ``<external_reactions>``: forces whose magnitude a property sets (JSBSim's ``FGExternalForce``).

Each ``<force name="N" frame="BODY">`` pushes along its ``<direction>``
(normalised; JSBSim's body axes: x forward, y right, z down) with the value
of ``external_reactions/N/magnitude`` (lbf), which the flight controls write
(a pushback tractor, an arresting hook, a launch bar; 0 in flight), at its
``<location>`` (structural frame, in): a force ``F = magnitude · direction``
and a moment ``r × F`` about the CG, with ``r`` the location relative to the
CG in the body frame (``FGForce::GetBodyForces``).  flightsim computes them
once per step, after the flight controls, and holds them through the step
with the thrust.

Refused, naming the element: the other frames (``LOCAL``, ``WIND``,
``INERTIAL``), a magnitude given by a ``<function>``, ``<moment>`` elements.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit

__all__ = ["EXTERNAL_FIELDS", "ExternalForces", "external_loads"]

#: Columns of a force's row: the magnitude's slot, the unit direction (JSBSim body axes), the location about
#: the CG (JSBSim body axes, ft).
(X_SLOT, X_DIRECTION, _DY, _DZ, X_ARM, _RY, _RZ) = range(7)
EXTERNAL_FIELDS = 7


class ExternalForces:
    """The ``<external_reactions>`` block of ``source`` (none: no rows).

    Parameters
    ----------
    source : flightsim.physics.jsbsim.xmlfile.JSBSimFile
    properties : flightsim.physics.jsbsim.program.Properties
        Where the magnitudes' slots are made.
    structural_to_body : callable
        A structural point (in) → the body frame about the CG (ft).

    Attributes
    ----------
    rows : numpy.ndarray
        ``(n, EXTERNAL_FIELDS)`` float.
    magnitudes : tuple of str
        Each force's magnitude property.
    """

    def __init__(self, source, properties, structural_to_body):
        block = source.section("external_reactions", required=False)
        rows, names = [], []
        for el in [] if block is None else list(block):
            where = f"external_reactions/{source.where(el)}"
            if el.tag in ("documentation", "description", "property"):
                continue
            if el.tag != "force":
                raise InputError(source.path, where, "not supported (forces only)")
            frame = el.get("frame") or "BODY"
            if frame != "BODY":
                raise InputError(source.path, where, f"frame {frame!r}: only BODY forces are supported")
            if el.find("function") is not None:
                raise InputError(source.path, f"{where}/function", "a magnitude function is not supported")
            direction = np.array(source.location(el.find("direction"), f"{where}/direction"))
            norm = math.sqrt(float(direction @ direction))
            if norm == 0.0:
                raise InputError(source.path, f"{where}/direction", "a direction of length 0")
            name = f"external_reactions/{el.get('name', '')}/magnitude"
            arm = structural_to_body(source.location(el.find("location"), f"{where}/location"))
            rows.append((properties.slot(name), *(direction / norm), *arm))
            names.append(name)
        self.rows = np.array(rows, dtype=np.float64).reshape(-1, EXTERNAL_FIELDS)
        self.magnitudes = tuple(names)


@borrowing_jit
def external_loads(props, rows, out):
    """Add the forces of ``rows`` at their magnitudes in ``props`` to ``out`` (force, then moment about the CG;
    JSBSim's body frame, lbf and lbf·ft)."""
    for k in range(rows.shape[0]):
        m = props[int(rows[k, X_SLOT])]
        fx, fy, fz = m * rows[k, X_DIRECTION], m * rows[k, X_DIRECTION + 1], m * rows[k, X_DIRECTION + 2]
        rx, ry, rz = rows[k, X_ARM], rows[k, X_ARM + 1], rows[k, X_ARM + 2]
        out[0] += fx
        out[1] += fy
        out[2] += fz
        out[3] += ry * fz - rz * fy
        out[4] += rz * fx - rx * fz
        out[5] += rx * fy - ry * fx

"""Body-frame loads of an airplane made of aerodynamic elements (Bourg ch. 7/15).

:func:`pack` turns an :class:`~flightsim.physics.aircraft.Aircraft` into flat arrays
and scalars, the named tuple :class:`LoadParams` (``params``); :func:`airplane_loads`
is the compiled loads function the integrators call,
``loads(t, y, params) -> (ax, ay, az, mx, my, mz)``, and reads ``params`` by
field name only.

Per element, in the body frame (x forward, y left, z up), as the book does:

1. local velocity relative to the air ``v_air + (ω − ω_g) × r`` (r: element
   position relative to the CG), ``v_air = R^T (v − wind)`` the body-frame
   velocity through the air and ω_g the turbulence's rotation (the ``wind``
   field, :mod:`flightsim.physics.wind`; zero in still air, where this is the
   book's ``v_body + ω × r``);
2. drag direction ``−v_local/|v_local|``;
3. lift direction ``(drag × n) × drag`` normalised, n the element's normal
   ``(sin i, cos i sin d, cos i cos d)`` for incidence i and dihedral d;
4. angle of attack ``asin(drag · n)``;
5. coefficients from the element's table (flap setting blended, see
   :func:`coefficients`), force ``(lift CL + drag CD) ½ ρ |v|² S``, moment
   ``r × force``.

Thrust acts along body +x.  The total force is rotated body → earth with
QVRotate (``q ⊗ F ⊗ q*``) and gravity added; the moment stays in the body
frame.  Units are the aircraft file's (ft, slug, lbf).
"""

import math
from typing import NamedTuple

import numpy as np

from flightsim.math.kernels import jit, qv_rotate

KIND_LIFTING, KIND_SYMMETRIC, KIND_DRAG = 0, 1, 2
KINDS = {"lifting": KIND_LIFTING, "symmetric": KIND_SYMMETRIC, "drag": KIND_DRAG}
#: Pilot inputs in the order of the controls array.
INPUTS = ("throttle", "elevator", "aileron", "rudder", "flaps")
#: Entry of the throttle in the controls array.
C_THROTTLE = INPUTS.index("throttle")
#: Columns of the element array ``elem``.
E_INCIDENCE, E_DIHEDRAL, E_AREA, E_FLAP_GAIN, E_INC_GAIN = range(5)
#: Columns of the integer element array ``elem_i``.
I_TABLE, I_FLAP_INPUT, I_INC_INPUT, I_IS_WING = range(4)
#: Entries of the diagnostics array written by each loads evaluation.
D_STALL, D_RHO, D_THRUST = range(3)
#: Below this local airspeed (ft/s) an element makes no load (the book does not update its drag direction).
MIN_SPEED = 1.0


class LoadParams(NamedTuple):
    """The loads' parameters, read by name (numba compiles a named tuple to a struct).

    Arrays and scalars that :func:`airplane_loads` needs, made by :func:`pack`
    (an airplane) or :func:`free_body`.  The arrays ``controls`` and ``diag``
    are written in place (by the simulation before each step, and by every
    loads evaluation); everything else is fixed once packed.  New inputs of the
    loads (landing-gear contact points, wind, propeller tables…) join as new
    fields; every field is required, so a constructor that misses one fails.
    The element and table arrays have one row per element or table; their
    columns are named by the ``E_*``, ``I_*`` constants of this module.
    """

    #: (n, 3) float: element positions relative to the CG, body frame (ft).
    positions: np.ndarray
    #: (n, 5) float: per element incidence (deg), dihedral (deg), area (ft²), flap gain, incidence gain: ``E_*``.
    elements: np.ndarray
    #: (n, 4) int: per element table number, flap input, incidence input (−1: none), is-wing flag: ``I_*``.
    element_refs: np.ndarray
    #: (nt, w) float: each table's angle-of-attack breakpoints (deg).
    table_alpha: np.ndarray
    #: (nt, 6, w) float: CL, CL flap down, CL flap up, CD, CD flap down, CD flap up at the breakpoints.
    table_values: np.ndarray
    #: (nt,) int: breakpoints in use per table.
    table_size: np.ndarray
    #: (nt,) int: ``KIND_*`` per table.
    table_kind: np.ndarray
    #: (nt, 2) float: CL and CD outside the breakpoints (stalled).
    table_outside: np.ndarray
    #: Air density (slug/ft³); at sea level when ``isa``.
    air_density: float
    #: Gravity (ft/s²), along earth −z.
    gravity: float
    #: Mass (slug).
    mass: float
    #: Thrust at full throttle (lbf), along body +x.
    max_thrust: float
    #: Density from the standard atmosphere at the airplane's altitude instead of the constant.
    isa: bool
    #: (5,) float: pilot inputs in :data:`INPUTS` order; written by the simulation before each step.
    controls: np.ndarray
    #: (3,) float: written by each loads evaluation: ``D_*``.
    diag: np.ndarray
    #: (6,) float: the wind, written by the simulation once per step and held through the integrator's
    #: stages: earth wind velocity (ft/s, x North, y West, z up) and the turbulence's rotation
    #: (p_g, q_g, r_g, body rad/s); see :mod:`flightsim.physics.wind`.  Zero: still air.
    wind: np.ndarray


def pack(aircraft, atmosphere="constant"):
    """Flatten an aircraft into the parameters of :func:`airplane_loads`.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    atmosphere : {"constant", "isa"}
        The book's constant density, or the standard atmosphere's density at
        the airplane's altitude (troposphere, scaled to the file's sea-level
        density).

    Returns
    -------
    LoadParams
        ``controls`` (throttle, elevator, aileron, rudder, flaps) is written
        by the simulation before each step; ``diag`` is written by the loads.
    """
    if atmosphere not in ("constant", "isa"):
        raise ValueError(f"atmosphere: must be 'constant' or 'isa', got {atmosphere!r}")
    names = list(aircraft.tables)
    n = len(aircraft.elements)
    r = np.array([e.position for e in aircraft.elements], dtype=np.float64).reshape(n, 3)
    elem = np.zeros((n, 5))
    elem_i = np.full((n, 4), -1, dtype=np.int64)
    for k, e in enumerate(aircraft.elements):
        elem[k, E_INCIDENCE] = e.incidence_deg
        elem[k, E_DIHEDRAL] = e.dihedral_deg
        elem[k, E_AREA] = e.area
        elem_i[k, I_TABLE] = names.index(e.table)
        elem_i[k, I_IS_WING] = 1 if e.part == "wing" else 0
        if e.flap is not None:
            elem[k, E_FLAP_GAIN] = e.flap.gain
            elem_i[k, I_FLAP_INPUT] = INPUTS.index(e.flap.input)
        if e.incidence_control is not None:
            elem[k, E_INC_GAIN] = e.incidence_control.gain
            elem_i[k, I_INC_INPUT] = INPUTS.index(e.incidence_control.input)
    width = max([len(t.alpha) for t in aircraft.tables.values()] + [1])
    nt = len(names)
    tab_alpha = np.zeros((nt, width))
    tab_vals = np.zeros((nt, 6, width))
    tab_n = np.zeros(nt, dtype=np.int64)
    tab_kind = np.zeros(nt, dtype=np.int64)
    tab_out = np.zeros((nt, 2))
    for k, name in enumerate(names):
        t = aircraft.tables[name]
        tab_kind[k] = KINDS[t.kind]
        tab_out[k] = (t.outside_cl, t.outside_cd)
        if t.kind == "drag":
            tab_vals[k, 3, 0] = t.cd[0]
            continue
        m = len(t.alpha)
        tab_n[k] = m
        tab_alpha[k, :m] = t.alpha
        neutral = (t.cl, t.cl, t.cl, t.cd, t.cd, t.cd)
        columns = (t.cl, t.cl_te_down, t.cl_te_up, t.cd, t.cd_te_down, t.cd_te_up)
        for j, (col, fallback) in enumerate(zip(columns, neutral)):
            tab_vals[k, j, :m] = fallback if col is None else col
    return LoadParams(
        positions=r, elements=elem, element_refs=elem_i,
        table_alpha=tab_alpha, table_values=tab_vals, table_size=tab_n, table_kind=tab_kind, table_outside=tab_out,
        air_density=float(aircraft.air_density), gravity=float(aircraft.gravity), mass=float(aircraft.mass),
        max_thrust=float(aircraft.max_thrust), isa=atmosphere == "isa",
        controls=np.zeros(len(INPUTS)), diag=np.zeros(3), wind=np.zeros(6),
    )


def free_body(mass=1.0):
    """:class:`LoadParams` of a body with no aerodynamic elements, thrust or gravity: a free rigid body.

    Same field types as :func:`pack`, so the same compiled steps serve both.
    """
    return LoadParams(
        positions=np.zeros((0, 3)), elements=np.zeros((0, 5)), element_refs=np.zeros((0, 4), dtype=np.int64),
        table_alpha=np.zeros((0, 1)), table_values=np.zeros((0, 6, 1)), table_size=np.zeros(0, dtype=np.int64),
        table_kind=np.zeros(0, dtype=np.int64), table_outside=np.zeros((0, 2)),
        air_density=0.0, gravity=0.0, mass=float(mass), max_thrust=0.0, isa=False,
        controls=np.zeros(len(INPUTS)), diag=np.zeros(3), wind=np.zeros(6),
    )


@jit
def isa_density(rho0, altitude_ft):
    """Standard-atmosphere density (troposphere, to 36 089 ft, isothermal above), scaled to ``rho0``."""
    h = min(max(altitude_ft, 0.0), 36089.0)
    ratio = (1.0 - 6.87559e-6 * h) ** 4.25588
    if altitude_ft > 36089.0:
        ratio *= math.exp(-(altitude_ft - 36089.0) / 20806.0)
    return rho0 * ratio


@jit
def interpolate(alpha, xs, ys, n):
    """Linear interpolation of ``ys[:n]`` at ``alpha`` over breakpoints ``xs[:n]`` (inside the range)."""
    for k in range(1, n):
        if alpha <= xs[k]:
            f = (alpha - xs[k - 1]) / (xs[k] - xs[k - 1])
            return ys[k - 1] + f * (ys[k] - ys[k - 1])
    return ys[n - 1]


@jit
def coefficients(alpha, flap, kind, xs, vals, n, out_cl, out_cd):
    """Lift and drag coefficients at ``alpha`` (deg) with flap setting ``flap`` in [−1, 1].

    ``flap`` blends linearly from the neutral table (0) to the trailing-edge-up
    table (+1) or the trailing-edge-down table (−1), so ±1 gives exactly the
    book's settings.  Returns ``(cl, cd, inside)``; outside the breakpoints
    the table's stalled values and ``inside = False``.
    """
    if kind == KIND_DRAG:
        return 0.0, vals[3, 0], True
    a = abs(alpha) if kind == KIND_SYMMETRIC else alpha
    if a < xs[0] or a > xs[n - 1]:
        return out_cl, out_cd, False
    cl = interpolate(a, xs, vals[0], n)
    cd = interpolate(a, xs, vals[3], n)
    if flap > 0.0:
        cl += flap * (interpolate(a, xs, vals[2], n) - cl)
        cd += flap * (interpolate(a, xs, vals[5], n) - cd)
    elif flap < 0.0:
        cl -= flap * (interpolate(a, xs, vals[1], n) - cl)
        cd -= flap * (interpolate(a, xs, vals[4], n) - cd)
    if kind == KIND_SYMMETRIC and alpha < 0.0:
        cl = -cl
    return cl, cd, True


@jit
def element_deflections(elem, elem_i, controls, k):
    """Flap setting (−1..1) and incidence change (deg) of element ``k`` for the controls."""
    flap = 0.0
    if elem_i[k, I_FLAP_INPUT] >= 0:
        flap = min(max(elem[k, E_FLAP_GAIN] * controls[elem_i[k, I_FLAP_INPUT]], -1.0), 1.0)
    dinc = 0.0
    if elem_i[k, I_INC_INPUT] >= 0:
        dinc = elem[k, E_INC_GAIN] * controls[elem_i[k, I_INC_INPUT]]
    return flap, dinc


@jit
def airplane_loads(t, y, params):
    """Loads of the packed airplane (:class:`LoadParams`) at state ``y`` (see :mod:`flightsim.integrators`).

    Returns
    -------
    tuple of float
        ``(ax, ay, az)`` earth-frame acceleration of the CG (ft/s², gravity
        included) and ``(mx, my, mz)`` body-frame moment about the CG (ft·lbf).
    """
    r, elem, elem_i = params.positions, params.elements, params.element_refs
    tab_alpha, tab_vals, tab_n, tab_kind, tab_out = (
        params.table_alpha, params.table_values, params.table_size, params.table_kind, params.table_outside
    )
    controls, diag = params.controls, params.diag
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
    wind = params.wind
    # Velocity through the air into the body frame: QVRotate(~q, v − wind) (q normalised on the fly for RK stages).
    vbx, vby, vbz = qv_rotate(qw, -qx, -qy, -qz, y[3] - wind[0], y[4] - wind[1], y[5] - wind[2])
    vbx *= inv
    vby *= inv
    vbz *= inv
    # Rotation relative to the air: the turbulence's gradient across the airplane is ω_g × r.
    wx, wy, wz = y[10] - wind[3], y[11] - wind[4], y[12] - wind[5]
    rho = params.air_density
    if params.isa:
        rho = isa_density(rho, y[2])
    fx = fy = fz = 0.0
    mx = my = mz = 0.0
    stall = 0.0
    for k in range(r.shape[0]):
        rx, ry, rz = r[k, 0], r[k, 1], r[k, 2]
        lx = vbx + wy * rz - wz * ry
        ly = vby + wz * rx - wx * rz
        lz = vbz + wx * ry - wy * rx
        speed2 = lx * lx + ly * ly + lz * lz
        if speed2 < MIN_SPEED * MIN_SPEED:
            continue
        speed = math.sqrt(speed2)
        dx, dy, dz = -lx / speed, -ly / speed, -lz / speed
        flap, dinc = element_deflections(elem, elem_i, controls, k)
        inc = math.radians(elem[k, E_INCIDENCE] + dinc)
        dih = math.radians(elem[k, E_DIHEDRAL])
        nx = math.sin(inc)
        ny = math.cos(inc) * math.sin(dih)
        nz = math.cos(inc) * math.cos(dih)
        # lift direction (drag × n) × drag
        cx, cy, cz = dy * nz - dz * ny, dz * nx - dx * nz, dx * ny - dy * nx
        ux, uy, uz = cy * dz - cz * dy, cz * dx - cx * dz, cx * dy - cy * dx
        ul = math.sqrt(ux * ux + uy * uy + uz * uz)
        if ul > 1e-12:
            ux /= ul
            uy /= ul
            uz /= ul
        alpha = math.degrees(math.asin(min(max(dx * nx + dy * ny + dz * nz, -1.0), 1.0)))
        tb = elem_i[k, I_TABLE]
        cl, cd, inside = coefficients(
            alpha, flap, tab_kind[tb], tab_alpha[tb], tab_vals[tb], tab_n[tb], tab_out[tb, 0], tab_out[tb, 1]
        )
        if not inside and elem_i[k, I_IS_WING] == 1:
            stall = 1.0
        q_s = 0.5 * rho * speed2 * elem[k, E_AREA]
        ex = (ux * cl + dx * cd) * q_s
        ey = (uy * cl + dy * cd) * q_s
        ez = (uz * cl + dz * cd) * q_s
        fx += ex
        fy += ey
        fz += ez
        mx += ry * ez - rz * ey
        my += rz * ex - rx * ez
        mz += rx * ey - ry * ex
    thrust = controls[C_THROTTLE] * params.max_thrust
    fx += thrust
    diag[D_STALL] = stall
    diag[D_RHO] = rho
    diag[D_THRUST] = thrust
    ex, ey, ez = qv_rotate(qw, qx, qy, qz, fx, fy, fz)
    m = params.mass
    return ex * inv / m, ey * inv / m, ez * inv / m - params.gravity, mx, my, mz

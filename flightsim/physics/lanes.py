"""Airplanes side by side in SIMD lanes: one ``rk4`` step of :data:`LANES` airplanes of a batch at once.

:func:`flightsim.physics.steps.step_rk4` steps one airplane; its loads' loop over the lifting elements
(:func:`flightsim.physics.aero.own_flat_loads`) is most of the step, and one airplane at a time it runs on one
float64 a cycle.  :func:`rk4_lanes` steps a block of :data:`LANES` airplanes of a batch (consecutive rows of its
states) with the same arithmetic laid out the other way round (a structure of arrays): each number the step
works with is :data:`LANES` numbers side by side in a scratch array, one per airplane, and each stage of the step
is a loop ``for j in range(LANES)`` over the airplanes that LLVM compiles to vector instructions (8 float64 a
register with AVX-512).  Branches become selects (both sides computed, one kept per airplane); the table lookup
picks each airplane's segment in a loop over the breakpoints; ``asin`` is
:func:`flightsim.math.kernels.arcsin`, which the single airplane's loads use too.

**The same numbers, bit for bit.** Every expression is the scalar step's, in the same order (IEEE arithmetic
gives the same bits in a vector register as in a scalar one; numba compiles without ``fastmath``, so nothing is
fused or reordered), and :func:`rk4_lanes` refuses the block (returns False, having written nothing) where the
scalar step would do something it does not model: a contact point within reach of the ground at any stage, or a
state no longer finite.  The batch then steps that block's airplanes one by one, as before
(:func:`flightsim.simulation.batch.batch_steps_lanes`).  ``tests/test_batch.py`` checks the two agree.

What it models: flightsim's own aircraft on a flat planet (or no terrain), with thrust ``throttle × max_thrust``
(no propeller), constant air density (no ``isa``), in the air, with any wind and turbulence (each airplane's
``wind`` row), loading and controls; :func:`lanes_apply` says whether a batch's parameters are such.

Layout: the scratch array ``W`` holds slot ``s`` of airplane ``j`` at ``W[s * LANES + j]`` (the ``S_*`` offsets,
constants, so that LLVM sees that different slots never overlap); ``EL[k]`` the same for element ``k``'s
per-airplane numbers (position, normal, flap setting: ``L_*``).
"""

import math

import numpy as np

from flightsim.math.compiler import borrowing_inline_jit, borrowing_jit
from flightsim.math.kernels import arcsin, qv_rotate, turn
from flightsim.physics.aero import (
    C_THROTTLE,
    D_RHO,
    D_RPM,
    D_STALL,
    D_THRUST,
    E_AREA,
    E_DIHEDRAL,
    E_INCIDENCE,
    I_GROUND_EFFECT,
    I_INC_INPUT,
    I_IS_WING,
    I_TABLE,
    KIND_DRAG,
    KIND_SYMMETRIC,
    MIN_SPEED,
    P_AVAILABLE,
    element_deflections,
    element_normal,
    in_ground_effect,
)
from flightsim.physics.gear import GD_DEPTH, GD_LOAD, GD_RATE
from flightsim.physics.steps import STATE_SIZE, omega_dot, step_by_number_inline

#: Airplanes a block: two AVX-512 registers of float64 (one register a number gives the loops too little to
#: overlap).
LANES = 16

#: The slots of ``W``, in order: the state at the step's start (``Y0_i``), the stage's state (``YC_i``), the
#: slopes' weighted sum (``TOT_i``) and the stage's slope (``K_i``); each airplane's wind, thrust, mass and gear
#: reach for the step; the loads' frame at a stage (air velocity in the body frame, rotation relative to the air,
#: 1/|q|², the body's up axis); the force and moment summed over the elements, the stall flag, whether the gear
#: came within reach, |q| − 1; one element's speed², drag and lift directions, α, the table's coordinate, its
#: coefficients and whether inside the table; its segment of the table (``SEG``: the breakpoint it starts at), the
#: segment's ends (``X0``, ``X1``) and the values there of C_L (``V0``), C_D (``V3``) and the flap's C_L and C_D
#: columns (``VF``, ``VG``: flap up or down as the airplane's flap setting).
SLOTS = (
    "Y0_0", "Y0_1", "Y0_2", "Y0_3", "Y0_4", "Y0_5", "Y0_6", "Y0_7", "Y0_8", "Y0_9", "Y0_10", "Y0_11", "Y0_12",
    "YC_0", "YC_1", "YC_2", "YC_3", "YC_4", "YC_5", "YC_6", "YC_7", "YC_8", "YC_9", "YC_10", "YC_11", "YC_12",
    "TOT_0", "TOT_1", "TOT_2", "TOT_3", "TOT_4", "TOT_5", "TOT_6", "TOT_7", "TOT_8", "TOT_9", "TOT_10", "TOT_11",
    "TOT_12", "K_0", "K_1", "K_2", "K_3", "K_4", "K_5", "K_6", "K_7", "K_8", "K_9", "K_10", "K_11", "K_12", "WIND_0",
    "WIND_1", "WIND_2", "WIND_3", "WIND_4", "WIND_5", "THRUST", "MASS", "REACH", "VBX", "VBY", "VBZ", "WX", "WY",
    "WZ", "INV", "UPX", "UPY", "UPZ", "FX", "FY", "FZ", "MX", "MY", "MZ", "STALL", "TOUCH", "ERR", "SPEED2", "DX",
    "DY", "DZ", "UX", "UY", "UZ", "ALPHA", "A", "CL", "CD", "IN", "SEG", "X0", "X1", "V0_0", "V0_1", "V3_0", "V3_1",
    "VF_0", "VF_1", "VG_0", "VG_1",
)
S_Y0_0 = 0 * LANES
S_Y0_1 = 1 * LANES
S_Y0_2 = 2 * LANES
S_Y0_3 = 3 * LANES
S_Y0_4 = 4 * LANES
S_Y0_5 = 5 * LANES
S_Y0_6 = 6 * LANES
S_Y0_7 = 7 * LANES
S_Y0_8 = 8 * LANES
S_Y0_9 = 9 * LANES
S_Y0_10 = 10 * LANES
S_Y0_11 = 11 * LANES
S_Y0_12 = 12 * LANES
S_YC_0 = 13 * LANES
S_YC_1 = 14 * LANES
S_YC_2 = 15 * LANES
S_YC_3 = 16 * LANES
S_YC_4 = 17 * LANES
S_YC_5 = 18 * LANES
S_YC_6 = 19 * LANES
S_YC_7 = 20 * LANES
S_YC_8 = 21 * LANES
S_YC_9 = 22 * LANES
S_YC_10 = 23 * LANES
S_YC_11 = 24 * LANES
S_YC_12 = 25 * LANES
S_TOT_0 = 26 * LANES
S_TOT_1 = 27 * LANES
S_TOT_2 = 28 * LANES
S_TOT_3 = 29 * LANES
S_TOT_4 = 30 * LANES
S_TOT_5 = 31 * LANES
S_TOT_6 = 32 * LANES
S_TOT_7 = 33 * LANES
S_TOT_8 = 34 * LANES
S_TOT_9 = 35 * LANES
S_TOT_10 = 36 * LANES
S_TOT_11 = 37 * LANES
S_TOT_12 = 38 * LANES
S_K_0 = 39 * LANES
S_K_1 = 40 * LANES
S_K_2 = 41 * LANES
S_K_3 = 42 * LANES
S_K_4 = 43 * LANES
S_K_5 = 44 * LANES
S_K_6 = 45 * LANES
S_K_7 = 46 * LANES
S_K_8 = 47 * LANES
S_K_9 = 48 * LANES
S_K_10 = 49 * LANES
S_K_11 = 50 * LANES
S_K_12 = 51 * LANES
S_WIND_0 = 52 * LANES
S_WIND_1 = 53 * LANES
S_WIND_2 = 54 * LANES
S_WIND_3 = 55 * LANES
S_WIND_4 = 56 * LANES
S_WIND_5 = 57 * LANES
S_THRUST = 58 * LANES
S_MASS = 59 * LANES
S_REACH = 60 * LANES
S_VBX = 61 * LANES
S_VBY = 62 * LANES
S_VBZ = 63 * LANES
S_WX = 64 * LANES
S_WY = 65 * LANES
S_WZ = 66 * LANES
S_INV = 67 * LANES
S_UPX = 68 * LANES
S_UPY = 69 * LANES
S_UPZ = 70 * LANES
S_FX = 71 * LANES
S_FY = 72 * LANES
S_FZ = 73 * LANES
S_MX = 74 * LANES
S_MY = 75 * LANES
S_MZ = 76 * LANES
S_STALL = 77 * LANES
S_TOUCH = 78 * LANES
S_ERR = 79 * LANES
S_SPEED2 = 80 * LANES
S_DX = 81 * LANES
S_DY = 82 * LANES
S_DZ = 83 * LANES
S_UX = 84 * LANES
S_UY = 85 * LANES
S_UZ = 86 * LANES
S_ALPHA = 87 * LANES
S_A = 88 * LANES
S_CL = 89 * LANES
S_CD = 90 * LANES
S_IN = 91 * LANES
S_SEG = 92 * LANES
S_X0 = 93 * LANES
S_X1 = 94 * LANES
S_V0_0 = 95 * LANES
S_V0_1 = 96 * LANES
S_V3_0 = 97 * LANES
S_V3_1 = 98 * LANES
S_VF_0 = 99 * LANES
S_VF_1 = 100 * LANES
S_VG_0 = 101 * LANES
S_VG_1 = 102 * LANES
#: Length of the scratch array ``W``.
W_SIZE = len(SLOTS) * LANES
#: Per element and airplane: position (body, relative to the CG), normal, flap setting.
L_RX, L_RY, L_RZ, L_NX, L_NY, L_NZ, L_FLAP = (i * LANES for i in range(7))
#: Width of a row of ``EL``.
EL_SIZE = 7 * LANES


def lanes_apply(params, integrator_name):
    """Whether :func:`rk4_lanes` models the batch's airplanes with these (shared) parameters and integrator: the
    ``rk4`` step of flightsim's own aircraft on a flat planet with no terrain, no propeller, no ``isa``."""
    return (integrator_name == "rk4" and params.jsb_on is None and params.own_on is not None
            and params.planet is None and params.terrain is None and not params.propeller and not params.isa)


@borrowing_jit
def lanes_setup(a0, W, EL, elem, elem_i, normals, max_thrust, controls, engine, mass, positions, gear_reach):
    """What stays the same through a batch's call for the airplanes ``a0 … a0 + LANES − 1``, into ``W`` and ``EL``
    before their first :func:`rk4_lanes`: each airplane's thrust (``throttle × max_thrust``, the engine's
    available share), mass and gear reach, and each element's position, normal and flap setting (its controls':
    :func:`~flightsim.physics.aero.element_deflections`, :func:`~flightsim.physics.aero.element_normal`, as the
    loads compute them at every evaluation).  (A call's controls, engine rows and loading do not change during
    it: the autopilot and the failures set them between calls.)"""
    ne = elem.shape[0]
    for j in range(LANES):
        a = a0 + j
        W[S_THRUST + j] = controls[a, C_THROTTLE] * max_thrust * engine[a, P_AVAILABLE]
        W[S_MASS + j] = mass[a]
        W[S_REACH + j] = gear_reach[a]
        for k in range(ne):
            el = EL[k]
            el[L_RX + j] = positions[a, k, 0]
            el[L_RY + j] = positions[a, k, 1]
            el[L_RZ + j] = positions[a, k, 2]
            flap, dinc = element_deflections(elem, elem_i, controls[a], k)
            if elem_i[k, I_INC_INPUT] >= 0:
                nx, ny, nz = element_normal(elem[k, E_INCIDENCE] + dinc, elem[k, E_DIHEDRAL])
            else:
                nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
            el[L_NX + j] = nx
            el[L_NY + j] = ny
            el[L_NZ + j] = nz
            el[L_FLAP + j] = flap


@borrowing_jit
def rk4_lanes(Y, a0, W, EL, h, renorm, inertia, inertia_inv, elem, elem_i, tab_alpha, tab_vals, tab_n, tab_kind,
              tab_out, rho, gravity, ground_effect, diag, wind, gear_diag, has_gear):
    """One ``rk4`` step of the airplanes ``Y[a0 : a0 + LANES]``, as
    :func:`flightsim.physics.steps.step_rk4` with :func:`flightsim.physics.aero.own_flat_loads` steps each
    (:func:`lanes_setup` having filled ``W`` and ``EL`` for this call).

    The new states go to ``W[S_Y0_i + j]`` (``i`` the state's entry, ``j`` the airplane), ``|q| − 1`` before the
    renormalisation (:func:`flightsim.physics.steps.store_q`'s value) to ``W[S_ERR + j]``; each airplane's
    ``diag`` and ``gear_diag`` rows are written as the scalar step leaves them.  ``Y`` is not written.

    Returns False, having written nothing but ``W``, where the block needs the scalar step: a contact point
    within reach of the ground at a stage (the CG no higher than ``gear_reach``), or a state not finite.
    """
    ne = elem.shape[0]
    for i in range(STATE_SIZE):
        for j in range(LANES):
            W[S_Y0_0 + i * LANES + j] = Y[a0 + j, i]
            W[S_YC_0 + i * LANES + j] = Y[a0 + j, i]
    for j in range(LANES):
        a = a0 + j
        for i in range(6):
            W[S_WIND_0 + i * LANES + j] = wind[a, i]
        W[S_TOUCH + j] = 0.0
    for stage in range(4):
        _frame(W, has_gear)
        for k in range(ne):
            _element(W, EL[k], k, elem, elem_i, tab_alpha, tab_vals, tab_n, tab_kind, tab_out, rho, ground_effect)
        _slope(W, gravity, inertia, inertia_inv)
        if stage == 0:
            for i in range(STATE_SIZE):
                for j in range(LANES):
                    W[S_TOT_0 + i * LANES + j] = W[S_K_0 + i * LANES + j]
        elif stage < 3:
            for i in range(STATE_SIZE):
                for j in range(LANES):
                    W[S_TOT_0 + i * LANES + j] = W[S_TOT_0 + i * LANES + j] + 2.0 * W[S_K_0 + i * LANES + j]
        else:
            for i in range(STATE_SIZE):
                for j in range(LANES):
                    W[S_TOT_0 + i * LANES + j] = W[S_TOT_0 + i * LANES + j] + W[S_K_0 + i * LANES + j]
        if stage < 3:
            c = h if stage == 2 else 0.5 * h
            for i in range(STATE_SIZE):
                for j in range(LANES):
                    W[S_YC_0 + i * LANES + j] = W[S_Y0_0 + i * LANES + j] + c * W[S_K_0 + i * LANES + j]
    sixth = h / 6.0
    for i in range(STATE_SIZE):
        for j in range(LANES):
            W[S_YC_0 + i * LANES + j] = W[S_Y0_0 + i * LANES + j] + sixth * W[S_TOT_0 + i * LANES + j]
    _store_q(W, renorm)
    bad = 0.0
    for j in range(LANES):
        bad = max(bad, W[S_TOUCH + j])
        if not math.isfinite(W[S_ERR + j]):
            bad = 1.0
    if bad > 0.0:
        return False
    for i in range(STATE_SIZE):
        for j in range(LANES):
            W[S_Y0_0 + i * LANES + j] = W[S_YC_0 + i * LANES + j]
    for j in range(LANES):
        a = a0 + j
        diag[a, D_STALL] = W[S_STALL + j]
        diag[a, D_RHO] = rho
        diag[a, D_THRUST] = W[S_THRUST + j]
        diag[a, D_RPM] = 0.0
        if has_gear:
            for g in range(gear_diag.shape[1]):
                gear_diag[a, g, GD_DEPTH] = 0.0
                gear_diag[a, g, GD_RATE] = 0.0
                gear_diag[a, g, GD_LOAD] = 0.0
    return True


@borrowing_jit
def _frame(W, has_gear):
    """The loads' frame at the stage's state of every airplane (:func:`~flightsim.physics.aero.own_flat_loads`
    before its elements' loop); the force and moment zeroed; whether the gear is within reach."""
    for j in range(LANES):
        qw, qx, qy, qz = W[S_YC_6 + j], W[S_YC_7 + j], W[S_YC_8 + j], W[S_YC_9 + j]
        inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
        vbx, vby, vbz = qv_rotate(qw, -qx, -qy, -qz, W[S_YC_3 + j] - W[S_WIND_0 + j], W[S_YC_4 + j] - W[S_WIND_1 + j],
                                  W[S_YC_5 + j] - W[S_WIND_2 + j])
        W[S_VBX + j] = vbx * inv
        W[S_VBY + j] = vby * inv
        W[S_VBZ + j] = vbz * inv
        W[S_WX + j] = W[S_YC_10 + j] - W[S_WIND_3 + j]
        W[S_WY + j] = W[S_YC_11 + j] - W[S_WIND_4 + j]
        W[S_WZ + j] = W[S_YC_12 + j] - W[S_WIND_5 + j]
        W[S_INV + j] = inv
        W[S_UPX + j] = 2.0 * (qx * qz - qw * qy)
        W[S_UPY + j] = 2.0 * (qy * qz + qw * qx)
        W[S_UPZ + j] = qw * qw - qx * qx - qy * qy + qz * qz
        W[S_FX + j] = 0.0
        W[S_FY + j] = 0.0
        W[S_FZ + j] = 0.0
        W[S_MX + j] = 0.0
        W[S_MY + j] = 0.0
        W[S_MZ + j] = 0.0
        W[S_STALL + j] = 0.0
        if has_gear:
            W[S_TOUCH + j] = W[S_TOUCH + j] if W[S_YC_2 + j] > W[S_REACH + j] else 1.0


@borrowing_jit
def _element(W, el, k, elem, elem_i, tab_alpha, tab_vals, tab_n, tab_kind, tab_out, rho, ground_effect):
    """Element ``k``'s force and moment added for every airplane: the body of
    :func:`~flightsim.physics.aero.own_flat_loads`' elements' loop, with :func:`~flightsim.physics.aero.coefficients`
    and :func:`~flightsim.physics.aero.segment`, the same expressions; its ``continue`` (too slow an element) and
    branches are selects."""
    tb = elem_i[k, I_TABLE]
    kind = tab_kind[tb]
    n = tab_n[tb]
    xs = tab_alpha[tb]
    vals = tab_vals[tb]
    out_cl, out_cd = tab_out[tb, 0], tab_out[tb, 1]
    area = elem[k, E_AREA]
    ge = elem_i[k, I_GROUND_EFFECT] == 1
    wing = elem_i[k, I_IS_WING] == 1
    symmetric = kind == KIND_SYMMETRIC
    drag = kind == KIND_DRAG
    slow = MIN_SPEED * MIN_SPEED
    for j in range(LANES):
        vbx, vby, vbz = W[S_VBX + j], W[S_VBY + j], W[S_VBZ + j]
        wx, wy, wz = W[S_WX + j], W[S_WY + j], W[S_WZ + j]
        rx, ry, rz = el[L_RX + j], el[L_RY + j], el[L_RZ + j]
        lx = vbx + wy * rz - wz * ry
        ly = vby + wz * rx - wx * rz
        lz = vbz + wx * ry - wy * rx
        speed2 = lx * lx + ly * ly + lz * lz
        inv_speed = 1.0 / math.sqrt(speed2)
        dx, dy, dz = -lx * inv_speed, -ly * inv_speed, -lz * inv_speed
        nx, ny, nz = el[L_NX + j], el[L_NY + j], el[L_NZ + j]
        cx, cy, cz = dy * nz - dz * ny, dz * nx - dx * nz, dx * ny - dy * nx
        ux, uy, uz = cy * dz - cz * dy, cz * dx - cx * dz, cx * dy - cy * dx
        ul = math.sqrt(ux * ux + uy * uy + uz * uz)
        long = ul > 1e-12
        inv_ul = 1.0 / ul
        W[S_UX + j] = ux * inv_ul if long else ux
        W[S_UY + j] = uy * inv_ul if long else uy
        W[S_UZ + j] = uz * inv_ul if long else uz
        alpha = math.degrees(arcsin(min(max(dx * nx + dy * ny + dz * nz, -1.0), 1.0)))
        W[S_SPEED2 + j] = speed2
        W[S_DX + j] = dx
        W[S_DY + j] = dy
        W[S_DZ + j] = dz
        W[S_ALPHA + j] = alpha
        W[S_A + j] = abs(alpha) if symmetric else alpha
    if not drag:
        # each airplane's segment (aero.segment's k, the first breakpoint k >= 1 with a <= xs[k], is 1 + the
        # number of breakpoints 1 … n − 2 below a; past the last, the last segment, never used): counted in
        # lanes, then the segment's ends and values read one airplane at a time (a vector gather from the table
        # LLVM would not make here: it cannot tell the table from the scratch array it writes)
        for j in range(LANES):
            W[S_SEG + j] = 0.0
        for i in range(1, n - 1):
            xi = xs[i]
            for j in range(LANES):
                W[S_SEG + j] = W[S_SEG + j] + 1.0 if W[S_A + j] > xi else W[S_SEG + j]
        for j in range(LANES):
            i = int(W[S_SEG + j])
            fc = 2 if el[L_FLAP + j] > 0.0 else 1
            W[S_X0 + j] = xs[i]
            W[S_X1 + j] = xs[i + 1]
            W[S_V0_0 + j] = vals[0, i]
            W[S_V0_1 + j] = vals[0, i + 1]
            W[S_V3_0 + j] = vals[3, i]
            W[S_V3_1 + j] = vals[3, i + 1]
            W[S_VF_0 + j] = vals[fc, i]
            W[S_VF_1 + j] = vals[fc, i + 1]
            W[S_VG_0 + j] = vals[fc + 3, i]
            W[S_VG_1 + j] = vals[fc + 3, i + 1]
    first, last = xs[0], xs[n - 1]
    cd_drag = vals[3, 0]
    for j in range(LANES):
        a = W[S_A + j]
        if drag:
            cl, cd, inside = 0.0, cd_drag, True
        else:
            inside = not (a < first or a > last)
            f = (a - W[S_X0 + j]) / (W[S_X1 + j] - W[S_X0 + j])
            cl = W[S_V0_0 + j] + f * (W[S_V0_1 + j] - W[S_V0_0 + j])
            cd = W[S_V3_0 + j] + f * (W[S_V3_1 + j] - W[S_V3_0 + j])
            flap = el[L_FLAP + j]
            flap_cl = W[S_VF_0 + j] + f * (W[S_VF_1 + j] - W[S_VF_0 + j]) - cl
            flap_cd = W[S_VG_0 + j] + f * (W[S_VG_1 + j] - W[S_VG_0 + j]) - cd
            up_cl = cl + flap * flap_cl
            up_cd = cd + flap * flap_cd
            down_cl = cl - flap * flap_cl
            down_cd = cd - flap * flap_cd
            cl = up_cl if flap > 0.0 else (down_cl if flap < 0.0 else cl)
            cd = up_cd if flap > 0.0 else (down_cd if flap < 0.0 else cd)
            if symmetric:
                cl = -cl if W[S_ALPHA + j] < 0.0 else cl
            cl = cl if inside else out_cl
            cd = cd if inside else out_cd
        W[S_CL + j] = cl
        W[S_CD + j] = cd
        W[S_IN + j] = 1.0 if inside else 0.0
    if ge:
        for j in range(LANES):
            height = W[S_YC_2 + j] + (W[S_UPX + j] * el[L_RX + j] + W[S_UPY + j] * el[L_RY + j]
                                      + W[S_UPZ + j] * el[L_RZ + j]) * W[S_INV + j]
            cl, cd = W[S_CL + j], W[S_CD + j]
            near_cl, near_cd = in_ground_effect(cl, cd, height, ground_effect)
            inside = W[S_IN + j] > 0.5
            W[S_CL + j] = near_cl if inside else cl
            W[S_CD + j] = near_cd if inside else cd
    for j in range(LANES):
        cl, cd = W[S_CL + j], W[S_CD + j]
        speed2 = W[S_SPEED2 + j]
        fast = not (speed2 < slow)
        if wing and fast and W[S_IN + j] < 0.5:
            W[S_STALL + j] = 1.0
        rx, ry, rz = el[L_RX + j], el[L_RY + j], el[L_RZ + j]
        dx, dy, dz = W[S_DX + j], W[S_DY + j], W[S_DZ + j]
        ux, uy, uz = W[S_UX + j], W[S_UY + j], W[S_UZ + j]
        q_s = 0.5 * rho * speed2 * area
        ex = (ux * cl + dx * cd) * q_s
        ey = (uy * cl + dy * cd) * q_s
        ez = (uz * cl + dz * cd) * q_s
        fx, fy, fz = W[S_FX + j], W[S_FY + j], W[S_FZ + j]
        mx, my, mz = W[S_MX + j], W[S_MY + j], W[S_MZ + j]
        W[S_FX + j] = fx + ex if fast else fx
        W[S_FY + j] = fy + ey if fast else fy
        W[S_FZ + j] = fz + ez if fast else fz
        W[S_MX + j] = mx + (ry * ez - rz * ey) if fast else mx
        W[S_MY + j] = my + (rz * ex - rx * ez) if fast else my
        W[S_MZ + j] = mz + (rx * ey - ry * ex) if fast else mz


@borrowing_jit
def _slope(W, gravity, inertia, inertia_inv):
    """The stage's slope ``K`` of every airplane: the loads' last lines (thrust, the force turned to the earth
    frame, the accelerations) and :func:`flightsim.physics.steps.derivative`'s."""
    for j in range(LANES):
        qw, qx, qy, qz = W[S_YC_6 + j], W[S_YC_7 + j], W[S_YC_8 + j], W[S_YC_9 + j]
        fx = W[S_FX + j] + W[S_THRUST + j]
        ex, ey, ez = qv_rotate(qw, qx, qy, qz, fx, W[S_FY + j], W[S_FZ + j])
        inv = W[S_INV + j]
        m = W[S_MASS + j]
        wx, wy, wz = W[S_YC_10 + j], W[S_YC_11 + j], W[S_YC_12 + j]
        tw, tx, ty, tz = turn(qw, qx, qy, qz, 0.0, 0.5, wx, wy, wz)
        dx, dy, dz = omega_dot(wx, wy, wz, W[S_MX + j], W[S_MY + j], W[S_MZ + j], inertia, inertia_inv)
        W[S_K_0 + j] = W[S_YC_3 + j]
        W[S_K_1 + j] = W[S_YC_4 + j]
        W[S_K_2 + j] = W[S_YC_5 + j]
        W[S_K_3 + j] = ex * inv / m
        W[S_K_4 + j] = ey * inv / m
        W[S_K_5 + j] = ez * inv / m - gravity
        W[S_K_6 + j] = tw
        W[S_K_7 + j] = tx
        W[S_K_8 + j] = ty
        W[S_K_9 + j] = tz
        W[S_K_10 + j] = dx
        W[S_K_11 + j] = dy
        W[S_K_12 + j] = dz


@borrowing_jit
def _store_q(W, renorm):
    """:func:`flightsim.physics.steps.store_q` of every airplane's stage state: ``|q| − 1`` into ``ERR`` (NaN
    where the state is not finite), ``q`` renormalised where asked."""
    for j in range(LANES):
        qw, qx, qy, qz = W[S_YC_6 + j], W[S_YC_7 + j], W[S_YC_8 + j], W[S_YC_9 + j]
        n = math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
        scale = renorm and n > 0.0
        qw = qw / n if scale else qw
        qx = qx / n if scale else qx
        qy = qy / n if scale else qy
        qz = qz / n if scale else qz
        W[S_YC_6 + j] = qw
        W[S_YC_7 + j] = qx
        W[S_YC_8 + j] = qy
        W[S_YC_9 + j] = qz
        total = 0.0
        for i in range(STATE_SIZE):
            total += W[S_YC_0 + i * LANES + j]
        ok = math.isfinite(total) and math.isfinite(n) and n > 0.0
        W[S_ERR + j] = n - 1.0 if ok else math.nan


@borrowing_inline_jit
def lane_step(lanes, W, j, number, y, t, h, params, inertia, inertia_inv, renorm, increment_id):
    """Airplane ``j`` of a block's step: its state from :func:`rk4_lanes` (``W``) where ``lanes``, else the scalar
    step (:func:`flightsim.physics.steps.step_by_number_inline`); ``|q| − 1`` (NaN: not finite) as either returns.
    Written into its compiled caller (:func:`flightsim.simulation.batch.batch_steps_lanes`)."""
    if lanes:
        for i in range(STATE_SIZE):
            y[i] = W[S_Y0_0 + i * LANES + j]
        return W[S_ERR + j]
    return step_by_number_inline(number, y, t, h, params, inertia, inertia_inv, renorm, increment_id)


def scratch(elements):
    """The scratch arrays of one block: ``W`` (:data:`W_SIZE`) and ``EL`` (``elements`` × :data:`EL_SIZE`)."""
    return np.zeros(W_SIZE), np.zeros((max(elements, 1), EL_SIZE))

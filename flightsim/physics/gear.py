"""The landing gear's contact loads: wheels on sprung legs and hard points against the ground.

Each contact point below the ground (the plane z = 0) pushes up with its
spring and damper and rubs along the ground with its friction
(:func:`contact_loads`); on a terrain (the loads' ``terrain`` field, the packed
:mod:`flightsim.physics.terrain`) the same along the surface's normal under
each point and in its plane (:func:`terrain_contact_loads`); the loads (:func:`flightsim.physics.aero.airplane_loads`)
add this in the same evaluation (:func:`gear_loads`), so every integrator, at
every Runge–Kutta stage, sees the ground as it sees the air.  Above the
ground it adds nothing, and the loads are bit for bit those without a gear.
Between two steps :func:`hold_brakes` ties a braked wheel at rest to the
ground.  The model follows JSBSim's FGLGear (spring-damper strut, rolling,
braking and side friction coefficients) without its Lagrange-multiplier
friction solve.

:func:`pack_gear` turns an aircraft's :class:`~flightsim.physics.aircraft.Contact`
points into the gear fields of :class:`flightsim.physics.aero.LoadParams`;
the compiled functions read those fields by name (this module does not
import :mod:`~flightsim.physics.aero`: the loads import the gear, never the
other way).  The ground after a whole step — touchdown, first contact, the
crash — is :mod:`flightsim.physics.ground`.

Frames: earth x North, y West, z up (the ground at z = 0); body x forward,
y left, z up.  Units are the aircraft file's: ft, slug, lbf, s.

The compiled functions here only read and write the arrays they are given:
they are compiled with :data:`~flightsim.math.compiler.borrowing_jit`,
without numba's reference counting of the parameters' arrays.
"""

import math

import numpy as np

from flightsim.math.compiler import borrowing_inline_jit, borrowing_jit
from flightsim.math.kernels import matrix_entries
from flightsim.physics.inputs import C_BRAKE, C_BRAKE_LEFT, C_BRAKE_RIGHT, C_PARKING_BRAKE, C_RUDDER
from flightsim.physics.terrain import terrain_clearance_bound, terrain_height

#: Columns of the gear array ``gear``: spring (lbf/ft), damper (lbf·s/ft), friction coefficients (static,
#: rolling, braked), largest steering angle (rad), leg travel (ft).
G_STIFFNESS, G_DAMPING, G_STATIC, G_ROLLING, G_BRAKE, G_STEER, G_TRAVEL = range(7)
#: Columns of the integer gear array ``gear_refs``: kind (``GEAR_WHEEL``, ``GEAR_HARD``), brake (``BRAKE_*``).
R_KIND, R_BRAKE = range(2)
GEAR_WHEEL, GEAR_HARD = 0, 1
#: Which brake input a wheel feels: none, the left, the right, both (a wheel on the centre line).
BRAKE_NONE, BRAKE_LEFT, BRAKE_RIGHT, BRAKE_BOTH = -1, 0, 1, 2
#: Columns of ``gear_diag``, written per contact point by each loads evaluation: how far it is pressed into
#: the ground (ft, 0 when clear of it), how fast (ft/s, + pressing in) and the normal force (lbf).
GD_DEPTH, GD_RATE, GD_LOAD = range(3)
#: Slip speed (ft/s) over which tyre and skid friction build up to their full value: friction is
#: ``μ N tanh(v_slip / SLIP_SPEED)``, smooth through zero, so a wheel at rest does not chatter.
SLIP_SPEED = 0.5
#: Across its heading a rolling tyre's friction builds up over this slip angle's tangent times the rolling
#: speed (a tyre's cornering, ~6°), or over :data:`SLIP_SPEED` when that is larger.
SLIP_TAN = math.tan(math.radians(6.0))
#: A braked wheel at rest holds: its contact patch is tied to an anchor on the ground (``gear_anchor``) and the
#: braking force grows with the distance from it, reaching full braking ``μ N`` at this many ft (the tyre's give).
HOLD_DISTANCE = 0.05
#: Columns of ``gear_anchor``: the anchor's earth x, y (ft), and 1 while a braked wheel holds to it.
A_X, A_Y, A_ON = range(3)


def pack_gear(gear):
    """The gear fields of :class:`~flightsim.physics.aero.LoadParams` for a tuple of
    :class:`~flightsim.physics.aircraft.Contact` (its ``gear``).

    Returns
    -------
    dict
        ``gear_positions``, ``gear``, ``gear_refs``, ``gear_reach``, ``gear_diag``, ``gear_anchor``.
    """
    m = len(gear)
    positions = np.array([c.position for c in gear], dtype=np.float64).reshape(m, 3)
    table = np.zeros((m, 7))
    refs = np.full((m, 2), BRAKE_NONE, dtype=np.int64)
    for k, c in enumerate(gear):
        table[k] = (c.stiffness, c.damping, c.static_friction, c.rolling_friction, c.brake_friction,
                    math.radians(c.steering_deg), c.max_compression)
        refs[k, R_KIND] = GEAR_WHEEL if c.is_wheel else GEAR_HARD
        if c.is_wheel and c.brake_friction > 0.0:
            y = float(c.position[1])
            refs[k, R_BRAKE] = BRAKE_LEFT if y > 1e-9 else BRAKE_RIGHT if y < -1e-9 else BRAKE_BOTH
    reach = float(np.max(np.linalg.norm(positions, axis=1))) if m else 0.0
    return dict(gear_positions=positions, gear=table, gear_refs=refs, gear_reach=reach, gear_diag=np.zeros((m, 3)),
                gear_anchor=np.zeros((m, 3)))


@borrowing_jit
def wheel_brake(controls, side):
    """How hard (0..1) a wheel braked on ``side`` (``BRAKE_*``) is braked by the controls array.

    Full with the parking brake set (``parking_brake`` ≥ ½).  Otherwise
    ``brake``, eased on the side away from the rudder: the left brake is
    ``brake × min(1, 1 − rudder)``, the right ``brake × min(1, 1 + rudder)``
    (rudder +1, nose right, leaves only the right brake: differential
    braking with the pedals); and each side at least its own toe brake,
    ``brake_left`` or ``brake_right`` (rudder pedals' differential brakes);
    a wheel on the centre line takes the mean.
    """
    if side == BRAKE_NONE:
        return 0.0
    if controls[C_PARKING_BRAKE] >= 0.5:
        return 1.0
    brake = min(max(controls[C_BRAKE], 0.0), 1.0)
    rudder = min(max(controls[C_RUDDER], -1.0), 1.0)
    left = max(brake * min(1.0 - rudder, 1.0), min(max(controls[C_BRAKE_LEFT], 0.0), 1.0))
    right = max(brake * min(1.0 + rudder, 1.0), min(max(controls[C_BRAKE_RIGHT], 0.0), 1.0))
    if side == BRAKE_LEFT:
        return left
    if side == BRAKE_RIGHT:
        return right
    return 0.5 * (left + right)


@borrowing_jit
def gear_loads(y, params, qw, qx, qy, qz, inv, terrain):
    """:func:`contact_loads` of ``params``' gear (see there) on the plane z = 0 (``terrain``, ``params.terrain``,
    None), or :func:`terrain_contact_loads` on the packed terrain; zeros at once for an airplane with none.

    ``terrain`` is an argument so that numba drops the terrain's branch when compiling for the plane
    (its dead-branch pruning resolves ``x is None`` on a function's own arguments only).
    """
    if params.gear_positions.shape[0] == 0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    if terrain is None:
        return contact_loads(y, params.gear_positions, params.gear, params.gear_refs, params.gear_reach,
                             params.gear_diag, params.gear_anchor, params.controls, qw, qx, qy, qz, inv)
    return terrain_contact_loads(y, params.gear_positions, params.gear, params.gear_refs, params.gear_reach,
                                 params.gear_diag, params.gear_anchor, params.controls, qw, qx, qy, qz, inv, terrain)


@borrowing_inline_jit
def contact_loads(y, r, g, refs, reach, out, anchor, controls, qw, qx, qy, qz, inv):
    """Ground reaction of the contact points (the ``gear*`` fields of
    :class:`~flightsim.physics.aero.LoadParams`) at state ``y``.

    The ground is the plane z = 0 (normal earth +z).  For each contact point
    at body position r (relative to the CG) that lies below it:

    1. depth ``c = −(z + (R r)_z)`` and its rate ``ċ = −v_z`` of the point
       (``v + R(ω × r)``), taken where it meets the ground, ``r + c R⁻¹ẑ``;
    2. normal force ``N = max(0, k c + b ċ)`` along earth +z (spring and
       damper; the ground pushes, never pulls);
    3. a wheel rubs in the ground plane along its heading (body x turned by
       the steering angle ``−rudder × steering``, projected on the ground)
       with ``μ_x = rolling + brake (braked − rolling)`` (brake from
       :func:`wheel_brake`) and across it with
       the static coefficient: ``F = −μ N tanh(v_slip / v₀)`` with
       ``v₀ =`` :data:`SLIP_SPEED` along and ``max(SLIP_SPEED, |v_roll| SLIP_TAN)``
       across (a tyre's slip angle), the sum kept inside the friction circle
       ``max(μ) N``; a hard point rubs in every direction with its static
       coefficient;
    4. the force acts at the contact: its moment about the CG is
       ``r × R⁻¹F`` (body frame).

    Friction is a smooth function of the slip speed, linear through zero,
    so a wheel at rest does not chatter from one step to the next; the model follows JSBSim's
    FGLGear (spring-damper strut, rolling/braking/side coefficients) without
    its Lagrange-multiplier friction solve.

    Parameters
    ----------
    y : numpy.ndarray
        The 13-number state.
    r, g, refs, reach, out, anchor, controls
        The :class:`~flightsim.physics.aero.LoadParams` fields ``gear_positions``, ``gear``,
        ``gear_refs``, ``gear_reach``, ``gear_diag``, ``gear_anchor``,
        ``controls`` (passed one by one: cheaper than the whole tuple).
    qw, qx, qy, qz : float
        ``y``'s quaternion (maybe not of unit length) and ``inv = 1 / |q|²``.

    Returns
    -------
    tuple
        ``(fx, fy, fz)`` earth-frame force (lbf), ``(mx, my, mz)`` body-frame
        moment about the CG (ft·lbf), and whether any point touches.  Writes
        ``gear_diag`` (``GD_*`` per point; zeros for those clear of the ground).

    Written into its compiled caller (numba's ``inline="always"``): with the CG higher than ``reach`` (in the air)
    it costs no call; lower, :func:`ground_loads` works out the contacts.
    """
    n = r.shape[0]
    for k in range(n):
        out[k, GD_DEPTH] = 0.0
        out[k, GD_RATE] = 0.0
        out[k, GD_LOAD] = 0.0
    if y[2] > reach:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    return ground_loads(y, r, g, refs, out, anchor, controls, qw, qx, qy, qz, inv)


@borrowing_jit
def ground_loads(y, r, g, refs, out, anchor, controls, qw, qx, qy, qz, inv):
    """:func:`contact_loads` with the CG within reach of the ground (``out``, the diagnostics, zeroed)."""
    fx = fy = fz = 0.0
    mx = my = mz = 0.0
    n = r.shape[0]
    # Rotation body → earth for a quaternion of any length.
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = matrix_entries(qw, qx, qy, qz, inv)
    wx, wy, wz = y[10], y[11], y[12]
    touching = False
    for k in range(n):
        depth = -(y[2] + r20 * r[k, 0] + r21 * r[k, 1] + r22 * r[k, 2])
        if depth <= 0.0:
            continue
        touching = True
        # Where the point meets the ground: moved up by the depth (earth +z, in body axes the third row of R).
        rx = r[k, 0] + depth * r20
        ry = r[k, 1] + depth * r21
        rz = r[k, 2] + depth * r22
        cx, cy, cz = wy * rz - wz * ry, wz * rx - wx * rz, wx * ry - wy * rx
        vx = y[3] + r00 * cx + r01 * cy + r02 * cz
        vy = y[4] + r10 * cx + r11 * cy + r12 * cz
        vz = y[5] + r20 * cx + r21 * cy + r22 * cz
        rate = -vz
        normal = g[k, G_STIFFNESS] * depth + g[k, G_DAMPING] * rate
        if normal < 0.0:
            normal = 0.0
        out[k, GD_DEPTH] = depth
        out[k, GD_RATE] = rate
        out[k, GD_LOAD] = normal
        ex = ey = 0.0
        if refs[k, R_KIND] == GEAR_WHEEL:
            steer = -controls[C_RUDDER] * g[k, G_STEER]
            cs, sn = math.cos(steer), math.sin(steer)
            hx = r00 * cs + r01 * sn
            hy = r10 * cs + r11 * sn
            hl = math.sqrt(hx * hx + hy * hy)
            if hl > 1e-9:
                hx /= hl
                hy /= hl
                sx, sy = -hy, hx                      # left of the heading, in the ground plane
                v_roll = vx * hx + vy * hy
                v_side = vx * sx + vy * sy
                brake = wheel_brake(controls, refs[k, R_BRAKE])
                held = anchor[k, A_ON] > 0.5 and brake > 0.0
                give = 0.0
                if held:
                    # Held: a spring to the anchor (and the slip damper), up to full braking.
                    px = y[0] + r00 * rx + r01 * ry + r02 * rz
                    py = y[1] + r10 * rx + r11 * ry + r12 * rz
                    give = ((px - anchor[k, A_X]) * hx + (py - anchor[k, A_Y]) * hy) / HOLD_DISTANCE
                f_roll, f_side = tyre_forces(g, k, brake, normal, v_roll, v_side, held, give)
                ex = f_roll * hx + f_side * sx
                ey = f_roll * hy + f_side * sy
        else:
            slip = math.sqrt(vx * vx + vy * vy)
            if slip > 0.0:
                f = -g[k, G_STATIC] * normal * math.tanh(slip / SLIP_SPEED) / slip
                ex = f * vx
                ey = f * vy
        fx += ex
        fy += ey
        fz += normal
        # The force in body axes (Rᵀ F) and its moment about the CG.
        bx = r00 * ex + r10 * ey + r20 * normal
        by = r01 * ex + r11 * ey + r21 * normal
        bz = r02 * ex + r12 * ey + r22 * normal
        mx += ry * bz - rz * by
        my += rz * bx - rx * bz
        mz += rx * by - ry * bx
    return fx, fy, fz, mx, my, mz, touching


@borrowing_jit
def tyre_forces(g, k, brake, normal, v_roll, v_side, held, give):
    """Wheel ``k``'s friction along its heading and across it, ``(f_roll, f_side)`` (lbf), for the ``normal``
    load, the contact point's rolling and side speeds and the brake: rolling friction rising to the brake's
    with ``brake``, ``−μ N tanh(v / v₀)`` each way (:func:`contact_loads`' law), or when ``held`` by the brakes
    a spring of ``give`` (the distance from its anchor over :data:`HOLD_DISTANCE`) with the slip damper, up to
    full braking; the two together at most ``max(μ_roll, μ_side) N``.  The plane's contact and the terrain's
    (:func:`terrain_contact_loads`) share it."""
    mu_roll = g[k, G_ROLLING] + brake * (g[k, G_BRAKE] - g[k, G_ROLLING])
    mu_side = g[k, G_STATIC]
    if held:
        f_roll = -mu_roll * normal * min(max(give + v_roll / SLIP_SPEED, -1.0), 1.0)
    else:
        f_roll = -mu_roll * normal * math.tanh(v_roll / SLIP_SPEED)
    f_side = -mu_side * normal * math.tanh(v_side / max(SLIP_SPEED, abs(v_roll) * SLIP_TAN))
    limit = max(mu_roll, mu_side) * normal
    total = math.sqrt(f_roll * f_roll + f_side * f_side)
    if total > limit:
        f_roll *= limit / total
        f_side *= limit / total
    return f_roll, f_side


@borrowing_jit
def terrain_contact_loads(y, r, g, refs, reach, out, anchor, controls, qw, qx, qy, qz, inv, terrain):
    """:func:`contact_loads` on the packed terrain's surface (:mod:`flightsim.physics.terrain`) instead of the
    plane z = 0.

    For each contact point at earth position p, the surface under it (its height h at p's x, y and slopes,
    :func:`~flightsim.physics.terrain.terrain_height`) is taken as the plane through that point with the
    upward normal ``n = (−∂h/∂x, −∂h/∂y, 1)/L``, ``L = √(1 + ∂h/∂x² + ∂h/∂y²)``; then as on the plane, along
    n: the depth ``c = (h − p_z)/L`` (along the normal), its rate ``ċ = −v·n`` at the point where it meets the
    surface (``p + c n``), the normal force ``N = max(0, k c + b ċ)`` along n, and the friction in the
    surface's plane: a wheel along its heading projected on the plane (and across it, ``n × heading``), a
    hard point against its slip (the velocity less its normal part).  The braked wheels' hold
    (``gear_anchor``) measures the give along the heading's horizontal direction, as
    :func:`hold_brakes` does.  On a flat patch (slopes 0) this is :func:`contact_loads` with the ground at h.

    Returns
    -------
    tuple
        As :func:`contact_loads`: ``(fx, fy, fz)`` earth-frame force (lbf), ``(mx, my, mz)`` body-frame
        moment about the CG (ft·lbf), whether any point touches; writes ``gear_diag``.
    """
    fx = fy = fz = 0.0
    mx = my = mz = 0.0
    n = r.shape[0]
    for k in range(n):
        out[k, GD_DEPTH] = 0.0
        out[k, GD_RATE] = 0.0
        out[k, GD_LOAD] = 0.0
    if terrain_clearance_bound(terrain, y[0], y[1], y[2], reach):
        return fx, fy, fz, mx, my, mz, False
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = matrix_entries(qw, qx, qy, qz, inv)
    wx, wy, wz = y[10], y[11], y[12]
    touching = False
    for k in range(n):
        px = y[0] + r00 * r[k, 0] + r01 * r[k, 1] + r02 * r[k, 2]
        py = y[1] + r10 * r[k, 0] + r11 * r[k, 1] + r12 * r[k, 2]
        pz = y[2] + r20 * r[k, 0] + r21 * r[k, 1] + r22 * r[k, 2]
        h, dhx, dhy = terrain_height(terrain, px, py)
        if pz >= h:
            continue
        scale = 1.0 / math.sqrt(1.0 + dhx * dhx + dhy * dhy)
        nx, ny, nz = -dhx * scale, -dhy * scale, scale
        depth = (h - pz) * scale
        touching = True
        # Where the point meets the surface: moved along the normal by the depth (in body axes Rᵀ n).
        rx = r[k, 0] + depth * (r00 * nx + r10 * ny + r20 * nz)
        ry = r[k, 1] + depth * (r01 * nx + r11 * ny + r21 * nz)
        rz = r[k, 2] + depth * (r02 * nx + r12 * ny + r22 * nz)
        cx, cy, cz = wy * rz - wz * ry, wz * rx - wx * rz, wx * ry - wy * rx
        vx = y[3] + r00 * cx + r01 * cy + r02 * cz
        vy = y[4] + r10 * cx + r11 * cy + r12 * cz
        vz = y[5] + r20 * cx + r21 * cy + r22 * cz
        vn = vx * nx + vy * ny + vz * nz
        rate = -vn
        normal = g[k, G_STIFFNESS] * depth + g[k, G_DAMPING] * rate
        if normal < 0.0:
            normal = 0.0
        out[k, GD_DEPTH] = depth
        out[k, GD_RATE] = rate
        out[k, GD_LOAD] = normal
        ex = ey = ez = 0.0
        if refs[k, R_KIND] == GEAR_WHEEL:
            steer = -controls[C_RUDDER] * g[k, G_STEER]
            cs, sn = math.cos(steer), math.sin(steer)
            ax = r00 * cs + r01 * sn
            ay = r10 * cs + r11 * sn
            az = r20 * cs + r21 * sn
            along = ax * nx + ay * ny + az * nz         # the heading projected on the surface's plane
            hx, hy, hz = ax - along * nx, ay - along * ny, az - along * nz
            hl = math.sqrt(hx * hx + hy * hy + hz * hz)
            if hl > 1e-9:
                hx /= hl
                hy /= hl
                hz /= hl
                sx, sy, sz = ny * hz - nz * hy, nz * hx - nx * hz, nx * hy - ny * hx   # n × heading: left of it
                v_roll = vx * hx + vy * hy + vz * hz
                v_side = vx * sx + vy * sy + vz * sz
                brake = wheel_brake(controls, refs[k, R_BRAKE])
                held = anchor[k, A_ON] > 0.5 and brake > 0.0
                give = 0.0
                if held:
                    # Held: a spring to the anchor along the heading's horizontal direction, up to full braking.
                    ql = math.sqrt(ax * ax + ay * ay)
                    qx_, qy_ = (ax / ql, ay / ql) if ql > 1e-9 else (hx, hy)
                    cpx = y[0] + r00 * rx + r01 * ry + r02 * rz
                    cpy = y[1] + r10 * rx + r11 * ry + r12 * rz
                    give = ((cpx - anchor[k, A_X]) * qx_ + (cpy - anchor[k, A_Y]) * qy_) / HOLD_DISTANCE
                f_roll, f_side = tyre_forces(g, k, brake, normal, v_roll, v_side, held, give)
                ex = f_roll * hx + f_side * sx
                ey = f_roll * hy + f_side * sy
                ez = f_roll * hz + f_side * sz
        else:
            tx, ty, tz = vx - vn * nx, vy - vn * ny, vz - vn * nz
            slip = math.sqrt(tx * tx + ty * ty + tz * tz)
            if slip > 0.0:
                f = -g[k, G_STATIC] * normal * math.tanh(slip / SLIP_SPEED) / slip
                ex = f * tx
                ey = f * ty
                ez = f * tz
        ex += normal * nx
        ey += normal * ny
        ez += normal * nz
        fx += ex
        fy += ey
        fz += ez
        bx = r00 * ex + r10 * ey + r20 * ez
        by = r01 * ex + r11 * ey + r21 * ez
        bz = r02 * ex + r12 * ey + r22 * ez
        mx += ry * bz - rz * by
        my += rz * bx - rx * bz
        mz += rx * by - ry * bx
    return fx, fy, fz, mx, my, mz, touching


@borrowing_jit
def hold_brakes(y, params):
    """Between two steps: tie each braked wheel at rest to the ground, or let it slide on.

    For each wheel with a brake that touches the ground (per the last loads
    evaluation, ``gear_diag``) and is braked (:func:`wheel_brake` > 0): a
    wheel not yet holding starts holding where it is if it rolls slower than
    :data:`SLIP_SPEED`; a holding wheel dragged farther than
    :data:`HOLD_DISTANCE` from its anchor moves the anchor along (it
    slides at full braking).  A wheel that leaves the ground, or whose brake
    is released, lets go.  Writes ``params.gear_anchor``.
    """
    r, refs, diag, anchor = params.gear_positions, params.gear_refs, params.gear_diag, params.gear_anchor
    controls, g = params.controls, params.gear
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
    r00, r01, r02, r10, r11, r12, _, _, _ = matrix_entries(qw, qx, qy, qz, inv)
    wx, wy, wz = y[10], y[11], y[12]
    for k in range(r.shape[0]):
        if refs[k, R_KIND] != GEAR_WHEEL or diag[k, GD_DEPTH] <= 0.0 or wheel_brake(controls, refs[k, R_BRAKE]) <= 0.0:
            anchor[k, A_ON] = 0.0
            continue
        rx, ry, rz = r[k, 0], r[k, 1], r[k, 2]
        px = y[0] + r00 * rx + r01 * ry + r02 * rz
        py = y[1] + r10 * rx + r11 * ry + r12 * rz
        steer = -controls[C_RUDDER] * g[k, G_STEER]
        cs, sn = math.cos(steer), math.sin(steer)
        hx = r00 * cs + r01 * sn
        hy = r10 * cs + r11 * sn
        hl = math.sqrt(hx * hx + hy * hy)
        if hl <= 1e-9:
            anchor[k, A_ON] = 0.0
            continue
        hx /= hl
        hy /= hl
        if anchor[k, A_ON] <= 0.5:
            cx, cy = wy * rz - wz * ry, wz * rx - wx * rz
            cz = wx * ry - wy * rx
            v_roll = (y[3] + r00 * cx + r01 * cy + r02 * cz) * hx + (y[4] + r10 * cx + r11 * cy + r12 * cz) * hy
            if abs(v_roll) < SLIP_SPEED:
                anchor[k, A_X], anchor[k, A_Y], anchor[k, A_ON] = px, py, 1.0
            continue
        d = (px - anchor[k, A_X]) * hx + (py - anchor[k, A_Y]) * hy
        d = min(max(d, -HOLD_DISTANCE), HOLD_DISTANCE)
        anchor[k, A_X] = px - d * hx                   # kept on the wheel's line, at most the give away
        anchor[k, A_Y] = py - d * hy

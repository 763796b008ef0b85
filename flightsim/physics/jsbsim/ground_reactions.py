"""A JSBSim aircraft's ground reactions as JSBSim computes them: FGLGear, FGGroundReactions and the friction solve
of FGAccelerations.

Per contact (``<ground_reactions>/<contact>``, a row of ``jsb_contacts``, :data:`CONTACT_COLUMNS`), as
``FGLGear::GetBodyForces``:

* the height of the point (the leg extended) above the ground — the plane z = 0, or the packed terrain's surface
  under it — and, below it, the compression along the strut (BOGEY: the height over the strut's projection on
  the ground's normal) or along the ground's normal (STRUCTURE); the contact point moved by it;
* the compression speed: the contact point's velocity along the normal (a BOGEY's over the projection), at most
  the compression over the step (a leg meeting the ground within it), zero while settling (JSBSim's trim);
* the strut force: spring and damper (linear, or SQUARE: the speed squared), the rebound's own damper, never
  pulling; or the aircraft's ``<strut_force><function>`` (compiled at the end of the aerodynamics' program, which
  runs between :func:`contacts_geometry`, writing ``gear/unit[k]/compression-ft`` and
  ``…/compression-velocity-fps``, and :func:`ground_reactions`, reading its value);
* the ground frame (the wheel's heading, turned by its steering — the command times ``max_steer``, or what the
  flight controls write into ``fcs/steer-pos-deg[k]``, or a castering wheel's own slip — projected on the ground,
  the side, the normal), the slip angle, the braking coefficient (rolling friction plus the brake group's command
  times static less rolling) and the side coefficient (Pacejka's formula: stiffness 0.06, shape 2.8, peak the
  static friction, curvature 1.03);
* the friction's Lagrange multipliers: a STRUCTURE point sliding faster than 10⁻³ ft/s rubs against its slip with
  its dynamic coefficient, every other contact holds along its heading (up to the braking coefficient times the
  normal force) and across it (up to the side coefficient's).

Then the friction, as ``FGAccelerations::CalculateFrictionForces``: the multipliers that make the contact points'
accelerations cancel their velocities over the step, given the accelerations of every other load (the
aerodynamics, the engines, the external forces, gravity and the normal forces), the mass and the inertia, by the
projected Gauss–Seidel method (:data:`ITERATIONS`, :data:`TOLERANCE`), each multiplier kept from the evaluation
before as the start (JSBSim keeps them from the frame before).

flightsim evaluates the loads at every integrator stage, so this runs there (JSBSim's once a frame); what JSBSim
changes once a frame (a wheel spinning down off the ground, the steering command) changes once a step
(:func:`contacts_frame`).

Frames: JSBSim's body axes (x forward, y right, z down) and its local North-East-Down; the state is flightsim's
(earth x North, y West, z up; body x forward, y left, z up), turned at the entry.  Units: ft, s, lbf, slug.
"""

from __future__ import annotations

import math

from flightsim.math.compiler import borrowing_entry_jit, borrowing_jit
from flightsim.math.kernels import matrix_entries
from flightsim.physics.gear import GD_DEPTH, GD_LOAD, GD_RATE
from flightsim.physics.jsbsim.native import call_block
from flightsim.physics.terrain import terrain_height

__all__ = ["CONTACT_COLUMNS", "CONTACT_FIELDS", "ITERATIONS", "STRUT_FORCE", "TOLERANCE", "contacts_frame",
           "contacts_geometry", "ground_reactions", "ground_reactions_at", "state_size", "steering_after_fcs"]

#: Columns of ``jsb_contacts``, one row per contact in file order (FGLGear's ``GearNumber``): the slots of its
#: ``…/WOW`` and ``…/wheel-speed-fps`` (−1: none reads it), its row in flightsim's gear (wheels first), its kind
#: (:data:`BOGEY`, :data:`STRUCTURE`), its location relative to the CG (JSBSim's body frame, ft, 3), the spring
#: (lbf/ft), the damper and whether it is SQUARE (lbf·s/ft or lbf·s²/ft², 1), the rebound's damper and whether it
#: is SQUARE, the static, dynamic and rolling friction coefficients, ``max_steer`` (deg), the steering's kind
#: (:data:`FIXED`, :data:`STEERED`, :data:`CASTERED`), the slot of its brake group's command (−1: none), whether it
#: retracts, the slot of ``gear/unit[k]/pos-norm`` (−1: none), of ``fcs/steer-pos-deg[k]`` where the flight
#: controls write it (−1: none), of its ``<strut_force>`` function's value (:data:`STRUT_FORCE`; −1: none), of its
#: ``…/compression-ft`` and ``…/compression-velocity-fps`` (−1: nothing reads them), and the strut's orientation
#: ``mTGear`` (row by row, 9).
CONTACT_COLUMNS = ("wow_slot", "wheel_speed_slot", "gear_row", "kind", "x", "y", "z", "spring", "damping",
                   "damping_square", "rebound", "rebound_square", "static", "dynamic", "rolling", "max_steer",
                   "steering", "brake_slot", "retractable", "unit_position_slot", "steer_position_slot",
                   "strut_slot", "compression_slot", "compression_speed_slot",
                   "t00", "t01", "t02", "t10", "t11", "t12", "t20", "t21", "t22")
(C_WOW_SLOT, C_WHEEL_SPEED_SLOT, C_GEAR_ROW, C_KIND, C_X, C_Y, C_Z, C_SPRING, C_DAMPING, C_DAMPING_SQUARE,
 C_REBOUND, C_REBOUND_SQUARE, C_STATIC, C_DYNAMIC, C_ROLLING, C_MAX_STEER, C_STEERING, C_BRAKE_SLOT, C_RETRACTABLE,
 C_UNIT_POSITION_SLOT, C_STEER_POSITION_SLOT, C_STRUT_SLOT, C_COMPRESSION_SLOT, C_COMPRESSION_SPEED_SLOT,
 C_T) = range(25)
BOGEY, STRUCTURE = 0, 1
FIXED, STEERED, CASTERED = 0, 1, 2

#: Entries per contact of its state in ``jsb_last`` (after the loads' own, from ``loads.LAST_FIELDS``): the steering
#: angle (rad), the slip angle (deg), the compression (ft) and its speed (ft/s), weight on it (0/1), the wheel's
#: velocity in the strut's axes (x, y; ft/s), whether the flight controls' gear position took over (FGLGear's
#: ``useFCSGearPos``), the three multipliers (roll, side, dynamic; lbf), whether it holds (static friction) and the
#: normal force (lbf, ``vFn(eZ)``); then what the solve reads: the multipliers' directions (3 × 3, body), the lever
#: arm (3), their bounds (3 lower, 3 upper), how many it registered (0, 1 dynamic, 2 roll and side), and the height
#: above the ground (ft).
(S_STEER, S_SLIP, S_COMPRESS, S_COMPRESS_SPEED, S_WOW, S_WHEEL_X, S_WHEEL_Y, S_USE_FCS, S_LAMBDA, _L1, _L2, S_STATIC,
 S_NORMAL, S_U, _U1, _U2, _U3, _U4, _U5, _U6, _U7, _U8, S_ARM, _A1, _A2, S_MIN, _N1, _N2, S_MAX, _X1, _X2, S_COUNT,
 S_HEIGHT) = range(33)
CONTACT_FIELDS = 33
#: Where a contact's ``<strut_force><function>`` value goes (``{unit}`` its ``gear/unit[k]``): the aerodynamics'
#: program computes it (after the block's own functions), from the compression written before it runs.
STRUT_FORCE = "flightsim/{unit}/strut-force-lbs"
#: The multipliers: along the heading, across it, against a sliding point's slip.
ROLL, SIDE, DYNAMIC = 0, 1, 2
#: FGAccelerations::CalculateFrictionForces: at most this many projected Gauss–Seidel sweeps, stopping once the
#: sum of the multipliers' changes over one is below the tolerance (lbf, scaled by the diagonal).
ITERATIONS, TOLERANCE = 50, 1e-5
#: FGLGear's Pacejka terms (stiffness, shape, curvature; the peak is the static friction coefficient).
STIFFNESS, SHAPE, CURVATURE = 0.06, 2.8, 1.03
#: JSBSim's ``radtodeg``, ``degtorad``.
RADTODEG = 57.295779513082320876798154814105
DEGTORAD = 0.017453292519943295769236907684886
#: A wheel off the ground spins down at this rate (ft/s²).
WHEEL_SPIN_DOWN = 13.0
#: Where ``jsb_scalars`` holds the inertia tensor about the CG and its inverse (JSBSim's body frame, slug·ft², row
#: by row, 9 each; ``loads.J_INERTIA``).
J_INERTIA = 34


@borrowing_jit
def _gear_position(row, state, props, fcs_position):
    """FGLGear::GetGearUnitPos: the flight controls' ``gear/gear-pos-norm`` once it has been other than 1 (and from
    then on), else the unit's own ``gear/unit[k]/pos-norm`` (1 where nothing writes it)."""
    if state[S_USE_FCS] != 0.0 or fcs_position != 1.0:
        state[S_USE_FCS] = 1.0
        return fcs_position
    slot = int(row[C_UNIT_POSITION_SLOT])
    return props[slot] if slot >= 0 else 1.0


@borrowing_jit
def _strut(row, state, props):
    """FGLGear::ComputeVerticalStrutForce's strut force (≤ 0, lbf, along the strut)."""
    if row[C_STRUT_SLOT] >= 0:
        return min(props[int(row[C_STRUT_SLOT])], 0.0)
    c, s = state[S_COMPRESS], state[S_COMPRESS_SPEED]
    spring = -c * row[C_SPRING]
    if s >= 0.0:
        damp = -s * row[C_DAMPING] if row[C_DAMPING_SQUARE] == 0.0 else -s * s * row[C_DAMPING]
    else:
        damp = -s * row[C_REBOUND] if row[C_REBOUND_SQUARE] == 0.0 else s * s * row[C_REBOUND]
    return min(spring + damp, 0.0)


@borrowing_jit
def _register(state, m, ux, uy, uz, lo, hi):
    """Multiplier ``m`` of a contact: its direction (body) and bounds, its value kept from before within them."""
    state[S_U + 3 * m], state[S_U + 3 * m + 1], state[S_U + 3 * m + 2] = ux, uy, uz
    state[S_MIN + m], state[S_MAX + m] = lo, hi
    v = state[S_LAMBDA + m]
    state[S_LAMBDA + m] = lo if v < lo else (hi if v > hi else v)     # (FGJSBBase::Constrain)


@borrowing_jit
def _contact(row, state, props, t, h_cg, y, terrain, heights, k, u, v, w, p, q, r, fcs_position):
    """FGLGear::GetBodyForces up to the strut force: the contact's geometry, compression and its speed, written into
    ``state``; returns ``(touching, gx, gy, gz, cx, cy, cz, wx, wy, wz, projection)``: the ground's normal (body),
    the contact point (body, ft) and its velocity (body, ft/s), and the strut's projection on the normal."""
    t00, t01, t02, t10, t11, t12, t20, t21, t22 = t
    rx, ry, rz = row[C_X], row[C_Y], row[C_Z]
    lx = t00 * rx + t01 * ry + t02 * rz                   # vLocalGear = Tb2l · r (NED)
    ly = t10 * rx + t11 * ry + t12 * rz
    lz = t20 * rx + t21 * ry + t22 * rz
    # the ground under the point: its height above it and the normal (up, NED)
    nn, ne, nd = 0.0, 0.0, -1.0
    if heights is not None:
        height = heights[k]
    elif terrain is None:
        height = h_cg - lz
    else:
        ground, dhx, dhy = terrain_height(terrain, y[0] + lx, y[1] - ly)
        height = h_cg - lz - ground
        scale = 1.0 / math.sqrt(1.0 + dhx * dhx + dhy * dhy)
        nn, ne, nd = -dhx * scale, dhy * scale, -scale     # (earth (−∂h/∂x, −∂h/∂y, 1)/L in NED)
    state[S_HEIGHT] = height
    gear_position = _gear_position(row, state, props, fcs_position) if row[C_RETRACTABLE] != 0.0 else 1.0
    if gear_position > 0.99 and height < 0.0:
        # vGroundNormal = Tl2b · normal
        gx = t00 * nn + t10 * ne + t20 * nd
        gy = t01 * nn + t11 * ne + t21 * nd
        gz = t02 * nn + t12 * ne + t22 * nd
        m = row[C_T:C_T + 9]
        projection = -(m[2] * gx + m[5] * gy + m[8] * gz)  # LGearProj = −(mTGearᵀ · vGroundNormal)_z
        normal_z = nd
        if row[C_KIND] == BOGEY:
            compress = height * normal_z / projection if projection > 0.0 else 0.0
            dx, dy, dz = -m[2] * compress, -m[5] * compress, -m[8] * compress
        else:
            compress = height * normal_z / (nn * nn + ne * ne + nd * nd)
            dx, dy, dz = compress * gx, compress * gy, compress * gz
        state[S_COMPRESS] = compress
        cx, cy, cz = rx + dx, ry + dy, rz + dz
        wx = q * cz - r * cy + u                           # PQR × contact + UVW (the ground at rest)
        wy = r * cx - p * cz + v
        wz = p * cy - q * cx + w
        return True, gx, gy, gz, cx, cy, cz, wx, wy, wz, projection
    state[S_COMPRESS] = 0.0
    state[S_COMPRESS_SPEED] = 0.0
    state[S_SLIP] = 0.0
    state[S_LAMBDA] = state[S_LAMBDA + 1] = state[S_LAMBDA + 2] = 0.0
    state[S_NORMAL] = 0.0
    state[S_COUNT] = 0.0
    state[S_WOW] = 0.0
    state[S_STEER] *= max(gear_position - 0.8, 0.0) / 0.2
    return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0


@borrowing_jit
def _ground_frame(row, state, gx, gy, gz):
    """FGLGear::ComputeGroundFrame: the heading turned by the steering and projected on the ground, the side
    (normal × heading), both unit (body)."""
    m = row[C_T:C_T + 9]
    cs, sn = math.cos(state[S_STEER]), math.sin(state[S_STEER])
    ax = m[0] * cs + m[1] * sn
    ay = m[3] * cs + m[4] * sn
    az = m[6] * cs + m[7] * sn
    sx, sy, sz = gy * az - gz * ay, gz * ax - gx * az, gx * ay - gy * ax
    d = ax * gx + ay * gy + az * gz
    ax, ay, az = ax - d * gx, ay - d * gy, az - d * gz
    a = math.sqrt(ax * ax + ay * ay + az * az)
    if a != 0.0:
        ax, ay, az = ax / a, ay / a, az / a
    s = math.sqrt(sx * sx + sy * sy + sz * sz)
    if s != 0.0:
        sx, sy, sz = sx / s, sy / s, sz / s
    return ax, ay, az, sx, sy, sz


@borrowing_jit
def _friction(row, state, props, gx, gy, gz, wx, wy, wz, normal):
    """FGLGear's slip angle, braking and side coefficients and ComputeJacobian: the contact's multipliers
    registered in ``state`` (directions body, bounds lbf)."""
    kind = row[C_KIND]
    ax, ay, az, sx, sy, sz = _ground_frame(row, state, gx, gy, gz)
    vx = ax * wx + ay * wy + az * wz                       # vGroundWhlVel = mTᵀ · velocity
    vy = sx * wx + sy * wy + sz * wz
    speed = math.sqrt(vx * vx + vy * vy)
    brake = side = 0.0
    if kind == BOGEY:
        if speed > 1e-3:
            state[S_SLIP] = -math.atan2(vy, abs(vx)) * RADTODEG
        brake = row[C_ROLLING]
        slot = int(row[C_BRAKE_SLOT])
        if slot >= 0:
            brake += props[slot] * (row[C_STATIC] - row[C_ROLLING])
        stiff = STIFFNESS * state[S_SLIP]
        side = row[C_STATIC] * math.sin(SHAPE * math.atan(stiff - CURVATURE * (stiff - math.atan(stiff))))
    if kind == STRUCTURE and speed > 1e-3:
        state[S_STATIC] = 0.0
        ux, uy = vx / speed, vy / speed
        _register(state, DYNAMIC, ax * ux + sx * uy, ay * ux + sy * uy, az * ux + sz * uy,
                  -abs(row[C_DYNAMIC] * normal), 0.0)
        state[S_COUNT] = 1.0
    else:
        state[S_STATIC] = 1.0
        if kind == BOGEY:
            roll_max, side_max = abs(brake * normal), abs(side * normal)
        else:
            roll_max = side_max = abs(row[C_STATIC] * normal)
        _register(state, ROLL, ax, ay, az, -roll_max, roll_max)
        _register(state, SIDE, sx, sy, sz, -side_max, side_max)
        state[S_COUNT] = 2.0


@borrowing_jit
def _body(y):
    """JSBSim's Tb2l (``D R D``, D = diag(1, −1, −1), row by row), the body velocity relative to the ground and the
    body rates (JSBSim's axes) of flightsim's state ``y``."""
    qw, qx, qy, qz = y[6], y[7], y[8], y[9]
    inv = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = matrix_entries(qw, qx, qy, qz, inv)
    t = (r00, -r01, -r02, -r10, r11, r12, -r20, r21, r22)
    u = r00 * y[3] + r10 * y[4] + r20 * y[5]
    v = -(r01 * y[3] + r11 * y[4] + r21 * y[5])
    w = -(r02 * y[3] + r12 * y[4] + r22 * y[5])
    return t, u, v, w, y[10], -y[11], -y[12]


@borrowing_jit
def contacts_geometry(y, params, terrain, base, dt, settle, fcs_position, heights):
    """The first half of the ground reactions at state ``y`` (FGLGear::GetBodyForces up to the strut force): each
    contact's height, weight on it, compression and its speed, contact point and velocity, into its state in
    ``jsb_last`` (from ``base``), and ``…/compression-ft``, ``…/compression-velocity-fps`` where read (a strut
    force function's: the aerodynamics' program computes it next).

    ``terrain`` is ``params.terrain`` (an argument so that numba drops the terrain's branch on the plane);
    ``dt``: the step (s); ``settle``: a steady state sought (no compression speed: JSBSim's trim);
    ``fcs_position``: ``gear/gear-pos-norm``; ``heights``: None (the contacts' heights above the ground from the
    state), or each contact's given (a replay's: JSBSim's own, from its round planet).  Returns whether any
    contact touches.
    """
    rows, props, last = params.jsb_contacts, params.jsb_props, params.jsb_last
    n = rows.shape[0]
    t, u, v, w, p, q, r = _body(y)
    touching = False
    for k in range(n):
        row, state = rows[k], last[base + k * CONTACT_FIELDS:base + (k + 1) * CONTACT_FIELDS]
        on, gx, gy, gz, cx, cy, cz, wx, wy, wz, projection = _contact(row, state, props, t, y[2], y, terrain,
                                                                      heights, k, u, v, w, p, q, r, fcs_position)
        state[S_WOW] = 1.0 if on else 0.0
        if on:
            touching = True
            state[S_ARM], state[S_ARM + 1], state[S_ARM + 2] = cx, cy, cz
            state[S_U + 6], state[S_U + 7], state[S_U + 8] = gx, gy, gz    # (the normal, until the friction's)
            ms = row[C_T:C_T + 9]
            state[S_WHEEL_X] = ms[0] * wx + ms[3] * wy + ms[6] * wz      # vWhlVelVec = mTGearᵀ · velocity
            state[S_WHEEL_Y] = ms[1] * wx + ms[4] * wy + ms[7] * wz
            if row[C_STEERING] == CASTERED:
                if math.sqrt(state[S_WHEEL_X] ** 2 + state[S_WHEEL_Y] ** 2) > 0.1:
                    state[S_STEER] = math.atan2(state[S_WHEEL_Y], abs(state[S_WHEEL_X]))
            if settle:
                speed = 0.0
            else:
                speed = -(gx * wx + gy * wy + gz * wz)
                if row[C_KIND] == BOGEY:
                    speed /= projection
                limit = state[S_COMPRESS] / dt
                if abs(speed) > limit:
                    speed = math.copysign(limit, speed)
            state[S_COMPRESS_SPEED] = speed
            # (the velocity kept for the friction: in the spare multiplier slots until then)
            state[S_MIN], state[S_MIN + 1], state[S_MIN + 2] = wx, wy, wz
        slot = int(row[C_COMPRESSION_SLOT])
        if slot >= 0:
            props[slot] = state[S_COMPRESS]
        slot = int(row[C_COMPRESSION_SPEED_SLOT])
        if slot >= 0:
            props[slot] = state[S_COMPRESS_SPEED]
    return touching


@borrowing_jit
def ground_reactions(y, params, fx, fy, fz, ml, mm, mn, base, dt, settle):
    """The ground reactions of a JSBSim aircraft at state ``y`` (flightsim's, at an integrator stage), after
    :func:`contacts_geometry` (and the strut force functions): every contact's strut force along the ground's
    normal and the friction that the Lagrange multipliers give.

    ``fx``, ``fy``, ``fz``, ``ml``, ``mm``, ``mn`` are the other loads (the aerodynamics', the engines', the
    external forces'; JSBSim's body frame about the CG, lbf, lbf·ft): with gravity, the mass and inertia
    (``jsb_scalars``) they give the accelerations the friction cancels.  ``base``: where the contacts' states
    start in ``jsb_last``; ``dt``: the step (s); ``settle``: a steady state sought (no velocity cancelled: JSBSim's
    trim).

    Writes each contact's state (``jsb_last``) and ``gear_diag`` (the height below the ground, ft; the
    compression speed, ft/s; the normal force, lbf).

    Returns
    -------
    tuple
        The gear's force and moment about the CG (JSBSim's body frame, lbf and lbf·ft: ``forces/fb[xyz]-gear-lbs``,
        ``moments/[lmn]-gear-lbsft``) and whether any contact touches.
    """
    rows, props, s, last = params.jsb_contacts, params.jsb_props, params.jsb_scalars, params.jsb_last
    n = rows.shape[0]
    t, u, v, w, p, q, r = _body(y)
    diag = params.gear_diag
    touching = False
    # 2. strut forces, friction bounds and directions
    nx = ny = nz = nl = nm = nn = 0.0
    count = 0
    for k in range(n):
        row, state = rows[k], last[base + k * CONTACT_FIELDS:base + (k + 1) * CONTACT_FIELDS]
        g = int(row[C_GEAR_ROW])
        if state[S_WOW] == 0.0:
            diag[g, GD_DEPTH] = diag[g, GD_RATE] = diag[g, GD_LOAD] = 0.0
            continue
        touching = True
        gx, gy, gz = state[S_U + 6], state[S_U + 7], state[S_U + 8]
        wx, wy, wz = state[S_MIN], state[S_MIN + 1], state[S_MIN + 2]
        strut = _strut(row, state, props)
        if row[C_KIND] == BOGEY:
            ms = row[C_T:C_T + 9]
            normal = strut / (ms[2] * gx + ms[5] * gy + ms[8] * gz)
        else:
            normal = -strut
        state[S_NORMAL] = normal
        bx, by, bz = normal * gx, normal * gy, normal * gz          # mT · (0, 0, Fn)
        cx, cy, cz = state[S_ARM], state[S_ARM + 1], state[S_ARM + 2]
        nx += bx
        ny += by
        nz += bz
        nl += cy * bz - cz * by
        nm += cz * bx - cx * bz
        nn += cx * by - cy * bx
        _friction(row, state, props, gx, gy, gz, wx, wy, wz, normal)
        count += int(state[S_COUNT])
        diag[g, GD_DEPTH] = -state[S_HEIGHT]
        diag[g, GD_RATE] = state[S_COMPRESS_SPEED]
        diag[g, GD_LOAD] = normal
    if not touching:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    if count == 0:
        return nx, ny, nz, nl, nm, nn, True
    # 3. FGAccelerations: the accelerations of the other loads and the normal forces, then the friction
    mass = params.mass
    j = s[J_INERTIA:J_INERTIA + 9]
    ji = s[J_INERTIA + 9:J_INERTIA + 18]
    g = params.gravity
    ax = (fx + nx) / mass - (q * w - r * v) + g * t[6]         # F/m − ω × v + Tl2b · (0, 0, g)
    ay = (fy + ny) / mass - (r * u - p * w) + g * t[7]
    az = (fz + nz) / mass - (p * v - q * u) + g * t[8]
    hx = j[0] * p + j[1] * q + j[2] * r
    hy = j[3] * p + j[4] * q + j[5] * r
    hz = j[6] * p + j[7] * q + j[8] * r
    el = ml + nl - (q * hz - r * hy)
    em = mm + nm - (r * hx - p * hz)
    en = mn + nn - (p * hy - q * hx)
    bx = ji[0] * el + ji[1] * em + ji[2] * en
    by = ji[3] * el + ji[4] * em + ji[5] * en
    bz = ji[6] * el + ji[7] * em + ji[8] * en
    if dt > 0.0 and not settle:
        ax, ay, az = ax + u / dt, ay + v / dt, az + w / dt
        bx, by, bz = bx + p / dt, by + q / dt, bz + r / dt
    return _solve(rows, last, base, n, count, mass, ji, ax, ay, az, bx, by, bz, nx, ny, nz, nl, nm, nn)


@borrowing_jit
def _solve(rows, last, base, n, count, mass, ji, ax, ay, az, bx, by, bz, nx, ny, nz, nl, nm, nn):
    """The projected Gauss–Seidel solve of the registered multipliers (FGAccelerations::CalculateFrictionForces);
    the normal forces plus the friction, force and moment."""
    # scratch after the contacts' states (no allocation: compiled without numba's reference counting)
    at0 = base + n * CONTACT_FIELDS
    index = last[at0:at0 + count]                               # (each multiplier's place in jsb_last)
    arm = last[at0 + count:at0 + 2 * count]
    rhs = last[at0 + 2 * count:at0 + 3 * count]
    a = last[at0 + 3 * count:at0 + 3 * count + count * count].reshape((count, count))
    m = 0
    for k in range(n):
        at = base + k * CONTACT_FIELDS
        c = int(last[at + S_COUNT]) if last[at + S_WOW] != 0.0 else 0
        first = DYNAMIC if c == 1 else ROLL
        for e in range(c):
            index[m] = at + first + e
            arm[m] = at
            m += 1
    for i in range(count):
        at = int(arm[i])
        k = int(index[i]) - at
        u0, u1, u2 = last[at + S_U + 3 * k], last[at + S_U + 3 * k + 1], last[at + S_U + 3 * k + 2]
        r0, r1, r2 = last[at + S_ARM], last[at + S_ARM + 1], last[at + S_ARM + 2]
        v10, v11, v12 = u0 / mass, u1 / mass, u2 / mass
        c0, c1, c2 = r1 * u2 - r2 * u1, r2 * u0 - r0 * u2, r0 * u1 - r1 * u0
        v20 = ji[0] * c0 + ji[1] * c1 + ji[2] * c2
        v21 = ji[3] * c0 + ji[4] * c1 + ji[5] * c2
        v22 = ji[6] * c0 + ji[7] * c1 + ji[8] * c2
        for jj in range(i):
            a[i, jj] = a[jj, i]
        for jj in range(i, count):
            bj = int(arm[jj])
            kj = int(index[jj]) - bj
            w0, w1, w2 = last[bj + S_U + 3 * kj], last[bj + S_U + 3 * kj + 1], last[bj + S_U + 3 * kj + 2]
            s0, s1, s2 = last[bj + S_ARM], last[bj + S_ARM + 1], last[bj + S_ARM + 2]
            e0 = v10 + (v21 * s2 - v22 * s1)
            e1 = v11 + (v22 * s0 - v20 * s2)
            e2 = v12 + (v20 * s1 - v21 * s0)
            a[i, jj] = w0 * e0 + w1 * e1 + w2 * e2
    for i in range(count):
        at = int(arm[i])
        k = int(index[i]) - at
        d = a[i, i]
        u0, u1, u2 = last[at + S_U + 3 * k], last[at + S_U + 3 * k + 1], last[at + S_U + 3 * k + 2]
        r0, r1, r2 = last[at + S_ARM], last[at + S_ARM + 1], last[at + S_ARM + 2]
        e0 = ax + (by * r2 - bz * r1)
        e1 = ay + (bz * r0 - bx * r2)
        e2 = az + (bx * r1 - by * r0)
        rhs[i] = -(u0 * e0 + u1 * e1 + u2 * e2) / d
        for jj in range(count):
            a[i, jj] /= d
    for _ in range(ITERATIONS):
        norm = 0.0
        for i in range(count):
            at = int(arm[i])
            k = int(index[i]) - at
            lambda0 = last[at + S_LAMBDA + k]
            dlambda = rhs[i]
            for jj in range(count):
                dlambda -= a[i, jj] * last[int(index[jj]) + S_LAMBDA]
            value = lambda0 + dlambda
            lo, hi = last[at + S_MIN + k], last[at + S_MAX + k]
            value = lo if value < lo else (hi if value > hi else value)
            last[at + S_LAMBDA + k] = value
            norm += abs(value - lambda0)
        if norm < TOLERANCE:
            break
    fx = fy = fz = ml = mm = mn = 0.0
    for i in range(count):
        at = int(arm[i])
        k = int(index[i]) - at
        lam = last[at + S_LAMBDA + k]
        f0, f1, f2 = lam * last[at + S_U + 3 * k], lam * last[at + S_U + 3 * k + 1], lam * last[at + S_U + 3 * k + 2]
        r0, r1, r2 = last[at + S_ARM], last[at + S_ARM + 1], last[at + S_ARM + 2]
        fx += f0
        fy += f1
        fz += f2
        ml += r1 * f2 - r2 * f1
        mm += r2 * f0 - r0 * f2
        mn += r0 * f1 - r1 * f0
    return nx + fx, ny + fy, nz + fz, nl + ml, nm + mm, nn + mn, True


@borrowing_jit
def state_size(n):
    """How many entries of ``jsb_last`` the ground reactions of ``n`` contacts take: their states
    (:data:`CONTACT_FIELDS` each) and the solve's scratch (up to 2n multipliers: their places, the right-hand
    side and the matrix)."""
    return CONTACT_FIELDS * n + 3 * (2 * n) + (2 * n) ** 2


@borrowing_jit
def contacts_frame(props, params, h, settle, base, command, wow_slot):
    """Once a step (JSBSim: once a frame), before the flight controls: each steered wheel's angle from
    ``fcs/steer-cmd-norm`` (times ``max_steer``; FGGroundReactions::SetDsCmd, the pilot writing it each frame), a
    wheel off the ground spinning down, and what FGGroundReactions gives the flight controls from the last
    evaluation: each contact's ``…/WOW``, a wheel's ``…/wheel-speed-fps`` and ``gear/wow`` (any BOGEY's, into
    ``wow_slot``).  ``base``: where the contacts' states start in ``jsb_last``; ``command``: the steering's."""
    rows, last = params.jsb_contacts, params.jsb_last
    wow = 0.0
    for k in range(rows.shape[0]):
        row, state = rows[k], last[base + k * CONTACT_FIELDS:base + (k + 1) * CONTACT_FIELDS]
        if row[C_STEERING] == STEERED:
            state[S_STEER] = DEGTORAD * (command * row[C_MAX_STEER])
        if state[S_WOW] == 0.0:
            state[S_WHEEL_X] = 0.0 if settle else max(state[S_WHEEL_X] - WHEEL_SPIN_DOWN * h, 0.0)
        elif row[C_KIND] == BOGEY:
            wow = 1.0
        slot = int(row[C_WOW_SLOT])
        if slot >= 0:
            props[slot] = state[S_WOW]
        slot = int(row[C_WHEEL_SPEED_SLOT])
        if slot >= 0:
            props[slot] = state[S_WHEEL_X] * math.cos(state[S_STEER]) + state[S_WHEEL_Y] * math.sin(state[S_STEER])
    if wow_slot >= 0:
        props[wow_slot] = wow


@borrowing_jit
def steering_after_fcs(props, params, base):
    """The angle the flight controls write into ``fcs/steer-pos-deg[k]`` (FGLGear::SetSteerAngleDeg, after the
    command's)."""
    rows, last = params.jsb_contacts, params.jsb_last
    for k in range(rows.shape[0]):
        slot = int(rows[k, C_STEER_POSITION_SLOT])
        if slot >= 0 and rows[k, C_STEERING] == STEERED:
            last[base + k * CONTACT_FIELDS + S_STEER] = DEGTORAD * props[slot]


@borrowing_entry_jit
def ground_reactions_at(y, params, other, out, base, dt, settle, fcs_position, heights):
    """:func:`ground_reactions` called from Python (a property replay): ``params`` the
    :class:`~flightsim.physics.aero.LoadParams`, ``other`` the other loads (6, JSBSim's body frame), ``heights``
    each contact's height above the ground (ft; JSBSim's) or None; writes the gear's force and moment into ``out``
    (6) and returns whether it touches."""
    if contacts_geometry(y, params, params.terrain, base, dt, settle, fcs_position, heights):
        call_block(params.jsb_native[1], params.jsb_props, params.jsb_aero_constants, params.jsb_aero_tables,
                   params.jsb_aero_data)               # (the strut force functions: in the aerodynamics' program)
    fx, fy, fz, ml, mm, mn, touching = ground_reactions(y, params, other[0], other[1], other[2], other[3], other[4],
                                                        other[5], base, dt, settle)
    out[0], out[1], out[2], out[3], out[4], out[5] = fx, fy, fz, ml, mm, mn
    return touching

"""The ground after a step: touchdown, first contact and the crash — one copy for every flight.

After each physics step the flight (:class:`flightsim.simulation.flight.Simulation`)
and every airplane of the batch (:class:`flightsim.simulation.batch.BatchSimulation`)
run :func:`ground_after_step`: which wheels carry load, and whether the step
crashed — a touchdown sinking faster than the aircraft file's
``crash_sink_rate``, a hard point (wing tip, nose, tail) touching the ground,
a gear leg compressed past its travel.  The touchdown's sink rate is read at
the fraction of the step where a wheel first touched (:func:`first_contact`,
bisection on the lerped position and nlerped orientation).  A crash is then
finished in Python by :func:`crash`: the airplane put at rest where the
contact happened, and the message saying what happened.
:func:`ground_contact` is the contact at one state: the loads evaluated there
(the gear's diagnostics, :mod:`flightsim.physics.gear`) and the brakes'
anchors updated.

Earth frame x North, y West, z up (ground at z = 0, or the terrain's surface
when the loads' parameters carry one, ``terrain``: :mod:`flightsim.physics.terrain`,
each contact point's depth then measured along the surface's normal under it);
body frame x forward, y left, z up; feet, seconds.  A crash on the terrain says
``crashed into terrain at <x>, <y> (<h> ft)``; there the CG under the surface
crashes too.
"""

import math

import numpy as np

from flightsim.math import quat
from flightsim.math.compiler import borrowing_entry_jit, borrowing_inline_jit, borrowing_jit
from flightsim.math.kernels import matrix_entries
from flightsim.physics.aero import LoadParams, airplane_loads
from flightsim.physics.gear import GD_DEPTH, GD_LOAD, GEAR_WHEEL, R_KIND, hold_brakes
from flightsim.physics.terrain import terrain_clearance_bound, terrain_height

#: :func:`ground_after_step`'s answers: still flying (or rolling), crashed, crashed on touching down too fast.
GROUND_OK, GROUND_CRASH, GROUND_SINK_CRASH = 0, 1, 2
#: Bisection halvings in :func:`first_contact`: the contact fraction to 2⁻⁴⁸ of a step.
BISECTIONS = 48


@borrowing_entry_jit
def ground_contact(t, y, fields, limits):
    """The ground contact at state ``y``, for a caller in Python, between two steps.

    Evaluates the loads (writing ``gear_diag``) and updates where the braked
    wheels hold (:func:`~flightsim.physics.gear.hold_brakes`).

    ``fields`` is ``tuple(params)`` (see :func:`flightsim.physics.step_entries.step_fields`
    for why) or the :class:`~flightsim.physics.aero.LoadParams` itself; ``limits`` (m,)
    is how deep each contact point may go (ft).

    Returns
    -------
    tuple
        ``(a wheel touches the ground, a wheel carries load, the largest
        depth beyond its limit)`` (ft; negative when every point is within).
    """
    params = LoadParams(*fields)
    airplane_loads(t, y, params)
    hold_brakes(y, params)
    diag, refs = params.gear_diag, params.gear_refs
    touching = False
    loaded = False
    excess = -math.inf
    for k in range(diag.shape[0]):
        if refs[k, R_KIND] == GEAR_WHEEL:
            if diag[k, GD_DEPTH] > 0.0:
                touching = True
            if diag[k, GD_LOAD] > 0.0:
                loaded = True
        excess = max(excess, diag[k, GD_DEPTH] - limits[k])
    return touching, loaded, excess


@borrowing_entry_jit
def first_contact(prev, y, r, limits, terrain):
    """Fraction of the step ``prev`` → ``y`` at which a contact point at body ``r`` (m, 3) first went past ``limits``.

    Bisection (:data:`BISECTIONS` halvings) on the lerped position and the
    nlerped orientation (hemisphere-checked); 0 when a point is already past
    its limit at the start of the step.  ``limits`` (m,) is how deep each
    point may go, ft (``inf``: that point is left out).  ``terrain``: None
    (the plane z = 0) or the packed terrain (the depth along its normal, as
    :func:`~flightsim.physics.gear.terrain_contact_loads`).
    """
    sign = 1.0
    if prev[6] * y[6] + prev[7] * y[7] + prev[8] * y[8] + prev[9] * y[9] < 0.0:
        sign = -1.0
    lo, hi = 0.0, 1.0
    for it in range(BISECTIONS + 1):
        s = 0.0 if it == 0 else 0.5 * (lo + hi)
        z = prev[2] + s * (y[2] - prev[2])
        qw = (1.0 - s) * prev[6] + s * sign * y[6]
        qx = (1.0 - s) * prev[7] + s * sign * y[7]
        qy = (1.0 - s) * prev[8] + s * sign * y[8]
        qz = (1.0 - s) * prev[9] + s * sign * y[9]
        r00, r01, r02, r10, r11, r12, r20, r21, r22 = matrix_entries(qw, qx, qy, qz,
                                                                     1.0 / (qw * qw + qx * qx + qy * qy + qz * qz))
        over = -math.inf
        if terrain is None:
            for k in range(r.shape[0]):
                over = max(over, -(z + r20 * r[k, 0] + r21 * r[k, 1] + r22 * r[k, 2]) - limits[k])
        else:
            x = prev[0] + s * (y[0] - prev[0])
            w = prev[1] + s * (y[1] - prev[1])
            for k in range(r.shape[0]):
                h, dhx, dhy = terrain_height(terrain, x + r00 * r[k, 0] + r01 * r[k, 1] + r02 * r[k, 2],
                                             w + r10 * r[k, 0] + r11 * r[k, 1] + r12 * r[k, 2])
                pz = z + r20 * r[k, 0] + r21 * r[k, 1] + r22 * r[k, 2]
                depth = (h - pz) / math.sqrt(1.0 + dhx * dhx + dhy * dhy)
                over = max(over, depth - limits[k])
        if it == 0:
            if over >= 0.0:
                return 0.0
        elif over >= 0.0:
            hi = s
        else:
            lo = s
    return lo


@borrowing_inline_jit
def ground_after_step(y, prev, t, params, wheels_down, on_ground, a, travel, wheels_only, sink_rate):
    """The ground after a step ``prev`` → ``y`` of airplane ``a``: :data:`GROUND_OK`, :data:`GROUND_CRASH` or
    :data:`GROUND_SINK_CRASH`.

    Evaluates the loads at ``y`` (the gear's diagnostics, the brakes' anchors).
    Updates ``wheels_down[a]`` (a wheel touches) and ``on_ground[a]`` (a wheel
    carries load) when it did not crash.  ``travel`` (m,) is how deep each
    contact point may go (a wheel its leg's travel, a hard point 0),
    ``wheels_only`` 0 for the wheels and inf for the rest, ``sink_rate`` the
    fastest touchdown the gear takes, ft/s.

    Written into its compiled caller (numba's ``inline="always"``): an airplane clear of the ground costs its
    caller one compare (:func:`clear_of_ground`) and no call that passes the loads' parameters; near the ground
    :func:`near_ground_after_step` runs.
    """
    if clear_of_ground(y, params.gear_reach, params.terrain):
        if wheels_down[a]:
            params.gear_anchor[:] = 0.0
        wheels_down[a] = False
        on_ground[a] = False
        return GROUND_OK
    return near_ground_after_step(y, prev, t, params, wheels_down, on_ground, a, travel, wheels_only, sink_rate,
                                  params.terrain)


@borrowing_jit
def clear_of_ground(y, reach, terrain):
    """Whether every point within ``reach`` ft of the CG of state ``y`` is surely above the ground: the plane
    z = 0 (``terrain`` None) or the packed terrain's surface
    (:func:`~flightsim.physics.terrain.terrain_clearance_bound`)."""
    if terrain is None:
        return y[2] > reach
    return terrain_clearance_bound(terrain, y[0], y[1], y[2], reach)


@borrowing_jit
def sink_speed(prev, y, s, terrain):
    """How fast (ft/s) the airplane sinks into the ground a fraction ``s`` of the step ``prev`` → ``y`` on: its
    velocity's downward part, into the terrain's surface along its normal under the CG when ``terrain`` is not
    None (on the plane, −v_z)."""
    vz = prev[5] + s * (y[5] - prev[5])
    if terrain is None:
        return -vz
    vx = prev[3] + s * (y[3] - prev[3])
    vy = prev[4] + s * (y[4] - prev[4])
    _, dhx, dhy = terrain_height(terrain, prev[0] + s * (y[0] - prev[0]), prev[1] + s * (y[1] - prev[1]))
    return (dhx * vx + dhy * vy - vz) / math.sqrt(1.0 + dhx * dhx + dhy * dhy)


@borrowing_jit
def near_ground_after_step(y, prev, t, params, wheels_down, on_ground, a, travel, wheels_only, sink_rate, terrain):
    """:func:`ground_after_step` of an airplane not surely clear of the ground, with ``params.terrain`` an
    argument so that numba compiles nothing of the terrain for the plane (as
    :func:`flightsim.physics.aero.own_loads` does with the planet)."""
    touching, loaded, excess = ground_contact(t, y, params, travel)
    if terrain is not None:
        if y[2] < terrain_height(terrain, y[0], y[1])[0]:  # the CG itself under the surface
            return GROUND_CRASH
    if touching and not wheels_down[a]:
        s = first_contact(prev, y, params.gear_positions, wheels_only, terrain)
        if sink_speed(prev, y, s, terrain) > sink_rate:
            return GROUND_SINK_CRASH
    if excess > 0.0:
        return GROUND_CRASH
    wheels_down[a] = touching
    on_ground[a] = loaded
    return GROUND_OK


@borrowing_entry_jit
def ground_after_step_fields(y, prev, t, fields, wheels_down, on_ground, a, travel, wheels_only, sink_rate):
    """:func:`ground_after_step` for a caller in Python, given ``fields = tuple(params)``.

    (A named tuple is typed field by field at every call from Python; a plain
    tuple is cheaper: see :func:`flightsim.physics.step_entries.step_fields`.)
    """
    return ground_after_step(y, prev, t, LoadParams(*fields), wheels_down, on_ground, a, travel, wheels_only,
                             sink_rate)


class GearLimits:
    """An aircraft's contact points as the ground check reads them.

    Attributes
    ----------
    positions : numpy.ndarray
        ``(m, 3)`` body-frame position of each contact point, ft.
    is_wheel : numpy.ndarray
        ``(m,)`` bool: a wheel (else a hard point).
    travel : numpy.ndarray
        ``(m,)`` how deep each point may go: a wheel its leg's travel, a hard point 0 (ft).
    wheels_only : numpy.ndarray
        ``(m,)`` 0 for a wheel, inf for a hard point: the touchdown's limits.
    sink_limits : numpy.ndarray
        ``(m,)`` after a touchdown too fast: 0 for a wheel, a hard point's travel.
    sink_rate : float
        The file's ``crash_sink_rate``, ft/s.

    ``crashes=False``: every limit infinite, so the ground check finds no crash (the contacts' forces alone act).
    """

    def __init__(self, aircraft, crashes=True):
        gear = aircraft.gear
        self.positions = np.array([c.position for c in gear], dtype=np.float64).reshape(-1, 3)
        self.is_wheel = np.array([c.is_wheel for c in gear], dtype=bool)
        self.travel = np.array([c.max_compression if c.is_wheel else 0.0 for c in gear])
        self.wheels_only = np.where(self.is_wheel, 0.0, np.inf)
        self.sink_limits = np.where(self.is_wheel, 0.0, self.travel)
        self.sink_rate = float(aircraft.crash_sink_rate)
        if not crashes:                     # nothing on the ground stops the flight (JSBSim's CrashDetect reports)
            self.travel = np.full_like(self.travel, np.inf)
            self.sink_rate = math.inf

    def limits(self, code):
        """The limits a crash of kind ``code`` (:data:`GROUND_CRASH`, :data:`GROUND_SINK_CRASH`) was found at."""
        return self.sink_limits if code == GROUND_SINK_CRASH else self.travel


def contact_depths(aircraft, y, terrain=None):
    """How far each contact point is below the ground (ft, negative: above it) with the airplane at state ``y``:
    below the plane z = 0, or (``terrain``, the packed terrain) below its surface along the normal there."""
    r = np.array([c.position for c in aircraft.gear]).reshape(-1, 3)
    p = y[0:3] + quat.rotate(y[6:10] / np.linalg.norm(y[6:10]), r).reshape(-1, 3)
    if terrain is None:
        return -(y[2] + quat.rotate(y[6:10] / np.linalg.norm(y[6:10]), r)[..., 2]).reshape(-1)
    out = np.empty(len(p))
    for k, (px, py, pz) in enumerate(p):
        h, dhx, dhy = terrain_height(terrain, float(px), float(py))
        out[k] = (h - pz) / math.sqrt(1.0 + dhx * dhx + dhy * dhy)
    return out


def state_between(prev, y, s):
    """The state a fraction ``s`` of a step after ``prev`` on the way to ``y`` (lerp; q by nlerp)."""
    out = prev + s * (y - prev)
    out[6:10] = quat.nlerp(prev[6:10], y[6:10], s)
    return out


def crash(aircraft, prev, y, t, dt, limits, sink_crash, terrain=None):
    """Where and why a step ``prev`` → ``y`` ending at time ``t`` crashed.

    On the terrain (``terrain``, the packed terrain; None: the plane z = 0) the message begins
    ``crashed into terrain at <x>, <y> (<h> ft)``: where the contact point hit, home frame ft, and the
    surface's height there, ft above sea level; its sink rate is the speed into the surface along its normal
    under the CG (:func:`sink_speed`; on level ground the vertical speed down).

    Parameters
    ----------
    limits : numpy.ndarray
        How deep each contact point may go, ft.
    sink_crash : bool
        The wheels touched down too fast (else a hard point or a leg's travel).

    Returns
    -------
    (numpy.ndarray, str)
        The airplane at rest where the contact happened, and the status message.
    """
    r = np.array([c.position for c in aircraft.gear], dtype=np.float64).reshape(-1, 3)
    s = first_contact(prev, y, r, np.asarray(limits, dtype=np.float64), terrain)
    y = state_between(prev, y, s)
    velocity = y[3:6].copy()
    k = int(np.argmax(contact_depths(aircraft, y, terrain) - limits))
    contact = aircraft.gear[k]
    roll, pitch, _ = quat.aviation_angles(y[6:10])
    sink = -float(velocity[2])
    when = f"crashed at t = {t - (1.0 - s) * dt:.2f} s"
    if terrain is not None:
        px, py, _ = y[0:3] + quat.rotate(y[6:10] / np.linalg.norm(y[6:10]), r[k])
        h = terrain_height(terrain, float(px), float(py))[0]
        when = f"crashed into terrain at {px:.0f}, {py:.0f} ({h:.0f} ft), t = {t - (1.0 - s) * dt:.2f} s"
        # the sink rate into a slope: along its normal under the CG, as the touchdown check (sink_speed) reads it
        _, dhx, dhy = terrain_height(terrain, float(y[0]), float(y[1]))
        sink = float(dhx * velocity[0] + dhy * velocity[1] - velocity[2]) / math.sqrt(1.0 + dhx * dhx + dhy * dhy)
    if sink_crash and contact.is_wheel:
        reason = f"touched down with sink rate {sink:.1f} ft/s (more than {aircraft.crash_sink_rate:g})"
    elif contact.is_wheel:
        reason = (f"the {contact.name}'s leg compressed past its {contact.max_compression:g} ft travel "
                  f"(sink rate {sink:.1f} ft/s, bank {roll:.0f}°, pitch {pitch:+.0f}°)")
    else:
        reason = (f"the {contact.name} hit the ground at {float(np.linalg.norm(velocity)):.0f} ft/s "
                  f"(sink rate {sink:.1f} ft/s, bank {roll:.0f}°, pitch {pitch:+.0f}°)")
    y[3:6] = 0.0
    y[10:13] = 0.0
    # Already too deep before the step (a state loaded in the ground): lift it to the limit.
    y[2] += max(float(np.max(contact_depths(aircraft, y, terrain) - limits)), 0.0)
    return y, f"{when}: {reason}"

"""JSBSim's property names read from a flightsim flight: what ``flightsim script``'s outputs log.

A flight on a round planet (:class:`~flightsim.simulation.flight.Simulation` with ``planet="round"``, its
origin the initial condition's latitude and longitude) gives JSBSim's ``FGPropagate``/``FGAuxiliary``
properties (:data:`BUILTIN`): its Earth-centred inertial state (:attr:`Simulation.inertial`) and that state's
view (:attr:`Simulation.vector`, :attr:`Simulation.geodetic`), turned to JSBSim's frames (body x forward, y right,
z down; North-East-down) and units.  Any other name is a property of a JSBSim aircraft's own property array
(:meth:`Simulation.jsbsim_property`), or a property the script declares.  Sources: JSBSim's ``FGPropagate::bind``
(``position/h-sl-ft`` is the distance from the centre less the sea-level radius at the geocentric latitude,
``position/h-agl-ft`` the height above the flight's terrain — a reset file's ``<elevation>`` is a
:class:`~flightsim.physics.terrain.Terrain` at that height, JSBSim's ellipsoid raised by it — and
``metrics/terrain-radius`` the distance from the centre to the ground under the aircraft) and
``FGPropagate::ComputeOrbitalParameters`` (``orbital/*``: the Kepler orbit of the inertial position and velocity
about the planet's ``GM``).  On the flat planet the inertial axes are ECEF's at the flight's place, the planet
still (the view laid on the ellipsoid at the origin, as the position).
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.math import kernels
from flightsim.physics.jsbsim.initial import _euler_of
from flightsim.physics.planet import WGS84, ecef, local_axes
from flightsim.physics.terrain import Terrain

__all__ = ["BUILTIN", "FrameView", "canonical_name", "known", "orbit", "read_all"]

#: JSBSim's property names this module computes.
BUILTIN = (
    "simulation/sim-time-sec",
    "position/lat-geod-deg", "position/lat-geod-rad", "position/lat-gc-deg", "position/lat-gc-rad",
    "position/long-gc-deg", "position/long-gc-rad", "position/h-sl-ft", "position/h-sl-meters",
    "position/h-agl-ft", "position/geod-alt-ft", "position/radius-to-vehicle-ft",
    "position/ecef-x-ft", "position/ecef-y-ft", "position/ecef-z-ft",
    "attitude/phi-rad", "attitude/theta-rad", "attitude/psi-rad", "attitude/phi-deg", "attitude/theta-deg",
    "attitude/psi-deg", "attitude/roll-rad", "attitude/pitch-rad", "attitude/heading-true-rad",
    "velocities/p-rad_sec", "velocities/q-rad_sec", "velocities/r-rad_sec",
    "velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec",
    "velocities/v-north-fps", "velocities/v-east-fps", "velocities/v-down-fps", "velocities/h-dot-fps",
    "velocities/u-fps", "velocities/v-fps", "velocities/w-fps", "velocities/vt-fps", "velocities/vg-fps",
    "position/eci-x-ft", "position/eci-y-ft", "position/eci-z-ft", "position/epa-rad",
    "position/terrain-elevation-asl-ft", "velocities/ecef-x-fps", "velocities/ecef-y-fps", "velocities/ecef-z-fps",
    "velocities/eci-x-fps", "velocities/eci-y-fps", "velocities/eci-z-fps", "velocities/eci-velocity-mag-fps",
    "metrics/terrain-radius", "velocities/phidot-rad_sec", "velocities/thetadot-rad_sec",
    "velocities/psidot-rad_sec",
)
#: A JSBSim aircraft's mass properties (``FGMassBalance::bind``; flightsim burns no fuel: as loaded).
MASS = ("inertia/weight-lbs", "inertia/mass-slugs", "inertia/empty-weight-lbs", "inertia/cg-x-in", "inertia/cg-y-in",
        "inertia/cg-z-in", "inertia/ixx-slugs_ft2", "inertia/iyy-slugs_ft2", "inertia/izz-slugs_ft2",
        "inertia/ixy-slugs_ft2", "inertia/ixz-slugs_ft2", "inertia/iyz-slugs_ft2")
BUILTIN = BUILTIN + MASS + tuple(f"orbital/{n}" for n in (
    "specific-angular-momentum-ft2_sec", "inclination-deg", "right-ascension-deg", "eccentricity",
    "argument-of-perigee-deg", "true-anomaly-deg", "apoapsis-radius-ft", "periapsis-radius-ft", "period-sec"))
_D = np.diag([1.0, -1.0, -1.0])
#: JSBSim's property tree's root: a name may be given with it.
ROOT = "/fdm/jsbsim/"


def canonical_name(name):
    """``name`` without the property tree's root (``/fdm/jsbsim/position/h-sl-ft`` → ``position/h-sl-ft``); a
    name outside it keeps its leading ``/`` (``/systems/l410/battery1-ok``: JSBSim's absolute path, the node an
    aircraft's ``<property>/systems/l410/battery1-ok</property>`` declares, not ``/fdm/jsbsim/systems/…``)."""
    name = name.strip()
    if name.startswith(ROOT):
        name = name[len(ROOT):]
    return name


def known(sim, name):
    """Whether ``name`` is a built-in property or one of the JSBSim aircraft's own."""
    name = canonical_name(name)
    if name in BUILTIN:
        return True
    try:
        sim.jsbsim_property(name)
    except KeyError:
        return False
    return True


#: JSBSim's ``ic/*`` properties (``FGInitialCondition::bind``) → the property of the state at the start they equal,
#: and a scale: the reset file as JSBSim resolves it.  (A script may write them, as JSBSim's: to no effect
#: without a reset.)
INITIAL = {
    "ic/h-sl-ft": ("position/h-sl-ft", 1.0), "ic/h-agl-ft": ("position/h-agl-ft", 1.0),
    "ic/geod-alt-ft": ("position/geod-alt-ft", 1.0),
    "ic/terrain-elevation-ft": ("position/terrain-elevation-asl-ft", 1.0),
    "ic/lat-gc-deg": ("position/lat-gc-deg", 1.0), "ic/lat-gc-rad": ("position/lat-gc-rad", 1.0),
    "ic/lat-geod-deg": ("position/lat-geod-deg", 1.0), "ic/lat-geod-rad": ("position/lat-geod-rad", 1.0),
    "ic/long-gc-deg": ("position/long-gc-deg", 1.0), "ic/long-gc-rad": ("position/long-gc-rad", 1.0),
    "ic/phi-deg": ("attitude/phi-deg", 1.0), "ic/theta-deg": ("attitude/theta-deg", 1.0),
    "ic/psi-true-deg": ("attitude/psi-deg", 1.0), "ic/phi-rad": ("attitude/phi-rad", 1.0),
    "ic/theta-rad": ("attitude/theta-rad", 1.0), "ic/psi-true-rad": ("attitude/psi-rad", 1.0),
    "ic/u-fps": ("velocities/u-fps", 1.0), "ic/v-fps": ("velocities/v-fps", 1.0), "ic/w-fps": ("velocities/w-fps", 1.0),
    "ic/vn-fps": ("velocities/v-north-fps", 1.0), "ic/ve-fps": ("velocities/v-east-fps", 1.0),
    "ic/vd-fps": ("velocities/v-down-fps", 1.0), "ic/vg-fps": ("velocities/vg-fps", 1.0),
    "ic/roc-fps": ("velocities/h-dot-fps", 1.0), "ic/roc-fpm": ("velocities/h-dot-fps", 60.0),
    "ic/p-rad_sec": ("velocities/p-rad_sec", 1.0), "ic/q-rad_sec": ("velocities/q-rad_sec", 1.0),
    "ic/r-rad_sec": ("velocities/r-rad_sec", 1.0),
    "ic/vt-fps": ("velocities/vt-fps", 1.0), "ic/vt-kts": ("velocities/vt-fps", 3600.0 / 6076.11548556),
    "ic/vc-kts": ("velocities/vc-kts", 1.0), "ic/ve-kts": ("velocities/ve-kts", 1.0),
    "ic/mach": ("velocities/mach", 1.0),
    "ic/alpha-deg": ("aero/alpha-deg", 1.0), "ic/alpha-rad": ("aero/alpha-rad", 1.0),
    "ic/beta-deg": ("aero/beta-deg", 1.0), "ic/beta-rad": ("aero/beta-rad", 1.0),
    "ic/gamma-deg": ("flight-path/gamma-deg", 1.0), "ic/gamma-rad": ("flight-path/gamma-rad", 1.0),
}


def initial_values(read):
    """The :data:`INITIAL` properties, each the value ``read(name)`` gives at the start of its state property (those
    nothing defines left out); the wind's (``ic/vw-*``) from ``atmosphere/wind-*-fps``."""
    out = {}
    for name, (source, scale) in INITIAL.items():
        try:
            out[name] = read(source) * scale
        except KeyError:
            continue
    try:
        n, e, d = (read(f"atmosphere/wind-{a}-fps") for a in ("north", "east", "down"))
    except KeyError:
        return out
    out.update({"ic/vw-north-fps": n, "ic/vw-east-fps": e, "ic/vw-down-fps": d,
                "ic/vw-mag-fps": math.hypot(n, e), "ic/vw-dir-deg": math.degrees(math.atan2(e, n)) % 360.0})
    return out


#: The ``ic/*`` a script may write, which a later ``do_simple_trim`` starts from (JSBSim's FGTrim starts from the
#: exec's IC): the height (any of the three; moved by the change written) and the airspeed (scaled by the change
#: of the one written, its direction kept: ``SetMachIC``, ``SetVtrueFpsIC``).
WRITABLE_INITIAL = ("ic/h-sl-ft", "ic/h-agl-ft", "ic/geod-alt-ft", "ic/mach", "ic/vt-fps", "ic/vt-kts")


def trim_start(y0, wind, values, initial):
    """The start state ``y0`` (a reset file's view, :meth:`~flightsim.physics.jsbsim.initial.InitialCondition.
    view_state`) with the :data:`WRITABLE_INITIAL` properties a script wrote: ``values`` (the script's properties
    now) against ``initial`` (their values at the start, :func:`initial_values`).  ``wind``: the wind, flightsim's
    earth frame (ft/s).  The Mach number is scaled at the speed of sound of the start's height (JSBSim's at the new
    height, where the script moves both)."""
    y = np.array(y0, dtype=np.float64)
    for name in WRITABLE_INITIAL[:3]:
        if name in initial and values.get(name, initial[name]) != initial[name]:
            y[2] += values[name] - initial[name]
            break
    for name in WRITABLE_INITIAL[3:]:
        if name in initial and initial[name] != 0.0 and values.get(name, initial[name]) != initial[name]:
            wind = np.asarray(wind, dtype=np.float64)
            y[3:6] = wind + (y[3:6] - wind) * (values[name] / initial[name])
            break
    return y


#: :func:`mass_properties` of each model, by its id (the model kept with them, so that its id is not reused).
_MASS = {}


def mass_properties(model):
    """:data:`MASS` of the JSBSim aircraft ``model`` (None: flightsim's own, none) as loaded: weight (lb), mass
    (slug), the CG (structural frame, in) and the inertia about it (slug·ft²; the products as JSBSim's
    ``FGMassBalance::GetIxy``, ``GetIxz``, ``GetIyz`` give them: ``−J₁₂``, ``+J₁₃``, ``−J₂₃`` of its tensor)."""
    if model is None:
        return {}
    cached = _MASS.get(id(model))
    if cached is not None and cached[0] is model:
        return cached[1]
    from flightsim.physics.jsbsim.model import GRAVITY, inertia_about_cg

    mass = model.mass
    cg, j = mass.cg, inertia_about_cg(mass)
    values = (mass.weight, mass.weight / GRAVITY, mass.empty_weight, *cg, j[0, 0], j[1, 1], j[2, 2], -j[0, 1],
              j[0, 2], -j[1, 2])
    _MASS[id(model)] = (model, {name: float(v) for name, v in zip(MASS, values, strict=True)})
    return _MASS[id(model)][1]


def orbit(r, v, gm):
    """The ``orbital/*`` properties of the inertial position ``r`` (ft) and velocity ``v`` (ft/s) about ``gm``
    (ft³/s²), as JSBSim's ``FGPropagate::ComputeOrbitalParameters`` computes them (angles in degrees; a node line
    along x and a perigee argument of 0 where the orbit is equatorial; a period of 0 where it is not closed).
    (Plain floats: a script reads it every frame.)"""
    rx, ry, rz = (float(c) for c in r)
    vx, vy, vz = (float(c) for c in v)
    hx, hy, hz = ry * vz - rz * vy, rz * vx - rx * vz, rx * vy - ry * vx
    h = math.sqrt(hx * hx + hy * hy + hz * hz)
    inclination = math.degrees(math.acos(hz / h))
    perigee = 0.0
    if abs(inclination) > 1e-8:
        nx, ny = -hy, hx                                    # Z × h
        ascension = math.degrees(math.atan2(ny, nx))
        n = math.hypot(nx, ny)
        nx, ny = nx / n, ny / n
    else:
        ascension, nx, ny = 0.0, 1.0, 0.0
    rn = math.sqrt(rx * rx + ry * ry + rz * rz)
    ux, uy, uz = rx / rn, ry / rn, rz / rn
    vr = ux * vx + uy * vy + uz * vz
    ex = (vy * hz - vz * hy) / gm - ux
    ey = (vz * hx - vx * hz) / gm - uy
    ez = (vx * hy - vy * hx) / gm - uz
    e = math.sqrt(ex * ex + ey * ey + ez * ez)
    if e > 1e-8:
        ex, ey, ez = ex / e, ey / e, ez / e
        if abs(inclination) > 1e-8:
            perigee = math.degrees(math.acos(nx * ex + ny * ey))
            if ez < 0.0:
                perigee = 360.0 - perigee
    else:
        ex, ey, ez = 1.0, 0.0, 0.0
    anomaly = math.degrees(math.acos(min(max(ex * ux + ey * uy + ez * uz, -1.0), 1.0)))
    if vr < 0.0:
        anomaly = 360.0 - anomaly
    apo = h * h / (gm * (1.0 - e)) if e != 1.0 else math.inf
    peri = h * h / (gm * (1.0 + e))
    period = 2.0 * math.pi * (0.5 * (apo + peri)) ** 1.5 / math.sqrt(gm) if e < 1.0 else 0.0
    return {"orbital/specific-angular-momentum-ft2_sec": h, "orbital/inclination-deg": inclination,
            "orbital/right-ascension-deg": ascension, "orbital/eccentricity": e,
            "orbital/argument-of-perigee-deg": perigee, "orbital/true-anomaly-deg": anomaly,
            "orbital/apoapsis-radius-ft": apo, "orbital/periapsis-radius-ft": peri, "orbital/period-sec": period}


#: :func:`_level` of each terrain, by its id (the terrain kept with it, so that its id is not reused).
_LEVELS = {}


def _level(terrain):
    """The height (ft) of a terrain that is one level everywhere, inside its grid and out (a reset file's
    ``<elevation>``, :func:`~flightsim.simulation.script.terrain_plane`), or None: where :meth:`~flightsim.physics.
    terrain.Terrain.height` gives that height exactly (its interpolation adds zeros to it), without its numpy."""
    known = _LEVELS.get(id(terrain))
    if known is None or known[0] is not terrain:
        hs = terrain.heights
        level = float(terrain.sea_level)
        flat = bool(np.all(hs == level)) and math.isfinite(level) and level != 0.0
        known = _LEVELS[id(terrain)] = (terrain, level if flat else None)
    return known[1]


def _norm(v):
    """The length of the float64 vector ``v``: ``numpy.linalg.norm``'s arithmetic (the square root of ``v.dot(v)``)
    without its checks."""
    return math.sqrt(v.dot(v))


def _where(view):
    """The state and the geodetic position now: what the groups are computed from."""
    sim = view.sim
    lat, lon, h = sim.geodetic
    return sim.vector, lat, lon, h


def _height(view):
    """The geodetic position's properties and the ground's height under it."""
    sim = view.sim
    y, lat, lon, h = view.part(_where)
    terrain = sim.terrain
    ground = 0.0
    if isinstance(terrain, Terrain):
        level = _level(terrain)
        ground = level if level is not None else float(terrain.height(float(y[0]), float(y[1])))
    out = {"position/lat-geod-deg": lat, "position/lat-geod-rad": math.radians(lat),
           "position/long-gc-deg": lon, "position/long-gc-rad": math.radians(lon),
           "position/h-agl-ft": h - ground, "position/geod-alt-ft": h,
           "position/terrain-elevation-asl-ft": ground}
    return {k: float(v) for k, v in out.items()}, ground


def _velocity(view):
    """The velocity's properties in the local frame (North-East-down)."""
    y = view.part(_where)[0]
    v_ned = np.array([y[3], -y[4], -y[5]])
    out = {"velocities/v-north-fps": v_ned[0], "velocities/v-east-fps": v_ned[1], "velocities/v-down-fps": v_ned[2],
           "velocities/h-dot-fps": -v_ned[2],
           "velocities/vt-fps": _norm(y[3:6] - np.asarray(view.sim.wind)[:3]),
           "velocities/vg-fps": math.hypot(v_ned[0], v_ned[1])}
    return {k: float(v) for k, v in out.items()}, v_ned


def _planet(view):
    """The Earth-centred position's properties (ECEF, ECI, the radius, the geocentric latitude, the height above sea
    level); what the velocities' (:func:`_planet_motion`) and the orbit's are computed from."""
    sim = view.sim
    y, lat, lon, h = view.part(_where)
    eci = sim.inertial
    omega = sim.planet.omega
    a, b = sim.planet.a, sim.planet.b
    if eci is None:             # a flat planet: the view laid on the ellipsoid at the origin (no rotation)
        a, b = WGS84.a, WGS84.b
        xe, ye, ze = ecef(math.radians(lat), math.radians(lon), h, a, b)
        w_inertial = y[10:13]
        axes = local_axes(math.radians(lat), math.radians(lon))
        north, west, up = axes
        r_eci = np.array([xe, ye, ze])
        v_eci = y[3] * north + y[4] * west + y[5] * up
        gm = WGS84.gm
    else:
        th = omega * sim.t
        c, s = math.cos(th), math.sin(th)
        xe, ye, ze = c * eci[0] + s * eci[1], -s * eci[0] + c * eci[1], eci[2]
        w_inertial = eci[10:13]
        r_eci, v_eci, gm = np.asarray(eci[0:3]), np.asarray(eci[3:6]), sim.planet.gm
        axes = None
    r = math.sqrt(xe * xe + ye * ye + ze * ze)
    lat_gc = math.atan2(ze, math.hypot(xe, ye))
    e2 = 1.0 - (b / a) ** 2
    sea_level = b / math.sqrt(1.0 - e2 * math.cos(lat_gc) ** 2)
    h_sl = r - sea_level
    out = {
        "position/lat-gc-deg": math.degrees(lat_gc), "position/lat-gc-rad": lat_gc,
        "position/h-sl-ft": h_sl, "position/h-sl-meters": h_sl * 0.3048, "position/radius-to-vehicle-ft": r,
        "position/ecef-x-ft": float(xe), "position/ecef-y-ft": float(ye), "position/ecef-z-ft": float(ze),
        "position/eci-x-ft": float(r_eci[0]), "position/eci-y-ft": float(r_eci[1]),
        "position/eci-z-ft": float(r_eci[2]),
        # (the Earth's turn since the start, JSBSim's epa from 0)
        "position/epa-rad": 0.0 if eci is None else omega * sim.t,
    }
    return out, (w_inertial, r_eci, v_eci, gm, a, b, axes)


def _planet_motion(view):
    """The Earth-centred velocity's properties (ECI; the velocity relative to the Earth in ECEF axes)."""
    y, lat, lon, _ = view.part(_where)
    found = view.part(_planet)
    v_eci, axes = found[2], found[6]
    north, west, up = local_axes(math.radians(lat), math.radians(lon)) if axes is None else axes
    out = {"velocities/eci-x-fps": float(v_eci[0]), "velocities/eci-y-fps": float(v_eci[1]),
           "velocities/eci-z-fps": float(v_eci[2]),
           "velocities/eci-velocity-mag-fps": _norm(v_eci),
           **dict(zip(("velocities/ecef-x-fps", "velocities/ecef-y-fps", "velocities/ecef-z-fps"),
                      (float(v) for v in y[3] * north + y[4] * west + y[5] * up), strict=True))}
    return out, None


def _body_matrix(q):
    """JSBSim's body → NED matrix of the quaternion ``q`` (flightsim's body → earth): ``quat.to_matrix``'s
    arithmetic (normalised first), without its checks of a state a step has already checked."""
    q = q / np.sqrt(np.einsum("...i,...i->...", q, q))[..., None]
    rows = np.ascontiguousarray(q.reshape(-1, 4))
    return _D @ kernels.matrix_rows(rows, np.empty((len(rows), 3, 3))).reshape(q.shape[:-1] + (3, 3)) @ _D


def _attitude(view):
    """The attitude's and the body velocities' and rates' properties."""
    y = view.part(_where)[0]
    v_ned = view.part(_velocity)
    tb2l = _body_matrix(y[6:10])                       # (JSBSim's body → NED)
    phi, theta, psi = _euler_of(tb2l.T)
    uvw = tb2l.T @ v_ned
    pqr = _D @ y[10:13]
    out = {
        "attitude/phi-rad": phi, "attitude/theta-rad": theta, "attitude/psi-rad": psi,
        "attitude/phi-deg": math.degrees(phi), "attitude/theta-deg": math.degrees(theta),
        "attitude/psi-deg": math.degrees(psi), "attitude/roll-rad": phi, "attitude/pitch-rad": theta,
        "attitude/heading-true-rad": psi,
        "velocities/p-rad_sec": pqr[0], "velocities/q-rad_sec": pqr[1], "velocities/r-rad_sec": pqr[2],
        "velocities/u-fps": uvw[0], "velocities/v-fps": uvw[1], "velocities/w-fps": uvw[2],
    }
    # FGAuxiliary's Euler angle rates of the body rates relative to the Earth (ψ̇ and φ̇ 0 where cos θ is 0)
    sphi, cphi, ctht = math.sin(phi), math.cos(phi), math.cos(theta)
    out["velocities/thetadot-rad_sec"] = pqr[1] * cphi - pqr[2] * sphi
    out["velocities/psidot-rad_sec"] = (pqr[1] * sphi + pqr[2] * cphi) / ctht if ctht != 0.0 else 0.0
    out["velocities/phidot-rad_sec"] = pqr[0] + out["velocities/psidot-rad_sec"] * math.sin(theta) \
        if ctht != 0.0 else 0.0
    return {k: float(v) for k, v in out.items()}, None


def _inertial_rates(view):
    """The body's rates relative to inertial space (JSBSim's body axes)."""
    eci = view.sim.inertial
    w_inertial = view.part(_where)[0][10:13] if eci is None else eci[10:13]
    pqri = _D @ np.asarray(w_inertial)
    out = {"velocities/pi-rad_sec": pqri[0], "velocities/qi-rad_sec": pqri[1], "velocities/ri-rad_sec": pqri[2]}
    return {k: float(v) for k, v in out.items()}, None


def _terrain_radius(view):
    """The distance from the centre to the ground under the aircraft."""
    _, lat, lon, _ = view.part(_where)
    ground = view.part(_height)
    a, b = view.part(_planet)[4:6]
    return {"metrics/terrain-radius": float(np.linalg.norm(ecef(math.radians(lat), math.radians(lon), ground, a,
                                                                  b)))}, None


def _orbit(view):
    """The ``orbital/*`` properties (:func:`orbit`)."""
    _, r_eci, v_eci, gm, _, _, _ = view.part(_planet)
    return {k: float(v) for k, v in orbit(r_eci, v_eci, gm).items()}, None


def _mass(view):
    """The mass properties now (FGMassBalance's outputs: the fuel burns, the masses move,
    :mod:`flightsim.physics.jsbsim.fuel`; :func:`mass_properties` as loaded for a flight without them)."""
    sim = view.sim
    if sim.aircraft.jsbsim is None or sim.aircraft.jsbsim.fuel is None:
        return mass_properties(sim.aircraft.jsbsim), None
    return {name: sim.jsbsim_property(name) for name in MASS}, None


#: The function computing each of :data:`BUILTIN` (and the others of its group) in :class:`FrameView`.
_GROUPS = {}
for _group, _names in ((_height, ("position/lat-geod-deg", "position/lat-geod-rad", "position/long-gc-deg",
                                  "position/long-gc-rad", "position/h-agl-ft", "position/geod-alt-ft",
                                  "position/terrain-elevation-asl-ft")),
                       (_velocity, ("velocities/v-north-fps", "velocities/v-east-fps", "velocities/v-down-fps",
                                    "velocities/h-dot-fps", "velocities/vt-fps", "velocities/vg-fps")),
                       (_attitude, ("attitude/phi-rad", "attitude/theta-rad", "attitude/psi-rad", "attitude/phi-deg",
                                    "attitude/theta-deg", "attitude/psi-deg", "attitude/roll-rad",
                                    "attitude/pitch-rad", "attitude/heading-true-rad", "velocities/p-rad_sec",
                                    "velocities/q-rad_sec", "velocities/r-rad_sec", "velocities/u-fps",
                                    "velocities/v-fps", "velocities/w-fps", "velocities/thetadot-rad_sec",
                                    "velocities/psidot-rad_sec", "velocities/phidot-rad_sec")),
                       (_inertial_rates, ("velocities/pi-rad_sec", "velocities/qi-rad_sec",
                                          "velocities/ri-rad_sec")),
                       (_terrain_radius, ("metrics/terrain-radius",)),
                       (_planet_motion, ("velocities/eci-x-fps", "velocities/eci-y-fps", "velocities/eci-z-fps",
                                         "velocities/eci-velocity-mag-fps", "velocities/ecef-x-fps",
                                         "velocities/ecef-y-fps", "velocities/ecef-z-fps")),
                       (_orbit, tuple(n for n in BUILTIN if n.startswith("orbital/"))),
                       (_mass, MASS)):
    for _name in _names:
        _GROUPS[_name] = _group
for _name in BUILTIN:
    if _name != "simulation/sim-time-sec":
        _GROUPS.setdefault(_name, _planet)


class FrameView:
    """The built-in properties of the flight ``sim`` now (``t``: the script's clock, s), each group of them
    (the height, the velocity, the Earth-centred position, the attitude, the inertial rates, the orbit, the mass)
    computed when one of it is first read, then kept: what :func:`read_all` gives, name by name.  (Valid while the
    flight's state stays as it was; :meth:`at` moves the clock alone.)"""

    def __init__(self, sim, t):
        self.sim = sim
        self.t = float(t)
        self.values = {"simulation/sim-time-sec": self.t}
        self._parts = {}

    def at(self, t):
        """The same state read at the clock ``t`` (s)."""
        self.t = float(t)
        self.values["simulation/sim-time-sec"] = self.t
        return self

    def part(self, group):
        """What the group's function ``group`` gives beside its properties (computing them once)."""
        try:
            return self._parts[group]
        except KeyError:
            pass
        if group is _where:
            self._parts[group] = found = _where(self)
            return found
        values, found = group(self)
        self.values.update(values)
        self._parts[group] = found
        return found

    def __getitem__(self, name):
        try:
            return self.values[name]
        except KeyError:
            pass
        group = _GROUPS.get(name)
        if group is None:
            raise KeyError(name)
        self.part(group)
        return self.values[name]

    def all(self):
        """Every built-in property as a dict (the mass properties where the aircraft is JSBSim's)."""
        return {name: self[name] for name in BUILTIN if name not in MASS or self.sim.aircraft.jsbsim is not None}


def read_all(sim, t):
    """The built-in properties of the flight ``sim`` now (``t``: the script's clock, s) as a dict."""
    return FrameView(sim, t).all()

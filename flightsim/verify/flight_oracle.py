"""JSBSim as it ships (its rotating WGS-84 Earth), or bent onto a flat planet: the trajectory oracle.

By default JSBSim flies on its own planet (:func:`round_fdm`: WGS-84, or the aircraft file's ``<planet>``,
turning, J2 gravitation), started at a geodetic latitude and longitude (0°, 0° by default) — what flightsim's
round planet (:mod:`flightsim.physics.planet`, ``Simulation(planet="round", lat=, lon=)``) flies too.  The
flat comparison stays as an option (``planet="flat"``): the study (``shared/reference/jsbsim-aircraft.md`` §4)
found that JSBSim has no flat-Earth switch but that a planet can be redefined; on a *non-rotating, J2-free
sphere a thousand times the Earth's size* (:data:`FLAT_RADIUS`, :data:`G`) JSBSim flies in a flat,
constant-gravity, inertial world, which is flightsim's flat planet.  This module makes either JSBSim
(:func:`planet_fdm`, :func:`flat_fdm`, :func:`round_fdm`), trims an aircraft with JSBSim's own full trim
(:func:`jsbsim_trim`), flies a doublet programme from the trim and records it (:func:`jsbsim_doublet`,
:func:`doublet_controls`), and compares two trajectories (:func:`compare_trajectories`, :data:`TOLERANCES`).

Frames, signs and units (flightsim's unless said):

* earth frame x North, y West, z up; positions here are kept as ``north`` and ``east`` (ft; flightsim's
  y = −east) from the start — on the round planet in the start's tangent plane, as flightsim's view — and the
  altitude above sea level (ft; on the round planet the height above the ellipsoid, ``position/geod-alt-ft``);
* body frame x forward, y left, z up: the body rates ``p, q, r`` (rad/s) are about these axes, as in
  :mod:`flightsim.simulation.trace` — p is JSBSim's p, q and r are minus JSBSim's (whose y is right and z
  down), so a nose-up pitch rate has q < 0 and a nose-right yaw rate r < 0;
* angles in degrees with aviation signs: roll + right wing down, pitch + nose up, heading 0–360 clockwise
  from North (JSBSim's φ, θ, ψ, which are the same);
* controls (flightsim's): throttle 0..1, elevator +1 nose up, aileron +1 roll right, rudder +1 nose right,
  flaps 0..1.  In JSBSim's commands (verified on c172p, t6texan2 and 737 by flying each sign from the trim):
  ``fcs/throttle-cmd-norm`` = throttle, ``fcs/elevator-cmd-norm`` = −elevator,
  ``fcs/pitch-trim-cmd-norm`` = −pitch trim, ``fcs/aileron-cmd-norm`` = +aileron,
  ``fcs/rudder-cmd-norm`` = −rudder, ``fcs/flap-cmd-norm`` = flaps;
* speeds in ft/s, the airspeed is the true airspeed (JSBSim's ``velocities/vt-fps``; there is no wind).

JSBSim 1.3 traps met here (each verified on the ``jsbsim`` 1.3.3 package):

* ``FGFDMExec::DoTrim`` leaves the *aircraft* trimmed but not its *initial conditions*: ``ic/alpha-deg``
  stays 0.  A ``run_ic()`` after the trim therefore undoes it (the c172p at 175 ft/s then sinks 2 ft and
  gains 0.3 ft/s in 5 s, the 737 at 420 ft/s 51 ft and 4.2 ft/s).  The trimmed FDM must be flown as the trim leaves it.
* The trim itself runs ``FGPropulsion::GetSteadyState`` whenever it moves the throttle, so the engines come
  out in steady state (c172p at 100 kt: 2163 rpm, held to 0.001 rpm over 5 s): no second ``run_ic`` or
  ``get_steady_state`` is wanted.  (The study's "second run_ic + GetSteadyState" is for a *fresh* FDM
  seeded by ``ic/*`` from a trimmed state, not for the trimmed FDM itself.)
* JSBSim's full trim (``do_trim(1)``) trims the *pitch trim* for q̇ = 0, not the elevator (which keeps its
  command, 0 here), and the roll angle φ for v̇ = 0 (so "wings level" is to within what the trim needs,
  e.g. c172p's offset pilot); β stays 0.
* A failed trim prints JSBSim's reason ("wdot doesn't appear to be trimmable") to stdout and raises
  ``jsbsim.TrimFailureError("Trim Failed")``; :func:`jsbsim_trim` raises :class:`JSBSimTrimError` naming
  the aircraft and the condition.
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass, field, fields

import numpy as np

from flightsim.verify.oracle import model_file, new_fdm, start_pistons

__all__ = ["DEFAULT_SCHEDULE", "FLAT_RADIUS", "G", "PLANETS", "TOLERANCES", "JSBSimTrim", "JSBSimTrimError",
           "Trajectory", "TrajectoryDifference", "compare_trajectories", "doublet_controls", "engine_state",
           "flat_fdm", "jsbsim_doublet", "jsbsim_trim", "planet_fdm", "round_fdm"]

#: The planets JSBSim flies on here: "round" (as it ships: the default) and "flat" (:func:`flat_fdm`).
PLANETS = ("round", "flat")

#: Standard gravity, ft/s² (9.80665 m/s²; JSBSim's ``gAccelReference``): the flat planet's gravity at its sea level.
G = 9.80665 / 0.3048
#: The flat planet's radius, ft: a thousand times the WGS84 semimajor axis, so over 120 s at 200 ft/s its
#: curvature drops 0.014 ft and tilts gravity by 1.2e-6 rad, while positions (2e10 ft from its centre) keep
#: ~5e-6 ft of resolution in double precision.
FLAT_RADIUS = 20925646325.46
#: The flat planet, as JSBSim's ``<planet>`` element: a sphere, not rotating, no J2, GM = G·R².
FLAT_PLANET_XML = f"""<?xml version="1.0"?>
<planet name="flightsim-flat">
  <equatorial_radius unit="FT">{FLAT_RADIUS!r}</equatorial_radius>
  <polar_radius unit="FT">{FLAT_RADIUS!r}</polar_radius>
  <rotation_rate unit="RAD/SEC">0.0</rotation_rate>
  <GM unit="FT3/SEC2">{G * FLAT_RADIUS * FLAT_RADIUS!r}</GM>
  <J2>0.0</J2>
</planet>
"""

#: The planet file, written once per process into a temporary folder it owns (removed at exit).
_PLANET_DIR = None


def _planet_path():
    """The flat planet's XML file (written on first use)."""
    global _PLANET_DIR
    if _PLANET_DIR is None:
        _PLANET_DIR = tempfile.TemporaryDirectory(prefix="flightsim-planet-")
        with open(os.path.join(_PLANET_DIR.name, "flat_planet.xml"), "w", encoding="utf-8") as f:
            f.write(FLAT_PLANET_XML)
    return os.path.join(_PLANET_DIR.name, "flat_planet.xml")


def flat_fdm(name, dt=1.0 / 120.0):
    """A quiet JSBSim with aircraft ``name`` on the flat planet, fuel frozen.

    :func:`~flightsim.verify.oracle.new_fdm` (dt set before loading, output and input off), then
    ``load_planet`` with :data:`FLAT_PLANET_XML` (``FGFDMExec::LoadPlanet`` reloads the planet constants and
    re-initialises the models and the initial conditions, so it comes after ``load_model``), the gravity law
    ``simulation/gravity-model`` = 0 (GM/r², not WGS84 + J2) and ``propulsion/fuel_freeze`` = 1 (a
    write-only property: it reads 0 whatever was written, but the fuel stays put — c172p burns 0.10 lb in
    10 s without it, 0 with it).

    Measured (``accelerations/gravity-ft_sec2`` after ``run_ic``): g = 32.174049 ft/s² at 0 ft and
    32.174018 ft/s² at 10,000 ft (GM/(R + h)², a relative drop of 2h/R ≈ 1e-6); the sea-level radius is
    :data:`FLAT_RADIUS` at every latitude; the atmosphere is JSBSim's standard one, unchanged (it uses its
    own radius for geopotential altitude).

    Parameters
    ----------
    name : str
        A JSBSim aircraft of the ``jsbsim`` package (``"c172p"``, ``"737"``, ...), or a path to an aircraft file
        (``….xml``, :func:`~flightsim.verify.oracle.new_fdm`).
    dt : float, optional
        The frame, s (JSBSim's FCS copies it when the model loads).

    Returns
    -------
    jsbsim.FGFDMExec
        Loaded, not yet initialised (no ``run_ic``).
    """
    fdm = new_fdm(name, dt)
    if not fdm.load_planet(_planet_path(), False):
        raise RuntimeError(f"JSBSim could not load the flat planet for {name!r}")
    fdm["simulation/gravity-model"] = 0
    fdm["propulsion/fuel_freeze"] = 1
    return fdm


def round_fdm(name, dt=1.0 / 120.0):
    """A quiet JSBSim with aircraft ``name`` on its own planet, fuel frozen: JSBSim as it ships.

    :func:`~flightsim.verify.oracle.new_fdm` and ``propulsion/fuel_freeze`` = 1; the planet is the one JSBSim
    loads (WGS-84, or the aircraft file's ``<planet>``), turning at Ω, with its J2 gravitation
    (``simulation/gravity-model`` 1, JSBSim's default).  Measured after ``run_ic`` at 0°N 0°E, 4000 ft:
    ``accelerations/gravity-ft_sec2`` = 32.186484 (the gravitation; less Ω²r = 0.111 the effective gravity
    32.0752 ft/s², :func:`flightsim.physics.planet.effective_gravity`).  Loaded, not yet initialised.
    """
    fdm = new_fdm(name, dt)
    fdm["propulsion/fuel_freeze"] = 1
    return fdm


def planet_fdm(name, dt=1.0 / 120.0, planet="round"):
    """:func:`round_fdm` (``planet`` "round") or :func:`flat_fdm` ("flat")."""
    if planet == "round":
        return round_fdm(name, dt)
    if planet == "flat":
        return flat_fdm(name, dt)
    raise ValueError(f"planet: must be one of {', '.join(PLANETS)}, got {planet!r}")


def _place(fdm, planet, lat, lon):
    """The initial position: geodetic ``lat``, ``lon`` (deg) on the round planet; 0°, 0° on the flat one (a
    sphere: any point is as good)."""
    if planet == "round":
        fdm["ic/lat-geod-deg"] = lat
        fdm["ic/long-gc-deg"] = lon
    else:
        fdm["ic/lat-gc-deg"] = 0.0
        fdm["ic/long-gc-deg"] = 0.0


class JSBSimTrimError(RuntimeError):
    """JSBSim's full trim found no solution at the condition asked for."""


def engine_state(fdm):
    """Each engine's state now, as a tuple of dicts (one per engine) with what the engine has of ``rpm`` and
    ``propeller_rpm`` (piston + propeller, rev/min), ``n1``, ``n2`` (turbines, %) and ``thrust`` (lbf)."""
    manager = fdm.get_property_manager()
    out = []
    for k in range(fdm.get_propulsion().get_num_engines()):
        prefix = f"propulsion/engine[{k}]/"
        out.append({key: fdm[prefix + prop] for key, prop in
                    (("rpm", "engine-rpm"), ("propeller_rpm", "propeller-rpm"), ("n1", "n1"), ("n2", "n2"),
                     ("thrust", "thrust-lbs")) if manager.hasNode(prefix + prop)})
    return tuple(out)


@dataclass
class JSBSimTrim:
    """A JSBSim aircraft trimmed by JSBSim's full trim, in level flight on its planet.

    Attributes
    ----------
    fdm : jsbsim.FGFDMExec
        The trimmed JSBSim, at simulation time 0; flying it (``fdm.run()``) holds the trim.  Do not
        ``run_ic()`` it: that restores the untrimmed initial conditions (see the module's traps).
    name : str
        The aircraft.
    airspeed, altitude, heading, flaps, dt : float
        The condition asked for: true airspeed (ft/s), altitude above the flat planet's sea level (ft),
        heading (deg, 0–360 clockwise from North), flaps (0..1) and JSBSim's frame (s).
    alpha, pitch, roll : float
        Angle of attack, pitch and roll angles (deg, aviation signs) of the trim.
    throttle : float
        Engine 0's ``fcs/throttle-cmd-norm`` (0..1).
    elevator, pitch_trim, aileron, rudder : float
        The controls in flightsim's signs (elevator and pitch trim +1 nose up, aileron +1 roll right,
        rudder +1 nose right); JSBSim's full trim moves the pitch trim, not the elevator.
    throttles : tuple of float
        Every engine's ``fcs/throttle-cmd-norm[k]``.
    engines : tuple of dict
        Every engine's state at the trim: ``rpm`` and ``propeller_rpm`` (piston), ``n1``, ``n2`` (%,
        turbines), ``thrust`` (lbf), whichever the engine has.
    u, w : float
        Body velocity components, ft/s, in JSBSim's body axes (x forward, z down; v = 0).
    """

    fdm: object = field(repr=False)
    name: str
    airspeed: float
    altitude: float
    heading: float
    flaps: float
    dt: float
    alpha: float
    pitch: float
    roll: float
    throttle: float
    elevator: float
    pitch_trim: float
    aileron: float
    rudder: float
    throttles: tuple
    engines: tuple
    u: float
    w: float
    #: Flight-path angle, deg (0: level; a glider's glide).
    gamma: float = 0.0
    #: Set at flightsim's trimmed glide (:func:`jsbsim_glide`), not trimmed by JSBSim.
    seeded: bool = False
    #: The constant-speed propellers' rpm command (None: JSBSim's default), and, where a governor had to be
    #: held (:func:`jsbsim_trim`), the blade angle found (deg).
    advance: object = None
    blade_angle: object = None
    #: The planet (:data:`PLANETS`) and, on the round one, the geodetic latitude and longitude of the start (deg).
    planet: str = "round"
    lat: float = 0.0
    lon: float = 0.0


def jsbsim_trim(name, airspeed_fps, altitude_ft, flaps=0.0, heading_deg=0.0, dt=1.0 / 120.0, advance=None,
                planet="round", lat=0.0, lon=0.0, gear=1.0):
    """Trim JSBSim's ``name`` in straight, level flight on its planet with JSBSim's own full trim.

    A :func:`planet_fdm` at geodetic ``lat``, ``lon`` (the flat planet: 0, 0), ``ic/vt-fps`` = ``airspeed_fps``
    (true airspeed), ``ic/h-sl-ft`` = ``altitude_ft``, ``ic/psi-true-deg`` = ``heading_deg``, flight-path angle 0, the
    flaps commanded, the engines running (``propulsion/set-running`` = −1), ``run_ic()``, then
    ``do_trim(1)`` (JSBSim's ``tFull``: α for ẇ, throttle for u̇, pitch trim for q̇, φ for v̇, aileron for
    ṗ, rudder for ṙ; it runs the engines to steady state at each throttle it tries).  The FDM is left as
    the trim leaves it: trimmed, engines in steady state, at time 0.

    On the round planet the trim balances the effective gravity there (gravitation and the centrifugal term:
    ``FGAccelerations``) with the body not turning relative to the Earth: a straight line, which the Earth's
    curve then drops away from (as flightsim's round planet flies its level trim).

    Measured on the flat planet, drift over 5 s hands-off (dt = 1/120): c172p at 168.78 ft/s (100 kt), 4000 ft:
    +0.001 ft, −0.0003 ft/s; t6texan2 at 300 ft/s, 8000 ft: −0.006 ft, −0.0004 ft/s; 737 at 420 ft/s, 10,000 ft:
    −0.001 ft, −0.0003 ft/s.

    Parameters
    ----------
    name : str
        The aircraft (a JSBSim aircraft of the ``jsbsim`` package, or a path to an aircraft file).
    airspeed_fps : float
        True airspeed, ft/s.
    altitude_ft : float
        Altitude above the flat planet's sea level, ft.
    flaps : float, optional
        Flap command 0..1 (``fcs/flap-cmd-norm``), held through the trim (the trim settles the flap
        kinematics at once).
    heading_deg : float, optional
        True heading, deg clockwise from North.
    dt : float, optional
        JSBSim's frame, s.
    advance : float, optional
        Every constant-speed propeller's rpm command (``fcs/advance-cmd-norm[k]``; flightsim's default is 1, the
        highest rpm); None leaves JSBSim's, 0 (the lowest).
    planet : {"round", "flat"}, optional
        JSBSim's own planet (the default) or the flat one (:func:`planet_fdm`).
    lat, lon : float, optional
        The start's geodetic latitude and longitude on the round planet, deg.
    gear : float, optional
        The gear lever, ``gear/gear-cmd-norm``: 1 down (JSBSim's default), 0 up; the trim settles the aircraft's
        gear kinematic at it, as it does the flaps'.

    Returns
    -------
    JSBSimTrim

    Raises
    ------
    JSBSimTrimError
        When JSBSim's trim fails (too slow for the clean wing, not enough thrust, ...).
    """
    import jsbsim

    def trimmed(blade_angle=None):
        fdm = planet_fdm(name, dt, planet)
        _place(fdm, planet, lat, lon)
        fdm["ic/h-sl-ft"] = altitude_ft
        fdm["ic/psi-true-deg"] = heading_deg
        fdm["ic/gamma-deg"] = 0.0
        fdm["ic/vt-fps"] = airspeed_fps
        fdm["fcs/flap-cmd-norm"] = flaps
        fdm["gear/gear-cmd-norm"] = gear
        if advance is not None:
            for k in range(fdm.get_propulsion().get_num_engines()):
                fdm[f"fcs/advance-cmd-norm[{k}]"] = advance
        fdm["propulsion/set-running"] = -1
        fdm.run_ic()
        start_pistons(fdm, range(fdm.get_propulsion().get_num_engines()))   # (what set-running left stopped)
        for k in governed if blade_angle is not None else ():     # the governor held off: manual pitch
            fdm[f"propulsion/engine[{k}]/constant-speed-mode"] = 0
            fdm[f"propulsion/engine[{k}]/blade-angle"] = blade_angle
        try:
            fdm.do_trim(1)
        except jsbsim.TrimFailureError as e:
            raise JSBSimTrimError(f"JSBSim's full trim failed for {name!r} at {airspeed_fps} ft/s true airspeed, "
                                  f"{altitude_ft} ft, flaps {flaps}: {e}") from e
        return fdm

    governed = _governed(name, advance)
    pitch = None
    if governed:
        fdm, pitch = _governed_trim(trimmed, governed, name, airspeed_fps, altitude_ft, flaps)
    else:
        fdm = trimmed()
    n = fdm.get_propulsion().get_num_engines()
    throttles = tuple(fdm[f"fcs/throttle-cmd-norm[{k}]"] for k in range(n))
    return JSBSimTrim(
        fdm=fdm, name=name, airspeed=float(airspeed_fps), altitude=float(altitude_ft),
        heading=float(heading_deg), flaps=float(flaps), dt=float(dt),
        alpha=fdm["aero/alpha-deg"], pitch=fdm["attitude/theta-deg"], roll=fdm["attitude/phi-deg"],
        throttle=throttles[0] if throttles else 0.0,
        elevator=0.0 - fdm["fcs/elevator-cmd-norm"], pitch_trim=0.0 - fdm["fcs/pitch-trim-cmd-norm"],
        aileron=fdm["fcs/aileron-cmd-norm"], rudder=0.0 - fdm["fcs/rudder-cmd-norm"],
        throttles=throttles, engines=engine_state(fdm), u=fdm["velocities/u-fps"], w=fdm["velocities/w-fps"],
        advance=advance, blade_angle=pitch, planet=planet, lat=float(lat), lon=float(lon))


def _governed(name, advance):
    """``{engine: (rpm its governor holds, lowest and highest blade angle)}`` for ``name``'s constant-speed
    propellers at the rpm command ``advance`` (None: JSBSim's default, 0)."""
    from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
    from flightsim.physics.jsbsim.propeller import PR_MAX_PITCH, PR_MAX_RPM, PR_MIN_PITCH, PR_MIN_RPM

    engines = load_jsbsim_aircraft(name if model_file(name) else f"jsbsim:{name}").jsbsim.propulsion
    lever = 0.0 if advance is None else float(advance)
    out = {}
    for k, (kind, row) in enumerate(engines.kinds):
        if kind != "piston":
            continue
        pr = engines.propellers[row]
        if pr[PR_MIN_PITCH] != pr[PR_MAX_PITCH] and pr[PR_MAX_RPM] > 0.0:
            out[k] = (pr[PR_MIN_RPM] + (pr[PR_MAX_RPM] - pr[PR_MIN_RPM]) * lever, pr[PR_MIN_PITCH], pr[PR_MAX_PITCH])
    return out


#: The blade angle's bisection in :func:`_governed_trim` stops when its bracket is this narrow, deg (about 0.01 rpm).
BLADE_RESOLUTION = 1e-4


def _governed_trim(trimmed, governed, name, airspeed_fps, altitude_ft, flaps):
    """JSBSim's trim of an aircraft whose propellers are governed.

    ``FGPropulsion::GetSteadyState`` marches the engines in 0.5 s steps, through which a governor (its pitch
    moving by the rpm error times the step) overshoots: JSBSim's own trim fails.  So the governors are held
    off (``constant-speed-mode`` 0: manual pitch) at a blade angle, JSBSim trims, and the blade angle is
    bisected until the trimmed propeller turns at the rpm its governor holds (a trim that fails counts as a
    blade too coarse); then the governors are on again, with nothing left to correct.  Returns the fdm and
    the blade angle (deg)."""
    k = next(iter(governed))
    target, lo, hi = governed[k]
    best = None
    for _ in range(40):
        if hi - lo < BLADE_RESOLUTION:
            break
        mid = 0.5 * (lo + hi)
        try:
            fdm = trimmed(mid)
            rpm = fdm[f"propulsion/engine[{k}]/propeller-rpm"]
        except JSBSimTrimError:
            hi = mid
            continue
        best = (fdm, mid)
        if rpm > target:
            lo = mid
        else:
            hi = mid
        if abs(rpm - target) < 1e-6 * target:
            break
    if best is None:
        raise JSBSimTrimError(f"JSBSim's full trim failed for {name!r} at {airspeed_fps} ft/s true airspeed, "
                              f"{altitude_ft} ft, flaps {flaps}: at every blade angle tried, its governor held off")
    fdm, pitch = best
    for e in governed:
        fdm[f"propulsion/engine[{e}]/constant-speed-mode"] = 1
    return fdm, pitch


def jsbsim_glide(name, airspeed_fps, altitude_ft, alpha_deg, gamma_deg, elevator, heading_deg=0.0,
                 dt=1.0 / 120.0, planet="round", lat=0.0, lon=0.0):
    """JSBSim's ``name``, an aircraft without an engine, set at a steady glide found by flightsim's trim.

    JSBSim's full trim needs an engine (it trims u̇ with the throttle; its fallback to the flight-path angle
    is not reachable from the Python API), so a glider is *seeded*: a :func:`planet_fdm` (at ``lat``, ``lon``)
    with ``ic/vt-fps``,
    ``ic/alpha-deg``, ``ic/gamma-deg`` (wings level) and the elevator command (flightsim's ``elevator``,
    sign changed) set, then ``run_ic()``.  The same model gives the same loads (the replays), so a glide
    trimmed by flightsim holds in JSBSim too; :func:`jsbsim_doublet` flies from it as from a trim.

    Returns
    -------
    JSBSimTrim
        With ``seeded`` True and ``gamma`` the glide angle (deg).
    """
    fdm = planet_fdm(name, dt, planet)
    _place(fdm, planet, lat, lon)
    fdm["ic/h-sl-ft"] = altitude_ft
    fdm["ic/psi-true-deg"] = heading_deg
    fdm["ic/vt-fps"] = airspeed_fps
    fdm["ic/alpha-deg"] = alpha_deg
    fdm["ic/gamma-deg"] = gamma_deg
    fdm["fcs/elevator-cmd-norm"] = -elevator
    fdm.run_ic()
    return JSBSimTrim(
        fdm=fdm, name=name, airspeed=float(airspeed_fps), altitude=float(altitude_ft), heading=float(heading_deg),
        flaps=0.0, dt=float(dt), alpha=fdm["aero/alpha-deg"], pitch=fdm["attitude/theta-deg"],
        roll=fdm["attitude/phi-deg"], throttle=0.0, elevator=float(elevator), pitch_trim=0.0, aileron=0.0,
        rudder=0.0, throttles=(), engines=(), u=fdm["velocities/u-fps"], w=fdm["velocities/w-fps"],
        gamma=float(gamma_deg), seeded=True, planet=planet, lat=float(lat), lon=float(lon))


#: A little slack on the schedule's edges, s, so that ``i·dt`` rounding (120·(1/120) ≠ 1 in floating point
#: for some dt) never moves an edge by a frame.
_EDGE = 1e-9


def doublet_controls(t, trim, elevator=0.1, aileron=0.1):
    """The doublet programme: flightsim's controls at time ``t`` after the trim.

    From the trim's controls: aileron ``trim.aileron + aileron`` for 1 ≤ t < 3 s, ``trim.aileron −
    aileron`` for 3 ≤ t < 5 s; elevator ``trim.elevator + elevator`` for 6 ≤ t < 7 s, ``trim.elevator −
    elevator`` for 7 ≤ t < 8 s; otherwise (and throttle, rudder and flaps always) the trim's.  The pitch
    trim is not a control here: it stays at the trim's.  Edges are taken ``1e-9`` s early, so that a frame
    starting at ``i·dt`` ≈ an edge is on its later side whatever the rounding.

    Parameters
    ----------
    t : float
        Time since the trim, s.
    trim : JSBSimTrim or object
        Anything with ``throttle, elevator, aileron, rudder, flaps`` in flightsim's signs (flightsim's own
        trim too).
    elevator, aileron : float
        The doublets' amplitudes (flightsim's signs: + is nose up, roll right first).

    Returns
    -------
    tuple of float
        ``(throttle, elevator, aileron, rudder, flaps)``, flightsim's signs.
    """
    t = t + _EDGE
    da = aileron if 1.0 <= t < 3.0 else -aileron if 3.0 <= t < 5.0 else 0.0
    de = elevator if 6.0 <= t < 7.0 else -elevator if 7.0 <= t < 8.0 else 0.0
    return (trim.throttle, trim.elevator + de, trim.aileron + da, trim.rudder, trim.flaps)


#: The default programme of :func:`jsbsim_doublet`.
DEFAULT_SCHEDULE = doublet_controls


@dataclass
class Trajectory:
    """A flight recorded frame by frame: row ``k`` is the state at ``t[k]`` and the controls commanded then.

    Attributes
    ----------
    t : numpy.ndarray
        Time, s (0 at the trim).
    airspeed : numpy.ndarray
        True airspeed, ft/s.
    altitude : numpy.ndarray
        Altitude above sea level (the flat planet's; the round planet's ellipsoid), ft.
    roll, pitch, heading : numpy.ndarray
        deg, aviation signs: roll + right wing down, pitch + nose up, heading 0–360 clockwise from North.
    p, q, r : numpy.ndarray
        Body rates about flightsim's body axes (x forward, y left, z up), rad/s: p = JSBSim's p,
        q = −JSBSim's q, r = −JSBSim's r.
    north, east : numpy.ndarray
        Position from the start, ft (flightsim's x = north, y = −east): over the flat planet, or in the round
        planet's tangent plane at the start (flightsim's view).
    throttle, elevator, aileron, rudder, flaps : numpy.ndarray
        The controls commanded at ``t`` and held through the frame that starts there (flightsim's signs).
    trim : JSBSimTrim or None
        The trim flown from (its ``fdm`` is left at the end of the flight); None for a trajectory not
        flown by JSBSim.
    """

    t: np.ndarray
    airspeed: np.ndarray
    altitude: np.ndarray
    roll: np.ndarray
    pitch: np.ndarray
    heading: np.ndarray
    p: np.ndarray
    q: np.ndarray
    r: np.ndarray
    north: np.ndarray
    east: np.ndarray
    throttle: np.ndarray
    elevator: np.ndarray
    aileron: np.ndarray
    rudder: np.ndarray
    flaps: np.ndarray
    trim: object = field(default=None, repr=False)


def _record(fdm, lat0, lon0, radius):
    """The recorded quantities now, in :class:`Trajectory`'s order from ``airspeed`` to ``east`` (north and
    east from the start at ``lat0, lon0``, rad, along arcs of ``radius``, ft)."""
    lat, lon = fdm["position/lat-gc-rad"], fdm["position/long-gc-rad"]
    dlon = (lon - lon0 + math.pi) % (2.0 * math.pi) - math.pi
    return (fdm["velocities/vt-fps"], fdm["position/h-sl-ft"], fdm["attitude/phi-deg"],
            fdm["attitude/theta-deg"], fdm["attitude/psi-deg"] % 360.0, fdm["velocities/p-rad_sec"],
            -fdm["velocities/q-rad_sec"], -fdm["velocities/r-rad_sec"],
            radius * (lat - lat0), radius * math.cos(lat0) * dlon)


def _record_round(fdm, packed):
    """:func:`_record` on the round planet: the height above the ellipsoid, and north and east in the tangent
    plane at the start (``packed``: :func:`flightsim.physics.planet.pack` of the start), as flightsim's view."""
    from flightsim.physics.planet import P_A, P_B, P_NORTH, P_ORIGIN, P_WEST, ecef

    h = fdm["position/geod-alt-ft"]
    x, y, z = ecef(fdm["position/lat-geod-rad"], fdm["position/long-gc-rad"], h, packed[P_A], packed[P_B])
    d = np.array([x, y, z]) - packed[P_ORIGIN:P_ORIGIN + 3]
    return (fdm["velocities/vt-fps"], h, fdm["attitude/phi-deg"],
            fdm["attitude/theta-deg"], fdm["attitude/psi-deg"] % 360.0, fdm["velocities/p-rad_sec"],
            -fdm["velocities/q-rad_sec"], -fdm["velocities/r-rad_sec"],
            float(d @ packed[P_NORTH:P_NORTH + 3]), -float(d @ packed[P_WEST:P_WEST + 3]))


def jsbsim_doublet(name, trim, duration=30.0, dt=1.0 / 120.0, elevator=0.1, aileron=0.1,
                   schedule=DEFAULT_SCHEDULE):
    """Fly JSBSim's ``name`` from a trim through a control programme on the trim's planet and record it.

    The flight starts from a fresh :func:`jsbsim_trim` at ``trim``'s condition and ``dt`` (so ``trim``'s
    own FDM is not used up, the same call gives the same trace bit for bit, and a ``dt`` other than the
    trim's gets JSBSim's FCS loaded at that dt).  Frame ``i`` starts at ``t = i·dt``:
    ``schedule(t, trim, elevator, aileron)`` gives flightsim's controls, which are written to JSBSim's
    commands (throttle change added to each engine's trimmed throttle; elevator, aileron and rudder with
    the signs in the module's notes; the pitch trim left at the trim's) and ``fdm.run()`` advances to
    ``(i + 1)·dt``.  The default :func:`doublet_controls` flies aileron +A for 2 s from t = 1, −A for 2 s,
    then elevator +E for 1 s at t = 6, −E for 1 s, then hands off at the trim.

    On the round planet north and east are the displacement in the start's tangent plane, as flightsim's view
    (WGS-84's ellipsoid: an aircraft naming another planet has them to that planet's flattening).
    On the flat planet they come from the geocentric latitude and longitude on the flat sphere:
    ``north = r0 (lat − lat0)``, ``east = r0 cos(lat0) (lon − lon0)``, with r0 = :data:`FLAT_RADIUS` + the
    starting altitude (the arc the aircraft flies along).  Verified on c172p's doublet (30 s, headings 0,
    90 and 225°): they agree with JSBSim's ECEF displacement to 0.001 ft and with the trapezoidal integral
    of its ``velocities/v-north-fps``, ``v-east-fps`` to 5e-5 ft over 5000 ft.

    Parameters
    ----------
    name : str
        The aircraft; must be ``trim.name``.
    trim : JSBSimTrim
        The trim to start from (its condition: airspeed, altitude, flaps, heading).
    duration : float, optional
        s; ``round(duration / dt)`` frames are flown.
    dt : float, optional
        JSBSim's frame, s.
    elevator, aileron : float, optional
        The amplitudes handed to ``schedule`` (flightsim's signs).
    schedule : callable, optional
        ``schedule(t, trim, elevator, aileron) -> (throttle, elevator, aileron, rudder, flaps)`` in
        flightsim's signs, ``trim`` being the fresh trim.

    Returns
    -------
    Trajectory
        ``round(duration / dt) + 1`` rows, from the trim at t = 0.
    """
    if name != trim.name:
        raise ValueError(f"jsbsim_doublet: aircraft {name!r} but a trim of {trim.name!r}")
    if trim.seeded:
        fresh = jsbsim_glide(name, trim.airspeed, trim.altitude, trim.alpha, trim.gamma, trim.elevator,
                             trim.heading, dt, planet=trim.planet, lat=trim.lat, lon=trim.lon)
    else:
        fresh = jsbsim_trim(name, trim.airspeed, trim.altitude, flaps=trim.flaps, heading_deg=trim.heading, dt=dt,
                            advance=trim.advance, planet=trim.planet, lat=trim.lat, lon=trim.lon)
    fdm = fresh.fdm
    frames = int(round(duration / dt))
    engines = len(fresh.throttles)
    if trim.planet == "round":
        packed = _start_planet(fdm)
        record = lambda: _record_round(fdm, packed)         # noqa: E731
    else:
        lat0, lon0 = fdm["position/lat-gc-rad"], fdm["position/long-gc-rad"]
        radius = FLAT_RADIUS + fdm["position/h-sl-ft"]
        record = lambda: _record(fdm, lat0, lon0, radius)   # noqa: E731
    state = np.empty((frames + 1, 10))
    controls = np.empty((frames + 1, 5))
    times = np.arange(frames + 1) * dt
    state[0] = record()
    for i in range(frames + 1):
        throttle, de, da, dr, df = controls[i] = schedule(float(times[i]), fresh, elevator, aileron)
        if i == frames:
            break
        for k in range(engines):
            fdm[f"fcs/throttle-cmd-norm[{k}]"] = fresh.throttles[k] + (throttle - fresh.throttle)
        fdm["fcs/elevator-cmd-norm"] = -de
        fdm["fcs/aileron-cmd-norm"] = da
        fdm["fcs/rudder-cmd-norm"] = -dr
        fdm["fcs/flap-cmd-norm"] = df
        if not fdm.run():
            raise RuntimeError(f"JSBSim stopped {name!r} at t = {times[i]:.3f} s")
        state[i + 1] = record()
    return Trajectory(times, *state.T.copy(), *controls.T.copy(), trim=fresh)


def _start_planet(fdm):
    """WGS-84 packed (:func:`flightsim.physics.planet.pack`) at the FDM's geodetic position now: the tangent plane
    the round planet's north and east are measured in."""
    from flightsim.physics.planet import WGS84, pack

    return pack(WGS84, fdm["position/lat-geod-rad"], fdm["position/long-gc-rad"])


@dataclass(frozen=True)
class TrajectoryDifference:
    """The largest |difference| over time between two trajectories (or a tolerance on it).

    Attributes
    ----------
    airspeed : float
        True airspeed, ft/s.
    height : float
        Height change from each trajectory's own start, ft.
    roll, pitch : float
        deg (roll wrapped to ±180).
    heading : float
        Heading change from each trajectory's own start, deg, wrapped to ±180.
    """

    airspeed: float
    height: float
    roll: float
    pitch: float
    heading: float

    def within(self, tolerance):
        """Whether every difference is at most ``tolerance``'s (a :class:`TrajectoryDifference`)."""
        return all(getattr(self, f.name) <= getattr(tolerance, f.name) for f in fields(self))

    def exceeding(self, tolerance):
        """The names of the differences over ``tolerance``'s."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) > getattr(tolerance, f.name))


#: Trajectory tolerances at 30 s (the study's L3, §4.4: JSBSim on the flat planet, dt = 1/120, same initial
#: state and trimmed controls, a benign manoeuvre): 5–10× JSBSim's own integration-error floor.
TOLERANCES = {
    "light": TrajectoryDifference(airspeed=0.5, height=3.0, roll=0.2, pitch=0.2, heading=0.5),
    "jet": TrajectoryDifference(airspeed=0.5, height=15.0, roll=0.2, pitch=0.2, heading=0.5),
}


def _wrap(deg):
    return (np.asarray(deg) + 180.0) % 360.0 - 180.0


def compare_trajectories(a, b):
    """The largest |difference| over time between trajectories ``a`` and ``b``.

    Compared at ``a``'s times within ``b``'s span; ``b`` is interpolated linearly where its times differ
    (on the same grid the values are taken as they are).  Heights and headings are changes from each
    trajectory's own first row; headings are unwrapped through 360 before the change is taken, and
    heading and roll differences are wrapped to ±180°.

    Parameters
    ----------
    a, b : Trajectory
        Or anything with arrays ``t, airspeed, altitude, roll, pitch, heading`` (s, ft/s, ft, deg).

    Returns
    -------
    TrajectoryDifference
    """
    ta, tb = np.asarray(a.t, dtype=np.float64), np.asarray(b.t, dtype=np.float64)
    same = ta.shape == tb.shape and np.array_equal(ta, tb)
    keep = slice(None) if same else (ta >= tb[0] - 1e-9) & (ta <= tb[-1] + 1e-9)
    if not same and not np.any(keep):
        raise ValueError("compare_trajectories: the trajectories' times do not overlap")

    def series(x, unwrap=False):
        xa, xb = np.asarray(getattr(a, x), dtype=np.float64), np.asarray(getattr(b, x), dtype=np.float64)
        if unwrap:
            xa, xb = np.unwrap(xa, period=360.0), np.unwrap(xb, period=360.0)
        return xa[keep], (xb if same else np.interp(ta[keep], tb, xb))

    def largest(d):
        return float(np.max(np.abs(d))) if d.size else 0.0

    va, vb = series("airspeed")
    ha, hb = series("altitude")
    ra, rb = series("roll", unwrap=True)
    pa, pb = series("pitch")
    ya, yb = series("heading", unwrap=True)
    h0a, h0b = float(np.asarray(a.altitude)[0]), float(np.asarray(b.altitude)[0])
    y0a = float(np.asarray(a.heading)[0])
    y0b = float(np.asarray(b.heading)[0])
    return TrajectoryDifference(
        airspeed=largest(va - vb),
        height=largest((ha - h0a) - (hb - h0b)),
        roll=largest(_wrap(ra - rb)),
        pitch=largest(pa - pb),
        heading=largest(_wrap((ya - y0a) - (yb - y0b))))

"""One JSBSim aircraft flown against JSBSim, as a row of README's "Flown against JSBSim" table.

``benchmarks/jsbsim_flight.py`` measures every aircraft of the ``jsbsim`` package that flightsim flies and
writes the table; ``flightsim verify`` measures one (yours, from its file) and prints its row.  Both go through
here, so the row reads the same:

* **loads**: the largest relative difference of the aerodynamic force and moment over a property replay of
  JSBSim's flight (:func:`~flightsim.verify.oracle.replay_aero`, 600 frames, every third compared), and of the
  thrusters' loads (:func:`~flightsim.verify.oracle.replay_propulsion`; at 100 kt with a piston, 200 kt
  otherwise; none without an engine);
* **trim**: whether flightsim's own level trim finds the condition (:func:`~flightsim.physics.trim.trim`),
  then flightsim's trim against JSBSim's full trim there: α and throttle differences;
* **trajectory**: from each one's trim, the 30 s aileron-then-elevator doublet in both, on JSBSim's rotating
  WGS-84 Earth and flightsim's round planet by default (a flat planet as an option)
  (:func:`~flightsim.verify.flight_check.compare_flight`): the largest differences of airspeed, height change,
  roll, pitch and heading change, and whether the trims and they are within the issue's bounds.

The condition is the aircraft's cruise speed (:attr:`~flightsim.physics.aircraft.Aircraft.cruise_speed`, its
wing at a lift coefficient of 0.4, 0.5 for a glider) at 3000 ft, unless :data:`CONDITIONS` names another.
Units: true airspeed ft/s, altitude ft, angles deg.
"""

from __future__ import annotations

import contextlib
import math

from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.model import START_ALTITUDE
from flightsim.physics.trim import trim
from flightsim.verify.flight_check import ALPHA_TOLERANCE, THROTTLE_TOLERANCE, compare_flight
from flightsim.verify.oracle import replay_aero, replay_propulsion

__all__ = ["CONDITIONS", "HEADER", "condition", "markdown", "measure", "row_json", "row_line", "within"]

#: The conditions of the package's aircraft other than their cruise speed at 3000 ft: NAME → (true airspeed ft/s,
#: altitude ft).
CONDITIONS = {"737": (420.0, 10000.0), "t6texan2": (300.0, 8000.0), "c172p": (168.78, 4000.0),
              "c172r": (168.78, 4000.0), "OV10": (250.0, 5000.0), "wrightFlyer1903": (45.0, 100.0),
              "paraglider": (35.0, 1000.0), "f16": (675.1, 15000.0), "f15": (700.0, 20000.0),
              "T38": (600.0, 15000.0), "XB-70": (550.0, 30000.0), "B747": (780.0, 30000.0),
              "global5000": (500.0, 20000.0), "Camel": (120.0, 2000.0), "pa28": (185.0, 4000.0),
              "c182": (215.0, 6000.0), "c310": (200.0, 5000.0), "f22": (675.1, 15000.0), "x24b": (1400.0, 5000.0),
              "B17": (200.0, 8000.0), "p51d": (350.0, 5000.0), "Boeing314": (250.0, 5000.0),
              "Shuttle": (800.0, 30000.0), "Concorde": (700.0, 30000.0), "L410": (200.0, 5000.0),
              "DHC6": (200.0, 5000.0), "pc7": (200.0, 8000.0), "pogo-jsbsim": (250.0, 5000.0),
              "C130": (400.0, 10000.0)}

#: The table's header and rule (Markdown).
HEADER = ("| aircraft | loads (rel.) | thrust (rel.) | flightsim trims | condition | Δα ° | Δthrottle | ΔV ft/s | "
          "Δh ft | Δφ ° | Δθ ° | Δψ ° | within |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def _aircraft_name(name):
    """``(--aircraft's spelling, the oracle's name)``: ``("jsbsim:NAME", "NAME")`` for the package's aircraft
    (``NAME`` or ``jsbsim:NAME``), ``(path, path)`` for a file."""
    name = str(name)
    if name.lower().endswith(".xml"):
        return name, name
    bare = name[len("jsbsim:"):] if name.startswith("jsbsim:") else name
    return f"jsbsim:{bare}", bare


def condition(name, aircraft):
    """The table's condition for ``name`` (``NAME``, ``jsbsim:NAME`` or a path; ``aircraft`` loaded from it):
    ``(true airspeed ft/s, altitude ft)`` from :data:`CONDITIONS`, else its cruise speed at 3000 ft."""
    _, bare = _aircraft_name(name)
    return CONDITIONS.get(bare, (round(aircraft.cruise_speed, 1), START_ALTITUDE))


def measure(name, airspeed=None, altitude=None, dt=1.0 / 120.0, integrator="rk4", quiet=contextlib.nullcontext,
            planet="round"):
    """One aircraft's row, as a dict.

    Parameters
    ----------
    name : str
        ``NAME`` or ``jsbsim:NAME`` (an aircraft of the ``jsbsim`` package), or a path to a JSBSim aircraft file.
    airspeed, altitude : float, optional
        The condition, true airspeed ft/s and ft; None: :func:`condition`'s.
    dt, integrator : optional
        flightsim's step (s) and integrator for the doublet; JSBSim flies at ``dt`` too.
    quiet : callable, optional
        A context manager factory around each JSBSim run (JSBSim prints from C++: a caller silences it).
    planet : {"round", "flat"}, optional
        Where both fly the doublet (:func:`~flightsim.verify.flight_check.compare_flight`): JSBSim's rotating
        WGS-84 Earth and flightsim's round planet at 0°N 0°E (the default), or a flat, still planet.

    Returns
    -------
    dict
        ``aircraft`` (``jsbsim:NAME`` or the path), ``title``, ``loads``, ``copied`` and, with an engine,
        ``thrust`` (relative); ``condition`` ``(ft/s, ft)``; ``trims`` (flightsim's own trim finds it); then
        either ``note`` (the first line of what stopped the comparison: a trim that fails in either) or
        ``alpha``, ``throttle`` (flightsim's less JSBSim's, deg and 0..1), ``trajectory``
        (:class:`~flightsim.verify.flight_oracle.TrajectoryDifference`), ``tolerance`` (the same, the bounds),
        ``trim_ok``, ``trajectory_ok``, ``height_tolerance`` (ft) and, for a glider, ``glide`` (the condition's
        words) and ``glide_angle`` (deg).

    Raises
    ------
    flightsim.errors.InputError
        flightsim does not read the aircraft.
    RuntimeError
        JSBSim cannot load it.
    """
    spelled, bare = _aircraft_name(name)
    aircraft = load_aircraft(spelled)
    row = {"aircraft": spelled, "title": aircraft.name}
    with quiet():
        r = replay_aero(bare, frames=600, every=3)
    row["loads"] = max(r.force_error, r.moment_error)
    row["copied"] = len(r.copied)
    if aircraft.jsbsim.engine_count:
        piston = any(kind == "piston" for kind, _ in aircraft.jsbsim.propulsion.kinds)
        with quiet():
            p = replay_propulsion(bare, frames=600, every=3, airspeed_kts=100.0 if piston else 200.0)
        row["thrust"] = max(p.force_error, p.moment_error)
    default = condition(name, aircraft)
    speed = default[0] if airspeed is None else float(airspeed)
    altitude = default[1] if altitude is None else float(altitude)
    row["condition"] = (speed, altitude)
    try:
        with quiet():
            c = compare_flight(spelled, speed, altitude, dt=dt, integrator=integrator, planet=planet)
    except Exception as exc:                 # JSBSim's or flightsim's trim failing there: reported, not hidden
        row["note"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:90]}"
        row["trims"] = _trims(aircraft, speed, altitude)
        return row
    row["trims"] = True                      # (compare_flight trimmed it)
    if not aircraft.jsbsim.engine_count:
        glide = trim(aircraft, speed, altitude, heading=0.0).climb_angle
        row["glide"] = f", glide {glide:.2f}° (L/D {1.0 / math.tan(math.radians(-glide)):.1f})"
        row["glide_angle"] = glide
    row.update(alpha=c.alpha[0] - c.alpha[1], throttle=c.throttle[0] - c.throttle[1], trajectory=c.trajectory,
               tolerance=c.tolerance, trim_ok=c.trim_ok, trajectory_ok=c.trajectory_ok,
               height_tolerance=c.tolerance.height)
    return row


def _trims(aircraft, speed, altitude):
    """Whether flightsim's own level trim finds the condition (asked where the comparison failed: whose trim
    failed, flightsim's or JSBSim's)."""
    try:
        trim(aircraft, speed, altitude, heading=0.0, atmosphere="isa", report_range=False)
    except Exception:                        # (TrimError, or a glider's)
        return False
    return True


def within(row):
    """Whether a row of :func:`measure` is within every bound: the trims (α 0.1°, throttle 0.01) and the
    trajectory (its tolerance); False for a row with a note."""
    return bool(row.get("trim_ok") and row.get("trajectory_ok"))


def row_line(r):
    """The table's row of :func:`measure`'s ``r`` (Markdown, the columns of :data:`HEADER`)."""
    thrust = f"{r['thrust']:.1e}" if "thrust" in r else "—"
    trims = "yes" if r["trims"] else "no"
    head = f"| {r['aircraft']} | {r['loads']:.1e} | {thrust} | {trims} |"
    if "trajectory" not in r:
        return f"{head} {r.get('note', '')} | | | | | | | | |"
    t = r["trajectory"]
    ok = "yes" if within(r) else "NO"
    return (f"{head} {r['condition'][0]:.0f} ft/s, {r['condition'][1]:.0f} ft{r.get('glide', '')} | "
            f"{r['alpha']:+.4f} | "
            f"{r['throttle']:+.4f} | {t.airspeed:.3f} | {t.height:.2f} (≤ {r['height_tolerance']:g}) | "
            f"{t.roll:.3f} | {t.pitch:.3f} | {t.heading:.3f} | {ok} |")


def markdown(rows):
    """The table: :data:`HEADER` and a :func:`row_line` per row."""
    return "\n".join([*HEADER, *(row_line(r) for r in rows)])


def row_json(r):
    """:func:`measure`'s ``r`` as JSON-ready fields named with their units (the row's numbers unrounded).

    ``aircraft``, ``title``; ``loads_rel``, ``thrust_rel`` (None without an engine); ``flightsim_trims``;
    the condition ``airspeed_ft_s`` (true), ``altitude_ft`` and, for a glider, ``glide_deg``; flightsim's less
    JSBSim's ``alpha_diff_deg`` and ``throttle_diff``; the largest differences over the doublet
    ``airspeed_diff_ft_s``, ``height_diff_ft``, ``roll_diff_deg``, ``pitch_diff_deg``, ``heading_diff_deg``; their
    bounds in ``tolerance`` (the same names less ``_diff``); ``trim_within``, ``trajectory_within`` and
    ``within``; ``note``: what stopped the comparison (then the differences are None), else None.
    """
    t, tol = r.get("trajectory"), r.get("tolerance")
    out = {"aircraft": r["aircraft"], "title": r["title"], "loads_rel": r["loads"], "thrust_rel": r.get("thrust"),
           "flightsim_trims": r["trims"], "airspeed_ft_s": r["condition"][0],
           "altitude_ft": r["condition"][1], "glide_deg": r.get("glide_angle"),
           "alpha_diff_deg": r.get("alpha"), "throttle_diff": r.get("throttle")}
    for name, unit in (("airspeed", "ft_s"), ("height", "ft"), ("roll", "deg"), ("pitch", "deg"), ("heading", "deg")):
        out[f"{name}_diff_{unit}"] = None if t is None else getattr(t, name)
    out["tolerance"] = None if tol is None else {
        "alpha_deg": ALPHA_TOLERANCE, "throttle": THROTTLE_TOLERANCE, "airspeed_ft_s": tol.airspeed,
        "height_ft": tol.height, "roll_deg": tol.roll, "pitch_deg": tol.pitch, "heading_deg": tol.heading}
    out.update(trim_within=bool(r.get("trim_ok")), trajectory_within=bool(r.get("trajectory_ok")),
               within=within(r), note=r.get("note"))
    return out

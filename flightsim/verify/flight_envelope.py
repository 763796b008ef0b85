"""One JSBSim aircraft trimmed in flightsim and in JSBSim across its envelope, not at one point (issue 40, part 5).

:mod:`flightsim.verify.flight_table` compares each aircraft at one condition; here both simulators trim the
aircraft in straight, level flight with its gear up where it retracts, at ``points`` true airspeeds from just above
the slowest JSBSim trims to the fastest it trims, at two heights (the table's, and 10,000 ft above it, 5,000 ft
where JSBSim cannot trim that high), and each point reports flightsim's less JSBSim's α and throttle, or which
simulator failed to trim and why.

The envelope is JSBSim's (the reference's): at each height the slowest speed of the ladder
:data:`SLOW` × the table's speed at which JSBSim trims (walked down from the table's speed to the first rung it
fails: JSBSim's trim holds no α limit, so the slowest it trims is above the wing's CLmax by less than a rung), up
to the fastest of the ladder :data:`FAST` × the table's speed at which it trims (walked up the same way: the
cruise or maximum level speed, its throttle ≤ 1); where JSBSim cannot trim the table's speed and none below
(higher up), the envelope is the rungs of :data:`FAST` it trims.  Both trims are as the
table's (:func:`flightsim.verify.flight_check.compare_flight`): flightsim's
:func:`~flightsim.physics.trim.trim` with the effective gravity of JSBSim's round Earth at 0°N 0°E, no
sideslip; JSBSim's full trim (:func:`~flightsim.verify.flight_oracle.jsbsim_trim`, constant-speed propellers at
their highest rpm).  Gliders have no level trim and are left out (a row with a note).

Units: true airspeed ft/s, altitude ft, angles deg, throttle 0..1.
"""

from __future__ import annotations

import contextlib
import math
import time

import numpy as np

from flightsim.physics import trim as trim_module
from flightsim.physics.aircraft import load_aircraft
from flightsim.verify import flight_oracle as oracle
from flightsim.verify.flight_check import ADVANCE, trim_gravity
from flightsim.verify.flight_table import _aircraft_name, condition

__all__ = ["FAST", "HEADER", "SLOW", "finite", "markdown", "point", "row_line", "summary", "sweep", "worst"]

#: Fractions of the table's speed tried for the envelope's slow end, from the table's speed down to the first
#: JSBSim fails (where it fails at the table's speed, on down until one trims).
SLOW = (1.0, 0.8, 0.65, 0.55, 0.45, 0.35)
#: The same up, for its fast end (the cruise or maximum level speed).
FAST = (1.2, 1.4, 1.6)
#: How far above the table's height the second height is, ft (the second value where JSBSim trims nothing there).
CLIMBS = (10000.0, 5000.0)

HEADER = ("| aircraft | gear | points both trim | speeds ft/s | heights ft | worst Δα ° (at ft/s, ft) | "
          "worst Δthrottle (at ft/s, ft) | flightsim fails | JSBSim fails |",
          "|---|---|---|---|---|---|---|---|---|")


def _reason(exc):
    """One short phrase of why a trim failed: the message's last clause, first line."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    for sep in ("flaps 0: ", "flaps 0.0: "):
        if sep in text:
            text = text.split(sep, 1)[1]
    return text.strip()[:80]


def _jsbsim(bare, speed, altitude, gear, quiet):
    with quiet():
        return oracle.jsbsim_trim(bare, speed, altitude, advance=ADVANCE, gear=gear)


def point(aircraft, bare, speed, altitude, gear, quiet=contextlib.nullcontext, theirs=None):
    """Both trims at one point: a dict of ``airspeed``, ``altitude`` (ft/s, ft), ``flightsim`` and ``jsbsim``
    (each ``{"alpha", "throttle"}`` or ``{"failed": reason}``; JSBSim's with its governors held also
    ``blade_angle`` deg and engine 0's ``propeller_rpm``), and, where both trim, ``alpha_diff`` (deg) and
    ``throttle_diff`` (flightsim's less JSBSim's); ``seconds`` each took.  ``theirs``: JSBSim's trim there, already
    found (or its exception)."""
    out = {"airspeed": float(speed), "altitude": float(altitude)}
    t0 = time.perf_counter()
    model = trim_module.AirplaneModel(aircraft, "isa", gravity=trim_gravity(aircraft, altitude, "round", 0.0, 0.0))
    try:
        p = trim_module.trim(aircraft, speed, altitude, heading=0.0, atmosphere="isa", lateral="no-sideslip",
                             model=model, report_range=False, gear=gear)
        out["flightsim"] = {"alpha": p.alpha, "throttle": p.throttle}
    except Exception as exc:                    # TrimError, or anything that stops it: reported
        out["flightsim"] = {"failed": _reason(exc)}
    t1 = time.perf_counter()
    if theirs is None:
        try:
            theirs = _jsbsim(bare, speed, altitude, gear, quiet)
        except Exception as exc:
            theirs = exc
    if isinstance(theirs, Exception):
        out["jsbsim"] = {"failed": _reason(theirs)}
    else:
        out["jsbsim"] = {"alpha": theirs.alpha, "throttle": theirs.throttle}
        if theirs.blade_angle is not None:      # its governors held (jsbsim_trim): where it left the propeller
            out["jsbsim"].update(blade_angle=theirs.blade_angle, propeller_rpm=theirs.engines[0].get("propeller_rpm"))
    out["seconds"] = {"flightsim": t1 - t0, "jsbsim": time.perf_counter() - t1}
    if "alpha" in out["flightsim"] and "alpha" in out["jsbsim"]:
        out["alpha_diff"] = out["flightsim"]["alpha"] - out["jsbsim"]["alpha"]
        out["throttle_diff"] = out["flightsim"]["throttle"] - out["jsbsim"]["throttle"]
    return out


def _ends(bare, base, altitude, gear, quiet):
    """JSBSim's slowest and fastest trimmed speeds of the ladders at ``altitude``, each ``(speed, trim)``; None
    where it trims none.  Walked outward from the table's speed, each way to the first rung it fails (a governed
    propeller's failed trim costs JSBSim tens of trims: :func:`~flightsim.verify.flight_oracle.jsbsim_trim`)."""
    def walk(fractions, found):
        for f in fractions:
            try:
                found.append((base * f, _jsbsim(bare, base * f, altitude, gear, quiet)))
            except Exception:                   # JSBSimTrimError: the end is the rung before
                if found:
                    break
        return found
    down = walk(SLOW, [])
    if not down:                                # too slow there (higher up): the envelope is above the table's speed
        up = walk(FAST, [])
        return (up[0], up[-1]) if up else None
    up = walk(FAST, [down[0]]) if down[0][0] == base else [down[0]]
    return down[-1], up[-1]


def sweep(name, points=5, quiet=contextlib.nullcontext, log=None):
    """One aircraft's envelope: a dict of ``aircraft``, ``gear`` (0 up where it retracts, else 1), ``condition``
    (the table's), ``heights`` and ``points`` (:func:`point`'s dicts), or ``note`` (why there are none).

    Parameters
    ----------
    name : str
        ``NAME`` or ``jsbsim:NAME`` (the ``jsbsim`` package's), or a path to a JSBSim aircraft file.
    points : int
        Speeds per height (≥ 2), evenly from the slow end to the fast end.
    quiet : callable
        A context manager factory around each JSBSim trim (JSBSim prints from C++).
    log : callable, optional
        Called with a line per point (progress).
    """
    if points < 2:
        raise ValueError(f"points: must be at least 2, got {points!r}")
    spelled, bare = _aircraft_name(name)
    aircraft = load_aircraft(spelled)
    gear = 0.0 if aircraft.jsbsim.retractable else 1.0
    base, height = condition(name, aircraft)
    row = {"aircraft": spelled, "gear": "up" if gear == 0.0 else "fixed", "condition": (base, height),
           "heights": [], "points": []}
    if not aircraft.jsbsim.engine_count:
        row["note"] = "glider: no level trim"
        return row
    def fly(altitude, ends):
        (v0, t0), (v1, t1) = ends
        row["heights"].append(altitude)
        for k, v in enumerate(np.linspace(v0, v1, points) if v1 > v0 else [v0]):   # (one rung: one point)
            known = t0 if k == 0 else t1 if k == points - 1 else None      # (the ends: trimmed already)
            p = point(aircraft, bare, float(v), altitude, gear, quiet, theirs=known)
            row["points"].append(p)
            if log:
                log(_point_line(spelled, p))

    def report(altitude):                       # (JSBSim trims none of the ladder there: the table's speed, reported)
        row["heights"].append(altitude)
        row["points"].append(point(aircraft, bare, base, altitude, gear, quiet))

    ends = _ends(bare, base, height, gear, quiet)
    if ends is None:                            # (none at the table's height: none searched higher)
        report(height)
        report(height + CLIMBS[0])
        row["note"] = "JSBSim trims none of the ladder"
        return row
    fly(height, ends)
    for climb in CLIMBS:
        ends = _ends(bare, base, height + climb, gear, quiet)
        if ends is not None:
            fly(height + climb, ends)
            break
    else:
        report(height + CLIMBS[0])
        row["note"] = f"JSBSim trims none of the ladder at +{CLIMBS[-1]:.0f} ft"
    return row


def _point_line(name, p):
    def side(s):
        return f"α {s['alpha']:.2f} thr {s['throttle']:.3f}" if "alpha" in s else f"fails: {s['failed']}"
    return (f"{name} {p['airspeed']:.0f} ft/s {p['altitude']:.0f} ft: flightsim {side(p['flightsim'])}; "
            f"JSBSim {side(p['jsbsim'])}")


def worst(row):
    """The row's worst points: ``(alpha point, throttle point)`` of the largest ``|alpha_diff|`` and
    ``|throttle_diff|`` among the points both trim (None, None where there are none)."""
    both = [p for p in row["points"] if "alpha_diff" in p]
    if not both:
        return None, None
    return (max(both, key=lambda p: abs(p["alpha_diff"])), max(both, key=lambda p: abs(p["throttle_diff"])))


def _fails(row, who):
    bad = [p for p in row["points"] if "failed" in p[who]]
    if not bad:
        return "0"
    reasons = sorted({p[who]["failed"] for p in bad})
    where = ", ".join(f"{p['airspeed']:.0f}/{p['altitude']:.0f}" for p in bad)
    return f"{len(bad)} ({where}): {reasons[0]}" + (f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else "")


def row_line(row):
    """The Markdown row of :func:`sweep`'s ``row`` (:data:`HEADER`'s columns)."""
    if "note" in row and not row["points"]:
        return f"| {row['aircraft']} | {row['gear']} | — | {row['note']} | | | | | |"
    pts = row["points"]
    both = sum(1 for p in pts if "alpha_diff" in p)
    speeds = sorted({round(p["airspeed"]) for p in pts})
    heights = "/".join(f"{h:.0f}" for h in row["heights"])
    a, t = worst(row)
    wa = "—" if a is None else f"{a['alpha_diff']:+.4f} ({a['airspeed']:.0f}, {a['altitude']:.0f})"
    wt = "—" if t is None else f"{t['throttle_diff']:+.4f} ({t['airspeed']:.0f}, {t['altitude']:.0f})"
    return (f"| {row['aircraft']} | {row['gear']} | {both}/{len(pts)} | {speeds[0]}–{speeds[-1]} | {heights} | "
            f"{wa} | {wt} | {_fails(row, 'flightsim')} | {_fails(row, 'jsbsim')} |")


def markdown(rows):
    """The table: :data:`HEADER` and a :func:`row_line` per row."""
    return "\n".join([*HEADER, *(row_line(r) for r in rows)])


def finite(row):
    """Whether every point both trim has finite differences (a check for the tests)."""
    return all(math.isfinite(p["alpha_diff"]) and math.isfinite(p["throttle_diff"])
               for p in row["points"] if "alpha_diff" in p)


def summary(rows):
    """A line of counts: aircraft swept, points both trim, and how many aircraft are within 0.1° and 0.01 at every
    point both trim, and with no point only one of them trims."""
    pts = [p for r in rows for p in r["points"]]
    both = [p for p in pts if "alpha_diff" in p]
    fs_only = sum(1 for p in pts if "failed" in p["flightsim"] and "alpha" in p["jsbsim"])
    js_only = sum(1 for p in pts if "failed" in p["jsbsim"] and "alpha" in p["flightsim"])
    close = sum(1 for r in rows if r["points"] and all(
        "alpha_diff" in p and abs(p["alpha_diff"]) <= 0.1 and abs(p["throttle_diff"]) <= 0.01 for p in r["points"]))
    return (f"{len(rows)} aircraft, {len(pts)} points: {len(both)} trim in both, {fs_only} only in JSBSim, "
            f"{js_only} only in flightsim; {close} aircraft trim in both at every point within 0.1° and 0.01")

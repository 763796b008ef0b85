"""Every aircraft of the jsbsim package: flightsim's compiled aerodynamics against JSBSim's, and its cost.

For each aircraft folder of the installed ``jsbsim`` package, in a process of
its own (a few package aircraft crash JSBSim itself):

* what flightsim's reader says of it (loads, or the one line naming what is
  not supported);
* the property replay of ``flightsim.verify.oracle.replay_aero``, from
  JSBSim's state and commands: the largest difference of what the flight
  controls write (rad, deg or normalised; when flightsim reads them, else the
  reason), of the auxiliary properties (relative), the largest force
  and moment difference from JSBSim's, relative to JSBSim's force and moment,
  and the CG difference (in); what the aerodynamics read that flightsim
  does not compute yet, copied from JSBSim;
* the engines' replay (``replay_propulsion``: the throttles stepped, the
  spools and thrust flightsim's own): the largest thrust, force or moment
  difference, relative (when flightsim reads the engines, else the reason);
* µs per evaluation of the aerodynamics block (the compiled program and the
  axis sums) against µs per JSBSim ``fdm.run()`` of the same aircraft (its
  whole frame), timed round-robin in the same process; their ratio.

    python benchmarks/jsbsim_aero.py [--quick] [--markdown FILE] [NAME ...]

``--quick`` compares a few aircraft over fewer frames.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import flightsim

QUICK = ("SGS", "c172p", "737")


def measure(name, frames):
    """One aircraft, in this process: a dict for the table (printed as JSON by ``--one``)."""
    import numpy as np

    from flightsim.errors import InputError
    from flightsim.physics.jsbsim.aero import Aerodynamics
    from flightsim.physics.jsbsim.fcs import FlightControls
    from flightsim.physics.jsbsim.mass import MassBalance, Metrics
    from flightsim.physics.jsbsim.propulsion import Propulsion
    from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path
    from flightsim.verify.oracle import new_fdm, replay_aero, replay_propulsion

    try:
        source = JSBSimFile(aircraft_path(name))
        aero, metrics, mass = Aerodynamics(source), Metrics.read(source), MassBalance.read(source)
    except InputError as exc:
        return {"name": name, "refused": str(exc).split(": ", 1)[1]}
    try:
        FlightControls(source)
        fcs = None
    except InputError as exc:
        fcs = str(exc).split(": ", 1)[1]
    try:
        kinds = [kind for kind, _ in Propulsion(source).kinds]
        count, engines = len(kinds), None
    except InputError as exc:
        kinds, count, engines = [], 0, str(exc).split(": ", 1)[1]
    thrust = None
    if count:
        pr = replay_propulsion(name, frames=frames, every=3, airspeed_kts=100.0 if "piston" in kinds else 200.0)
        thrust = max(pr.thrust_error, pr.force_error, pr.moment_error) if pr.largest_thrust > 0 else None
    try:
        r = replay_aero(name, frames=frames, every=3, with_fcs=fcs is None)
    except KeyError as exc:
        return {"name": name, "refused": f"reads {exc} which JSBSim computes outside the aerodynamics "
                                         "(a system not read yet)"}
    props = aero.properties.array(aero.defaults)
    rp = mass.structural_to_body(metrics.aero_rp)
    out = np.zeros(6)
    fdm = new_fdm(name)
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = 4000.0, 120.0
    fdm.run_ic()
    ours, theirs = [], []
    for _ in range(15):                                   # round-robin: 15 rounds of 200 calls each
        t0 = time.perf_counter()
        for _ in range(200):
            aero.loads(props, 0.05, 0.01, rp, out)
        t1 = time.perf_counter()
        for _ in range(200):
            fdm.run()
        t2 = time.perf_counter()
        ours.append((t1 - t0) / 200 * 1e6)
        theirs.append((t2 - t1) / 200 * 1e6)
    return {"name": name, "functions": len(aero.functions), "inputs": len(aero.inputs), "frames": r.frames,
            "force": r.force_error, "moment": r.moment_error, "cg": r.cg_error, "fcs": r.fcs_error, "fcs_refused": fcs,
            "aux": r.auxiliary_error, "copied": list(r.copied), "thrust": thrust, "engines_refused": engines,
            "us_ours": float(np.median(ours)), "us_jsbsim": float(np.median(theirs))}


def row(m):
    if "refused" in m:
        return f"| {m['name']} | — | — | — | — | — | — | — | — | — | — | — | {m['refused']} |"
    if "crashed" in m:
        return f"| {m['name']} | — | — | — | — | — | — | — | — | — | — | — | the run failed ({m['crashed']}) |"
    ratio = m["us_ours"] / m["us_jsbsim"]
    fcs = "—" if m["fcs_refused"] else f"{m['fcs']:.1e}"
    copied = ", ".join(f"`{n}`" for n in m["copied"]) if len(m["copied"]) <= 3 else f"{len(m['copied'])} properties"
    thrust = "—" if m["thrust"] is None else f"{m['thrust']:.1e}"
    why = [f"flight controls: {m['fcs_refused']}"] if m["fcs_refused"] else []
    why += [f"engines: {m['engines_refused']}"] if m["engines_refused"] else []
    return (f"| {m['name']} | {m['functions']} | {m['inputs']} | {fcs} | {m['aux']:.1e} | {m['force']:.1e} | "
            f"{m['moment']:.1e} | {thrust} | {m['cg']:.1e} | {m['us_ours']:.2f} | {m['us_jsbsim']:.1f} ({ratio:.3f}) | "
            f"{copied} | {'; '.join(why)} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="aircraft (default: every one in the package)")
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}, fewer frames")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    frames = 120 if args.quick else 600
    if args.one:
        print(json.dumps(measure(args.one, frames)))
        return 0
    from flightsim.physics.jsbsim.xmlfile import aircraft_names

    names = args.names or (list(QUICK) if args.quick else aircraft_names())
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    lines = ["| aircraft | functions | inputs | flight controls error | auxiliary error | force error | moment error | "
             "engines error | CG error (in) | µs aero (flightsim) | µs JSBSim run() (ratio) | copied from JSBSim | "
             "not read because |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines))
    worst = 0.0
    for name in names:
        cmd = [sys.executable, __file__, "--one", name] + (["--quick"] if args.quick else [])
        # the child imports the flightsim this process imported (not whichever one is installed)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(Path(flightsim.__file__).resolve().parents[1])] + os.environ.get("PYTHONPATH", "").split(os.pathsep))}
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        last = proc.stdout.strip().splitlines()[-1:] if proc.stdout.strip() else []
        try:
            m = json.loads(last[0])
        except (IndexError, json.JSONDecodeError):
            said = [line.strip() for line in proc.stderr.splitlines() if line.strip()]
            m = {"name": name, "crashed": f"exit {proc.returncode}: {said[-1] if said else 'no message'}"}
        if "force" in m:
            errors = (m["force"], m["moment"], m["fcs"], m["aux"], m["thrust"] or 0.0)
            worst = max(worst, *errors) if all(math.isfinite(e) for e in errors) else math.inf
        lines.append(row(m))
        print(lines[-1], flush=True)
    print(f"largest relative difference from JSBSim over the aircraft compared: {worst:.1e} (target ≤ 1e-9)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every script the jsbsim package ships, run by JSBSim and by ``flightsim script``, compared frame by frame.

For each ``<runscript>`` in the ``jsbsim`` package's ``scripts/`` folder (the output definitions and plot sets
there are skipped), both simulators run the same copy of the script from a temporary root of symlinks to the
package's ``aircraft/``, ``engine/`` and ``systems/`` (nothing is written into the package's folder):

* the copy's ``<run end>`` is the script's end or ``--cap`` s (default 300), whichever is sooner, and each
  ``<event>`` without a ``<notify>`` gets an empty one (it changes nothing but makes JSBSim print the event's
  heading, ``NAME (Event K) executed at time: T``, so that every event's firing can be read from its stdout);
* **JSBSim** (the ``jsbsim`` package's ``FGFDMExec``: ``load_script``, ``run_ic``, the trim a reset file
  requests as the ``JSBSim`` program runs it (:func:`ic_trim`), ``run`` until it returns false) and
  **flightsim** (:func:`flightsim.simulation.script.run_script`, RK4 at the script's ``dt``, its ``on_frame`` hook
  reading the state) each run in a subprocess of this script, recording every frame's
  geodetic latitude and longitude, height above sea level, Euler angles and true airspeed, and the notices'
  headings (which event fired at which frame);
* the row: the aircraft; whether flightsim runs the script to its end (or the one line it refuses it with, or
  where its flight stops); whether the same events fired at the same frames (±1) — ``n/m``: flightsim's and
  JSBSim's counts; over the first 60 s (or the whole run if shorter) the largest differences in horizontal
  position (ft, between the two geodetic points), height (ft), attitude (deg, the angle between the two body frames)
  and true airspeed (ft/s); for scripts starting on the ground (JSBSim's ``gear/wow`` at the first frame), the
  lift-off time of each (the first frame the CG is 5 ft above its first frame's height);
* **wall time** of each as a user runs it from the command line, start-up included: ``flightsim script
  scripts/NAME.xml --root ROOT`` and ``python -c 'import jsbsim; …load_script…; while fdm.run(): pass'`` (the
  jsbsim package has no ``JSBSim`` executable), each after the recording runs above (which warm flightsim's
  numba cache; flightsim byte-compiled first, as an install is), only where flightsim runs the script to its end,
  the least of three runs each; the ratio is JSBSim's ÷ flightsim's (above 1: flightsim is faster); and each
  one's start alone (the same script ending after its first step), and from the two the cost of a frame.

Aims (issue 40): in the air, position within 50 ft, height within 20 ft, attitude within 1° and airspeed
within 2 ft/s over those 60 s, and the same events; on the runway, the same events at the same frames and
lift-off within 1 s. A row is within them only if flightsim also runs the script to its end.

How to run
----------
::

    python benchmarks/jsbsim_scripts.py                            # all (about 6 min on 2 cores)
    python benchmarks/jsbsim_scripts.py --only rudder_kick --cap 5 # one, 5 simulated seconds
    python benchmarks/jsbsim_scripts.py --markdown table.md        # also write README's table
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

#: A notice's heading, as JSBSim (and flightsim) print it (a KML notice's inside ``<b>…</b>``).
HEADING = re.compile(r"^(?:<b>)?(.*) \(Event (\d+)\) executed at time: ([-+0-9.eE]+|nan|inf)")
#: The per-frame columns recorded: JSBSim's property names.
COLUMNS = ("simulation/sim-time-sec", "position/lat-geod-deg", "position/long-gc-deg", "position/h-sl-ft",
           "attitude/phi-deg", "attitude/theta-deg", "attitude/psi-deg", "velocities/vt-fps")
#: JSBSim's ``TrimMode::tNone`` (FGTrim.h): no trim requested.
TRIM_NONE = 6
#: The comparison window, s.
WINDOW_S = 60.0
#: Aims (issue 40): position, height (ft), attitude (deg), airspeed (ft/s); lift-off (s).
AIMS = {"pos": 50.0, "alt": 20.0, "att": 1.0, "vt": 2.0, "liftoff": 1.0}
#: Lift-off: the CG this far above its first frame's height, ft.
LIFTOFF_FT = 5.0
#: Mean Earth radius for the horizontal distance between two nearby geodetic points, ft.
EARTH_FT = 20_902_231.0
#: Why a script that flightsim runs cannot match JSBSim, where the reason is known (shown in the table).
#: (Measured with this script and with JSBSim's ``propulsion/fuel_freeze`` set; see the README's table.)
NOTES = {
    "737_cruise_steady_turn_linearize": "the turn trim (do_simple_trim 5), then do_linearization writes 737_lin.sce "
                                        "as JSBSim's (at JSBSim's trim point A within 1.3e-4, B 1.1e-5, C 5e-9 "
                                        "relative, D 0); the linearization leaves both where FGStateSpace does "
                                        "(the state set again through the IC's setters: θ 0.027 rad against the "
                                        "trim's 0.032, sinking 3.4 ft/s)",
    "737_cruise": "the fuel burns as JSBSim's (the tanks within 0.02 lb of JSBSim's over the first 30 s, the mass, CG "
                  "and inertia with them); do_simple_trim 1 runs FGTrim's iteration: φ −0.00250817 rad (JSBSim's "
                  "−0.00250817, the bank that balances the Coriolis acceleration within its tolerance), throttle "
                  "0.930294 (0.930295)",
    "737_cruise_steady_turn": "as 737_cruise: the fuel burns as JSBSim's; the turn trim (do_simple_trim 5) FGTrim's "
                              "iteration (θ 0.0318205 rad against JSBSim's 0.0318209)",
    "c3101": "the engines start in JSBSim's frames (rpm within 0.03 % over the first 20 s); on JSBSim's ground "
             "reactions its Climb event fires one frame from JSBSim's (27.733 s against 27.742 s)",
    "f16_runway_test": "the script starts no engine: both F-16s stand, their airspeed the script's 80 ft/s wind "
                       "from 15 s",
    "cannonball": "the ball strikes the ground at 813 ft/s: JSBSim's contact, stepped once a frame, bounces it; "
                  "RK4's stages through that stiff contact diverge (flightsim stops at 37.38 s, one line)",
    "ball_chute": "the ball lands 10.6 s later than JSBSim's (its WOW, the terminating event, 1,276 frames late): "
                  "the chute's force (to 560,000 lbf at deployment) acts 1 ft from the CG, which makes the ball's "
                  "pitch stiff at dt 1/120 s, and the two integrations part at the deployment",
    "mk82_script": "the bomb lands 7 frames (0.14 s) after JSBSim's, 91 ft apart in height before (the 180° of "
                   "attitude: both roll at 120–300°/s from 8 s, at rates that part, so their roll angles do): "
                   "JSBSim's own integration error at the "
                   "script's dt of 0.02 s (its multistep integrators; the script sets AB2 for the attitude). The same "
                   "script at dt 1/400 s: JSBSim's heights come within 0.8 ft of flightsim's (at 0.02 s) over the "
                   "first 25 s and 7.5 ft to the ground, flightsim's RK4 at 1/400 s within 0.1 and 13 ft of its own "
                   "at 0.02 s",
    "L410": "the script starts no engine: JSBSim's turboprops stand still, flightsim's run from the start "
            "(FGTurboProp's off and start phases are not modelled): their idle thrust (164 lbf each) rolls the L410 "
            "15.8 ft in 10 s",
    "L4102": "set-running −1 with the brakes on: JSBSim's turboprops spool up from rest (N1 21 % at 10 s), flightsim's "
             "run at idle (N1 60 %) from the start; the brakes hold both",
    "c3104": "its reset file (ellington: 29.5 ft above a 26 ft terrain) drops the C310 onto the runway; the two fall "
             "alike, the impact on the stiff gear parts them by 7° in pitch for a second and 0.4 ft/s, so the take-off "
             "events fire a frame early (15.90 s against 15.92 s); the script reads guidance/wp-distance as the "
             "flight controls computed it in the last frame, as JSBSim's, so no waypoint event fires twice, but the "
             "second and third fire 2 frames late (167.88 s against 167.84 s: the two fly 10 ft apart there)",
    "c3105": "as c3104 at dt 1/120 s (the impact parts them by 1.06° and 2.0 ft/s); 'Cruise Throttle' (vc ≥ 300 ft/s, "
             "reached slowly in level flight) fires 18 frames late (115.76 s against 115.61 s)",
    "c1722": "the longitudinal trim (do_simple_trim 0, at 0.5 s) is JSBSim's (α, throttle and pitch trim alone: the "
             "c172x rolls on its propeller's torque until the roll autopilot takes it at 5 s); the script sets the "
             "tanks' unusable fuel: both burn it alike (the tanks within 2e-5 lb) and both engines starve at 55.77 s "
             "('Engine starved' in the same frame ±1)",
    "c1723": "the take-off, the climb and the output rate the script sets (its aircraft's own output, "
             "simulation/output/log_rate_hz) as JSBSim's, lift-off in the same frame; 'Adjust throttle/flaps' (1000 ft "
             "above the ground, reached in a slow climb) fires 17 frames late (133.58 s against 133.44 s)",
    "Concorde_runway_test": "'Notify Velocity' (vc ≥ 10 kt) fires a frame late (56.125 s against 56.117 s), and "
                            "'Notify stop', which follows, 2 frames late: the engines' n2 and thrust are JSBSim's at "
                            "every notice, but JSBSim's Adams-Bashforth 2 velocity integrator extrapolates the rising "
                            "thrust half a frame ahead of RK4 with the engines' loads held through each step: dt/2 × "
                            "the 10 ft/s² the spool-up adds, 0.04 ft/s, the difference measured at 56 s",
    "Concorde_rotate_test": "the four engines starve at 49 s in both (their feed tanks run dry at full reheat: "
                            "FGTurbine's Off phase, thrust 0, n2 falling from 106 %), and both Concordes decelerate "
                            "from 105 ft/s without lifting off",
    "b737_runway_new": "as Concorde_runway_test (the 737's spool-up adds 10 ft/s² too): 'Notify Velocity' a frame late "
                       "(53.608 s against 53.600 s), 'Notify stop' 2 frames late",
    "Short_S23_2": "the point masses the script writes (inertia/pointmass-weight-lbs) give JSBSim's weight, CG and "
                   "inertia (within 0.5 lb, 0.001 in and 1 slug·ft² over the first 60 s: the engines' burn differs by "
                   "0.4 lb in the first seconds); the trim splits the throttle otherwise: JSBSim's FCS components keep "
                   "their dt while FGTrim suspends the state's integration, so the S.23's boost controller (an "
                   "<integrator>) integrates through each of the trim's evaluations (its adjustment 0.0385 just "
                   "before, 0.3226 after, the command 0.4640) where flightsim's evaluations settle the flight "
                   "controls (adjustment −0.0106, command 0.8442); the attitude is JSBSim's within 1.2e-6 rad, and "
                   "from there the heights part by 45 ft",
    "x153": "the X-15's rocket burns its propellant as JSBSim's (the tanks to the pound at every notice; the "
            "gravity-gradient torque as JSBSim's, tests/test_gravity_torque.py): 'Engine Flame Out' fires in "
            "JSBSim's frame (98.14 s), 'Apogee' 1.55 s early (185.59 s against 187.14 s: at the top of a 90-s "
            "coast a small difference of climb rate moves it far)",
    "paraglider_rotate_test": "it runs to its end since the frame runs as JSBSim's (its quaternion degenerated at "
                              "6.8 s before), but parts from JSBSim's by 125 ft and 72° in attitude over its 30 s. "
                              "The roll the script commands tumbles the canopy in both (heading 224° at 10 s in "
                              "JSBSim's, 282° in flightsim's), and JSBSim's own run at dt 1/960 s is 17° from its run "
                              "at the script's dt by then; flightsim's at 1/960 s diverges at 8.4 s (the airspeed "
                              "runs away at rdot 195 rad/s²): not yet found why",
    "p51d_tail_wind": "the cosine gust (25 ft/s tail wind, 15–26 s) blows as JSBSim's (airspeed within 0.05 ft/s from "
                      "3 s on); the ground trim (do_simple_trim 2) differs: flightsim's settles the P-51 on its nose "
                      "(θ −11.3°) where JSBSim's trimOnGround rotates it onto its tail wheel (θ 11.7°, ψ 88.24° after "
                      "its rotations): 23° apart in pitch until flightsim's rocks back at 2 s, ψ 1.8° apart after",
    "J2460": "the script holds the launcher on its pad (forces/hold-down 1: JSBSim's FGAccelerations zeroes its "
             "accelerations), as flightsim's Simulation.hold_down does: the two stand still, to the foot, for 420 s",
    "p51_start_test": "its reset file puts the P-51 below the ground sinking at 17.7 ft/s; as in JSBSim nothing on "
                      "the ground stops the run, and after the start the two part in attitude (65°) on the ground",
    "ah1s_flight_test": "the AH-1S's rotors (FGRotor) as JSBSim's, the lift-off in the same frame; 'Hover around at "
                        "approx 75ft hagl' (h-agl ≥ 50 ft) fires 2 frames early (52.6275 s against 52.6425 s): "
                        "flightsim's height there 0.016 ft above JSBSim's while climbing at 0.92 ft/s, a difference "
                        "built while the skids unload",
    "sim_primer": "the AH-1S stays on its skids, its rotor governed as JSBSim's (321 rpm; thrust within 0.02 lbf); "
                  "at 13 s the yaw autopilot turns it on its skids (ψ 180° → 85°), a stick-slip spin in which the "
                  "headings part by up to 7.8° and end 1.3° apart",
    "Submarine_Scout_1": "the gas cell and ballonets as JSBSim's; 'Engine start 2' fires 3 frames late (8.61667 s "
                         "against 8.61042 s): the engine cranks with the airship at rest, its axial speed within "
                         "1e-6 ft/s of JSBSim's (the integrators' first steps differ), which the propeller at 0.04 rpm "
                         "feels (its rpm 6.6e-5 low in the third cranking frame)",
    "ZLT-NT-moored-1": "the moored airship on its gear, its helium cell and ballonets as JSBSim's; the largest "
                       "differences come in the first 10 s, when the mooring wire snaps taut: JSBSim's first IC frame "
                       "runs its flight controls before they have seen any buoyancy (weight 20,948 lb against "
                       "21,448, the CG 21 in further aft), so its nudge onto the gear is 16.1 ft, flightsim's 14.4 ft; "
                       "from 30 s on the height agrees within 0.02 ft",
    "Short_S23_1": "the script's fcs/starter-cmd-norm[n] are the S.23's own (its engines system declares them, its "
                   "starter switches read them); seven notices fire off JSBSim's frames (2–29): the hull drifts on "
                   "the water at 0.203 ft/s where JSBSim's drifts at 0.189 ft/s when the cranking starts (10 s), so "
                   "the engines catch 1–3 frames apart; flightsim's hull surges from the second frame where JSBSim's "
                   "stays at rest for about 30 frames (not yet found why)",
    "Test_F450_Launch": "the quadcopter's brushless DC motors (FGBrushLessDCMotor) and its IMU's accelerometers, gyros "
                        "and magnetometers (FGAccelerometer, FGGyro, FGMagnetometer, their noise JSBSim's own random "
                        "numbers) as JSBSim's: the ground trim, launch, hover, roll and yaw doublets",
}


def package_root():
    """The jsbsim package's data folder."""
    import importlib.util

    return Path(importlib.util.find_spec("jsbsim").origin).parent


def scripts(package):
    """The package's ``<runscript>`` files, by name; the other XML files there (output definitions, plot sets)."""
    runs, others = {}, []
    for path in sorted((package / "scripts").glob("*.xml")):
        try:
            tag = ET.parse(path).getroot().tag
        except ET.ParseError:
            tag = "?"
        if tag == "runscript":
            runs[path.stem] = path
        else:
            others.append(f"{path.name} (<{tag}>)")
    return runs, others


def aircraft_of(path):
    """The aircraft a script ``<use>``s."""
    use = ET.parse(path).getroot().find("use")
    return use.get("aircraft") if use is not None else "?"


def prepare(package, path, cap, folder):
    """A temporary root in ``folder``: symlinks to the package's folders and files, and ``scripts/`` holding
    symlinks to the package's script files but a capped, notifying copy of ``path``; return (root, work, the
    copy's path relative to root, end, dt)."""
    root = folder / "root"
    root.mkdir()
    for entry in package.iterdir():
        if entry.name not in ("scripts", "__pycache__"):
            (root / entry.name).symlink_to(entry)
    (root / "scripts").mkdir()
    for entry in (package / "scripts").iterdir():
        if entry.name != path.name:
            (root / "scripts" / entry.name).symlink_to(entry)
    text = path.read_text()
    run = re.search(r"<run\b[^>]*>", text)
    end = float(re.search(r'\bend\s*=\s*"([^"]*)"', run.group(0)).group(1))
    dt_match = re.search(r'\bdt\s*=\s*"([^"]*)"', run.group(0))
    dt = float(dt_match.group(1)) if dt_match else float("nan")
    start_match = re.search(r'\bstart\s*=\s*"([^"]*)"', run.group(0))
    start = float(start_match.group(1)) if start_match else 0.0
    if end - start > cap:
        end = start + cap
        tag = re.sub(r'(\bend\s*=\s*")[^"]*(")', rf"\g<1>{end:.10g}\g<2>", run.group(0))
        text = text[:run.start()] + tag + text[run.end():]

    def notify(m):                       # (on the event's last line: the lines of everything else stay)
        block = m.group(0)
        return block if "<notify" in block else block[:-len("</event>")] + "<notify/></event>"

    text = re.sub(r"<event\b.*?</event>", notify, text, flags=re.S)
    (root / "scripts" / path.name).write_text(text)
    work = folder / "work"
    work.mkdir()
    return root, work, f"scripts/{path.name}", end, dt


# ---------------------------------------------------------------------------------------------------- workers
def worker_jsbsim(root, script, out):
    """JSBSim runs ``script``, recording :data:`COLUMNS` each frame into ``out`` (.npz); its notices on stdout."""
    import jsbsim

    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    rows, wow = [], float("nan")
    status = "end"
    try:
        if not fdm.load_script(script):
            raise RuntimeError("load_script failed")
        fdm.run_ic()
        ic_trim(fdm)
        try:
            wow = fdm.get_property_value("gear/wow")
        except Exception:       # noqa: BLE001 (no gear)
            pass
        rows.append([fdm.get_property_value(c) for c in COLUMNS])
        while fdm.run():
            rows.append([fdm.get_property_value(c) for c in COLUMNS])
    except Exception as exc:    # noqa: BLE001 (JSBSim's own failure, reported)
        status = f"JSBSim: {type(exc).__name__}: {exc}".splitlines()[0]
    sys.stdout.flush()
    np.savez(out, rows=np.array(rows, dtype=float).reshape(-1, len(COLUMNS)), wow=wow)
    Path(str(out) + ".json").write_text(json.dumps({"status": status}))


def ic_trim(fdm):
    """The trim a reset file requests (``<trim>``), as the ``JSBSim`` program runs it after ``RunIC``
    (``JSBSim.cpp``: an ``FGTrim`` of that mode, whether it converged ignored); the package's ``run_ic`` does not."""
    mode = int(fdm.get_ic().trim_requested())
    if mode != TRIM_NONE:
        try:
            fdm.do_trim(int(mode))
        except Exception:       # noqa: BLE001 (JSBSim.cpp ignores a failed trim)
            pass


def worker_flightsim(root, script, out):
    """flightsim runs ``script`` (RK4), recording :data:`COLUMNS` each frame into ``out`` (.npz); its notices on
    stdout; its status (``end``, the refusal or where it stopped) in ``out``.json."""
    from flightsim.errors import InputError
    from flightsim.simulation.script import run_script
    from flightsim.simulation.script_properties import read_all

    rows = []

    def record(t, frame, sim):
        values = read_all(sim, t)
        rows.append([values[c] for c in COLUMNS])

    try:
        run_script(script, root, "rk4", None, on_frame=record)
        status = "end"
    except InputError as exc:
        status = f"refused: {exc}"
    except RuntimeError as exc:
        status = f"stops: {exc}"
    sys.stdout.flush()
    np.savez(out, rows=np.array(rows, dtype=float).reshape(-1, len(COLUMNS)))
    Path(str(out) + ".json").write_text(json.dumps({"status": status}))


def run_worker(kind, root, work, script, timeout):
    """Run a worker in a subprocess (cwd ``work``): (rows, extra, status, notices [(index, name, time)])."""
    out = work / f"{kind}.npz"
    env = {**os.environ}
    if kind == "jsbsim":
        env.pop("PYTHONPATH", None)
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", kind, str(root), script, str(out)],
                              cwd=work, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return np.zeros((0, len(COLUMNS))), {}, f"{kind} ran past {timeout:.0f} s", []
    if not out.exists():
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return np.zeros((0, len(COLUMNS))), {}, f"{kind} failed: {tail}", []
    data = np.load(out)
    status = json.loads(Path(str(out) + ".json").read_text())["status"]
    notices = []
    for line in done.stdout.splitlines():
        m = HEADING.match(line.strip())
        if m:
            notices.append((int(m.group(2)), m.group(1), float(m.group(3))))
    extra = {k: float(data[k]) for k in data.files if k != "rows"}
    return data["rows"], extra, status, notices


# ------------------------------------------------------------------------------------------------- measures
def _wrap(d):
    return (d + 180.0) % 360.0 - 180.0


def attitude_angle(a, b):
    """The angle (deg) of the rotation from attitude ``a`` to ``b`` (rows of JSBSim's φ, θ, ψ, deg): the two body
    frames' difference, which the Euler angles' own differences are not near a vertical dive (θ ±90°, where φ and
    ψ flip by 180° for a small move)."""
    def quaternions(e):
        h = np.radians(e) / 2.0
        (cr, cp, cy), (sr, sp, sy) = np.cos(h).T, np.sin(h).T
        return np.stack([cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
                         cr * cp * sy - sr * sp * cy], axis=1)

    dot = np.abs(np.sum(quaternions(a) * quaternions(b), axis=1))
    return np.degrees(2.0 * np.arccos(np.minimum(dot, 1.0)))


def compare(a, b, dt):
    """Largest differences of flightsim's frames ``a`` from JSBSim's ``b`` over the first :data:`WINDOW_S`
    s both ran: dict pos, alt, att, vt (nan where none compared)."""
    n = min(len(a), len(b))
    if n == 0:
        return {k: float("nan") for k in ("pos", "alt", "att", "vt")}
    t0 = b[0, 0]
    keep = np.nonzero(b[:n, 0] <= t0 + WINDOW_S + 0.5 * dt)[0]
    a, b = a[keep], b[keep]
    lat = np.radians(b[:, 1])
    dn = np.radians(a[:, 1] - b[:, 1]) * EARTH_FT
    de = np.radians(_wrap(a[:, 2] - b[:, 2])) * EARTH_FT * np.cos(lat)
    att = attitude_angle(a[:, 4:7], b[:, 4:7])
    return {"pos": float(np.max(np.hypot(dn, de))), "alt": float(np.max(np.abs(a[:, 3] - b[:, 3]))),
            "att": float(np.max(att)), "vt": float(np.max(np.abs(a[:, 7] - b[:, 7])))}


def liftoff(rows):
    """The first time the CG is :data:`LIFTOFF_FT` above its first frame's height (None: never)."""
    if len(rows) == 0:
        return None
    up = np.nonzero(rows[:, 3] > rows[0, 3] + LIFTOFF_FT)[0]
    return float(rows[up[0], 0]) if len(up) else None


def events_match(ours, theirs, dt, until):
    """Whether the notices are the same events at the same frames (±1), those of JSBSim's up to ``until`` s
    (where flightsim's run stopped)."""
    theirs = [e for e in theirs if e[2] <= until + 0.5 * dt]
    if len(ours) != len(theirs):
        return False
    for (k1, n1, t1), (k2, n2, t2) in zip(ours, theirs, strict=True):
        if k1 != k2 or n1 != n2 or abs(round(t1 / dt) - round(t2 / dt)) > 1:
            return False
    return True


def wall(cmd, work, env, timeout):
    """Wall time of a command (s), or None if it fails."""
    t0 = time.perf_counter()
    try:
        done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - t0 if done.returncode == 0 else None


def timed(root, work, script, timeout, rounds=3):
    """Wall times (s) of ``flightsim script`` and JSBSim running ``script`` from the command line: the least of
    ``rounds`` runs each, taken in turn (None if one fails)."""
    env = {**os.environ}
    bare = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    fs, js = [], []
    for _ in range(rounds):
        fs.append(wall([sys.executable, "-m", "flightsim", "script", script, "--root", str(root)], work, env,
                       timeout))
        js.append(wall([sys.executable, "-c", JSBSIM_CLI, str(root), script], work, bare, timeout))
    return (None if None in fs else min(fs)), (None if None in js else min(js))


def compile_bytecode():
    """Byte-compile flightsim as ``pip install`` does (as ``bench_frame.py`` does before it times starts): run with
    ``PYTHONDONTWRITEBYTECODE`` set, each timed ``flightsim script`` would compile the sources it imports again
    (~0.15 s of its start), a cost no installed copy pays."""
    import compileall

    import flightsim

    compileall.compile_dir(os.path.dirname(flightsim.__file__), quiet=2)


JSBSIM_CLI = ("import jsbsim, sys\nfdm = jsbsim.FGFDMExec(sys.argv[1])\nfdm.set_debug_level(0)\n"
              "fdm.load_script(sys.argv[2])\nfdm.run_ic()\nmode = int(fdm.get_ic().trim_requested())\n"
              f"if mode != {TRIM_NONE}:\n    try:\n        fdm.do_trim(mode)\n    except Exception:\n        pass\n"
              "while fdm.run():\n    pass\n")


def measure(package, name, path, cap, timeout, rounds=3):
    """One script's row (a dict); its wall times the least of ``rounds`` runs each (0: not timed)."""
    row = {"script": name, "aircraft": aircraft_of(path)}
    with tempfile.TemporaryDirectory(prefix=f"fs-script-{name}-") as tmp:
        root, work, script, end, dt = prepare(package, path, cap, Path(tmp))
        row.update(end=end, dt=dt)
        b, extra, jstatus, jnotes = run_worker("jsbsim", root, work, script, timeout)
        a, _, fstatus, fnotes = run_worker("flightsim", root, work, script, timeout)
        jstatus, fstatus = (s.replace(f"{root}{os.sep}", "") for s in (jstatus, fstatus))
        row.update(jsbsim=jstatus, flightsim=fstatus, frames=(len(a), len(b)))
        ground = extra.get("wow", float("nan")) > 0.5
        row["ground"] = bool(ground)
        until = a[-1, 0] if len(a) else -1.0
        if fstatus.startswith("refused"):
            until = -1.0
        row["events"] = (len(fnotes), len([e for e in jnotes if e[2] <= until + 0.5 * dt]))
        row["events_ok"] = events_match(fnotes, jnotes, dt, until) if until >= 0 else False
        row.update(compare(a, b, dt) if until >= 0 else {})
        if ground:
            row["liftoff"] = (liftoff(a) if until >= 0 else None, liftoff(b))
        if fstatus == "end" and rounds > 0:
            row["wall"] = timed(root, work, script, timeout, rounds)
            # the start alone: the same script ending after its first step (FGFDMExec's first frame)
            short = Path(tmp) / "start"
            short.mkdir()
            sroot, swork, sscript, _, _ = prepare(package, path, dt, short)
            row["start"] = timed(sroot, swork, sscript, timeout, rounds)
    row["aims"] = within_aims(row)
    return row


def within_aims(row):
    """Whether the row meets issue 40's aims (see the module's docstring)."""
    if row["flightsim"] != "end" or row["jsbsim"] != "end" or not row["events_ok"]:
        return False
    if row["ground"]:
        ours, theirs = row["liftoff"]
        if ours is None or theirs is None:
            return ours is None and theirs is None
        return abs(ours - theirs) <= AIMS["liftoff"]
    return all(row.get(k, math.inf) <= AIMS[k] for k in ("pos", "alt", "att", "vt"))


# ------------------------------------------------------------------------------------------------------ table
def _num(x, digits=1):
    return "—" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def _status(row):
    s = row["flightsim"]
    if s == "end":
        return "to its end"
    kind, _, why = s.partition(": ")
    text = f"{kind}: `{why}`".replace("|", "\\|")     # (a code span: the elements' <tags> stay text)
    if row["jsbsim"] != "end":
        text += f" (JSBSim too: `{row['jsbsim'].removeprefix('JSBSim: ')}`)".replace("|", "\\|")
    return text


def table(rows):
    """README's table (markdown)."""
    lines = ["| script | aircraft | flightsim runs it | events (fs/JSBSim) | Δpos ft | Δalt ft | Δatt ° | "
             "Δvt ft/s | lift-off s (fs/JSBSim) | wall s (fs/JSBSim) | ratio | start s (fs/JSBSim) | "
             "µs/frame (fs/JSBSim) | within aims |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ev = f"{r['events'][0]}/{r['events'][1]} {'same' if r['events_ok'] else 'differ'}" \
            if r["flightsim"].split(":")[0] != "refused" else "—"
        lo = "—"
        if r.get("ground") and "liftoff" in r and not r["flightsim"].startswith("refused"):
            lo = "/".join("none" if x is None else f"{x:.2f}" for x in r["liftoff"])
        wall_s, ratio, start, frame = "—", "—", "—", "—"
        if r.get("wall") and None not in r["wall"]:
            fs, js = r["wall"]
            wall_s, ratio = f"{fs:.2f}/{js:.2f}", f"{js / fs:.2f}"
            if r.get("start") and None not in r["start"]:
                start = "/".join(f"{x:.2f}" for x in r["start"])
                steps = max(1, r["frames"][1] - 2)
                frame = "/".join(f"{max(0.0, w - s0) / steps * 1e6:.0f}" for w, s0 in zip(r["wall"], r["start"],
                                                                                           strict=True))
        status = _status(r)
        if NOTES.get(r["script"]):
            status += f" — {NOTES[r['script']]}"
        place = " (runway)" if r.get("ground") else ""
        aims = "no"
        if r["aims"]:
            aims = "yes (neither lifts off)" if r.get("ground") and list(r["liftoff"]) == [None, None] else "yes"
        lines.append(f"| {r['script']}{place} | {r['aircraft']} | {status} | {ev} | {_num(r.get('pos'))} | "
                     f"{_num(r.get('alt'))} | {_num(r.get('att'), 2)} | {_num(r.get('vt'), 2)} | {lo} | "
                     f"{wall_s} | {ratio} | {start} | {frame} | {aims} |")
    return "\n".join(lines)


def summary(rows):
    """One sentence: how many run to their end, how many within the aims, the speed ratio's range."""
    ends = sum(r["flightsim"] == "end" for r in rows)
    aims = sum(r["aims"] for r in rows)
    ratios = [r["wall"][1] / r["wall"][0] for r in rows if r.get("wall") and None not in r["wall"]]
    span = f"{min(ratios):.2f}–{max(ratios):.2f}" if ratios else "—"
    starts = [r["start"] for r in rows if r.get("start") and None not in r["start"]]
    start = (f" (the start alone: flightsim {min(s[0] for s in starts):.2f}–{max(s[0] for s in starts):.2f} s, "
             f"JSBSim {min(s[1] for s in starts):.2f}–{max(s[1] for s in starts):.2f} s)") if starts else ""
    idle = sum(r["aims"] and bool(r.get("ground")) and list(r["liftoff"]) == [None, None] for r in rows)
    idle = f" ({idle} of them on the runway where neither lifts off)" if idle else ""
    return (f"{len(rows)} scripts: flightsim runs {ends} to their end, {aims} within the aims{idle}; JSBSim's "
            f"wall time ÷ flightsim's {span}{start}.")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", metavar="NAME", action="append",
                   help="one script (its file name without .xml); may be repeated")
    p.add_argument("--cap", type=float, default=300.0, metavar="SECONDS",
                   help="simulated-time cap per script (default 300 s; the script's end if sooner)")
    p.add_argument("--markdown", metavar="FILE", help="also write the table (and its summary) to FILE")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--table-from", metavar="JSON",
                   help="run nothing: print (and --markdown) the table of the rows a --json run wrote")
    p.add_argument("--timeout", type=float, default=900.0, help="per run, s (default 900)")
    p.add_argument("--rounds", type=int, default=3, metavar="N",
                   help="time each from the command line N times and keep the least (default 3; 0: not timed)")
    p.add_argument("--worker", nargs=4, metavar=("KIND", "ROOT", "SCRIPT", "OUT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        kind, root, script, out = args.worker
        (worker_jsbsim if kind == "jsbsim" else worker_flightsim)(Path(root), script, Path(out))
        return 0
    if args.cap <= 0:
        print(f"jsbsim_scripts.py: --cap: must be > 0 s, got {args.cap:g}", file=sys.stderr)
        return 2
    if args.rounds < 0:
        print(f"jsbsim_scripts.py: --rounds: must be >= 0, got {args.rounds}", file=sys.stderr)
        return 2
    if args.table_from:
        data = json.loads(Path(args.table_from).read_text())
        rows, total, others, args.cap = data["rows"], data["seconds"], data["others"], data["cap"]
        for row in rows:
            row["aims"] = within_aims(row)
        report(rows, total, others, args)
        return 0
    package = package_root()
    runs, others = scripts(package)
    names = list(runs)
    if args.only:
        unknown = [n for n in args.only if n not in runs]
        if unknown:
            print(f"jsbsim_scripts.py: --only: no script {unknown[0]!r} in {package / 'scripts'}", file=sys.stderr)
            return 2
        names = args.only
    if args.rounds > 0:
        compile_bytecode()
    started = time.perf_counter()
    rows = []
    for k, name in enumerate(names):
        t0 = time.perf_counter()
        row = measure(package, name, runs[name], args.cap, args.timeout, args.rounds)
        rows.append(row)
        print(f"[{k + 1}/{len(names)}] {name}: {row['flightsim'][:100]} events {row['events']} "
              f"{'same' if row['events_ok'] else 'differ'}, pos {_num(row.get('pos'))} alt {_num(row.get('alt'))} "
              f"att {_num(row.get('att'), 2)} vt {_num(row.get('vt'), 2)} wall {row.get('wall')} "
              f"aims {row['aims']} ({time.perf_counter() - t0:.0f} s)", flush=True)
    total = time.perf_counter() - started
    others = others if not args.only else []
    if args.json:
        Path(args.json).write_text(json.dumps({"seconds": total, "cap": args.cap, "others": others, "rows": rows},
                                              indent=1))
    report(rows, total, others, args)
    return 0


def report(rows, total, others, args):
    """Print the table, its summary and the run's length; write it with --markdown."""
    text = table(rows)
    print()
    print(text)
    print()
    print(summary(rows))
    if others:
        print(f"Not scripts (skipped): {', '.join(others)}.")
    print(f"Full run: {total:.0f} s (cap {args.cap:g} s).")
    if args.markdown:
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        cmd = "python benchmarks/jsbsim_scripts.py" + (f" --cap {args.cap:g}" if args.cap != 300.0 else "")
        Path(args.markdown).write_text(f"`{cmd}` ({date}, {total / 60:.0f} min)\n\n{text}\n\n{summary(rows)}\n")


if __name__ == "__main__":
    sys.exit(main())

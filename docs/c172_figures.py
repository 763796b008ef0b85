"""Measure the Cessna 172R's handbook figures with flightsim's own commands; print the README's table.

Not part of the package: a script that runs ``flightsim trim`` (in a subprocess, as a user
would) and reads its JSON or its one-line error, for standard sea level (the constant density
of the aircraft file at 1000 ft, clear of the ground); the glides with ``--engine idle`` and
``--engine off``.  The take-off and landing rolls come from
``python docs/fly_circuit.py --aircraft c172`` (it prints them).

    python docs/c172_figures.py
"""

import json
import math
import re
import shutil
import subprocess
import sys

KT = 1.68781                  # ft/s per knot
FLIGHTSIM = [shutil.which("flightsim") or sys.executable, *([] if shutil.which("flightsim") else ["-m", "flightsim"])]
BASE = ["trim", "--aircraft", "c172", "--altitude", "1000", "--atmosphere", "constant"]


def trim(airspeed, climb_angle=0.0, flaps=0.0, engine=None):
    """``flightsim trim --json`` at a condition (``engine``: "idle" or "off" glides): its dict, or the one-line
    error's text."""
    r = subprocess.run([*FLIGHTSIM, *BASE, "--airspeed", f"{airspeed:.6f}", "--climb-angle", f"{climb_angle:.6f}",
                        "--flaps", f"{flaps:g}", "--json", *(["--engine", engine] if engine else [])],
                       capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else r.stderr.strip()


def stall(flaps, engine=None):
    """The slowest trimmable speed (kt) as ``flightsim trim`` reports it (the range in its error)."""
    error = trim(30.0, flaps=flaps, engine=engine)
    low, high = re.search(r"trimmable from (\d+) to (\d+) ft/s", error).groups()
    return int(low) / KT, int(high) / KT, error


def steepest(airspeed, lo, hi):
    """The steepest climb angle (deg) that trims, where the throttle reaches full, by bisection."""
    for _ in range(18):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if isinstance(trim(airspeed, mid), dict) else (lo, mid)
    return 0.5 * (lo + hi)


def glide_ratio(engine):
    """The glide ratio at 65 KIAS with the engine idling or off (``flightsim trim --engine``), and its angle."""
    point = trim(65.0 * KT, engine=engine)
    return 1.0 / math.tan(math.radians(-point["climb_angle_deg"])), -point["climb_angle_deg"], point


def main():
    up_low, up_high, _ = stall(0.0)
    down_low, _, _ = stall(1.0)
    vy = 79.0 * KT
    gamma = steepest(vy, 0.0, 15.0)
    roc = vy * math.sin(math.radians(gamma)) * 60.0
    off_up = stall(0.0, engine="idle")[0]
    off_down = stall(1.0, engine="idle")[0]
    idle, idle_angle, _ = glide_ratio("idle")
    off, off_angle, _ = glide_ratio("off")
    rows = [
        ("stall, flaps up (power off), KCAS", 51, f"{up_low:.1f} (level-flight trim's slowest speed); {off_up:.1f} "
         f"gliding at idle",
         "flightsim trim --aircraft c172 --altitude 1000 --atmosphere constant --airspeed 30 (and --engine idle)"),
        ("stall, flaps 30°, KCAS", 47, f"{down_low:.1f}; {off_down:.1f} gliding at idle", "... --flaps 1"),
        ("maximum level speed at sea level, full throttle, kt", 123, f"{up_high:.0f}", "(the same error's range)"),
        ("rate of climb at sea level, 79 KIAS, full throttle, ft/min", 720, f"{roc:.0f} (climb angle {gamma:.2f}°)",
         "flightsim trim --aircraft c172 --altitude 1000 --atmosphere constant --airspeed 133.3 --climb-angle G "
         "(steepest G)"),
        ("best glide at 65 KIAS, engine off, ratio", "about 9:1", f"{off:.2f}:1 (glide angle {off_angle:.2f}°)",
         "flightsim trim --aircraft c172 --altitude 1000 --atmosphere constant --airspeed 109.7 --engine off"),
        ("glide at 65 KIAS, idle, ratio", "—", f"{idle:.2f}:1 (glide angle {idle_angle:.2f}°)",
         "... --engine idle"),
    ]
    print("| figure | handbook | flightsim | command |")
    print("|---|---|---|---|")
    for name, book, ours, command in rows:
        print(f"| {name} | {book} | {ours} | `{command}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

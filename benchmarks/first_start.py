"""How long a first start takes (numba's cache empty) against the second, for README's Performance table.

Each round runs every command twice in a fresh process: first with an empty
numba cache (``NUMBA_CACHE_DIR`` a new empty folder, and ``FLIGHTSIM_CACHE``
for JSBSim's generated models: what a fresh install has), then again with the
cache that run left.  It reports the wall time of each, the processes' CPU
time (user + system: on a loaded machine the steadier figure), their ratio,
and when the first line of output appeared.

The JSBSim cases share one cache through a round, as a new user meets them:
the first JSBSim aircraft (``jsbsim:737``) on an empty cache, then the next
one (``jsbsim:f16``) and the one after (``jsbsim:c172p``, flown) with the
cache the ones before left: what each further aircraft costs.

``--before REF`` measures a git ref of this checkout too, in the same run (a
worktree in a temporary folder; or, REF a folder, the checkout there), since
machines here differ by 2x from day to day.

Usage::

    python benchmarks/first_start.py                       # this checkout, 3 rounds, every case
    python benchmarks/first_start.py --before a6a91f0 --rounds 3
    python benchmarks/first_start.py --cases jsbsim --rounds 1
"""

from __future__ import annotations

import argparse
import os
import resource
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {
    "simulate --duration 1": ["simulate", "--duration", "1", "--out", "trace.csv"],
    "fly --headless --frames 1": ["fly", "--headless", "--frames", "1", "--no-sound"],
}
#: JSBSim's aircraft, one after the other on one cache: the first, then each further one.
JSBSIM = {
    "simulate --aircraft jsbsim:737 --start air --duration 1":
        ["simulate", "--aircraft", "jsbsim:737", "--start", "air", "--duration", "1", "--out", "trace.csv"],
    "simulate --aircraft jsbsim:f16 --start air --duration 1":
        ["simulate", "--aircraft", "jsbsim:f16", "--start", "air", "--duration", "1", "--out", "trace.csv"],
    "fly --aircraft jsbsim:c172p --headless --frames 1":
        ["fly", "--aircraft", "jsbsim:c172p", "--headless", "--frames", "1", "--no-sound"],
}


def timed(source, args, cache, cwd):
    """Run ``python -m flightsim ARGS`` from ``source``: (seconds, CPU seconds, seconds to the first output line,
    exit code).  ``cache`` holds numba's cache and JSBSim's generated models."""
    env = {**os.environ, "PYTHONPATH": str(source), "NUMBA_CACHE_DIR": str(cache),
           "FLIGHTSIM_CACHE": str(cache / "flightsim")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "flightsim", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        sel.register(proc.stderr, selectors.EVENT_READ)
        while sel.get_map():
            for key, _ in sel.select():
                if key.fileobj.readline():
                    first = time.perf_counter() - start if first is None else first
                else:
                    sel.unregister(key.fileobj)
    code = proc.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, first, code


def _seconds(t):
    return "no output" if t is None else f"{t:.2f} s"


def measure(source, rounds, work, cases):
    """Every case of ``cases`` (``book``, ``jsbsim``) ``rounds`` times: rows ``(command, round, first, its CPU,
    second, first line)``."""
    rows = []

    def run(name, args, cache, k):
        cold, cpu, first_line, code = timed(source, args, cache, work)
        warm, _, _, code2 = timed(source, args, cache, work)
        if code or code2:
            raise SystemExit(f"{name} failed in {source} (exit {code}, {code2})")
        rows.append((name, k + 1, cold, cpu, warm, first_line))
        print(f"  {source.name:<12} {name:<56} round {k + 1}: first {cold:5.1f} s ({cpu:5.1f} s CPU; first line "
              f"at {_seconds(first_line)}), second {warm:4.1f} s, ratio {cold / warm:4.1f}", file=sys.stderr)

    if "book" in cases:
        for name, args in COMMANDS.items():
            for k in range(rounds):
                run(name, args, Path(tempfile.mkdtemp(prefix="numba-", dir=work)), k)
    if "jsbsim" in cases:
        for k in range(rounds):
            cache = Path(tempfile.mkdtemp(prefix="numba-", dir=work))       # one cache: each aircraft after the last
            for name, args in JSBSIM.items():
                run(name, args, cache, k)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REF", help="also measure this git ref (e.g. the commit before a change), "
                                                        "or the checkout in this folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", choices=("all", "book", "jsbsim"), default="all",
                        help="the book's airplane's commands, JSBSim's aircraft one after the other, or both")
    args = parser.parse_args()
    cases = ("book", "jsbsim") if args.cases == "all" else (args.cases,)
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        sources = [("this checkout", REPO)]
        made = args.before and not Path(args.before).is_dir()
        if made:
            tree = work / "before"
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), args.before],
                           check=True, capture_output=True)
            sources.insert(0, (args.before, tree))
        elif args.before:                       # a folder holding another checkout, measured as it is
            sources.insert(0, (args.before, Path(args.before).resolve()))
        try:
            results = [(label, measure(source, args.rounds, work, cases)) for label, source in sources]
        finally:
            if made:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(work / "before")],
                               capture_output=True)
    print("| source | command | first start (s) | its CPU (s) | second (s) | first / second | first line after (s) |")
    print("|---|---|---|---|---|---|---|")
    for label, rows in results:
        for name, k, cold, cpu, warm, first_line in rows:
            print(f"| {label} | `flightsim {name}` (run {k}) | {cold:.1f} | {cpu:.1f} | {warm:.2f} | "
                  f"{cold / warm:.1f} | {_seconds(first_line)} |")


if __name__ == "__main__":
    main()

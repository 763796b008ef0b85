"""How long a first start takes (numba's cache empty) against the second, for README's Performance table.

Each round runs every command twice in a fresh process: first with an empty
numba cache (``NUMBA_CACHE_DIR`` a new empty folder: what a fresh install has),
then again with the cache that run left.  It reports the wall time of each
and their ratio, and when the first line of output appeared.  ``--before REF``
measures a git ref of this checkout too, in the same run (a worktree in a
temporary folder), since machines here differ by 2x from day to day.

Usage::

    python benchmarks/first_start.py                       # this checkout, 3 rounds
    python benchmarks/first_start.py --before a6a91f0 --rounds 3
"""

from __future__ import annotations

import argparse
import os
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


def timed(source, args, cache, cwd):
    """Run ``python -m flightsim ARGS`` from ``source``: (seconds, seconds to the first output line, exit code)."""
    env = {**os.environ, "PYTHONPATH": str(source), "NUMBA_CACHE_DIR": str(cache)}
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
    return time.perf_counter() - start, first, code


def _seconds(t):
    return "no output" if t is None else f"{t:.2f} s"


def measure(source, rounds, work):
    rows = []
    for name, args in COMMANDS.items():
        for k in range(rounds):
            cache = Path(tempfile.mkdtemp(prefix="numba-", dir=work))
            cold, first_line, code = timed(source, args, cache, work)
            warm, _, code2 = timed(source, args, cache, work)
            if code or code2:
                raise SystemExit(f"{name} failed in {source} (exit {code}, {code2})")
            rows.append((name, k + 1, cold, warm, first_line))
            print(f"  {source.name:<12} {name:<28} round {k + 1}: first {cold:5.1f} s (first line at "
                  f"{_seconds(first_line)}), second {warm:4.1f} s, ratio {cold / warm:4.1f}", file=sys.stderr)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REF", help="also measure this git ref (e.g. the commit before a change)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        sources = [("this checkout", REPO)]
        if args.before:
            tree = work / "before"
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), args.before],
                           check=True, capture_output=True)
            sources.insert(0, (args.before, tree))
        try:
            results = [(label, measure(source, args.rounds, work)) for label, source in sources]
        finally:
            if args.before:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(work / "before")],
                               capture_output=True)
    print("| source | command | first start (s) | second (s) | first / second | first line after (s) |")
    print("|---|---|---|---|---|---|")
    for label, rows in results:
        for name, k, cold, warm, first_line in rows:
            print(f"| {label} | `flightsim {name}` (run {k}) | {cold:.1f} | {warm:.2f} | {cold / warm:.1f} | "
                  f"{_seconds(first_line)} |")


if __name__ == "__main__":
    main()

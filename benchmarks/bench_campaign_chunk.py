"""Where a campaign chunk's time goes: ``run_chunk`` on the shipped approach campaign against the bare batch.

Measured in the same run, on the same airplanes (the 172R at the approach start, in the campaign's wind):

1. ``run_chunk(approach.toml, 0, N)``: the campaign's runs flown to their stop (the autopilot engaged, so the
   batch takes one compiled call per physics step), with numba's threads and with one thread: wall time, runs
   per second, and CPU time per airplane-step (load-independent where one thread runs);
2. the bare physics: ``BatchSimulation.step`` of the same N airplanes with no autopilot (64 physics steps per
   compiled call), airplane-steps per second;
3. the ratios: the campaign's airplane-steps per second over the bare batch's on as many threads (what the
   per-step calls, the autopilot, the pilot and the stop checks cost), and one thread over all of them.

    python benchmarks/bench_campaign_chunk.py [--runs N] [--quick]

``--quick``: 8 runs, a smoke test (``tests/test_campaign_core.py``); its numbers mean nothing.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from flightsim.resources import data_file
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.campaign.runner import run_chunk
from flightsim.simulation.campaign.spec import read_spec


def chunk(spec, n, threads):
    """``(wall s, CPU s, airplane-steps)`` of ``run_chunk(spec, 0, n)`` on ``threads`` numba threads."""
    numba.set_num_threads(threads)
    c, t = time.process_time(), time.perf_counter()
    rows = run_chunk(spec, 0, n).rows
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return wall, cpu, float(np.sum(rows["time_s"])) / spec.dt


def bare(spec, n, steps, threads):
    """Airplane-steps per second of ``BatchSimulation.step`` with no autopilot, on ``threads`` numba threads."""
    numba.set_num_threads(threads)
    b = BatchSimulation(n, spec.aircraft, spec.integrator, dt=spec.dt, start="approach", wind=spec.wind,
                        seeds=np.arange(n))
    b.step(64)
    t = time.perf_counter()
    b.step(steps)
    return n * steps / (time.perf_counter() - t)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=256, help="runs in the chunk (default 256)")
    p.add_argument("--quick", action="store_true", help="8 runs: a smoke test")
    args = p.parse_args(argv)
    n = 8 if args.quick else args.runs
    spec = read_spec(data_file("configs", "campaigns", "approach.toml"))
    if args.quick:
        from dataclasses import replace

        spec = replace(spec, time_s=2.0)
    run_chunk(spec, 0, 2)                                   # compiled, the aircraft loaded, the gains trimmed
    threads = numba.config.NUMBA_NUM_THREADS
    print(f"run_chunk({spec.path}, 0, {n}): {spec.integrator}, dt {spec.dt:.5f} s")
    print(f"{'threads':>8} {'wall s':>8} {'runs/s':>8} {'CPU s':>8} {'CPU-us/airplane-step':>21}")
    results = {}
    for k in sorted({threads, 1}, reverse=True):
        wall, cpu, steps = chunk(spec, n, k)
        results[k] = (wall, steps)
        print(f"{k:>8} {wall:>8.2f} {n / wall:>8.2f} {cpu:>8.2f} {cpu / steps * 1e6:>21.2f}")
    for k in sorted(results, reverse=True):
        rate = bare(spec, n, 64 * (2 if args.quick else 20), k)
        wall, steps = results[k]
        print(f"bare batch (no autopilot, 64 steps a call, {k} threads): {rate / 1e6:.3f} M airplane-steps/s; "
              f"campaign / bare batch = {steps / wall / rate:.3f} (airplane-steps per second)")
    if threads != 1:
        print(f"one thread / {threads} threads = {results[threads][0] / results[1][0]:.3f} (runs per second)")


if __name__ == "__main__":
    main()

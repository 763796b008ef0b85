"""The batch on an NVIDIA GPU: airplane-steps per second at N = 1k … 4M, against the same machine's CPU batch.

What is measured
----------------
``BatchSimulation(N, aircraft, integrator, dt=1/60, start="air", device="cuda")`` (the book's airplane with
``euler`` and ``rk4``, the 172R with ``euler`` and ``rk4``), each timed call one ``step(k)``: k physics steps of
every airplane in one kernel launch, with the copies a call makes (the host's arrays up, what the steps wrote
down: :mod:`flightsim.simulation.batch_cuda`).  Two rates per row: **end to end** (N·k ÷ the call's wall time)
and **kernel** (N·k ÷ the GPU's own time in the kernel, CUDA events: the rate a batch that stays on the GPU
would see).  k is chosen so a call is about a second of GPU time.  Beside them, the CPU batch
(``device="cpu"``, all of numba's threads) at N = 65,536 on the same machine, and the ratio GPU ÷ CPU.

Nimbus's best published figure (its README: 983 M airplane-steps/s, float32, RTX 4090) is printed beside the
book's airplane with ``euler``, the issue's aim on an H100.  flightsim flies float64 (the CPU batch's numbers to
rounding: the GPU's fused multiply-adds round differently), and its model is the book's eight lifting elements
with their tables, propeller (172R), gear and ground check; Nimbus's a coefficient model in float32.

Each (aircraft, integrator, N) is made once, warmed up by one call (the first compiles the kernel: ~10–20 s
per aircraft), then timed ``--rounds`` calls, the flight going on from one to the next (trimmed level flight:
no airplane stops); the median is reported.  The GPU's model and memory are printed.

How to run
----------
::

    bash benchmarks/bench_gpu.sh                    # the whole table, under 5 minutes on an H100/H200
    python benchmarks/bench_gpu.py --sizes 1024 65536 --rounds 2
    NUMBA_ENABLE_CUDASIM=1 python benchmarks/bench_gpu.py --smoke      # no GPU: numba's simulator, tiny N
"""

import argparse
import os
import statistics
import sys
import time

from flightsim.simulation.batch import BatchSimulation

DT = 1.0 / 60.0
SIZES = (1024, 16384, 262144, 1048576, 4194304)
CASES = ((None, "euler"), (None, "rk4"), ("c172", "euler"), ("c172", "rk4"))
CPU_N = 65536
#: Nimbus's best published rate (README: RTX 4090, float32), airplane-steps/s.
NIMBUS_BEST = 983e6


def timed(batch, steps, rounds):
    """Median end-to-end and kernel rates (airplane-steps/s) of ``rounds`` calls of ``batch.step(steps)``."""
    wall, kernel = [], []
    for _ in range(rounds):
        before = batch.gpu_seconds if batch.device == "cuda" else 0.0
        t = time.perf_counter()
        batch.step(steps)
        wall.append(time.perf_counter() - t)
        if batch.device == "cuda":
            kernel.append(batch.gpu_seconds - before)
    rate = batch.n * steps / statistics.median(wall)
    kernel = statistics.median(kernel) if kernel else 0.0
    return rate, (batch.n * steps / kernel if kernel > 0.0 else None)     # the simulator's events time nothing


def steps_for(batch, target_seconds, smoke):
    """Steps per call for about ``target_seconds`` of work, from one warm-up call of 10 steps."""
    if smoke:
        return 3
    t = time.perf_counter()
    batch.step(10)
    per_step = (time.perf_counter() - t) / 10.0
    return int(min(max(target_seconds / max(per_step, 1e-9), 10), 6000))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.8, help="about this much time per timed call")
    parser.add_argument("--smoke", action="store_true", help="tiny N and steps (numba's CUDA simulator)")
    args = parser.parse_args(argv)
    sizes = (8, 16) if args.smoke else args.sizes
    rounds = 1 if args.smoke else args.rounds
    try:
        from numba import cuda

        from flightsim.simulation.batch_cuda import cuda_module

        cuda_module()
    except ValueError as err:
        print(f"bench_gpu: {err}", file=sys.stderr)
        return 2
    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    name = getattr(cuda.get_current_device(), "name", "no GPU")
    name = name.decode() if isinstance(name, bytes) else str(name)
    print(f"GPU: {name}{' (numba CUDA simulator)' if simulated else ''}; CPU threads: {os.cpu_count()}; "
          f"load {os.getloadavg()[0]:.1f}")
    print()
    print("| aircraft | integrator | N | steps a call | end to end (airplane-steps/s) | kernel (airplane-steps/s) |")
    print("|---|---|---|---|---|---|")
    best = {}
    for aircraft, integrator in CASES:
        for n in sizes:
            batch = BatchSimulation(n, aircraft, integrator=integrator, dt=DT, start="air", device="cuda")
            batch.step(1)                                    # compiles (first of this aircraft), uploads
            steps = steps_for(batch, args.seconds, args.smoke)
            rate, kernel = timed(batch, steps, rounds)
            best[aircraft, integrator] = max(best.get((aircraft, integrator), 0.0), kernel or 0.0)
            print(f"| {aircraft or 'book'} | {integrator} | {n:,} | {steps} | {rate:,.0f} | "
                  f"{'—' if kernel is None else f'{kernel:,.0f}'} |", flush=True)
            del batch
    print()
    cpu_n = 64 if args.smoke else CPU_N
    print(f"| aircraft | integrator | CPU batch, N = {cpu_n:,} (airplane-steps/s) | best GPU kernel | GPU ÷ CPU |")
    print("|---|---|---|---|---|")
    for aircraft, integrator in CASES:
        batch = BatchSimulation(cpu_n, aircraft, integrator=integrator, dt=DT, start="air")
        batch.step(1)                                        # compiles or loads numba's cache
        steps = steps_for(batch, args.seconds, args.smoke)
        rate, _ = timed(batch, steps, rounds)
        gpu = best[aircraft, integrator]
        print(f"| {aircraft or 'book'} | {integrator} | {rate:,.0f} | {gpu:,.0f} | {gpu / rate:.1f}× |", flush=True)
    book = best[None, "euler"]
    print()
    print(f"book's airplane, euler, best kernel rate: {book / 1e6:,.0f} M airplane-steps/s; Nimbus's best "
          f"published (RTX 4090, float32): {NIMBUS_BEST / 1e6:,.0f} M — ratio {book / NIMBUS_BEST:.2f} "
          f"(aim on an H100: ≥ 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

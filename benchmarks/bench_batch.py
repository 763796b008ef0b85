"""Many airplanes at once: airplane-steps per second of the batched simulation, its vector environment, and JSBSim.

What is measured
----------------
- flightsim batch: ``BatchSimulation(N, integrator=name, dt=1/120, start=<trimmed
  level flight>)`` for N = 1, 64, 1024, 4096, 16384 and ``euler``, ``rk4``;
  each timed batch is one ``step(k)`` call (k physics steps of every airplane,
  at most 60 s of flight, after a ``reset()`` outside the timed region);
  airplane-steps/s = N·k / time.
- flightsim vector environment: ``gymnasium.make_vec("flightsim/HeadingHold-v0",
  num_envs=1024, vectorization_mode="vector_entry_point", agent_hz=10)``
  (``euler``, 12 physics steps per decision), ``envs.step(actions)`` with a
  fixed action array, autoresets included; airplane-steps/s = 1024·12·decisions / time,
  beside the bare batch at N = 1024 with ``euler`` (the book's airplane: left out with ``--aircraft``).
- JSBSim: the c172p trimmed at 4000 ft and 100 kt, ``fdm.run()`` from Python in
  batches of 2000 (as ``bench_step.py``): one airplane per process.

Everything is warmed up first (numba compile or cache load; JSBSim's first
steps), then timed round-robin, one batch of each candidate per round, and
the median over the rounds reported, so a change in machine load hits all
alike.  The column "CPU µs/airplane-step" is the process's CPU time per step: for
the batch summed over numba's threads, and for every candidate including the
time numba's worker threads spin after a parallel call (so JSBSim's reads
high when it follows one); the wall-clock rates are the measure.  Prints
the ratios and the issue's targets: batched ``euler`` at
N = 4096 ≥ 18× JSBSim, ``rk4`` ≥ 5×, and the vector environment at
N = 1024 losing at most 30 % to the bare batch; with ``--aircraft jsbsim:c172p``
(JSBSim's own c172p flown by flightsim's batch) ``euler`` at N = 4096 ≥ 10×
JSBSim's c172p.

Round planet against flat (``--planet``): the same batch (``--aircraft``, default Bourg's) with
``planet="flat"`` and ``planet="round"`` given explicitly (a JSBSim aircraft defaults to round), ``euler`` and
``rk4``, N = 1 and 1024 (``--sizes``), in one round-robin; prints the cost ratio round ÷ flat (flat
airplane-steps/s ÷ round) beside the target of ``bench_step.py --planet``: a round-planet step costs at most
1.5× a flat one.

How to run
----------
::

    python benchmarks/bench_batch.py            # 5 rounds
    python benchmarks/bench_batch.py --quick    # smoke run: N up to 1024, 2 rounds, short batches
    python benchmarks/bench_batch.py --planet --rounds 7   # round planet ÷ flat
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.flight import resolve_aircraft
from flightsim.simulation.starts import make_start

DT = 1.0 / 120.0
SIZES = (1, 64, 1024, 4096, 16384)
INTEGRATORS = ("euler", "rk4")
VECTOR_N = 1024
AGENT_HZ = 10.0
#: Airplane-steps per timed batch (at most 60 s of flight each).
WORK = 400_000
TARGETS = {"euler": 18.0, "rk4": 5.0}
#: With a JSBSim aircraft (``--aircraft jsbsim:c172p``): the batch still ≥ 10× JSBSim (issue 22).
JSBSIM_TARGETS = {"euler": 10.0}
MAX_VECTOR_LOSS = 0.30
#: ``--planet``: the batch sizes, and the target on round ÷ flat (cost per airplane-step).
PLANET_SIZES = (1, 1024)
PLANET_TARGET = 1.5


class BatchCandidate:
    def __init__(self, integrator, n, start, work, aircraft=None, planet=None, named=True):
        # (named: the planet in the label, for the planet comparison's two of each)
        self.label = f"batch {integrator} N={n}" + ("" if planet is None or not named else f" {planet}")
        self.integrator, self.n = integrator, n
        t0 = time.perf_counter()
        self.batch = BatchSimulation(n, aircraft, integrator=integrator, dt=DT, start=start, planet=planet)
        self.steps = int(min(max(work // n, 10), 60.0 / DT))
        self.batch.step(2)                    # warm-up: numba compile or cache load
        self.warmup = time.perf_counter() - t0
        self.stops = 0
        self.cpu = []

    def rate(self):
        """Airplane-steps per second of one timed ``step(k)`` call."""
        b = self.batch
        b.reset()
        c0, t0 = time.process_time(), time.perf_counter()
        b.step(self.steps)
        elapsed = time.perf_counter() - t0
        self.cpu.append((time.process_time() - c0) / (self.n * self.steps))
        self.stops += int(np.count_nonzero(~b.running))
        return self.n * self.steps / elapsed


class VectorCandidate:
    def __init__(self, n, decisions):
        import gymnasium

        import flightsim.gym  # noqa: F401  (registers the environments)

        self.label = f"vector env N={n}, agent_hz {AGENT_HZ:g}"
        self.n = n
        t0 = time.perf_counter()
        self.envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=n, vectorization_mode="vector_entry_point",
                                       agent_hz=AGENT_HZ, dt=DT)
        self.envs.reset(seed=0)
        self.substeps = self.envs.unwrapped.task.substeps
        self.actions = np.zeros((n, 4), dtype=np.float32)
        self.actions[:, 3] = -0.1                       # about the trim's throttle
        self.decisions = decisions
        self.envs.step(self.actions)
        self.warmup = time.perf_counter() - t0
        self.resets = 0
        self.cpu = []

    def rate(self):
        step = self.envs.step
        c0, t0 = time.process_time(), time.perf_counter()
        for _ in range(self.decisions):
            _, _, terminated, truncated, _ = step(self.actions)
            self.resets += int(np.count_nonzero(terminated | truncated))
        elapsed = time.perf_counter() - t0
        work = self.n * self.substeps * self.decisions
        self.cpu.append((time.process_time() - c0) / work)
        return work / elapsed


class JSBSimRate:
    label = "JSBSim c172p (one airplane per process)"

    def __init__(self, jsbsim, steps):
        from bench_step import JSBSimCandidate

        self.jsb = JSBSimCandidate(jsbsim)
        self.warmup = self.jsb.warmup
        self.steps = steps
        self.cpu = []

    def rate(self):
        c0 = time.process_time()
        wall = self.jsb.batch(self.steps)
        self.cpu.append((time.process_time() - c0) / self.steps)
        return 1.0 / wall


def planet_main(aircraft, name, rounds, work, sizes):
    """``--planet``: the same batch flat and round, in one round-robin; the cost ratio round ÷ flat."""
    import numba

    print(f"# BatchSimulation ({name}, dt = 1/120 s) on the round planet and on the flat one")
    print(f"# {rounds} rounds, round-robin, median airplane-steps/s; {os.cpu_count()} CPUs, "
          f"numba threads {numba.get_num_threads()}, load average {os.getloadavg()[0]:.2f} at start")
    start = make_start(aircraft, "air")
    pairs = [(integrator, n, [BatchCandidate(integrator, n, start, work, aircraft, planet)
                              for planet in ("flat", "round")])
             for integrator in INTEGRATORS for n in sizes]
    cands = [c for _, _, pair in pairs for c in pair]
    samples = {c.label: [] for c in cands}
    t0 = time.perf_counter()
    for _ in range(rounds):
        for c in cands:
            samples[c.label].append(c.rate())
    print(f"# timing took {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f} at end")
    print()
    header = (f"{'integrator':<10} {'N':>5} {'flat steps/s':>14} {'round steps/s':>14} {'round ÷ flat':>13} "
              f"{'(best)':>7}  target")
    print(header)
    print("-" * len(header))
    worst = 0.0
    for integrator, n, (flat, round_) in pairs:
        ratio = statistics.median(samples[flat.label]) / statistics.median(samples[round_.label])
        best = max(samples[flat.label]) / max(samples[round_.label])
        worst = max(worst, ratio)
        print(f"{integrator:<10} {n:>5} {statistics.median(samples[flat.label]):>14,.0f} "
              f"{statistics.median(samples[round_.label]):>14,.0f} {ratio:>13.2f} {f'({best:.2f})':>7}  "
              f"≤ {PLANET_TARGET:g}")
    stops = [f"{c.label}: {c.stops}" for c in cands if c.stops]
    if stops:
        print("  airplanes stopped during timed batches: " + ", ".join(stops))
    print(f"\nRound ÷ flat (cost per airplane-step, medians; (best): of the fastest rounds), worst: {worst:.2f} "
          f"(target ≤ {PLANET_TARGET:g}: {'met' if worst <= PLANET_TARGET else 'MISSED'})")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: N up to 1024, 2 rounds, short batches")
    parser.add_argument("--rounds", type=int, default=None, help="timed rounds (default 5)")
    parser.add_argument("--aircraft", default=None, metavar="NAME",
                        help="the batch's aircraft (default: Bourg's; e.g. jsbsim:c172p, whose target is ≥ 10× JSBSim "
                             "with euler)")
    parser.add_argument("--planet", action="store_true",
                        help="time the batch on the round planet against the flat one instead "
                             f"(euler and rk4, N = {', '.join(map(str, PLANET_SIZES))})")
    args = parser.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 5)
    sizes = tuple(n for n in SIZES if n <= 1024) if args.quick else SIZES
    work = WORK // 20 if args.quick else WORK
    vector_n = 64 if args.quick else VECTOR_N
    if rounds < 1:
        parser.error("--rounds must be ≥ 1")

    import numba

    aircraft = resolve_aircraft(args.aircraft)
    if args.planet:
        return planet_main(aircraft, args.aircraft or aircraft.name, rounds, work, PLANET_SIZES)
    print(f"# Many airplanes at once: flightsim's BatchSimulation ({args.aircraft or aircraft.name}, dt = 1/120 s), "
          + ("its vector environment (Bourg's airplane), " if args.aircraft is None else "") + "and JSBSim")
    print(f"# {rounds} rounds, round-robin, median airplane-steps/s; {os.cpu_count()} CPUs, "
          f"numba threads {numba.get_num_threads()}, load average {os.getloadavg()[0]:.2f} at start")
    # the flat planet for every aircraft (a JSBSim aircraft defaults to round: --planet compares the two)
    start = make_start(aircraft, "air", planet="flat")
    targets = TARGETS if aircraft.jsbsim is None else JSBSIM_TARGETS
    cands = [BatchCandidate(name, n, start, work, aircraft, planet="flat", named=False)
             for name in INTEGRATORS for n in sizes]
    # (the vector environment flies Bourg's airplane: compared with the bare batch of that airplane only)
    vector = VectorCandidate(vector_n, 3 if args.quick else 20) if args.aircraft is None else None
    if vector is not None:
        cands.append(vector)
    try:
        import jsbsim
    except ImportError:
        jsbsim = None
        print("\nJSBSim: the jsbsim package is not installed (pip install -e '.[bench]'); no ratios to it.")
    jsb = JSBSimRate(jsbsim, 200 if args.quick else 2000) if jsbsim is not None else None
    if jsb is not None:
        cands.append(jsb)

    samples = {c.label: [] for c in cands}
    t0 = time.perf_counter()
    for _ in range(rounds):
        for c in cands:
            samples[c.label].append(c.rate())
    med = {label: statistics.median(v) for label, v in samples.items()}
    print(f"# timing took {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f} at end")

    print()
    width = max(len(c.label) for c in cands)
    header = (f"{'candidate':<{width}} {'airplane-steps/s':>17} {'best':>12} {'/ JSBSim':>9} "
              f"{'CPU µs/airplane-step':>21} {'warm-up s':>10}")
    print(header)
    print("-" * len(header))
    cpu = {c.label: 1e6 * statistics.median(c.cpu) for c in cands}
    for c in cands:
        ratio = f"{med[c.label] / med[jsb.label]:.1f}" if jsb else "n/a"
        print(f"{c.label:<{width}} {med[c.label]:>17,.0f} {max(samples[c.label]):>12,.0f} {ratio:>9} "
              f"{cpu[c.label]:>21.2f} {c.warmup:>10.2f}")
    stops = [f"{c.label}: {c.stops}" for c in cands if isinstance(c, BatchCandidate) and c.stops]
    if vector is not None:
        print(f"\n  vector env: {vector.resets} autoresets during the timed steps; "
              f"{vector.substeps} physics steps per decision, "
              f"{med[vector.label] / (vector.n * vector.substeps):,.0f} decisions/s of each sub-environment "
              f"({med[vector.label] / vector.substeps:,.0f} env-steps/s over all)")
    if stops:
        print("  airplanes stopped during timed batches: " + ", ".join(stops))

    print()
    if vector is not None:
        bare = med[f"batch euler N={vector_n}"]
        loss = 1.0 - med[vector.label] / bare
        print(f"  vector env N={vector_n} / bare batch euler N={vector_n} = {med[vector.label] / bare:.2f}: "
              f"loses {100 * loss:.0f} % (target ≤ {100 * MAX_VECTOR_LOSS:.0f} %: "
              f"{'met' if loss <= MAX_VECTOR_LOSS else 'MISSED'})")
    if jsb is None:
        print("Ratios to JSBSim: n/a (JSBSim missing)")
        return 0
    n = max(n for n in sizes if n <= 4096)
    print(f"Ratios to JSBSim at N = {n} (airplane-steps/s ÷ JSBSim steps/s; targets from the issue):")
    for name, target in targets.items():
        r = med[f"batch {name} N={n}"] / med[jsb.label]
        print(f"  {name} N={n} / JSBSim = {r:.1f}  (target ≥ {target:g}: {'met' if r >= target else 'MISSED'})")
    best = max((c for c in cands if isinstance(c, BatchCandidate)), key=lambda c: med[c.label])
    print(f"  fastest: {best.label} = {med[best.label] / med[jsb.label]:.1f}× JSBSim")
    return 0


if __name__ == "__main__":
    sys.exit(main())

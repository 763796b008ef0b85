"""flightsim's batch against its peers in one run: Nimbus (JAX) for many airplanes, JSBSim for one.

What is measured
----------------
- **Nimbus** (github.com/auxeno/nimbus, Apache-2.0: a JAX fixed-wing 6-DOF simulator), timed as its
  README's "Benchmark Methodology" points to (the demo notebook's ``benchmark_nimbus``, the README's
  "Massive Parallel Simulation" quick start run for many steps): ``step_fn = jax.jit(step,
  static_argnames=("config",))``, ``step_parallel = jax.vmap(step_fn, in_axes=(0, 0, None, 0, None))``, one
  key per airplane and step, ``jax.lax.scan`` over the steps, ``SimulationConfig(dt=1/60)`` (RK4 at 60 Hz,
  float32, its default wind gusts and terrain collision), ``InitialConditions.default()``, N airplanes
  from ``jax.vmap(generate_simulation)``; each timed call is one ``lax.scan`` of k steps, waited for with
  ``jax.block_until_ready``.  airplane-steps/s = N·k / time.
- **flightsim**: ``BatchSimulation(N, None, integrator="rk4", dt=1/60, start=make_start(..., "air",
  planet="flat"))`` — the book's airplane in calm air, float64, stepped 16 airplanes side by side in SIMD
  lanes (``BatchSimulation.lanes``, :mod:`flightsim.physics.lanes`) — each timed call one ``step(k)`` after a
  ``reset()`` outside the timed region.
- **JSBSim's c172p**: flightsim's batch flying JSBSim's own c172p (``jsbsim:c172p``, ``euler``, dt = 1/120 s,
  on the round planet, its default, and on the flat one, as ``bench_batch.py --aircraft jsbsim:c172p``) at
  N = 4096 (``--jsbsim-n``) against JSBSim itself flying the c172p: one ``FGFDMExec`` calling ``run()`` in a
  loop from Python (``bench_step.py``'s candidate), one airplane per process.

The same N for both (1024, 4096, 16384, 65536; ``--n`` to choose), the same number of steps per timed call
(about ``--work`` airplane-steps, at least 30 steps); everything warmed up first (numba's compile or cache
load, XLA's compile), then timed round-robin — one call of each candidate per round — and the median over the
rounds reported.  "cores" is the process's CPU time over the wall time of a call (numba's threads, XLA's).

Nimbus flies float32 and a simpler model (lift and drag from the angle of attack on one wing, moment
coefficients per axis, an exponential atmosphere); flightsim flies float64 (it has no float32 path) with
Bourg's eight lifting elements, each its own table, and the landing gear's seven contact points.

Getting Nimbus
--------------
Nimbus is not a dependency of flightsim and this script installs nothing: it times Nimbus where ``import
nimbus`` works, and otherwise says so in one line and times flightsim alone.  Measured with Nimbus 0.1.0 at
commit ``faf46fa12d93e9211747b9ff42a9ce9f463d9368``::

    pip install "git+https://github.com/auxeno/nimbus@faf46fa12d93e9211747b9ff42a9ce9f463d9368"
    # or: git clone https://github.com/auxeno/nimbus && PYTHONPATH=$PWD/nimbus python benchmarks/bench_peers.py

(its own requirements: jax and jaxtyping; its pyproject pins jax 0.7.1, and it runs on later jax too).

How to run
----------
::

    python benchmarks/bench_peers.py                 # N = 1k, 4k, 16k, 64k; 3 rounds
    python benchmarks/bench_peers.py --n 4096 --rounds 5
    python benchmarks/bench_peers.py --quick         # smoke run: N = 1024, 2 rounds, short calls, flat c172p
"""

import argparse
import os
import statistics
import sys
import time

from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.flight import resolve_aircraft
from flightsim.simulation.starts import make_start

SIZES = (1024, 4096, 16384, 65536)
#: Nimbus's rate, and the book's airplane's dt here: 60 Hz.
DT = 1.0 / 60.0
#: About this many airplane-steps per timed call (at least MIN_STEPS steps, at most 60 s of flight).
WORK = 1_000_000
MIN_STEPS = 30
#: JSBSim's c172p in flightsim's batch: its N, integrator and dt (as bench_batch.py), and the issue's targets.
JSBSIM_N = 4096
JSBSIM_DT = 1.0 / 120.0
JSBSIM_KEEP, JSBSIM_AIM = 10.0, 20.0
#: The issue's target for the CPU batch at N ≥ 4096: flightsim / Nimbus.
NIMBUS_TARGET = 1.5
#: The Nimbus commit measured (its pyproject's version 0.1.0).
NIMBUS_COMMIT = "faf46fa12d93e9211747b9ff42a9ce9f463d9368"


def steps_for(n, work):
    """Steps per timed call of ``n`` airplanes: about ``work`` airplane-steps, ≥ MIN_STEPS, ≤ 60 s of flight."""
    return int(min(max(work // n, MIN_STEPS), 60.0 / DT))


class Timed:
    """One candidate: ``call()`` runs one timed batch and returns airplane-steps; wall and CPU time kept."""

    def rate(self):
        c0, t0 = time.process_time(), time.perf_counter()
        work = self.call()
        wall = time.perf_counter() - t0
        self.cores.append((time.process_time() - c0) / wall)
        return work / wall


class FlightsimCandidate(Timed):
    def __init__(self, n, steps, aircraft=None, integrator="rk4", dt=DT, planet="flat", label=None):
        self.label = label or f"flightsim N={n}"
        self.n, self.steps, self.cores = n, steps, []
        t0 = time.perf_counter()
        craft = resolve_aircraft(aircraft)
        start = make_start(craft, "air", planet=planet)
        self.batch = BatchSimulation(n, craft, integrator=integrator, dt=dt, start=start, planet=planet)
        self.batch.step(2)                        # numba's compile or cache load
        self.warmup = time.perf_counter() - t0
        self.stops = 0

    def call(self):
        b = self.batch
        b.reset()
        b.step(self.steps)
        self.stops += int((b.status != 0).sum())
        return self.n * self.steps


class NimbusCandidate(Timed):
    """Nimbus as its demo notebook's ``benchmark_nimbus`` times it (multi-step: vmap of the jitted step, scan)."""

    def __init__(self, jax, nimbus, n, steps):
        self.label = f"Nimbus N={n}"
        self.n, self.steps, self.cores = n, steps, []
        t0 = time.perf_counter()
        heightmap = nimbus.quick_terrain(seed=0)
        config = nimbus.SimulationConfig(dt=DT)
        initial = nimbus.InitialConditions.default()
        key = jax.random.PRNGKey(0)
        keys = jax.random.split(key, n)
        simulations = jax.vmap(nimbus.generate_simulation, in_axes=(0, None))(keys, initial)
        routes = jax.vmap(nimbus.generate_route, in_axes=(0, None))(keys, initial)
        step_fn = jax.jit(nimbus.step, static_argnames=("config",))
        step_parallel = jax.vmap(step_fn, in_axes=(0, 0, None, 0, None))

        def simulate_timestep(carry, key):
            sims, routes_carry = carry
            env_keys = jax.random.split(key, n)
            next_sims, next_routes = step_parallel(env_keys, sims, heightmap, routes_carry, config)
            return (next_sims, next_routes), None

        time_keys = jax.random.split(key, steps)
        self.run = lambda: jax.block_until_ready(jax.lax.scan(simulate_timestep, (simulations, routes), time_keys))
        out = self.run()                          # XLA's compile
        self.active = int(jax.numpy.sum(out[0][0].aircraft.meta.active))
        self.warmup = time.perf_counter() - t0

    def call(self):
        self.run()
        return self.n * self.steps


class JSBSimCandidate(Timed):
    label = "JSBSim c172p (one FGFDMExec, run() from Python)"

    def __init__(self, jsbsim, steps):
        from bench_step import JSBSimCandidate as Exec

        self.exec = Exec(jsbsim)
        self.warmup = self.exec.warmup
        self.steps, self.cores = steps, []

    def call(self):
        self.exec.batch(self.steps)
        return self.steps


def load_nimbus():
    """``(jax, nimbus, float dtype name)`` or ``(None, None, why)`` where Nimbus cannot be imported."""
    try:
        import jax
        import nimbus
        from nimbus.core.primitives import FLOAT_DTYPE
    except ImportError as exc:
        return None, None, f"{exc}"
    return jax, nimbus, jax.numpy.dtype(FLOAT_DTYPE).name


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=None, metavar="N",
                        help=f"airplanes per batch (default {' '.join(map(str, SIZES))})")
    parser.add_argument("--rounds", type=int, default=None, help="timed rounds (default 3)")
    parser.add_argument("--work", type=int, default=None, help=f"airplane-steps per timed call (default {WORK:,})")
    parser.add_argument("--jsbsim-n", type=int, default=JSBSIM_N,
                        help=f"airplanes of JSBSim's c172p in flightsim's batch (default {JSBSIM_N}; 0: leave out)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: N = 1024, 2 rounds, short calls, the c172p on the flat planet only")
    args = parser.parse_args(argv)
    sizes = tuple(args.n or ((1024,) if args.quick else SIZES))
    rounds = args.rounds or (2 if args.quick else 3)
    work = args.work or (WORK // 50 if args.quick else WORK)
    jsbsim_n = min(args.jsbsim_n, 256) if args.quick else args.jsbsim_n
    if rounds < 1 or min(sizes) < 1 or work < 1 or jsbsim_n < 0:
        parser.error("--rounds, --n and --work must be ≥ 1, --jsbsim-n ≥ 0")

    import numba

    jax, nimbus, dtype = load_nimbus()
    print("# flightsim's BatchSimulation against Nimbus (JAX) and JSBSim, in one run")
    print(f"# {rounds} rounds, round-robin, median airplane-steps/s; {os.cpu_count()} CPUs, numba "
          f"{numba.__version__} on {numba.get_num_threads()} threads, load average {os.getloadavg()[0]:.2f} at start")
    if nimbus is None:
        print(f"Nimbus: not importable ({dtype}): timing flightsim alone (to get it: pip install "
              f"\"git+https://github.com/auxeno/nimbus@{NIMBUS_COMMIT}\")")
    else:
        version = getattr(nimbus, "__version__", None) or _dist_version("nimbus") or "from source"
        print(f"# Nimbus {version} ({os.path.dirname(nimbus.__file__)}) on jax {jax.__version__} "
              f"({jax.devices()[0].platform}), {dtype}")
    pairs = []
    for n in sizes:
        steps = steps_for(n, work)
        pairs.append((n, steps, FlightsimCandidate(n, steps),
                      NimbusCandidate(jax, nimbus, n, steps) if nimbus is not None else None))
    cands = [c for _, _, f, m in pairs for c in (f, m) if c is not None]
    jsb_cands = []
    if jsbsim_n:
        steps = int(min(max(work // (4 * jsbsim_n), MIN_STEPS), 60.0 / JSBSIM_DT))
        # (--quick: the flat planet only; the round one's batch kernels for a JSBSim aircraft take numba minutes
        # more to compile cold, and the smoke run checks the script, not the figure)
        for planet in ("flat",) if args.quick else ("round", "flat"):
            jsb_cands.append(FlightsimCandidate(jsbsim_n, steps, "jsbsim:c172p", "euler", JSBSIM_DT, planet,
                                                label=f"flightsim jsbsim:c172p euler N={jsbsim_n} {planet}"))
        try:
            import jsbsim
        except ImportError:
            print("JSBSim: the jsbsim package is not installed; no ratios to it.")
        else:
            jsb_cands.append(JSBSimCandidate(jsbsim, 200 if args.quick else 2000))
    cands += jsb_cands

    samples = {c.label: [] for c in cands}
    t0 = time.perf_counter()
    for _ in range(rounds):
        for c in cands:
            samples[c.label].append(c.rate())
    med = {label: statistics.median(v) for label, v in samples.items()}
    cores = {c.label: statistics.median(c.cores) for c in cands}
    print(f"# timing took {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f} at end")

    print("\nThe book's airplane in flightsim (float64, rk4, dt 1/60 s, calm air) and Nimbus's default aircraft "
          f"({dtype or 'absent'}, RK4 at 60 Hz, its wind gusts and terrain):\n")
    print("| N | steps per call | flightsim airplane-steps/s | cores | Nimbus airplane-steps/s | cores | "
          "flightsim / Nimbus |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    ratios = {}
    for n, steps, f, m in pairs:
        if m is None:
            print(f"| {n:,} | {steps} | {med[f.label]:,.0f} | {cores[f.label]:.2f} | — | — | — |")
            continue
        ratios[n] = med[f.label] / med[m.label]
        print(f"| {n:,} | {steps} | {med[f.label]:,.0f} | {cores[f.label]:.2f} | {med[m.label]:,.0f} | "
              f"{cores[m.label]:.2f} | {ratios[n]:.2f} |")
    for _, _, f, m in pairs:
        if f.stops:
            print(f"  {f.label}: {f.stops} airplanes stopped during timed calls")
        if m is not None and m.active < m.n:
            print(f"  {m.label}: {m.n - m.active} of {m.n} airplanes frozen by a collision at the end of a call "
                  "(still computed: vmap evaluates both branches of its lax.cond)")
    big = [n for n in ratios if n >= 4096]
    if big:
        worst = min(ratios[n] for n in big)
        print(f"\nflightsim / Nimbus at N ≥ 4096: {worst:.2f} at worst (issue 43's target ≥ {NIMBUS_TARGET:g}: "
              f"{'met' if worst >= NIMBUS_TARGET else 'MISSED'})")

    if jsb_cands:
        print("\nJSBSim's c172p: flightsim's batch (euler, dt 1/120 s) against JSBSim flying it:\n")
        print("| candidate | airplane-steps/s | cores | / JSBSim |")
        print("|---|---:|---:|---:|")
        jsb = jsb_cands[-1] if isinstance(jsb_cands[-1], JSBSimCandidate) else None
        for c in jsb_cands:
            ratio = f"{med[c.label] / med[jsb.label]:.1f}" if jsb else "—"
            print(f"| {c.label} | {med[c.label]:,.0f} | {cores[c.label]:.2f} | {ratio} |")
        if jsb is not None:
            for c in jsb_cands[:-1]:
                r = med[c.label] / med[jsb.label]
                verdict = "aim met" if r >= JSBSIM_AIM else ("kept" if r >= JSBSIM_KEEP else "MISSED")
                print(f"  {c.label} / JSBSim = {r:.1f} (keep ≥ {JSBSIM_KEEP:g}, aim {JSBSIM_AIM:g}: {verdict})")
    print(f"\n(warm-ups: {', '.join(f'{c.label} {c.warmup:.1f} s' for c in cands)})")
    return 0


def _dist_version(name):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    sys.exit(main())

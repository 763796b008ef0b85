"""Cost of one simulation step of the book's airplane, beside JSBSim's c172p, in the same run; and of JSBSim's
own aircraft flown by flightsim, beside JSBSim flying them.

What is measured
----------------
- flightsim: ``sim = flightsim.simulation.Simulation(integrator=name, dt=1/120)``
  for every name in :data:`flightsim.integrators.INTEGRATORS`; ``sim.step()``
  is called from Python in a loop.  Each timed batch starts from
  ``sim.reset()`` (outside the timed region) and runs up to 2000 steps
  (16.7 s of flight, before the airplane can reach the ground), stopping
  early if the simulation stops; µs/step = batch time / steps taken.
- JSBSim: ``jsbsim.FGFDMExec`` with the package's bundled data
  (``jsbsim.get_default_root_dir()``), the ``c172p`` at 4000 ft, 100 kt,
  heading 0, engine running, trimmed for level flight (if the trim fails the
  run goes on untrimmed and says so), at JSBSim's default step; ``fdm.run()``
  called from Python in batches of 2000 steps, flying on between batches.

Both are warmed up first (numba compile or cache load; JSBSim's first
steps).  Batches are taken round-robin over all candidates, so a change in
machine load hits them all alike, and the median over batches is reported,
with the ratios to JSBSim and the targets from the issue:
``euler / JSBSim ≤ 1`` and ``rk4 / JSBSim ≤ 2``.  The column "compiled step"
is the simulation's own meter (``telemetry().step_us``, an average over the
last ~100 steps of the integrator call alone, without the Python around it;
shown for batches of at least 1000 steps).

JSBSim's aircraft (``--aircraft``, default 737, t6texan2 and c172p): each is
flown by flightsim (``Simulation("jsbsim:NAME", "euler")`` from its level
trim at its cruise speed, ``sim.step()`` from Python; and the same ``euler``
step in a compiled loop, ``Integrator.run``) and by JSBSim (the same aircraft
trimmed at the same true airspeed and height, ``fdm.run()``), in the same
round-robin.  The issue's target is on the compiled step: flightsim's
``euler`` step in the compiled loop ≤ 0.5 × JSBSim's ``run()``.

If the ``jsbsim`` package is missing the script says so and reports the
flightsim numbers alone (exit status 0).

Round planet against flat (``--planet``): the book's airplane (bourg) and
JSBSim's c172p (``jsbsim:c172p``), each with ``euler`` and ``rk4``, flown by
the same ``Simulation`` on a flat planet and on the round one
(``planet="flat"`` / ``"round"`` given explicitly: a JSBSim aircraft
defaults to round), from the same start (bourg's file start, the c172p's
level trim), in one round-robin; and the same step in a compiled loop
(``Integrator.run``: the flat state, or the round planet's Earth-centred
inertial state whose loads evaluate its view).  Prints each pair's median
µs/step and the ratio round / flat beside the issue's target: a round-planet
step costs at most 1.5× a flat one (same aircraft, same integrator).
JSBSim itself is not run.

How to run
----------
::

    python benchmarks/bench_step.py            # 15 batches of 2000 steps each
    python benchmarks/bench_step.py --quick    # 3 batches of 200 steps (smoke run)
    python benchmarks/bench_step.py --planet --batches 7   # round planet ÷ flat, 7 batches
"""

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np

from flightsim.physics import aero, integrators
from flightsim.physics import planet as planets
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.controls import flown_row
from flightsim.simulation.flight import Simulation
from flightsim.verify.oracle import silenced  # (JSBSim's C++ output kept off the terminal)

DT = 1.0 / 120.0
TARGETS = {"euler": 1.0, "rk4": 2.0}
#: JSBSim's aircraft timed by default, and the target on flightsim's compiled euler step ÷ JSBSim's run().
AIRCRAFT = ("737", "t6texan2", "c172p")
AIRCRAFT_TARGET = 0.5
#: ``--planet``: the aircraft (None: the book's airplane), the integrators, and the target on round ÷ flat.
PLANET_AIRCRAFT = (None, "jsbsim:c172p")
PLANET_INTEGRATORS = ("euler", "rk4")
PLANET_TARGET = 1.5


class FlightsimCandidate:
    def __init__(self, name, aircraft=None, planet=None):
        self.label = f"flightsim {name}" if aircraft is None else f"flightsim {aircraft} {name}"
        self.name = name if aircraft is None else f"{aircraft}:{name}"
        if planet is not None:
            self.label += f" {planet}"
            self.name += f" {planet}"
        t0 = time.perf_counter()
        if aircraft is None:
            self.sim = Simulation(integrator=name, dt=DT, planet=planet)
        else:
            from flightsim.physics.aircraft import load_aircraft
            from flightsim.simulation.starts import make_start

            plane = load_aircraft(aircraft)
            self.sim = Simulation(plane, name, DT, start=make_start(plane, "air"), planet=planet)
        for _ in range(10):  # warm-up: numba compile or cache load
            self.sim.step()
        self.warmup = time.perf_counter() - t0
        self.stops = 0
        self.meter = []

    def batch(self, steps):
        sim = self.sim
        sim.reset()
        step = sim.step
        n = 0
        t0 = time.perf_counter()
        for _ in range(steps):
            n += 1
            if not step():
                break
        elapsed = time.perf_counter() - t0
        if not sim.running:
            self.stops += 1
        if n >= 1000:  # the meter averages over ~100 steps, seeded by the batch's first one
            self.meter.append(sim.telemetry().step_us)
        return elapsed / n

    def notes(self):
        tel = self.sim.telemetry()
        note = f"after a batch: t = {tel.t:.1f} s, altitude {tel.altitude:.0f} ft, airspeed {tel.airspeed:.0f} ft/s"
        if self.stops:
            note += f"; stopped early in {self.stops} batches ({self.sim.status})"
        return note


class CompiledCandidate:
    """flightsim's euler step of a JSBSim aircraft in a compiled loop (``Integrator.run``: the once-per-step
    flight controls and engines, the loads, the step; no Python between steps), from its trimmed start."""

    def __init__(self, flight):
        self.flight = flight
        self.label = f"{flight.label} (compiled loop)"
        self.name = f"{flight.name} compiled"
        sim = flight.sim
        self.integrator = integrators.get("euler")
        self.params, self.start = aero.pack(sim.aircraft), sim.start
        self.inertia, self.inertia_inv = sim.aircraft.inertia, sim.aircraft.inertia_inv
        self.warmup = 0.0
        self.meter = []
        self.batch(10)

    def batch(self, steps):
        y = self.start.state.copy()
        self.params.controls[:] = flown_row(self.start.controls)
        aero.settle(0.0, y, self.params)
        t0 = time.perf_counter()
        self.integrator.run(y, 0.0, DT, steps, self.params, self.inertia, self.inertia_inv)
        self.y = y
        return (time.perf_counter() - t0) / steps

    def notes(self):
        return f"after a batch: altitude {self.y[2]:.0f} ft"


class PlanetLoopCandidate:
    """A flight's step in a compiled loop (``Integrator.run``: the once-per-step work, the loads, the step; no
    Python between steps) on the flight's own planet: on a round one the Earth-centred inertial state, whose
    loads evaluate its view (the packed planet), from the flight's start."""

    def __init__(self, flight):
        sim = flight.sim
        self.label = f"{flight.label} (compiled loop)"
        self.name = f"{flight.name} compiled"
        self.integrator = sim._integrator
        self.sim = sim
        flat = aero.pack(sim.aircraft, sim.atmosphere)
        self.view_params = flat
        self.packed = planets.pack(sim.planet, math.radians(sim.lat), math.radians(sim.lon), flat.gravity)
        self.params = flat._replace(planet=self.packed)
        self.inertia, self.inertia_inv = sim.aircraft.inertia, sim.aircraft.inertia_inv
        self.warmup = 0.0
        self.meter = []
        self.batch(10)

    def batch(self, steps):
        view = self.sim.start.state.copy()
        self.params.controls[:] = flown_row(self.sim.start.controls)
        aero.settle(0.0, view, self.view_params)
        y = view
        if self.packed is not None:
            y = np.empty(13)
            planets.from_view(0.0, view, self.packed, y)
        t0 = time.perf_counter()
        self.integrator.run(y, 0.0, DT, steps, self.params, self.inertia, self.inertia_inv)
        elapsed = time.perf_counter() - t0
        if self.packed is not None:
            planets.to_view(steps * DT, y, self.packed, view)
            y = view
        self.y = y
        return elapsed / steps

    def notes(self):
        return f"after a batch: altitude {self.y[2]:.0f} ft"


def planet_main(batches, steps):
    """``--planet``: the same Simulation flat and round, same aircraft and integrator, in one round-robin."""
    print(f"# One simulation step on the round planet and on the flat one (dt = 1/{1 / DT:.0f} s): Simulation.step() "
          "from Python, and the same step in a compiled loop")
    print(f"# {batches} batches of {steps} steps per candidate, round-robin; median µs/step; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
    pairs = []
    cands = []
    for aircraft in PLANET_AIRCRAFT:
        for name in PLANET_INTEGRATORS:
            pair = []
            for planet in ("flat", "round"):
                flight = FlightsimCandidate(name, aircraft, planet)
                loop = PlanetLoopCandidate(flight)
                pair.append((flight, loop))
                cands += [flight, loop]
            pairs.append((aircraft or "bourg", name, pair))
    samples, med = round_robin(cands, batches, steps)
    print()
    header = (f"{'aircraft':<13} {'integrator':<10} {'step() flat':>11} {'round':>7} {'ratio':>5} {'(min)':>6} "
              f"{'meter flat':>10} {'round':>7} {'ratio':>5} {'loop flat':>9} {'round':>7} {'ratio':>5} {'(min)':>6}"
              "  target")
    print(header)
    print("-" * len(header))
    worst = 0.0
    for aircraft, name, ((flat, flat_loop), (round_, round_loop)) in pairs:
        r_step = med[round_.name] / med[flat.name]
        m_flat = statistics.median(flat.meter) if flat.meter else math.nan
        m_round = statistics.median(round_.meter) if round_.meter else math.nan
        r_meter = m_round / m_flat
        r_loop = med[round_loop.name] / med[flat_loop.name]
        low_step = min(samples[round_.name]) / min(samples[flat.name])
        low_loop = min(samples[round_loop.name]) / min(samples[flat_loop.name])
        worst = max(worst, r_step, r_loop, r_meter if math.isfinite(r_meter) else 0.0)
        print(f"{aircraft:<13} {name:<10} {med[flat.name]:>11.2f} {med[round_.name]:>7.2f} {r_step:>5.2f} "
              f"{f'({low_step:.2f})':>6} {m_flat:>10.2f} {m_round:>7.2f} {r_meter:>5.2f} {med[flat_loop.name]:>9.2f} "
              f"{med[round_loop.name]:>7.2f} {r_loop:>5.2f} {f'({low_loop:.2f})':>6}  ≤ {PLANET_TARGET:g}")
    print()
    print("µs/step, medians. step(): Simulation.step() called from Python (on the round planet also the view made "
          "after the step); meter: the simulation's own compiled-step meter (telemetry().step_us, the integrator "
          "call alone; batches of ≥ 1000 steps); loop: the step in a compiled loop (Integrator.run); ratio: of the "
          "medians; (min): of the fastest batches, the figure least moved by a loaded machine.")
    for c in cands:
        print(f"  {c.label}: {c.notes()}")
    print()
    print(f"Round ÷ flat, worst of the three columns: {worst:.2f} (target ≤ {PLANET_TARGET:g}: "
          f"{'met' if worst <= PLANET_TARGET else 'MISSED'})")
    return 0


class JSBSimAircraftCandidate:
    """JSBSim flying one of its aircraft from its trim at flightsim's start (true airspeed, height)."""

    def __init__(self, aircraft, start):
        from flightsim.verify.flight_oracle import jsbsim_trim

        bare = aircraft.split(":", 1)[1]
        self.label = f"JSBSim {bare}"
        self.name = f"jsbsim {aircraft}"
        t0 = time.perf_counter()
        with silenced(1, 2):
            self.fdm = jsbsim_trim(bare, float(start.trim.airspeed), float(start.trim.altitude)).fdm
        for _ in range(120):
            self.fdm.run()
        self.warmup = time.perf_counter() - t0
        self.meter = []

    def batch(self, steps):
        run = self.fdm.run
        t0 = time.perf_counter()
        for _ in range(steps):
            run()
        return (time.perf_counter() - t0) / steps

    def notes(self):
        f = self.fdm
        return f"t = {f['simulation/sim-time-sec']:.0f} s, altitude {f['position/h-sl-ft']:.0f} ft, " \
               f"{f['velocities/vt-fps']:.1f} ft/s"


class JSBSimCandidate:
    label = "JSBSim c172p"
    name = "jsbsim"

    def __init__(self, jsbsim):
        t0 = time.perf_counter()
        self.root = jsbsim.get_default_root_dir()
        with silenced(1, 2):
            fdm = jsbsim.FGFDMExec(None)  # None: the package's bundled aircraft, engines and systems
            fdm.set_debug_level(0)
            if not fdm.load_model("c172p"):
                raise RuntimeError("JSBSim could not load the c172p")
        fdm["ic/h-sl-ft"] = 4000.0
        fdm["ic/vc-kts"] = 100.0
        fdm["ic/psi-true-deg"] = 0.0
        with silenced(1, 2):
            fdm.run_ic()
        fdm["fcs/throttle-cmd-norm"] = 0.8
        fdm["fcs/mixture-cmd-norm"] = 0.87
        fdm["propulsion/magneto_cmd"] = 3
        fdm["propulsion/starter_cmd"] = 1
        fdm["propulsion/set-running"] = -1
        self.trim = "trimmed level"
        try:
            with silenced(1, 2):
                fdm["simulation/do_simple_trim"] = 1
        except Exception as exc:  # JSBSim's TrimFailureError; fly untrimmed
            self.trim = f"untrimmed ({type(exc).__name__})"
        self.fdm = fdm
        self.dt = fdm.get_delta_t()
        for _ in range(120):  # warm-up
            fdm.run()
        self.warmup = time.perf_counter() - t0
        self.meter = []

    def batch(self, steps):
        run = self.fdm.run
        n = 0
        t0 = time.perf_counter()
        for _ in range(steps):
            n += 1
            if not run():
                break
        return (time.perf_counter() - t0) / n

    def notes(self):
        f = self.fdm
        return (
            f"{self.trim}, dt = 1/{1.0 / self.dt:.0f} s; after the batches: t = {f['simulation/sim-time-sec']:.0f} s, "
            f"altitude {f['position/h-sl-ft']:.0f} ft, {f['velocities/vc-kts']:.1f} kt, "
            f"pitch {f['attitude/theta-deg']:.1f}°, engine {f['propulsion/engine/engine-rpm']:.0f} rpm"
        )


def round_robin(cands, batches, steps):
    """Each candidate's batches of ``steps`` steps, ``batches`` times round-robin over the candidates (so a change
    in the machine's load hits them all alike): the µs per step of every batch by name, and their medians."""
    samples = {c.name: [] for c in cands}
    t0 = time.perf_counter()
    for _ in range(batches):
        for c in cands:
            samples[c.name].append(1e6 * c.batch(steps))
    med = {name: statistics.median(v) for name, v in samples.items()}
    print(f"# timing took {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f} at end")
    return samples, med


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 3 batches of 200 steps")
    parser.add_argument("--batches", type=int, default=None, help="timed batches per candidate (default 15)")
    parser.add_argument("--steps", type=int, default=None, help="steps per batch (default 2000, at most 2000)")
    parser.add_argument("--aircraft", default=",".join(AIRCRAFT), metavar="NAMES",
                        help=f"JSBSim aircraft to time, comma-separated (default {','.join(AIRCRAFT)}; '' for none)")
    parser.add_argument("--planet", action="store_true",
                        help="time the round planet's step against the flat one's (bourg and jsbsim:c172p, euler "
                             f"and rk4; target round ÷ flat ≤ {PLANET_TARGET:g}) instead")
    args = parser.parse_args(argv)
    batches = args.batches or (3 if args.quick else 15)
    steps = args.steps or (200 if args.quick else 2000)
    if batches < 1 or not 1 <= steps <= 2000:
        parser.error("--batches must be ≥ 1 and --steps in 1..2000")
    if args.planet:
        return planet_main(batches, steps)

    print(f"# One simulation step, called from Python: flightsim (Bourg's airplane, dt = 1/{1 / DT:.0f} s) and JSBSim")
    print(f"# {batches} batches of {steps} steps per candidate, round-robin; median µs/step; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")

    cands = [FlightsimCandidate(name) for name in INTEGRATORS]
    try:
        import jsbsim
    except ImportError:
        jsbsim = None
        print("\nJSBSim: the jsbsim package is not installed (pip install -e '.[bench]'); "
              "reporting flightsim alone, no ratios.")
    jsb = None
    if jsbsim is not None:
        jsb = JSBSimCandidate(jsbsim)
        print(f"# jsbsim {jsbsim.__version__}, data root {jsb.root}")
        cands.append(jsb)
    pairs = []
    for name in (n.strip() for n in args.aircraft.split(",") if n.strip()) if jsbsim is not None else ():
        ours = FlightsimCandidate("euler", f"jsbsim:{name}")
        theirs = JSBSimAircraftCandidate(f"jsbsim:{name}", ours.sim.start)
        compiled = CompiledCandidate(ours)
        pairs.append((ours, compiled, theirs))
        cands += [ours, compiled, theirs]

    samples, med = round_robin(cands, batches, steps)

    print()
    width = max(28, max(len(c.label) for c in cands))
    header = (f"{'candidate':<{width}} {'µs/step':>9} {'min':>8} {'/ JSBSim':>9} {'compiled step µs':>17} "
              f"{'warm-up s':>10}")
    print(header)
    print("-" * len(header))
    for c in cands:
        ratio = f"{med[c.name] / med['jsbsim']:.2f}" if jsb else "n/a"
        meter = f"{statistics.median(c.meter):.2f}" if c.meter else ""
        print(f"{c.label:<{width}} {med[c.name]:>9.2f} {min(samples[c.name]):>8.2f} {ratio:>9} {meter:>17} "
              f"{c.warmup:>10.2f}")

    print()
    for c in cands:
        print(f"  {c.label}: {c.notes()}")

    print()
    if jsb is None:
        print("Ratios: n/a (JSBSim missing)")
        return 0
    print("Ratios to JSBSim (µs/step ÷ µs/step; targets from the issue):")
    for name, target in TARGETS.items():
        r = med[name] / med["jsbsim"]
        print(f"  {name} / JSBSim = {r:.2f}  (target ≤ {target:g}: {'met' if r <= target else 'MISSED'})")
    others = [c.name for c in cands if c.name not in TARGETS and c is not jsb and c.name in INTEGRATORS]
    print("  others: " + ", ".join(f"{n} / JSBSim = {med[n] / med['jsbsim']:.2f}" for n in others))
    if pairs:
        print(f"\nJSBSim's aircraft: flightsim's compiled euler step (in a compiled loop) ÷ JSBSim's run() of the "
              f"same aircraft (target ≤ {AIRCRAFT_TARGET:g}); and Simulation.step() called from Python ÷ run():")
    for ours, compiled, theirs in pairs:
        r = med[compiled.name] / med[theirs.name]
        print(f"  {theirs.label[7:]:<10} {med[compiled.name]:6.2f} µs / {med[theirs.name]:6.2f} µs = {r:.2f}  "
              f"({'met' if r <= AIRCRAFT_TARGET else 'MISSED'}); step() from Python: "
              f"{med[ours.name] / med[theirs.name]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

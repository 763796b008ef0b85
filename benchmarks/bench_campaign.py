"""Campaign throughput: flightsim's campaign here and on Ray, against a pool of JSBSim processes flying the approach.

What is measured
----------------
- **flightsim, local**: the spec's runs (default ``configs/campaigns/approach.toml``: the 172R's coupled approach
  to runway 36 from a minute out, flaps down, in a dispersed gusty crosswind with light turbulence, stopped at the
  first wheel on the ground or 2 minutes of flight) in the chunks ``flightsim campaign`` cuts here (equal, at
  most 2048 runs: :func:`flightsim.commands.campaign.chunk_size`), flown by
  :class:`~flightsim.simulation.campaign.executors.LocalExecutor` (this process, every core: numba's threads);
  runs/s = runs / wall time of ``run(spec, chunks, on_done)``.
- **flightsim, local on one thread**: the same with ``LocalExecutor(1)`` (numba held to one thread), the
  per-core rate the Ray path's tasks run at.
- **flightsim, Ray**: the same runs, in the chunks ``flightsim campaign --ray`` cuts (at most 256 runs, two per
  chunk flown at once), flown by
  :class:`~flightsim.simulation.campaign.ray_executor.RayExecutor` on a local Ray started here (``ray.init()``:
  this machine's cores, one task per core, numba held to one thread per task), or on ``--ray ADDRESS``; the
  workers are warmed first (their imports and numba's cache, one tiny chunk per CPU).  The rows of the two
  paths are compared bit for bit.
- **JSBSim**: the jsbsim package's c172r (JSBSim's Cessna 172R, the model closest to flightsim's own 172R),
  flown by a pool of as many JSBSim processes as this machine has cores (``concurrent.futures``; each process
  loads the model once and flies one run after another, the pool handing out runs as a thread pool of JSBSim
  processes does, without a process start per run).  Each run: the same run's draws (wind speed and direction,
  turbulence seed, weight; :func:`flightsim.simulation.campaign.dispersions.draws`), placed 350 ft above the
  ground (a 3° glide path a minute out at 65 KCAS, as flightsim's approach start), heading 360, flaps 30°, engine
  running, JSBSim's full trim at 65 KCAS on the -3° path in the run's steady wind (``simulation/do_simple_trim``
  = 1), then the trim's controls held (JSBSim's c172r has no autopilot: a held trim is the cheaper flight of the
  two, which favours JSBSim) in MIL-F-8785C light turbulence (``atmosphere/turb-type`` 3, severity 3) at
  120 Hz, until a wheel carries weight or 120 s; runs/s = runs / wall time.

Rounds alternate local, local on one thread and Ray (``--rounds``, medians reported), so a change in machine
load hits all alike; JSBSim is timed once after them.  Prints a Markdown table and the ratios against the
issue's aims: Ray within 20 % of local, flightsim ≥ 200× the runs/s of the pool of JSBSim processes.

How to run
----------
::

    PYTHONPATH=$PWD python benchmarks/bench_campaign.py                 # 1024 runs, 1 round, 8 JSBSim runs per core
    PYTHONPATH=$PWD python benchmarks/bench_campaign.py --quick         # smoke run: 16 runs, 4 JSBSim runs
    PYTHONPATH=$PWD python benchmarks/bench_campaign.py --ray HOST:PORT # Ray: that cluster instead of a local one

Needs the ``cluster`` extra (``pip install -e '.[cluster]'``: Ray) and jsbsim (a core dependency).
"""

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from flightsim.commands.campaign import chunk_size
from flightsim.simulation.campaign.dispersions import draws
from flightsim.simulation.campaign.executors import LocalExecutor
from flightsim.simulation.campaign.ray_executor import RayExecutor
from flightsim.simulation.campaign.runner import run_chunk
from flightsim.simulation.campaign.spec import read_spec

SPEC = Path(__file__).resolve().parents[1] / "configs" / "campaigns" / "approach.toml"
KNOT = 1.6878098571011957           # ft/s
#: The JSBSim flight: height above the ground (ft), calibrated airspeed (kt), flight-path angle (deg), the last
#: second of flight, the step (s).
JSBSIM_AGL_FT, JSBSIM_KCAS, JSBSIM_GAMMA_DEG, JSBSIM_END_S, JSBSIM_DT = 350.0, 65.0, -3.0, 120.0, 1.0 / 120.0

_fdm = None                          # the pool process's JSBSim (made once per process)


def _jsbsim():
    """This process's JSBSim with the c172r loaded, and its empty weight and first point mass (lb)."""
    global _fdm
    if _fdm is None:
        import jsbsim

        # its start-up banner goes straight to file descriptor 1 (C++): away from the table, in this pool process
        sys.stdout.flush()
        kept = os.dup(1)
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            try:
                fdm = jsbsim.FGFDMExec(None)
                fdm.set_debug_level(0)
            finally:
                os.dup2(kept, 1)
                os.close(kept)
        fdm.load_model("c172r")
        fdm.set_dt(JSBSIM_DT)
        fdm.reset_to_initial_conditions(0)
        _fdm = fdm, float(fdm["inertia/weight-lbs"]), float(fdm["inertia/pointmass-weight-lbs[0]"])
    return _fdm


def jsbsim_run(draw):
    """Fly one run's approach in JSBSim (the module docstring); return (seconds flown, wheels down)."""
    fdm, weight, pilot = _jsbsim()
    speed = float(draw.get("wind_speed_kt", 0.0)) * KNOT
    to = math.radians(float(draw.get("wind_from_deg", 0.0)) + 180.0)
    north, east = speed * math.cos(to), speed * math.sin(to)
    fdm["ic/h-agl-ft"] = JSBSIM_AGL_FT
    fdm["ic/psi-true-deg"] = 0.0
    fdm["ic/gamma-deg"] = JSBSIM_GAMMA_DEG
    fdm["ic/vc-kts"] = JSBSIM_KCAS
    fdm.reset_to_initial_conditions(0)
    if "weight_lb" in draw:
        fdm["inertia/pointmass-weight-lbs[0]"] = pilot + float(draw["weight_lb"]) - weight
    fdm["simulation/randomseed"] = int(draw.get("wind_seed", 0)) % 2**31
    fdm["atmosphere/turb-type"] = 3
    fdm["atmosphere/turbulence/milspec/windspeed_at_20ft_AGL-fps"] = speed
    fdm["atmosphere/turbulence/milspec/severity"] = 3
    fdm["fcs/flap-cmd-norm"] = 1.0
    fdm["fcs/mixture-cmd-norm"] = 1.0
    fdm["propulsion/magneto_cmd"] = 3
    fdm.run_ic()
    fdm["atmosphere/wind-north-fps"] = north
    fdm["atmosphere/wind-east-fps"] = east
    fdm["propulsion/set-running"] = -1
    fdm["simulation/do_simple_trim"] = 1
    while fdm.get_sim_time() < JSBSIM_END_S:
        fdm.run()
        if fdm["gear/unit[0]/WOW"] or fdm["gear/unit[1]/WOW"] or fdm["gear/unit[2]/WOW"]:
            return fdm.get_sim_time(), True
    return fdm.get_sim_time(), False


def cut(runs, size):
    """The chunks ``(start, stop)`` of ``size`` runs (the last one shorter)."""
    return [(s, min(s + size, runs)) for s in range(0, runs, size)]


def run_draws(spec, runs):
    """Each run's draws as a dict of plain values."""
    drawn = draws(spec, 0, runs)
    return [{name: column[i] for name, column in drawn.items()} for i in range(runs)]


def fly(executor, spec, chunks):
    """Fly ``chunks`` with ``executor``; return (seconds, the rows sorted by run)."""
    results = []
    began = time.perf_counter()
    executor.run(spec, chunks, lambda chunk, result: results.append(result))
    seconds = time.perf_counter() - began
    results.sort(key=lambda r: r.start)
    return seconds, {name: np.concatenate([r.rows[name] for r in results]) for name in results[0].rows}


def same_rows(a, b):
    """Bit for bit: the same columns, every float's bits (NaN included) and every string."""
    if list(a) != list(b):
        return False
    return all(a[k].tolist() == b[k].tolist() if a[k].dtype == object else a[k].tobytes() == b[k].tobytes()
               for k in a)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default=str(SPEC), help="the campaign (default: configs/campaigns/approach.toml)")
    parser.add_argument("--runs", type=int, default=1024, help="flightsim runs per path and round (default 1024)")
    parser.add_argument("--chunk", type=int, default=None,
                        help="runs per chunk on every path (default: each path's as `flightsim campaign` cuts them)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of local, local on 1 thread, then Ray (default 1)")
    parser.add_argument("--jsbsim-runs", type=int, default=None,
                        help="JSBSim runs (default 8 per core)")
    parser.add_argument("--ray", metavar="ADDRESS", default=None, help="a Ray cluster (default: a local Ray)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 16 runs, 1 round, "
                        "4 JSBSim runs")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    if args.quick:
        args.runs, args.rounds = 16, 1
        args.jsbsim_runs = args.jsbsim_runs or 4
    jsbsim_runs = args.jsbsim_runs or 8 * cores
    spec = read_spec(args.spec).with_runs(args.runs)
    print(f"# {Path(args.spec).name}: {args.runs} runs, {args.rounds} round(s); {cores} cores; load average "
          f"{os.getloadavg()[0]:.2f} at start", flush=True)

    local, one = LocalExecutor(), LocalExecutor(1)
    run_chunk(spec, 0, 1)                                    # numba compiled or loaded here
    ray_executor = RayExecutor(args.ray)
    try:
        cpus = ray_executor.cpus
        ray_executor.run(spec, [(i, i + 1) for i in range(cpus)], lambda *_: None)  # every worker warmed
        chunks = {"local": cut(args.runs, args.chunk or chunk_size(args.runs)),
                  "ray": cut(args.runs, args.chunk or chunk_size(args.runs, ray_executor.chunks_at_once))}
        chunks["local1"] = chunks["local"]
        for name in ("local", "ray"):
            print(f"#   {name}: {len(chunks[name])} chunks of {chunks[name][0][1]} runs", flush=True)
        times = {"local": [], "local1": [], "ray": []}
        rows = {}
        for _ in range(args.rounds):
            for name, executor in (("local", local), ("local1", one), ("ray", ray_executor)):
                seconds, rows[name] = fly(executor, spec, chunks[name])
                times[name].append(seconds)
                print(f"#   {name}: {seconds:.2f} s", flush=True)
        description = ray_executor.description
    finally:
        ray_executor.close()
    same = same_rows(rows["local"], rows["ray"]) and same_rows(rows["local"], rows["local1"])

    drawn = run_draws(spec, jsbsim_runs)
    # fresh processes (spawned, not forked from this one with its numba and Ray threads)
    with ProcessPoolExecutor(max_workers=cores, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(jsbsim_run, drawn[:cores]))            # each process's JSBSim loaded and flown once
        began = time.perf_counter()
        flown = list(pool.map(jsbsim_run, drawn))
        jsbsim_s = time.perf_counter() - began
    down = sum(1 for _, wheels in flown if wheels)
    mean_flight = statistics.fmean(t for t, _ in flown)

    local_s, one_s, ray_s = (statistics.median(times[name]) for name in ("local", "local1", "ray"))
    rate = {"local": args.runs / local_s, "local1": args.runs / one_s, "ray": args.runs / ray_s,
            "jsbsim": jsbsim_runs / jsbsim_s}
    touchdowns = int(np.sum(rows["local"]["stop_reason"] == "touchdown"))
    print()
    print("| path | runs | wall s | runs/s | ÷ JSBSim |")
    print("|---|---:|---:|---:|---:|")
    size = {name: chunks[name][0][1] for name in chunks}
    labels = {"local": f"flightsim local (LocalExecutor, {local.workers} numba threads, chunks of {size['local']})",
              "local1": f"flightsim local (LocalExecutor, 1 numba thread, chunks of {size['local1']})",
              "ray": f"flightsim Ray ({description}, chunks of {size['ray']})"}
    for name, seconds in (("local", local_s), ("local1", one_s), ("ray", ray_s)):
        print(f"| {labels[name]} | {args.runs} | {seconds:.2f} | {rate[name]:.1f} | "
              f"{rate[name] / rate['jsbsim']:.1f}× |")
    print(f"| JSBSim c172r, pool of {cores} processes (held trim) | {jsbsim_runs} | {jsbsim_s:.2f} | "
          f"{rate['jsbsim']:.2f} | 1× |")
    print()
    print(f"flightsim: {touchdowns} of {args.runs} runs touched down; JSBSim: {down} of {jsbsim_runs}, "
          f"{mean_flight:.1f} s of flight on average")
    print(f"Ray rows = local rows, bit for bit: {'yes' if same else 'NO'}")
    print(f"Ray / local = {rate['ray'] / rate['local']:.2f} (aim ≥ 0.80: "
          f"{'met' if rate['ray'] >= 0.8 * rate['local'] else 'not met'})")
    best = max(rate["local"], rate["ray"])
    print(f"flightsim local / JSBSim = {rate['local'] / rate['jsbsim']:.1f}×, flightsim Ray / JSBSim = "
          f"{rate['ray'] / rate['jsbsim']:.1f}× (aim ≥ 200×: {'met' if best >= 200 * rate['jsbsim'] else 'not met'})")
    print(f"Ray ({cpus} tasks of 1 thread) / local on 1 thread = {rate['ray'] / rate['local1']:.2f}")
    print(f"# load average {os.getloadavg()[0]:.2f} at end")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

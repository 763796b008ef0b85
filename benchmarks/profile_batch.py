"""Where the batch's step spends its time: per stage and per function, and the floor for this model on this CPU.

What is measured
----------------
The book's airplane (``rk4``, dt = 1/60 s, calm air, level flight: the case ``bench_peers.py`` times against
Nimbus), N airplanes (default 4096) on all of numba's threads.  Every row is a compiled ``prange`` kernel over
the airplanes — written here as ``flightsim.simulation.batch.batch_steps`` is, each airplane's
:class:`~flightsim.physics.aero.LoadParams` built from the shared fields and its own rows — with parts of the
step switched off, or the same kernel given parameters with parts left out (no lifting elements, no contact
points), so that what a part costs is the difference between two rows measured in the same run:

- ``BatchSimulation.step``: the public call (its Python around the kernel included; the ``reset()`` before it
  not timed, as no row's resetting of its states is), which steps the airplanes side by side in SIMD lanes
  (:mod:`flightsim.physics.lanes`); ``one airplane at a time``: the same with its lanes off
  (``BatchSimulation.lanes = False``), the kernel every other row is a variant of;
- ``full step``: the kernel of ``batch_steps`` (checked to leave every state bit for bit as ``step`` does);
- ``step_rk4 called directly``: the integrator alone (no dispatch, no ground check);
- ``4 × derivative``, ``4 × loads``: what the integrator's four stages evaluate, with no state update;
- ``full step`` and ``4 × derivative`` with ``no elements`` / ``no gear`` / ``neither``: the same kernels given
  the elements' or the contact points' arrays empty (their loops run zero times);
- ``rk4 arithmetic, loads constant``: the integrator's stages around a derivative whose loads are constants;
- ``ground check``: ``ground_after_step`` in the air;
- ``params built, one field read``: the loop and building each airplane's ``LoadParams``;
- ``wind``: ``BatchSimulation.step`` with a 20 kt wind and moderate turbulence (sampled every step) against calm.

Each row: ns per airplane-step (wall, all threads) and CPU ns per airplane-step (summed over the threads);
round-robin, median of the rounds, warm-up excluded.

The floor
---------
The arithmetic of one airplane-step, counted from the source for the book's airplane in the air (8 lifting
elements, 7 contact points clear of the ground: :data:`COUNTS`), divided by this CPU's throughput for each kind
of operation as measured here: compiled loops over float64 arrays in L1 that numba vectorises (adds and
multiplies, divisions, square roots; ``asin`` is arithmetic, :func:`flightsim.math.kernels.arcsin`), the fastest
of five runs on one core, divided by the cores.  That is the time a step would take if all of its
arithmetic ran at the rate the cores give a simple vectorised loop, with no loads of memory, branches or calls:
a bound no implementation reaches, and the measure of how far the present one is from it.  The same count at
four scalar adds or multiplies a cycle, a division or a square root every five, gives the floor of
unvectorised code.

How to run
----------
::

    python benchmarks/profile_batch.py              # N = 4096, 3 rounds
    python benchmarks/profile_batch.py --n 16384 --rounds 5
    python benchmarks/profile_batch.py --quick      # smoke run
"""

import argparse
import math  # noqa: F401 (the kernels generated below use it)
import os
import statistics
import sys
import time

import numba
import numpy as np
from numba import prange  # noqa: F401 (the kernels generated below)

from flightsim.math.compiler import borrowing_jit, compile_source, entry_jit
from flightsim.math.kernels import turn
from flightsim.physics import aero, integrators
from flightsim.physics import planet as planets
from flightsim.physics.aero import LoadParams, airplane_loads  # noqa: F401 (the kernels)
from flightsim.physics.aircraft import atmosphere_of
from flightsim.physics.ground import GearLimits, ground_after_step  # noqa: F401 (the kernels)
from flightsim.physics.steps import (  # noqa: F401 (the kernels)
    derivative,
    omega_dot,
    step_by_number_inline,
    step_rk4,
    store_q,
)
from flightsim.physics.terrain import resolve_terrain
from flightsim.physics.wind import WindSpec
from flightsim.simulation.batch import PER_AIRPLANE, BatchSimulation, parallel_jit
from flightsim.simulation.flight import ground_for, resolve_aircraft
from flightsim.simulation.starts import make_start

DT = 1.0 / 60.0
N = 4096
#: Airplane-steps per timed call.
WORK = 400_000

#: Operations per airplane-step of the book's airplane in level flight with rk4, counted from the source
#: (flightsim.physics.aero.own_flat_loads, gear.contact_loads in the air, steps.derivative, steps.step_rk4,
#: steps.store_q).  Per loads evaluation: ~60 before the elements' loop (|q|², the air's velocity turned into
#: the body frame, the rotation relative to the air, the body's up axis), per element ~90 (the local velocity
#: ω × r + v: 12, its square 5, the drag direction 3, the lift direction two cross products 18 and its length 5,
#: sin α 5, the table's fraction 3 and two interpolations 6, the dynamic pressure 3, the force 12 and its sum 3,
#: the moment 12 and its sum, the flap's blend) and ~45 for asin (flightsim.math.kernels.arcsin: both branches'
#: polynomials, 36, and their combination) with 3 square roots (the speed, the lift direction's length, asin's)
#: and 4 divisions (the speed's and the lift direction's reciprocals, asin's ratio, the table's fraction), and
#: ~12 compares; ~45 after (thrust, the force turned to the earth frame, the accelerations); per derivative 70
#: more (q ⊗ ω: 31, Euler's equations: 39); per RK4 step the stages' updates 3 × 26, the combination 13 × 8,
#: the quaternion's norm ~20.
COUNTS = {
    "add/mul": 4 * (60 + 8 * (90 + 45) + 45 + 70) + 3 * 26 + 13 * 8 + 20,
    "div": 4 * (1 + 8 * 4 + 4) + 4,
    "sqrt": 4 * (8 * 3) + 1,
}


def book_batch_fields(n, aircraft, start):
    """The shared fields and per-airplane rows of the book's airplane's :class:`LoadParams`, as
    :class:`BatchSimulation` packs them on a flat planet: ``(fields, names of own fields, own rows)``."""
    atmosphere = atmosphere_of(aircraft, None)
    params = aero.pack(aircraft, atmosphere)._replace(terrain=resolve_terrain(ground_for(None, start)))
    planet = planets.resolve("flat", getattr(aircraft, "planet", None), False)
    params = params._replace(planet=planets.pack(planet, math.radians(planets.DEFAULT_LAT),
                                                 math.radians(planets.DEFAULT_LON), params.gravity))
    own_names = [name for name in PER_AIRPLANE if getattr(params, name) is not None]
    own = tuple(np.repeat(np.asarray(getattr(params, name))[None], n, axis=0) for name in own_names)
    return tuple(params), own_names, own


def params_expression(fields, own_names):
    """Source of ``LoadParams(...)``: each shared field ``fields[i]``, each own one ``own[j][a]``, None for the
    per-airplane fields the book's airplane has none of."""
    args = []
    for i, name in enumerate(LoadParams._fields):
        if name in own_names:
            args.append(f"own[{own_names.index(name)}][a]")
        elif name in PER_AIRPLANE:
            args.append("None")
        else:
            args.append(f"fields[{i}]")
    return f"LoadParams({', '.join(args)})"


_TEMPLATE = '''
def {name}(number, Y, P, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id, status, qerr,
           wheels_down, on_ground, travel, wheels_only, sink_rate, sink):
    for a in prange(Y.shape[0]):
        if status[a] != 0:
            continue
        params = {params}
        y = Y[a]
        prev = P[a]
        acc = 0.0
        for k in range(steps):
{body}
        sink[a] = acc
'''

#: The kernels' bodies (inside the steps' loop), by row.
BODIES = {
    "full step": '''
            prev[:] = y
            aero.step_start(T[a], y, h, params)
            err = step_by_number_inline(number, y, T[a], h, params, inertia, inertia_inv, renorm, increment_id)
            if not math.isfinite(err):
                y[:] = prev
                status[a] = 1
                break
            T[a] += h
            qerr[a] = err
            code = ground_after_step(y, prev, T[a], params, wheels_down, on_ground, a, travel, wheels_only,
                                     sink_rate)
            if code != 0:
                status[a] = 2
                break''',
    "step_rk4 called directly": '''
            err = step_rk4(y, T[a], h, params, inertia, inertia_inv, renorm, increment_id)
            T[a] += h
            acc += err''',
    "4 × derivative": '''
            for j in range(4):
                d = derivative(T[a], y, params, inertia, inertia_inv)
                acc += d[3] + d[4] + d[5] + d[6] + d[10] + d[11] + d[12]''',
    "4 × loads": '''
            for j in range(4):
                ax, ay, az, mx, my, mz = airplane_loads(T[a], y, params)
                acc += ax + ay + az + mx + my + mz''',
    "rk4 arithmetic, loads constant": '''
            acc += rk4_constant_loads(y, h, inertia, inertia_inv)''',
    "ground check (in the air)": '''
            prev[:] = y
            acc += ground_after_step(y, prev, T[a], params, wheels_down, on_ground, a, travel, wheels_only,
                                     sink_rate)''',
    "params built, one field read": '''
            acc += params.mass + params.diag[0]''',
}


@borrowing_jit
def constant_derivative(y, inertia, inertia_inv):
    """:func:`flightsim.physics.steps.derivative` with constant loads: the integrator's own arithmetic."""
    ax, ay, az, mx, my, mz = 0.1, -0.2, -0.3, 1.0, -2.0, 0.5
    qw, qx, qy, qz = turn(y[6], y[7], y[8], y[9], 0.0, 0.5, y[10], y[11], y[12])
    dx, dy, dz = omega_dot(y[10], y[11], y[12], mx, my, mz, inertia, inertia_inv)
    return y[3], y[4], y[5], ax, ay, az, qw, qx, qy, qz, dx, dy, dz


@borrowing_jit
def rk4_constant_loads(y, h, inertia, inertia_inv):
    """:func:`flightsim.physics.steps.step_rk4` around :func:`constant_derivative`; the state left as it was."""
    y0 = (y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7], y[8], y[9], y[10], y[11], y[12])
    k1 = constant_derivative(y, inertia, inertia_inv)
    for i in range(13):
        y[i] = y0[i] + 0.5 * h * k1[i]
    k2 = constant_derivative(y, inertia, inertia_inv)
    for i in range(13):
        y[i] = y0[i] + 0.5 * h * k2[i]
    k3 = constant_derivative(y, inertia, inertia_inv)
    for i in range(13):
        y[i] = y0[i] + h * k3[i]
    k4 = constant_derivative(y, inertia, inertia_inv)
    total = 0.0
    for i in range(13):
        total += y0[i] + (h / 6.0) * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
        y[i] = y0[i]
    return total


# --------------------------------------------------------------------------- the CPU's throughput


# Each kernel runs on the calling thread over ``a`` (a few kB: in L1), the lanes the inner loop (which LLVM
# vectorises), ``reps`` times; each lane's value goes through 8 operations of the kind measured per pass.


@entry_jit
def _ops_addmul(a, b, reps):
    for _ in range(reps):
        for i in range(a.shape[0]):
            x = a[i]
            u = b[i]
            u = u * 0.999 + x
            u = u * 0.998 + x
            u = u * 0.997 + x
            u = u * 0.996 + x
            u = u * 0.995 + x
            u = u * 0.994 + x
            u = u * 0.993 + x
            u = u * 0.992 + x
            b[i] = u                              # 16 flops
    return 0


@entry_jit
def _ops_div(a, b, reps):
    for _ in range(reps):
        for i in range(a.shape[0]):
            x = a[i]
            u = b[i]
            for _ in range(8):
                u = x / (u + 1.0)                 # a division and an add
            b[i] = u
    return 0


@entry_jit
def _ops_sqrt(a, b, reps):
    for _ in range(reps):
        for i in range(a.shape[0]):
            x = a[i]
            u = b[i]
            for _ in range(8):
                u = math.sqrt(u + x)              # a square root and an add
            b[i] = u
    return 0


@entry_jit
def _ops_latency(a, b, reps):
    # one dependent chain of adds: the add's latency (3 cycles on AMD Zen 4, 4 on Intel's recent cores)
    u = a[0]
    for _ in range(reps):
        u = u + 1e-9
    b[0] = u
    return 0


def throughput(kernel, per_pass, reps, rounds, lanes=512):
    """Seconds per operation on one core (the fastest of ``rounds``) of ``kernel``: ``per_pass`` operations per
    lane per pass, ``lanes`` lanes, ``reps`` passes."""
    a = np.random.default_rng(0).uniform(0.1, 0.4, lanes)
    b = np.full(lanes, 0.2)
    kernel(a, b, 2)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        kernel(a, b, reps)
        times.append(time.perf_counter() - t0)
    return min(times) / (lanes * reps * per_pass)


# --------------------------------------------------------------------------- the rows


class Row:
    """One row: ``prepare()`` (not timed), then ``kernel()`` timed."""

    def __init__(self, label, kernel, prepare, work):
        self.label, self.kernel, self.prepare, self.work = label, kernel, prepare, work
        self.cpu = []

    def run(self):
        self.prepare()
        c0, t0 = time.process_time(), time.perf_counter()
        self.kernel()
        wall = time.perf_counter() - t0
        self.cpu.append((time.process_time() - c0) / self.work)
        return wall / self.work


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=N, help=f"airplanes (default {N})")
    parser.add_argument("--rounds", type=int, default=None, help="timed rounds (default 3)")
    parser.add_argument("--quick", action="store_true", help="smoke run: N = 256, 2 rounds, short calls")
    args = parser.parse_args(argv)
    n = 256 if args.quick else args.n
    rounds = args.rounds or (2 if args.quick else 3)
    work = WORK // 20 if args.quick else WORK
    if n < 64 or rounds < 1:
        parser.error("--n must be ≥ 64 (the batch's parallel kernel), --rounds ≥ 1")
    steps = max(work // n, 10)
    threads = numba.get_num_threads()
    print(f"# Where the batch's step spends its time: the book's airplane, rk4, dt 1/60 s, N = {n}, {steps} steps "
          f"per call")
    print(f"# {rounds} rounds, round-robin, median; {os.cpu_count()} CPUs, numba {numba.__version__} on {threads} "
          f"threads, load average {os.getloadavg()[0]:.2f} at start")

    aircraft = resolve_aircraft(None)
    start = make_start(aircraft, "air", planet="flat")
    batch = BatchSimulation(n, aircraft, integrator="rk4", dt=DT, start=start, planet="flat")
    one = BatchSimulation(n, aircraft, integrator="rk4", dt=DT, start=start, planet="flat")
    one.lanes = False
    windy = BatchSimulation(n, aircraft, integrator="rk4", dt=DT, start=start, planet="flat",
                            wind=WindSpec(from_deg=270.0, speed=20.0 * 1.6878, turbulence="moderate"))
    rk4 = integrators.get("rk4")
    gear = GearLimits(aircraft)
    fields, own_names, own = book_batch_fields(n, aircraft, start)
    own[own_names.index("controls")][:] = batch.controls
    y0 = batch.states.copy()
    expression = params_expression(fields, own_names)
    kernels = {label: compile_source(f"profile_{i}", _TEMPLATE.format(name=f"profile_{i}", params=expression,
                                                                       body=body), parallel_jit)
               for i, (label, body) in enumerate(BODIES.items()) if label == "full step" or not args.quick}

    def lacking(*names):
        """The shared fields and own rows with the arrays ``names`` empty (their loops run zero times)."""
        out, rows = list(fields), list(own)
        for name in names:
            i = LoadParams._fields.index(name)
            if name in own_names:
                j = own_names.index(name)
                rows[j] = np.zeros((n, 0) + rows[j].shape[2:], dtype=rows[j].dtype)
            else:
                out[i] = np.zeros((0,) + out[i].shape[1:], dtype=out[i].dtype)
        return tuple(out), tuple(rows)

    state = {}

    def call(label, kernel, use=(fields, own)):
        Y, P = y0.copy(), y0.copy()
        T = np.zeros(n)
        status = np.zeros(n, dtype=np.int64)
        qerr, sink = np.zeros(n), np.zeros(n)
        wheels_down, on_ground = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
        arguments = (rk4.number, Y, P, T, DT, steps, *use, batch.aircraft.inertia,
                     batch.aircraft.inertia_inv, True, rk4.increment_id, status, qerr, wheels_down, on_ground,
                     gear.travel, gear.wheels_only, gear.sink_rate, sink)
        arguments = tuple(np.ascontiguousarray(x, dtype=np.float64) if i in (8, 9) else x
                          for i, x in enumerate(arguments))

        def prepare():
            Y[:] = y0
            T[:] = 0.0
            status[:] = 0

        def go():
            kernel(*arguments)
            state[label] = (Y, status)
        return go, prepare

    def public(b):
        def go():
            b.step(steps)
        return go, b.reset

    variants = [("BatchSimulation.step", public(batch)),
                ("BatchSimulation.step, one airplane at a time (lanes off)", public(one))]
    variants += [(label, call(label, k)) for label, k in kernels.items()]
    elements = ("positions", "elements", "element_refs", "normals")
    for kernel in ("full step", "4 × derivative")[:1 if args.quick else 2]:
        variants += [(f"{kernel}, no elements", call(f"{kernel} no elements", kernels[kernel], lacking(*elements))),
                     (f"{kernel}, no gear", call(f"{kernel} no gear", kernels[kernel], lacking("gear_positions"))),
                     (f"{kernel}, neither", call(f"{kernel} neither", kernels[kernel],
                                                 lacking(*elements, "gear_positions")))]
    variants.append(("BatchSimulation.step, wind 20 kt, moderate turbulence", public(windy)))
    rows = [Row(label, go, prepare, n * steps) for label, (go, prepare) in variants]
    t0 = time.perf_counter()
    for r in rows:
        r.run()                                   # warm-up: numba's compile or cache load
    print(f"# warm-up (compile or cache load) took {time.perf_counter() - t0:.1f} s")
    # the kernel copies batch_steps: the same states, bit for bit
    rows[0].run()
    rows[1].run()
    rows[2].run()
    same = np.array_equal(batch.states, state["full step"][0])
    print(f"# full step's kernel leaves the states as BatchSimulation.step does, bit for bit: {same}; "
          f"in SIMD lanes (BatchSimulation.step, {'on' if batch.lanes else 'off'}) as one airplane at a time: "
          f"{np.array_equal(batch.states, one.states)}")

    samples = {r.label: [] for r in rows}
    for _ in range(rounds):
        for r in rows:
            samples[r.label].append(r.run())
    ns = {label: 1e9 * statistics.median(v) for label, v in samples.items()}
    cpu = {r.label: 1e9 * statistics.median(r.cpu) for r in rows}
    print(f"# load average {os.getloadavg()[0]:.2f} at end")

    full = ns["full step"]
    print("\n| stage | ns per airplane-step (wall) | CPU ns per airplane-step | share of the full step (CPU) |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r.label} | {ns[r.label]:.0f} | {cpu[r.label]:.0f} | {100 * cpu[r.label] / cpu['full step']:.0f} % |")

    # (label, its value from the CPU ns, per what, a share of the step?); with --quick only the full step's kernel
    # is compiled, and the parts that need the others are left out
    # (a part, its value from the rows' CPU ns, per what, whether a share of the step); --quick compiles only the
    # full step's kernel, and the parts that need the others are left out
    step = "BatchSimulation.step"
    one_at_a_time = "BatchSimulation.step, one airplane at a time (lanes off)"
    windy_step = "BatchSimulation.step, wind 20 kt, moderate turbulence"
    bare = "params built, one field read"
    derived = [
        ("BatchSimulation.step one airplane at a time / in SIMD lanes", lambda c: c[one_at_a_time] / c[step], "×",
         False),
        ("the 8 lifting elements (4 evaluations)", lambda c: c["full step"] - c["full step, no elements"], "step",
         True),
        ("one lifting element", lambda c: (c["full step"] - c["full step, no elements"]) / 32, "element", False),
        ("the 7 contact points in the air (4 evaluations)", lambda c: c["full step"] - c["full step, no gear"], "step",
         True),
        ("the rest: integrator, loads' frame, calls, ground check", lambda c: c["full step, neither"], "step", True),
        ("  the integrator's own arithmetic (4 stages, loads constant)",
         lambda c: c["rk4 arithmetic, loads constant"] - c[bare], "step", True),
        ("  the ground check in the air (a state copied, one compare)",
         lambda c: c["ground check (in the air)"] - c[bare], "step", True),
        ("  the loads' frame with no elements and no gear (4 evaluations)",
         lambda c: c["4 × derivative, neither"] - c[bare], "step", True),
        ("one loads evaluation through derivative (as the step calls it)", lambda c: c["4 × derivative"] / 4,
         "evaluation", False),
        ("one loads evaluation called from the kernel's loop itself", lambda c: c["4 × loads"] / 4, "evaluation",
         False),
        ("BatchSimulation.step's Python around the kernel (its reset not timed)",
         lambda c: c[one_at_a_time] - c["full step"], "step", True),
        ("the wind (20 kt, moderate turbulence, sampled every step)", lambda c: c[windy_step] - c[step], "step",
         False),
    ]
    print("\nDerived (CPU ns, summed over the threads; differences of the rows above):\n")
    print("| part | CPU ns | per | share of the full step |")
    print("|---|---:|---:|---:|")
    for label, value_of, per, of_step in derived:
        try:
            value = value_of(cpu)
        except KeyError:
            continue
        share = f"{100 * value / cpu['full step']:.0f} %" if of_step else ""
        shown = f"{value:.2f}" if per == "×" else f"{value:.0f}"
        print(f"| {label} | {shown} | {per} | {share} |")

    # ------------------------------------------------------------------ the floor
    reps = 200 if args.quick else 2000
    cores = os.cpu_count()
    add = throughput(_ops_addmul, 16, reps, 5)
    t_op = {
        "add/mul": add,
        "div": max(throughput(_ops_div, 8, reps, 5) - add, add),       # less the add beside each
        "sqrt": max(throughput(_ops_sqrt, 8, reps, 5) - add, add),
    }
    latency = throughput(_ops_latency, 1, 200_000 * reps // 200, 5, lanes=1)
    clock = 3.0 / latency
    print(f"\nThe floor: this CPU ({_cpu_name()}, {cores} cores; its clock ≈ {clock / 1e9:.2f} GHz from the latency of "
          "a dependent add, taken as 3 cycles).  Each operation's cost is the fastest of 5 runs of a loop that numba "
          "vectorises, on one core, divided by the cores:\n")
    print("| operation | per airplane-step | ns each (one core) | ns per airplane-step (all cores) |")
    print("|---|---:|---:|---:|")
    floor = 0.0
    for op, count in COUNTS.items():
        floor += count * t_op[op] * 1e9 / cores
        print(f"| {op} | {count} | {t_op[op] * 1e9:.3f} | {count * t_op[op] * 1e9 / cores:.0f} |")
    print(f"| **floor, vectorised** | | | **{floor:.0f}** ({1e3 / floor:.1f} M airplane-steps/s) |")
    # unvectorised: 2 adds and 2 multiplies a cycle per core (Zen 4's four FP pipes), a division or a square root
    # every 5 cycles
    scalar_cycles = COUNTS["add/mul"] / 4 + 5 * (COUNTS["div"] + COUNTS["sqrt"])
    scalar = scalar_cycles / clock / cores * 1e9
    lanes = cpu["BatchSimulation.step"]
    print(f"\nfull step now (one airplane at a time): {full:.0f} ns per airplane-step wall "
          f"({1e3 / full:.2f} M airplane-steps/s), {cpu['full step']:.0f} CPU ns = "
          f"{cpu['full step'] * clock / 1e9:.0f} cycles; the vectorised floor {floor * cores:.0f} CPU ns: "
          f"{cpu['full step'] / (floor * cores):.1f}× above it.  BatchSimulation.step (in SIMD lanes where it can): "
          f"{lanes:.0f} CPU ns, {lanes / (floor * cores):.1f}× the vectorised floor.  Unvectorised floor "
          f"(4 adds or multiplies a cycle, a division or root every 5): {scalar_cycles:.0f} "
          f"cycles, {scalar:.0f} ns per airplane-step on all cores ({1e3 / scalar:.1f} M/s)")
    return 0


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())

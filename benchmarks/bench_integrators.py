"""Accuracy, convergence order and cost of every registered integrator on a torque-free body.

What is measured
----------------
The JSBSim rotation test body — I = diag(10, 20, 26), ω0 = (1, 15, 1) rad/s,
q0 = identity, no torque, T = 10 s — propagated with
``flightsim.rigidbody.propagate(q0, ω0, I, dt, steps, name)`` for every entry
of :data:`flightsim.integrators.INTEGRATORS` at dt = 1/60, 1/120, 1/240,
1/480 and 1/960 s, against the lab's reference, the closed-form solution of
``dq/dt = ½ q ⊗ (0, ω)``, ``I dω/dt = −ω × Iω``
(:class:`flightsim.physics.top.FreeTop`, which tests/test_spin.py checks against
scipy's DOP853 at rtol = atol = 1e-13; checked here to reproduce the published
ω(10) ≈ (−8.93298, 10.95152, 7.17716) rad/s before anything else):

- attitude error at T, degrees (:func:`flightsim.quat.angle_between`);
- ω error at T, ``|ω − ω_ref|`` in rad/s;
- "diverged" where the state is not finite or ``|ω|`` exceeds 100 ``|ω0|``;
- the measured order, ``log2(e(1/480) / e(1/960))``, for both errors, beside
  the order the registry claims (of the coupled state, so the smaller of the
  two is compared); where they differ by more than 0.2 the local slopes
  between consecutive dt are listed, continued to dt = 1/7680 s (is the
  difference only pre-asymptotic?);
- µs per step: one long ``propagate`` call (dt = 1/960 s, 96 000 steps,
  100 s of flight) divided by its steps, median of several calls taken
  round-robin over the integrators after a warm-up call (numba compile or
  cache load); the fixed cost of a call is included (under 1 %).

Also each orientation increment's own one-step error,
:func:`flightsim.kernels.increment_error` at a few step angles |φ| = |ω| h.

Everything is printed as Markdown tables; ``--markdown PATH`` also writes them.

How to run
----------
::

    python benchmarks/bench_integrators.py                  # full run
    python benchmarks/bench_integrators.py --quick          # smoke run (short timing)
    python benchmarks/bench_integrators.py --markdown integrators.md
"""

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np

from flightsim.math import kernels, quat
from flightsim.physics import rigidbody
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation import lab

INERTIA = np.diag([10.0, 20.0, 26.0])
W0 = np.array([1.0, 15.0, 1.0])
Q0 = np.array([1.0, 0.0, 0.0, 0.0])
T_END = 10.0
#: JSBSim's published ω(10 s) for this body, rad/s.
W_PUBLISHED = np.array([-8.93298, 10.95152, 7.17716])
RATES = (60, 120, 240, 480, 960)  # steps per second
FINE_RATES = (1920, 3840, 7680)
#: Angles of one step (rad) for the increments' own error.
ANGLES = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0)
#: |ω| beyond this multiple of |ω0| counts as diverged.
DIVERGED = 100.0
#: Measured and claimed orders further apart than this are flagged.
ORDER_TOLERANCE = 0.2
#: An attitude error (deg) at the smallest dt above this marks the pre-asymptotic range.
PRE_ASYMPTOTIC_DEG = 10.0
#: Errors below these (attitude deg, ω rad/s) are too close to the reference's accuracy for a slope.
FLOOR_DEG = 1e-7
FLOOR_W = 1e-8


def reference():
    """``(q, ω)`` at T_END: the lab's closed-form reference, itself checked against the published ω."""
    return lab.free_body_reference(lab.BODIES[0])


def errors(name, rate, q_ref, w_ref):
    """``(attitude error deg, ω error rad/s)`` at T_END, or ``None`` if diverged."""
    try:
        q, w = rigidbody.propagate(Q0, W0, INERTIA, 1.0 / rate, int(round(T_END * rate)), name)
    except FloatingPointError:  # propagate's report of a state that stopped being finite
        return None
    if not (np.all(np.isfinite(q)) and np.all(np.isfinite(w))):
        return None
    with np.errstate(all="ignore"):
        if not np.linalg.norm(w) <= DIVERGED * np.linalg.norm(W0):
            return None
    return math.degrees(float(quat.angle_between(q, q_ref))), float(np.linalg.norm(w - w_ref))


def slope(e_coarse, e_fine, ratio=2.0):
    """``log(e_coarse / e_fine) / log(ratio)``, or NaN when either is missing or zero."""
    if e_coarse is None or e_fine is None or e_coarse <= 0.0 or e_fine <= 0.0:
        return math.nan
    return math.log(e_coarse / e_fine) / math.log(ratio)


def time_steps(names, steps, repeats, rate=960):
    """Median µs per step of a long propagate call per integrator (round-robin), and finiteness."""
    dt = 1.0 / rate
    finite = {}
    for name in names:  # warm-up: compile or load from numba's cache
        rigidbody.propagate(Q0, W0, INERTIA, dt, 10, name)
    samples = {name: [] for name in names}
    for _ in range(repeats):
        for name in names:
            if finite.get(name, True):
                t0 = time.perf_counter()
                try:
                    q, w = rigidbody.propagate(Q0, W0, INERTIA, dt, steps, name)
                except FloatingPointError:
                    finite[name] = False  # not timed: a diverged run may have stopped early
                    continue
                samples[name].append(time.perf_counter() - t0)
                finite[name] = bool(np.all(np.isfinite(q)) and np.all(np.isfinite(w)))
    return {name: (1e6 * statistics.median(v) / steps if v and finite[name] else math.nan)
            for name, v in samples.items()}, finite


def fmt(x, digits=3):
    if x is None:
        return "diverged"
    if isinstance(x, float) and math.isnan(x):
        return "—"
    return f"{x:.{digits}g}"


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: short timing (9 600 steps, 3 calls)")
    parser.add_argument("--markdown", metavar="PATH", help="also write the Markdown tables to PATH")
    parser.add_argument("--steps", type=int, default=None, help="steps of the timed propagate call (default 96000)")
    parser.add_argument("--repeats", type=int, default=None, help="timed calls per integrator (default 7)")
    args = parser.parse_args(argv)
    steps = args.steps or (9600 if args.quick else 96000)
    repeats = args.repeats or (3 if args.quick else 7)
    if steps < 1 or repeats < 1:
        parser.error("--steps and --repeats must be ≥ 1")
    names = list(INTEGRATORS)
    out = []

    def emit(text=""):
        print(text)
        out.append(text)

    q_ref, w_ref = reference()
    ref_ok = np.allclose(w_ref, W_PUBLISHED, atol=2e-5)
    emit("# Integrators on the torque-free JSBSim test body")
    emit()
    emit(
        f"I = diag(10, 20, 26), ω0 = (1, 15, 1) rad/s, q0 = identity, T = {T_END:g} s. "
        f"Reference: the closed-form solution (flightsim.physics.top.FreeTop): ω(T) = "
        f"({w_ref[0]:.5f}, {w_ref[1]:.5f}, {w_ref[2]:.5f}) rad/s, published "
        f"(−8.93298, 10.95152, 7.17716): {'reproduced' if ref_ok else 'NOT REPRODUCED'}."
    )
    if not ref_ok:
        print("The reference does not reproduce the published ω(10); stopping.", file=sys.stderr)
        return 1

    err = {name: {rate: errors(name, rate, q_ref, w_ref) for rate in RATES} for name in names}
    order_q = {n: slope(*(err[n][r] and err[n][r][0] for r in RATES[-2:])) for n in names}
    order_w = {n: slope(*(err[n][r] and err[n][r][1] for r in RATES[-2:])) for n in names}

    emit()
    emit("## Attitude error at T (deg)")
    emit()
    emit(markdown_table(
        ["integrator"] + [f"dt = 1/{r}" for r in RATES],
        [[n] + [fmt(e and e[0]) for e in (err[n][r] for r in RATES)] for n in names],
    ))
    emit()
    emit("## ω error at T, |ω − ω_ref| (rad/s)")
    emit()
    emit(markdown_table(
        ["integrator"] + [f"dt = 1/{r}" for r in RATES],
        [[n] + [fmt(e and e[1]) for e in (err[n][r] for r in RATES)] for n in names],
    ))

    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    us, finite = time_steps(names, steps, repeats)
    timing_note = (
        f"µs/step: one propagate call of {steps} steps at dt = 1/960 s, median of {repeats} calls "
        f"round-robin after a warm-up ({time.perf_counter() - t0:.1f} s, load average "
        f"{load0:.2f} → {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs)."
    )
    emit()
    emit("## Order and cost")
    emit()
    rows = []
    suspicious = []
    for n in names:
        claimed = INTEGRATORS[n].order
        oq, ow = order_q[n], order_w[n]
        state = min((o for o in (oq, ow) if not math.isnan(o)), default=math.nan)
        flags = []
        if not math.isnan(state) and abs(state - claimed) > ORDER_TOLERANCE:
            flags.append(f"measured ≠ claimed (by > {ORDER_TOLERANCE:g})")
            suspicious.append(n)
        last = err[n][RATES[-1]]
        if last is not None and last[0] > PRE_ASYMPTOTIC_DEG:
            flags.append(f"pre-asymptotic: {last[0]:.0f}° at 1/{RATES[-1]}")
        if not finite[n]:
            flags.append("timed run diverged: not timed")
        rows.append([n, claimed, fmt(oq), fmt(ow), fmt(state), fmt(us[n], 3), fmt(us[n] / us["euler"], 3),
                     "; ".join(flags)])
    emit(markdown_table(
        ["integrator", "claimed order", "measured (attitude)", "measured (ω)", "measured (state)", "µs/step",
         "× euler", "note"],
        rows,
    ))
    emit()
    emit(
        "Measured order: log2 of the error ratio between dt = 1/480 and 1/960 s; the state's is the "
        "smaller of the two (the registry's order is that of the coupled state q, ω). " + timing_note
    )

    if suspicious:
        emit()
        emit("## Local slopes where measured and claimed orders differ")
        emit()
        emit(
            "Is the difference only pre-asymptotic? log2 of the error ratio between consecutive dt, "
            f"continued to 1/{FINE_RATES[-1]} s, as attitude / ω; \"floor\" where the finer error is "
            f"below {FLOOR_DEG:g}° or {FLOOR_W:g} rad/s (the reference's own accuracy is ~1e-10)."
        )
        emit()
        all_rates = RATES + FINE_RATES
        rows = []
        for n in suspicious:
            e = dict(err[n])
            e.update({r: errors(n, r, q_ref, w_ref) for r in FINE_RATES})
            cells = []
            for r1, r2 in zip(all_rates, all_rates[1:], strict=False):
                a, b = e[r1], e[r2]
                parts = []
                for k, floor in ((0, FLOOR_DEG), (1, FLOOR_W)):
                    if a is None or b is None:
                        parts.append("—")
                    elif b[k] < floor:
                        parts.append("floor")
                    else:
                        parts.append(fmt(slope(a[k], b[k])))
                cells.append(" / ".join(parts))
            rows.append([n, INTEGRATORS[n].order] + cells)
        emit(markdown_table(
            ["integrator", "claimed"] + [f"1/{r1} → 1/{r2}" for r1, r2 in zip(all_rates, all_rates[1:], strict=False)],
            rows,
        ))

    emit()
    emit("## One-step error of each orientation increment")
    emit()
    emit(
        f"`flightsim.kernels.increment_error(name, angle)` (h = {kernels.BULLET_DEFAULT_DT:.6g} s, "
        "which only `bullet` uses): rotation-angle error of the normalised increment (rad) "
        "and, in brackets, |Δq| − 1 before normalising; θ = |φ| = |ω| h is the angle turned in the step."
    )
    emit()
    rows = []
    for name in kernels.INCREMENTS:
        cells = []
        for a in ANGLES:
            e_angle, e_norm = kernels.increment_error(name, a)
            cells.append(f"{e_angle:.2e} ({e_norm:+.1e})")
        rows.append([name] + cells)
    emit(markdown_table(["increment"] + [f"θ = {a:g} rad" for a in ANGLES], rows))

    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
        print(f"\n(wrote {args.markdown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

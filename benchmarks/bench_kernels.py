"""Batch orientation kernels against numpy-quaternion, scipy, plain numpy and a memory copy.

What is measured
----------------
Wall time of one call that turns ``N`` orientations by ``N`` body-frame
rotation vectors, ``out[i] = q[i] ⊗ Δq(φ[i])`` with ``q`` of shape (N, 4)
(unit, ``[w, x, y, z]``) and ``φ`` of shape (N, 3) (rad), N = 10⁶ by default:

- every kernel of :data:`flightsim.kernels.KERNELS`, called as
  ``KERNELS[name](q, phi, out=out)`` (``out`` preallocated);
- numpy-quaternion: ``q_arr * quaternion.from_rotation_vector(phi)``, the
  conversion of ``q`` to a quaternion array (``as_quat_array``) done once
  outside the timed region, ``from_rotation_vector`` inside it; the same with
  ``np.multiply(q_arr, dq, out=...)`` into a preallocated array as a second row
  (the product then allocates nothing, as the flightsim kernels do not);
- scipy: ``Rotation.from_quat(q_xyzw) * Rotation.from_rotvec(phi)`` (scalar-last
  copy of ``q`` made outside the timed region; ``from_quat`` normalises);
- plain numpy: the exact increment ``(cos θ/2, sin(θ/2)/θ · φ)`` and the
  Hamilton product written component by component with whole-array operations;
- a memory copy of the same bytes as ``q``: ``np.copyto(out, q)``.

Each candidate is run once to warm up (numba compile or cache load), then the
candidates are timed round-robin (one call each per round, so a change in
machine load hits them all alike) with :func:`time.perf_counter`; the median
over the rounds is reported, in ms per call, with the ratios to
numpy-quaternion and to the memory copy.

Targets (from the issue): ``exact`` faster than numpy-quaternion (ratio < 1)
and within 4× of the memory copy; ``taylor2`` faster than ``exact``.

Correctness is checked in the same run: the largest ``|difference|`` of every
result against numpy-quaternion's (sign-aligned, q ≡ −q) is printed, and the
script exits with status 1 if ``exact`` differs by more than 1e-12.

How to run
----------
::

    python benchmarks/bench_kernels.py            # N = 10**6, 15 rounds
    python benchmarks/bench_kernels.py --quick    # N = 10**5, 3 rounds (smoke run)
    python benchmarks/bench_kernels.py --n 2000000 --repeats 25
"""

import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

from flightsim.math.kernels import KERNELS

#: Largest |difference| from numpy-quaternion the exact kernel may show.
EXACT_TOLERANCE = 1e-12
#: Standard deviation of each component of φ, rad (|φ| ≈ 0.16 rad typically: 19 rad/s at 1/120 s).
PHI_SCALE = 0.1


def make_inputs(n, seed=20240601):
    """Random unit quaternions (N, 4) and rotation vectors (N, 3), float64, C-contiguous."""
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    phi = PHI_SCALE * rng.normal(size=(n, 3))
    return np.ascontiguousarray(q), np.ascontiguousarray(phi)


def numpy_exact(q, phi, out):
    """``q ⊗ (cos θ/2, sin(θ/2)/θ · φ)`` component by component with numpy (θ = |φ|)."""
    px, py, pz = phi[:, 0], phi[:, 1], phi[:, 2]
    r2 = px * px + py * py + pz * pz
    theta = np.sqrt(r2)
    half = 0.5 * theta
    ca = np.cos(half)
    small = theta < 1e-8
    sa = np.where(small, 0.5 - r2 / 48.0, np.sin(half) / np.where(small, 1.0, theta))
    x = sa * px
    y = sa * py
    z = sa * pz
    qw, qx, qy, qz = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    out[:, 0] = qw * ca - qx * x - qy * y - qz * z
    out[:, 1] = qw * x + qx * ca + qy * z - qz * y
    out[:, 2] = qw * y + qy * ca + qz * x - qx * z
    out[:, 3] = qw * z + qz * ca + qx * y - qy * x
    return out


def max_diff(a, b):
    """Largest ``|a − b|`` over all components, each row of ``b`` sign-aligned to ``a`` (q ≡ −q)."""
    sign = np.where(np.einsum("ij,ij->i", a, b) < 0.0, -1.0, 1.0)[:, None]
    return float(np.max(np.abs(a - sign * b)))


def build_candidates(q, phi):
    """``[(label, key, call, result_as_wxyz)]``; ``call()`` is what is timed."""
    cands = []
    for name, kernel in KERNELS.items():
        out = np.empty_like(q)
        cands.append(
            (f"flightsim {name}", name, (lambda k=kernel, o=out: k(q, phi, out=o)), (lambda o=out: o))
        )

    try:
        import quaternion
    except ImportError:
        print("numpy-quaternion is not installed: its rows are left out (pip install -e '.[bench]').")
    else:
        q_arr = quaternion.as_quat_array(q)
        box = {}

        def nq_mul():
            box["nq"] = q_arr * quaternion.from_rotation_vector(phi)

        out_q = np.empty(q.shape[0], dtype=quaternion.quaternion)

        def nq_out():
            np.multiply(q_arr, quaternion.from_rotation_vector(phi), out=out_q)

        cands.append(("numpy-quaternion q*dq", "nq", nq_mul, lambda: quaternion.as_float_array(box["nq"])))
        cands.append(("numpy-quaternion (out=)", "nq_out", nq_out, lambda: quaternion.as_float_array(out_q)))

    try:
        from scipy.spatial.transform import Rotation
    except ImportError:
        print("scipy is not installed: its row is left out (pip install -e '.[bench]').")
    else:
        q_xyzw = np.ascontiguousarray(q[:, [1, 2, 3, 0]])
        box_s = {}

        def scipy_call():
            box_s["r"] = Rotation.from_quat(q_xyzw) * Rotation.from_rotvec(phi)

        cands.append(
            ("scipy Rotation", "scipy", scipy_call, lambda: box_s["r"].as_quat()[:, [3, 0, 1, 2]])
        )

    out_np = np.empty_like(q)
    cands.append(("numpy components", "numpy", lambda: numpy_exact(q, phi, out_np), lambda: out_np))
    out_cp = np.empty_like(q)
    cands.append(("memcpy np.copyto(out, q)", "memcpy", lambda: np.copyto(out_cp, q), None))
    return cands


def time_round_robin(cands, repeats):
    """Median seconds per call of each candidate, timed round-robin after one warm-up call each."""
    for _, _, call, _ in cands:
        call()  # warm-up: numba compile or cache load, first-touch of the output pages
    samples = {key: [] for _, key, _, _ in cands}
    for _ in range(repeats):
        for _, key, call, _ in cands:
            t0 = time.perf_counter()
            call()
            samples[key].append(time.perf_counter() - t0)
    return {key: statistics.median(v) for key, v in samples.items()}


def verdict(ok):
    return "met" if ok else "MISSED"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: N = 10**5, 3 rounds")
    parser.add_argument("--n", type=int, default=None, help="batch size N (default 10**6, --quick 10**5)")
    parser.add_argument("--repeats", type=int, default=None, help="timed rounds (default 15, --quick 3)")
    args = parser.parse_args(argv)
    n = args.n or (10**5 if args.quick else 10**6)
    repeats = args.repeats or (3 if args.quick else 15)
    if n < 1 or repeats < 1:
        parser.error("--n and --repeats must be ≥ 1")

    q, phi = make_inputs(n)
    cands = build_candidates(q, phi)
    print(f"# Batch orientation kernels: q ⊗ Δq(φ), N = {n:,}, φ ~ N(0, {PHI_SCALE}²) rad per component")
    print(
        f"# python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    t_start = time.perf_counter()
    med = time_round_robin(cands, repeats)
    print(
        f"# median of {repeats} round-robin rounds after one warm-up call each "
        f"({time.perf_counter() - t_start:.1f} s); load average {os.getloadavg()[0]:.2f} at end"
    )

    ref = None
    for _, key, _, result in cands:
        if key == "nq":
            ref = result()
    diffs = {}
    for _, key, _, result in cands:
        if result is not None and ref is not None and key != "nq":
            diffs[key] = max_diff(ref, result())

    nq = med.get("nq")
    nq_out = med.get("nq_out")
    memcpy = med["memcpy"]
    print()
    header = (f"{'candidate':<28} {'ms/call':>9} {'/ numpy-quaternion':>19} {'/ nq (out=)':>12} {'/ memcpy':>9} "
              f"{'max|Δ| vs nq':>13}")
    print(header)
    print("-" * len(header))
    for label, key, _, _ in cands:
        t = med[key]
        r_nq = f"{t / nq:.3f}" if nq else "n/a"
        r_nqo = f"{t / nq_out:.3f}" if nq_out else "n/a"
        d = f"{diffs[key]:.1e}" if key in diffs else ("(reference)" if key == "nq" else "")
        print(f"{label:<28} {1e3 * t:>9.3f} {r_nq:>19} {r_nqo:>12} {t / memcpy:>9.2f} {d:>13}")

    print()
    print("Ratios (time / time; < 1 means the kernel is faster):")
    for name in KERNELS:
        t = med[name]
        parts = [f"{name} / numpy-quaternion = {t / nq:.3f}" if nq else None,
                 f"{name} / nq (out=) = {t / nq_out:.3f}" if nq_out else None,
                 f"{name} / memcpy = {t / memcpy:.2f}"]
        print("  " + ", ".join(p for p in parts if p))
    print()
    print("Targets:")
    ex = med["exact"]
    if nq:
        print(f"  exact / numpy-quaternion = {ex / nq:.3f}  (target < 1: {verdict(ex < nq)})")
    else:
        print("  exact / numpy-quaternion: n/a (numpy-quaternion missing)")
    if nq_out:
        print(f"  exact / numpy-quaternion (out=) = {ex / nq_out:.3f}  "
              f"(same target, stricter peer: {verdict(ex < nq_out)})")
    print(f"  exact / memcpy = {ex / memcpy:.2f}  (target ≤ 4: {verdict(ex / memcpy <= 4.0)})")
    tay = med["taylor2"]
    print(f"  taylor2 / exact = {tay / ex:.3f}  (target < 1, faster still: {verdict(tay < ex)})")
    if nq:
        print(f"  taylor2 / numpy-quaternion = {tay / nq:.3f}, taylor2 / memcpy = {tay / memcpy:.2f}")

    print()
    if "exact" in diffs:
        ok = diffs["exact"] <= EXACT_TOLERANCE
        print(
            f"Correctness: max |exact − numpy-quaternion| = {diffs['exact']:.2e} "
            f"(sign-aligned; tolerance {EXACT_TOLERANCE:g}): {'OK' if ok else 'FAILED'}"
        )
        if not ok:
            return 1
    else:
        print("Correctness: not checked (numpy-quaternion missing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

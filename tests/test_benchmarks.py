"""Smoke test of the benchmark scripts: each runs with ``--quick`` and prints its tables.

No timing is asserted here — the numbers are the scripts' business; this only
checks that they run to completion and print the headers and ratio lines the
README refers to.
"""

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def run(*args, script=None):
    """Run ``python <script> args`` (or ``python args``) from the benchmarks' parent; return stdout."""
    cmd = [sys.executable] + ([str(BENCH / script)] if script else []) + list(args)
    proc = subprocess.run(cmd, cwd=BENCH.parent, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc.stdout


def test_bench_kernels_quick():
    out = run("--quick", script="bench_kernels.py")
    assert "ms/call" in out and "/ numpy-quaternion" in out and "/ memcpy" in out
    for label in ("flightsim exact", "flightsim taylor2", "numpy-quaternion q*dq", "scipy Rotation",
                  "numpy components", "memcpy np.copyto(out, q)"):
        assert label in out
    assert "exact / numpy-quaternion = " in out
    assert "exact / memcpy = " in out
    assert "taylor2 / exact = " in out
    assert "Correctness: max |exact − numpy-quaternion| = " in out and ": OK" in out


def test_bench_integrators_quick(tmp_path):
    md = tmp_path / "integrators.md"
    out = run("--quick", "--markdown", str(md), script="bench_integrators.py")
    assert "reproduced." in out
    for heading in ("## Attitude error at T (deg)", "## ω error at T", "## Order and cost",
                    "## One-step error of each orientation increment"):
        assert heading in out
    assert "| integrator | claimed order | measured (attitude) | measured (ω) | measured (state) | µs/step |" in out
    assert "| rk4 | 4 |" in out and "| euler | 1 |" in out
    text = md.read_text(encoding="utf-8")
    assert "## Order and cost" in text and "| increment |" in text


def test_bench_step_quick():
    out = run("--quick", script="bench_step.py")
    assert "µs/step" in out and "flightsim euler" in out and "flightsim rk4" in out
    # jsbsim is a test dependency (the `bench` extra), so the peer is always measured here
    assert "JSBSim c172p" in out
    assert "euler / JSBSim = " in out and "(target ≤ 1:" in out
    assert "rk4 / JSBSim = " in out and "(target ≤ 2:" in out


def test_bench_step_without_jsbsim():
    # Hide jsbsim (a None entry in sys.modules makes its import fail) and run the script's main.
    code = (
        "import runpy, sys; sys.modules['jsbsim'] = None; "
        f"sys.argv = [{str(BENCH / 'bench_step.py')!r}, '--quick', '--batches', '1', '--steps', '20']; "
        f"runpy.run_path({str(BENCH / 'bench_step.py')!r}, run_name='__main__')"
    )
    out = run("-c", code)
    assert "jsbsim package is not installed" in out
    assert "flightsim euler" in out and "Ratios: n/a (JSBSim missing)" in out


def test_bench_batch_quick():
    out = run("--quick", script="bench_batch.py")
    assert "airplane-steps/s" in out and "batch euler N=1024" in out and "batch rk4 N=64" in out
    assert "vector env N=64, agent_hz 10" in out and "JSBSim c172p" in out
    assert "vector env N=64 / bare batch euler N=64 = " in out and "(target ≤ 30 %:" in out
    assert "euler N=1024 / JSBSim = " in out and "(target ≥ 18:" in out
    assert "rk4 N=1024 / JSBSim = " in out and "(target ≥ 5:" in out


def test_bench_frame_quick_prints_ratios_to_the_floor(tmp_path):
    # Headless (EGL): the floor's window and the app's in one process, one camera, a second of flight.
    out = tmp_path / "frame.json"
    text = run("--camera", "chase", "--no-ghost", "--seconds", "1", "--starts", "1", "--headless",
               "--json", str(out), script="bench_frame.py")
    assert "floor: pyglet GL 3.3 window" in text and "median ratio" in text
    assert "chase: median / floor = " in text and "(target <= 1.5:" in text
    assert "start to first frame = " in text and "physics + HUD (Python)" in text
    assert "sound on (chase, " in text and "(target <= 1.05:" in text
    import json

    figures = json.loads(out.read_text())
    for key in ("median_ms", "p99_ms", "first_frame_s", "physics_hud_ms", "drawing_median_ms"):
        assert figures[key] > 0, key
    assert figures["floor"]["median_ms"] > 0 and figures["floor"]["first_frame_s"] > 0
    assert abs(figures["ratios"]["median"] - figures["median_ms"] / figures["floor"]["median_ms"]) < 1e-9
    assert figures["quality"] == "auto -> low" and figures["configs"][0]["camera"] == "chase"
    assert figures["sound"]["median_ms"] > 0 and figures["sound"]["ratio"] > 0


def test_fill_rate_quick_prints_each_variant_against_the_clear():
    text = run("--quick", "--headless", script="fill_rate.py")
    assert "# One screen of pixels (1280x720)" in text and "+ ms a screen" in text
    rows = {line[:40].strip(): line[40:].split() for line in text.splitlines()[2:] if line.strip()}
    assert set(rows) >= {"clear and flip only", "constant colour", "texture copy, depth tested",
                         "hidden by depth (rejected)"}
    assert all(float(v[0]) > 0 for v in rows.values())


def test_jsbsim_aero_quick(tmp_path):
    md = tmp_path / "aero.md"
    out = run("--quick", "--markdown", str(md), script="jsbsim_aero.py")
    assert "| aircraft | functions | inputs | flight controls error | auxiliary error | force error |" in out
    for name, functions in (("SGS", 25), ("c172p", 35), ("737", 29)):
        assert f"| {name} | {functions} | " in out                  # read and compared, not failed
    assert "largest relative difference from JSBSim over the aircraft compared: " in out and "(target ≤ 1e-9)" in out
    assert md.read_text(encoding="utf-8").count("\n") == 5


def test_bench_campaign_quick():
    # a local Ray started and stopped by the script; flightsim's rows here and on Ray compared bit for bit
    out = run("--quick", script="bench_campaign.py")
    assert "| path | runs | wall s | runs/s | ÷ JSBSim |" in out
    for label in ("| flightsim local (LocalExecutor, ", "| flightsim Ray (on Ray (", "| JSBSim c172r, pool of "):
        assert label in out
    assert "Ray rows = local rows, bit for bit: yes" in out
    assert "Ray / local = " in out and "(aim ≥ 0.80:" in out
    assert "flightsim local / JSBSim = " in out and "flightsim Ray / JSBSim = " in out and "(aim ≥ 200×:" in out
    assert "| flightsim local (LocalExecutor, 1 numba thread, chunks of 16) |" in out
    assert "/ local on 1 thread = " in out
    assert "JSBSim Flight Dynamics Model" not in out


def test_bench_gpu_smoke_under_the_simulator_and_one_line_without_a_gpu():
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    cmd = [sys.executable, str(BENCH / "bench_gpu.py"), "--smoke"]
    proc = subprocess.run(cmd, cwd=BENCH.parent, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert ("| aircraft | integrator | N | steps a call | end to end (airplane-steps/s) | kernel (airplane-steps/s) |"
            in out)
    assert sum(line.startswith(("| book |", "| c172 |")) for line in out.splitlines()) == 8 + 4
    assert "Nimbus's best published" in out
    # no GPU and no simulator: one line, exit 2
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    proc = subprocess.run(cmd, cwd=BENCH.parent, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("bench_gpu: device='cuda': no NVIDIA GPU here") and proc.stderr.count("\n") == 1


def test_jsbsim_fuel_cost_prints_each_aircraft_burning_and_frozen():
    out = run("c172x", "--steps", "20", script="jsbsim_fuel_cost.py")
    assert "| aircraft | step burning µs | step frozen µs | ratio |" in out
    row = next(line for line in out.splitlines() if line.startswith("| c172x |"))
    burning, frozen, ratio = (float(cell) for cell in row.strip("|").split("|")[1:])
    assert burning > 0.0 and frozen > 0.0 and ratio > 0.0

"""The batch on an NVIDIA GPU (``device="cuda"``): the same compiled physics, checked with no GPU.

numba's CUDA simulator runs the GPU kernel here, with the host–device copies it makes on a GPU: every airplane
flies as on the CPU (``tests/gpu_simulated.py``, in processes of their own with ``NUMBA_ENABLE_CUDASIM=1``).  The
simulator runs the physics as the CPU compiled it, so NVIDIA's NVVM compiles the kernel for an H100 (compute
capability 9.0) too: what a GPU would run, every GPU integrator's step in it.  Without a GPU and without the
simulator, ``device="cuda"`` is refused in one line.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.batch_cuda import GPU_STEPS, GpuUnavailable, gpu_integrators

HERE = Path(__file__).parent


def simulated(*cases):
    """Run cases of ``tests/gpu_simulated.py`` under numba's CUDA simulator; their results."""
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run([sys.executable, str(HERE / "gpu_simulated.py"), *cases], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def assert_same(result):
    """Every array the host reads equal on both devices (the simulator runs the CPU's compiled physics: to the bit)."""
    assert result["messages_equal"]
    assert all(d == 0.0 for d in result["diff"].values()), result["diff"]


def test_every_gpu_integrator_flies_as_the_cpu_batch():
    results = simulated("integrators")["integrators"]
    assert set(results) == {"book/euler", "book/buss2", "book/rk4", "c172/taylor2", "c172/bullet",
                            "c172/gyro-clamped", "c172/rk4"}
    for result in results.values():
        assert_same(result)


def test_wind_ground_crashes_holds_resets_and_loading_on_the_gpu():
    results = simulated("turbulence", "runway", "crash_hold_reset_loading")
    for result in results.values():
        assert_same(result)
    assert results["runway"]["on_ground"] == 6
    # airplane 0 crashed into the ground, airplane 1 landed and rolls
    assert results["crash_hold_reset_loading"]["stopped"] == 1
    assert results["crash_hold_reset_loading"]["on_ground"] == 1


def test_failures_autopilot_and_vector_env_on_the_gpu():
    results = simulated("failures", "autopilot", "vector_env", "refusals")
    assert_same(results["failures"])
    assert_same(results["autopilot"])
    assert results["vector_env"] == {"obs": 0.0, "reward": 0.0}
    refused = results["refusals"]
    assert "integrator 'matrix' runs on the CPU only" in refused["matrix"]
    assert "integrator 'rkmk4' runs on the CPU only" in refused["switch"]
    assert "JSBSim's aircraft fly on the CPU only" in refused["jsbsim"]
    assert "round planet flies on the CPU only" in refused["round"]
    assert all("\n" not in line for line in refused.values())


_PTX = """
import re, sys
import numba.cuda.dispatcher as dispatcher

class H100:
    compute_capability = (9, 0)

# numba-cuda asks the current GPU's compute capability when it compiles a device function, even for
# compile_ptx with an explicit one: stand in for the GPU this machine lacks
dispatcher.get_current_device = lambda: H100()
from flightsim.simulation.batch import BatchSimulation

ptx = BatchSimulation(2, "c172").gpu_ptx(cc=(9, 0))
entry = ptx[ptx.index(".entry"):]
entry = entry[:entry.index(")")]
print(".target sm_90" in ptx, sum(int(b) // 8 for b in re.findall(r"\\.param \\.[a-z](\\d+)", entry)))
print(" ".join(sorted(set(re.findall(r"step_[a-z_0-9]+", ptx)))))
"""


def test_the_kernel_compiles_for_an_h100():
    done = subprocess.run([sys.executable, "-c", _PTX], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    target, parameters = done.stdout.split("\n")[0].split()
    assert target == "True"
    assert 0 < int(parameters) <= 4096          # the kernel's arguments fit CUDA's classic 4 KiB
    names = set(done.stdout.split("\n")[1].split())
    for step in GPU_STEPS:                       # every GPU integrator's step is in the PTX
        assert any(step in name for name in names), (step, names)


def test_no_gpu_is_one_line():
    with pytest.raises(GpuUnavailable) as err:
        BatchSimulation(2, device="cuda")
    assert "no NVIDIA GPU here" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match="device: one of cpu, cuda, got 'tpu'"):
        BatchSimulation(2, device="tpu")


def test_gpu_integrators_are_named_by_the_registry():
    assert gpu_integrators() == ["euler", "exact", "taylor2", "taylor2-half", "taylor2-quarter", "bullet", "buss2",
                                 "rk4", "gyro-clamped"]

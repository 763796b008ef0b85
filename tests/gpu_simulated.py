"""Fly batches on the CPU and on the GPU path under numba's CUDA simulator; print what differs, as JSON.

Run by ``tests/test_batch_cuda.py`` in a process of its own with ``NUMBA_ENABLE_CUDASIM=1`` (numba reads it when
it is imported).  Each case makes the same batch twice, ``device="cpu"`` and ``device="cuda"``, does the same to
both (controls, wind, a crash, held airplanes, resets, loading, failures, the autopilot, the vector environment)
and records the largest difference of everything the host reads afterwards, and the two batches' stop messages.
"""

import json
import sys

import gymnasium
import numpy as np

import flightsim.gym  # noqa: F401 (registers the environments)
from flightsim.physics.wind import Gust, WindSpec
from flightsim.simulation.autopilot import parse_spec
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.batch_cuda import GpuUnavailable
from flightsim.simulation.failures import Failure

N = 6
WIND = WindSpec(from_deg=250.0, speed=25.0, turbulence="moderate", seed=3,
                gusts=(Gust(start=0.3, duration=0.5, velocity=(6.0, -4.0, 3.0)),))


def spread(batch):
    """Each airplane its own stick: aileron and elevator from −0.3 to 0.3, the throttle from 0.4 to 1."""
    controls = np.tile(batch.controls[0], (batch.n, 1))
    controls[:, 0] = np.linspace(-0.3, 0.3, batch.n)
    controls[:, 1] = np.linspace(0.3, -0.3, batch.n)
    controls[:, 3] = np.linspace(0.4, 1.0, batch.n)
    batch.set_controls(controls)


def what_the_host_reads(batch):
    return {"states": batch.states, "previous": batch.previous, "times": batch.times, "status": batch.status,
            "qnorm_error": batch.qnorm_error, "on_ground": batch.on_ground, "wind": batch.wind,
            "air_density": batch.air_density, "loads": batch.loads()}


def compare(make, fly):
    """Largest absolute difference, per array the host reads, between the CPU's and the GPU's flight."""
    seen = []
    for device in ("cpu", "cuda"):
        batch = make(device)
        fly(batch)
        seen.append((what_the_host_reads(batch), list(batch.messages)))
    (cpu, cpu_messages), (gpu, gpu_messages) = seen
    diffs = {k: float(np.max(np.abs(np.asarray(cpu[k], dtype=float) - np.asarray(gpu[k], dtype=float))))
             for k in cpu}
    return {"diff": diffs, "messages_equal": cpu_messages == gpu_messages,
            "stopped": int(np.sum(cpu["status"] != 0)), "on_ground": int(np.sum(cpu["on_ground"]))}


def integrators():
    out = {}
    for aircraft, name in ((None, "euler"), (None, "buss2"), (None, "rk4"), ("c172", "taylor2"), ("c172", "bullet"),
                           ("c172", "gyro-clamped"), ("c172", "rk4")):
        def make(device, aircraft=aircraft, name=name):
            return BatchSimulation(N, aircraft, integrator=name, start="air", device=device)

        def fly(batch):
            spread(batch)
            batch.step(25)
        out[f"{aircraft or 'book'}/{name}"] = compare(make, fly)
    return out


def turbulence():
    def make(device):
        return BatchSimulation(N, "c172", integrator="rk4", start="air", wind=WIND, device=device)

    def fly(batch):
        spread(batch)
        batch.step(70)          # more than the deviates drawn ahead per call: two calls
    return compare(make, fly)


def runway():
    def make(device):
        return BatchSimulation(N, "c172", integrator="euler", start="runway", device=device)

    def fly(batch):
        controls = np.tile(batch.controls[0], (N, 1))
        controls[:, 3] = 1.0
        controls[:, 2] = np.linspace(-0.5, 0.5, N)         # the rudder (and the nose wheel)
        batch.set_controls(controls)
        batch.step(120)
    return compare(make, fly)


def crash_hold_reset_loading():
    def make(device):
        return BatchSimulation(N, None, integrator="rk4", start="air", device=device)

    def fly(batch):
        spread(batch)
        states = batch.states.copy()
        states[0, 2], states[0, 5] = 3.0, -60.0             # airplane 0 meets the ground at 60 ft/s
        states[1, 2], states[1, 5] = batch.aircraft.contact_height + 0.2, -3.0     # airplane 1 touches down gently
        batch.set_states([0, 1], states[:2])
        batch.step(15, hold=[4])
        batch.reset([2])
        batch.set_loading([3, 5], mass=[60.0, 75.0], cg_shift=[0.4, -0.3])
        batch.step(15)
    return compare(make, fly)


def failures():
    # partial power writes each airplane's engine row, the pitot the instruments; the autopilot flies the gauges
    scheduled = (Failure("engine_partial", at_s=0.05, fraction=0.4), Failure("pitot", at_s=0.1))

    def make(device):
        return BatchSimulation(N, "c172", integrator="rk4", start="air", failures=scheduled, device=device)

    def fly(batch):
        spread(batch)
        batch.step(30)
    return compare(make, fly)


def autopilot():
    def make(device):
        return BatchSimulation(N, "c172", integrator="rk4", start="air", device=device)

    def fly(batch):
        batch.autopilot.engage(parse_spec("hdg=90,alt=2500"), np.arange(N))
        batch.step(20)
    return compare(make, fly)


def vector_env():
    seen = []
    for device in ("cpu", "cuda"):
        envs = gymnasium.make_vec("flightsim/HeadingHold-v0", num_envs=4, vectorization_mode="vector_entry_point",
                                  device=device)
        obs, _ = envs.reset(seed=5)
        rewards = []
        for k in range(3):
            obs, reward, *_ = envs.step(np.full((4, envs.single_action_space.shape[0]), 0.1 * k, dtype=np.float32))
            rewards.append(reward)
        seen.append((obs, np.array(rewards)))
        envs.close()
    return {"obs": float(np.max(np.abs(seen[0][0] - seen[1][0]))),
            "reward": float(np.max(np.abs(seen[0][1] - seen[1][1])))}


def refusals():
    out = {}
    for key, make in (("matrix", lambda: BatchSimulation(2, None, integrator="matrix", device="cuda")),
                      ("jsbsim", lambda: BatchSimulation(2, "jsbsim:c172p", device="cuda")),
                      ("round", lambda: BatchSimulation(2, None, planet="round", device="cuda")),
                      ("switch", lambda: BatchSimulation(2, None, device="cuda").set_integrator("rkmk4"))):
        try:
            make()
            out[key] = None
        except GpuUnavailable as err:
            out[key] = str(err)
    return out


if __name__ == "__main__":
    cases = {"integrators": integrators, "turbulence": turbulence, "runway": runway,
             "crash_hold_reset_loading": crash_hold_reset_loading, "failures": failures, "autopilot": autopilot,
             "vector_env": vector_env, "refusals": refusals}
    names = sys.argv[1:] or list(cases)
    json.dump({name: cases[name]() for name in names}, sys.stdout)

"""The batch on an NVIDIA GPU: the same compiled physics, one GPU thread per airplane (numba-cuda).

``BatchSimulation(..., device="cuda")`` steps its airplanes with :class:`CudaSteps`.  numba-cuda (NVIDIA's
CUDA target for numba, ``pip install 'flightsim[gpu]'``) compiles for the GPU the very functions the CPU batch
runs: the integrators' steps (:mod:`flightsim.physics.steps`), the loads (:func:`flightsim.physics.aero.airplane_loads`,
gear and propeller included), the ground check (:func:`flightsim.physics.ground.ground_after_step`) and the wind's
sampling (:func:`flightsim.physics.batch_wind.sample_one`).  The kernel (:data:`_KERNEL`) is the CPU kernel's
loop body (:func:`flightsim.simulation.batch.batch_steps`) with the airplane's number taken from the thread's
index instead of a ``prange``: nothing of the physics is written twice.

Why numba-cuda: flightsim's physics is already written in numba's subset of Python (scalars, tuples and arrays
it borrows, no allocation in the steps that run here), and numba-cuda compiles that subset for NVIDIA GPUs
through NVIDIA's own NVVM; it is maintained by NVIDIA (numba's built-in CUDA target moved into it), and numba's
CUDA simulator runs its kernels with no GPU (the tests).  CuPy's raw kernels would need the physics again in
CUDA C, JAX (Nimbus's choice) in its array style: a second copy to keep equal to the first.

What runs here: flightsim's own aircraft (the book's airplane, the 172R, any aircraft file of flightsim's
format) on a flat planet, with the integrators whose steps allocate nothing (:data:`GPU_STEPS`: ``euler`` and
the other increments of Bourg's step — ``exact``, ``taylor2``, ``taylor2-half``, ``taylor2-quarter``, ``bullet``
— ``buss2``, ``rk4``, ``gyro-clamped``), in calm air, wind, shear, gusts and turbulence, with the autopilot and
failures (their laws run on the host between steps, as on the CPU).  JSBSim's aircraft (their flight-control
systems and engines are written with arrays the steps allocate) and the round planet stay on the CPU: asking
for them on the GPU is refused in one line.

Host and device
---------------
The host's arrays (:attr:`BatchSimulation.states` and the rest) stay the truth between calls, so everything
that reads or writes them — resets, the autopilot, failures, gauges, the vector environment — works unchanged.
A call uploads what the host may have changed (states, clocks, status, controls, the wind's rows, the brakes'
anchors; the loading and the engine's and gear's rows when :meth:`CudaSteps.stale` says so), runs all its steps
on the GPU, and downloads what the steps wrote.  :attr:`CudaSteps.kernel_seconds` is the GPU's own time in
the kernels (CUDA events), the rest of a call's time the copies.
"""

import math  # noqa: F401 (the kernel generated below uses it)
from typing import NamedTuple

import numba
import numpy as np

from flightsim.math.compiler import compile_source
from flightsim.physics import aero, steps  # noqa: F401 (the kernel, the dispatch)
from flightsim.physics.aero import LoadParams  # noqa: F401 (the kernel)
from flightsim.physics.batch_wind import sample_one  # noqa: F401 (the kernel)
from flightsim.physics.ground import GROUND_CRASH, ground_after_step  # noqa: F401 (the kernel)
from flightsim.physics.steps import STATE_SIZE, STEPS, UNKNOWN_SELECTOR  # noqa: F401 (the kernel, the dispatch)
from flightsim.simulation.batch import CRASHED, NONFINITE, RUNNING, airplane_steps  # noqa: F401 (the kernel)

#: The steps the GPU runs (by the names of :data:`flightsim.physics.steps.STEPS`): those that allocate nothing.
GPU_STEPS = ("step_semi_implicit", "step_buss2", "step_rk4", "step_gyro_clamped")
#: Threads per block.
BLOCK_THREADS = 128


class GpuUnavailable(ValueError):
    """``device="cuda"`` where it cannot run: numba-cuda missing, no GPU, or a batch the GPU does not fly."""


def cuda_module():
    """numba's CUDA target (:mod:`numba.cuda`), or :class:`GpuUnavailable` saying in one line why not."""
    try:
        from numba import cuda
    except ImportError as err:        # numba-cuda not installed
        raise GpuUnavailable(f"device='cuda' needs numba-cuda: pip install 'flightsim[gpu]' ({err})") from None
    if not cuda.is_available():
        raise GpuUnavailable("device='cuda': no NVIDIA GPU here (numba-cuda found no CUDA driver and device); "
                             "use device='cpu'")
    return cuda


def gpu_integrators():
    """Names of the integrators the GPU runs (:data:`flightsim.physics.integrators.INTEGRATORS` whose step is one
    of :data:`GPU_STEPS`)."""
    from flightsim.physics.integrators import INTEGRATORS

    return [name for name, it in INTEGRATORS.items() if STEPS[it.number].__name__ in GPU_STEPS]


def check_batch(aircraft, planet_packed):
    """Refuse, in one line, a batch the GPU does not fly: a JSBSim aircraft or the round planet
    (:class:`GpuUnavailable`; its integrator: :func:`check_integrator`)."""
    if getattr(aircraft, "jsbsim", None) is not None:
        raise GpuUnavailable("device='cuda': JSBSim's aircraft fly on the CPU only (their flight-control systems "
                             "allocate arrays); flightsim's own aircraft fly on the GPU")
    if planet_packed is not None:
        raise GpuUnavailable("device='cuda': the round planet flies on the CPU only; give planet='flat'")


def check_integrator(integrator):
    """:class:`GpuUnavailable` naming those the GPU runs, for an integrator it does not."""
    names = gpu_integrators()
    if integrator not in names:
        raise GpuUnavailable(f"device='cuda': integrator {integrator!r} runs on the CPU only; on the GPU: "
                             f"{', '.join(names)}")


def _dispatch_source():
    """The GPU's step dispatch: an if-chain over :data:`GPU_STEPS` by their numbers in :data:`STEPS`."""
    lines = ["def gpu_step(number, y, t, h, params, inertia, inertia_inv, renorm, increment_id):"]
    for number, step in enumerate(STEPS):
        if step.__name__ in GPU_STEPS:
            lines.append(f"    if number == {number}:")
            lines.append(f"        return steps.{step.__name__}(y, t, h, params, inertia, inertia_inv, renorm, "
                         f"increment_id)")
    lines.append("    return UNKNOWN_SELECTOR")
    return "\n".join(lines) + "\n"


def _params_source(shared, own):
    """Source of ``LoadParams(...)`` for airplane ``a``: each field from ``fields[i]`` or ``own[j][a]`` (the
    non-None ones only: a kernel's arguments are arrays and numbers), None where it is None."""
    args = []
    for name in LoadParams._fields:
        if name in own:
            args.append(f"own[{own.index(name)}][a]")
        elif name in shared:
            args.append(f"fields[{shared.index(name)}]")
        else:
            args.append("None")
    return f"LoadParams({', '.join(args)})"


_KERNEL = '''
def gpu_batch_steps(number, Y, P, D, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id,
                    status, qerr, wheels_down, on_ground, travel, wheels_only, sink_rate,
                    wind_on, consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn):
    """``steps`` physics steps of the airplane of this thread, as
    :func:`flightsim.simulation.batch.batch_steps`' loop body."""
    a = cuda.grid(1)
    if a >= Y.shape[0] or status[a] != RUNNING:
        return
SIMULATED
    params = PARAMS
STEPS'''

#: The per-airplane rows the host may change between calls (uploaded at every call) and those only the loading,
#: a failure or a reset changes (uploaded when :meth:`CudaSteps.stale` was called).  Every row the steps write is
#: downloaded after a call.
EVERY_CALL = ("controls", "wind", "gear_anchor")
WHEN_STALE = ("engine", "gear", "mass", "positions", "gear_positions", "gear_reach")
WRITTEN = ("diag", "wind", "gear_diag", "gear_anchor")


class CudaSteps:
    """A batch's steps on the GPU: its kernel, compiled for its aircraft's parameters, and the device copies of
    its arrays.

    Parameters
    ----------
    fields : tuple
        The batch's shared :class:`LoadParams` fields (``tuple(params)``).
    own : dict
        Its per-airplane rows by field name (:data:`flightsim.simulation.batch.PER_AIRPLANE`), None where absent.
    inertia, inertia_inv, travel, wheels_only : numpy.ndarray
        The body's inertia tensor and its inverse (slug·ft², body frame), the gear's travel limits and which
        contact points are wheels (:class:`flightsim.physics.ground.GearLimits`): uploaded once.
    """

    def __init__(self, fields, own, inertia, inertia_inv, travel, wheels_only):
        cuda = cuda_module()
        self.cuda = cuda
        self.shared, self.own_names = field_names(fields, own)
        self.own = own
        self.kernel = _kernel(cuda, self.shared, self.own_names)
        values = dict(zip(LoadParams._fields, fields, strict=True))
        self.d_fields = tuple(_to_device(cuda, values[name]) for name in self.shared)
        self.d_own = {name: cuda.to_device(own[name]) for name in self.own_names}
        self.d_const = tuple(cuda.to_device(np.ascontiguousarray(x))
                             for x in (inertia, inertia_inv, travel, wheels_only))
        self.d_arrays = {}
        #: the GPU's time in this batch's kernels so far (s; CUDA events), the copies not counted
        self.kernel_seconds = 0.0
        self._stale = False

    def stale(self):
        """The loading, engine or gear rows changed on the host: upload them at the next call."""
        self._stale = True

    def _device(self, key, host):
        """The device copy of ``host`` kept under ``key`` (made at the first use), with the host's values."""
        d = self.d_arrays.get(key)
        if d is None or d.shape != host.shape:
            d = self.d_arrays[key] = self.cuda.to_device(host)
        else:
            d.copy_to_device(host)
        return d

    def run(self, step):
        """Run a :class:`KernelCall` on the GPU, the host's arrays brought up to date before and after."""
        for name in EVERY_CALL + (WHEN_STALE if self._stale else ()):
            if name in self.d_own:
                self.d_own[name].copy_to_device(self.own[name])
        self._stale = False
        host = step.written()
        dev = {key: self._device(key, value) for key, value in host.items()}
        wind = tuple(self._device(f"wind{i}", x) for i, x in enumerate(step.wind_arrays))
        own = tuple(self.d_own[name] for name in self.own_names)
        blocks = (step.Y.shape[0] + BLOCK_THREADS - 1) // BLOCK_THREADS
        start, end = self.cuda.event(), self.cuda.event()
        start.record()
        self.kernel[blocks, BLOCK_THREADS](*step.arguments(self.d_fields, own, self.d_const, wind, dev))
        end.record()
        end.synchronize()
        self.kernel_seconds += start.elapsed_time(end) / 1000.0
        for key, value in host.items():
            dev[key].copy_to_host(value)
        for name in WRITTEN:
            if name in self.d_own:
                self.d_own[name].copy_to_host(self.own[name])
        if step.wind_on:
            for i in (4, 6):          # the filters' state and how many deviates each airplane has used
                wind[i].copy_to_host(step.wind_arrays[i])


class KernelCall(NamedTuple):
    """One call of the kernel: the arguments :func:`flightsim.simulation.batch.batch_steps` takes but the
    parameters and the constants, which the GPU keeps (host arrays; ``wind_arrays`` contiguous)."""

    number: int
    Y: np.ndarray
    P: np.ndarray
    D: np.ndarray
    T: np.ndarray
    h: float
    steps: int
    renorm: bool
    increment_id: int
    status: np.ndarray
    qerr: np.ndarray
    wheels_down: np.ndarray
    on_ground: np.ndarray
    sink_rate: float
    wind_on: bool
    wind_arrays: tuple

    def written(self):
        """The host arrays the kernel reads and writes, by name."""
        return {"Y": self.Y, "P": self.P, "D": self.D, "T": self.T, "status": self.status, "qerr": self.qerr,
                "wheels_down": self.wheels_down, "on_ground": self.on_ground}

    def arguments(self, fields, own, constants, wind, arrays):
        """The kernel's arguments in its order: these, with the parameters' ``fields`` and ``own`` rows, the
        ``constants`` (inertia, its inverse, the gear's travel, which points are wheels), the ``wind`` arrays,
        and ``arrays`` for those of :meth:`written` (the device's copies, or the host's own)."""
        inertia, inertia_inv, travel, wheels_only = constants
        return (self.number, arrays["Y"], arrays["P"], arrays["D"], arrays["T"], self.h, self.steps, fields, own,
                inertia, inertia_inv, self.renorm, self.increment_id, arrays["status"], arrays["qerr"],
                arrays["wheels_down"], arrays["on_ground"], travel, wheels_only, self.sink_rate, self.wind_on, *wind)


def field_names(fields, own):
    """The parameters' non-None shared fields and per-airplane rows, by name (what a kernel is given)."""
    shared = tuple(name for name, value in zip(LoadParams._fields, fields, strict=True)
                   if name not in own and value is not None)
    return shared, tuple(name for name in LoadParams._fields if own.get(name) is not None)


def kernel_ptx(fields, own, constants, step, cc=(9, 0)):
    """The PTX NVVM makes of a batch's kernel for an NVIDIA GPU of compute capability ``cc`` (9.0: H100, H200),
    given its parameters' ``fields``, ``own`` rows, ``constants`` and a :class:`KernelCall`'s host arrays (for
    the arguments' types).  What the GPU would run, to read (registers, local memory) or to check that the physics
    compiles for a GPU at all.  (numba-cuda asks the current GPU's compute capability while compiling device
    functions: it needs one, or a test's stand-in.)"""
    from numba import cuda

    shared, own_names = field_names(fields, own)
    values = dict(zip(LoadParams._fields, fields, strict=True))
    arguments = step.arguments(tuple(values[name] for name in shared), tuple(own[name] for name in own_names),
                               constants, step.wind_arrays, step.written())
    kernel = _kernel(cuda, shared, own_names)
    ptx, _ = cuda.compile_ptx(kernel.py_func, tuple(numba.typeof(x) for x in arguments), cc=cc)
    return ptx


#: Under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``: the tests, with no GPU) the kernel is Python, and the
#: device arrays it is given are the simulator's wrappers, which compiled code cannot take: its first lines hand
#: the physics the numpy arrays they wrap (:func:`_simulated`).  On a GPU the kernel has no such lines.
_SIMULATED = """\
    Y, P, D, T, status, qerr, wheels_down, on_ground, travel, wheels_only, inertia, inertia_inv = (
        _simulated(x) for x in (Y, P, D, T, status, qerr, wheels_down, on_ground, travel, wheels_only, inertia,
                                inertia_inv))
    consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn = (
        _simulated(x) for x in (consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn))
    fields = tuple(_simulated(x) for x in fields)
    own = tuple(_simulated(x) for x in own)
"""


def _simulated(x):
    """Under the simulator: a device array as the numpy array it wraps; a number as it is."""
    return x if isinstance(x, (bool, int, float, np.generic, np.ndarray)) else np.asarray(x)


#: The kernels compiled in this process, by the shared and own fields their parameters are built from.
_KERNELS = {}


def _kernel(cuda, shared, own_names):
    """The kernel for parameters with these non-None shared and per-airplane fields (aircraft files differ in
    which fields are None), compiled at its first use in the process (numba-cuda: a few seconds)."""
    kernel = _KERNELS.get((shared, own_names))
    if kernel is None:
        module = globals()
        if "gpu_step" not in module:
            module["cuda"] = cuda          # what the generated sources below name
            module["gpu_step"] = compile_source("gpu_step", _dispatch_source(), cuda.jit(device=True))
        source = _KERNEL.replace("PARAMS", _params_source(shared, own_names)).replace(
            "SIMULATED\n", _SIMULATED if numba.config.ENABLE_CUDASIM else "").replace(
            "STEPS", airplane_steps("gpu_step", "    "))
        kernel = _KERNELS[shared, own_names] = compile_source("gpu_batch_steps", source, cuda.jit)
    return kernel


def _to_device(cuda, value):
    """An array field on the GPU; a number as it is."""
    return cuda.to_device(np.ascontiguousarray(value)) if isinstance(value, np.ndarray) else value

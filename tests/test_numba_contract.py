"""What flightsim's compiled physics asks of numba, checked on the numba installed.

The loads and steps lean on what numba does not all promise in its public
API (``flightsim.math.compiler``): the undocumented ``_nrt=False`` option of
:data:`~flightsim.math.compiler.borrowing_jit` (no reference counting of the
arrays a function borrows: half the step's time), inner functions compiled
without numba's wrappers and called from Python through a twin, source
generated at run time and compiled under a module's file name so that numba's
disk cache keys it to that file (:func:`~flightsim.math.compiler.compiled_dispatch`,
the batch kernels), and ``error_model="numpy"`` (divergence as NaN, never an exception).
``pyproject.toml`` pins numba to the releases these tests passed on; when a
new release is tried, a failure here says which of these stopped holding,
rather than a slow step, a cold start every run or an exception in flight.
"""

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from flightsim.math import compiler, kernels
from flightsim.physics import aero, integrators, rigidbody, steps
from flightsim.physics.aircraft import load_aircraft

ROOT = Path(__file__).resolve().parents[1]


def _llvm(dispatcher):
    return "".join(dispatcher.inspect_llvm().values())


def _contract(what):
    return (f"numba {numba.__version__}: {what} — flightsim.math.compiler relies on it; keep numba within the "
            f"range pinned in pyproject.toml or change compiler to what this numba does")


def _fresh(dispatcher):
    """``dispatcher``'s function compiled anew with its own options but no disk cache (numba shows no LLVM of
    code loaded from the cache)."""
    options = {k: v for k, v in dispatcher.targetoptions.items() if k != "nopython" and k not in compiler.NO_WRAPPERS}
    return numba.njit(**{**options, "cache": False})(dispatcher.py_func)


def test_borrowing_functions_are_compiled_without_reference_counting():
    params = aero.pack(load_aircraft("c172"))
    y = np.zeros(steps.STATE_SIZE)
    y[2], y[3], y[6] = 1000.0, 150.0, 1.0
    loads = _fresh(aero.flat_loads)
    loads(0.0, y, params, params.jsb_on, params.own_on)
    step = _fresh(steps.step_semi_implicit)      # Bourg's step: the loads and the increment, all borrowed
    step(y, 0.0, 0.01, params, np.eye(3), np.eye(3), True, 0)
    for f in (loads, step):
        ir = _llvm(f)
        assert f.py_func.__name__ in ir
        assert "NRT_decref" not in ir, _contract(f"_nrt=False no longer leaves reference counting out of "
                                                 f"{f.py_func.__name__}")

    # the control: the same function with the runtime counts references (so the check can fail)
    counted = numba.njit(_nrt=True)(aero.flat_loads.py_func)
    counted(0.0, y, params, params.jsb_on, params.own_on)
    assert "NRT_decref" in _llvm(counted)


def test_a_borrowing_function_cannot_allocate():
    def allocates(n):
        return np.zeros(n)

    with pytest.raises(numba.core.errors.NumbaError):
        compiler.borrowing_jit(allocates)(3)


def test_compiled_arithmetic_gives_inf_and_nan_instead_of_raising():
    assert compiler.ERROR_MODEL == "numpy"
    # |q|² = 0 in the loads' rotation (1/|q|²): inf and NaN, which the step reports as divergence
    r = kernels.matrix_entries(0.0, 0.0, 0.0, 0.0, np.inf)
    assert any(np.isnan(v) for v in r), _contract("error_model='numpy' no longer gives NaN")
    y = np.zeros(steps.STATE_SIZE)
    y[6:10] = 1e-170                      # |q|² underflows to 0
    y[10:13] = 0.1
    for name, it in integrators.INTEGRATORS.items():
        z = y.copy()
        err = it.step(z, 0.0, 0.01, rigidbody.FREE_BODY, np.eye(3), np.eye(3))   # must not raise
        assert not np.isfinite(err) or np.isfinite(z).all(), name


def test_generated_source_is_compiled_at_its_callers_file_and_line():
    """numba's disk cache keys a function by its file and first line: generated source takes its caller's, and
    an inner function's twin its inner function's (so each is cached beside the code it belongs to)."""
    line = sys._getframe().f_lineno + 1
    f = compiler.compile_source("plus_one", "def plus_one(x):\n    return x + 1.0\n", compiler.entry_jit)
    code = f.py_func.__code__
    assert (code.co_filename, code.co_firstlineno, f.py_func.__module__) == (__file__, line, __name__)
    assert f.py_func.__source__ == "def plus_one(x):\n    return x + 1.0\n" and f(1.0) == 2.0
    inner = kernels.dq_exact.py_func.__code__
    twin = kernels.dq_exact.twin.py_func
    assert twin.__name__ == "dq_exact__from_python" and twin.__module__ == kernels.__name__
    assert (twin.__code__.co_filename, twin.__code__.co_firstlineno) == (inner.co_filename, inner.co_firstlineno)
    assert kernels.dq_exact(0.1, 0.2, 0.3, 0.01) == kernels.dq_exact.twin(0.1, 0.2, 0.3, 0.01)


def test_kernels_keeps_the_names_of_the_plumbing_it_held():
    """``flightsim.kernels.jit`` … in users' scripts: the very objects of :mod:`flightsim.math.compiler`."""
    for name in ("jit", "entry_jit", "borrowing_jit", "borrowing_entry_jit", "borrowing_inline_jit", "NO_WRAPPERS",
                 "ERROR_MODEL", "InnerDispatcher", "compiled_dispatch", "compile_source", "in_disk_cache"):
        assert getattr(kernels, name) is getattr(compiler, name), name


def test_generated_kernels_load_from_the_disk_cache():
    """The batch kernel and the integrator dispatch, generated from source at import, are cached on disk."""
    code = (
        "import numba\n"
        "import numpy as np\n"
        "from flightsim.math import kernels\n"
        "from flightsim.physics import rigidbody, steps\n"
        "from flightsim.simulation import batch\n"
        "b = batch.BatchSimulation(2, integrator='rk4'); b.step(2)\n"
        "y = np.zeros(13); y[6] = 1.0; y[10:13] = 0.1\n"
        "steps.step_by_number(0, y, 0.0, 0.01, rigidbody.FREE_BODY, np.eye(3), np.eye(3), True, 0)\n"
        "kernels.increment(0, 0.1, 0.2, 0.3, 0.01)\n"
        "caller = numba.njit(lambda y, p, i: steps.step_by_number(0, y, 0.0, 0.01, p, i, i, True, 0) "
        "+ kernels.increment(0, 0.1, 0.2, 0.3, 0.01)[0])\n"
        "caller(y, rigidbody.FREE_BODY, np.eye(3))\n"    # a new caller compiling loads what it calls from the cache
        "fs = (batch.batch_steps_serial, steps.step_by_number, kernels.increment)\n"
        "print(*(sum(f.stats.cache_hits.values()) for f in fs), *(sum(f.stats.cache_misses.values()) for f in fs))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600,
                           cwd=ROOT) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    hits_and_misses = [int(v) for v in runs[1].stdout.split()]
    assert hits_and_misses[3:] == [0, 0, 0] and all(h > 0 for h in hits_and_misses[:3]), _contract(
        f"generated source compiled under a module's file name is no longer loaded from the disk cache "
        f"(hits, misses of the batch kernel, step_by_number, increment: {hits_and_misses})")


def test_functions_behind_an_entry_have_no_python_wrapper_and_python_calls_reach_a_twin(tmp_path):
    """numba leaves its Python and C wrappers out of a :data:`~flightsim.math.compiler.jit` function (most of a
    first start's compiling was those wrappers); a call from Python goes to a twin that has them.  (In a process
    of its own with an empty cache: numba shows no LLVM of code it loaded from its cache.)"""
    code = ("import re, numba, numpy as np\n"
            "from flightsim.math import compiler\n"
            "from flightsim.physics import aero, steps\n"
            "from flightsim.physics.aircraft import load_aircraft\n"
            "params = aero.pack(load_aircraft('c172'))\n"
            "y = np.zeros(steps.STATE_SIZE)\n"
            "y[2], y[3], y[6] = 1000.0, 150.0, 1.0\n"
            "inner = compiler.borrowing_jit(aero.flat_loads.py_func)\n"
            "same = inner(0.0, y, params, None, True) == aero.loads_fields(0.0, y, tuple(params))\n"  # the twin
            "inner.compile(tuple(numba.typeof(v) for v in (0.0, y, params, None, True)))\n"
            "llvm = lambda f: ''.join(f.inspect_llvm().values())\n"
            "wrapper = re.compile(r'define[^@]*@\"?(cpython|cfunc)[.]')\n"   # numba's names for its wrappers
            "ir, twin = llvm(inner), llvm(inner.twin)\n"
            "print(same, 'flat_loads' in ir, bool(wrapper.search(ir)), bool(wrapper.search(twin)))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    same, compiled, wrapped, twin_wrapped = r.stdout.split()
    assert same == "True" and compiled == "True"                    # the same loads, from the compiled code
    assert wrapped == "False", _contract("no_cpython_wrapper/no_cfunc_wrapper no longer leave numba's wrappers out")
    assert twin_wrapped == "True"                                   # the control: the twin has its wrapper


def test_an_entry_never_loads_the_cached_code_of_the_same_function_compiled_without_wrappers(tmp_path):
    """The same source compiled as an inner function (no wrapper: a call from Python would jump to address 0)
    and, in another process, as an entry: the entry compiles its own and runs, never the inner one's code."""
    (tmp_path / "twice.py").write_text("def double(x):\n    return 2.0 * x\n")
    code = ("import sys, numba\n"
            "from flightsim.math import compiler\n"
            "import twice\n"
            "if sys.argv[1] == 'inner':\n"
            "    f = compiler.jit(twice.double)\n"
            "    print(numba.njit(lambda x: f(x))(3.0), sum(f.stats.cache_misses.values()))\n"
            "else:\n"
            "    f = compiler.entry_jit(twice.double)\n"
            "    print(f(3.0), sum(f.stats.cache_hits.values()))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
           "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", code, compiled_as], env=env, capture_output=True, text=True,
                           timeout=300, cwd=tmp_path) for compiled_as in ("inner", "entry")]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    assert runs[0].stdout.split() == ["6.0", "1"]                 # compiled, and cached without its wrapper
    assert runs[1].stdout.split() == ["6.0", "0"], _contract("a dispatcher with wrappers loaded code cached "
                                                             "without them")

"""How Python runs the steps of :mod:`flightsim.physics.steps`: compiled entries, and the steps' source as Python.

- :func:`step_fields` and :func:`run_steps`: one step, or many in one
  compiled loop, by number (:func:`flightsim.physics.steps.step_by_number`),
  each after what runs once per step
  (:func:`flightsim.physics.aero.step_start`).
- :func:`step_entry`: one step function's own entry, its source generated
  here the first time it is asked for, so that a flight compiles its
  integrator's step and no other.
- :func:`python_step`: a step's source run as Python around a Python
  ``loads``, re-made from the code of every function of
  :mod:`~flightsim.physics.steps` that evaluates the loads
  (:data:`LOADS_CALLERS`, found by walking their code).  Import fails, naming
  the function, if a step never evaluates the loads.
"""

import math
from types import CodeType, FunctionType

from flightsim.math.compiler import borrowing_entry_jit, compile_source, in_disk_cache
from flightsim.physics import steps as step_methods
from flightsim.physics.aero import LoadParams, step_start
from flightsim.physics.steps import STEPS, UNKNOWN_SELECTOR, step_by_number


@borrowing_entry_jit
def step_fields(number, y, t, h, fields, inertia, inertia_inv, renorm, increment_id):
    """:func:`~flightsim.physics.steps.step_by_number` for a call from Python, given ``fields = tuple(params)``,
    after what runs once per step (:func:`flightsim.physics.aero.step_start`: a JSBSim aircraft's flight
    controls and engines).

    At every call from Python numba types the arguments, and for a named tuple
    it spells out the class and every field name: an airplane ``euler`` step
    called from Python took 4.9 µs with the named tuple against 3.1 µs with a
    plain one.  So a caller that steps from Python passes the values, made
    once with ``tuple(params)`` (the arrays stay shared, so ``controls`` and
    ``diag`` written in place still count), and the
    :class:`~flightsim.physics.aero.LoadParams` is rebuilt here at no cost.
    """
    params = LoadParams(*fields)
    step_start(t, y, h, params)
    return step_by_number(number, y, t, h, params, inertia, inertia_inv, renorm, increment_id)


@borrowing_entry_jit
def run_steps(number, y, t0, h, steps, params, inertia, inertia_inv, renorm, increment_id):
    """``steps`` steps in one compiled loop, each after :func:`~flightsim.physics.aero.step_start`; returns the
    largest ``||q| − 1|`` seen (NaN if it blew up; :data:`~flightsim.physics.steps.UNKNOWN_SELECTOR` for a number
    outside the registry)."""
    worst = 0.0
    for k in range(steps):
        step_start(t0 + k * h, y, h, params)
        e = step_by_number(number, y, t0 + k * h, h, params, inertia, inertia_inv, renorm, increment_id)
        if not math.isfinite(e) or e == UNKNOWN_SELECTOR:
            return e
        worst = max(worst, abs(e))
    return worst


@borrowing_entry_jit
def start_fields(y, t, h, fields):
    """What runs once per step before the integrator's (:func:`flightsim.physics.aero.step_start`) alone, for a
    call from Python, given ``fields = tuple(params)``: a step split in two, its integration then by
    :func:`step_entry` with ``start=False``."""
    step_start(t, y, h, LoadParams(*fields))


_ENTRIES = {}


def step_entry(step, start=True):
    """:func:`step_fields` for one step function only: what a flight compiles, not every registered step.

    :func:`step_fields` goes through :func:`~flightsim.physics.steps.step_by_number`,
    whose if-chain names every step in :data:`~flightsim.physics.steps.STEPS`, so
    compiling it compiles them all (most of a first start's ~20 s of numba).  The
    entry for ``step`` calls that one step directly; it is written the first time
    it is asked for and compiled (or loaded from numba's disk cache, under its own
    name ``step_fields__<step>``, beside this file's functions) at its first call.

    Parameters
    ----------
    step : numba dispatcher
        A step function of :data:`~flightsim.physics.steps.STEPS`.
    start : bool
        Whether the entry runs :func:`~flightsim.physics.aero.step_start` first (False: the integration alone,
        under the name ``step_only__<step>``, after a :func:`start_fields` of the caller's).

    Returns
    -------
    numba dispatcher
        ``entry(y, t, h, fields, inertia, inertia_inv, renorm, increment_id) -> |q| − 1`` (``fields = tuple(params)``).
    """
    fname = step.py_func.__name__
    entry = _ENTRIES.get((fname, start))
    if entry is None:
        if step not in STEPS:
            raise ValueError(f"{fname} is not a step function of {step_methods.__name__}")
        name = f"{'step_fields' if start else 'step_only'}__{fname}"
        source = (f"def {name}(y, t, h, fields, inertia, inertia_inv, renorm, increment_id):\n"
                  f"    params = LoadParams(*fields)\n"
                  + ("    step_start(t, y, h, params)\n" if start else "")
                  + f"    return step_methods.{fname}(y, t, h, params, inertia, inertia_inv, renorm, increment_id)\n")
        entry = _ENTRIES[(fname, start)] = compile_source(name, source, borrowing_entry_jit)
    return entry


def entry_compiled(entry):
    """Whether calling ``entry`` (a compiled function) now costs no compiling: compiled in this process, or
    found in numba's disk cache for this source (:func:`flightsim.math.compiler.in_disk_cache`)."""
    return bool(entry.signatures) or in_disk_cache(entry)


#: The names under which :mod:`flightsim.physics.steps` evaluates the loads: ``loads``
#: (:func:`~flightsim.physics.aero.airplane_loads`) and ``loads_inline`` (the same, written into the caller:
#: :func:`~flightsim.physics.aero.loads_inline`).
LOADS_NAMES = frozenset(("loads", "loads_inline"))


def _names_used(code):
    """Global and attribute names a code object (and the code nested in it) refers to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names_used(const)
    return names


def _loads_callers(namespace):
    """Names of a module's compiled functions (``namespace``: its globals) that evaluate ``loads``, directly or
    through one another."""
    uses = {
        name: _names_used(f.py_func.__code__)
        for name, f in namespace.items()
        if isinstance(getattr(f, "py_func", None), FunctionType) and f.py_func.__globals__ is namespace
    }
    callers = set()
    grew = True
    while grew:
        grew = False
        for name, used in uses.items():
            if name not in callers and (used & LOADS_NAMES or used & callers):
                callers.add(name)
                grew = True
    return frozenset(callers)


#: The compiled functions of :mod:`flightsim.physics.steps` that evaluate ``loads`` (found by walking their
#: code): what :func:`python_step` re-makes as Python around another loads.
LOADS_CALLERS = _loads_callers(vars(step_methods))
_ignoring = [s.py_func.__name__ for s in STEPS if s.py_func.__name__ not in LOADS_CALLERS]
if _ignoring:
    raise RuntimeError(f"{', '.join(_ignoring)}: a step must evaluate loads(t, y, params), or it ignores every load")
del _ignoring


def python_step(step, python_loads):
    """The Python source of a compiled ``step``, run as Python with ``python_loads`` as its loads.

    Every function in :data:`LOADS_CALLERS` is re-made from its code object
    with a copy of :mod:`flightsim.physics.steps`' globals in which ``loads`` is
    replaced, so the Python path runs exactly the compiled path's source; the
    helpers that never evaluate the loads stay compiled.
    """
    env = dict(vars(step_methods))
    for name in LOADS_NAMES:
        env[name] = python_loads
    for name in LOADS_CALLERS:
        f = env[name].py_func
        env[name] = FunctionType(f.__code__, env, name, f.__defaults__, f.__closure__)
    return env[step.py_func.__name__]

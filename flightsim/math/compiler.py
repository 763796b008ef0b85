"""How flightsim compiles with numba: its decorators, and source written at run time compiled as a module's own.

Every compiled function of flightsim is made by a decorator of this module
(:data:`jit`, :data:`entry_jit`, their ``borrowing_*`` kinds) or by compiling
generated source here (:func:`compiled_dispatch`, :func:`compile_source`).
They rely on what numba does, not all of it promised in its public API:

- **Inner functions without wrappers.**  numba builds a Python (CPython) and a
  C (cfunc) wrapper for every function it compiles; ``no_cpython_wrapper`` and
  ``no_cfunc_wrapper`` (:data:`NO_WRAPPERS`) leave them out of a function only
  compiled code calls (:class:`InnerDispatcher`).  Python cannot call such a
  function's own code (it would jump to an address of 0): a call from Python
  goes to its *twin*, ``<name>__from_python``, a compiled function with the
  wrappers that calls it, written and compiled here at the first such call.
- **No reference counting** with the undocumented option ``_nrt=False``
  (:data:`borrowing_jit`): numba does not update each array argument's
  reference count atomically on entering and leaving the function.
- **The disk cache is keyed by file and first line.**  numba caches a
  function as ``<file stem>.<qualname>-<first line>`` beside (or for) its
  source file, valid while that file is unchanged.  So generated source is
  compiled as if written at its *caller's* file and line (:func:`_function_at`,
  the one place flightsim runs generated source), and numba caches it like the
  caller's other functions.
- **"No wrappers" is part of the cache key** (:class:`_InnerCache`): the same
  function compiled with its wrappers (an entry) never loads code cached
  without them.
- ``error_model="numpy"`` (:data:`ERROR_MODEL`): arithmetic gives inf and NaN, never an exception.

``pyproject.toml`` pins numba to the releases ``tests/test_numba_contract.py``
passed on; that test fails, saying which of these stopped holding, on a numba
that no longer does them.
"""

import inspect
import os
import sys

from numba.core.caching import FunctionCache
from numba.core.registry import CPUDispatcher

#: How compiled arithmetic fails: as IEEE (and numpy) do — a division by zero gives inf or NaN — never by
#: raising.  numba's default, ``"python"``, raises ``ZeroDivisionError`` from compiled code (and from a
#: parallel loop a ``SystemError``), a third way to diverge beside NaN and ``FloatingPointError``; with
#: ``"numpy"`` a diverging step has one signal, the NaN its |q| − 1 becomes
#: (:mod:`flightsim.physics.divergence`).  For a non-zero divisor the two models compute the same bits.
ERROR_MODEL = "numpy"

#: What numba leaves out of a function only compiled code calls: the wrappers that let Python (and C) call it.
#: numba builds both for every function it compiles, and a wrapper that unboxes the airplane's parameters
#: (:class:`flightsim.physics.aero.LoadParams`, some thirty arrays) from Python objects is bigger than most of
#: the functions it wraps: leaving them out of the functions behind an entry took a first start's compiling
#: from 11.5 s to 8.4 s (``benchmarks/first_start.py``).
NO_WRAPPERS = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)


class _InnerCache(FunctionCache):
    """numba's disk cache for an :class:`InnerDispatcher`: its index keys say "no wrappers", so a dispatcher
    that has them (the same function compiled as an entry by another version) never loads one that has not."""

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), "no-wrappers")


class InnerDispatcher(CPUDispatcher):
    """A compiled function without numba's Python wrapper (:data:`NO_WRAPPERS`): what compiled code calls.

    Compiled callers link it in as any numba function.  A call from Python
    goes to its *twin*: a compiled function of the same parameters that calls
    it and has the wrapper, written and compiled (or loaded from numba's disk
    cache, as ``<name>__from_python``) at the first call from Python.  Calling
    the function's own code from Python would jump to an address of 0.
    """

    def enable_caching(self):
        self._cache = _InnerCache(self.py_func)

    def __call__(self, *args, **kwargs):
        # (the twin, once known, without the property's call: a call from Python's cost is the point of a twin)
        return (self.__dict__.get("_twin") or self.twin)(*args, **kwargs)

    @property
    def twin(self):
        """What a call from Python runs: the twin, written and compiled (or loaded) at the first call."""
        twin = self.__dict__.get("_twin")
        if twin is None:
            twin = self._twin = _twin_of(self)
        return twin

    def from_python(self, function):
        """Have a call from Python run ``function`` (same parameters, same results) in place of a twin: one
        already compiled, say, that takes the arguments in a form cheaper to pass from Python."""
        self._twin = function
        return function


def _twin_of(inner):
    """The compiled function with numba's wrappers that calls ``inner`` (same parameters, defaults and options),
    written at ``inner``'s own file and line, so numba caches it beside it."""
    py_func = inner.py_func
    code = py_func.__code__
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount:
        raise TypeError(f"{py_func.__qualname__}: only positional parameters can be called from Python")
    names = ", ".join(code.co_varnames[: code.co_argcount])
    name = f"{py_func.__name__}__from_python"
    source = f"def {name}({names}):\n    return _inner({names})\n"
    namespace = {"__name__": py_func.__module__, "__builtins__": __builtins__, "_inner": inner}
    twin = _function_at(namespace, code.co_filename, code.co_firstlineno, name, source)
    twin.__defaults__ = py_func.__defaults__
    options = {k: v for k, v in inner.targetoptions.items() if k not in NO_WRAPPERS}
    return _dispatcher(twin, options, CPUDispatcher)


def _dispatcher(py_func, options, dispatcher_class):
    """``njit(cache=True, **options)(py_func)``, as a dispatcher of class ``dispatcher_class``."""
    dispatcher = dispatcher_class(py_func=py_func, locals={},
                                  targetoptions={"nopython": True, "boundscheck": None, **options})
    dispatcher.enable_caching()
    return dispatcher


def _decorator(dispatcher_class, **options):
    """A decorator compiling with ``options`` (cached on disk) into a ``dispatcher_class``; an
    :class:`InnerDispatcher` without numba's wrappers."""
    wrappers = NO_WRAPPERS if dispatcher_class is InnerDispatcher else {}

    def decorate(py_func):
        return _dispatcher(py_func, {**options, **wrappers}, dispatcher_class)

    return decorate


#: The runtime (NRT) is asked for explicitly: a function that does not say inherits its first caller's
#: choice, and one first compiled from a :data:`borrowing_jit` caller could then not allocate.
#:
#: :data:`jit` and :data:`borrowing_jit` compile a function for compiled callers (an :class:`InnerDispatcher`:
#: from Python through its twin); :data:`entry_jit` and :data:`borrowing_entry_jit` one that Python calls
#: every step (a step's entry, the instruments' loads, the ground check), with numba's wrapper of its own.
jit = _decorator(InnerDispatcher, fastmath=False, error_model=ERROR_MODEL, _nrt=True)
entry_jit = _decorator(CPUDispatcher, fastmath=False, error_model=ERROR_MODEL, _nrt=True)
#: For compiled functions that only *borrow* arrays (read and write arrays their caller owns, allocate
#: none): compiled without numba's runtime (NRT), so numba does not update the reference count of every
#: array argument atomically on entering and leaving each such function.  For the airplane's loads,
#: whose parameters (:class:`flightsim.physics.aero.LoadParams`) hold some twenty arrays and pass
#: through several functions per evaluation, those atomic updates were half the step's time.  An
#: allocation (``np.empty``, an array expression, a slice copy ``a[:] = b``) in such a function fails
#: to compile ("NRT required but not enabled"); it may still call :data:`jit` functions that allocate.
#:
#: ``_nrt`` is an option numba does not document; ``tests/test_numba_contract.py`` fails, saying so, if it
#: stops leaving the reference counting out (or the wrappers, :data:`NO_WRAPPERS`).
borrowing_jit = _decorator(InnerDispatcher, fastmath=False, error_model=ERROR_MODEL, _nrt=False)
borrowing_entry_jit = _decorator(CPUDispatcher, fastmath=False, error_model=ERROR_MODEL, _nrt=False)
#: A :data:`borrowing_jit` function whose body numba writes into each compiled caller (``inline="always"``):
#: no function of its own between the caller and what it calls (and nothing to compile for it alone).
borrowing_inline_jit = _decorator(InnerDispatcher, fastmath=False, error_model=ERROR_MODEL, _nrt=False,
                                  inline="always")


def compiled_dispatch(name, selector, arguments, functions, doc, unknown, decorator=jit):
    """Compile ``name(selector, *arguments)``, which returns ``functions[selector](*arguments)``.

    Compiled code takes no function arguments, so a choice made at run time
    (the integrator, the increment) goes by number through a chain of
    ``if selector == k: return f_k(...)``.  The chain is written here from the
    registry's own list, so there is no second list to keep in step with it.

    Its source is compiled under the *calling* module's file name and line, so
    numba caches it on disk like the module's other functions (the cache is
    keyed to that file's contents).  Hence every function must be a compiled
    (:data:`jit`) global of that module, defined there, and registered there;
    each must take exactly ``arguments``.  The generated source is kept as
    ``py_func.__source__``.

    A selector outside ``0 … len(functions) − 1`` runs none of them: the
    dispatch returns ``unknown``, a status value its callers check and turn
    into an error naming the selector.  (Compiled code cannot raise freely:
    an exception raised in a parallel loop reaches Python as a
    ``SystemError``.)

    Parameters
    ----------
    name : str
        Name of the dispatch function (and the module global it becomes).
    selector : str
        Name of its first parameter, the number.
    arguments : tuple of str
        The remaining parameters, passed on unchanged.
    functions : sequence of numba dispatchers
        Numbered 0, 1, … in this order.
    doc : str
        Docstring of the dispatch function.
    unknown : str
        Source of the value returned for a selector outside the registry (an
        expression in the calling module's globals, of the functions' return
        type): a value no function returns, so a caller can tell it apart.
    decorator : callable
        How to compile it: :data:`jit`, or :data:`borrowing_jit` (the dispatch itself allocates nothing).

    Raises
    ------
    ValueError
        No functions, or one that is not a compiled global of the calling
        module or does not take ``arguments``.
    """
    caller = sys._getframe(1)
    module_globals, lineno = caller.f_globals, caller.f_lineno
    module = module_globals["__name__"]
    if not functions:
        raise ValueError(f"{module}.{name}: nothing to dispatch to")
    names = []
    for f in functions:
        py_func = getattr(f, "py_func", None)
        fname = getattr(py_func, "__name__", repr(f))
        if py_func is None or module_globals.get(fname) is not f or py_func.__globals__ is not module_globals:
            raise ValueError(f"{module}.{name}: {fname} must be a compiled (jit) function defined in {module}")
        code = py_func.__code__
        if code.co_varnames[: code.co_argcount] != tuple(arguments):
            got = ", ".join(code.co_varnames[: code.co_argcount])
            raise ValueError(f"{module}.{name}: {fname}({got}) must take ({', '.join(arguments)})")
        names.append(fname)
    call = ", ".join(arguments)
    lines = [f"def {name}({selector}, {call}):", f"    {doc!r}"]
    for k, fname in enumerate(names):
        lines += [f"    if {selector} == {k}:", f"        return {fname}({call})"]
    lines.append(f"    return {unknown}")
    source = "\n".join(lines) + "\n"
    return decorator(_function_at(module_globals, module_globals["__file__"], lineno, name, source))


def compile_source(name, source, decorator=jit):
    """Compile the function ``name`` defined by ``source`` in the *calling* module's globals, cached on disk.

    As :func:`compiled_dispatch` does with its if-chain: the source is
    compiled under the calling module's file name and the line of this call,
    so numba caches it beside the module's other functions (under its own
    name; the cache is keyed to that file's contents).  The source is kept as
    ``py_func.__source__``.
    """
    caller = sys._getframe(1)
    module_globals = caller.f_globals
    return decorator(_function_at(module_globals, module_globals["__file__"], caller.f_lineno, name, source))


def _function_at(module_globals, filename, lineno, name, source):
    """The Python function ``name`` that ``source`` defines, as if written at line ``lineno`` of ``filename``
    with ``module_globals`` as its globals (numba's disk cache keys it by that file and line); ``source`` is kept
    as its ``__source__``.  The one place flightsim runs generated source."""
    namespace = {}
    exec(compile("\n" * (lineno - 1) + source, filename, "exec"), module_globals, namespace)
    py_func = namespace[name]
    py_func.__source__ = source
    return py_func


def in_disk_cache(dispatcher):
    """Whether numba's disk cache holds code for the compiled function ``dispatcher`` (for this version of its
    source file): its index file exists where numba looks for it (``$NUMBA_CACHE_DIR``, beside the source, or
    the user's cache folder when that is not writable).  A stale index (an edited file) still counts: numba then
    compiles again, once."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is not None and os.path.exists(index)

"""An aircraft's programs as numba source: one compiled function per block, called by address.

:func:`flightsim.physics.jsbsim.program.run` executes any aircraft's
program, instruction by instruction; it costs about 3 ns an instruction,
which a batch of thousands of airplanes pays ten thousand times a second.
Here the same program becomes straight-line Python source (one local
variable per stack entry, the table sizes and offsets written in as
numbers), compiled by numba as a C callback (``numba.cfunc``) over
pointers to the aircraft's arrays, and called through its address
(:func:`call_block`) from the compiled loads.  Every operation calls the
very helpers the interpreter calls, in the interpreter's order, so the two
give the same numbers to the last bit (``tests/test_jsbsim_native.py``).

The loads hold only the function's address (an integer in ``jsb_native``),
so the integrators, the batch kernel and everything else compiled over
:class:`~flightsim.physics.aero.LoadParams` are compiled once for every
aircraft.  Each aircraft's source is written once to the user's cache
folder (named by a hash of the source and of this package's program
helpers) and numba caches its machine code beside it: the first flight of
an aircraft compiles for a few seconds, the next ones load it.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import math
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from flightsim.files import atomic_write
from flightsim.physics.compile_cache import jsbsim_source_folder as cache_folder
from flightsim.physics.jsbsim import program as _program
from flightsim.physics.jsbsim import sensors as _sensors
from flightsim.physics.jsbsim.program import (
    DYNAMIC_POPS,
    KINEMATIC,
    OP_ABS,
    OP_ACCELEROMETER,
    OP_ACOS,
    OP_ACTUATOR,
    OP_AND,
    OP_ANGLE,
    OP_ASIN,
    OP_ATAN,
    OP_ATAN2,
    OP_AVG,
    OP_CEIL,
    OP_CLIP,
    OP_CONST,
    OP_COS,
    OP_CYCLIC_CLIP,
    OP_DEADBAND,
    OP_DELAY,
    OP_DIFFERENCE,
    OP_DUP,
    OP_EQ,
    OP_EXP,
    OP_FILTER,
    OP_FLOOR,
    OP_FRACTION,
    OP_GE,
    OP_GT,
    OP_IFTHEN,
    OP_INTEGER,
    OP_KINEMATIC,
    OP_LE,
    OP_LN,
    OP_LOG10,
    OP_LT,
    OP_MAGNETOMETER,
    OP_MAX,
    OP_MIN,
    OP_NEG,
    OP_NOISE,
    OP_NOT,
    OP_NQ,
    OP_OR,
    OP_PID,
    OP_POW,
    OP_PRODUCT,
    OP_PROP,
    OP_QUANTIZE,
    OP_QUOTIENT,
    OP_SCALE,
    OP_SENSOR,
    OP_SIGN,
    OP_SIN,
    OP_SQRT,
    OP_STORE,
    OP_SUM,
    OP_TABLE,
    OP_TAN,
    OP_TODEGREES,
    OP_TORADIANS,
    OP_WAYPOINT,
    T_COLS,
    T_DIMS,
    T_ROW_KEYS,
    T_ROWS,
    T_VALUES,
    TABLE_FIELDS,
)

__all__ = ["BLOCKS", "NativeBlocks", "cache_folder", "call_block", "compile_blocks", "source",
           "writable_cache_folder"]

#: The blocks an aircraft's programs make, in the order of their addresses in ``jsb_native``.
BLOCKS = ("fcs", "aero", "engine", "engine_post")
_BINARY = (OP_QUOTIENT, OP_POW, OP_ATAN2, OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NQ)
_UNARY = (OP_ABS, OP_SIN, OP_COS, OP_TAN, OP_ASIN, OP_ACOS, OP_ATAN, OP_EXP, OP_SQRT, OP_LN, OP_LOG10, OP_SIGN,
          OP_FLOOR, OP_CEIL, OP_TORADIANS, OP_TODEGREES, OP_INTEGER, OP_FRACTION, OP_NOT)
#: The dynamic operations: the helper each calls, whether it takes the property array and its state's slot, and
#: which of its operands are flags (passed as ``!= 0.0``, as the interpreter passes them).
_DYNAMIC = {OP_FILTER: ("_filter", True, (9,)), OP_PID: ("_pid", True, (1, 2, 10)),
            OP_ACTUATOR: ("_actuator", True, (8,)), OP_DEADBAND: ("_deadband", False, ()),
            OP_SENSOR: ("_sensor", True, (6,)), OP_QUANTIZE: ("_quantize", False, ()),
            OP_DELAY: ("_delay", True, (2,)), OP_ANGLE: ("_angle", False, ()),
            OP_WAYPOINT: ("_waypoint", False, (0,)), OP_NOISE: ("noise", True, (2, 3, 5)),
            OP_ACCELEROMETER: ("accelerometer", False, ()), OP_MAGNETOMETER: ("magnetometer", True, (10,))}
#: The C signature of a compiled block: pointers to props, constants, tables (int64, row after row) and table data.
C_SIGNATURE = "void(CPointer(float64), CPointer(float64), CPointer(int64), CPointer(float64))"


def _number(x):
    """``x`` as Python source that reads back as the same float64."""
    x = float(x)
    if math.isnan(x):
        return "math.nan"
    if math.isinf(x):
        return "math.inf" if x > 0 else "-math.inf"
    return repr(x)


def _int(x):
    """An integer argument of a helper as source numba types ``int64``, not ``Literal[int]``: numba compiles a
    function again for every literal value it is called with, so the tables' offsets written in as literals made
    each aircraft compile dozens of its own copies of the table lookups (the same machine code, once inlined)."""
    return f"np.int64({int(x)})"


def _bool(x):
    """A flag argument as source numba types ``bool``, not ``Literal[bool]`` (see :func:`_int`)."""
    return f"np.bool_({bool(x)})"


def _block_source(program, name, n_props):
    """One program as the source of a ``cfunc`` named ``name`` (see the module docstring)."""
    tables = program.tables
    body = []
    stack = []
    counter = [0]

    def push(expression):
        variable = f"v{counter[0]}"
        counter[0] += 1
        body.append(f"{variable} = {expression}")
        stack.append(variable)

    def pop(n):
        args = stack[len(stack) - n:]
        del stack[len(stack) - n:]
        return args

    for pc, (op, arg) in enumerate(program.code.tolist()):
        if op == OP_PROP:
            push(f"props[{arg}]")
        elif op == OP_CONST:
            push(_number(program.constants[arg]))
        elif op == OP_STORE:
            body.append(f"props[{arg}] = {stack.pop()}")
        elif op == OP_PRODUCT:
            push(" * ".join(["1.0", *pop(arg)]))
        elif op in (OP_SUM, OP_AVG):
            total = " + ".join(["0.0", *pop(arg)])
            push(f"({total}) / {arg}" if op == OP_AVG else total)
        elif op == OP_DIFFERENCE:
            push(" - ".join(pop(arg)))
        elif op in (OP_MIN, OP_MAX, OP_AND, OP_OR):
            step, acc = {OP_MIN: ("_min_step", "math.inf"), OP_MAX: ("_max_step", "-math.inf"),
                         OP_AND: ("_and_step", "1.0"), OP_OR: ("_or_step", "0.0")}[op]
            for x in pop(arg):
                acc = f"{step}({acc}, {x})"
            push(acc)
        elif op == OP_TABLE:
            dims, rows, cols = (int(tables[arg, k]) for k in (T_DIMS, T_ROWS, T_COLS))
            keys = pop(dims)
            if dims == 1:
                push(f"_lookup_1d(data, {_int(tables[arg, T_ROW_KEYS])}, {_int(tables[arg, T_VALUES])}, "
                     f"{_int(rows)}, {keys[0]})")
            else:
                keys += ["0.0"] * (3 - dims)
                push(f"_lookup(tables, data, {_int(arg)}, {', '.join(keys)})")
        elif op == OP_NEG:
            push(f"-{stack.pop()}")
        elif op == OP_DUP:
            stack.append(stack[-1])
        elif op in (OP_CLIP, OP_CYCLIC_CLIP):
            x, lo, hi = pop(3)
            push(f"_clip({x}, {lo}, {hi}, {_bool(op == OP_CYCLIC_CLIP)})")
        elif op == OP_SCALE:
            c = program.constants[arg:arg + 5]
            push(f"_aerosurface_scale({stack.pop()}, {', '.join(_number(v) for v in c[:4])}, {_bool(c[4] != 0.0)})")
        elif op == OP_KINEMATIC:
            command, output, dt, settle = pop(4)
            assert tables[arg, T_DIMS] == KINEMATIC
            push(f"_kinematic(data, {_int(tables[arg, T_ROW_KEYS])}, {_int(tables[arg, T_VALUES])}, "
                 f"{_int(tables[arg, T_ROWS])}, {_bool(tables[arg, T_COLS] != 0)}, {command}, {output}, {dt}, "
                 f"{settle} != 0.0)")
        elif op in _DYNAMIC:
            helper, stateful, flags = _DYNAMIC[op]
            args = [f"{x} != 0.0" if k in flags else x for k, x in enumerate(pop(DYNAMIC_POPS[op]))]
            push(f"{helper}({', '.join((['props', _int(arg)] if stateful else []) + args)})")
        elif op in _BINARY:
            a, b = pop(2)
            push(f"_binary_op({op}, {a}, {b})")     # (a literal: numba keeps the one operation, compiled once)
        elif op == OP_IFTHEN:
            c, a, b = pop(3)
            push(f"_ifthen({c}, {a}, {b})")
        elif op in _UNARY:
            push(f"_unary_op({op}, {stack.pop()})")
        else:
            raise ValueError(f"{name}: instruction {pc} has an unknown operation {op}")
    if stack:
        raise ValueError(f"{name}: the program leaves {len(stack)} values on its stack")
    n_tables, n_data = tables.shape[0], program.table_data.shape[0]
    head = ["@cfunc(C_SIGNATURE, cache=True, error_model='numpy')",
            f"def {name}(props_p, constants_p, tables_p, data_p):",
            f"    props = carray(props_p, ({n_props},))",
            f"    tables = carray(tables_p, ({n_tables}, {TABLE_FIELDS}))",
            f"    data = carray(data_p, ({n_data},))"]
    return "\n".join(head + ["    " + line for line in body] + ["    return"])


@functools.cache
def _helpers_version():
    """A hash of the interpreter's helpers the compiled blocks call (a change to them makes new files)."""
    return hashlib.sha256(Path(_program.__file__).read_bytes() + Path(_sensors.__file__).read_bytes()
                          + Path(__file__).read_bytes()).hexdigest()[:16]


def source(programs, n_props):
    """The module source for ``programs`` (block name → :class:`~flightsim.physics.jsbsim.program.Program`)."""
    parts = ['"""Generated by flightsim.physics.jsbsim.native from a JSBSim aircraft: do not edit."""',
             "import math", "import numpy as np", "from numba import carray, cfunc",
             "from flightsim.physics.jsbsim.native import C_SIGNATURE",
             "from flightsim.physics.jsbsim.program import (_actuator, _aerosurface_scale, _and_step, _angle, "
             "_binary_op, _clip, _deadband, _delay, _filter, _ifthen, _kinematic, _lookup, _lookup_1d, _max_step, "
             "_min_step, _or_step, _pid, _quantize, _sensor, _unary_op, _waypoint)",
             "from flightsim.physics.jsbsim.sensors import accelerometer, magnetometer, noise",
             f"# helpers {_helpers_version()}"]
    for name in BLOCKS:
        parts.append("\n\n" + _block_source(programs[name], name, n_props))
    return "\n".join(parts) + "\n"


def writable_cache_folder():
    """:func:`cache_folder`, made; or, where it cannot be written (a read-only home, a bad ``$FLIGHTSIM_CACHE``),
    ``flightsim-<user>/jsbsim`` in the system's temporary folder."""
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
        return folder
    except OSError:
        user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
        folder = Path(tempfile.gettempdir()) / f"flightsim-{user}" / "jsbsim"
        folder.mkdir(parents=True, exist_ok=True)
        return folder


#: Modules loaded in this process, by their file's stem.
_LOADED = {}


class NativeBlocks:
    """An aircraft's compiled blocks: :attr:`addresses` (``jsb_native``) and the callbacks that own them.

    Attributes
    ----------
    addresses : numpy.ndarray
        int64, one per :data:`BLOCKS`: each compiled function's address.
    path : pathlib.Path
        The generated source.
    """

    def __init__(self, module, path):
        self.module = module            # keeps the callbacks (and their machine code) alive
        self.path = path
        self.addresses = np.array([getattr(module, name).address for name in BLOCKS], dtype=np.int64)


def compile_blocks(programs, n_props, label="aircraft"):
    """Compile ``programs`` (block name → Program, every name of :data:`BLOCKS`) over ``n_props`` properties.

    The source goes to :func:`cache_folder` as ``<label>-<hash>.py`` (written once, atomically); importing it
    compiles the blocks, or loads numba's cached code.  (Whether that will compile is
    :func:`flightsim.physics.compile_cache.cold_parts`'s ``model``: a first start says so.)
    """
    text = source(programs, n_props)
    digest = hashlib.sha256(text.encode()).hexdigest()[:20]
    stem = "".join(c if c.isalnum() else "_" for c in label) + "_" + digest
    if stem in _LOADED:
        return _LOADED[stem]
    folder = writable_cache_folder()
    path = folder / f"{stem}.py"
    if not path.exists() or path.read_text() != text:
        with atomic_write(path) as f:
            f.write(text)
    name = f"flightsim_jsbsim_native_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # (numba's cache finds the module's globals by its name)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    blocks = _LOADED[stem] = NativeBlocks(module, path)
    return blocks


def _data(context, builder, array_type, value):
    return context.make_array(array_type)(context, builder, value).data


@intrinsic
def call_block(typingctx, address, props, constants, tables, data):
    """Call the compiled block at ``address`` (from :attr:`NativeBlocks.addresses`) on the aircraft's arrays."""
    sig = types.void(address, props, constants, tables, data)

    def codegen(context, builder, signature, args):
        double_p = ir.DoubleType().as_pointer()
        int_p = ir.IntType(64).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [double_p, double_p, int_p, double_p])
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        kinds = (double_p, double_p, int_p, double_p)
        pointers = [builder.bitcast(_data(context, builder, t, v), p)
                    for t, v, p in zip(signature.args[1:], args[1:], kinds, strict=True)]
        builder.call(fn, pointers)
        return context.get_dummy_value()

    return sig, codegen


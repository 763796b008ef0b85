"""JSBSim's ``<function>`` and ``<table>`` elements compiled for one compiled stack machine.

JSBSim evaluates an aircraft's functions as trees of C++ objects
(``FGFunction``, ``FGTable``, ``FGPropertyValue``).  Here the trees are
compiled once, when the file is read, into a *program*: a flat list of
instructions (an operation and its argument) over a value stack, with the
numbers, the tables and the properties in arrays.  One compiled function,
:func:`run`, executes any aircraft's program: the reference the replays check
against JSBSim.  The compiled loads run the same programs turned into numba
source per aircraft (:mod:`flightsim.physics.jsbsim.native`), which calls
this module's helpers (``_lookup``, ``_binary_op``, ``_kinematic`` …) as the
interpreter does, so the two compute the same bits.

Every property a program reads or writes has a slot in one float array
(:class:`Properties`); a ``<function name="…">`` writes its value to the slot
of its name, where later functions read it, as JSBSim's property tree does.
Functions run in an order where each comes after the functions it reads
(JSBSim computes them lazily, on first read; the values are the same).

The arithmetic is JSBSim's, operation by operation (``FGFunction::Load``,
``FGTable::GetValue`` of JSBSim 1.3): a product starts from 1 and multiplies
in order, a quotient by zero is +inf, a table is interpolated linearly
between breakpoints and clamped at its ends, a 2-D table's factors are
constrained to [0, 1], a 3-D table interpolates between its 2-D tables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.sensors import MAGNETOMETER_STATE, accelerometer, magnetometer, noise

__all__ = ["OPERATIONS", "Program", "ProgramBuilder", "Properties", "run"]

# ----------------------------------------------------------------------------- the instruction set

(OP_CONST, OP_PROP, OP_STORE, OP_PRODUCT, OP_SUM, OP_DIFFERENCE, OP_QUOTIENT, OP_POW, OP_MIN, OP_MAX, OP_AVG,
 OP_TABLE, OP_ABS, OP_SIN, OP_COS, OP_TAN, OP_ASIN, OP_ACOS, OP_ATAN, OP_ATAN2, OP_EXP, OP_SQRT, OP_LN, OP_LOG10,
 OP_SIGN, OP_FLOOR, OP_CEIL, OP_TORADIANS, OP_TODEGREES, OP_INTEGER, OP_FRACTION, OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ,
 OP_NQ, OP_NOT, OP_AND, OP_OR, OP_IFTHEN, OP_NEG, OP_DUP, OP_CLIP, OP_CYCLIC_CLIP, OP_SCALE, OP_KINEMATIC,
 OP_FILTER, OP_PID, OP_ACTUATOR, OP_DEADBAND, OP_SENSOR, OP_QUANTIZE, OP_DELAY, OP_ANGLE, OP_WAYPOINT, OP_NOISE,
 OP_ACCELEROMETER, OP_MAGNETOMETER) = range(59)
#: The dynamic components' operations keep their state in property slots from their argument on (see
#: :meth:`ProgramBuilder.state`), so the state travels with the property array (reset, trim, batch, replay):
#: how many slots each takes (a delay: 1 + its frames).
STATE = {OP_FILTER: 5, OP_PID: 3, OP_ACTUATOR: 5, OP_SENSOR: 3, OP_MAGNETOMETER: MAGNETOMETER_STATE}
#: How many values each dynamic operation pops (it pushes one).
DYNAMIC_POPS = {OP_FILTER: 10, OP_PID: 11, OP_ACTUATOR: 9, OP_DEADBAND: 3, OP_SENSOR: 7, OP_QUANTIZE: 4,
                OP_DELAY: 3, OP_ANGLE: 3, OP_WAYPOINT: 8, OP_NOISE: 6, OP_ACCELEROMETER: 15, OP_MAGNETOMETER: 11}
#: Filter kinds (``OP_FILTER``'s first operand), as FGFilter's ``FilterType``.
(FILTER_LAG, FILTER_LEAD_LAG, FILTER_ORDER2, FILTER_WASHOUT) = range(4)
#: Integration kinds of a PID (``OP_PID``'s first operand), as FGPID's ``IntType``.
(INT_NONE, INT_RECT, INT_TRAP, INT_AB2, INT_AB3) = range(5)

#: The ``<function>`` operations compiled here: element name → (opcode, least arguments, most arguments;
#: None: any number).  Anything else in a function is refused, naming it.
OPERATIONS = {
    "product": (OP_PRODUCT, 1, None), "sum": (OP_SUM, 1, None), "difference": (OP_DIFFERENCE, 1, None),
    "min": (OP_MIN, 1, None), "max": (OP_MAX, 1, None), "avg": (OP_AVG, 1, None),
    "quotient": (OP_QUOTIENT, 2, 2), "pow": (OP_POW, 2, 2), "atan2": (OP_ATAN2, 2, 2),
    "abs": (OP_ABS, 1, 1), "sin": (OP_SIN, 1, 1), "cos": (OP_COS, 1, 1), "tan": (OP_TAN, 1, 1),
    "asin": (OP_ASIN, 1, 1), "acos": (OP_ACOS, 1, 1), "atan": (OP_ATAN, 1, 1), "exp": (OP_EXP, 1, 1),
    "sqrt": (OP_SQRT, 1, 1), "ln": (OP_LN, 1, 1), "log10": (OP_LOG10, 1, 1), "sign": (OP_SIGN, 1, 1),
    "floor": (OP_FLOOR, 1, 1), "ceil": (OP_CEIL, 1, 1), "toradians": (OP_TORADIANS, 1, 1),
    "todegrees": (OP_TODEGREES, 1, 1), "integer": (OP_INTEGER, 1, 1), "fraction": (OP_FRACTION, 1, 1),
    "lt": (OP_LT, 2, 2), "le": (OP_LE, 2, 2), "gt": (OP_GT, 2, 2), "ge": (OP_GE, 2, 2), "eq": (OP_EQ, 2, 2),
    "nq": (OP_NQ, 2, 2), "not": (OP_NOT, 1, 1), "and": (OP_AND, 1, None), "or": (OP_OR, 1, None),
    "ifthen": (OP_IFTHEN, 3, 3),
}

#: ``T_DIMS`` of a :attr:`Program.tables` row that holds a kinematic's detents (``T_ROW_KEYS``) and transition times
#: (``T_VALUES``), ``T_ROWS`` of each, ``T_COLS`` 1 when the input is scaled by the last detent.
KINEMATIC = -1
#: Columns of a table's row in :attr:`Program.tables`.
(T_DIMS, T_ROWS, T_COLS, T_ROW_KEYS, T_COL_KEYS, T_VALUES, T_FIRST) = range(7)
#: How many columns that row has.
TABLE_FIELDS = 7


def canonical(name):
    """A property name as JSBSim's property tree resolves it: an index ``[0]`` is the node itself
    (``fcs/throttle-cmd-norm[0]`` is ``fcs/throttle-cmd-norm``)."""
    return name.replace("[0]", "")


class Properties:
    """Named float slots: the properties a program reads and writes (JSBSim's property tree, flattened).

    Names are kept :func:`canonical` (``engine[0]`` is ``engine``), and looked up so.

    Attributes
    ----------
    names : list of str
        Slot ``k``'s property name.
    """

    def __init__(self, names=()):
        self.names = []
        self._index = {}
        for name in names:
            self.slot(name)

    def slot(self, name):
        """The slot of property ``name``, made on first use."""
        name = canonical(name)
        k = self._index.get(name)
        if k is None:
            k = self._index[name] = len(self.names)
            self.names.append(name)
        return k

    def __contains__(self, name):
        return canonical(name) in self._index

    def __getitem__(self, name):
        return self._index[canonical(name)]

    def __len__(self):
        return len(self.names)

    def array(self, values=None):
        """A float64 array with a slot for every property: 0, or ``values[name]`` where given (names of ``values``
        that have no slot are left out: nothing reads them)."""
        out = np.zeros(len(self.names))
        for name, value in (values or {}).items():
            if name in self:
                out[self[name]] = value
        return out


@dataclass
class Program:
    """A compiled list of instructions and what they refer to (the arrays :func:`run` takes).

    Attributes
    ----------
    code : numpy.ndarray
        ``(n, 2)`` int64: each instruction's operation and argument.
    constants : numpy.ndarray
        The numbers ``OP_CONST`` pushes.
    tables : numpy.ndarray
        ``(m, TABLE_FIELDS)`` int64: each table's dimensions, sizes and offsets into ``table_data``.
    table_data : numpy.ndarray
        Every table's breakpoints and values.
    stack_size : int
        The deepest the stack gets.
    """

    code: np.ndarray
    constants: np.ndarray
    tables: np.ndarray
    table_data: np.ndarray
    stack_size: int

    def stack(self):
        """A stack for :func:`run`."""
        return np.zeros(max(self.stack_size, 1))

    def run(self, props, stack=None):
        """Execute on the property array ``props`` (written in place); see :func:`run`."""
        status = run(self.code, self.constants, self.tables, self.table_data, props,
                     self.stack() if stack is None else stack)
        if status != 0:
            raise RuntimeError(f"the JSBSim function program stopped at instruction {status - 1}")


@dataclass
class ProgramBuilder:
    """Compiles ``<function>`` elements into one :class:`Program` over :attr:`properties`.

    Parameters
    ----------
    source : flightsim.physics.jsbsim.xmlfile.JSBSimFile
        Where the elements come from (for error messages).
    properties : Properties
    """

    source: object
    properties: Properties
    #: An engine's number while its own functions compile (``FGFunction``'s prefix: each ``#`` in a property's or
    #: a function's name is replaced by it, as ``FGEngine::Load`` hands ``FGModelFunctions`` the engine's number);
    #: None elsewhere, where a ``#`` is refused.
    index: str | None = None
    code: list = field(default_factory=list)
    #: the properties the program reads (by name, a leading '-' removed)
    reads: set = field(default_factory=set)
    constants: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    table_data: list = field(default_factory=list)
    _depth: int = 0
    _deepest: int = 0

    # ------------------------------------------------------------------ emitting

    def emit(self, op, arg=0, pops=0, pushes=0):
        """Append instruction ``(op, arg)``, which pops ``pops`` values and pushes ``pushes``."""
        self.code.append((op, arg))
        self._depth += pushes - pops
        self._deepest = max(self._deepest, self._depth)

    def push_constant(self, value):
        """Push the number ``value``."""
        self.constants.append(float(value))
        self.emit(OP_CONST, len(self.constants) - 1, pushes=1)

    def push_property(self, text, where):
        """Push property ``text`` (a leading '-' negates it, as JSBSim's ``FGPropertyValue``)."""
        name = (text or "").strip()
        if not name:
            raise InputError(self.source.path, where, "empty property name")
        name = self.indexed(name, where)
        negate = name.startswith("-")
        self.reads.add(canonical(name.lstrip("-")))
        self.emit(OP_PROP, self.properties.slot(name.lstrip("-")), pushes=1)
        if negate:
            self.emit(OP_NEG)

    def indexed(self, name, where):
        """``name`` with each ``#`` replaced by :attr:`index` (refused where there is none)."""
        if "#" not in name:
            return name
        if self.index is None:
            raise InputError(self.source.path, where, f"property {name!r}: the engine index '#' is not supported here")
        return name.replace("#", self.index, 1)          # (the first, as JSBSim's replace())

    def store(self, name):
        """Pop the value on top of the stack into property ``name`` (a ``#`` in it: :meth:`indexed`)."""
        self.emit(OP_STORE, self.properties.slot(self.indexed(name, name)), pops=1)

    # ------------------------------------------------------------------ compiling

    def function(self, el, where):
        """Compile a ``<function>`` element (its one value-giving child); leaves its value on the stack."""
        children = [c for c in el if c.tag != "description"]
        if len(children) != 1:
            raise InputError(self.source.path, where, f"a function needs exactly one operation, found {len(children)}")
        self.value(children[0], where)

    def value(self, el, where):
        """Compile one value-giving element: a property, a number, a table or an operation."""
        tag = el.tag
        here = f"{where}/{tag}"
        if tag in ("property", "p"):
            if el.get("apply"):
                raise InputError(self.source.path, here, "template functions (apply=) are not supported")
            self.push_property(el.text, here)
        elif tag in ("value", "v"):
            self.push_constant(self.source.number(el, here))
        elif tag == "pi":
            self.push_constant(math.pi)
        elif tag in ("table", "t"):
            self.table(el, here)
        elif tag in OPERATIONS:
            op, lo, hi = OPERATIONS[tag]
            args = [c for c in el if c.tag != "description"]
            if len(args) < lo or (hi is not None and len(args) > hi):
                wanted = f"{lo}" if lo == hi else f"at least {lo}" if hi is None else f"{lo} to {hi}"
                raise InputError(self.source.path, here, f"takes {wanted} arguments, got {len(args)}")
            for child in args:
                self.value(child, here)
            self.emit(op, len(args), pushes=1, pops=len(args))
        else:
            raise InputError(self.source.path, here, f"unsupported function element <{tag}> "
                             f"(supported: property, value, pi, table, {', '.join(OPERATIONS)})")

    def table(self, el, where):
        """Compile a ``<table>``: push its lookup keys (row, column, table), then look it up."""
        if el.get("type"):
            raise InputError(self.source.path, where, f"table type {el.get('type')!r} is not supported")
        axes = {}
        for var in el.findall("independentVar"):
            lookup = (var.get("lookup") or "row").strip()
            axis = {"row": 0, "axis1": 0, "column": 1, "axis2": 1, "table": 2, "axis3": 2}.get(lookup)
            if axis is None:
                raise InputError(self.source.path, f"{where}/independentVar", f"unknown lookup {lookup!r}")
            if axis in axes:
                raise InputError(self.source.path, f"{where}/independentVar", f"two lookups on the {lookup} axis")
            axes[axis] = var
        index = self._table_data(el, where)
        dims = self.tables[index][T_DIMS]
        if sorted(axes) != list(range(dims)):
            raise InputError(self.source.path, where, f"a {dims}-D table needs {dims} independentVar lookups "
                             f"(row, column, table), found {len(axes)}")
        for axis in range(dims):
            self.push_property(axes[axis].text, f"{where}/independentVar")
        self.emit(OP_TABLE, index, pushes=1, pops=dims)
        if el.get("name"):                    # a named table is a property too (its value, readable elsewhere)
            self.emit(OP_DUP, pushes=1)
            self.store(el.get("name").strip())

    def _rows(self, el, where):
        text = "".join(el.itertext())
        rows = []
        for line in text.splitlines():
            if line.strip():
                try:
                    rows.append([float(x) for x in line.split()])
                except ValueError:
                    raise InputError(self.source.path, where, f"not numbers: {line.strip()!r}") from None
        if not rows:
            raise InputError(self.source.path, where, "<tableData> is empty")
        if not all(math.isfinite(x) for row in rows for x in row):
            raise InputError(self.source.path, where, "<tableData> holds a non-finite number")
        return rows

    def _append(self, values):
        start = len(self.table_data)
        self.table_data.extend(float(v) for v in values)
        return start

    def _increasing(self, keys, where, what):
        if any(b <= a for a, b in zip(keys, keys[1:], strict=False)):
            raise InputError(self.source.path, where, f"the {what} breakpoints must increase: {keys}")

    def _leaf(self, data, where):
        """A 1-D or 2-D table from one ``<tableData>``; returns its index in :attr:`tables`."""
        rows = self._rows(data, where)
        if len(rows) > 1 and len(rows[1]) == len(rows[0]) + 1:               # 2-D: first line the column keys
            cols, body = rows[0], rows[1:]
            if any(len(r) != len(cols) + 1 for r in body):
                raise InputError(self.source.path, where, "2-D <tableData> rows of different lengths")
            keys = [r[0] for r in body]
            values = [v for r in body for v in r[1:]]
            dims = 2
        else:
            if any(len(r) != 2 for r in rows):
                raise InputError(self.source.path, where, "1-D <tableData> needs two numbers a line")
            cols, keys, values, dims = [], [r[0] for r in rows], [r[1] for r in rows], 1
        self._increasing(keys, where, "row")
        self._increasing(cols, where, "column")
        entry = [0] * TABLE_FIELDS
        entry[T_DIMS], entry[T_ROWS], entry[T_COLS] = dims, len(keys), max(len(cols), 1)
        entry[T_ROW_KEYS] = self._append(keys)
        entry[T_COL_KEYS] = self._append(cols)
        entry[T_VALUES] = self._append(values)
        self.tables.append(entry)
        return len(self.tables) - 1

    def _table_data(self, el, where):
        blocks = el.findall("tableData")
        if not blocks:
            raise InputError(self.source.path, where, "<tableData> is missing")
        if len(blocks) == 1:
            return self._leaf(blocks[0], f"{where}/tableData")
        breakpoints = []
        first = len(self.tables) + 1          # the 3-D table's entry comes first, its 2-D tables after it
        entry = [0] * TABLE_FIELDS
        self.tables.append(entry)
        for block in blocks:
            bp = block.get("breakPoint")
            try:
                breakpoints.append(float(bp))
            except (TypeError, ValueError):
                raise InputError(self.source.path, f"{where}/tableData", f"breakPoint {bp!r} is not a number") from None
            sub = self._leaf(block, f"{where}/tableData[breakPoint={bp}]")
            if self.tables[sub][T_DIMS] != 2:
                raise InputError(self.source.path, f"{where}/tableData", "a 3-D table's blocks must be 2-D tables")
        self._increasing(breakpoints, where, "breakPoint")
        entry[T_DIMS], entry[T_ROWS], entry[T_COLS] = 3, len(blocks), 1
        entry[T_ROW_KEYS] = self._append(breakpoints)
        entry[T_FIRST] = first
        return first - 1

    def keyed_table(self, el, where):
        """Look up ``el``'s one-dimensional ``<tableData>`` at the key on top of the stack (a table read by its
        model at a value of its own, as ``FGRocket`` reads its ``<thrust_table>`` at the propellant burnt: no
        ``<independentVar>``); leaves its value on the stack."""
        index = self._table_data(el, where)
        if self.tables[index][T_DIMS] != 1:
            raise InputError(self.source.path, where, "must be a one-dimensional table (key, value a line)")
        self.emit(OP_TABLE, index, pushes=1, pops=1)

    def parameter(self, text, where):
        """Push a JSBSim *parameter* (``FGParameterValue``) given as ``text``: a number, or else a property (a
        leading '-' negates it)."""
        text = (text or "").strip()
        if not text:
            raise InputError(self.source.path, where, "a value is required")
        try:
            value = float(text)
        except ValueError:
            self.push_property(text, where)
        else:
            self.push_constant(value)

    def state(self, name, n):
        """``n`` new property slots in a row for the state of the dynamic component ``name`` (its output
        property); the first's index.  They are named ``NAME/flightsim-state-K`` and start at 0."""
        first = len(self.properties)
        for k in range(n):
            slot = self.properties.slot(f"{name}/flightsim-state-{k}")
            if slot != first + k:
                raise ValueError(f"the state of {name!r} is made twice")
        return first

    def dynamic(self, op, state, where):
        """Emit dynamic operation ``op`` over its operands (pushed) and state slots from ``state`` on."""
        self.emit(op, state, pops=DYNAMIC_POPS[op], pushes=1)

    def constants_block(self, values):
        """Store ``values`` in :attr:`constants` side by side; the index of the first."""
        start = len(self.constants)
        self.constants.extend(float(v) for v in values)
        return start

    def kinematic(self, detents, times, scale):
        """A kinematic's detents and transition times as a :attr:`tables` row; its index."""
        entry = [0] * TABLE_FIELDS
        entry[T_DIMS], entry[T_ROWS], entry[T_COLS] = KINEMATIC, len(detents), int(bool(scale))
        entry[T_ROW_KEYS] = self._append(detents)
        entry[T_VALUES] = self._append(times)
        self.tables.append(entry)
        return len(self.tables) - 1

    def build(self):
        """The :class:`Program` compiled so far."""
        code = np.array(self.code, dtype=np.int64).reshape(-1, 2)
        tables = np.array(self.tables, dtype=np.int64).reshape(-1, TABLE_FIELDS)
        return Program(code, np.array(self.constants, dtype=np.float64), tables,
                       np.array(self.table_data, dtype=np.float64), self._deepest)


# ----------------------------------------------------------------------------- the machine


@borrowing_jit
def _lookup_1d(data, rk, v, n, key):
    """FGTable::GetValue(key) of the keys at ``data[rk:rk + n]`` and values at ``data[v:v + n]``: linear between
    breakpoints, the end values beyond them."""
    if key <= data[rk]:
        return data[v]
    if key >= data[rk + n - 1]:
        return data[v + n - 1]
    r = 1
    while data[rk + r] < key:
        r += 1
    x0 = data[rk + r - 1]
    factor = (key - x0) / (data[rk + r] - x0)
    y0 = data[v + r - 1]
    return factor * (data[v + r] - y0) + y0


@borrowing_jit
def _constrain01(x):
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


@borrowing_jit
def _bilinear(data, rk, ck, v, n_rows, n_cols, row_key, col_key):
    """FGTable::GetValue(rowKey, colKey) of the 2-D table whose row keys, column keys and values (row after row)
    start at ``data[rk]``, ``data[ck]``, ``data[v]``: bilinear, the factors constrained to [0, 1]."""
    c = 1
    while data[ck + c] < col_key and c < n_cols - 1:
        c += 1
    x0 = data[ck + c - 1]
    c_factor = _constrain01((col_key - x0) / (data[ck + c] - x0))
    if n_rows == 1:
        y0 = data[v + c - 1]
        return c_factor * (data[v + c] - y0) + y0
    r = 1
    while data[rk + r] < row_key and r < n_rows - 1:
        r += 1
    x0 = data[rk + r - 1]
    r_factor = _constrain01((row_key - x0) / (data[rk + r] - x0))
    lo, hi = v + (r - 1) * n_cols, v + r * n_cols
    col1 = r_factor * data[hi + c - 1] + (1.0 - r_factor) * data[lo + c - 1]
    col2 = r_factor * data[hi + c] + (1.0 - r_factor) * data[lo + c]
    return c_factor * (col2 - col1) + col1


@borrowing_jit
def _lookup_2d(tables, data, t, row_key, col_key):
    """FGTable::GetValue(rowKey, colKey): bilinear, the factors constrained to [0, 1]."""
    n_rows, n_cols = tables[t, T_ROWS], tables[t, T_COLS]
    rk, ck, v = tables[t, T_ROW_KEYS], tables[t, T_COL_KEYS], tables[t, T_VALUES]
    if n_cols == 1:
        return _lookup_1d(data, rk, v, n_rows, row_key)
    return _bilinear(data, rk, ck, v, n_rows, n_cols, row_key, col_key)


@borrowing_jit
def _lookup(tables, data, t, k0, k1, k2):
    """Table ``t`` at keys (row, column, table)."""
    dims = tables[t, T_DIMS]
    if dims == 1:
        return _lookup_1d(data, tables[t, T_ROW_KEYS], tables[t, T_VALUES], tables[t, T_ROWS], k0)
    if dims == 2:
        return _lookup_2d(tables, data, t, k0, k1)
    n, bk, first = tables[t, T_ROWS], tables[t, T_ROW_KEYS], tables[t, T_FIRST]
    if k2 <= data[bk]:
        return _lookup_2d(tables, data, first, k0, k1)
    if k2 >= data[bk + n - 1]:
        return _lookup_2d(tables, data, first + n - 1, k0, k1)
    r = 1
    while data[bk + r] < k2:
        r += 1
    x0 = data[bk + r - 1]
    factor = (k2 - x0) / (data[bk + r] - x0)
    y0 = _lookup_2d(tables, data, first + r - 1, k0, k1)
    return factor * (_lookup_2d(tables, data, first + r, k0, k1) - y0) + y0


@borrowing_jit
def _aerosurface_scale(x, in_min, in_max, out_min, out_max, zero_centered):
    """FGGain's aerosurface_scale before its gain: the domain mapped onto the range (each side of 0 on its own
    when zero-centred)."""
    if zero_centered:
        if x == 0.0:
            return 0.0
        if x > 0.0:
            return (x / in_max) * out_max
        return (x / in_min) * out_min
    return out_min + ((x - in_min) / (in_max - in_min)) * (out_max - out_min)


@borrowing_jit
def _kinematic(data, detents, times, n, scale, command, output, dt, settle):
    """FGKinemat::Run: ``output`` moved toward ``command`` (times the last detent when ``scale``) through the
    detents, each interval at its own rate (its travel over its time; time 0: at once), for ``dt`` seconds;
    ``settle`` (JSBSim's trim status) reaches it in one step."""
    target = command * data[detents + n - 1] if scale else command
    lo, hi = data[detents], data[detents + n - 1]
    target = lo if target < lo else (hi if target > hi else target)
    if settle:
        return target
    left = dt
    while left > 0.0 and not abs(target - output) <= 2.0 * 2.220446049250313e-16 * max(abs(target), abs(output)):
        ind = 1
        while ind < n - 1 and ((data[detents + ind] < output) if target < output else (data[detents + ind] <= output)):
            ind += 1
        if data[times + ind] <= 0.0:
            output = target
            break
        rate = (data[detents + ind] - data[detents + ind - 1]) / data[times + ind]
        a, b = data[detents + ind - 1], data[detents + ind]
        here = a if target < a else (b if target > b else target)
        step = abs((here - output) / rate)
        if left < step:
            step = left
            if output < target:
                output += step * rate
            else:
                output -= step * rate
        else:
            output = here
        left -= step
    return output


@borrowing_jit
def _binary(x):
    """JSBSim's GetBinary, leniently: true when ``x`` is not (near) 0."""
    return abs(x) >= 1e-9


@borrowing_jit
def _min_step(acc, x):
    """One argument of ``<min>`` (FGFunction's loop: a smaller value replaces the minimum so far)."""
    return x if x < acc else acc


@borrowing_jit
def _max_step(acc, x):
    return x if x > acc else acc


@borrowing_jit
def _and_step(acc, x):
    return acc if _binary(x) else 0.0


@borrowing_jit
def _or_step(acc, x):
    return 1.0 if _binary(x) else acc


@borrowing_jit
def _ifthen(condition, then, otherwise):
    return then if _binary(condition) else otherwise


@borrowing_jit
def _clip(x, lo, hi, cyclic):
    """FGFCSComponent's clipto (``cyclic``: wrapped into [lo, hi)); ignored when ``hi < lo``, as JSBSim does."""
    span = hi - lo
    if span >= 0.0:
        if cyclic and span != 0.0:
            x = np.fmod(x - lo, span) + lo
            if x < lo:
                x += span
        else:
            x = lo if x < lo else (hi if x > hi else x)
    return x


@borrowing_jit
def _binary_op(op, a, b):
    """The two-argument operations: quotient (by zero: +inf), pow, atan2 and the comparisons (1 or 0)."""
    if op == OP_QUOTIENT:
        return a / b if b != 0.0 else math.inf
    if op == OP_POW:
        return a ** b
    if op == OP_ATAN2:
        return math.atan2(a, b)
    if op == OP_LT:
        return 1.0 if a < b else 0.0
    if op == OP_LE:
        return 1.0 if a <= b else 0.0
    if op == OP_GT:
        return 1.0 if a > b else 0.0
    if op == OP_GE:
        return 1.0 if a >= b else 0.0
    if op == OP_EQ:
        return 1.0 if a == b else 0.0
    return 1.0 if a != b else 0.0


@borrowing_jit
def _unary_op(op, x):
    """The one-argument operations (JSBSim's: asin and acos of |x| > 1 NaN, the square root of a negative
    number and the logarithm of one ≤ 0 −inf, sign(0) = +1)."""
    if op == OP_ABS:
        return abs(x)
    if op == OP_SIN:
        return math.sin(x)
    if op == OP_COS:
        return math.cos(x)
    if op == OP_TAN:
        return math.tan(x)
    if op == OP_ASIN:
        return math.asin(x) if -1.0 <= x <= 1.0 else math.nan
    if op == OP_ACOS:
        return math.acos(x) if -1.0 <= x <= 1.0 else math.nan
    if op == OP_ATAN:
        return math.atan(x)
    if op == OP_EXP:
        return math.exp(x)
    if op == OP_SQRT:
        return math.sqrt(x) if x >= 0.0 else -math.inf
    if op == OP_LN:
        return math.log(x) if x > 0.0 else -math.inf
    if op == OP_LOG10:
        return math.log10(x) if x > 0.0 else -math.inf
    if op == OP_SIGN:
        return -1.0 if x < 0.0 else 1.0
    if op == OP_FLOOR:
        return math.floor(x)
    if op == OP_CEIL:
        return math.ceil(x)
    if op == OP_TORADIANS:
        return x * math.pi / 180.0
    if op == OP_TODEGREES:
        return x * 180.0 / math.pi
    if op == OP_INTEGER:
        return float(math.trunc(x))
    if op == OP_FRACTION:
        return x - math.trunc(x)
    return 0.0 if _binary(x) else 1.0          # OP_NOT


# ----------------------------------------------------------------------------- the dynamic components
#
# Each keeps its state in property slots (``ProgramBuilder.state``); ``settle`` is JSBSim's trim status: the
# component settles at once to its steady state for the present input (a filter to its gain at zero frequency, an
# integrator holds), as flightsim's trim needs.


@borrowing_jit
def _filter(props, s, kind, x, c1, c2, c3, c4, c5, c6, dt, settle):
    """FGFilter::Run, its state at ``props[s:s + 5]``: initialised (0/1), the last two inputs, the last two
    outputs (before the clip).  Not yet initialised it outputs its last input (0 after a reset) and reads nothing;
    its coefficients come from ``dt`` and ``c1``…``c6`` every frame (``CalculateDynamicFilters``)."""
    in1, in2, out1, out2 = props[s + 1], props[s + 2], props[s + 3], props[s + 4]
    if settle:
        if kind == FILTER_LAG:
            y = x
        elif kind == FILTER_WASHOUT:
            y = 0.0
        elif kind == FILTER_LEAD_LAG:
            y = x * c2 / c4 if c4 != 0.0 else out1
        else:
            y = x * c3 / c6 if c6 != 0.0 else out1
        in1 = in2 = x
        out1 = out2 = y
    elif props[s] == 0.0:
        y = x = in1
        in2 = out1 = out2 = y
    elif kind == FILTER_LAG:
        denom = 2.0 + dt * c1
        y = (x + in1) * (dt * c1 / denom) + out1 * ((2.0 - dt * c1) / denom)
    elif kind == FILTER_LEAD_LAG:
        denom = 2.0 * c3 + dt * c4
        y = x * ((2.0 * c1 + dt * c2) / denom) + in1 * ((dt * c2 - 2.0 * c1) / denom) \
            + out1 * ((2.0 * c3 - dt * c4) / denom)
    elif kind == FILTER_ORDER2:
        denom = 4.0 * c4 + 2.0 * c5 * dt + c6 * dt * dt
        y = (x * ((4.0 * c1 + 2.0 * c2 * dt + c3 * dt * dt) / denom)
             + in1 * ((2.0 * c3 * dt * dt - 8.0 * c1) / denom)
             + in2 * ((4.0 * c1 - 2.0 * c2 * dt + c3 * dt * dt) / denom)
             - out1 * ((2.0 * c6 * dt * dt - 8.0 * c4) / denom)
             - out2 * ((4.0 * c4 - 2.0 * c5 * dt + c6 * dt * dt) / denom))
    else:
        denom = 2.0 + dt * c1
        ca = 2.0 / denom
        y = x * ca - in1 * ca + out1 * ((2.0 - dt * c1) / denom)
    props[s] = 1.0
    props[s + 2], props[s + 1] = in1, x
    props[s + 4], props[s + 3] = out1, y
    return y


@borrowing_jit
def _pid(props, s, int_type, standard, has_pvdot, x, kp, ki, kd, pvdot, trigger, dt, settle):
    """FGPID::Run (``<integrator>`` is a PID with ``ki`` = its ``c1``), its state at ``props[s:s + 3]``: the last
    two inputs and the integral.  A ``trigger`` not 0 holds the integral, a negative one zeroes it."""
    in1, total = props[s], props[s + 2]
    if settle:
        dval = pvdot if has_pvdot else 0.0
        props[s] = props[s + 1] = x
    else:
        dval = pvdot if has_pvdot else (x - in1) / dt
        delta = 0.0
        if abs(trigger) < 0.000001:
            if int_type == INT_RECT:
                delta = x
            elif int_type == INT_TRAP:
                delta = 0.5 * (x + in1)
            elif int_type == INT_AB2:
                delta = 1.5 * x - 0.5 * in1
            elif int_type == INT_AB3:
                delta = (23.0 * x - 16.0 * in1 + 5.0 * props[s + 1]) / 12.0
        if trigger < 0.0:
            total = 0.0
        total += ki * dt * delta
        props[s + 2] = total
        props[s + 1] = 0.0 if trigger < 0.0 else in1
        props[s] = x
    if standard:
        return kp * (x + total + kd * dval)
    return kp * x + total + kd * dval


@borrowing_jit
def _actuator(props, s, x, lag, rate_up, rate_down, deadband, hysteresis, bias, dt, settle):
    """FGActuator::Run without failures, before its delay and clip; its state at ``props[s:s + 5]``: initialised,
    the hysteresis's and the rate limit's last outputs, the lag's last input and output.  A lag or a rate limit
    that is NaN is absent.  Settling (JSBSim's trim status) passes the input through and restarts from it."""
    live = props[s] != 0.0 and not settle
    y = x
    if not math.isnan(lag):
        if live:
            denom = 2.00 + dt * lag
            y = (dt * lag / denom) * (x + props[s + 3]) + props[s + 4] * ((2.00 - dt * lag) / denom)
        props[s + 3], props[s + 4] = x, y
    if not (math.isnan(rate_up) and math.isnan(rate_down)):
        if live:
            last = props[s + 2]
            delta = y - last
            if not math.isnan(rate_up) and delta > dt * rate_up:
                y = last + rate_up * dt
            if not math.isnan(rate_down) and delta < dt * -rate_down:
                y = last + -rate_down * dt
        props[s + 2] = y
    if deadband != 0.0:
        y = _deadband(y, deadband, 1.0)
    if hysteresis != 0.0:
        if live:
            last = props[s + 1]
            if y > last:
                y = max(last, y - 0.5 * hysteresis)
            elif y < last:
                y = min(last, y + 0.5 * hysteresis)
        props[s + 1] = y
    if bias != 0.0:
        y += bias
    props[s] = 1.0
    return y


@borrowing_jit
def _deadband(x, width, gain):
    """FGDeadBand (and an actuator's deadband, gain 1): 0 within ``width`` of zero, else ``x`` moved ``width``/2
    toward zero, times ``gain``."""
    half = 0.5 * width
    if x < -half:
        return (x + half) * gain
    if x > half:
        return (x - half) * gain
    return 0.0


@borrowing_jit
def _sensor(props, s, x, lag, drift_rate, gain, bias, dt, settle):
    """FGSensor's lag, drift, gain and bias (no noise: see the fcs module), before its delay, quantization and
    clip; its state at ``props[s:s + 3]``: the lag's last input and output, the drift so far."""
    y = x
    if lag != 0.0:
        if not settle:
            denom = 2.00 + dt * lag
            y = (dt * lag / denom) * (y + props[s]) + props[s + 1] * ((2.00 - dt * lag) / denom)
        props[s + 1], props[s] = y, x
    if drift_rate != 0.0:
        if not settle:
            props[s + 2] += drift_rate * dt
        y += props[s + 2]
    if gain != 0.0:
        y *= gain
    if bias != 0.0:
        y += bias
    return y


@borrowing_jit
def _quantize(x, lo, hi, granularity):
    """FGSensor::Quantize: clamped to [lo, hi], then down to a whole number of steps above ``lo``."""
    if x < lo:
        x = lo
    if x > hi:
        x = hi
    return float(int((x - lo) / granularity)) * granularity + lo


@borrowing_jit
def _delay(props, s, x, frames, settle):
    """FGFCSComponent::Delay over ``frames`` frames (0: none), its ring at ``props[s + 1:]`` and its position at
    ``props[s]``; settling fills the ring with ``x``."""
    n = int(frames)
    if n <= 0:
        return x
    if settle:
        for k in range(n):
            props[s + 1 + k] = x
        return x
    i = int(props[s]) % n
    props[s + 1 + i] = x
    i = 0 if i == n - 1 else i + 1
    props[s] = i
    return props[s + 1 + i]


@borrowing_jit
def _angle(source, target, unit):
    """FGAngles: the signed angle from ``source`` to ``target`` (rad), times ``unit``."""
    x1, y1 = math.cos(source), math.sin(source)
    x2, y2 = math.cos(target), math.sin(target)
    a = math.acos(max(-1.0, min(x1 * x2 + y1 * y2, 1.0)))
    return a * unit if x1 * y2 >= x2 * y1 else -a * unit



@borrowing_jit
def geodesic(lat1, lon1, lat2, lon2, a, f):
    """The geodesic from (lat1, lon1) to (lat2, lon2) (rad) on the ellipsoid of semi-major axis ``a`` and
    flattening ``f``: its length (``a``'s unit) and its azimuth at the start (rad, clockwise from North, in
    (−π, π]).  Vincenty's inverse formula (1975), iterated to 1e-13 rad: within 1e-8 of GeographicLib's (what
    JSBSim's ``FGLocation::GetDistanceTo``/``GetHeadingTo`` call) over an aircraft's ranges; (0, 0) when the
    points coincide."""
    b = a * (1.0 - f)
    u1 = math.atan((1.0 - f) * math.tan(lat1))
    u2 = math.atan((1.0 - f) * math.tan(lat2))
    su1, cu1, su2, cu2 = math.sin(u1), math.cos(u1), math.sin(u2), math.cos(u2)
    big_l = lon2 - lon1
    lam = big_l
    sin_s = cos_s = sigma = cos2a = cos2sm = 0.0
    for _ in range(200):
        sl, cl = math.sin(lam), math.cos(lam)
        sin_s = math.sqrt((cu2 * sl) ** 2 + (cu1 * su2 - su1 * cu2 * cl) ** 2)
        if sin_s == 0.0:
            return 0.0, 0.0
        cos_s = su1 * su2 + cu1 * cu2 * cl
        sigma = math.atan2(sin_s, cos_s)
        sin_a = cu1 * cu2 * sl / sin_s
        cos2a = 1.0 - sin_a * sin_a
        cos2sm = cos_s - 2.0 * su1 * su2 / cos2a if cos2a != 0.0 else 0.0
        c = f / 16.0 * cos2a * (4.0 + f * (4.0 - 3.0 * cos2a))
        last = lam
        lam = big_l + (1.0 - c) * f * sin_a * (
            sigma + c * sin_s * (cos2sm + c * cos_s * (-1.0 + 2.0 * cos2sm * cos2sm)))
        if abs(lam - last) < 1e-13:
            break
    uu = cos2a * (a * a - b * b) / (b * b)
    big_a = 1.0 + uu / 16384.0 * (4096.0 + uu * (-768.0 + uu * (320.0 - 175.0 * uu)))
    big_b = uu / 1024.0 * (256.0 + uu * (-128.0 + uu * (74.0 - 47.0 * uu)))
    d_sigma = big_b * sin_s * (cos2sm + big_b / 4.0 * (cos_s * (-1.0 + 2.0 * cos2sm * cos2sm) - big_b / 6.0 * cos2sm
                                                      * (-3.0 + 4.0 * sin_s * sin_s) * (-3.0 + 4.0 * cos2sm * cos2sm)))
    sl, cl = math.sin(lam), math.cos(lam)
    return b * big_a * (sigma - d_sigma), math.atan2(cu2 * sl, cu1 * su2 - su1 * cu2 * cl)


@borrowing_jit
def _waypoint(distance, lat1, lon1, lat2, lon2, unit, a, f):
    """FGWaypoint: the heading (``distance`` 0; rad, times ``unit``) or the distance (ft, times ``unit``) from
    the source to the target, on the planet's ellipsoid."""
    s, azimuth = geodesic(lat1, lon1, lat2, lon2, a, f)
    return (s if distance else azimuth) * unit


@borrowing_jit
def run(code, constants, tables, table_data, props, stack):
    """Execute a :class:`Program` on the property array ``props`` (its STOREs write it).

    Returns
    -------
    int
        0; or 1 + the number of an instruction it does not know (a program built elsewhere).
    """
    sp = 0
    for pc in range(code.shape[0]):
        op = code[pc, 0]
        arg = code[pc, 1]
        if op == OP_PROP:
            stack[sp] = props[arg]
            sp += 1
        elif op == OP_CONST:
            stack[sp] = constants[arg]
            sp += 1
        elif op == OP_PRODUCT:
            acc = 1.0
            for k in range(sp - arg, sp):
                acc *= stack[k]
            sp -= arg
            stack[sp] = acc
            sp += 1
        elif op == OP_STORE:
            sp -= 1
            props[arg] = stack[sp]
        elif op == OP_TABLE:
            dims = tables[arg, T_DIMS]
            k0 = stack[sp - dims]
            k1 = stack[sp - dims + 1] if dims > 1 else 0.0
            k2 = stack[sp - 1] if dims > 2 else 0.0
            sp -= dims
            stack[sp] = _lookup(tables, table_data, arg, k0, k1, k2)
            sp += 1
        elif op == OP_SUM or op == OP_AVG:
            acc = 0.0
            for k in range(sp - arg, sp):
                acc += stack[k]
            sp -= arg
            stack[sp] = acc / arg if op == OP_AVG else acc
            sp += 1
        elif op == OP_DIFFERENCE:
            acc = stack[sp - arg]
            for k in range(sp - arg + 1, sp):
                acc -= stack[k]
            sp -= arg
            stack[sp] = acc
            sp += 1
        elif op == OP_MIN or op == OP_MAX:
            acc = math.inf if op == OP_MIN else -math.inf
            for k in range(sp - arg, sp):
                acc = _min_step(acc, stack[k]) if op == OP_MIN else _max_step(acc, stack[k])
            sp -= arg
            stack[sp] = acc
            sp += 1
        elif op == OP_AND or op == OP_OR:
            acc = 1.0 if op == OP_AND else 0.0
            for k in range(sp - arg, sp):
                acc = _and_step(acc, stack[k]) if op == OP_AND else _or_step(acc, stack[k])
            sp -= arg
            stack[sp] = acc
            sp += 1
        elif op == OP_NEG:
            stack[sp - 1] = -stack[sp - 1]
        elif op == OP_DUP:
            stack[sp] = stack[sp - 1]
            sp += 1
        elif op == OP_CLIP or op == OP_CYCLIC_CLIP:
            sp -= 2
            stack[sp - 1] = _clip(stack[sp - 1], stack[sp], stack[sp + 1], op == OP_CYCLIC_CLIP)
        elif op == OP_SCALE:
            stack[sp - 1] = _aerosurface_scale(stack[sp - 1], constants[arg], constants[arg + 1], constants[arg + 2],
                                               constants[arg + 3], constants[arg + 4] != 0.0)
        elif op == OP_KINEMATIC:
            sp -= 3
            stack[sp - 1] = _kinematic(table_data, tables[arg, T_ROW_KEYS], tables[arg, T_VALUES], tables[arg, T_ROWS],
                                       tables[arg, T_COLS] != 0, stack[sp - 1], stack[sp], stack[sp + 1],
                                       stack[sp + 2] != 0.0)
        elif op == OP_FILTER:
            sp -= 9
            b = sp - 1
            stack[b] = _filter(props, arg, stack[b], stack[b + 1], stack[b + 2], stack[b + 3], stack[b + 4],
                               stack[b + 5], stack[b + 6], stack[b + 7], stack[b + 8], stack[b + 9] != 0.0)
        elif op == OP_PID:
            sp -= 10
            b = sp - 1
            stack[b] = _pid(props, arg, stack[b], stack[b + 1] != 0.0, stack[b + 2] != 0.0, stack[b + 3],
                            stack[b + 4], stack[b + 5], stack[b + 6], stack[b + 7], stack[b + 8], stack[b + 9],
                            stack[b + 10] != 0.0)
        elif op == OP_ACTUATOR:
            sp -= 8
            b = sp - 1
            stack[b] = _actuator(props, arg, stack[b], stack[b + 1], stack[b + 2], stack[b + 3], stack[b + 4],
                                 stack[b + 5], stack[b + 6], stack[b + 7], stack[b + 8] != 0.0)
        elif op == OP_DEADBAND:
            sp -= 2
            stack[sp - 1] = _deadband(stack[sp - 1], stack[sp], stack[sp + 1])
        elif op == OP_SENSOR:
            sp -= 6
            b = sp - 1
            stack[b] = _sensor(props, arg, stack[b], stack[b + 1], stack[b + 2], stack[b + 3], stack[b + 4],
                               stack[b + 5], stack[b + 6] != 0.0)
        elif op == OP_QUANTIZE:
            sp -= 3
            stack[sp - 1] = _quantize(stack[sp - 1], stack[sp], stack[sp + 1], stack[sp + 2])
        elif op == OP_DELAY:
            sp -= 2
            stack[sp - 1] = _delay(props, arg, stack[sp - 1], stack[sp], stack[sp + 1] != 0.0)
        elif op == OP_NOISE:
            sp -= 5
            b = sp - 1
            stack[b] = noise(props, arg, stack[b], stack[b + 1], stack[b + 2] != 0.0, stack[b + 3] != 0.0,
                             stack[b + 4], stack[b + 5] != 0.0)
        elif op == OP_ACCELEROMETER:
            sp -= 14
            b = sp - 1
            stack[b] = accelerometer(stack[b], stack[b + 1], stack[b + 2], stack[b + 3], stack[b + 4], stack[b + 5],
                                     stack[b + 6], stack[b + 7], stack[b + 8], stack[b + 9], stack[b + 10],
                                     stack[b + 11], stack[b + 12], stack[b + 13], stack[b + 14])
        elif op == OP_MAGNETOMETER:
            sp -= 10
            b = sp - 1
            stack[b] = magnetometer(props, arg, stack[b], stack[b + 1], stack[b + 2], stack[b + 3], stack[b + 4],
                                    stack[b + 5], stack[b + 6], stack[b + 7], stack[b + 8], stack[b + 9],
                                    stack[b + 10] != 0.0)
        elif op == OP_ANGLE:
            sp -= 2
            stack[sp - 1] = _angle(stack[sp - 1], stack[sp], stack[sp + 1])
        elif op == OP_WAYPOINT:
            sp -= 7
            b = sp - 1
            stack[b] = _waypoint(stack[b] != 0.0, stack[b + 1], stack[b + 2], stack[b + 3], stack[b + 4],
                                 stack[b + 5], stack[b + 6], stack[b + 7])
        elif op >= OP_QUOTIENT and op <= OP_POW or op == OP_ATAN2 or (op >= OP_LT and op <= OP_NQ):
            sp -= 1
            stack[sp - 1] = _binary_op(op, stack[sp - 1], stack[sp])
        elif op == OP_IFTHEN:
            sp -= 3
            stack[sp] = _ifthen(stack[sp], stack[sp + 1], stack[sp + 2])
            sp += 1
        elif op >= OP_ABS and op <= OP_FRACTION or op == OP_NOT:      # (atan2 was taken above)
            stack[sp - 1] = _unary_op(op, stack[sp - 1])
        else:
            return pc + 1
    return 0

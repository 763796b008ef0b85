"""Many airplanes at once: N airplanes of one aircraft file stepped together in one compiled call.

:class:`BatchSimulation` holds N states ``[x, v, q, ω]`` (an ``(N, 13)``
array), N sets of controls and N winds, and advances all of them with one
compiled call per physics step (or per run of steps): a numba ``prange``
over the airplanes, each airplane running exactly the step of
:class:`~flightsim.simulation.flight.Simulation` — the integrator chosen
by name from :data:`flightsim.physics.integrators.INTEGRATORS` (through its
compiled dispatch, so every registered integrator is available), the same
loads (:func:`flightsim.physics.aero.airplane_loads`, gear included), the
same ground and crash checks, the same wind and Dryden turbulence
(:class:`flightsim.physics.batch_wind.BatchWind`, one seed per airplane).

Per airplane, as one :class:`Simulation` does:

1. the integrator advances the state by ``dt`` with the airplane's controls
   (set through the one controls boundary, :func:`flightsim.simulation.controls.flown`)
   and wind;
2. a diverged state stops that airplane (its last finite state kept; the
   message from :mod:`flightsim.physics.divergence`, as the single flight's);
3. the ground (:func:`flightsim.physics.ground.ground_after_step`, the single
   flight's very code): which wheels carry load, and a crash (touchdown faster than
   the file's ``crash_sink_rate``, a hard point, a leg past its travel),
   which stops it, put at rest where the contact happened
   (:func:`flightsim.physics.ground.crash`);
4. its wind is sampled for the next step.

Airplanes engaged on the autopilot (:attr:`BatchSimulation.autopilot`, a
:class:`~flightsim.simulation.autopilot.BatchAutopilot`) have their controls
set by it before every physics step, as :class:`Simulation` does.

A stopped airplane stays stopped (``status`` says why, as
:attr:`Simulation.status` would) until it is reset; the others go on.  One
airplane of the batch flies the single :class:`Simulation`'s flight to
rounding (``tests/test_batch.py``).

The loads' parameters (:class:`flightsim.physics.aero.LoadParams`) are
shared by all the airplanes except the fields written during a flight
(:data:`PER_AIRPLANE`: controls, wind, the loads' diagnostics, the brakes'
anchors, a JSBSim aircraft's property array, stack and held thrust, a round
planet's packed array with its scratch view) and the airplane's loading (its
mass, and the elements' and contact points' positions relative to its CG, with
the gear's reach), which get one row per airplane.

A campaign's dispersions give airplanes their own wind and loading before they
fly: :meth:`BatchSimulation.set_wind` (steady speed, direction, turbulence level
and seed: per-airplane rows of the wind's constants) and
:meth:`BatchSimulation.set_loading` (weight and CG, as
:func:`flightsim.physics.aircraft.with_loading` loads an aircraft).  Such an
airplane flies as a single :class:`Simulation` with that wind and that aircraft
does (``tests/test_batch.py``).

On a round planet (``planet="round"``, a JSBSim aircraft's default, as
:class:`Simulation`'s) each airplane's Earth-centred inertial state is
integrated (:func:`batch_steps_round`) and :attr:`BatchSimulation.states` holds
its flat view, which everything else reads as on a flat planet.  The compiled kernel builds each
airplane's ``LoadParams`` from the named tuple's own field list, so fields
added to it later (a propeller's tables) are shared with no change here.
"""

import math  # noqa: F401 (the kernels generated below use it)
import textwrap

import numpy as np
from numba import njit, prange, types  # noqa: F401 (prange: the kernels generated below)
from numba.extending import overload

from flightsim.math import quat
from flightsim.math.compiler import ERROR_MODEL, compile_source, entry_jit, jit
from flightsim.physics import aero, divergence, integrators
from flightsim.physics import planet as planets

# LoadParams, airplane_loads, ground_contact and ground_after_step are used by the kernels generated below
from flightsim.physics.aero import LoadParams, airplane_loads  # noqa: F401
from flightsim.physics.aircraft import atmosphere_of
from flightsim.physics.batch_wind import BLOCK, STATE_WIDTH, BatchWind, sample_one  # noqa: F401 (the kernel samples)
from flightsim.physics.ground import (  # noqa: F401
    GROUND_CRASH,
    GROUND_SINK_CRASH,
    GearLimits,
    crash,
    ground_after_step,
    ground_contact,
)
from flightsim.physics.lanes import EL_SIZE, LANES, W_SIZE, lane_step, lanes_apply, lanes_setup, rk4_lanes  # noqa: F401
from flightsim.physics.planet import to_view_after  # noqa: F401 (the round planet's kernel)
from flightsim.physics.rigidbody import check_dt
from flightsim.physics.steps import STATE_SIZE, step_by_number_inline  # noqa: F401 (the kernel steps)
from flightsim.physics.terrain import resolve_terrain
from flightsim.physics.wind import wingspan_of
from flightsim.simulation.autopilot import BatchAutopilot
from flightsim.simulation.controls import CONTROL_NAMES, flown, flown_row
from flightsim.simulation.failures import KINDS, BatchFailures, engine_switches
from flightsim.simulation.flight import DEFAULT_DT, ground_for, resolve_aircraft
from flightsim.simulation.gauges import BatchGauges
from flightsim.simulation.starts import file_start

#: The :class:`~flightsim.physics.aero.LoadParams` fields written during a flight: one row per airplane.
#: Every other field is read only and shared.  (A round planet's packed array is written too: it holds the
#: scratch view the loads read; the engine's, the gear's and a JSBSim aircraft's contacts' rows are the
#: failures': partial power, rough running, a flat tyre.)  The mass, the elements' and contact points' positions
#: and the gear's reach are each airplane's loading (:meth:`BatchSimulation.set_loading`).
PER_AIRPLANE = ("controls", "diag", "wind", "gear_diag", "gear_anchor", "jsb_props", "jsb_held", "jsb_last", "planet",
                "engine", "gear", "jsb_contacts", "mass", "positions", "gear_positions", "gear_reach")
#: ``status`` codes: flying, stopped by a non-finite state, crashed.
RUNNING, NONFINITE, CRASHED = 0, 1, 2
#: From this many airplanes on, a call steps them on all of numba's threads (fewer: on the calling thread).
PARALLEL_MIN = 64
#: The wind arrays passed when no wind is sampled in flight (never read; the types of :attr:`BatchWind.arrays`).
_NO_WIND = (np.zeros((1, 10)), np.zeros(12), np.zeros((1, 12)), np.zeros((0, 5)), np.zeros((1, STATE_WIDTH)),
            np.zeros((1, 1, 6)), np.zeros(1, dtype=np.int64))
#: ``status`` of an airplane held out of a call to :meth:`BatchSimulation.step`.
HELD = -1
#: Where a batch's steps run (:class:`BatchSimulation`'s ``device``).
DEVICES = ("cpu", "cuda")

parallel_jit = njit(cache=True, fastmath=False, parallel=True, error_model=ERROR_MODEL)


def _row(rows, a):
    """Row ``a`` of a per-airplane field; None for one that is None (the ``jsb_*`` fields of flightsim's own
    aircraft).  Compiled, one or the other by the field's type (:func:`_row_of_type`)."""
    return None if rows is None else rows[a]


@overload(_row, inline="always")
def _row_of_type(rows, a):
    if isinstance(rows, types.NoneType):
        return lambda rows, a: None
    return lambda rows, a: rows[a]


def _fields_expression(fields, own, index, view=False):
    """Source of ``LoadParams(...)`` with each shared field from ``fields[i]`` and each own one from
    ``own[j][index]``; ``view``: the parameters that read the state's flat view (the planet None: the ground,
    the loads asked for from outside), as :class:`~flightsim.simulation.flight.Simulation`'s ``_view_fields``."""
    args = []
    for i, name in enumerate(LoadParams._fields):
        if view and name == "planet":
            args.append("None")
        elif name in PER_AIRPLANE:
            args.append(f"_row({own}[{PER_AIRPLANE.index(name)}], {index})")
        else:
            args.append(f"{fields}[{i}]")
    return f"LoadParams({', '.join(args)})"


#: One airplane's ``steps`` physics steps on a flat planet (airplane ``a``, its ``params``; ``STEP`` the step
#: dispatch): the body of the CPU's kernel (:func:`batch_steps`, in a ``prange`` over the airplanes) and of the
#: GPU's (:mod:`flightsim.simulation.batch_cuda`, one thread an airplane), written once for both.
AIRPLANE_STEPS = '''
y = Y[a]
prev = P[a]
for k in range(steps):
    for i in range(STATE_SIZE):
        prev[i] = y[i]
    aero.step_start(T[a], y, h, params)
    err = STEP(number, y, T[a], h, params, inertia, inertia_inv, renorm, increment_id)
    if not math.isfinite(err):
        for i in range(STATE_SIZE):
            D[a, i] = y[i]
            y[i] = prev[i]
        status[a] = NONFINITE
        break
    T[a] += h
    qerr[a] = err
    code = ground_after_step(y, prev, T[a], params, wheels_down, on_ground, a, travel, wheels_only, sink_rate)
    if code != 0:
        status[a] = CRASHED + code - GROUND_CRASH
        break
    if wind_on:
        sample_one(a, T[a], y, h, params.wind, consts[a], poe_alt, poe_sig[a], gusts, wind_state, noise, drawn)
'''


def airplane_steps(step, indent, steps="steps", first=""):
    """:data:`AIRPLANE_STEPS` with the step dispatch ``step``, indented by ``indent``; ``steps``: the expression
    of the number of steps; ``first``: arguments the step takes before the usual ones."""
    source = AIRPLANE_STEPS.replace("STEP(", f"{step}({first}").replace("range(steps)", f"range({steps})")
    return textwrap.indent(source.strip("\n"), indent) + "\n"


_KERNEL = f'''
def batch_steps(number, Y, P, D, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id,
                status, qerr, wheels_down, on_ground, travel, wheels_only, sink_rate,
                wind_on, consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn):
    """``steps`` physics steps of every running airplane (``status == RUNNING``), in parallel over airplanes.

    After each step the airplane's wind for the next one is sampled when ``wind_on``
    (:func:`flightsim.physics.batch_wind.sample_one`).  A step that diverges leaves the state it made in
    ``D[a]`` (for the message) and the airplane on its last finite state.
    """
    for a in prange(Y.shape[0]):
        if status[a] != RUNNING:
            continue
        params = {_fields_expression("fields", "own", "a")}
{airplane_steps("step_by_number_inline", "        ")}'''
_ROUND_AIRPLANE = f'''
def fly_round(a, number, E, PE, Y, P, D, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id,
              status, qerr, wheels_down, on_ground, travel, wheels_only, sink_rate,
              wind_on, consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn):
    """``steps`` physics steps of the running airplane ``a`` on a round planet (:func:`batch_steps_round`)."""
    params = {_fields_expression("fields", "own", "a")}
    view_params = {_fields_expression("fields", "own", "a", view=True)}
    planet = params.planet
    e = E[a]
    prev_e = PE[a]
    y = Y[a]
    prev = P[a]
    for k in range(steps):
        prev_e[:] = e
        prev[:] = y
        aero.step_start(T[a], e, h, params)
        err = step_by_number_inline(number, e, T[a], h, params, inertia, inertia_inv, renorm, increment_id)
        if not math.isfinite(err):
            D[a, :] = e
            e[:] = prev_e
            status[a] = NONFINITE
            return
        T[a] += h
        qerr[a] = err
        to_view_after(T[a], e, planet, y, prev)
        code = ground_after_step(y, prev, T[a], view_params, wheels_down, on_ground, a, travel, wheels_only,
                                 sink_rate)
        if code != 0:
            status[a] = CRASHED + code - GROUND_CRASH
            return
        if wind_on:
            sample_one(a, T[a], y, h, params.wind, consts[a], poe_alt, poe_sig[a], gusts, wind_state, noise,
                           drawn)
'''
#: One airplane's steps on a round planet: a function of its own, which the parallel loop calls (written in the
#: loop's body, the same code ran at half the speed: numba's parallel lowering of it).
fly_round = compile_source("fly_round", _ROUND_AIRPLANE, jit)

_ROUND_KERNEL = '''
def batch_steps_round(number, E, PE, Y, P, D, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id,
                      status, qerr, wheels_down, on_ground, travel, wheels_only, sink_rate,
                      wind_on, consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn):
    """:func:`batch_steps` on a round planet: the integrator advances each airplane's Earth-centred inertial
    state ``E[a]`` (the one before in ``PE[a]``), and after each step ``Y[a]`` becomes its view
    (:func:`flightsim.physics.planet.to_view_after`: its quaternion on the hemisphere of the view before,
    ``P[a]``), which the ground check and the wind read, as :class:`~flightsim.simulation.flight.Simulation` does.

    A step that diverges leaves the inertial state it made in ``D[a]`` and the airplane on its last finite state.
    """
    for a in prange(E.shape[0]):
        if status[a] != RUNNING:
            continue
        fly_round(a, number, E, PE, Y, P, D, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id,
                  status, qerr, wheels_down, on_ground, travel, wheels_only, sink_rate,
                  wind_on, consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn)
'''
batch_steps_round = compile_source("batch_steps_round", _ROUND_KERNEL, parallel_jit)
#: The round planet's kernel run on the calling thread.
batch_steps_round_serial = compile_source("batch_steps_round", _ROUND_KERNEL, entry_jit)

#: Status of an airplane that crashed on touching down too fast, before it is reported.
_SINK_CRASH = CRASHED + GROUND_SINK_CRASH - GROUND_CRASH

batch_steps = compile_source("batch_steps", _KERNEL, parallel_jit)
#: The same kernel run on the calling thread: for few airplanes, where starting the threads costs more than it saves.
batch_steps_serial = compile_source("batch_steps", _KERNEL, entry_jit)

def _field(name):
    """Where the kernels' tuples hold field ``name``: ``own[i]`` for a per-airplane one, ``fields[i]`` else."""
    if name in PER_AIRPLANE:
        return f"own[{PER_AIRPLANE.index(name)}]"
    return f"fields[{LoadParams._fields.index(name)}]"


_SETUP_ARGS = ", ".join(_field(name) for name in (
    "elements", "element_refs", "normals", "max_thrust", "controls", "engine", "mass", "positions", "gear_reach"))
_LANES_ARGS = ", ".join(_field(name) for name in (
    "elements", "element_refs", "table_alpha", "table_values", "table_size", "table_kind", "table_outside",
    "air_density", "gravity", "ground_effect", "diag", "wind", "gear_diag"))
_LANES_KERNEL = f'''
def batch_steps_lanes(number, Y, P, D, T, h, steps, fields, own, inertia, inertia_inv, renorm, increment_id,
                      status, qerr, wheels_down, on_ground, travel, wheels_only, sink_rate,
                      wind_on, consts, poe_alt, poe_sig, gusts, wind_state, noise, drawn):
    """:func:`batch_steps` with the airplanes side by side in SIMD lanes: blocks of :data:`LANES` consecutive
    airplanes, in parallel over the blocks, each step of a block by :func:`flightsim.physics.lanes.rk4_lanes`
    where it models all of them (all running; none near the ground, none with a state not finite), else each
    airplane's scalar step; after it, each airplane's divergence and ground checks and its wind, as
    :func:`batch_steps`.  Only for the batches :func:`flightsim.physics.lanes.lanes_apply` accepts (``rk4``)."""
    n = Y.shape[0]
    has_gear = {_field("gear_positions")}.shape[1] > 0
    for b in prange((n + LANES - 1) // LANES):
        W = np.empty(W_SIZE)
        EL = np.empty((max({_field("elements")}.shape[0], 1), EL_SIZE))
        a0 = b * LANES
        if a0 + LANES <= n:
            lanes_setup(a0, W, EL, {_SETUP_ARGS})
        for s in range(steps):
            lanes = a0 + LANES <= n
            if lanes:
                for j in range(LANES):
                    if status[a0 + j] != RUNNING:
                        lanes = False
            if lanes:
                lanes = rk4_lanes(Y, a0, W, EL, h, renorm, inertia, inertia_inv, {_LANES_ARGS}, has_gear)
            for j in range(LANES):
                a = a0 + j
                if a >= n or status[a] != RUNNING:
                    continue
                params = {_fields_expression("fields", "own", "a")}
{airplane_steps("lane_step", "                ", steps="1", first="lanes, W, j, ")}'''
#: The kernel of :func:`batch_steps`'s batches that :func:`flightsim.physics.lanes.lanes_apply` accepts, many
#: airplanes at once in SIMD lanes (:mod:`flightsim.physics.lanes`); the same states bit for bit.
batch_steps_lanes = compile_source("batch_steps_lanes", _LANES_KERNEL, parallel_jit)

_CONTACT = f'''
def batch_contact(Y, T, fields, own, travel, index, wheels_down, on_ground):
    """The ground contact of the airplanes ``index`` at their states (their anchors reset): no crash check."""
    for i in range(index.shape[0]):
        a = index[i]
        params = {_fields_expression("fields", "own", "a", view=True)}
        params.gear_anchor[:] = 0.0
        touching, loaded, _ = ground_contact(T[a], Y[a], params, travel)
        wheels_down[a] = touching
        on_ground[a] = loaded
'''
#: On the calling thread, however many airplanes: a reset's contact costs about 2 µs an airplane, and a parallel
#: kernel over the loads' ground contact took numba minutes to compile for JSBSim's aircraft (66 s flat, 230 s round
#: for the c172p, cold, on 2 cores) for a saving of under a microsecond an airplane per reset.
batch_contact = compile_source("batch_contact", _CONTACT, entry_jit)

_LOADS = f'''
def batch_loads(Y, T, fields, own, out):
    """The loads ``(ax, ay, az, mx, my, mz)`` of every airplane at its state (the view on a round planet) into
    ``out`` (N, 6)."""
    for a in prange(Y.shape[0]):
        params = {_fields_expression("fields", "own", "a", view=True)}
        out[a, 0], out[a, 1], out[a, 2], out[a, 3], out[a, 4], out[a, 5] = airplane_loads(T[a], Y[a], params)
'''
batch_loads = compile_source("batch_loads", _LOADS, parallel_jit)


def _rows(controls, m):
    """``controls`` as ``m`` rows (of the full width, or an earlier one: :func:`~flightsim.simulation.controls.flown`
    completes them)."""
    if not m:
        return np.zeros((0, len(CONTROL_NAMES)))
    return np.asarray(controls, dtype=np.float64).reshape(m, -1)


class BatchSimulation:
    """N airplanes of one aircraft file, each with its own state, controls, wind and status.

    Parameters
    ----------
    n : int
        Number of airplanes (≥ 1).
    aircraft : None, str, Path or Aircraft
        None: the book's airplane.
    integrator : str
        A name in :data:`flightsim.physics.integrators.INTEGRATORS` (all airplanes).
    dt : float
        Physics step, s.
    atmosphere : {"constant", "isa"} or None
        None (the default): the aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).
    renormalize : bool
        Renormalise q after every step.
    start : flightsim.simulation.starts.Start or str, optional
        Where every airplane starts (default: the file's initial state), or a start's kind
        (:data:`flightsim.simulation.starts.START_KINDS`: made by :func:`~flightsim.simulation.starts.make_start`
        for this batch's planet, atmosphere and wind, at ``airfield``, ``runway``); any airplane may be put
        elsewhere with :meth:`set_states`.
    wind : flightsim.physics.wind.WindSpec, optional
        The wind of every airplane; its turbulence runs with one seed per
        airplane (``seeds``).
    seeds : sequence of int, optional
        The turbulence seed of each airplane (default ``wind.seed + k``).
    planet : None, "flat", "round" or flightsim.physics.planet.Planet
        The planet every airplane flies on, as :class:`~flightsim.simulation.flight.Simulation`'s
        (:func:`flightsim.physics.planet.resolve`; None: flat for flightsim's own aircraft, round for a
        JSBSim aircraft).
    lat, lon : float, optional
        Latitude and longitude (deg) of the earth frame's origin (default
        :data:`~flightsim.physics.planet.DEFAULT_LAT`, :data:`~flightsim.physics.planet.DEFAULT_LON`).
    terrain : None, "world", "off" or flightsim.physics.terrain.Terrain
        The ground, as :class:`~flightsim.simulation.flight.Simulation`'s (None: the plane z = 0); shared by
        every airplane (a read-only field of the loads' parameters).
    airfield, runway : str, optional
        With ``start="runway"`` or ``"approach"``: the runway end (an airfield's identifier and one of its ends,
        :func:`flightsim.simulation.world.runway_end`; default the home runway 36).
    failures : iterable of flightsim.simulation.failures.Failure, optional
        One schedule for every airplane (:func:`~flightsim.simulation.failures.read_failures`: every kind), each
        firing on the airplane's own clock and height (:attr:`failures`), as a single flight's do: after a step
        and at a reset; :attr:`controls` are then the pilot's, and the airplanes fly them with the failures in
        force (partial power, rough running and a flat tyre in each airplane's own engine, gear or contact rows);
        :attr:`gauges` read what the instruments show.  Steps are then taken one a call.
    device : {"cpu", "cuda"}
        Where the steps run: numba's threads on the CPU, or one thread per airplane on an NVIDIA GPU
        (:mod:`flightsim.simulation.batch_cuda`: the same compiled physics; numba-cuda, ``pip install
        'flightsim[gpu]'``).  The GPU flies flightsim's own aircraft on a flat planet with the integrators of
        :func:`~flightsim.simulation.batch_cuda.gpu_integrators`; anything else, or no GPU, is refused in one line
        (:class:`~flightsim.simulation.batch_cuda.GpuUnavailable`, a ``ValueError``).

    On a round planet each airplane's integrator advances its Earth-centred inertial state
    (:attr:`inertial`), and :attr:`states` holds each one's flat *view*
    (:func:`flightsim.physics.planet.to_view`, made inside the compiled step after each step): what the
    ground check, the wind, the autopilot and every reader of :attr:`states` see, as on a flat planet.  A
    state set from outside (:meth:`reset`, :meth:`set_states`, a crash put at rest) is a view, turned to the
    inertial state by :func:`flightsim.physics.planet.from_view`.

    Attributes
    ----------
    states : numpy.ndarray
        ``(N, 13)``: ``[x, v, q, ω]`` per airplane (earth ft, ft/s; q body → earth; body rad/s; on a round
        planet the view: x North, y West, z height above the ellipsoid, velocity relative to the Earth, q body
        → local level frame, rates relative to the Earth).  Read it; change it with :meth:`set_states`.
    controls : numpy.ndarray
        ``(N, 7)`` in :data:`flightsim.physics.inputs.INPUTS` order, as the loads read them (write
        with :meth:`set_controls`, which clips).
    times : numpy.ndarray
        ``(N,)`` each airplane's clock, s.
    status : numpy.ndarray
        ``(N,)`` :data:`RUNNING`, :data:`NONFINITE` or :data:`CRASHED`; :attr:`messages` says why.
    on_ground : numpy.ndarray
        ``(N,)`` bool: a wheel carries load.
    autopilot : flightsim.simulation.autopilot.BatchAutopilot
        Engage it on any airplanes (``batch.autopilot.engage(selection, index)``): it sets their controls
        before every physics step.
    """

    def __init__(self, n, aircraft=None, integrator="euler", dt=DEFAULT_DT, atmosphere=None,
                 renormalize=True, start=None, wind=None, seeds=None, planet=None, lat=None, lon=None,
                 airfield=None, runway=None, terrain=None, failures=(), device="cpu"):
        if device not in DEVICES:
            raise ValueError(f"device: one of {', '.join(DEVICES)}, got {device!r}")
        n = int(n)
        if n < 1:
            raise ValueError(f"n: must be ≥ 1 airplane, got {n}")
        self.n = n
        self.aircraft = resolve_aircraft(aircraft)
        atmosphere = atmosphere_of(self.aircraft, atmosphere)
        if isinstance(start, str):
            from flightsim.simulation.starts import make_start

            start = make_start(self.aircraft, start, atmosphere=atmosphere, wind=wind,
                               planet=planet, lat=lat, lon=lon, airfield=airfield, runway=runway)
        elif airfield is not None or runway is not None:
            raise ValueError("start: airfield= and runway= place a start of kind 'runway' or 'approach': give "
                             "start='runway' or start='approach' with them")
        self.start = file_start(self.aircraft) if start is None else start
        self.dt = check_dt(dt)
        self.atmosphere = atmosphere
        self.renormalize = bool(renormalize)
        #: the planet (:class:`~flightsim.physics.planet.Planet`) and the latitude and longitude (deg) of the earth
        #: frame's origin on it
        self.planet = planets.resolve(planet, getattr(self.aircraft, "planet", None),
                                      self.aircraft.jsbsim is not None)
        self.lat = planets.DEFAULT_LAT if lat is None else planets.check_lat(lat)
        self.lon = planets.DEFAULT_LON if lon is None else planets.check_lon(lon)
        #: the ground's terrain (as asked for; the world's for a start above sea level: flight.ground_for), packed
        self.terrain = ground_for(terrain, self.start)
        self._terrain = resolve_terrain(self.terrain)
        params = aero.pack(self.aircraft, atmosphere)._replace(terrain=self._terrain)
        params = params._replace(planet=planets.pack(self.planet, math.radians(self.lat), math.radians(self.lon),
                                                     params.gravity, inertia=self.aircraft.inertia))
        self._fields = tuple(params)
        self._own = tuple(None if getattr(params, name) is None
                          else np.repeat(np.asarray(getattr(params, name))[None], n, axis=0) for name in PER_AIRPLANE)
        #: the file's own loading: the mass (slug) and the elements' and contact points' positions from its CG
        self._file_mass = float(params.mass)
        self._file_positions = (params.positions, params.gear_positions)
        #: the controls the loads read; with failures, the pilot's (:attr:`controls`) with the failures in force
        self._flown = self._own[PER_AIRPLANE.index("controls")]
        #: what goes wrong (:class:`~flightsim.simulation.failures.BatchFailures`), None with no failures
        self.failures = (BatchFailures(n, failures, constant_thrust=not self._fields[LoadParams._fields.index(
            "propeller")] and self.aircraft.jsbsim is None) if failures else None)
        self.controls = self._flown if self.failures is None else self._flown.copy()
        #: what each airplane's instruments show (:class:`~flightsim.simulation.gauges.BatchGauges`: the pitot-static
        #: and vacuum failures' readings), None with no failures (the instruments then show the truth)
        self.gauges = None if self.failures is None else BatchGauges(self.failures)
        if self.failures is not None:
            own = dict(zip(PER_AIRPLANE, self._own, strict=True))
            self.failures.attach(own["engine"], own["gear"], params.gear_refs)
            if self.aircraft.jsbsim is not None:
                self.failures.attach_jsbsim(self.aircraft.jsbsim, own["jsb_props"], own["jsb_contacts"])
        self._wind = self._own[PER_AIRPLANE.index("wind")]
        self._anchors = self._own[PER_AIRPLANE.index("gear_anchor")]
        #: each airplane's packed round planet (its scratch view), None on a flat planet
        self._planets = self._own[PER_AIRPLANE.index("planet")]
        self._inertia = np.ascontiguousarray(self.aircraft.inertia, dtype=np.float64)
        self._inertia_inv = np.ascontiguousarray(self.aircraft.inertia_inv, dtype=np.float64)
        self._gear = GearLimits(self.aircraft)
        self._travel = self._gear.travel
        self.wind_spec = None if wind is None or wind.calm else wind
        seeds = (np.arange(n) + (wind.seed if wind is not None else 0)) if seeds is None else np.asarray(seeds)
        if seeds.shape != (n,):
            raise ValueError(f"seeds: need one per airplane ({n}), got shape {seeds.shape}")
        # (a calm wind given still has its model: set_wind may give airplanes their own)
        self._wind_model = None if wind is None else BatchWind(wind, seeds, wingspan_of(params))
        self.states = np.zeros((n, STATE_SIZE))
        self.previous = np.zeros((n, STATE_SIZE))
        #: on a round planet each airplane's Earth-centred inertial state (and the one before), :attr:`states`
        #: being their views; None on a flat planet
        self._eci = None if self._planets is None else np.zeros((n, STATE_SIZE))
        self._prev_eci = None if self._planets is None else np.zeros((n, STATE_SIZE))
        #: the state a diverged step made, per airplane (for its message)
        self._diverged = np.zeros((n, STATE_SIZE))
        self.times = np.zeros(n)
        self.status = np.zeros(n, dtype=np.int64)
        self.qnorm_error = np.zeros(n)
        self._wheels_down = np.zeros(n, dtype=np.bool_)
        self.on_ground = np.zeros(n, dtype=np.bool_)
        self.messages = [None] * n
        self.steps = 0
        #: where the steps run ("cpu" or "cuda"); on the GPU its kernel and device arrays
        self.device = device
        self._cuda = None
        self._lanes_on = True
        self.set_integrator(integrator)         # (on the GPU, one it runs: refused before its kernel compiles)
        if device == "cuda":
            from flightsim.simulation import batch_cuda

            batch_cuda.check_batch(self.aircraft, self._planets)
            self._cuda = batch_cuda.CudaSteps(self._fields, dict(zip(PER_AIRPLANE, self._own, strict=True)),
                                              self._inertia, self._inertia_inv, self._travel,
                                              self._gear.wheels_only)
        self.autopilot = BatchAutopilot(self)
        self.reset()

    # ------------------------------------------------------------------ integrator

    @property
    def integrator(self):
        """Name of the integrator every airplane flies."""
        return self._integrator.name

    def set_integrator(self, name):
        """Switch every airplane's integrator between two steps (``ValueError`` naming the valid ones)."""
        if self.device == "cuda":
            from flightsim.simulation.batch_cuda import check_integrator

            check_integrator(name)
        self._integrator = integrators.get(name)
        #: whether the SIMD lanes' step models this batch with this integrator (:attr:`lanes`)
        self._lanes_model = self.device == "cpu" and lanes_apply(LoadParams(*self._fields), self._integrator.name)

    @property
    def lanes(self):
        """Whether the CPU steps this batch's airplanes side by side in SIMD lanes (:func:`batch_steps_lanes`:
        the same states, bit for bit, faster): where :func:`flightsim.physics.lanes.lanes_apply` accepts the
        batch (flightsim's own aircraft with thrust and no propeller, constant air density, a flat planet,
        ``rk4``) and its airplanes run on the threads (at least :data:`PARALLEL_MIN`).  Set it False to step
        them one at a time (a comparison, a profile); True again to let the lanes step them where they can."""
        return self._lanes_model and self._lanes_on and self.n >= PARALLEL_MIN

    @lanes.setter
    def lanes(self, on):
        self._lanes_on = bool(on)

    # ------------------------------------------------------------------ state

    def reset(self, index=None, states=None, controls=None, seeds=None):
        """Put airplanes (all, or those in ``index``) back at the start, or at ``states``, clocks at 0.

        Parameters
        ----------
        index : array_like of int or bool mask, optional
            Which airplanes (default: all).
        states : numpy.ndarray, optional
            ``(len(index), 13)`` states to start from instead of the start's.
        controls : numpy.ndarray, optional
            ``(len(index), 7)`` controls rows (default: the start's controls, trim included).
        seeds : array_like of int, optional
            New turbulence seeds for these airplanes (default: their own again).
        """
        index = self.airplanes(index)
        m = index.shape[0]
        self.autopilot.reset(index)
        y = np.broadcast_to(self.start.state, (m, 13)) if states is None else np.asarray(states, dtype=np.float64)
        if y.shape != (m, 13) or not np.all(np.isfinite(y)):
            raise ValueError(f"states: need ({m}, 13) finite numbers, got shape {y.shape}")
        divergence.check_state(y, "states")
        self.states[index] = y
        q = self.states[index, 6:10]
        self.states[index, 6:10] = q / np.linalg.norm(q, axis=1)[:, None]
        self.previous[index] = self.states[index]
        self.times[index] = 0.0
        self._to_eci(index)
        self.status[index] = RUNNING
        self.qnorm_error[index] = 0.0
        for a in index.tolist():
            self.messages[a] = None
        self.controls[index] = (flown_row(self.start.controls) if controls is None
                                else flown(_rows(controls, m)))
        if self._cuda is not None:
            self._cuda.stale()
        if self.failures is not None:
            self.failures.reset(index)
            self.gauges.reset(index)
            self._flown[index] = self.controls[index]
            mask = np.zeros(self.n, dtype=bool)
            mask[index] = True
            # as a single flight's reset: what is due at the start fires, the instruments read
            self.failures.trigger(self.times, self.states[:, 2] - self.aircraft.contact_height, mask)
            self._read_gauges()
        self._contact(index)
        if self._wind_model is not None:
            self._wind_model.reset(index, seeds)
            self._wind_model.sample(index, self.times, self.states, 0.0, self._wind)
        self._settle(index, alike=states is None and controls is None)

    def _settle(self, index, alike=False):
        """A JSBSim aircraft's flight controls and engines as loaded, then settled for each airplane's controls
        and state (:func:`flightsim.physics.aero.settle`, as :class:`Simulation` does at a reset); ``alike``:
        every airplane at the same start, so the first one's settled state is copied to the others."""
        if self.aircraft.jsbsim is None or index.shape[0] == 0:
            return
        own = {name: self._own[PER_AIRPLANE.index(name)] for name in PER_AIRPLANE}
        for a in index[:1] if alike else index:
            own["jsb_props"][a] = self.aircraft.jsbsim.initial
            # the state's view: no planet (as Simulation settles with its view's fields)
            fields = [None if name == "planet" else own[name][a] if name in PER_AIRPLANE else self._fields[i]
                      for i, name in enumerate(LoadParams._fields)]
            aero.settle(float(self.times[a]), self.states[a], LoadParams(*fields))
        if alike:
            for name in ("jsb_props", "jsb_held", "jsb_last"):
                own[name][index] = own[name][index[0]]

    def set_states(self, index, states):
        """Load whole states of the airplanes ``index`` as they are (q not renormalised), running again, clocks kept."""
        index = self.airplanes(index)
        y = np.asarray(states, dtype=np.float64).reshape(index.shape[0], 13)
        divergence.check_state(y, "states")
        self.states[index] = y
        self.previous[index] = y
        self._to_eci(index)
        self.status[index] = RUNNING
        for a in index:
            self.messages[a] = None
        self._contact(index)
        if self._wind_model is not None:
            self._wind_model.sample(index, self.times, self.states, 0.0, self._wind)

    def _to_eci(self, index):
        """On a round planet, the Earth-centred inertial states (and the ones before) of the airplanes ``index``
        whose views are their :attr:`states` now, at their clocks (a reset, loaded states, a crash)."""
        if self._eci is None:
            return
        for a in index:
            planets.from_view(float(self.times[a]), self.states[a], self._planets[a], self._eci[a])
            self._prev_eci[a] = self._eci[a]

    @property
    def inertial(self):
        """``(N, 13)``: each airplane's Earth-centred inertial state ``[x, v, q, ω]`` (ft, ft/s, body → ECI,
        inertial body rates rad/s) on a round planet, a copy; None on a flat one."""
        return None if self._eci is None else self._eci.copy()

    @property
    def geodetic(self):
        """``(N, 3)``: each airplane's geodetic latitude and longitude (deg) and height above the ellipsoid (ft),
        as :attr:`Simulation.geodetic <flightsim.simulation.flight.Simulation.geodetic>` (on a flat planet the
        earth frame laid on WGS-84 at its origin)."""
        out = np.empty((self.n, 3))
        scratch = np.empty(STATE_SIZE)
        for a in range(self.n):
            if self._eci is None:
                lat, lon = planets.flat_geodetic(self.lat, self.lon, float(self.states[a, 0]),
                                                 float(self.states[a, 1]))
            else:
                lat, lon = planets.to_view(float(self.times[a]), self._eci[a], self._planets[a].copy(), scratch)
                lat, lon = math.degrees(lat), planets.wrap_lon(math.degrees(lon))
            out[a] = lat, lon, self.states[a, 2]
        return out

    def set_controls(self, controls, index=None):
        """Set the controls rows ``(len(index), 7)`` (:data:`~flightsim.simulation.controls.CONTROL_NAMES` order)
        through the controls boundary (:func:`~flightsim.simulation.controls.flown`: clipped to their ranges).

        Raises
        ------
        ValueError
            A NaN or infinite value, naming its row and entry; no airplane's controls change.
        """
        index = self.airplanes(index)
        self.controls[index] = flown(_rows(controls, index.shape[0]))

    def set_wind(self, index, speed=None, from_deg=None, turbulence=None, seeds=None):
        """Give the airplanes ``index`` their own steady wind speed (ft/s), direction (from, deg true) and
        turbulence level (:data:`flightsim.physics.wind.LEVELS`) and seeds, each one value or one per airplane
        (None: as it is), the rest of the batch's wind (shear, gusts) theirs too; their turbulence starts its
        seeded series again and their wind is sampled anew (call it before they fly: a campaign's dispersed
        winds).  Each then flies the wind a :class:`~flightsim.simulation.flight.Simulation` with that
        :class:`~flightsim.physics.wind.WindSpec` flies (``tests/test_batch.py``).

        Raises
        ------
        ValueError
            A batch made without ``wind=`` (give it one, calm if need be), or a value out of range.
        """
        if self._wind_model is None:
            raise ValueError("wind: this batch was made without a wind; give it wind=WindSpec() to set airplanes' "
                             "own winds")
        index = self.airplanes(index)
        self._wind_model.set_airplanes(index, speed=speed, from_deg=from_deg, turbulence=turbulence)
        self._wind_model.reset(index, seeds)
        self._wind_model.sample(index, self.times, self.states, 0.0, self._wind)

    def set_loading(self, index, mass=None, cg_shift=None):
        """Give the airplanes ``index`` their own loading, as
        :func:`flightsim.physics.aircraft.with_loading` gives an aircraft: ``mass`` (slug, the file's when None)
        with the difference from the file's a point mass at the CG (so the inertia about the CG stays the file's),
        and the CG moved ``cg_shift`` ft forward along body x (0 when None): every element's and contact point's
        position relative to the CG moves back by as much.  One value or one per airplane.

        Raises
        ------
        ValueError
            A JSBSim aircraft (its mass and balance are its own), a mass that is not finite and > 0, or a shift
            that is not finite.
        """
        if self.aircraft.jsbsim is not None:
            raise ValueError("loading: a JSBSim aircraft's weight and balance are its file's own")
        index = self.airplanes(index)
        m = index.shape[0]
        mass = np.broadcast_to(np.asarray(self._file_mass if mass is None else mass, dtype=np.float64), (m,))
        shift = np.broadcast_to(np.asarray(0.0 if cg_shift is None else cg_shift, dtype=np.float64), (m,))
        if not np.all(np.isfinite(mass) & (mass > 0.0)):
            raise ValueError("mass: must be finite and > 0")
        if not np.all(np.isfinite(shift)):
            raise ValueError("cg_shift: must be finite")
        own = {name: self._own[PER_AIRPLANE.index(name)] for name in ("mass", "positions", "gear_positions",
                                                                      "gear_reach")}
        elements, contacts = self._file_positions
        if self._cuda is not None:
            self._cuda.stale()
        for k, a in enumerate(index):
            d = np.array([float(shift[k]), 0.0, 0.0])
            own["mass"][a] = mass[k]
            own["positions"][a] = elements - d
            own["gear_positions"][a] = contacts - d
            # as flightsim.physics.gear.pack_gear measures it
            own["gear_reach"][a] = (float(np.max(np.linalg.norm(own["gear_positions"][a], axis=1)))
                                    if contacts.shape[0] else 0.0)

    def airplanes(self, index):
        """Airplane numbers as an int64 array (all for None; a bool mask or a list of numbers)."""
        if index is None:
            return np.arange(self.n)
        index = np.asarray(index)
        if index.dtype == bool:
            return np.flatnonzero(index)
        return index.astype(np.int64).reshape(-1)

    def _contact(self, index):
        """Ground contact of the airplanes just loaded (no touchdown, no crash check); their brakes hold anew."""
        batch_contact(self.states, self.times, self._fields, self._own, self._travel, index, self._wheels_down,
                self.on_ground)

    @property
    def flown_controls(self):
        """``(N, 11)``: the controls the airplanes flew in the last step (:attr:`controls` with the failures in
        force; the same without failures), a copy."""
        return self._flown.copy()

    @property
    def running(self):
        """``(N,)`` bool: airplanes not stopped."""
        return self.status == RUNNING

    @property
    def air_density(self):
        """``(N,)``: the air's density each airplane's loads last saw, slug/ft³ (0 before any evaluation), a copy."""
        return self._own[PER_AIRPLANE.index("diag")][:, aero.D_RHO].copy()

    @property
    def gpu_seconds(self):
        """The GPU's own time in this batch's kernels so far, s (CUDA events; the copies not counted); 0 on the
        CPU."""
        return 0.0 if self._cuda is None else self._cuda.kernel_seconds

    @property
    def wind(self):
        """``(N, 6)``: the wind each airplane's next step holds (earth ft/s, body rad/s), a copy."""
        return self._wind.copy()

    # ------------------------------------------------------------------ stepping

    def step(self, steps=1, hold=None):
        """Advance every running airplane by ``steps`` physics steps; return the airplanes that stopped now.

        ``hold`` (a bool mask or numbers, optional): airplanes that sit this call out, clocks included.

        All ``steps`` are one compiled call (with turbulence, one per
        :data:`flightsim.physics.batch_wind.BLOCK` steps), each airplane's wind
        sampled inside it after every step; while any airplane is on the
        autopilot, one call per step, the autopilot setting the controls before each.

        Returns
        -------
        numpy.ndarray
            Numbers of the airplanes stopped during these steps (see :attr:`messages`).
        """
        was = self.status == RUNNING
        held = np.zeros(self.n, dtype=bool)
        if hold is not None:
            held[self.airplanes(hold)] = True
            held &= was
            self.status[held] = HELD
        it = self._integrator
        integrators.check_selectors(it.name, it.number, it.increment_id)   # the compiled dispatch cannot raise
        model = self._wind_model
        wind_on = model is not None and not model.steady
        arrays = model.arrays if wind_on else _NO_WIND
        # turbulence: at most the deviates drawn ahead per call
        per_call = min(int(steps), BLOCK) if wind_on and model.turbulent else int(steps)
        autopilot = self.autopilot.loops.engaged.any()
        failing = self.failures is not None and self.failures.any
        if autopilot or failing:
            per_call = 1
        done = 0
        parallel = self.n >= PARALLEL_MIN
        if self._eci is None:
            kernel, states = (batch_steps if parallel else batch_steps_serial), (self.states, self.previous)
            if self.lanes:
                kernel = batch_steps_lanes
        else:
            kernel = batch_steps_round if parallel else batch_steps_round_serial
            states = (self._eci, self._prev_eci, self.states, self.previous)
        while done < steps:
            now = min(per_call, int(steps) - done)
            if wind_on:
                model.ahead(now, self.status == RUNNING)
            if autopilot:
                self.autopilot.fly(self.status == RUNNING)
            if failing:
                self._fail()
            if self._cuda is not None:
                if failing:             # the failures write the engine's and gear's rows
                    self._cuda.stale()
                self._cuda.run(self._kernel_call(now, wind_on, arrays))
            else:
                kernel(it.number, *states, self._diverged, self.times, self.dt, now, self._fields,
                       self._own, self._inertia, self._inertia_inv, self.renormalize, it.increment_id, self.status,
                       self.qnorm_error, self._wheels_down, self.on_ground, self._travel, self._gear.wheels_only,
                       self._gear.sink_rate, wind_on, *arrays)
            done += now
            if failing:         # after the step, as a single flight: the failures due now, what the gauges read
                self.failures.trigger(self.times, self.states[:, 2] - self.aircraft.contact_height,
                                      (self.status == RUNNING) & ~held)
                self._read_gauges()
        self.status[held] = RUNNING
        self.steps += int(steps)
        stopped = np.flatnonzero(was & (self.status != RUNNING))
        for a in stopped:
            self._report(a)
        return stopped

    def _kernel_call(self, steps, wind_on, arrays):
        """The GPU kernel's call of ``steps`` steps (:class:`~flightsim.simulation.batch_cuda.KernelCall`)."""
        from flightsim.simulation.batch_cuda import KernelCall

        it = self._integrator
        return KernelCall(it.number, self.states, self.previous, self._diverged, self.times, self.dt, int(steps),
                          self.renormalize, it.increment_id, self.status, self.qnorm_error, self._wheels_down,
                          self.on_ground, self._gear.sink_rate, wind_on, tuple(np.ascontiguousarray(x) for x in arrays))

    def gpu_ptx(self, cc=(9, 0)):
        """The PTX of this batch's GPU kernel for compute capability ``cc`` (default 9.0: H100, H200), made by
        NVIDIA's NVVM (:func:`flightsim.simulation.batch_cuda.kernel_ptx`): what ``device="cuda"`` runs, every GPU
        integrator's step in it.  Needs numba-cuda and NVVM (``flightsim[gpu]``); refused in one line for a batch
        the GPU does not fly."""
        from flightsim.simulation import batch_cuda

        batch_cuda.check_batch(self.aircraft, self._planets)
        constants = (self._inertia, self._inertia_inv, self._travel, self._gear.wheels_only)
        return batch_cuda.kernel_ptx(self._fields, dict(zip(PER_AIRPLANE, self._own, strict=True)), constants,
                                     self._kernel_call(1, False, _NO_WIND), cc)

    def _fail(self):
        """Before a step: the controls the airplanes fly with the failures in force (:attr:`controls` as the
        failures leave them); the autopilot drops out with the electrics."""
        f = self.failures
        dark = np.flatnonzero(np.isfinite(f.since[:, KINDS.index("electrical")]) & self.autopilot.loops.engaged)
        if dark.shape[0]:
            self.autopilot.disconnect("autopilot disconnected: electrical failure", dark)
        f.flown(self.controls, self._flown, self.times)
        f.airplanes(self.times)
        if self.aircraft.jsbsim is not None:        # a JSBSim engine quits by its own switch, in its property row
            f.cut_engines(self._own[PER_AIRPLANE.index("jsb_props")], engine_switches(self.aircraft.jsbsim))

    def _read_gauges(self):
        """After a step with failures: every airplane's instruments (:attr:`gauges`) read their flight."""
        y = self.states
        air = y[:, 3:6] - self._wind[:, :3]
        self.gauges.update(self.times, y[:, 2], np.sqrt(np.einsum("ij,ij->i", air, air)), self.air_density,
                           quat.aviation_angles(y[:, 6:10]))

    def _report(self, a):
        """Finish a stop found by the compiled step: the message, and a crashed airplane put at rest."""
        if self.status[a] == NONFINITE:
            self.messages[a] = divergence.message(self.integrator, self.times[a], self.dt, self._diverged[a])
            self.autopilot.disconnect("autopilot disconnected: the airplane stopped", [a])
            return
        self.autopilot.disconnect("autopilot disconnected: the airplane stopped", [a])
        sink_crash = self.status[a] == _SINK_CRASH
        limits = self._gear.sink_limits if sink_crash else self._travel
        y, self.messages[a] = crash(self.aircraft, self.previous[a], self.states[a], self.times[a], self.dt, limits,
                                    sink_crash, self._terrain)
        self.status[a] = CRASHED
        self.states[a] = y
        self.previous[a] = y
        self._to_eci([a])
        self._contact(np.array([a]))

    def loads(self):
        """``(N, 6)``: each airplane's ``[ax, ay, az]`` earth ft/s² and ``[mx, my, mz]`` body ft·lbf now."""
        out = np.empty((self.n, 6))
        batch_loads(self.states, self.times, self._fields, self._own, out)
        return out

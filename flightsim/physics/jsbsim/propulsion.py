"""The ``<propulsion>`` block of a JSBSim aircraft: turbines with direct thrusters or propellers, turboprops and
pistons with propellers, liquid rockets with nozzles, electric engines with direct thrusters, brushless DC
motors with propellers (:mod:`flightsim.physics.jsbsim.brushless`).

As JSBSim's ``FGTurbine`` (``FGTurbine::Calculate`` with its phases — off, spin-up on the starter, start, run,
stall, seize, trim — and its starter, fuel cut-off and running flag: :mod:`flightsim.physics.jsbsim.turbine`)
and ``FGThruster``/``FGForce`` for a ``direct`` thruster.  Running (``FGTurbine::Run``),
each frame the engine's spools seek their commanded speeds, ``N = idle +
throttle (max − idle)``, at the rates of its ``N1SpoolUp``/``Down``,
``N2SpoolUp``/``Down`` functions (by default ``FGSpoolUp``: ``k · 90 /
(bypass + 3)`` slowed at low N2 and in thin air); the thrust is ``idle + (mil
− idle) N2norm²`` from the engine file's ``IdleThrust`` and ``MilThrust``
tables (Mach, density altitude), less the bleed; it acts along the
thruster's orientation (pitch, yaw) at its location, giving a force and a
moment about the CG in the body frame.

Augmentation (afterburner, ``<augmented>`` 1), as ``FGTurbine::Run``: a
throttle position above 1 is the afterburner's range (its excess the
augmentation command, the spools' throttle 1) on every turbine.  By
``<augmethod>``: 1, lit while the throttle is above 0.99 and N2 above 97 %,
the thrust then ``maxthrust × AugThrust`` (the file's ``AugThrust`` function
of Mach and density altitude); 2, lit while the augmentation command is
above 0, the thrust then ``T + (maxthrust × AugThrust − T) min(cmd, 1)``; 0,
lit while ``propulsion/engine[k]/augmentation`` is 1 — flightsim's name for
``FGTurbine``'s flag, which JSBSim 1.3.3 binds to no property (only
FlightGear's ``SetAugmentation`` sets it), so nothing lights it but a caller
writing it.  The flag is state (``…/augmentation``, 0 or 1): the bleed is
taken off the thrust only in a frame that starts unlit, as JSBSim does.
Water injection (``<injected>`` 1), as ``FGTurbine::Run`` too: while
``propulsion/engine[k]/injection_cmd`` is on and water is left
(``…/InjWaterNorm`` > 0: 1 at load when the file gives ``<injection-time>``,
else 0, so injection never acts unless a caller sets it), the spools' ranges
grow by ``…/InjN1increment``/``InjN2increment`` (the file's
``<injection-N1-inc>``/``<injection-N2-inc>``), the thrust is multiplied by
the file's ``Injection`` function, and ``…/InjectionTimer`` runs until
``<injection-time>`` (s), when the command and the water go to 0.  An
injected engine without an ``Injection`` function (B747's) keeps its thrust
while injecting (JSBSim would read a missing function); one with an
``<injection-time>`` is refused without it, as is an augmented engine (or
augmethod 2) without ``AugThrust``.  The fuel flow is computed as JSBSim's
(``…/fuel-flow-rate-pps``: ``tsfc``, ``atsfc``, the idle fuel flow) and burnt by the flight
(:mod:`~flightsim.physics.jsbsim.fuel`); nozzle, EPR and EGT are not modelled.

As JSBSim's ``FGPiston`` (its starter, magnetos and
supercharger) driving an ``FGPropeller`` (fixed-pitch, variable-pitch or
constant-speed): :mod:`flightsim.physics.jsbsim.piston` and
:mod:`flightsim.physics.jsbsim.propeller`.  As ``FGTurboProp`` (running,
its IELU and reverser) driving an ``FGPropeller``, and as JSBSim 1.3.3's
``FGTurbine`` driving one (its thrust in lbf handed on as the power in
ft·lbf/s; the turbine's row :data:`E_PROPELLER`, no loads of its own):
:mod:`flightsim.physics.jsbsim.turboprop`.  Every engine that drives a
propeller is a row of the piston arrays (``piston.PE_KIND`` says which).

As JSBSim's ``FGRocket`` (liquid: Isp × the propellant flow, its nozzle's thrust less ambient pressure × exit
area; burning as JSBSim does unfrozen, draining nothing) and ``FGElectric`` (power × throttle handed to a direct
thruster): :mod:`flightsim.physics.jsbsim.rocket`.  Their rows are rows of :attr:`Propulsion.engines` (and
:attr:`Propulsion.slots`) as a turbine's, told apart by the :data:`E_KIND` column; their state (a rocket's last
propellant flows, ``…/fuel-flow-rate-pps``, ``…/oxi-flow-rate-pps``) lives in the property array too.

The engine's functions run in the same stack machine as the aerodynamics
(:mod:`flightsim.physics.jsbsim.program`), their values at
``propulsion/engine[k]/NAME`` as in JSBSim; the engines' state lives in the
property array too (``propulsion/engine[k]/n1``, ``…/n2``, ``…/augmentation``,
the injection's (:data:`TURBINE_STATE`), the phase and switches
(:data:`~flightsim.physics.jsbsim.turbine.TURBINE_SWITCHES`); ``…/map-pa``, ``…/propeller-rpm``,
``…/blade-angle``, ...), so a frame is one call of :func:`engines_frame`,
which other compiled code can call with :attr:`Propulsion.arrays`, and a
reset is the array's.  What is not modelled is refused by name: other engines
and thrusters (an electric engine driving another thruster), a ``template`` function in an engine file.

As JSBSim's ``FGElectric`` driving an ``FGRotor`` (a helicopter's rotor, its ``FGTransmission``, the tail rotor
following the main one's rpm): :mod:`flightsim.physics.jsbsim.rotor`, a row of the piston arrays too
(``piston.PE_KIND`` ``rotor.ROTOR``), its frame called by address like the pistons' and marched as
``GetSteadyState`` marches it (:func:`march_rotor`).
A piston's, a rocket's or an electric engine's own ``<function>`` elements run as JSBSim's ``FGModelFunctions``
runs them (``#`` the engine's number): ``pre`` ones (or untyped) in the engines' program before the frames,
``post`` ones in :attr:`Propulsion.post_program` after them.  A rocket's or an electric engine's thruster turns
with ``propulsion/engine[k]/pitch-angle-rad`` and ``…/yaw-angle-rad`` (FGThruster's: a launcher's flight
controls gimbal it); a turbine's keeps its file's orientation.
Not modelled either: a turboprop's start, off and trim phases (FGTurboProp's: its engines run), a turbine's or
turboprop's starvation.
Turbines, like pistons, start running, as JSBSim's ``propulsion/set-running`` leaves them
(:attr:`Propulsion.defaults`: the phase running, the fuel on); a script stops the ones its reset file does not
start (``ScriptProperties.initial_engines`` in :mod:`flightsim.simulation.script_writes`).

What the caller fills in ``props`` before a frame, in the order JSBSim's models compute it
(``FGFDMExec``: Propagate, Atmosphere, FCS, MassBalance, Auxiliary, then Propulsion, then Aerodynamics):

* FGPropagate: ``velocities/pi-rad_sec``, ``qi-``, ``ri-`` — the body rates relative to inertial space
  (the propeller's gyroscopic moment; the body rates themselves on a non-rotating Earth);
* FGAtmosphere: ``atmosphere/P-psf`` (a rocket's nozzle), ``T-R``, ``rho-slugs_ft3``, ``a-fps`` (and σ, the
  ``density_ratio`` argument);
* the FCS: ``fcs/throttle-pos-norm[k]`` (above 1 a turbine's afterburner range) and a piston's
  ``fcs/mixture-pos-norm[k]`` (JSBSim's FGFCS copies each command to its position before the channels run);
  a turbine's ``propulsion/engine[k]/injection_cmd`` (and ``…/augmentation`` for augmethod 0) if water injection
  (the afterburner) is wanted; a propeller's ``fcs/advance-cmd-norm[k]`` and ``fcs/feather-cmd-norm[k]`` (the
  propeller copies them to their positions itself); a turboprop's ``propulsion/engine[k]/reverser``;
* FGAuxiliary: ``velocities/u-aero-fps``, ``v-``, ``w-``, ``velocities/p-aero-rad_sec``, ``q-``, ``r-``,
  ``velocities/mach`` (and what a turbine's functions read, e.g. ``atmosphere/density-altitude``);
* the thrusters' locations about the CG (:meth:`Propulsion.locate`) whenever the CG moves (FGMassBalance).

The aerodynamics of some aircraft then read what the engines write in the same frame
(``propulsion/engine[k]/prop-induced-velocity_fps``, ``…/thrust-coefficient``).

JSBSim's body frame (x forward, y right, z down); lbf, lbf·ft, ft.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import carray, cfunc

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim import brushless as _brushless
from flightsim.physics.jsbsim import piston as _piston
from flightsim.physics.jsbsim import propeller as _propeller
from flightsim.physics.jsbsim import rocket as _rocket
from flightsim.physics.jsbsim import rotor as _rotor
from flightsim.physics.jsbsim import turboprop as _turboprop
from flightsim.physics.jsbsim.atmosphere import SEA_LEVEL_PRESSURE
from flightsim.physics.jsbsim.piston import (
    PISTON_SLOTS,
    PS_MAP,
    PS_MIXTURE,
    PS_RUNNING,
    call_frame,
    piston_frame,
    piston_steady,
)
from flightsim.physics.jsbsim.program import OPERATIONS, ProgramBuilder, Properties, canonical
from flightsim.physics.jsbsim.propeller import (
    PR_LOC_Y,
    PR_LOC_Z,
    PR_X,
    PR_Z,
    PROPELLER_SLOTS,
    RS_ACTING_Y,
    RS_ACTING_Z,
    RS_ENGINE_RPM,
    RS_RPM,
    TABLE_FIELDS,
    Tables,
)
from flightsim.physics.jsbsim.turbine import (
    E_ATSFC,
    E_AUGMENTED,
    E_AUGMETHOD,
    E_BLEED,
    E_IDLE_FF,
    E_IDLE_N1,
    E_IDLE_N2,
    E_INJECTED,
    E_INJECTION_TIME,
    E_KIND,
    E_MAX_N1,
    E_MAX_N2,
    E_MAX_THRUST,
    E_MIL,
    E_N1_DOWN,
    E_N1_UP,
    E_N2_DOWN,
    E_N2_UP,
    E_NO_WINDMILL,
    E_PITCH,
    E_PROPELLER,
    E_TSFC,
    E_X,
    E_YAW,
    E_Z,
    ENGINE_FIELDS,
    KIND_ELECTRIC,
    KIND_ROCKET,
    KIND_TURBINE,
    PHASE_RUN,
    S_AUGMENTATION,
    S_CUTOFF,
    S_INJ_N1,
    S_INJ_N2,
    S_INJECTION,
    S_INJECTION_TIMER,
    S_N1,
    S_N2,
    S_N2NORM,
    S_PHASE,
    S_POWER,
    S_RUNNING,
    S_THROTTLE,
    S_THRUST,
    S_WATER,
    SLOT_FIELDS,
    START_DEFAULTS,
    TURBINE_STATE,
    TURBINE_SWITCHES,
    idle_fuel_flow,
    turbine_frame,
    turbine_steady,
)
from flightsim.physics.jsbsim.xmlfile import package_root

__all__ = ["ENGINE_FIELDS", "E_AUGMETHOD", "E_IDLE_N1", "E_IDLE_N2", "E_KIND", "E_MAX_N1", "E_MAX_N2", "E_MIL",
           "E_PROPELLER", "FRAME_SIGNATURE", "KIND_ELECTRIC", "KIND_ROCKET", "KIND_TURBINE", "Propulsion",
           "SLOT_FIELDS", "S_AUGMENTATION", "S_INJECTION", "S_INJECTION_TIMER", "S_N1", "S_N2", "S_N2NORM",
           "S_THROTTLE", "S_THRUST", "S_WATER", "TURBINE_STATE", "engines_frame", "engines_frame_by_address",
           "engines_steady", "frame_addresses", "turbines"]

_SPOOL_FUNCTIONS = ("N1SpoolUp", "N1SpoolDown", "N2SpoolUp", "N2SpoolDown")
_KNOWN = {"milthrust", "maxthrust", "bypassratio", "tsfc", "atsfc", "bleed", "idlen1", "idlen2", "maxn1", "maxn2",
          "augmented", "augmethod", "injected", "function", "ignitionn1", "ignitionn2", "n1spinup", "n2spinup",
          "n1startrate", "n2startrate", "n1spindown", "n2spindown", "disable-windmill", "documentation",
          "description", "injection-time", "injection-N1-inc", "injection-N2-inc"}
#: A turbine's functions read (FGTurbine::Load's names).
_FUNCTIONS = ("IdleThrust", "MilThrust", "AugThrust", "Injection") + _SPOOL_FUNCTIONS


class Propulsion:
    """An aircraft's engines and thrusters read and compiled.

    Engine ``k`` of the file is a turbine, a rocket or an electric engine (a row of :attr:`engines`, its
    :data:`E_KIND` column saying which; a turbine driving a propeller also a row of :attr:`pistons` and
    :attr:`propellers`, :attr:`turbine_propellers`), a piston or a turboprop (a row of :attr:`pistons` and the same
    row of :attr:`propellers`); :attr:`kinds` says which.  ``extra(builder, post)``, if given, adds functions of its
    own to the engines' program before it is built (the external forces' magnitudes: evaluated once a frame after
    the flight controls, as JSBSim's ``FGExternalReactions`` runs after them) and to their post program (``post``:
    the ballonets' heat, after the gas cells' first half, :mod:`~flightsim.physics.jsbsim.buoyancy`).

    Attributes
    ----------
    program : Program
        The engines' functions (``propulsion/engine[k]/IdleThrust``, ..., and the pre functions of a piston's or a
        rocket's file: :meth:`_own_functions`), then the external forces' magnitudes.
    post_program : Program
        The engines' post functions (run after their frames), over :attr:`program`'s constants and tables.
    engines : numpy.ndarray
        ``(m, ENGINE_FIELDS)`` each turbine's constants (the ``E_*`` columns; location in the body frame about the CG
        filled by :meth:`locate`), or a rocket's or electric engine's (``rocket.R_*``/``L_*``, the same location
        and orientation columns; :data:`E_KIND` 1 or 2).
    slots : numpy.ndarray
        ``(m, SLOT_FIELDS)`` int64 each turbine's property slots (the ``S_*`` columns); a rocket's or electric
        engine's: its throttle and thrust at ``S_THROTTLE`` and ``S_THRUST``, the rest ``rocket.K_*`` (−1 unused).
    pistons, piston_slots : numpy.ndarray
        ``(p, piston.ROW_FIELDS)`` each piston's constants (``piston.PE_*``), ``(p, len(PISTON_SLOTS))`` int64 its
        property slots (``piston.PS_*``).
    propellers, propeller_slots : numpy.ndarray
        The same for each piston's propeller (``propeller.PR_*``, location about the CG filled by :meth:`locate`;
        ``propeller.RS_*``).
    tables : numpy.ndarray
        ``(p, TABLE_FIELDS)`` int64: each piston's MIXTURE and its propeller's C_THRUST, C_POWER, CT_MACH, CP_MACH
        tables as ``(start, rows)`` in :attr:`table_data` (``propeller.TB_*``).
    table_data : numpy.ndarray
        Those tables' keys and values.
    kinds : list of tuple
        ``("turbine", row)``, ``("rocket", row)``, ``("electric", row)``, ``("piston", row)`` or
<<<<<<< HEAD
        ``("turboprop", row)`` or ``("rotor", row)`` (an electric engine driving a rotor: a row of the piston and
        propeller arrays) for each engine of the file.
=======
        ``("turboprop", row)`` or ``("brushless", row)`` (a brushless DC motor: a row of :attr:`pistons`) for each
        engine of the file.
>>>>>>> refs/heads/f450
    turbine_propellers : dict
        Engine index → its propeller's row of :attr:`pistons`/:attr:`propellers`, for each turbine that drives a
        propeller.
    locations : list of tuple
        Each engine's thruster location, structural frame, in.
    defaults : dict
        Initial values of the engines' properties: each piston as JSBSim's ``propulsion/set-running`` leaves it
        before a frame (running, both magnetos on, the starter off, mixture 1, the propeller at twice the idle
        rpm, its thrust acting at the
        thruster's location, the manifold at sea-level pressure); :meth:`steady` settles it.
    """

    def __init__(self, source, properties=None, extra=None):
        self.source = source
        self.properties = Properties() if properties is None else properties
        builder = ProgramBuilder(source, self.properties)
        # (the engines' post functions: a program of their own over the same constants and tables, run after the
        # engines' frames)
        self._post = ProgramBuilder(source, self.properties, constants=builder.constants, tables=builder.tables,
                                    table_data=builder.table_data)
        block = source.section("propulsion", required=False)
        rows, slots, self.locations, self.kinds = [], [], [], []
        #: engine index → its ``(minthrottle, maxthrottle)`` where not 0 and 1 (FGPiston's, from its file: the
        #: throttle range FGTrim sets the commands in)
        self.throttle_limits = {}
        #: engine index → its row of the propeller arrays, for a turbine that drives a propeller
        self.turbine_propellers = {}
        #: engine index → its rotor's gear ratio, for each engine that drives a rotor (None: no rotor)
        self.propellers_gear = {}
        pistons, piston_slots, propellers, propeller_slots, tables = [], [], [], [], []
        store = Tables()
        self.defaults = {}
        for k, engine in enumerate([] if block is None else block.findall("engine")):
            where = f"propulsion/engine[{k}]"
            root = self._file(engine, "engine", where)
            if root.tag == "piston_engine":
                self._piston(engine, root, k, where, store, (pistons, piston_slots, propellers, propeller_slots,
                                                             tables))
                self._own_functions(root, k, where, builder)
                continue
            if root.tag == "electric_engine" and self._drives_rotor(engine):
                self._rotor(engine, root, k, where, (pistons, piston_slots, propellers, propeller_slots, tables))
                self._own_functions(root, k, where, builder)
                continue
            if root.tag == "electric_engine" and self._thruster_of(engine, where)[1].tag == "propeller":
                thruster, prop = self._thruster_of(engine, where)
                self._electric_propeller(thruster, prop, root, k, where, store, rows, slots,
                                         (pistons, piston_slots, propellers, propeller_slots, tables))
                self._own_functions(root, k, where, builder)
                continue
            if root.tag in ("rocket_engine", "electric_engine"):
                rows.append(self._rocket_or_electric(engine, root, k, where, slots, builder))
                self._own_functions(root, k, where, builder)
                continue
            powered = (pistons, piston_slots, propellers, propeller_slots, tables)
            if root.tag == "brushless_dc_motor":
                self._brushless(engine, root, k, where, store, powered)
                self._own_functions(root, k, where, builder)
                continue
            if root.tag == "turboprop_engine":
                self._turboprop(engine, root, k, where, builder, store, powered)
                continue
            if root.tag != "turbine_engine":
                raise InputError(source.path, where, f"<{root.tag}> engines are not supported yet (turbines, "
                                 "turboprops, pistons, rockets, electric engines and brushless DC motors only)")
            thruster = engine.find("thruster")
            driven = None if thruster is None else self._file(thruster, "thruster", f"{where}/thruster")
            if driven is not None and driven.tag == "propeller":
                self._turbine_propeller(thruster, driven, root, k, where, builder, store, rows, slots, powered)
                continue
            if driven is None or driven.tag != "direct":
                raise InputError(source.path, f"{where}/thruster", "a turbine drives a direct thruster or a "
                                 "propeller only")
            rows.append(self._turbine(root, k, where, builder, slots))
            self.kinds.append(("turbine", len(rows) - 1))
            self.locations.append(source.location(thruster.find("location"), f"{where}/thruster/location"))
            orient = thruster.find("orient")
            for j, axis in ((E_PITCH, "pitch"), (E_YAW, "yaw")):
                el = None if orient is None else orient.find(axis)
                if el is not None:
                    scale = math.pi / 180.0 if (orient.get("unit") or "DEG").upper() == "DEG" else 1.0
                    rows[-1][j] = source.number(el, f"{where}/thruster/orient/{axis}") * scale
            if orient is not None and orient.find("roll") is not None and \
                    source.number(orient.find("roll"), f"{where}/thruster/orient/roll") != 0.0:
                raise InputError(source.path, f"{where}/thruster/orient/roll", "a rolled thruster is not supported")
        if extra is not None:           # (functions evaluated with the engines': the external forces' magnitudes,
            extra(builder, self._post)  # the gas cells' heat; and after them: the ballonets')
        self.program = builder.build()
        self.post_program = self._post.build()
        (self.engines, self.slots, self.pistons, self.piston_slots, self.propellers, self.propeller_slots,
         self.tables, _) = self.shaped(rows, slots, pistons, piston_slots, propellers, propeller_slots, tables, [])
        self.table_data = store.array()

    def _own_functions(self, root, k, where, builder):
        """Compile engine ``k``'s own ``<function>`` elements (a piston's, a rocket's, an electric engine's), as
        ``FGEngine::Load`` hands them to ``FGModelFunctions`` with the engine's number as prefix: each ``#`` in a
        function's or a property's name is ``k``; a function of ``type`` ``pre`` (or none) runs before the
        engine's frame (``RunPreFunctions``: into ``builder``, the engines' program), one of type ``post`` after
        it (``RunPostFunctions``: :attr:`post_program`), any other type not at all; a function whose name has no
        ``#`` is bound to no property (JSBSim logs it as malformed), so nothing can read it and it is left out.

        All engines' pre functions run before the first engine's frame and their post functions after the last
        one's, where JSBSim runs each engine's around its own frame: the same numbers while no engine's function
        reads what another engine's frame writes."""
        for n, el in enumerate(root.findall("function")):
            kind = (el.get("type") or "pre").strip()
            name = (el.get("name") or "").strip()
            here = f"{where}/function[{n}] name={name!r}"
            if kind == "template":
                raise InputError(self.source.path, here, "template functions are not supported")
            if kind not in ("pre", "post") or "#" not in name:
                continue
            target = self._post if kind == "post" else builder
            target.index = str(k)
            try:
                target.function(el, here)
                target.store(name)
            finally:
                target.index = None

    @staticmethod
    def shaped(engines=(), slots=(), pistons=(), piston_slots=(), propellers=(), propeller_slots=(), tables=(),
               table_data=()):
        """:attr:`arrays` from lists of rows (none: the arrays of an aircraft without engines, of the same types)."""
        return (np.array(engines, dtype=np.float64).reshape(-1, ENGINE_FIELDS),
                np.array(slots, dtype=np.int64).reshape(-1, SLOT_FIELDS),
                np.array(pistons, dtype=np.float64).reshape(-1, _piston.ROW_FIELDS),
                np.array(piston_slots, dtype=np.int64).reshape(-1, len(PISTON_SLOTS)),
                np.array(propellers, dtype=np.float64).reshape(-1, _propeller.ROW_FIELDS),
                np.array(propeller_slots, dtype=np.int64).reshape(-1, len(PROPELLER_SLOTS)),
                np.array(tables, dtype=np.int64).reshape(-1, TABLE_FIELDS),
                np.array(table_data, dtype=np.float64))

    @property
    def arrays(self):
        """What :func:`engines_frame` and :func:`engines_steady` take after ``props``, in order: ``(engines,
        slots, pistons, piston_slots, propellers, propeller_slots, tables, table_data)``."""
        return (self.engines, self.slots, self.pistons, self.piston_slots, self.propellers, self.propeller_slots,
                self.tables, self.table_data)

    def _thruster_of(self, engine, where):
        """Engine element ``engine``'s ``<thruster>`` and the root of the file it names."""
        thruster = engine.find("thruster")
        if thruster is None:
            raise InputError(self.source.path, f"{where}/thruster", "required element is missing")
        return thruster, self._file(thruster, "thruster", f"{where}/thruster")

    def _propeller_of(self, engine, where, what):
        """:meth:`_thruster_of`, the thruster a ``<propeller>`` (``what`` drives one: said when it is not)."""
        thruster, prop = self._thruster_of(engine, where)
        if prop.tag != "propeller":
            raise InputError(self.source.path, f"{where}/thruster", f"{what} drives a <propeller>, not a <{prop.tag}>")
        return thruster, prop

    def _piston(self, engine, root, k, where, store, out):
        """Read piston engine ``k`` and its propeller; append their rows to the lists in ``out``."""
        pistons, piston_slots, propellers, propeller_slots, tables = out
        thruster, prop = self._propeller_of(engine, where, "a piston engine")
        row, mixture, combustion = _piston.read_piston(self.source, root, where, store)
        prop_row, table_row, location, constant_speed = _propeller.read_propeller(self.source, thruster, prop,
                                                                                  f"{where}/thruster", store)
        table_row[_propeller.TB_MIXTURE:_propeller.TB_MIXTURE + 3] = mixture
        table_row[_piston.TB_COMBUSTION:_piston.TB_COMBUSTION + 3] = combustion
        names = {"e": f"propulsion/engine[{k}]", "k": k}
        pistons.append(row)
        piston_slots.append([self.properties.slot(n.format(**names)) for n in PISTON_SLOTS])
        propellers.append(prop_row)
        propeller_slots.append([self.properties.slot(n.format(**names)) for n in PROPELLER_SLOTS])
        tables.append(table_row)
        self.kinds.append(("piston", len(pistons) - 1))
        low, high = (root.find(tag) for tag in ("minthrottle", "maxthrottle"))
        self.throttle_limits[k] = (0.0 if low is None else self.source.number(low, f"{where}/minthrottle"),
                                   1.0 if high is None else self.source.number(high, f"{where}/maxthrottle"))
        self.locations.append(location)
        s, ps = piston_slots[-1], propeller_slots[-1]
        name = self.properties.names
        self.defaults.update({name[s[PS_MIXTURE]]: 1.0, canonical(f"fcs/mixture-cmd-norm[{k}]"): 1.0,
                              name[s[PS_RUNNING]]: 1.0, name[s[_piston.PS_MAGNETOS]]: 3.0,
                              name[s[_piston.PS_STARTER_GAIN]]: 1.0, name[s[_piston.PS_POWER]]: 1.0,
                              name[s[PS_MAP]]: _piston.ambient_map(SEA_LEVEL_PRESSURE),
                              # (FGPiston::ResetToIC: the exhaust at the ambient temperature, standard sea level's)
                              name[s[_piston.PS_EGT_K]]: 518.67 / 1.8, name[s[_piston.PS_EGT_F]]: 1.8 * (518.67 / 1.8)
                              - 459.4,
                              name[s[_piston.PS_TMAP]]: _piston.ambient_map(SEA_LEVEL_PRESSURE),
                              name[ps[_propeller.RS_PITCH]]: prop_row[_propeller.PR_MIN_PITCH],
                              name[ps[_propeller.RS_CONSTANT_SPEED]]: constant_speed,
                              name[ps[RS_RPM]]: 2.0 * row[_piston.PE_IDLE_RPM] / prop_row[_propeller.PR_GEAR],
                              name[ps[RS_ENGINE_RPM]]: 2.0 * row[_piston.PE_IDLE_RPM],
                              name[ps[RS_ACTING_Y]]: prop_row[PR_LOC_Y], name[ps[RS_ACTING_Z]]: prop_row[PR_LOC_Z]})

    def _drives_rotor(self, engine):
        """Whether engine element ``engine`` drives a ``<rotor>`` (its thruster's file's root)."""
        thruster = engine.find("thruster")
        return thruster is not None and thruster.get("file") is not None and \
            self._file(thruster, "thruster", "thruster").tag == "rotor"

    def _rotor(self, engine, root, k, where, out):
        """Read electric engine ``k`` and the rotor it drives (:mod:`~flightsim.physics.jsbsim.rotor`): a row of
        the piston and propeller arrays (``PE_KIND`` :data:`~flightsim.physics.jsbsim.rotor.ROTOR`)."""
        pistons, piston_slots, propellers, propeller_slots, tables = out
        thruster, rotor = self._thruster_of(engine, where)
        rotors = {j: (self.propellers_gear.get(j)) for j in range(k)}
        row, prop_row, controls = _rotor.read_rotor(self.source, root, thruster, rotor, k, where, rotors)
        e = f"propulsion/engine[{k}]"
        names = {"e": e, "k": k, "collective": controls["collective"].format(e=e), "source": controls["source"]}
        own = [self.properties.slot(n.format(**names)) for n in _rotor.ROTOR_ENGINE_SLOTS]
        rotor_slots = []
        for j, n in enumerate(_rotor.ROTOR_SLOTS):
            if (j == _rotor.RR_SOURCE and controls["source"] is None) or \
                    (j in (_rotor.RR_LATERAL, _rotor.RR_LONGITUDINAL) and not controls["cyclic"]):
                rotor_slots.append(-1)
            else:
                rotor_slots.append(self.properties.slot(n.format(**names)))
        pistons.append(row)
        piston_slots.append(own + [-1] * (len(PISTON_SLOTS) - len(own)))
        propellers.append(prop_row)
        propeller_slots.append(rotor_slots + [-1] * (len(PROPELLER_SLOTS) - len(rotor_slots)))
        tables.append([0] * TABLE_FIELDS)
        self.kinds.append(("rotor", len(pistons) - 1))
        self.locations.append(self.source.location(thruster.find("location"), f"{where}/thruster/location"))
        self.propellers_gear[k] = prop_row[_propeller.PR_GEAR]
        self.defaults.update({canonical(f"{e}/{name}"): value for name, value in _rotor.rotor_defaults().items()})

    def _rocket_or_electric(self, engine, root, k, where, slots, builder):
        """Read rocket or electric engine ``k`` (:mod:`~flightsim.physics.jsbsim.rocket`) and its thruster: its row
        of :attr:`engines` (returned) and of :attr:`slots` (appended), its location, kind and defaults; a solid
        rocket's thrust table compiled into ``builder`` (looked up at the propellant burnt by the end of this
        frame's burn: the burnt so far and what the last frame burned)."""
        thruster, nozzle = self._thruster_of(engine, where)
        row = [0.0] * ENGINE_FIELDS
        e = f"propulsion/engine[{k}]"
        own = [-1] * SLOT_FIELDS
        own[S_THROTTLE] = self.properties.slot(f"fcs/throttle-pos-norm[{k}]")
        own[S_THRUST] = self.properties.slot(f"{e}/thrust-lbs")
        if root.tag == "rocket_engine":
            defaults = _rocket.read_rocket(self.source, root, nozzle, where, row)
            row[_rocket.R_STARVED] = float(_rocket.starved(self.source, engine, where, True))
            row[E_KIND] = KIND_ROCKET
            names = _rocket.ROCKET_STATE
            if _rocket.solid(root):
                names = _rocket.SOLID_STATE
                row[_rocket.R_PROPELLANT] = _rocket.propellant(self.source, engine, where)
                state = [n.format(e=e) for n in names]
                builder.push_property(state[_rocket.K_EXPENDED - 1], f"{where}/thrust_table")
                builder.push_property(state[_rocket.K_FUEL_EXPENDED - 1], f"{where}/thrust_table")
                builder.emit(OPERATIONS["sum"][0], 2, pops=2, pushes=1)
                builder.keyed_table(root.find("thrust_table"), f"{where}/thrust_table")
                builder.store(state[_rocket.K_TABLE - 1])
            self.defaults.update({canonical(f"{e}/{key}"): v for key, v in defaults.items()})
        else:
            _rocket.read_electric(self.source, root, nozzle, where, row)
            row[E_KIND] = KIND_ELECTRIC
            names = _rocket.ELECTRIC_STATE
        for j, name in enumerate(names):
            own[1 + j] = self.properties.slot(name.format(e=e))
        slots.append(own)
        self.kinds.append(("rocket" if row[E_KIND] == KIND_ROCKET else "electric", len(slots) - 1))
        self.locations.append(self.source.location(thruster.find("location"), f"{where}/thruster/location"))
        orient = thruster.find("orient")
        for j, axis in ((E_PITCH, "pitch"), (E_YAW, "yaw")):
            el = None if orient is None else orient.find(axis)
            if el is not None:
                scale = math.pi / 180.0 if (orient.get("unit") or "DEG").upper() == "DEG" else 1.0
                row[j] = self.source.number(el, f"{where}/thruster/orient/{axis}") * scale
        if orient is not None and orient.find("roll") is not None and \
                self.source.number(orient.find("roll"), f"{where}/thruster/orient/roll") != 0.0:
            raise InputError(self.source.path, f"{where}/thruster/orient/roll", "a rolled thruster is not supported")
        if thruster.find("pointing") is not None:
            raise InputError(self.source.path, f"{where}/thruster/pointing", "a <pointing> thruster is not supported")
        # (the thruster's angles, FGThruster's properties: the flight controls may gimbal it, the file's by default)
        for column, name, value in ((_rocket.K_PITCH, _rocket.ANGLES[0], row[E_PITCH]),
                                    (_rocket.K_YAW, _rocket.ANGLES[1], row[E_YAW])):
            own[column] = self.properties.slot(name.format(e=e))
            self.defaults[self.properties.names[own[column]]] = value
        return row

    # -- turboprops, and turbines driving propellers (flightsim.physics.jsbsim.turboprop)

    def _powered(self, k, where, thruster, prop, store, out, row, table_row, own):
        """Append an engine that drives a propeller (``row``, its tables ``table_row``, its slots ``own``) and its
        propeller (read from ``thruster`` and ``prop``) to the lists in ``out``; its defaults: running, N1 at idle,
        the propeller at its lowest governed rpm (1000 without a governor) and finest pitch."""
        pistons, piston_slots, propellers, propeller_slots, tables = out
        prop_row, prop_tables, location, constant_speed = _propeller.read_propeller(
            self.source, thruster, prop, f"{where}/thruster", store)
        for column in (_propeller.TB_CT, _propeller.TB_CP, _propeller.TB_CT_MACH, _propeller.TB_CP_MACH):
            table_row[column:column + 3] = prop_tables[column:column + 3]
        names = {"e": f"propulsion/engine[{k}]", "k": k}
        pistons.append(row)
        piston_slots.append(own + [-1] * (len(PISTON_SLOTS) - len(own)))
        propellers.append(prop_row)
        ps = [self.properties.slot(n.format(**names)) for n in PROPELLER_SLOTS]
        if row[_piston.PE_KIND] == _turboprop.TURBINE_PROPELLER:      # (FGTurbine sets no rpm command nor feather)
            advance, feather = (self.properties.slot(n.format(**names)) for n in _turboprop.TURBINE_PROPELLER_CONTROLS)
            ps[_propeller.RS_ADVANCE_CMD] = ps[_propeller.RS_ADVANCE_POS] = advance
            ps[_propeller.RS_FEATHER_CMD] = ps[_propeller.RS_FEATHER_POS] = feather
        propeller_slots.append(ps)
        tables.append(table_row)
        self.locations.append(location)
        name = self.properties.names
        rpm = prop_row[_propeller.PR_MIN_RPM] if constant_speed and prop_row[_propeller.PR_MIN_RPM] > 0 else 1000.0
        self.defaults.update({name[ps[_propeller.RS_PITCH]]: prop_row[_propeller.PR_MIN_PITCH],
                              name[ps[_propeller.RS_CONSTANT_SPEED]]: constant_speed,
                              name[ps[RS_RPM]]: rpm, name[ps[RS_ENGINE_RPM]]: rpm * prop_row[_propeller.PR_GEAR],
                              name[ps[RS_ACTING_Y]]: prop_row[PR_LOC_Y], name[ps[RS_ACTING_Z]]: prop_row[PR_LOC_Z],
                              canonical(f"{names['e']}/set-running"): 1.0})
        return len(pistons) - 1

    def _turboprop(self, engine, root, k, where, builder, store, out):
        """Read turboprop engine ``k`` and its propeller
        (:func:`~flightsim.physics.jsbsim.turboprop.read_turboprop`)."""
        thruster, prop = self._propeller_of(engine, where, "a turboprop")
        prefix = f"propulsion/engine[{k}]"
        row, table_row = _turboprop.read_turboprop(self.source, root, where, builder, store, prefix)
        own = [self.properties.slot(n.format(e=prefix, k=k)) for n in _turboprop.TURBOPROP_SLOTS]
        index = self._powered(k, where, thruster, prop, store, out, row, table_row, own)
        self.kinds.append(("turboprop", index))
        self.defaults[self.properties.names[own[_turboprop.TS_N1]]] = row[_turboprop.TP_IDLE_N1]

    def _brushless(self, engine, root, k, where, store, out):
        """Read brushless DC motor ``k`` and its propeller (:mod:`~flightsim.physics.jsbsim.brushless`); the
        propeller at rest (FGPropeller's RPM 0)."""
        thruster, prop = self._propeller_of(engine, where, "a brushless DC motor")
        prefix = f"propulsion/engine[{k}]"
        row = _brushless.read_brushless(self.source, root, where)
        own = [self.properties.slot(n.format(e=prefix, k=k)) for n in _brushless.BRUSHLESS_SLOTS]
        index = self._powered(k, where, thruster, prop, store, out, row, [0] * _propeller.TABLE_FIELDS, own)
        self.kinds.append(("brushless", index))
        ps, name = out[3][index], self.properties.names
        self.defaults.update({name[ps[RS_RPM]]: 0.0, name[ps[RS_ENGINE_RPM]]: 0.0})
        self.defaults.pop(canonical(f"{prefix}/set-running"), None)

    def _turbine_propeller(self, thruster, prop, root, k, where, builder, store, rows, slots, out):
        """Read turbine engine ``k`` that drives a propeller (``thruster``, its file ``prop``): a turbine row (its
        thrust at :data:`~flightsim.physics.jsbsim.turboprop.TURBINE_THRUST`, no loads of its own) and a
        :data:`~flightsim.physics.jsbsim.turboprop.TURBINE_PROPELLER` row for its propeller."""
        prefix = f"propulsion/engine[{k}]"
        thrust = _turboprop.TURBINE_THRUST.format(e=prefix)
        rows.append(self._turbine(root, k, where, builder, slots, thrust))
        rows[-1][E_PROPELLER] = 1.0
        self.kinds.append(("turbine", len(rows) - 1))
        row = [0.0] * _piston.ROW_FIELDS
        row[_piston.PE_KIND] = _turboprop.TURBINE_PROPELLER
        self.turbine_propellers[k] = self._powered(k, where, thruster, prop, store, out, row,
                                                   [0] * _propeller.TABLE_FIELDS, [self.properties.slot(thrust)])

    def _electric_propeller(self, thruster, prop, root, k, where, store, rows, slots, out):
        """Read electric engine ``k`` that drives a propeller (``thruster``, its file ``prop``): an electric row
        whose power (ft·lbf/s, at :data:`~flightsim.physics.jsbsim.turboprop.ELECTRIC_POWER`) goes to its
        propeller, no loads of its own, and an :data:`~flightsim.physics.jsbsim.turboprop.ELECTRIC_PROPELLER` row for
        the propeller (``FGElectric::Calculate`` hands it its advance and feather commands, as a piston does), at
        rest as loaded."""
        e = f"propulsion/engine[{k}]"
        power = _turboprop.ELECTRIC_POWER.format(e=e)
        row = [0.0] * ENGINE_FIELDS
        _rocket.read_electric(self.source, root, prop, where, row)
        row[E_KIND], row[_rocket.L_PROPELLER] = KIND_ELECTRIC, 1.0
        own = [-1] * SLOT_FIELDS
        own[S_THROTTLE] = self.properties.slot(f"fcs/throttle-pos-norm[{k}]")
        own[S_THRUST] = self.properties.slot(power)
        own[_rocket.K_HP] = self.properties.slot(_rocket.ELECTRIC_STATE[0].format(e=e))
        rows.append(row)
        slots.append(own)
        self.kinds.append(("electric", len(rows) - 1))
        powered = [0.0] * _piston.ROW_FIELDS
        powered[_piston.PE_KIND] = _turboprop.ELECTRIC_PROPELLER
        self.turbine_propellers[k] = self._powered(k, where, thruster, prop, store, out, powered,
                                                   [0] * _propeller.TABLE_FIELDS, [self.properties.slot(power)])
        ps = out[3][-1]                 # (FGPropeller starts at rest: an electric engine has no running start)
        name = self.properties.names
        self.defaults.update({name[ps[RS_RPM]]: 0.0, name[ps[RS_ENGINE_RPM]]: 0.0})

    def _file(self, el, kind, where):
        """The element an ``<engine file=…>``/``<thruster file=…>`` names, from the package's ``engine/`` folder."""
        name = el.get("file")
        if not name:
            raise InputError(self.source.path, where, "needs a file= attribute")
        here = self.source.path.parent
        return self.source.included(name, (here / "Engines", here / "engine", package_root() / "engine"),
                                    f"{where} file={name!r}", f"no such {kind} file")

    def _turbine(self, root, k, where, builder, slots, thrust=None):
        def value(tag, default):
            el = root.find(tag)
            return default if el is None else self.source.number(el, f"{where}/{tag}", "LBS" if "thrust" in tag
                                                                   else None)

        for child in root:
            if child.tag not in _KNOWN:
                raise InputError(self.source.path, f"{where}/{child.tag}", "not supported in a turbine")
        prefix = f"propulsion/engine[{k}]"
        names = {}
        for function in root.findall("function"):
            name = function.get("name", "")
            if name not in _FUNCTIONS:
                raise InputError(self.source.path, f"{where}/function name={name!r}", "not supported in a turbine")
            builder.function(function, f"{where}/function name={name!r}")
            builder.store(f"{prefix}/{name}")
            names[name] = self.properties.slot(f"{prefix}/{name}")
        for required in ("IdleThrust", "MilThrust"):
            if required not in names:
                raise InputError(self.source.path, where, f"the {required} function is missing")
        augmented, method, injected = (int(value(tag, 0.0)) for tag in ("augmented", "augmethod", "injected"))
        if method not in (0, 1, 2):
            raise InputError(self.source.path, f"{where}/augmethod", f"must be 0, 1 or 2, not {method}")
        if (augmented == 1 or method == 2) and "AugThrust" not in names:
            raise InputError(self.source.path, where, "an augmented engine (or <augmethod> 2) needs its AugThrust "
                             "function")
        timed = root.find("injection-time") is not None
        if injected == 1 and timed and "Injection" not in names:
            raise InputError(self.source.path, where, "a water-injected engine with an <injection-time> needs its "
                             "Injection function")
        bypass = value("bypassratio", 0.0)
        delay = 90.0 / (bypass + 3.0)
        row = [0.0] * ENGINE_FIELDS
        row[E_MIL], row[E_BLEED] = value("milthrust", 10000.0), value("bleed", 0.0)
        row[E_IDLE_N1], row[E_IDLE_N2] = value("idlen1", 30.0), value("idlen2", 60.0)
        row[E_MAX_N1], row[E_MAX_N2] = value("maxn1", 100.0), value("maxn2", 100.0)
        row[E_N1_UP], row[E_N1_DOWN], row[E_N2_UP], row[E_N2_DOWN] = (1.0 * delay, 2.4 * delay, 1.0 * delay,
                                                                      3.0 * delay)
        row[E_MAX_THRUST] = value("maxthrust", 10000.0)
        row[E_AUGMENTED], row[E_AUGMETHOD], row[E_INJECTED] = augmented, method, injected
        row[E_INJECTION_TIME] = value("injection-time", 30.0)
        for tag, (default, column) in START_DEFAULTS.items():
            row[column] = value(tag, default)
        for tag in ("n1spindown", "n2spindown"):
            if row[START_DEFAULTS[tag][1]] <= 0.0:
                raise InputError(self.source.path, f"{where}/{tag}", "must be above 0 (the spool's fall divides by it)")
        windmill = root.find("disable-windmill")
        row[E_NO_WINDMILL] = 0.0 if windmill is None else float(self._boolean(windmill, f"{where}/disable-windmill"))
        row[E_TSFC], row[E_ATSFC] = value("tsfc", 0.8), value("atsfc", 1.7)
        row[E_IDLE_FF] = idle_fuel_flow(row[E_MIL])
        own = [self.properties.slot(f"fcs/throttle-pos-norm[{k}]"), names["IdleThrust"], names["MilThrust"]]
        own += [names.get(n, -1) for n in _SPOOL_FUNCTIONS]
        state = [self.properties.slot(n.format(e=prefix)) for n in TURBINE_STATE]
        if thrust is not None:              # (a turbine driving a propeller: its own thrust is not thrust-lbs)
            state[TURBINE_STATE.index("{e}/thrust-lbs")] = self.properties.slot(thrust)
        own += state[:4] + [names.get("AugThrust", -1), state[4], names.get("Injection", -1)] + state[5:]
        own += [self.properties.slot(n.format(e=prefix)) for n in TURBINE_SWITCHES]
        slots.append(own)
        name = self.properties.names
        # FGTurbine::Load: the water left is 1 when the file gives an injection time, the increments the file's;
        # running, as JSBSim's set-running leaves it (a script's reset file stops the others: initial_engines)
        self.defaults.update({name[own[S_WATER]]: 1.0 if timed else 0.0,
                              name[own[S_INJ_N1]]: value("injection-N1-inc", 0.0),
                              name[own[S_INJ_N2]]: value("injection-N2-inc", 0.0),
                              name[own[S_PHASE]]: float(PHASE_RUN), name[own[S_RUNNING]]: 1.0,
                              name[own[S_CUTOFF]]: 0.0, name[own[S_POWER]]: 1.0})
        return row

    def _boolean(self, el, where):
        """An element's 0/1 (or true/false) value, as ``Element::FindElementValueAsBoolean`` reads it."""
        text = (el.text or "").strip().lower()
        if text in ("true", "false"):
            return text == "true"
        return self.source.number(el, where) != 0.0

    def locate(self, structural_to_body):
        """Fill each thruster's location about the CG (body frame, ft) from ``structural_to_body(r_in)``."""
        for k, ((kind, row), r) in enumerate(zip(self.kinds, self.locations, strict=True)):
            if k in self.turbine_propellers:
                self.propellers[self.turbine_propellers[k], PR_X:PR_Z + 1] = structural_to_body(r)
            elif kind in ("piston", "turboprop", "rotor", "brushless"):
                self.propellers[row, PR_X:PR_Z + 1] = structural_to_body(r)
            else:                               # (turbines, rockets and electric engines: rows of engines)
                self.engines[row, E_X:E_Z + 1] = structural_to_body(r)

    def run(self, props, dt, density_ratio, out=None):
        """One frame: the engines' functions, then :func:`engines_frame` (state and outputs written into
        ``props``); returns the thrusters' body loads ``[X, Y, Z, L, M, N]`` about the CG (lbf, lbf·ft)."""
        out = np.zeros(6) if out is None else out
        self.program.run(props)
        if np.any(self.pistons[:, _piston.PE_KIND] == _rotor.ROTOR):      # (a rotor's frame: by address only)
            engines_frame_by_address(props, *self.arrays, frame_addresses(self.pistons), dt, density_ratio, out)
        else:
            engines_frame(props, *self.arrays, dt, density_ratio, out)
        self.post_program.run(props)
        return out

    def steady(self, props, density_ratio, out=None):
        """Every engine at its steady state for the throttles and the flight condition in ``props``
        (:func:`engines_steady`), for a trimmed start; returns the thrusters' body loads there.

        Raises
        ------
        RuntimeError
            A piston engine has no running equilibrium there (it would stop).
        """
        out = np.zeros(6) if out is None else out
        self.program.run(props)
        failed = engines_steady(props, *self.arrays, density_ratio, out)
        self.post_program.run(props)
        if failed:
            kind = "piston" if not np.any(self.pistons[:, _piston.PE_KIND]) else "propeller-driving"
            raise RuntimeError(f"{self.source.path}: {failed} of its {self.pistons.shape[0]} {kind} engine(s) have "
                               "no running steady state at this throttle and flight condition (they would stop, or "
                               "a turboprop's reverser is on)")
        return out


@borrowing_jit
def turbines(props, engines, slots, dt, density_ratio, out):
    """One frame of every running turbine (FGTurbine::Run) and the direct thrusters' loads into ``out`` (rows of
    other kinds skipped)."""
    for k in range(6):
        out[k] = 0.0
    for e in range(engines.shape[0]):
        if engines[e, E_KIND] == KIND_TURBINE:
            turbine_frame(props, engines[e], slots[e], dt, density_ratio, out)


@borrowing_jit
def _rocket_or_electric_frame(props, row, s, dt, out):
    """One frame (``dt`` s) of a rocket or an electric engine (:mod:`~flightsim.physics.jsbsim.rocket`), by the
    row's :data:`E_KIND`; its thruster's loads added into ``out``."""
    if row[E_KIND] == KIND_ROCKET:
        _rocket.rocket_frame(props, row, s, dt, out)
    else:
        _rocket.electric_frame(props, row, s, out)


@borrowing_jit
def engines_frame(props, engines, slots, pistons, piston_slots, propellers, propeller_slots, tables, table_data, dt,
                  density_ratio, out):
    """One frame (``dt`` s) of every engine, as JSBSim's ``FGPropulsion::Run``: the turbines
    (:func:`turbines`), rockets and electric engines (:mod:`~flightsim.physics.jsbsim.rocket`) in their order, then
    the pistons with their propellers (:func:`~flightsim.physics.jsbsim.piston.piston_frame`);
    ``out`` is set to the sum of all thrusters' body loads about the CG ``[X, Y, Z, L, M, N]`` (JSBSim's body
    frame, x forward, y right, z down; lbf, lbf·ft).

    An electric engine's rotor is left out here: its frame is called by address only
    (:func:`engines_frame_by_address`, which :meth:`Propulsion.run` calls for an aircraft with one), so that this
    function, compiled for every aircraft's engines when called from Python, does not compile it too.

    The arrays after ``props`` are :attr:`Propulsion.arrays`.  The engines' functions
    (:attr:`Propulsion.program`) must have run on ``props`` first; ``density_ratio`` is σ (the turbines' spool
    rates).  Everything else the engines read is in ``props``: the throttle (and mixture) positions, the
    atmosphere, the air-relative and inertial body rates and velocities (see the module of each engine).
    """
    _direct_frames(props, engines, slots, dt, density_ratio, out)
    for e in range(pistons.shape[0]):
        if pistons[e, _piston.PE_KIND] == _rotor.ROTOR:     # (by address only: engines_frame_by_address)
            continue
        if pistons[e, _piston.PE_KIND] != 0.0:
            _turboprop.powered_frame(props, pistons[e], piston_slots[e], propellers[e], propeller_slots[e], tables[e],
                                     table_data, dt, out)
            continue
        piston_frame(props, pistons[e], piston_slots[e], propellers[e], propeller_slots[e], tables[e], table_data,
                     dt, out)


@borrowing_jit
def _direct_frames(props, engines, slots, dt, density_ratio, out):
    """``out`` zeroed, then one frame of each turbine, rocket and electric engine in their order (their loads
    added into ``out``): :func:`engines_frame`'s first part."""
    for k in range(6):
        out[k] = 0.0
    for e in range(engines.shape[0]):
        if engines[e, E_KIND] == KIND_TURBINE:
            turbine_frame(props, engines[e], slots[e], dt, density_ratio, out)
        else:
            _rocket_or_electric_frame(props, engines[e], slots[e], dt, out)


@borrowing_jit
def engines_frame_by_address(props, engines, slots, pistons, piston_slots, propellers, propeller_slots, tables,
                             table_data, frames, dt, density_ratio, out):
    """:func:`engines_frame`, each piston's and each propeller-driving turbine's frame called through its
    address in ``frames`` (:func:`frame_addresses`): what the compiled step calls.

    The step is compiled once for every JSBSim aircraft; called directly, the pistons', turboprops' and
    propellers' frames (the largest part of the engines' code) were compiled into it for every aircraft, a
    737's too.  Called by address they are compiled (or loaded) only for an aircraft that has such an engine,
    when it is loaded.  The same functions in the same order: the same bits.
    """
    _direct_frames(props, engines, slots, dt, density_ratio, out)
    for e in range(pistons.shape[0]):
        kind = pistons[e, _piston.PE_KIND]
        address = frames[2] if kind == _rotor.ROTOR else (frames[1] if kind != 0.0 else frames[0])
        call_frame(address, props, pistons[e], piston_slots[e], propellers[e], propeller_slots[e], tables[e],
                    table_data, dt, out)


#: The C signature of a propeller-driving engine's frame called by address (:func:`engines_frame_by_address`):
#: pointers to the properties (and their count), the engine's row, slots, propeller row and slots, table row,
#: the table data (and its count), the step (s) and the loads' sum.
FRAME_SIGNATURE = ("void(CPointer(float64), int64, CPointer(float64), CPointer(int64), CPointer(float64), "
                   "CPointer(int64), CPointer(int64), CPointer(float64), int64, float64, CPointer(float64))")
_PISTON_SLOT_FIELDS, _PROPELLER_SLOT_FIELDS = len(PISTON_SLOTS), len(PROPELLER_SLOTS)


def _piston_frame_c(props, n_props, row, s, pr, ps, tb, data, n_data, dt, out):
    piston_frame(carray(props, (n_props,)), carray(row, (_piston.ROW_FIELDS,)), carray(s, (_PISTON_SLOT_FIELDS,)),
                 carray(pr, (_propeller.ROW_FIELDS,)), carray(ps, (_PROPELLER_SLOT_FIELDS,)),
                 carray(tb, (TABLE_FIELDS,)), carray(data, (n_data,)), dt, carray(out, (6,)))


def _powered_frame_c(props, n_props, row, s, pr, ps, tb, data, n_data, dt, out):
    _turboprop.powered_frame(carray(props, (n_props,)), carray(row, (_piston.ROW_FIELDS,)),
                             carray(s, (_PISTON_SLOT_FIELDS,)), carray(pr, (_propeller.ROW_FIELDS,)),
                             carray(ps, (_PROPELLER_SLOT_FIELDS,)), carray(tb, (TABLE_FIELDS,)),
                             carray(data, (n_data,)), dt, carray(out, (6,)))


def _rotor_frame_c(props, n_props, row, s, pr, ps, tb, data, n_data, dt, out):
    _rotor.rotor_frame(carray(props, (n_props,)), carray(row, (_piston.ROW_FIELDS,)),
                       carray(s, (_PISTON_SLOT_FIELDS,)), carray(pr, (_propeller.ROW_FIELDS,)),
                       carray(ps, (_PROPELLER_SLOT_FIELDS,)), carray(tb, (TABLE_FIELDS,)),
                       carray(data, (n_data,)), dt, carray(out, (6,)))


#: :func:`_frame_callback`'s kinds: a piston's frame, a turboprop's or a turbine's propeller's, an electric
#: engine's rotor's (the index of its address in :func:`frame_addresses`).
FRAME_PISTON, FRAME_POWERED, FRAME_ROTOR = 0, 1, 2


@functools.cache
def _frame_callback(which):
    """The C callback of a piston's frame (``which`` :data:`FRAME_PISTON`, or False), of a turboprop's or a turbine's
    propeller's (:data:`FRAME_POWERED`, or True) or of an electric engine's rotor's (:data:`FRAME_ROTOR`): compiled,
    or loaded from numba's disk cache, at the first call."""
    function = (_piston_frame_c, _powered_frame_c, _rotor_frame_c)[int(which)]
    return cfunc(FRAME_SIGNATURE, cache=True, error_model="numpy")(function)


def march_piston(props, propulsion, row, dt=0.5, most=6000, still=120):
    """``FGPropulsion::GetSteadyState`` for piston ``row`` of ``propulsion`` (:class:`Propulsion`): its frame
    (:func:`~flightsim.physics.jsbsim.piston.piston_frame`) run again and again with a time step ``dt`` of 0.5 s
    until its thrust has changed by less than 1e-4 lbf in more than ``still`` frames running, at most ``most``
    frames, as JSBSim's time-marching steady state runs it after ``InitRunning`` (an engine that dies on the way,
    as a c310's does at idle on the ground, stays dead).  ``props`` (the property array) is changed in place.

    Returns
    -------
    int
        The frames run.
    """
    frames, _, _ = _march(props, FRAME_PISTON, _propeller.RS_THRUST, dt, most, still, propulsion.pistons[row],
                          propulsion.piston_slots[row], propulsion.propellers[row], propulsion.propeller_slots[row],
                          propulsion.tables[row], propulsion.table_data)
    return frames


def _march(props, which, thrust_column, dt, most, still, *rows, current=0.0):
    """Frame ``which`` (:func:`_frame_callback`) of one engine (its ``rows``: piston row and slots, propeller row
    and slots, table row, table data) run with step ``dt`` until its thrust (propeller slot ``thrust_column``) has
    changed by less than 1e-4 lbf in more than ``still`` frames running, at most ``most`` frames
    (``FGPropulsion::GetSteadyState``'s loop; ``current`` the thrust it starts from: JSBSim's last engine's).
    Returns the frames run, the last thrust and the last frame's loads."""
    import ctypes

    callback = _frame_callback(which).ctypes
    r, s, pr, ps, tb, data = (np.ascontiguousarray(a) for a in rows)
    out = np.zeros(6)
    thrust = int(ps[thrust_column])

    def pointer(a):
        return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double if a.dtype == np.float64 else ctypes.c_int64))

    args = (pointer(props), len(props), pointer(r), pointer(s), pointer(pr), pointer(ps), pointer(tb), pointer(data),
            len(data), ctypes.c_double(dt), pointer(out))
    count, frames = 0, 0
    while frames < most:
        out[:] = 0.0
        callback(*args)
        frames += 1
        last, current = current, props[thrust]
        count = count + 1 if abs(last - current) < 0.0001 else 0
        if count > still:
            break
    return frames, current, out


def run_rotor_frame(props, propulsion, row, dt):
    """One frame of the electric engine and rotor ``row`` of ``propulsion`` (:func:`~flightsim.physics.jsbsim.
    rotor.rotor_frame`) with the transmission stepping ``dt`` s (0: ``RunIC``'s frame); returns its loads."""
    _, _, out = _march(props, FRAME_ROTOR, _rotor.RR_THRUST, dt, 1, 0, propulsion.pistons[row],
                       propulsion.piston_slots[row], propulsion.propellers[row], propulsion.propeller_slots[row],
                       propulsion.tables[row], propulsion.table_data)
    return out


#: A rotor's march (``FGPropulsion::GetSteadyState``): at most this many frames, until its thrust has held for
#: the second many (:func:`march_rotor`, :func:`engines_steady`).
ROTOR_MARCH = (6000, 120)


def march_rotor(props, propulsion, row, dt=0.5, current=0.0):
    """``FGPropulsion::GetSteadyState`` for the electric engine and rotor ``row`` of ``propulsion``: its frame
    (:func:`~flightsim.physics.jsbsim.rotor.rotor_frame`) marched as :func:`march_piston` marches a piston (the
    transmission stepping ``dt``, 0.5 s; the inflow's lag the simulation's step, as JSBSim's rotor keeps its own).
    Returns the last thrust (the next engine's march starts from it, as JSBSim's) and the last frame's loads."""
    _, current, out = _march(props, FRAME_ROTOR, _rotor.RR_THRUST, dt, *ROTOR_MARCH, propulsion.pistons[row],
                             propulsion.piston_slots[row], propulsion.propellers[row],
                             propulsion.propeller_slots[row], propulsion.tables[row], propulsion.table_data,
                             current=current)
    return current, out


def frame_addresses(pistons):
    """``jsb_frames`` for the rows ``pistons`` (:attr:`Propulsion.pistons`): int64, the address of a piston's
    frame and of a propeller-driving turbine's (0 where the aircraft has none), for
    :func:`engines_frame_by_address`.  Compiles (or loads) only the kinds the aircraft has."""
    kinds = np.asarray(pistons)[:, _piston.PE_KIND]
    rotors = kinds == _rotor.ROTOR
    return np.array([_frame_callback(FRAME_PISTON).address if np.any(kinds == 0.0) else 0,
                     _frame_callback(FRAME_POWERED).address if np.any((kinds != 0.0) & ~rotors) else 0,
                     _frame_callback(FRAME_ROTOR).address if np.any(rotors) else 0], dtype=np.int64)


def engines_steady(props, engines, slots, pistons, piston_slots, propellers, propeller_slots, tables, table_data,
                   density_ratio, out):
    """Every engine at its steady state for the throttles and flight condition in ``props`` (for a trimmed
    start, as JSBSim's ``FGPropulsion::GetSteadyState``), then their outputs and loads computed once, with no
    time passing, into ``props`` and ``out`` (as :func:`engines_frame`).

    A turbine's spools are put at their targets ``idle + throttle (max − idle)`` (with the water injection's
    increments while it is on; its timer does not run), its augmentation lit or not as ``FGTurbine::Run`` settles
    it at that throttle (augmethod 1: throttle above 0.99 and N2 above 97 %; 2: throttle above 1; 0: as it is),
    so the thrust is the one ``GetSteadyState`` marches to (JSBSim's trim itself evaluates
    ``FGTurbine::Trim``, which takes the bleed off before the afterburner's share even while it is lit); a
    piston's manifold pressure at
    its target and its propeller at the rpm where the engine's power is the propeller's
    (:func:`~flightsim.physics.jsbsim.piston.piston_steady`); a rocket's flows at its throttle's and the thrust
    they make (the fixed point of its frames burning: JSBSim's own trim burns nothing, so its rocket gives no
    thrust there), an electric engine's power and thrust at its throttle; an electric engine's rotor marched as
    ``GetSteadyState`` marches it (0.5 s frames until its thrust holds, at most 6000: its loads the last frame's).

    Called from Python (a settled start, :func:`flightsim.physics.jsbsim.loads.settle_start`), it compiles (or
    loads) only the steady states of the kinds of engine the aircraft has, each engine's in turn as the compiled
    loop took them: the same operations in the same order, so the same bits.  (Compiled as one loop over every
    kind, the pistons', turboprops' and propellers' solvers were a 737's first start's largest compile.)

    Returns
    -------
    int
        How many piston engines have no running equilibrium (left as they were, and their loads not added).
    """
    out[:6] = 0.0
    density_ratio = float(density_ratio)
    for e in range(engines.shape[0]):
        if engines[e, E_KIND] == KIND_TURBINE:
            turbine_steady(props, engines[e], slots[e], density_ratio, out)
        elif engines[e, E_KIND] == KIND_ROCKET:
            _rocket.rocket_steady(props, engines[e], slots[e], out)
        else:
            _rocket.electric_frame(props, engines[e], slots[e], out)
    failed = 0
    frame = _frame_callback(False).address if np.any(pistons[:, _piston.PE_KIND] == 0.0) else 0
    current = 0.0
    for e in range(pistons.shape[0]):
        if pistons[e, _piston.PE_KIND] == _rotor.ROTOR:       # (GetSteadyState's march: 0.5 s frames)
            _, current, loads = _march(props, FRAME_ROTOR, _rotor.RR_THRUST, 0.5, *ROTOR_MARCH, pistons[e],
                                       piston_slots[e], propellers[e], propeller_slots[e], tables[e], table_data,
                                       current=current)
            out[:6] += loads
            continue
        if pistons[e, _piston.PE_KIND] != 0.0:
            if not _turboprop.powered_steady(props, pistons[e], piston_slots[e], propellers[e], propeller_slots[e],
                                             tables[e], table_data, out):
                failed += 1
            continue
        if not piston_steady(props, pistons[e], piston_slots[e], propellers[e], propeller_slots[e], tables[e],
                             table_data, out, frame):
            failed += 1
    return failed

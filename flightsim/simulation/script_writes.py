"""A JSBSim script's properties read and written on a flightsim flight: what its events' ``<set>``s reach.

:class:`ScriptProperties` is the script's view of the property tree (JSBSim's ``FGPropertyManager`` as
``FGScript`` uses it) over a :class:`~flightsim.simulation.flight.Simulation` of a JSBSim aircraft:

- reading: the flight's built-in properties (:mod:`flightsim.simulation.script_properties`, computed once per
  frame), every ``FGAuxiliary`` property flightsim computes
  (:meth:`~flightsim.simulation.flight.Simulation.jsbsim_auxiliary`), the script's own declared properties, the
  wind (``atmosphere/wind-north-fps``, ``-east-``, ``-down-``; with the cosine gust, :meth:`ScriptProperties.
  set_gust`, ``atmosphere/total-wind-*-fps``), ``simulation/frame``, ``simulation/dt``,
  ``simulation/trim-completed``, and the aircraft's property array;
- writing (:meth:`ScriptProperties.kind` sorts a name before the run, so that what cannot be written is refused
  before anything flies):

  ========================================  ==================================================================
  the script's declared properties          held as the script's own
  the pilot's commands                      a command row of the aircraft (``fcs/elevator-cmd-norm``,
                                            ``fcs/throttle-cmd-norm[n]``, ``fcs/mixture-cmd-norm[n]``,
                                            ``fcs/advance-cmd-norm[n]``, ...) held at the value, as JSBSim's
                                            ``FGFCS`` holds a command until it is set again
  ``atmosphere/wind-{north,east,down}-fps`` the steady wind the flight flies (NED, ft/s)
  ``simulation/terminate``                  the run ends after this frame (its outputs written)
  ``simulation/do_simple_trim``             :meth:`ScriptProperties.trim`
  ``simulation/do_linearization``           :meth:`ScriptProperties.linearize`: JSBSim's linear model about the
                                            state now, ``<aircraft>_lin.sce`` written in the current folder
  ``propulsion/set-running``                n (−1: all): engine n started as JSBSim's ``InitRunning`` starts it
                                            (a piston: mixture 1, both magnetos, the propeller at twice idle,
                                            running; a turbine: fuel on, running, throttle 1 for the march), then
                                            settled (``GetSteadyState``), at once (that frame's step goes on
                                            from there); pistons and turbines (turboprops run)
  ``propulsion/engine[n]/set-running``      the engine's ``Running`` flag, written (FGEngine::SetRunning)
  ``propulsion/magneto_cmd``,               every piston's magnetos (0 off, 1 left, 2 right, 3 both), every
  ``propulsion/starter_cmd``,               piston's and turbine's starter, every turbine's fuel cut-off
  ``propulsion/cutoff_cmd``                 (FGPropulsion::SetMagnetos, SetStarter, SetCutoff), or the active
                                            engine's only
  ``propulsion/active_engine``              the engine those three reach (−1: all; FGPropulsion::SetActiveEngine,
                                            an engine the aircraft lacks refused where JSBSim takes it as all)
  any other property of the array           written into it (the aircraft's own ``ap/*``, its systems' inputs):
                                            what computes it overwrites it, as in JSBSim
  ========================================  ==================================================================

  Refused (one line naming the script's ``<set>``): JSBSim's read-only properties (the state and what is
  computed from it: ``velocities/``, ``attitude/``, ``aero/``, ``accelerations/``, ``forces/``, ``moments/``,
  ``flight-path/``, ``metrics/``, the atmosphere's state), the position (flightsim does not move an aircraft from
  a script), starts and cut-offs on an aircraft with turboprops (FGTurboProp's start is not modelled: its engines
  run from the start), and any name nothing defines.  ``position/terrain-elevation-asl-ft`` (the ground's height)
  is accepted when the script is read and stops the run when an event writes it (flightsim's ground is the reset
  file's for the whole run).

The engines start as the reset file says (:meth:`ScriptProperties.initial_engines`): a piston or turbine its
``<running>`` does not name stands still (FGEngine's, FGPiston's and FGTurbine's ``ResetToIC``, then ``run_ic``'s
frame with no time passing) until the script starts it.
"""

from __future__ import annotations

import math
import re

import numpy as np

from flightsim.physics import planet as planets
from flightsim.physics.constants import FT_TO_M, KNOT
from flightsim.physics.jsbsim.auxiliary import AUXILIARY
from flightsim.physics.jsbsim.loads import GEAR_LOADS, PROP_LOADS, STATE
from flightsim.physics.jsbsim.program import canonical, geodesic
from flightsim.simulation import script_properties as props

__all__ = ["READ_ONLY_PREFIXES", "TRIM_MODES", "ScriptProperties"]

#: Prefixes of the properties JSBSim ties read-only (computed each frame from the state).
READ_ONLY_PREFIXES = ("velocities/", "attitude/", "aero/", "accelerations/", "forces/", "moments/",
                      "flight-path/", "metrics/")
#: JSBSim's ``do_simple_trim`` modes flightsim's trim matches: mode → (what it is, flightsim's lateral trim).
TRIM_MODES = {0: ("longitudinal", "longitudinal"), 1: ("full", "no-sideslip"), 2: ("ground", "ground"),
              5: ("turn", "turn")}
#: Why the other modes are refused.
TRIM_REFUSED = {3: "a pull-up trim is not in flightsim's trim", 4: "a custom trim is not in flightsim's trim",
                6: "mode 6 is no trim"}
#: The ground's height a script may write (FGGroundCallback's, through FGPropagate): accepted when the script is
#: read, refused when an event writes it (flightsim's ground is the reset file's for the whole run).
GROUND = "position/terrain-elevation-asl-ft"
#: JSBSim's standard sea-level pressure, psf (``FGAtmosphere::StdDaySLpressure``), for ``in.PressureRatio``.
SEA_LEVEL_PSF = 2116.228
#: A contact's weight-on-wheels property (``FGLGear::bind``): ``gear/unit[k]/WOW`` for a BOGEY,
#: ``contact/unit[k]/WOW`` for a STRUCTURE (``k`` its number in the file, ``unit`` alone ``unit[0]``).
CONTACT_WOW = re.compile(r"^(gear|contact)/unit(?:\[(\d+)\])?/WOW$")
#: An engine's fuel flow in US gallons an hour (``FGEngine::GetFuelFlowRateGPH``: its ``fuel-flow-rate-pps`` times
#: 3600 over the fuel's density; read-only).
FUEL_GPH = re.compile(r"^(propulsion/engine(?:\[\d+\])?)/fuel-flow-rate-gph$")
#: The wind's properties (NED, ft/s) and their index.
WIND = {"atmosphere/wind-north-fps": 0, "atmosphere/wind-east-fps": 1, "atmosphere/wind-down-fps": 2}
#: The steady wind's direction (the way it blows *towards*, rad) and speed (ft/s), as ``FGWinds`` ties them:
#: ``SetWindPsi`` keeps the speed and turns the wind to the direction (level), ``SetWindspeed`` keeps the direction
#: (a calm wind starts blowing North, the direction back at 0); the direction is FGWinds' own ``psiw``, 0 until set,
#: and each frame the wind's own direction where it blows North or South (``FGWinds::Run``).
WIND_DIRECTION, WIND_SPEED = "atmosphere/psiw-rad", "atmosphere/wind-mag-fps"
#: ``FGAuxiliary``'s distances from the start (m): along the geodesic on the planet's ellipsoid from the reset
#: file's position (``GetDistanceRelativePosition``), and from the start's longitude along the present latitude's
#: and from its latitude along the present longitude's (``GetLongitudeRelativePosition``,
#: ``GetLatitudeRelativePosition``).
DISTANCE_FROM_START = ("position/distance-from-start-mag-mt", "position/distance-from-start-lon-mt",
                       "position/distance-from-start-lat-mt")
#: The total wind's (the steady wind plus the cosine gust: ``FGWinds``' ``vTotalWindNED``; read-only), NED, ft/s.
TOTAL_WIND = {"atmosphere/total-wind-north-fps": 0, "atmosphere/total-wind-east-fps": 1,
              "atmosphere/total-wind-down-fps": 2}
#: The atmosphere's temperature bias, °R (``FGStandardAtmosphere``'s ``atmosphere/delta-T``): the flight's
#: atmosphere from the step after the script writes it (:meth:`~flightsim.simulation.flight.Simulation.
#: set_jsbsim_temperature_bias`).
TEMPERATURE_BIAS = "atmosphere/delta-T"
#: JSBSim's ``simulation/do_linearization`` (``FGFDMExec::DoLinearization``: any value).
LINEARIZE = "simulation/do_linearization"
#: The pitch trim's command: FGTrim's ``tPitchTrim`` control, where the trimmed elevator goes.
PITCH_TRIM = "fcs/pitch-trim-cmd-norm"
#: JSBSim's setting (``FGAccelerations``) that turns the gravity-gradient torque on (:attr:`Simulation.gravity_torque
#: <flightsim.simulation.flight.Simulation.gravity_torque>`).
GRAVITY_TORQUE = "simulation/gravitational-torque"
#: JSBSim's ``forces/hold-down`` (``FGFDMExec::SetHoldDown``): the airplane held at rest where it is
#: (:attr:`Simulation.hold_down <flightsim.simulation.flight.Simulation.hold_down>`).
HOLD_DOWN = "forces/hold-down"
#: Engine-start properties refused where the aircraft's engines have no such switch and its own systems do not
#: declare them (the Short_S23's declare ``fcs/starter-cmd-norm[n]``, which its electrical system reads).
ENGINE_STARTS = ("propulsion/starter_cmd", "propulsion/cutoff_cmd", "fcs/starter-cmd-norm")
#: The per-engine properties a ``propulsion/*`` switch reaches: a piston's magnetos and starter
#: (:data:`~flightsim.physics.jsbsim.piston.PISTON_SLOTS`), a turbine's starter and cut-off
#: (:data:`~flightsim.physics.jsbsim.turbine.TURBINE_SWITCHES`).
SWITCHES = {"magneto": "magneto_cmd", "starter": "starter_cmd", "cutoff": "cutoff_cmd"}


class ScriptProperties:
    """The property tree a script reads and writes on the flight ``sim`` (a JSBSim aircraft's).

    Parameters
    ----------
    sim : flightsim.simulation.flight.Simulation
    constants : dict
        The script's declared properties that are not the aircraft's (name → value), updated in place.
    ic : flightsim.physics.jsbsim.initial.InitialCondition
        The reset file, which a trim starts from (as JSBSim's FGTrim starts from the exec's IC).
    wind : sequence of 3 float
        The steady wind now (NED, ft/s).
    """

    def __init__(self, sim, constants, ic, wind=(0.0, 0.0, 0.0)):
        self.sim = sim
        self.model = sim.aircraft.jsbsim
        self.constants = constants
        self.ic = ic
        self.terminate = False
        self.ned_wind = [float(w) for w in wind]
        self.wind_psi = 0.0                 # (FGWinds' psiw: written, and each frame the wind's, :meth:`apply`)
        self.gust_ned = [0.0, 0.0, 0.0]
        self._frame = self._aux = None
        self._t = 0.0
        self._getters = {}
        self._kinds = {}
        self.frame = 0
        # (a command the aircraft's flight controls compute, the c172x's automatic mixture, is theirs: a script's
        # write reaches it once, as JSBSim's FGFCS property, and no pilot's row holds it)
        self.commands = sim.own_jsbsim_commands(leave=set(self.model.fcs.outputs))
        self._rows = {int(row[0]): k for k, row in enumerate(self.commands)}
        self._hold_wind()
        #: the trims done: (clock, mode, result): FGTrim's run (:class:`~flightsim.physics.jsbsim.fgtrim.FGTrim`),
        #: flightsim's TrimPoint (a flat planet's) or None (the ground trim)
        self.trims = []
        #: the linearizations done (:class:`~flightsim.simulation.linearization.Linearization`), each written
        self.linearizations = []
        #: what the script set for the flight, waiting for the step's end (:meth:`write`)
        self.pending = {}
        #: ``propulsion/active_engine``: the engine the switches reach (FGPropulsion's ``ActiveEngine``; −1 all)
        self.active_engine = -1
        self._flags = None
        #: the ``ic/*`` properties at the start (:func:`~flightsim.simulation.script_properties.initial_values`),
        #: which a trim compares the script's writes with
        self.initial = {}

    # ------------------------------------------------------------------ reading

    def new_frame(self, t, frame=None, same_state=False):
        """The clock is now ``t`` (s), the frame ``frame`` (JSBSim's ``simulation/frame``; None: as it was): the
        built-in properties are computed again when next read (``same_state``: the flight's state and models are
        those last read, only the clock moved: what was computed of them is kept)."""
        if same_state and self._frame is not None:
            self._frame.at(t)
        else:
            self._frame = self._aux = None
        self._t = t
        if frame is not None:
            self.frame = frame

    def view(self):
        """The built-in properties now (:class:`~flightsim.simulation.script_properties.FrameView`, computed as
        they are read)."""
        if self._frame is None:
            self._frame = props.FrameView(self.sim, self._t)
        return self._frame

    def _auxiliary(self, name):
        """An ``FGAuxiliary`` property now (:meth:`~flightsim.simulation.flight.Simulation.jsbsim_auxiliary_values`,
        computed once a frame)."""
        if self._aux is None:
            self._aux = self.sim.jsbsim_auxiliary_values()
        values, index = self._aux
        return float(values[index[name]])

    def read(self, name):
        """A property's value now (``name`` canonical: :func:`~flightsim.simulation.script_properties.canonical_name`).

        Raises
        ------
        KeyError
            Nothing defines it.
        """
        if name in self.constants:
            return self.constants[name]
        if name in self.pending:
            return self.pending[name]
        getter = self._getters.get(name)
        if getter is None:
            getter = self._getters[name] = self._getter(name)
        return getter()

    def _getter(self, name):
        """How :meth:`read` reads ``name`` when neither a constant nor pending: what defines it does not change
        during a run, so it is found once (the function it returns raises KeyError where nothing defines it)."""
        if name in props.BUILTIN:
            return lambda: self.view()[name]
        if name in AUXILIARY:
            return lambda: self._auxiliary(name)
        if self.model is not None and name in self.model.properties:
            slot = self.model.properties[name]          # (Simulation.jsbsim_property's, found once)
            return lambda: float(self.sim.jsbsim_properties[slot])
        if name in GEAR_LOADS and self.model is not None:       # (FGGroundReactions' force, the last frame's)
            which = GEAR_LOADS.index(name)
            return lambda: self.sim.jsbsim_gear_force()[which]
        if name == WIND_DIRECTION:
            return lambda: self.wind_psi
        if name == WIND_SPEED:
            return self._wind_speed
        if name in DISTANCE_FROM_START:
            which = DISTANCE_FROM_START.index(name)
            return lambda: self._distance_from_start(which)
        return lambda: self._read_other(name)

    def _read_other(self, name):
        """:meth:`read` of a name that is not a built-in, an auxiliary or an array property."""
        wow = CONTACT_WOW.match(name)
        if wow is not None and self.model is not None:       # FGLGear's own WOW, bound for every contact
            unit = f"{wow.group(1)}/unit[{wow.group(2) or 0}]"
            for prefix, on in self.sim.contact_wow():
                if prefix == unit:
                    return 1.0 if on else 0.0
        if name in WIND:
            return self.ned_wind[WIND[name]]
        if name == TEMPERATURE_BIAS and self.model is not None:
            return self.sim.jsbsim_temperature_bias
        if name in TOTAL_WIND:
            return self.ned_wind[TOTAL_WIND[name]] + self.gust_ned[TOTAL_WIND[name]]
        gph = FUEL_GPH.match(name)
        if gph is not None and self.model is not None and f"{gph.group(1)}/fuel-flow-rate-pps" in self.model.properties:
            return self.sim.jsbsim_property(f"{gph.group(1)}/fuel-flow-rate-pps") * 3600.0 / self._fuel_density()
        kind = self.kind(name)[0]
        if kind == "running":
            return 0.0                  # (JSBSim ties it with no getter)
        if kind == "turbine-running":
            return 1.0                  # (flightsim's turboprops run)
        if kind in ("engine-running", "engine-flag"):
            return self.sim.jsbsim_property(name)
        if kind == "magneto":
            return 0.0                  # (JSBSim ties it with no getter)
        if kind == "active":
            return float(self.active_engine)
        if kind == "starter":           # (FGPropulsion::GetStarter: all engines', or the active one's)
            return 1.0 if all(n is not None and self.sim.jsbsim_property(n) != 0.0
                              for n in self._switch_names("starter", every=True)) else 0.0
        if kind == "cutoff":            # (FGPropulsion::GetCutoff: −1 where another kind of engine is asked)
            names = self._switch_names("cutoff", every=True)
            if any(n is None for n in names):
                return -1.0
            return 1.0 if all(self.sim.jsbsim_property(n) != 0.0 for n in names) else 0.0
        if name in ("simulation/terminate", "simulation/do_simple_trim", "simulation/reset",
                    "simulation/write-state-file", LINEARIZE):
            return 1.0 if name == "simulation/terminate" and self.terminate else 0.0
        if name == "simulation/trim-completed":
            return 1.0 if self.trims else 0.0
        if name == "simulation/frame":
            return float(self.frame)
        if name == "simulation/dt":
            return self.sim.dt
        raise KeyError(name)

    def known(self, name):
        """Whether something defines ``name``."""
        try:
            self.read(name)
        except KeyError:
            return False
        return True

    # ------------------------------------------------------------------ writing

    def kind(self, name):
        """What writing ``name`` does: ``(kind, reason)``, kind one of ``local``, ``command``, ``wind``,
        ``terminate``, ``trim``, ``running``, ``turbine-running`` (a turboprop's), ``engine-running`` (a piston's
        or a turbine's), ``engine-flag`` (:meth:`_engine_flags`), ``magneto``, ``starter``, ``cutoff``,
        ``active``, ``array``, or ``refused`` with the reason (None: nothing defines it)."""
        if name in self.constants:
            return "local", ""
        found = self._kinds.get(name)        # (what else a name is does not change during a run: found once)
        if found is None:
            found = self._kinds[name] = self._kind(name)
        return found

    def _kind(self, name):
        """:meth:`kind` of a name that is not the script's own."""
        if name == "simulation/terminate":
            return "terminate", ""
        if name == "simulation/do_simple_trim":
            return "trim", ""
        if name == LINEARIZE and self.model is not None:
            from flightsim.simulation.linearization import FLAT, REFUSED

            if not self.sim.planet.round:
                return "refused", FLAT
            return ("refused", REFUSED) if self._propeller_first() else ("linearize", "")
        if name == TEMPERATURE_BIAS and self.model is not None:
            return "temperature", ""
        if name in ("simulation/reset", "simulation/write-state-file"):
            return "run", ""            # (run_script's: FGFDMExec::ResetToInitialConditions, a state file)
        if name in WIND or name in (WIND_DIRECTION, WIND_SPEED):
            return "wind", ""
        if name == "propulsion/set-running":
            return "running", ""
        if name.startswith("propulsion/engine") and name.endswith("/set-running"):
            index = name[len("propulsion/engine"):-len("/set-running")].strip("[]")
            if (self.model is None or name not in self.model.properties or not index.isdigit() and index
                    or int(index or 0) not in {k for k, _, _ in self._startable()}):
                return "turbine-running", ""    # (a turboprop's, which runs from the start)
            return "engine-running", ""
        if self.model is not None and canonical(name) in self._engine_flags():
            return "engine-flag", ""
        if self.model is not None and name == "propulsion/active_engine":
            return "active", ""
        if self.model is not None and name in ("propulsion/starter_cmd", "propulsion/cutoff_cmd"):
            kinds = {kind for kind, _ in self.model.propulsion.kinds}
            if "turboprop" in kinds:
                return "refused", ("turboprop starts and cut-offs are not modelled (flightsim's turboprops run "
                                   "from the start, as JSBSim's set-running leaves them; its turbines and pistons "
                                   "start)")
            if name == "propulsion/starter_cmd" and kinds & {"piston", "turbine"}:
                return "starter", ""
            if name == "propulsion/cutoff_cmd" and "turbine" in kinds:
                return "cutoff", ""
        if self.model is not None and self._pistons() and name == "propulsion/magneto_cmd":
            return "magneto", ""
        base = name.split("[")[0]
        declared = self.model is not None and name in self.model.properties
        if base in ENGINE_STARTS and not declared:     # (an aircraft's own systems may declare it: the Short_S23's
            # fcs/starter-cmd-norm[n], which its electrical system's starter switches read)
            return "refused", ("not JSBSim's (its engines' starts are propulsion/starter_cmd and cutoff_cmd)"
                               if base.startswith("fcs/") else "JSBSim defines it only for an aircraft with turbines "
                               "or turboprops (cutoff_cmd) or pistons (starter_cmd)")
        if name == GROUND:
            return "ground", ""
        if name.startswith("position/"):
            return "refused", "flightsim does not move the aircraft from a script (the position is its state)"
        if FUEL_GPH.match(name):
            return "refused", "read-only in JSBSim (computed from the state each frame)"
        if (name in props.BUILTIN or name in AUXILIARY or name in STATE or name in PROP_LOADS or name in GEAR_LOADS
                or name.startswith(READ_ONLY_PREFIXES) or (name.startswith("atmosphere/") and name not in WIND)):
            return "refused", "read-only in JSBSim (computed from the state each frame)"
        if self.model is not None and name in self.model.properties:
            slot = self.model.properties[name]
            return ("command" if slot in self._rows else "array"), ""
        return "refused", None

    def write(self, name, value):
        """Set ``name`` to ``value`` (:meth:`kind` has accepted it): at once for the script (a later event reads
        it), and for the flight from the next step on (:meth:`apply`).

        JSBSim's frame (``FGFDMExec::Run``) runs the script at the new time on the last frame's state and models'
        outputs, then moves the state with the last frame's accelerations, then runs its models (the flight
        controls, the engines, the loads) with what the script set: a command set at ``t`` acts on the flight
        from ``t`` on.  flightsim's script runs at ``t`` after the models of ``t − dt``
        (:meth:`~flightsim.simulation.flight.Simulation.begin_step`) and before the step to ``t``, which holds
        their loads (:func:`~flightsim.simulation.script.run_script`), so what the step's loads read (the
        commands, the wind, the aircraft's properties) waits for that step's end, and the models of ``t`` read
        it.  The engines' own switches, flags and ``set-running``, which only the engines' step reads, act at
        once: the models of ``t`` read them, as JSBSim's engines do in the script's frame.
        """
        kind, _ = self.kind(name)
        if kind == "local":
            self.constants[name] = value
            if name == GRAVITY_TORQUE:
                self.sim.gravity_torque = value != 0.0
            elif name == HOLD_DOWN:
                self.sim.hold_down = value != 0.0
        elif kind == "terminate":
            self.terminate = self.terminate or value != 0.0
        elif kind == "trim":
            self.apply()
            self.trim(int(value))
        elif kind == "linearize":
            self.apply()
            self.linearize()
        elif kind == "running":
            n = int(value)
            if n >= len(self.model.propulsion.kinds):        # (FGPropulsion::InitRunning's exception)
                raise RuntimeError(f"{name} set to {value:g}: no such engine (tried to initialize a "
                                   "non-existent engine)")
            self._init_running(n)               # (at once, as JSBSim's tied setter: this frame's engine step,
            self._frame = self._aux = None      # after the integration, goes on from the march)
        elif kind == "ground":
            raise RuntimeError(f"{name} set to {value:g}: flightsim does not move the ground during a run (the "
                               "reset file's elevation, or ic/terrain-elevation-ft with a simulation/reset)")
        elif kind == "turbine-running":
            if value == 0.0:
                raise RuntimeError(f"{name} set to 0: stopping a turboprop is not modelled (flightsim's turboprops "
                                   "run)")
        elif kind == "active":                  # (FGPropulsion::SetActiveEngine; JSBSim takes an engine it does
            n = int(value)                      # not have as all of them: refused here)
            if n >= len(self.model.propulsion.kinds):
                raise RuntimeError(f"propulsion/active_engine set to {value:g}: no such engine (the aircraft has "
                                   f"{len(self.model.propulsion.kinds)})")
            self.active_engine = max(n, -1)
        elif kind in SWITCHES:                  # (the engine's switches act in this frame's engine step, as
            self._switch(kind, value)           # JSBSim's)
        elif kind in ("engine-running", "engine-flag"):     # (FGEngine::SetRunning, a turbine's stalled,
            self.sim.set_jsbsim_property(name, 0.0 if value == 0.0 else 1.0)    # seized…: this frame's step)
        else:
            self.pending[name] = value

    def _command(self, name, value):
        """Hold the command ``name`` (a command row's property) at ``value`` from now on."""
        slot = self.model.properties[name]
        row = self.commands[self._rows[slot]]
        row[1], row[2] = -1.0, value
        self.sim.set_jsbsim_property(name, min(max(value, row[3]), row[4]))

    def _set_command(self, name, value):
        """The command ``name`` at ``value``: held (:meth:`_command`) where a row of the pilot's gives it, else (the
        flight controls compute it) written once."""
        if self.model.properties[name] in self._rows:
            self._command(name, value)
        else:
            self.sim.set_jsbsim_property(name, value)

    def _switch(self, kind, value):
        """The magnetos (``kind`` ``magneto``: ``int(value)``), starter (``starter``: on unless 0) or fuel cut-off
        (``cutoff``: on unless 0) of every engine that has them, or of the active engine only
        (``FGPropulsion::SetMagnetos``, ``SetStarter``, ``SetCutoff``)."""
        for n in self._switch_names(kind):
            if n is not None:
                self.sim.set_jsbsim_property(n, float(int(value)) if kind == "magneto" else
                                             (0.0 if value == 0.0 else 1.0))

    def _of_kind(self, wanted):
        """``(engine index, row)`` of each of the aircraft's engines of kind ``wanted`` (``Propulsion.kinds``')."""
        kinds = self.model.propulsion.kinds
        return [(k, row) for k, (kind, row) in enumerate(kinds) if kind == wanted]

    def _pistons(self):
        """``(engine index, piston row)`` of each of the aircraft's piston engines."""
        return self._of_kind("piston")

    def _rotors(self):
        """``(engine index, row)`` of each of the aircraft's electric engines driving a rotor."""
        return self._of_kind("rotor")

    def _turbines(self):
        """``(engine index, turbine row)`` of each of the aircraft's turbines (direct or driving a propeller)."""
        return self._of_kind("turbine")

    def _startable(self):
        """``(engine index, kind, row)`` of each engine that starts and stops here: pistons and turbines."""
        kinds = self.model.propulsion.kinds
        return [(k, kind, row) for k, (kind, row) in enumerate(kinds) if kind in ("piston", "turbine")]

    def _engine_flags(self):
        """A turbine's own flags a script may set, which its engine reads in the frame they are set (JSBSim's
        ``…/stalled`` and ``…/seized``, flightsim's ``…/starter_cmd`` and ``…/cutoff_cmd``)."""
        from flightsim.physics.jsbsim import turbine

        if self._flags is None:
            names, slots = self.model.properties.names, self.model.propulsion.slots
            self._flags = {names[int(slots[row, column])] for _, row in self._turbines()
                           for column in (turbine.S_STALLED, turbine.S_SEIZED, turbine.S_STARTER, turbine.S_CUTOFF)}
        return self._flags

    def _switch_names(self, kind, every=False):
        """The own property of each engine that switch ``kind`` (:data:`SWITCHES`) reaches: every engine's, or
        the active engine's only (``propulsion/active_engine``); None for an engine without that switch (left
        out unless ``every``: JSBSim's getters read every engine)."""
        from flightsim.physics.jsbsim import piston, turbine

        prop, names = self.model.propulsion, self.model.properties.names
        out = []
        for k, (engine, row) in enumerate(prop.kinds):
            if self.active_engine >= 0 and k != self.active_engine:
                continue
            slot = None
            if engine == "piston" and kind in ("magneto", "starter"):
                slot = prop.piston_slots[row, piston.PS_MAGNETOS if kind == "magneto" else piston.PS_STARTER]
            elif engine == "turbine" and kind in ("starter", "cutoff"):
                slot = prop.slots[row, turbine.S_STARTER if kind == "starter" else turbine.S_CUTOFF]
            if slot is not None or every:
                out.append(None if slot is None else names[int(slot)])
        return out

    def _init_running(self, n, inputs=None):
        """``FGPropulsion::InitRunning(n)`` for the pistons and turbines (``n`` −1: all): a piston's mixture 1,
        both magnetos, the propeller at twice idle, running; a turbine's fuel on, running, its throttle input 1
        (:meth:`_turbine_running`); then each turbine and piston marched to its steady state as JSBSim's
        ``GetSteadyState`` marches it (:func:`~flightsim.physics.jsbsim.turbine.march_turbine`,
        :func:`~flightsim.physics.jsbsim.propulsion.march_piston`: 0.5 s frames, where a piston at idle on the
        ground may die, as in JSBSim).  The engines' inputs it sets (throttle 1…) stay until the next frame's, as
        JSBSim's ``in.ThrottlePos``: put back at the end, or, given ``inputs`` (slot → value), left to the caller
        to put back from it (``RunIC``'s engines started one after the other, each march seeing the inputs of
        the ones before)."""
        from flightsim.physics.jsbsim import piston, propeller, rotor, turbine
        from flightsim.physics.jsbsim.propulsion import march_piston, march_rotor

        prop = self.model.propulsion
        names = self.model.properties.names
        props = self.sim.jsbsim_properties
        own = inputs is None
        inputs = {} if own else inputs
        for k, row in self._turbines():
            if n < 0 or k == n:
                self._turbine_running(row, inputs)
        for k, row in self._pistons():
            if n >= 0 and k != n:
                continue
            s, ps = prop.piston_slots[row], prop.propeller_slots[row]
            mixture = f"fcs/mixture-cmd-norm[{k}]"
            if mixture in self.model.properties:
                self._set_command(mixture, 1.0)
            self.sim.set_jsbsim_property(names[int(s[piston.PS_MIXTURE])], 1.0)
            self.sim.set_jsbsim_property(names[int(s[piston.PS_MAGNETOS])], 3.0)
            self.sim.set_jsbsim_property(names[int(s[piston.PS_RUNNING])], 1.0)
            idle, gear = prop.pistons[row, piston.PE_IDLE_RPM], prop.propellers[row, propeller.PR_GEAR]
            self.sim.set_jsbsim_property(names[int(ps[propeller.RS_RPM])], 2.0 * idle / gear)
            # SetEngineRunning and FGPiston::InitRunning: the engine's throttle input 1 and its mixture input
            # 1.3 × the pressure ratio until the next frame's LoadInputs, so through the march
            ratio = props[int(s[piston.PS_PRESSURE])] / SEA_LEVEL_PSF
            for column, value in ((piston.PS_THROTTLE, 1.0), (piston.PS_MIXTURE, 1.3 * ratio)):
                slot = int(s[column])
                inputs.setdefault(slot, props[slot])
                props[slot] = value
        sigma = self.sim.jsbsim_property("atmosphere/sigma")
        for _, row in self._turbines():         # (GetSteadyState marches every engine, started or not)
            turbine.march_turbine(props, prop.engines[row], prop.slots[row], sigma, np.zeros(6))
        for _, row in self._pistons():
            march_piston(props, prop, row)
        thrust = 0.0
        for k, row in self._rotors():        # (an electric engine's InitRunning does nothing: its throttle input 1)
            if n < 0 or k == n:
                slot = int(prop.piston_slots[row, rotor.RE_THROTTLE])
                inputs.setdefault(slot, props[slot])
                props[slot] = 1.0
        for _, row in self._rotors():        # (its thrust's march starts from the last engine's, as JSBSim's)
            thrust, _ = march_rotor(props, prop, row, current=thrust)
        if own:
            for slot, value in inputs.items():
                props[slot] = value

    def _turbine_running(self, row, inputs):
        """``FGTurbine::InitRunning`` for turbine ``row``: its fuel on, running, its spools at the last throttle's
        (the first frame's: idle), in its running phase; its throttle input 1 (``SetEngineRunning``) until the next
        frame's (``inputs``: slot → the value to put back after the march)."""
        from flightsim.physics.jsbsim import turbine

        prop, props = self.model.propulsion, self.sim.jsbsim_properties
        r, s = prop.engines[row], prop.slots[row]
        throttle = min(props[int(s[turbine.S_THROTTLE])], 1.0)
        props[int(s[turbine.S_N2])] = r[turbine.E_IDLE_N2] + throttle * (r[turbine.E_MAX_N2] - r[turbine.E_IDLE_N2])
        props[int(s[turbine.S_N1])] = r[turbine.E_IDLE_N1] + throttle * (r[turbine.E_MAX_N1] - r[turbine.E_IDLE_N1])
        for column, value in ((turbine.S_CUTOFF, 0.0), (turbine.S_RUNNING, 1.0),
                              (turbine.S_PHASE, float(turbine.PHASE_RUN))):
            props[int(s[column])] = value
        slot = int(s[turbine.S_THROTTLE])
        inputs.setdefault(slot, props[slot])
        props[slot] = 1.0

    def initial_engines(self, running):
        """The engines as the reset file leaves them (``running``: its ``<running>`` indices, −1 all): every piston
        first as ``ResetToIC`` leaves it (not running, the magnetos off, the starter off, the mixture lean and a
        governor's rpm lever at its lowest (FGFCS's 0: flightsim's pilot has it at the highest), no fuel flow, the
        propeller at rest, the manifold at the ambient pressure), every turbine as ``FGTurbine::ResetToIC`` leaves
        it (off, its fuel cut off, the starter off, N1, N2 and N2norm 0, no thrust nor fuel flow, the afterburner
        out, a propeller it drives at rest), then the named ones started as ``FGFDMExec::RunIC`` starts them
        (:meth:`_init_running`, one by one: an engine whose first 0.5 s frame finds no fuel flow yet stops there and
        may not catch again, as in JSBSim; a turbine marched at throttle 1, its spools at their maximum when the
        flight begins, as JSBSim's)."""
        from flightsim.physics.jsbsim import piston, propeller, turbine

        prop = self.model.propulsion
        names = self.model.properties.names
        props_now = self.sim.jsbsim_property
        for k, row in self._pistons():
            s, ps = prop.piston_slots[row], prop.propeller_slots[row]
            for command in (f"fcs/mixture-cmd-norm[{k}]", f"fcs/advance-cmd-norm[{k}]"):   # (FGFCS's 0, as
                if command in self.model.properties:                                            # JSBSim's)
                    self._set_command(command, 0.0)
            self.sim.set_jsbsim_property(names[int(ps[propeller.RS_ADVANCE_POS])], 0.0)
            p_amb = piston.ambient_map(props_now(names[int(s[piston.PS_PRESSURE])]))
            friction = prop.pistons[row, piston.PE_STATIC_FRICTION]
            for column, value in ((piston.PS_MIXTURE, 0.0), (piston.PS_MAGNETOS, 0.0), (piston.PS_STARTER, 0.0),
                                  (piston.PS_CRANKING, 0.0), (piston.PS_RUNNING, 0.0), (piston.PS_FUEL_FLOW, 0.0),
                                  (piston.PS_POWER_HP, -friction), (piston.PS_MAP, p_amb), (piston.PS_TMAP, p_amb),
                                  (piston.PS_MAP_INHG, p_amb / piston.INHG_TO_PA)):
                self.sim.set_jsbsim_property(names[int(s[column])], value)
            for column in (propeller.RS_RPM, propeller.RS_ENGINE_RPM, propeller.RS_THRUST):
                self.sim.set_jsbsim_property(names[int(ps[column])], 0.0)
        for k, row in self._turbines():
            s = prop.slots[row]
            for column in (turbine.S_N1, turbine.S_N2, turbine.S_N2NORM, turbine.S_THRUST, turbine.S_AUGMENTATION,
                           turbine.S_STARTER, turbine.S_RUNNING, turbine.S_STALLED, turbine.S_SEIZED,
                           turbine.S_CRANKING, turbine.S_FUEL_FLOW, turbine.S_INJECTION):
                self.sim.set_jsbsim_property(names[int(s[column])], 0.0)
            self.sim.set_jsbsim_property(names[int(s[turbine.S_CUTOFF])], 1.0)
            if k in prop.turbine_propellers:
                ps = prop.propeller_slots[prop.turbine_propellers[k]]
                for column in (propeller.RS_RPM, propeller.RS_ENGINE_RPM, propeller.RS_THRUST):
                    self.sim.set_jsbsim_property(names[int(ps[column])], 0.0)
            # run_ic's frame with no time passing: the trim phase and FGTurbine::Trim's thrust (the next frame
            # with time passing turns it off, or running if the script sets its running flag first)
            turbine.turbine_steady(self.sim.jsbsim_properties, prop.engines[row], s,
                                   self.sim.jsbsim_property("atmosphere/sigma"), np.zeros(6))
        self._initial_rotors()
        named = [k for k, _, _ in self._startable() if -1 in running or k in running]
        inputs = {}
        for k in named:                         # (FGFDMExec::RunIC: InitRunning(n) for each, then its march)
            self._init_running(k, inputs)
        props = self.sim.jsbsim_properties      # (the next frame's LoadInputs)
        for slot, value in inputs.items():
            props[slot] = value

    def _initial_rotors(self):
        """Every rotor as ``FGRotor``'s and ``FGTransmission``'s constructors leave it (at rest, its inflow's
        start: :func:`~flightsim.physics.jsbsim.rotor.rotor_defaults`), then ``RunIC``'s two frames with no time
        passing (``FGFDMExec::Initialize`` runs the models, then ``RunIC`` once more: the transmission still, the
        inflow's lag and the height filter stepping the rotor's own step)."""
        from flightsim.physics.jsbsim import rotor
        from flightsim.physics.jsbsim.propulsion import run_rotor_frame

        prop, names = self.model.propulsion, self.model.properties.names
        props = self.sim.jsbsim_properties
        defaults = rotor.rotor_defaults()
        for k, row in self._rotors():
            slots = [int(x) for x in prop.piston_slots[row, :len(rotor.ROTOR_ENGINE_SLOTS)]] + \
                [int(x) for x in prop.propeller_slots[row, :len(rotor.ROTOR_SLOTS)]]
            for slot in slots:
                name = names[slot] if slot >= 0 else ""
                suffix = name.split("/", 2)[-1] if name.startswith(f"propulsion/engine[{k}]/") else None
                if suffix is not None and suffix != "x-rpm-dict" and not suffix.endswith("-ctrl-rad") and \
                        suffix != "groundeffect-scale-norm":
                    props[slot] = defaults.get(suffix, 0.0)
            for _ in range(2):
                run_rotor_frame(props, prop, row, 0.0)

    def apply(self):
        """What the script set for the flight (:meth:`write`) reaches it now."""
        for name, value in self.pending.items():
            kind, _ = self.kind(name)
            if kind == "wind":
                self._set_wind(name, value)
                self._hold_wind()
            elif kind == "temperature":
                self.sim.set_jsbsim_temperature_bias(value)
            elif kind == "command":
                self._command(name, value)
            elif kind == "running":
                self._init_running(int(value))
            else:
                self.sim.set_jsbsim_property(name, value)
        self.pending.clear()
        self._frame = self._aux = None
        # FGWinds::Run, each frame: the direction the wind blows towards, from the wind where it blows North or
        # South, in [0, 2π)
        if self.ned_wind[0] != 0.0:
            self.wind_psi = math.atan2(self.ned_wind[1], self.ned_wind[0])
        if self.wind_psi < 0.0:
            self.wind_psi += 2.0 * math.pi

    def _wind_speed(self):
        """The steady wind's speed, ft/s (``FGWinds::GetWindspeed``: FGColumnVector3's magnitude, as it sums it)."""
        return math.sqrt(sum(w * w for w in self.ned_wind))

    def _distance_from_start(self, which):
        """:data:`DISTANCE_FROM_START`'s ``which`` (0 the geodesic, 1 the longitude's, 2 the latitude's), m."""
        lat, lon = self.read("position/lat-geod-rad"), self.read("position/long-gc-rad")
        lat0, lon0 = math.radians(self.ic.lat_deg), math.radians(self.ic.lon_deg)
        target = ((lat0, lon0), (lat, lon0), (lat0, lon))[which]
        planet = self.sim.planet if self.sim.planet.round else planets.WGS84
        ft, _ = geodesic(lat, lon, *target, planet.a, 1.0 - planet.b / planet.a)
        return ft * FT_TO_M

    def _set_wind(self, name, value):
        """The steady wind after a write of ``name`` (:data:`WIND`, :data:`WIND_DIRECTION`, :data:`WIND_SPEED`),
        as ``FGWinds``' setters change it: ``SetWindPsi`` is ``SetWindspeed`` at the speed now with the new
        direction, and ``SetWindspeed`` on a calm wind blows North and puts the direction back at 0 (so a direction
        written to a calm wind is lost, as JSBSim's documentation warns)."""
        if name in WIND:
            self.ned_wind[WIND[name]] = value
            return
        speed = value
        if name == WIND_DIRECTION:
            speed = self._wind_speed()
            self.wind_psi = value
        if not any(self.ned_wind):
            self.wind_psi = 0.0
            self.ned_wind[0] = speed
        else:
            self.ned_wind[:] = [speed * math.cos(self.wind_psi), speed * math.sin(self.wind_psi), 0.0]

    def _fuel_density(self):
        """The density the engines' fuel flow in gallons is reckoned with (lb/gal): ``FGPropulsion::Load``'s, the
        last ``type="FUEL"`` tank's (:func:`~flightsim.physics.jsbsim.mass.tank_properties`), 6 with none."""
        from flightsim.physics.jsbsim.mass import tank_properties

        source = self.model.source
        propulsion = source.section("propulsion", required=False)
        tanks = [] if propulsion is None else propulsion.findall("tank")
        fuel = [k for k, tank in enumerate(tanks) if (tank.get("type") or "").strip().upper() == "FUEL"]
        if not fuel:
            return 6.0
        return tank_properties(source)[canonical(f"propulsion/tank[{fuel[-1]}]") + "/density-lbs_per_gal"]

    def _hold_wind(self):
        n, e, d = (w + g for w, g in zip(self.ned_wind, self.gust_ned, strict=True))
        self.sim.hold_wind(np.array([n, -e, -d, 0.0, 0.0, 0.0]))

    def set_gust(self, gust):
        """The cosine gust's wind now (North, East, down, ft/s; :mod:`flightsim.simulation.script_gust`): the flight
        flies the steady wind plus it from the next step on (``FGWinds``' ``vTotalWindNED``)."""
        self.gust_ned = [float(g) for g in gust]
        self._hold_wind()

    # ------------------------------------------------------------------ trim

    def trim(self, mode):
        """``simulation/do_simple_trim``: trim as JSBSim's FGTrim does from the reset file's condition (its
        position, airspeed, flight-path angle, heading; a turn: its bank).  A JSBSim aircraft on the round planet
        (every script's): FGTrim's own axis-by-axis iteration (:meth:`_fgtrim`), whose answer is JSBSim's to its
        printed digits; mode 2 the ground trim (:meth:`_ground_trim`).  Otherwise (a flat planet) flightsim's
        exact trim (:func:`flightsim.physics.trim.trim`): the flight put in that state now, the pilot's commands at the
        trim's (the elevator through ``fcs/pitch-trim-cmd-norm`` where the aircraft reads it, as FGTrim's
        ``tPitchTrim``), the flight controls and engines settled.  The longitudinal trim (mode 0, FGTrim's
        ``tLongitudinal``) balances α, the throttle and the elevator alone, the wings level and the aileron and
        rudder commands as the script has them: a propeller's torque then rolls the airplane from it, as JSBSim's.

        Raises
        ------
        RuntimeError
            The trim failed (JSBSim's ``TrimFailureException``).
        """
        from flightsim.math import quat
        from flightsim.physics.trim import AirplaneModel, TrimError
        from flightsim.physics.trim import trim as solve_trim
        from flightsim.simulation.flight import FlightState
        from flightsim.simulation.starts import start_gravity

        sim = self.sim
        if mode not in TRIM_MODES:
            raise RuntimeError(f"do_simple_trim mode {mode}: {TRIM_REFUSED.get(mode, 'not a JSBSim trim mode')}")
        what, lateral = TRIM_MODES[mode]
        if lateral == "ground":
            self._ground_trim()
            self.trims.append((sim.t, mode, None))
            return
        if sim.planet.round and sim.aircraft.jsbsim is not None:
            self._fgtrim(mode, what)
            return
        wind = np.array([self.ned_wind[0], -self.ned_wind[1], -self.ned_wind[2]])
        y0 = props.trim_start(self.ic.view_state(), wind, self.constants, self.initial)   # (the ic/* written)
        air = y0[3:6] - wind
        speed = float(np.linalg.norm(air))
        gamma = math.degrees(math.asin(max(-1.0, min(1.0, air[2] / speed)))) if speed > 0.0 else 0.0
        track = math.degrees(math.atan2(-air[1], air[0])) % 360.0 if math.hypot(air[0], air[1]) > 1e-9 else \
            float(quat.aviation_angles(y0[6:10])[2])
        bank = float(quat.aviation_angles(y0[6:10])[0]) if lateral == "turn" else 0.0
        planet = sim.planet if sim.planet.round else "flat"
        gravity = start_gravity(sim.aircraft, float(y0[2]), planet, sim.lat, sim.lon)
        model = AirplaneModel(sim.aircraft, sim.atmosphere, gravity=gravity)
        mass, inertia, arrays = sim.mass_now()      # (FGTrim trims the aircraft as it weighs now)
        model.weigh(mass, inertia, **arrays)
        if sim.jsbsim_temperature_bias:         # (FGTrim in the script's atmosphere)
            from flightsim.physics.jsbsim.loads import L_TEMPERATURE_BIAS

            model.params.jsb_last[L_TEMPERATURE_BIAS] = sim.jsbsim_temperature_bias
        flaps = min(max(self.read("fcs/flap-cmd-norm") if self.known("fcs/flap-cmd-norm") else 0.0, 0.0), 1.0)
        # the gear as the script left its lever (JSBSim's trim settles the gear kinematic at gear/gear-cmd-norm)
        gear = 0.0 if self.known("gear/gear-cmd-norm") and self.read("gear/gear-cmd-norm") < 0.5 else 1.0
        # (a longitudinal trim, FGTrim's tLongitudinal, leaves the aileron and rudder commands as they are)
        held = tuple(sign * min(max(self.read(name), -1.0), 1.0) if self.known(name) else 0.0
                     for name, sign in (("fcs/aileron-cmd-norm", 1.0), ("fcs/rudder-cmd-norm", -1.0)))
        try:
            point = solve_trim(sim.aircraft, speed, float(y0[2]), gamma, flaps, track, bank=bank,
                               atmosphere=sim.atmosphere, model=model, report_range=False,
                               lateral=lateral if lateral in ("no-sideslip", "longitudinal") else "wings-level",
                               gear=gear, held=held)
        except (TrimError, ValueError) as exc:
            raise RuntimeError(f"the {what} trim (do_simple_trim {mode}) failed: {exc}") from None
        state = point.state_at(y0[0], y0[1])
        state[3:6] += wind
        sim.set_state(FlightState.from_vector(sim.t, state))
        pitch_trim = PITCH_TRIM in self.model.properties and PITCH_TRIM in set(self.model.fcs.inputs)
        held = {"fcs/elevator-cmd-norm": 0.0 if pitch_trim else -point.elevator,
                "fcs/aileron-cmd-norm": point.aileron, "fcs/rudder-cmd-norm": -point.rudder}
        if pitch_trim:
            held[PITCH_TRIM] = -point.elevator
        for row in self.commands:
            name = self.model.properties.names[int(row[0])]
            if name.startswith("fcs/throttle-cmd-norm"):
                held[name] = point.throttle
            if name in held:
                self._command(name, held[name])
        sim.settle_jsbsim()
        self._frame = self._aux = None
        self.trims.append((sim.t, mode, point))

    def _fgtrim(self, mode, what):
        """:meth:`trim`'s modes 0, 1 and 5 as JSBSim runs them: ``FGTrim``'s axis-by-axis iteration
        (:func:`flightsim.simulation.script_trim.jsbsim_trim`) from JSBSim's initial condition (the reset file's,
        with the ``ic/*`` heights and speeds the script wrote), on the flight itself; the flight left where the
        iteration leaves JSBSim's, the commands at the trim's."""
        from flightsim.physics.jsbsim.fgtrim import TrimFailed
        from flightsim.physics.jsbsim.initial import initial_setters
        from flightsim.simulation.script_trim import jsbsim_trim

        sim = self.sim
        ic = initial_setters(self.ic.source, sim.planet, self.ic.elevation_ft)
        self._written_initial(ic)
        try:
            trim = jsbsim_trim(sim, ic, mode, self._set_command, self.read, self.known)
        except TrimFailed as exc:
            raise RuntimeError(f"the {what} trim (do_simple_trim {mode}) failed: {exc}") from None
        finally:
            self._frame = self._aux = None
        self.trims.append((sim.t, mode, trim))

    def _written_initial(self, ic):
        """The ``ic/*`` height and airspeed the script wrote (:data:`~flightsim.simulation.script_properties.
        WRITABLE_INITIAL`) through JSBSim's initial condition's setters ``ic``."""
        values, initial = self.constants, self.initial
        for name in props.WRITABLE_INITIAL:
            if name not in initial or values.get(name, initial[name]) == initial[name]:
                continue
            value = values[name]
            if name == "ic/h-sl-ft":
                ic.set_altitude_asl(value)
            elif name == "ic/h-agl-ft":
                ic.set_altitude_agl(value)
            elif name == "ic/geod-alt-ft":
                ic.set_altitude_asl(ic.asl() + value - initial[name])
            elif name == "ic/mach":
                ic.set_mach(value)
            else:
                ic.set_vtrue(value * (1.0 if name == "ic/vt-fps" else KNOT))

    def _propeller_first(self):
        """Whether the aircraft's engine 0 drives a propeller (FGLinearization's rpm states: refused)."""
        kinds = self.model.propulsion.kinds
        return bool(kinds) and (kinds[0][0] in ("piston", "turboprop")
                                or 0 in self.model.propulsion.turbine_propellers)

    def linearize(self):
        """``simulation/do_linearization`` (``FGFDMExec::DoLinearization``): JSBSim's linear model of the aircraft
        about its state now (:func:`flightsim.simulation.linearization.linearize`), from JSBSim's initial condition
        as the reset file leaves it, every engine started first (``FGStateSpace::run``'s ``InitRunning``), written
        as ``<aircraft>_lin.sce`` in the current folder; the flight left where JSBSim's linearization leaves it (at
        its state set once more through the initial condition's setters, settled)."""
        from flightsim.physics.jsbsim import turbine
        from flightsim.physics.jsbsim.initial import initial_setters
        from flightsim.simulation.linearization import linearize

        ic = initial_setters(self.ic.source, self.sim.planet, self.ic.elevation_ft)
        props = self.sim.jsbsim_properties
        for k, kind, row in self._startable():
            if kind == "turbine" and props[int(self.model.propulsion.slots[row, turbine.S_RUNNING])] == 0.0:
                self._init_running(k)
        throttles = [canonical(f"fcs/throttle-cmd-norm[{k}]") for k in range(len(self.model.propulsion.kinds))]
        lin = linearize(self.sim, ic, self._set_command, self.read, throttles)
        lin.write()
        self.linearizations.append(lin)
        self._frame = self._aux = None

    def _ground_trim(self):
        """``do_simple_trim`` 2, JSBSim's ground trim (``FGTrim``'s ``tGround``: the height and the pitch where the
        gear carries the airplane at rest, over the reset's place and heading): :func:`flightsim.simulation.starts.
        settle` on JSBSim's own ground reactions, with the pilot's commands as the script has them; wings level
        (FGTrim also balances φ: a symmetric airplane's is 0)."""
        from flightsim.math import quat
        from flightsim.simulation.flight import FlightState
        from flightsim.simulation.starts import settle

        sim = self.sim
        y0 = self.ic.view_state()
        heading = float(quat.aviation_angles(y0[6:10])[2])
        try:
            state = settle(sim.aircraft, float(y0[0]), float(y0[1]), heading, atmosphere=sim.atmosphere)
        except ValueError as exc:
            raise RuntimeError(f"the ground trim (do_simple_trim 2) failed: {exc}") from None
        state[2] += self.ic.elevation_ft            # (on the reset file's terrain: level, at its height)
        sim.set_state(FlightState.from_vector(sim.t, state))
        sim.settle_jsbsim()
        self._frame = self._aux = None

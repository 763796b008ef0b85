"""JSBSim's turbine engine (``FGTurbine``) frame by frame, in every phase: off, running, spinning up on its
starter, starting, stalled, seized and trimmed.

The phase (``propulsion/engine[k]/phase``: flightsim's name for ``FGTurbine``'s hidden ``phase``, JSBSim's
``phaseType`` numbers :data:`PHASE_OFF` … :data:`PHASE_TRIM`) is chosen each frame as ``FGTurbine::Calculate``
chooses it, from the engine's switches — the starter (``…/starter_cmd``, FGEngine's ``Starter``), the fuel
cut-off (``…/cutoff_cmd``, FGTurbine's ``Cutoff``), the running flag (``…/set-running``, FGEngine's
``Running``), ``…/stalled`` and ``…/seized`` (JSBSim's own properties) — and the dynamic pressure
(``aero/qbar-psf``):

* after a frame with no time passing (a trim, ``run_ic``), the engine runs at its throttle's spools if it is
  running, else it is off with its fuel cut off;
* an engine that is not running, with its fuel cut off and its starter on, spins up from off;
* with its starter on (or above 30 psf of ram air), not running, fuel on and N2 above 15 %, it starts;
* fuel cut off: off (unless spinning up); a frame with no time passing: the trim phase; starved (its feed tanks
  dry): off, even in a frame with no time passing.

Then, ``dt`` s of the phase (``FGTurbine::Off``, ``Run``, ``SpinUp``, ``Start``, ``Stall``, ``Seize``,
``Trim``):

* **off**: not running, N1 and N2 windmilling toward ``q̄/10`` and ``q̄/15`` (% ; at ``N/2 + 0.1`` %/s up, ``N /
  n1spindown`` down; toward 0 with ``<disable-windmill>``), the fuel flow falling to 0 (1000 pph/s up, 10000
  down), no thrust, the afterburner out;
* **spin-up**: the starter turns N2 toward ``ignitionn2`` at ``n2spinup`` %/s and N1 toward ``ignitionn1`` at
  ``n1spinup``, no fuel; off again when the starter goes off;
* **start** (light-off): above 15 % N2, N2 and N1 toward idle at ``n2startrate``/``n1startrate`` %/s, the fuel
  flow ``IdleFF · N2 / idleN2`` (``IdleFF = milthrust^0.2 · 107`` pph), cranking; an aborted start (starter off
  below 30 psf) is off; at idle N2 the engine runs, its starter off;
* **run**: as before this module (``FGTurbine::Run``: the spools seek ``idle + throttle (max − idle)`` at the
  spool rates, the thrust ``idle + (mil − idle) N2norm²`` less the bleed, the afterburner and water injection),
  the starter off, the fuel flow seeking ``thrust × TSFC`` (``tsfc · √(T/389.7) · (0.84 + (1 − N2norm)²)``, not
  below IdleFF; ``thrust × atsfc`` lit); off when the fuel is cut off;
* **stall**: the spools falling toward ``q̄/10``, ``q̄/15`` at a tenth of themselves per second, idle fuel flow,
  cleared to running with the throttle below 0.01;
* **seize**: N2 0, N1 falling toward ``q̄/20``, not running;
* **trim** (no time passing): the thrust at the throttle's N2 with no spool lag, as ``FGTurbine::Trim``.

The fuel flow is kept as ``…/fuel-flow-rate-pps`` (JSBSim's name; FGTurbine's ``FuelFlow_pph`` / 3600), which
the flight burns (:mod:`~flightsim.physics.jsbsim.fuel`).  An engine whose feed tanks have run dry is starved
(``{e}/starved``: flightsim's name for FGEngine's ``Starved``, which ``FGPropulsion::ConsumeFuel`` sets after each
engine's frame, so from the next frame on): it is off whatever its switches (``FGTurbine::Calculate``: thrust 0,
the spools winding down, not running), does not go from the trim phase to running, and burns nothing; tanks
filled again end the starvation, and the engine, no longer running, lights again as any engine that is off
(above 30 psf of ram air or on its starter, fuel on and N2 above 15 %).  EGT, oil, nozzle and EPR are
not computed.

An engine is a row of :data:`ENGINE_FIELDS` constants (``E_*``) and a row of :data:`SLOT_FIELDS` property slots
(``S_*``), its state in the property array under the names of :data:`TURBINE_STATE` and :data:`TURBINE_SWITCHES`.
Units: lbf, %, pph (the fuel flow's state lb/s), psf, °R, s.  Source: JSBSim 1.3.3 ``FGTurbine.cpp``/``.h``.
"""

from __future__ import annotations

import math

from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit
from flightsim.physics.jsbsim import rocket as _rocket

#: Columns of an engine's row in :attr:`Propulsion.engines`: its constants (lbf; %; rad; the location about the
#: CG, ft), then its augmentation (``<augmented>``, ``<augmethod>``, the augmented thrust ``<maxthrust>``) and
#: water injection (``<injected>``, ``<injection-time>``, s).
(E_MIL, E_IDLE_N1, E_IDLE_N2, E_MAX_N1, E_MAX_N2, E_BLEED, E_N1_UP, E_N1_DOWN, E_N2_UP, E_N2_DOWN, E_X, E_Y, E_Z,
 E_PITCH, E_YAW, E_MAX_THRUST, E_AUGMENTED, E_AUGMETHOD, E_INJECTED, E_INJECTION_TIME) = range(20)
#: The column of an engine's row saying what the row is (``KIND_*``): a turbine, or a rocket or an electric engine
#: with its thruster (whose rows reuse the columns as ``R_*``/``L_*`` say; the location and orientation columns
#: ``E_X`` … ``E_YAW`` are every row's).
E_KIND = 20
#: :data:`E_KIND`'s values.
KIND_TURBINE, KIND_ROCKET, KIND_ELECTRIC = 0.0, 1.0, 2.0
#: Then 1 for a turbine that drives a propeller (its thrust is the propeller's power: no loads of its own), else 0.
E_PROPELLER = 21
#: Then the start's constants (FGTurbine::Load's defaults in brackets): ``ignitionn1``, ``ignitionn2`` (5.21,
#: 25.18 %), ``n1spinup``, ``n2spinup`` (1, 3 %/s), ``n1startrate``, ``n2startrate`` (1.4, 2 %/s),
#: ``n1spindown``, ``n2spindown`` (2, 2), ``disable-windmill`` (0), the idle fuel flow (pph), ``tsfc`` (0.8) and
#: ``atsfc`` (1.7), lb/h per lbf.
(E_IGNITION_N1, E_IGNITION_N2, E_N1_SPINUP, E_N2_SPINUP, E_N1_START, E_N2_START, E_N1_SPINDOWN, E_N2_SPINDOWN,
 E_NO_WINDMILL, E_IDLE_FF, E_TSFC, E_ATSFC) = range(22, 34)
#: Columns of an engine's row in :attr:`Propulsion.slots`: its throttle, its tables' and spool functions'
#: values (−1: the default FGSpoolUp), its spools, its N2norm, its thrust; its ``AugThrust`` function (−1: none),
#: the augmentation's state; its ``Injection`` function (−1: none), the injection command, timer, water left
#: (normalised) and the injection's N1 and N2 increments; then its switches and phase (:data:`TURBINE_SWITCHES`)
#: and what it reads of the air (the dynamic pressure, the temperature).
(S_THROTTLE, S_IDLE, S_MIL, S_N1_UP, S_N1_DOWN, S_N2_UP, S_N2_DOWN, S_N1, S_N2, S_N2NORM, S_THRUST, S_AUG,
 S_AUGMENTATION, S_INJECTION_FN, S_INJECTION, S_INJECTION_TIMER, S_WATER, S_INJ_N1, S_INJ_N2, S_PHASE, S_STARTER,
 S_CUTOFF, S_RUNNING, S_STALLED, S_SEIZED, S_CRANKING, S_FUEL_FLOW, S_QBAR, S_TEMPERATURE, S_POWER,
 S_STARVED) = range(31)
#: The number of columns of :attr:`Propulsion.engines` and :attr:`Propulsion.slots`.
ENGINE_FIELDS, SLOT_FIELDS = 34, 31
# (a rocket's or electric engine's row shares the thruster's, throttle's and thrust's columns)
assert (E_X, E_Y, E_Z, E_PITCH, E_YAW, S_THROTTLE, S_THRUST) == (_rocket.T_X, _rocket.T_Y, _rocket.T_Z,
                                                               _rocket.T_PITCH, _rocket.T_YAW, _rocket.K_THROTTLE,
                                                               _rocket.K_THRUST)
#: The properties of a turbine's state, ``{e}`` its ``propulsion/engine[k]``: the spools, N2norm, thrust; the
#: augmentation (1 lit: flightsim's name, JSBSim binds none), the water-injection command, timer and water left
#: and the N1/N2 increments (JSBSim's names).
TURBINE_STATE = ("{e}/n1", "{e}/n2", "{e}/n2norm", "{e}/thrust-lbs", "{e}/augmentation", "{e}/injection_cmd",
                 "{e}/InjectionTimer", "{e}/InjWaterNorm", "{e}/InjN1increment", "{e}/InjN2increment")
#: The properties of its switches and phase, slots :data:`S_PHASE` … :data:`S_TEMPERATURE`: the phase
#: (flightsim's name), the starter and the fuel cut-off (flightsim's names for FGEngine's ``Starter`` and
#: FGTurbine's ``Cutoff``, which JSBSim reaches only through ``propulsion/starter_cmd`` and ``cutoff_cmd``), the
#: running flag, stalled, seized (JSBSim's), cranking (flightsim's: FGEngine's ``Cranking``), the fuel flow
#: (JSBSim's), then the dynamic pressure and the temperature it reads, and ``{e}/failure-power-norm``: the fraction
#: of its power a failure leaves it (flightsim's own, :mod:`flightsim.simulation.failures`' partial power and rough
#: running; 1 healthy, JSBSim has none), and ``{e}/starved`` (flightsim's name for FGEngine's ``Starved``, which
#: the fuel burn writes: :data:`flightsim.physics.jsbsim.fuel.STARVED`).
TURBINE_SWITCHES = ("{e}/phase", "{e}/starter_cmd", "{e}/cutoff_cmd", "{e}/set-running", "{e}/stalled",
                    "{e}/seized", "{e}/cranking", "{e}/fuel-flow-rate-pps", "aero/qbar-psf", "atmosphere/T-R",
                    "{e}/failure-power-norm", "{e}/starved")
#: FGTurbine's ``phaseType``: tpOff, tpRun, tpSpinUp, tpStart, tpStall, tpSeize, tpTrim.
PHASE_OFF, PHASE_RUN, PHASE_SPINUP, PHASE_START, PHASE_STALL, PHASE_SEIZE, PHASE_TRIM = range(7)
#: FGTurbine's constructor's defaults of the start's constants (tag → value, column).
START_DEFAULTS = {"ignitionn1": (5.21, E_IGNITION_N1), "ignitionn2": (25.18, E_IGNITION_N2),
                  "n1spinup": (1.0, E_N1_SPINUP), "n2spinup": (3.0, E_N2_SPINUP),
                  "n1startrate": (1.4, E_N1_START), "n2startrate": (2.0, E_N2_START),
                  "n1spindown": (2.0, E_N1_SPINDOWN), "n2spindown": (2.0, E_N2_SPINDOWN)}


#: How long a steady state's fuel flow seeks its target (s): long enough to reach it from anywhere (1,000 pph/s at the
#: slowest), as ``FGPropulsion::GetSteadyState`` marches the engines until their thrust holds.
STEADY_FLOW_SECONDS = 1.0e6


def idle_fuel_flow(mil_thrust):
    """FGTurbine's idle fuel flow estimate, pph: ``milthrust^0.2 × 107`` (``FGTurbine::Load``)."""
    return mil_thrust ** 0.2 * 107.0


@borrowing_jit
def _seek(v, target, accel, decel, dt):
    """FGTurbine::Seek: ``v`` moved toward ``target`` by ``dt`` × the rate, not past it."""
    if v > target:
        v -= dt * decel
        if v < target:
            v = target
    elif v < target:
        v += dt * accel
        if v > target:
            v = target
    return v


@borrowing_jit
def _spool_rate(props, slot, delay, n2norm, density_ratio):
    """A spool function's value, or FGSpoolUp's default: ``delay / (1 + 3 (1 − n)³ + (1 − σ))``."""
    if slot >= 0:
        return props[slot]
    n = min(1.0, n2norm + 0.1)
    return delay / (1 + 3 * (1 - n) * (1 - n) * (1 - n) + (1 - density_ratio))


@borrowing_jit
def _run(props, row, s, throttle, augment_cmd, dt, density_ratio, flow, flow_dt):
    """``FGTurbine::Run`` for ``dt`` s at ``throttle`` (the afterburner's command ``augment_cmd``), the fuel flow
    ``flow`` (pph) seeking its target for ``flow_dt`` s (``dt``; a steady state's: long enough to reach it, as
    ``FGPropulsion::GetSteadyState``'s march does): the spools, N2norm, the augmentation and injection written into
    ``props``; returns the thrust (lbf) and the new fuel flow."""
    mil = row[E_MIL]
    idle_thrust = mil * props[s[S_IDLE]]
    mil_thrust = (mil - idle_thrust) * props[s[S_MIL]]
    n1_factor = row[E_MAX_N1] - row[E_IDLE_N1]
    n2_factor = row[E_MAX_N2] - row[E_IDLE_N2]
    injecting = row[E_INJECTED] == 1.0 and props[s[S_INJECTION]] != 0.0 and props[s[S_WATER]] > 0.0
    if injecting:
        n1_factor += props[s[S_INJ_N1]]
        n2_factor += props[s[S_INJ_N2]]
    n2norm = props[s[S_N2NORM]]
    up2 = _spool_rate(props, s[S_N2_UP], row[E_N2_UP], n2norm, density_ratio)
    down2 = _spool_rate(props, s[S_N2_DOWN], row[E_N2_DOWN], n2norm, density_ratio)
    n2 = _seek(props[s[S_N2]], row[E_IDLE_N2] + throttle * n2_factor, up2, down2, dt)
    up1 = _spool_rate(props, s[S_N1_UP], row[E_N1_UP], n2norm, density_ratio)
    down1 = _spool_rate(props, s[S_N1_DOWN], row[E_N1_DOWN], n2norm, density_ratio)
    n1 = _seek(props[s[S_N1]], row[E_IDLE_N1] + throttle * n1_factor, up1, down1, dt)
    n2norm = (n2 - row[E_IDLE_N2]) / n2_factor
    thrust = idle_thrust + (mil_thrust * n2norm * n2norm)
    augmentation = props[s[S_AUGMENTATION]] != 0.0         # (the last frame's: it decides the bleed)
    if not augmentation:
        tsfc = row[E_TSFC] * math.sqrt(props[s[S_TEMPERATURE]] / 389.7) * (0.84 + (1 - n2norm) * (1 - n2norm))
        flow = max(_seek(flow, thrust * tsfc, 1000.0, 10000.0, flow_dt), row[E_IDLE_FF])
        thrust = thrust * (1.0 - row[E_BLEED])
    method = row[E_AUGMETHOD]
    if method == 1.0:
        augmentation = throttle > 0.99 and n2 > 97.0
    if row[E_AUGMENTED] == 1.0 and augmentation and method < 2.0:
        thrust = props[s[S_AUG]] * row[E_MAX_THRUST]
        flow = _seek(flow, thrust * row[E_ATSFC], 5000.0, 10000.0, flow_dt)
    if method == 2.0:
        if augment_cmd > 0.0:
            augmentation = True
            tdiff = (row[E_MAX_THRUST] * props[s[S_AUG]]) - thrust
            thrust += (tdiff * min(augment_cmd, 1.0))
            flow = _seek(flow, thrust * row[E_ATSFC], 5000.0, 10000.0, flow_dt)
        else:
            augmentation = False
    if injecting:
        timer = props[s[S_INJECTION_TIMER]] + dt
        props[s[S_INJECTION_TIMER]] = timer
        if timer < row[E_INJECTION_TIME]:
            if s[S_INJECTION_FN] >= 0:      # (none: JSBSim would read a missing function; no change here)
                thrust = thrust * props[s[S_INJECTION_FN]]
            props[s[S_WATER]] = 1.0 - (timer / row[E_INJECTION_TIME])
        else:
            props[s[S_INJECTION]] = 0.0
            props[s[S_WATER]] = 0.0
    props[s[S_N1]], props[s[S_N2]], props[s[S_N2NORM]] = n1, n2, n2norm
    props[s[S_AUGMENTATION]] = 1.0 if augmentation else 0.0
    return thrust, flow


@borrowing_jit
def _trim_thrust(props, row, s, throttle, augment_cmd):
    """``FGTurbine::Trim``: the thrust (lbf) at the throttle's N2 with no lag, the bleed taken off first; the
    augmentation's flag updated for augmethod 1, as JSBSim does."""
    mil = row[E_MIL]
    idle_thrust = mil * props[s[S_IDLE]]
    mil_thrust = (mil - idle_thrust) * props[s[S_MIL]]
    n2_factor = row[E_MAX_N2] - row[E_IDLE_N2]
    n2 = row[E_IDLE_N2] + throttle * n2_factor
    n2norm = (n2 - row[E_IDLE_N2]) / n2_factor
    thrust = (idle_thrust + (mil_thrust * n2norm * n2norm)) * (1.0 - row[E_BLEED])
    augmentation = props[s[S_AUGMENTATION]] != 0.0
    method = row[E_AUGMETHOD]
    if method == 1.0:
        augmentation = throttle > 0.99 and n2 > 97.0
        props[s[S_AUGMENTATION]] = 1.0 if augmentation else 0.0
    if row[E_AUGMENTED] == 1.0 and augmentation and method < 2.0:
        thrust = row[E_MAX_THRUST] * props[s[S_AUG]]
    if method == 2.0 and augment_cmd > 0.0:
        tdiff = (row[E_MAX_THRUST] * props[s[S_AUG]]) - thrust
        thrust += (tdiff * min(augment_cmd, 1.0))
    if row[E_INJECTED] == 1.0 and props[s[S_INJECTION]] != 0.0 and s[S_INJECTION_FN] >= 0:
        thrust = thrust * props[s[S_INJECTION_FN]]
    return thrust


@borrowing_jit
def turbine_frame(props, row, s, dt, density_ratio, out):
    """One frame (``dt`` s) of a turbine, as ``FGTurbine::Calculate``: its phase chosen from its switches, then
    run; its state, thrust and fuel flow written into ``props`` and its direct thruster's body loads about the CG
    added into ``out`` (``FGForce::GetBodyForces``: lbf, lbf·ft; none for a turbine driving a propeller, whose
    thrust is its propeller's power)."""
    throttle = props[s[S_THROTTLE]]
    augment_cmd = 0.0
    if throttle > 1.0:                      # the range above 1 is the afterburner's (augmethod 2)
        augment_cmd = throttle - 1.0
        throttle -= augment_cmd
    power = props[s[S_POWER]]
    if power < 1.0:     # a failure (flightsim's): the core spools no higher than leaves that fraction of mil thrust
        throttle = min(throttle, math.sqrt(max(power, 0.0)))
        augment_cmd = 0.0
    phase = int(props[s[S_PHASE]])
    running = props[s[S_RUNNING]] != 0.0
    cutoff = props[s[S_CUTOFF]] != 0.0
    starter = props[s[S_STARTER]] != 0.0
    cranking = props[s[S_CRANKING]] != 0.0
    qbar = props[s[S_QBAR]]
    starved = props[s[S_STARVED]] != 0.0     # (ConsumeFuel's, after the last frame)
    n1, n2 = props[s[S_N1]], props[s[S_N2]]
    idle1, idle2 = row[E_IDLE_N1], row[E_IDLE_N2]
    if phase == PHASE_TRIM and dt > 0.0:    # (a trim or run_ic is over: running or not)
        if running and not starved:
            phase = PHASE_RUN
            n2 = idle2 + throttle * (row[E_MAX_N2] - idle2)
            n1 = idle1 + throttle * (row[E_MAX_N1] - idle1)
            cutoff = False
        else:
            phase = PHASE_OFF
            cutoff = True
    if not running and cutoff and starter and phase == PHASE_OFF:
        phase = PHASE_SPINUP
    if (starter or qbar > 30.0) and not running and not cutoff and n2 > 15.0:
        phase = PHASE_START
    if cutoff and phase != PHASE_SPINUP:
        phase = PHASE_OFF
    if dt == 0.0:
        phase = PHASE_TRIM
    if starved:
        phase = PHASE_OFF
    if props[s[S_STALLED]] != 0.0:
        phase = PHASE_STALL
    if props[s[S_SEIZED]] != 0.0:
        phase = PHASE_SEIZE
    flow = props[s[S_FUEL_FLOW]] * 3600.0
    thrust = 0.0
    if phase == PHASE_RUN:
        props[s[S_N1]], props[s[S_N2]] = n1, n2
        thrust, flow = _run(props, row, s, throttle, augment_cmd, dt, density_ratio, flow, dt)
        n1, n2 = props[s[S_N1]], props[s[S_N2]]
        running = True
        starter = False
        if cutoff:
            phase = PHASE_OFF
    elif phase == PHASE_OFF:
        running = False
        flow = _seek(flow, 0.0, 1000.0, 10000.0, dt)
        if row[E_NO_WINDMILL] == 0.0:       # (a small rate up, else none from N = 0)
            n1 = _seek(n1, qbar / 10.0, n1 / 2.0 + 0.1, n1 / row[E_N1_SPINDOWN], dt)
            n2 = _seek(n2, qbar / 15.0, n2 / 2.0 + 0.1, n2 / row[E_N2_SPINDOWN], dt)
        else:
            n1 = _seek(n1, 0.0, n1 / 2.0, n1 / row[E_N1_SPINDOWN], dt)
            n2 = _seek(n2, 0.0, n2 / 2.0, n2 / row[E_N2_SPINDOWN], dt)
        props[s[S_AUGMENTATION]] = 0.0
    elif phase == PHASE_SPINUP:
        running = False
        flow = 0.0
        n2 = _seek(n2, row[E_IGNITION_N2], row[E_N2_SPINUP], n2 / 2.0, dt)
        n1 = _seek(n1, row[E_IGNITION_N1], row[E_N1_SPINUP], n1 / 2.0, dt)
        if not starter:
            phase = PHASE_OFF
    elif phase == PHASE_START:
        if n2 > 15.0:                       # (minimum 15 % N2 for a start; never starved here: off above)
            cranking = True
            if n2 < idle2:
                n2 = _seek(n2, idle2, row[E_N2_START], n2 / 2.0, dt)
                n1 = _seek(n1, idle1, row[E_N1_START], n1 / 2.0, dt)
                flow = row[E_IDLE_FF] * n2 / idle2
                if not starter and qbar < 30.0:
                    phase = PHASE_OFF       # (an aborted start)
            else:
                phase = PHASE_RUN
                running = True
                starter = False
                cranking = False
        else:
            phase = PHASE_OFF
            starter = False
    elif phase == PHASE_STALL:
        flow = row[E_IDLE_FF]
        n1 = _seek(n1, qbar / 10.0, 0.0, n1 / 10.0, dt)
        n2 = _seek(n2, qbar / 15.0, 0.0, n2 / 10.0, dt)
        if throttle < 0.01:
            phase = PHASE_RUN               # (the stall cleared with the throttle at idle)
            props[s[S_STALLED]] = 0.0
    elif phase == PHASE_SEIZE:
        n2 = 0.0
        n1 = _seek(n1, qbar / 20.0, 0.0, n1 / 15.0, dt)
        flow = 0.0 if cutoff else row[E_IDLE_FF]
        running = False
    else:
        thrust = _trim_thrust(props, row, s, throttle, augment_cmd)
    props[s[S_N1]], props[s[S_N2]], props[s[S_THRUST]] = n1, n2, thrust
    props[s[S_PHASE]] = float(phase)
    props[s[S_RUNNING]] = 1.0 if running else 0.0
    props[s[S_CUTOFF]] = 1.0 if cutoff else 0.0
    props[s[S_STARTER]] = 1.0 if starter else 0.0
    props[s[S_CRANKING]] = 1.0 if cranking else 0.0
    props[s[S_FUEL_FLOW]] = flow / 3600.0
    if row[E_PROPELLER] != 0.0:             # (its thrust is its propeller's power: turboprop.powered_frame)
        return
    _rocket.thruster_loads(row, thrust, out)    # (a direct thruster's: the same columns as a rocket's)


@borrowing_entry_jit         # (called from Python only: engines_steady)
def turbine_steady(props, row, s, density_ratio, out):
    """A turbine at its steady state for its throttle, its loads added into ``out``.

    Running (``…/set-running``): the fixed point ``FGPropulsion::GetSteadyState`` marches ``FGTurbine::Run`` to —
    the spools at their targets, the augmentation lit or not as it settles, then one run with no time passing
    (the injection's timer does not run); its phase running, its fuel on.  Not running: as JSBSim's frame with no
    time passing leaves it (``FGTurbine::Trim``'s thrust, its spools where they are, the trim phase, which the
    next frame with time passing turns off, its fuel cut off).  Starved: off (``FGTurbine::Off`` with no time
    passing: no thrust, its spools where they are, not running)."""
    throttle = props[s[S_THROTTLE]]
    augment_cmd = 0.0
    if throttle > 1.0:
        augment_cmd = throttle - 1.0
        throttle -= augment_cmd
    if props[s[S_STARVED]] != 0.0:
        props[s[S_PHASE]] = float(PHASE_OFF)
        props[s[S_THRUST]] = 0.0
        props[s[S_RUNNING]] = props[s[S_AUGMENTATION]] = 0.0
        return
    if props[s[S_RUNNING]] == 0.0:
        thrust = _trim_thrust(props, row, s, throttle, augment_cmd)
        props[s[S_PHASE]] = float(PHASE_TRIM)
        props[s[S_THRUST]] = thrust
        if row[E_PROPELLER] == 0.0:
            _rocket.thruster_loads(row, thrust, out)
        return
    n1_factor = row[E_MAX_N1] - row[E_IDLE_N1]
    n2_factor = row[E_MAX_N2] - row[E_IDLE_N2]
    if row[E_INJECTED] == 1.0 and props[s[S_INJECTION]] != 0.0 and props[s[S_WATER]] > 0.0:
        n1_factor += props[s[S_INJ_N1]]
        n2_factor += props[s[S_INJ_N2]]
    n2 = row[E_IDLE_N2] + throttle * n2_factor
    props[s[S_N2]] = n2
    props[s[S_N1]] = row[E_IDLE_N1] + throttle * n1_factor
    if row[E_AUGMETHOD] == 1.0:
        props[s[S_AUGMENTATION]] = 1.0 if throttle > 0.99 and n2 > 97.0 else 0.0
    elif row[E_AUGMETHOD] == 2.0:
        props[s[S_AUGMENTATION]] = 1.0 if augment_cmd > 0.0 else 0.0
    props[s[S_PHASE]] = float(PHASE_RUN)
    props[s[S_CUTOFF]] = 0.0
    props[s[S_STALLED]] = props[s[S_SEIZED]] = 0.0
    thrust, flow = _run(props, row, s, throttle, augment_cmd, 0.0, density_ratio, props[s[S_FUEL_FLOW]] * 3600.0,
                        STEADY_FLOW_SECONDS)
    props[s[S_THRUST]] = thrust
    props[s[S_FUEL_FLOW]] = flow / 3600.0
    props[s[S_STARTER]] = 0.0
    if row[E_PROPELLER] == 0.0:
        _rocket.thruster_loads(row, thrust, out)


@borrowing_entry_jit         # (called from Python only: a script's set-running)
def march_turbine(props, row, s, density_ratio, out):
    """``FGPropulsion::GetSteadyState`` for one turbine: its frame (:func:`turbine_frame`) run again and again with
    a time step of 0.5 s until its thrust has changed by less than 1e-4 lbf in more than 120 frames running, at
    most 6000 frames.  ``props`` is changed in place, ``out`` (6 floats) takes the loads; returns the frames
    run."""
    current, count, frames = 0.0, 0, 0
    while frames < 6000:
        for k in range(6):
            out[k] = 0.0
        turbine_frame(props, row, s, 0.5, density_ratio, out)
        frames += 1
        last, current = current, props[s[S_THRUST]]
        count = count + 1 if abs(last - current) < 0.0001 else 0
        if count > 120:
            break
    return frames

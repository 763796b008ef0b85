"""JSBSim itself as the oracle: the same aircraft flown by the ``jsbsim`` package, compared with flightsim's.

*Property replay* (the study in ``shared/reference/jsbsim-aircraft.md``, §3.1):
JSBSim flies the aircraft with a stick programme; after each frame every
property the aerodynamics block reads is copied from JSBSim into flightsim's
property array, flightsim's compiled block computes the loads, and they are
compared with JSBSim's ``forces/fb[xyz]-aero-lbs`` and
``moments/[lmn]-aero-lbsft``.  The reference lengths and the CG are
flightsim's own (from the file), so those are checked too.  No state is
seeded, so none of JSBSim's ``run_ic`` traps apply.

Needs the ``jsbsim`` package (a dependency: its data are the aircraft).
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flightsim.physics.jsbsim.aero import LIFT, STALL_LATCH, Aerodynamics
from flightsim.physics.jsbsim.auxiliary import AUXILIARY, atmosphere_into, auxiliary, motion_in, slots_of
from flightsim.physics.jsbsim.fcs import BUILTIN, FlightControls
from flightsim.physics.jsbsim.loads import SENSOR_STATE
from flightsim.physics.jsbsim.mass import MassBalance, Metrics, tank_properties
from flightsim.physics.jsbsim.piston import volume_flow
from flightsim.physics.jsbsim.program import OP_PROP, Properties
from flightsim.physics.jsbsim.propulsion import (
    E_AUGMETHOD,
    E_IDLE_N1,
    E_IDLE_N2,
    E_KIND,
    E_MAX_N1,
    E_MAX_N2,
    E_MIL,
    KIND_TURBINE,
    S_AUGMENTATION,
    S_INJECTION,
    S_INJECTION_TIMER,
    S_N1,
    S_N2,
    S_WATER,
    Propulsion,
)
from flightsim.physics.jsbsim.rocket import R_SOLID
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path

__all__ = ["FcsReplay", "INERTIAL_RATES", "LOADS", "PISTON_STATE", "PROPELLER_STATE", "PROPULSION_LOADS",
           "PropulsionReplay", "Replay", "TURBOPROP_STATE", "engine_inputs_from", "model_file", "new_fdm",
           "replay_aero", "replay_fcs", "replay_propulsion", "silenced", "start_powered"]

#: Properties JSBSim's FGPropagate writes: it runs first in a frame, so the FCS reads this frame's values of
#: these, and the last frame's of what FGAuxiliary computes (α, β, q̄, the air-relative rates, ...).
PROPAGATED = ("attitude/", "position/", "velocities/p-rad_sec", "velocities/q-rad_sec", "velocities/r-rad_sec",
              "velocities/u-fps", "velocities/v-fps", "velocities/w-fps", "velocities/h-dot-fps",
              "velocities/v-north-fps", "velocities/v-east-fps", "velocities/v-down-fps", "velocities/pi-rad_sec",
              "velocities/qi-rad_sec", "velocities/ri-rad_sec", "simulation/sim-time-sec")
#: JSBSim's aerodynamic loads in the body frame about the CG (lbf, lbf·ft).
LOADS = ("forces/fbx-aero-lbs", "forces/fby-aero-lbs", "forces/fbz-aero-lbs",
         "moments/l-aero-lbsft", "moments/m-aero-lbsft", "moments/n-aero-lbsft")


#: Where the JSBSim runs made here write the files their ``<output>`` sections open (one temporary folder per
#: process, removed at exit): ``disable_output`` stops the writing but not the opening.
_OUTPUT = None


def model_file(name):
    """The aircraft file when ``name`` is a path to a JSBSim aircraft (``….xml``: an aircraft of your own), else
    None (``name`` is one of the ``jsbsim`` package's aircraft, ``NAME``)."""
    return Path(name) if str(name).lower().endswith(".xml") else None


@contextlib.contextmanager
def silenced(*fds):
    """JSBSim's C++ output kept off file descriptors ``fds`` (1: stdout, 2: stderr; default both): C's buffers
    are flushed into the null device before the descriptors are given back, so nothing of it reaches them
    later."""
    fds = fds or (1, 2)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(fd) for fd in fds]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in fds:
            os.dup2(null, fd)
        yield
    finally:
        try:
            ctypes.CDLL(None).fflush(None)
        except (OSError, AttributeError, TypeError):    # (no C library to flush: nothing buffered there)
            pass
        for fd, old in zip(fds, saved, strict=True):
            os.dup2(old, fd)
            os.close(old)
        os.close(null)


def new_fdm(name, dt=1.0 / 120.0, root=None):
    """A quiet ``jsbsim.FGFDMExec`` with aircraft ``name`` loaded at step ``dt`` (set before loading: JSBSim's
    FCS copies dt when the model loads), its file output and input sockets off; ``root``: JSBSim's root folder
    (``aircraft/NAME/NAME.xml``, ``engine/``, ...), by default the package's.

    ``name`` may be a path to an aircraft file (:func:`model_file`): JSBSim then reads that file (its aircraft
    path set to the file's folder, the model named by its stem), and its engines and systems from the folder
    beside it, then from the root's ``engine/`` and ``systems/``, as flightsim's reader looks for them."""
    global _OUTPUT
    import jsbsim

    if _OUTPUT is None:
        _OUTPUT = tempfile.TemporaryDirectory(prefix="flightsim-jsbsim-")
    fdm = jsbsim.FGFDMExec(None if root is None else str(root))
    fdm.set_debug_level(0)
    fdm.set_output_path(_OUTPUT.name)
    fdm.set_dt(dt)
    path = model_file(name)
    if path is None:
        loaded = fdm.load_model(name)
    else:
        loaded = fdm.set_aircraft_path(str(path.resolve().parent)) and fdm.load_model(path.stem, False)
    if not loaded:
        raise RuntimeError(f"JSBSim could not load {str(name)!r}")
    fdm.disable_output()
    fdm.disable_input()
    return fdm


@dataclass
class Replay:
    """What :func:`replay_aero` measured.

    Attributes
    ----------
    force_error, moment_error : float
        The largest difference of a force (moment) component over all frames compared, relative to the
        norm of JSBSim's force (moment) vector in that frame.
    cg_error : float
        The largest difference of flightsim's CG from JSBSim's (``inertia/cg-[xyz]-in``), in.
    fcs_error : float
        The largest difference of a property the flight controls write from JSBSim's, over all frames
        (in the property's unit: rad, deg or normalised).
    auxiliary_error : float
        The largest relative difference of an auxiliary property (α, q̄, Mach, ...; those JSBSim has).
    frames : int
        Frames compared.
    largest_force : float
        The largest aerodynamic force JSBSim gave, lbf (a replay of zeros would compare nothing).
    copied : tuple
        The properties the aerodynamics read that were copied from JSBSim (what flightsim does not compute
        yet: the engines', the last frame's lift, the stall latch, ...).
    """

    force_error: float
    moment_error: float
    cg_error: float
    fcs_error: float
    auxiliary_error: float
    frames: int
    largest_force: float
    copied: tuple


def _state(fdm):
    """JSBSim's body-frame state now: ``(u, v, w, p, q, r, φ, θ, h above sea level, h above ground)``."""
    return tuple(fdm[k] for k in ("velocities/u-fps", "velocities/v-fps", "velocities/w-fps", "velocities/p-rad_sec",
                                  "velocities/q-rad_sec", "velocities/r-rad_sec", "attitude/phi-rad",
                                  "attitude/theta-rad", "position/h-sl-ft", "position/h-agl-ft"))


def _auxiliary_from(fdm, props, slots, metrics, rp, accelerations, eye=(0.0, 0.0, 0.0)):
    """flightsim's auxiliary properties from JSBSim's state now (``accelerations``: :func:`_accelerations` of the
    last frame, what FGAuxiliary reads, or its u̇, v̇, ẇ alone; ``eye`` the pilot's eye about the CG, JSBSim's body
    frame, ft)."""
    u, v, w, p, q, r, phi, theta, h, agl = _state(fdm)
    down = -math.sin(theta) * rp[0] + math.sin(phi) * math.cos(theta) * rp[1] + math.cos(phi) * math.cos(theta) * rp[2]
    auxiliary(props, slots, u, v, w, *accelerations[:3], p, q, r, h, agl, metrics.wing_span, metrics.chord,
              metrics.wing_area, down)
    if len(accelerations) == 3:         # (u̇, v̇, ẇ alone: no load factors)
        return
    force, spin_up, lift_per_weight = np.array(accelerations[3:6]), np.array(accelerations[6:9]), accelerations[9]
    rates = np.array([fdm[f"velocities/{c}i-rad_sec"] for c in "pqr"])       # this frame's (FGPropagate)
    pilot = force + np.cross(spin_up, eye) + np.cross(rates, np.cross(rates, eye))
    motion_in(props, slots, fdm["velocities/mach"], fdm["atmosphere/P-psf"], fdm["velocities/v-north-fps"],
              fdm["velocities/v-east-fps"], fdm["velocities/v-down-fps"], *force, *pilot, lift_per_weight)


def _accelerations(fdm):
    """What FGAuxiliary reads of JSBSim's frame now: the body-frame u̇, v̇, ẇ (ft/s²), the specific force (ft/s²),
    the inertial angular acceleration (rad/s²) and the lift over the weight."""
    m = fdm["inertia/mass-slugs"]
    return (tuple(fdm[f"accelerations/{c}dot-ft_sec2"] for c in "uvw")
            + tuple(fdm[f"forces/fb{c}-total-lbs"] / m for c in "xyz")
            + tuple(fdm[f"accelerations/{c}idot-rad_sec2"] for c in "pqr")
            + (fdm["forces/fwz-aero-lbs"] / (m * 32.174049),))


def _flight_controls_after_run_ic(fdm, fcs, props, inputs, outputs):
    """flightsim's flight controls in the state JSBSim's ``run_ic`` left its in: run twice on ``inputs`` (``(slot,
    name)`` pairs read from ``fdm``; ``RunIC`` runs the models in ``Initialize`` and once more), then ``outputs``
    (pairs) set to JSBSim's (its kinematics moved for a step there too), and the PIDs' integrals, which JSBSim does
    not show, started at 0 on both sides (``FGPID::SetInitialOutput``)."""
    for slot, n in inputs:
        props[slot] = fdm[n]
    fcs.program.run(props)
    fcs.program.run(props)
    for slot, n in outputs:
        props[slot] = fdm[n]
    for n, state in fcs.integrals:
        fdm[f"{n}/initial-integrator-value"] = 0.0
        props[state:state + 3] = 0.0


#: The commands :func:`replay_aero` moves (written into flightsim's properties too where the aircraft's flight
#: controls write them as well: the Short S.23's boost control rewrites its throttle command).
PILOT_COMMANDS = ("fcs/elevator-cmd-norm", "fcs/aileron-cmd-norm", "fcs/rudder-cmd-norm", "fcs/throttle-cmd-norm",
                  "fcs/flap-cmd-norm")


def replay_aero(name, frames=600, every=6, airspeed_kts=120.0, altitude_ft=4000.0, dt=1.0 / 120.0, with_fcs=True):
    """Fly ``name`` in JSBSim with a stick programme; compare flightsim's flight controls, auxiliary properties
    and aerodynamic loads, computed from JSBSim's state and commands, with JSBSim's.

    Elevator, aileron and rudder move sinusoidally (±0.3 to ±0.4), the throttle is at 0.7, the flaps go
    down after 2 s; fuel is frozen.  Each frame, in JSBSim's order (FGPropagate, FGAtmosphere, the FCS,
    FGAuxiliary, FGAerodynamics): flightsim's flight controls run on the commands, this frame's state and
    atmosphere, and flightsim's own auxiliary values of the frame before (their kinematics keep their own
    state); the auxiliary properties
    are computed from the state (with the last frame's accelerations, as JSBSim's α̇); every ``every``-th
    frame those and the loads are compared.  What the aerodynamics reads beyond them (see
    :attr:`Replay.copied`) is copied from JSBSim.  ``with_fcs=False`` (an aircraft whose flight controls
    flightsim does not read yet) copies the surfaces from JSBSim too and leaves ``fcs_error`` 0.  ``name``: one
    of the package's aircraft, or a path to an aircraft file (:func:`new_fdm`).
    """
    source = JSBSimFile(aircraft_path(name))
    properties = Properties()
    aero = Aerodynamics(source, properties)
    fcs = FlightControls(source, properties, dt) if with_fcs else None
    metrics, mass = Metrics.read(source), MassBalance.read(source)
    alpha, beta = properties.slot("aero/alpha-rad"), properties.slot("aero/beta-rad")   # (the wind axes need them)
    aux_slots = slots_of(properties)
    fdm = new_fdm(name, dt)
    fdm["ic/h-sl-ft"] = altitude_ft
    fdm["ic/vc-kts"] = airspeed_kts
    fdm["propulsion/fuel_freeze"] = 1
    fdm.run_ic()
    cg = mass.cg
    cg_error = float(np.max(np.abs(cg - [fdm["inertia/cg-x-in"], fdm["inertia/cg-y-in"], fdm["inertia/cg-z-in"]])))
    rp = mass.structural_to_body(metrics.aero_rp, cg)
    eye = mass.structural_to_body(metrics.eye_point, cg)
    props = properties.array({**aero.defaults, **(fcs.defaults if fcs else {})})
    own = metrics.properties()
    for k, v in own.items():
        if k in properties:
            props[properties[k]] = v
    computed = set(own) | set(AUXILIARY) | (set(BUILTIN) if fcs else set())
    written = set(fcs.outputs) if fcs else set()
    for n in (LIFT, STALL_LATCH):         # the aerodynamics' own state after run_ic (the last lift, the stall latch)
        if n in properties:
            props[properties[n]] = fdm[n]
    # what the FCS reads: this frame's state (FGPropagate runs first) and atmosphere (FGAtmosphere next),
    # JSBSim's commands, and flightsim's own auxiliary values of the frame before (FGAuxiliary runs after it)
    fcs_state = [(properties[n], n) for n in fcs.inputs if n.startswith(PROPAGATED)] if fcs else []
    fcs_commands = [(properties[n], n) for n in fcs.inputs
                    if n not in computed and not n.startswith(PROPAGATED) and n not in SENSOR_STATE] if fcs else []
    # (an accelerometer's: FGAccelerations' last force over the mass and angular acceleration, JSBSim ties no
    # property to the first: from _accelerations)
    sensed = [(properties[n], 3 + k) for k, n in enumerate(SENSOR_STATE) if fcs and n in fcs.inputs]
    copied = [(properties[n], n) for n in aero.inputs if n not in computed and n not in written]
    checked = [(properties[n], n) for n in sorted(written) if fdm.get_property_manager().hasNode(n)]
    checked_aux = [(aux_slots[k], n) for k, n in enumerate(AUXILIARY)
                   if aux_slots[k] >= 0 and fdm.get_property_manager().hasNode(n)]

    _auxiliary_from(fdm, props, aux_slots, metrics, rp, _accelerations(fdm), eye)
    for k, n in enumerate(AUXILIARY):    # (what run_ic left: its last FGAuxiliary ran before its last accelerations)
        if aux_slots[k] >= 0 and fdm.get_property_manager().hasNode(n):
            props[aux_slots[k]] = fdm[n]
    if fcs:
        _flight_controls_after_run_ic(fdm, fcs, props, fcs_state + fcs_commands,
                                      [(properties[n], n) for n in written])
    worst_f = worst_m = worst_c = worst_a = largest = 0.0
    compared = 0
    out = np.zeros(6)
    for i in range(frames):
        t = i * dt
        fdm["fcs/elevator-cmd-norm"] = 0.3 * math.sin(1.3 * t)
        fdm["fcs/aileron-cmd-norm"] = 0.4 * math.sin(2.1 * t)
        fdm["fcs/rudder-cmd-norm"] = 0.3 * math.sin(0.7 * t)
        fdm["fcs/throttle-cmd-norm"] = 0.7
        fdm["fcs/flap-cmd-norm"] = 1.0 if t > 2.0 else 0.0
        last = _accelerations(fdm)        # what this frame's α̇ will use
        for slot, n in fcs_commands:
            props[slot] = fdm[n]
        for slot, k in sensed:
            props[slot] = last[k]
        for n in PILOT_COMMANDS if fcs else ():     # (the pilot's, which an aircraft's own systems may rewrite)
            if n in written:
                props[properties[n]] = fdm[n]
        fdm.run()
        if fcs:
            for slot, n in fcs_state:
                props[slot] = fdm[n]
            atmosphere_into(props, aux_slots, fdm["position/h-sl-ft"])   # FGAtmosphere runs before the FCS
            fcs.program.run(props)
        _auxiliary_from(fdm, props, aux_slots, metrics, rp, last, eye)
        for slot, n in copied:
            props[slot] = fdm[n]
        aero.loads(props, props[alpha], props[beta], rp, out)          # every frame: cl² needs the last lift
        if i % every:
            continue
        worst_c = max(worst_c, max((abs(props[slot] - fdm[n]) for slot, n in checked), default=0.0))
        worst_a = max(worst_a, max((abs(props[slot] - fdm[n]) / max(abs(fdm[n]), 1.0) for slot, n in checked_aux),
                                   default=0.0))
        ref = np.array([fdm[k] for k in LOADS])
        worst_f = max(worst_f, float(np.max(np.abs(out[:3] - ref[:3]))) / max(float(np.linalg.norm(ref[:3])), 1e-300))
        worst_m = max(worst_m, float(np.max(np.abs(out[3:] - ref[3:]))) / max(float(np.linalg.norm(ref[3:])), 1e-300))
        largest = max(largest, float(np.linalg.norm(ref[:3])))
        compared += 1
    return Replay(worst_f, worst_m, cg_error, worst_c, worst_a, compared, largest, tuple(n for _, n in copied))


@dataclass
class FcsReplay:
    """What :func:`replay_fcs` measured.

    Attributes
    ----------
    error : float
        The largest difference of a property the flight controls write from JSBSim's, over all frames, relative
        to the larger of 1 and JSBSim's value.
    worst : str
        The property it was in.
    frames : int
    checked : tuple
        The properties compared (those the flight controls write that JSBSim has).
    moved : int
        How many of them changed during the replay (a replay of constants would compare little).
    """

    error: float
    worst: str
    frames: int
    checked: tuple
    moved: int


def replay_fcs(name, frames=600, airspeed_kts=250.0, altitude_ft=10000.0, dt=1.0 / 120.0, root=None,
               commands=None):
    """Fly ``name`` in JSBSim with a stick programme and run flightsim's flight controls beside it, on the
    inputs JSBSim's FCS had; compare everything they write, every frame.

    JSBSim's FCS runs after FGPropagate and FGAtmosphere and before the other models, so it reads this frame's
    state and atmosphere and the last frame's auxiliary, engine and aerodynamic values: each frame the inputs
    are read before ``run`` and the state's and the atmosphere's again after it.  The flight controls' own
    state (filters, integrals, kinematics) is flightsim's own from the start: they run twice on the inputs after
    ``run_ic``, as JSBSim's ran in it (``RunIC`` runs the models in ``Initialize`` and once more), except the
    PIDs' integrals, which JSBSim does not show: both sides' are set to 0 then.  ``commands(t)`` gives the commands
    at time ``t`` (a dict; by default elevator, aileron and rudder move sinusoidally, the throttle at 0.7, the
    flaps down after 2 s).
    """
    source = JSBSimFile(aircraft_path(name) if root is None else root / "aircraft" / name / f"{name}.xml")
    fcs = FlightControls(source, Properties(), dt)
    properties = fcs.properties
    fdm = new_fdm(name, dt, root)
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = altitude_ft, airspeed_kts
    fdm["propulsion/fuel_freeze"] = 1
    fdm.run_ic()
    manager = fdm.get_property_manager()
    props = properties.array({**fcs.defaults, "simulation/dt": dt})
    inputs = [(properties[n], n) for n in fcs.inputs if manager.hasNode(n)]
    now = [(slot, n) for slot, n in inputs if n.startswith(PROPAGATED + ("atmosphere/",))]
    checked = [(properties[n], n) for n in sorted(set(fcs.outputs)) if manager.hasNode(n)]
    commands = commands or (lambda t: {"fcs/elevator-cmd-norm": 0.3 * math.sin(1.3 * t),
                                       "fcs/aileron-cmd-norm": 0.4 * math.sin(2.1 * t),
                                       "fcs/rudder-cmd-norm": 0.3 * math.sin(0.7 * t),
                                       "fcs/throttle-cmd-norm": 0.7, "fcs/flap-cmd-norm": float(t > 2.0)})
    _flight_controls_after_run_ic(fdm, fcs, props, inputs, checked)
    first = {n: fdm[n] for _, n in checked}
    worst, where, moved = 0.0, "", set()
    for i in range(frames):
        for k, v in commands(i * dt).items():
            fdm[k] = v
            if k in properties:         # (the pilot's command, which an aircraft's own systems may rewrite)
                props[properties[k]] = v
        for slot, n in inputs:
            props[slot] = fdm[n]
        fdm.run()
        for slot, n in now:
            props[slot] = fdm[n]
        fcs.program.run(props)
        for slot, n in checked:
            ref = fdm[n]
            error = abs(props[slot] - ref) / max(abs(ref), 1.0)
            if error > worst:
                worst, where = error, n
            if ref != first[n]:
                moved.add(n)
    return FcsReplay(worst, where, frames, tuple(n for _, n in checked), len(moved))


#: JSBSim's thrusters' loads in the body frame about the CG (lbf, lbf·ft).
PROPULSION_LOADS = ("forces/fbx-prop-lbs", "forces/fby-prop-lbs", "forces/fbz-prop-lbs",
                    "moments/l-prop-lbsft", "moments/m-prop-lbsft", "moments/n-prop-lbsft")


@dataclass
class PropulsionReplay:
    """What :func:`replay_propulsion` measured: the largest differences over the frames compared.

    Attributes
    ----------
    thrust_error : float
        Of an engine's thrust: a turbine's (direct thruster) relative to its military thrust, a propeller's relative
        to the largest thrust JSBSim gave it over the replay.
    spool_error : float
        Of a turbine's or turboprop's N1 or N2, % of its maximum.
    force_error, moment_error : float
        Of the thrusters' body force (moment), relative to the norm of JSBSim's.
    frames : int
    largest_thrust : float
        The largest thrust JSBSim gave, lbf.
    rpm_error : float
        Of a propeller's rpm, relative to JSBSim's.
    map_error : float
        Of a piston's manifold pressure, relative to JSBSim's.
    induced_error : float
        Of a propeller's induced velocity (which aerodynamics read), relative to the largest JSBSim gave it.
    power_error : float
        Of a piston's or turboprop's power, relative to the largest JSBSim gave it.
    augmented : int
        Of the frames compared, those with a turbine's augmentation (afterburner) lit.
    injection_error : float
        Of a turbine's water-injection command, timer (s) or water left (normalised).
    pitch_error : float
        Of a propeller's blade angle, deg.
    ielu : int
        Of the frames compared, those with a turboprop's IELU (torque limiter) intervening.
    egt_error : float
        Of a piston's exhaust gas temperature (``egt-degF``), relative to JSBSim's (°F, at least 1).
    """

    thrust_error: float
    spool_error: float
    force_error: float
    moment_error: float
    frames: int
    largest_thrust: float
    rpm_error: float = 0.0
    map_error: float = 0.0
    induced_error: float = 0.0
    power_error: float = 0.0
    augmented: int = 0
    injection_error: float = 0.0
    pitch_error: float = 0.0
    ielu: int = 0
    egt_error: float = 0.0


#: A piston engine's state JSBSim keeps, copied into flightsim's properties once after ``run_ic`` (``{e}``:
#: ``propulsion/engine[k]``): the manifold pressure, running, the last fuel flow, the boost speed, the propeller's
#: rpm, blade angle and the thrust's point of action (P-factor).  FGPiston's ``TMAP`` (``{e}/tmap-pa``), which
#: JSBSim does not show, is taken as the manifold pressure: exact without a supercharger or at 0 rpm.
PISTON_STATE = ("{e}/map-pa", "{e}/set-running", "{e}/fuel-flow-rate-pps", "{e}/boost-speed", "{e}/propeller-rpm",
                "{e}/blade-angle", "{e}/y-position", "{e}/z-position")
def hidden_tmap(row, manifold, rpm, speed):
    """FGPiston's ``TMAP`` (Pa) from the manifold pressure ``manifold`` it shows (Pa) at engine ``rpm`` and boost
    speed ``speed``, computed in a frame at that rpm: ``MAP / (1 + (mul − 1) rpm / rated rpm)`` with a
    supercharger, ``MAP`` without; refused when the MAP is clipped at the rated (or takeoff) MAP, which hides it."""
    from flightsim.physics.jsbsim.piston import (
        PE_BOOST_MUL,
        PE_BOOST_SPEEDS,
        PE_RATED_MAP,
        PE_RATED_RPM,
        PE_TAKEOFF_MAP,
    )

    if row[PE_BOOST_SPEEDS] <= 0:
        return manifold
    if manifold in (row[PE_RATED_MAP + speed], row[PE_TAKEOFF_MAP + speed]):
        raise ValueError("the manifold pressure is clipped at the supercharger's rated MAP: TMAP is hidden")
    return manifold / (((row[PE_BOOST_MUL + speed] - 1) / row[PE_RATED_RPM + speed]) * rpm + 1)


#: The body rates relative to inertial space (FGPropagate's PQRi: with the Earth's rotation), which the
#: propeller's gyroscopic moment uses; copied from JSBSim each frame.
INERTIAL_RATES = ("velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec")


def _throttle(t):
    """The replay's throttle programme: 0.7, then 1 at 1 s, 0.2 at 2.5 s, 0.6 at 4 s."""
    return 0.7 if t < 1.0 else 1.0 if t < 2.5 else 0.2 if t < 4.0 else 0.6


def _mixture(t):
    """The replay's mixture programme (pistons): 1 (as ``set-running`` leaves it), 0.85 from 2 s, cut off (0: the
    engine stops and windmills) from 3.5 s, 1 again from 4.25 s (it starts again, windmilling)."""
    return 1.0 if t < 2.0 else 0.85 if t < 3.5 else 0.0 if t < 4.25 else 1.0


def _advance(t):
    """The replay's rpm command programme (``fcs/advance-cmd-norm[k]``, a governor's): 0 (JSBSim's default: its
    steady-state march, at 0.5 s steps, stops some engines governed at higher rpm), 1 from 1.5 s, 0.6 from 3 s."""
    return 0.0 if t < 1.5 else 1.0 if t < 3.0 else 0.6


def start_pistons(fdm, pistons):
    """Where JSBSim left piston ``k`` of ``pistons`` stopped after ``run_ic`` (it ignores ``set-running`` before
    it for some aircraft), set it running now (``FGPropulsion::InitRunning``, its steady state) and run one frame
    with no time passing, as ``run_ic`` does, so that every output is of the state it left."""
    if all(fdm[f"propulsion/engine[{k}]/set-running"] for k in pistons):
        return
    fdm["propulsion/set-running"] = -1
    fdm.suspend_integration()
    fdm.run()
    fdm.resume_integration()
    if not all(fdm[f"propulsion/engine[{k}]/set-running"] for k in pistons):
        # (c310's do not start so at all: cranked as its scripts start them, through the steady-state march)
        fdm["propulsion/magneto_cmd"], fdm["propulsion/starter_cmd"] = 3, 1
        fdm.get_propulsion().get_steady_state()
        fdm["propulsion/starter_cmd"] = 0
        fdm.get_propulsion().get_steady_state()
        fdm.suspend_integration()
        fdm.run()
        fdm.resume_integration()


def _start_engines(fdm, engines, props):
    """flightsim's engines in the state JSBSim starts them in after ``set-running`` and ``run_ic``: a turbine's
    spools at the speeds of its first throttle position (JSBSim's FCS's, above 1 the afterburner's range: FGTurbine's
    first running frame), its augmentation lit as ``run_ic``'s ``FGTurbine::Trim`` leaves it (augmethod 1: throttle
    above 0.99 and N2's target above 97 %; otherwise out, as ``set-running``'s steady state at throttle 1 leaves
    it); a piston's state copied."""
    names = engines.properties
    for k, (kind, row) in enumerate(engines.kinds):
        if kind in ("rocket", "electric"):
            continue                # (a rocket's flows start at 0: run_ic burned over a zero step; no state else)
        if kind == "brushless":     # (a motor keeps no state: its propeller's, as set-running's march left it)
            for name in PROPELLER_STATE:
                props[names[name.format(e=f"propulsion/engine[{k}]")]] = fdm[name.format(e=f"propulsion/engine[{k}]")]
            continue
        if kind == "turbine":
            r, s = engines.engines[row], engines.slots[row]
            throttle = fdm[f"fcs/throttle-pos-norm[{k}]"]
            if throttle > 1.0:
                throttle -= throttle - 1.0          # (FGTurbine::Calculate's own arithmetic)
            props[s[S_N2]] = r[E_IDLE_N2] + throttle * (r[E_MAX_N2] - r[E_IDLE_N2])
            props[s[S_N1]] = r[E_IDLE_N1] + throttle * (r[E_MAX_N1] - r[E_IDLE_N1])
            props[s[S_AUGMENTATION]] = float(r[E_AUGMETHOD] == 1.0 and throttle > 0.99 and props[s[S_N2]] > 97.0)
        elif kind == "piston":
            for name in PISTON_STATE:
                name = name.format(e=f"propulsion/engine[{k}]")
                if fdm.get_property_manager().hasNode(name):
                    props[names[name]] = fdm[name]
            e = f"propulsion/engine[{k}]"
            props[names[f"{e}/egt-degF"]] = fdm[f"{e}/egt-degF"]     # (FGPiston's temperature, from its °F)
            props[names[f"{e}/egt-degK"]] = (fdm[f"{e}/egt-degF"] + 459.4) / 1.8
            props[names[f"{e}/tmap-pa"]] = hidden_tmap(engines.pistons[row], fdm[f"{e}/map-pa"],
                                                      fdm[f"{e}/engine-rpm"], int(fdm[f"{e}/boost-speed"]))
            # (FGPiston's hidden v_dot_air, which a supercharger's drive loss reads next frame: doAirFlow's of the
            # state run_ic left, its MAP at the ambient pressure then)
            props[names[f"{e}/v-dot-air-m3_sec"]] = volume_flow(engines.pistons[row], fdm[f"{e}/engine-rpm"],
                                                                fdm[f"{e}/map-pa"], fdm["atmosphere/P-psf"] * 47.88)


#: A propeller's state JSBSim keeps (the rpm, blade angle, the thrust's point of action and the torque, which a
#: turboprop's IELU reads the next frame), and a turboprop's (N1, ITT, engine temperature, the IELU's flag).
PROPELLER_STATE = ("{e}/propeller-rpm", "{e}/blade-angle", "{e}/y-position", "{e}/z-position",
                   "{e}/propeller-torque-ftlb")
TURBOPROP_STATE = ("{e}/n1", "{e}/itt-c", "{e}/engtemp-c", "{e}/ielu_intervent")


def start_powered(fdm, engines, props):
    """flightsim's turboprops and turbines driving propellers in JSBSim's state after its first frame after
    ``run_ic`` (which sets a turboprop's N1 to idle, then runs it): the propeller's and turboprop's state copied
    (:data:`PROPELLER_STATE`, :data:`TURBOPROP_STATE`), a turbine's spools too; the IELU's last throttle, which
    JSBSim does not show, is the frame's throttle position when the IELU did not intervene, else the throttle N1's
    step from idle implies."""
    from flightsim.physics.jsbsim.turboprop import TP_DELAY, TP_IDLE_N1, TP_MAX_N1, TS_IELU_THROTTLE

    names = engines.properties
    for k, (kind, row) in enumerate(engines.kinds):
        e = f"propulsion/engine[{k}]"
        if kind == "turbine" and k in engines.turbine_propellers:
            s = engines.slots[row]
            props[s[S_N1]], props[s[S_N2]] = fdm[f"{e}/n1"], fdm[f"{e}/n2"]
        elif kind != "turboprop":
            continue
        for name in PROPELLER_STATE + (TURBOPROP_STATE if kind == "turboprop" else ()):
            props[names[name.format(e=e)]] = fdm[name.format(e=e)]
        if kind == "turboprop":
            r = engines.pistons[row]
            throttle = fdm[f"fcs/throttle-pos-norm[{k}]"]
            if fdm[f"{e}/ielu_intervent"]:
                idle, step = r[TP_IDLE_N1], fdm[f"{e}/n1"] - r[TP_IDLE_N1]
                tau = r[TP_DELAY] * (1.0 if step >= 0.0 else 2.4)       # (ExpSeek's up and down)
                throttle = step / (1.0 - math.exp(-fdm.get_delta_t() / tau)) / (r[TP_MAX_N1] - idle)
            props[engines.piston_slots[row, TS_IELU_THROTTLE]] = throttle


def engine_inputs_from(fdm, props, aux_slots, inertial, metrics, rp, accelerations):
    """What flightsim's engines read, from JSBSim's state now, into ``props``: the auxiliary properties (the
    atmosphere, the air-relative velocity and rates, Mach; ``accelerations``: the last frame's u̇, v̇, ẇ) and the
    inertial body rates (``inertial``: their ``(slot, name)`` pairs, :data:`INERTIAL_RATES`)."""
    _auxiliary_from(fdm, props, aux_slots, metrics, rp, accelerations)
    for slot, key in inertial:
        props[slot] = fdm[key]


class _Worst:
    """The largest errors of :func:`replay_propulsion`, by name; for pistons also each measure's scale (the largest
    magnitude JSBSim gave), divided out at the end."""

    def __init__(self):
        self.error, self.scale = {}, {}

    def add(self, key, error):
        self.error[key] = max(self.error.get(key, 0.0), error)

    def scaled(self, key, engine, error, reference):
        self.add((key, engine), error)
        self.scale[(key, engine)] = max(self.scale.get((key, engine), 0.0), abs(reference))

    def get(self, key):
        values = [v / (self.scale[k] if self.scale[k] > 0.0 else 1.0) if k in self.scale else v
                  for k, v in self.error.items() if k == key or (isinstance(k, tuple) and k[0] == key)]
        return float(max(values, default=0.0))


def _compare_engines(fdm, engines, props, worst):
    """This frame's engine outputs against JSBSim's, into ``worst``; the largest |thrust| JSBSim gave."""
    largest = 0.0
    names = engines.properties
    for k, (kind, row) in enumerate(engines.kinds):
        e = f"propulsion/engine[{k}]"
        thrust = fdm[f"{e}/thrust-lbs"]
        largest = max(largest, abs(thrust))
        ours = props[names[f"{e}/thrust-lbs"]]
        if kind == "turboprop" or k in engines.turbine_propellers:
            _compare_powered(fdm, engines, props, worst, k, kind, row)
            continue
        if kind == "turbine":
            r, s = engines.engines[row], engines.slots[row]
            worst.add("thrust", abs(ours - thrust) / r[E_MIL])
            worst.add("spool", max(abs(props[s[S_N1]] - fdm[f"{e}/n1"]) / r[E_MAX_N1] * 100,
                                   abs(props[s[S_N2]] - fdm[f"{e}/n2"]) / r[E_MAX_N2] * 100))
            worst.add("injection", max(abs(props[s[S_INJECTION_TIMER]] - fdm[f"{e}/InjectionTimer"]),
                                       abs(props[s[S_WATER]] - fdm[f"{e}/InjWaterNorm"]),
                                       abs(props[s[S_INJECTION]] - fdm[f"{e}/injection_cmd"])))
            continue
        worst.scaled("thrust", k, abs(ours - thrust), thrust)
        if kind in ("rocket", "electric"):
            liquid = ("fuel-flow-rate-pps", "oxi-flow-rate-pps", "vacuum-thrust_lbs")
            solid = engines.engines[row, R_SOLID] != 0.0
            for name in ((liquid[::2] if solid else liquid) if kind == "rocket" else ("power-hp",)):
                worst.scaled("power", k, abs(props[names[f"{e}/{name}"]] - fdm[f"{e}/{name}"]), fdm[f"{e}/{name}"])
            continue
        for key, name in (("induced", "prop-induced-velocity_fps"), ("power", "power-hp")):
            worst.scaled(key, k, abs(props[names[f"{e}/{name}"]] - fdm[f"{e}/{name}"]), fdm[f"{e}/{name}"])
        for key, name in (("rpm", "propeller-rpm"), ("map", "map-pa"))[:1 if kind == "brushless" else 2]:
            worst.add(key, abs(props[names[f"{e}/{name}"]] - fdm[f"{e}/{name}"]) / max(abs(fdm[f"{e}/{name}"]), 1.0))
        worst.add("pitch", abs(props[names[f"{e}/blade-angle"]] - fdm[f"{e}/blade-angle"]))
        if kind == "piston":
            worst.add("egt", abs(props[names[f"{e}/egt-degF"]] - fdm[f"{e}/egt-degF"]) / max(abs(fdm[f"{e}/egt-degF"]),
                                                                                          1.0))
    return largest


def _compare_powered(fdm, engines, props, worst, k, kind, row):
    """A turboprop's or a propeller-driving turbine's outputs against JSBSim's, into ``worst``."""
    names = engines.properties
    e = f"propulsion/engine[{k}]"
    worst.scaled("thrust", k, abs(props[names[f"{e}/thrust-lbs"]] - fdm[f"{e}/thrust-lbs"]), fdm[f"{e}/thrust-lbs"])
    for key, name in (("induced", "prop-induced-velocity_fps"),) + ((("power", "power-hp"),) if kind == "turboprop"
                                                                    else ()):
        worst.scaled(key, k, abs(props[names[f"{e}/{name}"]] - fdm[f"{e}/{name}"]), fdm[f"{e}/{name}"])
    worst.add("rpm", abs(props[names[f"{e}/propeller-rpm"]] - fdm[f"{e}/propeller-rpm"])
              / max(abs(fdm[f"{e}/propeller-rpm"]), 1.0))
    worst.add("pitch", abs(props[names[f"{e}/blade-angle"]] - fdm[f"{e}/blade-angle"]))
    if kind == "turboprop":
        from flightsim.physics.jsbsim.turboprop import TP_MAX_N1
        worst.add("spool", abs(props[names[f"{e}/n1"]] - fdm[f"{e}/n1"]) / engines.pistons[row, TP_MAX_N1] * 100)
        worst.add("ielu", float(props[names[f"{e}/ielu_intervent"]] != fdm[f"{e}/ielu_intervent"]))
    else:
        r, s = engines.engines[row], engines.slots[row]
        worst.add("spool", max(abs(props[s[S_N1]] - fdm[f"{e}/n1"]) / r[E_MAX_N1] * 100,
                               abs(props[s[S_N2]] - fdm[f"{e}/n2"]) / r[E_MAX_N2] * 100))


def _engine_inputs_from_fcs(source, engines):
    """The engines' properties (their slots' names, what their functions read) that the aircraft's flight
    controls write: none where flightsim does not read its flight controls."""
    from flightsim.errors import InputError

    try:
        outputs = set(FlightControls(source, Properties()).outputs)
    except InputError:
        return ()
    names = engines.properties.names
    slots = {int(v) for table in (engines.slots, engines.piston_slots, engines.propeller_slots) for v in table.ravel()
             if v >= 0}
    read = {names[k] for k in slots} | {names[int(arg)] for op, arg in engines.program.code if op == OP_PROP}
    return tuple(sorted(n for n in read & outputs if not n.startswith("fcs/throttle-pos-norm")))


def replay_propulsion(name, frames=600, every=3, airspeed_kts=200.0, altitude_ft=8000.0, dt=1.0 / 120.0,
                      throttle=_throttle, root=None, extra=None, burn=None, from_fcs=None):
    """Fly ``name`` in JSBSim with its engines running and the throttles moving (``throttle(t)``, the commands: by
    default 0.7, then 1 at 1 s, 0.2 at 2.5 s, 0.6 at 4 s; a piston's mixture 1, 0.85 at 2 s, cut off at 3.5 s, 1 at
    4.25 s: the engine stops, windmills and starts again); run flightsim's engines on the same commands and JSBSim's
    state, frame by frame, and compare thrust, spools or rpm, manifold pressure, power, induced
    velocity, blade angle and the thrusters' loads.  A governor's rpm command (``fcs/advance-cmd-norm[k]``)
    goes 0 → 1 at 1.5 s → 0.6 at 3 s (:func:`_advance`).

    JSBSim's engines are started as its ``propulsion/set-running = -1`` does, before ``run_ic``
    (``FGPropulsion::InitRunning``: throttle and mixture 1; a piston's magnetos both on, the starter off,
    running, its propeller at twice the idle rpm, then ``GetSteadyState``); fuel is frozen.  flightsim's engines
    start from the state JSBSim has after ``run_ic``: a turbine's spools at the first throttle's speeds (its
    first running frame), a piston's manifold pressure, running flag, last fuel flow, propeller rpm and point of
    action copied (:data:`PISTON_STATE`).  Then each frame, after JSBSim's, flightsim's auxiliary properties are
    computed from JSBSim's state (the atmosphere included), the inertial body rates (:data:`INERTIAL_RATES`)
    copied, the throttle positions copied from JSBSim's FCS (equal to the commands unless the aircraft's flight
    controls write them; above 1 an afterburner's range), the mixture positions set as FGFCS sets them (equal to
    the commands), and flightsim's engines run one frame on their own state.

    Where ``set-running`` before ``run_ic`` leaves a piston stopped (c182, Boeing314: JSBSim ignores it there),
    it is set again after ``run_ic``, and one frame with no time passing follows (as ``run_ic`` ends), so that
    the manifold pressure JSBSim shows is its hidden ``TMAP`` boosted at the propeller's rpm now
    (:func:`_start_engines` divides the boost out).

    With turboprops or turbines driving propellers, JSBSim runs one frame after ``run_ic`` before flightsim's
    engines start from its state (:func:`start_powered`: a turboprop's hidden IELU throttle is known then), and the
    frames compared are the next ``frames``; a turboprop's rpm command moves as a piston's (:func:`_advance`).

    ``root``: JSBSim's root folder holding ``aircraft/NAME/NAME.xml`` (by default the package's); ``extra(t)``:
    other commands, ``{property: value}``, set in JSBSim and in flightsim's properties before each frame (e.g. a
    water-injection command).

    ``from_fcs``: properties (``{k}`` the engine's index) the aircraft's own flight controls write for its engines
    (a Short S.23's blade angles, mixtures and starters), copied from JSBSim into flightsim's after each of its
    frames, as its throttle positions are; by default every one of the engines' properties (their slots, what
    their functions read) that the aircraft's flight controls write (none where flightsim does not read them).

    A solid rocket is not started by ``set-running`` (JSBSim's steady state would light it and burn it before
    the first frame): an aircraft whose engines are all rockets is flown without it, its solid rockets lit as
    their throttles reach 1.

    ``burn`` (by default: whether the aircraft has a rocket): JSBSim's fuel is not frozen but burns, and every
    tank's contents are put back as the file gives them before each frame, so the mass and CG stay flightsim's
    (a liquid rocket's thrust is the propellant it burned, none with the fuel frozen:
    :mod:`~flightsim.physics.jsbsim.rocket`).  A rocket's and an electric engine's thrust, flows (power) and
    vacuum thrust are compared relative to JSBSim's largest (``thrust_error``, ``power_error``).
    """
    source = JSBSimFile(aircraft_path(name) if root is None else Path(root) / "aircraft" / name / f"{name}.xml")
    properties = Properties()
    engines = Propulsion(source, properties)
    metrics, mass = Metrics.read(source), MassBalance.read(source)
    sigma = properties.slot("atmosphere/sigma")            # (the spools' rates read it)
    aux_slots = slots_of(properties)
    props = properties.array(engines.defaults)
    inertial = [(properties[n], n) for n in INERTIAL_RATES if n in properties]
    fdm = new_fdm(name, dt, root)
    fdm["ic/h-sl-ft"] = altitude_ft
    fdm["ic/vc-kts"] = airspeed_kts
    if burn is None:
        burn = any(kind == "rocket" for kind, _ in engines.kinds)
    fdm["propulsion/fuel_freeze"] = 0 if burn else 1
    if any(kind != "rocket" for kind, _ in engines.kinds):
        fdm["propulsion/set-running"] = -1
    n = len(engines.kinds)
    if from_fcs is None:
        from_fcs = _engine_inputs_from_fcs(source, engines)
    pistons = [k for k, (kind, _) in enumerate(engines.kinds) if kind in ("piston", "turboprop")]
    tanks = {k: v for k, v in tank_properties(source).items() if k.endswith("/contents-lbs")} if burn else {}
    powered = any(kind == "turboprop" for kind, _ in engines.kinds) or bool(engines.turbine_propellers)

    def command(t):
        for k in range(n):
            fdm[f"fcs/throttle-cmd-norm[{k}]"] = throttle(t)
        for k in pistons:
            if engines.kinds[k][0] == "piston":
                fdm[f"fcs/mixture-cmd-norm[{k}]"] = _mixture(t)
                props[properties[f"fcs/mixture-pos-norm[{k}]"]] = _mixture(t)
            fdm[f"fcs/advance-cmd-norm[{k}]"] = _advance(t)
            props[properties[f"fcs/advance-cmd-norm[{k}]"]] = _advance(t)
        for key, value in ({} if extra is None else extra(t)).items():
            fdm[key] = value
            props[properties[key]] = value
        for key, value in tanks.items():        # (burning: the tanks refilled)
            fdm[key] = value

    command(0.0)
    fdm.run_ic()
    start_pistons(fdm, pistons)
    cg = mass.cg
    engines.locate(lambda r: mass.structural_to_body(r, cg))
    rp = mass.structural_to_body(metrics.aero_rp, cg)
    _start_engines(fdm, engines, props)
    first = 0
    if powered:                             # (a turboprop's hidden state is known after a frame: start_powered)
        command(0.0)
        fdm.run()
        start_powered(fdm, engines, props)
        first = 1
    worst = _Worst()
    largest = 0.0
    compared = lit = ielu = 0
    out = np.zeros(6)
    ielu_slots = [properties[f"propulsion/engine[{k}]/ielu_intervent"] for k, (kind, _) in enumerate(engines.kinds)
                  if kind == "turboprop"]
    for i in range(first, frames + first):
        command(i * dt)
        last = _accelerations(fdm)
        fdm.run()
        engine_inputs_from(fdm, props, aux_slots, inertial, metrics, rp, last)
        for k in range(n):                  # what JSBSim's FCS made of the commands this frame
            props[properties[f"fcs/throttle-pos-norm[{k}]"]] = fdm[f"fcs/throttle-pos-norm[{k}]"]
            for pattern in from_fcs:
                if "{k}" in pattern or k == 0:
                    props[properties[pattern.format(k=k)]] = fdm[pattern.format(k=k)]
        engines.run(props, dt, props[sigma], out)
        if i % every:
            continue
        largest = max(largest, _compare_engines(fdm, engines, props, worst))
        lit += bool(np.any(props[engines.slots[engines.engines[:, E_KIND] == KIND_TURBINE, S_AUGMENTATION]]))
        ielu += bool(np.any(props[ielu_slots]))
        ref = np.array([fdm[key] for key in PROPULSION_LOADS])
        worst.add("force", float(np.max(np.abs(out[:3] - ref[:3]))) / max(float(np.linalg.norm(ref[:3])), 1e-300))
        worst.add("moment", float(np.max(np.abs(out[3:] - ref[3:]))) / max(float(np.linalg.norm(ref[3:])), 1e-300))
        compared += 1
    return PropulsionReplay(worst.get("thrust"), worst.get("spool"), worst.get("force"), worst.get("moment"), compared,
                            largest, worst.get("rpm"), worst.get("map"), worst.get("induced"), worst.get("power"), lit,
                            worst.get("injection"), worst.get("pitch"), ielu, worst.get("egt"))

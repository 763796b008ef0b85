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

import math
import tempfile
from dataclasses import dataclass

import numpy as np

from flightsim.physics.jsbsim.aero import Aerodynamics
from flightsim.physics.jsbsim.mass import MassBalance, Metrics
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path

__all__ = ["LOADS", "Replay", "new_fdm", "replay_aero"]

#: JSBSim's aerodynamic loads in the body frame about the CG (lbf, lbf·ft).
LOADS = ("forces/fbx-aero-lbs", "forces/fby-aero-lbs", "forces/fbz-aero-lbs",
         "moments/l-aero-lbsft", "moments/m-aero-lbsft", "moments/n-aero-lbsft")


#: Where the JSBSim runs made here write the files their ``<output>`` sections open (one temporary folder per
#: process, removed at exit): ``disable_output`` stops the writing but not the opening.
_OUTPUT = None


def new_fdm(name, dt=1.0 / 120.0):
    """A quiet ``jsbsim.FGFDMExec`` with aircraft ``name`` loaded at step ``dt`` (set before loading: JSBSim's
    FCS copies dt when the model loads), its file output and input sockets off."""
    global _OUTPUT
    import jsbsim

    if _OUTPUT is None:
        _OUTPUT = tempfile.TemporaryDirectory(prefix="flightsim-jsbsim-")
    fdm = jsbsim.FGFDMExec(None)
    fdm.set_debug_level(0)
    fdm.set_output_path(_OUTPUT.name)
    fdm.set_dt(dt)
    if not fdm.load_model(name):
        raise RuntimeError(f"JSBSim could not load {name!r}")
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
    frames : int
        Frames compared.
    largest_force : float
        The largest aerodynamic force JSBSim gave, lbf (a replay of zeros would compare nothing).
    """

    force_error: float
    moment_error: float
    cg_error: float
    frames: int
    largest_force: float


def replay_aero(name, frames=600, every=6, airspeed_kts=120.0, altitude_ft=4000.0):
    """Fly ``name`` in JSBSim with a stick programme and compare its aerodynamic loads with flightsim's.

    Elevator, aileron and rudder move sinusoidally (±0.3 to ±0.4), the throttle is at 0.7, the flaps go
    down after 2 s; fuel is frozen.  Every ``every``-th of ``frames`` frames of 1/120 s is compared.
    """
    source = JSBSimFile(aircraft_path(name))
    aero, metrics, mass = Aerodynamics(source), Metrics.read(source), MassBalance.read(source)
    fdm = new_fdm(name)
    fdm["ic/h-sl-ft"] = altitude_ft
    fdm["ic/vc-kts"] = airspeed_kts
    fdm["propulsion/fuel_freeze"] = 1
    fdm.run_ic()
    cg = mass.cg
    cg_error = float(np.max(np.abs(cg - [fdm["inertia/cg-x-in"], fdm["inertia/cg-y-in"], fdm["inertia/cg-z-in"]])))
    props = aero.properties.array(aero.defaults)
    own = metrics.properties()
    for k, v in own.items():
        if k in aero.properties:
            props[aero.properties[k]] = v
    copied = [(aero.properties[n], n) for n in aero.inputs if n not in own]
    rp = mass.structural_to_body(metrics.aero_rp, cg)
    worst_f = worst_m = largest = 0.0
    compared = 0
    out = np.zeros(6)
    for i in range(frames):
        t = i / 120.0
        fdm["fcs/elevator-cmd-norm"] = 0.3 * math.sin(1.3 * t)
        fdm["fcs/aileron-cmd-norm"] = 0.4 * math.sin(2.1 * t)
        fdm["fcs/rudder-cmd-norm"] = 0.3 * math.sin(0.7 * t)
        fdm["fcs/throttle-cmd-norm"] = 0.7
        fdm["fcs/flap-cmd-norm"] = 1.0 if t > 2.0 else 0.0
        fdm.run()
        if i % every:
            continue
        for slot, n in copied:
            props[slot] = fdm[n]
        aero.loads(props, fdm["aero/alpha-rad"], fdm["aero/beta-rad"], rp, out)
        ref = np.array([fdm[k] for k in LOADS])
        worst_f = max(worst_f, float(np.max(np.abs(out[:3] - ref[:3]))) / max(float(np.linalg.norm(ref[:3])), 1e-300))
        worst_m = max(worst_m, float(np.max(np.abs(out[3:] - ref[3:]))) / max(float(np.linalg.norm(ref[3:])), 1e-300))
        largest = max(largest, float(np.linalg.norm(ref[:3])))
        compared += 1
    return Replay(worst_f, worst_m, cg_error, compared, largest)

"""JSBSim's helicopter rotor (``FGRotor`` with ``FGTransmission``, driven by an electric engine): flightsim's
rotor frame against the jsbsim package's, and the rotor file's bad input.

The comparison replays JSBSim: the ah1s is loaded in both, JSBSim runs its frames (``run_ic``, the engines
started with ``propulsion/set-running`` — the steady-state march — then a few hundred frames with the rpm governor
on and the collective raised, the helicopter on its skids), and after each frame flightsim's main and tail rotor
take the inputs JSBSim's rotors read in that frame (the air's velocity and body rates, the density, the height
above ground, the throttle and the controls, the ground effect's scale) and step their own state; their outputs
(rpm, thrust, coning, flapping, inflow, torque) and their loads about the CG (``forces/fb?-prop-lbs``,
``moments/?-prop-lbsft``) are compared with JSBSim's.  Only the rotor's frame is compiled
(its C callback, cached).
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
import textwrap

import jsbsim
import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
from flightsim.physics.jsbsim.propulsion import march_rotor, run_rotor_frame

ROOT = jsbsim.get_default_root_dir()
DT = 1.0 / 120.0
#: What the rotors read (engine 0's collective and cyclic, engine 1's antitorque).
INPUTS = ("velocities/u-aero-fps", "velocities/v-aero-fps", "velocities/w-aero-fps", "velocities/p-aero-rad_sec",
          "velocities/q-aero-rad_sec", "velocities/r-aero-rad_sec", "atmosphere/rho-slugs_ft3", "position/h-agl-ft",
          "fcs/throttle-pos-norm[0]", "fcs/throttle-pos-norm[1]", "propulsion/engine[0]/collective-ctrl-rad",
          "propulsion/engine[0]/lateral-ctrl-rad", "propulsion/engine[0]/longitudinal-ctrl-rad",
          "propulsion/engine[1]/antitorque-ctrl-rad", "propulsion/engine[0]/groundeffect-scale-norm",
          "propulsion/engine[1]/groundeffect-scale-norm")
#: The engines' loads about the CG (JSBSim's body axes).
LOADS = ("forces/fbx-prop-lbs", "forces/fby-prop-lbs", "forces/fbz-prop-lbs", "moments/l-prop-lbsft",
         "moments/m-prop-lbsft", "moments/n-prop-lbsft")
#: What they compute, each engine's.
OUTPUTS = ("rotor-rpm", "engine-rpm", "thrust-lbs", "a0-rad", "a1-rad", "b1-rad", "inflow-ratio",
           "induced-inflow-ratio", "advance-ratio", "torque-lbsft", "thrust-coefficient")


def _jsbsim_frames(frames):
    """JSBSim's ah1s: its inputs and the rotors' outputs after ``run_ic``, after the engines' start (its march)
    and after each of ``frames`` frames."""
    fdm = jsbsim.FGFDMExec(ROOT)
    fdm.set_debug_level(0)
    with contextlib.redirect_stdout(io.StringIO()):
        fdm.set_dt(DT)                      # (before the model: FGRotor keeps the step it was loaded with)
        fdm.load_model("ah1s")
        fdm.load_ic("reset00", True)
        fdm.run_ic()

    def row():
        return ([fdm[n] for n in INPUTS], [fdm[f"propulsion/engine[{k}]/{n}"] for k in (0, 1) for n in OUTPUTS]
                + [fdm[n] for n in LOADS])

    rows = [row()]
    fdm["propulsion/set-running"] = -1
    rows.append(row())
    fdm["fcs/rpm-governor-active-norm"] = 1.0
    fdm["fcs/collective-cmd-norm"] = 0.3
    for _ in range(frames):
        fdm.run()
        rows.append(row())
    return rows


def _flightsim_frames(rows):
    """flightsim's rotors replaying JSBSim's inputs ``rows`` (as :func:`_jsbsim_frames`): the ``run_ic`` frame (the
    transmission still), the march at throttle 1, then frames of ``DT``; their outputs after each."""
    model = load_jsbsim_aircraft(f"{ROOT}/aircraft/ah1s/ah1s.xml").jsbsim
    prop, names = model.propulsion, model.properties
    props = model.initial.copy()
    props[names["simulation/dt"]] = DT
    slots = [names[n] for n in INPUTS]
    out_slots = [names[f"propulsion/engine[{k}]/{n}"] for k in (0, 1) for n in OUTPUTS]
    rotors = [row for kind, row in prop.kinds if kind == "rotor"]
    assert len(rotors) == 2

    def inputs(values):
        for slot, v in zip(slots, values, strict=True):
            props[slot] = v

    got = []
    inputs(rows[0][0])
    loads = sum(run_rotor_frame(props, prop, row, 0.0) for row in rotors)     # (RunIC's frame: no time passes)
    got.append(np.concatenate([props[out_slots], loads]))
    throttles = [names["fcs/throttle-pos-norm[0]"], names["fcs/throttle-pos-norm[1]"]]
    props[throttles] = 1.0                  # (SetEngineRunning: each engine's throttle input 1 for the march)
    thrust, loads = 0.0, np.zeros(6)
    for row in rotors:
        thrust, last = march_rotor(props, prop, row, current=thrust)
        loads = loads + last
    got.append(np.concatenate([props[out_slots], loads]))
    for values, _ in rows[2:]:
        inputs(values)
        loads = sum(run_rotor_frame(props, prop, row, DT) for row in rotors)
        got.append(np.concatenate([props[out_slots], loads]))
    return np.array(got)


def test_rotors_follow_jsbsim_on_the_skids():
    rows = _jsbsim_frames(300)
    expected = np.array([r[1] for r in rows])
    got = _flightsim_frames(rows)
    names = [f"engine[{k}]/{n}" for k in (0, 1) for n in OUTPUTS] + list(LOADS)
    main_rpm, tail_rpm = expected[-1, 0], expected[-1, len(OUTPUTS)]
    assert main_rpm > 300.0 and tail_rpm > 1500.0          # (the rotors turn: the march and the governor)
    assert expected[-1, 2] > 1000.0                         # (the main rotor lifts: the collective raised)
    for j, name in enumerate(names):
        # the tail rotor's march is not compared: its collective near 0 there, its inflow's map never settles (its
        # thrust jumps between about -100 and +500 lbf for all 6000 of the march's frames, in JSBSim as here), so
        # the march ends at an arbitrary point of it; the inflow's lag has forgotten it 60 frames on
        first = 1 if j < len(OUTPUTS) else 62         # (the loads: the tail rotor's in them)
        scale = max(np.max(np.abs(expected[first:, j])), 1e-6)
        error = np.max(np.abs(got[first:, j] - expected[first:, j])) / scale
        assert error < 1e-6, f"{name}: {error:.3g} of its largest value {scale:.4g}"


def _ah1s_copy(tmp_path, rotor_text):
    """A copy of the ah1s under ``tmp_path/aircraft`` whose main rotor file is ``rotor_text``; its file's path."""
    src = f"{ROOT}/aircraft/ah1s"
    folder = tmp_path / "aircraft" / "ah1s"
    shutil.copytree(src, folder)
    (folder / "Engines" / "ah1s_rotor.xml").write_text(textwrap.dedent(rotor_text))
    return folder / "ah1s.xml"


@pytest.mark.parametrize(("body", "field", "reason"), [
    ("<diameter unit='FT'> 44 </diameter> <controlmap> SIDE </controlmap>", "controlmap", "unknown control map"),
    ("<diameter unit='FT'> 44 </diameter> <numblades> two </numblades>", "numblades", "not a number"),
    ("<diameter unit='LBS'> 44 </diameter>", "diameter", "cannot be converted"),
    ("<diameter unit='FT'> 44 </diameter> <flapping> 3 </flapping>", "flapping", "not supported in a rotor"),
    ("<diameter unit='FT'> 44 </diameter> <maxbrakepower unit='N'> 3 </maxbrakepower>", "maxbrakepower",
     "cannot be converted"),
])
def test_bad_rotor_file_is_refused(tmp_path, body, field, reason):
    path = _ah1s_copy(tmp_path, f"<?xml version='1.0'?>\n<rotor name='r'> {body} </rotor>\n")
    with pytest.raises(InputError) as info:
        load_jsbsim_aircraft(str(path))
    message = str(info.value)
    assert field in message and reason in message and "propulsion/engine[0]/thruster" in message


def test_external_rpm_from_an_engine_without_a_rotor_is_refused(tmp_path):
    path = _ah1s_copy(tmp_path, open(f"{ROOT}/aircraft/ah1s/Engines/ah1s_rotor.xml").read())
    text = path.read_text()
    # the tail rotor follows engine 0; make engine 0 a direct thruster's electric engine
    text = text.replace('<thruster file="ah1s_rotor">', '<thruster file="direct">', 1)
    path.write_text(text)
    (path.parent / "Engines" / "direct.xml").write_text("<?xml version='1.0'?>\n<direct name='d'/>\n")
    with pytest.raises(InputError, match=r"ExternalRPM.*engine 0 drives no rotor"):
        load_jsbsim_aircraft(str(path))


def test_cli_refuses_a_bad_rotor_in_one_line(tmp_path):
    _ah1s_copy(tmp_path, "<?xml version='1.0'?>\n<rotor name='r'> <controlmap> SIDE </controlmap> </rotor>\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "hover.xml").write_text(
        "<?xml version='1.0'?>\n<runscript name='hover'> <use aircraft='ah1s' initialize='reset00'/>\n"
        "<run start='0' end='1' dt='0.01'/> </runscript>\n")
    done = subprocess.run([sys.executable, "-m", "flightsim", "script", "scripts/hover.xml", "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "controlmap" in lines[0] and "unknown control map" in lines[0], done.stderr


_SCRIPT = """<?xml version="1.0"?>
<runscript name="late"> <use aircraft="ah1s" initialize="reset00"/>
<run start="0" end="0.1" dt="0.01">
  <event name="later"> <condition> simulation/sim-time-sec ge {later} </condition>
    {ground}
    <notify> <property> ap/no-such-thing </property> </notify> </event>
  <event name="soon"> <condition> simulation/sim-time-sec ge 0.05 </condition>
    <notify> <property> forces/fbz-gear-lbs </property> </notify> </event>
</run> </runscript>
"""
_GROUND = '<set name="position/terrain-elevation-asl-ft" value="2290.0" action="FG_RAMP" tc="5.0"/>'


def _script_root(tmp_path, later, ground):
    """A root of links to the package's aircraft, engines and systems with the ah1s script ``scripts/late.xml``."""
    for name in ("aircraft", "engine", "systems"):
        (tmp_path / name).symlink_to(f"{ROOT}/{name}")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "late.xml").write_text(_SCRIPT.format(later=later, ground=_GROUND if ground else ""))
    return tmp_path / "scripts" / "late.xml"


def test_ah1s_script_reads_the_gear_force_and_binds_late(tmp_path, capfd):
    """What the ah1s's scripts need: ``forces/fbz-gear-lbs`` readable (as JSBSim notifies it), and an event that
    never fires may write the ground's height and notify a property nothing defines (JSBSim binds late)."""
    from flightsim.simulation.script import run_script

    path = _script_root(tmp_path, 50, True)
    notices = []
    run_script(path, tmp_path, emit=notices.append)
    capfd.readouterr()
    fdm = jsbsim.FGFDMExec(str(tmp_path))
    fdm.set_debug_level(0)
    fdm.load_script("scripts/late.xml")
    fdm.run_ic()
    while fdm.run():
        pass
    text = capfd.readouterr().out

    def value(notice):
        return float(notice.split("forces/fbz-gear-lbs = ")[1].split()[0])

    ours, theirs = value(notices[-1]), value(text)
    assert theirs < -8000.0 and abs(ours - theirs) < 1e-3 * abs(theirs)


@pytest.mark.parametrize(("ground", "words"), [(True, "does not move the ground"),
                                               (False, "'ap/no-such-thing', which does not exist")])
def test_ah1s_script_stops_when_the_late_event_fires(tmp_path, ground, words):
    from flightsim.simulation.script import run_script

    path = _script_root(tmp_path, 0.02, ground)
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(RuntimeError, match=words):
        run_script(path, tmp_path)

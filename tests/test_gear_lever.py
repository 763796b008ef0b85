"""The gear lever: ``gear`` in the controls (1 down, 0 up), a JSBSim aircraft's ``gear/gear-cmd-norm`` where its gear
retracts, the gear moving in the aircraft's own time (its "Gear Control" kinematic), checked against JSBSim itself
(the A320, the issue's figures); ``gear`` as the last trace and controls-CSV column; the starts and ``trim --gear``.
"""

import json
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.trim import trim
from flightsim.simulation import trace
from flightsim.simulation.controls import CONTROL_NAMES, Controls, ControlSchedule, flown
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start, retracts

A320 = "jsbsim:A320"
#: The issue's cruise: 420 ft/s true, 15,000 ft.
SPEED, HEIGHT = 420.0, 15000.0
DT = 1.0 / 120.0


@pytest.fixture(scope="module")
def a320():
    return load_aircraft(A320)


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "flightsim", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_the_lever_is_the_last_control_down_by_default_and_reads_as_up_or_down():
    assert CONTROL_NAMES[-1] == "gear" and Controls().gear == 1.0
    u = flown([[0.5, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0.2], [0.5, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0.7]])
    assert u[:, -1].tolist() == [0.0, 1.0]
    # a row from before the lever (10 wide) flies with the gear down
    assert flown([[0.5, 0, 0, 0, 0, 0, 0, 1, 0, 0]])[0, -1] == 1.0


def test_only_a_gear_that_retracts_takes_the_lever(a320):
    assert retracts(a320) and a320.jsbsim.retractable
    assert not retracts(load_aircraft("c172")) and not retracts(load_aircraft("bourg"))
    fixed = load_aircraft("jsbsim:c172p")                 # fixed gear: its command holds 1 whatever the lever
    assert not retracts(fixed)
    sim = Simulation(fixed, integrator="rk4", dt=DT, start=make_start(fixed, "trim", airspeed=170.0, altitude=4000.0))
    sim.controls.gear = 0.0
    for _ in range(10):
        sim.step()
    assert sim.jsbsim_property("gear/gear-cmd-norm") == 1.0


def test_the_a320_raises_its_gear_frame_by_frame_as_jsbsim_does(a320):
    """From the same gear-down trim, the lever up at t = 0: ``gear/gear-pos-norm`` in both, each 1/120 s frame
    over 6 s (the A320's kinematic takes 5 s), and the gear's drag coefficient as it goes."""
    from flightsim.verify.flight_oracle import jsbsim_trim

    sim = Simulation(a320, integrator="rk4", dt=DT, start=make_start(a320, "trim", airspeed=SPEED, altitude=HEIGHT))
    fdm = jsbsim_trim("A320", SPEED, HEIGHT).fdm
    assert sim.jsbsim_property("gear/gear-pos-norm") == fdm["gear/gear-pos-norm"] == 1.0
    sim.controls.gear = 0.0
    fdm["gear/gear-cmd-norm"] = 0.0
    ours, theirs, drag = [], [], []
    for _ in range(720):
        sim.step()
        fdm.run()
        ours.append(sim.jsbsim_property("gear/gear-pos-norm"))
        theirs.append(fdm["gear/gear-pos-norm"])
        drag.append((sim.jsbsim_property("aero/coefficient/CDgear"), fdm["aero/coefficient/CDgear"]))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert ours[0] == pytest.approx(1.0 - DT / 5.0) and ours[299] == pytest.approx(0.5)
    assert ours[599] == 0.0 and ours[598] > 0.0                 # up after 5 s, not sooner
    d = np.array(drag)
    assert d[0, 0] > 1000.0 and d[-1, 0] == 0.0                 # the gear's drag goes with it
    np.testing.assert_allclose(d[:, 0], d[:, 1], rtol=2e-3)     # (the states drift apart a little: same figure)


def test_the_a320_trims_gear_up_and_down_as_jsbsim_does(a320):
    """The issue's figures: JSBSim trims the A320 at 420 ft/s, 15,000 ft at throttle 0.71 gear up, 0.85 down."""
    from flightsim.verify.flight_oracle import jsbsim_trim

    for gear in (0.0, 1.0):
        ours = trim(a320, SPEED, HEIGHT, gear=gear)
        theirs = jsbsim_trim("A320", SPEED, HEIGHT, gear=gear)
        assert ours.gear == gear and theirs.fdm["gear/gear-pos-norm"] == gear
        assert ours.throttle == pytest.approx(theirs.throttle, abs=0.005), gear
        assert ours.alpha == pytest.approx(theirs.alpha, abs=0.1), gear
    assert trim(a320, SPEED, HEIGHT, gear=0.0).throttle < trim(a320, SPEED, HEIGHT, gear=1.0).throttle - 0.1


def test_the_starts_have_the_gear_where_a_pilot_has_it(a320):
    air = make_start(a320, "air")
    assert air.controls.gear == 0.0 and air.trim.gear == 0.0
    c310 = load_aircraft("jsbsim:c310")                # (the A320's runway start fails as it is: its gear settles
    assert retracts(c310) and make_start(c310, "runway").controls.gear == 1.0   # into no rest: left alone here)
    assert make_start(load_aircraft("c172"), "air").controls.gear == 1.0    # fixed gear stays down
    sim = Simulation(a320, integrator="rk4", dt=DT, start=air)
    assert sim.jsbsim_property("gear/gear-pos-norm") == 0.0
    for _ in range(60):
        sim.step()
    assert sim.jsbsim_property("gear/gear-pos-norm") == 0.0     # trimmed up, it stays up


def test_trim_cli_takes_the_gear(tmp_path):
    common = ("trim", "--aircraft", A320, "--airspeed", "420", "--altitude", "15000", "--json")
    up, down = (json.loads(run(*common, "--gear", g).stdout) for g in ("up", "down"))
    assert up["gear"] == 0.0 and down["gear"] == 1.0
    assert up["throttle"] == pytest.approx(0.7065, abs=0.002) and down["throttle"] == pytest.approx(0.8515, abs=0.002)
    r = run("trim", "--aircraft", "c172", "--airspeed", "160", "--gear", "up")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "--gear" in r.stderr
    assert "does not retract" in r.stderr and "Traceback" not in r.stderr


def test_gear_is_the_last_trace_column_and_a_controls_csv_column(tmp_path):
    # the gear was the last column when it came; the failures' two came after it
    assert trace.COLUMNS[-3] == "gear" and trace.COLUMNS[-6:-3] == ("nav_dev_dots", "gs_dev_dots", "dme_nm")
    controls = tmp_path / "gear.csv"
    controls.write_text("t,gear\n0,1\n0.5,0\n")
    schedule = ControlSchedule.from_csv(controls, Controls())
    assert schedule.at(0.4).gear == 1.0 and schedule.at(0.6).gear == 0.0
    out = tmp_path / "a320.csv"
    r = run("simulate", "--aircraft", A320, "--trim", "420", "--altitude", "15000", "--integrator", "rk4",
            "--duration", "1", "--controls", str(controls), "--out", str(out))
    assert r.returncode == 0, r.stderr
    header = out.read_text().splitlines()[0].split(",")
    assert header[-3] == "gear" and tuple(header) == trace.COLUMNS
    table = trace.read_csv(out)
    t, gear = table[:, 0], table[:, trace.GEAR_AT]
    assert set(gear[t < 0.5]) == {1.0} and set(gear[t > 0.5]) == {0.0}
    # a trace from before the lever (no gear column) reads the gear down, the other columns as written
    lines = out.read_text().splitlines()
    old = tmp_path / "old.csv"
    old.write_text("\n".join(",".join(line.split(",")[:-3]) for line in lines) + "\n")
    np.testing.assert_array_equal(trace.read_csv(old)[:, :-3], table[:, :-3])
    assert set(trace.read_csv(old)[:, trace.GEAR_AT]) == {1.0}
    assert trace.controls_of(table)[:, -1].tolist() == gear.tolist()
    bad = tmp_path / "bad.csv"
    bad.write_text("t,gear\n0,0.5\n")
    r = run("simulate", "--aircraft", A320, "--duration", "0.1", "--controls", str(bad))
    assert r.returncode == 2 and "line 2, column gear" in r.stderr and "Traceback" not in r.stderr


class _Pad:
    """A controller as :meth:`Gamepads.poll` reads it: the sticks centred, the d-pad where the test puts it."""

    def __init__(self):
        self.device = SimpleNamespace(connected=True)
        self.dpad = SimpleNamespace(x=0.0, y=0.0)
        self.leftx = self.lefty = self.rightx = self.righty = self.lefttrigger = self.righttrigger = 0.0


def test_the_keymap_binds_a_free_key_a_joystick_button_and_the_gamepads_dpad_right(headless_gl):
    from pyglet.window import key

    from flightsim.app.input.keymap import load_keymap
    from flightsim.app.input.pilot import Gamepads, Pilot

    keymap = load_keymap()
    assert keymap.action(key.U) == "gear" and keymap.action(key.G) == "ghost"      # G stays the ghost
    assert any(b.buttons.get(5) == "gear" for b in keymap.joysticks)
    pressed = []
    pads = Gamepads(pressed.append, lambda action: None, use_manager=False)
    pad = pads.controller = _Pad()
    for x in (0.0, 1.0, 1.0, 0.0, 1.0):        # held right over two polls: one press; again after letting go
        pad.dpad.x = x
        pads.poll()
    assert pressed == ["gear", "gear"]
    pilot, controls = Pilot(keymap), Controls()
    pilot.press("gear")
    pilot.update(1 / 60, controls)
    assert controls.gear == 0.0
    pilot.press("gear")
    pilot.update(1 / 60, controls)
    assert controls.gear == 1.0


def test_the_app_raises_the_a320s_gear_with_the_key_and_shows_the_lights(a320, new_app, run_frames):
    from pyglet.window import key

    from flightsim.app.hud.panels import gear_lights

    assert [gear_lights(p) for p in (None, 1.0, 0.995, 0.5, 0.01, 0.0)] == [None, "down", "down", "transit",
                                                                              "up", "up"]
    app = new_app(aircraft=a320, integrator="rk4", dt=DT,
                  start=make_start(a320, "trim", airspeed=SPEED, altitude=HEIGHT))
    app.hud.show = True
    run_frames(app, 2, redraw_hud=True)
    assert app.sim.telemetry().gear_position == 1.0
    app.window.dispatch_event("on_key_press", key.U, 0)
    app.window.dispatch_event("on_key_release", key.U, 0)
    run_frames(app, 60, redraw_hud=True)                  # a second of the 5 s the A320's gear takes
    t = app.sim.telemetry()
    assert app.sim.controls.gear == 0.0 and gear_lights(t.gear_position) == "transit"
    assert t.gear_position == pytest.approx(0.8, abs=0.02)


def test_fixed_gear_has_no_lights_and_its_key_says_so(new_app, run_frames):
    from pyglet.window import key

    app = new_app()                                       # the book's airplane
    run_frames(app, 1)
    app.window.dispatch_event("on_key_press", key.U, 0)
    app.window.dispatch_event("on_key_release", key.U, 0)
    run_frames(app, 2)
    assert app.sim.controls.gear == 1.0 and app.sim.telemetry().gear_position is None


def test_the_gear_horn_sounds_with_the_throttle_closed_low_and_the_gear_not_down(a320):
    from flightsim.app.audio import SAMPLE_RATE, Sounding, Synth, gear_warning, sounding_of
    from flightsim.app.audio.synth import GEAR_HORN

    start = make_start(a320, "trim", airspeed=320.0, altitude=600.0)
    sim = Simulation(a320, integrator="rk4", dt=DT, start=start)
    sim.controls.throttle, sim.controls.gear = 0.0, 0.0
    for _ in range(120):                                   # a second: the gear on its way up
        sim.step()
    t = sim.telemetry()
    assert 0.0 < t.gear_position < 1.0 and t.altitude < 1000.0
    assert sounding_of(sim, t).gear_horn
    assert not gear_warning(t, 0.5)                                     # power on: no horn
    assert not gear_warning(SimpleNamespace(gear_position=1.0, on_ground=False, altitude=300.0), 0.0)   # down
    assert not gear_warning(SimpleNamespace(gear_position=0.0, on_ground=False, altitude=3000.0), 0.0)  # high
    assert not gear_warning(SimpleNamespace(gear_position=None, on_ground=False, altitude=300.0), 0.0)  # fixed
    synth = Synth()
    synth.render(SAMPLE_RATE // 2, Sounding(gear_horn=True))              # past the glide in
    horn = synth.render(SAMPLE_RATE, Sounding(gear_horn=True)).astype(np.float64)
    silent = Synth().render(SAMPLE_RATE, Sounding()).astype(np.float64)
    assert np.sqrt(np.mean(horn ** 2)) > 0.05 and np.sqrt(np.mean(silent ** 2)) < 1e-6
    spectrum = np.abs(np.fft.rfft(horn))
    freqs = np.fft.rfftfreq(horn.size, 1.0 / SAMPLE_RATE)
    assert abs(freqs[np.argmax(spectrum[freqs > 50.0]) + np.count_nonzero(freqs <= 50.0)] - GEAR_HORN) < 5.0


def test_a_gear_up_landing_ends_as_one_and_gear_down_is_no_such_thing(tmp_path):
    """The A320's approach start, the gear raised at t = 0 and some power held: the belly meets the runway."""
    controls = tmp_path / "up.csv"
    controls.write_text("t,gear,throttle\n0,0,0.3\n")
    out = tmp_path / "up_trace.csv"
    r = run("simulate", "--aircraft", A320, "--start", "approach", "--integrator", "rk4", "--dt", str(1.0 / 60.0),
            "--duration", "90", "--controls", str(controls), "--out", str(out))
    assert r.returncode == 0, r.stderr
    status = next(line for line in r.stdout.splitlines() if line.startswith("status"))
    assert "gear-up landing: the belly hit the ground" in status and "gear/gear-pos-norm 0.00" in status
    table = trace.read_csv(out)
    assert table[-1, trace.GEAR_AT] == 0.0 and table[-1, trace.COLUMNS.index("z")] < 30.0
    # the same flight with the gear down touches down on its wheels: whatever happens, no gear-up landing
    controls.write_text("t,throttle\n0,0.3\n")
    r = run("simulate", "--aircraft", A320, "--start", "approach", "--integrator", "rk4", "--dt", str(1.0 / 60.0),
            "--duration", "90", "--controls", str(controls))
    assert r.returncode == 0, r.stderr
    assert "gear-up" not in r.stdout and "touched down" in r.stdout


def test_the_gear_raised_on_the_runway_drops_the_belly_onto_it():
    c310 = load_aircraft("jsbsim:c310")
    sim = Simulation(c310, integrator="rk4", dt=DT, start=make_start(c310, "runway"))
    for _ in range(30):
        sim.step()
    assert sim.status is None and sim.on_ground
    sim.controls.gear = 0.0
    while sim.status is None and sim.t < 3.0:
        sim.step()
    assert "the gear retracted on the ground: the belly fell onto it" in sim.status
    assert "gear-up landing" not in sim.status

"""Trim in the cockpit and the Dynamics panel, through real pyglet events into a real app (EGL)."""

import numpy as np
import pytest
from conftest import hud_latency
from pyglet.window import key
from test_app_input import FakePad, centre, imgui_click

from flightsim.physics.modes import MODE_NAMES
from flightsim.simulation import trace
from flightsim.simulation.controls import Controls, ControlSchedule
from flightsim.simulation.flight import FlightState, Simulation
from flightsim.simulation.starts import make_start

FRAME = 1.0 / 60.0


def tap(app, symbol, run_frames):
    """Press and release a key, and run the frame that handles it."""
    app.window.dispatch_event("on_key_press", symbol, 0)
    app.window.dispatch_event("on_key_release", symbol, 0)
    run_frames(app, 1)


def hold(app, symbol, run_frames, frames):
    """Hold a key down for ``frames`` frames, then let it go."""
    app.window.dispatch_event("on_key_press", symbol, 0)
    run_frames(app, frames)
    app.window.dispatch_event("on_key_release", symbol, 0)


def fresh(app, run_frames):
    app.cockpit.set_ghost(False)
    app.schedule = None
    app.reset()
    app.cockpit.set_dynamics(False)
    app.hud.show = True
    app.hud.message = ""
    app.sim.paused = False
    app.cameras.set_mode("chase")
    run_frames(app, 1)


@pytest.fixture(scope="module")
def _shared_cruise_app(headless_gl):
    from conftest import _make_shared_app

    from flightsim.simulation.flight import resolve_aircraft

    app = _make_shared_app(start=make_start(resolve_aircraft(None), "air"))
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def cruise_app(_shared_cruise_app):
    """An app flying from the trimmed cruise start (``flightsim fly``'s default; shared, put back after each test)."""
    from conftest import restoring

    with restoring(_shared_cruise_app) as app:
        yield app


# ------------------------------------------------------------------ the trim keys


@pytest.mark.parametrize("symbol, sign", [(key.END, +1), (key.BRACKETRIGHT, +1),        # wheel back: nose up
                                          (key.HOME, -1), (key.BRACKETLEFT, -1)])
def test_trim_keys_move_the_neutral_elevator_with_the_pilots_sign(flight_app, run_frames, symbol, sign):
    fresh(flight_app, run_frames)
    c = flight_app.sim.controls
    assert c.elevator_trim == 0.0
    hold(flight_app, symbol, run_frames, 30)                   # half a second at 0.25 per second
    moved = c.elevator_trim
    assert sign * moved == pytest.approx(30 * FRAME * flight_app.keymap.rates["trim"], rel=0.05)
    assert c.elevator == 0.0, "the trim keys leave the stick alone"
    run_frames(flight_app, 30)
    assert c.elevator_trim == moved, "the trim stays where it was left"
    # The airplane flies the stick plus the trim: the tail surfaces deflect as for that elevator.
    defl = flight_app.sim.surface_deflections()
    tail = [i for i, e in enumerate(flight_app.sim.aircraft.elements) if e.part == "tailplane"]
    assert np.all(np.sign(defl[tail, 0]) == sign) and np.all(np.abs(defl[tail, 0]) > 0.1)
    assert c.clamped().elevator == moved and c.clamped().elevator_trim == 0.0


def test_the_stick_returns_to_centre_over_the_trim_and_the_trace_records_the_total(new_app, run_frames, tmp_path):
    app = new_app(size=(640, 360))
    app.recorder.directory = tmp_path
    c = app.sim.controls
    hold(app, key.END, run_frames, 24)                         # trim 0.1 nose up
    trim = c.elevator_trim
    assert trim == pytest.approx(0.1, rel=0.05)
    tap(app, key.T, run_frames)                                # record
    app.window.dispatch_event("on_key_press", key.DOWN, 0)     # stick back, nose up
    run_frames(app, 6)
    stick = c.elevator
    assert 0.0 < stick < 1.0
    table_rows_flying = app.recorder.rows
    app.window.dispatch_event("on_key_release", key.DOWN, 0)
    run_frames(app, 40)
    assert c.elevator == 0.0 and c.elevator_trim == trim, "the stick centres; the trim stays"
    tap(app, key.T, run_frames)
    table = trace.read_csv(app.recorder.last_path)
    elevator = table[:, trace.COLUMNS.index("elevator")]
    assert table_rows_flying > 0
    assert elevator.max() == pytest.approx(stick + trim, abs=1e-9), "the trace holds stick + trim"
    assert elevator[-1] == pytest.approx(trim), "with the stick centred the airplane flies the trim"


def test_the_trim_clips_at_its_stops(new_app, run_frames):
    app = new_app(size=(320, 200))
    hold(app, key.HOME, run_frames, 4)
    app.sim.controls.elevator_trim = -0.99
    hold(app, key.HOME, run_frames, 20)
    assert app.sim.controls.elevator_trim == -1.0


def test_reset_keeps_the_starts_trim(cruise_app, run_frames):
    fresh(cruise_app, run_frames)
    c = cruise_app.sim.controls
    start_trim = cruise_app.sim.start.controls.elevator_trim
    assert c.elevator_trim == start_trim != 0.0
    hold(cruise_app, key.END, run_frames, 20)
    assert c.elevator_trim > start_trim + 0.05
    tap(cruise_app, key.R, run_frames)
    assert cruise_app.sim.controls.elevator_trim == start_trim, "reset goes back to the start's trim"


def test_reset_of_an_untrimmed_start_forgets_the_last_trim_now(new_app, run_frames):
    app = new_app(size=(320, 200), aircraft="c172")      # from its file's state: no start trim
    run_frames(app, 2)
    point = app.cockpit.trim_now()
    assert point is not None and app.dynamics.trim is point
    app.reset()
    assert app.dynamics.trim is None, "the Dynamics panel no longer shows the modes about the last Trim now"
    app.cockpit.set_dynamics(True)
    run_frames(app, 3)
    assert app.dynamics.trim is not None and app.dynamics.trim is not point     # level flight where it is now


def test_hands_off_from_the_trimmed_start_the_airplane_holds_its_altitude(cruise_app, run_frames):
    fresh(cruise_app, run_frames)
    start = cruise_app.telemetry
    run_frames(cruise_app, 60, 0.25)                         # 15 s of flight, hands off
    t = cruise_app.telemetry
    assert t.t > 14.0 and cruise_app.sim.running
    assert abs(t.altitude - start.altitude) < 3.0 and abs(t.roll) < 0.5 and abs(t.airspeed - start.airspeed) < 1.0


def test_a_schedule_flies_its_own_elevator_from_a_trimmed_start(cruise_app, run_frames):
    """As ``flightsim simulate --controls``: a schedule's elevator is the whole elevator, the trim no longer added."""
    fresh(cruise_app, run_frames)
    cruise_app.schedule = ControlSchedule([0.0], [[0.5, 0.2, 0.0, 0.0, 0.0]], Controls())
    run_frames(cruise_app, 2)
    c = cruise_app.sim.controls
    assert c.elevator_trim == 0.0 and c.clamped().elevator == 0.2
    cruise_app.schedule = None


# ------------------------------------------------------------------ Trim now


def test_trim_now_levels_the_airplane_where_it_is_with_the_stick_centred(flight_app, run_frames):
    fresh(flight_app, run_frames)
    run_frames(flight_app, 24, 0.25)                           # the book's start: 6 s of a steep dive
    before = flight_app.telemetry
    assert before.vertical_speed < -50.0 and before.airspeed > 130.0
    hold(flight_app, key.UP, run_frames, 2)                    # the stick forward as K goes down
    tap(flight_app, key.K, run_frames)
    c = flight_app.sim.controls
    assert "trimmed" in flight_app.hud.message
    assert abs(flight_app.telemetry.airspeed - before.airspeed) < 2.0
    run_frames(flight_app, 10)
    assert c.elevator == 0.0 and 0.0 < c.elevator_trim < 0.3 and 0.2 < c.throttle < 0.5
    level = flight_app.telemetry
    run_frames(flight_app, 40, 0.25)                           # 10 s hands off
    after = flight_app.telemetry
    assert after.t > level.t + 9.9
    assert abs(after.altitude - level.altitude) < 3.0 and abs(after.vertical_speed) < 0.5
    assert abs(after.roll) < 0.5 and abs(after.airspeed - level.airspeed) < 1.0


def test_the_trim_now_button_trims(cruise_app, run_frames):
    fresh(cruise_app, run_frames)
    c = cruise_app.sim.controls
    c.throttle = 0.8                                          # full-ish power: the airplane climbs away
    run_frames(cruise_app, 16, 0.25)
    assert cruise_app.telemetry.vertical_speed > 5.0
    imgui_click(cruise_app, run_frames, *centre(cruise_app.hud.hit_boxes["trim_now"]))
    assert "trimmed" in cruise_app.hud.message
    level = cruise_app.telemetry
    run_frames(cruise_app, 20, 0.25)
    assert abs(cruise_app.telemetry.altitude - level.altitude) < 3.0
    assert c.throttle < 0.8 and c.elevator == 0.0


def test_trim_now_at_an_impossible_speed_says_why_and_changes_nothing(flight_app, run_frames):
    fresh(flight_app, run_frames)
    sim = flight_app.sim
    state = sim.state
    sim.set_state(FlightState(state.t, state.position, state.velocity * (35.0 / np.linalg.norm(state.velocity)),
                              state.q, state.omega))
    sim.paused = True
    run_frames(flight_app, 1)
    vector, controls = sim.vector, Controls(**vars(sim.controls))
    tap(flight_app, key.K, run_frames)
    message = flight_app.hud.message
    assert message.startswith("Trim now: cannot trim at 35 ft/s") and "\n" not in message
    assert "stall" in message or "no steady flight" in message
    run_frames(flight_app, 2)
    assert np.array_equal(sim.vector, vector) and vars(sim.controls) == vars(controls)
    sim.paused = False


def test_trim_now_is_refused_on_a_stopped_flight(new_app, run_frames):
    app = new_app(size=(320, 200))
    run_frames(app, 24, 0.25)
    app.sim.set_state(app.sim.state, status="crashed (a test)")
    vector = app.sim.vector
    app.cockpit.trim_now()
    assert "reset first" in app.hud.message and not app.sim.running and np.array_equal(app.sim.vector, vector)


# ------------------------------------------------------------------ the Dynamics panel


def diverging(app):
    return sorted(k for k in app.hud.hit_boxes if k.startswith("dynamics:diverges:"))


def test_the_dynamics_key_opens_the_panel_with_the_five_modes(new_app, run_frames):
    flight_app = new_app(size=(1280, 720))  # the book's start, no trim yet: the first look trims at the cruise speed
    run_frames(flight_app, 1)
    assert flight_app.hud_view().dynamics is None, "nothing is computed while the panel is hidden"
    tap(flight_app, key.M, run_frames)
    run_frames(flight_app, hud_latency(flight_app))          # a new window: sized in one redraw, drawn in the next
    boxes = flight_app.hud.hit_boxes
    assert sorted(k.split(":")[2] for k in boxes if k.startswith("dynamics:mode:")) == sorted(MODE_NAMES)
    assert "dynamics:plot" in boxes and diverging(flight_app) == []
    d = flight_app.hud_view().dynamics
    point = flight_app.dynamics.trim                                  # the cruise speed, where the airplane is
    assert d.header == f"about level flight at 160 ft/s, {point.altitude:.0f} ft"
    assert point.altitude == pytest.approx(flight_app.sim.state.position[2], abs=2.0)
    (step,) = d.steps
    assert (step.integrator, step.dt, step.diverging) == ("euler", flight_app.sim.dt, ())
    assert step.largest_stable_dt == pytest.approx(0.46, abs=0.01)
    # At the default window size the panel sits between the side panels, clear of both, at the bottom.
    x0, y0, x1, y1 = boxes["dynamics:window"]
    assert boxes["flight:window"][2] <= x0 and x1 <= boxes["numerics:window"][0] and y1 == 720 - 8
    tap(flight_app, key.M, run_frames)
    assert "dynamics:plot" not in flight_app.hud.hit_boxes and flight_app.hud_view().dynamics is None


def test_euler_at_half_a_second_is_marked_diverging_on_the_roll_mode(new_app, run_frames):
    app = new_app(dt=0.5)
    app.sim.paused = True
    tap(app, key.M, run_frames)
    run_frames(app, hud_latency(app))
    assert diverging(app) == ["dynamics:diverges:flight:roll"]
    (step,) = app.hud_view().dynamics.steps
    assert step.diverging == ("roll",) and len(step.unstable_points[0]) == 1
    assert step.unstable_points[0][0] == pytest.approx(-4.553 * 0.5, rel=0.01)     # roll's λ·dt, off the disk
    # Bourg's step is partitioned: two modes outside Euler's disk stay bounded, and the panel says so.
    assert step.beyond_region == ("short period", "dutch roll") and step.inside_region == ()
    assert "dynamics:footnote" in app.hud.hit_boxes
    # Switching the integrator re-reads the panel: RK4 keeps every mode at 0.5 s, as its region says.
    app.hud_bridge.commands.set_integrator("rk4")
    run_frames(app, hud_latency(app))
    step = app.hud_view().dynamics.steps[0]
    assert diverging(app) == [] and step.integrator == "rk4" and step.beyond_region == ()
    assert "dynamics:footnote" not in app.hud.hit_boxes


def test_the_ghosts_integrator_is_drawn_too(new_app, run_frames):
    app = new_app(dt=0.5)
    app.sim.paused = True
    app.cockpit.configure_ghost("euler", 1)
    app.cockpit.set_ghost(True)
    app.cockpit.set_dynamics(True)
    run_frames(app, hud_latency(app))
    flight, ghost = app.hud_view().dynamics.steps
    assert (ghost.role, ghost.integrator, ghost.dt) == ("ghost", "euler", 0.5)
    assert diverging(app) == ["dynamics:diverges:flight:roll"]           # the table: the flight's integrator
    assert "dynamics:diverging:ghost" in app.hud.hit_boxes
    app.cockpit.configure_ghost("euler", 4)                                         # 0.125 s steps: all bounded
    run_frames(app, hud_latency(app))
    ghost = app.hud_view().dynamics.steps[1]
    assert ghost.dt == 0.125 and ghost.diverging == () and "dynamics:diverging:ghost" not in app.hud.hit_boxes


def test_a_trimmed_start_shows_its_trim_and_trim_now_relinearises(new_app, run_frames):
    cruise_app = new_app(start=make_start(Simulation().aircraft, "air"))
    run_frames(cruise_app, 1)
    imgui_click(cruise_app, run_frames, *centre(cruise_app.hud.hit_boxes["dynamics"]))   # the Numerics checkbox
    assert cruise_app.dynamics.show
    d = cruise_app.hud_view().dynamics
    assert d.header == "about level flight at 160 ft/s, 2000 ft" and d.modes
    assert cruise_app.dynamics.trim is cruise_app.sim.start.trim
    cruise_app.sim.controls.throttle = 0.25                  # slow down, then trim there
    run_frames(cruise_app, 40, 0.25)
    tap(cruise_app, key.K, run_frames)
    speed = cruise_app.dynamics.trim.airspeed
    assert 120.0 < speed < 158.0
    assert cruise_app.hud_view().dynamics.header.startswith(f"about level flight at {speed:.0f} ft/s")
    short = cruise_app.hud_view().dynamics.modes[0]
    assert short.name == "short period" and short.real > -1.9        # slower: a less damped short period
    # Reset flies the start again: the panel shows the start's modes again.
    tap(cruise_app, key.R, run_frames)
    assert cruise_app.dynamics.trim is cruise_app.sim.start.trim
    assert cruise_app.hud_view().dynamics.header == "about level flight at 160 ft/s, 2000 ft"


def test_relinearise_here_and_its_failure(flight_app, run_frames):
    fresh(flight_app, run_frames)
    flight_app.cockpit.set_dynamics(True)
    run_frames(flight_app, hud_latency(flight_app))
    before = flight_app.hud_view().dynamics
    assert before.header.startswith("about level flight at") and len(before.modes) == 5
    imgui_click(flight_app, run_frames, *centre(flight_app.hud.hit_boxes["relinearise"]))
    d = flight_app.hud_view().dynamics                       # the book's start flies at about 60 ft/s: no trim
    assert "Re-linearise: cannot trim at 6" in flight_app.hud.message
    assert d.error is not None and d.error in flight_app.hud.message
    assert (d.header, d.modes) == (before.header, before.modes), "the last modes stay"
    run_frames(flight_app, 20, 0.25)                         # dived to about 135 ft/s
    flight_app.cockpit.relinearise()
    d = flight_app.hud_view().dynamics
    speed = flight_app.dynamics.trim.airspeed
    assert d.error is None and 120.0 < speed < 150.0 and d.header.startswith(f"about level flight at {speed:.0f}")
    assert flight_app.sim.controls.elevator_trim == 0.0, "re-linearising leaves the flight alone"


def test_a_replay_shows_the_modes_without_the_flying_buttons(headless_gl, run_frames, tmp_path):
    from flightsim.app.app import FlightApp
    from flightsim.app.input.keymap import load_keymap
    from flightsim.app.window import open_window
    from flightsim.commands.simulate import fly
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES
    from flightsim.simulation.replay import Replay

    sim = Simulation(start=make_start(Simulation().aircraft, "air"))
    path = tmp_path / "t.csv"
    trace.write_csv(path, fly(sim, 240))
    app = FlightApp(open_window(960, 540, visible=False), Replay(path), load_keymap(), INTEGRATORS, TIME_SCALES,
                    use_gamepads=False, dynamics=True)
    try:
        run_frames(app, 3)
        d = app.hud_view().dynamics
        assert len(d.modes) == 5 and d.steps == ()
        boxes = app.hud.hit_boxes
        assert "dynamics:mode:phugoid" in boxes and "dynamics:plot" not in boxes
        assert "trim_now" not in boxes and "relinearise" not in boxes and "trim" not in boxes
        app.cockpit.trim_now()
        assert app.hud.message.startswith("Trim now: a replay")
    finally:
        app.close()


# ------------------------------------------------------------------ the gamepad


class TrimPad(FakePad):
    BUTTONS = FakePad.BUTTONS + ("dpup", "dpdown", "rightstick")

    def hold(self, button, down):
        self.buttons[self.BUTTONS.index(button)].value = down


def test_the_gamepad_dpad_trims_and_the_right_stick_click_trims_now(flight_app, run_frames):
    fresh(flight_app, run_frames)
    pad = TrimPad()
    controller = pad.controller()
    flight_app.gamepads.connect(controller)
    try:
        c = flight_app.sim.controls
        pad.hold("dpdown", True)                                 # trim wheel back: nose up
        run_frames(flight_app, 12)
        pad.hold("dpdown", False)
        up = c.elevator_trim
        assert up > 0.03 and c.elevator == 0.0
        run_frames(flight_app, 5)
        assert c.elevator_trim == up
        pad.hold("dpup", True)                                   # forward: nose down
        run_frames(flight_app, 24)
        pad.hold("dpup", False)
        assert c.elevator_trim < -0.03
        run_frames(flight_app, 24, 0.25)                         # dive to a trimmable speed
        pad.tap("rightstick")
        run_frames(flight_app, 1)
        assert "trimmed" in flight_app.hud.message
    finally:
        flight_app.gamepads.disconnect(controller)


# ------------------------------------------------------------------ the command line


def test_fly_dynamics_flag():
    from flightsim.commands.cli import build_parser

    assert build_parser().parse_args(["fly", "--dynamics"]).dynamics is True
    assert build_parser().parse_args(["fly"]).dynamics is False

"""The HUD as registered panels over a narrow view of the flight, on real GL (EGL)."""

import pytest

from flightsim.app.hud_view import HudCommands, HudView
from flightsim.app.panels import NUMERICS_SECTIONS, PANELS
from flightsim.simulation.source import LIVE


def test_the_panels_are_registered_in_one_list():
    assert [p.__name__ for p in PANELS] == ["cockpit_overlay", "flight_panel", "gear_panel", "numerics_panel",
                                            "dynamics_panel", "status_banner", "key_help"]
    assert [s.__name__ for s in NUMERICS_SECTIONS] == [
        "aircraft_section", "integrator_section", "timing_section", "clock_section", "run_section", "camera_section",
        "recording_section", "dynamics_section", "ghost_section", "charts_section"]


@pytest.fixture
def probed(flight_app, run_frames):
    """A probe panel added to the app's HUD: it records what each frame's panels are given."""
    seen = []

    def probe(view, do, hud):
        seen.append((view, do, hud))

    flight_app.reset()
    flight_app.sim.paused = False
    flight_app.hud.panels.append(probe)
    run_frames(flight_app, 1)
    yield flight_app, seen
    flight_app.hud.panels.remove(probe)
    flight_app.sim.paused = False
    flight_app.sim.time_scale = 1.0
    flight_app.cameras.set_mode("chase")


def test_a_new_panel_is_one_function_over_the_view_and_the_commands(probed, run_frames):
    app, seen = probed
    view, do, hud = seen[-1]
    assert isinstance(view, HudView) and isinstance(do, HudCommands) and hud is app.hud
    assert view.telemetry is app.telemetry and view.capabilities == LIVE and view.playback is None
    assert view.t == app.sim.t and view.integrator == app.sim.integrator and not view.ghost.on
    assert view.camera.mode == "chase" and view.keymap.describe("reset") == app.keymap.describe("reset")
    # The commands reach the flight and the app.
    do.toggle_pause()
    assert app.sim.paused
    do.toggle_pause()
    do.set_time_scale(2.0)
    do.set_camera("orbit")
    do.set_renormalize(False)
    do.set_ghost(True)
    run_frames(app, 1)
    view = seen[-1][0]
    assert (view.time_scale, view.camera.mode, view.renormalize, view.ghost.on) == (2.0, "orbit", False, True)
    assert app.sim.time_scale == 2.0 and not app.sim.renormalize and app.ghost is not None
    do.set_ghost_substeps(100)                            # clamped to what the app offers
    do.set_ghost_integrator("rkmk4")
    assert app.ghost.integrator == "rkmk4" and app.ghost.substeps == 64
    do.set_ghost(False)
    do.set_renormalize(True)
    app.configure_ghost("rk4", 8)
    with pytest.raises(AttributeError):
        do.reset = None                                   # frozen: a panel cannot swap the app's commands
    with pytest.raises(AttributeError):
        view.paused = True                                # nor write into the view

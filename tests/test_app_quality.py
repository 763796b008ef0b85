"""Graphics quality levels: each draws the whole scene (real GL pixels), ``auto`` resolves, bad values fail."""

import subprocess
import sys

import numpy as np
import pytest
from conftest import hud_latency
from test_app_cli import env_without, one_line_error, run
from test_app_render import amber, bright, region

LEVELS = ("low", "medium", "high")


def start_scene(app, run_frames, camera="chase"):
    app.reset()
    app.cameras.set_mode(camera)
    app.hud.show = True
    app.hud.show_help = False
    run_frames(app, max(6, hud_latency(app)))     # (the cached HUD at ``low`` shows the reset at its rate)
    return app.capture()


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_draws_sky_ground_airplane_and_panels(flight_app, run_frames, level):
    flight_app.set_quality(level)
    assert flight_app.quality.name == level and flight_app.scene.quality.name == level
    img = start_scene(flight_app, run_frames)
    sky = region(img, 0.35, 0.65, 0.0, 0.12).mean(axis=0)
    assert sky[2] > 150 and sky[2] > sky[0] + 40, f"{level}: top centre is not sky blue: {sky}"
    ground = region(img, 0.35, 0.65, 0.85, 1.0).mean(axis=0)
    assert ground[1] > ground[2] + 15 and ground[2] < 140, f"{level}: bottom centre is not ground: {ground}"
    centre = region(img, 0.3, 0.7, 0.38, 0.72)
    assert amber(centre).sum() > 150, f"{level}: no control surfaces at the centre"
    assert bright(centre).sum() > 150, f"{level}: no white airplane body at the centre"
    assert bright(region(img, 0.01, 0.28, 0.45, 0.65)).sum() > 150, f"{level}: no HUD text"
    # Hills on the horizon: darker than the haze above them, somewhere across the view.
    assert region(img, 0.3, 0.7, 0.3, 0.45).std(axis=0).max() > 8, f"{level}: a flat horizon band"
    flight_app.set_quality("low")


def test_low_draws_opaque_panels_and_a_lit_airplane(flight_app, run_frames):
    from flightsim.app.hud.panels import BACKDROP_RGB

    flight_app.set_quality("high")
    high = start_scene(flight_app, run_frames).astype(int)
    flight_app.set_quality("low")
    low = start_scene(flight_app, run_frames).astype(int)
    x0, y0, x1, y1 = flight_app.hud.hit_boxes["numerics:window"]
    # Below the charts' area, between widgets: the panel's own background.
    gap = low[int(y1) - 4, int(x0) + 3]
    assert np.abs(gap - BACKDROP_RGB).max() <= 3, gap
    # At high quality the same place shows the scene through the panel, so it is not that grey.
    assert np.abs(high[int(y1) - 4, int(x0) + 3] - BACKDROP_RGB).max() > 3
    # The airplane's lit colours are about the same either way (per-vertex vs per-pixel lighting).
    centre = (0.3, 0.7, 0.38, 0.72)
    assert abs(amber(region(low, *centre)).sum() - amber(region(high, *centre)).sum()) < \
        0.35 * amber(region(high, *centre)).sum()


def test_low_cockpit_has_the_glare_shield_and_the_view_ahead(flight_app, run_frames):
    flight_app.set_quality("low")
    img = start_scene(flight_app, run_frames, camera="cockpit").astype(int)
    # (between the Flight panel and the NAV window, which sits at the bottom left of the Numerics window)
    shield = region(img, 0.33, 0.46, 0.93, 1.0).mean(axis=0)
    assert np.abs(shield - (38, 41, 48)).max() < 6, shield
    sky = region(img, 0.4, 0.6, 0.05, 0.15).mean(axis=0)
    assert sky[2] > sky[0] + 30
    ahead = region(img, 0.4, 0.6, 0.6, 0.75).mean(axis=0)
    assert ahead[1] > ahead[2], "no ground ahead above the glare shield"
    # Head turned: the frame fades and imgui draws it (blended); the scene shows through.
    flight_app.cameras.head_yaw = 12.0
    run_frames(flight_app, hud_latency(flight_app))        # the cached HUD draws the faded frame at its rate
    faded = region(flight_app.capture().astype(int), 0.33, 0.46, 0.93, 1.0).mean(axis=0)
    assert np.abs(faded - shield).max() > 10
    flight_app.cameras.set_mode("chase")


def test_auto_resolves_to_a_level(new_app, run_frames):
    app = new_app(size=(320, 200))
    assert app.auto_quality is not None and app.quality.name == "low"    # Mesa's llvmpipe: software
    run_frames(app, 3)
    assert app.quality.name in LEVELS


def test_auto_steps_down_on_slow_frames_and_keeps_fast_ones():
    from flightsim.app.scene.quality import AutoQuality, is_software

    assert is_software("llvmpipe (LLVM 15.0.6, 256 bits)") and not is_software("NVIDIA GeForce RTX 3060/PCIe/SSE2")
    slow = AutoQuality("NVIDIA GeForce RTX 3060/PCIe/SSE2", sample_frames=10)
    assert slow.level.name == "high" and not slow.settled
    changes = [slow.observe(0.040) for _ in range(2 * (slow.skip + 10))]
    assert [c.name for c in changes if c is not None] == ["medium", "low"] and slow.settled
    fast = AutoQuality("AMD Radeon RX 6600", sample_frames=10)
    assert all(fast.observe(0.005) is None for _ in range(fast.skip + 10))
    assert fast.level.name == "high" and fast.settled


def test_bad_quality_is_one_line_and_exit_2():
    line = one_line_error(run(["fly", "--headless", "--quality", "ultra"],
                              env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert line == ("flightsim: error: --quality: invalid choice: 'ultra' "
                    "(choose from 'auto', 'low', 'medium', 'high')")


def test_the_flight_commands_parse_without_numba_or_scipy_and_their_copies_agree():
    code = ("import argparse, sys\n"
            "from flightsim.commands import fly, simulate, trim\n"
            "for add in (fly.add_arguments, simulate.add_arguments, trim.add_condition_arguments):\n"
            "    add(argparse.ArgumentParser())\n"
            "print(sorted(m for m in ('numba', 'scipy', 'pyglet') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env_without())
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
    from flightsim.app.scene.quality import QUALITY_CHOICES
    from flightsim.commands import fly, simulate, trim
    from flightsim.simulation import flight, starts

    assert trim.START_KINDS == starts.START_KINDS and simulate.DEFAULT_DT == flight.DEFAULT_DT
    assert fly.QUALITIES == QUALITY_CHOICES

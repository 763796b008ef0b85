"""imgui drawn through pyglet's GL (flightsim.app.hud.imgui_renderer) instead of imgui-bundle's PyOpenGL backend."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest


def test_key_map_is_imgui_bundles_pyglet_key_map(headless_gl):
    """The keys imgui hears are the ones imgui-bundle's own pyglet backend maps, no more, no fewer."""
    from imgui_bundle import imgui
    from imgui_bundle.python_backends.pyglet_backend import PygletMixin

    from flightsim.app.hud.imgui_renderer import key_map

    context = imgui.create_context()
    try:
        theirs = PygletMixin().key_map        # (the mixin alone: its input half, no GL)
    finally:
        imgui.destroy_context(context)
    ours = key_map(imgui)
    assert len(ours) >= 100
    assert ours == theirs


def test_the_app_draws_its_hud_without_pyopengl():
    """PyOpenGL is not imported (~0.1 s of start-up): the HUD reaches the pixels through pyglet's GL."""
    code = textwrap.dedent("""
        import sys
        import numpy as np
        from flightsim.app.window import configure_pyglet, open_window
        configure_pyglet(headless=True)
        from flightsim.app.app import FlightApp
        from flightsim.app.input.keymap import load_keymap
        from flightsim.physics.integrators import INTEGRATORS
        from flightsim.simulation.flight import TIME_SCALES, Simulation
        window = open_window(960, 540, visible=False)
        app = FlightApp(window, Simulation(), load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False,
                        quality="low")
        shots = []
        for shown in (False, True):
            app.hud.show = shown
            for _ in range(3):                  # imgui sizes a new window to its contents in its first frames
                app.gui.invalidate()
                app.frame(1 / 60)
            shots.append(app.capture()[20:200, 10:150].astype(int))     # where the Flight panel is
        print(int(np.abs(shots[1] - shots[0]).mean()), "OpenGL" in sys.modules)
        app.close()
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    difference, pyopengl = r.stdout.split()
    assert pyopengl == "False"
    assert int(difference) > 30, difference


@pytest.mark.parametrize("quality", ["low", "high"])      # the HUD from its texture, and drawn every frame
def test_the_first_frame_shows_the_whole_hud(new_app, quality):
    """imgui sizes a new window over its first frames: the app settles them before the first one is drawn,
    so ``flightsim fly --frames 1 --screenshot`` shows the panels with their contents, not empty stubs."""
    app = new_app()
    app.set_quality(quality)
    app.frame(1.0 / 60.0)
    first = app.capture()
    for _ in range(4):
        app.gui.invalidate()
        app.frame(1.0 / 60.0)
    later = app.capture()
    x0, y0, x1, y1 = (int(v) for v in app.hud.hit_boxes["flight:window"])
    assert (x1 - x0) > 200 and (y1 - y0) > 300, (x0, y0, x1, y1)     # the panel, not a stub
    panel = (slice(y0, y1), slice(x0, x1))
    assert np.abs(first[panel].astype(int) - later[panel].astype(int)).mean() < 3.0

"""imgui drawn through pyglet's GL (flightsim.app.imgui_renderer) instead of imgui-bundle's PyOpenGL backend."""

import subprocess
import sys
import textwrap


def test_key_map_is_imgui_bundles_pyglet_key_map(headless_gl):
    """The keys imgui hears are the ones imgui-bundle's own pyglet backend maps, no more, no fewer."""
    from imgui_bundle import imgui
    from imgui_bundle.python_backends.pyglet_backend import PygletMixin

    from flightsim.app.imgui_renderer import key_map

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
        from flightsim.app.keymap import load_keymap
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

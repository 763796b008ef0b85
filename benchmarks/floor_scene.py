"""The floor of the frame benchmark: the least a pyglet + imgui flight-sim-like frame costs.

A pyglet OpenGL 3.3 core window of the benchmark's size that, each frame,
clears colour and depth, draws one lit, turning cube, builds one imgui
window with a dozen lines of text and a 600-point implot line plot, renders
imgui with imgui-bundle's own pyglet backend, and flips.  Nothing here uses
flightsim's code, so making flightsim faster cannot move the floor.
"""

from __future__ import annotations

import math
import time

import numpy as np

VERTEX = """
#version 330 core
in vec3 position;
in vec3 normal;
uniform mat4 mvp;
uniform mat4 model;
out vec3 v_normal;
void main() {
    v_normal = mat3(model) * normal;
    gl_Position = mvp * vec4(position, 1.0);
}
"""

FRAGMENT = """
#version 330 core
in vec3 v_normal;
out vec4 frag_color;
void main() {
    vec3 n = normalize(v_normal);
    float d = max(dot(n, normalize(vec3(0.4, 0.7, 0.6))), 0.0);
    frag_color = vec4(vec3(0.85, 0.55, 0.2) * (0.25 + 0.75 * d), 1.0);
}
"""


def _cube():
    """Positions, normals (24 vertices) and indices (36) of a unit cube."""
    pos, nrm, idx = [], [], []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            u = np.zeros(3)
            u[(axis + 1) % 3] = 1.0
            v = np.cross(n, u)
            base = len(pos)
            pos += [n + a * u + b * v for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            nrm += [n] * 4
            idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(pos, np.float32) * 0.5, np.array(nrm, np.float32), idx


def _perspective(fov_deg, aspect, near, far):
    f = 1.0 / math.tan(math.radians(fov_deg) / 2)
    return np.array([[f / aspect, 0, 0, 0], [0, f, 0, 0],
                     [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)], [0, 0, -1, 0]])


def _rotation(a, b):
    ca, sa, cb, sb = math.cos(a), math.sin(a), math.cos(b), math.sin(b)
    ry = np.array([[ca, 0, sa, 0], [0, 1, 0, 0], [-sa, 0, ca, 0], [0, 0, 0, 1]])
    rx = np.array([[1, 0, 0, 0], [0, cb, -sb, 0], [0, sb, cb, 0], [0, 0, 0, 1]])
    return ry @ rx


class FloorScene:
    """The floor scene on ``window`` (its GL context current).

    Parameters
    ----------
    window : pyglet.window.Window
        An OpenGL 3.3 core window.
    """

    def __init__(self, window):
        import OpenGL

        OpenGL.ERROR_CHECKING = False           # as any imgui-bundle pyglet app would
        from imgui_bundle import imgui, implot
        from imgui_bundle.python_backends.pyglet_backend import create_renderer
        from pyglet import gl
        from pyglet.graphics.shader import Shader, ShaderProgram

        self.window = window
        self.gl = gl
        self.imgui, self.implot = imgui, implot
        window.switch_to()
        self.context = imgui.create_context()
        self.plot_context = implot.create_context()
        self.activate()
        imgui.get_io().set_ini_filename(None)
        self.renderer = create_renderer(window)
        self.program = ShaderProgram(Shader(VERTEX, "vertex"), Shader(FRAGMENT, "fragment"))
        pos, nrm, idx = _cube()
        self.cube = self.program.vertex_list_indexed(24, gl.GL_TRIANGLES, idx, position=("f", pos.ravel()),
                                                     normal=("f", nrm.ravel()))
        self.xs = np.linspace(0.0, 10.0, 600)
        self.t = 0.0

    def activate(self):
        """Make the floor's imgui and implot contexts current."""
        self.imgui.set_current_context(self.context)
        self.implot.set_current_context(self.plot_context)

    def frame(self, dt):
        """Draw one frame (the back buffer is not swapped)."""
        gl, imgui, implot = self.gl, self.imgui, self.implot
        self.t += dt
        width, height = self.window.get_framebuffer_size()
        gl.glViewport(0, 0, width, height)
        gl.glClearColor(0.55, 0.7, 0.9, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        gl.glEnable(gl.GL_DEPTH_TEST)
        model = _rotation(self.t * 0.7, 0.4)
        view = np.eye(4)
        view[2, 3] = -3.0
        mvp = _perspective(55.0, width / max(height, 1), 0.1, 100.0) @ view @ model
        self.program.use()
        self.program["mvp"] = mvp.T.ravel()
        self.program["model"] = model.T.ravel()
        self.cube.draw(gl.GL_TRIANGLES)
        gl.glDisable(gl.GL_DEPTH_TEST)
        self.program.stop()

        self.activate()
        io = imgui.get_io()
        io.delta_time = min(max(float(dt), 1e-4), 0.5)
        imgui.new_frame()
        imgui.set_next_window_pos(imgui.ImVec2(10, 10), imgui.Cond_.always)
        imgui.begin("floor", None, imgui.WindowFlags_.always_auto_resize)
        for k in range(12):
            imgui.text(f"line {k:2d}: t = {self.t:8.3f} s  value {math.sin(self.t + k):+.4f}")
        ys = np.sin(self.xs + self.t) + 0.1 * np.sin(7.0 * self.xs)
        if implot.begin_plot("##line", imgui.ImVec2(320, 150)):
            implot.plot_line("y", self.xs, ys)
            implot.end_plot()
        imgui.end()
        imgui.render()
        self.renderer.render(imgui.get_draw_data())

    def close(self):
        """Free imgui's GL objects and contexts."""
        self.activate()
        self.renderer.shutdown()
        self.implot.destroy_context(self.plot_context)
        self.imgui.destroy_context(self.context)


def open_plain_window(width, height, headless, configure=True):
    """A pyglet window with an OpenGL 3.3 core context, set up as a bare pyglet program would.

    ``configure=False`` leaves pyglet's options alone (another window in the process set them).
    """
    import os

    import pyglet

    if headless:
        os.environ["PYOPENGL_PLATFORM"] = "egl"       # imgui-bundle's pyglet backend draws through PyOpenGL
    if configure:
        pyglet.options["shadow_window"] = False
        pyglet.options["headless"] = bool(headless)
        pyglet.options["vsync"] = False
    import pyglet.window
    from pyglet import gl

    config = gl.Config(major_version=3, minor_version=3, forward_compatible=True, double_buffer=True,
                       depth_size=24, red_size=8, green_size=8, blue_size=8, alpha_size=8)
    return pyglet.window.Window(width, height, config=config, visible=not headless, caption="floor")


def first_frame(width, height, headless):
    """Open the floor's window, draw and show one frame; return ``time.time()`` after the flip."""
    window = open_plain_window(width, height, headless)
    scene = FloorScene(window)
    scene.frame(1.0 / 60.0)
    window.flip()
    if headless:                      # off-screen the flip does not wait for the drawing
        scene.gl.glFinish()
    done = time.time()
    scene.close()
    window.close()
    return done

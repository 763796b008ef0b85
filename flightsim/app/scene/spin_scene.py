"""The free-body scene of ``flightsim spin``: a tumbling body, its ghost and the angular momentum, in space.

Reuses the scene's lit shader (:data:`flightsim.app.scene.shaders.LIT_VERTEX`,
``LIT_FRAGMENT``: its ``tint`` and ``opacity`` draw the ghost translucent, as
the airplane's ghost is drawn) and :mod:`flightsim.app.scene.meshes`; a separate,
small renderer because there is no ground, sky or airplane here.  The body is
drawn left of the centre, the ghost right of it, each with its earth-frame
angular momentum L as a gold arrow from its centre (an exact integrator
keeps it fixed in space).

Requires a current OpenGL 3.3 core context.
"""

from __future__ import annotations

import numpy as np
from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram

from flightsim.app.scene import meshes, shaders
from flightsim.app.scene.camera import View, look_rotation
from flightsim.app.scene.renderer import GHOST_OPACITY, GHOST_TINT, Lighting, gl_matrix
from flightsim.math import quat

__all__ = ["SPACE_COLOR", "SpinScene", "body_mesh"]

SPACE_COLOR = (0.04, 0.05, 0.10)
"""The background."""

#: Half the distance between the body and its ghost, and the largest size a body is drawn at (scene units).
SPACING = 1.5
SIZE = 1.6
EYE = np.array([0.0, -6.4, 2.0])

_BODY = (0.85, 0.30, 0.22, 1.0)
_BAR = (0.82, 0.82, 0.78, 1.0)
_MARK = (0.20, 0.55, 0.95, 1.0)
_ARROW = (1.0, 0.80, 0.20, 1.0)


def _equivalent_box(inertia):
    """Edge lengths (principal frame) of the uniform box with these principal moments, and its axes."""
    moments, axes = np.linalg.eigh(np.asarray(inertia, dtype=float))
    total = moments.sum()
    edges = np.sqrt(np.maximum(6.0 * (total - 2.0 * moments), 1e-6 * total))   # a² ∝ I₂ + I₃ − I₁
    return edges / edges.max() * SIZE, axes


def body_mesh(body):
    """The drawn shape of a :class:`~flightsim.simulation.lab.SpinBody` in its body frame (scene units)."""
    if body.name == "t-handle":
        # the two rods of its inertia (stem along y, bar along x across its end), centre of mass at 0
        parts = [meshes.box((0.0, -0.25, 0.0), (0.12, 1.0, 0.12), _BODY),
                 meshes.box((0.0, 0.25, 0.0), (1.2, 0.14, 0.14), _BAR)]
        return meshes.Mesh.merge(parts)
    if body.name == "tennis-racket":
        handle = meshes.box((-0.55, 0.0, 0.0), (0.7, 0.09, 0.07), _BODY)
        throat = meshes.box((-0.12, 0.0, 0.0), (0.2, 0.2, 0.05), _BODY)
        frame = [meshes.box((0.42 + 0.5 * np.cos(a), 0.34 * np.sin(a), 0.0), (0.1, 0.1, 0.06), _BAR)
                 for a in np.linspace(0.0, 2.0 * np.pi, 28, endpoint=False)]
        strings = meshes.box((0.42, 0.0, 0.0), (0.95, 0.62, 0.012), (0.9, 0.9, 0.6, 1.0))
        return meshes.Mesh.merge([handle, throat, strings, *frame])
    edges, axes = _equivalent_box(body.tensor)
    block = meshes.box((0.0, 0.0, 0.0), edges, _BODY)
    mark = meshes.box((0.5 * edges[0], 0.0, 0.0), (0.08, 0.4 * edges[1], 0.4 * edges[2]), _MARK)
    frame = np.eye(4)
    frame[:3, :3] = axes if np.linalg.det(axes) > 0 else axes * np.array([1.0, 1.0, -1.0])
    return meshes.Mesh.merge([block, mark]).transformed(frame)


def _arrow_mesh():
    """A unit arrow along +x (shaft and head)."""
    shaft = meshes.cylinder(0.025, 0.85, _ARROW, segments=12)
    head = meshes.cone(0.07, 0.15, _ARROW, segments=12)
    turn = np.eye(4)
    turn[:3, :3] = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]     # cone's +z onto +x
    turn[0, 3] = 0.85
    return meshes.Mesh.merge([shaft, head.transformed(turn)])


def _vertex_list(program, mesh, batch):
    return program.vertex_list_indexed(
        mesh.vertex_count, gl.GL_TRIANGLES, mesh.indices.tolist(), batch=batch,
        position=("f", mesh.positions.ravel().tolist()), normal=("f", mesh.normals.ravel().tolist()),
        color=("f", mesh.colors.ravel().tolist()))


def _pointing(direction):
    """A rotation taking +x onto ``direction``."""
    d = np.asarray(direction, dtype=float)
    n = np.linalg.norm(d)
    if n == 0.0 or not np.isfinite(n):
        return None
    d = d / n
    helper = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
    y = np.cross(helper, d)
    y /= np.linalg.norm(y)
    return np.column_stack([d, y, np.cross(d, y)])


class SpinScene:
    """Draws the body, its ghost and their angular momenta.

    Parameters
    ----------
    body : flightsim.simulation.lab.SpinBody
    """

    def __init__(self, body):
        import pyglet

        self.program = ShaderProgram(Shader(shaders.LIT_VERTEX, "vertex"), Shader(shaders.LIT_FRAGMENT, "fragment"))
        self._batch = pyglet.graphics.Batch()
        self.body = _vertex_list(self.program, body_mesh(body), self._batch)
        self.arrow = _vertex_list(self.program, _arrow_mesh(), self._batch)
        self.view = View(EYE.copy(), look_rotation(-EYE, (0.0, 0.0, 1.0)), fov_deg=40.0, near=0.1, far=100.0)
        L = Lighting()
        p = self.program
        p.use()
        for name, value in (("sun_dir", tuple(L.sun_dir)), ("sun_color", L.sun_color), ("sky_ambient", L.sky_ambient),
                            ("ground_ambient", L.ground_ambient), ("fog_color", SPACE_COLOR),
                            ("fog_distance", 1e6), ("shine", 0.3), ("tint", (0.0, 0.0, 0.0, 0.0)),
                            ("opacity", 1.0)):
            if name in p.uniforms:
                p[name] = value
        p.stop()

    def _model(self, centre, rotation, scale=1.0):
        m = np.eye(4)
        m[:3, :3] = rotation * scale
        m[:3, 3] = np.asarray(centre) - self.view.eye
        return gl_matrix(m)

    def draw(self, viewport, q_body, momentum, q_ghost=None, ghost_momentum=None, scene_width=None):
        """Draw one frame into the current framebuffer.

        Parameters
        ----------
        viewport : (int, int)
            Framebuffer size, pixels.
        scene_width : int, optional
            Draw the bodies in the left ``scene_width`` pixels only (beside a panel); default all.
        q_body : array_like, shape (4,)
            The body's attitude (body → earth).
        momentum : array_like, shape (3,)
            Its earth-frame angular momentum (drawn as a direction).
        q_ghost, ghost_momentum : array_like or None
            The ghost's attitude and momentum; None draws no ghost.
        """
        w, h = viewport
        gl.glViewport(0, 0, max(w, 1), max(h, 1))
        gl.glClearColor(*SPACE_COLOR, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        w = max(min(int(scene_width), w), 1) if scene_width else w
        gl.glViewport(0, 0, max(w, 1), max(h, 1))
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LESS)
        p = self.program
        p.use()
        p["view_proj"] = gl_matrix(self.view.view_proj(w / max(h, 1)))
        left = np.array([-SPACING, 0.0, 0.0]) if q_ghost is not None else np.zeros(3)
        self._draw_one(left, q_body, momentum)
        if q_ghost is not None:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            gl.glDepthMask(gl.GL_FALSE)
            p["tint"] = GHOST_TINT
            p["opacity"] = GHOST_OPACITY
            self._draw_one(np.array([SPACING, 0.0, 0.0]), q_ghost, ghost_momentum)
            p["tint"] = (0.0, 0.0, 0.0, 0.0)
            p["opacity"] = 1.0
            gl.glDepthMask(gl.GL_TRUE)
            gl.glDisable(gl.GL_BLEND)
        p.stop()
        gl.glDisable(gl.GL_DEPTH_TEST)

    def _draw_one(self, centre, q, momentum):
        q = np.asarray(q, dtype=float)
        if not np.all(np.isfinite(q)) or np.linalg.norm(q) == 0.0:
            return                      # never NaN to the renderer
        self.program["model"] = self._model(centre, quat.to_matrix(quat.normalize(q)))
        self.body.draw(gl.GL_TRIANGLES)
        pointing = _pointing(momentum) if momentum is not None else None
        if pointing is not None:
            self.program["model"] = self._model(centre, pointing, scale=0.95)
            self.arrow.draw(gl.GL_TRIANGLES)

    def delete(self):
        """Free the GL objects."""
        self.body.delete()
        self.arrow.delete()

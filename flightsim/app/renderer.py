"""OpenGL 3.3 core scene renderer built on pyglet's shader API.

Draw order each frame: sky (a vertex-coloured dome), ground (the field
patchwork of :mod:`flightsim.app.ground`, following the camera), flat decals (lake, roads, apron, runway),
the airplane's shadow (stencilled so overlapping parts do not darken twice),
then the lit 3D landmarks and the airplane, and last a translucent ghost
airplane if asked (the same mesh and program, tinted, blended, without depth
writes).  The ground and decals lie on z = 0 where nothing can be behind
them, so they are drawn without depth writes; that avoids z-fighting at any
distance.

Everything is drawn relative to the camera eye (see :mod:`flightsim.app.shaders`).
Requires a current OpenGL 3.3 core context.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pyglet
from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram

from flightsim.app import ground, shaders, textures, windsock
from flightsim.app.camera import frustum_planes, spheres_visible
from flightsim.app.meshes import Mesh
from flightsim.files import atomic_write

__all__ = ["GHOST_OPACITY", "GHOST_SAME_FT", "GHOST_TINT", "GhostPose", "SceneRenderer", "Lighting", "gl_matrix",
           "read_pixels", "save_png"]

GROUND_EXTENT = 160000.0
"""Half size of the ground square around the camera, ft."""

_GL_TEXTURE_MAX_ANISOTROPY = 0x84FE

GHOST_TINT = (0.50, 0.78, 1.00, 0.8)
"""The ghost airplane's colour (light blue) and how much of it replaces the model's colours."""

GHOST_OPACITY = 0.35
"""The ghost airplane's alpha."""

GHOST_SAME_FT = 0.01
"""A ghost closer than this to the airplane (every vertex, ft) is not drawn: it would only z-fight."""


def gl_matrix(m) -> list:
    """A 4x4 column-vector numpy matrix as the 16 column-major floats OpenGL expects."""
    return np.asarray(m, dtype=np.float64).T.ravel().tolist()


class Lighting:
    """Sun, sky and fog colours shared by all programs."""

    sun_dir = np.array([-0.42, 0.36, 0.83]) / np.linalg.norm([-0.42, 0.36, 0.83])
    sun_color = (0.95, 0.9, 0.82)
    sky_ambient = (0.42, 0.48, 0.58)
    ground_ambient = (0.27, 0.26, 0.22)
    zenith_color = (0.17, 0.38, 0.74)
    horizon_color = (0.70, 0.80, 0.90)
    fog_distance = 52000.0


def _program(vertex, fragment) -> ShaderProgram:
    return ShaderProgram(Shader(vertex, "vertex"), Shader(fragment, "fragment"))


def _make_texture(image, repeat=True, anisotropy=0.0) -> int:
    """Upload an RGBA uint8 image (row 0 = t 0) with mipmaps; return the GL texture id."""
    img = np.ascontiguousarray(image, dtype=np.uint8)
    h, w = img.shape[:2]
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex.value)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, w, h, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                    img.ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
    gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
    wrap = gl.GL_REPEAT if repeat else gl.GL_CLAMP_TO_EDGE
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_S, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_T, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
    if anisotropy > 1.0 and pyglet.gl.gl_info.have_extension("GL_EXT_texture_filter_anisotropic"):
        gl.glTexParameterf(gl.GL_TEXTURE_2D, _GL_TEXTURE_MAX_ANISOTROPY, anisotropy)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return tex.value


def _lit_list(program, mesh: Mesh, batch):
    """A pyglet indexed vertex list of a lit mesh (position, normal, colour)."""
    return program.vertex_list_indexed(
        mesh.vertex_count, gl.GL_TRIANGLES, mesh.indices.tolist(), batch=batch,
        position=("f", mesh.positions.ravel().tolist()),
        normal=("f", mesh.normals.ravel().tolist()),
        color=("f", mesh.colors.ravel().tolist()))


def _airplane_list(program, part_meshes, batch):
    """One vertex list for all parts; each vertex carries its part's index (``part``)."""
    merged = Mesh.merge(part_meshes)
    index = np.concatenate([np.full(m.vertex_count, k, np.float32) for k, m in enumerate(part_meshes)])
    data = dict(position=("f", merged.positions.ravel().tolist()), part=("f", index.tolist()))
    if "normal" in program.attributes:
        data.update(normal=("f", merged.normals.ravel().tolist()), color=("f", merged.colors.ravel().tolist()))
    return program.vertex_list_indexed(merged.vertex_count, gl.GL_TRIANGLES, merged.indices.tolist(),
                                       batch=batch, **data)


_COLLAPSED = (0.0,) * 15 + (1.0,)
"""A part matrix that shrinks the part to a point (hides it)."""


class GhostPose:
    """What the renderer needs to draw the ghost airplane.

    Parameters
    ----------
    position : array_like, shape (3,)
        CG, earth frame, ft (finite).
    rotation : array_like, shape (3, 3)
        Body -> earth.
    part_matrices : list of numpy.ndarray
        Its parts' body matrices (its own deflected surfaces).
    hidden : collection of int
        Parts not to draw.
    """

    __slots__ = ("position", "rotation", "part_matrices", "hidden")

    def __init__(self, position, rotation, part_matrices, hidden=()):
        self.position = position
        self.rotation = rotation
        self.part_matrices = part_matrices
        self.hidden = hidden


def _decal_list(program, positions, uv, colors, indices, batch):
    return program.vertex_list_indexed(
        len(positions), gl.GL_TRIANGLES, list(indices), batch=batch,
        position=("f", np.asarray(positions, np.float32).ravel().tolist()),
        uv=("f", np.asarray(uv, np.float32).ravel().tolist()),
        color=("f", np.asarray(colors, np.float32).ravel().tolist()))


class SceneRenderer:
    """Draws the world and the airplane.

    Parameters
    ----------
    model : flightsim.app.airplane_model.AirplaneModel
    scenery : flightsim.app.scenery.Scenery
    """

    def __init__(self, model, scenery):
        self.model = model
        self.lighting = Lighting()
        self.lit = _program(shaders.LIT_VERTEX, shaders.LIT_FRAGMENT)
        self.airplane = _program(shaders.AIRPLANE_VERTEX, shaders.LIT_FRAGMENT)
        self.ground = _program(shaders.GROUND_VERTEX, shaders.GROUND_FRAGMENT)
        self.decal = _program(shaders.DECAL_VERTEX, shaders.DECAL_FRAGMENT)
        self.shadow = _program(shaders.SHADOW_VERTEX, shaders.SHADOW_FRAGMENT)
        self.sky = _program(shaders.SKY_VERTEX, shaders.SKY_FRAGMENT)
        self._batch = pyglet.graphics.Batch()          # owns the buffers; drawn list by list

        rw = scenery.runway
        # Anisotropic filtering keeps the markings sharp at grazing angles; the runway covers
        # little of the screen, so even a software renderer can afford it there.
        self.tex_runway = _make_texture(textures.runway_texture(width_ft=rw.width, length_ft=rw.length,
                                                                numbers=rw.numbers), repeat=False, anisotropy=8.0)
        self.sky_list = self._sky_dome()
        meshes2d = ground.build_ground(GROUND_EXTENT)
        self.ground_average = meshes2d.average
        self.ground_lists = [self._ground_list(m) for m in (meshes2d.skirt, meshes2d.far)]
        self.tile_lists = [self._ground_list(m) for m, _ in meshes2d.near]
        self.tile_centers = np.array([[(i + 0.5) * ground.TILE_FT, (j + 0.5) * ground.TILE_FT, 0.0]
                                      for _, (i, j) in meshes2d.near])
        self.tile_radius = ground.TILE_FT * math.sqrt(0.5)
        d = scenery.decals
        self.decal_list = _decal_list(self.decal, d.positions, np.zeros((d.vertex_count, 2)), d.colors,
                                      d.indices, self._batch)
        quad_pos, quad_uv = scenery.runway_quad
        self.runway_list = _decal_list(self.decal, quad_pos, quad_uv, np.ones((4, 4)), [0, 1, 2, 0, 2, 3],
                                       self._batch)
        self.object_lists = [_lit_list(self.lit, m, self._batch) for m in scenery.objects]
        self.windsock_mount = scenery.windsock_mount
        self.windsock_list = _lit_list(self.lit, windsock.windsock_mesh(), self._batch)
        self.object_centers, self.object_radii = _bounds(scenery.objects)
        self.airplane_list = self.shadow_list = None
        self.set_airplane(model)
        self._set_lighting_uniforms()

    def set_airplane(self, model):
        """Draw ``model`` (an :class:`~flightsim.app.airplane_model.AirplaneModel`) from now on (another aircraft)."""
        if len(model.parts) > shaders.MAX_PARTS:
            raise ValueError(f"the airplane has {len(model.parts)} parts; at most {shaders.MAX_PARTS} can be drawn")
        for old in (self.airplane_list, self.shadow_list):
            if old is not None:
                old.delete()
        self.model = model
        self.airplane_list = _airplane_list(self.airplane, [p.mesh for p in model.parts], self._batch)
        self.shadow_list = _airplane_list(self.shadow, [p.mesh for p in model.parts], self._batch)

    def _sky_dome(self, n_az=48, n_el=14):
        """Unit directions from just below the horizon to the zenith, as triangles.

        Below it the ground covers the view; any gap left at great heights
        shows the clear colour, which is the horizon haze.
        """
        az = np.linspace(0.0, 2 * np.pi, n_az, endpoint=False)
        el = np.radians(np.concatenate([[-3.0], np.linspace(0.0, 90.0, n_el)]))
        dirs = np.stack([np.cos(el)[:, None] * np.cos(az)[None, :], np.cos(el)[:, None] * np.sin(az)[None, :],
                         np.broadcast_to(np.sin(el)[:, None], (len(el), n_az))], axis=-1).reshape(-1, 3)
        idx = []
        for i in range(len(el) - 1):
            for j in range(n_az):
                a, b = i * n_az + j, i * n_az + (j + 1) % n_az
                idx += [a, b, b + n_az, a, b + n_az, a + n_az]
        return self.sky.vertex_list_indexed(len(dirs), gl.GL_TRIANGLES, idx, batch=self._batch,
                                            position=("f", dirs.ravel().tolist()))

    def _ground_list(self, mesh2d):
        positions, colors, indices = mesh2d
        return self.ground.vertex_list_indexed(len(positions), gl.GL_TRIANGLES, indices.tolist(),
                                               batch=self._batch, position=("f", positions.ravel().tolist()),
                                               color=("f", colors.ravel().tolist()))

    def _set_lighting_uniforms(self):
        L = self.lighting
        for prog in (self.lit, self.airplane, self.ground, self.decal, self.sky):
            prog.use()
            # The compiler drops uniforms a program does not need (the flat ground's ambient).
            present = prog.uniforms
            for name, value in (("sun_dir", tuple(L.sun_dir)), ("sun_color", L.sun_color),
                                ("sky_ambient", L.sky_ambient), ("ground_ambient", L.ground_ambient),
                                ("fog_color", L.horizon_color), ("fog_distance", L.fog_distance),
                                ("zenith_color", L.zenith_color), ("horizon_color", L.horizon_color)):
                if name in present:
                    prog[name] = value
        self.lit["shine"] = 0.0
        for prog in (self.lit, self.airplane):
            prog.use()
            prog["tint"] = (0.0, 0.0, 0.0, 0.0)
            prog["opacity"] = 1.0
        self.airplane["shine"] = 0.35
        self.ground.use()
        level = np.array(L.sky_ambient) + np.array(L.sun_color) * max(L.sun_dir[2], 0.0)
        self.ground["lit"] = tuple(level)
        self.ground["average_color"] = tuple(float(c) for c in self.ground_average)
        self.decal.use()
        self.decal["image"] = 0
        self.shadow.use()
        self.shadow["sun_dir"] = tuple(L.sun_dir)
        self.shadow.stop()

    @staticmethod
    def _bind(unit, texture):
        gl.glActiveTexture(gl.GL_TEXTURE0 + unit)
        gl.glBindTexture(gl.GL_TEXTURE_2D, texture)

    def draw(self, view, viewport, airplane_position, airplane_rotation, part_matrices,
             show_airplane=True, hidden=(), ghost=None, wind=(0.0, 0.0, 0.0)):
        """Draw one frame of the 3D scene into the current framebuffer.

        Parameters
        ----------
        view : flightsim.app.camera.View
        viewport : tuple of int
            Framebuffer (width, height) in pixels.
        airplane_position : array_like, shape (3,)
            CG, earth frame, ft (finite).
        airplane_rotation : array_like, shape (3, 3)
            Body -> earth.
        part_matrices : list of numpy.ndarray
            Body matrices of the model's parts (:meth:`AirplaneModel.part_matrices`).
        show_airplane : bool
            Draw the airplane (and its shadow).
        hidden : collection of int
            Indices of parts not to draw (the cabin, seen from the cockpit).
        ghost : GhostPose, optional
            A second airplane, drawn translucent over everything else.
        wind : array_like, shape (3,)
            The wind at the windsock, earth frame, ft/s (:func:`flightsim.app.windsock.sock_wind`).
        """
        width, height = max(int(viewport[0]), 1), max(int(viewport[1]), 1)
        gl.glViewport(0, 0, width, height)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glStencilMask(0xFF)
        gl.glClearStencil(0)
        gl.glClearColor(*self.lighting.horizon_color, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT | gl.GL_STENCIL_BUFFER_BIT)
        eye = np.asarray(view.eye, dtype=np.float64)
        view_proj = view.view_proj(width / height)
        vp = gl_matrix(view_proj)
        camera = tuple(float(c) for c in eye)

        # Sky.
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glDepthMask(gl.GL_FALSE)
        gl.glDisable(gl.GL_BLEND)
        self.sky.use()
        self.sky["view_proj"] = vp
        self.sky_list.draw(gl.GL_TRIANGLES)

        # Ground and decals, flat on z = 0.
        self.ground.use()
        ox, oy = ground.tile_origin(eye[0], eye[1])
        self.ground["view_proj"] = vp
        self.ground["offset"] = (float(ox - eye[0]), float(oy - eye[1]))
        self.ground["tile_origin"] = (float(ox), float(oy))
        self.ground["camera_z"] = float(eye[2])
        self.ground["grain"] = 0.14 if eye[2] < 500.0 else 0.0
        for vlist in self.ground_lists:
            vlist.draw(gl.GL_TRIANGLES)
        planes = frustum_planes(view_proj)
        tiles = self.tile_centers + [ox - eye[0], oy - eye[1], -eye[2]]
        for vlist, visible in zip(self.tile_lists, spheres_visible(planes, tiles, self.tile_radius)):
            if visible:
                vlist.draw(gl.GL_TRIANGLES)
        self.decal.use()
        self.decal["view_proj"] = vp
        self.decal["model"] = gl_matrix(_translate(-eye))
        self.decal["textured"] = 0.0
        self.decal_list.draw(gl.GL_TRIANGLES)
        self._bind(0, self.tex_runway)
        self.decal["textured"] = 1.0
        self.runway_list.draw(gl.GL_TRIANGLES)

        plane_gl, parts = _airplane_uniforms(airplane_position, airplane_rotation, part_matrices, hidden, eye)
        if show_airplane:
            self._draw_shadow(plane_gl, parts, vp, camera, float(airplane_position[2]))

        # Lit objects with depth.
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LESS)
        gl.glDepthMask(gl.GL_TRUE)
        self.lit.use()
        self.lit["view_proj"] = vp
        self.lit["model"] = gl_matrix(_translate(-eye))
        self.lit["shine"] = 0.0
        visible = spheres_visible(planes, self.object_centers - eye, self.object_radii)
        for vlist, show in zip(self.object_lists, visible):
            if show:
                vlist.draw(gl.GL_TRIANGLES)
        if spheres_visible(planes, (self.windsock_mount - eye)[None, :], windsock.SOCK_LENGTH)[0]:
            self.lit["model"] = gl_matrix(_translate(-eye) @ windsock.windsock_matrix(self.windsock_mount, wind))
            self.windsock_list.draw(gl.GL_TRIANGLES)
        if show_airplane:
            self.airplane.use()
            self.airplane["view_proj"] = vp
            self.airplane["model"] = plane_gl
            self.airplane["parts"] = parts
            gl.glEnable(gl.GL_CULL_FACE)          # closed, outward-facing meshes; the cockpit sees no insides
            gl.glCullFace(gl.GL_BACK)
            self.airplane_list.draw(gl.GL_TRIANGLES)
            gl.glDisable(gl.GL_CULL_FACE)
        if ghost is not None and not (show_airplane and self._ghost_coincides(
                ghost, airplane_position, airplane_rotation, part_matrices, hidden)):
            self._draw_ghost(ghost, vp, planes, eye)
        self.lit.stop()
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glActiveTexture(gl.GL_TEXTURE0)

    def _ghost_coincides(self, ghost, position, rotation, part_matrices, hidden):
        """The ghost is where the airplane is, to within :data:`GHOST_SAME_FT` at any vertex."""
        if ghost.part_matrices is not part_matrices or set(ghost.hidden) != set(hidden):
            return False
        reach = self.model.radius
        offset = np.linalg.norm(np.asarray(ghost.position, dtype=np.float64) - np.asarray(position, dtype=np.float64))
        turn = np.abs(np.asarray(ghost.rotation, dtype=np.float64) - rotation).max()
        return bool(offset + 3.0 * reach * turn < GHOST_SAME_FT)

    def _draw_ghost(self, ghost, vp, planes, eye):
        """The ghost: the airplane's mesh and program, tinted and blended, tested against depth but not
        writing it (after everything opaque, so it never hides what is behind it)."""
        position = np.asarray(ghost.position, dtype=np.float64)
        if not spheres_visible(planes, position - eye, self.model.radius)[0]:
            return
        plane_gl, parts = _airplane_uniforms(position, ghost.rotation, ghost.part_matrices, ghost.hidden, eye)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LESS)           # where it coincides with the airplane, the airplane wins
        gl.glDepthMask(gl.GL_FALSE)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glCullFace(gl.GL_BACK)
        prog = self.airplane
        prog.use()
        prog["view_proj"] = vp
        prog["model"] = plane_gl
        prog["parts"] = parts
        prog["tint"] = GHOST_TINT
        prog["opacity"] = GHOST_OPACITY
        self.airplane_list.draw(gl.GL_TRIANGLES)
        prog["tint"] = (0.0, 0.0, 0.0, 0.0)
        prog["opacity"] = 1.0
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def _draw_shadow(self, plane_gl, parts, vp, camera, altitude):
        """The airplane flattened onto the ground along the sun's rays."""
        strength = 0.5 * (1.0 - min(max(altitude, 0.0) / 600.0, 1.0))
        if strength <= 0.01:
            return
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilFunc(gl.GL_EQUAL, 0, 0xFF)
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_INCR)
        self.shadow.use()
        self.shadow["view_proj"] = vp
        self.shadow["camera"] = camera
        self.shadow["strength"] = strength
        self.shadow["model"] = plane_gl
        self.shadow["parts"] = parts
        self.shadow_list.draw(gl.GL_TRIANGLES)
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glDisable(gl.GL_BLEND)


def _airplane_uniforms(position, rotation, part_matrices, hidden, eye):
    """The ``model`` matrix (relative to the eye) and the ``parts`` array of an airplane, as GL floats."""
    plane = _translate(np.asarray(position, dtype=np.float64) - eye)
    plane[:3, :3] = rotation
    parts = [tuple(gl_matrix(m)) for m in part_matrices]
    for k in hidden:
        parts[k] = _COLLAPSED
    parts += [_COLLAPSED] * (shaders.MAX_PARTS - len(parts))
    return gl_matrix(plane), parts


def _bounds(mesh_list):
    """Bounding-sphere centres (n, 3) and radii (n,) of meshes."""
    centers, radii = [], []
    for m in mesh_list:
        lo, hi = m.positions.min(axis=0).astype(np.float64), m.positions.max(axis=0).astype(np.float64)
        centers.append(0.5 * (lo + hi))
        radii.append(0.5 * float(np.linalg.norm(hi - lo)))
    return np.array(centers), np.array(radii)


def _translate(offset) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = offset
    return m


def read_pixels(width, height) -> np.ndarray:
    """The current framebuffer's colour as an (height, width, 3) uint8 array, row 0 at the top."""
    buf = np.empty((height, width, 4), np.uint8)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                    buf.ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
    return np.ascontiguousarray(buf[::-1, :, :3])



def save_png(pixels, path):
    """Write an (height, width, 3) uint8 image (row 0 at the top) as a PNG file, all or nothing.

    Raises
    ------
    OSError
        The file cannot be written (nothing is left behind).
    """
    height, width = pixels.shape[:2]
    data = np.ascontiguousarray(pixels[::-1]).tobytes()        # pyglet rows run bottom to top
    with atomic_write(path, "wb") as f:
        pyglet.image.ImageData(width, height, "RGB", data, pitch=width * 3).save(str(path), file=f)

"""OpenGL 3.3 core scene renderer built on pyglet's shader API.

Draw order each frame, opaque first and roughly front to back so that a
software rasteriser shades as few hidden pixels as it can:

0. the opaque part of a cached HUD image (:class:`flightsim.app.hud.gui.HudImage`:
   the side panels at ``low`` quality), then opaque screen-space backdrops
   if given (the panels' backgrounds when the HUD is drawn every frame, the
   cockpit frame), in front of everything, so nothing behind them is shaded;
1. the airplane (lit, depth written);
2. the lit 3D landmarks and the hills (depth written), only the clusters
   inside the view; with the world's terrain
   (:mod:`flightsim.app.scene.terrain_view`) no hills, but home's fields
   (the patchwork's road blocks within :data:`HOME_FIELDS_FT` of the
   origin, where the terrain is flat farmland at sea level; depth written a
   step behind z = 0, the roads on them half a step), then the terrain:
   its chunks at their levels of detail, the near ones in view (depth
   written, pushed back further, so the fields lying on it win and the
   decals win over both);
3. without the terrain, the ground (the field patchwork of
   :mod:`flightsim.app.scene.ground`, following the camera); then the flat
   decals (lake, roads, apron), the runway and the other airfields' runways
   (each at its field's elevation): depth tested against what is
   already drawn but not written, as they all lie on z = 0 where nothing
   can be behind them (no z-fighting at any distance);
4. the airplane's shadow (stencilled so overlapping parts do not darken twice);
5. the sky dome, at the far plane, only where nothing else was drawn (the
   clear colour, the horizon haze, fills any gap at the horizon);
6. a translucent ghost airplane if asked (the same mesh, tinted,
   blended, without depth writes);
7. last, the rest of a cached HUD image, blended over the scene.

All the static geometry lives in three vertex arrays (scenery, ground, sky)
uploaded once; the per-frame values (view-projection, eye, ground tile) are
one uniform block (``Frame``, :data:`flightsim.app.scene.shaders.FRAME_BLOCK`)
uploaded once a frame; only the airplane's matrices are set per draw.  The
static scenery is lit at start-up (the sun does not move), so its fragments
only write a colour.  How much is spent where depends on the
:class:`~flightsim.app.scene.quality.Quality`.

Everything is drawn relative to the camera eye (see :mod:`flightsim.app.scene.shaders`).
Requires a current OpenGL 3.3 core context.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pyglet
from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram

from flightsim.app.scene import ground, shaders, terrain_view, textures, windsock
from flightsim.app.scene.camera import frustum_planes, spheres_visible
from flightsim.app.scene.meshes import Mesh
from flightsim.app.scene.quality import LEVELS, Quality
from flightsim.files import atomic_write
from flightsim.physics.terrain import surface

__all__ = ["GHOST_OPACITY", "GHOST_SAME_FT", "GHOST_TINT", "GhostPose", "SceneRenderer", "Lighting", "gl_matrix",
           "read_pixels", "save_png"]

GROUND_EXTENT = 160000.0
"""Half size of the ground square around the camera, ft."""

HOME_FIELDS_FT = 11000.0
"""With the terrain: the patchwork's road blocks whose centres lie within this distance of the home origin are
drawn over it (the terrain is flat farmland at sea level within 12,000 ft of home)."""

TERRAIN_FOG_FT = 190000.0
"""The terrain's fog distance, ft (the haze reaches 1 - 1/e there): the range 30-40 nm East of home shows
through the haze from the circuit, where the near scenery's fog (:attr:`Lighting.fog_distance`) would hide it."""

MIN_FEATURE_PX = 1.5
"""A landmark cluster whose objects would show smaller than this on the screen, pixels, is left
out: Mesa's software rasteriser pays for every triangle, and a sub-pixel one only twinkles."""

SOCK_MIN_PX = 3.0
"""The windsock is drawn where it shows at least this long, pixels: smaller it is an orange dot that tells no
wind (its own program, lit per pixel, costs a Mesa frame half a millisecond even then)."""

FAR_FEATURE_PX = 8.0
"""A cluster with a stand-in (the woods) draws it where its objects show smaller than this, pixels."""

VIEW_REUSE_FT = 200.0
"""A draw list chosen for an eye (the terrain's chunks, the fields' blocks) is reused while the eye stays within
this distance, ft, and the view turns by less than :data:`VIEW_REUSE_DEG` (:class:`_ViewCache`)."""

VIEW_REUSE_DEG = 1.5
"""See :data:`VIEW_REUSE_FT`; the chunks are culled against a frustum widened to match."""

_GL_TEXTURE_MAX_ANISOTROPY = 0x84FE
#: The other airfields' runway textures' length in pixels (the home runway's is textures.RUNWAY_LENGTH_PX): half,
#: so that six airfields' textures are made in half a second
FIELD_RUNWAY_PX = 2048

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

    def lit_colors(self, colors, normals) -> np.ndarray:
        """Vertex colours (n, 4) lit by the sun and the sky for their normals (n, 3): the diffuse part of
        :data:`flightsim.app.scene.shaders.COMMON`'s ``light``, baked once for geometry that never moves."""
        n = np.asarray(normals, dtype=np.float64)
        up = 0.5 + 0.5 * n[:, 2:3]
        ambient = np.asarray(self.ground_ambient) * (1.0 - up) + np.asarray(self.sky_ambient) * up
        diffuse = np.clip(n @ self.sun_dir, 0.0, None)[:, None] * np.asarray(self.sun_color)
        out = np.array(colors, dtype=np.float32)
        out[:, :3] = np.asarray(colors, dtype=np.float64)[:, :3] * (ambient + diffuse)
        return out

    @property
    def level_light(self) -> tuple:
        """The light on a level surface (normal +z): ambient + sun * sun_dir.z."""
        level = np.array(self.sky_ambient) + np.array(self.sun_color) * max(self.sun_dir[2], 0.0)
        return tuple(float(c) for c in level)


def _program(vertex, fragment) -> ShaderProgram:
    return ShaderProgram(Shader(vertex, "vertex"), Shader(fragment, "fragment"))


def _make_texture(image, repeat=True, anisotropy=0.0) -> int:
    """Upload an RGBA uint8 image (row 0 = t 0) with mipmaps; return the GL texture id."""
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex.value)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    levels = textures.mip_chain(image)
    for level, img in enumerate(levels):
        h, w = img.shape[:2]
        gl.glTexImage2D(gl.GL_TEXTURE_2D, level, gl.GL_RGBA8, w, h, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                        img.ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAX_LEVEL, len(levels) - 1)
    wrap = gl.GL_REPEAT if repeat else gl.GL_CLAMP_TO_EDGE
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_S, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_T, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
    if anisotropy > 1.0 and pyglet.gl.gl_info.have_extension("GL_EXT_texture_filter_anisotropic"):
        gl.glTexParameterf(gl.GL_TEXTURE_2D, _GL_TEXTURE_MAX_ANISOTROPY, anisotropy)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return tex.value


class StreamBuffer:
    """A small vertex array of float32 vertices refilled from the CPU (backdrops, HUD quads).

    Parameters
    ----------
    layout : sequence of (str, int)
        Attribute name (a :data:`flightsim.app.scene.shaders.LOCATIONS` key) and
        component count, interleaved in this order.
    """

    def __init__(self, layout):
        self.layout = tuple(layout)
        self.stride = 4 * sum(size for _, size in self.layout)
        self.vao, self.vbo = gl.GLuint(), gl.GLuint()
        self.capacity = 0
        self.count = 0

    def upload(self, data):
        """Replace the vertices with ``data`` (n, components) float32; grows the buffer when needed."""
        data = np.ascontiguousarray(data, dtype=np.float32)
        n = len(data)
        if n > self.capacity:
            self.delete()
            self.capacity = max(256, 2 * n)
            gl.glGenVertexArrays(1, ctypes.byref(self.vao))
            gl.glBindVertexArray(self.vao)
            gl.glGenBuffers(1, ctypes.byref(self.vbo))
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
            gl.glBufferData(gl.GL_ARRAY_BUFFER, self.capacity * self.stride, None, gl.GL_DYNAMIC_DRAW)
            offset = 0
            for name, size in self.layout:
                location = shaders.LOCATIONS[name]
                gl.glEnableVertexAttribArray(location)
                gl.glVertexAttribPointer(location, size, gl.GL_FLOAT, gl.GL_FALSE, self.stride,
                                         ctypes.c_void_p(offset))
                offset += 4 * size
        gl.glBindVertexArray(self.vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        if n:
            gl.glBufferSubData(gl.GL_ARRAY_BUFFER, 0, data.nbytes, data.ctypes.data_as(ctypes.c_void_p))
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)
        self.count = n

    def draw(self, first=0, count=None):
        """Draw triangles from vertex ``first`` (binds the vertex array)."""
        gl.glBindVertexArray(self.vao)
        gl.glDrawArrays(gl.GL_TRIANGLES, first, self.count - first if count is None else count)

    def delete(self):
        """Free the GL objects."""
        if self.capacity:
            gl.glDeleteBuffers(1, ctypes.byref(self.vbo))
            gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))
            self.capacity = 0


def rect_triangles(rects) -> np.ndarray:
    """Rectangles ``(x0, y0, x1, y1)`` as two triangles each: (6 n, 2) corner points."""
    r = np.asarray(rects, dtype=np.float32).reshape(-1, 4)
    x0, y0, x1, y1 = r[:, 0], r[:, 1], r[:, 2], r[:, 3]
    return np.stack([np.stack(c, axis=-1) for c in ((x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1))],
                    axis=1).reshape(-1, 2)


class GeometryBuffer:
    """One vertex array of static float32 attributes and uint32 triangle indices, drawn by index ranges.

    Attributes go to the fixed locations of :data:`flightsim.app.scene.shaders.LOCATIONS`, so any
    program reading them can draw it.

    Parameters
    ----------
    attributes : dict
        Attribute name -> array (n,) or (n, k) of vertex values.
    indices : array_like
        Triangle vertex indices.
    """

    def __init__(self, attributes, indices):
        self.vao = gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        gl.glBindVertexArray(self.vao)
        self._buffers = []
        self._attributes = []                 # (buffer, location, size): for the gathering vertex arrays
        for name, data in attributes.items():
            data = np.ascontiguousarray(data, dtype=np.float32)
            size = 1 if data.ndim == 1 else data.shape[1]
            location = shaders.LOCATIONS[name]
            self._upload(gl.GL_ARRAY_BUFFER, data)
            self._attributes.append((self._buffers[-1], location, size))
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, size, gl.GL_FLOAT, gl.GL_FALSE, 0, None)
        idx = np.ascontiguousarray(indices, dtype=np.uint32)
        self._upload(gl.GL_ELEMENT_ARRAY_BUFFER, idx)
        gl.glBindVertexArray(0)
        self.count = int(idx.size)
        self._indices = idx
        self._gathered = {}                   # slot -> [vao, element buffer, capacity, key, count]

    def _upload(self, target, data):
        buf = gl.GLuint()
        gl.glGenBuffers(1, ctypes.byref(buf))
        gl.glBindBuffer(target, buf)
        gl.glBufferData(target, data.nbytes, data.ctypes.data_as(ctypes.c_void_p), gl.GL_STATIC_DRAW)
        self._buffers.append(buf)

    def bind(self):
        """Make this the current vertex array."""
        gl.glBindVertexArray(self.vao)

    def draw(self, first=0, count=None):
        """Draw ``count`` indices from index ``first`` (the vertex array must be bound)."""
        gl.glDrawElements(gl.GL_TRIANGLES, self.count if count is None else count, gl.GL_UNSIGNED_INT,
                          ctypes.c_void_p(4 * first))

    def draw_ranges(self, ranges, visible):
        """Draw the index ``ranges`` (``(first, count)`` pairs) where ``visible``; neighbours in one call."""
        run_first, run_end = -1, -1
        for (first, count), show in zip(ranges, visible, strict=True):
            if not show:
                continue
            if first == run_end:
                run_end = first + count
                continue
            if run_first >= 0:
                self.draw(run_first, run_end - run_first)
            run_first, run_end = first, first + count
        if run_first >= 0:
            self.draw(run_first, run_end - run_first)

    def draw_gathered(self, first, count, slot=0):
        """Draw the index ranges ``first``/``count`` (arrays, in indices) in one ``glDrawElements``, in the
        buffer's order.

        Their indices are gathered on the CPU into an element buffer of their own (one per ``slot``: each call
        site keeps its own), refilled only when the ranges change.  Mesa's software rasteriser sets each draw of
        a ``glMultiDrawElements`` up on its own (tens of microseconds), so a few tens of ranges drawn as one
        save about a third of a millisecond a frame.  Binds its own vertex array.
        """
        first = np.asarray(first, dtype=np.int64)
        count = np.asarray(count, dtype=np.int64)
        order = np.argsort(first, kind="stable")            # in the buffer's order
        first, count = first[order], count[order]
        key = first.tobytes() + count.tobytes()
        state = self._gathered.get(slot)
        if state is None:
            state = self._gathered[slot] = [gl.GLuint(), gl.GLuint(), 0, None, 0]
            gl.glGenVertexArrays(1, ctypes.byref(state[0]))
            gl.glBindVertexArray(state[0])
            for buf, location, size in self._attributes:
                gl.glBindBuffer(gl.GL_ARRAY_BUFFER, buf)
                gl.glEnableVertexAttribArray(location)
                gl.glVertexAttribPointer(location, size, gl.GL_FLOAT, gl.GL_FALSE, 0, None)
            gl.glGenBuffers(1, ctypes.byref(state[1]))
            gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, state[1])
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)
        gl.glBindVertexArray(state[0])
        if state[3] != key:
            total = int(count.sum())
            if total:
                starts = np.repeat(first - np.concatenate([[0], np.cumsum(count)[:-1]]), count)
                idx = np.ascontiguousarray(self._indices[starts + np.arange(total)])
                gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, state[1])
                if total > state[2]:
                    state[2] = max(1024, 2 * total)
                    gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, 4 * state[2], None, gl.GL_DYNAMIC_DRAW)
                gl.glBufferSubData(gl.GL_ELEMENT_ARRAY_BUFFER, 0, idx.nbytes, idx.ctypes.data_as(ctypes.c_void_p))
            state[3], state[4] = key, total
        if state[4]:
            gl.glDrawElements(gl.GL_TRIANGLES, state[4], gl.GL_UNSIGNED_INT, None)

    def delete(self):
        """Free the GL objects."""
        for buf in self._buffers:
            gl.glDeleteBuffers(1, ctypes.byref(buf))
        gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))
        self._buffers = []
        for vao, buf, *_ in self._gathered.values():
            gl.glDeleteBuffers(1, ctypes.byref(buf))
            gl.glDeleteVertexArrays(1, ctypes.byref(vao))
        self._gathered = {}


def _ranges(counts):
    """Index ranges ``(first, count)`` (Python ints) of consecutive blocks of ``counts`` indices."""
    firsts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return [(int(f), int(c)) for f, c in zip(firsts, counts, strict=True)]


def _airplane_buffer(part_meshes):
    """One buffer for all the airplane's parts; each vertex carries its part's index (``part``)."""
    merged = Mesh.merge(part_meshes)
    index = np.concatenate([np.full(m.vertex_count, k, np.float32) for k, m in enumerate(part_meshes)])
    return GeometryBuffer(dict(position=merged.positions, normal=merged.normals, color=merged.colors, part=index),
                          merged.indices)


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


class _AirplaneUniforms:
    """An airplane's ``model`` and ``parts`` uniforms as preallocated float32 arrays (filled in place)."""

    def __init__(self):
        self.model = np.zeros(16, np.float32)
        self.parts = np.zeros((shaders.MAX_PARTS, 16), np.float32)
        self._plane = np.eye(4)

    def fill(self, position, rotation, part_matrices, hidden, eye):
        """Body -> camera-relative earth (``model``) and each part's matrix, column-major; hidden parts
        shrink to a point."""
        plane = self._plane
        plane[:3, :3] = rotation
        np.subtract(position, eye, out=plane[:3, 3])
        self.model[:] = plane.T.ravel()
        parts = self.parts
        parts[:] = 0.0
        parts[:, 15] = 1.0                 # a zero matrix with w = 1: the part collapses to a point
        n = len(part_matrices)
        if n:
            parts[:n] = np.asarray(part_matrices, dtype=np.float64).transpose(0, 2, 1).reshape(n, 16)
        for k in hidden:
            parts[k] = 0.0
            parts[k, 15] = 1.0
        return self


class SceneRenderer:
    """Draws the world and the airplane.

    Parameters
    ----------
    model : flightsim.app.scene.airplane_model.AirplaneModel
    scenery : flightsim.app.scene.scenery.Scenery
        Its ``objects`` (lit meshes in earth coordinates) are lit once and
        put in one buffer, each mesh a cluster the view may skip.
    quality : flightsim.app.scene.quality.Quality, optional
        Default ``high``.  :meth:`set_quality` changes it later.
    terrain : flightsim.physics.terrain.Terrain, optional
        The world's terrain, drawn instead of the patchwork beyond home (None: today's flat ground).
    """

    def __init__(self, model, scenery, quality: Quality | None = None, terrain=None):
        self.model = model
        self.lighting = Lighting()
        self.quality = quality or LEVELS["high"]
        self.static = _program(shaders.STATIC_VERTEX, shaders.STATIC_FRAGMENT)
        self.runway = _program(shaders.RUNWAY_VERTEX, shaders.RUNWAY_FRAGMENT)
        self.shadow = _program(shaders.SHADOW_VERTEX, shaders.SHADOW_FRAGMENT)
        self.sky = _program(shaders.SKY_VERTEX, shaders.SKY_FRAGMENT)
        self.ground = _program(shaders.ground_vertex(False), shaders.ground_fragment(False))
        self.backdrop = _program(shaders.BACKDROP_VERTEX, shaders.BACKDROP_FRAGMENT)
        self._backdrop_buffer = StreamBuffer((("position", 2), ("color", 4)))
        self.hud_program = _program(shaders.HUD_VERTEX, shaders.HUD_FRAGMENT)
        self.hud_program["image"] = 0
        self._hud_screen = gl.glGetUniformLocation(self.hud_program.id, b"screen")
        self._hud_buffer = StreamBuffer((("position", 2),))
        self._hud_drawn = None                             # (generation, opaque vertices) of the quads in it
        self._variants = {}                                # (kind, flag) -> program, built when first needed
        self._frame = np.zeros(24, np.float32)             # the Frame block: view_proj, eye, tile
        self._passes = (None, None)                        # (HUD rectangles, scene_rects of them)
        self._terrain_lists = _ViewCache()                 # the terrain's chunks, the fields' blocks, as drawn
        self._field_lists = _ViewCache()
        self._frame_ubo = gl.GLuint()
        gl.glGenBuffers(1, ctypes.byref(self._frame_ubo))
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, self._frame_ubo)
        gl.glBufferData(gl.GL_UNIFORM_BUFFER, self._frame.nbytes, None, gl.GL_DYNAMIC_DRAW)
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, 0)
        self._frame_binding = self.static.uniform_blocks["Frame"].binding
        self._plane = _AirplaneUniforms()
        self._ghost = _AirplaneUniforms()

        self.runway_info = rw = scenery.runway
        self._runway_image = textures.runway_texture(width_ft=rw.width, length_ft=rw.length, numbers=rw.numbers)
        self.tex_runway = _make_texture(self._runway_image, repeat=False, anisotropy=self.quality.runway_anisotropy)
        self._build_scenery(scenery)
        self._build_ground()
        self.terrain = None
        self._surface = terrain                  # the physics' surface, for the shadow's ground
        if terrain is not None:
            self._build_terrain(terrain)
        self.airplane_buffer = None
        self.set_airplane(model)
        # The windsock swings with the wind: one mesh of its own, drawn with the airplane's program.
        self.windsock_mount = np.asarray(scenery.windsock_mount, dtype=np.float64)
        sock = windsock.windsock_mesh()
        self.windsock_buffer = GeometryBuffer(dict(position=sock.positions, normal=sock.normals, color=sock.colors,
                                                   part=np.zeros(sock.vertex_count, np.float32)), sock.indices)
        self._sock = _AirplaneUniforms()
        self._sock_shine = gl.glGetUniformLocation(self._airplane_program(True)[0].id, b"shine")
        self.sky_buffer = None
        self.set_quality(self.quality)

    # ------------------------------------------------------------------ building

    def set_airplane(self, model):
        """Draw ``model`` (an :class:`~flightsim.app.scene.airplane_model.AirplaneModel`) from now on (another
        aircraft)."""
        if len(model.parts) > shaders.MAX_PARTS:
            raise ValueError(f"the airplane has {len(model.parts)} parts; at most {shaders.MAX_PARTS} can be drawn")
        if self.airplane_buffer is not None:
            self.airplane_buffer.delete()
        self.model = model
        self.airplane_buffer = _airplane_buffer([p.mesh for p in model.parts])
        self.part_ranges = _ranges([p.mesh.indices.size for p in model.parts])
        self._part_shown = [True] * len(model.parts)

    def _build_scenery(self, scenery):
        """The lit landmarks (one cluster a mesh), their stand-ins from afar and the flat decals in one buffer;
        the runway quad apart."""
        L = self.lighting
        meshes = list(scenery.objects)
        far = list(getattr(scenery, "object_far", None) or [None] * len(meshes))
        stand_ins = [m for m in far if m is not None]
        d = scenery.decals
        flat = Mesh(d.positions, np.tile([0.0, 0.0, 1.0], (d.vertex_count, 1)), d.colors, d.indices)
        merged = Mesh.merge([*meshes, *stand_ins, flat])
        colors = L.lit_colors(merged.colors, merged.normals)
        self.scenery_buffer = GeometryBuffer(dict(position=merged.positions, color=colors), merged.indices)
        ranges = _ranges([m.indices.size for m in [*meshes, *stand_ins, flat]])
        self.object_ranges, self.decal_range = ranges[:len(meshes) + len(stand_ins)], ranges[-1]
        self._object_first, self._object_count = (np.array(r, dtype=np.int64).reshape(-1) for r in
                                                  zip(*self.object_ranges, strict=True))
        self.object_centers, self.object_radii = _bounds(meshes)
        sizes = getattr(scenery, "object_sizes", None) or [math.inf] * len(meshes)
        self.object_sizes = np.asarray(sizes, dtype=np.float64)
        self._has_far = np.array([m is not None for m in far], dtype=bool)
        quad_pos, quad_uv = scenery.runway_quad
        self.runway_buffer = GeometryBuffer(dict(position=quad_pos, uv=quad_uv), [0, 1, 2, 0, 2, 3])
        # the other airfields' asphalt runways: a texture (their numbers) and a rectangle each, culled by a sphere
        self.field_runways = []
        for fr in getattr(scenery, "field_runways", ()):
            rw = fr.runway
            image = textures.runway_texture(length_px=FIELD_RUNWAY_PX, width_ft=rw.width, length_ft=rw.length,
                                            numbers=rw.numbers)
            pos, uv = fr.quad
            self.field_runways.append((_make_texture(image, repeat=False, anisotropy=self.quality.runway_anisotropy),
                                       GeometryBuffer(dict(position=pos, uv=uv), [0, 1, 2, 0, 2, 3])))
        self.field_runway_centers = np.array([[*fr.runway.center, fr.elevation] for fr in scenery.field_runways]
                                             if getattr(scenery, "field_runways", None) else np.zeros((0, 3)))
        self.field_runway_radii = np.array([0.5 * math.hypot(fr.runway.length, fr.runway.width)
                                            for fr in getattr(scenery, "field_runways", ())])

    def _build_ground(self):
        """Skirt, far ring and the 3 x 3 near tiles in one buffer (2D positions relative to the camera tile)."""
        meshes2d = ground.build_ground(GROUND_EXTENT)
        self.ground_average = meshes2d.average
        parts = [meshes2d.skirt, meshes2d.far, *(m for m, _ in meshes2d.near)]
        offsets = np.cumsum([0] + [len(p[0]) for p in parts[:-1]])
        positions = np.concatenate([p[0] for p in parts])
        colors = np.concatenate([p[1] for p in parts])
        indices = np.concatenate([p[2] + o for p, o in zip(parts, offsets, strict=True)])
        self.ground_buffer = GeometryBuffer(dict(position=positions, color=colors), indices)
        ranges = _ranges([len(p[2]) for p in parts])
        self.ground_always = (ranges[0][0], ranges[0][1] + ranges[1][1])     # skirt and far ring
        # The near tiles' road blocks: index ranges of each block's fields and of its one-colour quad, and
        # of each tile's roads (see GroundMeshes.near), for the tiles in the order of meshes2d.near.
        per_block = meshes2d.block_fields
        n_fields, n_blocks = int(per_block.sum()), len(per_block)
        tile_first = np.array([first for first, _ in ranges[2:]])[:, None]
        self._block_fields = ((tile_first + 6 * np.concatenate([[0], np.cumsum(per_block)[:-1]])).ravel(),
                              np.tile(6 * per_block, len(tile_first)))
        self._block_quads = (tile_first + 6 * (n_fields + np.arange(n_blocks))).ravel()
        self._tile_roads = (tile_first[:, 0] + 6 * (n_fields + n_blocks), 6 * meshes2d.roads)
        step = ground.TILE_FT / ground.BLOCKS
        corner = np.array([[i * ground.TILE_FT + bi * step, j * ground.TILE_FT + bj * step]
                           for _, (i, j) in meshes2d.near
                           for bi in range(ground.BLOCKS) for bj in range(ground.BLOCKS)])
        self._block_centers = corner + 0.5 * step
        self._block_half = 0.5 * step

    def _build_terrain(self, terrain):
        """The terrain's mesh, lit once, in one buffer; its own copy of the static program (a thinner haze)."""
        self._home_fields = _HomeFields()
        home = self._home_fields
        (x_lo, y_lo), (x_hi, y_hi) = home.bounds
        mesh = terrain_view.build_terrain_mesh(terrain, covered=(home.covers, 0.0, (x_lo, x_hi, y_lo, y_hi)))
        colors = self.lighting.lit_colors(mesh.colors, mesh.normals)
        self.terrain = mesh
        self.terrain_buffer = GeometryBuffer(dict(position=mesh.positions, color=colors), mesh.indices)
        self.terrain_program = _program(shaders.STATIC_VERTEX, shaders.STATIC_FRAGMENT)

    def _draw_terrain(self, planes, eye, origin):
        """The terrain's chunks, each at the level of detail its distance asks for, the near ones in view only
        (:func:`~flightsim.app.scene.terrain_view.terrain_draw_ranges`), and the apron beyond the grid, in one
        draw (:meth:`GeometryBuffer.draw_gathered`); pushed a few depth steps back, and where home's fields are
        drawn over it (``origin``: the eye's tile, :class:`_HomeFields`) not under them.  The list is reused while
        the view hardly changes (:class:`_ViewCache`)."""
        mesh = self.terrain
        cache = self._terrain_lists
        covered = self._home_fields.all_drawn(origin)        # (then the terrain under home's fields is left out)
        if cache.valid(eye, planes, (self.quality, covered)):
            ranges = cache.value
        else:
            def seen(centers, radii):
                rel = centers - eye
                return spheres_visible(planes, rel, radii + cache.margin(np.sqrt((rel * rel).sum(axis=1))))

            ranges = cache.keep(eye, planes, terrain_view.terrain_draw_ranges(
                mesh, eye, seen, self.quality.terrain_detail_ft, self.quality.terrain_far_stride, covered),
                (self.quality, covered))
        self.terrain_program.use()
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(1.0, 5.0)
        apron_first, apron_count = mesh.apron
        self.terrain_buffer.draw_gathered(np.r_[ranges[:, 0], apron_first] if len(ranges) else [apron_first],
                                          np.r_[ranges[:, 1], apron_count] if len(ranges) else [apron_count])
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)

    def _sky_dome(self, n_az, n_el):
        """Unit directions from the horizon to the zenith, as triangles (drawn at the far plane).

        Below the horizon the ground covers the view; any gap left there at
        great heights shows the clear colour, which is the horizon haze.
        """
        az = np.linspace(0.0, 2 * np.pi, n_az, endpoint=False)
        el = np.radians(np.linspace(0.0, 90.0, n_el))
        dirs = np.stack([np.cos(el)[:, None] * np.cos(az)[None, :], np.cos(el)[:, None] * np.sin(az)[None, :],
                         np.broadcast_to(np.sin(el)[:, None], (len(el), n_az))], axis=-1).reshape(-1, 3)
        i = np.arange(len(el) - 1)[:, None]
        j = np.arange(n_az)[None, :]
        a, b = i * n_az + j, i * n_az + (j + 1) % n_az
        idx = np.stack([a, b, b + n_az, a, b + n_az, a + n_az], axis=-1).ravel()
        return GeometryBuffer(dict(position=dirs), idx)

    def _airplane_program(self, per_pixel):
        key = ("airplane", per_pixel)
        if key not in self._variants:
            prog = _program(shaders.airplane_vertex(per_pixel), shaders.airplane_fragment(per_pixel))
            self._set_lighting_uniforms(prog)
            prog["tint"] = (0.0, 0.0, 0.0, 0.0)
            prog["opacity"] = 1.0
            prog["shine"] = 0.35
            locations = tuple(gl.glGetUniformLocation(prog.id, name) for name in (b"model", b"parts", b"tint",
                                                                                  b"opacity"))
            self._variants[key] = (prog, locations)
        return self._variants[key]

    def _ground_program(self, grain):
        key = ("ground", grain)
        if key not in self._variants:
            prog = self.ground if not grain else _program(shaders.ground_vertex(True), shaders.ground_fragment(True))
            self._set_lighting_uniforms(prog)
            self._variants[key] = prog
        return self._variants[key]

    def set_quality(self, quality: Quality):
        """Draw with ``quality`` from the next frame on (programs are compiled when first needed)."""
        self.quality = quality
        self.airplane, self._airplane_locations = self._airplane_program(quality.airplane_per_pixel)
        self.ground_program = self._ground_program(quality.grass_grain)
        if self.sky_buffer is not None:
            self.sky_buffer.delete()
        self.sky_buffer = self._sky_dome(*quality.sky_segments)
        for tex in (self.tex_runway, *(t for t, _ in self.field_runways)):
            gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
            if pyglet.gl.gl_info.have_extension("GL_EXT_texture_filter_anisotropic"):
                gl.glTexParameterf(gl.GL_TEXTURE_2D, _GL_TEXTURE_MAX_ANISOTROPY, max(quality.runway_anisotropy, 1.0))
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
        for prog in (self.static, self.runway, self.shadow, self.sky, self.ground):
            self._set_lighting_uniforms(prog)
        if self.terrain is not None:
            self._set_lighting_uniforms(self.terrain_program)
            self.terrain_program["fog_distance"] = TERRAIN_FOG_FT
        self._backdrop_screen = gl.glGetUniformLocation(self.backdrop.id, b"screen")
        self.shadow_locations = tuple(gl.glGetUniformLocation(self.shadow.id, name)
                                      for name in (b"model", b"parts", b"strength", b"ground"))

    def _set_lighting_uniforms(self, prog):
        L = self.lighting
        # The compiler drops uniforms a program does not need.
        present = prog.uniforms
        for name, value in (("sun_dir", tuple(L.sun_dir)), ("sun_color", L.sun_color),
                            ("sky_ambient", L.sky_ambient), ("ground_ambient", L.ground_ambient),
                            ("fog_color", L.horizon_color), ("fog_distance", L.fog_distance),
                            ("zenith_color", L.zenith_color), ("horizon_color", L.horizon_color),
                            ("lit", L.level_light), ("average_color", tuple(float(c) for c in self.ground_average)),
                            ("image", 0)):
            if name in present:
                prog[name] = value

    # ------------------------------------------------------------------ drawing

    def draw(self, view, viewport, airplane_position, airplane_rotation, part_matrices,
             show_airplane=True, hidden=(), ghost=None, wind=(0.0, 0.0, 0.0), backdrops=None, hud=None):
        """Draw one frame of the 3D scene into the current framebuffer.

        Parameters
        ----------
        view : flightsim.app.scene.camera.View
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
            The wind at the windsock, earth frame, ft/s (:func:`flightsim.app.scene.windsock.sock_wind`).
        backdrops : (screen, shapes), optional
            Opaque shapes in front of the scene: ``screen`` the window size
            (the shapes' units, pixels from the top left), ``shapes`` a list
            of (convex polygon [(x, y), ...], (r, g, b) 0..255).
        hud : flightsim.app.hud.gui.HudImage, optional
            A cached HUD to copy: its opaque rectangles first (like the
            backdrops), the rest blended over the finished scene.
        """
        width, height = max(int(viewport[0]), 1), max(int(viewport[1]), 1)
        gl.glViewport(0, 0, width, height)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glDisable(gl.GL_BLEND)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glStencilMask(0xFF)
        gl.glClearStencil(0)
        gl.glClearColor(*self.lighting.horizon_color, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT | gl.GL_STENCIL_BUFFER_BIT)
        eye = np.asarray(view.eye, dtype=np.float64)
        view_proj = view.view_proj(width / height)
        ox, oy = ground.tile_origin(eye[0], eye[1])
        frame = self._frame
        frame[:16] = view_proj.T.ravel()
        frame[16:20] = eye[0], eye[1], eye[2], (0.14 if eye[2] < 500.0 else 0.0)
        frame[20:24] = ox - eye[0], oy - eye[1], ox, oy
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, self._frame_ubo)
        gl.glBufferSubData(gl.GL_UNIFORM_BUFFER, 0, frame.nbytes, frame.ctypes.data_as(ctypes.c_void_p))
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, 0)
        gl.glBindBufferBase(gl.GL_UNIFORM_BUFFER, self._frame_binding, self._frame_ubo)
        planes = frustum_planes(view_proj)

        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LESS)
        # 0. Opaque backdrops in front of everything.
        if hud is not None:                  # (first: the panels are in front of the cockpit frame)
            self._draw_hud(hud, opaque=True)
        if backdrops is not None and backdrops[1]:
            self.draw_backdrops(*backdrops)
        # 1. The airplane, nearest.
        plane = self._plane.fill(airplane_position, airplane_rotation, part_matrices, hidden, eye)
        if show_airplane:
            self._draw_airplane(plane, hidden)
        # 2. Landmarks and hills in view, as large as a pixel or two.
        focal_px = 0.5 * height / math.tan(math.radians(0.5 * view.fov_deg))
        self.static.use()
        self.scenery_buffer.bind()
        self._draw_landmarks(planes, eye, focal_px)
        sock = self.windsock_mount - eye
        if (spheres_visible(planes, sock[None, :], windsock.SOCK_LENGTH)[0]
                and windsock.SOCK_LENGTH * focal_px >= SOCK_MIN_PX * float(np.linalg.norm(sock))):
            self._draw_windsock(wind, eye)
        passes = self._scene_passes(hud, (width, height))
        if self.terrain is not None:
            # Home's fields first, their depth written a step behind z = 0 (the decals still win), then the
            # terrain two steps behind: where the fields lie on it they hide it, and it is not shaded there.
            for _ in self._scissored(passes):
                self.ground_program.use()
                gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
                gl.glPolygonOffset(1.0, 2.0)
                self._draw_near_ground(planes, eye, (ox, oy), home=True)
                gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
                self._draw_terrain(planes, eye, (ox, oy))
        # 3. Ground, decals, runway: on z = 0, tested against the above but not written.
        gl.glDepthMask(gl.GL_FALSE)
        if self.terrain is None:
            for _ in self._scissored(passes):
                self.ground_program.use()
                self.ground_buffer.bind()
                self.ground_always_draw()
                self._draw_near_ground(planes, eye, (ox, oy))
        self.static.use()
        self.scenery_buffer.bind()
        self.scenery_buffer.draw(*self.decal_range)
        self.runway.use()
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.tex_runway)
        self.runway_buffer.bind()
        self.runway_buffer.draw()
        if self.field_runways:
            shown = spheres_visible(planes, self.field_runway_centers - eye, self.field_runway_radii)
            for (tex, buffer), visible in zip(self.field_runways, shown, strict=True):
                if visible:
                    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
                    buffer.bind()
                    buffer.draw()
        # 4. The shadow on the ground.
        if show_airplane:
            self._draw_shadow(plane, airplane_position, eye)
        # 5. The sky where nothing else is (at the far plane).
        gl.glDepthFunc(gl.GL_LEQUAL)
        self.sky.use()
        self.sky_buffer.bind()
        for _ in self._scissored(passes):
            self.sky_buffer.draw()
        gl.glDepthFunc(gl.GL_LESS)
        gl.glDepthMask(gl.GL_TRUE)
        # 6. The translucent ghost.
        if ghost is not None and not (show_airplane and self._ghost_coincides(
                ghost, airplane_position, airplane_rotation, part_matrices, hidden)):
            self._draw_ghost(ghost, planes, eye)
        gl.glDisable(gl.GL_DEPTH_TEST)
        # 7. The cached HUD's see-through part.
        if hud is not None:
            self._draw_hud(hud, opaque=False)
        gl.glBindVertexArray(0)
        self.static.stop()

    def _scene_passes(self, hud, size):
        """The scissor rectangles the sky, the fields and the terrain are drawn in (:func:`scene_rects` of the
        cached HUD's opaque rectangles, kept while they stay), or None: one pass."""
        if hud is None or not hud.opaque:
            self._passes = (None, None)
            return None
        key = (tuple(size), hud.opaque, SCENE_RECT_PASSES, SCENE_RECT_WASTE_PX)
        if self._passes[0] != key:
            self._passes = (key, scene_rects(size, hud.opaque))
        return self._passes[1]

    @property
    def passes(self):
        """The scissor rectangles the last frame's sky, fields and terrain were drawn in (None: one pass)."""
        return self._passes[1]

    @staticmethod
    def _scissored(rects):
        """Iterate once per rectangle with the scissor test set to it (once, unscissored, for None)."""
        if not rects:
            yield None
            return
        gl.glEnable(gl.GL_SCISSOR_TEST)
        try:
            for rect in rects:
                gl.glScissor(*rect)
                yield rect
        finally:
            gl.glDisable(gl.GL_SCISSOR_TEST)

    def _draw_landmarks(self, planes, eye, focal_px):
        """The landmark clusters in view whose objects show at least :data:`MIN_FEATURE_PX` (``focal_px``: pixels
        per unit of size at unit distance), each by its stand-in where that is below :data:`FAR_FEATURE_PX`; back
        faces culled (the meshes are closed or seen from outside, wound counter-clockwise)."""
        rel = self.object_centers - eye
        shown = spheres_visible(planes, rel, self.object_radii)
        gap = np.maximum(np.sqrt((rel * rel).sum(axis=1)) - self.object_radii, 1.0)
        px = self.object_sizes * focal_px / gap
        shown &= px >= MIN_FEATURE_PX
        far = shown & self._has_far & (px < FAR_FEATURE_PX)
        drawn = np.concatenate([shown & ~far, far[self._has_far]])
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glCullFace(gl.GL_BACK)
        self.scenery_buffer.draw_gathered(self._object_first[drawn], self._object_count[drawn], "landmarks")
        gl.glDisable(gl.GL_CULL_FACE)

    def _draw_hud(self, hud, opaque):
        """Copy a :class:`~flightsim.app.hud.gui.HudImage`'s opaque rectangles (depth written at the near plane) or
        its overlay (premultiplied alpha over the scene) pixel for pixel."""
        if self._hud_drawn is None or self._hud_drawn[0] != hud.generation:
            self._hud_buffer.upload(rect_triangles(hud.opaque + hud.overlay))
            self._hud_drawn = (hud.generation, 6 * len(hud.opaque))
        first, count = (0, self._hud_drawn[1]) if opaque else (self._hud_drawn[1], None)
        if count == 0 or first >= self._hud_buffer.count:
            return
        self.hud_program.use()
        gl.glUniform2f(self._hud_screen, float(hud.size[0]), float(hud.size[1]))
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, hud.texture)
        if not opaque:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA)
        self._hud_buffer.draw(first, count)
        if not opaque:
            gl.glDisable(gl.GL_BLEND)

    def ground_always_draw(self):
        """The skirt and the far ring of the flat ground (the ground buffer and program in use)."""
        self.ground_buffer.draw(*self.ground_always)

    def _draw_near_ground(self, planes, eye, origin, home=False):
        """The 3 x 3 near tiles' road blocks in view: each block's fields within the quality's
        ``ground_detail_ft`` of the eye, one quad of its mean colour beyond; then the roads.

        ``eye`` the camera's earth position and ``origin`` its tile's (x, y), ft; ``home`` (with the terrain):
        only the blocks within :data:`HOME_FIELDS_FT` of the origin.  One draw
        (:meth:`GeometryBuffer.draw_gathered`; with ``home``, the fields and then the roads); the lists are reused
        while the view hardly changes (:class:`_ViewCache`).
        """
        cache = self._field_lists
        key = (float(origin[0]), float(origin[1]), bool(home), self.quality)
        if not cache.valid(eye, planes, key):
            cache.keep(eye, planes, self._field_lists_for(planes, eye, origin, home), key)
        (first, count), (road_first, road_count) = cache.value
        buffer = self.ground_buffer
        if home:
            # (depth written: the roads one step nearer than the fields they cross, drawn after them)
            buffer.draw_gathered(first, count, "fields")
            gl.glPolygonOffset(1.0, 1.0)
            buffer.draw_gathered(road_first, road_count, "roads")
            return
        buffer.draw_gathered(np.concatenate([first, road_first]), np.concatenate([count, road_count]), "near")

    def _field_lists_for(self, planes, eye, origin, home):
        """The index ranges ``((first, count), (road_first, road_count))`` :meth:`_draw_near_ground` draws."""
        rel = self._block_centers + (origin[0] - eye[0], origin[1] - eye[1])
        height = float(eye[2])
        centers = np.empty((len(rel), 3))
        centers[:, :2] = rel
        centers[:, 2] = -height
        half = self._block_half
        widened = half * math.sqrt(2.0) + _ViewCache.margin(np.sqrt((centers * centers).sum(axis=1)))
        visible = spheres_visible(planes, centers, widened)
        if home:
            earth = rel + eye[:2]
            visible &= (earth * earth).sum(axis=1) < HOME_FIELDS_FT * HOME_FIELDS_FT
        gap = np.maximum(np.abs(rel) - half, 0.0)
        detail = self.quality.ground_detail_ft
        near = (gap * gap).sum(axis=1) + height * height < detail * detail
        field_first, field_count = self._block_fields
        first = np.where(near, field_first, self._block_quads)[visible]
        count = np.where(near, field_count, 6)[visible]
        roads = visible.reshape(len(self._tile_roads[0]), -1).any(axis=1)
        road_first, road_count = self._tile_roads[0][roads], np.full(int(roads.sum()), self._tile_roads[1])
        return (first, count), (road_first, road_count)

    def _draw_windsock(self, wind, eye):
        """The windsock at its mount, swung by ``wind``: lit per pixel at every quality (it is a few pixels,
        and its colour must read as the orange of a windsock in the shade too), no highlight."""
        m = windsock.windsock_matrix(self.windsock_mount, wind)
        sock = self._sock.fill(m[:3, 3], m[:3, :3], (np.eye(4),), (), eye)
        prog, (loc_model, loc_parts, _, _) = self._airplane_program(True)
        prog.use()
        shine = self._sock_shine
        gl.glUniform1f(shine, 0.0)
        gl.glUniformMatrix4fv(loc_model, 1, gl.GL_FALSE, sock.model.ctypes.data_as(ctypes.POINTER(gl.GLfloat)))
        gl.glUniformMatrix4fv(loc_parts, shaders.MAX_PARTS, gl.GL_FALSE,
                              sock.parts.ctypes.data_as(ctypes.POINTER(gl.GLfloat)))
        self.windsock_buffer.bind()
        self.windsock_buffer.draw()
        gl.glUniform1f(shine, 0.35)

    def draw_backdrops(self, screen, shapes):
        """Opaque shapes at depth 0 (fans of convex polygons) into the current framebuffer.

        ``screen`` is the window size (the shapes' units: pixels from the top
        left); ``shapes`` a list of (convex polygon [(x, y), ...], (r, g, b) 0..255).
        """
        points = []
        colors = []
        for polygon, rgb in shapes:
            for k in range(1, len(polygon) - 1):
                points += (polygon[0], polygon[k], polygon[k + 1])
            colors += [rgb] * (3 * (len(polygon) - 2))
        n = len(points)
        if n == 0:
            return
        data = np.empty((n, 6), np.float32)
        data[:, :2] = points
        data[:, 2:5] = np.asarray(colors, np.float32) / 255.0
        data[:, 5] = 1.0
        self._backdrop_buffer.upload(data)
        self.backdrop.use()
        gl.glUniform2f(self._backdrop_screen, float(max(screen[0], 1)), float(max(screen[1], 1)))
        self._backdrop_buffer.draw()

    def _draw_airplane(self, uniforms, hidden=(), tint=None, opacity=1.0):
        prog = self.airplane
        loc_model, loc_parts, loc_tint, loc_opacity = self._airplane_locations
        prog.use()
        gl.glUniformMatrix4fv(loc_model, 1, gl.GL_FALSE, uniforms.model.ctypes.data_as(ctypes.POINTER(gl.GLfloat)))
        gl.glUniformMatrix4fv(loc_parts, shaders.MAX_PARTS, gl.GL_FALSE,
                              uniforms.parts.ctypes.data_as(ctypes.POINTER(gl.GLfloat)))
        if tint is not None:
            gl.glUniform4f(loc_tint, *tint)
            gl.glUniform1f(loc_opacity, opacity)
        gl.glEnable(gl.GL_CULL_FACE)          # closed, outward-facing meshes; the cockpit sees no insides
        gl.glCullFace(gl.GL_BACK)
        self.airplane_buffer.bind()
        if hidden:                            # skip the hidden parts' vertices altogether
            shown = self._part_shown
            shown[:] = [True] * len(shown)
            for k in hidden:
                shown[k] = False
            self.airplane_buffer.draw_ranges(self.part_ranges, shown)
        else:
            self.airplane_buffer.draw()
        gl.glDisable(gl.GL_CULL_FACE)
        if tint is not None:
            gl.glUniform4f(loc_tint, 0.0, 0.0, 0.0, 0.0)
            gl.glUniform1f(loc_opacity, 1.0)

    def _ghost_coincides(self, ghost, position, rotation, part_matrices, hidden):
        """The ghost is where the airplane is, to within :data:`GHOST_SAME_FT` at any vertex."""
        if ghost.part_matrices is not part_matrices or set(ghost.hidden) != set(hidden):
            return False
        reach = self.model.radius
        offset = np.linalg.norm(np.asarray(ghost.position, dtype=np.float64) - np.asarray(position, dtype=np.float64))
        turn = np.abs(np.asarray(ghost.rotation, dtype=np.float64) - rotation).max()
        return bool(offset + 3.0 * reach * turn < GHOST_SAME_FT)

    def _draw_ghost(self, ghost, planes, eye):
        """The ghost: the airplane's mesh and program, tinted and blended, tested against depth but not
        writing it (after everything opaque, so it never hides what is behind it)."""
        position = np.asarray(ghost.position, dtype=np.float64)
        if not spheres_visible(planes, position - eye, self.model.radius)[0]:
            return
        uniforms = self._ghost.fill(position, ghost.rotation, ghost.part_matrices, ghost.hidden, eye)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthFunc(gl.GL_LESS)           # where it coincides with the airplane, the airplane wins
        gl.glDepthMask(gl.GL_FALSE)
        self._draw_airplane(uniforms, ghost.hidden, GHOST_TINT, GHOST_OPACITY)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def _draw_shadow(self, uniforms, position, eye):
        """The airplane flattened along the sun's rays onto the plane of the ground under it (the world's
        terrain's triangle there, or z = 0), fading out by 600 ft above it."""
        x, y, z = (float(v) for v in position[:3])
        h, dx, dy = 0.0, 0.0, 0.0
        if self._surface is not None:
            h, dx, dy = (float(v) for v in surface(self._surface, x, y))
        strength = 0.5 * (1.0 - min(max(z - h, 0.0) / 600.0, 1.0))
        if strength <= 0.01:
            return
        n = np.array([-dx, -dy, 1.0]) / math.sqrt(dx * dx + dy * dy + 1.0)
        plane = (*n, -float(n @ (np.array([x, y, h]) - eye)))
        loc_model, loc_parts, loc_strength, loc_ground = self.shadow_locations
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilFunc(gl.GL_EQUAL, 0, 0xFF)
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_INCR)
        self.shadow.use()
        gl.glUniformMatrix4fv(loc_model, 1, gl.GL_FALSE, uniforms.model.ctypes.data_as(ctypes.POINTER(gl.GLfloat)))
        gl.glUniformMatrix4fv(loc_parts, shaders.MAX_PARTS, gl.GL_FALSE,
                              uniforms.parts.ctypes.data_as(ctypes.POINTER(gl.GLfloat)))
        gl.glUniform1f(loc_strength, strength)
        gl.glUniform4f(loc_ground, *plane)
        self.airplane_buffer.bind()
        self.airplane_buffer.draw()
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glDisable(gl.GL_BLEND)


SCENE_RECT_WASTE_PX = 40000
""":func:`scene_rects` covers a hidden stretch between two visible ones (or below a band it joins) rather than
drawing another pass, up to this many pixels: a pass costs Mesa about what rejecting that many fragments of the
sky, the fields and the terrain does."""

SCENE_RECT_PASSES = 3
"""At most this many passes (:func:`scene_rects`); a screen that needs more is drawn in one."""


def scene_rects(size, opaque):
    """Few scissor rectangles covering every pixel of a ``size`` (w, h) window not under the ``opaque`` HUD
    rectangles (``(x0, y0, x1, y1)``, pixels from the top left): ``[(x, y, w, h), ...]`` in OpenGL's window
    coordinates (y from the bottom), or None where one pass over the whole window is as good.

    The sky, home's fields and the terrain are drawn once in each: Mesa's software rasteriser otherwise
    rasterises them behind the side panels too, only to reject every fragment there by depth (a quarter of the
    frame's fragments).  Horizontal bands between the rectangles' edges; in each, the stretches not under a
    rectangle, neighbours joined across a hidden gap of up to :data:`SCENE_RECT_WASTE_PX` pixels; then bands
    with one stretch each joined downwards while that wastes no more.
    """
    width, height = int(size[0]), int(size[1])
    boxes = [(max(0, int(x0)), max(0, int(y0)), min(width, int(math.ceil(x1))), min(height, int(math.ceil(y1))))
             for x0, y0, x1, y1 in opaque]
    boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    if not boxes:
        return None
    edges = sorted({0, height, *(b[1] for b in boxes), *(b[3] for b in boxes)})
    bands = []                                   # (y0, y1, [(x0, x1), ...])
    for y0, y1 in zip(edges[:-1], edges[1:], strict=True):
        covered = sorted((b[0], b[2]) for b in boxes if b[1] <= y0 and b[3] >= y1)
        free, x = [], 0
        for a, b in covered:
            if a > x:
                free.append([x, a])
            x = max(x, b)
        if x < width:
            free.append([x, width])
        joined = []
        for run in free:
            if joined and (run[0] - joined[-1][1]) * (y1 - y0) <= SCENE_RECT_WASTE_PX:
                joined[-1][1] = run[1]
            else:
                joined.append(run)
        if joined:
            bands.append([y0, y1, joined])
    rects = []
    for y0, y1, runs in bands:
        last = rects[-1] if rects else None
        if (len(runs) == 1 and last is not None and last[3] == y0 and last[4] == 1):
            x0, x1 = min(last[0], runs[0][0]), max(last[1], runs[0][1])
            waste = (x1 - x0 - (last[1] - last[0])) * (last[3] - last[2]) + (x1 - x0 - (runs[0][1] - runs[0][0])) * (
                y1 - y0)
            if waste <= SCENE_RECT_WASTE_PX:
                rects[-1] = [x0, x1, last[2], y1, 1]
                continue
        for x0, x1 in runs:
            rects.append([x0, x1, y0, y1, len(runs)])
    if len(rects) > SCENE_RECT_PASSES:
        return None
    return [(x0, height - y1, x1 - x0, y1 - y0) for x0, x1, y0, y1, _ in rects]


class _HomeFields:
    """Home's road blocks (the patchwork's, fixed to the earth: :mod:`flightsim.app.scene.ground`) whose centres lie
    within :data:`HOME_FIELDS_FT` of the origin: drawn over the terrain when the eye's 3 x 3 near tiles hold them
    all, so the terrain's cells under them need not be drawn then (:func:`terrain_view.build_terrain_mesh`'s
    ``covered``)."""

    def __init__(self):
        self.step = ground.TILE_FT / ground.BLOCKS
        self.origin = np.asarray(ground.TILE_OFFSET, dtype=np.float64)
        reach = int(math.ceil(HOME_FIELDS_FT / self.step)) + 2
        k = np.arange(-reach, reach + 1)
        self.first = (k[0], k[0])                       # block index of grid[0, 0]
        cx = self.origin[0] + (k + 0.5) * self.step
        cy = self.origin[1] + (k + 0.5) * self.step
        grid = cx[:, None] ** 2 + cy[None, :] ** 2 < HOME_FIELDS_FT * HOME_FIELDS_FT
        self.grid = grid
        self._sums = np.pad(grid.astype(np.int64).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
        i, j = np.nonzero(grid)
        lo = self.origin + (np.array([i.min(), j.min()]) + self.first) * self.step
        hi = self.origin + (np.array([i.max(), j.max()]) + 1 + self.first) * self.step
        self.bounds = (lo, hi)                          # earth (x, y) corners of the blocks' box, ft

    def covers(self, x0, x1, y0, y1):
        """Whether each box (arrays, ft) lies wholly on home's blocks."""
        def index(v, axis):
            return np.floor((np.asarray(v) - self.origin[axis]) / self.step).astype(np.int64) - self.first[axis]

        i0, i1, j0, j1 = index(x0, 0), index(x1, 0), index(y0, 1), index(y1, 1)
        n, m = self.grid.shape
        inside = (i0 >= 0) & (j0 >= 0) & (i1 < n) & (j1 < m)
        i0, i1, j0, j1 = (np.clip(a, 0, lim - 1) for a, lim in ((i0, n), (i1, n), (j0, m), (j1, m)))
        S = self._sums
        count = S[i1 + 1, j1 + 1] - S[i0, j1 + 1] - S[i1 + 1, j0] + S[i0, j0]
        return inside & (count == (i1 - i0 + 1) * (j1 - j0 + 1))

    def all_drawn(self, origin):
        """Whether the 3 x 3 near tiles around the tile at earth ``origin`` (x, y) hold every home block."""
        lo, hi = self.bounds
        t = ground.TILE_FT
        return bool(np.all(lo >= np.asarray(origin) - t) and np.all(hi <= np.asarray(origin) + 2.0 * t))


class _ViewCache:
    """A draw list computed for an eye and a frustum, reused while the eye moves less than :data:`VIEW_REUSE_FT`
    and no frustum plane turns by more than :data:`VIEW_REUSE_DEG` (and ``key`` is the same).

    Choosing the terrain's chunks or the fields' blocks costs a few tenths of a millisecond of numpy a frame;
    levels of detail that change 200 ft late are not seen, and the culling is made safe for the turn by
    widening the spheres by :meth:`margin` (a sphere ``D`` ft away moves ``D`` times the angle).
    """

    _COS = math.cos(math.radians(VIEW_REUSE_DEG))

    def __init__(self):
        self._eye = None
        self._normals = None
        self._key = None
        self.value = None

    @staticmethod
    def margin(distance):
        """How far (ft) a sphere ``distance`` ft away may move across the view while the list is reused."""
        return VIEW_REUSE_FT + math.radians(VIEW_REUSE_DEG) * np.asarray(distance)

    def valid(self, eye, planes, key=None) -> bool:
        """Whether the list kept is still good for this eye, frustum and key."""
        if self._eye is None or key != self._key:
            return False
        if np.abs(np.asarray(eye) - self._eye).max() > VIEW_REUSE_FT:
            return False
        return bool(((planes[:, :3] * self._normals).sum(axis=1) >= self._COS).all())

    def keep(self, eye, planes, value, key=None):
        """Keep ``value`` for this eye, frustum and key; return it."""
        self._eye = np.array(eye, dtype=np.float64)
        self._normals = planes[:, :3].copy()
        self._key = key
        self.value = value
        return value


def _bounds(mesh_list):
    """Bounding-sphere centres (n, 3) and radii (n,) of meshes."""
    centers, radii = [], []
    for m in mesh_list:
        lo, hi = m.positions.min(axis=0).astype(np.float64), m.positions.max(axis=0).astype(np.float64)
        centers.append(0.5 * (lo + hi))
        radii.append(0.5 * float(np.linalg.norm(hi - lo)))
    return np.array(centers), np.array(radii)


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

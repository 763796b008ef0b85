"""GLSL 3.30 core sources of the scene's shader programs.

All world positions reaching the GPU are relative to the camera (the CPU
subtracts the camera's float64 position first, or the shader subtracts the
eye from positions that are themselves float32 earth coordinates near the
airfield), so float32 keeps sub-millimetre precision near the eye however far
the airplane flies.

Every program reads the per-frame values from one uniform block, ``Frame``
(:data:`FRAME_BLOCK`), uploaded once a frame; the lighting constants are
set once at start-up.  Attribute locations are fixed (:data:`LOCATIONS`), so
one vertex array serves every program that draws a mesh.

The static scenery's lighting is baked into its vertex colours at start-up
(the sun does not move), and its fog is computed per vertex, so its fragment
shader only writes a colour: on a software rasteriser the fragments are what
costs.  The airplane is lit per fragment (``high`` quality, with a specular
highlight) or per vertex (:func:`airplane_vertex` / :func:`airplane_fragment`).
"""

__all__ = ["BACKDROP_FRAGMENT", "BACKDROP_VERTEX", "COMMON", "HUD_FRAGMENT", "HUD_VERTEX", "LIT_FRAGMENT",
           "LIT_VERTEX", "FRAME_BLOCK", "LOCATIONS", "MAX_PARTS", "airplane_fragment", "airplane_vertex",
           "ground_fragment", "ground_vertex", "RUNWAY_FRAGMENT", "RUNWAY_VERTEX", "SHADOW_FRAGMENT",
           "SHADOW_VERTEX", "SKY_FRAGMENT", "SKY_VERTEX", "STATIC_FRAGMENT", "STATIC_VERTEX"]

LOCATIONS = {"position": 0, "normal": 1, "color": 2, "part": 3, "uv": 4}
"""Vertex attribute locations shared by all programs."""

MAX_PARTS = 16
"""Parts an airplane may have (one draw call moves them all, each by its own matrix)."""

FRAME_BLOCK = """
layout(std140) uniform Frame {
    mat4 view_proj;            // camera-relative earth frame -> clip
    vec4 eye;                  // camera position, earth frame, ft (float32: for scenery near the field); w: grain
    vec4 tile;                 // ground: camera tile's origin relative to the camera (xy), and in the earth (zw)
};
"""

COMMON = """
uniform vec3 sun_dir;          // unit vector towards the sun, earth frame
uniform vec3 sun_color;
uniform vec3 sky_ambient;
uniform vec3 ground_ambient;
uniform vec3 fog_color;
uniform float fog_distance;    // ft at which the fog reaches 1 - 1/e

vec3 light(vec3 base, vec3 n, vec3 to_eye, float shine) {
    float diffuse = max(dot(n, sun_dir), 0.0);
    vec3 ambient = mix(ground_ambient, sky_ambient, 0.5 + 0.5 * n.z);
    vec3 h = normalize(to_eye + sun_dir);
    float spec = shine * pow(max(dot(n, h), 0.0), 48.0);
    return base * (ambient + sun_color * diffuse) + sun_color * spec;
}

float fog_amount(float dist) {
    return clamp(1.0 - exp(-(dist * dist) / (fog_distance * fog_distance)), 0.0, 1.0);
}

vec3 fog(vec3 color, float dist) {
    return mix(color, fog_color, fog_amount(dist));
}
"""


def _source(version_body, defines=()):
    """``#version 330 core``, the defines, then the body."""
    return "#version 330 core\n" + "".join(f"#define {d} 1\n" for d in defines) + version_body


STATIC_VERTEX = _source(FRAME_BLOCK + COMMON + """
layout(location = 0) in vec3 position;     // earth frame, ft
layout(location = 2) in vec4 color;        // lit colour (baked at start-up)
out vec3 v_color;
void main() {
    vec3 rel = position - eye.xyz;
    v_color = fog(color.rgb, length(rel));
    gl_Position = view_proj * vec4(rel, 1.0);
}
""")

STATIC_FRAGMENT = _source("""
in vec3 v_color;
out vec4 frag_color;
void main() {
    frag_color = vec4(v_color, 1.0);
}
""")

RUNWAY_VERTEX = _source(FRAME_BLOCK + COMMON + """
layout(location = 0) in vec3 position;
layout(location = 4) in vec2 uv;
uniform vec3 lit;              // light on a level surface
out vec2 v_uv;
out vec3 v_lit;
out float v_fog;
void main() {
    vec3 rel = position - eye.xyz;
    v_uv = uv;
    v_fog = fog_amount(length(rel));
    v_lit = lit * (1.0 - v_fog);
    gl_Position = view_proj * vec4(rel, 1.0);
}
""")

RUNWAY_FRAGMENT = _source("""
in vec2 v_uv;
in vec3 v_lit;
in float v_fog;
uniform sampler2D image;
uniform vec3 fog_color;
out vec4 frag_color;
void main() {
    frag_color = vec4(texture(image, v_uv).rgb * v_lit + fog_color * v_fog, 1.0);
}
""")

_AIRPLANE_VERTEX = FRAME_BLOCK + COMMON + """
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 color;
layout(location = 3) in float part;        // index into parts[]
uniform mat4 parts[16];        // part -> body (control surfaces deflected, propeller turned)
uniform mat4 model;            // body -> camera-relative earth frame
uniform float shine;
uniform vec4 tint;             // rgb, and a: how much of it replaces the vertex colour (the ghost)
uniform float opacity;         // alpha multiplier: 1 opaque, less for the translucent ghost
#ifdef PER_PIXEL
out vec3 v_rel;
out vec3 v_normal;
out vec4 v_color;
#else
out vec4 v_color;
#endif
void main() {
    mat4 m = model * parts[int(part + 0.5)];
    vec4 rel = m * vec4(position, 1.0);
    vec3 n = mat3(m) * normal;
    vec4 base = vec4(mix(color.rgb, tint.rgb, tint.a), color.a * opacity);
#ifdef PER_PIXEL
    v_rel = rel.xyz;
    v_normal = n;
    v_color = base;
#else
    vec3 to_eye = normalize(-rel.xyz);
    n = normalize(n);
    if (dot(n, to_eye) < 0.0) n = -n;
    v_color = vec4(fog(light(base.rgb, n, to_eye, shine), length(rel.xyz)), base.a);
#endif
    gl_Position = view_proj * rel;
}
"""

_AIRPLANE_FRAGMENT = """
out vec4 frag_color;
#ifdef PER_PIXEL
in vec3 v_rel;
in vec3 v_normal;
in vec4 v_color;
uniform float shine;
""" + COMMON + """
void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 to_eye = normalize(-v_rel);
    frag_color = vec4(fog(light(v_color.rgb, n, to_eye, shine), length(v_rel)), v_color.a);
}
#else
in vec4 v_color;
void main() {
    frag_color = v_color;
}
#endif
"""


def airplane_vertex(per_pixel: bool) -> str:
    """The airplane's vertex shader: lit per fragment (``per_pixel``) or here, per vertex."""
    return _source(_AIRPLANE_VERTEX, ["PER_PIXEL"] if per_pixel else [])


def airplane_fragment(per_pixel: bool) -> str:
    """The airplane's fragment shader (see :func:`airplane_vertex`)."""
    return _source(_AIRPLANE_FRAGMENT, ["PER_PIXEL"] if per_pixel else [])


_GROUND_VERTEX = FRAME_BLOCK + """
layout(location = 0) in vec2 position;     // ft, relative to the camera tile's origin
layout(location = 2) in vec4 color;
uniform vec3 lit;              // light on a level surface: ambient + sun * sun_dir.z
uniform vec3 average_color;
uniform vec3 fog_color;
uniform float fog_distance;
out vec3 v_color;
#ifdef GRAIN
out vec3 v_rel;
out vec2 v_world;
#endif
void main() {
    vec3 rel = vec3(position + tile.xy, -eye.z);
    float d = length(rel);
    vec3 c = mix(color.rgb, average_color, smoothstep(25000.0, 62000.0, length(rel.xy)));
    float f = 1.0 - exp(-(d * d) / (fog_distance * fog_distance));
    v_color = mix(c * lit, fog_color, clamp(f, 0.0, 1.0));
#ifdef GRAIN
    v_rel = rel;
    v_world = position + tile.zw;
#endif
    gl_Position = view_proj * vec4(rel, 1.0);
}
"""


def ground_vertex(grain: bool) -> str:
    """The ground's vertex shader; the grain needs the position (relative and on the earth) per fragment."""
    return _source(_GROUND_VERTEX, ["GRAIN"] if grain else [])


_GROUND_FRAGMENT = FRAME_BLOCK + """
in vec3 v_color;
#ifdef GRAIN
in vec3 v_rel;
in vec2 v_world;
#endif
out vec4 frag_color;
void main() {
    vec3 c = v_color;
#ifdef GRAIN
    float grain = eye.w;       // strength of the close-up grass grain (0 when high up)
    if (grain > 0.0) {
        float near = 1.0 - smoothstep(120.0, 700.0, length(v_rel));
        if (near > 0.0) {
            vec2 p = fract(floor(v_world / 3.0) * vec2(0.1031, 0.1030));
            p += dot(p, p.yx + 33.33);
            c *= 1.0 + grain * near * (fract((p.x + p.y) * p.x) - 0.5);
        }
    }
#endif
    frag_color = vec4(c, 1.0);
}
"""


def ground_fragment(grain: bool) -> str:
    """The ground's fragment shader, with the close-up grass grain or without."""
    return _source(_GROUND_FRAGMENT, ["GRAIN"] if grain else [])


SHADOW_VERTEX = _source(FRAME_BLOCK + """
layout(location = 0) in vec3 position;
layout(location = 3) in float part;
uniform mat4 parts[16];
uniform mat4 model;            // body -> camera-relative earth frame
uniform vec3 sun_dir;
uniform vec4 ground;           // the ground's plane under the airplane: unit normal n (up), and w with
                               // n . rel + w = 0 on it (camera-relative, ft); flat ground: (0, 0, 1, eye.z)
void main() {
    vec3 rel = (model * parts[int(part + 0.5)] * vec4(position, 1.0)).xyz;
    float height = dot(ground.xyz, rel) + ground.w - 0.3;              // above it (0.3 ft: drawn on top)
    rel -= sun_dir * (height / max(dot(ground.xyz, sun_dir), 0.2));   // slide along the sun's rays onto it
    gl_Position = view_proj * vec4(rel, 1.0);
}
""")

SHADOW_FRAGMENT = _source("""
uniform float strength;
out vec4 frag_color;
void main() {
    frag_color = vec4(0.05, 0.07, 0.04, strength);
}
""")

SKY_VERTEX = _source(FRAME_BLOCK + """
layout(location = 0) in vec3 position;     // unit direction, earth frame (a dome around the eye)
uniform vec3 zenith_color;
uniform vec3 horizon_color;
uniform vec3 fog_color;
uniform vec3 sun_dir;
out vec3 v_color;
void main() {
    float e = position.z;
    vec3 c = e >= 0.0 ? mix(horizon_color, zenith_color, pow(clamp(e, 0.0, 1.0), 0.45))
                      : mix(fog_color, fog_color * 0.92, clamp(-e * 4.0, 0.0, 1.0));
    float s = max(dot(position, sun_dir), 0.0);
    c += vec3(1.0, 0.9, 0.7) * (0.3 * pow(s, 16.0) + 0.25 * pow(s, 120.0));
    v_color = c;
    gl_Position = (view_proj * vec4(position * 1000.0, 1.0)).xyww;     // at the far plane
}
""")


# A general lit mesh with its own model and view_proj uniforms (no Frame block), lit per fragment: for
# other scenes that reuse the lighting (flightsim.app.scene.spin_scene).
LIT_VERTEX = """
#version 330 core
in vec3 position;
in vec3 normal;
in vec4 color;
uniform mat4 model;        // object -> camera-relative earth frame
uniform mat4 view_proj;    // camera-relative earth frame -> clip
out vec3 v_rel;
out vec3 v_normal;
out vec4 v_color;
void main() {
    vec4 rel = model * vec4(position, 1.0);
    v_rel = rel.xyz;
    v_normal = mat3(model) * normal;
    v_color = color;
    gl_Position = view_proj * rel;
}
"""

LIT_FRAGMENT = """
#version 330 core
in vec3 v_rel;
in vec3 v_normal;
in vec4 v_color;
uniform float shine;
uniform vec4 tint;             // rgb, and a: how much of it replaces the vertex colour (the ghost)
uniform float opacity;         // alpha multiplier: 1 opaque, less for the translucent ghost
out vec4 frag_color;
""" + COMMON + """
void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 to_eye = normalize(-v_rel);
    vec3 c = light(mix(v_color.rgb, tint.rgb, tint.a), n, to_eye, shine);
    frag_color = vec4(fog(c, length(v_rel)), v_color.a * opacity);
}
"""


SKY_FRAGMENT = STATIC_FRAGMENT

BACKDROP_VERTEX = _source("""
layout(location = 0) in vec2 position;     // pixels from the top left of the window
layout(location = 2) in vec4 color;
uniform vec2 screen;                       // window size, pixels
out vec3 v_color;
void main() {
    v_color = color.rgb;
    gl_Position = vec4(position.x / screen.x * 2.0 - 1.0, 1.0 - position.y / screen.y * 2.0, -1.0, 1.0);
}
""")
"""Opaque screen-space shapes in front of everything (depth 0): the panels' backdrops, the cockpit frame."""

BACKDROP_FRAGMENT = STATIC_FRAGMENT

HUD_VERTEX = _source("""
layout(location = 0) in vec2 position;     // framebuffer pixels from the top left
uniform vec2 screen;                       // framebuffer size, pixels
out vec2 v_uv;
void main() {
    v_uv = vec2(position.x / screen.x, 1.0 - position.y / screen.y);
    gl_Position = vec4(v_uv * 2.0 - 1.0, -1.0, 1.0);
}
""")
"""A cached HUD image's rectangles (:class:`flightsim.app.hud.gui.HudImage`), at depth 0."""

HUD_FRAGMENT = _source("""
in vec2 v_uv;
uniform sampler2D image;                   // the HUD, the framebuffer's size, sampled nearest: pixel for pixel
out vec4 frag_color;
void main() {
    frag_color = texture(image, v_uv);     // (llvmpipe samples this faster than a texelFetch at gl_FragCoord)
}
""")


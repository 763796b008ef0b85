"""GLSL 3.30 core sources of the scene's shader programs.

All world positions reaching the GPU are relative to the camera (the CPU
subtracts the camera's float64 position first), so float32 keeps
sub-millimetre precision however far the airplane flies.  Shared pieces
(lighting and aerial-perspective fog) are spliced into each fragment shader
from :data:`COMMON`.
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

vec3 fog(vec3 color, float dist) {
    float f = 1.0 - exp(-(dist * dist) / (fog_distance * fog_distance));
    return mix(color, fog_color, clamp(f, 0.0, 1.0));
}
"""

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

MAX_PARTS = 16
"""Parts an airplane may have (one draw call moves them all, each by its own matrix)."""

AIRPLANE_VERTEX = """
#version 330 core
in vec3 position;
in vec3 normal;
in vec4 color;
in float part;                 // index into parts[]
uniform mat4 parts[16];        // part -> body (control surfaces deflected, propeller turned)
uniform mat4 model;            // body -> camera-relative earth frame
uniform mat4 view_proj;
out vec3 v_rel;
out vec3 v_normal;
out vec4 v_color;
void main() {
    mat4 m = model * parts[int(part + 0.5)];
    vec4 rel = m * vec4(position, 1.0);
    v_rel = rel.xyz;
    v_normal = mat3(m) * normal;
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

GROUND_VERTEX = """
#version 330 core
in vec2 position;              // ft, relative to the camera tile's origin
in vec4 color;
uniform vec2 offset;           // camera tile's origin relative to the camera, ft
uniform vec2 tile_origin;      // camera tile's origin, earth frame, ft
uniform float camera_z;
uniform mat4 view_proj;
uniform vec3 lit;              // light on a level surface: ambient + sun * sun_dir.z
uniform vec3 average_color;
uniform vec3 fog_color;
uniform float fog_distance;
out vec3 v_color;
out vec3 v_rel;
out vec2 v_world;
void main() {
    vec3 rel = vec3(position + offset, -camera_z);
    float d = length(rel);
    vec3 c = mix(color.rgb, average_color, smoothstep(25000.0, 62000.0, length(rel.xy)));
    float f = 1.0 - exp(-(d * d) / (fog_distance * fog_distance));
    v_color = mix(c * lit, fog_color, clamp(f, 0.0, 1.0));
    v_rel = rel;
    v_world = position + tile_origin;
    gl_Position = view_proj * vec4(rel, 1.0);
}
"""

GROUND_FRAGMENT = """
#version 330 core
in vec3 v_color;
in vec3 v_rel;
in vec2 v_world;
uniform float grain;           // strength of the close-up grass grain (0 when high up)
out vec4 frag_color;
void main() {
    vec3 c = v_color;
    if (grain > 0.0) {
        float near = 1.0 - smoothstep(120.0, 700.0, length(v_rel));
        if (near > 0.0) {
            vec2 p = fract(floor(v_world / 3.0) * vec2(0.1031, 0.1030));
            p += dot(p, p.yx + 33.33);
            c *= 1.0 + grain * near * (fract((p.x + p.y) * p.x) - 0.5);
        }
    }
    frag_color = vec4(c, 1.0);
}
"""

DECAL_VERTEX = """
#version 330 core
in vec3 position;
in vec2 uv;
in vec4 color;
uniform mat4 model;
uniform mat4 view_proj;
out vec3 v_rel;
out vec2 v_uv;
out vec4 v_color;
void main() {
    vec4 rel = model * vec4(position, 1.0);
    v_rel = rel.xyz;
    v_uv = uv;
    v_color = color;
    gl_Position = view_proj * rel;
}
"""

DECAL_FRAGMENT = """
#version 330 core
in vec3 v_rel;
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D image;
uniform float textured;        // 1: multiply by the texture at uv
out vec4 frag_color;
""" + COMMON + """
void main() {
    vec4 base = v_color;
    if (textured > 0.5) base *= texture(image, v_uv);
    vec3 c = light(base.rgb, vec3(0.0, 0.0, 1.0), normalize(-v_rel), 0.05);
    frag_color = vec4(fog(c, length(v_rel)), base.a);
}
"""

SHADOW_VERTEX = """
#version 330 core
in vec3 position;
in float part;
uniform mat4 parts[16];
uniform mat4 model;            // body -> camera-relative earth frame
uniform mat4 view_proj;
uniform vec3 camera;
uniform vec3 sun_dir;
void main() {
    vec3 rel = (model * parts[int(part + 0.5)] * vec4(position, 1.0)).xyz;
    float height = rel.z + camera.z;                  // above the ground
    rel -= sun_dir * (height / max(sun_dir.z, 0.2));  // slide along the sun's rays to z = 0
    gl_Position = view_proj * vec4(rel, 1.0);
}
"""

SHADOW_FRAGMENT = """
#version 330 core
uniform float strength;
out vec4 frag_color;
void main() {
    frag_color = vec4(0.05, 0.07, 0.04, strength);
}
"""

SKY_VERTEX = """
#version 330 core
in vec3 position;              // unit direction, earth frame (a dome around the eye)
uniform mat4 view_proj;
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
    gl_Position = view_proj * vec4(position * 1000.0, 1.0);
}
"""

SKY_FRAGMENT = """
#version 330 core
in vec3 v_color;
out vec4 frag_color;
void main() {
    frag_color = vec4(v_color, 1.0);
}
"""

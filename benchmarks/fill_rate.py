"""What one screen of pixels costs: full-window quads drawn in different ways, against a clear and a flip.

A pyglet GL 3.3 window of the frame benchmark's size (no flightsim code).
Each frame clears colour and depth, draws one variant — nothing, or a quad
over the whole window with a constant colour, an interpolated colour, a
texture copy, with or without the depth test, blended, or wholly hidden
behind the depth buffer — and flips.  The variants are drawn in random
order, frame about frame, so load from other processes falls on all alike;
each is reported as its median frame and as the difference to the bare
clear and flip: what a screen of such pixels adds to a frame.

On a software rasteriser (Mesa's llvmpipe) this is the budget the app's
frame spends: the floor of ``bench_frame.py`` fills almost nothing beyond
its clear, while every pixel of the app's picture is shaded at least once
(sky or ground), and its HUD panels are copied from a texture.

Usage::

    xvfb-run -a -s "-screen 0 1280x720x24" python benchmarks/fill_rate.py [--frames N] [--quick] [--headless]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

VERTEX = """
#version 330 core
layout(location = 0) in vec2 position;
out vec3 v_color;
out vec2 v_uv;
void main() {
    v_color = vec3(0.5 + 0.5 * position, 0.3);
    v_uv = 0.5 + 0.5 * position;
    gl_Position = vec4(position, 0.5, 1.0);
}
"""

FRAGMENTS = {
    "constant": "out vec4 c; void main() { c = vec4(0.3, 0.4, 0.5, 1.0); }",
    "interpolated": "in vec3 v_color; out vec4 c; void main() { c = vec4(v_color, 1.0); }",
    "texture": "in vec2 v_uv; uniform sampler2D image; out vec4 c; void main() { c = texture(image, v_uv); }",
    "texelFetch": ("uniform sampler2D image; out vec4 c; "
                   "void main() { c = texelFetch(image, ivec2(gl_FragCoord.xy), 0); }"),
}

VARIANTS = (
    # name, fragment shader, depth test, blend, hidden behind the depth buffer
    ("clear and flip only", None, False, False, False),
    ("constant colour", "constant", False, False, False),
    ("constant colour, depth tested", "constant", True, False, False),
    ("interpolated colour, depth tested", "interpolated", True, False, False),
    ("texture copy", "texture", False, False, False),
    ("texture copy, depth tested", "texture", True, False, False),
    ("texelFetch copy", "texelFetch", False, False, False),
    ("texture copy, blended", "texture", False, True, False),
    ("hidden by depth (rejected)", "constant", True, False, True),
)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=4000, help="frames in all (default 4000)")
    p.add_argument("--quick", action="store_true", help="a few hundred frames")
    p.add_argument("--headless", action="store_true", help="EGL off-screen instead of an X window")
    from flightsim.commands.options import window_size

    p.add_argument("--size", type=window_size, default="1280x720", help="window size WxH (default 1280x720)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if not args.headless and not os.environ.get("DISPLAY"):
        from bench_frame import reexec_under_xvfb

        reexec_under_xvfb()
    from floor_scene import open_plain_window

    width, height = args.size
    window = open_plain_window(width, height, args.headless)
    from pyglet import gl
    from pyglet.graphics.shader import Shader, ShaderProgram

    programs = {name: ShaderProgram(Shader(VERTEX, "vertex"), Shader("#version 330 core\n" + src, "fragment"))
                for name, src in FRAGMENTS.items()}
    texture = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(texture))
    gl.glBindTexture(gl.GL_TEXTURE_2D, texture)
    image = np.random.default_rng(1).integers(0, 255, (height, width, 4), dtype=np.uint8)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, width, height, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                    image.ctypes.data_as(ctypes.POINTER(gl.GLubyte)))
    for name in (gl.GL_TEXTURE_MIN_FILTER, gl.GL_TEXTURE_MAG_FILTER):
        gl.glTexParameteri(gl.GL_TEXTURE_2D, name, gl.GL_NEAREST)
    quad = np.array([(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)], np.float32)
    vao, vbo = gl.GLuint(), gl.GLuint()
    gl.glGenVertexArrays(1, ctypes.byref(vao))
    gl.glBindVertexArray(vao)
    gl.glGenBuffers(1, ctypes.byref(vbo))
    gl.glBindBuffer(gl.GL_ARRAY_BUFFER, vbo)
    gl.glBufferData(gl.GL_ARRAY_BUFFER, quad.nbytes, quad.ctypes.data_as(ctypes.c_void_p), gl.GL_STATIC_DRAW)
    gl.glEnableVertexAttribArray(0)
    gl.glVertexAttribPointer(0, 2, gl.GL_FLOAT, gl.GL_FALSE, 0, None)

    def draw(shader, depth, blend, hidden):
        gl.glClearDepth(0.0 if hidden else 1.0)
        gl.glClearColor(0.55, 0.7, 0.9, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        if shader is None:
            return
        programs[shader].use()
        (gl.glEnable if depth else gl.glDisable)(gl.GL_DEPTH_TEST)
        (gl.glEnable if blend else gl.glDisable)(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDrawArrays(gl.GL_TRIANGLES, 0, 6)

    frames = 400 if args.quick else args.frames
    times = {v[0]: [] for v in VARIANTS}
    rng = random.Random(7)
    for k in range(frames + 30):
        variant = rng.choice(VARIANTS)
        t0 = time.perf_counter()
        window.switch_to()
        window.dispatch_events()
        draw(*variant[1:])
        window.flip()
        gl.glFinish()                     # (off-screen, the flip does not wait for the drawing)
        if k >= 30:
            times[variant[0]].append((time.perf_counter() - t0) * 1e3)
    renderer = window.context.get_info().get_renderer()
    window.close()

    print(f"# One screen of pixels ({width}x{height}), {renderer}; {frames} frames, median per variant")
    base = float(np.median(times[VARIANTS[0][0]]))
    print(f"{'variant':40s} {'frame ms':>9s} {'+ ms a screen':>14s}")
    for name, *_ in VARIANTS:
        median = float(np.median(times[name]))
        extra = "" if name == VARIANTS[0][0] else f"{median - base:+14.2f}"
        print(f"{name:40s} {median:9.2f} {extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

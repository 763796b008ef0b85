"""Dear ImGui on a pyglet window, drawn through pyglet's own GL: input, textures, one shader.

imgui-bundle ships a pyglet backend (``imgui_bundle.python_backends.pyglet_backend``
and its ``opengl_backend_programmable``) built on PyOpenGL.  This is that
backend - the same key map, mouse, clipboard and cursor handling, the same
shader, the same texture protocol (``renderer_has_textures``: imgui asks the
renderer to create, update and destroy its font atlas pages) - written
against pyglet's ctypes GL, which the app uses for everything else:

* importing PyOpenGL (``OpenGL.GL`` binds every GL version) took ~0.1 s of
  the app's 1.5 s start to its first frame;
* the library's ``render`` makes three PyOpenGL calls per draw command and
  saves and restores some twenty GL states around them: the whole HUD's
  draw took 0.87 ms of Python a frame against 0.56 ms here (llvmpipe,
  alternate frames).  Every flightsim pass sets the state it needs, so
  nothing is saved or restored.

imgui's textures are sampled without filtering: imgui draws glyphs
pixel-aligned at their rasterised size, so the picture is the same, and a
software rasteriser fills the panels about twice as fast as with bilinear
filtering.
"""

from __future__ import annotations

import ctypes
import string

from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram
from pyglet.window import Window, key, mouse

__all__ = ["PygletImguiRenderer", "key_map"]

VERTEX_SHADER = """#version 330 core
uniform mat4 ProjMtx;
in vec2 Position;
in vec2 UV;
in vec4 Color;
out vec2 Frag_UV;
out vec4 Frag_Color;
void main() {
    Frag_UV = UV;
    Frag_Color = Color;
    gl_Position = ProjMtx * vec4(Position.xy, 0.0, 1.0);
}
"""

FRAGMENT_SHADER = """#version 330 core
uniform sampler2D Texture;
in vec2 Frag_UV;
in vec4 Frag_Color;
out vec4 Out_Color;
void main() {
    Out_Color = Frag_Color * texture(Texture, Frag_UV.st);
}
"""

# pyglet key name -> imgui.Key name, where the two differ (letters, digits, F1-F12 and keypad
# digits are matched by rule in key_map).
_NAMED_KEYS = {
    "TAB": "tab", "BACKSPACE": "backspace", "RETURN": "enter", "ESCAPE": "escape", "INSERT": "insert",
    "DELETE": "delete", "SPACE": "space", "LEFT": "left_arrow", "RIGHT": "right_arrow", "UP": "up_arrow",
    "DOWN": "down_arrow", "PAGEUP": "page_up", "PAGEDOWN": "page_down", "HOME": "home", "END": "end",
    "NUM_ENTER": "keypad_enter", "NUM_DECIMAL": "keypad_decimal", "NUM_DIVIDE": "keypad_divide",
    "NUM_MULTIPLY": "keypad_multiply", "NUM_SUBTRACT": "keypad_subtract", "NUM_ADD": "keypad_add",
    "LCTRL": "left_ctrl", "RCTRL": "right_ctrl", "LSHIFT": "left_shift", "RSHIFT": "right_shift",
    "LALT": "left_alt", "RALT": "right_alt", "LCOMMAND": "left_super", "RCOMMAND": "right_super",
    "GRAVE": "grave_accent", "MINUS": "minus", "EQUAL": "equal", "BRACKETLEFT": "left_bracket",
    "BRACKETRIGHT": "right_bracket", "BACKSLASH": "backslash", "SEMICOLON": "semicolon",
    "APOSTROPHE": "apostrophe", "COMMA": "comma", "PERIOD": "period", "SLASH": "slash",
    "PRINT": "print_screen", "PAUSE": "pause", "CAPSLOCK": "caps_lock", "NUMLOCK": "num_lock",
    "SCROLLLOCK": "scroll_lock",
}


def key_map(imgui) -> dict:
    """pyglet key symbol -> ``imgui.Key``: the keys imgui-bundle's pyglet backend maps."""
    names = {c: c.lower() for c in string.ascii_uppercase}
    names |= {f"_{d}": f"_{d}" for d in range(10)} | {f"NUM_{d}": f"keypad{d}" for d in range(10)}
    names |= {f"F{n}": f"f{n}" for n in range(1, 13)} | _NAMED_KEYS
    return {getattr(key, ours): getattr(imgui.Key, theirs) for ours, theirs in names.items()}


class PygletImguiRenderer:
    """Feeds a pyglet window's input to the current imgui context and draws its frames.

    Parameters
    ----------
    window : pyglet.window.Window
        Its GL context must be current; its input handlers are pushed here
        (so handlers pushed later see events first).

    Raises
    ------
    RuntimeError
        There is no current imgui context.
    """

    def __init__(self, window):
        from imgui_bundle import imgui

        if not imgui.get_current_context():
            raise RuntimeError("no current imgui context: call imgui.create_context() first")
        self._imgui = imgui
        self.io = imgui.get_io()
        self.io.delta_time = 1.0 / 60.0
        self.io.backend_flags |= imgui.BackendFlags_.has_mouse_cursors | imgui.BackendFlags_.renderer_has_textures
        limit = gl.GLint()
        gl.glGetIntegerv(gl.GL_MAX_TEXTURE_SIZE, ctypes.byref(limit))
        platform = imgui.get_platform_io()
        platform.renderer_texture_max_width = platform.renderer_texture_max_height = limit.value
        platform.platform_get_clipboard_text_fn = lambda _ctx: window.get_clipboard_text()
        platform.platform_set_clipboard_text_fn = lambda _ctx, text: window.set_clipboard_text(text)
        self._keys = key_map(imgui)
        self._modifiers = {imgui.Key.left_ctrl: imgui.Key.mod_ctrl, imgui.Key.right_ctrl: imgui.Key.mod_ctrl,
                           imgui.Key.left_shift: imgui.Key.mod_shift, imgui.Key.right_shift: imgui.Key.mod_shift,
                           imgui.Key.left_alt: imgui.Key.mod_alt, imgui.Key.right_alt: imgui.Key.mod_alt,
                           imgui.Key.left_super: imgui.Key.mod_super, imgui.Key.right_super: imgui.Key.mod_super}
        self._cursors = {
            imgui.MouseCursor_.arrow: Window.CURSOR_DEFAULT, imgui.MouseCursor_.text_input: Window.CURSOR_TEXT,
            imgui.MouseCursor_.resize_all: Window.CURSOR_SIZE,
            imgui.MouseCursor_.resize_ns: Window.CURSOR_SIZE_UP_DOWN,
            imgui.MouseCursor_.resize_ew: Window.CURSOR_SIZE_LEFT_RIGHT,
            imgui.MouseCursor_.resize_nesw: Window.CURSOR_SIZE_DOWN_LEFT,
            imgui.MouseCursor_.resize_nwse: Window.CURSOR_SIZE_DOWN_RIGHT,
            imgui.MouseCursor_.hand: Window.CURSOR_HAND,
        }
        self._cursor = -2
        self._window = window
        self._create_device_objects()
        self.on_resize(*window.get_size())
        window.push_handlers(self.on_mouse_motion, self.on_key_press, self.on_key_release, self.on_text,
                             self.on_mouse_drag, self.on_mouse_press, self.on_mouse_release, self.on_mouse_scroll,
                             self.on_resize)

    # -- GL objects ---------------------------------------------------------------------------------

    def _create_device_objects(self):
        imgui = self._imgui
        self._program = ShaderProgram(Shader(VERTEX_SHADER, "vertex"), Shader(FRAGMENT_SHADER, "fragment"))
        program = self._program.id
        self._u_texture = gl.glGetUniformLocation(program, b"Texture")
        self._u_projection = gl.glGetUniformLocation(program, b"ProjMtx")
        self._vao, self._vbo, self._ebo = gl.GLuint(), gl.GLuint(), gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self._vao))
        gl.glGenBuffers(1, ctypes.byref(self._vbo))
        gl.glGenBuffers(1, ctypes.byref(self._ebo))
        gl.glBindVertexArray(self._vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self._vbo)
        for name, count, kind, normalized, offset in (
                ("Position", 2, gl.GL_FLOAT, gl.GL_FALSE, imgui.VERTEX_BUFFER_POS_OFFSET),
                ("UV", 2, gl.GL_FLOAT, gl.GL_FALSE, imgui.VERTEX_BUFFER_UV_OFFSET),
                ("Color", 4, gl.GL_UNSIGNED_BYTE, gl.GL_TRUE, imgui.VERTEX_BUFFER_COL_OFFSET)):
            location = gl.glGetAttribLocation(program, name.encode())
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, count, kind, normalized, imgui.VERTEX_SIZE, offset)
        gl.glBindVertexArray(0)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)

    def _update_textures(self):
        """Create, update or destroy the textures imgui asks for (its font atlas pages)."""
        imgui = self._imgui
        for tex in imgui.get_platform_io().textures:
            if tex.status != imgui.ImTextureStatus.ok:
                self._update_texture(tex)

    def _update_texture(self, tex):
        imgui = self._imgui
        if tex.status == imgui.ImTextureStatus.want_create:
            assert tex.format == imgui.ImTextureFormat.rgba32
            name = gl.GLuint()
            gl.glGenTextures(1, ctypes.byref(name))
            gl.glBindTexture(gl.GL_TEXTURE_2D, name)
            for parameter, value in ((gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST),
                                     (gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST),
                                     (gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_EDGE),
                                     (gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_EDGE)):
                gl.glTexParameteri(gl.GL_TEXTURE_2D, parameter, value)
            gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
            gl.glPixelStorei(gl.GL_UNPACK_ROW_LENGTH, 0)
            pixels = tex.get_pixels_array()
            gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, tex.width, tex.height, 0, gl.GL_RGBA,
                            gl.GL_UNSIGNED_BYTE, pixels.ctypes.data)
            gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
            tex.set_tex_id(name.value)
            tex.status = imgui.ImTextureStatus.ok
        elif tex.status == imgui.ImTextureStatus.want_updates:
            # Only regions never used before are written; each rectangle is read in place from the whole
            # image, rows tex.width apart.
            gl.glBindTexture(gl.GL_TEXTURE_2D, tex.tex_id)
            gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
            gl.glPixelStorei(gl.GL_UNPACK_ROW_LENGTH, tex.width)
            pixels = tex.get_pixels_array()
            for r in tex.updates:
                start = pixels.ctypes.data + (r.y * tex.width + r.x) * tex.bytes_per_pixel
                gl.glTexSubImage2D(gl.GL_TEXTURE_2D, 0, r.x, r.y, r.w, r.h, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, start)
            gl.glPixelStorei(gl.GL_UNPACK_ROW_LENGTH, 0)
            gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
            tex.status = imgui.ImTextureStatus.ok
        elif tex.status == imgui.ImTextureStatus.want_destroy:
            name = gl.GLuint(int(tex.tex_id))
            if gl.current_context is not None:
                gl.glDeleteTextures(1, ctypes.byref(name))
            tex.set_tex_id(0)
            tex.status = imgui.ImTextureStatus.destroyed

    def shutdown(self):
        """Free the textures, buffers and program (the imgui context is the caller's)."""
        imgui = self._imgui
        for tex in imgui.get_platform_io().textures:
            if tex.ref_count == 1:
                tex.status = imgui.ImTextureStatus.want_destroy
                self._update_texture(tex)
        self.io.backend_flags &= ~imgui.BackendFlags_.renderer_has_textures
        if gl.current_context is not None:
            gl.glDeleteVertexArrays(1, ctypes.byref(self._vao))
            gl.glDeleteBuffers(1, ctypes.byref(self._vbo))
            gl.glDeleteBuffers(1, ctypes.byref(self._ebo))
            self._program.delete()

    # -- drawing ------------------------------------------------------------------------------------

    def render(self, draw_data, over_alpha=False):
        """Draw ``draw_data`` into the bound framebuffer, blended.

        ``over_alpha`` accumulates alpha "over" (``glBlendFuncSeparate(...,
        ONE, ONE_MINUS_SRC_ALPHA)``), so a texture drawn into from
        transparent holds premultiplied colour with the true coverage.
        Leaves blending, the scissor, the program and the vertex array off.
        """
        imgui = self._imgui
        io = self.io
        width, height = io.display_size
        scale = io.display_framebuffer_scale
        fb_width, fb_height = int(width * scale[0]), int(height * scale[1])
        self._update_textures()
        if fb_width <= 0 or fb_height <= 0:
            return
        draw_data.scale_clip_rects(scale)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendEquation(gl.GL_FUNC_ADD)
        if over_alpha:
            gl.glBlendFuncSeparate(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA)
        else:
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glViewport(0, 0, fb_width, fb_height)
        projection = (gl.GLfloat * 16)(2.0 / width, 0.0, 0.0, 0.0, 0.0, -2.0 / height, 0.0, 0.0,
                                       0.0, 0.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0)
        gl.glUseProgram(self._program.id)
        gl.glUniform1i(self._u_texture, 0)
        gl.glUniformMatrix4fv(self._u_projection, 1, gl.GL_FALSE, projection)
        gl.glBindVertexArray(self._vao)
        index_type = gl.GL_UNSIGNED_SHORT if imgui.INDEX_SIZE == 2 else gl.GL_UNSIGNED_INT
        bound = None
        for commands in draw_data.cmd_lists:
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self._vbo)
            gl.glBufferData(gl.GL_ARRAY_BUFFER, commands.vtx_buffer.size() * imgui.VERTEX_SIZE,
                            commands.vtx_buffer.data_address(), gl.GL_STREAM_DRAW)
            gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self._ebo)
            gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, commands.idx_buffer.size() * imgui.INDEX_SIZE,
                            commands.idx_buffer.data_address(), gl.GL_STREAM_DRAW)
            for command in commands.cmd_buffer:
                texture = command.tex_ref.get_tex_id()
                if texture != bound:
                    gl.glBindTexture(gl.GL_TEXTURE_2D, texture)
                    bound = texture
                x0, y0, x1, y1 = command.clip_rect
                gl.glScissor(int(x0), int(fb_height - y1), int(x1 - x0), int(y1 - y0))
                gl.glDrawElementsBaseVertex(gl.GL_TRIANGLES, command.elem_count, index_type,
                                            command.idx_offset * imgui.INDEX_SIZE, command.vtx_offset)
        gl.glBindVertexArray(0)
        gl.glUseProgram(0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glDisable(gl.GL_BLEND)
        self._update_cursor()

    def _update_cursor(self):
        imgui = self._imgui
        if self.io.config_flags & imgui.ConfigFlags_.no_mouse_cursor_change:
            return
        cursor = imgui.get_mouse_cursor()
        if cursor != self._cursor:
            self._cursor = cursor
            if cursor == imgui.MouseCursor_.none:
                self._window.set_mouse_visible(False)
            else:
                self._window.set_mouse_visible(True)
                self._window.set_mouse_cursor(self._window.get_system_mouse_cursor(self._cursors.get(cursor)))

    # -- input (pyglet window events) -----------------------------------------------------------------

    def _on_key(self, symbol, down):
        imgui_key = self._keys.get(symbol)
        if imgui_key is not None:
            self.io.add_key_event(imgui_key, down)
            modifier = self._modifiers.get(imgui_key)
            if modifier is not None:
                self.io.add_key_event(modifier, down)

    def on_key_press(self, symbol, modifiers):
        self._on_key(symbol, True)

    def on_key_release(self, symbol, modifiers):
        self._on_key(symbol, False)

    def on_text(self, text):
        for char in text:
            self.io.add_input_character(ord(char))

    def on_mouse_motion(self, x, y, dx, dy):
        self.io.add_mouse_pos_event(x, self.io.display_size.y - y)

    def _on_mouse_button(self, button, down):
        index = {mouse.LEFT: 0, mouse.RIGHT: 1, mouse.MIDDLE: 2}.get(button, 0)
        self.io.add_mouse_button_event(index, down)

    def on_mouse_press(self, x, y, button, modifiers):
        self._on_mouse_button(button, True)

    def on_mouse_release(self, x, y, button, modifiers):
        self._on_mouse_button(button, False)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        self._on_mouse_button(buttons, True)
        self.on_mouse_motion(x, y, dx, dy)

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        self.io.add_mouse_wheel_event(scroll_x, scroll_y)

    def on_resize(self, width, height):
        window = self._window
        w, h = window.get_size()
        fb_width, fb_height = window.get_framebuffer_size()
        self.io.display_size = (w, h)
        self.io.display_framebuffer_scale = (fb_width / w, fb_height / h) if w and h else (1.0, 1.0)

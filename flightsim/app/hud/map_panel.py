"""The map panel (key ``L``): the region North up, the airfields, the navaids, the airplane and its track.

It reads a :class:`flightsim.app.map_companion.MapReadout` (``view.map``, None while hidden) and draws with
imgui's draw list: the terrain's picture (one texture, clipped to the panel; beyond the region, dark
grey), each runway as a line its width (at least 3 pixels: grey asphalt, green grass) with the airfield's
identifier, each VOR as a hexagon
with its identifier and frequency, the track (magenta) and the airplane (a yellow arrowhead along its
heading).  The mouse wheel over the map zooms about the pointer, a drag pans (and stops following the
airplane); the buttons zoom, and *Follow* centres the airplane again.  The zoom and the centre are the HUD's
(:attr:`~flightsim.app.hud.state.Hud.map_scale`, ``map_center``, ``map_follow``).

Screen axes: right is East (−y), down is South (−x).
"""

from __future__ import annotations

import math

import numpy as np
from imgui_bundle import imgui

from flightsim.app.hud.instruments import vec2

__all__ = ["MAP_SCALES", "map_panel", "map_to_screen"]

MAP_SCALES = (1.0 / 2000.0, 1.0 / 8.0)
"""Smallest and largest zoom, pixels per ft (the whole region in a few hundred pixels; a runway's width)."""

_NM = 6076.12
_TRACK = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.95, 0.2, 0.85, 1.0))
_PLANE = imgui.color_convert_float4_to_u32(imgui.ImVec4(1.0, 0.85, 0.1, 1.0))
_DARK = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.05, 0.05, 0.05, 1.0))
_ASPHALT = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.25, 0.25, 0.27, 1.0))
_GRASS = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.15, 0.45, 0.12, 1.0))
_LABEL = imgui.color_convert_float4_to_u32(imgui.ImVec4(1.0, 1.0, 1.0, 1.0))
_VOR = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.1, 0.35, 0.85, 1.0))
_BEYOND = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.22, 0.23, 0.26, 1.0))
_PLAIN = imgui.color_convert_float4_to_u32(imgui.ImVec4(0.45, 0.58, 0.36, 1.0))


def map_to_screen(x, y, center, scale, origin):
    """Screen pixels of home-frame (x, y) ft: ``origin`` the map's centre on the screen, ``center`` the home
    point there, ``scale`` pixels per ft (North up, East right)."""
    return (origin[0] - (np.asarray(y) - center[1]) * scale, origin[1] - (np.asarray(x) - center[0]) * scale)


def map_panel(view, do, hud):
    """The map window (while ``view.map`` is given)."""
    m = view.map
    if m is None:
        return
    size = imgui.get_io().display_size
    side = max(200.0, min(size.x * 0.42, size.y * 0.62))
    imgui.set_next_window_pos(vec2(size.x * 0.5, size.y * 0.5), imgui.Cond_.first_use_ever, vec2(0.5, 0.5))
    imgui.set_next_window_size(vec2(side, side + 40.0), imgui.Cond_.first_use_ever)
    imgui.set_next_window_bg_alpha(0.95)
    _, keep = imgui.begin(f"Map ({view.keymap.describe('map')})", True,
                          imgui.WindowFlags_.no_collapse | imgui.WindowFlags_.no_scrollbar
                          | imgui.WindowFlags_.no_saved_settings)
    hud.remember("map:window")
    if imgui.small_button("+"):
        hud.map_scale = min(hud.map_scale * 1.5, MAP_SCALES[1])
    hud.remember("map:zoom_in")
    imgui.same_line()
    if imgui.small_button("-"):
        hud.map_scale = max(hud.map_scale / 1.5, MAP_SCALES[0])
    hud.remember("map:zoom_out")
    imgui.same_line()
    if imgui.small_button("Follow" if not hud.map_follow else "Following"):
        hud.map_follow = True
    hud.remember("map:follow")
    imgui.same_line()
    scale_nm = _scale_bar(hud.map_scale)
    imgui.text_disabled(f"bar {scale_nm:g} nm   wheel zooms, drag pans")
    bar_y = imgui.get_cursor_screen_pos().y - 6.0

    lo = imgui.get_cursor_screen_pos()
    avail = imgui.get_content_region_avail()
    w, h = max(avail.x, 50.0), max(avail.y, 50.0)
    imgui.invisible_button("map:canvas", vec2(w, h))
    hud.remember("map:canvas")
    if hud.map_follow:
        hud.map_center = m.position
    origin = (lo.x + 0.5 * w, lo.y + 0.5 * h)
    io = imgui.get_io()
    if imgui.is_item_hovered() and io.mouse_wheel != 0.0:
        old = hud.map_scale
        new = float(np.clip(old * 1.25 ** io.mouse_wheel, *MAP_SCALES))
        mx, my = io.mouse_pos.x - origin[0], io.mouse_pos.y - origin[1]   # keep the point under the pointer
        cx, cy = hud.map_center
        px, py = cx - my / old, cy - mx / old
        hud.map_center = (px + my / new, py + mx / new)
        hud.map_scale = new
        hud.map_follow = False
    if imgui.is_item_active() and (io.mouse_delta.x or io.mouse_delta.y):
        cx, cy = hud.map_center
        hud.map_center = (cx + io.mouse_delta.y / hud.map_scale, cy + io.mouse_delta.x / hud.map_scale)
        hud.map_follow = False
    _draw_map(imgui.get_window_draw_list(), m, hud.map_center, hud.map_scale, origin, (lo.x, lo.y, lo.x + w, lo.y + h))
    _draw_bar(imgui.get_window_draw_list(), lo.x + w - 12.0, bar_y, scale_nm * _NM * hud.map_scale)
    imgui.end()
    if not keep:
        do.set_map(False)


def _scale_bar(scale):
    """A round length in nm about 80 pixels long at ``scale`` pixels per ft."""
    nm = 80.0 / scale / _NM
    for step in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50):
        if step >= nm * 0.7:
            return step
    return 100


def _draw_bar(dl, right, y, length):
    dl.add_line(vec2(right - length, y), vec2(right, y), _LABEL, 2.0)
    dl.add_line(vec2(right - length, y - 4), vec2(right - length, y + 4), _LABEL, 2.0)
    dl.add_line(vec2(right, y - 4), vec2(right, y + 4), _LABEL, 2.0)


def _draw_map(dl, m, center, scale, origin, clip):
    dl.push_clip_rect(vec2(clip[0], clip[1]), vec2(clip[2], clip[3]), True)
    dl.add_rect_filled(vec2(clip[0], clip[1]), vec2(clip[2], clip[3]), _BEYOND if m.texture else _PLAIN)
    x_min, x_max, y_min, y_max = m.extent
    if m.texture:
        (sx0, sy0), (sx1, sy1) = (map_to_screen(x_max, y_max, center, scale, origin),
                                  map_to_screen(x_min, y_min, center, scale, origin))
        dl.add_image(imgui.ImTextureRef(m.texture), vec2(sx0, sy0), vec2(sx1, sy1))
    if len(m.track) > 1:
        sx, sy = map_to_screen(m.track[:, 0], m.track[:, 1], center, scale, origin)
        points = [vec2(float(a), float(b)) for a, b in zip(sx, sy, strict=True)]
        points.append(vec2(*map(float, map_to_screen(*m.position, center, scale, origin))))
        dl.add_polyline(points, _TRACK, 2.0, 0)
    for ident, (fx, fy), runways in m.airfields:
        for (x0, y0), (x1, y1), width, grass in runways:
            a = map_to_screen(x0, y0, center, scale, origin)
            b = map_to_screen(x1, y1, center, scale, origin)
            dl.add_line(vec2(*map(float, a)), vec2(*map(float, b)), _GRASS if grass else _ASPHALT,
                        max(width * scale, 3.0))
        sx, sy = map_to_screen(fx, fy, center, scale, origin)
        _label(dl, float(sx) + 8.0, float(sy) + 4.0, ident)
    for ident, freq, (vx, vy) in m.vors:
        sx, sy = map(float, map_to_screen(vx, vy, center, scale, origin))
        dl.add_ngon(vec2(sx, sy), 6.0, _VOR, 6, 2.0)
        dl.add_circle_filled(vec2(sx, sy), 1.5, _VOR)
        _label(dl, sx + 8.0, sy - 16.0, f"{ident} {freq:.2f}")
    _airplane(dl, *map(float, map_to_screen(*m.position, center, scale, origin)), m.heading)
    dl.pop_clip_rect()


def _label(dl, x, y, text):
    dl.add_text(vec2(x + 1.0, y + 1.0), _DARK, text)
    dl.add_text(vec2(x, y), _LABEL, text)


def _airplane(dl, x, y, heading_deg):
    """An arrowhead at (x, y) pointing along the heading (screen: up North, right East)."""
    a = math.radians(heading_deg)
    fwd = (math.sin(a), -math.cos(a))
    right = (-fwd[1], fwd[0])
    tip = vec2(x + 12.0 * fwd[0], y + 12.0 * fwd[1])
    left_p = vec2(x - 8.0 * fwd[0] - 7.0 * right[0], y - 8.0 * fwd[1] - 7.0 * right[1])
    right_p = vec2(x - 8.0 * fwd[0] + 7.0 * right[0], y - 8.0 * fwd[1] + 7.0 * right[1])
    dl.add_triangle_filled(tip, left_p, right_p, _PLANE)
    dl.add_triangle(tip, left_p, right_p, _DARK, 1.5)

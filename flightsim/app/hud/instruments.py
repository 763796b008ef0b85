"""The HUD's drawn instruments (imgui draw lists): attitude indicator, heading tape, gauges, cockpit frame.

Pure drawing over numbers: no flight, no app.  Colours are imgui's packed
``IM_COL32``; sizes are imgui pixels.
"""

from __future__ import annotations

import math
from contextlib import contextmanager

from imgui_bundle import imgui, implot

from flightsim.physics.constants import KNOT

__all__ = ["CHART_FLAGS", "FT_S_TO_KT", "X_FLAGS", "attitude_indicator", "bar", "chart_limits", "cockpit_frame",
           "cockpit_shapes",
           "heading_tape", "hsi", "plain_lines", "three_lights", "vec2"]

FT_S_TO_KT = 1.0 / KNOT
"""Knots per ft/s (:data:`flightsim.physics.constants.KNOT`)."""

_SKY = imgui.IM_COL32(64, 132, 214, 255)
_GROUND = imgui.IM_COL32(142, 96, 52, 255)
_WHITE = imgui.IM_COL32(255, 255, 255, 255)
_YELLOW = imgui.IM_COL32(255, 214, 0, 255)
#: The flight director's command bar (magenta, as flight directors draw it).
_MAGENTA = imgui.IM_COL32(255, 40, 230, 255)
_BLACK = imgui.IM_COL32(0, 0, 0, 200)
_DIM = imgui.IM_COL32(255, 255, 255, 110)
_BAR_BG = imgui.IM_COL32(40, 44, 52, 220)
_BAR_FG = imgui.IM_COL32(240, 162, 44, 255)
_GREEN = imgui.IM_COL32(80, 230, 90, 255)
_RED = imgui.IM_COL32(235, 60, 50, 255)
_CARD = imgui.IM_COL32(24, 26, 32, 235)

CHART_FLAGS = (implot.Flags_.no_menus | implot.Flags_.no_box_select | implot.Flags_.no_mouse_text
               | implot.Flags_.no_inputs | implot.Flags_.no_title)
"""implot flags of the HUD's strip charts: no menus, selection, mouse read-out or title."""
X_FLAGS = implot.AxisFlags_.no_tick_labels | implot.AxisFlags_.no_grid_lines
"""The strip charts' time axis: no labels, no grid."""


def vec2(x, y):
    """An ``imgui.ImVec2`` of two numbers."""
    return imgui.ImVec2(float(x), float(y))


@contextmanager
def plain_lines():
    """Draw the lines in the block without anti-aliasing (a software renderer pays for every extra triangle)."""
    dl = imgui.get_window_draw_list()
    dl.push_draw_flag(imgui.ImDrawFlags_.aa_lines, False)
    try:
        yield
    finally:
        dl.pop_draw_flag()


def cockpit_shapes(width, height, head_yaw, head_pitch):
    """The cockpit around the view as convex polygons: a glare shield across the bottom, its lit edge,
    the windscreen posts and the roof bar.

    The overlay is fixed to the screen, so it fades out as the pilot turns
    the head.  Used by :func:`cockpit_frame` (drawn by imgui) and by the
    scene renderer, which draws it opaque before the scene when ``fade`` is
    1 so that the scene behind it is never shaded.

    Parameters
    ----------
    width, height : float
        Screen size, pixels.
    head_yaw, head_pitch : float
        The pilot's head turn, degrees.

    Returns
    -------
    fade : float
        0 (not drawn) .. 1 (opaque).
    shapes : list of (list of (float, float), (int, int, int))
        Polygons in pixels from the top left, and their RGB colours.
    """
    fade = max(0.0, 1.0 - max(abs(head_yaw) / 25.0, abs(head_pitch) / 20.0))
    if fade <= 0.0 or width < 40 or height < 40:
        return 0.0, []
    top_mid, top_side = height * 0.80, height * 0.86
    n = 24
    edge = [(width * i / n, top_side - (top_side - top_mid) * math.sin(math.pi * i / n)) for i in range(n + 1)]
    shapes = [([*edge, (width, height), (0.0, height)], (38, 41, 48))]
    shapes += [(_thick_line(p, q, 3.0), (78, 84, 96)) for p, q in zip(edge[:-1], edge[1:], strict=True)]
    post = (30, 32, 38)
    for side in (0, 1):
        x0 = width * (0.06 if side == 0 else 0.94)
        x1 = width * (0.16 if side == 0 else 0.84)
        shapes.append((_thick_line((x0, top_side), (x1, 0.0), max(6.0, width * 0.012)), post))
    bar_h = max(4.0, height * 0.012)
    shapes.append(([(0.0, 0.0), (width, 0.0), (width, bar_h), (0.0, bar_h)], post))
    return fade, shapes


def _thick_line(p, q, thickness):
    """The quad of a line from ``p`` to ``q`` ``thickness`` pixels wide."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * thickness * 0.5, dx / length * thickness * 0.5
    return [(p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny), (q[0] - nx, q[1] - ny), (p[0] - nx, p[1] - ny)]


def cockpit_frame(width, height, head_yaw, head_pitch):
    """The cockpit around the view (:func:`cockpit_shapes`), drawn behind the HUD windows."""
    fade, shapes = cockpit_shapes(width, height, head_yaw, head_pitch)
    if not shapes:
        return
    a = int(255 * fade)
    dl = imgui.get_background_draw_list()
    for points, (r, g, b) in shapes:
        dl.add_convex_poly_filled([vec2(x, y) for x, y in points], imgui.IM_COL32(r, g, b, a))


def chart_limits(ys, limits):
    """Y range of a chart: the data's range with a margin, at least 10 degrees, within ``limits``."""
    finite = ys[ys == ys] if len(ys) else ys
    if not len(finite):
        return limits
    lo, hi = float(finite.min()), float(finite.max())
    mid, half = 0.5 * (lo + hi), max(0.5 * (hi - lo) * 1.15, 5.0)
    return max(mid - half, limits[0]), min(mid + half, limits[1])


def bar(label, value, lo, hi, text):
    """A labelled horizontal gauge; centred at zero when ``lo < 0``."""
    dl = imgui.get_window_draw_list()
    imgui.text(f"{label:<9}")
    imgui.same_line(78.0)
    p = imgui.get_cursor_screen_pos()
    w, h = 110.0, imgui.get_text_line_height()
    dl.add_rect_filled(p, vec2(p.x + w, p.y + h), _BAR_BG, 2.0)
    value = min(max(value if math.isfinite(value) else 0.0, lo), hi)
    zero = p.x + w * (0.0 - lo) / (hi - lo)
    x = p.x + w * (value - lo) / (hi - lo)
    dl.add_rect_filled(vec2(min(zero, x), p.y + 2), vec2(max(zero, x) + 1, p.y + h - 2), _BAR_FG, 1.0)
    if lo < 0.0:
        dl.add_line(vec2(zero, p.y), vec2(zero, p.y + h), _DIM, 1.0)
    imgui.dummy(vec2(w, h))
    imgui.same_line()
    imgui.text(text)


def three_lights(state, text):
    """The gear lights, labelled ``Gear`` as :func:`bar` labels its gauges: three filled greens for ``"down"``
    (down and locked), three reds for ``"transit"``, three dark rings for ``"up"``; then ``text``."""
    dl = imgui.get_window_draw_list()
    imgui.text(f"{'Gear':<9}")
    imgui.same_line(78.0)
    p = imgui.get_cursor_screen_pos()
    h = imgui.get_text_line_height()
    colour = {"down": _GREEN, "transit": _RED}.get(state)
    for k in range(3):
        centre = vec2(p.x + 0.5 * h + k * (h + 6.0), p.y + 0.5 * h)
        if colour is None:
            dl.add_circle(centre, 0.38 * h, _DIM, 0, 1.0)
        else:
            dl.add_circle_filled(centre, 0.4 * h, colour)
    imgui.dummy(vec2(3.0 * (h + 6.0), h))
    imgui.same_line()
    imgui.text(text)


def attitude_indicator(roll_deg, pitch_deg, size, director=None):
    """An artificial horizon: sky and ground turned by roll, shifted by pitch, with pitch ladder and bank scale.

    Positive roll (right wing down) turns the horizon anticlockwise; positive
    pitch (nose up) moves it down.  ``director``: the flight director's command
    ``(bank, pitch)`` in degrees, drawn as a magenta bar where the airplane symbol
    would sit at that attitude (fly the symbol onto it).
    """
    dl = imgui.get_window_draw_list()
    p = imgui.get_cursor_screen_pos()
    cx, cy = p.x + size * 0.5, p.y + size * 0.5
    half = size * 0.5
    k = half / 25.0                                   # px per degree of pitch
    roll = math.radians(roll_deg if math.isfinite(roll_deg) else 0.0)
    pitch = pitch_deg if math.isfinite(pitch_deg) else 0.0
    ux, uy = math.cos(roll), -math.sin(roll)          # along the horizon (screen, y down)
    nx, ny = -math.sin(roll), -math.cos(roll)         # towards the sky
    hx, hy = cx - nx * pitch * k, cy - ny * pitch * k
    big = size * 3.0
    dl.push_clip_rect(p, vec2(p.x + size, p.y + size), True)
    dl.add_rect_filled(p, vec2(p.x + size, p.y + size), _SKY)
    dl.add_convex_poly_filled([
        vec2(hx + ux * big, hy + uy * big),
        vec2(hx + ux * big - nx * big, hy + uy * big - ny * big),
        vec2(hx - ux * big - nx * big, hy - uy * big - ny * big),
        vec2(hx - ux * big, hy - uy * big),
    ], _GROUND)
    dl.add_line(vec2(hx - ux * big, hy - uy * big), vec2(hx + ux * big, hy + uy * big), _WHITE, 2.0)
    start = int(math.floor((pitch - 30.0) / 5.0)) * 5
    for deg in range(start, start + 65, 5):
        if deg == 0 or abs(deg) > 90:
            continue
        length = size * (0.2 if deg % 10 == 0 else 0.09)
        ox, oy = hx + nx * deg * k, hy + ny * deg * k
        dl.add_line(vec2(ox - ux * length, oy - uy * length), vec2(ox + ux * length, oy + uy * length), _WHITE, 1.5)
        if deg % 10 == 0:
            dl.add_text(vec2(ox + ux * (length + 4) - 8, oy + uy * (length + 4) - 7), _WHITE, f"{abs(deg)}")
    # Bank scale (fixed) and the sky pointer (turns with the horizon).
    r = half - 10.0
    for a in (-60, -45, -30, -20, -10, 0, 10, 20, 30, 45, 60):
        ar = math.radians(a)
        inner = r - (9.0 if a % 30 == 0 else 5.0)
        dl.add_line(vec2(cx + math.sin(ar) * r, cy - math.cos(ar) * r),
                    vec2(cx + math.sin(ar) * inner, cy - math.cos(ar) * inner), _WHITE, 2.0)
    tip = (cx + nx * (r - 10), cy + ny * (r - 10))
    dl.add_triangle_filled(vec2(*tip), vec2(tip[0] - ux * 6 - nx * 10, tip[1] - uy * 6 - ny * 10),
                           vec2(tip[0] + ux * 6 - nx * 10, tip[1] + uy * 6 - ny * 10), _YELLOW)
    # The fixed airplane symbol.
    for side in (-1, 1):
        x0, x1 = cx + side * size * 0.13, cx + side * size * 0.32
        dl.add_rect_filled(vec2(min(x0, x1), cy - 2), vec2(max(x0, x1), cy + 2), _BLACK)
        dl.add_line(vec2(x0, cy), vec2(x1, cy), _YELLOW, 3.0)
        dl.add_line(vec2(x0, cy), vec2(x0, cy + 8), _YELLOW, 3.0)
    dl.add_rect_filled(vec2(cx - 3, cy - 3), vec2(cx + 3, cy + 3), _YELLOW)
    if director is not None and all(math.isfinite(v) for v in director):
        # the command relative to the horizon: pitch above it along the sky's normal, bank turned from it
        bank = math.radians(director[0])
        bx, by = hx + nx * director[1] * k, hy + ny * director[1] * k
        dx, dy = math.cos(roll - bank), -math.sin(roll - bank)
        length = size * 0.3
        dl.add_line(vec2(bx - dx * length, by - dy * length), vec2(bx + dx * length, by + dy * length), _MAGENTA, 3.0)
    dl.pop_clip_rect()
    dl.add_rect(p, vec2(p.x + size, p.y + size), _DIM, 4.0, 1.5)
    imgui.dummy(vec2(size, size))


def heading_tape(heading_deg, width):
    """A compass tape: 60 degrees around the heading, cardinal letters, the heading boxed."""
    dl = imgui.get_window_draw_list()
    p = imgui.get_cursor_screen_pos()
    h = 30.0
    heading = heading_deg % 360.0 if math.isfinite(heading_deg) else 0.0
    dl.push_clip_rect(p, vec2(p.x + width, p.y + h), True)
    dl.add_rect_filled(p, vec2(p.x + width, p.y + h), _BAR_BG)
    px_per_deg = width / 60.0
    cx = p.x + width * 0.5
    first = int(math.floor((heading - 32.0) / 5.0)) * 5
    names = {0: "N", 90: "E", 180: "S", 270: "W"}
    for d in range(first, first + 70, 5):
        x = cx + (d - heading) * px_per_deg
        tall = d % 10 == 0
        dl.add_line(vec2(x, p.y + h), vec2(x, p.y + h - (9 if tall else 5)), _WHITE, 1.0)
        if d % 30 == 0:
            label = names.get(d % 360, f"{(d % 360) // 10:d}")
            dl.add_text(vec2(x - 4 * len(label), p.y + 2), _YELLOW if d % 90 == 0 else _WHITE, label)
    dl.pop_clip_rect()
    box = f"{heading:03.0f}"
    dl.add_rect_filled(vec2(cx - 18, p.y - 2), vec2(cx + 18, p.y + 15), _BLACK)
    dl.add_text(vec2(cx - 12, p.y), _WHITE, box)
    dl.add_triangle_filled(vec2(cx, p.y + h - 8), vec2(cx - 5, p.y + h), vec2(cx + 5, p.y + h), _YELLOW)
    imgui.dummy(vec2(width, h + 2))


def wind_relative(wind, heading_deg):
    """The wind as a pilot reads it: ``(from_deg, speed_kt, relative_deg)``.

    ``wind`` is the earth-frame wind (x North, y West, z up), ft/s;
    ``from_deg`` the direction it blows from (deg true, clockwise from North);
    ``relative_deg`` that direction relative to the nose, clockwise, 0..360
    (0: a headwind, 90: from the right, 180: a tailwind).
    """
    wx, wy = float(wind[0]), float(wind[1])
    speed = math.hypot(wx, wy)
    towards = math.degrees(math.atan2(-wy, wx))          # clockwise from North (East is earth −y)
    from_deg = (towards + 180.0) % 360.0
    return from_deg, speed * FT_S_TO_KT, (from_deg - heading_deg) % 360.0


def wind_arrow(relative_deg, speed_kt, size):
    """A dial with an arrow the way the wind blows relative to the airplane (nose up), then ``imgui.dummy``."""
    dl = imgui.get_window_draw_list()
    p = imgui.get_cursor_screen_pos()
    r = size * 0.5
    cx, cy = p.x + r, p.y + r
    dl.add_circle(vec2(cx, cy), r - 1.0, _DIM, 24, 1.0)
    dl.add_triangle_filled(vec2(cx, cy - r + 3), vec2(cx - 4, cy - r + 10), vec2(cx + 4, cy - r + 10), _DIM)  # the nose
    if speed_kt > 0.05:
        a = math.radians(relative_deg)
        ux, uy = -math.sin(a), math.cos(a)                 # blowing towards: from the rim at `a` across the dial
        tail = vec2(cx - ux * (r - 5), cy - uy * (r - 5))
        tip = (cx + ux * (r - 5), cy + uy * (r - 5))
        dl.add_line(tail, vec2(*tip), _YELLOW, 2.0)
        nx, ny = -uy, ux
        dl.add_triangle_filled(vec2(*tip), vec2(tip[0] - ux * 8 + nx * 5, tip[1] - uy * 8 + ny * 5),
                               vec2(tip[0] - ux * 8 - nx * 5, tip[1] - uy * 8 - ny * 5), _YELLOW)
    imgui.dummy(vec2(size, size))


def hsi(heading_deg, course_deg, dots, gs_dots=None, to=None, size=150.0):
    """A horizontal situation indicator: a compass card turned by the heading (the lubber line on top), the
    course arrow at the selected course, the deviation bar beside it (five dots each side: the full scale of
    :mod:`flightsim.simulation.navigation`), a TO/FROM triangle, and where ``gs_dots`` is given a glide-slope
    scale on the right; then ``imgui.dummy``.

    ``dots``: the course deviation (+ the course lies to the right), NaN for no signal (a red ``NAV`` flag and no
    bar); ``gs_dots``: the glide slope's (+ the path lies above), None for no glide-slope scale, NaN for no signal
    (a red ``GS`` flag); ``to``: True TO, False FROM, None neither.  The needles peg at five dots.
    """
    dl = imgui.get_window_draw_list()
    p = imgui.get_cursor_screen_pos()
    r = size * 0.5 - 4.0
    cx, cy = p.x + size * 0.5, p.y + size * 0.5
    heading = heading_deg % 360.0 if math.isfinite(heading_deg) else 0.0

    def at(angle_deg, radius):
        """Screen point ``radius`` px from the centre toward the card's bearing ``angle_deg``."""
        a = math.radians(angle_deg - heading)
        return cx + math.sin(a) * radius, cy - math.cos(a) * radius

    dl.add_circle_filled(vec2(cx, cy), r, _CARD, 48)
    dl.add_circle(vec2(cx, cy), r, _DIM, 48, 1.5)
    names = {0: "N", 90: "E", 180: "S", 270: "W"}
    for d in range(0, 360, 10):
        tall = d % 30 == 0
        x0, y0 = at(d, r)
        x1, y1 = at(d, r - (10.0 if tall else 5.0))
        dl.add_line(vec2(x0, y0), vec2(x1, y1), _WHITE, 1.0)
        if tall:
            label = names.get(d, f"{d // 10}")
            tx, ty = at(d, r - 20.0)
            dl.add_text(vec2(tx - 3.5 * len(label), ty - 7.0), _YELLOW if d in names else _WHITE, label)
    # the lubber line and the airplane
    dl.add_triangle_filled(vec2(cx, cy - r + 1), vec2(cx - 5, cy - r - 7), vec2(cx + 5, cy - r - 7), _YELLOW)
    dl.add_line(vec2(cx - 10, cy), vec2(cx + 10, cy), _YELLOW, 2.0)
    dl.add_line(vec2(cx, cy - 7), vec2(cx, cy + 9), _YELLOW, 2.0)
    # the course arrow, its deviation bar and the dots
    a = math.radians(course_deg - heading)
    ux, uy = math.sin(a), -math.cos(a)                 # along the course (screen, y down)
    rx, ry = -uy, ux                                   # to its right
    inner, outer = r * 0.38, r * 0.78
    dot_px = inner / 5.5
    for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
        dl.add_circle(vec2(cx + rx * k * dot_px, cy + ry * k * dot_px), 2.0, _WHITE, 8, 1.0)
    tip = (cx + ux * outer, cy + uy * outer)
    dl.add_line(vec2(cx + ux * inner, cy + uy * inner), vec2(*tip), _MAGENTA, 3.0)
    dl.add_triangle_filled(vec2(tip[0] + ux * 10, tip[1] + uy * 10), vec2(tip[0] + rx * 6, tip[1] + ry * 6),
                           vec2(tip[0] - rx * 6, tip[1] - ry * 6), _MAGENTA)
    dl.add_line(vec2(cx - ux * inner, cy - uy * inner), vec2(cx - ux * outer, cy - uy * outer), _MAGENTA, 3.0)
    if dots is not None and math.isfinite(dots):
        off = min(max(dots, -5.0), 5.0) * dot_px
        bx, by = cx + rx * off, cy + ry * off
        half = inner - 3.0
        dl.add_line(vec2(bx - ux * half, by - uy * half), vec2(bx + ux * half, by + uy * half), _MAGENTA, 3.0)
        if to is not None:
            s = 1.0 if to else -1.0                    # TO: pointing along the course; FROM: back
            mx, my = cx + ux * s * inner * 0.55 + rx * inner * 0.55, cy + uy * s * inner * 0.55 + ry * inner * 0.55
            dl.add_triangle_filled(vec2(mx + ux * s * 7, my + uy * s * 7), vec2(mx + rx * 5, my + ry * 5),
                                   vec2(mx - rx * 5, my - ry * 5), _WHITE)
    else:
        dl.add_rect_filled(vec2(cx - r * 0.55, cy - r * 0.42), vec2(cx - r * 0.55 + 30, cy - r * 0.42 + 15), _RED)
        dl.add_text(vec2(cx - r * 0.55 + 3, cy - r * 0.42), _WHITE, "NAV")
    if gs_dots is not None:
        x = p.x + size + 4.0
        step = r * 0.14                                # px a dot
        for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
            dl.add_circle(vec2(x + 5, cy - k * step), 2.0, _WHITE, 8, 1.0)
        dl.add_line(vec2(x, cy), vec2(x + 10, cy), _WHITE, 1.5)
        if math.isfinite(gs_dots):
            y = cy - min(max(gs_dots, -5.0), 5.0) * step
            dl.add_quad_filled(vec2(x + 5, y - 6), vec2(x + 10, y), vec2(x + 5, y + 6), vec2(x, y), _GREEN)
        else:
            dl.add_rect_filled(vec2(x - 2, cy - 30), vec2(x + 18, cy - 16), _RED)
            dl.add_text(vec2(x, cy - 30), _WHITE, "GS")
    imgui.dummy(vec2(size + (22.0 if gs_dots is not None else 0.0), size))

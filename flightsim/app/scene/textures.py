"""Procedural textures (numpy RGBA images): the runway, and mipmap chains.

Generated at start-up from fixed seeds, so the scene is the same every run
and no binary image files are needed.  Arrays are ``uint8`` of shape
``(height, width, 4)`` with row 0 at texture coordinate t = 0 (OpenGL's
first row).  No OpenGL here.
"""

from __future__ import annotations

import numpy as np

__all__ = ["RUNWAY_LENGTH_PX", "runway_texture", "glyph", "mip_chain"]

RUNWAY_LENGTH_PX = 4096
"""Texels along the runway texture."""

# 5x7 bitmaps of the digits (row 0 at the top), for runway numbers.
_DIGITS = {
    "0": ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "3": ["11110", "00001", "00001", "01110", "00001", "00001", "11110"],
    "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
    "6": ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
    "7": ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
    "8": ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
    "9": ["01110", "10001", "10001", "01111", "00001", "00010", "01100"],
}


def glyph(char) -> np.ndarray:
    """A digit as a boolean (7, 5) bitmap, row 0 at the top."""
    return np.array([[c == "1" for c in row] for row in _DIGITS[char]], dtype=bool)


def mip_chain(image) -> list[np.ndarray]:
    """An RGBA image and its mipmap levels down to 1 x 1, each a 2 x 2 box average of the last.

    What ``glGenerateMipmap`` makes, computed here because Mesa's llvmpipe
    compiles shaders for its first ``glGenerateMipmap`` (about 0.1 s of
    start-up); numpy takes a few milliseconds.  An odd size drops its last
    row or column, as OpenGL's level sizes (``floor(size / 2)``) do.
    """
    levels = [np.ascontiguousarray(image, dtype=np.uint8)]
    while max(levels[-1].shape[:2]) > 1:
        level = levels[-1].astype(np.uint16)
        if level.shape[0] > 1:
            rows = level.shape[0] // 2 * 2
            level = level[0:rows:2] + level[1:rows:2]
        else:
            level = level * 2
        if level.shape[1] > 1:
            cols = level.shape[1] // 2 * 2
            level = level[:, 0:cols:2] + level[:, 1:cols:2]
        else:
            level = level * 2
        levels.append(((level + 2) // 4).astype(np.uint8))
    return levels


def _interp_matrix(size, cells):
    """(size, cells) weights of a periodic smooth-step interpolation from ``cells`` lattice values."""
    coords = np.arange(size) * cells / size
    i0 = np.floor(coords).astype(int)
    f = coords - i0
    f = f * f * (3 - 2 * f)
    w = np.zeros((size, cells), np.float32)
    rows = np.arange(size)
    w[rows, i0 % cells] += 1.0 - f
    w[rows, (i0 + 1) % cells] += f
    return w


def _value_noise(shape, cells, rng):
    """Tileable smooth value noise in 0..1 of ``shape`` (rows, cols) with ``cells`` lattice cells a side."""
    rows, cols = shape
    lattice = rng.random((cells, cells)).astype(np.float32)
    return _interp_matrix(rows, cells) @ (lattice @ _interp_matrix(cols, cells).T)


def _to_rgba(rgb, alpha=255):
    """Clip a float RGB image (0..1) to uint8 RGBA."""
    out = np.empty(rgb.shape[:2] + (4,), np.uint8)
    scaled = np.asarray(rgb, np.float32) * 255.0 + 0.5
    np.clip(scaled, 0.0, 255.0, out=scaled)
    out[..., :3] = scaled.astype(np.uint8)
    out[..., 3] = alpha
    return out


def runway_texture(width_px=128, length_px=RUNWAY_LENGTH_PX, width_ft=75.0, length_ft=3000.0,
                   numbers=("36", "18"), seed=11) -> np.ndarray:
    """Asphalt with runway markings: edges, threshold bars, numbers, aiming points, centre line.

    Columns run across the runway (u = 0 on the left seen from the first
    threshold), rows along it (t = 0 at the first threshold).  ``numbers``
    are the designators read from the first and the second threshold.
    """
    rng = np.random.default_rng(seed)
    ft_u = width_px / width_ft
    ft_v = length_px / length_ft
    base = 0.24 + 0.05 * _value_noise((length_px, width_px), 64, rng)
    streaks = 0.04 * _value_noise((length_px, width_px), 16, rng)
    img = np.repeat((base - streaks).astype(np.float32)[..., None], 3, axis=2)
    paint = np.zeros((length_px, width_px), bool)

    def rect(v0, v1, u0, u1):
        """Mark [v0, v1) x [u0, u1) in feet (along, across from the left edge)."""
        paint[int(v0 * ft_v):int(v1 * ft_v), int(u0 * ft_u):int(u1 * ft_u)] = True

    edge = 3.0
    rect(0, length_ft, 1.0, 1.0 + edge)
    rect(0, length_ft, width_ft - 1.0 - edge, width_ft - 1.0)
    # Centre line: 120 ft stripes, 80 ft gaps, between the numbers.
    v = 320.0
    while v + 120.0 < length_ft - 320.0:
        rect(v, v + 120.0, 0.5 * width_ft - 1.5, 0.5 * width_ft + 1.5)
        v += 200.0
    glyph_scale_u, glyph_h = 5.0, 60.0
    local = np.zeros_like(paint)
    for end, text in enumerate(numbers):
        local[:] = False
        # Threshold bars, 4 each side of the centre line.
        for k in range(4):
            for side in (-1, 1):
                u = 0.5 * width_ft + side * (6.0 + k * 8.0) - (5.0 if side < 0 else 0.0)
                paint_v0, paint_v1 = 20.0, 170.0
                local[int(paint_v0 * ft_v):int(paint_v1 * ft_v), int(u * ft_u):int((u + 5.0) * ft_u)] = True
        # Aiming point markers.
        for side in (-1, 1):
            u = 0.5 * width_ft + side * 12.0 - (10.0 if side < 0 else 0.0)
            local[int(1000 * ft_v):int(1150 * ft_v), int(u * ft_u):int((u + 10.0) * ft_u)] = True
        # Designator, upright for the pilot landing over this threshold.
        text_w = len(text) * 6 * glyph_scale_u - glyph_scale_u
        u0 = 0.5 * width_ft - 0.5 * text_w
        for n, ch in enumerate(text):
            g = glyph(ch)[::-1]                      # row 0 nearest the threshold = glyph bottom
            for r in range(7):
                for c in range(5):
                    if g[r, c]:
                        vv = 200.0 + r * glyph_h / 7
                        uu = u0 + (n * 6 + c) * glyph_scale_u
                        local[int(vv * ft_v):int((vv + glyph_h / 7) * ft_v) + 1,
                              int(uu * ft_u):int((uu + glyph_scale_u) * ft_u)] = True
        paint |= local if end == 0 else local[::-1, ::-1]
    img[paint] = 0.92 - 0.06 * rng.random((int(paint.sum()), 1), dtype=np.float32)
    return _to_rgba(img)

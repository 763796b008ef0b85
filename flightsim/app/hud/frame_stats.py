"""Timings of the app's recent frames (no GUI)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

__all__ = ["FrameStats"]

#: How many frames :attr:`FrameStats.log` keeps (five seconds at 60 frames a second): a log of every frame grew the
#: app by about 160 bytes a frame, 35 MB an hour.
LOG_FRAMES = 300


@dataclass
class FrameStats:
    """Timings of recent frames, in milliseconds.

    Attributes
    ----------
    frame_ms, physics_ms, hud_ms, draw_ms : float
        Smoothed (exponential average over ~30 frames): the app's work in a
        frame, and its three parts.
    period_ms : float
        Smoothed time from one frame to the next (includes the buffer swap
        and waiting for the display).
    fps : float
        Frames per second, from ``period_ms``.
    steps_last : int
        Physics steps taken by the last frame.
    log : collections.deque
        The last :data:`LOG_FRAMES` raw ``(frame, physics, draw, hud)`` tuples (ms).
    """

    frame_ms: float = 0.0
    physics_ms: float = 0.0
    hud_ms: float = 0.0
    draw_ms: float = 0.0
    period_ms: float = 0.0
    fps: float = 0.0
    steps_last: int = 0
    log: deque = field(default_factory=lambda: deque(maxlen=LOG_FRAMES))

    def record(self, period, frame, physics, draw, hud, steps):
        """Add one frame's times (seconds): its period and the app's work in it."""
        ms = (frame * 1e3, physics * 1e3, draw * 1e3, hud * 1e3)
        self.log.append(ms)
        k = 1.0 / 30.0 if self.frame_ms else 1.0
        self.period_ms += k * (min(period, 1.0) * 1e3 - self.period_ms)
        self.frame_ms += k * (ms[0] - self.frame_ms)
        self.physics_ms += k * (ms[1] - self.physics_ms)
        self.draw_ms += k * (ms[2] - self.draw_ms)
        self.hud_ms += k * (ms[3] - self.hud_ms)
        self.fps = 1e3 / self.period_ms if self.period_ms > 0 else 0.0
        self.steps_last = steps

"""The fixed-step accumulator shared by every real-time loop (the flight, the spin scene, the replay).

Glenn Fiedler's "Fix Your Timestep!" (Gaffer on Games, 2004): each frame's
wall time is clamped to [0, :data:`MAX_FRAME`] (a stall in drawing must not
make the physics spiral), scaled by the time scale and added to an
accumulator; whole steps of ``dt`` are taken while it holds one; what is left,
as a fraction of a step (:attr:`FixedStep.alpha`), blends the drawn pose
between the previous and the current state.
"""

import math

#: Longest frame time the accumulator accepts, s.
MAX_FRAME = 0.25
#: A hair of tolerance in "the accumulator holds a step", so 0.25 s holds 25 steps of 0.01 s despite rounding.
STEP_TOLERANCE = 1e-9


def clamp_frame(frame_seconds):
    """A frame's wall time as the loops take it: clamped to [0, :data:`MAX_FRAME`] s; NaN or infinite reads as 0."""
    frame = float(frame_seconds)
    return min(max(frame, 0.0), MAX_FRAME) if math.isfinite(frame) else 0.0


class FixedStep:
    """A fixed-step accumulator of simulated time.

    Parameters
    ----------
    dt : float
        The physics step, s (> 0).

    Attributes
    ----------
    accumulator : float
        Simulated time not yet stepped, s.
    """

    def __init__(self, dt):
        self.dt = dt
        self.accumulator = 0.0

    def reset(self):
        """Drop the time not yet stepped."""
        self.accumulator = 0.0

    def run(self, frame_seconds, time_scale, step):
        """Add a frame of ``frame_seconds`` wall time at ``time_scale`` and call ``step()`` for each whole step.

        ``step()`` returns False to stop (a crash, a divergence); the step it
        refused is not spent.

        Returns
        -------
        int
            Steps taken.
        """
        self.accumulator += clamp_frame(frame_seconds) * time_scale
        n = 0
        while self.accumulator >= self.dt * (1.0 - STEP_TOLERANCE) and step():
            self.accumulator -= self.dt
            n += 1
        return n

    @property
    def alpha(self):
        """Fraction of a step left in the accumulator, in [0, 1]: the render blend factor."""
        return min(max(self.accumulator / self.dt, 0.0), 1.0)

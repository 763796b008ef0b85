"""The lesson flown in the app (``app.lessons``): its brief, its live criteria, its end and its debrief.

:meth:`LessonCompanion.load` puts the app on the lesson's flight (:func:`~flightsim.simulation.lessons.lesson_flight`)
paused, with the brief shown; :meth:`~LessonCompanion.go` starts it and records it (the trace goes to the lessons'
data folder, :mod:`flightsim.simulation.lesson_debrief`); each frame :meth:`~LessonCompanion.frame` measures the
criteria so far (every :data:`LIVE_EVERY_S`) and ends the lesson when its end comes
(:class:`~flightsim.simulation.lessons.LessonEnd`): scored, kept (trace, plot, best score), the flight paused and
the debrief shown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from flightsim.app.recorder import Recorder
from flightsim.simulation import trace
from flightsim.simulation.lesson_debrief import best_scores, data_folder, keep
from flightsim.simulation.lessons import LESSONS, LessonEnd, lesson_flight, measure, runway_height, score

__all__ = ["LIVE_EVERY_S", "LessonCompanion", "LessonReadout", "debrief_plot"]

#: How often (wall-clock s) the live criteria are measured over the flight so far.
LIVE_EVERY_S = 1.0


@dataclass(frozen=True)
class LessonReadout:
    """What the Lesson panel shows: the lesson (:class:`~flightsim.simulation.lessons.Lesson`), its ``state``
    (``"brief"``, ``"flying"``, ``"debrief"``), the live values (``{key: value}``) and the flight's time, the
    result and where it was kept (debrief), the best score so far, and the flown track over the runway for the
    debrief's plots (``along``, ``height``, ``right``: ft)."""

    lesson: object
    state: str
    t: float
    live: dict
    result: object = None
    saved: dict = None
    best: float = None
    along: tuple = ()
    height: tuple = ()
    right: tuple = ()


class LessonCompanion:
    """The app's lesson (none until :meth:`load`)."""

    def __init__(self, app):
        self.app = app
        self.lesson = None
        self.state = None
        self.result = self.saved = None
        self._recorder = self._end = None
        self._live, self._live_at = {}, 0.0
        self._track = ((), (), ())
        self._best = None

    def load(self, name, seed=0):
        """Fly lesson ``name`` from its start, paused with its brief shown; False (and a HUD message) where the app
        cannot change its flight (a replay)."""
        lesson = LESSONS[name]
        sim = lesson_flight(lesson, seed, dt=self.app.sim.dt)
        if not self.app.cockpit.switch_flight(sim, f"lesson: {lesson.title}"):
            return False
        sim.paused = True
        self.lesson, self.state, self.result, self.saved = lesson, "brief", None, None
        self._live = {}
        self._best = best_scores().get(name)
        return True

    def go(self):
        """Start the lesson's flight and record it."""
        if self.state != "brief":
            return
        sim = self.app.sim
        self._recorder = Recorder(data_folder(), prefix=self.lesson.name)
        self._recorder.start(sim)
        self._end = LessonEnd(self.lesson)
        sim.paused = False
        self.state = "flying"

    def close(self):
        """Leave the lesson (its flight goes on as a free flight)."""
        if self._recorder is not None:
            self._recorder.discard()
        self.lesson = self.state = None

    def frame(self):
        """After a frame's steps: the live criteria, and the lesson's end."""
        if self.state != "flying":
            return
        sim = self.app.sim
        now = time.monotonic()
        if now - self._live_at >= LIVE_EVERY_S:
            self._live_at = now
            self._live = measure(self.lesson, self._recorder.table(), sim.start.runway)
        if self._end(sim):
            self.finish()

    def finish(self):
        """End the lesson now: scored, its trace, plot and score kept, the flight paused, the debrief shown."""
        sim = self.app.sim
        rows = self._recorder.table()
        crashed = sim.status is not None and not sim.diverged
        self.result = score(self.lesson, rows, sim.start.runway, sim.status, crashed)
        try:
            data_folder().mkdir(parents=True, exist_ok=True)
            path = self._recorder.stop()
            self.saved = keep(self.lesson, self.result, rows, sim.start.runway, debrief_plot, trace_path=path)
        except OSError as exc:
            self._recorder.discard()
            self.saved = None
            self.app.hud.notify(f"lesson: cannot keep the debrief in {data_folder()}: {exc.strerror or exc}", 6.0)
        col = {name: rows[:, k] for k, name in enumerate(trace.COLUMNS)}
        along, left = sim.start.runway.local(col["x"], col["y"])
        self._track = (tuple(along), tuple(col["z"] - float(getattr(sim.start.runway, "elevation_ft", 0.0))),
                       tuple(-left))
        sim.paused = True
        self.state = "debrief"
        self._best = best_scores().get(self.lesson.name)

    def readout(self):
        """The Lesson panel's :class:`LessonReadout` (None: no lesson)."""
        if self.state is None:
            return None
        best = self._best
        return LessonReadout(self.lesson, self.state, self.app.sim.t, self._live, self.result, self.saved,
                             None if best is None else best["score"], *self._track)


def debrief_plot(lesson, rows, runway, path):
    """The debrief's picture (PNG): the profile (height over the runway against the distance to the threshold,
    with the 3° glide path where the lesson lands) and the view from above (the track over the runway)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    col = {name: rows[:, k] for k, name in enumerate(trace.COLUMNS)}
    along, left = runway.local(col["x"], col["y"])
    height = col["z"] - runway_height(runway)
    fig, (profile, top) = plt.subplots(2, 1, figsize=(8, 6.5), constrained_layout=True)
    fig.suptitle(lesson.title)
    profile.plot(along, height, label="flown")
    if lesson.landing or lesson.start == "approach":
        d = np.linspace(min(along.min(), 0.0), 400.0, 50)
        profile.plot(d, np.maximum((400.0 - d) * np.tan(np.radians(3.0)), 0.0), "--", label="3° glide path")
    profile.set_xlabel("distance past the threshold, ft")
    profile.set_ylabel("height, ft")
    profile.legend()
    profile.grid(True, alpha=0.3)
    top.plot(along, -left, label="flown")
    top.fill_between([0.0, runway.length], -0.5 * runway.width, 0.5 * runway.width, color="0.7", label="runway")
    top.set_xlabel("distance past the threshold, ft")
    top.set_ylabel("right of the centre line, ft")
    top.legend()
    top.grid(True, alpha=0.3)
    fig.savefig(path, dpi=80)
    plt.close(fig)


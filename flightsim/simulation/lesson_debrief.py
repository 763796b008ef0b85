"""A lesson's debrief kept: its trace, its plot and the best scores, in the user's data folder.

``$XDG_DATA_HOME/flightsim/lessons`` (by default ``~/.local/share/flightsim/lessons``): each finished lesson's trace
(a replay: ``flightsim replay FILE``) and debrief plot (PNG: the profile against the 3° glide path, the view from
above), named ``NAME-YYYYmmdd-HHMMSS``, and ``scores.json``, the best score of each lesson.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from flightsim.files import atomic_write
from flightsim.simulation import trace

__all__ = ["best_scores", "data_folder", "debrief_text", "keep"]


def data_folder():
    """Where the lessons' scores, traces and plots are kept: ``$XDG_DATA_HOME/flightsim/lessons`` (default
    ``~/.local/share/flightsim/lessons``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "flightsim" / "lessons"


def keep(lesson, result, rows, runway, plot, trace_path=None):
    """Keep the lesson's trace (unless it is written already, at ``trace_path``), debrief plot (drawn by
    ``plot(lesson, rows, runway, path)``: :func:`flightsim.app.lesson_companion.debrief_plot`) and score in
    :func:`data_folder`; return where (``trace``, ``plot``) and the best score so far (``best``).

    Raises
    ------
    OSError
        The folder or a file cannot be written.
    """
    folder = data_folder()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    if trace_path is None:
        trace_path = folder / f"{lesson.name}-{stamp}.csv"
        trace.write_csv(trace_path, rows)
    plot_path = folder / f"{lesson.name}-{stamp}.png"
    plot(lesson, rows, runway, plot_path)
    best = best_scores()
    mine = best.get(lesson.name)
    if mine is None or result.score > mine["score"]:
        best[lesson.name] = {"score": round(result.score, 1), "passed": result.passed, "when": stamp,
                             "trace": str(trace_path)}
        with atomic_write(folder / "scores.json", "w") as f:
            json.dump(best, f, indent=2)
    return {"trace": str(trace_path), "plot": str(plot_path), "best": best[lesson.name]["score"]}


def best_scores():
    """The best score of each lesson flown so far (``scores.json`` in :func:`data_folder`; empty if none or
    unreadable): ``{name: {"score", "passed", "when", "trace"}}``."""
    try:
        return json.loads((data_folder() / "scores.json").read_text())
    except (OSError, ValueError):
        return {}


def debrief_text(lesson, result, saved):
    """The debrief as a pilot reads it."""
    lines = [f"{lesson.title}: {result.score:.0f} / 100 - {'passed' if result.passed else 'not passed'}"]
    if result.status:
        lines.append(f"  {result.status}")
    for c in lesson.criteria:
        v = result.values[c.key]
        shown = "not reached" if v != v else f"{v:.1f} {c.unit}"
        lines.append(f"  {c.label:<40} {shown:>14}   {result.points[c.key]:5.1f} points "
                     f"(full at {c.full:g}, none at {c.zero:g})")
    lines.append(f"  best so far {saved['best']:.0f}; trace {saved['trace']} (flightsim replay), plot {saved['plot']}")
    return "\n".join(lines)

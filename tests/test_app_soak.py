"""A short soak of the app (issue: an hour in the air with nothing lost): the 172R on autopilot with the ghost on
and the strip charts open, a thousand frames, and the Python memory the frames leave behind.

The hour itself is ``benchmarks/soak.py`` (its figures in README).  Here: after a warm-up the app's
allocations (tracemalloc) may not grow by more than a few tens of kilobytes over 700 frames of 1/60 s — the
frame log that kept every frame (about 160 bytes a frame) grew 110 kB in as many.  And the flight is still on
autopilot, at the altitude and heading selected, with |q| − 1 at rounding.
"""

import gc
import tracemalloc

import numpy as np

from flightsim.app.hud.history import History
from flightsim.simulation.autopilot import parse_spec
from flightsim.simulation.starts import make_start

WARM_UP = 100
#: Frames traced before the measurement starts: longer than the longest rolling buffer (the frame log's 300), so
#: that everything the frames keep was allocated under tracemalloc, and what they replace is counted as freed.
TURNOVER = 320
FRAMES = 700
#: Allowed growth of traced memory over FRAMES frames (bytes): numpy's and ctypes' small caches turn over by some
#: 10 kB; the frame log that kept every frame grew by 110 kB in as many.
GROWTH = 40_000


def test_frames_on_autopilot_with_the_ghost_and_the_charts_leave_no_memory_behind(new_app, run_frames):
    from flightsim.simulation.flight import resolve_aircraft

    aircraft = resolve_aircraft("c172")
    app = new_app(aircraft=aircraft, integrator="rk4", start=make_start(aircraft, "air"))
    app.sim.autopilot.engage(app.sim, parse_spec("hdg=0,alt=1500"))          # as it was trimmed: no turn
    app.cockpit.set_ghost(True)
    # the strip charts' ring (30 s at 5 samples a second, twice over) fills in a minute of flight; a 2-s ring,
    # drawn the same way, fills in the warm-up (a ring of fixed rows:
    # test_app_model.py's history test)
    app.history = History(span=2.0, rate=5.0)
    run_frames(app, WARM_UP)
    gc.collect()
    tracemalloc.start()
    try:
        run_frames(app, TURNOVER)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        run_frames(app, FRAMES)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < GROWTH, f"{after - before} bytes more after {FRAMES} frames"
    tm = app.sim.telemetry()
    assert app.sim.autopilot.engaged and app.ghost is not None
    assert abs((tm.heading + 180.0) % 360.0 - 180.0) < 1.0 and abs(app.sim.vector[2] - 1500.0) < 20.0
    assert abs(np.linalg.norm(app.sim.vector[6:10]) - 1.0) < 1e-14
    assert app.stats.log.maxlen == len(app.stats.log) == 300

"""A lesson in the app: the Lessons menu loads it paused with its brief, Start flies it with its criteria live, its
end scores it, keeps its trace, plot and best score in the user's data folder and shows the debrief."""

import json

import numpy as np
from conftest import hud_latency

from flightsim.physics.aircraft import load_aircraft
from flightsim.simulation import trace

C172 = load_aircraft("c172")


def test_a_lesson_from_the_menu_to_its_debrief(new_app, run_frames, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = new_app(aircraft=C172)
    app.hud.show = True
    run_frames(app, 2)
    view = app.hud_bridge.view()
    assert ("landing", "Landing") in view.lessons and view.lesson is None
    app.hud_bridge.commands.load_lesson("landing")
    run_frames(app, hud_latency(app))
    assert app.sim.paused and app.lessons.state == "brief" and "lesson:window" in app.hud.hit_boxes
    start_x = app.sim.vector[0]
    assert app.sim.start.runway.local(*app.sim.vector[:2])[0] < -11000.0       # 2 nm out on the final
    app.hud_bridge.commands.start_lesson()
    app.sim.time_scale = 4.0
    run_frames(app, 120)
    assert not app.sim.paused and app.sim.vector[0] > start_x + 500.0
    live = app.hud_bridge.view().lesson.live
    assert live["threshold_kt"] != live["threshold_kt"] or live["threshold_kt"] >= 0.0   # not over it yet: NaN
    app.lessons.finish()                                # the end, as LessonEnd would call it
    run_frames(app, hud_latency(app))
    r = app.hud_bridge.view().lesson
    assert r.state == "debrief" and app.sim.paused and not r.result.passed      # no touchdown: not reached
    assert np.isnan(r.result.values["sink_fpm"]) and r.best == r.result.score
    rows = trace.read_csv(r.saved["trace"])
    assert abs(rows[-1, 0] - app.sim.t) < 1e-9 and open(r.saved["plot"], "rb").read(4) == b"\x89PNG"
    assert json.loads((tmp_path / "flightsim" / "lessons" / "scores.json").read_text())["landing"]["score"] == \
        round(r.result.score, 1)
    app.hud_bridge.commands.close_lesson()
    assert app.hud_bridge.view().lesson is None

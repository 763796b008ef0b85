"""Lessons with a score: a start, what goes wrong, when the lesson ends, and the criteria it is scored on.

Each :class:`Lesson` flies the 172R from its own start (:func:`lesson_start`) with its own wind and failures, ends
when its :attr:`Lesson.ends` says so (stopped after a landing, the manoeuvre flown, a crash, its time), and is
scored on its :class:`Criterion` list from the flight's trace (:func:`score`): each criterion's value measured
from the trace rows (:mod:`flightsim.simulation.trace` columns) and the runway flown to, 100 points at or better
than its ``full`` value falling linearly to 0 at its ``zero`` value; the lesson's score is the mean, and it is
passed when every criterion scores at least :data:`PASS_EACH` (half way between its full and its zero value) and
the mean is at least :data:`PASS_SCORE`.  A crash scores 0 on every
criterion, and the debrief says what hit, at what sink rate and speed (the flight's status).

The lessons (:data:`LESSONS`): ``landing`` (a 2 nm final to the home runway 36), ``engine-failure`` (the engine
quits between 300 and 600 ft on the climb-out), ``steep-turns`` (45° of bank through 360°),
``crosswind-landing`` (the landing with 15 kt across the runway) and ``partial-panel`` (the vacuum pump fails on
the ILS approach to runway 36).

Units: ft, kt, ft/min, deg, as a pilot reads them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from flightsim.physics.wind import WindSpec
from flightsim.simulation import trace
from flightsim.simulation.failures import Failure
from flightsim.simulation.starts import AIM_DISTANCE, make_start

__all__ = ["LESSONS", "PASS_SCORE", "Criterion", "Lesson", "LessonEnd", "Result", "lesson_failures", "lesson_flight",
           "lesson_start", "measure", "score"]

#: A lesson is passed with every criterion at least :data:`PASS_EACH` points and at least this mean score.
PASS_SCORE = 70.0
PASS_EACH = 50.0
NM = 6076.115
KT = 1.6878099
#: The lessons' airplane.
AIRCRAFT = "c172"
#: A landing lesson ends this long after the touchdown (s), or once the airplane is this slow on the ground (ft/s).
AFTER_TOUCHDOWN_S, STOPPED_FPS = 20.0, 8.0


@dataclass(frozen=True)
class Criterion:
    """One thing a lesson is scored on: ``key`` (the measurement's name in :func:`measure`), what a pilot calls it,
    its unit, and the values for full points and for none (linear between; either may be the larger)."""

    key: str
    label: str
    unit: str
    full: float
    zero: float

    def points(self, value):
        """0..100 points for ``value`` (NaN, not measured: 0)."""
        if value is None or not math.isfinite(value):
            return 0.0
        span = self.zero - self.full
        return 100.0 * min(max((self.zero - value) / span, 0.0), 1.0)


@dataclass(frozen=True)
class Lesson:
    """A lesson: its name, title, what to do (``brief``), the start, the wind and failures, how long at most, and
    its criteria."""

    name: str
    title: str
    brief: str
    start: str
    criteria: tuple
    seconds: float
    wind: WindSpec | None = None
    failures: tuple = ()
    #: Where a start names it: the ``approach`` start's distance to the threshold (nm); the ``climb-out``
    #: start's height (ft) and airspeed (kt); the ``air`` start's height (ft).
    options: dict = field(default_factory=dict)

    @property
    def landing(self):
        """Whether the lesson ends on the ground (stopped, or a while after the touchdown)."""
        return any(c.key in ("sink_fpm", "heading_off") for c in self.criteria)


LANDING = (Criterion("sink_fpm", "sink rate at touchdown", "ft/min", 120.0, 480.0),
           Criterion("aim_ft", "distance from the aim point", "ft", 200.0, 1000.0),
           Criterion("centreline_ft", "off the centre line", "ft", 5.0, 30.0),
           Criterion("threshold_kt", "speed over the threshold off 65 kt", "kt", 5.0, 15.0),
           Criterion("bounce_ft", "bounce", "ft", 0.5, 4.0))

LESSONS = {lesson.name: lesson for lesson in (
    Lesson("landing", "Landing", "From a 2 nm final to runway 36: fly the glide path at 65 kt, cross the "
           "threshold, flare and touch down gently on the centre line at the aim point, 400 ft past the threshold "
           "(the first stripes), and stop.", "approach", LANDING, 150.0, options={"nm": 2.0}),
    Lesson("engine-failure", "Engine failure after take-off", "Climbing out of runway 36 at 74 kt: the engine "
           "will quit between 300 and 600 ft. Lower the nose at once to keep flying speed (65 kt) and land ahead, "
           "within 30° of the runway's heading: do not turn back.", "climb-out",
           (Criterion("slowest_kt", "slowest airspeed after the failure", "kt", 60.0, 48.0),
            Criterion("heading_off", "touchdown heading off the runway's", "deg", 10.0, 30.0),
            Criterion("sink_fpm", "sink rate at touchdown", "ft/min", 300.0, 900.0)), 200.0,
           options={"ft": 100.0, "kt": 74.0, "engine_quits_ft": (300.0, 600.0)}),
    Lesson("steep-turns", "Steep turns", "At 3,000 ft and 95 kt: roll into a 45° bank and turn through 360°, "
           "holding the altitude and the bank, and roll out on the heading you started on.", "air",
           (Criterion("altitude_ft", "altitude off the start's", "ft", 30.0, 100.0),
            Criterion("bank_deg", "bank off 45° in the turn", "deg", 2.0, 5.0),
            Criterion("rollout_deg", "roll-out heading off the start's", "deg", 3.0, 10.0)), 120.0,
           options={"ft": 3000.0, "kt": 95.0}),
    Lesson("crosswind-landing", "Crosswind landing", "The landing, with 15 kt of wind across runway 36 from the "
           "right: crab or slip down the final, and touch down on the centre line with the wheels along it.",
           "approach", LANDING, 150.0, wind=WindSpec(from_deg=90.0, speed=15.0 * KT), options={"nm": 2.0}),
    Lesson("partial-panel", "Partial-panel approach", "On the ILS to runway 36 the vacuum pump will fail: the "
           "attitude and heading indicators will drift. Fly the localizer and glide slope on the turn "
           "coordinator, the compass and the airspeed, and land.", "approach",
           (Criterion("localizer_dots", "largest localizer deviation", "dots", 1.0, 5.0),
            Criterion("glideslope_dots", "largest glide slope deviation", "dots", 1.0, 5.0),
            Criterion("sink_fpm", "sink rate at touchdown", "ft/min", 120.0, 480.0),
            Criterion("centreline_ft", "off the centre line", "ft", 5.0, 30.0)), 300.0,
           failures=(Failure("vacuum", at_s=5.0),), options={"nm": 4.0}),
)}


def lesson_failures(lesson, seed=0):
    """The failures ``lesson`` schedules; the engine-failure lesson's engine quits climbing through a height drawn
    (with ``seed``) between its ``engine_quits_ft``."""
    low_high = lesson.options.get("engine_quits_ft")
    if low_high is None:
        return lesson.failures
    low, high = low_high
    height = low + (high - low) * float(np.random.default_rng([seed, 41]).random())
    return lesson.failures + (Failure("engine", at_s=None, above_ft=height, seed=seed),)


def lesson_flight(lesson, seed=0, dt=1.0 / 120.0):
    """A :class:`~flightsim.simulation.flight.Simulation` of ``lesson``: the 172R at its start, in its wind, with its
    failures (drawn with ``seed``), RK4 at ``dt``."""
    from flightsim.simulation.flight import Simulation, resolve_aircraft

    aircraft = resolve_aircraft(AIRCRAFT)
    return Simulation(aircraft, "rk4", dt, start=lesson_start(lesson, aircraft), wind=lesson.wind,
                      failures=lesson_failures(lesson, seed))


def lesson_start(lesson, aircraft):
    """The :class:`~flightsim.simulation.starts.Start` of ``lesson`` for ``aircraft`` (the 172R)."""
    opts = lesson.options
    if lesson.start == "approach":
        start = make_start(aircraft, "approach", wind=lesson.wind, gear=1.0)
        return _moved_out(start, opts["nm"] * NM)
    if lesson.start == "air":
        start = make_start(aircraft, "trim", airspeed=opts["kt"] * KT, altitude=opts["ft"])
        return replace(start, kind="air")
    if lesson.start == "climb-out":                  # over the runway, climbing at full throttle
        start = make_start(aircraft, "trim", airspeed=opts["kt"] * KT, altitude=opts["ft"],
                           climb_angle=_full_throttle_climb(aircraft, opts["kt"] * KT, opts["ft"]))
        runway = start.runway
        y = start.state.copy()
        y[0], y[1] = runway.point(0.5 * runway.length)
        return replace(start, kind="climb-out", state=y)
    raise ValueError(f"lesson {lesson.name}: unknown start {lesson.start!r}")


def _moved_out(start, distance):
    """An approach start moved back along its glide path to ``distance`` ft from the threshold (height with it)."""
    runway = start.runway
    y = start.state.copy()
    along, _ = runway.axes()
    now = -runway.local(y[0], y[1])[0]                       # how far out it starts, ft before the threshold
    back = distance - now
    y[0:2] -= back * along
    y[2] += back * math.tan(math.radians(3.0))
    return replace(start, state=y)


def _full_throttle_climb(aircraft, speed, height):
    """The climb angle (deg) the 172R holds at ``speed`` ft/s and full throttle (bisection on the trim)."""
    from flightsim.physics.trim import TrimError, trim

    lo, hi = 0.0, 15.0
    for _ in range(25):
        mid = 0.5 * (lo + hi)
        try:
            point = trim(aircraft, speed, height, climb_angle=mid, report_range=False)   # (a refusal: no range)
        except TrimError:
            hi = mid
            continue
        lo, hi = (mid, hi) if point.throttle < 1.0 else (lo, mid)
    return lo


@dataclass(frozen=True)
class Result:
    """A flown lesson's debrief: each criterion's value and points, the score, passed or not, and the flight's
    status (a crash says what hit, at what sink rate and speed)."""

    lesson: str
    values: dict
    points: dict
    score: float
    passed: bool
    status: str | None

    def as_dict(self):
        """The result as plain JSON-ready values."""
        return {"lesson": self.lesson, "score": round(self.score, 1), "passed": self.passed, "status": self.status,
                "criteria": {k: {"value": None if not math.isfinite(v) else round(v, 2),
                                 "points": round(self.points[k], 1)} for k, v in self.values.items()}}


def score(lesson, rows, runway, status=None, crashed=False):
    """The :class:`Result` of ``lesson`` flown as the trace ``rows`` (:data:`~flightsim.simulation.trace.COLUMNS`)
    to ``runway`` (:class:`~flightsim.simulation.airfield.Runway`); ``crashed``: every criterion 0."""
    values = measure(lesson, rows, runway)
    points = {c.key: 0.0 if crashed else c.points(values[c.key]) for c in lesson.criteria}
    total = float(np.mean(list(points.values())))
    passed = not crashed and all(p >= PASS_EACH for p in points.values()) and total >= PASS_SCORE
    return Result(lesson.name, values, points, total, passed, status)


def measure(lesson, rows, runway):
    """Each of ``lesson``'s criteria measured over the trace ``rows``: ``{key: value}`` (NaN: not reached, e.g. no
    touchdown)."""
    col = {name: rows[:, k] for k, name in enumerate(trace.COLUMNS)}
    t, x, y, z = col["t"], col["x"], col["y"], col["z"]
    ground = col["on_ground"] > 0.5
    along, offset = runway.local(x, y)
    airborne = np.flatnonzero(~ground)
    first_air = airborne[0] if len(airborne) else len(t)
    touched = np.flatnonzero(ground[first_air:])
    td = first_air + touched[0] if len(touched) else None
    nan = float("nan")
    out = {}
    for c in lesson.criteria:
        k = c.key
        if k == "sink_fpm":
            out[k] = -60.0 * float(col["vz"][td - 1]) if td else nan
        elif k == "aim_ft":
            out[k] = abs(float(along[td]) - AIM_DISTANCE) if td else nan
        elif k == "centreline_ft":
            out[k] = abs(float(offset[td])) if td else nan
        elif k == "threshold_kt":
            over = np.flatnonzero(along >= 0.0)
            out[k] = abs(float(col["ias_indicated"][over[0]]) - 65.0) if len(over) else nan
        elif k == "bounce_ft":
            out[k] = float(max(np.max(z[td:]) - z[td], 0.0)) if td else nan
        elif k == "slowest_kt":
            failed = np.flatnonzero(col["failures"] > 0)
            end = td if td else len(t)
            out[k] = float(np.min(col["ias_indicated"][failed[0]:end])) if len(failed) and failed[0] < end else nan
        elif k == "heading_off":
            out[k] = abs((float(col["heading"][td]) - runway.heading_deg + 180.0) % 360.0 - 180.0) if td else nan
        elif k in ("altitude_ft", "bank_deg", "rollout_deg"):
            out[k] = _steep_turn(col, k)
        elif k in ("localizer_dots", "glideslope_dots"):
            dots = col["nav_dev_dots" if k == "localizer_dots" else "gs_dev_dots"]
            low = (z - runway_height(runway)) > 200.0                      # down to the decision height
            seen = np.abs(dots[low & np.isfinite(dots)])
            out[k] = float(np.max(seen)) if len(seen) else nan
    return out


class LessonEnd:
    """When a flight of ``lesson`` ends (called after each step with the flight; True: it has ended): a landing
    lesson :data:`AFTER_TOUCHDOWN_S` after its touchdown or once slower than :data:`STOPPED_FPS` on the ground;
    any lesson at its time (:attr:`Lesson.seconds`) or when the flight stops (a crash)."""

    def __init__(self, lesson):
        self.lesson = lesson
        self.touchdown = None

    def __call__(self, sim):
        if sim.status is not None or sim.t >= self.lesson.seconds:
            return True
        if not self.lesson.landing:
            return False
        if sim.on_ground and self.touchdown is None and sim.t > 1.0:
            self.touchdown = sim.t
        if self.touchdown is None:
            return False
        return sim.t - self.touchdown > AFTER_TOUCHDOWN_S or (sim.on_ground
                                                               and math.hypot(*sim.vector[3:5]) < STOPPED_FPS)


def runway_height(runway):
    """The runway's height above the earth frame's z = 0 (the home runway's: 0), ft."""
    return float(getattr(runway, "elevation_ft", 0.0))


def _steep_turn(col, key):
    """A steep turn's altitude deviation (ft), bank deviation from 45° while established (deg), and roll-out heading
    error (deg): the turn from when the bank first passes 30° to when the heading has turned 360° and the wings
    are level again."""
    roll, heading, z = np.abs(col["roll"]), col["heading"], col["z"]
    banked = np.flatnonzero(roll > 30.0)
    if not len(banked):
        return float("nan")
    begin = banked[0]
    turned = np.concatenate([[0.0], np.cumsum(np.abs((np.diff(heading[begin:]) + 180.0) % 360.0 - 180.0))])
    round_ = np.flatnonzero(turned >= 330.0)
    end = begin + (round_[0] if len(round_) else len(turned) - 1)
    level = np.flatnonzero(roll[end:] < 5.0)
    out = end + (level[0] if len(level) else len(roll[end:]) - 1)
    if key == "altitude_ft":
        return float(np.max(np.abs(z[:out + 1] - z[0])))
    if key == "bank_deg":
        steady = np.flatnonzero((turned >= 30.0) & (turned <= 300.0)) + begin
        return float(np.max(np.abs(roll[steady] - 45.0))) if len(steady) else float("nan")
    if not len(round_):
        return float("nan")
    return abs((float(heading[out]) - float(heading[0]) + 180.0) % 360.0 - 180.0)

"""A campaign's spec: the TOML file that says what to fly, how many times, and what to disperse.

:func:`read_spec` reads and checks it (the project's one checker, :class:`flightsim.schema.Checker`: every
problem one :class:`~flightsim.errors.InputError` naming the file, the field and the reason) into a
:class:`CampaignSpec`, plain frozen data that pickles (a Ray task takes it).  The format
(``configs/campaigns/approach.toml`` is an example)::

    aircraft = "c172"            # as `flightsim fly --aircraft` takes it: a shipped name, jsbsim:NAME or a path
    runs = 10000                 # ≥ 1 (`flightsim campaign --runs` overrides it)
    seed = 2026                  # the master seed: run k's draws come from default_rng([seed, k])
    integrator = "euler"         # optional (default euler), a name of `flightsim integrators`
    dt = 0.008333                # optional physics step, s (default 1/120)
    traces = [0, 1, 2]           # optional: the runs whose thinned trace is kept
    trace_every_s = 0.5          # optional: the traces' sampling interval, s (default 0.5)

    [start]
    kind = "approach"            # runway, approach or air
    airfield = "KHOM"            # optional, with runway/approach: as `--airfield`, `--runway`
    runway = "36"

    [stop]                       # a run stops at the first of these (a crash always stops it)
    touchdown = true             # the first wheel to carry load (default true)
    below_ft = 50                # optional: the CG below this altitude, ft above sea level
    time_s = 120                 # the time limit, s of flight

    [pilot]                      # exactly one of:
    autopilot = "app=36"         # a spec as `flightsim fly --autopilot` takes it
    land = true                  #   optional: below the approach's minimum fly on to the ground (default true)
    flare_ft = 20                #   optional: flaring from this height, ft (default 20)
    # controls = "stick.csv"     # a controls schedule CSV (as `flightsim simulate --controls`)
    # policy = "policy.zip"      # a saved policy (flightsim.gym.policy:PolicyPilot)

    [wind]                       # as a scenario's [wind]: from_deg, speed_kt, turbulence, seed, shear, gusts
    from_deg = 270
    speed_kt = 12

    [[dispersion]]               # any number of these, each one quantity of QUANTITIES
    name = "wind.speed_kt"
    uniform = [6, 18]            # or normal = {mean = 12, sd = 3, min = 0, max = 25}, or choices = [...]

File paths in the spec (an aircraft, a controls CSV, a policy) are relative to the spec's folder.

The checksum (:attr:`CampaignSpec.checksum`) is the sha256 of the spec's canonical content (its parsed values,
the runs count left out, with the bytes of every file it names), so a campaign's output folder can refuse
another spec's results, while ``--runs`` may grow a campaign: a run's row depends on its index and the spec,
never on the number of runs.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from flightsim.errors import InputError
from flightsim.schema import Checker, Number, Text, join, read_toml

__all__ = ["FAILURE_KINDS", "PILOTS", "QUANTITIES", "START_KINDS", "CampaignSpec", "Dispersion", "column_of",
           "read_spec"]

#: The starts a campaign flies from (:func:`flightsim.simulation.starts.make_start`'s kinds).
START_KINDS = ("runway", "approach", "air")
#: Who flies: the key of ``[pilot]``.
PILOTS = ("autopilot", "controls", "policy")
#: What a ``[[dispersion]]`` may disperse: name → (kind, unit, low, high, meaning).  ``kind``: ``"number"``
#: (uniform, normal or choices of numbers), ``"integer"`` (uniform over whole numbers, both ends included, or
#: choices), ``"level"`` (choices of turbulence levels), ``"failure"`` (choices of the batch's failure kinds and
#: ``"none"``).  Values outside ``low..high`` are refused where the spec gives them (a normal's draws are clipped
#: into its ``min``, ``max``).
QUANTITIES = {
    "wind.speed_kt": ("number", "kt", 0.0, 500.0, "the steady wind's speed"),
    "wind.from_deg": ("number", "deg", -360.0, 720.0, "the direction the wind blows from (wrapped into 0..360)"),
    "wind.turbulence": ("level", "", None, None, "the turbulence's level (none, light, moderate, severe)"),
    "wind.seed": ("integer", "", 0.0, 2.0 ** 63 - 1, "the turbulence's seed"),
    "weight_lb": ("number", "lb", 1.0, 1e7, "the airplane's weight (the difference a point mass at the CG)"),
    "cg_ft": ("number", "ft", -10.0, 10.0, "the CG moved forward along body x"),
    "start.along_ft": ("number", "ft", -1e5, 1e5, "the start moved forward along its heading"),
    "start.left_ft": ("number", "ft", -1e5, 1e5, "the start moved to the left of its heading"),
    "start.altitude_ft": ("number", "ft", -1e4, 1e4, "the start moved up"),
    "start.speed_kt": ("number", "kt", -200.0, 200.0, "the start's speed through the air, more"),
    "start.heading_deg": ("number", "deg", -180.0, 180.0, "the start turned right (attitude and velocity)"),
    "autopilot.ias_kt": ("number", "kt", 20.0, 1000.0, "the autopilot's airspeed target"),
    "autopilot.alt_ft": ("number", "ft", 0.0, 60000.0, "the autopilot's altitude target"),
    "autopilot.hdg_deg": ("number", "deg", -360.0, 720.0, "the autopilot's heading target (wrapped into 0..360)"),
    "autopilot.vs_fpm": ("number", "ft/min", -6000.0, 6000.0, "the autopilot's vertical speed target"),
    "failure.kind": ("failure", "", None, None, "a failure (one of FAILURE_KINDS, or none)"),
    "failure.at_s": ("number", "s", 0.0, 1e6, "when the failure happens, s of flight"),
}
_TOP = {"runs": Number(ge=1, le=10 ** 12, integer=True), "seed": Number(ge=0, le=2 ** 63 - 1, integer=True)}
_TOP_OPTIONAL = {"integrator": Text(), "dt": Number(gt=0.0, le=1.0, unit="s"),
                 "trace_every_s": Number(gt=0.0, le=3600.0, unit="s")}
_STOP = {"time_s": Number(gt=0.0, le=1e6, unit="s")}
_STOP_OPTIONAL = {"touchdown": lambda check, v, where: check.boolean(v, where),
                  "crash": lambda check, v, where: check.boolean(v, where),
                  "below_ft": Number(ge=-1e4, le=1e6, unit="ft")}
_DISTRIBUTIONS = ("uniform", "normal", "choices")
#: The failures ``failure.kind`` may draw: those of :data:`flightsim.simulation.failures.BATCH_KINDS` that take no
#: parameters (no fraction, direction, engine or wheel to choose), and ``none``.
FAILURE_KINDS = ("engine", "jam_aileron", "jam_elevator", "jam_rudder", "pitot", "static", "vacuum", "electrical",
                 "brake_left", "brake_right")
#: The autopilot pilot's flare height by default, ft above the runway
#: (:class:`~flightsim.simulation.campaign.pilots.AutopilotPilot`).
FLARE_FT = 20.0


def column_of(name):
    """The column a dispersion's draws take in a campaign's rows: its name with ``_`` for ``.``
    (``wind.speed_kt`` → ``wind_speed_kt``)."""
    return name.replace(".", "_")


@dataclass(frozen=True)
class Dispersion:
    """One dispersed quantity and its distribution.

    Attributes
    ----------
    name : str
        A key of :data:`QUANTITIES`.
    kind : {"uniform", "normal", "choices"}
    values : tuple
        ``uniform``: ``(a, b)``; ``normal``: ``(mean, sd, min, max)`` (min, max ±inf where not given);
        ``choices``: the values.
    """

    name: str
    kind: str
    values: tuple

    @property
    def column(self):
        """Its column in the rows (:func:`column_of`)."""
        return column_of(self.name)


@dataclass(frozen=True)
class CampaignSpec:
    """A campaign, checked (:func:`read_spec`); plain frozen data.

    Attributes
    ----------
    path : str
        The spec file.
    aircraft : str
        The aircraft file's path (a shipped one's, a JSBSim one's, or the spec's own).
    start, airfield, runway : str, str or None, str or None
        The start's kind (:data:`START_KINDS`) and its runway end.
    integrator : str
    dt : float
        s.
    touchdown : bool
        A run stops at its first wheel contact.
    below_ft : float or None
        A run stops with its CG below this altitude, ft.
    time_s : float
        A run stops at this time of flight, s.
    pilot : str
        :data:`PILOTS`: who flies.
    pilot_value : str
        The autopilot's spec string, or the controls CSV's or policy file's path.
    land, flare_ft : bool, float
        The autopilot's coupled approach flies on below its minimum to the ground, flaring from ``flare_ft``
        (:class:`~flightsim.simulation.campaign.pilots.AutopilotPilot`).
    wind : flightsim.physics.wind.WindSpec
        The wind every run flies, but for what is dispersed.
    dispersions : tuple of Dispersion
        In the file's order: each run draws them in that order.
    runs, seed : int
    traces : tuple of int
        The runs whose thinned trace is kept.
    trace_every_s : float
        s.
    checksum : str
        sha256 hex of the spec's content, the runs count excluded (see the module docstring).
    """

    path: str
    aircraft: str
    start: str
    airfield: str | None
    runway: str | None
    integrator: str
    dt: float
    touchdown: bool
    below_ft: float | None
    time_s: float
    pilot: str
    pilot_value: str
    land: bool
    flare_ft: float
    wind: object
    dispersions: tuple
    runs: int
    seed: int
    traces: tuple = ()
    trace_every_s: float = 0.5
    checksum: str = field(default="", compare=False)

    def with_runs(self, n):
        """The same campaign with ``n`` runs (≥ 1; its checksum unchanged: rows do not depend on the count).

        Raises
        ------
        ValueError
            ``runs: must be ≥ 1, got 0``.
        """
        if isinstance(n, bool) or int(n) != n or n < 1:
            raise ValueError(f"runs: must be ≥ 1, got {n}")
        return replace(self, runs=int(n))

    @property
    def columns_drawn(self):
        """The draws' columns, in the dispersions' order."""
        return tuple(d.column for d in self.dispersions)


def _file(check, value, where, base):
    """A file the spec names, relative to the spec's folder; it must exist."""
    text = check.string(value, where)
    path = Path(text).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        check.fail(where, f"no such file: {path}")
    return path


def _aircraft(check, value, base):
    from flightsim.resources import aircraft_path

    text = check.string(value, "aircraft")
    try:
        path = aircraft_path(text)
    except InputError as exc:
        check.fail("aircraft", exc.reason)
    path = Path(path)
    if not path.is_absolute() and not path.exists():
        path = base / path
    if not path.is_file():
        check.fail("aircraft", f"no such file: {path}")
    return path


def _dispersion(check, value, where, names_seen):
    check.table(value, where, ("name",), _DISTRIBUTIONS)
    name = check.string(value["name"], join(where, "name"))
    check.choice(name, join(where, "name"), tuple(QUANTITIES), noun="quantity", label="valid")
    if name in names_seen:
        check.fail(join(where, "name"), f"{name} is dispersed twice")
    names_seen.add(name)
    given = [k for k in _DISTRIBUTIONS if k in value]
    if len(given) != 1:
        check.fail(where, "give exactly one of uniform = [a, b], normal = {mean, sd, min?, max?} or choices = [...]"
                   + (f" (got {', '.join(given)})" if given else ""))
    kind = given[0]
    quantity, unit, low, high, _ = QUANTITIES[name]
    at = join(where, kind)
    bounds = dict(ge=low, le=high, unit=unit) if low is not None else {}
    if quantity in ("level", "failure") and kind != "choices":
        check.fail(at, f"{name} takes choices = [...], not {kind}")
    if kind == "uniform":
        rule = Number(integer=quantity == "integer", **bounds)
        a, b = check.numbers(value[kind], at, length=2, item=rule)
        if not a <= b:
            check.fail(at, f"must be [low, high] with low <= high, got [{a:g}, {b:g}]")
        return Dispersion(name, kind, (a, b))
    if kind == "normal":
        if quantity == "integer":
            check.fail(at, f"{name} takes uniform = [a, b] or choices = [...], not normal")
        n = check.fields(value[kind], at, {"mean": Number(**bounds), "sd": Number()},
                         {"min": Number(**bounds), "max": Number(**bounds)})
        if n["sd"] < 0.0:
            check.fail(join(at, "sd"), f"must be >= 0 (a standard deviation), got {n['sd']:g}")
        lo, hi = n.get("min", -math.inf), n.get("max", math.inf)
        if not lo <= hi:
            check.fail(at, f"min must be <= max, got {lo:g} > {hi:g}")
        return Dispersion(name, kind, (n["mean"], n["sd"], lo, hi))
    items = value[kind]
    if not isinstance(items, list) or not items:
        check.fail(at, "must be a non-empty array of values")
    if quantity == "level":
        from flightsim.physics.wind import LEVELS

        return Dispersion(name, kind, tuple(check.string(v, f"{at}[{i}]", LEVELS) for i, v in enumerate(items)))
    if quantity == "failure":
        return Dispersion(name, kind, tuple(check.string(v, f"{at}[{i}]", ("none", *FAILURE_KINDS))
                                            for i, v in enumerate(items)))
    rule = Number(integer=quantity == "integer", **bounds)
    return Dispersion(name, kind, tuple(rule(check, v, f"{at}[{i}]") for i, v in enumerate(items)))


def _same_runway(check, selection, start):
    """The coupled approach must fly to the runway end the approach start is placed at."""
    from flightsim.simulation.world import HOME

    field = str(start.get("airfield", HOME)).upper()
    end = str(start.get("runway", "36" if field == HOME else "")).upper()
    flown = selection.runway or (HOME, "36")
    if start.get("runway") is None and field != HOME:
        return                                  # (the airfield's first end: checked when the start is made)
    if (field, end) != tuple(str(x).upper() for x in flown):
        check.fail("pilot.autopilot", f"the approach flies to {'/'.join(flown)}, the start is placed at "
                   f"{field}/{end}: give app={field}/{end}" + (" (or app=36)" if (field, end) == (HOME, "36")
                                                               else ""))


def _canonical(value):
    """The parsed TOML as JSON-able data (dates as their text)."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def checksum_of(data, files):
    """sha256 hex of the parsed spec ``data`` less its ``runs``, and of the bytes of ``files`` (paths)."""
    content = {k: v for k, v in _canonical(data).items() if k != "runs"}
    h = hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
    for path in files:
        h.update(b"\0")
        h.update(Path(path).read_bytes())
    return h.hexdigest()


def read_spec(path):
    """Read and check a campaign spec (format: the module docstring).

    Parameters
    ----------
    path : str or os.PathLike

    Returns
    -------
    CampaignSpec

    Raises
    ------
    flightsim.errors.InputError
        Every problem, one line naming the file, the field and the reason: an unknown key (with the closest
        valid one), a missing one, a value out of range, a negative standard deviation, runs < 1, an unknown
        aircraft, integrator, airfield or runway, a bad autopilot spec, a file that is not there.
    """
    from flightsim.physics import integrators
    from flightsim.physics.wind import WindSpec, load_wind_section

    path = Path(path)
    data = read_toml(path)
    check = Checker(path)
    base = path.resolve().parent
    check.table(data, "", ("aircraft", "runs", "seed", "start", "stop", "pilot"),
                ("integrator", "dt", "traces", "trace_every_s", "wind", "dispersion"))
    top = check.fields({k: data[k] for k in (*_TOP, *_TOP_OPTIONAL) if k in data}, "", _TOP, _TOP_OPTIONAL)
    aircraft = _aircraft(check, data["aircraft"], base)
    integrator = top.get("integrator", "euler")
    if integrator not in integrators.INTEGRATORS:
        check.choice(integrator, "integrator", tuple(integrators.INTEGRATORS), noun="integrator")
    from flightsim.simulation.flight import DEFAULT_DT

    dt = top.get("dt", DEFAULT_DT)
    start = check.fields(data["start"], "start", {"kind": Text(START_KINDS)},
                         {"airfield": Text(), "runway": lambda c, v, w: c.string(str(v) if isinstance(v, int)
                                                                                 else v, w)})
    if start["kind"] == "air" and ("airfield" in start or "runway" in start):
        check.fail("start.airfield" if "airfield" in start else "start.runway",
                   "an airfield's runway is where the runway and approach starts are placed, not the air start")
    if "airfield" in start or "runway" in start:
        from flightsim.simulation.starts import start_end

        try:
            start_end(start.get("airfield"), start.get("runway"))
        except InputError as exc:
            check.fail("start.airfield" if "airfield" in start else "start.runway", exc.reason)
    stop = check.fields(data["stop"], "stop", _STOP, _STOP_OPTIONAL)
    if stop.get("crash", True) is not True:
        check.fail("stop.crash", "a crash always stops a run: leave crash out or true")
    pilot_table = check.table(data["pilot"], "pilot", (), (*PILOTS, "land", "flare_ft"))
    land = check.boolean(pilot_table["land"], "pilot.land") if "land" in pilot_table else True
    flare_ft = (check.number(pilot_table["flare_ft"], "pilot.flare_ft", gt=0.0, le=200.0, unit="ft")
                if "flare_ft" in pilot_table else FLARE_FT)
    given = [k for k in PILOTS if k in pilot_table]
    if len(given) != 1:
        check.fail("pilot", "give exactly one of autopilot = \"SPEC\", controls = \"FILE.csv\" or policy = \"FILE\""
                   + (f" (got {', '.join(given)})" if given else ""))
    pilot = given[0]
    files = [aircraft]
    if pilot == "autopilot":
        from flightsim.simulation.autopilot import parse_spec

        value = check.string(pilot_table[pilot], "pilot.autopilot")
        try:
            selection = parse_spec(value)
        except ValueError as exc:
            check.fail("pilot.autopilot", str(exc))
        if selection.approach and start["kind"] == "approach":
            _same_runway(check, selection, start)
        if start["kind"] == "runway":
            check.fail("pilot.autopilot", "the autopilot is engaged in flight: start on the approach or in the air")
    elif "land" in pilot_table or "flare_ft" in pilot_table:
        check.fail("pilot.land" if "land" in pilot_table else "pilot.flare_ft", "only the autopilot lands")
    else:
        p = _file(check, pilot_table[pilot], f"pilot.{pilot}", base)
        files.append(p)
        value = str(p)
    wind = load_wind_section(check, data["wind"], "wind") if "wind" in data else WindSpec()
    items = data.get("dispersion", [])
    if not isinstance(items, list):
        check.fail("dispersion", "must be an array of tables ([[dispersion]])")
    seen = set()
    dispersions = tuple(_dispersion(check, item, f"dispersion[{i}]", seen) for i, item in enumerate(items))
    if seen & {"weight_lb", "cg_ft"} and aircraft.suffix.lower() == ".xml":
        check.fail("dispersion", "weight_lb and cg_ft: a JSBSim aircraft's weight and balance are its file's own")
    if "failure.at_s" in seen and "failure.kind" not in seen:
        check.fail("dispersion", "failure.at_s needs a failure.kind dispersion (what fails)")
    if seen & {n for n in QUANTITIES if n.startswith("autopilot.")} and pilot != "autopilot":
        check.fail("dispersion", "the autopilot's targets are dispersed only when the autopilot flies")
    traces = ()
    if "traces" in data:
        traces = tuple(check.numbers(data["traces"], "traces", min_length=0,
                                     item=Number(ge=0, le=10 ** 12, integer=True)))
        if len(set(traces)) != len(traces):
            check.fail("traces", "a run is named twice")
    return CampaignSpec(
        path=str(path), aircraft=str(aircraft), start=start["kind"], airfield=start.get("airfield"),
        runway=start.get("runway"), integrator=integrator, dt=float(dt), touchdown=stop.get("touchdown", True),
        below_ft=stop.get("below_ft"), time_s=stop["time_s"], pilot=pilot, pilot_value=value, land=land,
        flare_ft=flare_ft, wind=wind,
        dispersions=dispersions, runs=top["runs"], seed=top["seed"], traces=tuple(sorted(traces)),
        trace_every_s=top.get("trace_every_s", 0.5), checksum=checksum_of(data, files))

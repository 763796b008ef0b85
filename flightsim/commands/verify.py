"""``flightsim verify``: one JSBSim aircraft flown in flightsim and in JSBSim itself, as a row of README's table.

For someone writing their own JSBSim aircraft (or checking one of the package's): the aircraft is trimmed in
both at a condition, flown through the same 30 s doublet in both (on JSBSim's rotating WGS-84 Earth and
flightsim's round planet from 0°N 0°E, or with ``--planet flat`` both on a flat, still one), and the row of
README's "Flown against JSBSim" table printed (:mod:`flightsim.verify.flight_table`: loads, thrust, trim and
trajectory differences), or with ``--json`` one JSON object.

Exit codes: 0 when the row is within every bound (the trims and the trajectory), 1 when a difference is
outside them or either simulator cannot trim at the condition (the row says which), 2 for bad input: an
aircraft that is no JSBSim aircraft, a missing file, one flightsim refuses (the reason ``flightsim aircraft``
gives) or JSBSim cannot run, an unknown integrator.  Bad input is one line on stderr,
``flightsim verify: <what>: <reason>``, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from flightsim.commands.options import seconds
from flightsim.commands.trim import airspeed, altitude
from flightsim.errors import InputError

__all__ = ["add_arguments", "run"]

EXIT_WITHIN, EXIT_OUTSIDE, EXIT_USAGE = 0, 1, 2


def add_arguments(p):
    """Options of ``flightsim verify``."""
    p.description = ("Trim a JSBSim aircraft in flightsim and in JSBSim at one condition, fly the same 30 s "
                     "doublet in both and print the row of README's 'Flown against JSBSim' table. Exit code 0: "
                     "within every bound; 1: a difference outside them (or no trim at the condition); 2: bad "
                     "input (no such aircraft or file, one flightsim refuses or JSBSim cannot run).")
    p.add_argument("--aircraft", required=True, metavar="jsbsim:NAME|PATH",
                   help="one of the jsbsim package's aircraft (see `flightsim aircraft`), or the path to a JSBSim "
                        "aircraft .xml (JSBSim reads that same file; engines and systems beside it, then the "
                        "package's)")
    p.add_argument("--airspeed", type=airspeed, metavar="FT_S",
                   help="true airspeed, ft/s (default: the table's condition for the aircraft, else its cruise "
                        "speed)")
    p.add_argument("--altitude", type=altitude, metavar="FT",
                   help="altitude, ft (default: the table's condition for the aircraft, else 3000)")
    p.add_argument("--integrator", default="rk4", metavar="NAME",
                   help="flightsim's integrator, one listed by `flightsim integrators` (default: rk4)")
    p.add_argument("--dt", type=seconds, default=1.0 / 120.0, metavar="SECONDS",
                   help="the step of both, e.g. 0.01 or 1/120 (default: 1/120 s)")
    p.add_argument("--planet", default="round", metavar="round|flat",
                   help="where both fly: round (default) — JSBSim as it ships, its rotating WGS-84 Earth, and "
                        "flightsim's round planet, from 0°N 0°E — or flat: both on a flat, still planet")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table's row")


def _fail(what, reason):
    print(f"flightsim verify: {what}: {reason}", file=sys.stderr)
    return EXIT_USAGE


def _resolve(text):
    """``(spelling, oracle's name)`` of ``--aircraft``, or raise ``InputError(text, "", reason)``."""
    from flightsim.physics.jsbsim.xmlfile import aircraft_path

    if text.startswith("jsbsim:"):
        aircraft_path(text)                          # (a name the package does not ship: its InputError)
        return text, text[len("jsbsim:"):]
    path = Path(text).expanduser()
    if path.suffix.lower() != ".xml":
        raise InputError(text, "", "not a JSBSim aircraft: give jsbsim:NAME (see `flightsim aircraft`) or the path "
                                   "to a JSBSim aircraft .xml")
    if not path.is_file():
        raise InputError(text, "", "no such file" if not path.exists() else "not a file")
    return str(path), str(path)


def _check(text):
    """The aircraft's name for :func:`flightsim.verify.flight_table.measure`, once flightsim reads it and JSBSim
    loads and initialises it; ``InputError`` otherwise (flightsim's reason as ``flightsim aircraft`` gives it)."""
    from flightsim.commands.aircraft import refusal
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.verify.oracle import new_fdm, silenced

    spelled, name = _resolve(text)
    try:
        aircraft = load_aircraft(spelled)
    except InputError as exc:
        where = "" if Path(exc.source).name in (Path(name).name, f"{name}.xml") else f" ({exc.source})"
        raise InputError(text, "", f"flightsim does not fly it: {refusal(exc)}{where}") from None
    if aircraft.jsbsim is None:                      # (an aircraft TOML named .xml)
        raise InputError(text, "", "not a JSBSim aircraft file")
    try:
        with silenced(1, 2):
            new_fdm(name).run_ic()
    except Exception as exc:                         # JSBSim's RuntimeError, jsbsim.BaseError, ...
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(text, "", f"JSBSim cannot run it: {reason}") from None
    return name


def run(args):
    """Measure the aircraft and print its row (or ``--json``); the exit code says whether it is within bounds."""
    from flightsim.commands.first_start import GENERIC, first_start
    from flightsim.physics.compiling import CompileWatch
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.physics.jsbsim.xmlfile import aircraft_path
    from flightsim.verify.flight_oracle import PLANETS
    from flightsim.verify.flight_table import HEADER, measure, row_json, row_line, within
    from flightsim.verify.oracle import silenced

    if args.planet not in PLANETS:
        return _fail("--planet", f"must be round or flat, got {args.planet!r}")
    if args.integrator not in INTEGRATORS:
        return _fail("--integrator", f"unknown integrator {args.integrator!r} (see `flightsim integrators`)")
    try:
        name = _check(args.aircraft)
    except InputError as exc:
        return _fail(args.aircraft, exc.reason)
    said = []
    spelling, _ = _resolve(args.aircraft)
    cold = first_start(aircraft_path(spelling) if spelling.startswith("jsbsim:") else spelling, args.integrator)

    def say():
        if not said:
            print(f"flightsim: {cold.message if cold is not None else GENERIC}", file=sys.stderr, flush=True)
            said.append(True)

    with CompileWatch(on_first=say):
        row = measure(name, args.airspeed, args.altitude, dt=args.dt, integrator=args.integrator,
                      quiet=lambda: silenced(1), planet=args.planet)
    if args.json:
        print(json.dumps({**row_json(row), "integrator": args.integrator, "dt_s": args.dt, "planet": args.planet}))
    else:
        print("\n".join([*HEADER, row_line(row)]))
    return EXIT_WITHIN if within(row) else EXIT_OUTSIDE

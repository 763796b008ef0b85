"""Wind options of ``fly`` and ``simulate``, and ``flightsim wind`` (a turbulence series as CSV).

``--wind DEG@KNOTS`` (the direction it blows *from*, degrees true, and its
speed: ``270@15`` is from the West at 15 kt), ``--turbulence
none|light|moderate|severe``, ``--seed N``, ``--wind-shear power|log``
(with ``--wind-shear-height FT``), ``--gust START:SECONDS:DEG@KNOTS[:UP_KNOTS]``
(repeatable) and ``--scenario FILE`` (a scenario file's ``[wind]``).  Options
given on the command line win over the scenario's wind, which replaces the
aircraft file's optional ``[wind]`` section.  Knots only here, at the
user's boundary; ft/s inside.

No physics imported at parse time beyond :mod:`flightsim.physics.constants` (:data:`KNOT`).
"""

import argparse
import csv
import math

from flightsim.commands.options import number, output_file, seconds, write_error
from flightsim.errors import InputError
from flightsim.files import atomic_write
from flightsim.physics.constants import KNOT

LEVELS = ("none", "light", "moderate", "severe")


def wind_option(text):
    """An argparse ``type=`` for ``DEG@KNOTS``: ``(from_deg, knots)``, direction 0..360, speed ≥ 0."""
    deg, sep, kt = str(text).strip().partition("@")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected DEG@KNOTS (the direction it blows from and its speed), "
                                         f"e.g. 270@15, got {text!r}")
    try:
        direction, speed = float(deg), float(kt)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers DEG@KNOTS, e.g. 270@15, got {text!r}") from None
    if not (math.isfinite(direction) and 0.0 <= direction <= 360.0):
        raise argparse.ArgumentTypeError(f"direction must be 0..360 degrees, got {deg.strip()}")
    if not (math.isfinite(speed) and 0.0 <= speed <= 500.0):
        raise argparse.ArgumentTypeError(f"speed must be 0..500 kt, got {kt.strip()}")
    return direction, speed


wind_option.__name__ = "wind"


def turbulence_option(text):
    """An argparse ``type=`` for a turbulence level (:data:`LEVELS`)."""
    level = str(text).strip().lower()
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {text!r}; valid: {', '.join(LEVELS)}")
    return level


turbulence_option.__name__ = "turbulence"


def gust_option(text):
    """An argparse ``type=`` for ``START:SECONDS:DEG@KNOTS[:UP_KNOTS]``: a (1 − cos) gust.

    ``20:3:270@12`` peaks at 12 kt from the West 1.5 s after t = 20 s and is over at 23 s;
    ``40:2:0@0:-10`` is a 2 s downdraft of 10 kt.  Returns a :class:`~flightsim.physics.wind.Gust`.
    """
    from flightsim.physics.wind import gust_from

    parts = str(text).strip().split(":")
    if len(parts) not in (3, 4):
        raise argparse.ArgumentTypeError(f"expected START:SECONDS:DEG@KNOTS[:UP_KNOTS], e.g. 20:3:270@12, got {text!r}")
    try:
        start, duration = float(parts[0]), float(parts[1])
        up = float(parts[3]) if len(parts) == 4 else 0.0
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers START:SECONDS:DEG@KNOTS[:UP_KNOTS], got {text!r}") from None
    if not (math.isfinite(start) and start >= 0.0):
        raise argparse.ArgumentTypeError(f"start must be >= 0 s, got {parts[0].strip()}")
    if not (math.isfinite(duration) and duration > 0.0):
        raise argparse.ArgumentTypeError(f"duration must be > 0 s, got {parts[1].strip()}")
    if not (math.isfinite(up) and abs(up) <= 200.0):
        raise argparse.ArgumentTypeError(f"vertical speed must be -200..200 kt, got {parts[3].strip()}")
    direction, knots = wind_option(parts[2])
    return gust_from(start, duration, direction, knots, up)


gust_option.__name__ = "gust"


def add_wind_arguments(p):
    """``--wind``, ``--turbulence``, ``--seed``, ``--wind-shear``, ``--wind-shear-height``."""
    g = p.add_argument_group("wind")
    g.add_argument("--wind", type=wind_option, metavar="DEG@KNOTS",
                   help="steady wind: the direction it blows from (degrees true) and its speed, e.g. 270@15")
    g.add_argument("--turbulence", type=turbulence_option, metavar="LEVEL",
                   help="Dryden turbulence (MIL-F-8785C): none, light, moderate or severe (default none)")
    g.add_argument("--seed", type=number(int, minimum=0), metavar="N", help="seed of the turbulence (default 0)")
    g.add_argument("--wind-shear", choices=("power", "log"),
                   help="the wind weakens below --wind-shear-height: power law (1/7) or logarithmic boundary layer")
    g.add_argument("--wind-shear-height", type=number(float, minimum=1.0), metavar="FT",
                   help="height at and above which the wind is --wind (default 1000 ft)")
    g.add_argument("--gust", type=gust_option, action="append", metavar="START:SECONDS:DEG@KNOTS[:UP_KNOTS]",
                   help="a discrete (1 - cos) gust: starts at START s, lasts SECONDS, peaks at KNOTS from DEG "
                        "(and UP_KNOTS up, - for a downdraft); repeat for more, e.g. --gust 20:3:270@12")
    g.add_argument("--scenario", metavar="FILE",
                   help="a scenario file (TOML) with a [wind] section, or a shipped scenario's name "
                        "(crosswind, gusty); the options above win over it")


def wind_from_args(args, aircraft=None):
    """The :class:`~flightsim.physics.wind.WindSpec` the options (over the aircraft file's ``[wind]``) ask for.

    Returns None for still air.
    """
    from dataclasses import replace

    from flightsim.physics.wind import Shear, WindSpec

    spec = getattr(aircraft, "wind", None) or WindSpec()
    if getattr(args, "scenario", None) is not None:
        from flightsim.simulation.scenario import load_scenario

        spec = load_scenario(args.scenario).wind or WindSpec()
    if args.wind is not None:
        spec = replace(spec, from_deg=args.wind[0], speed=args.wind[1] * KNOT)
    if args.turbulence is not None:
        spec = replace(spec, turbulence=args.turbulence)
    if args.seed is not None:
        spec = replace(spec, seed=args.seed)
    if args.wind_shear is not None or args.wind_shear_height is not None:
        old = spec.shear or Shear()
        try:
            shear = replace(old, kind=args.wind_shear or old.kind,
                            height=old.height if args.wind_shear_height is None else args.wind_shear_height)
        except ValueError as exc:
            raise InputError("--wind-shear-height", "", str(exc).partition(": ")[2]) from None
        spec = replace(spec, shear=shear)
    if getattr(args, "gust", None):
        spec = replace(spec, gusts=tuple(args.gust))
    return None if spec.calm else spec


def add_arguments(p):
    """Options of ``flightsim wind``."""
    p.add_argument("--altitude", type=number(float, minimum=0.0, maximum=80000.0), default=500.0, metavar="FT",
                   help="height above the ground, ft (default 500)")
    p.add_argument("--airspeed", type=number(float, minimum=1.0, maximum=3000.0), default=160.0, metavar="FT_S",
                   help="airspeed, ft/s (default 160)")
    p.add_argument("--turbulence", type=turbulence_option, default="moderate", metavar="LEVEL",
                   help="none, light, moderate or severe (default moderate)")
    p.add_argument("--seed", type=number(int, minimum=0), default=0, metavar="N", help="noise seed (default 0)")
    p.add_argument("--duration", type=number(float, minimum=0.0), default=60.0, metavar="SECONDS",
                   help="length of the series, s (default 60)")
    p.add_argument("--dt", type=seconds, default=1.0 / 120.0, metavar="SECONDS",
                   help="sample step, s (default 1/120, the physics step)")
    p.add_argument("--wingspan", type=number(float, minimum=0.0, exclusive=True), metavar="FT",
                   help="wingspan for the rotational components (default: the book's airplane's)")
    p.add_argument("--out", required=True, metavar="CSV", help="write the series here")


#: Columns of ``flightsim wind --out``.
SERIES_COLUMNS = ("t", "wind_x", "wind_y", "wind_z", "p_g", "q_g", "r_g")


def run(args):
    """``flightsim wind``: the turbulence met flying straight and level North; writes :data:`SERIES_COLUMNS`."""
    out = output_file("--out", args.out)
    from flightsim.physics import aero
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.physics.wind import turbulence_series, wingspan_of

    span = args.wingspan if args.wingspan is not None else wingspan_of(aero.pack(load_aircraft()))
    series = turbulence_series(args.turbulence, args.altitude, args.airspeed, args.seed, args.duration, args.dt, span)
    try:
        with atomic_write(out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(SERIES_COLUMNS)
            for row in series:
                w.writerow([f"{v:.10g}" for v in row])
    except OSError as exc:
        raise write_error("--out", out, exc) from None
    sd = series[:, 1:4].std(axis=0)
    print(f"{args.turbulence} turbulence at {args.altitude:g} ft, {args.airspeed:g} ft/s, seed {args.seed}: "
          f"{len(series)} rows; σ north {sd[0]:.2f}, west {sd[1]:.2f}, up {sd[2]:.2f} ft/s -> {out}")
    return 0

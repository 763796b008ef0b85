"""What the subcommands share about their options: number parsing, output paths, error lines.

- :class:`OneLineParser`: argparse with the CLI's one-line errors
  (``flightsim: error: --dt: must be a number, got 'abc'``, exit code 2).
- ``type=`` callables: :func:`number` (fractions such as ``1/30`` where
  asked), :data:`seconds` (a physics step), :func:`window_size` (``WxH``).
- :func:`output_file`, :func:`output_folder`: an output path that cannot be
  written is found before a long run, as a one-line error.
- :func:`option_error`: the physics and the simulation raise plain
  ``ValueError("dt: must be finite and > 0, got 0")``, naming their
  argument; this turns that into the error of the flag that set it.

No GUI and no physics imported here: parsing options stays quick.
"""

from __future__ import annotations

import argparse
import errno
import math
import os
import re
from pathlib import Path

from flightsim.errors import InputError
from flightsim.files import check_writable_folder
from flightsim.resources import aircraft_path, shipped_aircraft

__all__ = ["FLAGS", "PLANETS", "OneLineParser", "add_aircraft_argument", "add_airfield_arguments",
           "add_atmosphere_argument", "add_planet_arguments", "add_terrain_argument", "aircraft", "airfield_options",
           "check_airfield_options", "autopilot_spec", "latitude", "longitude", "number", "option_error",
           "output_file", "output_folder", "planet_options", "seconds", "terrain_option", "window_size", "write_error"]

EXIT_USAGE = 2

FLAGS = {
    "dt": "--dt",
    "integrator": "--integrator",
    "atmosphere": "--atmosphere",
    "substeps": "--ghost-substeps",
    "airspeed": "--airspeed",
    "altitude": "--altitude",
    "climb_angle": "--climb-angle",
    "flaps": "--flaps",
    "bank": "--bank",
    "start": "--start",
    "wind": "--wind",
    "turbulence": "--turbulence",
    "wind_shear": "--wind-shear",
    "planet": "--planet",
    "latitude": "--lat",
    "longitude": "--lon",
    "terrain": "--terrain",
}
"""The simulation's argument names and the flags that set them."""

_ARGUMENT = re.compile(r"^argument (\S+): ")


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``flightsim: error: …``, and exit code 2.

    A bad option value names the option (``--dt: must be …``); other usage
    errors point to ``--help``.
    """

    def error(self, message):
        line, named = _ARGUMENT.subn(r"\1: ", message)
        if not named:
            line = f"{message} (see {self.prog} --help)"
        self.exit(EXIT_USAGE, f"flightsim: error: {line}\n")


def autopilot_spec(text):
    """``--autopilot SPEC``: comma-separated ``key=value`` of ``hdg``, ``alt``, ``vs``, ``ias``, ``app=36`` or
    ``app=ID/NN`` and ``nav=STATION/RADIAL``
    (:func:`flightsim.simulation.autopilot.parse_spec`, imported only when the option is given)."""
    from flightsim.simulation.autopilot import parse_spec

    try:
        return parse_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def option_error(exc):
    """The :class:`InputError` of the flag behind a simulation's ``ValueError("name: reason")``, or None.

    Parameters
    ----------
    exc : ValueError
        Raised by the physics or the simulation for a bad argument, its
        message starting with the argument's name (a key of :data:`FLAGS`).
    """
    name, sep, reason = str(exc).partition(": ")
    if not sep or name not in FLAGS:
        return None
    return InputError(FLAGS[name], "", reason)


def number(kind=float, *, minimum=None, exclusive=False, maximum=None, fraction=False):
    """An argparse ``type=`` for a finite number within bounds.

    Parameters
    ----------
    kind : {float, int}
        ``int`` asks for a whole number.
    minimum, maximum : float, optional
        Bounds; ``exclusive`` makes the minimum exclusive.
    fraction : bool
        Accept ``a/b`` as well (``--dt 1/30``).
    """

    def parse(text):
        value = _parse_number(text, kind, fraction)
        if minimum is not None and maximum is not None:
            ok = minimum <= value <= maximum
            wanted = f"{minimum:g}..{maximum:g}"
        elif minimum is not None:
            ok = value > minimum if exclusive else value >= minimum
            wanted = f"{'>' if exclusive else '≥'} {minimum:g}"
            if kind is float:
                wanted = f"finite and {wanted}"
        else:
            ok, wanted = True, ""
        if not ok or not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be {wanted or 'finite'}, got {text.strip()}")
        return value

    parse.__name__ = kind.__name__
    return parse


def _parse_number(text, kind, fraction):
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    try:
        if fraction and "/" in text:
            num, _, den = text.partition("/")
            return float(num) / float(den)
        return float(text)
    except (ValueError, ZeroDivisionError, OverflowError):
        example = " such as 0.01 or 1/30" if fraction else ""
        raise argparse.ArgumentTypeError(f"must be a number{example}, got {text!r}") from None


def aircraft(text):
    """An argparse ``type=`` for ``--aircraft``: a shipped aircraft's name (``c172``) or a path; returns the path."""
    try:
        return str(aircraft_path(text))
    except InputError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc.reason}") from None


def add_aircraft_argument(parser, what="the aircraft"):
    """``--aircraft NAME|PATH``, the same in every command that takes it."""
    parser.add_argument("--aircraft", type=aircraft, metavar="NAME|PATH",
                        help=f"{what}: a shipped one by name ({', '.join(shipped_aircraft())}; see `flightsim "
                             f"aircraft`) or an aircraft TOML file (default: bourg, the book's airplane)")


#: The planets ``--planet`` names: as :data:`flightsim.physics.planet.PLANET_CHOICES` (not imported: parsing stays
#: quick; tests/test_planet_cli.py checks they agree).
PLANETS = ("flat", "round")


def latitude(text):
    """An argparse ``type=`` for ``--lat``: degrees North (+) or South (−), within ±90°."""
    value = _parse_number(text, float, False)
    if not (math.isfinite(value) and -90.0 <= value <= 90.0):
        raise argparse.ArgumentTypeError(f"must be within ±90°, got {value}")
    return value


def longitude(text):
    """An argparse ``type=`` for ``--lon``: degrees East (+) or West (−), any finite number (wrapped into
    [−180°, 180°) by the simulation)."""
    value = _parse_number(text, float, False)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number of degrees, got {value}")
    return value


latitude.__name__ = "latitude"
longitude.__name__ = "longitude"


def add_planet_arguments(parser):
    """``--planet flat|round``, ``--lat DEG``, ``--lon DEG``: the planet a flight flies on and where on it the earth
    frame's origin (the home runway's centre) lies; the same in every command that takes them."""
    parser.add_argument("--planet", choices=PLANETS, default=None,
                        help="flat: the book's flat, still Earth; round: the rotating WGS-84 ellipsoid (a JSBSim "
                             "aircraft's own <planet> where its file has one) (default: the aircraft's: flat for "
                             "flightsim's own aircraft, round for JSBSim's)")
    parser.add_argument("--lat", type=latitude, default=None, metavar="DEG",
                        help="latitude of the earth frame's origin, the home runway's centre, deg (+ North; "
                             "default 0)")
    parser.add_argument("--lon", type=longitude, default=None, metavar="DEG",
                        help="longitude of the earth frame's origin, deg (+ East; default 0)")


def planet_options(args):
    """The ``planet``, ``lat`` and ``lon`` keyword arguments of a :class:`~flightsim.simulation.flight.Simulation`
    from the options of :func:`add_planet_arguments` (None where not given: the simulation's defaults)."""
    return {"planet": getattr(args, "planet", None), "lat": getattr(args, "lat", None),
            "lon": getattr(args, "lon", None)}


def add_atmosphere_argument(parser):
    """``--atmosphere constant|isa``: the air a flight flies in (``fly``, ``simulate``, ``trim``, ``modes``); absent
    (None), the aircraft's own (its file's ``atmosphere``: :func:`flightsim.physics.aircraft.atmosphere_of`)."""
    parser.add_argument("--atmosphere", default=None, choices=("constant", "isa"),
                        help="air density: the book's constant, or the standard atmosphere (default: the aircraft's "
                             "own, its file's `atmosphere`: constant for the book's airplane, isa for the c172 and "
                             "the JSBSim aircraft)")


def add_terrain_argument(parser):
    """``--terrain world|off``: the ground a flight stands on (``fly`` and ``simulate``; default the world's)."""
    parser.add_argument("--terrain", choices=("world", "off"), default="world",
                        help="world: the region's terrain under the gear and the crash check (hills, the range, "
                             "the airfields' pads); off: the flat plane z = 0 (default: world)")


def terrain_option(args):
    """The ``terrain`` keyword argument of a :class:`~flightsim.simulation.flight.Simulation` from
    :func:`add_terrain_argument`'s option: ``"world"``, or None for ``off``."""
    return None if getattr(args, "terrain", "world") == "off" else "world"


def add_failures_argument(parser):
    """``--failures FILE.toml``: failures on a schedule (``fly``, ``simulate``)."""
    parser.add_argument("--failures", metavar="TOML", default=None,
                        help="failures on a schedule: [[failure]] tables with kind, a trigger (at_s, above_ft, "
                             "below_ft or window_s) and engine, fraction, direction, probability, seed where they "
                             "apply (see README, Failures)")


def failures_option(args, aircraft):
    """The ``failures`` keyword argument of a :class:`~flightsim.simulation.flight.Simulation` from
    ``--failures`` (an empty tuple without it); a bad file is one :class:`~flightsim.errors.InputError`."""
    if getattr(args, "failures", None) is None:
        return ()
    from flightsim.simulation.failures import kinds_for, read_failures

    jsbsim = aircraft.jsbsim
    return read_failures(args.failures, engines=1 if jsbsim is None else jsbsim.engine_count,
                         kinds=kinds_for(aircraft))


def add_airfield_arguments(parser):
    """``--airfield ID``, ``--runway NN``: the runway end the ``runway`` and ``approach`` starts are placed at; the
    same in every command that takes them (checked by :func:`check_airfield_options`)."""
    parser.add_argument("--airfield", default=None, metavar="ID",
                        help="with --start runway or approach: the airfield (see `flightsim airfields`; the files "
                             "in configs/airfields/ and the folder $FLIGHTSIM_AIRFIELDS names) (default KHOM, the "
                             "home field)")
    parser.add_argument("--runway", default=None, metavar="NN",
                        help="with --start runway or approach: the runway end, e.g. 27 (default: the airfield's "
                             "first)")


def airfield_options(args):
    """The ``airfield`` and ``runway`` keyword arguments of :func:`flightsim.simulation.starts.make_start` from
    the options of :func:`add_airfield_arguments` (None where not given: the home runway 36)."""
    return {"airfield": getattr(args, "airfield", None), "runway": getattr(args, "runway", None)}


def check_airfield_options(args, kind):
    """Refuse ``--airfield``/``--runway`` with a start they do not place, and an unknown airfield or runway end
    (one line listing the valid ones), before anything is built.

    Raises
    ------
    flightsim.errors.InputError
        Naming the option; or a bad airfield file, naming it and its field.
    """
    options = airfield_options(args)
    if options["airfield"] is None and options["runway"] is None:
        return None
    if kind not in ("runway", "approach"):
        flag = "--airfield" if options["airfield"] is not None else "--runway"
        raise InputError(flag, "", f"places the runway and approach starts; add --start runway or --start approach "
                         f"(the start is {kind})")
    from flightsim.simulation.starts import start_end

    return start_end(**options)


#: The physics steps ``--dt`` accepts, s: a smaller one takes for ever (``1e-300`` never ends a second of flight),
#: a larger one is no flight at all.
MIN_STEP, MAX_STEP = 1e-5, 1.0


def seconds(text):
    """A physics step in seconds: a decimal or a fraction (``0.01``, ``1/30``) from :data:`MIN_STEP` to
    :data:`MAX_STEP`."""
    value = _parse_number(text, float, True)
    if not (math.isfinite(value) and MIN_STEP <= value <= MAX_STEP):
        raise argparse.ArgumentTypeError(f"must be a step from {MIN_STEP:g} to {MAX_STEP:g} s, got {text.strip()}")
    return value


def window_size(text):
    """An argparse ``type=`` for ``"WxH"`` in pixels: (width, height), each 1..16384."""
    parts = str(text).lower().replace(" ", "").split("x")
    try:
        width, height = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT in pixels, e.g. 1280x720, got {text!r}") from None
    if not (1 <= width <= 16384 and 1 <= height <= 16384):
        raise argparse.ArgumentTypeError(f"width and height must be 1..16384 pixels, got {text!r}")
    return width, height


window_size.__name__ = "size"


def output_file(option, text):
    """Check now that the file ``text`` (given with ``option``) can be written; return its path.

    Raises
    ------
    flightsim.errors.InputError
        Naming ``option``: the path is a folder, its folder does not exist,
        or no file can be created there.
    """
    path = Path(text).expanduser()
    if path.is_dir():
        raise InputError(option, "", f"{text!r} is a folder, not a file")
    if path.exists() and not path.is_file():       # a device or a pipe, written in place
        if not os.access(path, os.W_OK):
            raise InputError(option, "", f"cannot write {text!r} (permission denied)")
        return path
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        raise InputError(option, "", f"directory {str(path.parent)!r} does not exist")
    _check_folder(option, folder)
    return path


def output_folder(option, text, create=False):
    """Check now that files can be written in the folder ``text``; return its path.

    Parameters
    ----------
    create : bool
        The command creates the folder: then it may be missing, and the
        nearest existing folder above it must be writable.

    Raises
    ------
    flightsim.errors.InputError
        Naming ``option``.
    """
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise InputError(option, "", f"{text!r} exists and is not a folder")
    if not path.exists() and not create:
        raise InputError(option, "", f"directory {text!r} does not exist")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(option, "", f"{str(existing)!r} is not a folder")
    _check_folder(option, existing)
    return path


def _check_folder(option, folder):
    try:
        check_writable_folder(folder)
    except OSError as exc:
        # ENOENT in a folder that exists: a pseudo file system such as /proc
        why = "it takes no new files" if exc.errno == errno.ENOENT else exc.strerror or exc
        raise InputError(option, "", f"cannot create a file in {str(folder)!r} ({why})") from None


def write_error(option, path, exc):
    """The :class:`InputError` for an :class:`OSError` met writing ``path`` (given with ``option``)."""
    return InputError(option, "", f"cannot write {str(path)!r} ({exc.strerror or exc})")

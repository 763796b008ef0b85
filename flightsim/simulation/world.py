"""The world's airfields and radio stations, read from TOML files, laid in the home frame.

The **home frame** is flightsim's flat earth frame (x North, y West, z up, ft) with its origin at the home
runway's centre (:data:`flightsim.simulation.airfield.RUNWAY`), which lies at the planet module's default origin
(:data:`flightsim.physics.planet.DEFAULT_LAT`, :data:`~flightsim.physics.planet.DEFAULT_LON`: 0° N 0° E).  The
files give positions as geodetic latitude and longitude (deg, WGS-84) and elevations in ft above sea level;
:func:`local_xy` is the one conversion to the home frame, used on the flat and the round planet alike (on the
round planet a flight's view x, y are exactly these tangent-plane coordinates), and :func:`lat_lon` its inverse.

Files
-----
The shipped files are ``configs/airfields/*.toml`` (found through :func:`flightsim.resources.data_file`); a
user's own are read from the folder(s) named by the environment variable ``FLIGHTSIM_AIRFIELDS`` (several
separated by ``os.pathsep``), or given to :func:`load_airfields`.  They add to the shipped ones: an identifier
met twice (an airfield's, a runway end's within its field, a station's) is an error, so a changed copy of a
shipped airfield takes a new identifier.

An airfield file (one per airfield, for example ``KHOM.toml``)::

    id = "KHOM"                      # the identifier --airfield takes
    name = "Home Field"
    lat = 0.0                        # the reference point (the first runway's centre), deg, + North
    lon = 0.0                        # deg, + East
    elevation_ft = 0.0               # ft above sea level: the runways lie level at this height

    [[runway]]
    ends = ["36", "18"]              # the two ends' identifiers, the first landing along heading_deg
    threshold_lat = [-0.0041, 0.0041]  # each end's threshold, in the order of ends, deg
    threshold_lon = [0.0, 0.0]
    heading_deg = 0.0                # true landing heading of the first end, deg (within 2° of the thresholds')
    length_ft = 3000.0               # within 2 % (or 50 ft) of the thresholds' distance
    width_ft = 75.0
    surface = "asphalt"              # or "grass"
    lights = true                    # optional (default false)

    [[runway.ils]]                   # optional, one per end with an ILS
    end = "36"
    frequency_mhz = 109.9            # localizer: 108.10-111.95 MHz, odd tenths
    glide_slope_deg = 3.0

    [[vor]]                          # optional: a VOR (with DME) at the field
    id = "HOM"
    name = "Home"
    frequency_mhz = 113.9            # 108.00-117.95 MHz
    lat = 0.0
    lon = 0.0
    elevation_ft = 0.0
    dme = true

A file of stations away from airfields (``navaids.toml``) has only ``[[vor]]`` tables.  Every file is checked
by :class:`flightsim.schema.Checker`: a bad value is one :class:`~flightsim.errors.InputError` naming the file
and the field (``KCST.toml: runway[0].heading_deg: 95 disagrees with the thresholds' bearing 90.0° by 5.0°
(at most 2°)``).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from flightsim.errors import InputError
from flightsim.physics import planet as planets
from flightsim.schema import Checker, Number, did_you_mean, read_toml
from flightsim.simulation.airfield import Runway

__all__ = ["ENV_FOLDER", "HOME", "Airfield", "Ils", "RunwayData", "RunwayEnd", "Vor", "airfield", "airfield_files",
           "default_end", "lat_lon", "load_airfields", "load_world", "local_xy", "runway_end", "vors"]

#: The home field's identifier (its runway 36/18 is :data:`flightsim.simulation.airfield.RUNWAY`).
HOME = "KHOM"
#: The environment variable naming a user's folder(s) of airfield files (``os.pathsep`` between several).
ENV_FOLDER = "FLIGHTSIM_AIRFIELDS"
#: How far a runway's ``heading_deg`` may differ from its thresholds' bearing, deg.
HEADING_TOLERANCE = 2.0
#: How far its ``length_ft`` may differ from its thresholds' distance: this fraction, or :data:`LENGTH_SLACK` ft.
LENGTH_TOLERANCE = 0.02
LENGTH_SLACK = 50.0
#: A runway's centre is rounded to this (ft): a file's 12 decimals of a degree carry about 4e-7 ft.
CENTRE_ROUNDING = 1e-3

_END = re.compile(r"^(0[1-9]|[12][0-9]|3[0-6])[LCR]?$")
_SURFACES = ("asphalt", "grass")
_LAT = Number(ge=-90.0, le=90.0, unit="deg")
_LON = Number(ge=-180.0, le=180.0, unit="deg")
_ELEVATION = Number(ge=-1500.0, le=30000.0, unit="ft")


# ---------------------------------------------------------------------------
# The conversion
# ---------------------------------------------------------------------------

def _origin():
    lat0, lon0 = math.radians(planets.DEFAULT_LAT), math.radians(planets.DEFAULT_LON)
    north, west, _ = planets.local_axes(lat0, lon0)
    a, b = planets.WGS84.a, planets.WGS84.b
    return np.array(planets.ecef(lat0, lon0, 0.0, a, b)), north, west


_ORIGIN, _NORTH, _WEST = _origin()


def local_xy(lat, lon):
    """The home frame's (x, y) of geodetic ``lat``, ``lon`` (deg): the point on the WGS-84 ellipsoid there, its
    offset from the home frame's origin (0° N 0° E on the ellipsoid) projected on the origin's North and West
    axes (:func:`flightsim.physics.planet.ecef`, :func:`~flightsim.physics.planet.local_axes`).

    Returns
    -------
    tuple of float
        (x ft North, y ft West) in the tangent plane at the origin.
    """
    a, b = planets.WGS84.a, planets.WGS84.b
    p = np.array(planets.ecef(math.radians(float(lat)), math.radians(float(lon)), 0.0, a, b)) - _ORIGIN
    return float(p @ _NORTH), float(p @ _WEST)


def lat_lon(x, y):
    """The inverse of :func:`local_xy`: geodetic latitude and longitude (deg) of the point on the ellipsoid whose
    projection on the origin's tangent plane is (``x`` ft North, ``y`` ft West).

    Newton's method from :func:`flightsim.physics.planet.flat_geodetic`'s estimate, to 1e-9 ft.
    """
    x, y = float(x), float(y)
    lat, lon = (float(v) for v in planets.flat_geodetic(planets.DEFAULT_LAT, planets.DEFAULT_LON, x, y))
    h = 1e-6
    for _ in range(20):
        fx, fy = local_xy(lat, lon)
        r = np.array([fx - x, fy - y])
        if np.max(np.abs(r)) < 1e-9:
            break
        jac = np.empty((2, 2))
        jac[:, 0] = (np.array(local_xy(lat + h, lon)) - np.array(local_xy(lat - h, lon))) / (2 * h)
        jac[:, 1] = (np.array(local_xy(lat, lon + h)) - np.array(local_xy(lat, lon - h))) / (2 * h)
        d = np.linalg.solve(jac, -r)
        lat, lon = lat + float(d[0]), lon + float(d[1])
    return lat, lon


def bearing(x0, y0, x1, y1):
    """Heading (deg clockwise from North, 0..360) from home-frame (x0, y0) to (x1, y1)."""
    return math.degrees(math.atan2(-(y1 - y0), x1 - x0)) % 360.0


# ---------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Ils:
    """An instrument landing system on a runway end: localizer and glide slope.

    Attributes
    ----------
    end : str
        The runway end it serves (``"27"``).
    frequency_mhz : float
        The localizer's frequency (the glide slope is paired with it), MHz.
    glide_slope_deg : float
        The glide path's angle above the horizon, deg.
    """

    end: str
    frequency_mhz: float
    glide_slope_deg: float


@dataclass(frozen=True)
class Vor:
    """A VOR station with DME.

    Attributes
    ----------
    id, name : str
    frequency_mhz : float
    lat, lon : float
        deg.
    elevation_ft : float
        Its antenna's height above sea level, ft.
    dme : bool
    x, y : float
        Its home-frame position, ft (:func:`local_xy`).
    airfield : str or None
        The airfield whose file holds it (None: ``navaids.toml``'s).
    source : str
        The file.
    """

    id: str
    name: str
    frequency_mhz: float
    lat: float
    lon: float
    elevation_ft: float
    dme: bool
    x: float
    y: float
    airfield: str | None = None
    source: str = ""


@dataclass(frozen=True)
class RunwayData:
    """A runway as its airfield file gives it.

    Attributes
    ----------
    ends : tuple of str
        The two ends' identifiers; the first lands along ``heading_deg``.
    threshold_lat, threshold_lon : tuple of float
        Each end's threshold, deg, in the order of ``ends``.
    heading_deg : float
        True landing heading of the first end, deg.
    length_ft, width_ft : float
    surface : str
        ``"asphalt"`` or ``"grass"``.
    lights : bool
    ils : tuple of Ils
    elevation_ft : float
        Its airfield's elevation, ft.
    thresholds : tuple of tuple
        Each end's threshold in the home frame, (x, y) ft.
    """

    ends: tuple
    threshold_lat: tuple
    threshold_lon: tuple
    heading_deg: float
    length_ft: float
    width_ft: float
    surface: str
    lights: bool
    ils: tuple
    elevation_ft: float
    thresholds: tuple

    @property
    def id(self):
        """``"36/18"``."""
        return "/".join(self.ends)

    @property
    def center(self):
        """Home-frame (x, y) of its centre, ft (rounded to :data:`CENTRE_ROUNDING`)."""
        (x0, y0), (x1, y1) = self.thresholds
        return (_round(0.5 * (x0 + x1)), _round(0.5 * (y0 + y1)))

    def runway(self, end=None):
        """The :class:`flightsim.simulation.airfield.Runway` it is in the home frame, its first threshold ``end``
        (default the file's first end)."""
        first = 0 if end is None else self.ends.index(end)
        heading = self.heading_deg if first == 0 else (self.heading_deg + 180.0) % 360.0
        return Runway(center=self.center, heading_deg=heading, length=self.length_ft, width=self.width_ft,
                      numbers=(self.ends[first], self.ends[1 - first]))

    def ils_of(self, end):
        """The :class:`Ils` of ``end``, or None."""
        return next((i for i in self.ils if i.end == end), None)


def _round(v):
    return round(v / CENTRE_ROUNDING) * CENTRE_ROUNDING + 0.0


@dataclass(frozen=True)
class Airfield:
    """An airfield.

    Attributes
    ----------
    id, name : str
    lat, lon : float
        Its reference point, deg.
    elevation_ft : float
        ft above sea level.
    runways : tuple of RunwayData
    vors : tuple of Vor
        The stations its file holds.
    source : str
        Its file.
    """

    id: str
    name: str
    lat: float
    lon: float
    elevation_ft: float
    runways: tuple
    vors: tuple
    source: str

    @property
    def ends(self):
        """Every runway end's identifier, in the file's order."""
        return tuple(e for r in self.runways for e in r.ends)

    @property
    def position(self):
        """Home-frame (x, y) of its reference point, ft."""
        return local_xy(self.lat, self.lon)

    def as_dict(self):
        """The JSON form ``flightsim airfields --json`` prints."""
        return {
            "id": self.id, "name": self.name, "elevation_ft": self.elevation_ft, "lat": self.lat, "lon": self.lon,
            "runways": [{
                "id": r.id, "heading_deg": r.heading_deg, "length_ft": r.length_ft, "width_ft": r.width_ft,
                "surface": r.surface, "threshold_lat": list(r.threshold_lat), "threshold_lon": list(r.threshold_lon),
                "ils": [{"end": i.end, "frequency_mhz": i.frequency_mhz, "glide_slope_deg": i.glide_slope_deg}
                        for i in r.ils] or None,
            } for r in self.runways],
        }


@dataclass(frozen=True)
class RunwayEnd:
    """One runway end, as the starts and the approach use it.

    Attributes
    ----------
    airfield : str
        Its airfield's identifier.
    end : str
        Its identifier (``"27"``).
    threshold : tuple of float
        Home-frame (x, y) of its threshold, ft (``runway.threshold()``: from the runway's rounded centre).
    heading_deg : float
        Its landing heading, true, deg.
    elevation_ft : float
        The runway's height above sea level, ft.
    ils : Ils or None
    runway : flightsim.simulation.airfield.Runway
        The runway with this end as its first threshold.
    surface : str
    """

    airfield: str
    end: str
    threshold: tuple
    heading_deg: float
    elevation_ft: float
    ils: Ils | None
    runway: Runway
    surface: str = "asphalt"

    @property
    def name(self):
        """``"KCST 27"``."""
        return f"{self.airfield} {self.end}"


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def _ils(check, value, where, ends):
    out = check.fields(value, where, {"end": lambda c, v, w: c.choice(c.string(v, w), w, ends, "runway end"),
                                      "frequency_mhz": Number(ge=108.1, le=111.95, unit="MHz"),
                                      "glide_slope_deg": Number(ge=2.0, le=6.0, unit="deg")})
    tenths = round(out["frequency_mhz"] * 10.0) % 10
    if tenths % 2 == 0:
        check.fail(f"{where}.frequency_mhz", f"a localizer's frequency has an odd tenths digit (108.10, 108.15, "
                   f"108.30, ...), got {out['frequency_mhz']:g}")
    return Ils(out["end"], out["frequency_mhz"], out["glide_slope_deg"])


def _runway(check, value, where, elevation):
    check.table(value, where, ("ends", "threshold_lat", "threshold_lon", "heading_deg", "length_ft", "width_ft",
                               "surface"), ("lights", "ils"))
    ends = value["ends"]
    w = f"{where}.ends"
    if not isinstance(ends, list):
        check.fail(w, f"must be an array of two runway ends such as [\"36\", \"18\"], got {type(ends).__name__}")
    if len(ends) != 2:
        check.fail(w, f"must name both ends, such as [\"36\", \"18\"], got {len(ends)}")
    for i, e in enumerate(ends):
        check.string(e, f"{w}[{i}]")
        if not _END.match(e):
            check.fail(f"{w}[{i}]", f"a runway end is 01..36 with an optional L, C or R, got {e!r}")
    if ends[0] == ends[1]:
        check.fail(f"{w}[1]", f"the two ends must differ, got {ends[1]!r} twice")
    lats = check.numbers(value["threshold_lat"], f"{where}.threshold_lat", length=2, item=_LAT)
    lons = check.numbers(value["threshold_lon"], f"{where}.threshold_lon", length=2, item=_LON)
    heading = check.number(value["heading_deg"], f"{where}.heading_deg", ge=0.0, lt=360.0, unit="deg")
    length = check.number(value["length_ft"], f"{where}.length_ft", ge=300.0, le=20000.0, unit="ft")
    width = check.number(value["width_ft"], f"{where}.width_ft", ge=15.0, le=400.0, unit="ft")
    surface = check.choice(check.string(value["surface"], f"{where}.surface"), f"{where}.surface", _SURFACES,
                           "surface")
    lights = check.boolean(value["lights"], f"{where}.lights") if "lights" in value else False
    thresholds = tuple(local_xy(la, lo) for la, lo in zip(lats, lons, strict=True))
    (x0, y0), (x1, y1) = thresholds
    distance = math.hypot(x1 - x0, y1 - y0)
    if distance < 1.0:
        check.fail(f"{where}.threshold_lat", "the two thresholds are at the same place")
    along = bearing(x0, y0, x1, y1)
    off = abs((heading - along + 180.0) % 360.0 - 180.0)
    if off > HEADING_TOLERANCE:
        check.fail(f"{where}.heading_deg", f"{heading:g} disagrees with the thresholds' bearing {along:.1f}° by "
                   f"{off:.1f}° (at most {HEADING_TOLERANCE:g}°)")
    if abs(distance - length) > max(LENGTH_SLACK, LENGTH_TOLERANCE * length):
        check.fail(f"{where}.length_ft", f"{length:g} ft disagrees with the thresholds' distance {distance:.0f} ft "
                   f"(at most {LENGTH_TOLERANCE:.0%} or {LENGTH_SLACK:g} ft apart)")
    ils = value.get("ils", [])
    if not isinstance(ils, list):
        check.fail(f"{where}.ils", "must be an array of tables ([[runway.ils]])")
    systems = tuple(_ils(check, v, f"{where}.ils[{i}]", tuple(ends)) for i, v in enumerate(ils))
    for i, s in enumerate(systems):
        if any(t.end == s.end for t in systems[:i]):
            check.fail(f"{where}.ils[{i}].end", f"runway end {s.end!r} has an ILS already")
    return RunwayData(tuple(ends), tuple(lats), tuple(lons), heading, length, width, surface, lights, systems,
                      elevation, thresholds)


def _vor(check, value, where, airfield, source):
    out = check.fields(value, where, {"id": Checker.string, "name": Checker.string,
                                      "frequency_mhz": Number(ge=108.0, le=117.95, unit="MHz"), "lat": _LAT,
                                      "lon": _LON, "elevation_ft": _ELEVATION},
                       {"dme": Checker.boolean})
    x, y = local_xy(out["lat"], out["lon"])
    return Vor(out["id"], out["name"], out["frequency_mhz"], out["lat"], out["lon"], out["elevation_ft"],
               out.get("dme", True), x, y, airfield, str(source))


def _array_of_tables(check, data, key, where=""):
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        check.fail(key if not where else f"{where}.{key}", f"must be an array of tables ([[{key}]])")
    return value


def read_airfield_file(path):
    """One file's :class:`Airfield` (or None for a file of stations only) and its :class:`Vor` stations.

    Raises
    ------
    flightsim.errors.InputError
        A bad file: naming it, the field and the reason.
    """
    path = Path(path)
    data = read_toml(path)
    check = Checker(path.name if path.parent == airfield_files.shipped else path)
    if "id" not in data and "runway" not in data and "name" not in data:        # a file of stations
        check.table(data, "", ("vor",))
        return None, tuple(_vor(check, v, f"vor[{i}]", None, path)
                           for i, v in enumerate(_array_of_tables(check, data, "vor")))
    check.table(data, "", ("id", "name", "lat", "lon", "elevation_ft", "runway"), ("vor",))
    ident = check.string(data["id"], "id")
    if not re.match(r"^[A-Z0-9]{2,6}$", ident):
        check.fail("id", f"an airfield's identifier is 2 to 6 capital letters or digits, got {ident!r}")
    name = check.string(data["name"], "name")
    lat = _LAT(check, data["lat"], "lat")
    lon = _LON(check, data["lon"], "lon")
    elevation = _ELEVATION(check, data["elevation_ft"], "elevation_ft")
    rows = _array_of_tables(check, data, "runway")
    if not rows:
        check.fail("runway", "an airfield needs at least one runway ([[runway]])")
    runways = tuple(_runway(check, v, f"runway[{i}]", elevation) for i, v in enumerate(rows))
    seen = []
    for i, r in enumerate(runways):
        for k, e in enumerate(r.ends):
            if e in seen:
                check.fail(f"runway[{i}].ends[{k}]", f"duplicate runway end {e!r}")
            seen.append(e)
    stations = tuple(_vor(check, v, f"vor[{i}]", ident, path)
                     for i, v in enumerate(_array_of_tables(check, data, "vor")))
    return Airfield(ident, name, lat, lon, elevation, runways, stations, str(path)), stations


def airfield_files(folder=None):
    """The airfield files read: the shipped ones, then each user folder's (``folder``, or else
    :data:`ENV_FOLDER`'s), sorted by name within each folder.

    Raises
    ------
    flightsim.errors.InputError
        A user folder that does not exist.
    """
    folders = [airfield_files.shipped]
    if folder is not None:
        extra = [(str(folder), "folder")]
    else:
        extra = [(f, ENV_FOLDER) for f in os.environ.get(ENV_FOLDER, "").split(os.pathsep) if f.strip()]
    for f, named in extra:
        p = Path(f).expanduser()
        if not p.is_dir():
            raise InputError(named, "", f"{f!r} is not a folder of airfield files")
        folders.append(p)
    return [p for f in folders for p in sorted(f.glob("*.toml"))]


def _shipped():
    from flightsim.resources import data_file

    return data_file("configs", "airfields")


airfield_files.shipped = _shipped()


@dataclass(frozen=True)
class World:
    """Every airfield (by identifier, in reading order) and every VOR station."""

    airfields: dict
    vors: tuple


def load_world(folder=None):
    """The airfields and stations of :func:`airfield_files` (cached by their paths and modification times).

    Raises
    ------
    flightsim.errors.InputError
        A bad file, or an identifier met twice (naming the second file and its field).
    """
    files = airfield_files(folder)
    key = tuple((str(p), p.stat().st_mtime_ns) for p in files)
    return _load(key)


@lru_cache(maxsize=8)
def _load(key):
    fields, stations = {}, {}
    for path, _ in key:
        field, vors_here = read_airfield_file(path)
        name = Path(path).name if Path(path).parent == airfield_files.shipped else path
        if field is not None:
            if field.id in fields:
                raise InputError(name, "id", f"duplicate airfield {field.id!r} (also in {fields[field.id].source})")
            fields[field.id] = field
        for i, v in enumerate(vors_here):
            if v.id in stations:
                raise InputError(name, f"vor[{i}].id", f"duplicate station {v.id!r} (also in "
                                 f"{stations[v.id].source})")
            stations[v.id] = v
    return World(fields, tuple(stations.values()))


def load_airfields(folder=None):
    """Every airfield, ``{id: Airfield}`` in reading order (see :func:`load_world`)."""
    return load_world(folder).airfields


def vors(folder=None):
    """Every VOR station, the airfields' and ``navaids.toml``'s (see :func:`load_world`)."""
    return load_world(folder).vors


def airfield(ident, folder=None):
    """The :class:`Airfield` ``ident``.

    Raises
    ------
    flightsim.errors.InputError
        ``--airfield: unknown airfield 'X'; did you mean 'Y'? (valid: KHOM, ...)``.
    """
    fields = load_airfields(folder)
    if ident not in fields:
        raise InputError("--airfield", "", f"unknown airfield {ident!r}" + did_you_mean(ident, fields)
                         + f" (valid: {', '.join(fields)})")
    return fields[ident]


def default_end(ident, folder=None):
    """The runway end a start at airfield ``ident`` takes without ``--runway``: its first runway's first end."""
    return airfield(ident, folder).runways[0].ends[0]


def runway_end(airfield_id, end=None, folder=None):
    """The :class:`RunwayEnd` ``end`` of airfield ``airfield_id`` (default :func:`default_end`).

    Raises
    ------
    flightsim.errors.InputError
        An unknown airfield (``--airfield``) or end (``--runway: unknown runway end '12' at KCST; ... (valid:
        09, 27)``).
    """
    field = airfield(airfield_id, folder)
    end = field.runways[0].ends[0] if end is None else str(end)
    for r in field.runways:
        if end in r.ends:
            runway = r.runway(end)
            return RunwayEnd(field.id, end, tuple(float(v) for v in runway.threshold()), runway.heading_deg,
                             field.elevation_ft, r.ils_of(end), runway, r.surface)
    raise InputError("--runway", "", f"unknown runway end {end!r} at {field.id}" + did_you_mean(end, field.ends)
                     + f" (valid: {', '.join(field.ends)})")

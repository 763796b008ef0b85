"""Radio navigation: VOR/DME stations and ILS (localizer and glide slope), received by a NAV radio.

Frame: the home frame of :mod:`flightsim.simulation.world` (x North, y West, z up, ft; headings and radials
true, degrees clockwise from North: the region has no magnetic variation).  The stations come from the airfield
files (:func:`flightsim.simulation.world.load_airfields`) and ``configs/airfields/navaids.toml``.

What the radio shows, from the airplane's position (its CG stands for its antennas):

===============  ========================================================================================
VOR              ``radial``: the bearing of the airplane from the station (deg); ``to_from``: ``"TO"``
                 where flying the selected course (OBS) leads to the station, else ``"FROM"``;
                 course deviation in dots, **±10° full scale = 5 dots** (2° a dot)
localizer        the angle off the runway's centreline seen from the localizer antenna (on the centreline
                 :data:`LOC_BEYOND` ft beyond the far end), **±2.5° full scale = 5 dots** (0.5° a dot)
glide slope      the elevation angle of the airplane seen from the glide-slope antenna (:data:`GS_PAST` ft
                 past the threshold, :data:`GS_BESIDE` ft left of the centreline, at the runway's elevation)
                 less the glide path's angle, **±0.7° full scale = 5 dots** (0.14° a dot)
DME              slant range (nm) to the VOR, or for an ILS to its glide-slope antenna (reads about 0.2 nm
                 at touchdown)
===============  ========================================================================================

Signs, as the needles move: the course deviation is + when the course lies to the right (fly right: the
airplane is left of it), the glide slope's + when the path lies above (fly up).  The dots are not clamped (a
needle pegs at 5: the HSI clamps).  The signal is lost (every reading NaN) beyond the station's range
(:data:`VOR_RANGE_NM`, :data:`ILS_RANGE_NM`), outside a localizer's ±:data:`LOC_SECTOR`° front sector (the
glide slope also past its antenna), or where the terrain hides the station: the straight line from the antenna
to the airplane is sampled every :data:`SIGHT_STEP` ft against the terrain's height (line of sight; no
diffraction, no Earth curvature beyond the terrain's own), looked at again each :data:`SIGHT_MOVE` ft the
airplane moves.  The trace writes a lost signal as ``nan``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["ILS_RANGE_NM", "NM", "NavRadio", "Reading", "Station", "VOR_RANGE_NM", "default_station", "line_of_sight",
           "receive", "station", "stations", "terrain_heights"]

#: One nautical mile, ft.
NM = 6076.115
#: Ranges (nm).
VOR_RANGE_NM = 40.0
ILS_RANGE_NM = 18.0
#: Full scales: degrees for five dots.
VOR_FULL_SCALE = 10.0
LOC_FULL_SCALE = 2.5
GS_FULL_SCALE = 0.7
DOTS = 5.0
#: Antenna places (ft): the localizer beyond the far end on the centreline, the glide slope past the threshold
#: and to the left of the centreline (landing direction); antennas this high above the ground.
LOC_BEYOND = 1000.0
GS_PAST = 1000.0
GS_BESIDE = 250.0
ANTENNA_HEIGHT = 10.0
#: The localizer's front sector (± deg about the approach course).
LOC_SECTOR = 35.0
#: Line of sight: the spacing of the samples along the line (ft), and how far the airplane moves before it is
#: looked at again (ft: a trace's rows and the HSI's frames between hold the last answer).
SIGHT_STEP = 500.0
SIGHT_MOVE = 100.0


@dataclass(frozen=True)
class Station:
    """A VOR or an ILS, in the home frame (ft).

    Attributes
    ----------
    kind : str
        ``"VOR"`` or ``"ILS"``.
    ident : str
        The identifier the radio shows: a VOR's id (``HOM``), an ILS's ``I-`` + its airfield and runway end
        (``I-KVAL27``).
    frequency : float
        MHz.
    x, y, z : float
        The antenna (a VOR's; an ILS's localizer's), ft.
    range_nm : float
    course : float
        An ILS's approach course (the runway end's heading, deg); a VOR's 0.
    gs : tuple of float
        An ILS's glide-slope antenna (x, y, z) ft; empty for a VOR.
    glide : float
        An ILS's glide path angle (deg); 0 for a VOR.
    airfield, runway : str
        An ILS's airfield id and runway end (``KVAL``, ``27``); a VOR's airfield (or '') and ''.
    threshold : tuple of float
        An ILS's threshold (x, y) and the runway's elevation (ft); empty for a VOR.
    """

    kind: str
    ident: str
    frequency: float
    x: float
    y: float
    z: float
    range_nm: float
    course: float = 0.0
    gs: tuple = ()
    glide: float = 0.0
    airfield: str = ""
    runway: str = ""
    threshold: tuple = ()

    @classmethod
    def vor(cls, ident, frequency, x, y, z, airfield=""):
        """A VOR/DME with its antenna at (x, y, z) ft (z above sea level)."""
        return cls("VOR", ident, float(frequency), float(x), float(y), float(z), VOR_RANGE_NM, airfield=airfield)

    @classmethod
    def ils(cls, airfield, runway, frequency, threshold_x, threshold_y, heading, length, elevation, glide=3.0):
        """The ILS of runway end ``runway`` of ``airfield``: threshold (x, y) ft, landing heading (deg), the
        runway's length and elevation (ft), glide path (deg); the antennas as the module docstring places them."""
        h = math.radians(heading)
        ax, ay = math.cos(h), -math.sin(h)              # along the landing run (y West)
        lx, ly = math.sin(h), math.cos(h)               # left of it
        loc = (threshold_x + (length + LOC_BEYOND) * ax, threshold_y + (length + LOC_BEYOND) * ay)
        gs = (threshold_x + GS_PAST * ax + GS_BESIDE * lx, threshold_y + GS_PAST * ay + GS_BESIDE * ly,
              elevation + ANTENNA_HEIGHT)
        return cls("ILS", f"I-{airfield}{runway}", float(frequency), loc[0], loc[1], elevation + ANTENNA_HEIGHT,
                   ILS_RANGE_NM, course=float(heading), gs=tuple(float(v) for v in gs), glide=float(glide),
                   airfield=airfield, runway=str(runway),
                   threshold=(float(threshold_x), float(threshold_y), float(elevation)))

    @property
    def name(self):
        """What a station list shows: ``HOM 113.90`` or ``I-KVAL27 108.70``."""
        return f"{self.ident} {self.frequency:.2f}"


@dataclass(frozen=True)
class Reading:
    """What the NAV radio shows (NaN and None where there is no signal).

    Attributes
    ----------
    ident : str or None
        The station received (None: no signal).
    course_dots, gs_dots : float
        Course (VOR or localizer) and glide-slope deviation, dots (signs: the module docstring); ``gs_dots`` NaN
        for a VOR.
    dme_nm : float
        Slant range, nm.
    radial : float
        A VOR's radial (deg) the airplane is on; NaN for an ILS.
    to_from : str or None
        ``"TO"`` or ``"FROM"`` (a VOR; an ILS reads ``"TO"``).
    """

    ident: str | None
    course_dots: float
    gs_dots: float
    dme_nm: float
    radial: float
    to_from: str | None

    @property
    def valid(self):
        return self.ident is not None


NO_SIGNAL = Reading(None, math.nan, math.nan, math.nan, math.nan, None)


def _wrap(a):
    """Angles (deg) to [-180, 180)."""
    return (np.asarray(a, dtype=np.float64) + 180.0) % 360.0 - 180.0


def line_of_sight(height, a, b, step=SIGHT_STEP):
    """True where the straight lines from ``a`` to each of ``b`` clear the terrain.

    Parameters
    ----------
    height : callable or None
        ``height(x, y)`` -> terrain height (ft above sea level) at arrays of home-frame points; None: no terrain
        (always in sight).
    a : array_like
        ``(3,)`` the antenna (x, y, z) ft.
    b : array_like
        ``(N, 3)`` or ``(3,)`` the airplane(s), ft.
    step : float
        Spacing of the samples along each line (ft); the ends themselves are not sampled.

    Returns
    -------
    numpy.ndarray or bool
        ``(N,)`` bool (a bool for one point).
    """
    b = np.asarray(b, dtype=np.float64)
    one = b.ndim == 1
    b = b.reshape(-1, 3)
    clear = np.ones(b.shape[0], dtype=bool)
    if height is None:
        return bool(clear[0]) if one else clear
    a = np.asarray(a, dtype=np.float64)
    d = b - a
    n = np.maximum(np.ceil(np.hypot(d[:, 0], d[:, 1]) / step).astype(np.int64), 1)
    count = int(n.max())
    # (N, count) fractions in (0, 1): each line's own count of samples, the rest repeating its last
    k = np.minimum(np.arange(1, count + 1)[None, :], n[:, None] - 1)
    f = np.where(n[:, None] > 1, k / n[:, None], 0.5)
    for lo in range(0, b.shape[0], 2048):                    # in chunks: bounded memory
        hi = lo + 2048
        ff = f[lo:hi]
        px = a[0] + ff * d[lo:hi, 0:1]
        py = a[1] + ff * d[lo:hi, 1:2]
        pz = a[2] + ff * d[lo:hi, 2:3]
        ground = np.asarray(height(px.ravel(), py.ravel()), dtype=np.float64).reshape(px.shape)
        clear[lo:hi] = np.all(ground < pz, axis=1)
    return bool(clear[0]) if one else clear


def terrain_heights(terrain):
    """A vectorised ``height(x, y)`` (ft above sea level, home frame) for line of sight over ``terrain``: a
    flight's ``terrain`` argument (None or ``"off"``: None, no terrain; ``"world"``: the shipped region's), or a
    :class:`flightsim.physics.terrain.Terrain` (its ``height``: the physics' own triangles), or any object with
    ``heights``, ``x0``, ``y0``, ``spacing`` (bilinear over that grid, sea level outside)."""
    if terrain is None or (isinstance(terrain, str) and terrain == "off"):
        return None
    if isinstance(terrain, str):
        from flightsim.physics.terrain import load_terrain

        terrain = load_terrain()
    if hasattr(terrain, "height"):
        return terrain.height
    h = np.asarray(terrain.heights, dtype=np.float64)
    x0, y0, s = float(terrain.x0), float(terrain.y0), float(terrain.spacing)
    ni, nj = h.shape

    def height(x, y):
        u = (np.asarray(x, dtype=np.float64) - x0) / s
        v = (np.asarray(y, dtype=np.float64) - y0) / s
        inside = (u >= 0.0) & (u <= ni - 1) & (v >= 0.0) & (v <= nj - 1)
        i = np.clip(np.floor(u).astype(np.int64), 0, ni - 2)
        j = np.clip(np.floor(v).astype(np.int64), 0, nj - 2)
        fu, fv = np.clip(u - i, 0.0, 1.0), np.clip(v - j, 0.0, 1.0)
        z = ((1 - fu) * (1 - fv) * h[i, j] + fu * (1 - fv) * h[i + 1, j] + (1 - fu) * fv * h[i, j + 1]
             + fu * fv * h[i + 1, j + 1])
        return np.where(inside, z, float(getattr(terrain, "sea_level", 0.0)))

    return height


def receive(station, obs, xyz, height=None, sight=None):
    """The readings of ``station`` with the course selector at ``obs`` (deg) at the points ``xyz`` ``(N, 3)`` ft;
    ``sight``: ``(N,)`` bool, whether each sees the station (None: found over ``height``).

    Returns
    -------
    dict of numpy.ndarray
        ``course_dots``, ``gs_dots``, ``dme_nm``, ``radial`` (NaN where lost), ``to`` (bool), ``valid`` (bool),
        each ``(N,)``.
    """
    p = np.asarray(xyz, dtype=np.float64).reshape(-1, 3)
    ant = np.array([station.x, station.y, station.z])
    d = p - ant
    bearing = np.degrees(np.arctan2(-d[:, 1], d[:, 0])) % 360.0       # from the antenna, clockwise from North
    nan = np.full(p.shape[0], np.nan)
    if station.kind == "VOR":
        valid = np.linalg.norm(d, axis=1) <= station.range_nm * NM
        off = _wrap(bearing - obs)
        to = np.abs(off) > 90.0
        dots = np.where(to, _wrap(bearing - obs - 180.0), -off) / (VOR_FULL_SCALE / DOTS)
        dme = np.linalg.norm(d, axis=1) / NM
        radial, gs = bearing, nan
    else:
        off = _wrap(bearing - station.course - 180.0)                  # + : right of the centreline, inbound
        valid = (np.linalg.norm(d, axis=1) <= station.range_nm * NM) & (np.abs(off) <= LOC_SECTOR)
        dots = off / (LOC_FULL_SCALE / DOTS)
        g = p - np.array(station.gs)
        h = math.radians(station.course)
        before = -(g[:, 0] * math.cos(h) - g[:, 1] * math.sin(h))     # ft before the GS antenna, inbound
        angle = np.degrees(np.arctan2(g[:, 2] + ANTENNA_HEIGHT, np.hypot(g[:, 0], g[:, 1])))
        gs = np.where(before > 0.0, (station.glide - angle) / (GS_FULL_SCALE / DOTS), np.nan)
        dme = np.linalg.norm(g, axis=1) / NM
        radial, to = nan, np.ones(p.shape[0], dtype=bool)
    if sight is not None:
        valid &= np.asarray(sight, dtype=bool)
    elif height is not None and np.any(valid):
        clear = line_of_sight(height, ant, p[valid])
        valid[np.flatnonzero(valid)[~clear]] = False
    lost = ~valid
    return {"course_dots": np.where(lost, np.nan, dots), "gs_dots": np.where(lost, np.nan, gs),
            "dme_nm": np.where(lost, np.nan, dme), "radial": np.where(lost, np.nan, radial), "to": to,
            "valid": valid}


_STATIONS = (None, ())


def stations():
    """Every station of the world: the VORs, then the ILSs, as the airfield files give them (cached while the
    files are unchanged, :func:`flightsim.simulation.world.load_world`).

    Raises
    ------
    flightsim.errors.InputError
        A bad airfield file.
    """
    global _STATIONS
    from flightsim.simulation import world

    w = world.load_world()
    if _STATIONS[0] is not w:
        _STATIONS = (w, tuple(world_stations(w)))
    return _STATIONS[1]


def world_stations(w):
    """The :class:`Station` list of a :class:`flightsim.simulation.world.World`: its VORs, then its ILSs."""
    from flightsim.simulation import world

    out = [Station.vor(v.id, v.frequency_mhz, v.x, v.y, v.elevation_ft, v.airfield or "") for v in w.vors]
    for field in w.airfields.values():
        for rwy in field.runways:
            for ils in rwy.ils:
                end = world.runway_end(field.id, ils.end)
                out.append(Station.ils(field.id, ils.end, ils.frequency_mhz, end.threshold[0], end.threshold[1],
                                       end.heading_deg, rwy.length_ft, field.elevation_ft, ils.glide_slope_deg))
    return out


def station(key):
    """The station named ``key``: a VOR's id (``HOM``), an ILS's ``KVAL/27`` or ``I-KVAL27``, or a frequency
    (``108.70``, MHz).

    Raises
    ------
    ValueError
        One line listing the stations there are.
    """
    text = str(key).strip().upper()
    everything = stations()
    try:
        mhz = float(text)
    except ValueError:
        mhz = None
    for s in everything:
        if mhz is not None and abs(s.frequency - mhz) < 0.005:
            return s
        if text in (s.ident, f"{s.airfield}/{s.runway}") and (s.kind == "ILS" or text == s.ident):
            return s
    raise ValueError(f"no station {key!r}; there are " + ", ".join(s.name for s in everything))


def default_station(start=None):
    """What a flight's radio tunes first: the ILS of the runway end ``start`` was placed at
    (:attr:`Start.end <flightsim.simulation.starts.Start.end>`, where that end has an ILS), else the home VOR
    ``HOM``."""
    end = getattr(start, "end", None)
    if end is not None and getattr(end, "ils", None) is not None:
        return f"{end.airfield}/{end.end}"
    return "HOM"


class NavRadio:
    """A NAV receiver: a tuned station (or none) and a course selector (OBS).

    Attributes
    ----------
    station : Station or None
    obs : float
        The selected course, deg (an ILS's course is its runway's: tuning one sets it).
    height : callable or None
        The terrain's ``height(x, y)`` for line of sight (:func:`terrain_heights`); None: no terrain.

    ``default``: what to tune when the station is first asked for, if nothing was tuned (a key for
    :func:`station`: a flight's radio tunes the world's files only when read; a station the files lack leaves
    it untuned).
    """

    def __init__(self, station=None, obs=0.0, height=None, default=None):
        self._station = None
        self._default = default
        self.obs = float(obs) % 360.0
        self.height = height
        self._sight = None                  # (station, where, clear) of the last look at the station
        if station is not None:
            self.tune(station)

    @property
    def station(self):
        """The tuned :class:`Station` (None: nothing tuned)."""
        if self._station is None and self._default is not None:
            default, self._default = self._default, None
            try:
                self.tune(default)
            except (ValueError, OSError):
                pass
        return self._station

    def tune(self, key):
        """Tune a :class:`Station`, or what :func:`station` finds for ``key``; an ILS sets the OBS to its course.

        Raises
        ------
        ValueError
            An unknown station or frequency (one line listing them).
        """
        s = key if isinstance(key, Station) else station(key)
        self._station, self._default = s, None
        if s.kind == "ILS":
            self.obs = s.course
        return s

    def set_obs(self, course):
        """Select the course ``course`` (deg, any number: wrapped to 0..360)."""
        self.obs = float(course) % 360.0

    @property
    def frequency(self):
        return None if self.station is None else self.station.frequency

    def read(self, xyz):
        """The :class:`Reading` at the point ``xyz`` (home frame, ft)."""
        if self.station is None:
            return NO_SIGNAL
        p = np.asarray(xyz, dtype=np.float64)[:3]
        sight = None
        if self.height is not None:
            last = self._sight
            if last is None or last[0] is not self.station or np.linalg.norm(p - last[1]) > SIGHT_MOVE:
                ant = (self.station.x, self.station.y, self.station.z)
                last = self._sight = (self.station, p.copy(), line_of_sight(self.height, ant, p))
            sight = np.array([last[2]])
        r = receive(self.station, self.obs, p, sight=sight)
        if not r["valid"][0]:
            return NO_SIGNAL
        return Reading(self.station.ident, float(r["course_dots"][0]), float(r["gs_dots"][0]),
                       float(r["dme_nm"][0]), float(r["radial"][0]), "TO" if r["to"][0] else "FROM")

    def rows(self, xyz):
        """``(N, 3)`` trace columns ``nav_dev_dots``, ``gs_dev_dots``, ``dme_nm`` at the points ``xyz``
        ``(N, 3)`` (NaN where there is no signal)."""
        xyz = np.asarray(xyz, dtype=np.float64).reshape(-1, 3)
        if self.station is None:
            return np.full((xyz.shape[0], 3), np.nan)
        sight = None
        if self.height is not None and xyz.shape[0]:
            # looked at where the path has moved SIGHT_MOVE ft since the last look, held between
            moved = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(xyz, axis=0), axis=1))])
            bucket = np.floor(moved / SIGHT_MOVE).astype(np.int64)
            first = np.flatnonzero(np.concatenate([[True], bucket[1:] != bucket[:-1]]))
            ant = (self.station.x, self.station.y, self.station.z)
            looked = line_of_sight(self.height, ant, xyz[first])
            sight = looked[np.searchsorted(first, np.arange(xyz.shape[0]), side="right") - 1]
        r = receive(self.station, self.obs, xyz, sight=sight)
        return np.column_stack([r["course_dots"], r["gs_dots"], r["dme_nm"]])

"""An autopilot for every aircraft flightsim flies: it moves the pilot's controls, as a pilot would.

Modes, as a light airplane's two-axis autopilot with an autothrottle has them:

==========  ====================================================================
lateral     ``ROL`` wing leveller (bank 0); ``HDG`` heading select; ``LOC`` the
            centreline of runway 36 (its extension to the South), or of an ILS
            runway end's, flown as a ground track, so a crosswind is crabbed
            into; ``NAV`` a VOR's radial: the line through the station along
            the selected course, intercepted at up to :data:`LOC_MAX`° and held
            as a ground track
vertical    ``ALT`` altitude hold (and select: the ``VS`` it climbs or descends
            at, captured as it arrives); ``VS`` vertical speed; ``GS`` a 3°
            path to runway 36's aim point (:data:`flightsim.simulation.starts.AIM_DISTANCE`
            past the threshold), or an ILS's glide path (its angle, from the
            runway's elevation abeam the glide-slope antenna,
            :data:`flightsim.simulation.navigation.GS_PAST` past the threshold)
speed       ``SPD`` indicated airspeed by the throttle while a vertical mode holds
            the path; by the pitch when none does (``PIT``)
==========  ====================================================================

The selections (:func:`parse_spec`): ``app=36`` the home runway 36 as ever; ``app=KVAL/27`` the ILS of an
airfield's runway end (``APR``: ``LOC`` + ``GS`` on its geometry: threshold, heading, elevation and glide
path, the same law as ``app=36``'s); ``nav=HOM/090`` the ``NAV`` mode on that VOR's line of course 090
(outbound on its 090 radial past the station, inbound on its 270 radial before it), with ``alt``, ``vs`` and
``ias`` as ever.  Engaged on a :class:`~flightsim.simulation.flight.Simulation`, they tune its NAV radio
(``sim.nav``) to the station and course flown (``app=36``: the ILS of KHOM 36, whose glide path, from
1000 ft past the threshold, lies 31 ft above the one app=36 flies, to its aim point 400 ft past).  The law
flies the station's geometry, not the radio's needles: the path the needles show centred, without their
angular (distance-dependent) gain; a signal lost behind terrain does not disengage it.

The coupled approach (``LOC`` + ``GS``) hands back at :data:`APPROACH_MINIMUM` ft above
the runway: the autopilot disconnects, saying so (:attr:`Autopilot.message`, with
:attr:`Autopilot.chime` set for the HUD).  A pilot's input on a surface or the throttle
beyond :data:`PILOT_THRESHOLD` of its travel (relative to what the autopilot last set)
disconnects it, naming the control.

Every loop is a cascade of first-order responses whose gains come from the aircraft
itself — its trim at the flight condition where the autopilot is engaged and the
linearisation there (:func:`flightsim.physics.modes.linearize`): the control power of
each surface (``B``: roll, pitch and yaw acceleration per unit aileron, elevator and
rudder; forward acceleration per unit throttle) and the axis's own damping (``A``),
scaled with the dynamic pressure as the speed changes.  No table per airplane:

- bank → roll rate → aileron: ``p_c = (φ_c − φ)/τ_φ``, ``δa = (ω_p (p_c − p) − L_p p_c)/L_δa`` (so that
  ``ṗ = (L_p − ω_p)(p − p_c)``), with a slow integral of the bank error for an aileron trim;
- heading (or track) → bank: ``φ_c = V ψ̇_c / g`` with ``ψ̇_c = Δψ/τ_ψ`` (at most a standard-rate turn,
  and :data:`MAX_BANK`);
- altitude → vertical speed → flight-path angle → pitch → elevator: ``θ_c = θ + (γ_c − γ)``, a second-order
  pitch loop of natural frequency :data:`PITCH_FREQUENCY` on the elevator's power ``M_δe`` and the pitch damping
  ``M_q``, with an integral that finds the elevator the speed needs;
- airspeed → throttle: ``δt = δt_0 + k (V_c − V) + ∫``, ``k = ω_v/X_δt``; or airspeed → flight-path angle by
  energy (``γ_c = −(V_c − V)/(g τ_v)``) when the pitch flies the speed;
- a yaw damper: ``δr = (ω_r (r_c − r) − N_r r_c)/N_δr`` with ``r_c`` the coordinated turn's yaw rate.

The surfaces move at most :data:`SURFACE_RATE` of their travel a second, the throttle
:data:`THROTTLE_RATE`.  Angles in radians inside, degrees in the selections; speeds in
ft/s inside, knots and ft/min in the selections (as a cockpit shows them).

The law is written once, compiled (:func:`_command`, one airplane after another), over the
arrays of :class:`Loops`: :class:`Autopilot` flies one
:class:`~flightsim.simulation.flight.Simulation` with it, :class:`BatchAutopilot` the airplanes
of a :class:`~flightsim.simulation.batch.BatchSimulation` (and through it the Gymnasium
tasks' :class:`flightsim.gym.autopilot.AutopilotAgent`).
"""

from __future__ import annotations

import math
from dataclasses import astuple, dataclass, replace

import numpy as np

from flightsim.math.compiler import entry_jit, jit
from flightsim.math.kernels import aviation_angles_of
from flightsim.physics.aero import isa_density
from flightsim.physics.constants import KNOT, RHO_SL
from flightsim.physics.modes import linearize
from flightsim.physics.trim import AirplaneModel, TrimError, trim
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.controls import AILERON, ELEVATOR, FLAPS, RUDDER, THROTTLE
from flightsim.simulation.starts import AIM_DISTANCE

__all__ = ["APPROACH_MINIMUM", "Autopilot", "BatchAutopilot", "Gains", "Loops", "Selection", "mode_code", "modes_of",
           "parse_spec", "wheel_height"]

#: What a selection may hold: key → (low, high, unit, meaning).  ``app`` takes runway 36 or ``ID/NN`` (an ILS),
#: ``nav`` ``STATION/RADIAL`` (:func:`parse_spec`).
SPEC_KEYS = {
    "hdg": (0.0, 360.0, "°", "heading"),
    "alt": (0.0, 60000.0, " ft", "altitude"),
    "vs": (-6000.0, 6000.0, " ft/min", "vertical speed"),
    "ias": (20.0, 1000.0, " kt", "indicated airspeed"),
    "app": (36.0, 36.0, "", "approach to runway"),
    "nav": (0.0, 360.0, "°", "radial"),
}
#: The coupled approach hands back this high above the runway (ft).
APPROACH_MINIMUM = 200.0
#: A pilot's input beyond this fraction of a control's travel (from what the autopilot set) disconnects it.
PILOT_THRESHOLD = 0.1
#: The most a surface moves a second (fraction of its −1..1 travel, i.e. full travel in one second) and the throttle.
SURFACE_RATE = 2.0
THROTTLE_RATE = 0.5
#: Bank and pitch limits (deg), the vertical speed an altitude change uses unless one is selected (ft/min).
MAX_BANK = 25.0
MAX_PITCH = 20.0
DEFAULT_VS = 700.0
#: Time constants (s) and natural frequencies (rad/s) of the loops.
BANK_TIME = 1.0
HEADING_TIME = 3.0
ALTITUDE_TIME = 6.0
PATH_TIME = 4.0
SPEED_TIME = 8.0
SPEED_INTEGRAL_TIME = 15.0
ROLL_FREQUENCY = 4.0
PITCH_FREQUENCY = 2.0
PITCH_DAMPING = 0.8
YAW_FREQUENCY = 1.5
SPEED_FREQUENCY = 0.5
#: The localiser's gain: degrees of track toward the centreline per foot off it, and the most it asks for.
LOC_GAIN = 0.05
LOC_MAX = 30.0
#: The NAV mode's gain: degrees of track toward the radial per foot off it (the most: :data:`LOC_MAX`).
NAV_GAIN = 0.01
GLIDE_SLOPE = 3.0
#: Mode numbers in :func:`mode_code` (the trace's ``ap_mode``: units lateral, tens vertical, hundreds speed).
LATERAL = {None: 0, "ROL": 1, "HDG": 2, "LOC": 3, "NAV": 4}
VERTICAL = {None: 0, "ALT": 1, "VS": 2, "GS": 3}
SPEED = {None: 0, "SPD": 1, "PIT": 2}


@dataclass(frozen=True)
class Selection:
    """What the pilot selected: heading (deg), altitude (ft), vertical speed (ft/min), indicated airspeed (kt),
    and the approach (runway 36, or ``runway``'s ILS); None where nothing is selected.

    ``runway``: ``(airfield id, runway end)`` of an ILS approach (``app=KVAL/27``), None for runway 36;
    ``nav``: ``(VOR id, radial deg)`` of the NAV mode (``nav=HOM/090``), None where not flown.
    """

    heading: float | None = None
    altitude: float | None = None
    vertical_speed: float | None = None
    airspeed: float | None = None
    approach: bool = False
    runway: tuple | None = None
    nav: tuple | None = None


def _ils_ends():
    from flightsim.simulation.navigation import stations

    return [s for s in stations() if s.kind == "ILS"]


def _approach(raw):
    """``(airfield, end)`` of ``app=ID/NN`` (None for ``app=36``); ValueError naming the ILS runway ends."""
    text = raw.strip().upper()
    try:
        if float(text) == 36.0:
            return None
    except ValueError:
        pass
    ends = _ils_ends()
    field, sep, end = text.partition("/")
    for s in ends:
        if sep and s.airfield == field.strip() and s.runway == end.strip():
            return s.airfield, s.runway
    raise ValueError(f"app={raw.strip()}: the approach is app=36 (the home runway) or app=ID/NN, an ILS runway end: "
                     + ", ".join(f"{s.airfield}/{s.runway}" for s in ends))


def _radial(raw):
    """``(VOR id, radial)`` of ``nav=HOM/090``; ValueError naming the VORs."""
    from flightsim.simulation.navigation import stations

    vors = [s for s in stations() if s.kind == "VOR"]
    ident, sep, text = raw.strip().upper().partition("/")
    try:
        radial = float(text)
    except ValueError:
        radial = math.nan
    if not sep or not (math.isfinite(radial) and 0.0 <= radial <= 360.0):
        raise ValueError(f"nav={raw.strip()}: expected nav=STATION/RADIAL, a radial 0 to 360°, e.g. nav=HOM/090")
    for s in vors:
        if s.ident == ident.strip():
            return s.ident, radial % 360.0
    raise ValueError(f"nav={raw.strip()}: no VOR {ident.strip()!r}; there are " + ", ".join(s.ident for s in vors))


def parse_spec(text):
    """A :class:`Selection` from ``hdg=270,alt=2500,vs=500,ias=100``, ``app=36``, ``app=KVAL/27`` or
    ``nav=HOM/090,alt=3000``.

    Raises
    ------
    ValueError
        One line naming the key and the accepted range: ``"alt=-5: altitude must be 0 to 60000 ft"`` (the command
        line puts ``--autopilot:`` before it).
    """
    values = {}
    for item in (p.strip() for p in str(text).split(",")):
        if not item:
            continue
        key, sep, raw = item.partition("=")
        key = key.strip().lower()
        if key not in SPEC_KEYS or not sep:
            raise ValueError(f"{item!r}: expected key=value with a key of {', '.join(SPEC_KEYS)}")
        low, high, unit, meaning = SPEC_KEYS[key]
        if key in values:
            raise ValueError(f"{key} given twice")
        if key == "app":
            values[key] = _approach(raw)
            continue
        if key == "nav":
            values[key] = _radial(raw)
            continue
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise ValueError(f"{key}={raw.strip()}: {meaning} must be {low:g} to {high:g}{unit}")
        values[key] = value
    if not values:
        raise ValueError("nothing selected; give key=value of " + ", ".join(SPEC_KEYS))
    if "app" in values and ("hdg" in values or "alt" in values or "vs" in values or "nav" in values):
        raise ValueError("app=36 flies its own track and path; leave out hdg, alt, vs and nav")
    if "nav" in values and "hdg" in values:
        raise ValueError("nav= flies the radial's track; leave out hdg")
    return Selection(heading=values.get("hdg"), altitude=values.get("alt"), vertical_speed=values.get("vs"),
                     airspeed=values.get("ias"), approach="app" in values, runway=values.get("app"),
                     nav=values.get("nav"))


@dataclass(frozen=True)
class Gains:
    """The aircraft's control power and damping at the trim the autopilot was engaged at (aviation axes: roll
    right, pitch up, yaw right), and that trim's dynamic pressure (lbf/ft²).

    ``roll_power``, ``pitch_power``, ``yaw_power``: rad/s² per unit aileron, elevator, rudder; ``thrust_power``:
    ft/s² per unit throttle; ``roll_damping``, ``pitch_damping``, ``yaw_damping``: 1/s (negative: damped).
    """

    roll_power: float
    pitch_power: float
    yaw_power: float
    thrust_power: float
    roll_damping: float
    pitch_damping: float
    yaw_damping: float
    qbar: float

    @classmethod
    def at(cls, aircraft, airspeed, altitude, flaps=0.0, atmosphere=None):
        """Trim ``aircraft`` in level flight at ``airspeed`` (ft/s) and ``altitude`` (ft) and linearise there,
        in ``atmosphere`` ("constant", "isa"; None: the aircraft's own).

        Raises
        ------
        flightsim.physics.trim.TrimError
            No level flight there (the message says what limits it).
        """
        model = AirplaneModel(aircraft, atmosphere)
        atmosphere = model.atmosphere                   # (None: the aircraft's own, resolved)
        point = trim(aircraft, airspeed, altitude, flaps=flaps, atmosphere=atmosphere, model=model,
                     report_range=False)
        lin = linearize(point, aircraft, atmosphere, model)
        A, B = lin.A, lin.B
        rho = model.params.air_density
        if atmosphere == "isa":
            rho = isa_density(rho, altitude)
        return cls(roll_power=float(B[3, 2]), pitch_power=float(B[4, 1]), yaw_power=float(B[5, 3]),
                   thrust_power=float(B[0, 0]), roll_damping=float(A[3, 3]), pitch_damping=float(A[4, 4]),
                   yaw_damping=float(A[5, 5]), qbar=0.5 * rho * airspeed * airspeed)


def mode_code(lateral, vertical, speed):
    """The trace's ``ap_mode``: units the lateral mode (ROL 1, HDG 2, LOC 3, NAV 4), tens the vertical (ALT 1, VS 2,
    GS 3), hundreds the speed (SPD 1, PIT 2); 0 when disengaged."""
    return LATERAL[lateral] + 10 * VERTICAL[vertical] + 100 * SPEED[speed]


#: The controls the autopilot moves, in the order of its commands (and of the disconnect check).
MOVED = ("throttle", "elevator", "aileron", "rudder")
_NAMES = {v: k for k, v in LATERAL.items()}, {v: k for k, v in VERTICAL.items()}, {v: k for k, v in SPEED.items()}
_ROL, _HDG, _LOC, _NAV = LATERAL["ROL"], LATERAL["HDG"], LATERAL["LOC"], LATERAL["NAV"]
_GS, _VS = VERTICAL["GS"], VERTICAL["VS"]
_SPD = SPEED["SPD"]


@jit
def _toward(value, target, step):
    return value + min(max(target - value, -step), step)


def modes_of(selection):
    """The modes ``(lateral, vertical, speed)`` that fly ``selection`` (see the module docstring)."""
    lateral = "LOC" if selection.approach else ("NAV" if selection.nav is not None else
                                                ("HDG" if selection.heading is not None else "ROL"))
    if selection.approach:
        vertical = "GS"
    elif selection.vertical_speed is not None and selection.altitude is None:
        vertical = "VS"
    elif selection.airspeed is not None and selection.altitude is None:
        vertical = None                         # the speed by the pitch
    else:
        vertical = "ALT"
    return lateral, vertical, "SPD" if vertical is not None else "PIT"


class Loops:
    """The autopilot's loops for ``n`` airplanes at once: what each has engaged, its targets, gains and integrals
    (arrays over the airplanes), and :meth:`command`, the control law of the module docstring written once over
    arrays.  :class:`Autopilot` flies one :class:`~flightsim.simulation.flight.Simulation` with ``n = 1``,
    :class:`BatchAutopilot` a :class:`~flightsim.simulation.batch.BatchSimulation`.

    Attributes (each ``(n,)`` unless said)
    ----------------------------------------
    engaged : bool
    lateral, vertical, speed : int
        Mode numbers (:data:`LATERAL`, :data:`VERTICAL`, :data:`SPEED`).
    heading : float
        The selected heading (deg).
    altitude : float
        The altitude held (ft).
    vertical_speed : float
        The selected vertical speed (ft/min), NaN where none is.
    airspeed : float
        The indicated airspeed held (ft/s).
    gains : ``(n, 8)`` float
        Each airplane's :class:`Gains` as a row.
    director : ``(n, 2)`` float
        The flight director's bank and pitch (deg, aviation signs), NaN where disengaged.
    tracks : ``(n, 10)`` float
        The line ``LOC`` or ``NAV`` flies and the path ``GS`` flies (:func:`track_of`).
    chime : bool
        Set where the approach handed back.
    messages : list of str
        Why each last disconnected ('' while engaged or never engaged).
    """

    def __init__(self, n):
        self.n = int(n)
        self.engaged = np.zeros(n, dtype=bool)
        self.lateral = np.zeros(n, dtype=np.int64)
        self.vertical = np.zeros(n, dtype=np.int64)
        self.speed = np.zeros(n, dtype=np.int64)
        self.heading = np.zeros(n)
        self.altitude = np.zeros(n)
        self.vertical_speed = np.full(n, np.nan)
        self.airspeed = np.zeros(n)
        self.gains = np.zeros((n, len(Gains.__dataclass_fields__)))
        self.director = np.full((n, 2), np.nan)
        self.tracks = np.tile(_RUNWAY, (n, 1))
        self.chime = np.zeros(n, dtype=bool)
        self.messages = [""] * n
        self._last = np.full((n, len(MOVED)), np.nan)     # what each set last (NaN: nothing yet)
        self._integrals = np.zeros((n, 5))                 # pitch, roll, throttle, speed; the throttle at engaging

    def codes(self):
        """``(n,)`` :func:`mode_code` of each airplane's engaged modes (0 where disengaged)."""
        return np.where(self.engaged, self.lateral + 10 * self.vertical + 100 * self.speed, 0)

    def names(self, a):
        """Airplane ``a``'s engaged modes as names ``(lateral, vertical, speed)`` (None for each when disengaged)."""
        if not self.engaged[a]:
            return None, None, None
        codes = (self.lateral, self.vertical, self.speed)
        return tuple(table[int(code[a])] for table, code in zip(_NAMES, codes, strict=True))

    def engage(self, index, selection, altitude, airspeed, controls=None, trim=None, gains=None):
        """Fly ``selection`` on the airplanes ``index`` (int array) from now.

        ``altitude`` and ``airspeed`` (ft and indicated ft/s, per airplane) are held where the selection has
        none.  ``controls`` (``(m, 4)`` in :data:`MOVED` order, the elevator without ``trim``): given, the loops
        start afresh from them (no jump in any control), with ``gains``; None, they keep their integrals and gains
        (a new selection while engaged).
        """
        lateral, vertical, speed = modes_of(selection)
        self.lateral[index], self.vertical[index], self.speed[index] = (
            LATERAL[lateral], VERTICAL[vertical], SPEED[speed])
        self.heading[index] = selection.heading if selection.heading is not None else 0.0
        self.altitude[index] = selection.altitude if selection.altitude is not None else altitude
        self.vertical_speed[index] = selection.vertical_speed if selection.vertical_speed is not None else np.nan
        self.airspeed[index] = selection.airspeed * KNOT if selection.airspeed is not None else airspeed
        self.tracks[index] = track_of(selection)
        if controls is None:
            return
        self.gains[index] = astuple(gains)
        self._integrals[index] = 0.0
        self._integrals[index, _PITCH_I] = controls[:, 1] + trim
        self._integrals[index, _ROLL_I] = controls[:, 2]
        self._integrals[index, _THROTTLE_BASE] = controls[:, 0]
        self.engaged[index], self.chime[index] = True, False
        self._last[index] = np.nan
        self.director[index] = np.nan
        for a in index:
            self.messages[a] = ""

    def disconnect(self, index, why):
        """Disengage the airplanes ``index`` that are engaged, saying ``why``."""
        index = np.asarray(index, dtype=np.int64)
        index = index[self.engaged[index]]
        self.engaged[index] = False
        self._last[index] = np.nan
        self.director[index] = np.nan
        for a in index:
            self.messages[a] = why

    def command(self, index, y, controls, trim, wind, rho, gravity, dt, wheel_height):
        """The controls the airplanes ``index`` fly next, moved from ``controls`` as a pilot would; those that
        disconnect now (a pilot's input, no airspeed, the approach's minimum) are disengaged, saying why.

        Parameters
        ----------
        index : numpy.ndarray
            ``(m,)`` engaged airplanes.
        y : numpy.ndarray
            ``(m, 13)`` their states.
        controls : numpy.ndarray
            ``(m, 4)`` their controls now (:data:`MOVED` order; the elevator without ``trim``).
        trim : numpy.ndarray
            ``(m,)`` elevator trim, added to the elevator where the loads read it.
        wind : numpy.ndarray
            ``(m, 3)`` earth ft/s.
        rho : numpy.ndarray
            ``(m,)`` the air's density, slug/ft³.
        gravity, dt, wheel_height : float
            ft/s², s, ft (the CG above the lowest wheel, for the approach's height).

        Returns
        -------
        new : numpy.ndarray
            ``(m, 4)``: the controls to fly (the rows of airplanes that disconnected now hold their ``controls``).
        """
        new = np.empty((index.shape[0], len(MOVED)))
        events = np.zeros(index.shape[0], dtype=np.int64)
        _command(index, y, controls, trim, wind, rho, gravity, dt, wheel_height, self.lateral, self.vertical,
                 self.speed, self.heading, self.altitude, self.vertical_speed, self.airspeed, self.gains,
                 self._integrals, self._last, self.director, self.tracks, new, events)
        for k in np.flatnonzero(events):
            event = int(events[k])
            if event == _APPROACH_MINIMUM:
                self.chime[index[k]] = True
                why = f"approach: {APPROACH_MINIMUM:.0f} ft above the runway - your airplane"
            elif event == _NO_AIRSPEED:
                why = "autopilot disconnected: no airspeed"
            else:
                why = f"autopilot disconnected: pilot input on the {MOVED[event - 1]}"
            self.disconnect(index[k:k + 1], why)
        return new


#: Runway 36 as :func:`_command` reads it (a row of :attr:`Loops.tracks`): threshold x, y, the along and left
#: unit vectors, heading (deg), the runway's elevation (ft), the glide path (deg) and its aim point past the
#: threshold (ft).
_RUNWAY = np.array([*RUNWAY.threshold(), *RUNWAY.axes()[0], *RUNWAY.axes()[1], RUNWAY.heading_deg, 0.0,
                    GLIDE_SLOPE, AIM_DISTANCE])


def track_of(selection):
    """The row of :attr:`Loops.tracks` that flies ``selection``: runway 36 (:data:`_RUNWAY`); an ILS runway end's
    threshold, axes, heading, elevation, glide path and its aim point (abeam the glide-slope antenna); a VOR's
    position and the selected course as the line ``NAV`` flies (the path's entries unused: 0)."""
    from flightsim.simulation import navigation

    if selection.approach and selection.runway is not None:
        s = navigation.station("/".join(selection.runway))
        x, y, elevation = s.threshold
        return _line(x, y, s.course, elevation, s.glide, navigation.GS_PAST)
    if not selection.approach and selection.nav is not None:
        s = navigation.station(selection.nav[0])
        return _line(s.x, s.y, selection.nav[1], 0.0, 0.0, 0.0)
    return _RUNWAY


def _line(x, y, course, elevation, glide, aim):
    h = math.radians(course)
    return np.array([x, y, math.cos(h), -math.sin(h), math.sin(h), math.cos(h), course, elevation, glide, aim])
#: What :func:`_command` reports of an airplane beside 1..4 (a pilot's input on that control of :data:`MOVED`).
_NO_AIRSPEED, _APPROACH_MINIMUM = 5, 6
#: Columns of :attr:`Loops._integrals`.
_PITCH_I, _ROLL_I, _THROTTLE_I, _SPEED_I, _THROTTLE_BASE = range(5)


@entry_jit
def _command(index, Y, controls, trim, wind, rho, g, dt, wheel_height, lateral, vertical, speed_mode, heading_sel,
             altitude_sel, vs_sel, airspeed_sel, gains, integrals, last, director, tracks, new, events):
    """The control law of the module docstring, one airplane after another (compiled: it runs before every
    physics step).  Writes ``new`` (the controls to fly), and ``events`` (0, or why the airplane disconnects:
    1..4 a pilot's input on that control, :data:`_NO_AIRSPEED`, :data:`_APPROACH_MINIMUM`); for the airplanes
    that fly on, their integrals, ``last`` and ``director``.  ``tracks``: each airplane's line and path
    (:attr:`Loops.tracks`: threshold or station x, y, the along and left unit vectors, course (deg), elevation
    (ft), glide path (deg), aim point (ft))."""
    for k in range(index.shape[0]):
        a = index[k]
        y = Y[k]
        c = controls[k]
        for j in range(4):
            new[k, j] = c[j]
        for j in range(4):                          # NaN (nothing set yet) compares False
            if abs(c[j] - last[a, j]) > PILOT_THRESHOLD * (1.0 if j == 0 else 2.0):
                events[k] = j + 1
                break
        if events[k] != 0:
            continue
        roll, pitch, heading = aviation_angles_of(y[6], y[7], y[8], y[9])
        ax, ay, az = y[3] - wind[k, 0], y[4] - wind[k, 1], y[5] - wind[k, 2]
        speed = math.sqrt(ax * ax + ay * ay + az * az)
        if speed < 1.0:
            events[k] = _NO_AIRSPEED
            continue
        ias = speed * math.sqrt(rho[k] / RHO_SL)
        gamma = math.asin(min(max(az / speed, -1.0), 1.0))
        p, q, r = y[10], -y[11], -y[12]                                   # aviation body rates
        roll_power, pitch_power, yaw_power, thrust_power, roll_damping, pitch_damping, yaw_damping, qbar = gains[a]
        scale = max(0.5 * rho[k] * speed * speed / qbar, 0.05)          # control power ∝ q̄
        runway = tracks[a]
        dx, dy = y[0] - runway[0], y[1] - runway[1]
        along = dx * runway[2] + dy * runway[3]
        off = dx * runway[4] + dy * runway[5]                           # ft left of the centreline

        # lateral: a bank to fly
        phi_max = min(MAX_BANK, math.degrees(math.atan(speed * math.radians(3.0) / g)) * 1.5)
        if lateral[a] == _ROL:
            phi_c = 0.0
        else:
            if lateral[a] == _HDG:
                error = (heading_sel[a] - heading + 180.0) % 360.0 - 180.0
            else:
                track = math.degrees(math.atan2(-y[4], y[3])) % 360.0
                gain = NAV_GAIN if lateral[a] == _NAV else LOC_GAIN
                wanted = runway[6] + min(max(gain * off, -LOC_MAX), LOC_MAX)
                error = (wanted - track + 180.0) % 360.0 - 180.0
            rate = math.radians(error) / HEADING_TIME
            phi_c = min(max(math.degrees(math.atan(speed * rate / g)), -phi_max), phi_max)
        p_c = math.radians(phi_c - roll) / BANK_TIME
        roll_integral = min(max(integrals[a, _ROLL_I] + 0.2 * math.radians(phi_c - roll) * dt, -1.0), 1.0)
        aileron = (ROLL_FREQUENCY * (p_c - p) - roll_damping * p_c) / (roll_power * scale) + roll_integral
        r_c = g * math.sin(math.radians(roll)) / speed
        rudder = (YAW_FREQUENCY * (r_c - r) - yaw_damping * r_c) / (yaw_power * scale)

        # vertical: a flight-path angle to fly
        target = airspeed_sel[a]
        speed_integral = integrals[a, _SPEED_I]
        if vertical[a] == _GS:
            height = y[2] - wheel_height - runway[7]
            if height < APPROACH_MINIMUM and along > -20000.0:
                events[k] = _APPROACH_MINIMUM
                continue
            slope = math.tan(math.radians(runway[8]))
            vs_c = -math.hypot(y[3], y[4]) * slope + (slope * (runway[9] - along) - height) / PATH_TIME
        elif vertical[a] == _VS:
            vs_c = vs_sel[a] / 60.0
        else:
            limit = abs(DEFAULT_VS if math.isnan(vs_sel[a]) else vs_sel[a]) / 60.0
            vs_c = min(max((altitude_sel[a] - y[2]) / ALTITUDE_TIME, -limit), limit)
        if vertical[a] == 0:                     # the speed by the pitch: energy, and an integral for the path
            bound = 0.25 * g * SPEED_TIME
            speed_integral = min(max(speed_integral + (target - ias) * dt / SPEED_INTEGRAL_TIME, -bound), bound)
            gamma_c = min(max(-(target - ias + speed_integral) / (g * SPEED_TIME), -0.25), 0.25)
        else:
            gamma_c = math.asin(min(max(vs_c / speed, -0.5), 0.5))
        theta = math.radians(pitch)
        theta_c = min(max(theta + (gamma_c - gamma), -math.radians(MAX_PITCH)), math.radians(MAX_PITCH))
        power = pitch_power * scale
        theta_error = theta_c - theta
        pitch_integral = min(max(integrals[a, _PITCH_I] + 0.3 * PITCH_FREQUENCY ** 2 / power * theta_error * dt,
                                 -1.0), 1.0)
        elevator = (PITCH_FREQUENCY ** 2 * theta_error
                    - max(2.0 * PITCH_DAMPING * PITCH_FREQUENCY + pitch_damping, 0.5 * PITCH_FREQUENCY) * q
                    ) / power + pitch_integral

        # speed by the throttle
        throttle = c[0]
        throttle_integral = integrals[a, _THROTTLE_I]
        if speed_mode[a] == _SPD and thrust_power > 0.0:
            gain = SPEED_FREQUENCY / thrust_power
            throttle_integral = min(max(throttle_integral + 0.2 * gain * (target - ias) * dt, -1.0), 1.0)
            throttle = integrals[a, _THROTTLE_BASE] + gain * (target - ias) + throttle_integral

        # move the controls as a pilot would: within travel and rates
        step = SURFACE_RATE * dt
        new[k, 0] = _toward(c[0], min(max(throttle, 0.0), 1.0), THROTTLE_RATE * dt)
        new[k, 1] = _toward(c[1], min(max(elevator - trim[k], -1.0), 1.0), step)
        new[k, 2] = _toward(c[2], min(max(aileron, -1.0), 1.0), step)
        new[k, 3] = _toward(c[3], min(max(rudder, -1.0), 1.0), step)
        integrals[a, _ROLL_I] = roll_integral
        integrals[a, _PITCH_I] = pitch_integral
        integrals[a, _SPEED_I] = speed_integral
        integrals[a, _THROTTLE_I] = throttle_integral
        director[a, 0] = phi_c
        director[a, 1] = math.degrees(theta_c)
        for j in range(4):
            last[a, j] = new[k, j]


class Autopilot:
    """The autopilot of one :class:`~flightsim.simulation.flight.Simulation` (``sim.autopilot``): engaged with a
    :class:`Selection`, it sets the pilot's throttle, elevator, aileron and rudder before every step.

    Attributes
    ----------
    selection : Selection
        What it flies, the values it holds filled in.
    gains : Gains
    """

    def __init__(self):
        self.selection = Selection()
        self.gains = None
        self._loops = Loops(1)

    # ------------------------------------------------------------------ what it is doing

    @property
    def engaged(self):
        return bool(self._loops.engaged[0])

    @property
    def lateral(self):
        """The engaged lateral mode (``ROL``, ``HDG``, ``LOC``; None when disengaged); :attr:`vertical`
        (``ALT``, ``VS``, ``GS`` or None) and :attr:`speed` (``SPD``, ``PIT``) likewise."""
        return self._loops.names(0)[0]

    @property
    def vertical(self):
        return self._loops.names(0)[1]

    @property
    def speed(self):
        return self._loops.names(0)[2]

    @property
    def message(self):
        """Why it last disconnected ('' while engaged or never engaged)."""
        return self._loops.messages[0]

    @property
    def chime(self):
        """Set when the approach hands back (the HUD plays it and clears it)."""
        return bool(self._loops.chime[0])

    @chime.setter
    def chime(self, value):
        self._loops.chime[0] = bool(value)

    @property
    def director(self):
        """The flight director's command: (bank, pitch) in degrees (aviation signs), None when disengaged."""
        bank, pitch = self._loops.director[0]
        return None if math.isnan(bank) else (float(bank), float(pitch))

    @property
    def used(self):
        """Engaged now, or engaged once and disconnected since."""
        return self.engaged or bool(self.message)

    @property
    def modes(self):
        """The engaged modes as a cockpit shows them, ``HDG ALT SPD`` ('' when disengaged)."""
        return " ".join(m for m in self._loops.names(0) if m)

    def describe(self):
        """One line: the modes engaged and what is selected, or why it disconnected."""
        if not self.engaged:
            return self.message or "off"
        sel, lateral, vertical = self.selection, self.lateral, self.vertical
        held = [f"heading {sel.heading:g}°" if lateral == "HDG" else None,
                ("runway 36" if sel.runway is None else f"the ILS of {'/'.join(sel.runway)}")
                if lateral == "LOC" else None,
                f"{sel.nav[0]} course {sel.nav[1]:03.0f}°" if lateral == "NAV" else None,
                f"altitude {self._loops.altitude[0]:.0f} ft" if vertical == "ALT" else None,
                f"vertical speed {sel.vertical_speed:g} ft/min" if vertical == "VS" else None,
                f"{self._loops.airspeed[0] / KNOT:.0f} kt indicated"]
        return f"{self.modes} engaged: " + ", ".join(h for h in held if h)

    @property
    def code(self):
        """:func:`mode_code` of the engaged modes (0 when disengaged)."""
        return int(self._loops.codes()[0])

    # ------------------------------------------------------------------ engaging

    def engage(self, sim, selection):
        """Engage on ``sim`` (a :class:`~flightsim.simulation.flight.Simulation` in flight) with ``selection``.

        The gains come from the aircraft's trim at its airspeed and altitude now (flaps as set).

        Raises
        ------
        ValueError
            On the ground, or where the aircraft has no level flight to linearise about (the message says why).
        """
        tm = sim.telemetry()
        if tm.on_ground:
            raise ValueError("autopilot: on the ground; engage it in flight")
        self.gains = _gains(sim.aircraft, tm.airspeed, float(sim.vector[2]), selection, _density(sim.air_density),
                            sim.controls.flaps, sim.atmosphere)
        c = sim.controls
        self._fly(sim, selection, tm, controls=np.array([[c.throttle, c.elevator, c.aileron, c.rudder]]),
                  trim=c.elevator_trim, gains=self.gains)
        return self

    def select(self, sim, selection):
        """Fly ``selection`` now: engaged, the modes and targets change and the gains stay (a new heading or
        altitude from the panel); disengaged, :meth:`engage`."""
        if not self.engaged:
            return self.engage(sim, selection)
        self._fly(sim, selection, sim.telemetry())
        return self

    def _fly(self, sim, selection, tm, **fresh):
        """The modes and targets of ``selection`` for the flight now (``tm``: its telemetry); the NAV radio
        (``sim.nav``, where the flight carries one) tuned to what an ILS approach or the NAV mode flies."""
        radio = getattr(sim, "nav", None)
        if radio is not None and selection.approach:
            try:                                # app=36: the home runway's ILS, where the files have it
                radio.tune("/".join(selection.runway or ("KHOM", "36")))
            except ValueError:
                pass
        elif radio is not None and selection.nav is not None:
            radio.tune(selection.nav[0])
            radio.set_obs(selection.nav[1])
        loops = self._loops
        loops.engage(np.array([0]), selection, float(sim.vector[2]), tm.indicated_airspeed, **fresh)
        held_altitude = float(loops.altitude[0]) if self.vertical == "ALT" else selection.altitude
        self.selection = replace(selection, airspeed=float(loops.airspeed[0]) / KNOT, altitude=held_altitude)

    def disconnect(self, why):
        """Disengage, saying ``why`` (:attr:`message`)."""
        self._loops.disconnect([0], why)

    # ------------------------------------------------------------------ flying

    def fly(self, sim):
        """Set ``sim.controls`` for the next step (nothing when disengaged); disconnect on a pilot's input, or at
        the approach's minimum."""
        if not self.engaged:
            return
        c = sim.controls
        new = self._loops.command(np.array([0]), sim.vector[None], np.array([[c.throttle, c.elevator, c.aileron,
                                                                               c.rudder]]),
                                  np.array([c.elevator_trim]), sim.wind[None, :3],
                                  _density(np.array([sim.air_density])), sim.gravity, sim.dt,
                                  wheel_height(sim.aircraft))
        if self.engaged:
            c.throttle, c.elevator, c.aileron, c.rudder = (float(v) for v in new[0])


class BatchAutopilot:
    """The autopilot of every airplane of a :class:`~flightsim.simulation.batch.BatchSimulation`
    (``batch.autopilot``): the same loops as :class:`Autopilot`, over arrays; the batch flies it before every
    physics step of the airplanes engaged.

    Attributes
    ----------
    loops : Loops
        Per airplane: engaged, modes, targets, the flight director, and :attr:`Loops.messages` (why each
        disconnected).
    """

    def __init__(self, batch):
        self.batch = batch
        self.loops = Loops(batch.n)
        self._wheel_height = wheel_height(batch.aircraft)

    @property
    def engaged(self):
        """``(N,)`` bool, a copy."""
        return self.loops.engaged.copy()

    @property
    def codes(self):
        """``(N,)`` :func:`mode_code` of each airplane's modes (0 where disengaged)."""
        return self.loops.codes()

    def engage(self, selection, index=None, gains=None):
        """Fly ``selection`` on the airplanes ``index`` (default all), each holding its own altitude and speed
        where the selection has none; returns the :class:`Gains` they fly with.

        The gains come from one trim, at the airplanes' mean airspeed and altitude now (flaps as the first one
        has them), scaled by each one's dynamic pressure as it flies; or they are ``gains`` (those an earlier
        engage returned: no trim again).

        Raises
        ------
        ValueError
            An airplane on the ground or stopped (naming it), or no level flight to linearise about.
        """
        batch = self.batch
        index = batch.airplanes(index)
        for a in index:
            if batch.on_ground[a] or not batch.running[a]:
                raise ValueError(f"autopilot: airplane {a} is {'on the ground' if batch.on_ground[a] else 'stopped'};"
                                 " engage it in flight")
        batch.loads()                                   # the air's density at the state now
        y, rho = batch.states[index], batch.air_density[index]
        airspeed = np.linalg.norm(y[:, 3:6] - batch.wind[index, :3], axis=1)
        controls = batch.controls[index]
        if gains is None:
            gains = _gains(batch.aircraft, float(np.mean(airspeed)), float(np.mean(y[:, 2])), selection,
                           _density(float(np.mean(rho))), float(controls[0, FLAPS]), batch.atmosphere)
        self.loops.engage(index, selection, y[:, 2], airspeed * np.sqrt(rho / RHO_SL),
                          controls=controls[:, [THROTTLE, ELEVATOR, AILERON, RUDDER]], trim=np.zeros(len(index)),
                          gains=gains)
        return gains

    def disconnect(self, why, index=None):
        """Disengage the airplanes ``index`` (default all), saying ``why``."""
        self.loops.disconnect(self.batch.airplanes(index), why)

    def reset(self, index):
        """Disengage the airplanes ``index`` (int array) with nothing to say: they start again."""
        self.loops.disconnect(index, "")
        for a in index:
            self.loops.messages[a] = ""
        self.loops.chime[index] = False

    def fly(self, flying):
        """Set the controls of the engaged airplanes among ``flying`` (a bool mask) for the next step."""
        index = np.flatnonzero(flying & self.loops.engaged)
        if index.shape[0] == 0:
            return
        batch = self.batch
        moved = [THROTTLE, ELEVATOR, AILERON, RUDDER]
        batch.controls[np.ix_(index, moved)] = self.loops.command(
            index, batch.states[index], batch.controls[np.ix_(index, moved)], np.zeros(index.shape[0]),
            batch.wind[index, :3], _density(batch.air_density[index]),
            float(batch.aircraft.gravity), batch.dt, self._wheel_height)


def _density(rho):
    """The air's density as the loads last saw it (sea level's before any evaluation), slug/ft³, for a number or an
    array of them."""
    return np.where(np.asarray(rho) > 0.0, rho, RHO_SL)


def _gains(aircraft, airspeed, altitude, selection, rho, flaps, atmosphere):
    """:meth:`Gains.at` the selected indicated airspeed (or ``airspeed``, ft/s true) at ``altitude``."""
    if selection.airspeed is not None:
        airspeed = selection.airspeed * KNOT * math.sqrt(RHO_SL / rho)
    try:
        return Gains.at(aircraft, airspeed, altitude, flaps=flaps, atmosphere=atmosphere)
    except TrimError as exc:
        raise ValueError(f"autopilot: no level flight to fly it about: {exc}") from None


def wheel_height(aircraft):
    """The CG's height above the aircraft's lowest contact point, level (ft): the glide path is the wheels'."""
    r = np.array([g.position for g in aircraft.gear]) if aircraft.gear else np.zeros((1, 3))
    return float(-np.min(r[:, 2]))


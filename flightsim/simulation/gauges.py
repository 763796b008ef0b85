"""What the cockpit's instruments show, from the physics of the instruments: healthy or failed.

* **Pitot-static** (airspeed indicator, altimeter, vertical speed indicator).  The static port feels the air's
  static pressure ``p_s`` at the airplane's height (the standard atmosphere's pressure there: a pressure
  altimeter's model), the pitot tube the total pressure ``p_t = p_s + q_c``, ``q_c`` the impact pressure of the
  flight's dynamic pressure ``q = ½ρV²`` (isentropic: ``q_c = p_s((1 + q / 3.5 p_s)^3.5 − 1)``, subsonic).  The
  airspeed indicator shows the calibrated airspeed of ``p_t − p_s`` (``V_c = a₀ √(5((q_c/p₀ + 1)^(2/7) − 1))``),
  the altimeter the standard atmosphere's height of ``p_s`` (set to 29.92 inHg), the vertical speed indicator
  its rate.  A blocked pitot tube (``pitot``: its ram opening and its drain) holds the total pressure it had,
  so the indicator's ``p_t − p_s`` grows as the airplane climbs (``p_s`` falls): it reads like an altimeter.  A
  blocked static port (``static``) holds its pressure: the altimeter and the vertical speed freeze, and the
  airspeed reads low in a climb, high in a descent.
* **Vacuum gyros** (attitude indicator, heading indicator).  While the pump works they show the airplane's
  attitude and heading.  When it fails (``vacuum``) the rotors spin down, ``s = exp(−t / SPIN_DOWN_S)`` of their
  speed; the erecting vanes stop, so the gyros drift (friction precession, at :data:`DRIFT_DEG_PER_MIN` over
  ``s``, in a direction drawn from the failure's seed) and, as their rigidity goes, their gimbals drag with the
  case (a turn of the airplane by ``Δ`` moves the indication by ``s Δ``).  Below :data:`TOPPLE_SPIN` the
  attitude gyro hits its gimbal stops and tumbles: the horizon then turns with the airplane.
* **Electric** (the NAV radio, the autopilot, the turn coordinator): off with ``electrical``.

Units: ft, lbf/ft², kt for what a pilot reads; degrees with aviation signs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import vectorize

from flightsim.math.compiler import entry_jit

__all__ = ["DRIFT_DEG_PER_MIN", "SPIN_DOWN_S", "TOPPLE_SPIN", "BatchGauges", "Gauges", "GaugeReadings",
           "calibrated_airspeed", "impact_pressure", "pressure_altitude", "static_pressure"]

#: Standard sea-level pressure (lbf/ft²) and speed of sound (ft/s).
P0 = 2116.2166
A0 = 1116.4505
#: The least static pressure the static port is taken to feel (lbf/ft²: about 300,000 ft), and the highest Mach
#: number the pitot's formula is taken to (beyond: held).
P_MIN, MACH_MAX = 1e-6, 50.0
#: The troposphere's pressure law: ``p = p₀ (1 − K h)^N``, h in ft.
_K, _N = 6.8755856e-6, 5.2558797
KT_PER_FPS = 3600.0 / 6076.115
#: A vacuum gyro's rotor speed decays with this time constant after the pump fails, s.
SPIN_DOWN_S = 180.0
#: Its drift (friction precession without erection) at full rotor speed, deg/min; it grows as the rotor slows.
DRIFT_DEG_PER_MIN = 2.0
#: Below this fraction of its speed the attitude gyro tumbles against its gimbal stops.
TOPPLE_SPIN = 0.2
#: What the cockpit shows of a failure, as a real one does: the low-vacuum annunciator (the suction gauge at 0),
#: the NAV indicator's red flag, the autopilot's and the turn coordinator's off flags (its electric gyro).
FLAGS = (("VAC", "vacuum"), ("NAV", "electrical"), ("AP", "electrical"), ("TC", "electrical"))
#: The attitude indicator's gimbal stops: roll, pitch (deg).
ROLL_STOP, PITCH_STOP = 100.0, 60.0


@entry_jit
def static_pressure(height):
    """The standard atmosphere's static pressure at ``height`` ft (lbf/ft²): the troposphere's law, the
    stratosphere's exponential above 36,089 ft, no less than :data:`P_MIN` (an orbit, a ballistic arc)."""
    h = max(height, -20000.0)
    return max(P0 * (1.0 - _K * min(h, 36089.0)) ** _N * (math.exp(-(h - 36089.0) / 20806.7) if h > 36089.0
                                                           else 1.0), P_MIN)


@entry_jit
def pressure_altitude(p):
    """The height (ft) of static pressure ``p`` in the standard atmosphere (the inverse of
    :func:`static_pressure`): what an altimeter set to 29.92 inHg shows."""
    tropopause = static_pressure(36089.0)
    if p < tropopause:
        return 36089.0 - 20806.7 * math.log(p / tropopause)
    return (1.0 - (p / P0) ** (1.0 / _N)) / _K


@entry_jit
def impact_pressure(q, p):
    """The pitot's impact pressure (lbf/ft²) of dynamic pressure ``q`` in air of static pressure ``p``: isentropic
    below Mach 1, behind the tube's normal shock above (Rayleigh's pitot formula), γ = 1.4; the Mach number
    ``M² = q / 0.7 p`` taken at most :data:`MACH_MAX`."""
    m2 = min(q / (0.7 * p), MACH_MAX * MACH_MAX)
    if m2 <= 1.0:
        return p * ((1.0 + 0.2 * m2) ** 3.5 - 1.0)
    return p * ((1.2 * m2) ** 3.5 * (6.0 / (7.0 * m2 - 1.0)) ** 2.5 - 1.0)


@entry_jit
def calibrated_airspeed(qc):
    """The calibrated airspeed (ft/s) an airspeed indicator shows for impact pressure ``qc`` (0 for ``qc`` ≤ 0)."""
    if qc <= 0.0:
        return 0.0
    return A0 * math.sqrt(5.0 * ((qc / P0 + 1.0) ** (2.0 / 7.0) - 1.0))


#: The four laws above (compiled, for one value) over arrays (numpy ufuncs compiled from the very functions):
#: what :class:`BatchGauges` reads for many airplanes at once.
static_pressures = vectorize(cache=True)(static_pressure.py_func)
pressure_altitudes = vectorize(cache=True)(pressure_altitude.py_func)
impact_pressures = vectorize(cache=True)(impact_pressure.py_func)
calibrated_airspeeds = vectorize(cache=True)(calibrated_airspeed.py_func)


@dataclass(frozen=True)
class GaugeReadings:
    """What the instruments show now: airspeed (kt), altitude (ft), vertical speed (ft/min), attitude (roll,
    pitch deg), heading (deg); ``flags``: the failure flags and annunciators showing (:data:`FLAGS`)."""

    airspeed_kt: float
    altitude_ft: float
    vertical_speed_fpm: float
    roll: float
    pitch: float
    heading: float
    flags: tuple


class Gauges:
    """A flight's instruments, stepped with it (:meth:`update`) and read by the HUD, the cockpit and the trace.

    Parameters
    ----------
    failures : flightsim.simulation.failures.Failures
        The flight's failures (the instruments read ``pitot``, ``static``, ``vacuum``, ``electrical``).
    """

    def __init__(self, failures):
        self.failures = failures
        self.reset()

    def reset(self):
        """Healthy instruments, nothing held."""
        self._pt = self._ps = None          # the pressures a blocked tube or port holds
        self._port = P0                      # what the static port feels now
        self._ias = 0.0
        self._alt = 0.0
        self._vs = 0.0
        self._att_err = np.zeros(2)          # attitude indicator: roll, pitch error (deg)
        self._hdg_err = 0.0
        self._last = None                    # the last true roll, pitch, heading and time (vacuum failed)
        self._t = None                       # the time of the last update
        self._tumbled = False

    @property
    def indicated_airspeed(self):
        """What the airspeed indicator shows, kt."""
        return self._ias

    def update(self, t, height, airspeed, density, attitude=None):
        """The instruments after a step: the airplane at ``height`` ft, ``airspeed`` ft/s true in air of
        ``density`` slug/ft³ at time ``t`` (s); ``attitude``, its true roll, pitch, heading (deg), is needed only
        while the vacuum gyros are failing (None: they show the truth)."""
        active = self.failures.active
        p_s = static_pressure(height)
        p_t = p_s + impact_pressure(0.5 * density * airspeed * airspeed, p_s)
        if "pitot" in active:
            self._pt = p_t if self._pt is None else self._pt
            p_t = self._pt
        else:
            self._pt = None
        if "static" in active:
            self._ps = self._port if self._ps is None else self._ps
            port = self._ps
        else:
            self._ps = None
            port = p_s
        alt = pressure_altitude(port)
        if self._t is not None and t > self._t:
            self._vs = 60.0 * (alt - self._alt) / (t - self._t)
        self._port, self._alt, self._t = port, alt, t
        self._ias = calibrated_airspeed(p_t - port) * KT_PER_FPS
        since = self.failures.since("vacuum")
        if attitude is None or since is None:
            self._att_err[:] = 0.0
            self._hdg_err = 0.0
            self._tumbled = False
            self._last = None
        else:
            self._gyros(t, since, *(float(a) for a in attitude))

    def _gyros(self, t, since, roll, pitch, heading):
        """The vacuum gyros' errors after a step, the pump failed at ``since`` (s)."""
        last = self._last
        self._last = (roll, pitch, heading, t)
        if last is None or t <= last[3]:
            return
        d_roll, d_pitch, d_hdg, self._tumbled = gyro_errors(last, (roll, pitch, heading, t), since,
                                                            self.failures.active["vacuum"].seed, self._tumbled)
        self._att_err += (d_roll, d_pitch)
        self._hdg_err += d_hdg

    def readings(self, roll, pitch, heading):
        """What the instruments show (:class:`GaugeReadings`) for the airplane's true attitude now (deg)."""
        active = self.failures.active
        shown_roll = max(min(roll + self._att_err[0], ROLL_STOP), -ROLL_STOP)
        shown_pitch = max(min(pitch + self._att_err[1], PITCH_STOP), -PITCH_STOP)
        flags = tuple(flag for flag, kind in FLAGS if kind in active)
        return GaugeReadings(self._ias, self._alt, self._vs, shown_roll, shown_pitch,
                             (heading + self._hdg_err) % 360.0, flags)


def gyro_errors(last, now, since, seed, tumbled):
    """How much a vacuum gyro's errors grow over a step, its pump failed at ``since`` (s): ``last`` and ``now`` the
    true ``(roll, pitch, heading, t)`` (deg, s) before and after it; ``seed`` the failure's (the drift's
    direction); ``tumbled`` whether the attitude gyro has tumbled.  Returns the roll, pitch and heading errors'
    increments (deg) and whether it has tumbled now."""
    roll, pitch, heading, t = now
    dt = t - last[3]
    s = math.exp(-(t - since) / SPIN_DOWN_S)
    drift = DRIFT_DEG_PER_MIN / 60.0 * dt / max(s, 0.05)
    way = np.random.default_rng([seed, 17]).random() * 2.0 * math.pi
    tumbled = tumbled or s < TOPPLE_SPIN
    drag = 1.0 if tumbled else 1.0 - s
    return (drift * math.cos(way) - drag * _wrap(roll - last[0]), drift * math.sin(way) - drag * (pitch - last[1]),
            drift - drag * _wrap(heading - last[2]), tumbled)


def _wrap(deg):
    """An angle difference in (−180, 180] deg."""
    return (deg + 180.0) % 360.0 - 180.0


class BatchGauges:
    """The instruments of every airplane of a :class:`~flightsim.simulation.batch.BatchSimulation`, as
    :class:`Gauges` are one flight's: the same pitot-static physics and vacuum gyros over arrays, each airplane's
    failures from :class:`~flightsim.simulation.failures.BatchFailures` (``pitot``, ``static``, ``vacuum``).

    Parameters
    ----------
    failures : flightsim.simulation.failures.BatchFailures
        The batch's failures (its ``since``: when each airplane's failed, NaN while it works).

    Attributes
    ----------
    indicated_airspeed : numpy.ndarray
        ``(N,)`` what each airspeed indicator shows, kt.
    altitude, vertical_speed : numpy.ndarray
        ``(N,)`` each altimeter (ft) and vertical speed indicator (ft/min).
    """

    def __init__(self, failures):
        from flightsim.simulation.failures import KINDS

        self.failures = failures
        self._pitot, self._static, self._vacuum = (KINDS.index(k) for k in ("pitot", "static", "vacuum"))
        n = failures.n
        self.indicated_airspeed, self.altitude, self.vertical_speed = np.zeros(n), np.zeros(n), np.zeros(n)
        self._pt, self._ps = np.full(n, np.nan), np.full(n, np.nan)     # what a blocked tube or port holds
        self._port = np.full(n, P0)
        self._t = np.full(n, np.nan)
        self._att_err, self._hdg_err = np.zeros((n, 2)), np.zeros(n)
        self._last = np.full((n, 4), np.nan)                            # roll, pitch, heading (deg), time (s)
        self._tumbled = np.zeros(n, dtype=bool)

    def reset(self, index):
        """The airplanes ``index``'s instruments healthy, nothing held (a reset)."""
        for a in (self._pt, self._ps, self._t, self._last):
            a[index] = np.nan
        self._port[index] = P0
        self._att_err[index] = 0.0
        self._hdg_err[index] = 0.0
        self._tumbled[index] = False
        self.vertical_speed[index] = 0.0

    def update(self, t, height, airspeed, density, attitude):
        """Every airplane's instruments after a step (as :meth:`Gauges.update`): ``t`` their clocks (s),
        ``height`` (ft), ``airspeed`` true (ft/s), ``density`` (slug/ft³), ``attitude`` ``(N, 3)`` their true roll,
        pitch, heading (deg)."""
        since = self.failures.since
        p_s = static_pressures(height)
        p_t = p_s + impact_pressures(0.5 * density * airspeed * airspeed, p_s)
        pitot = np.isfinite(since[:, self._pitot])
        self._pt = np.where(pitot, np.where(np.isnan(self._pt), p_t, self._pt), np.nan)
        p_t = np.where(pitot, self._pt, p_t)
        static = np.isfinite(since[:, self._static])
        self._ps = np.where(static, np.where(np.isnan(self._ps), self._port, self._ps), np.nan)
        port = np.where(static, self._ps, p_s)
        alt = pressure_altitudes(port)
        later = np.isfinite(self._t) & (t > self._t)
        self.vertical_speed = np.where(later, 60.0 * (alt - self.altitude) / np.where(later, t - self._t, 1.0),
                                       self.vertical_speed)
        self._port, self.altitude, self._t = port, alt, np.array(t, dtype=np.float64)
        self.indicated_airspeed = calibrated_airspeeds(p_t - port) * KT_PER_FPS
        failed = np.isfinite(since[:, self._vacuum])
        healthy = ~failed
        self._att_err[healthy] = 0.0
        self._hdg_err[healthy] = 0.0
        self._tumbled[healthy] = False
        self._last[healthy] = np.nan
        for a in np.flatnonzero(failed):
            self._gyros(a, float(t[a]), float(since[a, self._vacuum]), *(float(x) for x in attitude[a]))

    def _gyros(self, a, t, since, roll, pitch, heading):
        """Airplane ``a``'s vacuum gyros after a step, its pump failed at ``since`` (s): as :meth:`Gauges._gyros`."""
        last = tuple(self._last[a])
        self._last[a] = (roll, pitch, heading, t)
        if np.isnan(last[3]) or t <= last[3]:
            return
        seed = next((f.seed for f in self.failures.scheduled if f.kind == "vacuum"), 0)
        d_roll, d_pitch, d_hdg, self._tumbled[a] = gyro_errors(last, (roll, pitch, heading, t), since, seed,
                                                               bool(self._tumbled[a]))
        self._att_err[a] += (d_roll, d_pitch)
        self._hdg_err[a] += d_hdg

    def implied(self, height, airspeed, density, vertical_speed, roll, pitch, heading):
        """What each airplane's instruments make of its flight, in the flight's own quantities: the true airspeed
        (ft/s) its indicator's reading implies (the true airspeed scaled by the reading over a healthy indicator's),
        the height (ft) and vertical speed (ft/s) its altimeter and VSI imply, the attitude and heading its vacuum
        gyros show (deg); each the true value given wherever that instrument's failure is not in force (so a
        healthy airplane's are its true ones exactly).  Arguments: the true values, arrays ``(N,)``, as
        :meth:`update` took them after the last step.  Returns the six arrays but the density, in order."""
        since = self.failures.since
        pitot_static = np.isfinite(since[:, self._pitot]) | np.isfinite(since[:, self._static])
        p_s = static_pressures(height)
        healthy = calibrated_airspeeds(impact_pressures(0.5 * density * airspeed * airspeed, p_s)) * KT_PER_FPS
        airspeed = np.where(pitot_static, airspeed * self.indicated_airspeed / np.maximum(healthy, 1e-9), airspeed)
        static = np.isfinite(since[:, self._static])
        height = np.where(static, height + self.altitude - pressure_altitudes(p_s), height)
        vertical_speed = np.where(static, self.vertical_speed / 60.0, vertical_speed)
        vacuum = np.isfinite(since[:, self._vacuum])
        shown = self.attitude(roll, pitch, heading)
        roll, pitch, heading = (np.where(vacuum, a, b) for a, b in zip(shown, (roll, pitch, heading), strict=True))
        return airspeed, height, vertical_speed, roll, pitch, heading

    def attitude(self, roll, pitch, heading):
        """``(roll, pitch, heading)`` arrays: what each attitude and heading indicator shows for the true ones (deg)."""
        return (np.clip(roll + self._att_err[:, 0], -ROLL_STOP, ROLL_STOP),
                np.clip(pitch + self._att_err[:, 1], -PITCH_STOP, PITCH_STOP), (heading + self._hdg_err) % 360.0)

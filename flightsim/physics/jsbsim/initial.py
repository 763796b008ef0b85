"""JSBSim's initialization (reset) files, read and resolved as JSBSim's ``FGInitialCondition`` resolves them.

A reset file (``<initialize>``) gives the start of a flight in one of two formats (``FGInitialCondition::Load_v1``
and ``Load_v2``):

- version 1 (no ``version=`` or 1.x): ``latitude`` (geocentric unless ``type="geod"``), ``longitude``,
  ``altitude``/``altitudeAGL``/``altitudeMSL``, ``ubody vbody wbody``, ``vnorth veast vdown``, ``vc vt mach``,
  ``gamma roc vground``, ``alpha beta``, ``phi theta psi``, ``vwind winddir hwind xwind``.  Each is applied in
  JSBSim's fixed order by a setter that keeps what was set before where it can (an airspeed kept through a
  later angle, the Euler angles changed by alpha and beta): :class:`_Resolver` ports those setters.  JSBSim's
  version 1 reads no body rates (``vPQR_body`` is zeroed): nor does this.  Its ``trim`` is the trim the ``JSBSim``
  program runs after ``RunIC`` (:data:`TRIM_REQUESTS`; version 2 reads none);
- version 2: ``<position frame="ECEF|ECI">`` (``latitude longitude altitudeAGL|altitudeMSL|radius``, or
  ``x y z``), ``<orientation frame="LOCAL|ECEF|ECI">``, ``<velocity frame="LOCAL|BODY|ECEF|ECI">``,
  ``<attitude_rate frame="LOCAL|BODY|ECEF|ECI">`` (``x y z`` or ``roll pitch yaw``, the unit on the element).

Both: ``<running>N</running>`` (an engine index, −1 for all).  Units: each element's ``unit=`` (DEG, RAD, FT, M,
FT/SEC, KTS, M/S, DEG/SEC, ...), JSBSim's default unit where it has none (angles of v1's ``phi theta psi`` and
the latitude and longitude: RAD; ``alpha beta gamma winddir``: DEG; ``vc vt vground vwind hwind xwind``: KTS;
lengths FT; speeds FT/SEC).  ``<elevation>`` is the terrain's height (JSBSim's default ground callback,
``FGDefaultGroundCallback``: the ellipsoid raised by that much, the ground a flight stands on and the one
``altitudeAGL`` is measured from): version 1 sets it where it stands in JSBSim's order (after the longitude,
before the altitude: ``SetTerrainElevationFtIC``, which keeps the height above the ground where that was the
last height set), version 2 before the position (``FGInertial::SetTerrainElevation``).

The result (:class:`InitialCondition`): geodetic latitude and longitude, the height above the ellipsoid, the
velocity relative to the Earth in North-East-down, the Euler angles of the body relative to the local NED frame,
JSBSim's body rates relative to the Earth, the wind: what ``run_ic()`` gives JSBSim's ``position/lat-geod-deg``,
``velocities/v-north-fps``, ``attitude/phi-rad``, ``velocities/p-rad_sec``.  Frames: JSBSim's (body x forward,
y right, z down) until :meth:`InitialCondition.view_state` turns them to flightsim's.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flightsim.errors import InputError
from flightsim.math import quat
from flightsim.physics import planet as planets
from flightsim.physics.jsbsim.atmosphere import SEA_LEVEL_PRESSURE, standard_atmosphere
from flightsim.physics.jsbsim.auxiliary import _mach_from_impact_pressure, _pitot_total_pressure
from flightsim.physics.jsbsim.xmlfile import CONVERT

__all__ = ["InitialCondition", "initial_setters", "load_initial_condition"]

#: JSBSim's knots → ft/s (``FGJSBBase::ktstofps``).
KTS = 1.68780985710
_SL_DENSITY = standard_atmosphere(0.0)[2]
_SL_SOUND = standard_atmosphere(0.0)[3]
#: Where JSBSim's setters are in the unit they take when an element has no ``unit=``: element → default unit.
_V1_UNITS = {
    "latitude": "RAD", "longitude": "RAD", "elevation": "FT", "altitude": "FT", "altitudeAGL": "FT",
    "altitudeMSL": "FT", "phi": "RAD", "theta": "RAD", "psi": "RAD", "ubody": "FT/SEC", "vbody": "FT/SEC",
    "wbody": "FT/SEC", "vnorth": "FT/SEC", "veast": "FT/SEC", "vdown": "FT/SEC", "vc": "KTS", "vt": "KTS",
    "mach": None, "gamma": "DEG", "roc": "FT/SEC", "vground": "KTS", "alpha": "DEG", "beta": "DEG",
    "vwind": "KTS", "winddir": "DEG", "hwind": "KTS", "xwind": "KTS", "targetNlf": None}
_FAMILY = {"FT": "FT", "RAD": "RAD", "DEG": "RAD", "FT/SEC": "FT/SEC", "KTS": "FT/SEC", "RAD/SEC": "RAD/SEC"}
#: v1 elements JSBSim reads and this does not (refused rather than skipped).
_V1_UNSUPPORTED = ("targetNlf",)
#: A version-1 file's ``<trim>`` (``FGInitialCondition::SetTrimRequest``, in any case) → JSBSim's ``TrimMode``
#: (FGTrim.h: longitudinal 0, full 1, ground 2, pullup 3, custom 4, turn 5); JSBSim takes any other value as no trim.
TRIM_REQUESTS = {"1": 2, "longitudinal": 0, "full": 1, "ground": 2, "pullup": 3, "custom": 4, "turn": 5}
_V2_FRAMES = {"position": ("ecef", "eci"), "orientation": ("local", "ecef", "eci"),
              "velocity": ("local", "body", "ecef", "eci"), "attitude_rate": ("local", "body", "ecef", "eci")}


@dataclass(frozen=True)
class InitialCondition:
    """A flight's start as JSBSim resolves a reset file.

    Attributes
    ----------
    lat_deg, lon_deg : float
        Geodetic latitude and longitude, deg.
    alt_ft : float
        Height above the ellipsoid, ft (above the terrain: less ``elevation_ft``).
    v_ned : tuple of float
        Velocity relative to the Earth, North, East, down, ft/s.
    euler : tuple of float
        (phi, theta, psi) of the body relative to the local NED frame, rad (psi in [0, 2π)).
    pqr : tuple of float
        Body rates relative to the Earth, JSBSim's body axes (x forward, y right, z down), rad/s.
    wind_ned : tuple of float
        The wind, North, East, down, ft/s.
    running : tuple of int
        The engines started running (an index, or −1: all).
    source : str
        The file.
    elevation_ft : float
        The terrain's height above the ellipsoid (``<elevation>``, JSBSim's ``ic/terrain-elevation-ft``), ft.
    trim : int or None
        The trim a version-1 file requests (``<trim>``, :data:`TRIM_REQUESTS`: JSBSim's ``TrimMode``), which the
        ``JSBSim`` program runs after ``RunIC`` and before the first frame; None: none.
    """

    lat_deg: float
    lon_deg: float
    alt_ft: float
    v_ned: tuple
    euler: tuple
    pqr: tuple
    wind_ned: tuple = (0.0, 0.0, 0.0)
    running: tuple = ()
    source: str = ""
    elevation_ft: float = 0.0
    trim: int | None = None

    def view_state(self):
        """The 13-number flat view flightsim's Simulation takes: position ``(0, 0, alt)`` (the latitude and
        longitude are the flight's origin), the velocity North, West, up (ft/s), q body → local North-West-up
        and the body rates (rad/s, relative to the Earth) in flightsim's body axes (x forward, y left, z up)."""
        d = np.diag([1.0, -1.0, -1.0])
        y = np.zeros(13)
        y[2] = self.alt_ft
        vn, ve, vd = self.v_ned
        y[3:6] = (vn, -ve, -vd)
        y[6:10] = quat.from_matrix(d @ _tb2l(*self.euler) @ d)
        y[10:13] = d @ np.asarray(self.pqr, dtype=np.float64)
        return y


def _tl2b(phi, theta, psi):
    """JSBSim's local (NED) → body matrix of the Euler angles (``FGQuaternion::GetT``)."""
    cf, sf, ct, st, cp, sp = math.cos(phi), math.sin(phi), math.cos(theta), math.sin(theta), math.cos(psi), \
        math.sin(psi)
    return np.array([[ct * cp, ct * sp, -st],
                     [sf * st * cp - cf * sp, sf * st * sp + cf * cp, sf * ct],
                     [cf * st * cp + sf * sp, cf * st * sp - sf * cp, cf * ct]])


def _tb2l(phi, theta, psi):
    return _tl2b(phi, theta, psi).T


def _euler_of(t):
    """The Euler angles of a local → body matrix, as ``FGQuaternion::GetEuler`` gives them (psi in [0, 2π))."""
    phi = 0.0 if t[2, 2] == 0.0 and t[1, 2] == 0.0 else math.atan2(t[1, 2], t[2, 2])
    theta = -math.asin(max(-1.0, min(1.0, t[0, 2])))
    psi = 0.0 if t[0, 0] == 0.0 and t[0, 1] == 0.0 else math.atan2(t[0, 1], t[0, 0])
    if psi < 0.0:
        psi += 2.0 * math.pi
    return [phi, theta, psi]


def _normalized(v):
    """``FGColumnVector3::Normalize``: ``v`` over its length, a zero vector left as it is (no speed: no NaN)."""
    m = float(np.linalg.norm(v))
    return v / m if m != 0.0 else v


def _tw2b(ca, sa, cb, sb):
    return np.array([[ca * cb, -ca * sb, -sa], [sb, cb, 0.0], [sa * cb, -sa * sb, ca]])


def mach_from_vcalibrated(vcas, pressure):
    """``FGAuxiliary::MachFromVcalibrated``: the Mach number of calibrated airspeed ``vcas`` (ft/s) at static
    pressure ``pressure`` (psf)."""
    qc = _pitot_total_pressure(vcas / _SL_SOUND, SEA_LEVEL_PRESSURE) - SEA_LEVEL_PRESSURE
    return _mach_from_impact_pressure(qc, pressure)


def vcalibrated_from_mach(mach, pressure):
    """``FGAuxiliary::VcalibratedFromMach`` (ft/s)."""
    qc = _pitot_total_pressure(mach, pressure) - pressure
    return _SL_SOUND * _mach_from_impact_pressure(qc, SEA_LEVEL_PRESSURE)


class _Resolver:
    """``FGInitialCondition``'s state and setters (JSBSim's names), on the planet ``planet``."""

    def __init__(self, planet):
        self.a, self.b = planet.a, planet.b
        self.e2 = 1.0 - (self.b / self.a) ** 2
        self.omega = planet.omega
        self.pos = np.array([self.a, 0.0, 0.0])
        self.euler = [0.0, 0.0, 0.0]
        self.vned = np.zeros(3)
        self.pqr = np.zeros(3)
        self.vt = 0.0
        self.alpha = self.beta = 0.0
        self.tw2b = np.eye(3)
        self.last_speed, self.last_alt, self.last_lat = "vt", "asl", "geoc"
        self.elevation = 0.0            # (the terrain's height above the ellipsoid, ft)
        self.trim = None                # (the trim requested: JSBSim's TrimMode)

    # ------------------------------------------------------------ position (FGLocation)
    def radius(self):
        return float(np.linalg.norm(self.pos))

    def lat_gc(self):
        return math.atan2(self.pos[2], math.hypot(self.pos[0], self.pos[1]))

    def lon(self):
        return math.atan2(self.pos[1], self.pos[0]) if self.pos[0] or self.pos[1] else 0.0

    def geodetic(self):
        return planets.geodetic(float(self.pos[0]), float(self.pos[1]), float(self.pos[2]), self.a, self.b)

    def set_spherical(self, lat, lon, r):
        self.pos = r * np.array([math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat)])

    def set_geodetic(self, lon, lat, h):
        self.pos = np.array(planets.ecef(lat, lon, h, self.a, self.b))

    def sea_level_radius(self):
        c = math.cos(self.lat_gc())
        return self.b / math.sqrt(1.0 - self.e2 * c * c)

    def asl(self):
        return self.radius() - self.sea_level_radius()

    def agl(self):
        return self.geodetic()[2] - self.elevation

    def set_terrain_elevation(self, elevation):
        """``FGInitialCondition::SetTerrainElevationFtIC``: the height above the ground kept where it was the last
        height set."""
        agl = self.agl()
        self.elevation = elevation
        if self.last_alt == "agl":
            self.set_altitude_agl(agl)

    def tec2l(self):
        lat, lon, _ = self.geodetic()
        sp, cp, sl, cl = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
        return np.array([[-sp * cl, -sp * sl, cp], [-sl, cl, 0.0], [-cp * cl, -cp * sl, -sp]])

    # ------------------------------------------------------------ atmosphere
    def _air(self):
        _, p, rho, a = standard_atmosphere(self.asl())
        return p, rho, a

    def _speeds_before(self):
        p, rho, a = self._air()
        mach0 = self.vt / a
        return mach0, vcalibrated_from_mach(mach0, p), self.vt * math.sqrt(rho / _SL_DENSITY)

    def _speeds_after(self, mach0, vc0, ve0, asl):
        _, p, rho, a = standard_atmosphere(asl)
        if self.last_speed == "vc":
            self.set_vtrue(mach_from_vcalibrated(vc0, p) * a, keep="vc")
        elif self.last_speed == "mach":
            self.set_vtrue(mach0 * a, keep="mach")
        elif self.last_speed == "ve":
            self.set_vtrue(ve0 * math.sqrt(_SL_DENSITY / rho), keep="ve")

    # ------------------------------------------------------------ altitude and latitude setters
    def set_agl_on_planet(self, agl):
        """``FGInertial::SetAltitudeAGL``: the geodetic latitude and longitude kept, the height ``agl``."""
        lat, lon, _ = self.geodetic()
        self.set_geodetic(lon, lat, self.elevation + agl)

    def set_altitude_agl(self, agl):
        mach0, vc0, ve0 = self._speeds_before()
        if self.last_lat == "geod":
            self.set_agl_on_planet(agl)
        else:                       # keep the geocentric latitude (JSBSim's iteration)
            tanlat = math.tan(self.lat_gc())
            n, prev_n, it, lon = self.e2, 1.0, 0, self.lon()
            alt = self.geodetic()[2]
            h = -2.0 * max(self.a, self.b)
            while (abs(n - prev_n) > 1e-15 or abs(h - agl) > 1e-10) and it < 10:
                glat = math.atan(tanlat / (1.0 - n))
                self.set_geodetic(lon, glat, alt)
                h = self.agl()
                alt += agl - h
                s = math.sin(glat)
                big_n = self.a / math.sqrt(1.0 - self.e2 * s * s)
                prev_n, n = n, self.e2 * big_n / (big_n + alt)
                it += 1
        self._speeds_after(mach0, vc0, ve0, self.asl())
        self.last_alt = "agl"

    def set_altitude_asl(self, alt):
        mach0, vc0, ve0 = self._speeds_before()
        if self.last_lat == "geod":
            glat, lon, h = self.geodetic()
            for _ in range(50):
                self.set_geodetic(lon, glat, h)
                miss = alt - self.asl()
                h += miss
                if abs(miss) < 1e-10:
                    break
        else:
            self.set_spherical(self.lat_gc(), self.lon(), self.sea_level_radius() + alt)
        self._speeds_after(mach0, vc0, ve0, self.geodetic()[2])
        self.last_alt = "asl"

    def set_geod_latitude(self, glat):
        lon = self.lon()
        self.last_lat = "geod"
        if self.last_alt == "agl":
            agl = self.agl()
            self.set_geodetic(lon, glat, 0.0)
            self.set_agl_on_planet(agl)
        else:
            asl = self.asl()
            self.set_geodetic(lon, glat, 0.0)
            self.set_altitude_asl(asl)

    def set_latitude(self, lat):
        self.last_lat = "geoc"
        if self.last_alt == "agl":
            alt = self.agl()
            self.set_spherical(lat, self.lon(), self.radius())
            self.set_altitude_agl(alt)
        else:
            alt = self.asl()
            self.set_spherical(lat, self.lon(), self.radius())
            self.set_altitude_asl(alt)

    def set_longitude(self, lon):
        if self.last_alt == "agl":
            alt = self.agl()
            self.set_spherical(self.lat_gc(), lon, self.radius())
            self.set_altitude_agl(alt)
        else:
            self.set_spherical(self.lat_gc(), lon, self.radius())

    # ------------------------------------------------------------ speeds and angles
    def tl2b(self):
        return _tl2b(*self.euler)

    def vt_ned(self):
        return self.tl2b().T @ self.tw2b @ np.array([self.vt, 0.0, 0.0])

    def set_orientation(self, euler):
        self.euler = _euler_of(_tl2b(*euler))

    def calc_aero_angles(self, vt_ned):
        ua, va, wa = self.tl2b() @ vt_ned
        uwa = math.hypot(ua, wa)
        self.alpha = math.atan2(wa, ua) if wa != 0 else 0.0
        self.beta = math.atan2(va, uwa) if va != 0 else 0.0
        ca, sa, cb, sb = 1.0, 0.0, 1.0, 0.0
        if uwa != 0:
            ca, sa = ua / uwa, wa / uwa
        if self.vt != 0:
            cb, sb = uwa / self.vt, va / self.vt
        self.tw2b = _tw2b(ca, sa, cb, sb)

    def set_vtrue(self, vtrue, keep="vt"):
        vt_ned = self.vt_ned()
        wind = vt_ned - self.vned
        if self.vt > 0.1:
            vt_ned = vt_ned * (vtrue / self.vt)
        else:
            vt_ned = self.tl2b().T @ self.tw2b @ np.array([vtrue, 0.0, 0.0])
        self.vt = vtrue
        self.vned = vt_ned - wind
        self.calc_aero_angles(vt_ned)
        self.last_speed = keep

    def set_mach(self, mach):
        _, _, a = self._air()
        self.set_vtrue(mach * a, keep="mach")

    def set_vcalibrated(self, vcas):
        p, _, a = self._air()
        self.set_vtrue(mach_from_vcalibrated(abs(vcas), p) * a, keep="vc")

    def set_vground(self, vg):
        vt_ned = self.vt_ned()
        wind = vt_ned - self.vned
        psi = self.euler[2]
        self.vned = np.array([vg * math.cos(psi), vg * math.sin(psi), 0.0])
        vt_ned = self.vned + wind
        self.vt = float(np.linalg.norm(vt_ned))
        self.calc_aero_angles(vt_ned)
        self.last_speed = "vg"

    def set_climb_rate(self, hdot):
        if abs(hdot) > self.vt:
            raise ValueError("the climb rate cannot be higher than the true airspeed")
        vt_ned = self.vt_ned()
        wind = vt_ned - self.vned
        hdot0 = -vt_ned[2]
        if abs(hdot0) < self.vt:
            scale = math.sqrt((self.vt ** 2 - hdot ** 2) / (self.vt ** 2 - hdot0 ** 2))
            vt_ned[0] *= scale
            vt_ned[1] *= scale
        vt_ned[2] = -hdot
        self.vned = vt_ned - wind
        self.calc_theta_beta(self.alpha, vt_ned)

    def set_flight_path_angle(self, gamma):
        self.set_climb_rate(self.vt * math.sin(gamma))

    def set_alpha(self, alfa):
        self.calc_theta_beta(alfa, self.vt_ned())

    def calc_theta_beta(self, alfa, vt_ned):
        phi, _, psi = self.euler
        ca, sa = math.cos(alfa), math.sin(alfa)
        cp, sp, cf, sf = math.cos(psi), math.sin(psi), math.cos(phi), math.sin(phi)
        tpsi = np.array([[cp, sp, 0.0], [-sp, cp, 0.0], [0.0, 0.0, 1.0]])
        tphi = np.array([[1.0, 0.0, 0.0], [0.0, cf, sf], [0.0, -sf, cf]])
        talpha = np.array([[ca, 0.0, sa], [0.0, 1.0, 0.0], [-sa, 0.0, ca]])
        v0 = tpsi @ vt_ned
        n = (talpha @ tphi).T @ np.array([0.0, 0.0, 1.0])
        y = np.array([0.0, 1.0, 0.0])
        u = y - np.dot(y, n) * n
        p = np.cross(y, n)
        if np.dot(p, v0) < 0:
            p = -p
        p = _normalized(p)
        u = u * (np.dot(v0, y) / np.dot(u, y))
        if np.dot(v0, v0) < np.dot(u, u):
            raise ValueError(f"alpha cannot be {math.degrees(alfa):g} deg with this speed and attitude")
        v1 = u + math.sqrt(np.dot(v0, v0) - np.dot(u, u)) * p
        v0xz = np.array([v0[0], 0.0, v0[2]])
        v1xz = np.array([v1[0], 0.0, v1[2]])
        v0xz = _normalized(v0xz)
        v1xz = _normalized(v1xz)
        self.set_orientation([self.euler[0], math.asin(np.cross(v1xz, v0xz)[1]), self.euler[2]])
        v2 = talpha @ self.tl2b() @ vt_ned
        self.alpha = alfa
        self.beta = math.atan2(v2[1], v2[0])
        cb, sb = 1.0, 0.0
        if self.vt != 0.0:
            cb, sb = v2[0] / self.vt, v2[1] / self.vt
        self.tw2b = _tw2b(ca, sa, cb, sb)

    def set_beta(self, bta):
        vt_ned = self.vt_ned()
        self.beta = bta
        ca, sa, cb, sb = math.cos(self.alpha), math.sin(self.alpha), math.cos(bta), math.sin(bta)
        cf, sf = math.cos(self.euler[0]), math.sin(self.euler[0])
        tphi_inv = np.array([[1.0, 0.0, 0.0], [0.0, cf, -sf], [0.0, sf, cf]])
        self.tw2b = _tw2b(ca, sa, cb, sb)
        vf = tphi_inv @ self.tw2b @ np.array([self.vt, 0.0, 0.0])
        v0xy = np.array([vt_ned[0], vt_ned[1], 0.0])
        v1xy = np.array([math.sqrt(v0xy[0] ** 2 + v0xy[1] ** 2 - vf[1] ** 2), vf[1], 0.0])
        v0xy = _normalized(v0xy)
        v1xy = _normalized(v1xy)
        if vf[0] < 0.0:
            v0xy[0] *= -1.0
        sin_psi = np.cross(v1xy, v0xy)[2]
        cos_psi = np.dot(v0xy, v1xy)
        psi = math.atan2(sin_psi, cos_psi)
        tpsi = np.array([[cos_psi, sin_psi, 0.0], [-sin_psi, cos_psi, 0.0], [0.0, 0.0, 1.0]])
        v2xz = tpsi @ vt_ned
        vfxz = vf.copy()
        v2xz[1] = vfxz[1] = 0.0
        v2xz = _normalized(v2xz)
        vfxz = _normalized(vfxz)
        theta = -math.asin(np.cross(v2xz, vfxz)[1])
        self.set_orientation([self.euler[0], theta, psi])

    def set_euler(self, idx, angle):
        vt_ned = self.vt_ned()
        wind = vt_ned - self.vned
        uvw = self.tl2b() @ self.vned
        euler = list(self.euler)
        euler[idx] = angle
        self.set_orientation(euler)
        if self.last_speed not in ("ned", "vg"):
            self.vned = self.tl2b().T @ uvw
            vt_ned = self.vned + wind
            self.vt = float(np.linalg.norm(vt_ned))
        self.calc_aero_angles(vt_ned)

    def set_body_velocity(self, idx, vel):
        vt_ned = self.vt_ned()
        uvw = self.tl2b() @ self.vned
        wind = vt_ned - self.vned
        uvw[idx] = vel
        self.vned = self.tl2b().T @ uvw
        vt_ned = self.vned + wind
        self.vt = float(np.linalg.norm(vt_ned))
        self.calc_aero_angles(vt_ned)
        self.last_speed = "uvw"

    def set_ned_velocity(self, idx, vel):
        vt_ned = self.vt_ned()
        wind = vt_ned - self.vned
        self.vned = self.vned.copy()
        self.vned[idx] = vel
        vt_ned = self.vned + wind
        self.vt = float(np.linalg.norm(vt_ned))
        self.calc_aero_angles(vt_ned)
        self.last_speed = "ned"

    def _set_wind(self, wind):
        vt_ned = self.vned + wind
        self.vt = float(np.linalg.norm(vt_ned))
        self.calc_aero_angles(vt_ned)

    def set_wind_mag(self, mag):
        wind = self.vt_ned() - self.vned
        head = np.array([wind[0], wind[1], 0.0])
        m = float(np.linalg.norm(head))
        head = head * (mag / m) if m > 0.001 else np.array([mag, 0.0, 0.0])
        self._set_wind(np.array([head[0], head[1], wind[2]]))

    def set_wind_dir(self, direction):
        wind = self.vt_ned() - self.vned
        mag = math.hypot(wind[0], wind[1])
        self._set_wind(np.array([mag * math.cos(direction), mag * math.sin(direction), wind[2]]))

    def set_head_wind(self, head):
        wind = self.vt_ned() - self.vned
        psi = self.euler[2]
        d = np.array([-math.cos(psi), -math.sin(psi), 0.0])
        self._set_wind(wind - np.dot(wind, d) * d + head * d)

    def set_cross_wind(self, cross):
        wind = self.vt_ned() - self.vned
        psi = self.euler[2]
        d = np.array([-math.sin(psi), math.cos(psi), 0.0])
        self._set_wind(wind - np.dot(wind, d) * d + cross * d)

    def result(self, running, source):
        glat, glon, h = self.geodetic()
        wind = self.vt_ned() - self.vned
        wind[np.abs(wind) < 1e-9 * (1.0 + self.vt)] = 0.0     # the rounding of the air's axes, not a wind
        return InitialCondition(math.degrees(glat), planets.wrap_lon(math.degrees(glon)), float(h),
                                tuple(float(v) for v in self.vned), tuple(float(v) for v in self.euler),
                                tuple(float(v) for v in self.pqr), tuple(float(v) + 0.0 for v in wind),
                                tuple(running), str(source), float(self.elevation),
                                self.trim)


class _Reader:
    """Numbers of one reset file, in flightsim's units, with errors naming the file and the element."""

    def __init__(self, path):
        self.path = path

    def convert(self, value, unit, default, what):
        unit = (unit or default or "").upper()
        if not unit:
            return value
        if unit not in CONVERT:
            raise InputError(self.path, what, f"unknown unit {unit!r}")
        family, factor = CONVERT[unit]
        want = _FAMILY.get(default.upper()) if default else None
        if want is not None and family != want:
            raise InputError(self.path, what, f"unit {unit!r} is not a {_describe(want)}")
        return value * factor

    def number(self, el, what):
        text = (el.text or "").strip()
        try:
            value = float(text)
        except ValueError:
            raise InputError(self.path, what, f"not a number: {text!r}") from None
        if not math.isfinite(value):
            raise InputError(self.path, what, f"not a finite number: {text!r}")
        return value

    def value(self, parent, tag, default_unit, where=""):
        what = f"{where}/{tag}" if where else tag
        el = parent.find(tag)
        return self.convert(self.number(el, what), el.get("unit"), default_unit, what)

    def triplet(self, el, default_unit, where):
        """``FGXMLElement::FindElementTripletConvertTo``: x|roll, y|pitch, z|yaw (0 where absent), the unit on
        ``el``."""
        out = []
        for names in (("x", "roll"), ("y", "pitch"), ("z", "yaw")):
            child = next((c for c in (el.find(n) for n in names) if c is not None), None)
            out.append(0.0 if child is None else self.convert(self.number(child, f"{where}/{child.tag}"),
                                                              el.get("unit"), default_unit, f"{where}/{child.tag}"))
        return np.array(out)


def _describe(family):
    return {"FT": "length", "RAD": "angle", "FT/SEC": "speed", "RAD/SEC": "rate"}[family]


def _check_latitude(reader, lat, where):
    if abs(lat) > 0.5 * math.pi:
        raise InputError(reader.path, where, f"latitude {math.degrees(lat):g} deg is beyond ±90°")


def _load_latitude(r, reader, parent, where=""):
    el = parent.find("latitude")
    if el is None:
        return
    what = f"{where}/latitude" if where else "latitude"
    lat = reader.value(parent, "latitude", "RAD", where)
    _check_latitude(reader, lat, what)
    if (el.get("type") or "").lower() in ("geod", "geodetic"):
        r.set_geod_latitude(lat)
        r.last_lat = "geod"
    else:
        r.set_latitude(lat)
        r.last_lat = "geoc"


def _load_v1(r, reader, doc):
    for tag in _V1_UNSUPPORTED:
        if doc.find(tag) is not None:
            raise InputError(reader.path, tag, "not supported (flightsim's trim takes no load factor)")

    def v(tag):
        return reader.value(doc, tag, _V1_UNITS[tag])

    def has(tag):
        return doc.find(tag) is not None

    if has("longitude"):
        r.set_longitude(v("longitude"))
    if has("elevation"):
        r.set_terrain_elevation(v("elevation"))
    for tag in ("altitude", "altitudeAGL"):
        if has(tag):
            r.set_altitude_agl(v(tag))
            break
    else:
        if has("altitudeMSL"):
            r.set_altitude_asl(v("altitudeMSL"))
    _load_latitude(r, reader, doc)
    euler = list(r.euler)
    for k, tag in enumerate(("phi", "theta", "psi")):
        if has(tag):
            euler[k] = v(tag)
    r.set_orientation(euler)
    steps = (("ubody", lambda x: r.set_body_velocity(0, x)), ("vbody", lambda x: r.set_body_velocity(1, x)),
             ("wbody", lambda x: r.set_body_velocity(2, x)), ("vnorth", lambda x: r.set_ned_velocity(0, x)),
             ("veast", lambda x: r.set_ned_velocity(1, x)), ("vdown", lambda x: r.set_ned_velocity(2, x)),
             ("vc", r.set_vcalibrated), ("vt", r.set_vtrue), ("mach", r.set_mach),
             ("gamma", r.set_flight_path_angle), ("roc", r.set_climb_rate), ("vground", r.set_vground),
             ("alpha", r.set_alpha), ("beta", r.set_beta), ("vwind", r.set_wind_mag),
             ("winddir", r.set_wind_dir), ("hwind", r.set_head_wind), ("xwind", r.set_cross_wind))
    for tag, setter in steps:
        if has(tag):
            value = v(tag)
            try:
                setter(value)
            except ValueError as exc:
                raise InputError(reader.path, tag, str(exc)) from None
    if has("trim"):
        r.trim = TRIM_REQUESTS.get((doc.find("trim").text or "").strip().lower())
    r.pqr = np.zeros(3)


def _frame(reader, el, tag):
    frame = (el.get("frame") or "").lower()
    if frame not in _V2_FRAMES[tag] and not (tag == "attitude_rate" and frame == ""):
        raise InputError(reader.path, f"{tag} frame", f"{el.get('frame')!r} is not one of "
                         f"{', '.join(f.upper() for f in _V2_FRAMES[tag])}")
    return frame


def _load_v2(r, reader, doc):
    for tag in ("earth_position_angle", "planet_position_angle", "planet_rotation_rate"):
        if doc.find(tag) is not None:
            raise InputError(reader.path, tag, "not supported")
    if doc.find("elevation") is not None:
        r.elevation = reader.value(doc, "elevation", "FT")
    pos = doc.find("position")
    if pos is None:
        raise InputError(reader.path, "position", "required element is missing")
    frame = _frame(reader, pos, "position")
    if frame == "eci" or any(pos.find(t) is not None for t in "xyz"):
        r.pos = reader.triplet(pos, "FT", "position")      # ECI is ECEF at t = 0
    else:
        if pos.find("longitude") is not None:
            r.set_longitude(reader.value(pos, "longitude", "RAD", "position"))
        if pos.find("radius") is not None:
            r.set_spherical(r.lat_gc(), r.lon(), reader.value(pos, "radius", "FT", "position"))
        elif pos.find("altitudeAGL") is not None:
            r.set_altitude_agl(reader.value(pos, "altitudeAGL", "FT", "position"))
        elif pos.find("altitudeMSL") is not None:
            r.set_altitude_asl(reader.value(pos, "altitudeMSL", "FT", "position"))
        else:
            raise InputError(reader.path, "position", "no altitude or radius is given")
        _load_latitude(r, reader, pos, "position")
    if np.linalg.norm(r.pos) == 0.0:
        raise InputError(reader.path, "position", "the position is the planet's centre")
    tec2l = r.tec2l()
    el = doc.find("orientation")
    if el is not None:
        frame = _frame(reader, el, "orientation")
        e = reader.triplet(el, "RAD", "orientation")
        if frame == "local":
            r.set_orientation(list(e))
        else:                           # body ← ECEF (= ECI at t = 0), composed with ECEF ← local
            r.set_orientation(_euler_of(_tl2b(*e) @ tec2l.T))
    tl2b = r.tl2b()
    el = doc.find("velocity")
    if el is not None:
        frame = _frame(reader, el, "velocity")
        v = reader.triplet(el, "FT/SEC", "velocity")
        if frame == "eci":
            v = v - np.cross([0.0, 0.0, r.omega], r.pos)
        r.vned = tl2b.T @ v if frame == "body" else (v if frame == "local" else tec2l @ v)
        r.last_speed = "uvw" if frame == "body" else "ned"
    r.vt = float(np.linalg.norm(r.vned))
    r.calc_aero_angles(r.vned)
    el = doc.find("attitude_rate")
    if el is not None:
        frame = _frame(reader, el, "attitude_rate")
        w = reader.triplet(el, "RAD/SEC", "attitude_rate")
        if frame == "eci":
            r.pqr = tl2b @ tec2l @ (w - np.array([0.0, 0.0, r.omega]))
        elif frame == "ecef":
            r.pqr = tl2b @ tec2l @ w
        elif frame == "local":
            inv = 1.0 / r.radius()
            local = np.array([inv * r.vned[1], -inv * r.vned[0], -inv * r.vned[1] * math.tan(r.lat_gc())])
            r.pqr = tl2b @ (w + local)
        elif frame == "body":
            r.pqr = w


def load_initial_condition(path, planet=None, elevation=None):
    """The :class:`InitialCondition` of the reset file ``path`` on ``planet`` (default WGS-84); ``elevation``
    (ft, None: the file's) the terrain's height set after the file, as a script's ``ic/terrain-elevation-ft``
    before a reset (``FGInitialCondition::SetTerrainElevationFtIC``: the height above the ground kept where the
    file gave its altitude so, else the height above sea level).

    Raises
    ------
    flightsim.errors.InputError
        A missing or unreadable file, not an ``<initialize>`` file, an unknown unit, a non-number, a latitude
        beyond ±90°, an element JSBSim reads and flightsim does not: the file, the element and why.
    """
    r, running, path = _resolve(path, planet, elevation)
    return r.result(running, path)


def initial_setters(path, planet=None, elevation=None):
    """JSBSim's ``FGInitialCondition`` as the reset file ``path`` leaves it (:func:`load_initial_condition`'s
    arguments): an object whose setters are FGInitialCondition's (JSBSim's names in snake case: ``set_vtrue``,
    ``set_alpha``, ``set_beta``, ``set_euler``, ``set_flight_path_angle``, ``set_latitude`` (geocentric),
    ``set_longitude``, ``set_altitude_asl``, …), each keeping what the last ones set as JSBSim's does, and whose
    state is its attributes (``pos`` ECEF ft, ``vned`` ft/s, ``euler`` rad, ``pqr`` rad/s in JSBSim's body axes,
    ``vt`` ft/s, ``alpha``, ``beta`` rad) and ``vt_ned()``, ``lat_gc()``, ``lon()``, ``asl()``, ``geodetic()``,
    ``tec2l()``: what ``FGStateSpace``'s components set and read (:mod:`flightsim.simulation.linearization`).

    Raises
    ------
    flightsim.errors.InputError
        As :func:`load_initial_condition`.
    """
    return _resolve(path, planet, elevation)[0]


def _resolve(path, planet, elevation):
    """The reset file ``path`` read into a :class:`_Resolver`: ``(resolver, running, path)``."""
    path = Path(path)
    try:
        doc = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise InputError(path, "", f"not well-formed XML: {exc}") from None
    except OSError as exc:
        raise InputError(path, "", exc.strerror or str(exc)) from None
    if doc.tag != "initialize":
        raise InputError(path, doc.tag, "not a JSBSim initialization file (its root is not <initialize>)")
    reader = _Reader(path)
    version = 1.0
    if doc.get("version") is not None:
        try:
            version = float(doc.get("version"))
        except ValueError:
            raise InputError(path, "initialize version", f"not a number: {doc.get('version')!r}") from None
    if version >= 3.0:
        raise InputError(path, "initialize version", "only versions 1 and 2 are supported")
    r = _Resolver(planets.WGS84 if planet is None or not planet.round else planet)
    (_load_v2 if version >= 2.0 else _load_v1)(r, reader, doc)
    if elevation is not None:
        r.set_terrain_elevation(float(elevation))
    running = []
    for k, el in enumerate(doc.findall("running")):
        n = reader.number(el, f"running[{k}]")
        if n != int(n) or n < -1:
            raise InputError(path, f"running[{k}]", f"not an engine index: {el.text.strip()!r}")
        running.append(int(n))
    return r, running, path

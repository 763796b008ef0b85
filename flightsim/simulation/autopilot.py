"""An autopilot for every aircraft flightsim flies: it moves the pilot's controls, as a pilot would.

Modes, as a light airplane's two-axis autopilot with an autothrottle has them:

==========  ====================================================================
lateral     ``ROL`` wing leveller (bank 0); ``HDG`` heading select; ``LOC`` the
            centreline of runway 36 (its extension to the South), flown as a
            ground track, so a crosswind is crabbed into
vertical    ``ALT`` altitude hold (and select: the ``VS`` it climbs or descends
            at, captured as it arrives); ``VS`` vertical speed; ``GS`` a 3°
            path to runway 36's aim point (:data:`flightsim.simulation.starts.AIM_DISTANCE`
            past the threshold)
speed       ``SPD`` indicated airspeed by the throttle while a vertical mode holds
            the path; by the pitch when none does (``PIT``)
==========  ====================================================================

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from flightsim.math import quat
from flightsim.physics.aero import isa_density
from flightsim.physics.constants import KNOT, RHO_SL
from flightsim.physics.modes import linearize
from flightsim.physics.trim import AirplaneModel, TrimError, trim
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.starts import AIM_DISTANCE

__all__ = ["APPROACH_MINIMUM", "Autopilot", "Gains", "Selection", "mode_code", "parse_spec", "wheel_height"]

#: What a selection may hold: key → (low, high, unit, meaning).  ``app`` takes one runway, 36.
SPEC_KEYS = {
    "hdg": (0.0, 360.0, "°", "heading"),
    "alt": (0.0, 60000.0, " ft", "altitude"),
    "vs": (-6000.0, 6000.0, " ft/min", "vertical speed"),
    "ias": (20.0, 1000.0, " kt", "indicated airspeed"),
    "app": (36.0, 36.0, "", "approach to runway"),
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
GLIDE_SLOPE = 3.0
#: Mode numbers in :func:`mode_code` (the trace's ``ap_mode``: units lateral, tens vertical, hundreds speed).
LATERAL = {None: 0, "ROL": 1, "HDG": 2, "LOC": 3}
VERTICAL = {None: 0, "ALT": 1, "VS": 2, "GS": 3}
SPEED = {None: 0, "SPD": 1, "PIT": 2}


@dataclass(frozen=True)
class Selection:
    """What the pilot selected: heading (deg), altitude (ft), vertical speed (ft/min), indicated airspeed (kt),
    and the approach (runway 36); None where nothing is selected."""

    heading: float | None = None
    altitude: float | None = None
    vertical_speed: float | None = None
    airspeed: float | None = None
    approach: bool = False


def parse_spec(text):
    """A :class:`Selection` from ``hdg=270,alt=2500,vs=500,ias=100`` or ``app=36``.

    Raises
    ------
    ValueError
        One line naming the key and the accepted range: ``"alt=-5: altitude must be 0 to 60000 ft"`` (the command line puts ``--autopilot:`` before it).
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
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            if key == "app":
                raise ValueError(f"app={raw.strip()}: the approach is to runway 36 only (app=36)")
            raise ValueError(f"{key}={raw.strip()}: {meaning} must be {low:g} to {high:g}{unit}")
        if key in values:
            raise ValueError(f"{key} given twice")
        values[key] = value
    if not values:
        raise ValueError("nothing selected; give key=value of " + ", ".join(SPEC_KEYS))
    if "app" in values and ("hdg" in values or "alt" in values or "vs" in values):
        raise ValueError("app=36 flies its own track and path; leave out hdg, alt and vs")
    return Selection(heading=values.get("hdg"), altitude=values.get("alt"), vertical_speed=values.get("vs"),
                     airspeed=values.get("ias"), approach="app" in values)


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
    def at(cls, aircraft, airspeed, altitude, flaps=0.0, atmosphere="constant"):
        """Trim ``aircraft`` in level flight at ``airspeed`` (ft/s) and ``altitude`` (ft) and linearise there.

        Raises
        ------
        flightsim.physics.trim.TrimError
            No level flight there (the message says what limits it).
        """
        model = AirplaneModel(aircraft, atmosphere)
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
    """The trace's ``ap_mode``: units the lateral mode (ROL 1, HDG 2, LOC 3), tens the vertical (ALT 1, VS 2,
    GS 3), hundreds the speed (SPD 1, PIT 2); 0 when disengaged."""
    return LATERAL[lateral] + 10 * VERTICAL[vertical] + 100 * SPEED[speed]


def _wrap180(deg):
    return (deg + 180.0) % 360.0 - 180.0


def _toward(value, target, step):
    return value + min(max(target - value, -step), step)


def _clip(x, low, high):
    return min(max(x, low), high)


class Autopilot:
    """The autopilot of one :class:`~flightsim.simulation.flight.Simulation` (``sim.autopilot``): engaged with a
    :class:`Selection`, it sets the pilot's throttle, elevator, aileron and rudder before every step.

    Attributes
    ----------
    selection : Selection
    lateral, vertical, speed : str or None
        The engaged modes (see the module docstring).
    engaged : bool
    message : str
        Why it last disconnected ('' while engaged or never engaged).
    chime : bool
        Set when the approach hands back (the HUD plays it and clears it).
    gains : Gains
    """

    def __init__(self):
        self.selection = Selection()
        self.lateral = self.vertical = self.speed = None
        self.engaged = False
        self.message = ""
        self.chime = False
        self.gains = None
        #: the flight director's command: (bank, pitch) in degrees (aviation signs), None when disengaged
        self.director = None
        self._set = None
        self._pitch_integral = 0.0
        self._roll_integral = 0.0
        self._throttle_integral = 0.0
        self._speed_integral = 0.0
        self._throttle_base = 0.0
        self._held_altitude = None
        self._held_airspeed = None

    # ------------------------------------------------------------------ engaging

    @property
    def used(self):
        """Engaged now, or engaged once and disconnected since."""
        return self.engaged or bool(self.message)

    @property
    def modes(self):
        """The engaged modes as a cockpit shows them, ``HDG ALT SPD`` ('' when disengaged)."""
        return " ".join(m for m in (self.lateral, self.vertical, self.speed) if m) if self.engaged else ""

    def describe(self):
        """One line: the modes engaged and what is selected, or why it disconnected."""
        if not self.engaged:
            return self.message or "off"
        sel = self.selection
        held = [f"heading {sel.heading:g}°" if self.lateral == "HDG" else None,
                "runway 36" if self.lateral == "LOC" else None,
                f"altitude {self._held_altitude:.0f} ft" if self.vertical == "ALT" else None,
                f"vertical speed {sel.vertical_speed:g} ft/min" if self.vertical == "VS" else None,
                f"{self._held_airspeed / KNOT:.0f} kt indicated"]
        return f"{self.modes} engaged: " + ", ".join(h for h in held if h)

    @property
    def code(self):
        """:func:`mode_code` of the engaged modes (0 when disengaged)."""
        return mode_code(self.lateral, self.vertical, self.speed) if self.engaged else 0

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
        altitude = float(sim.vector[2])
        speed = tm.airspeed
        if selection.airspeed is not None:
            speed = selection.airspeed * KNOT * math.sqrt(RHO_SL / self._density(sim))
        try:
            self.gains = Gains.at(sim.aircraft, speed, altitude, flaps=sim.controls.flaps,
                                  atmosphere=sim.atmosphere)
        except TrimError as exc:
            raise ValueError(f"autopilot: no level flight to fly it about: {exc}") from None
        self._select(sim, selection, tm)
        c = sim.controls           # the integrals start from the controls as they are: no jump when it engages
        self._pitch_integral = c.elevator + c.elevator_trim
        self._roll_integral = c.aileron
        self._throttle_base, self._throttle_integral, self._speed_integral = c.throttle, 0.0, 0.0
        self.engaged, self.message, self.chime = True, "", False
        self._set = None
        self.director = None
        return self

    def select(self, sim, selection):
        """Fly ``selection`` now: engaged, the modes and targets change and the gains stay (a new heading or
        altitude from the panel); disengaged, :meth:`engage`."""
        if not self.engaged:
            return self.engage(sim, selection)
        self._select(sim, selection, sim.telemetry())
        return self

    def _select(self, sim, selection, tm):
        """The modes and targets of ``selection`` for the flight now (``tm``: its telemetry)."""
        self.selection = selection
        self.lateral = "LOC" if selection.approach else ("HDG" if selection.heading is not None else "ROL")
        if selection.approach:
            self.vertical = "GS"
        elif selection.vertical_speed is not None and selection.altitude is None:
            self.vertical = "VS"
        elif selection.airspeed is not None and selection.altitude is None:
            self.vertical = None                # the speed by the pitch
        else:
            self.vertical = "ALT"
        self.speed = "SPD" if self.vertical is not None else "PIT"
        self._held_altitude = selection.altitude if selection.altitude is not None else float(sim.vector[2])
        self._held_airspeed = (selection.airspeed * KNOT if selection.airspeed is not None
                               else tm.indicated_airspeed)
        # what it holds, as selected values (a later change of one keeps the others)
        self.selection = replace(selection, airspeed=self._held_airspeed / KNOT,
                                 altitude=self._held_altitude if self.vertical == "ALT" else selection.altitude)

    def disconnect(self, why):
        """Disengage, saying ``why`` (:attr:`message`)."""
        if self.engaged:
            self.engaged, self.message = False, why
            self._set = None
            self.director = None

    # ------------------------------------------------------------------ flying

    @staticmethod
    def _density(sim):
        rho = sim.air_density                            # at the last loads evaluation
        return rho if rho > 0.0 else RHO_SL

    def fly(self, sim):
        """Set ``sim.controls`` for the next step (nothing when disengaged); disconnect on a pilot's input, or at
        the approach's minimum."""
        if not self.engaged:
            return
        c = sim.controls
        if self._set is not None:
            for name, value in zip(("throttle", "elevator", "aileron", "rudder"), self._set):
                if abs(getattr(c, name) - value) > PILOT_THRESHOLD * (1.0 if name == "throttle" else 2.0):
                    self.disconnect(f"autopilot disconnected: pilot input on the {name}")
                    return
        y = sim.vector
        dt = sim.dt
        g = sim.gravity
        roll, pitch, heading = (float(a) for a in quat.aviation_angles(y[6:10]))
        wind = sim.wind[:3]
        air = y[3:6] - wind
        speed = float(np.linalg.norm(air))
        if speed < 1.0:
            self.disconnect("autopilot disconnected: no airspeed")
            return
        rho = self._density(sim)
        ias = speed * math.sqrt(rho / RHO_SL)
        gamma = math.asin(_clip(air[2] / speed, -1.0, 1.0))
        p, q, r = float(y[10]), -float(y[11]), -float(y[12])            # aviation body rates
        scale = max(0.5 * rho * speed * speed / self.gains.qbar, 0.05)   # control power ∝ q̄
        G = self.gains
        sel = self.selection

        # lateral: a bank to fly
        phi_max = min(MAX_BANK, math.degrees(math.atan(speed * math.radians(3.0) / g)) * 1.5)
        if self.lateral == "ROL":
            phi_c = 0.0
        else:
            if self.lateral == "HDG":
                error = _wrap180(sel.heading - heading)
            else:
                along, off = RUNWAY.local(y[0], y[1])                       # off: ft left of the centreline
                track = math.degrees(math.atan2(-y[4], y[3])) % 360.0
                wanted = RUNWAY.heading_deg + _clip(LOC_GAIN * off, -LOC_MAX, LOC_MAX)
                error = _wrap180(wanted - track)
            rate = math.radians(error) / HEADING_TIME
            phi_c = _clip(math.degrees(math.atan(speed * rate / g)), -phi_max, phi_max)
        p_c = math.radians(phi_c - roll) / BANK_TIME
        roll_power = G.roll_power * scale
        self._roll_integral = _clip(self._roll_integral + 0.2 * math.radians(phi_c - roll) * dt, -1.0, 1.0)
        aileron = (ROLL_FREQUENCY * (p_c - p) - G.roll_damping * p_c) / roll_power + self._roll_integral
        r_c = g * math.sin(math.radians(roll)) / speed
        rudder = (YAW_FREQUENCY * (r_c - r) - G.yaw_damping * r_c) / (G.yaw_power * scale)

        # vertical: a flight-path angle to fly
        if self.vertical == "GS":
            along, _ = RUNWAY.local(y[0], y[1])
            height = y[2] - wheel_height(sim.aircraft)
            if height < APPROACH_MINIMUM and along > -20000.0:
                self.chime = True
                self.disconnect(f"approach: {APPROACH_MINIMUM:.0f} ft above the runway - your airplane")
                return
            path = math.tan(math.radians(GLIDE_SLOPE)) * (AIM_DISTANCE - along)
            ground = math.hypot(y[3], y[4])
            vs_c = -ground * math.tan(math.radians(GLIDE_SLOPE)) + (path - height) / PATH_TIME
        elif self.vertical == "VS":
            vs_c = sel.vertical_speed / 60.0
        elif self.vertical == "ALT":
            error = self._held_altitude - y[2]
            limit = abs(sel.vertical_speed if sel.vertical_speed is not None else DEFAULT_VS) / 60.0
            vs_c = _clip(error / ALTITUDE_TIME, -limit, limit)
        else:
            vs_c = None
        target = self._held_airspeed
        if vs_c is None:                        # the speed by the pitch: energy, and an integral for the path it needs
            self._speed_integral = _clip(self._speed_integral + (target - ias) * dt / SPEED_INTEGRAL_TIME,
                                         -0.25 * g * SPEED_TIME, 0.25 * g * SPEED_TIME)
            gamma_c = _clip(-(target - ias + self._speed_integral) / (g * SPEED_TIME), -0.25, 0.25)
        else:
            gamma_c = math.asin(_clip(vs_c / speed, -0.5, 0.5))
        theta_c = _clip(math.radians(pitch) + (gamma_c - gamma), -math.radians(MAX_PITCH), math.radians(MAX_PITCH))
        self.director = (phi_c, math.degrees(theta_c))
        power = G.pitch_power * scale
        theta_error = theta_c - math.radians(pitch)
        self._pitch_integral = _clip(self._pitch_integral + 0.3 * PITCH_FREQUENCY ** 2 / power * theta_error * dt,
                                     -1.0, 1.0)
        elevator = (PITCH_FREQUENCY ** 2 * theta_error
                    - max(2.0 * PITCH_DAMPING * PITCH_FREQUENCY + G.pitch_damping, 0.5 * PITCH_FREQUENCY) * q) / power
        elevator += self._pitch_integral

        # speed by the throttle
        throttle = c.throttle
        if self.speed == "SPD" and G.thrust_power > 0.0:
            k = SPEED_FREQUENCY / G.thrust_power
            self._throttle_integral = _clip(self._throttle_integral + 0.2 * k * (target - ias) * dt, -1.0, 1.0)
            throttle = self._throttle_base + k * (target - ias) + self._throttle_integral

        # move the controls as a pilot would: within travel and rates
        step = SURFACE_RATE * dt
        trim = c.elevator_trim
        new = (_toward(c.throttle, _clip(throttle, 0.0, 1.0), THROTTLE_RATE * dt),
               _toward(c.elevator, _clip(elevator - trim, -1.0, 1.0), step),
               _toward(c.aileron, _clip(aileron, -1.0, 1.0), step),
               _toward(c.rudder, _clip(rudder, -1.0, 1.0), step))
        c.throttle, c.elevator, c.aileron, c.rudder = new
        self._set = new



def wheel_height(aircraft):
    """The CG's height above the aircraft's lowest contact point, level (ft): the glide path is the wheels'."""
    r = np.array([g.position for g in aircraft.gear]) if aircraft.gear else np.zeros((1, 3))
    return float(-np.min(r[:, 2]))


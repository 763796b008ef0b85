"""Linearisation about a trim and the airplane's dynamic modes (cf. JSBSim's ``FGLinearization``).

The linear model ``ẋ = A x + B u`` is taken by central differences of the
same loads the simulation flies (:class:`flightsim.physics.trim.AirplaneModel`),
in the state and input sets a flight-dynamics text uses, with aviation signs
(standard body axes: x forward, y right, z down — the book's y and z negated):

========  =====================================================  ======
state     meaning                                                unit
========  =====================================================  ======
``u``     forward body velocity                                  ft/s
``v``     rightward body velocity (sideslip)                     ft/s
``w``     downward body velocity (angle of attack)               ft/s
``p``     roll rate, right wing down +                           rad/s
``q``     pitch rate, nose up +                                  rad/s
``r``     yaw rate, nose right +                                 rad/s
``phi``   roll angle, right wing down +                          rad
``theta`` pitch angle, nose up +                                 rad
========  =====================================================  ======

Inputs ``throttle, elevator, aileron, rudder`` on the pilot's scale
(elevator +1 nose up, aileron +1 roll right, rudder +1 nose right).  Heading
and position are left out: nothing in the loads depends on them (the air is
still and, with the book's constant density, the same at every height), so
they would only add zero eigenvalues.

:func:`dynamic_modes` names each eigenvalue by its eigenvector — longitudinal
(u, w, q, θ) or lateral-directional (v, p, r, φ) — and by its kind: of the
longitudinal ones the fast pair is the short period and the slow pair the
phugoid; of the lateral ones the oscillatory pair is the Dutch roll, the
fast real root the roll subsidence and the slow one the spiral.
"""

import math
from dataclasses import dataclass

import numpy as np

from flightsim.math import quat
from flightsim.physics.trim import AirplaneModel

STATES = ("u", "v", "w", "p", "q", "r", "phi", "theta")
INPUTS = ("throttle", "elevator", "aileron", "rudder")
LONGITUDINAL = (0, 2, 4, 7)   # u, w, q, theta
LATERAL = (1, 3, 5, 6)        # v, p, r, phi
#: Mode names, as :func:`dynamic_modes` gives them.
MODE_NAMES = ("short period", "phugoid", "roll", "spiral", "dutch roll")


@dataclass(frozen=True)
class LinearModel:
    """``ẋ = A x + B u`` about a trim; see the module docstring for the states and inputs.

    Attributes
    ----------
    A : numpy.ndarray, shape (8, 8)
    B : numpy.ndarray, shape (8, 4)
    trim : flightsim.physics.trim.TrimPoint
    states, inputs : tuple of str
    """

    A: np.ndarray
    B: np.ndarray
    trim: object
    states: tuple = STATES
    inputs: tuple = INPUTS


@dataclass(frozen=True)
class Mode:
    """One dynamic mode: an eigenvalue of A (for a complex pair, the one with ``imag > 0``).

    Attributes
    ----------
    name : str
        One of :data:`MODE_NAMES`.
    axis : str
        ``"longitudinal"`` or ``"lateral"``.
    real, imag : float
        The eigenvalue, rad/s (``imag >= 0``).
    natural_frequency : float
        ``|λ|``, rad/s.
    damping_ratio : float
        ``−Re λ / |λ|`` (1 for a stable real root, −1 for an unstable one).
    period : float or None
        ``2π / Im λ``, s; None when aperiodic.
    time_to_half : float or None
        ``ln 2 / −Re λ``, s, for a decaying mode; None otherwise.
    time_to_double : float or None
        ``ln 2 / Re λ``, s, for a growing mode; None otherwise.
    longitudinal_share : float
        Fraction of the (scaled) eigenvector in u, w, q, θ.
    eigenvector : numpy.ndarray
        Complex, over :data:`STATES`, scaled so its largest entry is 1.
    """

    name: str
    axis: str
    real: float
    imag: float
    natural_frequency: float
    damping_ratio: float
    period: float
    time_to_half: float
    time_to_double: float
    longitudinal_share: float
    eigenvector: np.ndarray

    @property
    def eigenvalue(self):
        """``real + i imag``."""
        return complex(self.real, self.imag)

    def as_dict(self):
        """The mode as JSON-ready numbers (the eigenvector left out)."""
        return {
            "name": self.name, "axis": self.axis, "real": self.real, "imag": self.imag,
            "natural_frequency": self.natural_frequency, "damping_ratio": self.damping_ratio,
            "period_s": self.period, "time_to_half_s": self.time_to_half, "time_to_double_s": self.time_to_double,
        }


def state_vector(x, trim):
    """The simulation's 13-number state for linear-model state ``x`` (about ``trim``'s heading and altitude)."""
    u, v, w, p, q, r, phi, theta = x
    att = quat.from_aviation_angles(math.degrees(phi), math.degrees(theta), trim.heading)
    y = np.zeros(13)
    y[2] = trim.altitude
    y[3:6] = quat.rotate(att, np.array([u, -v, -w]))
    y[6:10] = att
    y[10:13] = (p, -q, -r)
    return y


def linear_state(y):
    """Linear-model state ``x`` of a 13-number simulation state (heading and position dropped)."""
    q_att = y[6:10]
    roll, pitch, _ = quat.aviation_angles(q_att)
    vb = quat.rotate(quat.conj(q_att), y[3:6])
    return np.array([vb[0], -vb[1], -vb[2], y[10], -y[11], -y[12], math.radians(roll), math.radians(pitch)])


def _derivative(model, x, u, trim):
    y = state_vector(x, trim)
    d = model.derivative(y, np.array([u[0], u[1], u[2], u[3], trim.flaps]))
    att = y[6:10]
    vb = np.array([x[0], -x[1], -x[2]])
    wb = y[10:13]
    # body-frame acceleration of the body-frame velocity: Rᵀ a − ω × v
    vdot = quat.rotate(quat.conj(att), d[3:6]) - np.cross(wb, vb)
    p, q, r, phi, theta = x[3], x[4], x[5], x[6], x[7]
    phidot = p + (q * math.sin(phi) + r * math.cos(phi)) * math.tan(theta)
    thetadot = q * math.cos(phi) - r * math.sin(phi)
    return np.array([vdot[0], -vdot[1], -vdot[2], d[10], -d[11], -d[12], phidot, thetadot])


def linearize(trim, aircraft, atmosphere=None, model=None):
    """Jacobians A, B about ``trim`` by central differences on the simulation's loads.

    Parameters
    ----------
    trim : flightsim.physics.trim.TrimPoint
    aircraft : flightsim.physics.aircraft.Aircraft
    atmosphere : {"constant", "isa"} or None
        None (the default): the aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).
    model : AirplaneModel, optional

    Returns
    -------
    LinearModel
    """
    model = model or AirplaneModel(aircraft, atmosphere)
    x0 = linear_state(trim.state)
    u0 = np.array([trim.throttle, trim.elevator, trim.aileron, trim.rudder])
    V = trim.airspeed
    dx = np.array([1e-4 * V, 1e-4 * V, 1e-4 * V, 1e-5, 1e-5, 1e-5, 1e-6, 1e-6])
    du = np.full(4, 1e-6)
    A = np.empty((8, 8))
    B = np.empty((8, 4))
    for j in range(8):
        e = np.zeros(8)
        e[j] = dx[j]
        A[:, j] = (_derivative(model, x0 + e, u0, trim) - _derivative(model, x0 - e, u0, trim)) / (2 * dx[j])
    for j in range(4):
        e = np.zeros(4)
        e[j] = du[j]
        B[:, j] = (_derivative(model, x0, u0 + e, trim) - _derivative(model, x0, u0 - e, trim)) / (2 * du[j])
    return LinearModel(A=A, B=B, trim=trim)


def _mode(name, axis, lam, vec, share):
    sigma, omega = float(lam.real), abs(float(lam.imag))
    wn = math.hypot(sigma, omega)
    zeta = -sigma / wn if wn > 0 else 0.0
    return Mode(
        name=name, axis=axis, real=sigma, imag=omega, natural_frequency=wn, damping_ratio=zeta,
        period=2 * math.pi / omega if omega > 1e-9 else None,
        time_to_half=math.log(2) / -sigma if sigma < 0 else None,
        time_to_double=math.log(2) / sigma if sigma > 0 else None,
        longitudinal_share=share, eigenvector=vec,
    )


def dynamic_modes(linear):
    """The named modes of a :class:`LinearModel`, longitudinal first, fastest first.

    Returns
    -------
    list of Mode
        One entry per real eigenvalue and per complex pair.
    """
    lam, vecs = np.linalg.eig(linear.A)
    V = linear.trim.airspeed
    groups = {"longitudinal": [], "lateral": []}
    for k in range(len(lam)):
        if lam[k].imag < -1e-9:
            continue  # the conjugate stands for the pair
        v = vecs[:, k]
        mag = max(abs(lam[k]), 1e-6)
        scale = np.array([1 / V, 1 / V, 1 / V, 1 / mag, 1 / mag, 1 / mag, 1.0, 1.0])
        s = np.abs(v * scale) ** 2
        share = float(s[list(LONGITUDINAL)].sum() / s.sum())
        v = v / v[np.argmax(np.abs(v))]
        groups["longitudinal" if share >= 0.5 else "lateral"].append((lam[k], v, share))
    modes = []
    lon = sorted(groups["longitudinal"], key=lambda m: -abs(m[0]))
    # the faster half of the longitudinal roots is the short period, the slower half the phugoid
    roots = [(m, 2 if abs(m[0].imag) > 1e-9 else 1) for m in lon]
    total = sum(n for _, n in roots)
    count = 0
    for m, n in roots:
        modes.append(_mode("short period" if count < total / 2 else "phugoid", "longitudinal", *m))
        count += n
    lat = sorted(groups["lateral"], key=lambda m: -abs(m[0]))
    oscillatory = [m for m in lat if abs(m[0].imag) > 1e-9]
    real = [m for m in lat if abs(m[0].imag) <= 1e-9]
    for m in oscillatory:
        modes.append(_mode("dutch roll", "lateral", *m))
    # fastest real root: roll subsidence; slowest: spiral; with no oscillatory pair the Dutch roll
    # has split into the two real roots between them
    middle = "spiral" if oscillatory else "dutch roll"
    names = ["roll"] + [middle] * max(len(real) - 2, 0) + ["spiral"] * (len(real) > 1)
    for m, name in zip(real, names, strict=False):     # with no real root, names still holds "roll"
        modes.append(_mode(name, "lateral", *m))
    return modes

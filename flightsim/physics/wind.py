"""Wind: a steady wind with an optional boundary layer, Dryden turbulence, discrete (1 − cos) gusts.

The wind the airplane meets is written once per physics step by the
simulation into the loads' ``wind`` array (:class:`flightsim.physics.aero.LoadParams`)
and held through the integrator's stages, so it does not depend on them:

``wind[0:3]``  wind velocity, earth frame (x North, y West, z up), ft/s: the
               steady wind at the airplane's height, the turbulence's
               translational components and any discrete gust;
``wind[3:6]``  the turbulence's rotation ``(p_g, q_g, r_g)``, body frame
               (x forward, y left, z up), rad/s: the gradient of the gust
               field across the airplane, ``wind(r) ≈ wind + ω_g × r``, which
               the loads subtract from ω in every element's local velocity.

Steady wind
    Given as the direction it blows *from* (degrees true, clockwise from
    North) and its speed: ``270@15`` blows from the West towards the East,
    earth velocity ``−speed·(cos θ, −sin θ, 0)``.  Optionally it weakens below
    a height H (:class:`Shear`): a power law ``(h/H)^α`` (α = 1/7 by default)
    or a logarithmic boundary layer ``ln(h/z0)/ln(H/z0)``; above H the given
    speed.  Without shear the wind is uniform, and the flight in it is the
    still-air flight carried along with the air (Galilean invariance).

Dryden turbulence (:class:`Dryden`)
    MIL-F-8785C §3.7 (and MIL-HDBK-1797 appendix A) in the form JSBSim's
    ``FGWinds::Turbulence`` uses for its ``milspec``/``tustin`` models, with
    the intensity levels light, moderate and severe:

    * below 1000 ft (low altitude): ``L_w = h``, ``L_u = L_v = h/(0.177 + 0.000823 h)^1.2``,
      ``σ_w = 0.1 W20``, ``σ_u = σ_v = σ_w/(0.177 + 0.000823 h)^0.4``, with the
      wind at 20 ft ``W20`` = 15, 30, 45 kt (light, moderate, severe); h is
      clipped at 10 ft;
    * above 2000 ft (medium/high altitude): ``L_u = L_v = L_w = 1750 ft`` and
      ``σ_u = σ_v = σ_w`` from the probability-of-exceedance curves of
      MIL-F-8785C figure 7 (10⁻², 10⁻³, 10⁻⁵ for light, moderate, severe);
    * between: ``L`` and ``σ`` linear in h from the one to the other.

    The spectra (ω in rad/s, V the airspeed; one-sided, ∫₀^∞ Φ dω = σ²)::

        Φ_u(ω) = σ_u² (2 L_u/(π V)) / (1 + (L_u ω/V)²)
        Φ_v(ω) = σ_v² (L_v/(π V)) (1 + 3 (L_v ω/V)²) / (1 + (L_v ω/V)²)²     (Φ_w alike)
        Φ_p(ω) = σ_w² 0.8 (π L_w/(4 b))^(1/3) / (L_w V (1 + (4 b ω/(π V))²))
        Φ_q(ω) = (ω/V)² / (1 + (4 b ω/(π V))²) Φ_w(ω)
        Φ_r(ω) = (ω/V)² / (1 + (3 b ω/(π V))²) Φ_v(ω)

    b the wingspan.  The forming filters are driven by seeded Gaussian white
    noise (:class:`numpy.random.Generator`) and advanced once per physics step
    by the distance flown through the air, so a series depends on the seed,
    the step and the path, never on the frame rate.  u, v, w and p are exact
    discretisations (the step's transition matrix and noise covariance, so
    the variance is σ² whatever the step); q and r are the derivatives of the
    low-passed w and v, with a first-order hold on the sampled input.  The
    components are along the airplane's horizontal path through the air (u),
    to its left (v) and up (w) — the frozen field flown through (Taylor) — and
    turned into the earth and body frames.

Discrete gusts (:class:`Gust`)
    The (1 − cos) shape of MIL-F-8785C §3.7.5: ``v(t) = V_m (1 − cos(2π τ/d))/2``
    for ``0 ≤ τ = t − start ≤ d``, an earth-frame velocity ``V_m``.

Sources: MIL-F-8785C (1980) §3.7; MIL-HDBK-1797 (1997) appendix A; JSBSim
``src/models/atmosphere/FGWinds.cpp`` (scale lengths, intensities and the
probability-of-exceedance table; read, not copied).
"""

import math
from dataclasses import dataclass, field

import numpy as np

from flightsim.physics.constants import KNOT
from flightsim.schema import Number, Text, join

#: Turbulence levels, ``none`` first.
LEVELS = ("none", "light", "moderate", "severe")
#: Wind at 20 ft for the low-altitude model, kt (MIL-F-8785C §3.7.3).
W20_KNOTS = {"light": 15.0, "moderate": 30.0, "severe": 45.0}
#: Probability of exceedance of each level (MIL-F-8785C §3.7.2.2).
EXCEEDANCE = {"light": 1e-2, "moderate": 1e-3, "severe": 1e-5}
#: Altitudes of the probability-of-exceedance table, ft (MIL-F-8785C fig. 7).
POE_ALTITUDES = np.array([500.0, 1750.0, 3750.0, 7500.0, 15000.0, 25000.0, 35000.0, 45000.0,
                          55000.0, 65000.0, 75000.0, 80000.0])
#: σ (ft/s) at :data:`POE_ALTITUDES` for light, moderate and severe (the 10⁻², 10⁻³, 10⁻⁵ curves).
POE_SIGMA = {
    "light": np.array([6.6, 6.9, 7.4, 6.7, 4.6, 2.7, 0.4, 0.0, 0.0, 0.0, 0.0, 0.0]),
    "moderate": np.array([8.6, 9.6, 10.6, 10.1, 8.0, 6.6, 5.0, 4.2, 2.7, 0.0, 0.0, 0.0]),
    "severe": np.array([15.6, 17.6, 23.0, 23.6, 22.1, 20.0, 16.0, 15.1, 12.1, 7.9, 6.2, 5.1]),
}
POE_ALTITUDES_LIST = [float(a) for a in POE_ALTITUDES]
POE_SIGMA_LIST = {k: [float(x) for x in v] for k, v in POE_SIGMA.items()}


def _interp(x, xs, ys):
    """Linear interpolation, clamped at the ends (as numpy.interp, for one float)."""
    if x <= xs[0]:
        return ys[0]
    for k in range(1, len(xs)):
        if x <= xs[k]:
            return ys[k - 1] + (x - xs[k - 1]) / (xs[k] - xs[k - 1]) * (ys[k] - ys[k - 1])
    return ys[-1]


#: Entries of the wind array: earth wind velocity (ft/s) and the body-frame turbulence rotation (rad/s).
WX, WY, WZ, PG, QG, RG = range(6)
#: Default wingspan when an airplane has none, ft (JSBSim's).
DEFAULT_WINGSPAN = 30.0
#: Speeds below this (ft/s) drive the filters as this (the scale lengths divide by the speed).
MIN_AIRSPEED = 1.0
#: Heights are clipped at this for the scale lengths, ft (JSBSim's).
MIN_HEIGHT = 10.0


def wind_vector(from_deg, speed):
    """Earth-frame velocity (x North, y West, z up) of a wind blowing *from* ``from_deg`` (deg true) at ``speed``.

    ``wind_vector(270, s)`` (from the West) is ``(0, −s, 0)``: blowing towards the East.
    """
    th = math.radians(from_deg)
    return np.array([-speed * math.cos(th), speed * math.sin(th), 0.0])


def check_level(level):
    """``level`` if it names a turbulence level; ``ValueError("turbulence: …")`` otherwise."""
    if level not in LEVELS:
        raise ValueError(f"turbulence: unknown level {level!r}; valid: {', '.join(LEVELS)}")
    return level


@dataclass(frozen=True)
class Shear:
    """The wind's change with height below ``height`` (ft): it is the given wind at and above it.

    Attributes
    ----------
    kind : {"power", "log"}
        ``(h/H)^exponent`` or ``ln(h/roughness)/ln(H/roughness)`` (0 below the roughness length).
    height : float
        H, ft.
    exponent : float
        Of the power law (1/7: open country).
    roughness : float
        Roughness length z0 of the log law, ft (0.1 ft: short grass).
    """

    kind: str = "power"
    height: float = 1000.0
    exponent: float = 1.0 / 7.0
    roughness: float = 0.1

    def __post_init__(self):
        if self.kind not in ("power", "log"):
            raise ValueError(f"wind_shear: unknown kind {self.kind!r}; valid: power, log")
        if not (math.isfinite(self.height) and self.height > self.roughness > 0.0):
            raise ValueError(f"wind_shear: height must be > roughness length > 0, got {self.height:g}")

    def factor(self, h):
        """Fraction of the wind at height ``h`` (ft above the ground), 0..1."""
        if h >= self.height:
            return 1.0
        if self.kind == "power":
            return (max(h, 0.0) / self.height) ** self.exponent
        if h <= self.roughness:
            return 0.0
        return math.log(h / self.roughness) / math.log(self.height / self.roughness)


@dataclass(frozen=True)
class Gust:
    """A discrete (1 − cos) gust: earth velocity ``velocity·(1 − cos(2π τ/duration))/2`` for τ = t − start
    in [0, duration].

    Attributes
    ----------
    start, duration : float
        s.
    velocity : tuple of float
        Peak earth-frame velocity (x North, y West, z up), ft/s.
    """

    start: float
    duration: float
    velocity: tuple

    def __post_init__(self):
        if not (math.isfinite(self.duration) and self.duration > 0.0):
            raise ValueError(f"gust: duration must be > 0 s, got {self.duration!r}")

    def at(self, t):
        """Earth velocity of the gust at time ``t`` (s)."""
        tau = t - self.start
        if tau < 0.0 or tau > self.duration:
            return (0.0, 0.0, 0.0)
        f = 0.5 * (1.0 - math.cos(2.0 * math.pi * tau / self.duration))
        return tuple(f * v for v in self.velocity)


@dataclass(frozen=True)
class WindSpec:
    """The wind of a flight.

    Attributes
    ----------
    from_deg : float
        Direction the steady wind blows from, deg true (clockwise from North), 0..360.
    speed : float
        Steady wind speed, ft/s (≥ 0); above :attr:`Shear.height` when sheared.
    turbulence : str
        One of :data:`LEVELS`.
    seed : int
        Seed of the turbulence's noise.
    shear : Shear or None
        None: uniform wind.
    gusts : tuple of Gust
    """

    from_deg: float = 0.0
    speed: float = 0.0
    turbulence: str = "none"
    seed: int = 0
    shear: Shear = None
    gusts: tuple = field(default_factory=tuple)

    def __post_init__(self):
        if not (math.isfinite(self.from_deg) and 0.0 <= self.from_deg <= 360.0):
            raise ValueError(f"wind: direction must be 0..360 degrees, got {self.from_deg:g}")
        if not (math.isfinite(self.speed) and self.speed >= 0.0):
            raise ValueError(f"wind: speed must be ≥ 0, got {self.speed:g}")
        check_level(self.turbulence)

    @property
    def calm(self):
        """No wind at all: no steady wind, turbulence or gust."""
        return self.speed == 0.0 and self.turbulence == "none" and not self.gusts

    def steady(self, h):
        """Steady wind at height ``h`` (ft above the ground), earth frame, ft/s."""
        speed = self.speed if self.shear is None else self.speed * self.shear.factor(h)
        return wind_vector(self.from_deg, speed)

    def steady_xyz(self, h):
        """:meth:`steady` as three floats (the per-step path)."""
        speed = self.speed if self.shear is None else self.speed * self.shear.factor(h)
        th = math.radians(self.from_deg)
        return -speed * math.cos(th), speed * math.sin(th), 0.0

    def describe(self):
        """One line for a person, speeds in knots."""
        parts = [f"from {self.from_deg:03.0f}° at {self.speed / KNOT:.1f} kt" if self.speed else "calm"]
        if self.shear is not None:
            parts.append(f"{self.shear.kind} shear below {self.shear.height:g} ft")
        if self.turbulence != "none":
            parts.append(f"{self.turbulence} turbulence (seed {self.seed})")
        if self.gusts:
            parts.append(f"{len(self.gusts)} gust(s)")
        return ", ".join(parts)


def turbulence_intensity(level, h):
    """Intensities and scale lengths of the Dryden model at height ``h`` (ft).

    Returns
    -------
    tuple of float
        ``(σ_u, σ_v, σ_w, L_u, L_v, L_w)``: ft/s and ft (MIL-F-8785C §3.7.2–3,
        with the blend of JSBSim between 1000 and 2000 ft).  All zero for ``none``.
    """
    check_level(level)
    if level == "none":
        return (0.0,) * 6
    h = max(h, MIN_HEIGHT)
    sig_low = 0.1 * W20_KNOTS[level] * KNOT
    if h <= 1000.0:
        k = 0.177 + 0.000823 * h
        l_u = h / k ** 1.2
        s_u = sig_low / k ** 0.4
        return s_u, s_u, sig_low, l_u, l_u, h
    high = _interp(h, POE_ALTITUDES_LIST, POE_SIGMA_LIST[level])
    if h <= 2000.0:
        f = (h - 1000.0) / 1000.0
        length = 1000.0 + f * 750.0
        s = sig_low + f * (high - sig_low)
    else:
        length, s = 1750.0, high
    return s, s, s, length, length, length


def dryden_psd(component, omega, airspeed, sigma, length, wingspan=DEFAULT_WINGSPAN, sigma_w=None, length_w=None):
    """One-sided Dryden spectrum (ft²/s² per rad/s, or rad²/s² per rad/s) at ``omega`` (rad/s).

    ``component`` is ``"u"``, ``"v"``, ``"w"`` (σ, L of that component),
    ``"p"`` (σ_w, L_w), ``"q"`` (σ_w, L_w) or ``"r"`` (σ_v, L_v).
    ∫₀^∞ Φ dω is the component's variance.
    """
    om = np.asarray(omega, dtype=np.float64)
    V, L, b = airspeed, length, wingspan
    x = L * om / V
    if component == "u":
        return sigma ** 2 * 2.0 * L / (math.pi * V) / (1.0 + x ** 2)
    if component in ("v", "w"):
        return sigma ** 2 * L / (math.pi * V) * (1.0 + 3.0 * x ** 2) / (1.0 + x ** 2) ** 2
    if component == "p":
        return (sigma ** 2 * 0.8 * (math.pi * L / (4.0 * b)) ** (1.0 / 3.0)
                / (L * V * (1.0 + (4.0 * b * om / (math.pi * V)) ** 2)))
    if component == "q":
        return (om / V) ** 2 / (1.0 + (4.0 * b * om / (math.pi * V)) ** 2) * dryden_psd("w", om, V, sigma, L)
    if component == "r":
        return (om / V) ** 2 / (1.0 + (3.0 * b * om / (math.pi * V)) ** 2) * dryden_psd("v", om, V, sigma, L)
    raise ValueError(f"component: unknown {component!r}")


def sigma_p(sigma_w, length_w, wingspan):
    """Standard deviation of p_g (rad/s): ∫₀^∞ Φ_p dω = σ_w² 0.8 (π L_w/4b)^(1/3) π²/(8 b L_w)."""
    b = wingspan
    return sigma_w * math.sqrt(0.8 * (math.pi * length_w / (4.0 * b)) ** (1.0 / 3.0) * math.pi ** 2
                               / (8.0 * b * length_w))


#: Stationary covariance of the two-state (v, w) filter in normalised time.
_P_INF = np.array([[0.5, 0.25], [0.25, 0.25]])
_SQRT3 = math.sqrt(3.0)


class Dryden:
    """Dryden turbulence along an airplane's path, advanced once per physics step.

    Parameters
    ----------
    level : str
        One of :data:`LEVELS`.
    seed : int
        Seed of the :class:`numpy.random.Generator` (PCG64); the same seed, steps,
        speeds and heights give the same series.
    wingspan : float
        b, ft (the rotational components).

    Notes
    -----
    The filters run on unit-variance states in time normalised by ``L/V``:

    * u: ``z ← a z + √(1 − a²) n``, ``a = exp(−V Δt/L_u)``: the exact
      discretisation of ``1/(1 + (L_u/V) s)``;
    * v, w: ``(1 + √3 T s)/(1 + T s)²``, ``T = L/V``, as two cascaded first-order
      states ``z₁ = η/(1 + Ts)``, ``z₂ = z₁/(1 + Ts)`` with output
      ``√3 z₁ + (1 − √3) z₂`` (unit variance); transition
      ``e^{−δ}[[1, 0], [δ, 1]]`` and the exact noise covariance for ``δ = Δt/T``;
    * p: like u with ``T_p = 4b/(πV)`` and the σ_p of :func:`sigma_p`;
    * q, r: ``q_g = −(w − w̄)/(V T_q)``, ``r_g = (v − v̄)/(V T_r)`` with w̄, v̄ the
      first-order low-passes (``T_q = 4b/(πV)``, ``T_r = 3b/(πV)``) of w and v,
      i.e. ``(s/V)/(1 + T s)`` of the standard; the signs make ``ω_g × r`` the
      gradient of the frozen field along the path in these axes (x forward,
      y left, z up): ``∂w/∂x = −q_g``, ``∂v/∂x = r_g``.

    The states start from their stationary distribution, so there is no spin-up.
    """

    #: Normal deviates drawn at once (the series does not depend on it).
    BLOCK = 4096

    def __init__(self, level, seed=0, wingspan=DEFAULT_WINGSPAN):
        self.level = check_level(level)
        self.seed = int(seed)
        self.wingspan = float(wingspan) if wingspan and wingspan > 0.0 else DEFAULT_WINGSPAN
        self.reset()

    def reset(self):
        """Back to the start of the seeded series."""
        self._rng = np.random.Generator(np.random.PCG64(self.seed))
        self._noise = np.empty((0, 6))
        self._k = 0
        n = self._draw()
        self._u = float(n[0])
        cv = np.linalg.cholesky(_P_INF)
        self._v = tuple(float(x) for x in cv @ n[1:3])
        self._w = tuple(float(x) for x in cv @ n[3:5])
        self._p = float(n[5])
        self._first = True
        self._vf = self._wf = 0.0
        self._prev_v = self._prev_w = 0.0
        #: the last output: (u, v, w) ft/s and (p, q, r) rad/s, path frame
        self.value = (0.0,) * 6

    def _draw(self):
        if self._k >= len(self._noise):
            self._noise = self._rng.standard_normal((self.BLOCK, 6))
            self._k = 0
        n = self._noise[self._k]
        self._k += 1
        return n

    def step(self, dt, airspeed, height):
        """Advance by ``dt`` (s) at ``airspeed`` (ft/s) and ``height`` (ft); return :attr:`value`.

        ``dt = 0`` returns the current value (the first call gives the
        stationary start, whatever ``dt``).
        """
        if self.level == "none":
            return self.value
        V = max(airspeed, MIN_AIRSPEED)
        s_u, s_v, s_w, l_u, l_v, l_w = turbulence_intensity(self.level, height)
        b = self.wingspan
        if not self._first and dt > 0.0:
            n = self._draw()
            a = math.exp(-V * dt / l_u)
            self._u = a * self._u + math.sqrt(max(1.0 - a * a, 0.0)) * float(n[0])
            self._v = _second_order(self._v, V * dt / l_v, float(n[1]), float(n[2]))
            self._w = _second_order(self._w, V * dt / l_w, float(n[3]), float(n[4]))
            a = math.exp(-V * dt * math.pi / (4.0 * b))
            self._p = a * self._p + math.sqrt(max(1.0 - a * a, 0.0)) * float(n[5])
        u = s_u * self._u
        v = s_v * (_SQRT3 * self._v[0] + (1.0 - _SQRT3) * self._v[1])
        w = s_w * (_SQRT3 * self._w[0] + (1.0 - _SQRT3) * self._w[1])
        t_q = 4.0 * b / (math.pi * V)
        t_r = 3.0 * b / (math.pi * V)
        if self._first:
            # start the low-passes at their stationary mean given the input: no derivative kick
            self._wf, self._vf = w, v
            self._first = False
        elif dt > 0.0:
            self._wf = _first_order_hold(self._wf, self._prev_w, w, dt, t_q)
            self._vf = _first_order_hold(self._vf, self._prev_v, v, dt, t_r)
        self._prev_v, self._prev_w = v, w
        p = sigma_p(s_w, l_w, b) * self._p
        q = -(w - self._wf) / (V * t_q)
        r = (v - self._vf) / (V * t_r)
        self.value = (u, v, w, p, q, r)
        return self.value


def _second_order(z, delta, n1, n2):
    """Exact step ``δ`` (normalised time) of ``z₁' = −z₁ + η``, ``z₂' = z₁ − z₂`` for unit white η."""
    e = math.exp(-delta)
    e2 = e * e
    z1 = e * z[0]
    z2 = e * (delta * z[0] + z[1])
    i0 = 0.5 * (1.0 - e2)
    i1 = 0.25 * (1.0 - e2 * (1.0 + 2.0 * delta))
    i2 = 0.25 * (1.0 - e2 * (1.0 + 2.0 * delta + 2.0 * delta * delta))
    l11 = math.sqrt(max(i0, 0.0))
    l21 = i1 / l11 if l11 > 0.0 else 0.0
    l22 = math.sqrt(max(i2 - l21 * l21, 0.0))
    return (z1 + l11 * n1, z2 + l21 * n1 + l22 * n2)


def _first_order_hold(f, x0, x1, dt, tau):
    """Exact step of ``τ f' = x − f`` over ``dt`` with x linear from ``x0`` to ``x1``."""
    a = math.exp(-dt / tau)
    return a * f + (1.0 - a) * x0 + (x1 - x0) * (1.0 - tau / dt * (1.0 - a))


def wingspan_of(params):
    """Wingspan (ft) of packed loads parameters: twice the outermost wing element's |y| plus half its √area.

    :data:`DEFAULT_WINGSPAN` for an airplane with no wing elements.
    """
    from flightsim.physics.aero import E_AREA, I_IS_WING

    wing = params.element_refs[:, I_IS_WING] == 1 if len(params.element_refs) else np.zeros(0, bool)
    if not np.any(wing):
        return DEFAULT_WINGSPAN
    y = np.abs(params.positions[wing, 1]) + 0.5 * np.sqrt(params.elements[wing, E_AREA])
    return float(2.0 * y.max())


class WindModel:
    """The wind a flight meets: :class:`WindSpec` plus the state of its turbulence.

    :meth:`sample` is called once per physics step (and at a reset) and writes
    the ``wind`` array of the loads.
    """

    def __init__(self, spec, wingspan=DEFAULT_WINGSPAN):
        self.spec = spec
        self.dryden = Dryden(spec.turbulence, spec.seed, wingspan)

    def reset(self):
        """Back to the start of the seeded turbulence."""
        self.dryden.reset()

    def sample(self, t, y, dt, out):
        """Write the wind at time ``t`` (s) and state ``y`` into ``out`` (6,), advancing the turbulence by ``dt``.

        Parameters
        ----------
        t : float
            s (the gusts).
        y : numpy.ndarray
            13-number state ``[x, v, q, ω]`` (earth ft, ft/s; q body → earth; body rad/s).
        dt : float
            Time since the last sample, s (0: do not advance the turbulence).
        out : numpy.ndarray
            ``[wx, wy, wz]`` earth ft/s, ``[p_g, q_g, r_g]`` body rad/s.
        """
        spec = self.spec
        h = float(y[2])
        wx, wy, wz = spec.steady_xyz(h)
        for g in spec.gusts:
            gx, gy, gz = g.at(t)
            wx, wy, wz = wx + gx, wy + gy, wz + gz
        pg = qg = rg = 0.0
        if spec.turbulence != "none":
            # the path through the air: air-relative velocity, horizontal direction (heading when hovering)
            ax, ay, az = y[3] - wx, y[4] - wy, y[5] - wz
            horiz = math.hypot(ax, ay)
            if horiz > MIN_AIRSPEED:
                cx, cy = ax / horiz, ay / horiz
            else:   # the heading: body x in the earth frame, horizontal
                qw, qx, qy, qz = y[6], y[7], y[8], y[9]
                fx, fy = 1.0 - 2.0 * (qy * qy + qz * qz), 2.0 * (qx * qy + qw * qz)
                n = math.hypot(fx, fy)
                cx, cy = (fx / n, fy / n) if n > 1e-9 else (1.0, 0.0)
            u, v, w, p, q, r = self.dryden.step(dt, math.sqrt(ax * ax + ay * ay + az * az), h)
            # path frame: x along (cx, cy), y to its left (−cy, cx), z up
            wx += u * cx - v * cy
            wy += u * cy + v * cx
            wz += w
            ex, ey, ez = p * cx - q * cy, p * cy + q * cx, r
            pg, qg, rg = _to_body(y[6], y[7], y[8], y[9], ex, ey, ez)
        out[0], out[1], out[2], out[3], out[4], out[5] = wx, wy, wz, pg, qg, rg
        return out


def _to_body(qw, qx, qy, qz, x, y, z):
    """Earth vector into the body frame for a unit q body → earth: ``R(q)^T v``."""
    r00 = 1.0 - 2.0 * (qy * qy + qz * qz)
    r01 = 2.0 * (qx * qy - qw * qz)
    r02 = 2.0 * (qx * qz + qw * qy)
    r10 = 2.0 * (qx * qy + qw * qz)
    r11 = 1.0 - 2.0 * (qx * qx + qz * qz)
    r12 = 2.0 * (qy * qz - qw * qx)
    r20 = 2.0 * (qx * qz - qw * qy)
    r21 = 2.0 * (qy * qz + qw * qx)
    r22 = 1.0 - 2.0 * (qx * qx + qy * qy)
    return (r00 * x + r10 * y + r20 * z, r01 * x + r11 * y + r21 * z, r02 * x + r12 * y + r22 * z)


def turbulence_series(level, altitude, airspeed, seed=0, duration=60.0, dt=1.0 / 120.0, wingspan=DEFAULT_WINGSPAN):
    """The turbulence met flying straight and level North at ``altitude`` (ft) and ``airspeed`` (ft/s).

    Returns
    -------
    numpy.ndarray
        Shape (N, 7): ``t, wind_x, wind_y, wind_z`` (earth ft/s: x North,
        y West, z up) and ``p_g, q_g, r_g`` (body rad/s; flying North level,
        body = earth axes), one row per step of ``dt`` from t = 0 to ``duration``.
    """
    n = int(round(duration / dt)) + 1
    d = Dryden(level, seed, wingspan)
    out = np.empty((n, 7))
    for k in range(n):
        out[k, 0] = k * dt
        out[k, 1:] = d.step(dt, airspeed, altitude)
    return out


# ---------------------------------------------------------------------------
# The [wind] section of an aircraft or scenario file
# ---------------------------------------------------------------------------

_WIND_RULES = {
    "from_deg": Number(ge=0.0, le=360.0, unit="deg"),
    "speed_kt": Number(ge=0.0, le=500.0, unit="kt"),
    "turbulence": Text(LEVELS),
    "seed": Number(ge=0, le=2 ** 63 - 1, integer=True),
}
_SHEAR_RULES = {"kind": Text(("power", "log"))}
_SHEAR_OPTIONAL = {"height_ft": Number(gt=0.1, le=60000.0, unit="ft"),
                   "exponent": Number(gt=0.0, le=1.0),
                   "roughness_ft": Number(gt=0.0, le=100.0, unit="ft")}
_GUST_RULES = {"start_s": Number(ge=0.0, le=1e6, unit="s"),
               "duration_s": Number(gt=0.0, le=3600.0, unit="s"),
               "from_deg": Number(ge=0.0, le=360.0, unit="deg"),
               "speed_kt": Number(ge=0.0, le=500.0, unit="kt")}
_GUST_OPTIONAL = {"up_kt": Number(ge=-200.0, le=200.0, unit="kt")}


def gust_from(start, duration, from_deg, knots, up_knots=0.0):
    """A :class:`Gust` given as a person writes it: horizontal from ``from_deg`` (deg true) at ``knots`` peak,
    ``up_knots`` up."""
    v = wind_vector(from_deg, knots * KNOT)
    return Gust(start=float(start), duration=float(duration),
                velocity=(float(v[0]), float(v[1]), float(up_knots) * KNOT))


def load_wind_section(check, value, where="wind"):
    """The :class:`WindSpec` of a ``[wind]`` table (aircraft or scenario file), checked field by field.

    Units are in the keys: ``from_deg`` (the direction it blows from, degrees true), ``speed_kt``,
    ``turbulence`` (``none``, ``light``, ``moderate``, ``severe``), ``seed``, an optional
    ``shear = {kind = "power"|"log", height_ft = 1000}`` and ``[[wind.gusts]]`` tables with
    ``start_s``, ``duration_s``, ``from_deg``, ``speed_kt`` and optional ``up_kt``.  Every key is optional.

    Parameters
    ----------
    check : flightsim.schema.Checker
        The file's checker: problems raise its one-line ``InputError``.
    value : dict
        The parsed table.
    """
    fields = _wind_fields(check, value, where)
    shear = None
    if "shear" in value:
        s = check.fields(value["shear"], join(where, "shear"), _SHEAR_RULES, _SHEAR_OPTIONAL)
        defaults = Shear()
        shear = Shear(kind=s["kind"], height=s.get("height_ft", defaults.height),
                      exponent=s.get("exponent", defaults.exponent),
                      roughness=s.get("roughness_ft", defaults.roughness))
        if not shear.height > shear.roughness:
            check.fail(join(where, "shear.height_ft"), f"must be above roughness_ft ({shear.roughness:g} ft), "
                       f"got {shear.height:g}")
    gusts = ()
    if "gusts" in value:
        items = value["gusts"]
        if not isinstance(items, list):
            check.fail(join(where, "gusts"), "must be an array of tables ([[wind.gusts]])")
        gusts = tuple(
            gust_from(g["start_s"], g["duration_s"], g["from_deg"], g["speed_kt"], g.get("up_kt", 0.0))
            for g in (check.fields(item, f"{join(where, 'gusts')}[{i}]", _GUST_RULES, _GUST_OPTIONAL)
                      for i, item in enumerate(items)))
    return WindSpec(from_deg=fields.get("from_deg", 0.0), speed=fields.get("speed_kt", 0.0) * KNOT,
                    turbulence=fields.get("turbulence", "none"), seed=fields.get("seed", 0),
                    shear=shear, gusts=gusts)


def _wind_fields(check, value, where):
    check.table(value, where, (), (*_WIND_RULES, "shear", "gusts"))
    return {key: rule(check, value[key], join(where, key)) for key, rule in _WIND_RULES.items() if key in value}

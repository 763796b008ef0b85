"""The wind of many airplanes at once: :class:`flightsim.physics.wind.WindModel` compiled, per airplane.

One :class:`~flightsim.physics.wind.WindSpec` for all, one turbulence seed
per airplane; each airplane's steady speed, direction and turbulence level may
be its own (:meth:`BatchWind.set_airplanes`: a campaign's dispersed winds).  Each airplane's series is the one a
:class:`~flightsim.physics.wind.WindModel` with its seed gives (to rounding):
the same Dryden forming filters (:class:`flightsim.physics.wind.Dryden`; its
filter steps :func:`~flightsim.physics.wind._second_order`,
:func:`~flightsim.physics.wind._first_order_hold`, :func:`~flightsim.physics.wind.sigma_p`
and :func:`~flightsim.physics.wind._to_body` compiled as they are), the same
PCG64 noise in the same order, drawn ahead per airplane into a buffer
(:data:`BLOCK` rows; the series does not depend on it).  :func:`sample_one`
is compiled, so the batched simulation samples each airplane's wind inside
its compiled step loop, once per physics step as ``Simulation`` does.

The wind's description travels as arrays (compiled code takes no objects):
``consts`` (one row per airplane of :data:`C_*` entries), the probability-of-exceedance
altitudes and each airplane's row of σ at them (its turbulence level), and the gusts (one row each:
start, duration, peak x, y, z; shared).
"""

import math

import numpy as np

from flightsim.math.compiler import entry_jit, jit
from flightsim.physics import wind as scalar
from flightsim.physics.wind import (
    _P_INF,
    _SQRT3,
    KNOT,
    MIN_AIRSPEED,
    MIN_HEIGHT,
    POE_ALTITUDES,
    POE_SIGMA,
    W20_KNOTS,
)

#: Normal deviates drawn ahead per airplane (rows of 6).
BLOCK = 64
#: Entries of ``consts``: steady speed (ft/s), cos and sin of the from-direction, shear kind (0 none,
#: 1 power, 2 log), shear height (ft), exponent, roughness (ft), turbulent (0/1), σ at 20 ft for the
#: low-altitude model (ft/s), wingspan (ft).
C_SPEED, C_COS, C_SIN, C_SHEAR, C_HEIGHT, C_EXPONENT, C_ROUGHNESS, C_TURBULENT, C_SIG_LOW, C_SPAN = range(10)
#: Entries of an airplane's row of the filter state.
S_U, S_V1, S_V2, S_W1, S_W2, S_P, S_FIRST, S_VF, S_WF, S_PREV_V, S_PREV_W = range(11)
STATE_WIDTH = 11

second_order = jit(scalar._second_order)
first_order_hold = jit(scalar._first_order_hold)
sigma_p = jit(scalar.sigma_p)
to_body = jit(scalar._to_body)


@jit
def table_at(x, xs, ys):
    """``np.interp(x, xs, ys)`` for a finite ``x``, with numpy's own formula (the same bits), written out so that
    the GPU compiles it too (numba's CUDA target has no ``np.interp``)."""
    n = xs.shape[0]
    if x < xs[0]:
        return ys[0]
    if x >= xs[n - 1]:
        return ys[n - 1]
    j = 0
    while xs[j + 1] <= x:
        j += 1
    if xs[j] == x:
        return ys[j]
    return (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]) * (x - xs[j]) + ys[j]


@jit
def intensity(h, sig_low, poe_alt, poe_sig):
    """:func:`flightsim.physics.wind.turbulence_intensity` of a level given by ``sig_low`` and its table, at ``h`` ft.

    Returns ``(σ_u, σ_w, L_u, L_w)`` (σ_v = σ_u, L_v = L_u).
    """
    h = max(h, MIN_HEIGHT)
    if h <= 1000.0:
        k = 0.177 + 0.000823 * h
        s_u = sig_low / k ** 0.4
        return s_u, sig_low, h / k ** 1.2, h
    high = table_at(h, poe_alt, poe_sig)
    if h <= 2000.0:
        f = (h - 1000.0) / 1000.0
        length = 1000.0 + f * 750.0
        s = sig_low + f * (high - sig_low)
        return s, s, length, length
    return high, high, 1750.0, 1750.0


@jit
def dryden_step(st, noise, dt, V, h, consts, poe_alt, poe_sig):
    """:meth:`flightsim.physics.wind.Dryden.step` of one airplane's filter state ``st``; ``(u, v, w, p, q, r)``.

    ``noise`` is the airplane's next row of six normal deviates (used only when the filters advance).
    """
    V = max(V, MIN_AIRSPEED)
    s_u, s_w, l_u, l_w = intensity(h, consts[C_SIG_LOW], poe_alt, poe_sig)
    b = consts[C_SPAN]
    first = st[S_FIRST] > 0.5
    if not first and dt > 0.0:
        a = math.exp(-V * dt / l_u)
        st[S_U] = a * st[S_U] + math.sqrt(max(1.0 - a * a, 0.0)) * noise[0]
        st[S_V1], st[S_V2] = second_order((st[S_V1], st[S_V2]), V * dt / l_u, noise[1], noise[2])
        st[S_W1], st[S_W2] = second_order((st[S_W1], st[S_W2]), V * dt / l_w, noise[3], noise[4])
        a = math.exp(-V * dt * math.pi / (4.0 * b))
        st[S_P] = a * st[S_P] + math.sqrt(max(1.0 - a * a, 0.0)) * noise[5]
    u = s_u * st[S_U]
    v = s_u * (_SQRT3 * st[S_V1] + (1.0 - _SQRT3) * st[S_V2])
    w = s_w * (_SQRT3 * st[S_W1] + (1.0 - _SQRT3) * st[S_W2])
    t_q = 4.0 * b / (math.pi * V)
    t_r = 3.0 * b / (math.pi * V)
    if first:
        st[S_WF], st[S_VF] = w, v
        st[S_FIRST] = 0.0
    elif dt > 0.0:
        st[S_WF] = first_order_hold(st[S_WF], st[S_PREV_W], w, dt, t_q)
        st[S_VF] = first_order_hold(st[S_VF], st[S_PREV_V], v, dt, t_r)
    st[S_PREV_V], st[S_PREV_W] = v, w
    p = sigma_p(s_w, l_w, b) * st[S_P]
    q = -(w - st[S_WF]) / (V * t_q)
    r = (v - st[S_VF]) / (V * t_r)
    return u, v, w, p, q, r


@jit
def sample_one(a, t, y, dt, out, consts, poe_alt, poe_sig, gusts, state, noise, drawn):
    """:meth:`flightsim.physics.wind.WindModel.sample` for airplane ``a``: its wind into ``out`` (6,).

    ``consts`` and ``poe_sig`` are airplane ``a``'s rows; ``state`` (N, :data:`STATE_WIDTH`) the filters,
    ``noise`` (N, :data:`BLOCK`, 6) the deviates drawn ahead and ``drawn`` (N,) how many of them each
    airplane has used.
    """
    h = y[2]
    speed = consts[C_SPEED]
    kind = consts[C_SHEAR]
    height = consts[C_HEIGHT]
    if kind > 0.5 and h < height:
        if kind < 1.5:
            speed *= (max(h, 0.0) / height) ** consts[C_EXPONENT]
        elif h <= consts[C_ROUGHNESS]:
            speed = 0.0
        else:
            z0 = consts[C_ROUGHNESS]
            speed *= math.log(h / z0) / math.log(height / z0)
    wx, wy, wz = -speed * consts[C_COS], speed * consts[C_SIN], 0.0
    for g in range(gusts.shape[0]):
        tau = t - gusts[g, 0]
        if 0.0 <= tau <= gusts[g, 1]:
            f = 0.5 * (1.0 - math.cos(2.0 * math.pi * tau / gusts[g, 1]))
            wx, wy, wz = wx + f * gusts[g, 2], wy + f * gusts[g, 3], wz + f * gusts[g, 4]
    pg = qg = rg = 0.0
    if consts[C_TURBULENT] > 0.5:
        ax, ay, az = y[3] - wx, y[4] - wy, y[5] - wz
        horiz = math.hypot(ax, ay)
        if horiz > MIN_AIRSPEED:
            cx, cy = ax / horiz, ay / horiz
        else:
            qw, qx, qy, qz = y[6], y[7], y[8], y[9]
            fx, fy = 1.0 - 2.0 * (qy * qy + qz * qz), 2.0 * (qx * qy + qw * qz)
            n = math.hypot(fx, fy)
            cx, cy = (fx / n, fy / n) if n > 1e-9 else (1.0, 0.0)
        st = state[a]
        row = noise[a, min(drawn[a], noise.shape[1] - 1)]
        if st[S_FIRST] < 0.5 and dt > 0.0:
            drawn[a] += 1
        u, v, w, p, q, r = dryden_step(st, row, dt, math.sqrt(ax * ax + ay * ay + az * az), h, consts, poe_alt,
                                       poe_sig)
        wx += u * cx - v * cy
        wy += u * cy + v * cx
        wz += w
        pg, qg, rg = to_body(y[6], y[7], y[8], y[9], p * cx - q * cy, p * cy + q * cx, r)
    out[0], out[1], out[2], out[3], out[4], out[5] = wx, wy, wz, pg, qg, rg


@entry_jit
def sample_rows(index, T, Y, dt, out, consts, poe_alt, poe_sig, gusts, state, noise, drawn):
    """:func:`sample_one` for the airplanes ``index`` (times ``T``, states ``Y``, winds ``out``)."""
    for i in range(index.shape[0]):
        a = index[i]
        sample_one(a, T[a], Y[a], dt, out[a], consts[a], poe_alt, poe_sig[a], gusts, state, noise, drawn)


class BatchWind:
    """The wind of N airplanes: steady wind (with shear), gusts and Dryden turbulence with one seed each.

    Parameters
    ----------
    spec : flightsim.physics.wind.WindSpec
        Every airplane's wind, until :meth:`set_airplanes` gives some their own speed, direction or level.
    seeds : numpy.ndarray
        ``(N,)`` int: each airplane's turbulence seed.
    wingspan : float
        ft.

    Attributes
    ----------
    arrays : tuple
        ``(consts, poe_alt, poe_sig, gusts, state, noise, drawn)``: what :func:`sample_one` takes after
        ``out`` (``consts`` ``(N, 10)`` and ``poe_sig`` ``(N, k)``: one row per airplane).
    steady : bool
        The wind does not change along any airplane's flight (no turbulence, shear or gusts).
    turbulent : bool
        Some airplane flies in turbulence.
    """

    def __init__(self, spec, seeds, wingspan):
        self.spec = spec
        self.seeds = np.array(seeds, dtype=np.int64)
        n = self.seeds.shape[0]
        consts = np.zeros((n, 10))
        th = math.radians(spec.from_deg)
        consts[:, C_SPEED], consts[:, C_COS], consts[:, C_SIN] = spec.speed, math.cos(th), math.sin(th)
        if spec.shear is not None:
            sh = spec.shear
            consts[:, C_SHEAR] = 1.0 if sh.kind == "power" else 2.0
            consts[:, C_HEIGHT], consts[:, C_EXPONENT], consts[:, C_ROUGHNESS] = sh.height, sh.exponent, sh.roughness
        consts[:, C_SPAN] = float(wingspan) if wingspan and wingspan > 0.0 else scalar.DEFAULT_WINGSPAN
        self._consts = consts
        self._poe_sig = np.zeros((n, POE_SIGMA["light"].shape[0]))
        self._set_level(np.arange(n), spec.turbulence)
        gusts = np.array([(g.start, g.duration, *g.velocity) for g in spec.gusts], dtype=np.float64).reshape(-1, 5)
        self._rngs = [None] * n
        self._noise = np.zeros((n, BLOCK, 6))
        self._drawn = np.zeros(n, dtype=np.int64)
        self._state = np.zeros((n, STATE_WIDTH))
        self.arrays = (consts, POE_ALTITUDES.copy(), self._poe_sig, gusts, self._state, self._noise, self._drawn)

    def _set_level(self, index, level):
        scalar.check_level(level)
        on = level != "none"
        self._consts[index, C_TURBULENT] = 1.0 if on else 0.0
        self._consts[index, C_SIG_LOW] = 0.1 * W20_KNOTS[level if on else "light"] * KNOT
        self._poe_sig[index] = POE_SIGMA[level if on else "light"]
        self.turbulent = bool(np.any(self._consts[:, C_TURBULENT] > 0.5))
        self.steady = not self.turbulent and self.spec.shear is None and not self.spec.gusts

    def set_airplanes(self, index, speed=None, from_deg=None, turbulence=None):
        """Give the airplanes ``index`` their own steady wind: ``speed`` (ft/s, ≥ 0, above the shear's height),
        ``from_deg`` (deg true, 0..360) and ``turbulence`` (a level of :data:`flightsim.physics.wind.LEVELS`),
        each a number (a level) or one per airplane; None leaves it as it is.  Their turbulence starts again at
        the next :meth:`reset`.

        Raises
        ------
        ValueError
            A speed or direction out of range, or an unknown level, naming it.
        """
        index = np.asarray(index, dtype=np.int64).reshape(-1)
        m = index.shape[0]
        if speed is not None:
            v = np.broadcast_to(np.asarray(speed, dtype=np.float64), (m,))
            if not np.all(np.isfinite(v) & (v >= 0.0)):
                raise ValueError(f"wind: speed must be ≥ 0, got {v[~(np.isfinite(v) & (v >= 0.0))][0]:g}")
            self._consts[index, C_SPEED] = v
        if from_deg is not None:
            d = np.broadcast_to(np.asarray(from_deg, dtype=np.float64), (m,))
            if not np.all(np.isfinite(d) & (d >= 0.0) & (d <= 360.0)):
                raise ValueError("wind: direction must be 0..360 degrees")
            for k in range(m):                  # math's cos and sin, as WindSpec's (the same bits for any N)
                th = math.radians(float(d[k]))
                self._consts[index[k], C_COS], self._consts[index[k], C_SIN] = math.cos(th), math.sin(th)
        if turbulence is not None:
            levels = [turbulence] * m if isinstance(turbulence, str) else list(turbulence)
            for a, level in zip(index, levels, strict=True):
                self._set_level(a, level)

    def reset(self, index, seeds=None):
        """Back to the start of the seeded series for the airplanes ``index`` (new ``seeds`` if given)."""
        if seeds is not None:
            self.seeds[index] = np.asarray(seeds, dtype=np.int64).reshape(-1)
        cv = np.linalg.cholesky(_P_INF)
        for a in index:
            if self._consts[a, C_TURBULENT] < 0.5:
                self._rngs[a] = None
                continue
            rng = self._rngs[a] = np.random.Generator(np.random.PCG64(int(self.seeds[a])))
            n = rng.standard_normal(6)
            self._noise[a] = rng.standard_normal((BLOCK, 6))
            self._drawn[a] = 0
            st = self._state[a]
            st[:] = 0.0
            st[S_U] = n[0]
            st[S_V1], st[S_V2] = cv @ n[1:3]
            st[S_W1], st[S_W2] = cv @ n[3:5]
            st[S_P] = n[5]
            st[S_FIRST] = 1.0

    def ahead(self, steps, running):
        """Make sure every running turbulent airplane has ``steps`` deviates drawn ahead (at most :data:`BLOCK`)."""
        low = np.flatnonzero(running & (self._drawn + steps > BLOCK) & (self._consts[:, C_TURBULENT] > 0.5))
        for a in low:
            used = self._drawn[a]
            self._noise[a, :BLOCK - used] = self._noise[a, used:]
            self._noise[a, BLOCK - used:] = self._rngs[a].standard_normal((used, 6))
            self._drawn[a] = 0

    def sample(self, index, t, states, dt, out):
        """Write the wind of the airplanes ``index`` at their times ``t[index]`` and states into ``out[index]``."""
        self.ahead(1, np.isin(np.arange(self._drawn.shape[0]), index))
        sample_rows(np.asarray(index, dtype=np.int64), t, states, dt, out, *self.arrays)
        return out

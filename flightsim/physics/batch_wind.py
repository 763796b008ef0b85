"""The wind of many airplanes at once: :class:`flightsim.physics.wind.WindModel` vectorised over airplanes.

One :class:`~flightsim.physics.wind.WindSpec` for all, one turbulence seed
per airplane.  Each airplane's series is the one a
:class:`~flightsim.physics.wind.WindModel` with its seed gives (to rounding):
the same Dryden forming filters (see :class:`flightsim.physics.wind.Dryden`),
the same PCG64 noise drawn in the same order — a smaller block per airplane
(:data:`BLOCK`; the series does not depend on it) — advanced with numpy over
the airplanes instead of one float at a time.
"""

import numpy as np

from flightsim.physics.wind import (
    _P_INF, _SQRT3, KNOT, MIN_AIRSPEED, MIN_HEIGHT, POE_ALTITUDES, POE_SIGMA, W20_KNOTS, _to_body,
)

#: Normal deviates drawn per airplane at once (rows of 6).
BLOCK = 64


def intensity(level, h):
    """:func:`flightsim.physics.wind.turbulence_intensity` for an array of heights ``h`` (ft).

    Returns ``(σ_u, σ_v, σ_w, L_u, L_v, L_w)`` as arrays (σ_u = σ_v, L_u = L_v).
    """
    h = np.maximum(h, MIN_HEIGHT)
    sig_low = 0.1 * W20_KNOTS[level] * KNOT
    k = 0.177 + 0.000823 * np.minimum(h, 1000.0)
    low_l = np.minimum(h, 1000.0) / k ** 1.2
    low_s = sig_low / k ** 0.4
    high = np.interp(h, POE_ALTITUDES, POE_SIGMA[level])
    f = np.clip((h - 1000.0) / 1000.0, 0.0, 1.0)
    mid_l = 1000.0 + f * 750.0
    mid_s = sig_low + f * (high - sig_low)
    low = h <= 1000.0
    s_uv = np.where(low, low_s, mid_s)
    s_w = np.where(low, sig_low, mid_s)
    l_uv = np.where(low, low_l, mid_l)
    l_w = np.where(low, h, mid_l)
    return s_uv, s_uv, s_w, l_uv, l_uv, l_w


def second_order(z1, z2, delta, n1, n2):
    """:func:`flightsim.physics.wind._second_order` over arrays: the exact step of the two-state filter."""
    e = np.exp(-delta)
    e2 = e * e
    a = e * z1
    b = e * (delta * z1 + z2)
    i0 = 0.5 * (1.0 - e2)
    i1 = 0.25 * (1.0 - e2 * (1.0 + 2.0 * delta))
    i2 = 0.25 * (1.0 - e2 * (1.0 + 2.0 * delta + 2.0 * delta * delta))
    l11 = np.sqrt(np.maximum(i0, 0.0))
    l21 = np.divide(i1, l11, out=np.zeros_like(i1), where=l11 > 0.0)
    l22 = np.sqrt(np.maximum(i2 - l21 * l21, 0.0))
    return a + l11 * n1, b + l21 * n1 + l22 * n2


def first_order_hold(f, x0, x1, dt, tau):
    """:func:`flightsim.physics.wind._first_order_hold` over arrays."""
    a = np.exp(-dt / tau)
    return a * f + (1.0 - a) * x0 + (x1 - x0) * (1.0 - tau / dt * (1.0 - a))


class BatchWind:
    """The wind of N airplanes: steady wind (with shear), gusts and Dryden turbulence with one seed each.

    Parameters
    ----------
    spec : flightsim.physics.wind.WindSpec
    seeds : numpy.ndarray
        ``(N,)`` int: each airplane's turbulence seed.
    wingspan : float
        ft.
    """

    def __init__(self, spec, seeds, wingspan):
        self.spec = spec
        self.seeds = np.array(seeds, dtype=np.int64)
        n = self.seeds.shape[0]
        self.wingspan = float(wingspan) if wingspan and wingspan > 0.0 else 30.0
        self.turbulent = spec.turbulence != "none"
        #: the wind does not change along a flight (no turbulence, shear or gusts): sampling once is enough
        self.steady = not self.turbulent and spec.shear is None and not spec.gusts
        self._rngs = [None] * n
        self._noise = np.zeros((n, BLOCK, 6))
        self._k = np.full(n, BLOCK)
        self._u = np.zeros(n)
        self._v = np.zeros((n, 2))
        self._w = np.zeros((n, 2))
        self._p = np.zeros(n)
        self._first = np.ones(n, dtype=bool)
        self._vf = np.zeros(n)
        self._wf = np.zeros(n)
        self._prev_v = np.zeros(n)
        self._prev_w = np.zeros(n)

    def reset(self, index, seeds=None):
        """Back to the start of the seeded series for the airplanes ``index`` (new ``seeds`` if given)."""
        if seeds is not None:
            self.seeds[index] = np.asarray(seeds, dtype=np.int64).reshape(-1)
        if not self.turbulent:
            return
        for a in index:
            self._rngs[a] = np.random.Generator(np.random.PCG64(int(self.seeds[a])))
        self._k[index] = BLOCK
        n = self._draw(index)
        cv = np.linalg.cholesky(_P_INF)
        self._u[index] = n[:, 0]
        self._v[index] = n[:, 1:3] @ cv.T
        self._w[index] = n[:, 3:5] @ cv.T
        self._p[index] = n[:, 5]
        self._first[index] = True
        self._vf[index] = self._wf[index] = 0.0
        self._prev_v[index] = self._prev_w[index] = 0.0

    def _draw(self, index):
        """The next six normal deviates of each airplane in ``index``: ``(len(index), 6)``."""
        for a in index[self._k[index] >= BLOCK]:
            self._noise[a] = self._rngs[a].standard_normal((BLOCK, 6))
            self._k[a] = 0
        n = self._noise[index, self._k[index]]
        self._k[index] += 1
        return n

    def sample(self, index, t, states, dt, out):
        """Write the wind of the airplanes ``index`` at their times ``t[index]`` and states into ``out[index]``.

        As :meth:`flightsim.physics.wind.WindModel.sample` per airplane; ``dt``
        advances their turbulence (0: it does not advance).
        """
        if index.shape[0] == 0:
            return out
        spec = self.spec
        y = states[index]
        h = y[:, 2]
        speed = np.full(h.shape, spec.speed)
        if spec.shear is not None:
            sh = spec.shear
            if sh.kind == "power":
                f = (np.maximum(h, 0.0) / sh.height) ** sh.exponent
            else:
                f = np.where(h <= sh.roughness, 0.0,
                             np.log(np.maximum(h, sh.roughness) / sh.roughness) / np.log(sh.height / sh.roughness))
            speed = np.where(h >= sh.height, speed, speed * f)
        th = np.radians(spec.from_deg)
        wx, wy, wz = -speed * np.cos(th), speed * np.sin(th), np.zeros_like(h)
        tt = t[index]
        for g in spec.gusts:
            tau = tt - g.start
            f = np.where((tau >= 0.0) & (tau <= g.duration), 0.5 * (1.0 - np.cos(2.0 * np.pi * tau / g.duration)), 0.0)
            wx, wy, wz = wx + f * g.velocity[0], wy + f * g.velocity[1], wz + f * g.velocity[2]
        pg = qg = rg = np.zeros_like(h)
        if self.turbulent:
            ax, ay, az = y[:, 3] - wx, y[:, 4] - wy, y[:, 5] - wz
            horiz = np.hypot(ax, ay)
            qw, qx, qy, qz = y[:, 6], y[:, 7], y[:, 8], y[:, 9]
            fx, fy = 1.0 - 2.0 * (qy * qy + qz * qz), 2.0 * (qx * qy + qw * qz)
            nf = np.hypot(fx, fy)
            along = horiz > MIN_AIRSPEED
            nose = nf > 1e-9
            cx = np.where(along, ax / np.where(along, horiz, 1.0), np.where(nose, fx / np.where(nose, nf, 1.0), 1.0))
            cy = np.where(along, ay / np.where(along, horiz, 1.0), np.where(nose, fy / np.where(nose, nf, 1.0), 0.0))
            u, v, w, p, q, r = self._step(index, dt, np.sqrt(ax * ax + ay * ay + az * az), h)
            wx, wy, wz = wx + u * cx - v * cy, wy + u * cy + v * cx, wz + w
            pg, qg, rg = _to_body(qw, qx, qy, qz, p * cx - q * cy, p * cy + q * cx, r)
        out[index, 0], out[index, 1], out[index, 2] = wx, wy, wz
        out[index, 3], out[index, 4], out[index, 5] = pg, qg, rg
        return out

    def _step(self, index, dt, airspeed, height):
        """:meth:`flightsim.physics.wind.Dryden.step` for the airplanes ``index``: ``(u, v, w, p, q, r)`` arrays."""
        level = self.spec.turbulence
        V = np.maximum(airspeed, MIN_AIRSPEED)
        s_u, s_v, s_w, l_u, l_v, l_w = intensity(level, height)
        b = self.wingspan
        first = self._first[index]
        move = index[~first] if dt > 0.0 else index[:0]
        if move.shape[0]:
            sel = ~first
            n = self._draw(move)
            Vm = V[sel]
            a = np.exp(-Vm * dt / l_u[sel])
            self._u[move] = a * self._u[move] + np.sqrt(np.maximum(1.0 - a * a, 0.0)) * n[:, 0]
            v1, v2 = second_order(self._v[move, 0], self._v[move, 1], Vm * dt / l_v[sel], n[:, 1], n[:, 2])
            w1, w2 = second_order(self._w[move, 0], self._w[move, 1], Vm * dt / l_w[sel], n[:, 3], n[:, 4])
            self._v[move, 0], self._v[move, 1] = v1, v2
            self._w[move, 0], self._w[move, 1] = w1, w2
            a = np.exp(-Vm * dt * np.pi / (4.0 * b))
            self._p[move] = a * self._p[move] + np.sqrt(np.maximum(1.0 - a * a, 0.0)) * n[:, 5]
        u = s_u * self._u[index]
        v = s_v * (_SQRT3 * self._v[index, 0] + (1.0 - _SQRT3) * self._v[index, 1])
        w = s_w * (_SQRT3 * self._w[index, 0] + (1.0 - _SQRT3) * self._w[index, 1])
        t_q = 4.0 * b / (np.pi * V)
        t_r = 3.0 * b / (np.pi * V)
        wf, vf = self._wf[index], self._vf[index]
        if dt > 0.0:
            wf = np.where(first, w, first_order_hold(wf, self._prev_w[index], w, dt, t_q))
            vf = np.where(first, v, first_order_hold(vf, self._prev_v[index], v, dt, t_r))
        else:
            wf = np.where(first, w, wf)
            vf = np.where(first, v, vf)
        self._wf[index], self._vf[index] = wf, vf
        self._first[index] = False
        self._prev_v[index], self._prev_w[index] = v, w
        ps = s_w * np.sqrt(0.8 * (np.pi * l_w / (4.0 * b)) ** (1.0 / 3.0) * np.pi ** 2 / (8.0 * b * l_w))
        p = ps * self._p[index]
        q = -(w - wf) / (V * t_q)
        r = (v - vf) / (V * t_r)
        return u, v, w, p, q, r

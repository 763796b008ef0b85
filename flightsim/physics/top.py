"""The torque-free rigid body (the asymmetric top) in closed form: an exact reference for the integrators.

Angular velocity by Jacobi's elliptic functions (Landau & Lifshitz, *Mechanics*,
§37; van Zon & Schofield, "Numerical implementation of the exact dynamics of
free rigid bodies", J. Comput. Phys. 225 (2007) 145–164); attitude by van Zon
and Schofield's construction: with the earth-frame angular momentum L fixed,
the body's attitude is ``R(t) = C₀ R_z(φ(t) − φ₀) M(t)``, where
``M(t) = R_x(θ) R_z(ψ)`` turns the body-frame momentum onto ẑ (θ, ψ from the
body components of L, known in closed form) and the precession angle obeys
``φ' = |L| (I_a ω_a² + I_b ω_b²) / (I_a² ω_a² + I_b² ω_b²)``.  Its integral,
an elliptic integral of the third kind, is taken here by Gauss–Legendre
quadrature of that closed-form integrand over its period 2K (exponentially
convergent: the integrand is analytic on the real line), so it is accurate to
rounding at any time.

Conventions as the rest of flightsim: q body → earth ``[w, x, y, z]``, ω in
the body frame (rad/s); any symmetric positive-definite inertia tensor
(products of inertia allowed: the motion is solved in its principal axes).
"""

import math

import numpy as np
from scipy.special import ellipj, ellipk, ellipkinc

from flightsim.math import quat

#: Gauss–Legendre nodes per panel, and panels per quarter period K, of the precession quadrature.
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(20)
_PANELS_PER_K = 8


def _rx(a):
    c, s = np.cos(a), np.sin(a)
    R = np.zeros(np.shape(a) + (3, 3))
    R[..., 0, 0] = 1.0
    R[..., 1, 1], R[..., 1, 2], R[..., 2, 1], R[..., 2, 2] = c, -s, s, c
    return R


def _rz(a):
    c, s = np.cos(a), np.sin(a)
    R = np.zeros(np.shape(a) + (3, 3))
    R[..., 2, 2] = 1.0
    R[..., 0, 0], R[..., 0, 1], R[..., 1, 0], R[..., 1, 1] = c, -s, s, c
    return R


class FreeTop:
    """A torque-free rigid body from ``(q0, ω0)``; :meth:`at` gives its exact ``(q, ω)`` at any time.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Inertia tensor about the centre of mass, body frame (any consistent units).
    q0 : array_like, shape (4,)
        Attitude at t = 0, body → earth (normalised here).
    omega0 : array_like, shape (3,)
        Body-frame angular velocity at t = 0, rad/s.

    Attributes
    ----------
    energy : float
        Kinetic energy ½ ω·Iω.
    momentum : numpy.ndarray
        Earth-frame angular momentum R(q) I ω (constant).
    """

    def __init__(self, inertia, q0, omega0):
        inertia = np.asarray(inertia, dtype=float)
        self.inertia = inertia
        self.q0 = quat.normalize(np.asarray(q0, dtype=float))
        self.omega0 = np.asarray(omega0, dtype=float)
        moments, P = np.linalg.eigh(inertia)
        self.energy = 0.5 * self.omega0 @ inertia @ self.omega0
        self.momentum = quat.rotate(self.q0, inertia @ self.omega0)
        L2 = float(np.sum((inertia @ self.omega0) ** 2))
        E2 = 2.0 * self.energy
        spread = moments[2] - moments[0]
        self._kind = "elliptic"
        if spread <= 1e-12 * moments[2] or L2 == 0.0:
            self._kind = "constant"          # a sphere (or a body at rest): ω never changes
            return
        # Pole axis c: the one ω turns about (ω_c never changes sign); the intermediate axis is b.
        # (a, b, c) is a right-handed frame (one axis flipped where the order is reversed).
        if L2 > E2 * moments[1] or moments[1] - moments[0] <= 1e-12 * moments[2]:
            order, flip = (0, 1, 2), 1.0
        else:
            order, flip = (2, 1, 0), -1.0
        P = P[:, order] * np.array([1.0, flip, 1.0])
        if np.linalg.det(P) < 0.0:
            P[:, 0] = -P[:, 0]
        Ia, Ib, Ic = moments[list(order)]
        w = P.T @ self.omega0                       # ω in the principal frame (a, b, c)
        if abs(E2 * Ic - L2) <= 1e-14 * L2:
            self._kind = "constant"          # turning about the pole axis itself: steady rotation
            return
        self._P, self._I = P, np.array([Ia, Ib, Ic])
        self._A = math.sqrt(max((E2 * Ic - L2) / (Ia * (Ic - Ia)), 0.0))
        self._B = math.sqrt(max((E2 * Ic - L2) / (Ib * (Ic - Ib)), 0.0))
        C = math.sqrt(max((L2 - E2 * Ia) / (Ic * (Ic - Ia)), 0.0))
        self._C = math.copysign(C, w[2])
        self._m = min(max((Ib - Ia) * (E2 * Ic - L2) / ((Ic - Ib) * (L2 - E2 * Ia)), 0.0), 1.0)
        if self._m >= 1.0:
            raise ValueError("FreeTop: the body is on the separatrix (L² = 2E I_intermediate); no elliptic solution")
        rate = math.sqrt((Ic - Ib) * (L2 - E2 * Ia) / (Ia * Ib * Ic))
        self._rate = math.copysign(rate, (Ic - Ib) * self._C)
        phase = math.atan2(w[1] / self._B, w[0] / self._A)
        self._u0 = float(ellipkinc(phase, self._m))
        self._K = float(ellipk(self._m))
        self._L = math.sqrt(L2)
        self._period_integral = self._integral(np.array([2.0 * self._K]))[0]
        self._C0 = quat.to_matrix(self.q0) @ P @ self._align(w).T

    def _principal_omega(self, u):
        sn, cn, dn, _ = ellipj(u, self._m)
        return np.stack([self._A * cn, self._B * sn, self._C * dn], axis=-1)

    def _align(self, w):
        """``M = R_x(θ) R_z(ψ)``: turns the principal-frame momentum ``I w`` onto +ẑ."""
        L = w * self._I
        n = np.linalg.norm(L, axis=-1)
        theta = np.arccos(np.clip(L[..., 2] / n, -1.0, 1.0))
        psi = np.arctan2(L[..., 0], L[..., 1])
        return _rx(theta) @ _rz(psi)

    def _rate_of_precession(self, u):
        wa, wb = self._A * ellipj(u, self._m)[1], self._B * ellipj(u, self._m)[0]
        Ia, Ib = self._I[0], self._I[1]
        return self._L * (Ia * wa * wa + Ib * wb * wb) / (Ia * Ia * wa * wa + Ib * Ib * wb * wb)

    def _integral(self, r):
        """``∫₀^r φ'(u) du`` for each ``0 ≤ r ≤ 2K`` (composite Gauss–Legendre)."""
        panels = _PANELS_PER_K * 2
        out = np.empty(len(r))
        for k, end in enumerate(r):
            edges = np.linspace(0.0, end, panels + 1)
            mid, half = 0.5 * (edges[1:] + edges[:-1]), 0.5 * (edges[1:] - edges[:-1])
            u = (mid[:, None] + half[:, None] * _NODES[None, :]).ravel()
            out[k] = np.sum(self._rate_of_precession(u).reshape(panels, -1) @ _WEIGHTS * half)
        return out

    def _primitive(self, u):
        """``∫₀^u φ'(s) ds`` using the integrand's period 2K."""
        u = np.atleast_1d(np.asarray(u, dtype=float))
        periods = np.floor(u / (2.0 * self._K))
        return periods * self._period_integral + self._integral(u - periods * 2.0 * self._K)

    def at(self, t):
        """Exact attitude and angular velocity at time(s) ``t`` (s).

        Returns
        -------
        (numpy.ndarray, numpy.ndarray)
            ``q`` shape (4,) or (N, 4), body → earth; ``ω`` shape (3,) or (N, 3), body frame, rad/s.
            The quaternion's sign (q and −q are the same attitude) is continuous from row to row,
            the first on ``q0``'s side.
        """
        scalar = np.ndim(t) == 0
        t = np.atleast_1d(np.asarray(t, dtype=float))
        if self._kind == "constant":
            q = quat.mul(np.broadcast_to(self.q0, (len(t), 4)),
                         quat.from_rotation_vector(t[:, None] * self.omega0[None, :]))
            w = np.broadcast_to(self.omega0, (len(t), 3)).copy()
        else:
            u = self._rate * t + self._u0
            wp = self._principal_omega(u)
            dphi = (self._primitive(u) - self._primitive(np.array([self._u0]))) / self._rate
            R = self._C0 @ _rz(dphi) @ self._align(wp) @ self._P.T
            q = quat.from_matrix(R)
            w = wp @ self._P.T
        # one hemisphere: continuous in t, starting on q0's
        q = np.asarray(q, dtype=float).reshape(-1, 4).copy()
        previous = self.q0
        for k in range(len(q)):
            if q[k] @ previous < 0.0:
                q[k] = -q[k]
            previous = q[k]
        if scalar:
            return q[0], w[0]
        return q, w

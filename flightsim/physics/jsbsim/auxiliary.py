"""The properties JSBSim derives from the state before its aerodynamics runs (``FGAuxiliary::Run``).

From the air-relative body velocity ``(u, v, w)`` (JSBSim's body frame: x
forward, y right, z down; ft/s), its rate of change (the frame before's, as
JSBSim uses it), the body rates, the altitude and the height above the
ground, :func:`auxiliary` writes into a property array — each only where the
aircraft reads it — the angle of attack and sideslip and their rates, the
airspeed, dynamic pressure and Mach number, the equivalent airspeed, the
Reynolds number, the standard atmosphere's values, and the ground-effect
heights ``h/b``; then what ``FGAerodynamics::Run`` sets before its functions
(``bi2vel``, ``ci2vel``, ``qbar-area``).  The formulas and their order are
JSBSim 1.3's.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.atmosphere import R_AIR, SEA_LEVEL_PRESSURE, density_altitude, standard_atmosphere

__all__ = ["AUXILIARY", "atmosphere_into", "auxiliary", "auxiliary_in", "euler_rates_in", "motion_in",
           "put_atmosphere", "slots_of"]

#: The properties :func:`auxiliary` computes, in the order of its slot array.
AUXILIARY = (
    "aero/alpha-rad", "aero/beta-rad", "aero/mag-beta-rad", "aero/alpha-deg", "aero/beta-deg",
    "aero/alphadot-rad_sec", "aero/betadot-rad_sec", "velocities/vt-fps", "aero/qbar-psf", "velocities/mach",
    "velocities/u-aero-fps", "velocities/v-aero-fps", "velocities/w-aero-fps", "velocities/p-aero-rad_sec",
    "velocities/q-aero-rad_sec", "velocities/r-aero-rad_sec", "velocities/p-rad_sec", "velocities/q-rad_sec",
    "velocities/r-rad_sec", "velocities/ve-kts", "velocities/ve-fps", "aero/Re", "atmosphere/T-R",
    "atmosphere/P-psf", "atmosphere/rho-slugs_ft3", "atmosphere/a-fps", "aero/h_b-cg-ft", "aero/h_b-mac-ft",
    "aero/bi2vel", "aero/ci2vel", "aero/qbar-area", "atmosphere/density-altitude", "atmosphere/sigma",
    "velocities/u-fps", "velocities/v-fps", "velocities/w-fps",
    "velocities/vc-fps", "velocities/vc-kts", "velocities/vg-fps", "flight-path/gamma-rad", "flight-path/gamma-deg",
    "accelerations/Nx", "accelerations/Ny", "accelerations/Nz", "accelerations/n-pilot-x-norm",
    "accelerations/n-pilot-y-norm", "accelerations/n-pilot-z-norm", "forces/load-factor", "atmosphere/delta",
    "atmosphere/theta", "accelerations/a-pilot-x-ft_sec2", "accelerations/a-pilot-y-ft_sec2",
    "accelerations/a-pilot-z-ft_sec2", "accelerations/pdot-rad_sec2", "accelerations/qdot-rad_sec2",
    "accelerations/rdot-rad_sec2", "velocities/vtrue-kts", "accelerations/udot-ft_sec2",
    "accelerations/vdot-ft_sec2", "accelerations/wdot-ft_sec2", "velocities/vtrue-fps", "velocities/machU",
    "velocities/phidot-rad_sec", "velocities/thetadot-rad_sec", "velocities/psidot-rad_sec",
)
(A_ALPHA, A_BETA, A_MAG_BETA, A_ALPHA_DEG, A_BETA_DEG, A_ALPHADOT, A_BETADOT, A_VT, A_QBAR, A_MACH, A_U, A_V, A_W,
 A_P_AERO, A_Q_AERO, A_R_AERO, A_P, A_Q, A_R, A_VE_KTS, A_VE_FPS, A_RE, A_T, A_P_ATM, A_RHO, A_SOUND, A_HB_CG,
 A_HB_MAC, A_BI2VEL, A_CI2VEL, A_QBAR_AREA, A_DENSITY_ALTITUDE, A_SIGMA, A_U_EARTH, A_V_EARTH,
 A_W_EARTH, A_VC_FPS, A_VC_KTS, A_VG, A_GAMMA, A_GAMMA_DEG, A_NX, A_NY, A_NZ, A_NPX, A_NPY, A_NPZ, A_NLF, A_DELTA,
 A_THETA, A_APX, A_APY, A_APZ, A_PDOT, A_QDOT, A_RDOT, A_VTRUE_KTS, A_UDOT, A_VDOT, A_WDOT,
 A_VTRUE_FPS, A_MACH_U, A_PHIDOT, A_THETADOT, A_PSIDOT) = range(len(AUXILIARY))

_RAD_TO_DEG = 180.0 / math.pi
#: JSBSim's ft/s → knots (FGJSBBase fpstokts: 1 / (1852 / (3600 × 0.3048))).
_FPS_TO_KTS = 1.0 / (1852.0 / (3600 * 0.3048))
#: Standard sea-level density as JSBSim defines it for the equivalent airspeed (StdDaySLdensity).
_SL_DENSITY = SEA_LEVEL_PRESSURE / (R_AIR * 518.67)
#: Sutherland's law as JSBSim's FGAtmosphere: μ = β T^1.5 / (S + T), °R.
_SUTHERLAND = 198.72
_BETA_VISCOSITY = 2.269690e-08
#: FGAtmosphere's ratio of specific heats, standard sea-level pressure (psf) and speed of sound (ft/s).
_SH_RATIO = 1.4
_SL_PRESSURE = 2116.228
_SL_SOUND = math.sqrt(_SH_RATIO * R_AIR * 518.67)
#: FGAuxiliary's standard gravity for the load factors (FGJSBBase: 9.80665 m/s² in ft/s²).
_STANDARD_GRAVITY = 9.80665 / 0.3048


def slots_of(properties):
    """The slot of each of :data:`AUXILIARY` in ``properties`` (−1 where the aircraft reads none)."""
    return np.array([properties[name] if name in properties else -1 for name in AUXILIARY], dtype=np.int64)


@borrowing_jit
def _put(props, s, value):
    """``props[s] = value`` where the aircraft reads the property (``s`` ≥ 0).  (It takes the slot, not the
    slots and an index: numba compiled a copy for every index constant it was called with, 48 of them.)"""
    if s >= 0:
        props[s] = value


@borrowing_jit
def atmosphere_into(props, slots, altitude):
    """Write the standard atmosphere's properties at ``altitude`` (ft) into ``props`` at ``slots``: temperature,
    pressure, density, speed of sound, density altitude and σ.  JSBSim's FGAtmosphere runs before its FCS in a
    frame (FGAuxiliary after it), so an FCS reads these for the state now; :func:`auxiliary` writes them too."""
    t, pressure, rho, sound = standard_atmosphere(altitude)
    put_atmosphere(props, slots, t, pressure, rho, sound)


@borrowing_jit
def put_atmosphere(props, slots, t, pressure, rho, sound):
    _put(props, slots[A_T], t)
    _put(props, slots[A_P_ATM], pressure)
    _put(props, slots[A_RHO], rho)
    _put(props, slots[A_SOUND], sound)
    if slots[A_DENSITY_ALTITUDE] >= 0:            # (an inversion of the atmosphere: only where something reads it)
        props[slots[A_DENSITY_ALTITUDE]] = density_altitude(rho)
    _put(props, slots[A_SIGMA], rho / _SL_DENSITY)
    _put(props, slots[A_DELTA], pressure / _SL_PRESSURE)
    _put(props, slots[A_THETA], t / 518.67)


@borrowing_jit
def auxiliary(props, slots, u, v, w, udot, vdot, wdot, p, q, r, altitude, agl, span, chord, area, mac_down):
    """Write the auxiliary properties into ``props`` at ``slots`` (:func:`slots_of`).

    ``(u, v, w)`` the air-relative velocity (in still air, as here, also the velocity over the ground) and
    ``(udot, vdot, wdot)`` its derivative, body frame (ft/s, ft/s²); ``(p, q, r)`` the body rates (rad/s; no
    turbulence: the air-relative rates are the same);
    ``altitude`` above sea level and ``agl`` above the ground (ft); ``span``, ``chord``, ``area`` the wing's
    (ft, ft, ft²); ``mac_down`` the aerodynamic reference point's height below the CG in the local frame
    (ft: JSBSim's ``(Tb2l · RPbody)_z``).
    """
    t, pressure, rho, sound = standard_atmosphere(altitude)
    auxiliary_in(props, slots, u, v, w, udot, vdot, wdot, p, q, r, agl, span, chord, area, mac_down, t, pressure,
                 rho, sound)


@borrowing_jit
def auxiliary_in(props, slots, u, v, w, udot, vdot, wdot, p, q, r, agl, span, chord, area, mac_down, t, pressure,
                 rho, sound):
    """:func:`auxiliary` in the atmosphere ``(t, pressure, rho, sound)`` (:func:`standard_atmosphere`'s, given:
    the compiled loads reuse it while the altitude holds)."""
    u2, v2, w2 = u * u, v * v, w * w
    m_uw = u2 + w2
    vt2 = m_uw + v2
    vt = math.sqrt(vt2)
    alpha = beta = adot = bdot = 0.0
    if vt > 0.001:
        beta = math.atan2(v, math.sqrt(m_uw))
        if m_uw >= 1e-6:
            alpha = math.atan2(w, u)
            vtdot = (u * udot + v * vdot + w * wdot) / vt
            adot = (u * wdot - w * udot) / m_uw
            bdot = (vdot * vt - v * vtdot) / (vt * math.sqrt(m_uw))
    qbar = 0.5 * rho * vt2
    _put(props, slots[A_ALPHA], alpha)
    _put(props, slots[A_BETA], beta)
    _put(props, slots[A_MAG_BETA], abs(beta))
    _put(props, slots[A_ALPHA_DEG], alpha * _RAD_TO_DEG)
    _put(props, slots[A_BETA_DEG], beta * _RAD_TO_DEG)
    _put(props, slots[A_ALPHADOT], adot)
    _put(props, slots[A_BETADOT], bdot)
    _put(props, slots[A_VT], vt)
    _put(props, slots[A_VTRUE_KTS], vt * _FPS_TO_KTS)
    _put(props, slots[A_VTRUE_FPS], vt)
    _put(props, slots[A_MACH_U], u / sound)
    _put(props, slots[A_UDOT], udot)            # (the air-relative body velocity's change over the last step;
    _put(props, slots[A_VDOT], vdot)            # JSBSim's FGAccelerations: the Earth-relative's, the same in a
    _put(props, slots[A_WDOT], wdot)            # steady wind but for its turning with the body)
    _put(props, slots[A_QBAR], qbar)
    _put(props, slots[A_MACH], vt / sound)
    _put(props, slots[A_U], u)
    _put(props, slots[A_V], v)
    _put(props, slots[A_W], w)
    _put(props, slots[A_P_AERO], p)
    _put(props, slots[A_Q_AERO], q)
    _put(props, slots[A_R_AERO], r)
    _put(props, slots[A_P], p)
    _put(props, slots[A_Q], q)
    _put(props, slots[A_R], r)
    if slots[A_VE_FPS] >= 0 or slots[A_VE_KTS] >= 0:
        veas = math.sqrt(2.0 * qbar / _SL_DENSITY) if vt / sound > 0.0 else 0.0
        _put(props, slots[A_VE_FPS], veas)
        _put(props, slots[A_VE_KTS], veas * _FPS_TO_KTS)
    if slots[A_RE] >= 0:
        viscosity = _BETA_VISCOSITY * math.pow(t, 1.5) / (_SUTHERLAND + t)
        props[slots[A_RE]] = vt * chord / (viscosity / rho)
    put_atmosphere(props, slots, t, pressure, rho, sound)
    _put(props, slots[A_HB_CG], agl / span)
    _put(props, slots[A_HB_MAC], (agl - mac_down) / span)
    if vt != 0.0:
        _put(props, slots[A_BI2VEL], span / (2.0 * vt))
        _put(props, slots[A_CI2VEL], chord / (2.0 * vt))
    _put(props, slots[A_QBAR_AREA], area * qbar)
    _put(props, slots[A_U_EARTH], u)             # (still air: the velocity over the ground is the air-relative one)
    _put(props, slots[A_V_EARTH], v)
    _put(props, slots[A_W_EARTH], w)


@borrowing_jit
def euler_rates_in(props, slots, phi, theta, p, q, r):
    """FGAuxiliary's Euler angles' rates (``velocities/phidot-rad_sec``, ``thetadot-``, ``psidot-``; rad/s) from
    the attitude ``phi``, ``theta`` (rad) and the body rates ``(p, q, r)`` (rad/s; JSBSim's body axes): θ̇ = q cos φ −
    r sin φ; where cos θ ≠ 0, ψ̇ = (q sin φ + r cos φ) / cos θ and φ̇ = p + ψ̇ sin θ (else they keep their last
    values, as in JSBSim).  Nothing computed where the aircraft reads none of them."""
    if slots[A_PHIDOT] < 0 and slots[A_THETADOT] < 0 and slots[A_PSIDOT] < 0:
        return
    cphi, sphi, ctht = math.cos(phi), math.sin(phi), math.cos(theta)
    _put(props, slots[A_THETADOT], q * cphi - r * sphi)
    if ctht != 0.0:
        psidot = (q * sphi + r * cphi) / ctht
        _put(props, slots[A_PSIDOT], psidot)
        _put(props, slots[A_PHIDOT], p + psidot * math.sin(theta))


@borrowing_jit
def _pitot_total_pressure(mach, pressure):
    """FGAuxiliary::PitotTotalPressure: isentropic below Mach 1, Rayleigh's pitot formula above."""
    a = (_SH_RATIO - 1.0) / 2.0
    b = _SH_RATIO / (_SH_RATIO - 1.0)
    c = 2.0 * b
    d = 1.0 / (_SH_RATIO - 1.0)
    coeff = math.pow(0.5 * (_SH_RATIO + 1.0), b) * math.pow((_SH_RATIO + 1.0) / (_SH_RATIO - 1.0), d)
    if mach < 0.0:
        return pressure
    if mach < 1.0:
        return pressure * math.pow(1.0 + a * mach * mach, b)
    return pressure * coeff * math.pow(mach, c) / math.pow(c * mach * mach - 1.0, d)


@borrowing_jit
def _mach_from_impact_pressure(qc, pressure):
    """FGAuxiliary::MachFromImpactPressure (AFFTC-TIH-99-01, 4.12 and 4.17)."""
    a = 2.0 / (_SH_RATIO - 1.0)
    b = (_SH_RATIO - 1.0) / _SH_RATIO
    c = 2.0 / b
    d = 0.5 * a
    coeff = math.pow(0.5 * (_SH_RATIO + 1.0), -0.25 * c) * math.pow(0.5 * (_SH_RATIO + 1.0) / _SH_RATIO, -0.5 * d)
    big_a = qc / pressure + 1.0
    m = math.sqrt(a * (math.pow(big_a, b) - 1.0))
    if m > 1.0:
        for _ in range(10):
            m = coeff * math.sqrt(big_a * math.pow(1.0 - 1.0 / (c * m * m), d))
    return m


@borrowing_jit
def motion_in(props, slots, mach, pressure, vn, ve, vd, fx, fy, fz, pilot_x, pilot_y, pilot_z, lift_per_weight):
    """The rest of FGAuxiliary: the calibrated airspeed from the Mach number and the static pressure (psf), the
    speed over the ground and the flight-path angle from the velocity North, East, down (ft/s), the load factors
    at the CG from the specific force ``(fx, fy, fz)`` and at the pilot's eye from ``pilot_*`` (JSBSim's body
    frame, ft/s²: FGAccelerations' ``vBodyAccel``, the last frame's where JSBSim reads it so), and the lift's
    (``GetNlf``: the wind-axis lift over the weight)."""
    if slots[A_VC_FPS] >= 0 or slots[A_VC_KTS] >= 0:
        vcas = 0.0
        if abs(mach) > 0.0:
            qc = _pitot_total_pressure(mach, pressure) - pressure
            vcas = _SL_SOUND * _mach_from_impact_pressure(qc, _SL_PRESSURE)
        _put(props, slots[A_VC_FPS], vcas)
        _put(props, slots[A_VC_KTS], vcas * _FPS_TO_KTS)
    ground = math.sqrt(vn * vn + ve * ve)
    _put(props, slots[A_VG], ground)
    gamma = math.atan2(-vd, ground)
    _put(props, slots[A_GAMMA], gamma)
    _put(props, slots[A_GAMMA_DEG], gamma * _RAD_TO_DEG)
    _put(props, slots[A_NX], fx / _STANDARD_GRAVITY)
    _put(props, slots[A_NY], fy / _STANDARD_GRAVITY)
    _put(props, slots[A_NZ], -(fz / _STANDARD_GRAVITY))
    _put(props, slots[A_NPX], pilot_x / _STANDARD_GRAVITY)
    _put(props, slots[A_NPY], pilot_y / _STANDARD_GRAVITY)
    _put(props, slots[A_NPZ], pilot_z / _STANDARD_GRAVITY)
    _put(props, slots[A_APX], pilot_x)          # (FGAuxiliary's vPilotAccel, ft/s²)
    _put(props, slots[A_APY], pilot_y)
    _put(props, slots[A_APZ], pilot_z)
    _put(props, slots[A_NLF], lift_per_weight)

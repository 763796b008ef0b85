"""JSBSim's standard atmosphere (U.S. Standard Atmosphere 1976, as ``FGStandardAtmosphere`` codes it).

Temperature is linear in geopotential altitude between the 1976 standard's
breakpoints (its table in °R over geopotential ft, up to 91 km); pressure
follows the barometric formula from each layer's base, the bases' pressures
found once from sea level (2116.228 psf) up; density is ``P / (R T)`` and
the speed of sound ``√(γ R T)``, for dry air (JSBSim's default: no vapour).
Geopotential altitude is ``h R / (R + h)`` with R = 6 356 766 m.  The
constants and the order of the arithmetic are JSBSim 1.3's
(``FGAtmosphere``, ``FGStandardAtmosphere``, ``FGJSBBase``), so the values
agree with JSBSim's ``atmosphere/*`` properties to rounding.

Units: ft, °R, lbf/ft², slug/ft³, ft/s.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.math.kernels import borrowing_entry_jit, borrowing_jit
from flightsim.physics.constants import FT_TO_M

__all__ = ["R_AIR", "SEA_LEVEL_PRESSURE", "biased_atmosphere", "density_altitude", "standard_atmosphere"]

_KG_TO_SLUG = 0.06852168
#: Universal gas constant, ft·lbf/(°R·mol) (JSBSim's Rstar: 8.31432 J/(K·mol) in its units).
_R_STAR = 8.31432 * _KG_TO_SLUG / (FT_TO_M * FT_TO_M * 1.8)
#: Mean molecular weight of air, slug/mol.
_M_AIR = 28.9645 * _KG_TO_SLUG / 1000.0
#: Specific gas constant of dry air, ft·lbf/(slug·°R).
R_AIR = _R_STAR / _M_AIR
#: Standard gravity, ft/s² (the atmosphere's, whatever the gravity model).
G0 = 9.80665 / FT_TO_M
#: Ratio of specific heats.
GAMMA = 1.4
#: The atmosphere's Earth radius, ft (for geopotential altitude).
EARTH_RADIUS = 6356766.0 / FT_TO_M
#: Standard sea-level pressure, lbf/ft².
SEA_LEVEL_PRESSURE = 2116.228

#: The 1976 standard's temperature (°R) at geopotential altitudes (ft).
_ALTITUDES = np.array([0.0, 36089.2388, 65616.7979, 104986.8766, 154199.4751, 167322.8346, 232939.6325,
                       278385.8268, 298556.4304])
_TEMPERATURES = np.array([518.67, 389.97, 389.97, 411.57, 487.17, 487.17, 386.37, 336.5028, 336.5028])


def _layers():
    """Each layer's lapse rate (°R/ft) and base pressure (psf), as ``CalculateLapseRates`` and
    ``CalculatePressureBreakpoints``."""
    n = len(_ALTITUDES)
    lapse = np.array([(_TEMPERATURES[b + 1] - _TEMPERATURES[b]) / (_ALTITUDES[b + 1] - _ALTITUDES[b])
                      for b in range(n - 1)])
    pressure = np.zeros(n)
    pressure[0] = SEA_LEVEL_PRESSURE
    for b in range(n - 1):
        tmb, dh = _TEMPERATURES[b], _ALTITUDES[b + 1] - _ALTITUDES[b]
        if lapse[b] != 0.0:
            pressure[b + 1] = pressure[b] * math.pow(tmb / (tmb + lapse[b] * dh), G0 / (R_AIR * lapse[b]))
        else:
            pressure[b + 1] = pressure[b] * math.exp(-G0 * dh / (R_AIR * tmb))
    return lapse, pressure


_LAPSE, _BASE_PRESSURE = _layers()
#: The standard density at each layer's base (CalculateStdDensityBreakpoints), slug/ft³.
_BASE_DENSITY = _BASE_PRESSURE / (R_AIR * _TEMPERATURES)
#: JSBSim caps pressure at 1e-15 Pa (in psf).
_MIN_PRESSURE = 1e-15 / (4.4482216152605 / (FT_TO_M * FT_TO_M))


@borrowing_jit
def _temperature_geopotential(hp):
    if hp < 0.0:
        return _TEMPERATURES[0] + hp * _LAPSE[0]
    n = _ALTITUDES.shape[0]
    if hp >= _ALTITUDES[n - 1]:
        return _TEMPERATURES[n - 1]
    r = 1
    while _ALTITUDES[r] < hp:
        r += 1
    x0 = _ALTITUDES[r - 1]
    factor = (hp - x0) / (_ALTITUDES[r] - x0)
    y0 = _TEMPERATURES[r - 1]
    return factor * (_TEMPERATURES[r] - y0) + y0


@borrowing_entry_jit
def standard_atmosphere(altitude):
    """``(T °R, P psf, ρ slug/ft³, a ft/s)`` at geometric altitude ``altitude`` (ft above sea level)."""
    return biased_atmosphere(altitude, 0.0)


@borrowing_jit
def _base_pressure(b, bias):
    """The pressure (psf) at layer ``b``'s base with every temperature ``bias`` °R warmer
    (``CalculatePressureBreakpoints``: the layers' pressures found again from sea level up)."""
    if bias == 0.0:
        return _BASE_PRESSURE[b]
    p = SEA_LEVEL_PRESSURE
    for k in range(b):
        tmb, dh = _TEMPERATURES[k] + bias, _ALTITUDES[k + 1] - _ALTITUDES[k]
        if _LAPSE[k] != 0.0:
            p = p * math.pow(tmb / (tmb + _LAPSE[k] * dh), G0 / (R_AIR * _LAPSE[k]))
        else:
            p = p * math.exp(-G0 * dh / (R_AIR * tmb))
    return p


@borrowing_entry_jit
def biased_atmosphere(altitude, bias):
    """:func:`standard_atmosphere` with its temperature ``bias`` °R above the standard's at every height (JSBSim's
    ``atmosphere/delta-T``, ``FGStandardAtmosphere::SetTemperatureBias``: the sea-level pressure kept, the layers'
    pressures found again with the warmer air, density and speed of sound from the biased temperature)."""
    hp = (altitude * EARTH_RADIUS) / (EARTH_RADIUS + altitude)
    t = _temperature_geopotential(hp) + bias
    n = _ALTITUDES.shape[0]
    base = _ALTITUDES[0]
    b = 0
    while b < n - 2:
        test = _ALTITUDES[b + 1]
        if hp < test:
            break
        base = test
        b += 1
    # the base's temperature, through the geometric altitude and back, as JSBSim computes it
    geometric = (base * EARTH_RADIUS) / (EARTH_RADIUS - base)
    tmb = _temperature_geopotential((geometric * EARTH_RADIUS) / (EARTH_RADIUS + geometric)) + bias
    dh = hp - base
    lmb = _LAPSE[b]
    pb = _base_pressure(b, bias)
    if lmb != 0.0:
        p = pb * math.pow(tmb / (tmb + lmb * dh), G0 / (R_AIR * lmb))
    else:
        p = pb * math.exp(-G0 * dh / (R_AIR * tmb))
    p = max(p, _MIN_PRESSURE)
    return t, p, p / (R_AIR * t), math.sqrt(GAMMA * R_AIR * t)


@borrowing_jit
def density_altitude(density):
    """The geometric altitude (ft) where the standard atmosphere has ``density`` (slug/ft³)
    (``FGStandardAtmosphere::CalculateDensityAltitude``)."""
    n = _BASE_DENSITY.shape[0]
    b = 0
    while b < n - 2:
        if density >= _BASE_DENSITY[b + 1]:
            break
        b += 1
    tmb, hb, lmb, pb = _TEMPERATURES[b], _ALTITUDES[b], _LAPSE[b], _BASE_DENSITY[b]
    if lmb != 0.0:
        exponent = -1.0 / (1.0 + G0 / (R_AIR * lmb))
        h = hb + (tmb / lmb) * (math.pow(density / pb, exponent) - 1)
    else:
        h = hb + (-R_AIR * tmb / G0) * math.log(density / pb)
    return (h * EARTH_RADIUS) / (EARTH_RADIUS - h)

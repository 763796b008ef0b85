"""Physical constants and unit conversions: one definition each, with its units and source.

Units are the simulation's English units (ft, slug, lbf, s); temperatures
only appear as ratios.  Every module of the physics, the simulation, the app
and the commands imports these names from here rather than writing the
number again.

The compiled (numba) functions read a module global as a compile-time
constant: a module that uses one of these in compiled code imports the name
itself into its globals (``from flightsim.physics.constants import RHO_SL``),
so the constant is folded exactly as the literal was.  The values are the
ones the simulation has always used, to the digit: changing one changes
every trace.
"""

#: Feet per second per knot (ft/s).  1 kt = 1 international nautical mile
#: (1852 m = 6076.12 ft) per hour = 1.687810 ft/s, here to six significant
#: digits.  (The airspeed indicator's ft/s → kt factor is ``3600 /``
#: :data:`NAUTICAL_MILE`, which differs from ``1 / KNOT`` in the sixth digit.)
KNOT = 1.68781

#: Feet per international nautical mile (ft): 1852 m / 0.3048 m = 6076.115 ft, rounded.
NAUTICAL_MILE = 6076.12

#: Metres per international foot (m), exactly (the 1959 agreement; JSBSim's ``fttom``).
FT_TO_M = 0.3048

#: Foot-pounds (force) per second per horsepower (ft·lbf/s): the mechanical
#: horsepower, 550 ft·lbf/s by definition.
HP = 550.0

#: Standard sea-level air density (slug/ft³): ISA / U.S. Standard Atmosphere
#: 1976, 1.225 kg/m³.  The reference of the engine's power lapse and of the
#: indicated airspeed.
RHO_SL = 0.0023769

#: ISA troposphere: the temperature lapse rate over the sea-level temperature
#: (1/ft), so that ``T / T_SL = 1 − ISA_LAPSE h``: 0.0019812 K/ft (6.5 K/km)
#: over 288.15 K (U.S. Standard Atmosphere 1976).
ISA_LAPSE = 6.87559e-6

#: ISA troposphere: the density ratio's exponent, ``ρ / ρ_SL = (T / T_SL)^ISA_DENSITY_EXPONENT``
#: (dimensionless): ``g₀ / (R L) − 1`` = 5.25588 − 1 (U.S. Standard Atmosphere 1976).
ISA_DENSITY_EXPONENT = 4.25588

#: ISA tropopause altitude (ft): 11 000 m geopotential.  Above it, to 65 617 ft,
#: the standard atmosphere is isothermal (216.65 K).
ISA_TROPOPAUSE = 36089.0

#: Scale height of the isothermal layer above the tropopause (ft): ``R T₁₁ / g₀``
#: = 287.053 × 216.65 / 9.80665 m = 6341.6 m, so ``ρ ∝ exp(−(h − h₁₁) / ISA_SCALE_HEIGHT)``
#: there (U.S. Standard Atmosphere 1976).
ISA_SCALE_HEIGHT = 20806.0

#: Standard sea-level pressure (lbf/ft²): 101 325 Pa (U.S. Standard Atmosphere 1976).
P_SL = 2116.22

#: Pounds (force) per square foot in a pascal (lbf/ft² per N/m²): 1 / 47.880 26.
PASCAL = 0.0208854

"""The 172R propeller's windmilling rows (advance ratio 1.2 and beyond) by blade-element theory.

Not part of the package: prints the rows of ``configs/c172.toml``'s propeller table from J = 1.2,
where the air begins to drive the propeller (negative C_T and C_P), and compares the theory with
the table's published-shaped rows below it.

The propeller is the 172R's McCauley 1C235/LFA7570 as far as it is published: two blades, 75 in
diameter [POH], 70 in of geometric pitch (the "70" of the designation; so 18.6° at 0.75 R);
a blade chord of 0.08–0.18 R, widest mid-blade, as on light-airplane propellers of the size
(Gudmundsson, *General Aviation Aircraft Design*, ch. 14); cambered sections of lift slope
0.9 × 2π per radian from −4° (Clark-Y, NACA Report 640's propellers), which stall at C_L 1.3 and
−0.8 and turn into a flat plate beyond.  Each strip's lift and drag in the flow it sees, with the
axial and swirl velocities it induces from momentum (the windmill state included) and Prandtl's
tip loss (Glauert; Drela's QPROP formulation) — the usual blade-element/momentum method.

At J = 1.1 it gives C_T 0.004, C_P 0.008 against the table's 0.002 and 0.015: the table's
shape (from NACA Report 640, scaled to the 172R's static and full-speed rpm) and this blade agree
where they meet, so the rows from 1.2 are the theory's.  From 1.5 on the inner stations stall
backwards and C_P/J² stops falling (at 1.6 C_P itself turns); the loads hold C_T/J² and C_P/J²
from the last row, 1.5, on: the stopped propeller's limit (the theory with no rotation gives
C_T/J² −0.028, C_P/J² −0.045 at J = 10; the last row −0.035, −0.046).  C_P/J² must fall with J
where C_P is negative, or the windmilling speed would not be unique.

    python docs/c172_propeller.py
"""

import numpy as np

DIAMETER = 75.0 / 12.0            # ft
PITCH = 70.0 / 12.0               # ft
BLADES = 2
STATIONS = 80


def _stations():
    x = (np.arange(STATIONS) + 0.5) / STATIONS * 0.8 + 0.2          # r / R from the hub's 0.2 to the tip
    beta = np.arctan(PITCH / (np.pi * DIAMETER * x))
    chord = 0.5 * DIAMETER * (0.08 + 0.10 * np.sin(np.pi * (x - 0.15) / 0.9))
    return x, beta, chord


def _section(alpha):
    """Lift and drag coefficients of the blade's section at angle of attack ``alpha`` (rad)."""
    linear = 2.0 * np.pi * 0.9 * (alpha - np.radians(-4.0))
    stalled = (linear > 1.3) | (linear < -0.8)
    cl = np.where(stalled, 0.99 * np.sin(2.0 * alpha), np.clip(linear, -0.8, 1.3))
    cd = np.where(stalled, 0.02 + 1.2 * np.sin(alpha) ** 2, 0.010 + 0.01 * cl * cl)
    return cl, cd


def coefficients(j, induced=True):
    """``(C_T, C_P)`` at advance ratio ``j`` (one revolution a second: V = J D)."""
    x, beta, chord = _stations()
    radius = 0.5 * DIAMETER
    r = x * radius
    v, omega = j * DIAMETER, 2.0 * np.pi
    axial, swirl = np.zeros_like(x), np.zeros_like(x)
    for _ in range(200 if induced else 1):
        wa, wt = v + axial, omega * r - swirl
        phi = np.arctan2(wa, wt)
        w2 = wa * wa + wt * wt
        cl, cd = _section(beta - phi)
        thrust = 0.5 * w2 * BLADES * chord * (cl * np.cos(phi) - cd * np.sin(phi))         # per ρ, per ft of radius
        torque = 0.5 * w2 * BLADES * chord * (cl * np.sin(phi) + cd * np.cos(phi)) * r
        if not induced:
            break
        tip = 2.0 / np.pi * np.arccos(np.exp(-BLADES / 2.0 * (1.0 - x) / (x * np.maximum(np.abs(np.sin(phi)), 0.05))))
        through = np.maximum(np.abs(v + axial), 0.5)
        axial = 0.8 * axial + 0.2 * np.clip(thrust / (4.0 * np.pi * r * through * tip), -0.4 * v - 0.1, 3.0 * v + 10.0)
        swirl = 0.8 * swirl + 0.2 * torque / (4.0 * np.pi * r * r * through * tip)
    dr = 0.8 * radius / STATIONS
    return float(np.sum(thrust) * dr / DIAMETER ** 4), float(2.0 * np.pi * np.sum(torque) * dr / DIAMETER ** 5)


def main():
    print("J     C_T      C_P      (blade-element/momentum)")
    rows = [(j, *coefficients(j)) for j in (1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8)]
    for j, ct, cp in rows:
        print(f"{j:.1f}  {ct:+.4f}  {cp:+.4f}")
    for j in (3.0, 10.0):
        ct, cp = coefficients(j, induced=False)
        print(f"J = {j:g}, not turning: C_T/J² {ct / j / j:+.4f}, C_P/J² {cp / j / j:+.4f}")
    table = [(j, ct, cp) for j, ct, cp in rows if 1.2 <= j <= 1.5]
    print("the file's rows from 1.2:")
    print("advance_ratio      ", ", ".join(f"{j:.1f}" for j, _, _ in table))
    print("thrust_coefficient ", ", ".join(f"{ct:.3f}" for _, ct, _ in table))
    print("power_coefficient  ", ", ".join(f"{cp:.3f}" for _, _, cp in table))


if __name__ == "__main__":
    main()

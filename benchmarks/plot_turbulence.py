"""Plot a seeded Dryden turbulence series and its spectrum against the Dryden form: ``docs/turbulence.png``.

    python benchmarks/plot_turbulence.py [--out docs/turbulence.png]

Severe turbulence at 300 ft and 160 ft/s (the low-altitude model of
MIL-F-8785C), seed 1, the physics step of 1/120 s; the spectrum is Welch's
estimate (one-sided, per rad/s) against :func:`flightsim.physics.wind.dryden_psd`.
"""

import argparse
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy import signal  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from flightsim.physics import aero  # noqa: E402
from flightsim.physics.aircraft import load_aircraft  # noqa: E402
from flightsim.physics.wind import dryden_psd, turbulence_intensity, turbulence_series, wingspan_of  # noqa: E402

LEVEL, ALTITUDE, AIRSPEED, SEED, DT = "severe", 300.0, 160.0, 1, 1.0 / 120.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "turbulence.png"))
    args = parser.parse_args()
    span = wingspan_of(aero.pack(load_aircraft()))
    s = turbulence_series(LEVEL, ALTITUDE, AIRSPEED, SEED, 3600.0, DT, span)
    su, sv, sw, lu, lv, lw = turbulence_intensity(LEVEL, ALTITUDE)
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(13, 4.8))
    show = s[:, 0] <= 60.0
    for col, name in ((1, "u (along the path, North)"), (2, "v (left, West)"), (3, "w (up)")):
        ax0.plot(s[show, 0], s[show, col], lw=0.8, label=f"{name}: σ {s[:, col].std():.2f} ft/s")
    ax0.set(xlabel="t (s)", ylabel="gust velocity (ft/s)",
            title=f"{LEVEL} turbulence, {ALTITUDE:g} ft, {AIRSPEED:g} ft/s, seed {SEED} (first 60 s)")
    ax0.legend(fontsize=8, loc="upper right")
    for col, comp, sigma, length, colour in ((1, "u", su, lu, "C0"), (3, "w", sw, lw, "C2")):
        f, pxx = signal.welch(s[:, col], fs=1.0 / DT, nperseg=2 ** 14)
        om = 2 * np.pi * f[1:]
        ax1.loglog(om, pxx[1:] / (2 * np.pi), color=colour, lw=0.7, alpha=0.7, label=f"{comp}: measured (1 h)")
        ax1.loglog(om, dryden_psd(comp, om, AIRSPEED, sigma, length), "k--" if comp == "u" else "k:", lw=1.4,
                   label=f"{comp}: Dryden, σ {sigma:.2f} ft/s, L {length:.0f} ft")
    ax1.set(xlabel="ω (rad/s)", ylabel="Φ (ft²/s² per rad/s)", title="spectrum against the Dryden form")
    ax1.legend(fontsize=8)
    ax1.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

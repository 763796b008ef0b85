"""The integrator lab's report: Markdown tables and plots of what :mod:`flightsim.simulation.lab` measures.

``flightsim bench`` (:mod:`flightsim.commands.bench`) calls :func:`run`: the
lab measures every integrator (:func:`flightsim.simulation.lab.measure_all`,
:func:`flightsim.simulation.lab.long_run`) and this module writes what it
found — ``integrators.md`` (:func:`markdown`), ``long_runs.md``
(:func:`long_run_markdown`), two log-log plots of the attitude error against
the step and against the cost (:func:`plots`) and the energy and |L| drift
against time (:func:`energy_plot`).  Units as measured: steps in s, attitude
errors in degrees, positions in ft, costs in µs of CPU per step, drifts
relative.  The plots need matplotlib (``pip install -e '.[bench]'``); without
it the tables are written alone.  The simulation layer never imports
matplotlib: the drawing is here, beside the command that uses it.
"""

import math

import numpy as np

from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation import lab
from flightsim.simulation.lab import BODIES, LONG_BODY, LONG_RUN, LONG_STEPS, SPIN_BODIES, STABLE_BODY, STABLE_DT_MAX

#: The integrators for spinning bodies (drawn bold in the energy plot).
SPINNING_INTEGRATORS = ("gyro-implicit", "gyro-clamped", "splitting", "midpoint")


def run(out_dir, quick=False, progress=False, names=None):
    """Measure every integrator, write ``integrators.md``, ``long_runs.md`` and the plots into ``out_dir``.

    Parameters
    ----------
    out_dir : pathlib.Path
        The folder (created if missing).
    quick : bool
        Fewer steps and shorter long runs (:data:`flightsim.simulation.lab.QUICK_DTS`).
    progress : bool
        Show a progress bar (tqdm) on stderr while the integrators are measured.
    names : list of str, optional
        The integrators (default: every registered one).

    Returns
    -------
    (list of Result, str, list of Path)
        The measurements, the two Markdown tables, the plot files.
    """
    names = list(INTEGRATORS) if names is None else list(names)
    bar = None
    tick = None
    if progress:
        from tqdm import tqdm

        dts = lab.QUICK_DTS if quick else lab.DTS
        bar = tqdm(total=len(names) * len(dts) * (len(BODIES) + 1), unit="run", leave=False)
        tick = lambda: bar.update(1)  # noqa: E731
    results, dts = lab.measure_all(names, quick, tick)
    if bar is not None:
        bar.close()
    table = markdown(results, dts)
    runs = [lab.long_run(n, quick) for n in names]
    long_table = long_run_markdown(runs, LONG_STEPS // 5 if quick else LONG_STEPS)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "integrators.md").write_text(table)
    (out_dir / "long_runs.md").write_text(long_table)
    written = plots(results, dts, out_dir)
    energy = energy_plot(runs, out_dir)
    return results, table + "\n" + long_table, written + ([energy] if energy else [])


def _fmt(x, spec=".1e"):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "diverged"
    return format(x, spec)


def markdown(results, dts):
    """The results as a Markdown table (one row an integrator)."""
    k120 = min(range(len(dts)), key=lambda i: abs(dts[i] - 1 / 120))
    head = (
        "| integrator | order (registry) | measured order, JSBSim body | measured order, NESC brick | "
        f"attitude error JSBSim body at 1/{round(1 / dts[k120])} s (deg) | energy drift, brick, {LONG_RUN:g} s | "
        f"momentum drift, brick, {LONG_RUN:g} s | µs/step free body | "
        f"airplane attitude error at 1/{round(1 / dts[k120])} s "
        "(deg) | airplane position error (ft) | µs/step airplane | largest stable dt, airplane at cruise (s) | "
        "the same by its stability region (s) |"
    )
    lines = [head, "|" + "|".join(["---"] * 13) + "|"]
    for r in results:
        lines.append(
            f"| `{r.name}` | {r.order} | {_fmt(r.body_orders['jsbsim'], '.2f')} | "
            f"{_fmt(r.body_orders['nesc-brick'], '.2f')} | {_fmt(r.body_errors['jsbsim'][k120])} | "
            f"{_fmt(r.energy_drift)} | {_fmt(r.momentum_drift)} | {_fmt(r.body_us, '.2f')} | "
            f"{_fmt(r.airplane_errors[k120])} | {_fmt(r.airplane_position_errors[k120])} | "
            f"{_fmt(r.airplane_us, '.1f')} | {_fmt(r.stable_dt, '.3f')} | {_fmt(r.region_dt, '.3f')} |"
        )
    return "\n".join(lines) + "\n"


def plots(results, dts, out_dir):
    """Write ``error_vs_dt.png`` and ``error_vs_cost.png``; returns their paths (none without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    paths = []
    styles = ["o-", "s-", "^-", "v-", "D-", "x-", "+-", "*-", "p-", "h-", "<-", ">-", "1-", "2-", "3-", "4-"]
    styles += [s.replace("-", "--") for s in styles]          # more integrators than marker styles
    for kind in ("dt", "cost"):
        fig, axes = plt.subplots(1, len(BODIES), figsize=(14.0, 5.2), dpi=100)
        colors = plt.cm.tab20(np.linspace(0.0, 1.0, 20))[::1]
        for ax, body in zip(axes, BODIES, strict=True):
            # strict=False: there are more styles than integrators
            for k, (r, style) in enumerate(zip(results, styles, strict=False)):
                err = np.array(r.body_errors[body.name], dtype=float)
                x = np.array(dts) if kind == "dt" else r.body_us / np.array(dts)
                ok = np.isfinite(err) & (err > 0)
                ax.loglog(x[ok], err[ok], style, color=colors[(2 * k) % 20 + (2 * k) // 20],
                          label=f"{r.name} ({r.order})", markersize=4)
            ax.set_xlabel("dt (s)" if kind == "dt" else "cost: µs of CPU per simulated second")
            ax.set_ylabel(f"attitude error after {body.duration:g} s (deg)")
            ax.set_title(f"{body.source}\nI = diag{tuple(round(i, 6) for i in body.inertia)}", fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=8, loc="center right", title="integrator (order)")
        fig.tight_layout(rect=(0.0, 0.0, 0.83, 1.0))
        path = out_dir / f"error_vs_{kind}.png"
        fig.savefig(path)
        plt.close(fig)
        paths.append(path)
    return paths


def _dt(dt):
    if dt == 0.0:
        return "< 0.004"
    if dt >= STABLE_DT_MAX:
        return f"≥ {STABLE_DT_MAX:g}"
    return _fmt(dt, ".3f")


def long_run_markdown(runs, steps=LONG_STEPS):
    """The long runs (of ``steps`` steps each) as a Markdown table (one row an integrator)."""
    body, stable = SPIN_BODIES[LONG_BODY], SPIN_BODIES[STABLE_BODY]
    head = (
        f"| integrator | energy drift, {steps:.0e} steps at 60 Hz, {body.name} body (max) | energy | "
        f"\\|L\\| drift (max) | \\|L\\| | largest stable dt, {stable.name} near its intermediate axis (s) | "
        "largest dt keeping E and \\|L\\| within 10 % (s) |"
    ).replace("e+0", "e")
    lines = [head, "|---|---|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| `{r.name}` | {_fmt(r.energy_drift)} | {r.energy_kind} | {_fmt(r.momentum_drift)} | "
                     f"{r.momentum_kind} | {_dt(r.stable_dt)} | {_dt(r.faithful_dt)} |")
    return "\n".join(lines) + "\n"


def energy_plot(runs, out_dir):
    """Write ``energy_vs_time.png`` (|ΔE/E| against time, log scale, every integrator); its path or None."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(16.0, 5.4), dpi=100, sharey=True)
    own = dict(zip(SPINNING_INTEGRATORS, ("tab:purple", "tab:orange", "tab:green", "black"), strict=True))
    for ax, field, title in ((axes[0], "energy", "energy E"), (axes[1], "momentum", "|L|")):
        for r in runs:
            err = np.abs(getattr(r, field))
            ok = np.isfinite(err)
            new = r.name in own
            color = own.get(r.name, "tab:blue" if INTEGRATORS[r.name].order > 1 else "tab:red")
            ax.loglog(r.times[ok], np.maximum(err[ok], 1e-17), "-" if new else "--", color=color,
                      lw=2.0 if new else 1.0, label=f"{r.name} ({r.energy_kind})" if field == "energy" else r.name)
            if not ok.all():
                ax.plot(r.times[-1:], [1.0], "x", color=color)
        ax.set_xlabel("time (s); red: the first-order family, blue: the RK4 family (each one line: the same ω)")
        ax.set_ylabel(f"relative error of {title}")
        ax.set_ylim(1e-17, 10.0)
        ax.grid(True, which="both", alpha=0.3)
        body = SPIN_BODIES[LONG_BODY]
        ax.set_title(f"{title}: {body.source}\nI = diag(10, 20, 26), ω0 = (1, 15, 1) rad/s, dt = 1/60 s "
                     "(x: diverged)", fontsize=9)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="center right", title="integrator (energy)")
    fig.tight_layout(rect=(0.0, 0.0, 0.80, 1.0))
    path = out_dir / "energy_vs_time.png"
    fig.savefig(path)
    plt.close(fig)
    return path

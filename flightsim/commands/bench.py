"""``flightsim bench``: measure every integrator; write a Markdown table and log-log plots.

With ``--manoeuvre roll`` (and ``--aircraft``, by default JSBSim's F-16): the roll study of
:mod:`flightsim.simulation.roll_study` instead, written to ``roll.md`` and ``roll_attitude_error.png`` (drawn
here, beside the command, as the lab's plots are: the simulation layer draws nothing).
"""

import importlib.util
import sys

from flightsim.commands.options import output_folder, write_error
from flightsim.errors import InputError


def add_arguments(p):
    p.add_argument("--out", default="bench", metavar="DIR",
                   help="folder for integrators.md, error_vs_dt.png, error_vs_cost.png (default: ./bench)")
    p.add_argument("--quick", action="store_true", help="three steps instead of five, a coarser airplane reference")
    p.add_argument("--integrators", metavar="NAMES", help="comma-separated subset (default: all)")
    p.add_argument("--manoeuvre", choices=("roll",),
                   help="fly a manoeuvre instead of the free-body and airplane tests: roll, a full-aileron 360° "
                        "roll at 400 kt, 15,000 ft, every integrator at 60 and 120 Hz against RK4 at 1920 Hz")
    p.add_argument("--aircraft", metavar="NAME|PATH", default=None,
                   help="the aircraft for --manoeuvre (default: jsbsim:f16)")


def run(args):
    """Run the measurements; print the table; return 0."""
    from flightsim.commands import lab_report
    from flightsim.physics.integrators import INTEGRATORS

    names = None
    if args.integrators:
        names = [n.strip() for n in args.integrators.split(",") if n.strip()]
        unknown = [n for n in names if n not in INTEGRATORS]
        if unknown:
            raise InputError("--integrators", "", f"unknown name {unknown[0]!r}; valid: {', '.join(INTEGRATORS)}")
    if args.aircraft and not args.manoeuvre:
        raise InputError("--aircraft", "", "only with --manoeuvre (the integrator tests fly their own bodies)")
    if args.manoeuvre:
        return _manoeuvre(args, names)
    if importlib.util.find_spec("scipy") is None:  # the free-body reference needs it
        raise InputError("flightsim bench", "", "needs scipy: pip install -e '.[bench]'")
    out = output_folder("--out", args.out, create=True)      # before the measurements, which take minutes
    try:
        _, table, plots = lab_report.run(out, quick=args.quick, progress=sys.stderr.isatty(), names=names)
    except OSError as exc:
        raise write_error("--out", exc.filename or out, exc) from None
    return _report(table, out / "integrators.md", plots)


def _report(table, written, plots):
    """Print ``table`` and what was written (the Markdown file, the plots, or why there are none); 0."""
    print(table)
    print(f"wrote {written}")
    for p in plots:
        print(f"wrote {p}")
    if not plots:
        print("no plots: matplotlib is not installed (pip install -e '.[bench]')")
    return 0


def _manoeuvre(args, names):
    """``--manoeuvre roll``: the roll study, its table printed and written with its plot."""
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.simulation import roll_study

    aircraft = args.aircraft or "jsbsim:f16"
    load_aircraft(aircraft)                                   # a bad name is refused before the folder is made
    out = output_folder("--out", args.out, create=True)
    study = roll_study.roll_study(aircraft, integrators=names,
                                  progress=(lambda text: print(f"  {text}", file=sys.stderr))
                                  if sys.stderr.isatty() else None)
    table = roll_study.roll_table(study)
    head = (f"{aircraft}: full right aileron from {roll_study.LEAD:g} s to {study.roll_time:.2f} s (360° for RK4 "
            f"at {roll_study.REFERENCE_HZ} Hz, peak roll rate {study.reference_peak_rate:.0f} °/s) from level flight "
            f"at {study.airspeed:.0f} ft/s, {study.altitude:.0f} ft")
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "roll.md").write_text(f"{head}\n\n{table}\n")
        plots = _roll_plot(study, out)
    except OSError as exc:
        raise write_error("--out", exc.filename or out, exc) from None
    print(head)
    return _report(table, out / "roll.md", plots)


def _roll_plot(study, out_dir):
    """``roll_attitude_error.png``: each integrator's attitude error through the roll, one panel per rate;
    its path in a list (none without matplotlib: the drawing is here, beside the command, as the lab's)."""
    import numpy as np

    from flightsim.simulation import roll_study
    try:
        import matplotlib
    except ImportError:
        return []
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = sorted({hz for _, hz in study.errors})
    fig, axes = plt.subplots(1, len(rates), figsize=(6 * len(rates), 4.5), sharey=True, squeeze=False)
    for ax, hz in zip(axes[0], rates, strict=True):
        for (name, rate), (t, error) in study.errors.items():
            if rate == hz:
                ax.semilogy(t, np.maximum(error, 1e-6), label=name, lw=1.6 if name == "rk4" else 1.0)
        ax.axvspan(roll_study.LEAD, study.roll_time, color="0.92", zorder=0)
        ax.set_title(f"{hz} Hz (shaded: full aileron)")
        ax.set_xlabel("time, s")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel(f"attitude error against RK4 at {roll_study.REFERENCE_HZ} Hz, deg")
    axes[0][-1].legend(fontsize=7, ncol=2, loc="lower right")
    fig.suptitle(f"{study.aircraft}: a 360° roll at {study.airspeed:.0f} ft/s, {study.altitude:.0f} ft")
    fig.tight_layout()
    path = out_dir / "roll_attitude_error.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]

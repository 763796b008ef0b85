"""A campaign's summary: outcome fractions with 95 % confidence intervals, the touchdown footprint, plots.

:func:`write_summary` reads a campaign's rows (``runs.parquet``'s table) and writes ``summary.md`` beside them
with four PNG plots (matplotlib, Agg; no window):

- ``footprint.png``: each run's touchdown on the runway (distance past the threshold against the offset from the
  centre line, + right, seen from above, landing up the page) with the ellipse holding 95 % of a normal
  distribution of the same mean and covariance (radius² = the χ² quantile of 0.95 with 2 degrees of freedom, 5.99);
- ``sink_rate.png`` and ``touchdown_distance.png``: histograms (touchdowns, and crashes where they have a value);
- ``outcomes.png``: the fraction of runs ending each way, with its 95 % Wilson score interval
  (:meth:`scipy.stats.binomtest` ``proportion_ci(method="wilson")``: Wilson, *J. Am. Stat. Assoc.* 22 (1927),
  209-212), which stays inside [0, 1] and says something when no run ended that way.

Units as in the rows: feet, ft/min, knots, degrees (columns named with their unit).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from flightsim.files import atomic_write
from flightsim.simulation.campaign.runner import COLUMNS_OUTCOME, STOP_REASONS

__all__ = ["CONFIDENCE", "PLOTS", "SUMMARY", "ellipse", "fractions", "summary_text", "wilson",
           "write_summary"]

CONFIDENCE = 0.95
"""The confidence level of every interval, and the probability the footprint's ellipse holds."""
SUMMARY = "summary.md"
MIN_ELLIPSE = 10
"""The fewest touchdowns the footprint's ellipse is drawn for (fewer say little about a covariance)."""
PLOTS = {"footprint": "footprint.png", "sink_rate": "sink_rate.png", "distance": "touchdown_distance.png",
         "outcomes": "outcomes.png"}
"""The plots' file names in the campaign's folder."""
#: Columns whose statistics are taken over the touchdowns only (elsewhere they are NaN or mean something else).
TOUCHDOWN_COLUMNS = ("touchdown_along_ft", "touchdown_across_ft", "sink_rate_fpm", "touchdown_speed_kt")
_COLOURS = {"touchdown": "tab:blue", "crash": "tab:red", "below": "tab:orange", "time": "tab:gray",
            "nonfinite": "tab:purple"}


def wilson(k, n, confidence=CONFIDENCE):
    """The Wilson score interval of a proportion: ``k`` of ``n`` trials.

    Returns
    -------
    (float, float)
        Its lower and upper bound (NaN, NaN when ``n`` is 0).
    """
    from scipy.stats import binomtest

    if n == 0:
        return math.nan, math.nan
    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def ellipse(x, y, probability=CONFIDENCE):
    """The ellipse holding ``probability`` of a normal distribution with the points' mean and covariance.

    Parameters
    ----------
    x, y : array_like
        The points (at least 3).

    Returns
    -------
    dict
        ``center`` (x, y); ``axes`` (the semi-axes, largest first, in the points' units); ``angle_deg`` (the
        largest axis' direction, from +x towards +y); ``inside`` (the fraction of the points it holds).
    """
    from scipy.stats import chi2

    points = np.column_stack([np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)])
    center = points.mean(axis=0)
    cov = np.cov(points, rowvar=False)
    values, vectors = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1]
    values, vectors = np.clip(values[order], 0.0, None), vectors[:, order]
    r2 = chi2.ppf(probability, 2)
    d = points - center
    try:
        inside = float(np.mean(np.einsum("ij,jk,ik->i", d, np.linalg.inv(cov), d) <= r2))
    except np.linalg.LinAlgError:              # all points on a line: the ellipse is flat
        inside = math.nan
    return {"center": (float(center[0]), float(center[1])), "axes": tuple(float(v) for v in np.sqrt(r2 * values)),
            "angle_deg": float(np.degrees(np.arctan2(vectors[1, 0], vectors[0, 0]))), "inside": inside}


def _columns(table):
    """A pyarrow table as a dict of numpy arrays."""
    return {name: table.column(name).to_numpy(zero_copy_only=False) for name in table.column_names}


def _runway(spec):
    """The runway the touchdowns are measured on: ``(length, width)`` in ft (the spec's runway end, or the home
    runway 36 when it names none)."""
    from flightsim.simulation.airfield import RUNWAY
    from flightsim.simulation.starts import start_end

    end = start_end(getattr(spec, "airfield", None), getattr(spec, "runway", None))
    runway = RUNWAY if end is None else end.runway
    return float(runway.length), float(runway.width)


def _spec_label(spec):
    """The spec's path as a reader knows it: ``configs/campaigns/approach.toml`` for a shipped one (not the
    installed package's folder), else as given."""
    from flightsim.resources import data_file

    try:
        return (Path("configs") / Path(spec.path).resolve().relative_to(data_file("configs").resolve())).as_posix()
    except ValueError:
        return str(spec.path)


def _runway_name(spec):
    from flightsim.simulation.starts import start_end

    end = start_end(getattr(spec, "airfield", None), getattr(spec, "runway", None))
    return "the home runway 36" if end is None else f"runway {end.name}"


def fractions(rows, runway=None):
    """How the runs ended: ``[(what, count, fraction, low, high)]`` with the 95 % Wilson interval of each.

    The stop reasons, then (touchdowns only) on the runway, short of the threshold and beyond its first third,
    when the runway's ``(length, width)`` is given.
    """
    reasons = np.asarray(rows["stop_reason"]).astype(str)
    n = len(reasons)
    found = list(STOP_REASONS) + sorted(set(reasons) - set(STOP_REASONS))
    out = []
    for reason in found:
        k = int(np.sum(reasons == reason))
        out.append((reason, k, k / n, *wilson(k, n)))
    touchdown = reasons == "touchdown"
    along = np.asarray(rows.get("touchdown_along_ft", np.full(n, np.nan)), dtype=np.float64)
    across = np.asarray(rows.get("touchdown_across_ft", np.full(n, np.nan)), dtype=np.float64)
    events = [("touchdown short of the threshold", touchdown & (along < 0.0))]
    if runway is not None:
        length, width = runway
        events += [
            ("touchdown on the runway", touchdown & (along >= 0.0) & (along <= length)
             & (np.abs(across) <= 0.5 * width)),
            ("touchdown beyond the first third", touchdown & (along > length / 3.0)),
        ]
    for what, hit in events:
        k = int(np.sum(hit))
        out.append((what, k, k / n, *wilson(k, n)))
    return out


def _statistics(rows, names):
    """``[(column, n, mean, sd, min, p5, p50, p95, max)]`` over each column's finite values."""
    reasons = np.asarray(rows["stop_reason"]).astype(str)
    out = []
    for name in names:
        values = np.asarray(rows[name], dtype=np.float64)
        if name in TOUCHDOWN_COLUMNS:
            values = values[reasons == "touchdown"]
        values = values[np.isfinite(values)]
        if len(values) == 0:
            out.append((name, 0) + (math.nan,) * 7)
            continue
        p5, p50, p95 = np.percentile(values, [5, 50, 95])
        out.append((name, len(values), values.mean(), values.std(ddof=1) if len(values) > 1 else math.nan,
                    values.min(), p5, p50, p95, values.max()))
    return out


def _number(x):
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    if not math.isfinite(x):
        return "–"
    return f"{x:.4g}" if abs(x) < 1e4 else f"{x:,.0f}"


def _table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head)))
             + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return lines


def summary_text(table, spec, outcome_columns=None, plots=True):
    """The summary as Markdown (``plots``: with the plots' image links).

    Parameters
    ----------
    table : pyarrow.Table
        The rows (``run`` first; ``stop_reason`` and the outcome columns).
    spec : flightsim.simulation.campaign.spec.CampaignSpec
        The campaign (its path, seed, checksum; its ``runway`` if it has one).
    outcome_columns : sequence of str, optional
        The outcome columns (the others after ``run`` are the draws); default: the runner's ``COLUMNS_OUTCOME``.
    """
    if outcome_columns is None:
        outcome_columns = COLUMNS_OUTCOME
    rows = _columns(table)
    n = len(rows["run"])
    runway = _runway(spec)
    name = getattr(spec, "name", None) or Path(spec.path).stem
    numeric = [c for c in table.column_names if c != "run" and np.asarray(rows[c]).dtype.kind in "fiu"]
    outcomes = [c for c in numeric if c in outcome_columns]
    draws = [c for c in numeric if c not in outcome_columns]
    chosen = [c for c in table.column_names if c not in numeric and c not in outcome_columns and c != "run"]
    lines = [f"# Campaign {name}", "",
             f"{n:,} runs of `{_spec_label(spec)}` (seed {spec.seed}, spec checksum `{spec.checksum[:12]}`); "
             f"touchdowns measured on {_runway_name(spec)} ({runway[0]:,.0f} × {runway[1]:,.0f} ft) from its "
             "threshold, offsets + right of the centre line.", "",
             "## Outcomes", "",
             f"Fraction of the {n:,} runs, with its {CONFIDENCE:.0%} confidence interval (Wilson score).", ""]
    lines += _table(["outcome", "runs", "fraction", f"{CONFIDENCE:.0%} interval"],
                    [(what, f"{k:,}", f"{p:.2%}", f"{lo:.2%} – {hi:.2%}")
                     for what, k, p, lo, hi in fractions(rows, runway)])
    touchdown = np.asarray(rows["stop_reason"]).astype(str) == "touchdown"
    if "touchdown_along_ft" in rows and "touchdown_across_ft" in rows:
        x, y = (np.asarray(rows[c], dtype=np.float64)[touchdown] for c in ("touchdown_across_ft", "touchdown_along_ft"))
        good = np.isfinite(x) & np.isfinite(y)
        lines += ["", "## Touchdown footprint", ""]
        if np.sum(good) >= MIN_ELLIPSE:
            e = ellipse(x[good], y[good])
            lines += [f"{int(np.sum(good)):,} touchdowns, centred {e['center'][1]:.0f} ft past the threshold and "
                      f"{abs(e['center'][0]):.1f} ft {'right' if e['center'][0] >= 0 else 'left'} of the centre "
                      f"line. The {CONFIDENCE:.0%} ellipse (a normal distribution of the same mean and covariance) "
                      f"has semi-axes {e['axes'][0]:.0f} ft and {e['axes'][1]:.1f} ft, its long axis "
                      f"{_tilt(e['angle_deg']):.1f}° off the runway's axis; it holds {e['inside']:.1%} of the "
                      "touchdowns."]
        else:
            lines += [f"{int(np.sum(good))} touchdowns: too few for an ellipse (it takes {MIN_ELLIPSE})."]
        if plots:
            lines += ["", f"![touchdown footprint]({PLOTS['footprint']})"]
    lines += ["", "## Outcome statistics", "",
              "Over the runs where the column has a value (the touchdown columns: over the touchdowns).", ""]
    head = ["column", "runs", "mean", "sd", "min", "5 %", "median", "95 %", "max"]
    lines += _table(head, [tuple(_number(v) if i else f"`{v}`" for i, v in enumerate(s))
                           for s in _statistics(rows, outcomes)])
    if plots:
        lines += ["", f"![sink rate]({PLOTS['sink_rate']}) ![touchdown distance]({PLOTS['distance']})",
                  "", f"![outcomes]({PLOTS['outcomes']})"]
    if draws or chosen:
        lines += ["", "## Dispersions drawn", ""]
    if draws:
        lines += _table(head, [tuple(_number(v) if i else f"`{v}`" for i, v in enumerate(s))
                               for s in _statistics(rows, draws)])
    for c in chosen:
        values, counts = np.unique(np.asarray(rows[c]).astype(str), return_counts=True)
        lines += ["", f"`{c}`: " + ", ".join(f"{v} {k / n:.1%}" for v, k in zip(values, counts, strict=True))]
    return "\n".join(lines) + "\n"


def _tilt(angle_deg):
    """The angle between the ellipse's long axis (from +x, the offset) and the runway's axis (+y), in 0..90°."""
    a = (angle_deg - 90.0) % 180.0
    return min(a, 180.0 - a)


def write_summary(table, folder, spec, outcome_columns=None):
    """Write ``summary.md`` and the plots (:data:`PLOTS`) into ``folder``, each atomically; return the text.

    Returns
    -------
    str
        The summary for a terminal (the Markdown without the image links).
    """
    folder = Path(folder)
    text = summary_text(table, spec, outcome_columns)
    plot(table, folder, spec)
    with atomic_write(folder / SUMMARY) as f:
        f.write(text)
    return summary_text(table, spec, outcome_columns, plots=False)


def plot(table, folder, spec):
    """Draw :data:`PLOTS` into ``folder`` (matplotlib's Agg backend: no window)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = _columns(table)
    reasons = np.asarray(rows["stop_reason"]).astype(str)
    runway = _runway(spec)
    name = getattr(spec, "name", None) or Path(spec.path).stem
    n = len(reasons)
    figures = {
        "footprint": _footprint(plt, rows, reasons, runway),
        "sink_rate": _histogram(plt, rows, reasons, "sink_rate_fpm", "sink rate at touchdown, ft/min"),
        "distance": _histogram(plt, rows, reasons, "touchdown_along_ft", "touchdown past the threshold, ft",
                               runway=runway),
        "outcomes": _outcomes(plt, fractions(rows, runway)),
    }
    for key, fig in figures.items():
        fig.suptitle(f"{name}: {n:,} runs", fontsize=10)
        with atomic_write(folder / PLOTS[key], "wb") as f:
            fig.savefig(f, format="png", dpi=120)
        plt.close(fig)


def _footprint(plt, rows, reasons, runway):
    from matplotlib.patches import Ellipse, Rectangle

    fig, ax = plt.subplots(figsize=(6.4, 6.4), layout="constrained")
    x = np.asarray(rows.get("touchdown_across_ft", np.full(len(reasons), np.nan)), dtype=np.float64)
    y = np.asarray(rows.get("touchdown_along_ft", np.full(len(reasons), np.nan)), dtype=np.float64)
    good = np.isfinite(x) & np.isfinite(y)
    if runway is not None:
        length, width = runway
        ax.add_patch(Rectangle((-0.5 * width, 0.0), width, length, facecolor="0.85", edgecolor="0.4", zorder=0,
                               label=f"runway ({length:,.0f} × {width:,.0f} ft)"))
        ax.axhline(length / 3.0, color="0.4", lw=0.8, ls="--", zorder=1, label="first third")
        ax.axvline(0.0, color="white", lw=1.0, ls=(0, (8, 6)), zorder=1)
    ax.axhline(0.0, color="0.2", lw=1.0, zorder=1)
    size = 12 if np.sum(good) < 1000 else 4
    for reason in STOP_REASONS:
        pick = good & (reasons == reason)
        if np.any(pick):
            ax.scatter(x[pick], y[pick], s=size, alpha=0.6, lw=0, color=_COLOURS[reason], zorder=2,
                       label=f"{reason} ({int(np.sum(pick)):,})")
    td = good & (reasons == "touchdown")
    if np.sum(td) >= MIN_ELLIPSE:
        e = ellipse(x[td], y[td])
        ax.add_patch(Ellipse(e["center"], 2 * e["axes"][0], 2 * e["axes"][1], angle=e["angle_deg"], fill=False,
                             color="black", lw=1.5, zorder=3, label=f"{CONFIDENCE:.0%} ellipse"))
        ax.plot(*e["center"], "k+", ms=10, zorder=3)
        # the view: the touchdowns, their ellipse, the runway's edges and threshold; the crashes far from them
        # (short of the field, off the side) are counted below the plot instead of shrinking it
        (a, b), t = e["axes"], math.radians(e["angle_deg"])
        half = math.hypot(a * math.cos(t), b * math.sin(t)), math.hypot(a * math.sin(t), b * math.cos(t))
        xs = np.r_[x[td], e["center"][0] + np.array([-1, 1]) * half[0]]
        ys = np.r_[y[td], e["center"][1] + np.array([-1, 1]) * half[1], 0.0]
        xs = np.r_[xs, (-0.5 * runway[1], 0.5 * runway[1])] if runway is not None else xs
        pad_x, pad_y = 0.08 * (np.ptp(xs) or 10.0), 0.08 * (np.ptp(ys) or 100.0)
        (x0, x1), (y0, y1) = (xs.min() - pad_x, xs.max() + pad_x), (ys.min() - pad_y, ys.max() + pad_y)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        out = good & ((x < x0) | (x > x1) | (y < y0) | (y > y1))
        if np.any(out):
            kinds = ", ".join(f"{int(np.sum(out & (reasons == r)))} {r}{'es' if r == 'crash' else 's'}"
                              for r in STOP_REASONS if np.any(out & (reasons == r)))
            far = [f"up to {-y[out].min():,.0f} ft short of the threshold"] if y[out].min() < y0 else []
            far += [f"up to {y[out].max():,.0f} ft past it"] if y[out].max() > y1 else []
            far += [f"up to {np.abs(x[out]).max():,.0f} ft off the centre line"] if np.any(
                (x[out] < x0) | (x[out] > x1)) else []
            ax.text(0.5, 0.01, f"outside this view: {kinds} ({', '.join(far)})", transform=ax.transAxes,
                    ha="center", va="bottom", fontsize=7.5, color="0.25")
    # + right of the centre line (the runner's touchdown_across_ft): on the right, as the landing pilot sees it
    ax.set_xlabel("offset right of the centre line, ft (landing up the page)")
    ax.set_ylabel("distance past the threshold, ft")
    ax.set_title("touchdown footprint (scales differ)", fontsize=10)
    ax.legend(loc="best", fontsize=8, framealpha=0.9)
    ax.grid(alpha=0.3)
    return fig


def _histogram(plt, rows, reasons, column, label, runway=None):
    """A histogram of ``column`` over the touchdowns, the crashes stacked on them.  Its range holds the
    touchdowns (the threshold and the runway's first third too, when ``runway`` is given) and the crashes up to
    as far again beyond them (when there are :data:`MIN_ELLIPSE` touchdowns): a crash beyond that (far short of
    the field, into the ground at thousands of ft/min) is counted in the legend instead of squeezing the bins."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    values = np.asarray(rows.get(column, np.full(len(reasons), np.nan)), dtype=np.float64)
    finite = np.isfinite(values)
    td, crash = values[(reasons == "touchdown") & finite], values[(reasons == "crash") & finite]
    every = np.r_[td, crash]
    marks = (0.0, runway[0] / 3.0) if runway is not None else ()
    if len(every):
        lo, hi = min([every.min(), *marks]), max([every.max(), *marks])
        if len(td) >= MIN_ELLIPSE:
            near = min([td.min(), *marks]), max([td.max(), *marks])
            span = near[1] - near[0]
            kept = every[(every >= near[0] - span) & (every <= near[1] + span)]
            lo, hi = min([kept.min(), *marks]), max([kept.max(), *marks])
        if hi == lo:
            lo, hi = lo - 0.5, hi + 0.5

        def inside(v):
            return v[(v >= lo) & (v <= hi)]

        stacks, labels, colours = [], [], []
        for reason, v in (("touchdown", td), ("crash", crash)):
            if len(v):
                beyond = len(v) - len(inside(v))
                stacks.append(inside(v))
                labels.append(f"{reason} ({len(v):,}" + (f"; {beyond:,} beyond this range" if beyond else "") + ")")
                colours.append(_COLOURS[reason])
        bins = np.histogram_bin_edges(np.concatenate(stacks), bins="auto", range=(lo, hi))
        bins = 120 if np.size(bins) > 121 else bins           # at most 120 bins
        ax.hist(stacks, bins=bins, range=(lo, hi), stacked=True, color=colours, label=labels, edgecolor="white",
                lw=0.3)
        if len(td):
            for q, style in ((50, "-"), (95, "--")):
                ax.axvline(np.percentile(td, q), color="black", lw=1, ls=style,
                           label=f"touchdowns' {'median' if q == 50 else '95th percentile'} "
                                 f"{np.percentile(td, q):,.0f}")
        pad = 0.03 * (hi - lo)
        ax.set_xlim(lo - pad, hi + pad)
    else:
        ax.text(0.5, 0.5, "no values", transform=ax.transAxes, ha="center")
    for d, what in zip(marks, ("threshold", "first third"), strict=False):
        ax.axvline(d, color="0.4", lw=0.8, ls=":", label=f"{what} ({d:,.0f} ft)")
    ax.set_xlabel(label)
    ax.set_ylabel("runs")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def _outcomes(plt, table):
    fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.45 * len(table)), layout="constrained")
    names = [f"{what} ({k:,})" for what, k, *_ in table][::-1]
    p = np.array([row[2] for row in table])[::-1]
    lo = np.array([row[3] for row in table])[::-1]
    hi = np.array([row[4] for row in table])[::-1]
    reasons = [what in STOP_REASONS for what, *_ in table][::-1]
    ax.barh(names, p, color=["tab:blue" if r else "tab:green" for r in reasons], alpha=0.7)
    ax.errorbar(p, np.arange(len(p)), xerr=[p - lo, hi - p], fmt="none", ecolor="black", capsize=4, lw=1)
    for i, (v, low, high) in enumerate(zip(p, lo, hi, strict=True)):
        if high < 0.85:
            ax.text(high + 0.015, i, f"{v:.1%}", va="center", fontsize=8)
        else:                                   # a long bar: the figure inside it
            ax.text(low - 0.015, i, f"{v:.1%}", va="center", ha="right", fontsize=8, color="white")
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel(f"fraction of runs, with its {CONFIDENCE:.0%} Wilson interval")
    ax.grid(axis="x", alpha=0.3)
    return fig

"""``flightsim simulate``: fly with no window, print a summary, optionally write a trace CSV."""

import math
import sys
import time
from pathlib import Path

import numpy as np

from flightsim.simulation import trace
from flightsim.simulation.controls import ControlSchedule
from flightsim.errors import InputError
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.flight import DEFAULT_DT, Simulation

#: Runs at least this long (steps) on a terminal get a progress bar.
PROGRESS_MIN_STEPS = 20_000


def add_arguments(p):
    """Options of ``flightsim simulate`` (numbers are checked in :func:`run` for one-line errors)."""
    p.add_argument("--aircraft", metavar="PATH", help="aircraft TOML file (default: the book's airplane)")
    p.add_argument(
        "--integrator", default="euler", metavar="NAME", help=f"one of: {', '.join(INTEGRATORS)} (default: euler)"
    )
    p.add_argument("--dt", default=str(DEFAULT_DT), metavar="SECONDS", help="physics step (default: 1/120 s)")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--duration", metavar="SECONDS", help="simulated time to fly (default: 60 s)")
    length.add_argument("--steps", metavar="N", help="number of steps to fly")
    p.add_argument("--controls", metavar="CSV", help="control schedule: t,throttle,elevator,aileron,rudder,flaps")
    p.add_argument("--out", metavar="CSV", help="write a trace here (without it: summary only)")
    p.add_argument("--every", default="1", metavar="K", help="write every K-th step (default: 1)")
    p.add_argument(
        "--atmosphere", default="constant", choices=("constant", "isa"),
        help="air density: the book's constant, or the standard atmosphere",
    )


def _number(option, text, kind=float, minimum=None, exclusive=True):
    """Parse a numeric option or raise InputError naming it."""
    try:
        value = kind(text)
    except (TypeError, ValueError):
        raise InputError(option, "", f"must be a {'whole ' if kind is int else ''}number, got {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(option, "", f"must be finite, got {text!r}")
    if minimum is not None and (value <= minimum if exclusive else value < minimum):
        raise InputError(option, "", f"must be {'>' if exclusive else '≥'} {minimum:g}, got {text!r}")
    return value


def _parse_dt(text):
    """dt accepts a fraction such as 1/30 as well as a decimal."""
    if isinstance(text, str) and "/" in text:
        num, _, den = text.partition("/")
        try:
            return float(num) / float(den)
        except (ValueError, ZeroDivisionError):
            raise InputError("--dt", "", f"must be a number, got {text!r}") from None
    return _number("--dt", text)


def fly(sim, steps, schedule=None, every=1, progress=False):
    """Fly ``steps`` steps; return the trace table of every ``every``-th state (and the first).

    Stops early when the simulation stops (crash, non-finite state).
    """
    rows_t, rows_y, rows_u = [sim.t], [sim.vector], [sim.controls.clamped().as_array()]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=steps, unit="step", file=sys.stderr, mininterval=0.5)
    for k in range(1, steps + 1):
        if schedule is not None:
            sim.controls = schedule.at(sim.t)
        if not sim.step():
            break
        if k % every == 0:
            rows_t.append(sim.t)
            rows_y.append(sim.vector)
            rows_u.append(sim.controls.clamped().as_array())
        if bar is not None and k % 1000 == 0:
            bar.update(1000)
    if bar is not None:
        bar.close()
    return trace.table(rows_t, rows_y, rows_u)


def run(args):
    """Run ``flightsim simulate``; return the exit code (0, or 1 if the state went non-finite)."""
    dt = _parse_dt(args.dt)
    every = _number("--every", args.every, int, 1, exclusive=False)
    out = Path(args.out) if args.out else None
    if out is not None and not out.parent.is_dir():
        raise InputError("--out", str(out), f"directory {str(out.parent)!r} does not exist")
    sim = Simulation(args.aircraft, args.integrator, dt, atmosphere=args.atmosphere)
    if args.steps is not None:
        steps = _number("--steps", args.steps, int, 0, exclusive=False)
    else:
        duration = _number("--duration", args.duration if args.duration is not None else "60", float, 0.0, False)
        steps = int(round(duration / sim.dt))
    schedule = ControlSchedule.from_csv(args.controls, sim.controls) if args.controls else None

    start = time.perf_counter()
    table = fly(sim, steps, schedule, every, progress=sys.stderr.isatty() and steps >= PROGRESS_MIN_STEPS)
    wall = time.perf_counter() - start
    if out is not None:
        trace.write_csv(out, table)
    _summary(sim, table, wall, out)
    return 1 if sim.status and "non-finite" in sim.status else 0


def _summary(sim, table, wall, out):
    col = {name: table[:, i] for i, name in enumerate(trace.COLUMNS)}
    t = sim.telemetry()
    lines = [
        f"integrator      {sim.integrator} (dt = {sim.dt:g} s, {sim.steps} steps, t = {sim.t:.3f} s)",
        f"final position  x {col['x'][-1]:.1f}  y {col['y'][-1]:.1f}  z {col['z'][-1]:.1f} ft",
        f"final attitude  roll {t.roll:.2f}°  pitch {t.pitch:.2f}°  heading {t.heading:.2f}°",
        f"final speed     {t.airspeed:.2f} ft/s, vertical {t.vertical_speed:.2f} ft/s, alpha {t.alpha:.2f}°",
        f"altitude range  {col['z'].min():.1f} .. {col['z'].max():.1f} ft",
        f"largest |q|-1   {np.max(np.abs(np.linalg.norm(table[:, 7:11], axis=1) - 1.0)):.3e} (renormalised: "
        f"{'yes' if sim.renormalize else 'no'}; last step before renormalising {sim.qnorm_error:.3e})",
        f"wall time       {wall:.3f} s, {sim.steps / wall if wall > 0 else float('inf'):,.0f} steps/s",
    ]
    if sim.status:
        lines.append(f"status          {sim.status}")
    if out is not None:
        lines.append(f"trace           {out} ({len(table)} rows)")
    print("\n".join(lines))

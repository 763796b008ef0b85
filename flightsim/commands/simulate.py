"""``flightsim simulate``: fly with no window, print a summary, optionally write a trace CSV."""

import sys
import time

from flightsim.commands.options import (
    add_aircraft_argument,
    add_atmosphere_argument,
    add_failures_argument,
    add_planet_arguments,
    add_terrain_argument,
    autopilot_spec,
    failures_option,
    number,
    output_file,
    planet_options,
    seconds,
    terrain_option,
    write_error,
)
from flightsim.commands.trim import add_start_arguments, start_from_args
from flightsim.commands.wind import add_wind_arguments, wind_from_args
from flightsim.errors import InputError

# The simulation (numba, scipy) is imported when the command runs, not when the parser is built.
DEFAULT_DT = 1.0 / 120.0      # as flightsim.simulation.flight.DEFAULT_DT (tests/test_app_quality.py checks they agree)

#: Runs at least this long (steps) on a terminal get a progress bar.
PROGRESS_MIN_STEPS = 20_000


def add_arguments(p):
    """Options of ``flightsim simulate`` (numbers parsed by :mod:`flightsim.commands.options`)."""
    add_aircraft_argument(p)
    p.add_argument(
        "--integrator", default="euler", metavar="NAME",
        help="an integrator listed by `flightsim integrators` (default: euler)"
    )
    p.add_argument("--dt", type=seconds, default=DEFAULT_DT, metavar="SECONDS",
                   help="physics step, e.g. 0.01 or 1/30 (default: 1/120 s)")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--duration", type=number(float, minimum=0.0), metavar="SECONDS",
                        help="simulated time to fly (default: 60 s)")
    length.add_argument("--steps", type=number(int, minimum=0), metavar="N", help="number of steps to fly")
    p.add_argument("--controls", metavar="CSV",
                   help="control schedule: t,throttle,elevator,aileron,rudder,flaps,brake,parking_brake")
    p.add_argument("--autopilot", type=autopilot_spec, metavar="SPEC",
                   help="engage the autopilot at the start: comma-separated key=value of hdg (deg), alt (ft), "
                        "vs (ft/min), ias (kt), app=36 or app=ID/NN (the coupled approach to an ILS runway end, e.g. "
                        "app=KVAL/27), nav=STATION/RADIAL (track a VOR radial, e.g. nav=HOM/090), e.g. "
                        "hdg=270,alt=2500,ias=100")
    p.add_argument("--out", metavar="CSV", help="write a trace here (without it: summary only)")
    p.add_argument("--every", type=number(int, minimum=1), default=1, metavar="K",
                   help="write every K-th step (default: 1)")
    add_atmosphere_argument(p)
    add_start_arguments(p, default="file")
    add_wind_arguments(p)
    add_planet_arguments(p)
    add_terrain_argument(p)
    add_failures_argument(p)


def fly(sim, steps, schedule=None, every=1, progress=False, until=None):
    """Fly ``steps`` steps; return the trace table of every ``every``-th state (and the first).

    Stops early when the simulation stops (crash, non-finite state), or once ``until(sim)`` (called after each
    step) is true.
    """
    import numpy as np

    from flightsim.simulation import trace

    rows_t, rows_y, rows_u = [sim.t], [sim.vector], [sim.flown_controls]
    rows_g, rows_w, rows_rpm, rows_ap = [sim.on_ground], [sim.wind[:3]], [sim.rpm], [sim.autopilot.code]
    rows_f, rows_ias = [sim.failures.bits], [sim.gauges.indicated_airspeed]
    # where on the planet: a round one's from each state's Earth-centred inertial one, a flat one's afterwards
    on_round = sim.planet.round
    rows_geo = [sim.geodetic] if on_round else None
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
            rows_u.append(sim.flown_controls)
            rows_g.append(sim.on_ground)
            rows_w.append(sim.wind[:3])
            rows_rpm.append(sim.rpm)
            rows_ap.append(sim.autopilot.code)
            rows_f.append(sim.failures.bits)
            rows_ias.append(sim.gauges.indicated_airspeed)
            if on_round:
                rows_geo.append(sim.geodetic)
        if bar is not None and k % 1000 == 0:
            bar.update(1000)
        if until is not None and until(sim):
            break
    if bar is not None:
        bar.close()
    if not on_round:
        y = np.asarray(rows_y)
        rows_geo = trace.flat_geodetic_rows(y[:, 0], y[:, 1], y[:, 2], sim.lat, sim.lon)
    # what the NAV radio showed: a function of the place (the station and course held through the flight)
    nav = sim.nav.rows(np.asarray(rows_y)[:, :3])
    return trace.table(rows_t, rows_y, rows_u, on_ground=rows_g, wind=rows_w, rpm=rows_rpm, ap_mode=rows_ap,
                       geodetic=rows_geo, nav=nav, failures=rows_f, ias=rows_ias)


def run(args):
    """Run ``flightsim simulate``; return the exit code (0, or 1 if the state went non-finite)."""
    from flightsim.simulation import trace
    from flightsim.simulation.controls import ControlSchedule
    from flightsim.simulation.flight import Simulation, resolve_aircraft

    out = output_file("--out", args.out) if args.out else None
    aircraft = resolve_aircraft(args.aircraft)
    wind = wind_from_args(args, aircraft)
    failures = failures_option(args, aircraft)
    start = start_from_args(args, aircraft, args.atmosphere, wind)
    sim = Simulation(aircraft, args.integrator, args.dt, atmosphere=args.atmosphere, start=start, wind=wind,
                     **planet_options(args), terrain=terrain_option(args), failures=failures)
    if args.steps is not None:
        steps = args.steps
    else:
        steps = int(round((60.0 if args.duration is None else args.duration) / sim.dt))
    schedule = ControlSchedule.from_csv(args.controls, sim.controls) if args.controls else None
    if args.autopilot is not None:
        engage_autopilot(sim, args.autopilot, schedule)

    start = time.perf_counter()
    table = fly(sim, steps, schedule, args.every, progress=sys.stderr.isatty() and steps >= PROGRESS_MIN_STEPS)
    wall = time.perf_counter() - start
    if out is not None:
        try:
            trace.write_csv(out, table)
        except OSError as exc:
            raise write_error("--out", out, exc) from None
    _summary(sim, table, wall, out)
    return 1 if sim.diverged else 0


def engage_autopilot(sim, selection, schedule=None):
    """Engage ``sim``'s autopilot with ``selection`` (``--autopilot``); a one-line error (exit 2) where it cannot
    fly: with a control schedule (which would fly the same controls), on the ground, or with no level flight."""
    if schedule is not None:
        raise InputError("--autopilot", "", "cannot fly with --controls: the schedule would move the controls "
                         "the autopilot moves")
    try:
        sim.autopilot.engage(sim, selection)
    except ValueError as exc:
        raise InputError("--autopilot", "", str(exc).removeprefix("autopilot: ")) from None


def _summary(sim, table, wall, out):
    import numpy as np

    # A flight that diverged keeps its last finite state, which may be huge: no numpy warnings on the way.
    with np.errstate(all="ignore"):
        lines = _summary_lines(sim, table, wall)
    if sim.status:
        lines.append(f"status          {sim.status}")
    if out is not None:
        lines.append(f"trace           {out} ({len(table)} rows)")
    print("\n".join(lines))


def _summary_lines(sim, table, wall):
    import numpy as np

    from flightsim.physics import planet as planets
    from flightsim.simulation import trace

    col = {name: table[:, i] for i, name in enumerate(trace.COLUMNS)}
    t = sim.telemetry()
    lat, lon, alt_msl = sim.geodetic
    return [
        f"start           {sim.start.describe()}",
        f"wind            {'still air' if sim.wind_spec is None else sim.wind_spec.describe()}",
        f"planet          {planets.describe(sim.planet, sim.lat, sim.lon)}",
        f"integrator      {sim.integrator} (dt = {sim.dt:g} s, {sim.steps} steps, t = {sim.t:.3f} s)",
        f"final position  x {col['x'][-1]:.1f}  y {col['y'][-1]:.1f}  z {col['z'][-1]:.1f} ft",
        f"final attitude  roll {t.roll:.2f}°  pitch {t.pitch:.2f}°  heading {t.heading:.2f}°",
        f"final speed     {t.airspeed:.2f} ft/s, vertical {t.vertical_speed:.2f} ft/s, alpha {t.alpha:.2f}°"
        + (f", ground speed {t.groundspeed:.2f} ft/s" if sim.wind_spec is not None else ""),
        f"final place     {planets.place_text(lat, lon)}, {alt_msl:.1f} ft above the ellipsoid",
        f"altitude range  {col['z'].min():.1f} .. {col['z'].max():.1f} ft",
        f"largest |q|-1   {np.max(np.abs(np.linalg.norm(table[:, 7:11], axis=1) - 1.0)):.3e} (renormalised: "
        f"{'yes' if sim.renormalize else 'no'}; last step before renormalising {sim.qnorm_error:.3e})",
        f"wall time       {wall:.3f} s, {sim.steps / wall if wall > 0 else float('inf'):,.0f} steps/s",
    ] + ([f"autopilot       {sim.autopilot.describe()}"] if sim.autopilot.used else [])

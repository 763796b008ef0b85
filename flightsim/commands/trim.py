"""``flightsim trim`` and ``flightsim modes``: steady flight, and the airplane's dynamic modes about it."""

import json
import math

from flightsim.commands.options import (
    add_aircraft_argument,
    add_airfield_arguments,
    add_atmosphere_argument,
    add_planet_arguments,
    airfield_options,
    check_airfield_options,
    number,
)
from flightsim.errors import InputError

#: As :data:`flightsim.simulation.starts.START_KINDS` (not imported: the parser must not load numba and scipy;
#: tests/test_app_quality.py checks they agree).
START_KINDS = ("runway", "approach", "air", "file")

#: Option types: an airspeed, an altitude, an angle, a flap setting.
airspeed = number(float, minimum=0.0, exclusive=True)
altitude = number(float, minimum=0.0, maximum=60000.0)
climb_angle = number(float, minimum=-30.0, maximum=30.0)
flaps = number(float, minimum=0.0, maximum=1.0)
bank = number(float, minimum=-75.0, maximum=75.0)


def add_condition_arguments(p):
    """The flight condition options of ``trim`` and ``modes``."""
    p.add_argument("--airspeed", type=airspeed, required=True, metavar="FT_S", help="true airspeed, ft/s")
    _add_altitude_and_angle(p)
    p.add_argument("--flaps", type=flaps, default=0.0, metavar="F", help="flap setting 0..1 (default 0)")
    p.add_argument("--bank", type=bank, default=0.0, metavar="DEG",
                   help="bank of a steady coordinated turn, deg, right + (default 0: straight)")
    p.add_argument("--engine", choices=("idle", "off"),
                   help="glide with the throttle closed, the engine idling or off (mixture cut: the propeller "
                        "windmills), solving for the glide angle instead of the throttle (--climb-angle unused)")
    p.add_argument("--gear", choices=("up", "down"), default="down",
                   help="the gear lever of an aircraft whose gear retracts (a JSBSim aircraft's: its tables' gear "
                        "drag goes with it) (default down)")
    add_aircraft_argument(p)
    add_atmosphere_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    add_planet_arguments(p)


def _add_altitude_and_angle(p):
    p.add_argument("--altitude", type=altitude, metavar="FT",
                   help="height of the centre of gravity, ft (default: the aircraft file's initial one)")
    p.add_argument("--climb-angle", type=climb_angle, default=0.0, metavar="DEG",
                   help="flight-path angle, deg: 0 level, + climb, - glide (default 0)")


def add_start_arguments(p, default):
    """``--start KIND``, ``--trim FT_S``, ``--altitude``, ``--climb-angle``, ``--airfield`` and ``--runway``: where
    a flight starts."""
    p.add_argument("--start", choices=START_KINDS, default=default,
                   help=f"runway: at rest on the runway's threshold, engine idle, parking brake set; approach: "
                        f"trimmed on a 3° glide path to the runway, a minute from touchdown; air: trimmed level "
                        f"flight at the aircraft file's cruise_speed; file: the file's initial state as it is "
                        f"(default {default})")
    p.add_argument("--trim", type=airspeed, metavar="FT_S",
                   help="start trimmed in steady flight at this airspeed (ft/s) instead")
    _add_altitude_and_angle(p)
    add_airfield_arguments(p)


def start_from_args(args, aircraft, atmosphere=None, wind=None):
    """The :class:`~flightsim.simulation.starts.Start` that ``--start``/``--trim`` ask for.

    ``wind`` (:class:`~flightsim.physics.wind.WindSpec`, optional): a trimmed
    start is trimmed relative to the air and carried along with the steady wind.  On a round planet
    (``--planet``, ``--lat``, ``--lon``, or a JSBSim aircraft's default) it is trimmed with the planet's effective
    gravity there (:func:`~flightsim.simulation.starts.start_gravity`).
    """
    from flightsim.physics.trim import TrimError
    from flightsim.simulation.starts import make_start

    kind = "trim" if args.trim is not None else args.start
    if kind in ("file", "runway", "approach") and (args.altitude is not None or args.climb_angle):
        option = "--altitude" if args.altitude is not None else "--climb-angle"
        raise InputError(option, "", "needs a trimmed start (--trim FT_S or --start air)")
    if kind == "air" and args.climb_angle:
        raise InputError("--climb-angle", "", "the air start is level; use --trim FT_S --climb-angle DEG")
    check_airfield_options(args, kind)
    try:
        return make_start(aircraft, kind, args.trim, args.altitude, args.climb_angle, atmosphere=atmosphere,
                          wind=wind, planet=getattr(args, "planet", None), lat=getattr(args, "lat", None),
                          lon=getattr(args, "lon", None), **airfield_options(args))
    except TrimError as exc:
        raise InputError("--trim" if kind == "trim" else "--start", "", str(exc)) from None


def solve(args):
    """The aircraft, its model and the trim the options ask for; errors name the option."""
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.physics.trim import AirplaneModel, TrimError, trim
    from flightsim.simulation.starts import retracts

    aircraft = load_aircraft(args.aircraft)
    if args.gear == "up" and not retracts(aircraft):
        raise InputError("--gear", "up", f"{aircraft.name}'s gear does not retract (fixed gear, or no flight "
                         "control moves gear/gear-pos-norm)")
    gravity = planet_of(args, aircraft)[3]
    # on a round planet the effective gravity at the trim's height, as a start there is trimmed
    model = AirplaneModel(aircraft, args.atmosphere, **({} if gravity is None else {"gravity": gravity}))
    try:
        point = trim(aircraft, args.airspeed, args.altitude, args.climb_angle, args.flaps, bank=args.bank,
                     model=model, engine=args.engine, gear=0.0 if args.gear == "up" else 1.0)
    except TrimError as exc:
        raise InputError("--airspeed", "", str(exc)) from None
    model.engine = point.engine                  # the engine as trimmed, for what is evaluated at the trim next
    model.gear = point.gear
    return aircraft, model, point


def planet_of(args, aircraft):
    """The planet the options name (:func:`flightsim.physics.planet.resolve`), the latitude and longitude of the
    earth frame's origin (deg), and the round planet's effective gravity there at the trim's height
    (gravitation and the centrifugal term, ft/s²: :func:`~flightsim.simulation.starts.start_gravity`, what a
    start there is trimmed with; None on a flat planet): ``(planet, lat, lon, gravity)``.
    """
    from flightsim.physics import planet as planets
    from flightsim.simulation.starts import start_gravity

    planet = planets.resolve(args.planet, getattr(aircraft, "planet", None), aircraft.jsbsim is not None)
    lat = planets.DEFAULT_LAT if args.lat is None else planets.check_lat(args.lat)
    lon = planets.DEFAULT_LON if args.lon is None else planets.check_lon(args.lon)
    gravity = start_gravity(aircraft, args.altitude, planet, lat, lon) if planet.round else None
    return planet, lat, lon, gravity


def planet_dict(args, aircraft):
    """The planet of :func:`planet_of` as JSON-ready values."""
    planet, lat, lon, gravity = planet_of(args, aircraft)
    return {"planet": planet.name, "lat_deg": lat, "lon_deg": lon, "planet_gravity": gravity,
            "aircraft_gravity": float(aircraft.gravity)}


def planet_line(args, aircraft):
    """The planet, where, and on a round planet its effective gravity against the aircraft's; empty on the
    flat planet when no planet option was given (the output as before the planet)."""
    from flightsim.physics import planet as planets

    planet, lat, lon, gravity = planet_of(args, aircraft)
    if not planet.round and args.planet is None and args.lat is None and args.lon is None:
        return ""
    line = f"planet: {planets.describe(planet, lat, lon)}"
    if gravity is not None:
        g = float(aircraft.gravity)
        line += (f"; effective gravity there {gravity:.4f} ft/s² against the aircraft's {g:.4f} "
                 f"({100.0 * (gravity - g) / g:+.3f} %), the trim's")
    return line


def trim_dict(point):
    """The trim as JSON-ready numbers (angles in degrees, speeds ft/s)."""
    return {
        "airspeed": point.airspeed, "altitude": point.altitude, "climb_angle_deg": point.climb_angle,
        "bank_deg": point.bank, "heading_deg": point.heading, "alpha_deg": point.alpha, "beta_deg": point.beta,
        "pitch_deg": point.pitch, "roll_deg": point.roll, "throttle": point.throttle, "elevator": point.elevator,
        "aileron": point.aileron, "rudder": point.rudder, "flaps": point.flaps, "turn_rate_deg_s": point.turn_rate,
        "residual": point.residual, "residual_angular": point.residual_angular, "engine": point.engine,
        "gear": point.gear,
    }


def engine_at(model, point):
    """``(thrust lbf, engine rev/min or 0)`` of the trim, from the loads it was solved with."""
    from flightsim.physics import aero

    model.derivative(point.state, list(point.controls.values()))
    diag = model.params.diag
    return float(diag[aero.D_THRUST]), float(diag[aero.D_RPM])


def run_trim(args):
    """Print the trim."""
    aircraft, model, point = solve(args)
    thrust, rpm = engine_at(model, point)
    if args.json:
        print(json.dumps({**trim_dict(point), "thrust_lbf": thrust, "rpm": rpm, **planet_dict(args, aircraft)}))
        return 0
    turn = f", banked {point.bank:g}° turning {point.turn_rate:.2f}°/s" if point.bank else ""
    engine = {None: "", "idle": ", engine idling", "off": ", engine off"}[args.engine]
    from flightsim.simulation.starts import retracts

    gear = (", gear up" if point.gear < 0.5 else ", gear down") if retracts(aircraft) else ""
    print(f"{aircraft.name}: steady flight at {point.airspeed:g} ft/s, altitude {point.altitude:g} ft, "
          f"climb angle {point.climb_angle:g}°, flaps {point.flaps:g}{turn}{engine}{gear}")
    line = planet_line(args, aircraft)
    rows = (("angle of attack α", f"{point.alpha:9.4f} °"), ("sideslip β", f"{point.beta:9.4f} °"),
            ("pitch", f"{point.pitch:9.4f} °"), ("roll", f"{point.roll:9.4f} °"),
            ("throttle", f"{point.throttle:9.4f}   ({thrust:.0f} lbf" + (f", {rpm:.0f} rpm)" if rpm else ")")),
            ("elevator", f"{point.elevator:9.4f}   (+1 nose up)"), ("aileron", f"{point.aileron:9.4f}"),
            ("rudder", f"{point.rudder:9.4f}"),
            *([("glide ratio", f"{-1.0 / math.tan(math.radians(point.climb_angle)):9.2f} : 1")]
              if point.climb_angle < 0.0 else []),
            ("residual", f"{point.residual:9.1e} g, {point.residual_angular:.1e} rad/s²"))
    for name, value in rows:
        print(f"  {name:<18} {value}")
    if line:
        print(f"  {line}")
    return 0


def run_modes(args):
    """Print the modes of the linearised airplane about the trim."""
    aircraft, model, point = solve(args)
    from flightsim.physics import modes as modes_module

    linear = modes_module.linearize(point, aircraft, model=model)
    named = modes_module.dynamic_modes(linear)
    if args.json:
        print(json.dumps({"trim": trim_dict(point), "modes": [m.as_dict() for m in named],
                          **planet_dict(args, aircraft),
                          "states": list(linear.states), "inputs": list(linear.inputs),
                          "A": linear.A.tolist(), "B": linear.B.tolist()}))
        return 0
    line = planet_line(args, aircraft)
    print(f"{aircraft.name}: modes about steady flight at {point.airspeed:g} ft/s, altitude {point.altitude:g} ft, "
          f"climb angle {point.climb_angle:g}°, flaps {point.flaps:g}" + (f"; {line}" if line else ""))
    print(f"  {'mode':<13} {'eigenvalue (1/s)':>22} {'period':>9} {'damping':>8} {'ω_n':>7} {'half / double':>15}")
    for m in named:
        period = f"{m.period:7.2f} s" if m.period else "      —  "
        if m.time_to_half:
            t = f"½ in {m.time_to_half:6.2f} s"
        elif m.time_to_double:
            t = f"2× in {m.time_to_double:5.2f} s"
        else:
            t = "neutral"
        lam = f"{m.real:+.4f} ± {m.imag:.4f}i" if m.imag else f"{m.real:+.4f}"
        print(f"  {m.name:<13} {lam:>22} {period:>9} {m.damping_ratio:8.3f} {m.natural_frequency:7.3f} {t:>15}")
    return 0

"""``flightsim trim`` and ``flightsim modes``: steady flight, and the airplane's dynamic modes about it."""

import json

from flightsim.errors import InputError
from flightsim.physics import modes as modes_module
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.trim import AirplaneModel, TrimError, trim

#: Trim arguments → the options that set them, for one-line errors.
FLAGS = {"airspeed": "--airspeed", "altitude": "--altitude", "climb_angle": "--climb-angle", "flaps": "--flaps",
         "bank": "--bank", "atmosphere": "--atmosphere"}


def add_condition_arguments(p, airspeed_required=True):
    """The flight condition options shared by ``trim``, ``modes`` (and the trimmed starts)."""
    p.add_argument("--airspeed", required=airspeed_required, metavar="FT_S", help="true airspeed, ft/s")
    p.add_argument("--altitude", metavar="FT", help="height of the centre of gravity, ft (default: the aircraft "
                                                      "file's initial one)")
    p.add_argument("--climb-angle", default="0", metavar="DEG", help="flight-path angle, deg: 0 level, + climb, "
                                                                      "- glide (default 0)")
    p.add_argument("--flaps", default="0", metavar="F", help="flap setting 0..1 (default 0)")
    p.add_argument("--bank", default="0", metavar="DEG", help="bank of a steady coordinated turn, deg, right + "
                                                               "(default 0: straight)")
    p.add_argument("--aircraft", metavar="PATH", help="aircraft TOML file (default: the book's airplane)")
    p.add_argument("--atmosphere", default="constant", choices=("constant", "isa"),
                   help="air density: the book's constant, or the standard atmosphere")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def solve(args):
    """The aircraft, its model and the trim the options ask for; errors name the option."""
    aircraft = load_aircraft(args.aircraft)
    model = AirplaneModel(aircraft, args.atmosphere)
    try:
        point = trim(aircraft, args.airspeed, args.altitude, args.climb_angle, args.flaps, bank=args.bank,
                     model=model)
    except TrimError as exc:
        raise InputError("--airspeed", "", str(exc)) from None
    except ValueError as exc:
        name, _, reason = str(exc).partition(": ")
        raise InputError(FLAGS.get(name, name), "", reason) from None
    return aircraft, model, point


def trim_dict(point):
    """The trim as JSON-ready numbers (angles in degrees, speeds ft/s)."""
    return {
        "airspeed": point.airspeed, "altitude": point.altitude, "climb_angle_deg": point.climb_angle,
        "bank_deg": point.bank, "heading_deg": point.heading, "alpha_deg": point.alpha, "beta_deg": point.beta,
        "pitch_deg": point.pitch, "roll_deg": point.roll, "throttle": point.throttle, "elevator": point.elevator,
        "aileron": point.aileron, "rudder": point.rudder, "flaps": point.flaps, "turn_rate_deg_s": point.turn_rate,
        "residual": point.residual, "residual_angular": point.residual_angular,
    }


def run_trim(args):
    """Print the trim."""
    aircraft, _, point = solve(args)
    if args.json:
        print(json.dumps(trim_dict(point)))
        return 0
    turn = f", banked {point.bank:g}° turning {point.turn_rate:.2f}°/s" if point.bank else ""
    print(f"{aircraft.name}: steady flight at {point.airspeed:g} ft/s, altitude {point.altitude:g} ft, "
          f"climb angle {point.climb_angle:g}°, flaps {point.flaps:g}{turn}")
    rows = (("angle of attack α", f"{point.alpha:9.4f} °"), ("sideslip β", f"{point.beta:9.4f} °"),
            ("pitch", f"{point.pitch:9.4f} °"), ("roll", f"{point.roll:9.4f} °"),
            ("throttle", f"{point.throttle:9.4f}   ({point.throttle * aircraft.max_thrust:.0f} lbf)"),
            ("elevator", f"{point.elevator:9.4f}   (+1 nose up)"), ("aileron", f"{point.aileron:9.4f}"),
            ("rudder", f"{point.rudder:9.4f}"),
            ("residual", f"{point.residual:9.1e} g, {point.residual_angular:.1e} rad/s²"))
    for name, value in rows:
        print(f"  {name:<18} {value}")
    return 0


def run_modes(args):
    """Print the modes of the linearised airplane about the trim."""
    aircraft, model, point = solve(args)
    linear = modes_module.linearize(point, aircraft, model=model)
    named = modes_module.dynamic_modes(linear)
    if args.json:
        print(json.dumps({"trim": trim_dict(point), "modes": [m.as_dict() for m in named],
                          "states": list(linear.states), "inputs": list(linear.inputs),
                          "A": linear.A.tolist(), "B": linear.B.tolist()}))
        return 0
    print(f"{aircraft.name}: modes about steady flight at {point.airspeed:g} ft/s, altitude {point.altitude:g} ft, "
          f"climb angle {point.climb_angle:g}°, flaps {point.flaps:g}")
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

"""``flightsim aircraft``: the shipped airplanes, by the name ``--aircraft`` takes."""

from flightsim.resources import shipped_aircraft

__all__ = ["add_arguments", "run"]


def add_arguments(parser):
    """``flightsim aircraft`` takes no options."""


def run(args):
    """Print one line per shipped aircraft: name, title, weight, propulsion, file."""
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.physics.constants import HP

    rows = []
    for name, path in shipped_aircraft().items():
        a = load_aircraft(path)
        weight = a.mass * a.gravity
        if a.propeller is not None:
            p = a.propeller
            engine = (f"{p.max_power / HP:.0f} hp at {p.rated_rpm:.0f} rpm, {12 * p.diameter:.0f} in propeller "
                      f"({a.max_thrust:.0f} lbf static)")
        else:
            engine = f"constant thrust, {a.max_thrust:.0f} lbf at full throttle"
        rows.append((name, a.name, f"{weight:.0f} lbf", engine, str(path)))
    print("--aircraft NAME (or a path to an aircraft TOML file):")
    width = [max(len(r[k]) for r in rows) for k in range(4)]
    for r in rows:
        print("  " + "  ".join(f"{r[k]:<{width[k]}}" for k in range(4)) + f"  {r[4]}")
    return 0

"""``flightsim aircraft``: the shipped airplanes and the ``jsbsim`` package's, by the name ``--aircraft`` takes.

The JSBSim aircraft that load are listed with their weight and engines; each
one that does not gets one line saying what flightsim does not read in it
(the file's element and the reason, from the :class:`~flightsim.errors.InputError`
its load raised).
"""

from flightsim.resources import shipped_aircraft

__all__ = ["add_arguments", "jsbsim_fleet", "refusal", "run"]

#: How the listing names an engine kind (:attr:`~flightsim.physics.jsbsim.propulsion.Propulsion.kinds`) where its
#: name is not a noun.
ENGINE_NAMES = {"brushless": "brushless motor"}


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
    _table(rows)
    flown, refused, flightgear = jsbsim_fleet()
    print(f"\n--aircraft jsbsim:NAME (or a path to a JSBSim aircraft .xml): {len(flown)} of "
          f"{len(flown) + len(refused)} in the jsbsim package load")
    _table(flown)
    for name, reads in flightgear:
        more = f" and {len(reads) - 2} more" if len(reads) > 2 else ""
        print(f"  {name} reads FlightGear's {', '.join(repr(n) for n in reads[:2])}{more}: each its declared value "
              "here, as in JSBSim alone")
    print("\nnot yet (what each lacks):")
    width = max((len(n) for n, _ in refused), default=0)
    for name, reason in refused:
        print(f"  jsbsim:{name:<{width}}  {reason}")
    return 0


def _table(rows):
    width = [max(len(r[k]) for r in rows) for k in range(4)] if rows else [0] * 4
    for r in rows:
        print("  " + "  ".join(f"{r[k]:<{width[k]}}" for k in range(4)) + f"  {r[4]}")


def refusal(exc):
    """Why flightsim does not fly a JSBSim aircraft, in the words of the :class:`~flightsim.errors.InputError` its
    load raised: the element and the reason (the file is the aircraft's)."""
    return f"{exc.where}: {exc.reason}" if exc.where else exc.reason


def jsbsim_fleet():
    """The ``jsbsim`` package's aircraft: ``(rows, refused, flightgear)``, a row ``(jsbsim:NAME, title, weight,
    engines, file)`` per aircraft that loads, ``(NAME, why)`` per one that does not, and ``(jsbsim:NAME, names)``
    per loading one that reads FlightGear's properties."""
    from flightsim.errors import InputError
    from flightsim.physics.jsbsim.model import fleet

    rows, refused, flightgear = [], [], []
    for name, a in fleet():
        if isinstance(a, InputError):
            refused.append((name, refusal(a)))
            continue
        kinds = [kind for kind, _ in a.jsbsim.propulsion.kinds]
        engines = ", ".join(f"{kinds.count(k)} {ENGINE_NAMES.get(k, k)}{'s' if kinds.count(k) > 1 else ''}"
                            for k in sorted(set(kinds)))
        rows.append((f"jsbsim:{name}", a.name, f"{a.mass * a.gravity:.0f} lbf", engines or "glider", str(a.source)))
        if a.jsbsim.flightgear_reads:
            flightgear.append((f"jsbsim:{name}", a.jsbsim.flightgear_reads))
    return rows, refused, flightgear

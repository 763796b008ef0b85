"""``flightsim airfields``: the world's airfields, their runways and ILS, by the identifiers ``--airfield`` and
``--runway`` take.

The shipped files (``configs/airfields/``) and the user's (the folder ``$FLIGHTSIM_AIRFIELDS`` names) as
:func:`flightsim.simulation.world.load_airfields` reads them; ``--json`` prints one JSON array, an object per
airfield: ``id``, ``name``, ``elevation_ft``, ``lat``, ``lon`` and ``runways``, each with ``id``, ``heading_deg``,
``length_ft``, ``width_ft``, ``surface``, ``threshold_lat``, ``threshold_lon`` (each end's, in the order of the
runway's ``id``) and ``ils`` (an array of ``{end, frequency_mhz, glide_slope_deg}``, or null).
"""

import json

__all__ = ["add_arguments", "run"]

#: ft in a nautical mile
NM = 6076.12


def add_arguments(parser):
    """``flightsim airfields [--json]``."""
    parser.add_argument("--json", action="store_true", help="print one JSON array instead of a table")


def run(args):
    """Print the airfields (a table, or JSON with ``--json``); a bad airfield file is a one-line error."""
    from flightsim.physics import planet as planets
    from flightsim.simulation.world import load_world

    world = load_world()
    fields = list(world.airfields.values())
    if args.json:
        print(json.dumps([f.as_dict() for f in fields], indent=2))
        return 0
    for f in fields:
        x, y = f.position
        print(f"{f.id:<5} {f.name}  {planets.place_text(f.lat, f.lon)}  elevation {f.elevation_ft:g} ft  "
              f"({abs(x) / NM:.1f} nm {'N' if x >= 0 else 'S'}, {abs(y) / NM:.1f} nm {'W' if y >= 0 else 'E'} of "
              "the home runway)")
        for r in f.runways:
            ils = ", ".join(f"ILS {i.end} {i.frequency_mhz:.2f} MHz {i.glide_slope_deg:g}°" for i in r.ils)
            print(f"      runway {r.id:<7} heading {r.heading_deg:05.1f}°  {r.length_ft:.0f} x {r.width_ft:.0f} ft "
                  f"{r.surface}{'  ' + ils if ils else ''}")
        for v in f.vors:
            print(f"      VOR{'/DME' if v.dme else ''} {v.id} {v.name} {v.frequency_mhz:.2f} MHz")
    away = [v for v in world.vors if v.airfield is None]
    if away:
        print("stations away from the airfields:")
        for v in away:
            print(f"      VOR{'/DME' if v.dme else ''} {v.id} {v.name} {v.frequency_mhz:.2f} MHz  "
                  f"{planets.place_text(v.lat, v.lon)}  elevation {v.elevation_ft:g} ft")
    return 0

"""Scenario files: the conditions of a flight kept as data (today: its wind).

A scenario is a small TOML file a user writes and passes with ``--scenario``
to ``flightsim fly`` and ``flightsim simulate``::

    description = "Runway 36, a 15 kt direct crosswind from the right, moderate turbulence"

    [wind]                      # as an aircraft file's [wind] section
    from_deg = 90               # the direction it blows from, degrees true
    speed_kt = 15
    turbulence = "moderate"     # none, light, moderate, severe
    seed = 1
    shear = { kind = "power", height_ft = 1000 }   # optional
    [[wind.gusts]]              # optional (1 − cos) gusts
    start_s = 30
    duration_s = 3
    from_deg = 90
    speed_kt = 10
    up_kt = 0

flightsim ships some (``configs/scenarios/``); ``--scenario crosswind`` finds a
shipped one by name, any other value is a path.  The scenario's wind replaces
the aircraft file's ``[wind]``; wind options on the command line win over both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flightsim.errors import InputError
from flightsim.physics.wind import WindSpec, load_wind_section
from flightsim.resources import data_file
from flightsim.schema import Checker, read_toml

__all__ = ["Scenario", "load_scenario", "shipped_scenarios"]


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario file.

    Attributes
    ----------
    source : pathlib.Path
    description : str
    wind : WindSpec or None
        None when the file has no ``[wind]`` section.
    """

    source: Path
    description: str = ""
    wind: WindSpec | None = None


def shipped_scenarios():
    """Names of the scenarios flightsim ships (``configs/scenarios/*.toml``), sorted."""
    folder = data_file("configs", "scenarios")
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


def _resolve(name_or_path):
    path = Path(name_or_path)
    if path.exists() or path.suffix or len(path.parts) > 1:
        return path
    if str(name_or_path) in shipped_scenarios():
        return data_file("configs", "scenarios", f"{name_or_path}.toml")
    raise InputError(path, "", f"no such file, nor a shipped scenario (shipped: {', '.join(shipped_scenarios())})")


def load_scenario(name_or_path):
    """Load and check a scenario file (a path, or the name of a shipped one).

    Raises
    ------
    flightsim.errors.InputError
        One line naming the file, the field and the reason.
    """
    path = _resolve(name_or_path)
    data = read_toml(path)
    check = Checker(path)
    check.table(data, "", (), ("description", "wind"))
    description = check.string(data["description"], "description") if "description" in data else ""
    wind = load_wind_section(check, data["wind"]) if "wind" in data else None
    return Scenario(source=path, description=description, wind=wind)

"""What a first start says while numba compiles the physics: on stderr, and on the app's splash.

The facts (which parts of the physics are cold in numba's cache for this
aircraft and integrator, what each costs) are
:mod:`flightsim.physics.compile_cache`'s; the words are here, with the
commands that show them.  Imports no numba: it is said before the imports.
"""

from __future__ import annotations

from pathlib import Path

from flightsim.physics.compile_cache import PARTS, probe

__all__ = ["GENERIC", "FirstStart", "first_start"]

#: What is said when something compiles that no part foresaw (another command, a changed cache).
GENERIC = "compiling the physics for this machine \N{EM DASH} first start only"


class FirstStart:
    """What a flight will compile, in words and numbers.

    Attributes
    ----------
    parts : list of str
        The cold parts (:data:`flightsim.physics.compile_cache.PARTS`' names).
    seconds : float
        About how long they take on a 2-core machine (their measured seconds summed).
    compiles : int
        How many functions numba compiles for them (the splash's bar).
    message : str
        The sentence: what is compiled for which aircraft, about how long, first start only.
    sure : bool
        Whether something is surely cold (say it at once), or maybe (say it when numba starts compiling).
    """

    def __init__(self, aircraft, integrator, parts, sure=True):
        self.parts = list(parts)
        self.sure = sure
        self.seconds = sum(PARTS[p][0] for p in self.parts)
        self.compiles = sum(PARTS[p][1] for p in self.parts)
        name = _aircraft_name(aircraft)
        words = {"own": "its loads", "jsbsim": "JSBSim's loads, flight controls and engines",
                 "model": "its own flight model", "piston": "piston engines", "powered": "turboprops",
                 "step": f"the {integrator} step"}
        what = "; ".join(words[p] for p in self.parts)
        self.message = (f"compiling the physics for {name} ({what}) \N{EM DASH} about {max(round(self.seconds), 1)}"
                        " s, first start only")


def _aircraft_name(aircraft):
    """``jsbsim:737`` for a JSBSim aircraft's file, a shipped or other aircraft file's stem, ``bourg`` for none."""
    if aircraft is None:
        return "bourg"
    path = Path(str(aircraft))
    return f"jsbsim:{path.stem}" if path.suffix.lower() == ".xml" else path.stem


def first_start(aircraft=None, integrator="euler"):
    """What flying ``aircraft`` (a path as ``--aircraft`` gives it; None: the book's airplane) with
    ``integrator`` will compile: a :class:`FirstStart`, or None when the cache holds it all."""
    parts, sure = probe(aircraft, integrator)
    return FirstStart(aircraft, integrator, parts, sure) if parts else None

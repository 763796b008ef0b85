"""Whether numba's disk cache holds flightsim's physics yet, found without importing numba (a first start says so
at once, before the imports that take most of a second).

numba keeps a module's compiled functions as ``<module>.<function>-<line>.pyXY.nbi`` index files in
``$NUMBA_CACHE_DIR/<folder>_<sha1 of the folder's path>/`` when that is set, else in the module's
``__pycache__`` folder, else (a folder that cannot be written: a system install) in the user's cache folder under
the same ``<folder>_<sha1>`` name (numba's ``_CacheLocator.get_suitable_cache_subpath``).  The loads of
flightsim's own aircraft (``aero.own_loads``) are compiled by every flight; none of their index files: a cold
cache.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["FIRST_START_COMPILES", "FIRST_START_SECONDS", "MESSAGE", "cold"]

#: Seconds a first ``flightsim fly`` spends compiling the book's airplane and one integrator on a 2-core machine
#: like CI's (measured: README's Performance table); the message says "about" this.
FIRST_START_SECONDS = 7
#: How many functions numba compiles for that first start (measured the same way): the splash's progress bar.
FIRST_START_COMPILES = 41
#: What a first start says (on stderr, and on the app's splash).
MESSAGE = f"compiling the physics for this machine \N{EM DASH} first start only, about {FIRST_START_SECONDS} s"

_PROBE = "aero.own_loads-"


def _user_cache():
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    if sys.platform.startswith("win"):
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def cold():
    """True when no index file of the compiled loads is where numba would look for it: the physics will compile."""
    physics = Path(__file__).resolve().parent
    subpath = f"{physics.name}_{hashlib.sha1(str(physics).encode()).hexdigest()}"
    custom = os.environ.get("NUMBA_CACHE_DIR")
    folders = [Path(custom) / subpath] if custom else [physics / "__pycache__", _user_cache() / "numba" / subpath]
    for folder in folders:
        try:
            if any(name.startswith(_PROBE) and name.endswith(".nbi") for name in os.listdir(folder)):
                return False
        except OSError:
            continue
    return True

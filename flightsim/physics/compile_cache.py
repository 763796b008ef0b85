"""What numba's disk cache holds of flightsim's physics yet, found without importing numba (a first start says so
at once, before the imports that take most of a second): which parts a flight will compile, what each costs.

numba keeps a module's compiled functions as ``<module>.<function>-<line>.pyXY.nbi`` index files (and one
``….pyXY.<k>.nbc`` data file for each of its compiled signatures) in
``$NUMBA_CACHE_DIR/<folder>_<sha1 of the folder's path>/`` when that is set, else in the module's
``__pycache__`` folder, else (a folder that cannot be written: a system install) in the user's cache folder under
the same ``<folder>_<sha1>`` name (numba's ``_CacheLocator.get_suitable_cache_subpath``).  A JSBSim aircraft's
generated flight model (:mod:`flightsim.physics.jsbsim.native`) is a module of its own in
:func:`jsbsim_source_folder`, its code beside it (or under ``$NUMBA_CACHE_DIR``).

The facts only: the words that say it belong to the layer that shows them (``flightsim.commands.first_start``).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

__all__ = ["PARTS", "cold", "cold_parts", "jsbsim_source_folder", "probe", "step_function", "surely_cold"]

#: What a first start compiles, by part: (seconds on a 2-core machine, functions numba compiles, as its
#: ``numba:compile`` events count them).  Measured with empty caches (README's Performance section, the
#: processes' CPU seconds less a warm start's): ``own``, the loads of flightsim's own aircraft (aero, gear);
#: ``jsbsim``, JSBSim's loads, flight controls and turbines, shared by every JSBSim aircraft (with the aero and
#: gear code they share with flightsim's own, compiled for JSBSim's parameters, and the programs' helpers);
#: ``model``, one JSBSim aircraft's generated flight model (numba's ``cfunc`` compiles, which send no events);
#: ``piston`` and ``powered``, the frames and steady states of the first aircraft with a piston engine, and with
#: a turboprop or a turbine driving a propeller (their propellers' code included); ``step``, the flown
#: integrator's step.
PARTS = {"own": (3.5, 22), "jsbsim": (10.5, 62), "model": (2.5, 2), "piston": (3.9, 22), "powered": (3.5, 30),
         "step": (3.0, 17)}
#: Where numba keeps a part's code for each kind of engine (``propulsion``'s callbacks, compiled only for an
#: aircraft that has the kind).
_ENGINE_PROBES = {"piston": "propulsion._piston_frame_c", "powered": "propulsion._powered_frame_c"}

#: The integrators that share one compiled step (with an increment chosen by an argument), by name's start.
_SHARED_STEPS = {"euler": "step_semi_implicit", "exact": "step_semi_implicit", "taylor2": "step_semi_implicit",
                 "bullet": "step_semi_implicit", "rkmk4": "step_rkmk4"}


def step_function(integrator):
    """The name of the compiled step function that ``integrator`` (a name of
    :data:`flightsim.physics.integrators.INTEGRATORS`) flies with; ``tests/test_warmup.py`` holds it to the
    registry's."""
    for start, name in _SHARED_STEPS.items():
        if integrator == start or integrator.startswith(start + "-"):
            return name
    return "step_" + integrator.replace("-", "_")


def _user_cache():
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    if sys.platform.startswith("win"):
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def jsbsim_source_folder():
    """Where a JSBSim aircraft's generated source (and numba's code for it) is kept: ``$FLIGHTSIM_CACHE``, else
    the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, ``%LOCALAPPDATA%`` on Windows) under
    ``flightsim/jsbsim`` (:func:`flightsim.physics.jsbsim.native.writable_cache_folder` falls back where it
    cannot be written)."""
    root = os.environ.get("FLIGHTSIM_CACHE")
    if root:
        return Path(root) / "jsbsim"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "flightsim" / "jsbsim"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "flightsim" / "jsbsim"


def _folders(package):
    """Where numba keeps the code of the modules in ``package`` (a folder), in the order it looks."""
    subpath = f"{package.name}_{hashlib.sha1(str(package).encode()).hexdigest()}"
    custom = os.environ.get("NUMBA_CACHE_DIR")
    return [Path(custom) / subpath] if custom else [package / "__pycache__", _user_cache() / "numba" / subpath]


def _signatures(package, function):
    """How many signatures of ``function`` (``"module.name"``) numba has kept for the modules in ``package``."""
    for folder in _folders(package):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        if any(name.startswith(function + "-") and name.endswith(".nbi") for name in names):
            return sum(name.startswith(function + "-") and name.endswith(".nbc") for name in names)
    return 0


def _model_cached(label):
    """Whether numba has code for a generated flight model of the aircraft ``label`` (any version of it)."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    folders = list(Path(custom).glob("jsbsim_*")) if custom else [jsbsim_source_folder() / "__pycache__"]
    stem = "".join(c if c.isalnum() else "_" for c in label) + "_"
    for folder in folders:
        try:
            if any(name.startswith(stem) and name.endswith(".nbi") for name in os.listdir(folder)):
                return True
        except OSError:
            continue
    return False


def probe(aircraft=None, integrator="euler"):
    """``(parts, sure)``: :func:`cold_parts` and :func:`surely_cold` from one look at the cache."""
    physics = Path(__file__).resolve().parent
    jsbsim_warm = _signatures(physics / "jsbsim", "loads.jsbsim_loads") > 0
    # (a JSBSim aircraft's flight compiles aero.own_loads for its parameters too: one signature is JSBSim's then)
    own_warm = _signatures(physics, "aero.own_loads") > int(jsbsim_warm)
    is_jsbsim = aircraft is not None and str(aircraft).lower().endswith(".xml")
    parts = []
    if is_jsbsim:
        if not jsbsim_warm:
            parts.append("jsbsim")
        if not _model_cached(Path(aircraft).stem):
            parts.append("model")
        parts += [kind for kind in sorted(_engine_kinds(aircraft))
                  if _signatures(physics / "jsbsim", _ENGINE_PROBES[kind]) == 0]
    elif not own_warm:
        parts.append("own")
    steps = _signatures(physics, f"step_entries.step_fields__{step_function(integrator)}")
    step_sure = steps == 0 or bool(set(parts) & {"own", "jsbsim"})      # (its loads compile: so does the step)
    sure = bool(parts)          # (a step alone is said when numba starts: the integrator's name is not checked yet)
    if step_sure or steps < int(jsbsim_warm) + int(own_warm):
        parts.append("step")
    return sorted(parts, key=list(PARTS).index), sure


def _engine_kinds(aircraft):
    """The kinds of engine in :data:`_ENGINE_PROBES` that a JSBSim aircraft's file names, read as text (not
    parsed): ``piston`` for a ``<piston_engine>``, ``powered`` for a ``<turboprop_engine>`` or a
    ``<turbine_engine>`` whose thruster is a ``<propeller>``.  Files looked for where the loader looks: the
    aircraft's ``Engines`` and ``engine`` folders, then the jsbsim package's ``engine`` folder."""
    from flightsim.errors import InputError
    from flightsim.physics.jsbsim.xmlfile import package_root  # (no numba: found without importing jsbsim)

    path = Path(aircraft)
    folders = [path.parent / "Engines", path.parent / "engine"]
    try:
        folders.append(package_root() / "engine")
    except InputError:                               # (no jsbsim package: the aircraft's own folders only)
        pass

    def root_tag(name):
        for folder in folders:
            try:
                text = (folder / f"{name}.xml").read_text(errors="replace")
            except OSError:
                continue
            found = re.search(r"<(piston_engine|turboprop_engine|turbine_engine|rocket_engine|electric_engine|"
                              r"propeller|nozzle|direct)\b", text)
            return found.group(1) if found else None
        return None

    try:
        text = path.read_text(errors="replace")
    except OSError:
        return set()
    kinds = set()
    for engine, body in re.findall(r"<engine\b[^>]*\bfile=\"([^\"]+)\"[^>]*>(.*?)</engine>", text, re.DOTALL):
        tag = root_tag(engine)
        thruster = re.search(r"<thruster\b[^>]*\bfile=\"([^\"]+)\"", body)
        if tag == "piston_engine":
            kinds.add("piston")
        elif tag == "turboprop_engine" or (tag == "turbine_engine" and thruster is not None
                                             and root_tag(thruster.group(1)) == "propeller"):
            kinds.add("powered")
    return kinds


def cold_parts(aircraft=None, integrator="euler"):
    """The parts of :data:`PARTS` a flight of ``aircraft`` (a path, ``.xml`` a JSBSim aircraft's; None: the
    book's airplane) with ``integrator`` will compile: a list of names, in :data:`PARTS`' order (empty: all in
    the cache).

    A part is cold when none of its index files is where numba would look: ``loads.jsbsim_loads`` (JSBSim's),
    the aircraft's generated model, the callbacks of its kinds of engine (:func:`_engine_kinds`),
    ``step_entries.step_fields__<step>``.  ``aero.own_loads`` and the step are compiled for either kind of
    aircraft's parameters, a signature each: flightsim's own loads are cold while ``aero.own_loads`` has no
    signature but JSBSim's, and the step is counted cold while it has fewer signatures than the kinds of loads
    compiled (an estimate: numba's files do not say which signature is whose; :func:`surely_cold` says whether
    it is sure)."""
    return probe(aircraft, integrator)[0]


def surely_cold(aircraft=None, integrator="euler"):
    """True when a part of :func:`cold_parts` other than the step is cold: the aircraft's loads, its model or its
    kinds of engine.  (A step alone may not compile: one compiled for the other kind of aircraft only may or may
    not be this one's, and the integrator's name is checked after this; a first start then says so when numba
    starts compiling, not before.)"""
    return probe(aircraft, integrator)[1]


def cold(aircraft=None, integrator="euler"):
    """True when a flight of ``aircraft`` with ``integrator`` is expected to compile something
    (:func:`cold_parts`)."""
    return bool(cold_parts(aircraft, integrator))

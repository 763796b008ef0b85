"""JSBSim's XML files: where the ``jsbsim`` package keeps them, read with includes and units.

JSBSim (``FGXMLElement``, ``FGModelLoader``) lets an aircraft file take a
section from another file (``<system file="…"/>``, ``<aerodynamics
file="…"/>``) and gives each number its unit in a ``unit=`` attribute.  This
module does the same for the sections flightsim reads, and says which file
and element a bad or unknown value came from.
"""

from __future__ import annotations

import importlib.util
import math
import xml.etree.ElementTree as ET
from pathlib import Path

from flightsim.errors import InputError

__all__ = ["CONVERT", "PREFIX", "JSBSimFile", "LinedXML", "aircraft_names", "aircraft_path", "package_root"]

#: ``--aircraft`` names of this form are JSBSim's aircraft (``jsbsim:c172p``).
PREFIX = "jsbsim:"

_M_FT = 3.2808399
_RAD_DEG = 180.0 / math.pi

#: Unit conversions to the unit flightsim computes in, by the unit JSBSim's files name, with JSBSim's own
#: factors (``FGXMLElement``'s table): lengths to ft or in (see :meth:`JSBSimFile.number`), areas to ft²,
#: angles to rad, masses to lb (weight) or slug·ft² (inertia), forces to lbf, speeds to ft/s.
CONVERT = {
    "FT": ("FT", 1.0), "IN": ("FT", 1.0 / 12.0), "M": ("FT", _M_FT), "CM": ("FT", 0.032808399),
    "KM": ("FT", 3280.8399),
    "FT2": ("FT2", 1.0), "M2": ("FT2", _M_FT * _M_FT), "IN2": ("FT2", 1.0 / 144.0),
    "RAD": ("RAD", 1.0), "DEG": ("RAD", 1.0 / _RAD_DEG),
    "RAD/SEC": ("RAD/SEC", 1.0), "DEG/SEC": ("RAD/SEC", 1.0 / _RAD_DEG),
    "LBS": ("LBS", 1.0), "KG": ("LBS", 1.0 / 0.45359237),
    # a mass in slugs (JSBSim's check-case brick gives its emptywt so): JSBSim's SLUG -> LBS, SLUG -> KG / LBS -> KG
    "SLUG": ("LBS", 14.59390 / 0.45359237),
    "SLUG*FT2": ("SLUG*FT2", 1.0), "KG*M2": ("SLUG*FT2", 1.0 / 1.35594),
    "N": ("LBS", 0.22482),
    "FT/SEC": ("FT/SEC", 1.0), "FT/S": ("FT/SEC", 1.0), "KTS": ("FT/SEC", 1.6878098571),
    "M/S": ("FT/SEC", _M_FT), "M/SEC": ("FT/SEC", _M_FT),
    "LBS/FT": ("LBS/FT", 1.0), "N/M": ("LBS/FT", 1.0 / 14.5939),
    "LBS/FT/SEC": ("LBS/FT/SEC", 1.0), "N/M/SEC": ("LBS/FT/SEC", 1.0 / 14.5939),
    "FT3/SEC2": ("FT3/SEC2", 1.0), "M3/SEC2": ("FT3/SEC2", 35.3146667), "KM/SEC": ("FT/SEC", 3280.8399),
    # a gas cell's overpressure and valve (FGGasCell), JSBSim's factors computed as it computes them
    "LBS/FT2": ("LBS/FT2", 1.0), "PA": ("LBS/FT2", 1.0 / (14.5939 / (1.0 / _M_FT))),
    "N/M2": ("LBS/FT2", 1.0 / (14.5939 / (1.0 / _M_FT))),
    "FT4*SEC/SLUG": ("FT4*SEC/SLUG", 1.0),
    "M4*SEC/KG": ("FT4*SEC/SLUG", _M_FT * _M_FT * _M_FT * _M_FT / (1.0 / 14.59390)),
}
#: Lengths in the structural frame (locations) are kept in inches, as JSBSim keeps them.
_TO_INCHES = {"IN": 1.0, "FT": 12.0, "M": _M_FT * 12.0, "CM": 0.032808399 * 12.0, "KM": 3280.8399 * 12.0}


def package_root() -> Path:
    """The folder of the installed ``jsbsim`` package's data (``aircraft/``, ``engine/``, ``systems/``).

    Found by the import system without importing the package: ``import jsbsim`` loads JSBSim's C++ extension,
    which flying an aircraft does not need (only :mod:`flightsim.verify` runs JSBSim).  The package keeps its
    data in its own folder, the one its ``get_default_root_dir()`` gives (``tests/test_layers.py`` checks that
    they agree).
    """
    spec = importlib.util.find_spec("jsbsim")
    if spec is None or not spec.submodule_search_locations:     # pragma: no cover - jsbsim is a dependency
        raise InputError("jsbsim", "", "the jsbsim package is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def aircraft_names() -> list[str]:
    """The aircraft the ``jsbsim`` package ships: each folder of ``aircraft/`` with its ``NAME/NAME.xml``."""
    folder = package_root() / "aircraft"
    return sorted(p.name for p in folder.iterdir() if (p / f"{p.name}.xml").is_file())


def aircraft_path(name: str) -> Path:
    """The XML file of the JSBSim aircraft ``name`` (``jsbsim:NAME`` or ``NAME``), or a path to one.

    Raises
    ------
    InputError
        Neither a shipped aircraft nor an existing file; the message lists the shipped ones.
    """
    bare = name[len(PREFIX):] if name.startswith(PREFIX) else name
    path = package_root() / "aircraft" / bare / f"{bare}.xml"
    if path.is_file():
        return path
    if Path(name).suffix.lower() == ".xml" and Path(name).is_file():
        return Path(name)
    raise InputError(name, "", f"no such JSBSim aircraft; the jsbsim package ships {', '.join(aircraft_names())}")


class JSBSimFile:
    """One aircraft's XML, its sections read as JSBSim reads them.

    Parameters
    ----------
    path : path-like
        The aircraft file (``…/aircraft/NAME/NAME.xml``).

    Attributes
    ----------
    path : Path
    root : xml.etree.ElementTree.Element
        ``<fdm_config>``.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.root = self.parse(self.path)
        if self.root.tag != "fdm_config":
            raise InputError(self.path, self.root.tag, "not a JSBSim aircraft file (its root is not <fdm_config>)")

    @staticmethod
    def parse(path):
        """The root element of the XML file ``path``; ``InputError`` naming it when it cannot be read."""
        try:
            return ET.parse(path).getroot()
        except ET.ParseError as exc:
            raise InputError(path, "", f"not well-formed XML: {exc}") from None
        except OSError as exc:
            raise InputError(path, "", exc.strerror or str(exc)) from None

    def section(self, tag, required=True):
        """The top-level element ``tag``, read from its ``file=`` when it names one (as ``FGModelLoader``)."""
        el = self.root.find(tag)
        if el is None:
            if required:
                raise InputError(self.path, tag, "required element is missing")
            return None
        name = el.get("file")
        if not name:
            return el
        return self.included(name, (self.path.parent, self.path.parent / "Systems", self.path.parent / "systems"),
                             f"{tag} file={name!r}", "the file it names is not found beside the aircraft")

    def included(self, name, folders, where, missing):
        """The root element of the file ``name`` (``.xml`` added when it has none) from the first of ``folders``
        that holds it; ``InputError(where, missing)`` when none does."""
        for folder in folders:
            candidate = folder / (name if name.endswith(".xml") else name + ".xml")
            if candidate.is_file():
                return self.parse(candidate)
        raise InputError(self.path, where, missing)

    def where(self, el):
        """A short name of element ``el`` for a message: its tag and its ``name`` attribute."""
        name = el.get("name")
        return f"<{el.tag} name={name!r}>" if name else f"<{el.tag}>"

    def number(self, el, what, unit=None):
        """The number in element ``el`` converted by its ``unit=`` attribute (to ft, ft², rad, lb, ...).

        ``unit`` is the unit flightsim wants (``"FT"``, ``"FT2"``, ``"RAD"``, ``"LBS"``, ``"SLUG*FT2"``, ...);
        None takes the number as it is.  ``what`` names the element in an error.
        """
        if el is None:
            raise InputError(self.path, what, "required element is missing")
        value = self.parse_number(el.text, what)
        given = el.get("unit")
        if unit is None or given is None:
            return value
        target, factor = CONVERT.get(given.upper(), (None, None))
        if target != unit:
            raise InputError(self.path, what, f"unit {given!r} cannot be converted to {unit}")
        return value * factor

    def child_number(self, parent, tag, unit, where, default=None):
        """The number in ``parent``'s child ``tag`` (:meth:`number`; ``where/tag`` in an error), or ``default``
        when there is no such child (None: the child is required)."""
        child = parent.find(tag)
        if child is None and default is not None:
            return default
        return self.number(child, f"{where}/{tag}", unit)

    def parse_number(self, text, what):
        """``text`` as a finite float; ``InputError`` naming ``what`` otherwise."""
        try:
            value = float((text or "").strip())
        except ValueError:
            raise InputError(self.path, what, f"not a number: {(text or '').strip()!r}") from None
        if not math.isfinite(value):
            raise InputError(self.path, what, f"not a finite number: {value!r}")
        return value

    def location(self, el, what):
        """A ``<location>`` element as ``(x, y, z)`` in the structural frame, inches (x aft, y right, z up)."""
        if el is None:
            raise InputError(self.path, what, "required element is missing")
        unit = (el.get("unit") or "IN").upper()
        if unit not in _TO_INCHES:
            raise InputError(self.path, what, f"unit {unit!r} is not a length")
        scale = _TO_INCHES[unit]
        out = []
        for axis in "xyz":
            child = el.find(axis)
            out.append(0.0 if child is None else self.number(child, f"{what}/{axis}") * scale)
        return tuple(out)


class LinedXML:
    """An XML file read into ElementTree elements that remember the line each starts on (ElementTree keeps
    none): what a message about a script's element names.

    Parameters
    ----------
    path : path-like

    Attributes
    ----------
    path : Path
    root : xml.etree.ElementTree.Element

    Raises
    ------
    InputError
        The file cannot be read or is not well-formed XML (naming the line).
    """

    def __init__(self, path):
        import xml.parsers.expat as expat

        self.path = Path(path)
        self._lines = {}
        builder = ET.TreeBuilder()
        parser = expat.ParserCreate()

        def start(tag, attrs):
            self._lines[id(builder.start(tag, attrs))] = parser.CurrentLineNumber

        parser.StartElementHandler = start
        parser.EndElementHandler = builder.end
        parser.CharacterDataHandler = builder.data
        parser.buffer_text = True
        try:
            with open(self.path, "rb") as f:
                parser.ParseFile(f)
        except expat.ExpatError as exc:
            raise InputError(self.path, f"line {exc.lineno}", f"not well-formed XML: "
                             f"{expat.ErrorString(exc.code)}") from None
        except OSError as exc:
            raise InputError(self.path, "", exc.strerror or str(exc)) from None
        self.root = builder.close()

    def line(self, el):
        """The line element ``el`` starts on (0: unknown)."""
        return self._lines.get(id(el), 0)

    def where(self, el, what=""):
        """``<tag> (line N)``, or ``<tag> WHAT (line N)``: an element named in a message."""
        return f"<{el.tag}>{' ' + what if what else ''} (line {self.line(el)})"

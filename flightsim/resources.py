"""Files shipped with flightsim: the bundled aircraft, keymap and airplane models.

The top-level ``configs/`` and ``assets/`` folders of the source tree are
installed as the (namespace) packages ``flightsim.configs`` and
``flightsim.assets`` (see ``pyproject.toml``), so an installed flightsim finds
them through the import system wherever it is run from.
"""

import importlib.util
from pathlib import Path

from flightsim.errors import InputError
from flightsim.schema import did_you_mean


def data_file(folder, *parts):
    """Path of a shipped file, e.g. ``data_file("configs", "bourg.toml")``.

    Parameters
    ----------
    folder : {"configs", "assets"}
        The shipped folder.
    *parts : str
        Path components below it.

    Returns
    -------
    pathlib.Path
    """
    spec = importlib.util.find_spec(f"flightsim.{folder}")
    if spec is not None and spec.submodule_search_locations:
        root = Path(list(spec.submodule_search_locations)[0])
    else:  # a source tree run in place (or installed in editable mode): the folder beside the package
        root = Path(__file__).resolve().parent.parent / folder
    return root.joinpath(*parts)


def shipped_aircraft():
    """The aircraft files shipped in ``configs/``: ``{name: path}``, the name being the file's stem (``c172``)."""
    return {p.stem: p for p in sorted(data_file("configs").glob("*.toml")) if p.stem != "keymap"}


def aircraft_path(text):
    """The aircraft file that ``text`` names: a shipped aircraft by name (``"c172"``), one of the ``jsbsim``
    package's by ``jsbsim:NAME`` (its ``.xml``), or a path.

    A name is a word with no folder and no suffix; anything else is a path
    (checked when it is read; a ``.xml`` is read as a JSBSim aircraft).

    Raises
    ------
    flightsim.errors.InputError
        ``text`` is neither an existing file nor a shipped aircraft's name; the
        message lists the shipped names.
    """
    text = str(text)
    if text.startswith("jsbsim:"):
        from flightsim.physics.jsbsim.xmlfile import aircraft_path as jsbsim_aircraft

        return jsbsim_aircraft(text)
    names = shipped_aircraft()
    if text in names:
        return names[text]
    path = Path(text).expanduser()
    if path.exists() or path.suffix or "/" in text or "\\" in text:
        return path
    raise InputError(text, "", f"no such aircraft: not a file, nor a shipped aircraft (shipped: {', '.join(names)})"
                     + did_you_mean(text, names))

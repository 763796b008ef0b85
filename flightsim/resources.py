"""Files shipped with flightsim: the bundled aircraft, keymap and airplane models.

The top-level ``configs/`` and ``assets/`` folders of the source tree are
installed as the (namespace) packages ``flightsim.configs`` and
``flightsim.assets`` (see ``pyproject.toml``), so an installed flightsim finds
them through the import system wherever it is run from.
"""

import importlib.util
from pathlib import Path


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

"""Command layer: the ``flightsim`` command line and one module per subcommand.

:mod:`~flightsim.commands.cli` builds the argparse parser and turns every
input error into one line and exit code 2; :mod:`~flightsim.commands.options`
holds what the subcommands share (number and size parsing, output path
checks, the flag behind a simulation argument).  ``fly``, ``replay`` and
``spin`` import the app (pyglet, OpenGL) only when they run.
"""

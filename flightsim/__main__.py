"""``python -m flightsim`` runs the command line."""

from flightsim.commands.cli import main

raise SystemExit(main())

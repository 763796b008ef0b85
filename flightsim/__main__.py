"""``python -m flightsim`` runs the command line."""

from flightsim.cli import main

raise SystemExit(main())

"""Public name of :mod:`flightsim.physics.integrators` (the same module object, kept for users' scripts)."""

import sys

from flightsim.physics import integrators as _module

sys.modules[__name__] = _module

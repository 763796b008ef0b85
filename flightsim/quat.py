"""Public name of :mod:`flightsim.math.quat` (the same module object, kept for users' scripts)."""

import sys

from flightsim.math import quat as _module

sys.modules[__name__] = _module

"""Public name of :mod:`flightsim.math.kernels` (the same module object, kept for users' scripts)."""

import sys

from flightsim.math import kernels as _module

sys.modules[__name__] = _module

"""Public name of :mod:`flightsim.physics.rigidbody` (the same module object, kept for users' scripts)."""

import sys

from flightsim.physics import rigidbody as _module

sys.modules[__name__] = _module

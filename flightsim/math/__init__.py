"""Math layer: quaternion algebra and orientation increments (imports nothing else of flightsim).

* :mod:`~flightsim.math.quat` - quaternions ``[w, x, y, z]``, single or batch;
  Bourg's Euler-angle conversion; hemisphere-checked nlerp.
* :mod:`~flightsim.math.kernels` - every compiled scalar formula the physics
  needs (the seed's increments, QVRotate, quaternion ↔ matrix) and the batch
  kernels :data:`~flightsim.math.kernels.KERNELS`.
* :mod:`~flightsim.math.compiler` - how flightsim compiles with numba: the
  decorators, inner functions without numba's wrappers and their twins, and
  generated source compiled at its caller's file and line (the numba contract
  ``tests/test_numba_contract.py`` checks).
"""

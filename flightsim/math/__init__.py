"""Math layer: quaternion algebra and orientation increments (imports nothing else of flightsim).

* :mod:`~flightsim.math.quat` - quaternions ``[w, x, y, z]``, single or batch;
  Bourg's Euler-angle conversion; hemisphere-checked nlerp.
* :mod:`~flightsim.math.kernels` - every compiled scalar formula the physics
  needs (the seed's increments, QVRotate, quaternion ↔ matrix) and the batch
  kernels :data:`~flightsim.math.kernels.KERNELS`.
"""

"""Physics layer: rigid-body stepping and the airplane's loads (no simulation loop, no drawing).

* :mod:`~flightsim.physics.integrators` - the integrator registry
  :data:`~flightsim.physics.integrators.INTEGRATORS` and the compiled steps;
* :mod:`~flightsim.physics.rigidbody` - :func:`~flightsim.physics.rigidbody.propagate`
  for a free or torqued body;
* :mod:`~flightsim.physics.aircraft` - the airplane as validated TOML data with
  its mass properties;
* :mod:`~flightsim.physics.aero` - body-frame loads of the aerodynamic elements;
* :mod:`~flightsim.physics.top` - the torque-free rigid body in closed form
  (:class:`~flightsim.physics.top.FreeTop`), the exact reference for spinning bodies.
"""

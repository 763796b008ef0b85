"""Physics layer: rigid-body stepping and the airplane's loads (no simulation loop, no drawing).

* :mod:`~flightsim.physics.constants` - the physical constants, with units and sources;
* :mod:`~flightsim.physics.steps` - the compiled step functions and their numbered dispatch;
  :mod:`~flightsim.physics.step_entries` - how Python runs them (compiled entries, the Python re-make);
  :mod:`~flightsim.physics.integrators` - the integrator registry
  :data:`~flightsim.physics.integrators.INTEGRATORS`;
* :mod:`~flightsim.physics.divergence` - how a step says it diverged (one signal, one message);
* :mod:`~flightsim.physics.rigidbody` - :func:`~flightsim.physics.rigidbody.propagate`
  for a free or torqued body;
* :mod:`~flightsim.physics.aircraft` - the airplane as data (frozen dataclasses);
  :mod:`~flightsim.physics.aircraft_file` reads and validates a TOML file into it,
  with its mass properties;
* :mod:`~flightsim.physics.inputs` - the layout of the loads' controls array;
* :mod:`~flightsim.physics.aero` - body-frame loads of the aerodynamic elements and the engine;
* :mod:`~flightsim.physics.gear` - the landing gear's contact loads;
* :mod:`~flightsim.physics.ground` - the ground after a step: touchdown, first contact, crash;
* :mod:`~flightsim.physics.wind`, :mod:`~flightsim.physics.batch_wind` - wind, shear,
  Dryden turbulence and gusts;
* :mod:`~flightsim.physics.trim`, :mod:`~flightsim.physics.modes`,
  :mod:`~flightsim.physics.stability` - trim, linearisation and dynamic modes, stability regions;
* :mod:`~flightsim.physics.top` - the torque-free rigid body in closed form
  (:class:`~flightsim.physics.top.FreeTop`), the exact reference for spinning bodies.
"""

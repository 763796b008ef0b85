"""flightsim: an interactive 3D flight-dynamics simulator that shows its numerics.

Layers, each importing only the ones before it::

    quat, kernels            quaternion algebra and orientation increments
    integrators, rigidbody   rotational (and full rigid-body) time stepping
    aircraft, aero           the airplane as data and its body-frame loads
    simulation               fixed-timestep flight simulation, ground, controls
    cli                      command line
    app                      window, renderer, HUD, input (the only layer that imports pyglet/OpenGL)
"""

__version__ = "0.1.0"

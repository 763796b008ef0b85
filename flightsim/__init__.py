"""flightsim: an interactive 3D flight-dynamics simulator that shows its numerics.

Layers, each importing only the ones above it (arrows point one way)::

    math/         quat, kernels                    quaternion algebra, orientation increments
    physics/      integrators, rigidbody,          rigid-body stepping, the airplane as data,
                  aircraft, aero                   its body-frame loads
    simulation/   flight, controls, trace, ghost,  the fixed-timestep flight and what is built on it
                  replay, lab
    app/          window, renderer, HUD, input     the only layer that imports pyglet/OpenGL
    commands/     cli and one module a command     the ``flightsim`` command line

Public API, for users' scripts: :mod:`flightsim.quat`, :mod:`flightsim.kernels`
(``KERNELS``), :mod:`flightsim.integrators` (``INTEGRATORS``),
:mod:`flightsim.rigidbody` (``propagate``) and :mod:`flightsim.simulation`
(``Simulation``).  The first four are the modules of the math and physics
layers under their short names.
"""

__version__ = "0.1.0"

"""The desktop app: the only part of flightsim that imports pyglet and OpenGL.

Grouped by what it is (each sub-package's docstring says what it owns and may
import; ``tests/test_layers.py`` holds them to it):

* ``scene/`` - the world: geometry and images as numpy arrays, the airplane
  model, the cameras, the graphics quality levels, the shaders and the scene
  renderer, the spin scene;
* ``hud/`` - the panels: the HUD's view of a frame and the commands a panel
  may issue, the instruments, the panels, the imgui layer and its renderer,
  histories, frame statistics;
* ``input/`` - the pilot's hands: key bindings (TOML), keyboard and gamepad
  to smooth controls;
* ``audio/`` - the sound synthesised from the flight and where it goes;

and the apps themselves, beside them:

* ``window`` - pyglet configuration (X or EGL headless) and an OpenGL 3.3
  core window, with one-line errors when that is impossible;
* ``frame_loop`` - the loop both apps run;
* ``app`` - the flight app (``flightsim fly``): the frame over a flight source
  (a live simulation or the replay of a trace, told apart by their
  capabilities), and its companions: ``cockpit`` (the switches: ghost,
  recording, sound, autopilot, trim, aircraft), ``hud_bridge`` (what the HUD
  reads and may ask), ``poses`` (what the renderer is given for the airplane
  and its ghost), ``ghost_companion``, ``dynamics_companion``, ``recorder``;
* ``spin_app`` - ``flightsim spin``: a torque-free body, its ghost and their
  angular momenta drawn in space, and its Numerics panel.

Nothing here is imported by the physics packages.
"""

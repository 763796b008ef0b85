"""The desktop app: the only part of flightsim that imports pyglet and OpenGL.

Modules, roughly in dependency order:

* ``meshes``, ``airplane_model``, ``ground``, ``scenery``, ``textures`` -
  geometry and images as numpy arrays (no OpenGL): the airplane derived
  from the aircraft's element layout, the field patchwork, the airfield;
* ``camera`` - chase, cockpit, orbit and tower cameras (pyrr matrices);
* ``keymap``, ``pilot``, ``history``, ``recorder`` - key bindings (TOML),
  keyboard and gamepad to smooth controls, telemetry ring buffer, recording
  every physics step to a trace CSV;
* ``window`` - pyglet configuration (X or EGL headless) and an OpenGL 3.3
  core window, with one-line errors when that is impossible;
* ``shaders``, ``renderer`` - GLSL and the scene renderer (pyglet shader API);
* ``gui``, ``hud`` - imgui/implot layer and the head-up display;
* ``app`` - the frame loop (with the ghost airplane, recording, and replay
  of a trace instead of a simulation); ``fly_command`` - ``flightsim fly``;
  ``replay_command`` - ``flightsim replay``.

Nothing here is imported by the physics packages.
"""

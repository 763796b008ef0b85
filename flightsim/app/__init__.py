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
* ``quality`` - the graphics quality levels (``--quality``) and ``auto``'s choice;
* ``shaders``, ``renderer`` - GLSL and the scene renderer (pyglet shader API);
* ``frame_stats``, ``ghost_companion`` - frame timings; the ghost airplane
  beside a live flight, its settings and its difference chart;
* ``imgui_renderer``, ``gui`` - imgui's pyglet backend drawn through pyglet's
  GL (input, textures, its shader); the imgui/implot layer over it;
* ``hud_view``, ``instruments``, ``panels``, ``hud`` - the head-up display:
  the frame's read-only view of the flight and the commands a panel may
  issue, the drawn instruments, the panels (one function each, registered
  in ``panels.PANELS``), and the HUD's own state that runs them;
* ``app`` - the frame loop over a flight source (a live simulation or the
  replay of a trace, told apart by their capabilities), with the ghost
  airplane and recording;
* ``spin_scene``, ``spin_app`` - ``flightsim spin``: a torque-free body, its
  ghost and their angular momenta drawn in space (the lit shader and meshes
  above), and its frame loop and Numerics panel.

Nothing here is imported by the physics packages.
"""

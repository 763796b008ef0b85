"""The panels over the world: the HUD's state and its view of the app, the panels and the instruments drawn
with imgui, the imgui layer and its OpenGL renderer, the strip charts' histories and the frame statistics.

It owns what a pilot reads and clicks.  It may import the math, the physics, the simulation, the camera modes
of :mod:`flightsim.app.scene.camera` (the camera buttons) and the keymap and flap notches of
:mod:`flightsim.app.input` (what the key help and the panels say); not the renderer, the sound or the apps.
"""

"""The world on the screen: the OpenGL renderer and its shaders and textures, the meshes, the scenery, the
ground and the windsock, the airplane's model (from its file or its elements), the cameras and the graphics
quality, and the spin app's scene.

It owns the drawing of the world.  It may import the math, the physics and the simulation (to read a flight),
and OpenGL through pyglet; not the HUD (:mod:`flightsim.app.hud`), the pilot's input
(:mod:`flightsim.app.input`), the sound (:mod:`flightsim.app.audio`) or the apps.
"""

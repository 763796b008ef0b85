"""The pilot's hands: the keyboard map (``configs/keymap.toml``, with its ``[[joystick]]`` tables) and the pilot,
keys, game controllers and joysticks (sticks, yokes, pedals, throttle quadrants, their calibration) turned into the
airplane's controls.

It owns the input.  It may import the simulation's controls; nothing else of the app.
"""

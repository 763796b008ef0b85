"""The pilot's hands: the keyboard map (``configs/keymap.toml``) and the pilot, keys and game controllers
turned into the airplane's controls.

It owns the input.  It may import the simulation's controls; nothing else of the app.
"""

"""``flightsim devices``: the joysticks and game controllers plugged in, their axes and buttons, live.

To find out which axis of a stick, a yoke or pedals is which before writing
the keymap's ``[[joystick]]`` tables: each device with its axes (pyglet's
names, −1..1) and its buttons (numbers, the pressed ones marked), and the
keymap table that would take it.  ``--watch`` prints a line for each device
whenever one of its values moves, until Ctrl-C (or ``--seconds``).  On a
machine with no device it says so and exits 0.  On Linux pyglet reads input
devices only with an X display.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``devices`` arguments to ``parser``."""
    parser.add_argument("--watch", action="store_true", help="print each device's values as they move (Ctrl-C ends)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="with --watch, stop after S seconds")
    parser.add_argument("--keymap", metavar="FILE", help="a keymap TOML: say which of its [[joystick]] tables "
                                                         "takes each device (default: the shipped keymap)")


def describe(joystick, bindings):
    """One line: the device's name, the keymap table that takes it, its axes and buttons."""
    from flightsim.app.input.joystick import axis_readings

    name = getattr(joystick.device, "name", None) or "joystick"
    binding = next((b for b in bindings if b.matches(name)), None)
    taken = (f"keymap {binding.where} (device = {binding.device!r})" if binding is not None
             else "no keymap table takes it")
    axes = "  ".join(f"{axis} {value:+.2f}" for axis, value in axis_readings(joystick).items()) or "none"
    pressed = [str(k) for k, down in enumerate(joystick.buttons) if down]
    buttons = f"{len(joystick.buttons)} (pressed: {' '.join(pressed) or '-'})"
    return f"{name}: axes {axes}; buttons {buttons}; {taken}"


def _controllers():
    try:
        import pyglet.input

        return list(pyglet.input.get_controllers())
    except Exception:
        return []


def run(args) -> int:
    """List the devices (and watch them); exit 0."""
    if args.seconds is not None and not args.seconds > 0:
        from flightsim.commands.options import EXIT_USAGE

        print("flightsim: error: --seconds: must be > 0", file=sys.stderr)
        return EXIT_USAGE
    from flightsim.app.window import configure_pyglet

    configure_pyglet(headless=not os.environ.get("DISPLAY") and sys.platform.startswith("linux"))
    from flightsim.app.input.joystick import _CANNOT_LOOK, find_joysticks
    from flightsim.app.input.keymap import load_keymap

    bindings = load_keymap(args.keymap).joysticks
    joysticks, controllers = find_joysticks(), _controllers()
    if not joysticks and not controllers:
        why = f" (pyglet cannot look for input devices here: {_CANNOT_LOOK[0]})" if _CANNOT_LOOK else ""
        print(f"no joysticks or game controllers found{why}")
        return 0
    for js in joysticks:
        try:
            js.open()
        except Exception:
            pass
    print(f"joysticks ({len(joysticks)}):")
    for js in joysticks:
        print(f"  {describe(js, bindings)}")
    if controllers:
        print(f"game controllers ({len(controllers)}), flown with the keymap's [gamepad] layout:")
        for c in controllers:
            print(f"  {c.name}")
    if args.watch:
        _watch(joysticks, bindings, args.seconds)
    return 0


def _watch(joysticks, bindings, seconds):
    import pyglet

    end = None if seconds is None else time.monotonic() + seconds
    last = {}
    while end is None or time.monotonic() < end:
        pyglet.app.platform_event_loop.step(0.1)       # the devices' events (pyglet reads them in its loop)
        for js in joysticks:
            line = describe(js, bindings)
            if last.get(id(js)) != line:
                print(f"  {line}", flush=True)
                last[id(js)] = line
        if end is None:
            continue
        time.sleep(max(0.0, min(0.1, end - time.monotonic())))

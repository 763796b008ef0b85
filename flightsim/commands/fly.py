"""``flightsim fly``: open the window and fly (also ``flightsim`` with no arguments).

Options parse here without importing pyglet or imgui, so other subcommands
stay quick; :func:`run` imports them.  Exit codes: 0 after a normal flight
or capture, 2 for bad input (``flightsim: error: ...``) or when there is no
display or no OpenGL 3.3 (one line saying what is missing and what to do).

The window options (size, camera, capture, keymap, model, ...) are shared with
``flightsim replay`` (:func:`add_window_arguments`, :func:`open_app`).
"""

from __future__ import annotations

import argparse
import sys

from flightsim.commands.options import (
    add_aircraft_argument,
    add_atmosphere_argument,
    add_failures_argument,
    add_planet_arguments,
    add_terrain_argument,
    autopilot_spec,
    check_airfield_options,
    failures_option,
    number,
    output_file,
    output_folder,
    planet_options,
    seconds,
    terrain_option,
    window_size,
    write_error,
)
from flightsim.commands.trim import add_start_arguments, start_from_args
from flightsim.commands.wind import add_wind_arguments, wind_from_args
from flightsim.errors import InputError

__all__ = ["add_arguments", "add_capture_arguments", "add_window_arguments", "check_window_args", "open_app", "run"]

EXIT_USAGE = 2
DEFAULT_SIZE = "1280x720"
CAPTURE_FRAMES = 60
CAMERAS = ("chase", "cockpit", "orbit", "tower")
QUALITIES = ("auto", "low", "medium", "high")     # as flightsim.app.scene.quality.QUALITY_CHOICES (no GUI yet)
MAX_GHOST_SUBSTEPS = 64          # as flightsim.app.app.MAX_GHOST_SUBSTEPS (not imported: no GUI at parse time)


def add_capture_arguments(parser: argparse.ArgumentParser) -> None:
    """The window's size and its capture: ``--size --fullscreen --screenshot --frames --headless --msaa``
    (every command that opens a window; :func:`check_window_args` checks them)."""
    parser.add_argument("--size", type=window_size, default=DEFAULT_SIZE, metavar="WxH",
                        help=f"window size in pixels (default {DEFAULT_SIZE})")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen")
    parser.add_argument("--screenshot", metavar="PATH",
                        help=f"save the last frame as PNG and exit (after --frames, default {CAPTURE_FRAMES})")
    parser.add_argument("--frames", type=number(int, minimum=1), metavar="N",
                        help="run N frames (paced at 60 per second, the simulation in real time) and exit")
    parser.add_argument("--headless", action="store_true",
                        help="render off-screen with EGL (no X display needed); implies --frames")
    parser.add_argument("--msaa", type=number(int, minimum=0, maximum=16), default=0, metavar="SAMPLES",
                        help="multisample anti-aliasing samples, 0..16 (0 = off; costly on software renderers)")


def add_window_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the flight's window and its capture (shared by ``fly`` and ``replay``)."""
    add_capture_arguments(parser)
    parser.add_argument("--camera", choices=CAMERAS, default="chase", help="starting camera (default chase)")
    parser.add_argument("--keymap", metavar="FILE",
                        help="keyboard map TOML merged over configs/keymap.toml")
    parser.add_argument("--model", metavar="FILE",
                        help="how to draw the airplane: a model TOML (default: the one the aircraft file names, "
                             "else assets/models/bourg_airplane.toml)")
    parser.add_argument("--quality", choices=QUALITIES, default="auto",
                        help="graphics quality: low, medium, high, or auto (the default: from the OpenGL renderer "
                             "and the frame time of the first seconds; software rendering gets low)")
    parser.add_argument("--no-gamepad", action="store_true", help="ignore game controllers and joysticks")
    parser.add_argument("--dynamics", action="store_true",
                        help="open the Dynamics panel (the modes and the integrator's stability region; key M)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``fly`` options to ``parser``."""
    add_aircraft_argument(parser)
    parser.add_argument("--integrator", default="euler", metavar="NAME",
                        help="orientation integrator to start with (see `flightsim integrators`; "
                             "switch live in the HUD); default euler, the book's")
    parser.add_argument("--dt", type=seconds, default=None, metavar="SECONDS",
                        help="physics step, e.g. 0.01 or 1/30 (default 1/120 s)")
    add_window_arguments(parser)
    parser.add_argument("--ghost", action="store_true",
                        help="fly a ghost: a second airplane integrated by --ghost-integrator, drawn translucent")
    parser.add_argument("--ghost-integrator", default="rk4", metavar="NAME",
                        help="the ghost's integrator (default rk4, a reference)")
    parser.add_argument("--ghost-substeps", type=number(int, minimum=1, maximum=MAX_GHOST_SUBSTEPS), default=8,
                        metavar="N", help=f"ghost steps per physics step, 1..{MAX_GHOST_SUBSTEPS} (default 8)")
    parser.add_argument("--record-dir", default=".", metavar="DIR",
                        help="where the record key writes traces (default: the current directory)")
    parser.add_argument("--autopilot", type=autopilot_spec, metavar="SPEC",
                        help="engage the autopilot at the start (as `flightsim simulate --autopilot`), e.g. "
                             "hdg=270,alt=2500,ias=100, app=36, app=KVAL/27 (an ILS) or nav=HOM/090 (a VOR radial); "
                             "a pilot's input disconnects it")
    parser.add_argument("--policy", metavar="FILE",
                        help="a saved policy flies (a flightsim policy file, examples/train_ppo.py's policy.npz; "
                             "needs flightsim[rl]); a pilot's input disconnects it")
    parser.add_argument("--policy-target", type=autopilot_spec, metavar="SPEC",
                        help="a heading-hold policy's target, hdg=DEG,alt=FT (default: the start's heading and "
                             "altitude)")
    parser.add_argument("--controls", metavar="CSV",
                        help="fly this control schedule (as `flightsim simulate --controls`) instead of the "
                             "keys and the gamepad")
    parser.add_argument("--no-sound", action="store_true", help="fly without sound (key N mutes it in flight)")
    parser.add_argument("--audio-out", metavar="FILE.wav",
                        help="write the sound to this WAV file as the speakers would play it (headless too)")
    add_start_arguments(parser, default="air")
    add_atmosphere_argument(parser)
    add_wind_arguments(parser)
    add_planet_arguments(parser)
    add_terrain_argument(parser)
    add_failures_argument(parser)


def check_window_args(args):
    """Check the window options before opening a window; return (size, frames).

    Numbers were parsed by argparse; here the screenshot's folder is checked
    (it must exist and be writable) and the frame count completed.
    """
    frames = args.frames
    if args.screenshot is not None:
        output_file("--screenshot", args.screenshot)
        if frames is None:
            frames = CAPTURE_FRAMES
    if args.headless and frames is None:
        frames = CAPTURE_FRAMES
    return args.size, frames


def _check_lab_args(args):
    """Check the ghost and recording options; return the folder for recorded traces."""
    from flightsim.physics.integrators import INTEGRATORS

    if args.ghost_integrator not in INTEGRATORS:
        raise InputError("--ghost-integrator", "", f"unknown integrator {args.ghost_integrator!r}; "
                         f"valid: {', '.join(INTEGRATORS)}")
    return output_folder("--record-dir", args.record_dir)


def run(args) -> int:
    """Fly (or capture frames); return the exit code. Bad input raises InputError, which the CLI prints as one
    line (exit 2)."""
    size, frames = check_window_args(args)
    record_dir = _check_lab_args(args)
    if args.audio_out is not None:
        output_file("--audio-out", args.audio_out)
    from flightsim.app.scene.airplane_model import model_spec_for
    from flightsim.app.window import configure_pyglet
    from flightsim.simulation.flight import DEFAULT_DT, Simulation, resolve_aircraft

    aircraft = resolve_aircraft(args.aircraft)
    model = model_spec_for(aircraft, args.model)
    configure_pyglet(headless=args.headless)
    from flightsim.app.input.keymap import load_keymap
    from flightsim.simulation.controls import Controls, ControlSchedule

    keymap = load_keymap(args.keymap)
    wind = wind_from_args(args, aircraft)
    # what can be refused is refused before a window opens (the flight itself is built once it is open)
    if args.dt is not None:
        from flightsim.physics.rigidbody import check_dt

        check_dt(args.dt)
    if args.controls:
        ControlSchedule.from_csv(args.controls, Controls())
    policy = _policy_option(args, aircraft)
    failures = failures_option(args, aircraft)
    check_airfield_options(args, "trim" if args.trim is not None else args.start)
    from flightsim.simulation.world import load_world

    load_world()            # the scene draws every airfield: a bad airfield file is refused before the window opens

    def flight():
        """The flight, built once the window is open: the first start on a machine compiles it (the splash)."""
        sim = Simulation(aircraft=aircraft, integrator=args.integrator, dt=DEFAULT_DT if args.dt is None else args.dt,
                         atmosphere=args.atmosphere, start=start_from_args(args, aircraft, args.atmosphere, wind),
                         wind=wind, **planet_options(args),
                         terrain=terrain_option(args), failures=failures)
        if args.ghost:
            sim.warm_up(args.ghost_integrator)
        schedule = ControlSchedule.from_csv(args.controls, sim.controls) if args.controls else None
        if args.autopilot is not None:
            from flightsim.commands.simulate import engage_autopilot

            engage_autopilot(sim, args.autopilot, schedule)
        more = {"schedule": schedule}
        if policy is not None:
            from flightsim.gym.policy import PolicyFlight

            target = args.policy_target
            more["policy"] = PolicyFlight(policy, sim, heading=None if target is None else target.heading,
                                          altitude=None if target is None else target.altitude)
        return sim, more

    return open_app(args, flight, keymap, size, frames, caption=f"flightsim - {aircraft.name}",
                    model_spec=model, ghost=args.ghost, ghost_integrator=args.ghost_integrator,
                    ghost_substeps=args.ghost_substeps, record_dir=record_dir, make_sound=lambda: _sound(args))


def _policy_option(args, aircraft):
    """``--policy FILE`` read (:func:`flightsim.gym.policy.load_policy`), or None; ``--policy-target`` checked.

    Raises
    ------
    InputError
        A bad policy file, or one trained on another aircraft; ``--policy`` beside ``--autopilot`` or
        ``--controls``; ``--policy-target`` without ``--policy`` or with other keys than ``hdg`` and ``alt``; no
        Gymnasium (``pip install 'flightsim[rl]'``).
    """
    if args.policy is None:
        if args.policy_target is not None:
            raise InputError("--policy-target", "", "needs --policy")
        return None
    for other in ("autopilot", "controls"):
        if getattr(args, other) is not None:
            raise InputError("--policy", "", f"a policy flies instead of --{other}: give one of them")
    target = args.policy_target
    if target is not None:
        from flightsim.simulation.autopilot import Selection

        if target != Selection(heading=target.heading, altitude=target.altitude):
            raise InputError("--policy-target", "", "only hdg=DEG and alt=FT")
    try:
        from flightsim.gym.policy import load_policy
    except ImportError as exc:
        raise InputError("--policy", "", f"needs Gymnasium: pip install 'flightsim[rl]' ({exc})") from None
    from flightsim.simulation.flight import resolve_aircraft

    policy = load_policy(args.policy)
    flies = resolve_aircraft(policy.env_kwargs.get("aircraft")).name
    if flies != aircraft.name:
        raise InputError(args.policy, "meta.env_kwargs.aircraft", f"the policy flies the {flies}, not the "
                                                                  f"{aircraft.name} (--aircraft)")
    return policy


def _sound(args):
    """The flight's :class:`~flightsim.app.audio.Sound` as ``--no-sound`` and ``--audio-out`` ask (a headless
    flight plays on no speakers)."""
    from flightsim.app.audio import Sound

    try:
        return Sound(speakers=not (args.no_sound or args.headless), audio_out=args.audio_out)
    except OSError as exc:
        raise write_error("--audio-out", args.audio_out, exc) from None


def open_app(args, sim, keymap, size, frames, caption, make_sound=None, **app_options):
    """Open the window, run a :class:`~flightsim.app.app.FlightApp` on ``sim`` and close it; return 0,
    or 2 when there is no usable display (one line on stderr).  ``make_sound()``, once the window is open,
    gives the flight's :class:`~flightsim.app.audio.Sound`.

    ``sim`` is the flight source, or ``sim()`` makes it once the window is open, as ``(source, more app
    options)``: then what it compiles (a first start) shows on a :class:`~flightsim.app.splash.Splash`."""
    from flightsim.app.window import DisplayUnavailable, open_window
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES

    try:
        window = open_window(*size, fullscreen=args.fullscreen, visible=not args.headless,
                             caption=caption, samples=args.msaa)
    except DisplayUnavailable as exc:
        print(f"flightsim: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from flightsim.app.app import FlightApp

    sound = None
    try:
        if callable(sim):
            from flightsim.app.splash import Splash
            from flightsim.commands.first_start import GENERIC
            from flightsim.physics.compile_cache import PARTS
            from flightsim.physics.compiling import CompileWatch

            cold = getattr(args, "first_start", None)      # what the CLI found cold before the imports
            splash = (Splash(window, cold.message, cold.compiles) if cold is not None
                      else Splash(window, GENERIC, PARTS["step"][1]))     # (only if something compiles after all)
            with CompileWatch(on_first=splash.first, on_progress=splash.show):
                sim, more = sim()
            app_options.update(more)
        sound = make_sound() if make_sound is not None else None
        app = FlightApp(window, sim, keymap, INTEGRATORS, TIME_SCALES, use_gamepads=not args.no_gamepad,
                        dynamics=args.dynamics, quality=args.quality, sound=sound, **app_options)
    except BaseException:
        if sound is not None:
            sound.close(keep=False)                    # no half-written --audio-out
        window.close()
        raise
    lesson = getattr(args, "lesson", None)
    if lesson is not None:                     # flightsim lesson NAME: the lesson loaded, its brief shown
        app.lessons.load(lesson, getattr(args, "lesson_seed", 0))
    saved = None
    try:
        app.cameras.set_mode(args.camera)
        app.run(frames=frames, screenshot=args.screenshot, fps_cap=60.0 if frames is not None else None)
    except OSError as exc:        # checked at the start, the screenshot could still not be written (disk full, ...)
        if args.screenshot is None:
            raise
        raise write_error("--screenshot", args.screenshot, exc) from None
    finally:
        saved = app.close()
    if saved is not None:
        print(f"flightsim: trace saved: {saved}", file=sys.stderr)
    return 0

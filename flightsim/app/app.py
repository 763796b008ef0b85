"""The flight app: one window, one flight source, the frame loop.

Each frame (:meth:`FlightApp.frame`):

1. **physics** - the pilot's keys and gamepad move the controls, the
   source advances by the frame time with its fixed step (Gaffer's
   accumulator), telemetry is read;
2. **draw** - the camera follows the pose interpolated between the last two
   physics states (the source's ``render_pose``), and the scene is drawn;
3. **HUD** - imgui builds and draws the registered panels
   (:data:`flightsim.app.hud.panels.PANELS`) over a
   :class:`~flightsim.app.hud.hud_view.HudView` of this frame, with the
   :class:`~flightsim.app.hud.hud_view.HudCommands` they may issue.

The three are timed separately (:class:`FrameStats`).  A non-finite pose
never reaches the renderer: the last finite one is kept, and the HUD shows
the source's status with a reset button.

The source is any :class:`~flightsim.simulation.source.FlightSource`: a live
:class:`~flightsim.simulation.Simulation` or a
:class:`~flightsim.simulation.replay.Replay`.  The app tells them apart by
their :class:`~flightsim.simulation.source.Capabilities` only:

* ``can_fly`` - the keys, the gamepad or a control schedule move the controls;
* ``can_ghost`` - a **ghost** (:class:`~flightsim.app.ghost_companion.GhostCompanion`):
  a second airplane with its own integrator and sub-steps, fed the same
  controls after every physics step, drawn translucent, its attitude and
  position difference charted.  A ghost that crashes or goes non-finite only
  stops itself;
* ``can_record`` - **recording** (:class:`flightsim.app.recorder.Recorder`):
  every physics step to a trace CSV;
* ``can_seek`` - a **replay**: the HUD offers a time slider.

The keys and the HUD's buttons work the app's switches (:class:`~flightsim.app.cockpit.Cockpit`, ``app.cockpit``).
Where ``can_fly``, *Trim now* (:meth:`~flightsim.app.cockpit.Cockpit.trim_now`) puts the airplane
in level flight at its airspeed and altitude with the stick centred (the
elevator trim holds it).  The **Dynamics panel** (:attr:`FlightApp.dynamics`,
a :class:`~flightsim.app.dynamics_companion.DynamicsCompanion`) shows the
modes about the trim and where the integrators in use put them against
their stability regions; it computes nothing while it is hidden.
"""

from __future__ import annotations

import dataclasses
import gc
import math
import time
from pathlib import Path

import numpy as np

from flightsim.app.cockpit import Cockpit, start_trim
from flightsim.app.dynamics_companion import DynamicsCompanion
from flightsim.app.frame_loop import run_frames
from flightsim.app.ghost_companion import GHOST_SERIES, MAX_GHOST_SUBSTEPS, GhostCompanion, GhostSample
from flightsim.app.hud.frame_stats import FrameStats
from flightsim.app.hud.gui import ImguiLayer
from flightsim.app.hud.history import History
from flightsim.app.hud.state import Hud
from flightsim.app.hud_bridge import HudBridge
from flightsim.app.input.joystick import Joysticks, find_joysticks
from flightsim.app.input.pilot import Gamepads, Pilot
from flightsim.app.lesson_companion import LessonCompanion
from flightsim.app.map_companion import MapCompanion
from flightsim.app.poses import START_POSE, cockpit_hidden, finite_pose, gear_pose, ghost_pose, propeller_spin
from flightsim.app.recorder import Recorder, stamped_path
from flightsim.app.scene.airplane_model import build_airplane, model_spec_for
from flightsim.app.scene.camera import CameraRig
from flightsim.app.scene.quality import AutoQuality, Quality, quality_level
from flightsim.app.scene.renderer import SceneRenderer, read_pixels, save_png
from flightsim.app.scene.scenery import build_scenery
from flightsim.app.scene.windsock import sock_wind
from flightsim.simulation.clock import clamp_frame
from flightsim.simulation.ghost import DEFAULT_INTEGRATOR, DEFAULT_SUBSTEPS

__all__ = ["FlightApp", "FrameStats", "GHOST_SERIES", "GhostSample", "MAX_GHOST_SUBSTEPS", "build_world",
           "drawn_terrain"]


def build_world(sim, terrain, model, quality):
    """What the app draws of the world: ``(terrain, scenery, scene, map)``.

    ``terrain``: ``"auto"`` (the one ``sim`` stands on, :func:`drawn_terrain`), a
    :class:`~flightsim.physics.terrain.Terrain`, or None (the flat patchwork of fields and the painted hills);
    the scenery (:func:`~flightsim.app.scene.scenery.build_scenery`: with a terrain, its own lakes and no hills), the
    :class:`~flightsim.app.scene.renderer.SceneRenderer` drawing them and ``model`` at ``quality``, and the
    map panel's :class:`~flightsim.app.map_companion.MapCompanion` (key L).
    """
    terrain = drawn_terrain(sim) if isinstance(terrain, str) and terrain == "auto" else terrain
    scenery = build_scenery(terrain=terrain is not None)
    return terrain, scenery, SceneRenderer(model, scenery, quality, terrain=terrain), MapCompanion(terrain)


def drawn_terrain(sim):
    """The terrain a flight source stands on, to draw: its ``terrain`` (``"world"``, ``"off"``, None or a
    :class:`~flightsim.physics.terrain.Terrain`; a source without one: the world's), as a Terrain or None."""
    from flightsim.physics.terrain import Terrain, load_terrain

    flag = getattr(sim, "terrain", "world")
    if isinstance(flag, Terrain):
        return flag
    if flag is None or (isinstance(flag, str) and flag == "off"):
        return None
    return load_terrain()


class FlightApp:
    """Window, flight source, renderer, HUD and input together.

    Parameters
    ----------
    window : pyglet.window.Window
        With an OpenGL 3.3 core context (:func:`flightsim.app.window.open_window`).
    sim : flightsim.simulation.source.FlightSource
        The flight shown: a live :class:`~flightsim.simulation.Simulation`, or a
        :class:`~flightsim.simulation.replay.Replay` (then the flight controls,
        the ghost and recording are off, as its capabilities say).
    keymap : flightsim.app.input.keymap.Keymap
    integrators : mapping
        Name -> integrator, for the HUD's combo.
    time_scales : sequence of float
        For the HUD.
    use_gamepads : bool
        Watch for game controllers (pyglet's ControllerManager) and joysticks (the keymap's ``[[joystick]]``).
    screenshot_dir : str or Path
        Where F12 saves screenshots.
    ghost : bool
        Fly a ghost from the start.
    ghost_integrator : str
        The ghost's integrator (when it is switched on).
    ghost_substeps : int
        Ghost steps per physics step, 1..:data:`MAX_GHOST_SUBSTEPS`.
    record_dir : str or Path
        Where recorded traces go.
    schedule : flightsim.simulation.controls.ControlSchedule, optional
        Fly these controls (by simulation time) instead of the pilot's.
    policy : flightsim.gym.policy.PolicyFlight, optional
        A saved policy flying (``fly --policy``) until the pilot's hand takes over (``cockpit.hands``).
    model_spec : dict, optional
        How to draw the airplane (:func:`flightsim.app.scene.airplane_model.load_model_spec`);
        default: the bundled model.
    dynamics : bool
        Show the Dynamics panel from the start.
    quality : str or flightsim.app.scene.quality.Quality
        Graphics quality: ``"low"``, ``"medium"``, ``"high"``, or ``"auto"``
        (from the OpenGL renderer, then the frame time of the first seconds;
        see :mod:`flightsim.app.scene.quality`).
    terrain : "auto", flightsim.physics.terrain.Terrain or None
        The terrain drawn (:func:`build_world`; ``app.terrain``, its map ``app.map``): ``"auto"`` the flight's.

    Attributes
    ----------
    cockpit : flightsim.app.cockpit.Cockpit
        The switches: ghost, recording, sound, autopilot, *Trim now*, Dynamics panel, aircraft.
    hud_bridge : flightsim.app.hud_bridge.HudBridge
        What the HUD reads of the app (:meth:`hud_view`) and may ask of it.
    ghosts : GhostCompanion
        The ghost airplane (:attr:`ghost` while one flies) and its settings.
    dynamics : DynamicsCompanion
        The Dynamics panel: shown or not, and its numbers (first about the
        trim the flight started from, if it started trimmed).
    telemetry : flightsim.simulation.Telemetry
        Read after the last frame's physics.
    pose : (numpy.ndarray, numpy.ndarray)
        What the renderer was last given: position (earth, ft) and rotation matrix (body → earth).
    ghost_pose : GhostPose or None
        What the renderer was given for the ghost in the last frame.
    gear : numpy.ndarray or None
        The landing gear drawn in the last frame: per contact point of the
        aircraft, leg compression (ft) and steering (deg, + right) (:func:`gear_pose`).
    quality : flightsim.app.scene.quality.Quality
        The graphics quality drawn now.
    auto_quality : flightsim.app.scene.quality.AutoQuality or None
        With ``quality="auto"``: what chooses it.
    """

    def __init__(self, window, sim, keymap, integrators, time_scales, use_gamepads=True, screenshot_dir=".",
                 ghost=False, ghost_integrator=DEFAULT_INTEGRATOR, ghost_substeps=DEFAULT_SUBSTEPS,
                 record_dir=".", schedule=None, model_spec=None, dynamics=False, quality="auto", sound=None,
                 terrain="auto", policy=None):
        self.window = window
        self.sim, self.policy = sim, policy
        #: the flight's sound (:class:`flightsim.app.audio.Sound`; closed with the app), or None
        self.sound = sound
        self.keymap = keymap
        self.screenshot_dir = Path(screenshot_dir)
        self.schedule = schedule
        self.ghosts = GhostCompanion(ghost_integrator, ghost_substeps)
        self.ghost_pose = None
        self.recorder = Recorder(record_dir)
        self.cockpit = Cockpit(self)
        self.dynamics = DynamicsCompanion(sim.aircraft, getattr(sim, "atmosphere", None), start_trim(sim),
                                          show=dynamics)
        window.switch_to()
        self.auto_quality = None
        if isinstance(quality, Quality):
            self.quality = quality
        elif quality == "auto":
            self.auto_quality = AutoQuality(window.context.get_info().get_renderer())
            self.quality = self.auto_quality.level
        else:
            self.quality = quality_level(quality)
        self._spec = model_spec if model_spec is not None else model_spec_for(sim.aircraft)
        self.model = build_airplane(sim.aircraft, self._spec, detail=self.quality.airplane_detail)
        self.terrain, self.scenery, self.scene, self.map = build_world(sim, terrain, self.model, self.quality)
        self.lessons = LessonCompanion(self)        # the lesson flown (none until one is loaded)
        self.cameras = CameraRig(self.model.cockpit_eye, self.model.radius, tower=self.scenery.tower_eye,
                                 terrain=self.terrain)
        self.pilot = Pilot(keymap)
        self.pilot.reset(sim.controls)
        self.gamepads = Gamepads(self.press, self.pilot.release, use_manager=use_gamepads)
        self.joysticks = Joysticks(keymap.joysticks, self.press, self.pilot.release, calibration=keymap.calibration(),
                                   find=find_joysticks if use_gamepads else tuple, skip=self.gamepads.device)
        self.history = History(span=30.0, rate=5.0)     # 150 points a chart line
        self.stats = FrameStats()
        self.hud = Hud(integrators, time_scales)
        self.hud.backdrops = self.quality.backdrops
        self.closed = False
        self.prop_angle = 0.0
        self.last_pixels = None
        self._screenshot_requested = False
        self._fuselage = cockpit_hidden(self.model)
        window.push_handlers(self.on_key_press, self.on_key_release, self.on_mouse_drag, self.on_mouse_scroll,
                             self.on_deactivate, self.on_close)
        self.gui = ImguiLayer(window, antialias=self.quality.hud_antialias)   # pushed last: imgui sees events first
        self.telemetry = sim.telemetry()
        self.pose = finite_pose(sim, START_POSE)
        self.gear = None
        self.hud_bridge = HudBridge(self)
        if ghost:
            self.cockpit.set_ghost(True)
        self.gui.settle(self.hud_bridge.build)
        # What start-up built lives as long as the app: keep it out of the collector's full passes, whose
        # pauses otherwise land in single frames (the p99).  No gc.collect() first: it takes ~75 ms of
        # start-up to find ~270 small objects (ctypes types, tuples), which freezing merely keeps.
        gc.freeze()

    @property
    def schedule(self):
        """The control schedule flown instead of the keys and the gamepad (None: the pilot's hands)."""
        return self._schedule

    @schedule.setter
    def schedule(self, schedule):
        self._schedule = schedule
        if schedule is None and self._schedule_follower in self.sim.followers:
            self.sim.followers.remove(self._schedule_follower)

    def _schedule_follower(self):
        """After a physics step: the control schedule's controls for the next one (a frame holds many steps)."""
        if self.schedule is not None and self.sim.capabilities.can_fly:
            _set_controls(self.sim.controls, self.schedule.at(self.sim.t))

    @property
    def capabilities(self):
        """The source's :class:`~flightsim.simulation.source.Capabilities`."""
        return self.sim.capabilities

    @property
    def ghost(self):
        """The ghost flying now (:class:`flightsim.simulation.ghost.Ghost`), or None when it is off."""
        return self.ghosts.flight

    # ------------------------------------------------------------------ input

    def on_key_press(self, symbol, modifiers):
        """Keys fly the airplane unless imgui is typing; Esc never closes the window by itself."""
        from pyglet.event import EVENT_HANDLED

        action = self.keymap.action(symbol)
        if action is not None and not self.gui.want_keyboard:
            self.press(action)
        return EVENT_HANDLED if action is not None or symbol == _escape() else None

    def on_key_release(self, symbol, modifiers):
        action = self.keymap.action(symbol)
        if action is not None:
            self.pilot.release(action)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        if not self.gui.want_mouse:
            self.cameras.drag(dx, dy)

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        if not self.gui.want_mouse:
            self.cameras.scroll(scroll_y)

    def on_deactivate(self):
        self.pilot.release_all()

    def on_close(self):
        self.closed = True

    def press(self, action):
        """Perform ``action`` (from a key or a gamepad button)."""
        self.gui.invalidate()                 # a cached HUD shows the outcome in the next frame
        if action == "pause":
            self.sim.paused = not self.sim.paused
        elif action == "reset":
            self.reset()
        elif action == "camera":
            self.hud.notify(f"camera: {self.cameras.cycle()}", 1.5)
        elif action == "screenshot":
            self._screenshot_requested = True
        elif action == "help":
            self.hud.show_help = not self.hud.show_help
        elif action == "hud":
            self.hud.show = not self.hud.show
        elif action == "quit":
            self.closed = True
        elif action in _SWITCHES:
            _SWITCHES[action](self)
        elif self.capabilities.can_fly and self.schedule is None:
            self.pilot.press(action)

    def reset(self):
        """Start the flight again from the initial state (a recording is saved first; the ghost resyncs; the
        Dynamics panel goes back to a trimmed start's modes)."""
        if self.recorder.recording:
            self.cockpit.stop_recording()
        self.sim.reset()
        self.dynamics.start_over(start_trim(self.sim))
        self.pilot.reset(self.sim.controls)
        self.cameras.reset()
        self.history.clear()
        self.ghosts.history.clear()
        self.ghosts.resync()
        self.telemetry = self.sim.telemetry()
        self.pose = finite_pose(self.sim, START_POSE)

    def show_airplane(self, model, spec):
        """Draw ``model`` (built from ``spec``) as the airplane from now on, seen by the same kind of camera."""
        self.model, self._spec = model, spec
        self.scene.set_airplane(model)
        mode = self.cameras.mode
        self.cameras = CameraRig(model.cockpit_eye, model.radius, tower=self.scenery.tower_eye, terrain=self.terrain)
        self.cameras.set_mode(mode)
        self._fuselage = cockpit_hidden(self.model)
        self.prop_angle = 0.0
        self.gear = None

    def hud_view(self):
        """This frame's :class:`~flightsim.app.hud.hud_view.HudView` of the flight and the app."""
        return self.hud_bridge.view()

    # ------------------------------------------------------------------ frame

    def frame(self, dt):
        """Advance and draw one frame of ``dt`` seconds (the back buffer is not swapped).

        ``dt`` also advances the HUD's clock (:attr:`~flightsim.app.hud.state.Hud.clock`): its messages and
        the stall warning's blink run on the frame time, as everything else in the frame does.
        """
        t0 = time.perf_counter()
        self.cockpit.frame_start()
        self.hud.tick(dt)
        sim = self.sim
        pad, sticks = self.gamepads.poll(), self.joysticks.poll(dt)
        if sim.capabilities.can_fly:
            if self.schedule is not None:
                _set_controls(sim.controls, self.schedule.at(sim.t))
                # and after every step of the frame, the next step's (as flightsim simulate does), last of
                # the followers so the recorder and the ghost see the controls the step flew
                if self._schedule_follower in sim.followers:
                    sim.followers.remove(self._schedule_follower)
                sim.followers.append(self._schedule_follower)
            else:
                self.cockpit.hands(dt, pad, sticks)
        if self.ghost is not None:
            self.ghost.sim.renormalize = sim.renormalize      # the ghost differs by its integrator only
        steps = sim.advance(dt)
        self.cockpit.news()
        self.telemetry = sim.telemetry()
        if self.sound is not None:       # the frame's wall time as the simulation took it; rendered on its own thread
            self.sound.listen(clamp_frame(dt), sim, self.telemetry)
        self.history.append(self.telemetry)
        self.pose = finite_pose(sim, self.pose)
        self.map.track.add(sim.t, self.pose[0])
        deflections = np.nan_to_num(sim.surface_deflections())
        if not sim.paused and sim.status is None:
            spin = propeller_spin(self.telemetry.rpm, sim.controls.throttle)
            self.prop_angle = (self.prop_angle + spin * dt * sim.time_scale) % (2.0 * math.pi)
        self.gear = gear_pose(sim.aircraft, [g.compression for g in self.telemetry.gear], sim.controls)
        matrices = self.model.part_matrices(deflections, self.prop_angle, self.gear)
        ghost = self.ghost_pose = None
        if self.ghost is not None:
            self.ghosts.measure(sim.t)
            ghost = self.ghost_pose = ghost_pose(self.ghost, self.model, self.prop_angle, matrices, deflections,
                                                 self.gear, self.pose[0] if self.cameras.mode == "cockpit" else None,
                                                 self._fuselage)
        t1 = time.perf_counter()

        pos, rot = self.pose
        view = self.cameras.view(pos, rot, dt)
        hidden = self._fuselage if self.cameras.mode == "cockpit" else ()
        wind = sock_wind(self.telemetry.wind, pos[2], sim.wind_spec)
        draw_seconds, hud_seconds = self._draw(view, pos, rot, matrices, hidden, ghost, wind, dt)
        if self._screenshot_requested:
            self._screenshot_requested = False
            try:
                self.save_screenshot(stamped_path(self.screenshot_dir, ".png"))
            except OSError as exc:
                self.hud.notify(f"screenshot not saved: {exc.strerror or exc}", 6.0)
        self.stats.record(dt, time.perf_counter() - t0, t1 - t0, draw_seconds, hud_seconds, steps)
        if self.auto_quality is not None and not self.auto_quality.settled:
            level = self.auto_quality.observe(dt)
            if level is not None:
                self.set_quality(level)

    def _draw(self, view, pos, rot, matrices, hidden, ghost, wind, dt):
        """Draw the scene and the HUD; return the seconds spent on each."""
        size = self.window.get_framebuffer_size()
        build = self.hud_bridge.build
        t0 = time.perf_counter()
        if self.quality.hud_hz <= 0.0:
            self.scene.draw(view, size, pos, rot, matrices, hidden=hidden, ghost=ghost, wind=wind,
                            backdrops=self.hud_bridge.backdrops() if self.hud.backdrops else None)
            t1 = time.perf_counter()
            self.gui.frame(dt, build)
            return t1 - t0, time.perf_counter() - t1
        # The HUD from its texture: redrawn before the scene when it must show something at once, else
        # built after the scene when due and drawn by the next frames (ImguiLayer.hud_image).
        if self._screenshot_requested:
            self.gui.invalidate()
        image = self.gui.hud_image(dt, build, self.hud_bridge.panel_underlay)
        t1 = time.perf_counter()
        self.scene.draw(view, size, pos, rot, matrices, hidden=hidden, ghost=ghost, wind=wind,
                        backdrops=self.hud_bridge.backdrops(panels=False), hud=image)
        t2 = time.perf_counter()
        self.gui.refresh_due(build, self.quality.hud_hz)
        return t2 - t1, (t1 - t0) + (time.perf_counter() - t2)

    def set_quality(self, quality):
        """Draw with ``quality`` (a :class:`~flightsim.app.scene.quality.Quality` or its name) from the next frame."""
        self.quality = quality if isinstance(quality, Quality) else quality_level(quality)
        self.window.switch_to()
        self.scene.set_quality(self.quality)
        if self.model.detail != self.quality.airplane_detail:     # the same parts, more or fewer triangles
            self.model = build_airplane(self.sim.aircraft, self._spec, detail=self.quality.airplane_detail)
            self.scene.set_airplane(self.model)
        self.gui.set_antialias(self.quality.hud_antialias)
        self.gui.invalidate()
        self.hud.backdrops = self.quality.backdrops

    def capture(self) -> np.ndarray:
        """The current back buffer as (height, width, 3) uint8, row 0 at the top."""
        self.last_pixels = read_pixels(*self.window.get_framebuffer_size())
        return self.last_pixels

    def save_screenshot(self, path):
        """Save the current back buffer (scene and HUD) as a PNG; return the path.

        Raises
        ------
        OSError
            The file cannot be written (nothing is left behind).
        """
        path = Path(path)
        save_png(self.capture(), path)
        self.hud.notify(f"screenshot saved: {path}")
        return path

    def run(self, frames=None, screenshot=None, fps_cap=None):
        """The frame loop: until the window closes, or for ``frames`` frames.

        Parameters
        ----------
        frames : int, optional
            Stop after this many frames.
        screenshot : str or Path, optional
            Save the last frame there (PNG).
        fps_cap : float, optional
            Sleep so frames are at least ``1 / fps_cap`` apart (the
            simulation always advances by the real elapsed time).

        Returns
        -------
        int
            Frames drawn.
        """
        return run_frames(self, frames, screenshot, fps_cap, devices=True)

    def close(self):
        """Write a trace still being recorded, free the GUI and close the window.

        Returns
        -------
        Path or None
            The trace written now, if a recording was running.
        """
        saved = None
        try:
            if self.recorder.recording:
                saved = self.cockpit.stop_recording()
            self.ghosts.stop()
            self.joysticks.close()
            self.gui.shutdown()
            self.hud_bridge.close()
        finally:
            try:
                if self.sound is not None:
                    self.sound.close()
            finally:
                self.window.close()
        return saved


#: The keys that work a cockpit switch (:class:`~flightsim.app.cockpit.Cockpit`).
_SWITCHES = {
    "ghost": lambda app: app.cockpit.toggle_ghost(),
    "ghost_resync": lambda app: app.cockpit.resync_ghost(),
    "record": lambda app: app.cockpit.toggle_recording(),
    "trim_now": lambda app: app.cockpit.trim_now(),
    "dynamics": lambda app: app.cockpit.set_dynamics(not app.dynamics.show),
    "autopilot": lambda app: app.cockpit.toggle_autopilot(),
    "mute": lambda app: app.cockpit.set_sound(not (app.sound is not None and app.sound.muted)),
    "devices": lambda app: setattr(app.hud, "show_devices", not app.hud.show_devices),
    "map": lambda app: app.map.toggle(),
    "instructor": lambda app: setattr(app.hud, "show_instructor", not app.hud.show_instructor),
    "gear": lambda app: _gear_lever(app),
}


def _gear_lever(app):
    """The gear key: the pilot's lever where the gear retracts (:attr:`Simulation.gear_position
    <flightsim.simulation.flight.Simulation.gear_position>` not None), else a word that it is fixed."""
    if not app.capabilities.can_fly or app.schedule is not None:
        return
    if app.sim.gear_position is None:
        app.hud.notify("the gear is fixed: it does not retract", 1.5)
    else:
        app.pilot.press("gear")


def _set_controls(controls, values):
    """Copy ``values`` (a Controls) into ``controls`` in place (the ghost and the HUD hold on to it).

    A schedule's elevator is the whole elevator (its trim is 0), as in ``flightsim simulate``.
    """
    for field in dataclasses.fields(values):
        setattr(controls, field.name, getattr(values, field.name))


def _escape():
    from pyglet.window import key

    return key.ESCAPE

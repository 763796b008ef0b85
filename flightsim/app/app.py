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

Where ``can_fly``, *Trim now* (:meth:`FlightApp.trim_now`) puts the airplane
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
import threading
import time
from pathlib import Path

import numpy as np

from flightsim.math import quat
from flightsim.app.scene.airplane_model import build_airplane, model_spec_for
from flightsim.app.scene.camera import CameraRig
from flightsim.app.dynamics_companion import DynamicsCompanion
from flightsim.app.frame_loop import run_frames
from flightsim.app.hud.frame_stats import FrameStats
from flightsim.app.ghost_companion import GHOST_SERIES, MAX_GHOST_SUBSTEPS, GhostCompanion, GhostSample
from flightsim.app.hud.gui import ImguiLayer
from flightsim.app.hud.history import History
from flightsim.app.hud.state import Hud
from flightsim.app.hud.hud_view import (AircraftReadout, CameraReadout, HudCommands, HudView, PlaybackReadout,
                                    RecorderReadout)
from flightsim.app.hud.instruments import cockpit_shapes
from flightsim.app.hud.panels import BACKDROP_RGB, BACKDROP_WINDOWS
from flightsim.app.input.pilot import Gamepads, Pilot
from flightsim.app.scene.quality import AutoQuality, Quality, quality_level
from flightsim.app.recorder import Recorder, stamped_path
from flightsim.app.scene.renderer import GhostPose, SceneRenderer, read_pixels, save_png
from flightsim.app.scene.scenery import build_scenery
from flightsim.app.scene.windsock import sock_wind
from flightsim.errors import InputError
from flightsim.resources import shipped_aircraft
from flightsim.simulation.autopilot import Selection
from flightsim.simulation.clock import clamp_frame
from flightsim.simulation.ghost import DEFAULT_INTEGRATOR, DEFAULT_SUBSTEPS

#: The drawn propeller turns at 1 rad/s per this many engine rpm.
PROP_RPM_PER_RAD_S = 30.0

__all__ = ["FlightApp", "FrameStats", "GHOST_SERIES", "GhostSample", "MAX_GHOST_SUBSTEPS"]


#: The jsbsim package's aircraft that fly (``jsbsim:NAME``), offered by the Aircraft combo: found once per process
#: on a thread (about a second of XML), so no window waits for them; empty until then.
_JSBSIM_CHOICES = [()]
_JSBSIM_SEARCH = []


def _find_jsbsim_aircraft():
    """Start the search for :data:`_JSBSIM_CHOICES` (once per process)."""
    if _JSBSIM_SEARCH:
        return

    def search():
        from flightsim.physics.jsbsim.model import fleet

        _JSBSIM_CHOICES[0] = tuple(f"jsbsim:{name}" for name, a in fleet() if not isinstance(a, InputError))

    _JSBSIM_SEARCH.append(threading.Thread(target=search, name="jsbsim-aircraft", daemon=True))
    _JSBSIM_SEARCH[0].start()


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
        Watch for game controllers (pyglet's ControllerManager).
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
    model_spec : dict, optional
        How to draw the airplane (:func:`flightsim.app.scene.airplane_model.load_model_spec`);
        default: the bundled model.
    dynamics : bool
        Show the Dynamics panel from the start.
    quality : str or flightsim.app.scene.quality.Quality
        Graphics quality: ``"low"``, ``"medium"``, ``"high"``, or ``"auto"``
        (from the OpenGL renderer, then the frame time of the first seconds;
        see :mod:`flightsim.app.scene.quality`).

    Attributes
    ----------
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
                 record_dir=".", schedule=None, model_spec=None, dynamics=False, quality="auto", sound=None):
        self.window = window
        self.sim = sim
        #: the flight's sound (:class:`flightsim.app.audio.Sound`; closed with the app), or None
        self.sound = sound
        self.keymap = keymap
        self.screenshot_dir = Path(screenshot_dir)
        self.schedule = schedule
        self.ghosts = GhostCompanion(ghost_integrator, ghost_substeps)
        self.ghost_pose = None
        self.recorder = Recorder(record_dir)
        self.dynamics = DynamicsCompanion(sim.aircraft, getattr(sim, "atmosphere", "constant"), start_trim(sim),
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
        self.scenery = build_scenery()
        self.scene = SceneRenderer(self.model, self.scenery, self.quality)
        self.cameras = CameraRig(self.model.cockpit_eye, self.model.radius, tower=self.scenery.tower_eye)
        self.pilot = Pilot(keymap)
        self.pilot.reset(sim.controls)
        self.gamepads = Gamepads(self.press, self.pilot.release, use_manager=use_gamepads)
        self.history = History(span=30.0, rate=5.0)     # 150 points a chart line
        self.stats = FrameStats()
        self._autopilot_was_on = False
        self.hud = Hud(integrators, time_scales)
        self.hud.backdrops = self.quality.backdrops
        self.hud_commands = self._hud_commands()
        self.closed = False
        self.prop_angle = 0.0
        self.last_pixels = None
        self._screenshot_requested = False
        self._aircraft_seen = None
        _find_jsbsim_aircraft()
        self._fuselage = self._cockpit_hidden()
        window.push_handlers(self.on_key_press, self.on_key_release, self.on_mouse_drag, self.on_mouse_scroll,
                             self.on_deactivate, self.on_close)
        self.gui = ImguiLayer(window, antialias=self.quality.hud_antialias)   # pushed last: imgui sees events first
        self.telemetry = sim.telemetry()
        self.pose = self._finite_pose(None)
        self.gear = None
        if ghost:
            self.set_ghost(True)
        self.gui.settle(self._build_hud)
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

    def _cockpit_hidden(self):
        """Seen from the cockpit the glare shield (a HUD overlay) replaces the nose, gear and propeller."""
        return [i for i, p in enumerate(self.model.parts)
                if p.name in ("nose", "cabin", "gear", "propeller") or p.kind == "wheel"]

    @property
    def capabilities(self):
        """The source's :class:`~flightsim.simulation.source.Capabilities`."""
        return self.sim.capabilities

    # ------------------------------------------------------------------ ghost and recording

    @property
    def ghost(self):
        """The ghost flying now (:class:`flightsim.simulation.ghost.Ghost`), or None when it is off."""
        return self.ghosts.flight

    def set_ghost(self, on):
        """Switch the ghost on (starting from the airplane's current state) or off."""
        if not self.capabilities.can_ghost:
            if on:
                self.hud.notify("no ghost in a replay: it shows recorded states")
            return
        if on:
            self.ghosts.start(self.sim)
        else:
            self.ghosts.stop()

    def configure_ghost(self, integrator=None, substeps=None):
        """Change the ghost's integrator and/or sub-steps (kept for when it is switched on again).

        A running ghost keeps its state and goes on with the new method.
        """
        self.ghosts.configure(integrator, substeps)

    def resync_ghost(self):
        """Put the ghost back on the airplane (clears a ghost's crash)."""
        self.ghosts.resync()

    def toggle_recording(self):
        """Start recording the flight to a trace, or stop and write it."""
        if not self.capabilities.can_record:
            self.hud.notify("a replay is not recorded again")
            return
        if self.recorder.recording:
            self._stop_recording()
        else:
            self.recorder.start(self.sim)
            self.hud.notify("recording a trace")

    def _stop_recording(self):
        try:
            path = self.recorder.stop()
        except OSError as exc:
            self.hud.notify(f"trace not saved: {exc.strerror or exc}", 6.0)
            return None
        self.hud.notify(f"trace saved: {path}", 5.0)
        return path

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
        elif action == "ghost":
            self.set_ghost(self.ghost is None)
            if self.capabilities.can_ghost:
                self.hud.notify(f"ghost: {'on, ' + self.ghost.integrator if self.ghost else 'off'}", 1.5)
        elif action == "ghost_resync":
            self.resync_ghost()
        elif action == "record":
            self.toggle_recording()
        elif action == "trim_now":
            self.trim_now()
        elif action == "dynamics":
            self.set_dynamics(not self.dynamics.show)
        elif action == "autopilot":
            self.toggle_autopilot()
        elif action == "mute":
            self.set_sound(not (self.sound is not None and self.sound.muted))
        elif self.capabilities.can_fly and self.schedule is None:
            self.pilot.press(action)

    def set_sound(self, muted, volume=None):
        """Mute the sound or not, and set its volume (0..1, None: as it is); the HUD says so."""
        if self.sound is None or not self.sound.active:
            self.hud.notify("no sound (--no-sound, or no audio device)", 2.0)
            return
        was = self.sound.muted
        self.sound.muted = muted
        if volume is not None:
            self.sound.volume = volume
        if was != self.sound.muted:
            self.hud.notify("sound off" if muted else "sound on", 1.5)

    def toggle_autopilot(self):
        """Engage the autopilot holding the heading (to a degree), the altitude and the speed as they are, or
        disconnect it."""
        if self.capabilities.can_fly and self.sim.autopilot.engaged:
            return self.set_autopilot(None)
        return self.set_autopilot(Selection(heading=float(round(self.telemetry.heading) % 360)))

    def set_autopilot(self, selection):
        """Fly ``selection`` (:class:`~flightsim.simulation.autopilot.Selection`) on the autopilot, or disconnect it
        (None).  Where it cannot fly (a replay, a schedule, on the ground, no level flight) the HUD says why.

        Returns
        -------
        bool
            Engaged.
        """
        ap = getattr(self.sim, "autopilot", None)
        why = None
        if not self.capabilities.can_fly or ap is None:
            why = "a replay shows the recorded controls"
        elif self.schedule is not None:
            why = "a control schedule flies the airplane"
        elif selection is None:
            ap.disconnect(f"autopilot off ({self.keymap.describe('autopilot')})")
            return False
        else:
            try:
                ap.select(self.sim, selection)
            except ValueError as exc:
                why = str(exc).removeprefix("autopilot: ")
        if why is not None:
            self.hud.notify(f"Autopilot: {why}", 5.0)
            return False
        self.pilot.release_all()
        return True

    def reset(self):
        """Start the flight again from the initial state (a recording is saved first; the ghost resyncs; the
        Dynamics panel goes back to a trimmed start's modes)."""
        if self.recorder.recording:
            self._stop_recording()
        self.sim.reset()
        self.dynamics.start_over(start_trim(self.sim))
        self.pilot.reset(self.sim.controls)
        self.cameras.reset()
        self.history.clear()
        self.ghosts.history.clear()
        self.ghosts.resync()
        self.telemetry = self.sim.telemetry()
        self.pose = self._finite_pose(None)

    # ------------------------------------------------------------------ aircraft

    def set_aircraft(self, name):
        """Fly another aircraft (a shipped name or a path), started as this flight was; the flight starts again.

        The airplane is drawn with its own model; a recording is saved first,
        the ghost stops, the charts clear.  Where that cannot be (a replay, a
        bad file, no such start for it) the HUD says why and nothing changes.

        Returns
        -------
        bool
            Whether the aircraft changed.
        """
        why = None
        if not self.capabilities.can_fly:
            why = "a replay shows the recorded airplane"
        else:
            try:
                sim = self.sim.with_aircraft(name)
                spec = model_spec_for(sim.aircraft)
                model = build_airplane(sim.aircraft, spec, detail=self.quality.airplane_detail)
            except (InputError, ValueError) as exc:
                why = " ".join(str(exc).split())
        if why is not None:
            self.hud.notify(f"Aircraft: {why}", 6.0)
            return False
        if self.recorder.recording:
            self._stop_recording()
        self.ghosts.stop()
        sim.paused, sim.time_scale = self.sim.paused, self.sim.time_scale
        self.sim = sim
        self.model, self._spec = model, spec
        self.scene.set_airplane(model)
        mode = self.cameras.mode
        self.cameras = CameraRig(model.cockpit_eye, model.radius, tower=self.scenery.tower_eye)
        self.cameras.set_mode(mode)
        self._fuselage = self._cockpit_hidden()
        self.dynamics = DynamicsCompanion(sim.aircraft, sim.atmosphere, start_trim(sim),
                                          show=self.dynamics.show)
        self.prop_angle = 0.0
        self.gear = None
        self.reset()
        self.window.set_caption(f"flightsim - {sim.aircraft.name}")
        self.hud.notify(f"aircraft: {sim.aircraft.name}", 3.0)
        return True

    def _aircraft_readout(self):
        a, jsbsim = self.sim.aircraft, _JSBSIM_CHOICES[0]
        # (the files are not read per frame: again only for another aircraft, or once the jsbsim ones are found)
        if self._aircraft_seen is None or self._aircraft_seen[0] is not a or self._aircraft_seen[1] is not jsbsim:
            names = shipped_aircraft()
            name = next((n for n, p in names.items() if p == a.source), Path(a.source).stem)
            if a.jsbsim is not None:
                name = f"jsbsim:{Path(a.source).stem}"
            self._aircraft_seen = (a, jsbsim, AircraftReadout(name, a.name, tuple(names) + jsbsim, a.airspeed_unit,
                                                              a.propeller is not None))
        return self._aircraft_seen[2]

    # ------------------------------------------------------------------ trim and dynamics

    def trim_now(self):
        """Trim for level flight at the current airspeed, altitude and heading, stick centred.

        The Dynamics panel then shows the modes about that trim and the ghost
        resyncs.  Where there is no such flight (too slow, too fast, ...), or
        the flight cannot be trimmed (a replay, a control schedule, a stopped
        flight), the HUD says why in one line and nothing changes.

        Returns
        -------
        flightsim.physics.trim.TrimPoint or None
        """
        why = None
        if not self.capabilities.can_fly:
            why = "a replay shows the recorded controls"
        elif self.schedule is not None:
            why = "a control schedule flies the airplane"
        elif self.sim.status is not None:
            why = "the flight has stopped: reset first"
        if why is None:
            try:
                point = self.sim.trim_now()
            except ValueError as exc:          # TrimError: no level flight here (the message says why)
                why = " ".join(str(exc).split())
        if why is not None:
            self.hud.notify(f"Trim now: {why}", 6.0)
            return None
        self.dynamics.use_trim(point)
        self.ghosts.resync()
        self.telemetry = self.sim.telemetry()
        self.hud.notify(f"trimmed: level at {point.airspeed:.0f} ft/s, throttle {point.throttle:.0%}, "
                        f"elevator trim {point.elevator:+.3f}", 4.0)
        return point

    def set_dynamics(self, on):
        """Show or hide the Dynamics panel."""
        self.dynamics.show = bool(on)

    def relinearise(self):
        """The Dynamics panel's modes about level flight where the airplane is now (the flight is left alone)."""
        why = self.dynamics.linearize_where(self.sim)
        if why is not None:
            self.hud.notify(f"Re-linearise: {why}", 6.0)

    # ------------------------------------------------------------------ HUD

    def _hud_commands(self):
        """What the HUD's panels may ask for."""

        def set_attribute(name):
            return lambda value: setattr(self.sim, name, value)

        return HudCommands(
            toggle_pause=lambda: self.press("pause"),
            reset=self.reset,
            set_time_scale=set_attribute("time_scale"),
            set_integrator=lambda name: self.sim.set_integrator(name),
            set_renormalize=set_attribute("renormalize"),
            set_camera=self.cameras.set_mode,
            seek=lambda t: self.sim.seek(t),
            toggle_recording=self.toggle_recording,
            set_ghost=self.set_ghost,
            resync_ghost=self.resync_ghost,
            set_ghost_integrator=lambda name: self.configure_ghost(integrator=name),
            set_ghost_substeps=lambda substeps: self.configure_ghost(substeps=substeps),
            trim_now=self.trim_now,
            set_autopilot=self.set_autopilot,
            set_dynamics=self.set_dynamics,
            relinearise=self.relinearise,
            set_aircraft=self.set_aircraft,
            set_sound=self.set_sound,
        )

    def hud_view(self):
        """This frame's :class:`~flightsim.app.hud.hud_view.HudView` of the flight and the app."""
        sim, rec, cameras = self.sim, self.recorder, self.cameras
        caps = sim.capabilities
        return HudView(
            telemetry=self.telemetry,
            controls=sim.controls,
            capabilities=caps,
            integrator=sim.integrator,
            renormalize=sim.renormalize,
            dt=sim.dt,
            t=sim.t,
            paused=sim.paused,
            time_scale=sim.time_scale,
            status=sim.status,
            playback=PlaybackReadout(sim.path, sim.rows, sim.start, sim.end) if caps.can_seek else None,
            stats=self.stats,
            history=self.history,
            camera=CameraReadout(cameras.mode, cameras.head_yaw, cameras.head_pitch),
            input_status=self.gamepads.status,
            recorder=RecorderReadout(rec.recording, rec.rows, rec.seconds, rec.last_path),
            ghost=self.ghosts.readout(),
            keymap=self.keymap,
            dynamics=self.dynamics.readout(sim, None if self.ghost is None
                                           else (self.ghost.integrator, self.ghost.sim.dt)),
            aircraft=self._aircraft_readout(),
            **({"autopilot": sim.autopilot.modes, "autopilot_message": sim.autopilot.message,
                "autopilot_selection": sim.autopilot.selection, "director": sim.autopilot.director}
               if caps.can_fly else {}),
            sound=(self.sound.muted, self.sound.volume) if self.sound is not None and self.sound.active else None,
        )

    # ------------------------------------------------------------------ frame

    def _finite_pose(self, fallback, source=None):
        """The interpolated pose of ``source`` (default: the flight) as (position, rotation matrix),
        or ``fallback`` if not finite."""
        try:
            pos, q = (self.sim if source is None else source).render_pose()
            pos = np.asarray(pos, dtype=np.float64)
            if np.all(np.isfinite(pos)) and np.all(np.isfinite(q)) and np.dot(q, q) > 0.0:
                return pos, quat.to_matrix(q)
        except (ValueError, FloatingPointError):
            pass
        if fallback is None and source is None:
            return np.array([0.0, 0.0, 100.0]), np.eye(3)
        return fallback

    def _ghost_frame(self, matrices, deflections):
        """After the physics: the ghost's difference to the chart, and its :class:`GhostPose` (or None)."""
        ghost = self.ghost
        self.ghosts.measure(self.sim.t)
        pose = self._finite_pose(None, ghost)
        if pose is None:
            return None
        ghost_deflections = np.nan_to_num(ghost.sim.surface_deflections())
        ghost_gear = gear_pose(ghost.sim.aircraft, ghost.sim.gear_compressions(), ghost.sim.controls)
        if not (np.array_equal(ghost_deflections, deflections) and np.array_equal(ghost_gear, self.gear)):
            matrices = self.model.part_matrices(ghost_deflections, self.prop_angle, ghost_gear)
        hidden = ()
        if self.cameras.mode == "cockpit" and np.linalg.norm(pose[0] - self.pose[0]) < self.model.radius:
            hidden = self._fuselage           # the pilot sits inside the ghost's cabin too
        return GhostPose(pose[0], pose[1], matrices, hidden)

    def _autopilot_news(self, ap):
        """Say on the HUD, once, that the autopilot disconnected and why; the approach's hand-back is its chime."""
        if self._autopilot_was_on and not ap.engaged:
            self.hud.notify(("[chime] " if ap.chime else "") + ap.message, 6.0)
            ap.chime = False
        self._autopilot_was_on = ap.engaged

    def frame(self, dt):
        """Advance and draw one frame of ``dt`` seconds (the back buffer is not swapped).

        ``dt`` also advances the HUD's clock (:attr:`~flightsim.app.hud.state.Hud.clock`): its messages and
        the stall warning's blink run on the frame time, as everything else in the frame does.
        """
        t0 = time.perf_counter()
        self.hud.tick(dt)
        sim = self.sim
        pad = self.gamepads.poll()
        if sim.capabilities.can_fly:
            if self.schedule is not None:
                _set_controls(sim.controls, self.schedule.at(sim.t))
                # and after every step of the frame, the next step's (as flightsim simulate does), last of
                # the followers so the recorder and the ghost see the controls the step flew
                if self._schedule_follower in sim.followers:
                    sim.followers.remove(self._schedule_follower)
                sim.followers.append(self._schedule_follower)
            else:
                moved = self.pilot.update(dt, sim.controls, pad, hold=sim.autopilot.engaged)
                if moved and sim.autopilot.engaged:
                    sim.autopilot.disconnect(f"autopilot disconnected: pilot input on the {moved[0]}")
        if self.ghost is not None:
            self.ghost.sim.renormalize = sim.renormalize      # the ghost differs by its integrator only
        steps = sim.advance(dt)
        if sim.capabilities.can_fly:
            self._autopilot_news(sim.autopilot)
        self.telemetry = sim.telemetry()
        if self.sound is not None:       # the frame's wall time as the simulation took it; rendered on its own thread
            self.sound.listen(clamp_frame(dt), sim, self.telemetry)
        self.history.append(self.telemetry)
        self.pose = self._finite_pose(self.pose)
        deflections = np.nan_to_num(sim.surface_deflections())
        if not sim.paused and sim.status is None:
            rpm = self.telemetry.rpm
            # drawn in proportion to the engine's speed, 2400 rpm as 80 rad/s (the true 250 rad/s would
            # alias to a crawl at 60 frames a second); with no engine, from the throttle
            spin = (rpm / PROP_RPM_PER_RAD_S if rpm > 0.0
                    else 25.0 + 55.0 * min(max(sim.controls.throttle, 0.0), 1.0))   # rad/s
            self.prop_angle = (self.prop_angle + spin * dt * sim.time_scale) % (2.0 * math.pi)
        self.gear = gear_pose(sim.aircraft, [g.compression for g in self.telemetry.gear], sim.controls)
        matrices = self.model.part_matrices(deflections, self.prop_angle, self.gear)
        ghost = self.ghost_pose = self._ghost_frame(matrices, deflections) if self.ghost is not None else None
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
        build = self._build_hud
        t0 = time.perf_counter()
        if self.quality.hud_hz <= 0.0:
            self.scene.draw(view, size, pos, rot, matrices, hidden=hidden, ghost=ghost, wind=wind,
                            backdrops=self._backdrops() if self.hud.backdrops else None)
            t1 = time.perf_counter()
            self.gui.frame(dt, build)
            return t1 - t0, time.perf_counter() - t1
        # The HUD from its texture: redrawn before the scene when it must show something at once, else
        # built after the scene when due and drawn by the next frames (ImguiLayer.hud_image).
        if self._screenshot_requested:
            self.gui.invalidate()
        image = self.gui.hud_image(dt, build, self._panel_underlay)
        t1 = time.perf_counter()
        self.scene.draw(view, size, pos, rot, matrices, hidden=hidden, ghost=ghost, wind=wind,
                        backdrops=self._backdrops(panels=False), hud=image)
        t2 = time.perf_counter()
        self.gui.refresh_due(build, self.quality.hud_hz)
        return t2 - t1, (t1 - t0) + (time.perf_counter() - t2)

    def _build_hud(self):
        """Add the HUD's windows to the current imgui frame."""
        self.hud.draw(self.hud_view(), self.hud_commands)

    def _panel_backdrops(self):
        """The side panels' opaque backgrounds where the HUD last drew them: ``[(polygon, rgb), ...]``."""
        shapes = []
        for name in BACKDROP_WINDOWS:
            box = self.hud.hit_boxes.get(name)
            if box is not None:
                x0, y0, x1, y1 = box
                shapes.append((((x0, y0), (x1, y0), (x1, y1), (x0, y1)), BACKDROP_RGB))
        return shapes

    def _panel_underlay(self):
        """Under the cached HUD (in its texture): the panels' backgrounds; their rectangles are opaque."""
        shapes = self._panel_backdrops()
        self.scene.draw_backdrops(self.window.get_size(), shapes)
        return [(p[0][0], p[0][1], p[2][0], p[2][1]) for p, _ in shapes]

    def _backdrops(self, panels=True):
        """What the scene draws opaque in front (``low`` quality): last frame's side panels (``panels``), then
        the cockpit frame while the pilot looks ahead, as ``(window size, [(polygon, rgb), ...])``."""
        shapes = self._panel_backdrops() if panels else []
        size = self.window.get_size()
        if self.cameras.mode == "cockpit":
            fade, frame = cockpit_shapes(size[0], size[1], self.cameras.head_yaw, self.cameras.head_pitch)
            if fade >= 1.0:
                shapes += frame
        return size, shapes

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
                saved = self._stop_recording()
            self.ghosts.stop()
            self.gui.shutdown()
        finally:
            try:
                if self.sound is not None:
                    self.sound.close()
            finally:
                self.window.close()
        return saved


def start_trim(source):
    """The trim a live flight started from (a :class:`~flightsim.physics.trim.TrimPoint`), else None (an untrimmed
    start, or a playback, whose ``start`` is a time)."""
    return getattr(getattr(source, "start", None), "trim", None) if source.capabilities.can_fly else None


def gear_pose(aircraft, compressions, controls):
    """Per contact point: leg compression (ft) and steering angle (deg, + right), for the airplane model.

    ``compressions`` as in the telemetry's gear (empty: legs extended);
    steering follows the rudder for the wheels that steer.
    """
    pose = np.zeros((len(aircraft.gear), 2))
    if len(compressions) == len(aircraft.gear):
        pose[:, 0] = np.nan_to_num(np.asarray(compressions, dtype=np.float64))
    rudder = controls.rudder if math.isfinite(controls.rudder) else 0.0
    pose[:, 1] = [min(max(rudder, -1.0), 1.0) * c.steering_deg for c in aircraft.gear]
    return pose


def _set_controls(controls, values):
    """Copy ``values`` (a Controls) into ``controls`` in place (the ghost and the HUD hold on to it).

    A schedule's elevator is the whole elevator (its trim is 0), as in ``flightsim simulate``.
    """
    for field in dataclasses.fields(values):
        setattr(controls, field.name, getattr(values, field.name))


def _escape():
    from pyglet.window import key

    return key.ESCAPE

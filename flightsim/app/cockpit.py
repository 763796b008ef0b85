"""The flight app's switches: what a key or a HUD button switches on, off or over.

A :class:`Cockpit` belongs to one :class:`~flightsim.app.app.FlightApp` and
acts on it: the pilot's hands, the ghost, the recording, the sound, the autopilot, *Trim now*,
the Dynamics panel and the aircraft.  Each switch checks first whether the
flight shown allows it (a replay, a control schedule, a stopped flight) and,
where it does not, says why in one HUD line and changes nothing.  None of
them draws: the app's frame shows the outcome.
"""

from __future__ import annotations

from flightsim.app.dynamics_companion import DynamicsCompanion
from flightsim.app.scene.airplane_model import build_airplane, model_spec_for
from flightsim.errors import InputError
from flightsim.physics import integrators, step_entries
from flightsim.simulation.autopilot import Selection

__all__ = ["Cockpit", "start_trim"]


def start_trim(source):
    """The trim a live flight started from (a :class:`~flightsim.physics.trim.TrimPoint`), else None (an untrimmed
    start, or a playback, whose ``start`` is a time)."""
    return getattr(getattr(source, "start", None), "trim", None) if source.capabilities.can_fly else None


class Cockpit:
    """The switches of a flight app (``app.cockpit``).

    Parameters
    ----------
    app : flightsim.app.app.FlightApp
    """

    #: Frames between saying that an integrator compiles and compiling it: the HUD (cached in a texture, drawn
    #: in halves) shows the message before the stall.
    COMPILE_NOTICE_FRAMES = 4

    def __init__(self, app):
        self.app = app
        self._autopilot_was_on = False
        #: ``[frames to wait, what to do]``: a switch waiting for its message to be seen (:meth:`after_compiling`)
        self.pending = None

    def _refuse(self, what, why, seconds=6.0):
        self.app.hud.notify(f"{what}: {why}" if what else why, seconds)

    def _cannot_steer(self):
        """Why the flight's controls are not the pilot's to set (a replay, a schedule), or None."""
        app = self.app
        if not app.capabilities.can_fly:
            return "a replay shows the recorded controls"
        if app.schedule is not None:
            return "a control schedule flies the airplane"
        return None

    # ------------------------------------------------------------------ integrators

    def after_compiling(self, name, switch):
        """Run ``switch()``, which flies the integrator ``name`` from the next step: at once if its step is
        compiled (or in numba's disk cache); else, its first use on this machine, the HUD first says that it
        compiles (a second or two), and ``switch`` runs a few frames later (:meth:`frame_start`), never as an
        unexplained stall.  An unknown ``name`` raises ValueError listing the valid ones."""
        method = integrators.get(name)
        if step_entries.entry_compiled(method.entry) or not self.app.capabilities.can_fly:
            switch()
            return
        self.app.hud.notify(f"compiling {name} for this machine (its first use only)...", 4.0)
        self.app.gui.invalidate()

        def compile_and_switch():
            switch()
            self.app.sim.warm_up(name)       # now, between frames, not inside the next frame's physics

        self.pending = [self.COMPILE_NOTICE_FRAMES, compile_and_switch]

    def frame_start(self):
        """At the start of each frame: a switch waiting for its message to be seen runs when its frames are up."""
        if self.pending is not None:
            self.pending[0] -= 1
            if self.pending[0] <= 0:
                switch, self.pending = self.pending[1], None
                switch()

    # ------------------------------------------------------------------ ghost and recording

    def set_ghost(self, on):
        """Switch the ghost on (starting from the airplane's current state) or off."""
        app = self.app
        if not app.capabilities.can_ghost:
            if on:
                self._refuse("", "no ghost in a replay: it shows recorded states", 3.0)
            return
        if on:
            app.ghosts.start(app.sim)
        else:
            app.ghosts.stop()

    def toggle_ghost(self):
        """Switch the ghost on or off (the ``ghost`` key); the HUD says which (and first, where the ghost's
        integrator has never flown on this machine, that it compiles: :meth:`after_compiling`)."""
        app = self.app

        def switch():
            self.set_ghost(app.ghost is None)
            if app.capabilities.can_ghost:
                app.hud.notify(f"ghost: {'on, ' + app.ghost.integrator if app.ghost else 'off'}", 1.5)

        if app.ghost is None:
            self.after_compiling(app.ghosts.integrator, switch)
        else:
            switch()

    def configure_ghost(self, integrator=None, substeps=None):
        """Change the ghost's integrator and/or sub-steps (kept for when it is switched on again).

        A running ghost keeps its state and goes on with the new method.
        """
        self.app.ghosts.configure(integrator, substeps)

    def resync_ghost(self):
        """Put the ghost back on the airplane (clears a ghost's crash)."""
        self.app.ghosts.resync()

    def toggle_recording(self):
        """Start recording the flight to a trace, or stop and write it."""
        app = self.app
        if not app.capabilities.can_record:
            self._refuse("", "a replay is not recorded again", 3.0)
        elif app.recorder.recording:
            self.stop_recording()
        else:
            app.recorder.start(app.sim)
            app.hud.notify("recording a trace")

    def stop_recording(self):
        """Write the trace being recorded; return its path (None if it could not be written: the HUD says why)."""
        try:
            path = self.app.recorder.stop()
        except OSError as exc:
            self._refuse("trace not saved", exc.strerror or exc)
            return None
        self.app.hud.notify(f"trace saved: {path}", 5.0)
        return path

    # ------------------------------------------------------------------ sound and autopilot

    def set_sound(self, muted, volume=None):
        """Mute the sound or not, and set its volume (0..1, None: as it is); the HUD says so."""
        sound = self.app.sound
        if sound is None or not sound.active:
            self._refuse("", "no sound (--no-sound, or no audio device)", 2.0)
            return
        was = sound.muted
        sound.muted = muted
        if volume is not None:
            sound.volume = volume
        if was != sound.muted:
            self.app.hud.notify("sound off" if muted else "sound on", 1.5)

    def hands(self, dt, pad, sticks):
        """The pilot's hands for one frame (keys, gamepad, joysticks): they move the controls, and a control moved
        disconnects whoever flies, the autopilot or a saved policy (``fly --policy``), saying why; an engaged
        autopilot also stops the policy."""
        app = self.app
        sim = app.sim
        policy = app.policy if app.policy is not None and app.policy.engaged else None
        if policy is not None and sim.autopilot.engaged:
            self._policy_off("policy off: the autopilot flies")
            policy = None
        moved = app.pilot.update(dt, sim.controls, pad, hold=sim.autopilot.engaged or policy is not None,
                                 sticks=sticks)
        if moved and sim.autopilot.engaged:
            sim.autopilot.disconnect(f"autopilot disconnected: pilot input on the {moved[0]}")
        if moved and policy is not None:
            self._policy_off(f"policy disconnected: pilot input on the {moved[0]}")

    def _policy_off(self, why):
        self.app.policy.disconnect(why)
        self.app.hud.notify(why, 4.0)

    def toggle_autopilot(self):
        """Engage the autopilot holding the heading (to a degree), the altitude and the speed as they are, or
        disconnect it."""
        app = self.app
        if app.capabilities.can_fly and app.sim.autopilot.engaged:
            return self.set_autopilot(None)
        return self.set_autopilot(Selection(heading=float(round(app.telemetry.heading) % 360)))

    def set_autopilot(self, selection):
        """Fly ``selection`` (:class:`~flightsim.simulation.autopilot.Selection`) on the autopilot, or disconnect it
        (None).  Where it cannot fly (a replay, a schedule, on the ground, no level flight) the HUD says why.

        Returns
        -------
        bool
            Engaged.
        """
        app = self.app
        ap = getattr(app.sim, "autopilot", None)
        why = self._cannot_steer() or (None if ap is not None else "a replay shows the recorded controls")
        if why is None and selection is None:
            ap.disconnect(f"autopilot off ({app.keymap.describe('autopilot')})")
            return False
        if why is None:
            try:
                ap.select(app.sim, selection)
            except ValueError as exc:
                why = str(exc).removeprefix("autopilot: ")
        if why is not None:
            self._refuse("Autopilot", why, 5.0)
            return False
        app.pilot.release_all()
        return True

    def news(self):
        """After a frame's physics: the lesson's progress and end (:meth:`LessonCompanion.frame
        <flightsim.app.lesson_companion.LessonCompanion.frame>`); and say on the HUD, once, that the autopilot
        disconnected and why (the approach's hand-back is its chime).  Nothing for a source that cannot fly."""
        if not self.app.sim.capabilities.can_fly:
            return
        self.app.lessons.frame()
        ap = self.app.sim.autopilot
        if self._autopilot_was_on and not ap.engaged:
            self.app.hud.notify(("[chime] " if ap.chime else "") + ap.message, 6.0)
            ap.chime = False
        self._autopilot_was_on = ap.engaged

    def calibrate(self, name):
        """Start measuring the axes of the joystick ``name`` (the user moves each through its travel), or stop and
        save the ranges beside the keymap; the HUD says what happened."""
        calibration = self.app.joysticks.calibration
        if name not in calibration.recording:
            calibration.start(name)
            self.app.hud.notify(f"calibrating {name}: move every axis through its whole travel, then Done", 30.0)
            return
        try:
            axes = calibration.finish(name)
        except OSError as exc:
            self._refuse("calibration not saved", exc.strerror or exc)
            return
        self.app.hud.notify(f"{name}: {', '.join(axes)} calibrated, saved to {calibration.path}" if axes
                            else f"{name}: no axis moved far enough; nothing changed", 6.0)

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
        app = self.app
        why = self._cannot_steer()
        if why is None and app.sim.status is not None:
            why = "the flight has stopped: reset first"
        if why is None:
            try:
                point = app.sim.trim_now()
            except ValueError as exc:          # TrimError: no level flight here (the message says why)
                why = " ".join(str(exc).split())
        if why is not None:
            self._refuse("Trim now", why)
            return None
        app.dynamics.use_trim(point)
        app.ghosts.resync()
        app.telemetry = app.sim.telemetry()
        app.hud.notify(f"trimmed: level at {point.airspeed:.0f} ft/s, throttle {point.throttle:.0%}, "
                       f"elevator trim {point.elevator:+.3f}", 4.0)
        return point

    def set_dynamics(self, on):
        """Show or hide the Dynamics panel."""
        self.app.dynamics.show = bool(on)

    def relinearise(self):
        """The Dynamics panel's modes about level flight where the airplane is now (the flight is left alone)."""
        why = self.app.dynamics.linearize_where(self.app.sim)
        if why is not None:
            self._refuse("Re-linearise", why)

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
        app = self.app
        why = None
        if not app.capabilities.can_fly:
            why = "a replay shows the recorded airplane"
        else:
            try:
                sim = app.sim.with_aircraft(name)
                spec = model_spec_for(sim.aircraft)
                model = build_airplane(sim.aircraft, spec, detail=app.quality.airplane_detail)
            except (InputError, ValueError) as exc:
                why = " ".join(str(exc).split())
        if why is not None:
            self._refuse("Aircraft", why)
            return False
        self._fly(sim, model, spec)
        app.hud.notify(f"aircraft: {sim.aircraft.name}", 3.0)
        return True

    def switch_flight(self, sim, message):
        """Fly ``sim`` (a new :class:`~flightsim.simulation.flight.Simulation`) from now on, from its start: the
        airplane drawn with its model, a recording saved first, the ghost stopped, the charts cleared; the HUD says
        ``message``.  False (the HUD saying why) where the app cannot change its flight (a replay)."""
        app = self.app
        if not app.capabilities.can_fly:
            self._refuse("Lesson", "a replay shows the recorded flight")
            return False
        spec = model_spec_for(sim.aircraft)
        self._fly(sim, build_airplane(sim.aircraft, spec, detail=app.quality.airplane_detail), spec)
        app.hud.notify(message, 3.0)
        return True

    def _fly(self, sim, model, spec):
        """Put the app on ``sim`` drawn as ``model``, from its start."""
        app = self.app
        if app.recorder.recording:
            self.stop_recording()
        app.ghosts.stop()
        if app.policy is not None and app.policy.engaged:      # it flew the flight left behind
            app.policy.disconnect("policy off: a new flight")
        sim.paused, sim.time_scale = app.sim.paused, app.sim.time_scale
        app.sim = sim
        app.show_airplane(model, spec)
        app.dynamics = DynamicsCompanion(sim.aircraft, sim.atmosphere, start_trim(sim), show=app.dynamics.show)
        app.reset()
        app.window.set_caption(f"flightsim - {sim.aircraft.name}")

"""Between the flight app and its HUD: what the panels read, what they may ask for, what hides behind them.

A :class:`HudBridge` gives the HUD (:class:`~flightsim.app.hud.state.Hud`)
of one :class:`~flightsim.app.app.FlightApp`, each frame, a read-only
:class:`~flightsim.app.hud.hud_view.HudView` of the flight and the app, and
once the :class:`~flightsim.app.hud.hud_view.HudCommands` its panels may
issue (the app's :class:`~flightsim.app.cockpit.Cockpit` switches, the
flight's settings).  It also tells the scene where the opaque side panels
and the cockpit frame are, so the scene leaves those pixels alone.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

from flightsim.app.hud.hud_view import (
    AircraftReadout,
    CameraReadout,
    HudCommands,
    HudView,
    InstructorReadout,
    NavReadout,
    PlaybackReadout,
    RecorderReadout,
)
from flightsim.app.hud.instruments import cockpit_shapes
from flightsim.app.hud.panels import BACKDROP_RGB, BACKDROP_WINDOWS
from flightsim.errors import InputError
from flightsim.resources import shipped_aircraft
from flightsim.simulation.lessons import LESSONS

__all__ = ["HudBridge"]

#: The jsbsim package's aircraft that fly (``jsbsim:NAME``), offered by the Aircraft combo: found once per process
#: on a thread (about a second of XML), so no window waits for them; empty until then.
_JSBSIM_CHOICES = [()]
_JSBSIM_SEARCH = []
#: Seconds of the app's clock before that search starts.
SEARCH_AFTER = 1.0

DOCK_PX = 16.0
"""A panel's opaque backdrop (``low`` quality) reaches a window edge it stands this close to, pixels."""


def _find_jsbsim_aircraft():
    """Start the search for :data:`_JSBSIM_CHOICES` (once per process)."""
    if _JSBSIM_SEARCH:
        return

    def search():
        from flightsim.physics.jsbsim.model import fleet

        _JSBSIM_CHOICES[0] = tuple(f"jsbsim:{name}" for name, a in fleet() if not isinstance(a, InputError))

    _JSBSIM_SEARCH.append(threading.Thread(target=search, name="jsbsim-aircraft", daemon=True))
    _JSBSIM_SEARCH[0].start()


class HudBridge:
    """The HUD's view of a flight app and its commands to it (``app.hud_bridge``).

    Parameters
    ----------
    app : flightsim.app.app.FlightApp

    Attributes
    ----------
    commands : HudCommands
        What the HUD's panels may ask for.
    """

    def __init__(self, app):
        self.app = app
        self.commands = self._commands()
        self._aircraft_seen = None
        self._nav_names = None                 # (when, the station list) for the NAV panel

    def _commands(self):
        app, cockpit = self.app, self.app.cockpit

        def set_attribute(name):
            return lambda value: setattr(app.sim, name, value)

        # through ``app``, not bound now: the flight, its camera rig and the cockpit change with the aircraft
        return HudCommands(
            toggle_pause=lambda: app.press("pause"),
            reset=lambda: app.reset(),
            set_time_scale=set_attribute("time_scale"),
            set_integrator=lambda name: cockpit.after_compiling(name, lambda: app.sim.set_integrator(name)),
            set_renormalize=set_attribute("renormalize"),
            set_camera=lambda mode: app.cameras.set_mode(mode),
            seek=lambda t: app.sim.seek(t),
            toggle_recording=cockpit.toggle_recording,
            set_ghost=lambda on: (cockpit.after_compiling(app.ghosts.integrator, lambda: cockpit.set_ghost(True)) if on
                                  else cockpit.set_ghost(False)),
            resync_ghost=cockpit.resync_ghost,
            set_ghost_integrator=lambda name: cockpit.after_compiling(
                name, lambda: cockpit.configure_ghost(integrator=name)),
            set_ghost_substeps=lambda substeps: cockpit.configure_ghost(substeps=substeps),
            trim_now=cockpit.trim_now,
            set_autopilot=cockpit.set_autopilot,
            set_dynamics=cockpit.set_dynamics,
            relinearise=cockpit.relinearise,
            set_aircraft=cockpit.set_aircraft,
            set_sound=cockpit.set_sound,
            set_devices=lambda on: setattr(app.hud, "show_devices", bool(on)),
            set_map=lambda on: app.map.toggle(bool(on)),
            fail=lambda kind: app.sim.failures.fail(kind, app.sim.t),
            repair=lambda kind: app.sim.failures.repair(kind),
            set_instructor=lambda on: setattr(app.hud, "show_instructor", bool(on)),
            load_lesson=lambda name: app.lessons.load(name),
            start_lesson=lambda: app.lessons.go(),
            close_lesson=lambda: app.lessons.close(),
            calibrate=cockpit.calibrate,
            tune_nav=self._tune_nav,
            set_obs=self._set_obs,
        )

    def _set_obs(self, course):
        """Turn the course selector to ``course`` (deg); an autopilot tracking this VOR (``NAV``) follows it, as a
        real one follows its course selector."""
        app = self.app
        radio = _radio(app.sim)
        if radio is None:
            return
        radio.set_obs(course)
        ap = getattr(app.sim, "autopilot", None)
        selection = getattr(ap, "selection", None)
        if (ap is not None and ap.engaged and selection is not None and not selection.approach
                and selection.nav is not None and selection.nav[0] == radio.station.ident):
            app.cockpit.set_autopilot(replace(selection, nav=(selection.nav[0], float(radio.obs))))

    def _tune_nav(self, key):
        """Tune the flight's NAV radio to ``key`` (``"HOM 113.90"``: its first word; or a frequency); a failure is a
        HUD message."""
        radio = _radio(self.app.sim)
        if radio is None:
            return
        try:
            radio.tune(str(key).split()[0] if str(key).strip() else key)
        except ValueError as exc:
            self.app.hud.notify(str(exc))

    def _nav_readout(self, sim):
        """The :class:`~flightsim.app.hud.hud_view.NavReadout` of ``sim``'s radio (None: it has none)."""
        radio = _radio(sim)
        if radio is None:
            return None
        from flightsim.simulation import navigation

        now = time.monotonic()
        if self._nav_names is None or now - self._nav_names[0] > 2.0:       # the files looked at every 2 s
            try:
                names = tuple(s.name for s in navigation.stations())
            except ValueError:                # a bad airfield file: the list as it was
                names = () if self._nav_names is None else self._nav_names[1]
            self._nav_names = (now, names)
        names = self._nav_names[1]
        station = radio.station
        return NavReadout(station.name if station is not None else "", station is not None and station.kind == "ILS",
                          radio.obs, radio.read(sim.vector[:3]), names)

    def view(self):
        """This frame's :class:`~flightsim.app.hud.hud_view.HudView` of the flight and the app."""
        app = self.app
        sim, rec, cameras, sound = app.sim, app.recorder, app.cameras, app.sound
        caps = sim.capabilities
        ghost = app.ghost
        return HudView(
            telemetry=app.telemetry,
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
            stats=app.stats,
            history=app.history,
            camera=CameraReadout(cameras.mode, cameras.head_yaw, cameras.head_pitch),
            input_status=" | ".join(filter(None, (app.gamepads.status, app.joysticks.status))),
            recorder=RecorderReadout(rec.recording, rec.rows, rec.seconds, rec.last_path),
            ghost=app.ghosts.readout(),
            keymap=app.keymap,
            dynamics=app.dynamics.readout(sim, None if ghost is None else (ghost.integrator, ghost.sim.dt)),
            aircraft=self._aircraft_readout(),
            **({"autopilot": sim.autopilot.modes, "autopilot_message": sim.autopilot.message,
                "autopilot_selection": sim.autopilot.selection, "director": sim.autopilot.director}
               if caps.can_fly else {}),
            sound=(sound.muted, sound.volume) if sound is not None and sound.active else None,
            devices=app.joysticks.readout() if app.hud.show_devices else None,
            nav=self._nav_readout(sim) if caps.can_fly else None,
            map=app.map.readout(app.pose[0], app.telemetry.heading),
            instructor=self._instructor_readout(sim) if app.hud.show_instructor and caps.can_fly else None,
            lesson=app.lessons.readout(),
            lessons=_LESSON_TITLES if caps.can_fly else (),
        )

    @staticmethod
    def _instructor_readout(sim):
        """The Instructor panel's :class:`~flightsim.app.hud.hud_view.InstructorReadout` of ``sim``'s failures."""
        from flightsim.simulation.failures import describe, kinds_for

        failures = sim.failures
        return InstructorReadout(kinds_for(sim.aircraft), tuple((k, failures.since(k)) for k in failures.active),
                                 tuple((f.kind, describe(f)) for f in failures.scheduled), sim.t)

    def close(self):
        """Wait (at most 10 s) for the search of the jsbsim package's aircraft to end: a daemon thread still inside
        it when the interpreter exits can crash it (``fly --frames 2`` did, with a segmentation fault)."""
        if _JSBSIM_SEARCH:
            _JSBSIM_SEARCH[0].join(10.0)

    def build(self):
        """Add the HUD's windows to the current imgui frame.  After the first second of flight the search for the
        jsbsim package's aircraft starts (not before: a short run, a screenshot or a first-frame timing, ends
        without it)."""
        if self.app.hud.clock > SEARCH_AFTER:
            _find_jsbsim_aircraft()
        self.app.hud.draw(self.view(), self.commands)

    def _aircraft_readout(self):
        a, jsbsim = self.app.sim.aircraft, _JSBSIM_CHOICES[0]
        # (the files are not read per frame: again only for another aircraft, or once the jsbsim ones are found)
        if self._aircraft_seen is None or self._aircraft_seen[0] is not a or self._aircraft_seen[1] is not jsbsim:
            names = shipped_aircraft()
            name = next((n for n, p in names.items() if p == a.source), Path(a.source).stem)
            if a.jsbsim is not None:
                name = f"jsbsim:{Path(a.source).stem}"
            self._aircraft_seen = (a, jsbsim, AircraftReadout(name, a.name, tuple(names) + jsbsim, a.airspeed_unit,
                                                              a.propeller is not None))
        return self._aircraft_seen[2]

    # ------------------------------------------------------------------ what the scene leaves to the HUD

    def _panel_backdrops(self):
        """The side panels' opaque backgrounds where the HUD last drew them, each reaching a window's edge it
        stands within :data:`DOCK_PX` of (the strip between would be scene the renderer must draw in a pass of
        its own, :func:`~flightsim.app.scene.renderer.scene_rects`): ``[(polygon, rgb), ...]``."""
        width, height = self.app.window.get_size()
        shapes = []
        for name in BACKDROP_WINDOWS:
            box = self.app.hud.hit_boxes.get(name)
            if box is not None:
                x0, y0, x1, y1 = box
                x0, y0 = (0.0 if x0 <= DOCK_PX else x0), (0.0 if y0 <= DOCK_PX else y0)
                x1 = float(width) if x1 >= width - DOCK_PX else x1
                y1 = float(height) if y1 >= height - DOCK_PX else y1
                shapes.append((((x0, y0), (x1, y0), (x1, y1), (x0, y1)), BACKDROP_RGB))
        return shapes

    def panel_underlay(self):
        """Under the cached HUD (in its texture): the panels' backgrounds; their rectangles are opaque."""
        shapes = self._panel_backdrops()
        self.app.scene.draw_backdrops(self.app.window.get_size(), shapes)
        return [(p[0][0], p[0][1], p[2][0], p[2][1]) for p, _ in shapes]

    def backdrops(self, panels=True):
        """What the scene draws opaque in front (``low`` quality): last frame's side panels (``panels``), then
        the cockpit frame while the pilot looks ahead, as ``(window size, [(polygon, rgb), ...])``."""
        app = self.app
        shapes = self._panel_backdrops() if panels else []
        size = app.window.get_size()
        if app.cameras.mode == "cockpit":
            fade, frame = cockpit_shapes(size[0], size[1], app.cameras.head_yaw, app.cameras.head_pitch)
            if fade >= 1.0:
                shapes += frame
        return size, shapes


#: The Lessons menu: (name, title) of each lesson.
_LESSON_TITLES = tuple((name, lesson.title) for name, lesson in LESSONS.items())


def _radio(sim):
    """The NAV radio a flight carries (:attr:`Simulation.nav <flightsim.simulation.flight.Simulation.nav>`), or
    None."""
    return getattr(sim, "nav", None)

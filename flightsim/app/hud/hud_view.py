"""What the HUD's panels see and what they may ask for: :class:`HudView` and :class:`HudCommands`.

The app builds a :class:`HudView` every frame (a read-only snapshot of the
flight and the app's own state) and one :class:`HudCommands` (the actions a
panel may take).  A panel is a function of the two and the
:class:`~flightsim.app.hud.state.Hud`'s own state; it never sees the app, the
window or the flight source itself.  Nothing here imports imgui.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    import numpy as np

    from flightsim.app.hud.history import History
    from flightsim.app.input.keymap import Keymap
    from flightsim.simulation.controls import Controls
    from flightsim.simulation.flight import Telemetry
    from flightsim.simulation.source import Capabilities

__all__ = ["AircraftReadout", "CameraReadout", "DynamicsReadout", "GhostReadout", "HudCommands", "HudView",
           "NavReadout", "PlaybackReadout",
           "RecorderReadout", "StepReadout"]


@dataclass(frozen=True)
class CameraReadout:
    """The camera: its mode (``"chase"``, ``"cockpit"``, ...) and the pilot's head turn (deg)."""

    mode: str
    head_yaw: float = 0.0
    head_pitch: float = 0.0


@dataclass(frozen=True)
class AircraftReadout:
    """The airplane flown: its shipped name (``"c172"``; its file's stem for another file), its title,
    the shipped names the Aircraft combo offers, what the airspeed indicator reads (``"kt"``: indicated
    knots; ``"ft/s"``: true airspeed) and whether it has an engine with a propeller (an RPM gauge)."""

    name: str
    title: str
    choices: tuple = ()
    airspeed_unit: str = "ft/s"
    propeller: bool = False


@dataclass(frozen=True)
class PlaybackReadout:
    """A recording being played back: where it came from, its rows and its time span (s)."""

    path: str | Path
    rows: int
    start: float
    end: float


@dataclass(frozen=True)
class RecorderReadout:
    """The trace recorder: recording now, rows and simulated seconds so far, the last file written."""

    recording: bool
    rows: int
    seconds: float
    last_path: Optional[Path]


@dataclass(frozen=True)
class GhostReadout:
    """The ghost airplane.

    Attributes
    ----------
    on : bool
        A ghost flies.
    integrator, substeps
        Its integrator and sub-steps (kept while it is off, for the next one).
    status : str or None
        Why the ghost stopped (it crashed or went non-finite), or None.
    difference : (float, float)
        Attitude (deg) and position (ft) difference from the airplane at the last frame.
    history : History
        The difference over the last 30 s (series ``attitude``, ``position``).
    """

    on: bool
    integrator: str
    substeps: int
    status: Optional[str]
    difference: tuple[float, float]
    history: History


@dataclass(frozen=True)
class StepReadout:
    """What one integrator at its step makes of the airplane's modes (the flight's, or the ghost's).

    Attributes
    ----------
    role : str
        ``"flight"`` (the integrator flying the airplane) or ``"ghost"``.
    integrator : str
    dt : float
        Its step, s (the ghost's: the flight's dt over its sub-steps).
    modes : tuple of flightsim.simulation.dynamics.ModeAtDt
        Each mode's ``λ·dt``, multiplier per step and whether the step keeps
        it bounded, in the order of :attr:`DynamicsReadout.modes`.
    largest_stable_dt : float or None
        The largest dt (s) at which it keeps every mode bounded.
    region : (numpy.ndarray, numpy.ndarray)
        Re z and Im z of its stability region's boundary (the test equation's, the textbook picture).
    stable_points, unstable_points : (numpy.ndarray, numpy.ndarray)
        Re and Im of ``λ·dt`` (and of the conjugate of a pair) of the modes it
        keeps bounded, and of those it makes diverge.
    beyond_region : tuple of str
        Decaying modes whose ``λ·dt`` lies outside the region yet the step
        keeps bounded (a partitioned step, like Bourg's Euler, is more stable
        on the airplane than the test equation says).
    inside_region : tuple of str
        Modes inside the region that the step still makes diverge.
    """

    role: str
    integrator: str
    dt: float
    modes: tuple
    largest_stable_dt: Optional[float]
    region: tuple[np.ndarray, np.ndarray]
    stable_points: tuple[np.ndarray, np.ndarray]
    unstable_points: tuple[np.ndarray, np.ndarray]
    beyond_region: tuple = ()
    inside_region: tuple = ()

    @property
    def diverging(self) -> tuple:
        """Names of the modes this integrator makes diverge at this dt."""
        return tuple(m.mode.name for m in self.modes if not m.stable)


@dataclass(frozen=True)
class NavReadout:
    """The NAV radio (:class:`flightsim.simulation.navigation.NavRadio`) as the HSI and the NAV panel show it.

    Attributes
    ----------
    station : str
        The tuned station as a list shows it (``"I-KVAL27 108.70"``), '' when none is tuned.
    ils : bool
        The tuned station is an ILS (its course is the runway's; a glide slope).
    obs : float
        The selected course, deg.
    reading : flightsim.simulation.navigation.Reading
        What it receives (``reading.valid`` False: no signal).
    stations : tuple of str
        Every station there is, as :attr:`station` names one.
    """

    station: str
    ils: bool
    obs: float
    reading: object
    stations: tuple


@dataclass(frozen=True)
class DynamicsReadout:
    """The Dynamics panel: the airplane's modes about a trim and what the integrators in use make of them.

    Attributes
    ----------
    header : str
        What the modes are about (``"about level flight at 160 ft/s, 2000 ft"``), or why there are none.
    error : str or None
        Why the last trim or re-linearisation failed (the modes shown are the earlier ones), or None.
    modes : tuple of flightsim.physics.modes.Mode
        Short period, phugoid, Dutch roll, roll, spiral (as found).
    steps : tuple of StepReadout
        The flight's integrator at its dt first, then the ghost's when one
        flies; empty where no integrator runs (a replay).
    generation : int
        Changes whenever the numbers do (a plot refits its axes then).
    """

    header: str
    error: Optional[str]
    modes: tuple
    steps: tuple
    generation: int


@dataclass(frozen=True)
class HudView:
    """Everything the panels read in one frame.

    Attributes
    ----------
    telemetry : Telemetry
        The instruments (angles in degrees, aviation signs).
    controls : Controls
        The controls flying now (the pilot's, or the recorded ones).
    capabilities : Capabilities
        What the flight source can do: which panels and buttons apply.
    integrator : str
        Name of the source's integrator.
    renormalize : bool
        q renormalised every step.
    dt, t : float
        Physics step and the flight's clock, s.
    paused : bool
    time_scale : float
    status : str or None
        Why the flight stopped, or None while it runs.
    playback : PlaybackReadout or None
        Where ``capabilities.can_seek``: the recording.
    stats : flightsim.app.app.FrameStats
        Frame timings.
    history : History
        Telemetry over the last 30 s (roll, pitch, heading, ``|q| - 1``).
    camera : CameraReadout
    input_status : str
        Where the controls come from (the gamepad's status, or "controls as recorded").
    recorder : RecorderReadout
    ghost : GhostReadout
    keymap : Keymap
        ``describe(action)`` gives the key of an action.
    aircraft : AircraftReadout or None
        The airplane and the other shipped ones.
    dynamics : DynamicsReadout or None
        The Dynamics panel's numbers while it is shown; None while it is
        hidden (then nothing is computed).
    """

    telemetry: Telemetry
    controls: Controls
    capabilities: Capabilities
    integrator: str
    renormalize: bool
    dt: float
    t: float
    paused: bool
    time_scale: float
    status: Optional[str]
    playback: Optional[PlaybackReadout]
    stats: object
    history: History
    camera: CameraReadout
    input_status: str
    recorder: RecorderReadout
    ghost: GhostReadout
    keymap: Keymap
    dynamics: Optional[DynamicsReadout] = None
    aircraft: Optional[AircraftReadout] = None
    #: The autopilot's engaged modes (``HDG ALT SPD``), '' when it is off.
    autopilot: str = ""
    #: Why the autopilot last disconnected ('' while engaged or never engaged).
    autopilot_message: str = ""
    #: What the autopilot flies, or last flew (a :class:`~flightsim.simulation.autopilot.Selection`; None: no
    #: autopilot).
    autopilot_selection: object = None
    #: The flight director's command, (bank, pitch) in degrees, while the autopilot flies.
    director: Optional[tuple] = None
    #: The sound: (muted, volume 0..1), or None where there is none (``--no-sound``, no audio device).
    sound: Optional[tuple] = None
    #: The Input panel's joysticks (:class:`flightsim.app.input.joystick.DeviceReadout`), or None while it is hidden.
    devices: Optional[tuple] = None
    #: The NAV radio (:class:`NavReadout`), or None where the source has none (a replay).
    nav: Optional[NavReadout] = None
    #: The map panel's picture and what it marks (:class:`flightsim.app.map_companion.MapReadout`), or None while
    #: it is hidden.
    map: Optional[object] = None
    #: The Instructor panel (:class:`InstructorReadout`), or None while it is hidden.
    instructor: Optional[object] = None
    #: The lesson flown (:class:`flightsim.app.lesson_companion.LessonReadout`), or None.
    lesson: Optional[object] = None
    #: The lessons the Lessons menu offers: ``(name, title)`` pairs (none where the source cannot fly).
    lessons: tuple = ()


@dataclass(frozen=True)
class InstructorReadout:
    """What the Instructor panel shows: ``kinds`` the failures this aircraft can have, ``active`` ``(kind, since s)``
    of those in force, ``armed`` ``(kind, trigger in words)`` of those scheduled and still to come, ``t`` now (s)."""

    kinds: tuple
    active: tuple
    armed: tuple
    t: float


@dataclass(frozen=True)
class HudCommands:
    """What a panel may ask the app to do (each a callable; the app decides how).

    Attributes
    ----------
    toggle_pause, reset : callable ()
        Pause or resume the flight; start it again.
    set_time_scale : callable (float)
    set_integrator : callable (str)
        Switch the flight's integrator (where ``capabilities.can_switch_integrator``).
    set_renormalize : callable (bool)
    set_camera : callable (str)
        A camera mode.
    seek : callable (float)
        Move a playback's clock, s (where ``capabilities.can_seek``).
    toggle_recording : callable ()
        Start or stop recording a trace.
    set_ghost : callable (bool)
        Switch the ghost on or off.
    resync_ghost : callable ()
        Put the ghost back on the airplane.
    set_ghost_integrator : callable (str)
    set_ghost_substeps : callable (int)
    trim_now : callable ()
        Trim for level flight at the current airspeed and altitude (where
        ``capabilities.can_fly``); a failure is a HUD message.
    set_autopilot : callable (Selection or None)
        Fly a selection on the autopilot, or disconnect it (None); a failure is a HUD message.
    set_dynamics : callable (bool)
        Show or hide the Dynamics panel.
    relinearise : callable ()
        The Dynamics panel's modes about level flight at the current
        airspeed, altitude and heading (the flight itself is left alone).
    set_aircraft : callable (str)
        Fly another shipped aircraft (by name), started as the flight was:
        the flight starts again (where ``capabilities.can_fly``).
    set_sound : callable (bool, float)
        Mute or not, and the volume (0..1).
    set_devices : callable (bool)
        Show or hide the Input panel.
    calibrate : callable (str)
        Start measuring the axes of the device of that name, or stop and save them.
    tune_nav : callable (str)
        Tune the NAV radio to a station (as :attr:`NavReadout.stations` names it) or a frequency (MHz).
    set_obs : callable (float)
        Turn the course selector to that course, deg.
    set_map : callable (bool)
        Show or hide the map panel.
    fail, repair : callable (str)
        Fail a kind now (:data:`flightsim.simulation.failures.KINDS`); repair one (None: all).
    set_instructor : callable (bool)
        Show or hide the Instructor panel.
    load_lesson, start_lesson, close_lesson : callable (str), (), ()
        Fly a lesson (its brief shown, paused); start it; leave it (the flight goes on).
    """

    toggle_pause: Callable[[], None]
    reset: Callable[[], None]
    set_time_scale: Callable[[float], None]
    set_integrator: Callable[[str], None]
    set_renormalize: Callable[[bool], None]
    set_camera: Callable[[str], None]
    seek: Callable[[float], None]
    toggle_recording: Callable[[], None]
    set_ghost: Callable[[bool], None]
    resync_ghost: Callable[[], None]
    set_ghost_integrator: Callable[[str], None]
    set_ghost_substeps: Callable[[int], None]
    trim_now: Callable[[], None]
    set_dynamics: Callable[[bool], None]
    relinearise: Callable[[], None]
    set_aircraft: Callable[[str], None] = lambda name: None
    set_autopilot: Callable[[object], None] = lambda selection: None
    set_sound: Callable[[bool, float], None] = lambda muted, volume: None
    set_devices: Callable[[bool], None] = lambda on: None
    tune_nav: Callable[[str], None] = lambda station: None
    set_obs: Callable[[float], None] = lambda course: None
    calibrate: Callable[[str], None] = lambda name: None
    set_map: Callable[[bool], None] = lambda on: None
    fail: Callable[[str], None] = lambda kind: None
    repair: Callable[[Optional[str]], None] = lambda kind: None
    set_instructor: Callable[[bool], None] = lambda on: None
    load_lesson: Callable[[str], None] = lambda name: None
    start_lesson: Callable[[], None] = lambda: None
    close_lesson: Callable[[], None] = lambda: None

"""What the HUD's panels see and what they may ask for: :class:`HudView` and :class:`HudCommands`.

The app builds a :class:`HudView` every frame (a read-only snapshot of the
flight and the app's own state) and one :class:`HudCommands` (the actions a
panel may take).  A panel is a function of the two and the
:class:`~flightsim.app.hud.Hud`'s own state; it never sees the app, the
window or the flight source itself.  Nothing here imports imgui.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from flightsim.app.history import History
    from flightsim.app.keymap import Keymap
    from flightsim.simulation.controls import Controls
    from flightsim.simulation.flight import Telemetry
    from flightsim.simulation.source import Capabilities

__all__ = ["CameraReadout", "GhostReadout", "HudCommands", "HudView", "PlaybackReadout", "RecorderReadout"]


@dataclass(frozen=True)
class CameraReadout:
    """The camera: its mode (``"chase"``, ``"cockpit"``, ...) and the pilot's head turn (deg)."""

    mode: str
    head_yaw: float = 0.0
    head_pitch: float = 0.0


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

"""What the app needs from a flight: the :class:`FlightSource` protocol and its :class:`Capabilities`.

The window, the HUD, the recorder and the ghost drive a flight through this
interface only; a live :class:`~flightsim.simulation.Simulation` and a
:class:`~flightsim.simulation.replay.Replay` of a trace both implement it.
Where they differ, the source says so in :attr:`FlightSource.capabilities`
(e.g. a replay cannot be flown or recorded, but it can seek), and the app
asks the flags instead of the type.

State access is whole-state: :attr:`~FlightSource.state` and
:attr:`~FlightSource.previous` are :class:`~flightsim.simulation.FlightState`
snapshots (earth frame x North, y West, z up, ft and ft/s; q body → earth
``[w, x, y, z]``; ω body frame, rad/s), and :meth:`~FlightSource.set_state`
loads one (with the state before it, for the render interpolation).
Nothing outside a source touches its private attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from flightsim.physics.aircraft import Aircraft
    from flightsim.physics.wind import WindSpec
    from flightsim.simulation.controls import Controls
    from flightsim.simulation.flight import FlightState, Telemetry

__all__ = ["Capabilities", "FlightSource", "LIVE", "PLAYBACK", "Playback"]


@dataclass(frozen=True)
class Capabilities:
    """What a flight source can do beyond what every :class:`FlightSource` does.

    Attributes
    ----------
    can_fly : bool
        Pilot input (keys, gamepad, a control schedule) reaches its
        :attr:`~FlightSource.controls`.
    can_switch_integrator : bool
        An integrator runs: :meth:`~FlightSource.set_integrator` switches it
        live, :attr:`~FlightSource.renormalize` applies, and the telemetry's
        ``qnorm_error`` and ``step_us`` are measured.
    can_seek : bool
        The source plays a recording back: it is a :class:`Playback`
        (``path``, ``rows``, ``start``, ``end``, ``seek(t)``).
    can_record : bool
        Every physics step runs the source's :attr:`~FlightSource.followers`,
        so a recorder sees each one.
    can_ghost : bool
        A ghost airplane (:class:`flightsim.simulation.ghost.Ghost`) can fly
        beside it: it is a live :class:`~flightsim.simulation.Simulation`.
    """

    can_fly: bool
    can_switch_integrator: bool
    can_seek: bool
    can_record: bool
    can_ghost: bool


LIVE = Capabilities(can_fly=True, can_switch_integrator=True, can_seek=False, can_record=True, can_ghost=True)
"""A live simulation: flown, integrated, recorded, with a ghost; no seeking."""

PLAYBACK = Capabilities(can_fly=False, can_switch_integrator=False, can_seek=True, can_record=False, can_ghost=False)
"""A recorded flight played back: it seeks, and shows recorded states and controls only."""


@runtime_checkable
class FlightSource(Protocol):
    """A flight the app can show and drive, live or played back.

    Attributes
    ----------
    capabilities : Capabilities
        What this source can do (the app's only way to tell sources apart).
    aircraft : flightsim.physics.aircraft.Aircraft
        The airplane flown (what the app draws).
    dt : float
        Physics step (a replay: the recording's median step), s.
    paused : bool
        Set to stop :meth:`advance` from moving the clock.
    time_scale : float
        Simulated seconds per wall-clock second in :meth:`advance`.
    renormalize : bool
        Renormalise q after every step (where ``can_switch_integrator``).
    followers : list of callable
        Run after every completed physics step (a recorder, a ghost); a
        playback takes no steps and never runs them.
    wind_spec : flightsim.physics.wind.WindSpec or None
        The flight's wind (steady wind, shear, turbulence, gusts); None in
        still air, or where only the wind met is known (a replay: see the
        telemetry's ``wind``).
    """

    capabilities: Capabilities
    aircraft: Aircraft
    dt: float
    paused: bool
    time_scale: float
    renormalize: bool
    followers: list[Callable[[], None]]
    wind_spec: Optional[WindSpec]

    @property
    def t(self) -> float:
        """The flight's clock, s."""

    @property
    def status(self) -> Optional[str]:
        """None while the flight runs; else why it stopped (a crash, a non-finite state)."""

    @property
    def running(self) -> bool:
        """True while :attr:`status` is None."""

    @property
    def state(self) -> FlightState:
        """The current :class:`~flightsim.simulation.FlightState`."""

    @property
    def previous(self) -> FlightState:
        """The state the render interpolation starts from (one step, or one frame, before :attr:`state`)."""

    @property
    def vector(self) -> np.ndarray:
        """A copy of the current 13-number state ``[x, v, q, ω]``."""

    @property
    def controls(self) -> Controls:
        """The controls flying now (a live flight's object is the one the pilot moves)."""

    @property
    def integrator(self) -> str:
        """The name of the orientation integrator (a replay: ``"replay"``)."""

    def set_state(self, state: FlightState, previous: Optional[FlightState] = None,
                  status: Optional[str] = None) -> None:
        """Load a whole state: ``state``, the one before it (default: the same) and the run status.

        A live flight takes the numbers as they are (bit for bit) and goes on
        from ``state.t``; a playback's state is its place in the recording,
        so it moves its clock to ``state.t`` (and ``previous.t``).
        """

    def reset(self) -> None:
        """Back to the start: a live flight's initial state and controls, a replay's first row."""

    def advance(self, frame_seconds: float) -> int:
        """Move on by a frame of wall time (clamped, time-scaled, nothing while paused); return steps taken."""

    def render_pose(self) -> tuple[np.ndarray, np.ndarray]:
        """Position (earth frame, ft) and orientation ``[w, x, y, z]`` to draw now, interpolated."""

    def telemetry(self) -> Telemetry:
        """The instruments' :class:`~flightsim.simulation.Telemetry` now."""

    def surface_deflections(self) -> np.ndarray:
        """Per element ``[flap setting −1..1 (+1 trailing edge up), incidence change deg]``."""

    def set_integrator(self, name: str) -> None:
        """Switch the integrator between two steps (only where ``can_switch_integrator``)."""


@runtime_checkable
class Playback(FlightSource, Protocol):
    """A recorded flight played back (``capabilities.can_seek``).

    Attributes
    ----------
    path : str or Path
        Where the recording came from.
    """

    path: str | Path

    @property
    def rows(self) -> int:
        """Recorded rows."""

    @property
    def start(self) -> float:
        """Time of the first recorded row, s."""

    @property
    def end(self) -> float:
        """Time of the last recorded row, s."""

    def seek(self, t: float) -> None:
        """Move the clock to ``t`` (clamped to ``start .. end``)."""

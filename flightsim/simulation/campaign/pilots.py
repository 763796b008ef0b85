"""Who flies a campaign's airplanes: the autopilot, a controls schedule, or a saved policy.

The protocol (:class:`Pilot`) a campaign's runner (:func:`flightsim.simulation.campaign.runner.run_chunk`)
drives:

- ``hz``: decisions a second, or None for one before every physics step;
- ``start(batch, draws)``: once, the batch's airplanes at their starts, ``draws`` the chunk's draws
  (``{column: array}``, one entry per airplane);
- ``fly(batch)``: before the physics steps of each decision, it sets the running airplanes' controls
  (:meth:`~flightsim.simulation.batch.BatchSimulation.set_controls`).

A pilot decides for each airplane from that airplane's own state only, so that a run's flight does not depend
on the airplanes flown beside it (a campaign's rows are the same whatever its chunks).

:func:`make_pilot` makes the spec's: :class:`AutopilotPilot`, :class:`ControlsPilot`, or the policy pilot,
looked up by the string :data:`POLICY_PILOT` (``flightsim.gym.policy:PolicyPilot``, constructed as
``PolicyPilot(path, spec)``) only when a spec asks for it: the simulation layer never imports the gym.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from flightsim.physics.constants import KNOT
from flightsim.simulation.campaign.spec import FLARE_FT

__all__ = ["FLARE_FLOOR", "FLARE_FT", "POLICY_PILOT", "AutopilotPilot", "ControlsPilot", "Pilot", "decision_steps",
           "make_pilot"]

#: The autopilot pilot's flare (``land``): from :data:`~flightsim.simulation.campaign.spec.FLARE_FT` above the
#: runway the vertical speed falls with the height, to this fraction of the glide path's at the ground.
FLARE_FLOOR = 0.5
#: Where the policy pilot lives: ``module:Name``, imported when a spec's ``[pilot] policy`` asks for it.
POLICY_PILOT = "flightsim.gym.policy:PolicyPilot"


class Pilot:
    """The protocol: ``hz``, :meth:`start`, :meth:`fly` (see the module docstring)."""

    #: Decisions a second; None: one before every physics step.
    hz = None

    def start(self, batch, draws):
        """Take the airplanes of ``batch`` (at their starts) with their ``draws``."""

    def fly(self, batch):
        """Set the running airplanes' controls for the steps until the next decision."""


class AutopilotPilot(Pilot):
    """flightsim's autopilot (:class:`~flightsim.simulation.autopilot.BatchAutopilot`) engaged on every airplane
    with the spec's selection (``app=36``…), flying before every physics step as in ``flightsim fly``.

    Its gains come from one trim at the campaign's undispersed start (:meth:`gains_for`), the same for every
    chunk: the batch's own engage would trim at the chunk's mean airspeed and altitude, and the rows would depend
    on the chunk.  The dispersed targets (``autopilot.ias_kt``, ``alt_ft``, ``hdg_deg``, ``vs_fpm``) replace the
    selection's, airplane by airplane.

    The coupled approach hands back at :data:`~flightsim.simulation.autopilot.APPROACH_MINIMUM` ft above the
    runway.  With ``land`` (the default) the campaign's pilot then flies on to the ground with the same loops,
    as an autoland would: the localiser's track (``LOC``), and a vertical speed (``VS``) that is the ``GS``
    mode's own law (the glide path's descent at the ground speed, corrected toward the path) down to
    ``flare_ft`` above the runway, then the path's descent falling in proportion to the height (a flare, to
    :data:`FLARE_FLOOR` of it at the ground), at the approach's speed.  Without ``land`` it holds the controls
    as they were at the minimum (the Gymnasium Landing task's baseline).

    Parameters
    ----------
    text : str
        The selection, as ``flightsim fly --autopilot`` takes it.
    gains : flightsim.simulation.autopilot.Gains
    land : bool
    flare_ft : float
        ft above the runway.
    """

    hz = None

    def __init__(self, text, gains, land=True, flare_ft=FLARE_FT):
        from flightsim.simulation.autopilot import parse_spec

        self.selection = parse_spec(text)
        self.gains = gains
        self.land = bool(land) and self.selection.approach
        self.flare_ft = float(flare_ft)

    @staticmethod
    def gains_for(text, batch):
        """The :class:`~flightsim.simulation.autopilot.Gains` of selection ``text`` engaged on the first airplane
        of ``batch`` (one airplane at the campaign's undispersed start)."""
        from flightsim.simulation.autopilot import parse_spec

        return batch.autopilot.engage(parse_spec(text), [0])

    def start(self, batch, draws):
        from flightsim.simulation.autopilot import wheel_height

        batch.autopilot.engage(self.selection, gains=self.gains)
        loops = batch.autopilot.loops
        if "autopilot_ias_kt" in draws:
            loops.airspeed[:] = np.asarray(draws["autopilot_ias_kt"], dtype=np.float64) * KNOT
        if "autopilot_alt_ft" in draws:
            loops.altitude[:] = draws["autopilot_alt_ft"]
        if "autopilot_hdg_deg" in draws:
            loops.heading[:] = np.asarray(draws["autopilot_hdg_deg"], dtype=np.float64) % 360.0
        if "autopilot_vs_fpm" in draws:
            loops.vertical_speed[:] = draws["autopilot_vs_fpm"]
        self._landing = np.zeros(batch.n, dtype=bool)
        #: each landing airplane's tan of its glide path (scalar math: the same bits for any chunk)
        self._slope = np.zeros(batch.n)
        self._wheels = wheel_height(batch.aircraft)

    def fly(self, batch):
        """Below the approach's minimum (with ``land``): on to the ground on ``LOC`` and ``VS``, flaring."""
        if not self.land:
            return
        from flightsim.simulation.autopilot import LATERAL, Selection
        from flightsim.simulation.controls import AILERON, ELEVATOR, RUDDER, THROTTLE

        loops = batch.autopilot.loops
        handed = np.flatnonzero(loops.chime & ~loops.engaged & ~self._landing & batch.running)
        if handed.shape[0]:
            # the loops engaged afresh on these airplanes only, from their controls now (the batch's engage
            # would evaluate every airplane's loads, refreshing the air density the others' autopilots read)
            tracks, speeds = loops.tracks[handed].copy(), loops.airspeed[handed].copy()
            controls = batch.controls[np.ix_(handed, [THROTTLE, ELEVATOR, AILERON, RUDDER])]
            loops.engage(handed, Selection(vertical_speed=-500.0), batch.states[handed, 2], speeds,
                         controls=controls, trim=np.zeros(handed.shape[0]), gains=self.gains)
            loops.lateral[handed] = LATERAL["LOC"]
            loops.tracks[handed] = tracks
            self._landing[handed] = True
            self._slope[handed] = [math.tan(math.radians(float(d))) for d in tracks[:, 8]]
        index = np.flatnonzero(self._landing & loops.engaged)
        if index.shape[0] == 0:
            return
        from flightsim.simulation.autopilot import PATH_TIME

        y = batch.states[index]
        track = loops.tracks[index]
        height = y[:, 2] - self._wheels - track[:, 7]
        along = (y[:, 0] - track[:, 0]) * track[:, 2] + (y[:, 1] - track[:, 1]) * track[:, 3]
        slope = self._slope[index]
        glide = np.sqrt(y[:, 3] * y[:, 3] + y[:, 4] * y[:, 4]) * slope                 # ft/s down the path
        path = -glide + (slope * (track[:, 9] - along) - height) / PATH_TIME            # the GS mode's law
        flare = -glide * np.maximum(height / self.flare_ft, FLARE_FLOOR)
        loops.vertical_speed[index] = 60.0 * np.where(height > self.flare_ft, path, flare)


class ControlsPilot(Pilot):
    """A controls schedule (:class:`~flightsim.simulation.controls.ControlSchedule`, the CSV ``flightsim simulate
    --controls`` reads), the same for every airplane on its own clock; the start's controls before its first row.

    Parameters
    ----------
    path : str
        The CSV.
    initial : flightsim.simulation.controls.Controls
        The start's controls.
    """

    hz = None

    def __init__(self, path, initial):
        from flightsim.simulation.controls import ControlSchedule

        self.schedule = ControlSchedule.from_csv(path, initial)
        self._last = None

    def start(self, batch, draws):
        self._last = None

    def fly(self, batch):
        from flightsim.simulation.controls import flown_row

        running = np.flatnonzero(batch.running)
        if running.shape[0] == 0:
            return
        # every running airplane is on the same clock (they start together and step together)
        t = float(batch.times[running[0]])
        row = flown_row(self.schedule.at(t))
        if self._last is not None and np.array_equal(row, self._last):
            return
        self._last = row
        batch.set_controls(np.broadcast_to(row, (running.shape[0], row.shape[0])), running)


def _policy_class():
    module, _, name = POLICY_PILOT.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"pilot.policy: the policy pilot ({POLICY_PILOT}) is not available: {exc}") from None


def make_pilot(spec, batch_start, gains=None):
    """The pilot of ``spec`` (:class:`~flightsim.simulation.campaign.spec.CampaignSpec`): ``batch_start`` the
    campaign's :class:`~flightsim.simulation.starts.Start`, ``gains`` the autopilot's
    (:meth:`AutopilotPilot.gains_for`)."""
    if spec.pilot == "autopilot":
        return AutopilotPilot(spec.pilot_value, gains, land=spec.land, flare_ft=spec.flare_ft)
    if spec.pilot == "controls":
        return ControlsPilot(spec.pilot_value, batch_start.controls)
    return _policy_class()(spec.pilot_value, spec)


def decision_steps(pilot, dt):
    """Physics steps between two decisions of ``pilot`` (1 for ``hz`` None)."""
    if pilot.hz is None:
        return 1
    return max(1, int(round(1.0 / (float(pilot.hz) * dt))))


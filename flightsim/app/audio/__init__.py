"""The app's sound: synthesised from the flight (:mod:`~flightsim.app.audio.synth`), played on the speakers
and written to ``--audio-out`` (:mod:`~flightsim.app.audio.output`).

It owns the sound and nothing else.  It may import the simulation (it reads the flight and its telemetry), numpy,
scipy and pyglet's media; not the scene, the HUD or the pilot's input.  :class:`Sound` is what the app holds: each
frame it hears the flight (:meth:`Sound.listen`) and a worker thread renders that frame's samples off the frame's
critical path.
"""

from __future__ import annotations

import math
import queue
import sys
import threading
from dataclasses import replace

from flightsim.app.audio.output import Speakers, WavRecorder, to_pcm16
from flightsim.app.audio.synth import SAMPLE_RATE, Sounding, Synth
from flightsim.simulation.flight import GEAR_LOCKED

__all__ = ["GEAR_HORN_HEIGHT", "GEAR_HORN_THROTTLE", "NO_DEVICE", "SAMPLE_RATE", "Sound", "Sounding", "Synth",
           "gear_warning", "sounding_of"]

#: Said once, on stderr, where there is no audio device.
NO_DEVICE = "flightsim: no audio device found: flying without sound"
#: A constant thrust (the book's airplane) sounds as an engine turning from this rpm at idle to the second at full
#: throttle.
GENERIC_RPM = (900.0, 2600.0)
#: The gear horn sounds with the throttle at or below this (near idle) below this height above the ground (ft) while a
#: gear that retracts is not down and locked.
GEAR_HORN_THROTTLE, GEAR_HORN_HEIGHT = 0.1, 1000.0
#: The fewest samples rendered at once (two frames at 60 a second): each rendering has a fixed cost.
MIN_BLOCK = 735


def gear_warning(telemetry, throttle):
    """Whether the gear horn sounds: a gear that retracts (``telemetry.gear_position`` not None) not down and
    locked, in the air below :data:`GEAR_HORN_HEIGHT` ft, with the throttle (0..1) at or below
    :data:`GEAR_HORN_THROTTLE`."""
    position = getattr(telemetry, "gear_position", None)
    return (position is not None and position < GEAR_LOCKED and not telemetry.on_ground
            and telemetry.altitude < GEAR_HORN_HEIGHT and throttle <= GEAR_HORN_THROTTLE)


def sounding_of(sim, telemetry, touchdown=0.0, crash=False):
    """The :class:`Sounding` of a :class:`~flightsim.simulation.flight.Simulation` and its telemetry now.

    ``touchdown`` (the sink rate of a touchdown in this frame, ft/s) and ``crash`` come from the caller,
    which sees the flight change from frame to frame.
    """
    c = sim.controls
    running = c.engine >= 0.5
    throttle = min(max(c.throttle, 0.0), 1.0) if math.isfinite(c.throttle) else 0.0
    rpm, n2, thrust = telemetry.rpm, 0.0, 0.0
    for gauge in telemetry.engines:                 # a JSBSim aircraft's engines: the first of each kind
        if gauge[0] == "turbine" and n2 == 0.0:
            n2, thrust = gauge[2], throttle
        elif gauge[0] != "turbine" and rpm == 0.0:
            rpm = gauge[1]
    if sim.aircraft.propeller is None and sim.aircraft.jsbsim is None:
        rpm = GENERIC_RPM[0] + (GENERIC_RPM[1] - GENERIC_RPM[0]) * throttle
    return Sounding(rpm=max(rpm, 0.0), power=throttle if running else 0.0, n2=n2, thrust=thrust,
                    airspeed=telemetry.airspeed, stall=bool(telemetry.stall),
                    groundspeed=math.hypot(*sim.vector[3:5]) if telemetry.on_ground else 0.0,
                    touchdown=touchdown, crash=crash, gear_horn=gear_warning(telemetry, throttle))


class Sound:
    """The sound of one flight: a :class:`Synth`, the speakers and an optional WAV file, fed frame by frame.

    Parameters
    ----------
    speakers : bool
        Play on the speakers (where pyglet finds an audio device; else :data:`NO_DEVICE` is said once).
    audio_out : str or Path, optional
        Write the same samples to this WAV file (mono, 16 bit, :data:`SAMPLE_RATE`).
    rate : int
        Samples a second.
    say : callable
        Where the one line about a missing device goes (default: stderr).

    Raises
    ------
    OSError
        ``audio_out`` cannot be created.
    """

    def __init__(self, speakers=True, audio_out=None, rate=SAMPLE_RATE, say=None):
        self.rate = int(rate)
        self.synth = Synth(self.rate)
        # what the frames ask for; each block carries them to the worker's synth, so a block sounds as its frames
        # did however late it is rendered
        self._muted, self._volume = self.synth.muted, self.synth.volume
        self.recorder = WavRecorder(audio_out, self.rate) if audio_out is not None else None
        self.speakers = Speakers.open(self.rate) if speakers else None
        if speakers and self.speakers is None:
            (say or (lambda text: print(text, file=sys.stderr)))(NO_DEVICE)
        self._owed = 0.0
        self._held = None                  # the frames' sound not yet rendered: (samples, touchdown, crash)
        self._was_on_ground = None
        self._was_crashed = False
        self._blocks = queue.SimpleQueue()
        self._worker = None
        if self.active:
            self._worker = threading.Thread(target=self._render, name="flightsim-sound", daemon=True)
            self._worker.start()

    @property
    def active(self):
        """Anything hears it: the speakers or a file."""
        return self.speakers is not None or self.recorder is not None

    @property
    def muted(self):
        """Silent from the next frame heard (the frames already heard keep the sound they had)."""
        return self._muted

    @muted.setter
    def muted(self, value):
        self._muted = bool(value)

    @property
    def volume(self):
        """0..1."""
        return self._volume

    @volume.setter
    def volume(self, value):
        self._volume = min(max(float(value), 0.0), 1.0)

    def listen(self, seconds, sim, telemetry):
        """Sound ``seconds`` of wall time (this frame's) of the flight as it is now."""
        if not self.active:
            return
        touchdown = 0.0
        if telemetry.on_ground and self._was_on_ground is False:
            touchdown = max(-float(sim.vector[5]), 0.0)
        self._was_on_ground = bool(telemetry.on_ground)
        crashed = sim.status is not None and not sim.diverged       # stopped, and not by a diverging integrator
        crash, self._was_crashed = crashed and not self._was_crashed, crashed
        self.play(seconds, sounding_of(sim, telemetry, touchdown, crash))

    def play(self, seconds, sounding):
        """Render ``seconds`` of ``sounding`` (on the worker thread) to the speakers and the file.

        Frames are rendered together, :data:`MIN_BLOCK` samples at least, with the latest sounding (a touchdown or
        a crash in any of them kept).
        """
        if not self.active or not math.isfinite(seconds) or seconds <= 0.0:
            return
        self._owed += seconds * self.rate
        n = int(self._owed)
        self._owed -= n
        held_n, touchdown, crash = self._held or (0, 0.0, False)
        self._held = (held_n + n, max(touchdown, sounding.touchdown), crash or sounding.crash)
        self._sounding = sounding
        if self._held[0] >= MIN_BLOCK:
            self._flush()

    def _flush(self):
        if self._held is None or self._held[0] == 0:
            return
        n, touchdown, crash = self._held
        self._held = None
        self._blocks.put((n, replace(self._sounding, touchdown=touchdown, crash=crash), self._muted, self._volume))

    def _render(self):
        while True:
            item = self._blocks.get()
            if item is None:
                return
            n, sounding, self.synth.muted, self.synth.volume = item
            pcm = to_pcm16(self.synth.render(n, sounding))
            if self.recorder is not None:
                self.recorder.write(pcm)
            if self.speakers is not None:
                self.speakers.write(pcm)

    def close(self, keep=True):
        """Finish: the samples of every frame rendered, the file written (``keep``) or dropped, the speakers shut."""
        if self._worker is not None:
            self._flush()
            self._blocks.put(None)
            self._worker.join()
            self._worker = None
        if self.recorder is not None:
            self.recorder.close(keep)
            self.recorder = None
        if self.speakers is not None:
            self.speakers.close()
            self.speakers = None

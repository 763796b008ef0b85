"""The flight's sounds, synthesised with numpy: no recorded samples.

:class:`Synth` turns what the airplane is doing (a :class:`Sounding`) into mono samples in −1..1,
one block at a time, its oscillators' phases and filters' states carried from block to block.
Every parameter glides to its new value with a time constant of :data:`GLIDE` seconds, so a jump
(a new aircraft, a reset, a mute) settles without a click.

=============  ==================================================================================
engine         a piston engine's firing note, ``rpm / 60 × cylinders / 2`` Hz, and its harmonics,
               with a rasp of noise pulsed at the firing rate; louder with the power
propeller      its blade-passing tone, ``rpm / 60 × blades`` Hz, louder with the power
turbine        a whine following the high-pressure spool (N2) and a roar following the thrust
wind           noise low-passed at a cutoff rising with the airspeed, louder as its square
stall horn     the 172's reed horn: a 1.6 kHz tone and its overtone while the HUD's stall warning is on
gear horn      a 400 Hz tone, beating twice a second, while the gear is not down with the throttle
               closed low (:attr:`Sounding.gear_horn`)
tyres          a low rumble with the groundspeed while a wheel carries load; a chirp at touchdown,
               louder with the sink rate
crash          a burst of noise
=============  ==================================================================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["GLIDE", "SAMPLE_RATE", "Sounding", "Synth"]

#: Samples a second (mono).
SAMPLE_RATE = 22050
#: How fast the parameters follow the flight (s): fast enough to hear the engine answer, slow enough not to click.
GLIDE = 0.03
#: The stall horn's tone (Hz).
HORN = 1600.0
#: The gear horn's tone and its beat (Hz): low and interrupted, so it is not taken for the stall horn.
GEAR_HORN, GEAR_HORN_BEAT = 400.0, 2.0
#: Airspeed (ft/s) at which the wind is at full loudness.
WIND_FULL = 260.0
#: Groundspeed (ft/s) at which the tyres rumble at full loudness; the sink rate (ft/s) of the loudest chirp.
RUMBLE_FULL = 100.0
CHIRP_FULL = 8.0


@dataclass(frozen=True)
class Sounding:
    """What makes the sound at one moment.

    Attributes
    ----------
    rpm : float
        The piston engine's speed, rev/min (0: none, or stopped).
    power : float
        0..1: how hard the engine works (its throttle, running; 0 off).
    cylinders, blades : int
        The piston engine's cylinders (4-stroke: a firing every two revolutions per cylinder) and the
        propeller's blades.
    n2 : float
        A turbine's high-pressure spool, % (0: none).
    thrust : float
        0..1: a turbine's thrust as a fraction of its most.
    airspeed : float
        ft/s through the air.
    stall : bool
        The stall warning is on.
    groundspeed : float
        ft/s over the ground while a wheel carries load (0 in the air).
    touchdown : float
        The sink rate (ft/s) of a touchdown in this block (0: none).
    crash : bool
        The airplane crashed in this block.
    gear_horn : bool
        The gear warning: the throttle closed low with a gear that retracts not down.
    """

    rpm: float = 0.0
    power: float = 0.0
    cylinders: int = 4
    blades: int = 2
    n2: float = 0.0
    thrust: float = 0.0
    airspeed: float = 0.0
    stall: bool = False
    groundspeed: float = 0.0
    touchdown: float = 0.0
    crash: bool = False
    gear_horn: bool = False


#: The gliding parameters, in the order of :attr:`Synth._now`.
_PARAMETERS = ("engine_hz", "engine_gain", "blade_hz", "blade_gain", "whine_hz", "whine_gain", "roar_gain",
               "wind_gain", "wind_cutoff", "horn_gain", "rumble_gain", "volume", "gear_horn_gain")


def _heard(gain):
    """A component is heard in a block unless its gain is nil from end to end (then it costs nothing)."""
    return gain[0] > 1e-6 or gain[-1] > 1e-6


class Synth:
    """Mono samples of the flight's sounds, a block at a time.

    Parameters
    ----------
    rate : int
        Samples a second.
    seed : int
        The noise's seed (the same flight sounds the same).

    Attributes
    ----------
    volume : float
        0..1, the master volume (it glides too).
    muted : bool
        Silent (gliding to silence and back).
    """

    def __init__(self, rate=SAMPLE_RATE, seed=0):
        self.rate = int(rate)
        self.volume = 0.8
        self.muted = False
        self._rng = np.random.default_rng(seed)
        self._now = np.zeros(len(_PARAMETERS))
        self._phases = np.zeros(8)                 # engine, blade, whine, horn, horn overtone, the rasp's pulse,
        #                                            the gear horn and its beat
        self._lowpass = np.zeros(3)                # wind, rumble, roar filters' last outputs
        self._bursts = []                          # [samples left, gain, decay a sample, kind] of chirps and crashes

    def _targets(self, s):
        firing = s.rpm / 60.0 * max(s.cylinders, 1) / 2.0
        engine_gain = (0.10 + 0.45 * min(max(s.power, 0.0), 1.0)) if s.rpm > 1.0 else 0.0
        speed = max(s.airspeed, 0.0)
        return np.array([
            firing, engine_gain,
            s.rpm / 60.0 * max(s.blades, 1), 0.35 * engine_gain,
            40.0 * max(s.n2, 0.0), 0.08 * min(max(s.n2, 0.0) / 100.0, 1.0),
            0.45 * min(max(s.thrust, 0.0), 1.0),
            0.5 * min(speed / WIND_FULL, 1.0) ** 2, 300.0 + 12.0 * speed,
            0.22 if s.stall else 0.0,
            0.5 * min(max(s.groundspeed, 0.0) / RUMBLE_FULL, 1.0),
            0.0 if self.muted else min(max(self.volume, 0.0), 1.0),
            0.2 if s.gear_horn else 0.0,
        ])

    def render(self, n, sounding):
        """``n`` samples (float32, −1..1) of the sound of ``sounding``, gliding from the last block's."""
        n = int(n)
        if n <= 0:
            return np.zeros(0, dtype=np.float32)
        target = self._targets(sounding)
        if sounding.touchdown > 0.0:
            gain = 0.6 * min(sounding.touchdown / CHIRP_FULL, 1.0)
            self._bursts.append([int(0.18 * self.rate), gain, math.exp(-1.0 / (0.05 * self.rate)), "chirp"])
        if sounding.crash:
            self._bursts.append([int(1.2 * self.rate), 0.9, math.exp(-1.0 / (0.35 * self.rate)), "crash"])
        t = np.arange(1, n + 1) / self.rate
        approach = np.exp(-t / GLIDE)[:, None]
        p = target + (self._now - target) * approach                 # (n, parameters), each gliding
        self._now = p[-1].copy()
        P = dict(zip(_PARAMETERS, p.T, strict=True))

        out = np.zeros(n)
        if _heard(P["engine_gain"]):
            phase = self._advance(0, P["engine_hz"])
            engine = sum(math.pow(0.62, k) * np.sin((k + 1) * phase) for k in range(6))
            rasp = np.maximum(np.cos(self._advance(5, P["engine_hz"])), 0.0) ** 6 * self._rng.standard_normal(n)
            out += P["engine_gain"] * (0.45 * engine + 0.35 * rasp)
        if _heard(P["blade_gain"]):
            out += P["blade_gain"] * np.sin(self._advance(1, P["blade_hz"]))
        if _heard(P["whine_gain"]):
            out += P["whine_gain"] * np.sin(self._advance(2, P["whine_hz"]))
        if _heard(P["roar_gain"]):
            out += P["roar_gain"] * self._filtered(2, self._rng.standard_normal(n), 700.0)
        if _heard(P["wind_gain"]):
            out += P["wind_gain"] * self._filtered(0, self._rng.standard_normal(n), P["wind_cutoff"])
        if _heard(P["horn_gain"]):
            horn = (np.sin(self._advance(3, np.full(n, HORN)))
                    + 0.4 * np.sin(self._advance(4, np.full(n, 2.0 * HORN))))
            out += P["horn_gain"] * horn
        if _heard(P["gear_horn_gain"]):
            beat = np.sin(self._advance(7, np.full(n, GEAR_HORN_BEAT))) > 0.0
            tone = np.sign(np.sin(self._advance(6, np.full(n, GEAR_HORN))))          # a square wave: a buzzer
            out += P["gear_horn_gain"] * 0.7 * tone * beat
        if _heard(P["rumble_gain"]):
            out += P["rumble_gain"] * self._filtered(1, self._rng.standard_normal(n), 90.0) * 2.0
        if self._bursts:
            out += self._burst_samples(n)
        return (np.tanh(out * P["volume"])).astype(np.float32)

    def _advance(self, k, hz):
        """The phases (rad) of oscillator ``k`` over a block at frequencies ``hz`` (per sample)."""
        phase = self._phases[k] + np.cumsum(2.0 * math.pi * hz / self.rate)
        self._phases[k] = phase[-1] % (2.0 * math.pi)
        return phase

    def _filtered(self, k, noise, cutoff):
        """``noise`` through filter ``k``: a one-pole low-pass at the block's mean ``cutoff`` Hz, its state kept."""
        from scipy.signal import lfilter

        a = math.exp(-2.0 * math.pi * min(float(np.mean(cutoff)), 0.45 * self.rate) / self.rate)
        out, state = lfilter([1.0 - a], [1.0, -a], noise, zi=self._lowpass[k:k + 1] * a)
        self._lowpass[k] = out[-1]
        return out * math.sqrt(2.0 / max(1.0 - a, 1e-6))       # about unit loudness whatever the cutoff

    def _burst_samples(self, n):
        out = np.zeros(n)
        for burst in self._bursts:
            left, gain, decay, kind = burst
            m = min(left, n)
            envelope = gain * decay ** np.arange(m)
            noise = self._rng.standard_normal(m)
            if kind == "chirp":                       # a tyre's squeal: noise ringing near 1.1 kHz
                noise = np.sin(2.0 * math.pi * 1100.0 * np.arange(m) / self.rate) * (0.6 + 0.4 * noise)
            out[:m] += envelope * noise
            burst[0], burst[1] = left - m, gain * decay ** m
        self._bursts = [b for b in self._bursts if b[0] > 0]
        return out

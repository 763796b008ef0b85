"""Where the sound goes: the speakers (pyglet.media, streamed) and a WAV file (``--audio-out``).

Both take the same blocks of 16-bit mono samples, so the file holds exactly what the speakers play.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import wave

import numpy as np

from flightsim.files import atomic_write

__all__ = ["Speakers", "Stream", "WavRecorder", "to_pcm16"]

#: The most sound the speakers' queue holds ahead (s): beyond it the oldest is dropped, so the sound never lags
#: the flight by more.
MAX_AHEAD = 0.25


def to_pcm16(samples):
    """Float samples in −1..1 as little-endian 16-bit PCM bytes."""
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


class WavRecorder:
    """A mono 16-bit WAV file written as the blocks come, all or nothing (:func:`flightsim.files.atomic_write`:
    it appears at :meth:`close`; an abandoned one leaves nothing behind).

    Raises
    ------
    OSError
        The file cannot be created.
    """

    def __init__(self, path, rate):
        self.path = path
        self._files = contextlib.ExitStack()
        handle = self._files.enter_context(atomic_write(path, "wb"))
        self._wav = wave.open(handle, "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(int(rate))
        self.samples = 0

    def write(self, pcm):
        self._wav.writeframesraw(pcm)
        self.samples += len(pcm) // 2

    def close(self, keep=True):
        """Finish the file (``keep``: its header's lengths written, then renamed into place) or drop it."""
        self._wav.close()                  # leaves the file it was given open
        if keep:
            self._files.close()
        else:                              # as if the writing failed: atomic_write removes the temporary file
            self._files.__exit__(RuntimeError, RuntimeError("dropped"), None)


class Speakers:
    """The sound card, through :mod:`pyglet.media`: a streaming source the blocks are fed into.

    ``Speakers.open(rate)`` returns None where pyglet finds no audio device (its silent driver) or the driver
    fails to start: the caller says so once and flies silent.
    """

    def __init__(self, player, stream):
        self._player = player
        self.stream = stream

    @classmethod
    def open(cls, rate):
        try:
            import pyglet.media

            driver = pyglet.media.get_audio_driver()
            if driver is None or type(driver).__module__.startswith("pyglet.media.drivers.silent"):
                return None
            stream = Stream(rate)
            player = pyglet.media.Player()
            player.queue(stream)
            player.play()
        except Exception:            # any driver failing to start (a missing library, a refused connection)
            return None
        return cls(player, stream)

    def write(self, pcm):
        self.stream.feed(pcm)

    def close(self):
        with contextlib.suppress(Exception):
            self._player.pause()
            self._player.delete()


@functools.cache
def _stream_class():
    """The class of :func:`Stream`, built on pyglet's ``StreamingSource`` (imported only when the sound is used)."""
    from pyglet.media.codecs.base import AudioData, AudioFormat, StreamingSource

    class Stream(StreamingSource):
        """A never-ending source fed with PCM from the app; silence while it has none (no gap, no stop)."""

        def __init__(self, rate):
            self.audio_format = AudioFormat(channels=1, sample_size=16, sample_rate=int(rate))
            self.video_format = None
            self._duration = None
            self._rate = int(rate)
            self._pending = bytearray()
            self._lock = threading.Lock()

        def feed(self, pcm):
            with self._lock:
                self._pending.extend(pcm)
                most = 2 * int(MAX_AHEAD * self._rate)
                if len(self._pending) > most:
                    del self._pending[:len(self._pending) - most]

        @property
        def queued(self):
            """Bytes waiting to be played."""
            with self._lock:
                return len(self._pending)

        def get_audio_data(self, num_bytes, compensation_time=0.0):
            num_bytes = max(int(num_bytes) // 2 * 2, 2)
            with self._lock:
                take = bytes(self._pending[:num_bytes])
                del self._pending[:len(take)]
            data = take + bytes(num_bytes - len(take))
            return AudioData(data, len(data), 0.0, len(data) / (2.0 * self._rate), [])

    return Stream


def Stream(rate):  # noqa: N802 (a class, built on first use)
    """A :mod:`pyglet.media` streaming source of the app's sound (see :func:`_stream_class`)."""
    return _stream_class()(rate)

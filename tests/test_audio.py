"""The sound (``flightsim.app.audio``): the engine's note follows its rpm, the wind the airspeed, the stall horn
the stall warning, the tyres the ground; parameters glide (no clicks); the WAV file is what the speakers get, all
or nothing; no audio device is said once; ``fly --audio-out`` and ``--no-sound`` as a user runs them."""

import subprocess
import time
import wave

import numpy as np
import pytest
from conftest import FLIGHTSIM

from flightsim.app.audio import NO_DEVICE, SAMPLE_RATE, Sound, Sounding, Synth
from flightsim.app.audio.output import MAX_AHEAD, Speakers, Stream


def render(sounding, seconds=1.0, synth=None, settle=0.5):
    """``seconds`` of ``sounding`` after ``settle`` seconds of it (the parameters glided there)."""
    synth = synth or Synth(seed=1)
    synth.render(int(settle * SAMPLE_RATE), sounding)
    return synth.render(int(seconds * SAMPLE_RATE), sounding).astype(np.float64)


def spectrum(x):
    f = np.fft.rfftfreq(len(x), 1.0 / SAMPLE_RATE)
    return f, np.abs(np.fft.rfft(x * np.hanning(len(x))))


def band(x, low, high):
    """The amplitude spectrum's energy between ``low`` and ``high`` Hz."""
    f, a = spectrum(x)
    return float(np.sum(a[(f >= low) & (f <= high)] ** 2))


def rms(x):
    return float(np.sqrt(np.mean(x * x)))


@pytest.mark.parametrize("rpm", [900.0, 1500.0, 2400.0])
def test_the_engine_note_is_its_firing_frequency(rpm):
    x = render(Sounding(rpm=rpm, power=0.5))
    f, a = spectrum(x)
    audible = f > 20.0
    peak = f[audible][np.argmax(a[audible])]
    assert peak == pytest.approx(rpm / 60.0 * 4 / 2, abs=2.0)          # a 4-cylinder 4-stroke: rpm / 30 Hz


def test_louder_with_power_with_airspeed_and_silent_with_nothing_going_on():
    assert rms(render(Sounding())) < 1e-6
    assert rms(render(Sounding(rpm=2400.0, power=1.0))) > 1.5 * rms(render(Sounding(rpm=2400.0, power=0.0)))
    slow, fast = rms(render(Sounding(airspeed=60.0))), rms(render(Sounding(airspeed=200.0)))
    assert 0.0 < slow and fast > 4.0 * slow


def test_the_stall_horn_sounds_exactly_while_the_stall_warning_is_on():
    quiet = render(Sounding(rpm=1200.0, power=0.2, airspeed=80.0))
    horn = render(Sounding(rpm=1200.0, power=0.2, airspeed=80.0, stall=True))
    assert band(horn, 1550.0, 1650.0) > 50.0 * band(quiet, 1550.0, 1650.0)


def test_the_tyres_rumble_on_the_ground_and_chirp_at_touchdown_by_the_sink_rate():
    air = render(Sounding(airspeed=100.0))
    rolling = render(Sounding(airspeed=100.0, groundspeed=100.0))
    assert band(rolling, 20.0, 120.0) > 3.0 * band(air, 20.0, 120.0)
    chirps = []
    for sink in (2.0, 6.0):
        synth = Synth(seed=1)
        synth.render(SAMPLE_RATE // 2, Sounding())
        chirps.append(rms(synth.render(SAMPLE_RATE // 5, Sounding(touchdown=sink)).astype(np.float64)))
    assert 0.0 < chirps[0] < chirps[1]
    synth = Synth(seed=1)
    assert rms(synth.render(SAMPLE_RATE, Sounding(crash=True)).astype(np.float64)) > 0.1


def test_a_jump_in_the_flight_or_a_mute_glides_without_a_click():
    synth = Synth(seed=1)
    before = synth.render(SAMPLE_RATE // 2, Sounding(rpm=900.0, power=0.1, airspeed=60.0)).astype(np.float64)
    after = synth.render(SAMPLE_RATE // 2, Sounding(rpm=2600.0, power=1.0, airspeed=200.0)).astype(np.float64)
    joined = np.concatenate([before, after])
    step = np.abs(np.diff(joined))
    boundary = step[len(before) - 3: len(before) + 3].max()
    assert boundary < 3.0 * np.percentile(step, 99)                     # no step at the join beyond the sound's own
    synth.muted = True
    fading = synth.render(SAMPLE_RATE // 2, Sounding(rpm=2600.0, power=1.0, airspeed=200.0)).astype(np.float64)
    assert np.abs(np.diff(fading[:200])).max() < 3.0 * np.percentile(step, 99)
    assert rms(fading[-2000:]) < 1e-3                                   # silent within a few glide times
    synth.muted = False
    assert rms(synth.render(SAMPLE_RATE // 2, Sounding(rpm=2600.0, power=1.0)).astype(np.float64)) > 0.05


def test_the_wav_file_holds_every_sample_played_and_appears_only_when_finished(tmp_path):
    path = tmp_path / "flight.wav"
    sound = Sound(speakers=False, audio_out=path)
    for _ in range(60):
        sound.play(1.0 / 60.0, Sounding(rpm=2000.0, power=0.6, airspeed=150.0))
    assert not path.exists()                                            # written whole at the end, or not at all
    sound.close()
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, SAMPLE_RATE)
        assert w.getnframes() == SAMPLE_RATE                              # 60 frames of 1/60 s: one second
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32767.0
    assert rms(x) > 0.05
    # muted after its frames are heard but (very likely) before the worker renders them: they keep their sound
    late = tmp_path / "late.wav"
    sound = Sound(speakers=False, audio_out=late)
    for _ in range(60):
        sound.play(1.0 / 60.0, Sounding(rpm=2000.0, power=0.6, airspeed=150.0))
    sound.muted = True
    for _ in range(60):
        sound.play(1.0 / 60.0, Sounding(rpm=2000.0, power=0.6, airspeed=150.0))
    sound.close()
    with wave.open(str(late)) as w:
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32767.0
    assert rms(x[SAMPLE_RATE // 2:SAMPLE_RATE]) > 0.05 and rms(x[-SAMPLE_RATE // 2:]) < 1e-3
    dropped = tmp_path / "dropped.wav"
    sound = Sound(speakers=False, audio_out=dropped)
    sound.play(0.5, Sounding(rpm=2000.0))
    sound.close(keep=False)
    assert sorted(tmp_path.iterdir()) == [path, late]                   # nothing left of the dropped one


def test_no_audio_device_is_said_once_and_the_flight_goes_on_silent():
    import pyglet.media

    said = []
    sound = Sound(speakers=True, say=said.append)
    if type(pyglet.media.get_audio_driver()).__module__.startswith("pyglet.media.drivers.silent"):
        assert said == [NO_DEVICE] and sound.speakers is None and not sound.active
    else:                                                              # a machine with a sound card
        assert said == [] and sound.speakers is not None
    sound.play(0.1, Sounding(rpm=2000.0))
    sound.close()
    assert Speakers is not None


def test_the_speakers_stream_plays_what_it_is_fed_then_silence_and_never_lags():
    stream = Stream(SAMPLE_RATE)
    stream.feed(b"\x01\x00" * 100)
    data = stream.get_audio_data(400)
    assert data.length == 400 and bytes(data.data[:200]) == b"\x01\x00" * 100 and bytes(data.data[200:]) == bytes(200)
    stream.feed(bytes(2 * SAMPLE_RATE))                                 # a second ahead: only MAX_AHEAD is kept
    assert stream.queued == 2 * int(MAX_AHEAD * SAMPLE_RATE)


def test_fly_writes_its_sound_and_refuses_a_file_it_cannot_write(tmp_path):
    out = tmp_path / "c172.wav"
    started = time.perf_counter()
    done = subprocess.run([FLIGHTSIM, "fly", "--headless", "--aircraft", "c172", "--start", "air", "--frames", "90",
                           "--audio-out", str(out)], capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    assert NO_DEVICE not in done.stderr                                 # headless: no speakers to look for
    with wave.open(str(out)) as w:
        seconds = w.getnframes() / w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32767.0
    # 90 frames at most 60 a second (and the first); the flight advances by the real time between frames, so on a
    # loaded machine (the suite's other worker) it lasts longer, never longer than the command ran
    assert 1.3 < seconds < wall
    f, a = spectrum(x[-8192:])
    audible = f > 20.0
    assert 60.0 < f[audible][np.argmax(a[audible])] < 90.0             # the engine at cruise, 1800-2700 rpm
    bad = subprocess.run([FLIGHTSIM, "fly", "--headless", "--frames", "2", "--audio-out",
                          str(tmp_path / "missing" / "x.wav")], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--audio-out" in bad.stderr
    quiet = subprocess.run([FLIGHTSIM, "fly", "--no-sound", "--headless", "--frames", "2"], capture_output=True,
                           text=True, timeout=120)
    assert quiet.returncode == 0 and NO_DEVICE not in quiet.stderr


def test_in_the_app_the_frames_are_heard_and_the_mute_key_and_the_panel_control_it(new_app, run_frames, tmp_path):
    from pyglet.window import key

    from flightsim.physics.aircraft import load_aircraft
    from flightsim.simulation.starts import make_start

    c172 = load_aircraft("c172")
    app = new_app(size=(1280, 720), aircraft=c172, start=make_start(c172, "air"))
    path = tmp_path / "app.wav"
    app.sound = Sound(speakers=False, audio_out=path)
    app.hud.show = True
    run_frames(app, 30, redraw_hud=True)
    assert app.hud_view().sound == (False, app.sound.volume) and "volume" in app.hud.hit_boxes
    app.window.dispatch_event("on_key_press", key.N, 0)
    app.window.dispatch_event("on_key_release", key.N, 0)
    run_frames(app, 30)
    assert app.sound.muted and app.hud.message == "sound off"
    app.cockpit.set_sound(False, 0.3)
    run_frames(app, 30)
    assert not app.sound.muted and app.sound.volume == 0.3
    app.sound.close()                                                  # (the app closes its sound; the fixture the app)
    app.sound = None
    with wave.open(str(path)) as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), "<i2") / 32767.0
    assert len(samples) == 90 * SAMPLE_RATE // 60                       # 90 frames of 1/60 s, to the sample
    frame = SAMPLE_RATE // 60
    assert rms(samples[20 * frame:30 * frame]) > 0.05                   # the engine and the wind
    assert rms(samples[50 * frame:60 * frame]) < 0.01                   # muted
    assert rms(samples[-10 * frame:]) > 0.02                            # on again, quieter

"""Wind and turbulence (issue 11): the air mass, the Dryden model, the commands.

Frames: earth x North, y West, z up; ft/s inside, knots at the command line.
"""

import csv
import math

import numpy as np
import pytest
from scipy import integrate, signal

from flightsim.commands.cli import main
from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.wind import (
    KNOT,
    Dryden,
    Gust,
    Shear,
    WindSpec,
    dryden_psd,
    sigma_p,
    turbulence_intensity,
    turbulence_series,
    wind_vector,
    wingspan_of,
)
from flightsim.simulation import trace
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import trimmed_start

AIRCRAFT = load_aircraft()
SPAN = wingspan_of(aero.pack(AIRCRAFT))


# --------------------------------------------------------------------------- steady wind


def test_wind_direction_is_where_it_blows_from():
    s = 10.0
    np.testing.assert_allclose(wind_vector(270.0, s), [0.0, -s, 0.0], atol=1e-12)  # from the West: blows East
    np.testing.assert_allclose(wind_vector(0.0, s), [-s, 0.0, 0.0], atol=1e-12)    # from the North: blows South
    np.testing.assert_allclose(wind_vector(90.0, s), [0.0, s, 0.0], atol=1e-12)    # from the East: blows West


def test_shear_is_the_given_wind_above_its_height_and_weaker_below():
    power = WindSpec(270.0, 20.0, shear=Shear("power", 1000.0))
    log = WindSpec(270.0, 20.0, shear=Shear("log", 1000.0, roughness=0.1))
    for spec in (power, log):
        assert np.linalg.norm(spec.steady(1500.0)) == pytest.approx(20.0)
        assert np.linalg.norm(spec.steady(1000.0)) == pytest.approx(20.0)
        speeds = [np.linalg.norm(spec.steady(h)) for h in (5.0, 20.0, 100.0, 500.0)]
        assert all(a < b for a, b in zip(speeds, speeds[1:], strict=False)) and speeds[-1] < 20.0
    assert np.linalg.norm(power.steady(100.0)) == pytest.approx(20.0 * 0.1 ** (1 / 7))
    assert np.linalg.norm(log.steady(100.0)) == pytest.approx(20.0 * math.log(1000.0) / math.log(10000.0))


def test_discrete_gust_is_one_minus_cosine():
    g = Gust(start=2.0, duration=1.0, velocity=(0.0, 0.0, 10.0))
    assert g.at(1.9) == (0.0, 0.0, 0.0) and g.at(3.1) == (0.0, 0.0, 0.0)
    assert g.at(2.5)[2] == pytest.approx(10.0)
    assert g.at(2.25)[2] == pytest.approx(5.0)


# --------------------------------------------------------------------------- the air mass


def _fly(sim, steps, aileron_at=None):
    for k in range(steps):
        if aileron_at is not None and k == aileron_at:
            sim.controls.aileron = 0.3
        if aileron_at is not None and k == aileron_at + 60:
            sim.controls.aileron = 0.0
        assert sim.step()
    return sim.vector


@pytest.mark.parametrize("integrator", ["euler", "rk4"])
def test_galilean_invariance_in_a_steady_uniform_wind(integrator):
    """The flight through a uniform wind is the still-air flight carried along: positions shifted by wind × t."""
    wind = WindSpec(from_deg=250.0, speed=25.0 * KNOT)
    still = Simulation(AIRCRAFT, integrator, start=trimmed_start(AIRCRAFT, 160.0, 1500.0))
    windy = Simulation(AIRCRAFT, integrator, start=trimmed_start(AIRCRAFT, 160.0, 1500.0, wind=wind), wind=wind)
    w = wind.steady(1500.0)
    np.testing.assert_allclose(windy.vector[3:6] - w, still.vector[3:6], rtol=0, atol=1e-12)
    steps = 1200   # 10 s, with a roll input on the way so the flight is not just steady
    a, b = _fly(still, steps, 240), _fly(windy, steps, 240)
    t = windy.t
    np.testing.assert_allclose(b[3:6] - w, a[3:6], rtol=0, atol=1e-9)        # air-relative velocity
    np.testing.assert_allclose(b[6:13], a[6:13], rtol=0, atol=1e-11)         # attitude and rotation
    np.testing.assert_allclose(b[0:3] - w * t, a[0:3], rtol=0, atol=1e-7)    # ground track shifted by wind × t
    assert np.linalg.norm(b[0:2] - a[0:2]) > 100.0                            # and the shift is large
    ta, tb = still.telemetry(), windy.telemetry()
    assert tb.airspeed == pytest.approx(ta.airspeed, abs=1e-9)
    assert tb.alpha == pytest.approx(ta.alpha, abs=1e-9)
    assert tb.groundspeed != pytest.approx(ta.groundspeed)


def test_trimmed_start_in_a_crosswind_flies_steadily_and_drifts_with_the_air():
    wind = WindSpec(from_deg=270.0, speed=15.0 * KNOT)   # from the West: drift to the East (earth −y)
    sim = Simulation(AIRCRAFT, "rk4", start=trimmed_start(AIRCRAFT, 160.0, 2000.0, wind=wind), wind=wind)
    y0 = sim.vector
    t0 = sim.telemetry()
    assert t0.airspeed == pytest.approx(160.0)
    assert t0.groundspeed == pytest.approx(math.hypot(160.0, 15.0 * KNOT), rel=1e-6)
    y = _fly(sim, 600)
    assert y[1] - y0[1] == pytest.approx(-15.0 * KNOT * sim.t, rel=1e-3)
    t1 = sim.telemetry()
    assert t1.airspeed == pytest.approx(160.0, abs=0.05) and abs(t1.roll) < 0.05 and abs(t1.beta) < 0.05
    assert sim.wind[1] == pytest.approx(-15.0 * KNOT)


def test_still_air_is_the_book_flight_bit_for_bit():
    calm = Simulation(AIRCRAFT, "rk4", wind=WindSpec())
    plain = Simulation(AIRCRAFT, "rk4")
    assert calm.wind_spec is None
    for _ in range(300):
        calm.step()
        plain.step()
    assert np.array_equal(calm.vector, plain.vector) and not np.any(plain.wind)


def test_a_wind_changes_the_loads_through_the_air_not_the_ground():
    sim = Simulation(AIRCRAFT, "euler", start=trimmed_start(AIRCRAFT, 160.0, 2000.0))
    still = sim.loads()
    head = sim.vector
    sim.hold_wind([20.0, 0.0, 0.0, 0.0, 0.0, 0.0])   # a tailwind: less air over the wings
    tail = sim.loads()
    assert tail[2] < still[2] - 1.0                  # less lift
    sim.hold_wind([0.0, 0.0, 0.0, 0.0, 0.05, 0.0])   # the turbulence's rotation acts like one of the airplane
    rot = sim.loads()
    assert not np.allclose(rot[3:], still[3:])
    np.testing.assert_array_equal(head, sim.vector)


# --------------------------------------------------------------------------- Dryden


def test_dryden_intensities_and_scale_lengths_follow_the_specification():
    su, sv, sw, lu, lv, lw = turbulence_intensity("moderate", 500.0)
    k = 0.177 + 0.000823 * 500.0
    assert sw == pytest.approx(0.1 * 30.0 * KNOT)
    assert su == sv == pytest.approx(sw / k ** 0.4)
    assert lw == 500.0 and lu == lv == pytest.approx(500.0 / k ** 1.2)
    # above 2000 ft: 1750 ft and the probability-of-exceedance table (10^-3 at 3750 ft: 10.6 ft/s)
    assert turbulence_intensity("moderate", 3750.0) == pytest.approx((10.6, 10.6, 10.6, 1750.0, 1750.0, 1750.0))
    assert turbulence_intensity("severe", 3750.0)[0] == pytest.approx(23.0)
    # continuous through the blend
    for h in (1000.0, 2000.0):
        np.testing.assert_allclose(turbulence_intensity("light", h - 1e-6), turbulence_intensity("light", h + 1e-6),
                                   rtol=1e-6)
    assert turbulence_intensity("light", 500.0)[2] == pytest.approx(0.1 * 15.0 * KNOT)
    assert turbulence_intensity("severe", 500.0)[2] == pytest.approx(0.1 * 45.0 * KNOT)


@pytest.fixture(scope="module")
def long_series():
    """A long seeded series at 300 ft and 150 ft/s (about 300 scale lengths of u)."""
    dt = 0.05
    return dt, turbulence_series("severe", 300.0, 150.0, seed=11, duration=6000.0, dt=dt, wingspan=SPAN)


def test_dryden_series_has_the_intensities_of_the_specification(long_series):
    dt, s = long_series
    su, sv, sw, lu, lv, lw = turbulence_intensity("severe", 300.0)
    std = s[:, 1:4].std(axis=0)
    np.testing.assert_allclose(std, [su, sv, sw], rtol=0.08)
    assert s[:, 4].std() == pytest.approx(sigma_p(sw, lw, SPAN), rel=0.08)
    # q_g, r_g: the variance is the integral of their Dryden spectra
    for col, comp, sigma, length in ((5, "q", sw, lw), (6, "r", sv, lv)):
        def psd(om, comp=comp, sigma=sigma, length=length):
            return dryden_psd(comp, om, 150.0, sigma, length, SPAN)

        var, _ = integrate.quad(psd, 0.0, np.inf, limit=400)
        assert s[:, col].std() == pytest.approx(math.sqrt(var), rel=0.1)


def test_dryden_series_has_the_scale_lengths_of_the_specification(long_series):
    dt, s = long_series
    su, sv, sw, lu, lv, lw = turbulence_intensity("severe", 300.0)
    V = 150.0
    for col, length, shape in ((1, lu, lambda x: np.exp(-x)), (3, lw, lambda x: (1 - x / 2) * np.exp(-x))):
        x = s[:, col] - s[:, col].mean()
        lags = np.arange(0, int(2 * length / V / dt))
        r = np.array([np.dot(x[: len(x) - k], x[k:]) / (len(x) - k) for k in lags]) / x.var()
        expected = shape(V * lags * dt / length)
        assert np.max(np.abs(r - expected)) < 0.1
    # u: the lag where the correlation falls to 1/e is L_u / V
    x = s[:, 1] - s[:, 1].mean()
    r = [np.dot(x[: len(x) - k], x[k:]) / (len(x) - k) / x.var() for k in range(int(3 * lu / V / dt))]
    lag = np.argmax(np.array(r) < math.exp(-1.0)) * dt
    assert V * lag == pytest.approx(lu, rel=0.15)


@pytest.mark.parametrize("col,comp", [(1, "u"), (2, "v"), (3, "w")])
def test_dryden_spectrum_matches_the_dryden_form(long_series, col, comp):
    dt, s = long_series
    su, sv, sw, lu, lv, lw = turbulence_intensity("severe", 300.0)
    sigma, length = {"u": (su, lu), "v": (sv, lv), "w": (sw, lw)}[comp]
    f, pxx = signal.welch(s[:, col], fs=1.0 / dt, nperseg=4096)
    om = 2 * np.pi * f
    band = (om > 0.2 * 150.0 / length) & (om < 0.25 * np.pi / dt)
    measured = pxx[band] / (2 * np.pi)                      # per rad/s
    model = dryden_psd(comp, om[band], 150.0, sigma, length)
    ratio = measured / model
    assert np.mean(ratio) == pytest.approx(1.0, abs=0.1)
    # in octave-wide bins the spectrum follows the form (a white spectrum would fail by far)
    edges = np.geomspace(om[band][0], om[band][-1], 6)
    for lo, hi in zip(edges, edges[1:], strict=False):
        sel = (om[band] >= lo) & (om[band] < hi)
        assert np.mean(ratio[sel]) == pytest.approx(1.0, abs=0.25)


def test_same_seed_same_series_another_seed_another():
    a = turbulence_series("light", 800.0, 160.0, seed=5, duration=20.0)
    b = turbulence_series("light", 800.0, 160.0, seed=5, duration=20.0)
    c = turbulence_series("light", 800.0, 160.0, seed=6, duration=20.0)
    assert np.array_equal(a, b)
    assert not np.allclose(a[:, 1:], c[:, 1:])


def test_the_series_advances_with_distance_flown():
    """At twice the speed and half the step, the same seed meets the same gusts (the filters see only V·dt)."""
    a = Dryden("moderate", 2).step
    b = Dryden("moderate", 2).step
    for _ in range(200):
        ua = a(0.02, 100.0, 3000.0)
        ub = b(0.01, 200.0, 3000.0)
        np.testing.assert_allclose(ua[:3], ub[:3], rtol=1e-12, atol=1e-12)


def test_turbulence_does_not_depend_on_the_frame_rate():
    wind = WindSpec(270.0, 10.0 * KNOT, turbulence="moderate", seed=4)
    start = trimmed_start(AIRCRAFT, 160.0, 800.0, wind=wind)
    runs = []
    for frame in (1 / 30, 1 / 144, 0.1):
        sim = Simulation(AIRCRAFT, "rk4", start=start, wind=wind)
        while sim.steps < 240:
            sim.advance(min(frame, (240 - sim.steps) * sim.dt))
        runs.append((sim.steps, sim.vector, sim.wind))
    for steps, y, w in runs[1:]:
        assert steps == runs[0][0]
        assert np.array_equal(y, runs[0][1]) and np.array_equal(w, runs[0][2])
    # and the turbulence did move the airplane: a calm flight differs
    calm = Simulation(AIRCRAFT, "rk4", start=start, wind=WindSpec(270.0, 10.0 * KNOT))
    for _ in range(240):
        calm.step()
    assert np.linalg.norm(calm.vector[10:13] - runs[0][1][10:13]) > 1e-3


def test_reset_replays_the_same_turbulence():
    wind = WindSpec(0.0, 0.0, turbulence="light", seed=9)
    sim = Simulation(AIRCRAFT, "euler", start=trimmed_start(AIRCRAFT, 160.0, 600.0), wind=wind)
    first = [sim.wind.copy() for _ in range(50) if sim.step()]
    sim.reset()
    again = [sim.wind.copy() for _ in range(50) if sim.step()]
    assert np.array_equal(np.array(first), np.array(again)) and np.ptp(np.array(first)[:, 2]) > 0


# --------------------------------------------------------------------------- trace and commands


def test_trace_has_air_relative_columns_and_old_traces_still_read(tmp_path):
    out = tmp_path / "w.csv"
    assert main(["simulate", "--start", "air", "--wind", "270@15", "--steps", "120", "--out", str(out)]) == 0
    data = trace.read_csv(out)
    col = {n: data[:, i] for i, n in enumerate(trace.COLUMNS)}
    assert list(trace.COLUMNS[-18:-14]) == ["wind_x", "wind_y", "wind_z", "groundspeed"]
    np.testing.assert_allclose(col["wind_y"], -15.0 * KNOT, rtol=1e-9)
    np.testing.assert_allclose(col["airspeed"], 160.0, atol=0.05)
    np.testing.assert_allclose(col["groundspeed"], math.hypot(160.0, 15 * KNOT), atol=0.1)
    # an older trace without the wind columns: still air
    rows = list(csv.reader(open(out, newline="")))
    old = tmp_path / "old.csv"
    with open(old, "w", newline="") as f:
        csv.writer(f).writerows([r[:24] for r in rows])
    data_old = trace.read_csv(old)
    assert data_old.shape == data.shape
    assert not np.any(data_old[:, 24:27])
    np.testing.assert_allclose(data_old[:, trace.COLUMNS.index("airspeed")],
                               np.linalg.norm(data_old[:, 4:7], axis=1))


@pytest.mark.parametrize("args,message", [
    (["--wind", "400@10"], "--wind: direction must be 0..360"),
    (["--wind", "abc"], "--wind: expected DEG@KNOTS"),
    (["--wind", "270@-5"], "--wind: speed must be"),
    (["--turbulence", "heavy"], "--turbulence: unknown level 'heavy'"),
    (["--seed", "x"], "--seed: must be a whole number"),
])
def test_bad_wind_options_are_one_line_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--steps", "1", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_wind_command_writes_the_series(tmp_path, capsys):
    out = tmp_path / "t.csv"
    assert main(["wind", "--altitude", "500", "--airspeed", "160", "--turbulence", "light", "--seed", "3",
                 "--duration", "2", "--dt", "0.01", "--out", str(out)]) == 0
    rows = list(csv.reader(open(out, newline="")))
    assert rows[0] == ["t", "wind_x", "wind_y", "wind_z", "p_g", "q_g", "r_g"]
    data = np.array(rows[1:], dtype=float)
    assert len(data) == 201 and data[-1, 0] == pytest.approx(2.0)
    ref = turbulence_series("light", 500.0, 160.0, 3, 2.0, 0.01, SPAN)
    np.testing.assert_allclose(data, ref, rtol=1e-9, atol=1e-12)


def test_hud_reads_the_wind_relative_to_the_nose():
    from flightsim.app.hud.instruments import wind_relative

    w = wind_vector(270.0, 15.0 * KNOT)
    assert wind_relative(w, 0.0) == pytest.approx((270.0, 15.0, 270.0), abs=1e-4)    # from the left flying North
    assert wind_relative(w, 270.0) == pytest.approx((270.0, 15.0, 0.0), abs=1e-4)    # a headwind flying West
    assert wind_relative(wind_vector(45.0, 10 * KNOT), 0.0) == pytest.approx((45.0, 10.0, 45.0), abs=1e-4)


@pytest.mark.parametrize("kind", ["air", "approach"])
def test_trimmed_starts_are_trimmed_relative_to_the_air(kind):
    """In a steady crosswind a trimmed start keeps the still-air state through the air and drifts with the wind."""
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.physics.wind import WindSpec
    from flightsim.simulation.starts import make_start

    aircraft = load_aircraft()
    wind = WindSpec(from_deg=270.0, speed=25.0)
    still, windy = make_start(aircraft, kind), make_start(aircraft, kind, wind=wind)
    drift = windy.state[3:6] - still.state[3:6]
    assert drift == pytest.approx(wind.steady(float(still.state[2])), abs=1e-12)
    assert drift[1] < -24.0                               # from the West: blowing East (−y)
    assert np.array_equal(np.delete(windy.state, [3, 4, 5]), np.delete(still.state, [3, 4, 5]))
    assert windy.controls == still.controls

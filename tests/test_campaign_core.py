"""The campaign's core: the spec, each run's draws, and a chunk of runs flown on the batch (issue 42)."""

import dataclasses
import math

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.resources import data_file
from flightsim.simulation.batch import PARALLEL_MIN
from flightsim.simulation.campaign.dispersions import draws
from flightsim.simulation.campaign.runner import COLUMNS_OUTCOME, STOP_REASONS, TRACE_COLUMNS, run_chunk
from flightsim.simulation.campaign.spec import QUANTITIES, column_of, read_spec

EXAMPLE = data_file("configs", "campaigns", "approach.toml")

#: A short campaign: the 172R's coupled approach from 4690 ft before the aim point (the approach start moved
#: 3000 ft along and 100 ft down: on the 3° path there, 250 ft above the runway, where the approach soon hands
#: back), in a gusty, turbulent crosswind; every kind of dispersion the batch flies per airplane.
SHORT = """
aircraft = "c172"
runs = 100
seed = 7
traces = [3, 20]
trace_every_s = 0.5

[start]
kind = "approach"

[stop]
touchdown = true
time_s = 60

[pilot]
autopilot = "app=36"

[wind]
from_deg = 270
speed_kt = 10
turbulence = "light"
seed = 3
[[wind.gusts]]
start_s = 12
duration_s = 2
from_deg = 250
speed_kt = 8

[[dispersion]]
name = "wind.speed_kt"
uniform = [2, 16]
[[dispersion]]
name = "wind.from_deg"
normal = { mean = 270, sd = 30, min = 200, max = 340 }
[[dispersion]]
name = "wind.turbulence"
choices = ["none", "light", "moderate"]
[[dispersion]]
name = "wind.seed"
uniform = [0, 1000000]
[[dispersion]]
name = "weight_lb"
uniform = [1950, 2450]
[[dispersion]]
name = "cg_ft"
normal = { mean = 0, sd = 0.2 }
[[dispersion]]
name = "start.along_ft"
uniform = [2950, 3050]
[[dispersion]]
name = "start.altitude_ft"
normal = { mean = -100, sd = 5 }
[[dispersion]]
name = "start.left_ft"
uniform = [-20, 20]
[[dispersion]]
name = "autopilot.ias_kt"
uniform = [62, 70]
"""


def write(tmp_path, text, name="spec.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def short(tmp_path_factory):
    return read_spec(write(tmp_path_factory.mktemp("campaign"), SHORT))


def test_the_shipped_example_is_the_172s_approach_in_a_gusty_crosswind():
    spec = read_spec(EXAMPLE)
    assert spec.runs == 10000 and spec.start == "approach" and spec.pilot == "autopilot"
    assert spec.pilot_value == "app=36" and spec.runway == "36" and spec.time_s == 120.0
    assert spec.aircraft.endswith("c172.toml")
    assert spec.wind.speed > 0.0 and spec.wind.turbulence != "none" and spec.wind.gusts
    assert {"wind.speed_kt", "wind.from_deg", "wind.seed", "weight_lb"} <= {d.name for d in spec.dispersions}


def test_the_checksum_leaves_the_runs_out_and_sees_everything_else(tmp_path, short):
    same = read_spec(write(tmp_path, SHORT.replace("runs = 100", "runs = 5000")))
    assert same.checksum == short.checksum and same.runs == 5000
    assert short.with_runs(7).checksum == short.checksum and short.with_runs(7).runs == 7
    other = read_spec(write(tmp_path, SHORT.replace("seed = 7", "seed = 8"), "other.toml"))
    assert other.checksum != short.checksum
    spread = read_spec(write(tmp_path, SHORT.replace("uniform = [62, 70]", "uniform = [62, 71]"), "o2.toml"))
    assert spread.checksum != short.checksum
    with pytest.raises(ValueError, match="^runs: must be ≥ 1, got 0"):
        short.with_runs(0)
    assert len(short.checksum) == 64 and int(short.checksum, 16) >= 0


@pytest.mark.parametrize("change, where, reason", [
    ("sd = 30", "dispersion[1].normal.sd", "must be >= 0 (a standard deviation), got -3"),
    ("runs = 100", "runs", "must be >= 1, got 0"),
    ("time_s = 60", "stop.time_ms", "unknown key; did you mean 'time_s'?"),
    ('name = "weight_lb"', "dispersion[4].name", "unknown quantity 'weight_kg'; did you mean 'weight_lb'?"),
    ("uniform = [2, 16]", "dispersion[0].uniform", "must be [low, high] with low <= high, got [16, 2]"),
    ('autopilot = "app=36"', "pilot.autopilot", "alt=-5: altitude must be 0 to 60000 ft"),
    ('choices = ["none", "light", "moderate"]', "dispersion[2].choices[1]", "unknown value 'lite'"),
])
def test_bad_specs_are_one_line_naming_the_file_the_field_and_the_reason(tmp_path, change, where, reason):
    bad = {"sd = 30": "sd = -3", "runs = 100": "runs = 0", "time_s = 60": "time_ms = 40",
           'name = "weight_lb"': 'name = "weight_kg"', "uniform = [2, 16]": "uniform = [16, 2]",
           'autopilot = "app=36"': 'autopilot = "alt=-5"',
           'choices = ["none", "light", "moderate"]': 'choices = ["none", "lite"]'}[change]
    path = write(tmp_path, SHORT.replace(change, bad, 1))
    with pytest.raises(InputError) as err:
        read_spec(path)
    assert err.value.source == str(path) and err.value.where == where
    assert err.value.reason.startswith(reason)
    assert "\n" not in str(err.value)


def test_the_spec_pickles_and_the_approach_flies_to_the_start_s_runway(tmp_path, short):
    import pickle

    assert pickle.loads(pickle.dumps(short)) == short
    path = write(tmp_path, SHORT.replace('kind = "approach"', 'kind = "approach"\nairfield = "KVAL"\nrunway = "27"'))
    with pytest.raises(InputError) as err:
        read_spec(path)
    assert err.value.where == "pilot.autopilot" and "give app=KVAL/27" in err.value.reason


def test_a_pilot_file_that_is_not_there_and_two_pilots_are_refused(tmp_path):
    path = write(tmp_path, SHORT.replace('autopilot = "app=36"', 'controls = "nowhere.csv"'))
    with pytest.raises(InputError, match=r"pilot\.controls: no such file: .*nowhere\.csv"):
        read_spec(path)
    path = write(tmp_path, SHORT.replace('autopilot = "app=36"', 'autopilot = "app=36"\npolicy = "p.zip"'))
    with pytest.raises(InputError, match="pilot: give exactly one of"):
        read_spec(path)


def test_each_run_draws_from_its_own_index_whatever_the_chunk(short):
    whole = draws(short, 0, 60)
    parts = [draws(short, a, b) for a, b in ((0, 1), (1, 37), (37, 60))]
    for d in short.dispersions:
        joined = np.concatenate([p[d.column] for p in parts])
        assert joined.dtype == whole[d.column].dtype
        assert list(joined) == list(whole[d.column])
    # within their ranges, clipped where asked, and spread
    speed = whole["wind_speed_kt"]
    assert np.all((speed >= 2) & (speed <= 16)) and np.ptp(speed) > 7.0
    direction = whole["wind_from_deg"]
    assert np.all((direction >= 200) & (direction <= 340)) and np.std(direction) > 15.0
    assert set(whole["wind_turbulence"]) == {"none", "light", "moderate"}
    assert whole["wind_seed"].dtype == np.int64 and len(set(whole["wind_seed"])) == 60
    # another master seed, other draws
    other = draws(dataclasses.replace(short, seed=8), 0, 60)
    assert not np.array_equal(other["wind_speed_kt"], speed)


def test_every_quantity_has_a_column():
    assert column_of("wind.speed_kt") == "wind_speed_kt"
    assert len({column_of(n) for n in QUANTITIES}) == len(QUANTITIES)


def same_rows(a, b):
    """Bit for bit, NaN where NaN."""
    assert list(a) == list(b)
    for k in a:
        if a[k].dtype == object:
            assert list(a[k]) == list(b[k]), k
        else:
            np.testing.assert_array_equal(np.ascontiguousarray(a[k]).view(np.uint8),
                                          np.ascontiguousarray(b[k]).view(np.uint8), err_msg=k)


def joined(results):
    return {k: np.concatenate([r.rows[k] for r in results]) for k in results[0].rows}


def test_a_runs_row_is_the_same_bit_for_bit_whatever_its_chunk(short):
    whole = run_chunk(short, 0, 41)
    same_rows(whole.rows, joined([run_chunk(short, 0, 17), run_chunk(short, 17, 41)]))
    rows = whole.rows
    assert list(rows) == ["run", *short.columns_drawn, *COLUMNS_OUTCOME]
    assert rows["run"].dtype == np.int64 and list(rows["run"]) == list(range(41))
    assert set(rows["stop_reason"]) <= set(STOP_REASONS)
    # the approaches touched down past the threshold, near the centre line, in their crosswinds and turbulence
    # (some too hard: a crash, in moderate turbulence)
    reason = rows["stop_reason"]
    assert np.all((reason == "touchdown") | (reason == "crash")) and np.mean(reason == "touchdown") > 0.5
    down = np.ones(len(reason), dtype=bool)
    along, across = rows["touchdown_along_ft"][down], rows["touchdown_across_ft"][down]
    assert np.mean(along > 0.0) > 0.8 and np.all((along > -1000.0) & (along < 3000.0) & (np.abs(across) < 75.0))
    assert np.ptp(along) > 50.0 and np.ptp(across) > 2.0
    sink = rows["sink_rate_fpm"][down]
    assert np.all((sink > 0.0) & (sink < 3000.0))
    assert np.all(np.abs(rows["touchdown_speed_kt"][down] - 65.0) < 20.0)
    assert np.all(rows["max_load_factor"] > 1.0) and np.all(rows["max_bank_deg"] >= 0.0)
    assert np.all(rows["max_alpha_deg"] > 0.0) and np.all(np.isnan(rows["fuel_used_lb"]))
    assert np.all(rows["time_s"] < short.time_s)
    crash = reason == "crash"
    assert np.all(rows["sink_rate_fpm"][crash] > np.max(rows["sink_rate_fpm"][~crash]))
    # the trace of run 3 and 20: thinned, ending where the run stopped
    assert sorted(whole.traces) == [3, 20]
    trace = whole.traces[20]
    assert list(trace) == list(TRACE_COLUMNS)
    assert trace["t"][0] == 0.0 and trace["t"][-1] == rows["time_s"][20]
    assert np.allclose(np.diff(trace["t"])[:-1], 0.5)
    assert np.all(trace["on_ground"][:-1] == 0.0) and trace["z"][-1] < 10.0


def test_the_threads_fly_a_run_as_the_calling_thread_does(short):
    # a chunk of PARALLEL_MIN or more airplanes steps on numba's threads, a smaller one on the calling thread
    big = run_chunk(short, 0, PARALLEL_MIN + 2)
    small = run_chunk(short, PARALLEL_MIN - 6, PARALLEL_MIN + 2)
    tail = {k: v[PARALLEL_MIN - 6:] for k, v in big.rows.items()}
    same_rows(tail, small.rows)
    assert math.isfinite(float(np.nanmax(tail["touchdown_along_ft"])))


def test_a_chunk_must_hold_runs(short):
    with pytest.raises(ValueError, match="chunk"):
        run_chunk(short, 5, 5)


AIR = """
aircraft = "c172"
runs = 6
seed = 11
integrator = "rk4"
traces = [0, 1, 2, 3, 4, 5]
trace_every_s = 0.25

[start]
kind = "air"

[stop]
time_s = 5

[pilot]
controls = "stick.csv"

[[dispersion]]
name = "start.heading_deg"
uniform = [-30, 30]
[[dispersion]]
name = "start.speed_kt"
uniform = [-5, 5]
[[dispersion]]
name = "failure.kind"
choices = ["none", "engine"]
[[dispersion]]
name = "failure.at_s"
uniform = [0.5, 1.0]
"""


def test_a_controls_schedule_flies_turned_faster_starts_and_the_failures_drawn(tmp_path):
    (tmp_path / "stick.csv").write_text("t,aileron\n1,0.3\n2,0\n")
    spec = read_spec(write(tmp_path, AIR))
    whole = run_chunk(spec, 0, 6)
    same_rows(whole.rows, joined([run_chunk(spec, 0, 2), run_chunk(spec, 2, 6)]))
    rows, traces = whole.rows, whole.traces
    assert list(rows["stop_reason"]) == ["time"] * 6 and np.all(rows["time_s"] == pytest.approx(5.0))
    assert np.all(np.isnan(rows["touchdown_along_ft"]))
    # the starts turned right and made faster by their draws (the undispersed start flies North)
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.simulation.starts import make_start

    nominal = make_start(load_aircraft(spec.aircraft), "air")
    speed = np.linalg.norm(nominal.state[3:6])
    for k in range(6):
        t = traces[k]
        assert t["heading"][0] == pytest.approx(rows["start_heading_deg"][k] % 360.0, abs=1e-6)
        v = math.sqrt(t["vx"][0] ** 2 + t["vy"][0] ** 2 + t["vz"][0] ** 2)
        assert v == pytest.approx(speed + rows["start_speed_kt"][k] * 1.68781, rel=1e-12)
        # the schedule's aileron from 1 s to 2 s: a bank to the right
        assert rows["max_bank_deg"][k] > 5.0 and np.max(t["roll"]) > 5.0
        assert t["aileron"][np.searchsorted(t["t"], 1.5)] == 0.3
    # an engine that quits slows its airplane down more than any that runs on
    failed = rows["failure_kind"] == "engine"
    assert 0 < failed.sum() < 6
    loss = np.array([traces[k]["airspeed_kt"][0] - traces[k]["airspeed_kt"][-1] for k in range(6)])
    assert loss[failed].min() > loss[~failed].max()


def test_the_chunk_benchmark_runs_and_prints_its_ratios():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_campaign_chunk.py"
    proc = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "CPU-us/airplane-step" in proc.stdout and "campaign / bare batch = " in proc.stdout


def test_a_run_stops_below_its_floor(tmp_path):
    (tmp_path / "stick.csv").write_text("t,elevator\n0,-0.5\n")
    # the air start is at 2000 ft or so: a floor 30 ft below it is crossed in a dive within seconds
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.simulation.starts import make_start

    start = make_start(load_aircraft("c172"), "air")
    floor = float(start.state[2]) - 30.0
    spec = read_spec(write(tmp_path, AIR.replace("time_s = 5", f"time_s = 20\nbelow_ft = {floor}")))
    rows = run_chunk(spec, 0, 3).rows
    assert list(rows["stop_reason"]) == ["below"] * 3
    assert np.all((rows["time_s"] > 0.5) & (rows["time_s"] < 20.0))

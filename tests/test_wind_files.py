"""The wind kept as data: an aircraft file's [wind], scenario files, and --gust / --scenario on the command line."""

import subprocess
import sys

import numpy as np
import pytest

from flightsim.commands.cli import main
from flightsim.physics.aircraft import DEFAULT_AIRCRAFT, load_aircraft
from flightsim.physics.wind import KNOT
from flightsim.simulation import trace
from flightsim.simulation.scenario import load_scenario, shipped_scenarios

WIND = """
[wind]
from_deg = 90
speed_kt = 15
turbulence = "light"
seed = 4
shear = { kind = "log", height_ft = 500 }
[[wind.gusts]]
start_s = 0.5
duration_s = 1.0
from_deg = 180
speed_kt = 10
up_kt = -4
"""


def aircraft_with(tmp_path, text):
    path = tmp_path / "windy.toml"
    path.write_text(DEFAULT_AIRCRAFT.read_text() + text)
    return path


def test_an_aircraft_file_may_set_the_wind(tmp_path):
    spec = load_aircraft(aircraft_with(tmp_path, WIND)).wind
    assert spec.from_deg == 90.0 and spec.speed == pytest.approx(15 * KNOT)
    assert spec.turbulence == "light" and spec.seed == 4
    assert spec.shear.kind == "log" and spec.shear.height == 500.0
    (gust,) = spec.gusts
    assert (gust.start, gust.duration) == (0.5, 1.0)
    np.testing.assert_allclose(gust.velocity, [10 * KNOT, 0.0, -4 * KNOT], atol=1e-12)   # from the South: North
    assert load_aircraft().wind is None


@pytest.mark.parametrize("text, message", [
    ("\n[wind]\nfrom_deg = 400\n", "wind.from_deg: must be <= 360"),
    ("\n[wind]\nturbulence = \"moderat\"\n", "wind.turbulence: unknown value 'moderat'; did you mean 'moderate'?"),
    ("\n[wind]\nspeed = 3\n", "wind.speed: unknown key"),
    ("\n[wind]\nspeed_kt = -3\n", "wind.speed_kt: must be >= 0"),
    ("\n[wind]\nshear = { kind = \"cubic\" }\n", "wind.shear.kind: unknown value 'cubic'"),
    ("\n[[wind.gusts]]\nstart_s = 1\nduration_s = 0\nfrom_deg = 0\nspeed_kt = 5\n",
     "wind.gusts[0].duration_s: must be > 0"),
])
def test_a_bad_wind_section_is_one_line_naming_the_file_and_field(tmp_path, capsys, text, message):
    path = aircraft_with(tmp_path, text)
    assert main(["simulate", "--steps", "1", "--aircraft", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "windy.toml" in err[0], err


NON_PHYSICAL = [("nan", "must be finite, got nan"), ("inf", "must be finite, got inf"),
                ("-inf", "must be finite, got -inf"), ("1e308", "got 1e+308 (accepted range "),
                ("-1e308", "got -1e+308 (accepted range ")]
WIND_NUMBERS = ["from_deg", "speed_kt", "shear.height_ft", "shear.exponent", "shear.roughness_ft",
                "gusts[0].start_s", "gusts[0].duration_s", "gusts[0].from_deg", "gusts[0].speed_kt", "gusts[0].up_kt"]


def wind_with(field, value):
    """The ``[wind]`` section of :data:`WIND` (plus shear exponent and roughness) with ``field = value``."""
    table = {"from_deg": "90", "speed_kt": "15", "turbulence": '"light"', "seed": "4"}
    shear = {"kind": '"log"', "height_ft": "500", "exponent": "0.2", "roughness_ft": "0.1"}
    gust = {"start_s": "0.5", "duration_s": "1.0", "from_deg": "180", "speed_kt": "10", "up_kt": "-4"}
    part, _, key = field.rpartition(".")
    {"": table, "shear": shear, "gusts[0]": gust}[part][key] = value
    inline = ", ".join(f"{k} = {v}" for k, v in shear.items())
    return ("\n[wind]\n" + "".join(f"{k} = {v}\n" for k, v in table.items()) + f"shear = {{ {inline} }}\n"
            + "[[wind.gusts]]\n" + "".join(f"{k} = {v}\n" for k, v in gust.items()))


@pytest.mark.parametrize("field", WIND_NUMBERS)
@pytest.mark.parametrize("value, reason", NON_PHYSICAL, ids=[v for v, _ in NON_PHYSICAL])
def test_non_physical_wind_numbers_are_one_line_exit_2(tmp_path, capsys, field, value, reason):
    """NaN, infinities and absurd magnitudes in the [wind] of an aircraft file: refused, naming the file and field."""
    path = aircraft_with(tmp_path, wind_with(field, value))
    assert main(["simulate", "--steps", "1", "--aircraft", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"flightsim: error: {path}: wind.{field}: "), err
    assert reason in err[0], err


@pytest.mark.parametrize("value", ["nan", "inf", "1e308"])
def test_non_physical_seeds_are_refused(tmp_path, capsys, value):
    path = aircraft_with(tmp_path, wind_with("seed", value))
    assert main(["simulate", "--steps", "1", "--aircraft", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}: wind.seed: must be a whole number, got " in err[0], err


def test_the_shipped_scenarios_load():
    assert {"crosswind", "gusty"} <= set(shipped_scenarios())
    s = load_scenario("crosswind")
    assert s.wind.from_deg == 90.0 and s.wind.speed == pytest.approx(15 * KNOT) and s.wind.turbulence == "moderate"
    assert "crosswind" in s.description
    assert len(load_scenario("gusty").wind.gusts) == 2


def simulate(tmp_path, *args, name="t.csv"):
    out = tmp_path / name
    assert main(["simulate", "--start", "air", "--steps", "240", "--out", str(out), *args]) == 0
    data = trace.read_csv(out)
    return {n: data[:, i] for i, n in enumerate(trace.COLUMNS)}


def test_command_line_wins_over_the_scenario_which_replaces_the_aircraft_files_wind(tmp_path):
    path = aircraft_with(tmp_path, WIND)
    scenario = tmp_path / "s.toml"
    scenario.write_text('description = "calm but for a gust"\n[wind]\nfrom_deg = 0\nspeed_kt = 0\n'
                        '[[wind.gusts]]\nstart_s = 0.5\nduration_s = 1\nfrom_deg = 270\nspeed_kt = 20\n')
    from_file = simulate(tmp_path, "--aircraft", str(path), name="a.csv")
    assert from_file["wind_y"][0] != 0.0                             # the aircraft file's easterly
    from_scenario = simulate(tmp_path, "--aircraft", str(path), "--scenario", str(scenario), name="b.csv")
    t, wy = from_scenario["t"], from_scenario["wind_y"]
    assert np.all(wy[t < 0.5] == 0.0) and np.all(wy[t > 1.5] == 0.0)  # calm but for its gust
    peak = wy[np.argmin(np.abs(t - 1.0))]
    assert peak == pytest.approx(-20 * KNOT, rel=1e-3)                # from the West: towards the East (-y)
    overridden = simulate(tmp_path, "--scenario", str(scenario), "--wind", "180@10", "--gust", "0.2:0.4:0@0:-10",
                          name="c.csv")
    t, wx, wz = overridden["t"], overridden["wind_x"], overridden["wind_z"]
    assert wx[-1] == pytest.approx(10 * KNOT)                         # --wind from the South wins
    assert wz.min() == pytest.approx(-10 * KNOT, rel=1e-2)            # --gust replaced the scenario's gust
    np.testing.assert_allclose(overridden["wind_y"], 0.0, atol=1e-12)   # no trace of the scenario's gust


@pytest.mark.parametrize("args, message", [
    (["--gust", "abc"], "--gust: expected START:SECONDS:DEG@KNOTS"),
    (["--gust", "1:0:90@10"], "--gust: duration must be > 0 s"),
    (["--gust", "1:2:400@10"], "--gust: direction must be 0..360"),
    (["--gust=-1:2:90@10"], "--gust: start must be >= 0 s"),
    (["--gust", "1:2:90@10:x"], "--gust: expected numbers"),
])
def test_bad_gusts_are_one_line_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--steps", "1", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_bad_scenarios_are_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[wind]\nturbulence = \"gale\"\n")
    nan = tmp_path / "nan.toml"
    nan.write_text("[wind]\nspeed_kt = nan\n")
    huge = tmp_path / "huge.toml"
    huge.write_text("[[wind.gusts]]\nstart_s = 1e308\nduration_s = 1\nfrom_deg = 0\nspeed_kt = 5\n")
    for arg, message in (("nope", "no such file, nor a shipped scenario (shipped: crosswind, gusty"),
                         (str(bad), "bad.toml: wind.turbulence: unknown value 'gale'"),
                         (str(nan), "nan.toml: wind.speed_kt: must be finite, got nan"),
                         (str(huge), "huge.toml: wind.gusts[0].start_s: must be <= 1e+06, got 1e+308"),
                         (str(tmp_path / "missing.toml"), "missing.toml: file not found")):
        run = subprocess.run([sys.executable, "-m", "flightsim", "simulate", "--steps", "1", "--scenario", arg],
                             capture_output=True, text=True)
        assert run.returncode == 2, run
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], run.stderr
        assert "Traceback" not in run.stderr

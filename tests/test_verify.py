"""``flightsim verify``, run as a user runs it: a JSBSim aircraft flown in flightsim and in JSBSim, as README's row.

Each run trims and flies the aircraft in both for 30 s (seconds, plus compiling the first time): the c172p's
row and its JSON come from one module fixture.
"""

import json
import re
import shutil
import subprocess
import sys

import conftest
import pytest

from flightsim.physics.jsbsim.xmlfile import package_root
from flightsim.verify.flight_table import CONDITIONS, HEADER


def verify(*args):
    return subprocess.run([sys.executable, "-m", "flightsim", "verify", *args], capture_output=True, text=True,
                          timeout=900)


def one_line_error(r):
    """conftest's, the line starting 'flightsim verify: ', nothing on stdout."""
    return conftest.one_line_error(r, "flightsim verify: ", quiet=True)


def cells(line):
    """A Markdown row's cells."""
    assert line.startswith("| ") and line.endswith(" |"), line
    return [c.strip() for c in line[2:-2].split(" | ")]


@pytest.fixture(scope="module")
def c172p():
    """``flightsim verify --aircraft jsbsim:c172p``, as a row and as JSON."""
    return verify("--aircraft", "jsbsim:c172p"), verify("--aircraft", "jsbsim:c172p", "--json")


def test_the_row_is_readmes(c172p):
    r, _ = c172p
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert tuple(lines[:2]) == HEADER and len(lines) == 3
    names = cells(lines[0])
    assert names[0] == "aircraft" and names[-1] == "within" and len(names) == 13
    row = dict(zip(names, cells(lines[2]), strict=True))
    assert row["aircraft"] == "jsbsim:c172p" and row["flightsim trims"] == "yes" and row["within"] == "yes"
    speed, altitude = CONDITIONS["c172p"]               # README's condition for it, the units said
    assert row["condition"] == f"{speed:.0f} ft/s, {altitude:.0f} ft"
    assert float(row["loads (rel.)"]) < 1e-12 and float(row["thrust (rel.)"]) < 1e-12
    assert abs(float(row["Δα °"])) <= 0.1 and abs(float(row["Δthrottle"])) <= 0.01
    height, bound = re.fullmatch(r"(\S+) \(≤ (\S+)\)", row["Δh ft"]).groups()
    assert float(bound) == 3.0 and 0.0 < float(height) <= 3.0               # a light aircraft's bound
    assert 0.0 < float(row["ΔV ft/s"]) <= 0.5
    for angle in ("Δφ °", "Δθ °"):
        assert 0.0 < float(row[angle]) <= 0.2
    assert 0.0 < float(row["Δψ °"]) <= 0.5


def test_the_json_agrees_with_the_row(c172p):
    r, j = c172p
    assert j.returncode == 0, j.stdout + j.stderr
    d = json.loads(j.stdout)
    row = dict(zip(cells(r.stdout.splitlines()[0]), cells(r.stdout.splitlines()[2]), strict=True))
    assert d["aircraft"] == row["aircraft"] and d["within"] is d["trim_within"] is d["trajectory_within"] is True
    assert (d["airspeed_ft_s"], d["altitude_ft"]) == CONDITIONS["c172p"] and d["note"] is None
    assert (d["integrator"], d["dt_s"], d["planet"]) == ("rk4", 1.0 / 120.0, "round")
    assert f"{d['loads_rel']:.1e}" == row["loads (rel.)"] and f"{d['thrust_rel']:.1e}" == row["thrust (rel.)"]
    assert f"{d['alpha_diff_deg']:+.4f}" == row["Δα °"] and f"{d['throttle_diff']:+.4f}" == row["Δthrottle"]
    assert f"{d['airspeed_diff_ft_s']:.3f}" == row["ΔV ft/s"]
    assert f"{d['height_diff_ft']:.2f} (≤ {d['tolerance']['height_ft']:g})" == row["Δh ft"]
    for key, column in (("roll_diff_deg", "Δφ °"), ("pitch_diff_deg", "Δθ °"), ("heading_diff_deg", "Δψ °")):
        assert f"{d[key]:.3f}" == row[column]
        assert d[key] <= d["tolerance"][key.replace("_diff", "")]


def test_a_file_of_your_own_is_flown_by_both(tmp_path):
    """A JSBSim aircraft file anywhere (the c172p copied, 300 lb heavier): flightsim and JSBSim both read that
    file — JSBSim reading the package's lighter c172p would trim at another α — and agree; with no condition of
    its own in README's table it flies at its cruise speed at 3000 ft."""
    folder = tmp_path / "mine"
    shutil.copytree(package_root() / "aircraft" / "c172p", folder)
    text = (folder / "c172p.xml").read_text()
    assert text.count("<emptywt unit=\"LBS\"> 1500 </emptywt>") == 1
    (folder / "heavy172.xml").write_text(text.replace("> 1500 </emptywt>", "> 1800 </emptywt>"))
    (folder / "c172p.xml").unlink()
    r = verify("--aircraft", str(folder / "heavy172.xml"), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    d = json.loads(r.stdout)
    assert d["aircraft"] == str(folder / "heavy172.xml") and d["altitude_ft"] == 3000.0 and d["within"] is True
    assert abs(d["alpha_diff_deg"]) < 0.01 and d["loads_rel"] < 1e-12


def test_a_refused_aircraft_is_one_line():
    """dr1 is one of those ``flightsim aircraft`` refuses: the same reason, one line, exit 2."""
    from flightsim.commands.aircraft import jsbsim_fleet

    refused = dict(jsbsim_fleet()[1])
    line = one_line_error(verify("--aircraft", "jsbsim:dr1"))
    assert line == f"flightsim verify: jsbsim:dr1: flightsim does not fly it: {refused['dr1']}"


def test_a_missing_file_is_one_line(tmp_path):
    missing = tmp_path / "nowhere" / "mine.xml"
    assert one_line_error(verify("--aircraft", str(missing))) == f"flightsim verify: {missing}: no such file"


def test_a_condition_flightsim_cannot_trim_prints_its_row_and_exits_1():
    """Below the stall no steady flight exists: the row says so in its trim cell and the exit code is 1, not 0
    (a result outside the bounds) and not 2 (the input itself is fine)."""
    r = verify("--aircraft", "jsbsim:c172p", "--airspeed", "40", "--altitude", "3000")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert tuple(lines[:2]) == HEADER and len(lines) == 3 and "Traceback" not in r.stderr
    row = dict(zip(cells(HEADER[0]), [c.strip() for c in lines[2].strip("|").split("|")], strict=True))
    assert row["aircraft"] == "jsbsim:c172p" and row["flightsim trims"] == "no"
    assert "cannot trim at 40 ft/s" in row["condition"]


def test_the_flat_planet_stays_an_option():
    """``--planet flat``: both on a flat, still planet (JSBSim bent onto one), within the same bounds."""
    r = verify("--aircraft", "jsbsim:c172p", "--planet", "flat", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    d = json.loads(r.stdout)
    assert d["planet"] == "flat" and d["within"] is True
    assert d["height_diff_ft"] <= d["tolerance"]["height_ft"] and d["airspeed_diff_ft_s"] <= 0.5


def test_an_unknown_planet_is_one_line():
    line = one_line_error(verify("--aircraft", "jsbsim:c172p", "--planet", "moon"))
    assert line == "flightsim verify: --planet: must be round or flat, got 'moon'"

"""``benchmarks/jsbsim_scripts.py`` (every shipped JSBSim script in JSBSim and in flightsim): one quick case.

The benchmark runs as a user runs it, on JSBSim's shipped ``rudder_kick`` (the 737 trimmed at the first frame,
a rudder and an aileron ramp, a notice every second) capped at 5 simulated seconds: its row says flightsim runs
it to its end, that both fired the same events at the same frames, that both were timed, and that the flights
stayed within issue 40's aims; its JSON has the figures the table prints.  No timing is asserted.
"""

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "jsbsim_scripts.py"


def _run(*args, cwd):
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_rudder_kick_row_runs_and_its_events_match(tmp_path):
    md, js = tmp_path / "table.md", tmp_path / "rows.json"
    done = _run("--only", "rudder_kick", "--cap", "5", "--rounds", "1", "--markdown", str(md), "--json", str(js),
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(js.read_text())["rows"]
    assert row["script"] == "rudder_kick" and row["aircraft"] == "737"
    assert row["flightsim"] == "end" and row["jsbsim"] == "end"
    assert row["end"] == 5.0 and row["frames"][0] == row["frames"][1] >= round(5.0 / row["dt"]) + 1
    # the trim at the first frame, the rudder ramp at 0.1 s and a notice a second: 9 headings, the same frames
    assert row["events"] == [9, 9] and row["events_ok"] is True
    assert not row["ground"] and row["aims"] is True
    assert 0.0 <= row["alt"] < 20.0 and 0.0 <= row["att"] < 1.0 and 0.0 <= row["vt"] < 2.0
    assert all(t > 0.0 for t in row["wall"])
    table = md.read_text()
    line = next(r for r in table.splitlines() if r.startswith("| rudder_kick |"))
    assert "| 737 | to its end | 9/9 same |" in line and line.endswith("| yes |")
    assert "1 scripts: flightsim runs 1 to their end, 1 within the aims" in table
    assert "| rudder_kick | 737 | to its end | 9/9 same |" in done.stdout
    assert not list(tmp_path.glob("*.csv"))     # (the scripts' outputs go to the runs' own temporary folders)


def test_an_unknown_script_is_one_line(tmp_path):
    done = _run("--only", "no_such_script", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--only: no script 'no_such_script'" in done.stderr and not done.stdout
    done = _run("--only", "rudder_kick", "--rounds", "-1", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip() == "jsbsim_scripts.py: --rounds: must be >= 0, got -1"


def test_a_ground_trim_and_a_jet_started_from_cold_run_as_jsbsims(tmp_path):
    """c172_head_wind trims the c172x on its gear (``do_simple_trim`` 2) and T37 starts its two jets on the runway
    (they used to stop: no ground trim, and a drop onto the gear taken as a crash): both to their end, every event
    in JSBSim's frames, within the aims."""
    js = tmp_path / "rows.json"
    done = _run("--only", "c172_head_wind", "--only", "T37", "--cap", "20", "--rounds", "0", "--json", str(js),
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {r["script"]: r for r in json.loads(js.read_text())["rows"]}
    for name in ("c172_head_wind", "T37"):
        r = rows[name]
        assert r["flightsim"] == "end" and r["events_ok"] is True and r["aims"] is True, r
    assert rows["c172_head_wind"]["ground"] and rows["c172_head_wind"]["pos"] < 1.0
    assert rows["T37"]["pos"] < 10.0 and rows["T37"]["vt"] < 2.0
    assert "wall" not in rows["T37"]                  # (--rounds 0: not timed)

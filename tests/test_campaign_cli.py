"""``flightsim campaign`` as a user runs it (the console script, in a subprocess): the rows, the summary and its
plots, the same rows whatever the chunks, a campaign killed mid-run resumed to a clean run's rows, a changed spec
refused in the same folder, bad input one line with nothing written; and the summary's statistics (Wilson
intervals, the 95 % ellipse) against their closed forms."""

import math
import os
import signal
import subprocess
import time

import numpy as np
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest
from conftest import FLIGHTSIM, one_line_error

from flightsim.commands.campaign import CLUSTER_CHUNK_RUNS, LOCAL_CHUNK_RUNS, chunk_size
from flightsim.commands.campaign_summary import PLOTS, ellipse, wilson
from flightsim.simulation.campaign.runner import COLUMNS_OUTCOME, TRACE_COLUMNS

#: A small campaign: the 172R's coupled approach to the home runway 36 in a dispersed crosswind, a few seconds
#: of each run (the shell is under test here, not the flight: tests/test_campaign_core.py flies whole approaches).
SPEC = """\
aircraft = "c172"
runs = {runs}
seed = {seed}
traces = [1]
trace_every_s = 0.5

[start]
kind = "approach"

[stop]
time_s = {time_s}

[pilot]
autopilot = "app=36"

[wind]
from_deg = 270
speed_kt = 10

[[dispersion]]
name = "wind.speed_kt"
normal = {{ mean = 10, sd = {sd}, min = 0, max = 25 }}

[[dispersion]]
name = "wind.from_deg"
uniform = [240, 300]
{extra}"""
RUNS = 12
EXPECTED = {"campaign.json", "chunks", "traces", "runs.parquet", "runs.csv", "summary.md", *PLOTS.values()}


def spec_file(folder, name="approach.toml", runs=RUNS, seed=7, time_s=3, sd=3, extra=""):
    path = folder / name
    path.write_text(SPEC.format(runs=runs, seed=seed, time_s=time_s, sd=sd, extra=extra))
    return path


def campaign(*args, cwd=None):
    return subprocess.run([FLIGHTSIM, "campaign", *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def rows(folder):
    return pq.read_table(folder / "runs.parquet")


def same_rows(a, b):
    """The two tables hold the same columns and the same values, every float bit for bit (NaN included: pyarrow's
    ``Table.equals`` holds NaN unequal to itself)."""
    if a.column_names != b.column_names or a.num_rows != b.num_rows:
        return False
    for name in a.column_names:
        x, y = (t.column(name).to_numpy(zero_copy_only=False) for t in (a, b))
        if x.dtype != y.dtype:
            return False
        if x.dtype.kind == "f":
            if not np.array_equal(x.view(np.uint64), y.view(np.uint64)):
                return False
        elif x.tolist() != y.tolist():
            return False
    return True


def every_file(folder):
    """``{relative path: bytes}`` of every file under ``folder``."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def temporaries(folder):
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """One campaign flown whole, in one chunk: (its spec, its folder)."""
    base = tmp_path_factory.mktemp("clean")
    spec = spec_file(base)
    r = campaign(spec, "--out", base / "out", "--chunk", RUNS)
    assert r.returncode == 0, r.stderr
    return spec, base / "out", r


def test_a_campaign_writes_its_rows_its_summary_and_plots(clean):
    spec, out, r = clean
    assert {p.name for p in out.iterdir()} == EXPECTED and not temporaries(out)
    table = rows(out)
    names = table.column_names
    assert names[0] == "run" and np.array_equal(table.column("run").to_numpy(), np.arange(RUNS))
    assert names[-len(COLUMNS_OUTCOME):] == list(COLUMNS_OUTCOME)
    assert len(names) == 1 + 2 + len(COLUMNS_OUTCOME)                  # run, the two draws, the outcome
    # each run flew its own wind: the draws differ from run to run, within their bounds
    drawn = [table.column(n).to_numpy() for n in names[1:3]]
    assert all(len(set(d)) == RUNS for d in drawn)
    assert np.all((drawn[0] >= 0) & (drawn[0] <= 25)) and np.all((drawn[1] >= 240) & (drawn[1] <= 300))
    reasons = table.column("stop_reason").to_pylist()
    assert set(reasons) == {"time"}                                    # 3 s of an approach: no touchdown yet
    assert np.all(table.column("time_s").to_numpy() == pytest.approx(3.0, abs=0.01))
    # the CSV holds the same rows, every float read back to the same bits
    csv = pa_csv.read_csv(out / "runs.csv")
    assert csv.column_names == names and csv.num_rows == RUNS
    assert (out / "runs.csv").read_text().splitlines()[0] == ",".join(names)
    for name in names:
        a, b = table.column(name).to_numpy(zero_copy_only=False), csv.column(name).to_numpy(zero_copy_only=False)
        if a.dtype.kind == "f":
            assert np.array_equal(a, b.astype(np.float64), equal_nan=True), name
        else:
            assert a.tolist() == b.tolist(), name
    # the summary: printed and written, the fractions with their Wilson intervals
    md = (out / "summary.md").read_text()
    low, high = wilson(RUNS, RUNS)
    assert f"| time | {RUNS} | 100.00% | {low:.2%} – {high:.2%} |" in md
    assert f"| touchdown | 0 | 0.00% | 0.00% – {wilson(0, RUNS)[1]:.2%} |" in md
    assert "| time |" in r.stdout and "runs/s" in r.stdout and "footprint.png" in md
    assert "Warning" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    for name in PLOTS.values():
        import matplotlib.image

        image = matplotlib.image.imread(out / name)
        assert image.shape[0] > 300 and image.shape[1] > 500 and np.ptp(image[..., :3]) > 0.5, name
    # the trace of run 1 (the spec's traces), thinned every 0.5 s
    trace = pa_csv.read_csv(out / "traces" / "run-000001.csv")
    assert tuple(trace.column_names) == TRACE_COLUMNS
    t = trace.column("t").to_numpy()
    assert t[0] == 0.0 and t[-1] == pytest.approx(3.0, abs=0.01) and 6 <= len(t) <= 8


def test_the_same_seed_gives_the_same_rows_whatever_the_chunks_and_another_seed_others(clean, tmp_path):
    spec, out, _ = clean
    r = campaign(spec, "--out", tmp_path / "again", "--chunk", 5)
    assert r.returncode == 0, r.stderr
    assert same_rows(rows(tmp_path / "again"), rows(out))
    assert (tmp_path / "again" / "runs.csv").read_bytes() == (out / "runs.csv").read_bytes()
    assert len(list((tmp_path / "again" / "chunks").iterdir())) == 3
    other = spec_file(tmp_path, "other.toml", seed=8)
    r = campaign(other, "--out", tmp_path / "other", "--chunk", RUNS)
    assert r.returncode == 0, r.stderr
    a, b = rows(out), rows(tmp_path / "other")
    assert not np.any(a.column(1).to_numpy() == b.column(1).to_numpy())


def interrupt(args, chunks, count, sig):
    """Start ``flightsim campaign ARGS``; send it ``sig`` once ``chunks`` holds ``count`` chunk files; return
    (its exit code, its stderr)."""
    # (Ctrl-C's SIGINT as a terminal delivers it: a suite started in the background by a non-interactive shell,
    # `pytest … &`, has SIGINT ignored, which its children inherit and Python then leaves ignored)
    p = subprocess.Popen([FLIGHTSIM, "campaign", *map(str, args)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and p.poll() is None:
            if chunks.is_dir() and len(list(chunks.glob("*.parquet"))) >= count:
                break
            time.sleep(0.02)
        assert p.poll() is None, f"the campaign ended before it was stopped: {p.stderr.read()}"
        os.kill(p.pid, sig)
        _, err = p.communicate(timeout=120)
    finally:
        p.kill()
        p.wait()
    return p.returncode, err


def test_a_stopped_or_killed_campaign_resumes_to_the_rows_of_a_clean_run(clean, tmp_path):
    spec, out, _ = clean
    folder = tmp_path / "killed"
    chunks = folder / "chunks"
    args = [spec, "--out", folder, "--chunk", 1]
    # Ctrl-C: the finished chunks kept, one line saying so
    code, err = interrupt(args, chunks, 2, signal.SIGINT)
    kept = len(list(chunks.glob("*.parquet")))
    assert code == 130 and err.splitlines()[-1] == (f"flightsim: interrupted: {kept} of {RUNS} runs kept in "
                                                    f"{folder}; run the same command again to resume")
    # resumed, then killed as a machine dies (no clean-up at all)
    code, err = interrupt(args, chunks, kept + 2, signal.SIGKILL)
    assert code == -signal.SIGKILL and f"{kept} of {RUNS} runs already flown" in err
    kept = sorted(chunks.glob("*.parquet"))
    assert 4 <= len(kept) < RUNS and not (folder / "runs.parquet").exists()
    for path in kept:                                  # each chunk file whole: its one run's row
        assert pq.read_table(path).num_rows == 1
    r = campaign(spec, "--out", folder, "--chunk", 4)
    assert r.returncode == 0, r.stderr
    assert f"{len(kept)} of {RUNS} runs already flown" in r.stderr and f"{len(kept)} resumed" in r.stdout
    assert same_rows(rows(folder), rows(out))
    assert (folder / "runs.csv").read_bytes() == (out / "runs.csv").read_bytes()
    assert {p.name for p in folder.iterdir()} == EXPECTED and not temporaries(folder)


def test_more_runs_in_the_same_folder_fly_only_the_new_ones(clean, tmp_path):
    spec, out, _ = clean
    folder = tmp_path / "grown"
    r = campaign(spec, "--out", folder, "--runs", 5)
    assert r.returncode == 0, r.stderr
    assert rows(folder).num_rows == 5
    r = campaign(spec, "--out", folder)
    assert r.returncode == 0, r.stderr
    assert "5 of 12 runs already flown" in r.stderr and "flew 7 runs" in r.stdout
    assert same_rows(rows(folder), rows(out))


def test_a_changed_spec_is_refused_in_the_same_folder_and_nothing_changes(clean, tmp_path):
    spec, out, _ = clean
    before = every_file(out)
    changed = spec_file(tmp_path, sd=4)
    line = one_line_error(campaign(changed, "--out", out))
    assert line.startswith("flightsim: error: --out: ") and "holds the results of another spec" in line
    assert every_file(out) == before


@pytest.mark.parametrize("spec_args,args,where,reason", [
    ({"sd": -1}, [], "approach.toml: dispersion[0].normal.sd", "must be >= 0"),
    ({"extra": "\n[[dispersion]]\nname = \"wind.speed_kts\"\nuniform = [1, 2]\n"}, [],
     "approach.toml: dispersion[2].name", "wind.speed_kt"),
    ({"extra": "seeed = 3\n"}, [], "approach.toml", "seeed"),
    ({"runs": 0}, [], "approach.toml: runs", "0"),
    ({}, ["--runs", "0"], "--runs", "must be ≥ 1, got 0"),
    ({}, ["--workers", "0"], "--workers", "must be ≥ 1, got 0"),
    ({}, ["--workers", "100000"], "--workers", "got 100000"),
    ({}, ["--chunk", "0"], "--chunk", "must be ≥ 1, got 0"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, spec_args, args, where, reason):
    spec_file(tmp_path, **spec_args)
    line = one_line_error(campaign("approach.toml", "--out", "out", *args, cwd=tmp_path))
    assert line.startswith(f"flightsim: error: {where}") and reason in line, line
    assert not (tmp_path / "out").exists()


def test_a_folder_that_is_no_campaigns_is_refused(tmp_path):
    spec = spec_file(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    line = one_line_error(campaign(spec, "--out", mine))
    assert "--out" in line and "no campaign.json" in line
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    line = one_line_error(campaign(spec, "--out", mine / "notes.txt"))
    assert "not a folder" in line


def test_wilson_intervals_match_their_closed_form():
    z = 1.959963984540054
    for k, n in ((0, 12), (3, 10), (50, 100), (999, 1000)):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        assert wilson(k, n) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert wilson(0, 12)[1] == pytest.approx(z * z / (12 + z * z))   # no event seen: still an upper bound


def test_the_footprint_ellipse_holds_95_percent_of_a_normal_sample():
    rng = np.random.default_rng(1)
    angle = math.radians(80.0)
    rotation = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    points = rng.standard_normal((200_000, 2)) * [300.0, 10.0] @ rotation.T + [5.0, 900.0]
    e = ellipse(points[:, 0], points[:, 1])
    scale = math.sqrt(-2.0 * math.log(0.05))        # the χ²(2) quantile's root: 2.448
    assert e["axes"] == pytest.approx((300.0 * scale, 10.0 * scale), rel=0.01)
    assert e["center"] == pytest.approx((5.0, 900.0), abs=2.0)
    assert (e["angle_deg"] - 80.0 + 90.0) % 180.0 - 90.0 == pytest.approx(0.0, abs=0.2)
    assert e["inside"] == pytest.approx(0.95, abs=0.003)


@pytest.mark.parametrize("runs,at_once", [(1, None), (12, None), (300, None), (10_000, None), (100_000, None),
                                          (1, 4), (5, 4), (100, 4), (10_000, 1), (10_000, 8)])
def test_the_default_chunks_are_equal_big_here_and_smaller_two_per_worker_on_a_cluster(runs, at_once):
    size = chunk_size(runs, at_once)
    count = math.ceil(runs / size)
    assert 1 <= size and count * size - runs < count            # equal sizes, but for the last
    if at_once is None:                                         # here: as few chunks as 2048 runs each allow
        assert size <= LOCAL_CHUNK_RUNS and count == math.ceil(runs / LOCAL_CHUNK_RUNS)
    else:
        assert size <= CLUSTER_CHUNK_RUNS and count >= min(runs, 2 * at_once)


def test_a_shipped_spec_is_flown_by_its_name_into_a_folder_of_that_name(tmp_path):
    r = campaign("approach", "--runs", 2, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    table = rows(tmp_path / "approach")
    assert table.num_rows == 2 and "weight_lb" in table.column_names
    assert "configs/campaigns/approach.toml" in (tmp_path / "approach" / "summary.md").read_text()
    r = campaign("approach", "--runs", 3, cwd=tmp_path)           # ./approach is now a folder: still the name
    assert r.returncode == 0 and "2 of 3 runs already flown" in r.stderr, r.stderr
    line = one_line_error(campaign("aproach", cwd=tmp_path))
    assert line == ("flightsim: error: aproach: no such campaign spec: not a file, nor a shipped one (shipped: "
                    "approach); did you mean 'approach'?")


@pytest.mark.parametrize("argv,spec,ray", [
    (["approach.toml"], "approach.toml", None),
    (["approach.toml", "--ray"], "approach.toml", ""),
    (["--ray", "approach.toml"], "approach.toml", ""),          # argparse gave the spec to --ray's address
    (["--ray", "head:6379", "approach.toml"], "approach.toml", "head:6379"),
    (["approach.toml", "--ray", "head:6379"], "approach.toml", "head:6379"),
])
def test_the_spec_is_the_spec_wherever_ray_stands(argv, spec, ray):
    from flightsim.commands.campaign import spec_and_ray
    from flightsim.commands.cli import build_parser

    args = spec_and_ray(build_parser(only="campaign").parse_args(["campaign", *argv]))
    assert (args.spec, args.ray) == (spec, ray)


def test_no_spec_is_one_line(tmp_path):
    line = one_line_error(campaign(cwd=tmp_path))
    assert line.startswith("flightsim: error: flightsim campaign: give the campaign's spec")
    assert not list(tmp_path.iterdir())

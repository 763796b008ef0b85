"""``flightsim campaign SPEC.toml``: fly a spec's dispersed runs, here or on a Ray cluster; write rows and a summary.

The spec (:func:`flightsim.simulation.campaign.spec.read_spec`) says what to fly, how often and what to disperse.
The runs are cut into chunks of ``--chunk`` runs, each flown as one batch
(:func:`flightsim.simulation.campaign.runner.run_chunk`): in this process on numba's threads
(:class:`~flightsim.simulation.campaign.executors.LocalExecutor`), or with ``--ray`` as Ray tasks
(:class:`flightsim.simulation.campaign.ray_executor.RayExecutor`, imported only then).  Each chunk is written to
the output folder as it finishes (:class:`~flightsim.simulation.campaign.store.CampaignStore`), so a campaign
stopped at any point is resumed by the same command; at the end the folder gets ``runs.parquet``, ``runs.csv`` and
the summary (:mod:`flightsim.commands.campaign_summary`), which is printed too.

Every input is checked before anything is written: the spec, the options, the output folder (a folder holding
another spec's results is refused) and, with ``--ray``, the cluster's address.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

from flightsim.commands.options import number, output_folder, write_error
from flightsim.errors import InputError

__all__ = ["CLUSTER_CHUNK_RUNS", "LOCAL_CHUNK_RUNS", "add_arguments", "chunk_size", "run", "shipped_specs",
           "spec_and_ray", "spec_path"]

LOCAL_CHUNK_RUNS = 2048
"""The most runs per chunk here (unless ``--chunk`` says otherwise): a batch of thousands of airplanes, over which
numba's threads share each physics step's work (a chunk of 2048 172Rs is tens of milliseconds of work a step for
one synchronisation), while a stopped campaign still loses at most one chunk (:func:`chunk_size`)."""
CLUSTER_CHUNK_RUNS = 256
"""The most runs per chunk on a Ray cluster: each task flies its chunk on its own CPUs, so smaller chunks cost
little, keep every worker busy to the end, and lose little when a worker dies and its chunk is flown again."""


def chunk_size(runs, at_once=None):
    """Runs per chunk for ``runs`` runs: equal chunks of at most :data:`LOCAL_CHUNK_RUNS` here (``at_once`` None),
    or, for ``at_once`` chunks flown at a time on a cluster, of at most :data:`CLUSTER_CHUNK_RUNS` and (when there
    are runs enough) two chunks per chunk flown at once."""
    if at_once is None:
        count = math.ceil(runs / LOCAL_CHUNK_RUNS)
    else:
        count = max(math.ceil(runs / CLUSTER_CHUNK_RUNS), min(runs, 2 * max(1, at_once)))
    return math.ceil(runs / count)


def add_arguments(p):
    """Options of ``flightsim campaign``."""
    p.add_argument("spec", nargs="?", metavar="SPEC.toml",
                   help="the campaign: what to fly, how many runs, what to disperse; a file, or a shipped spec's "
                        "name (approach: configs/campaigns/approach.toml)")
    p.add_argument("--out", metavar="DIR", help="the output folder (default: the spec's name, here); run again "
                   "with the same spec and folder to resume")
    p.add_argument("--runs", type=number(int, minimum=1), metavar="N", help="fly N runs (default: the spec's)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="fly the chunks as Ray tasks: on a local Ray (no address) or the cluster at ADDRESS "
                        "(host:port, or auto); needs pip install 'flightsim[cluster]'")
    p.add_argument("--workers", type=number(int, minimum=1), metavar="N",
                   help="here: numba threads (default: every core); with --ray: Ray workers (default: the "
                        "cluster's CPUs)")
    p.add_argument("--chunk", type=number(int, minimum=1), metavar="N",
                   help=f"runs per chunk, flown as one batch and written as one file (default: the runs cut into "
                        f"equal chunks of at most {LOCAL_CHUNK_RUNS} here, or with --ray of at most "
                        f"{CLUSTER_CHUNK_RUNS} and two per worker)")


def shipped_specs():
    """The campaign specs shipped in ``configs/campaigns/``: ``{name: path}``, the name being the file's stem."""
    from flightsim.resources import data_file

    return {p.stem: p for p in sorted(data_file("configs", "campaigns").glob("*.toml"))}


def spec_path(text):
    """The spec file ``text`` names: a path, or a shipped spec's name (``approach``: a word, no folder, no suffix).

    Raises
    ------
    flightsim.errors.InputError
        ``text`` is neither a file nor a shipped spec's name (the message lists them).
    """
    from flightsim.schema import did_you_mean

    path = Path(text).expanduser()
    if path.is_file() or path.suffix or "/" in text or "\\" in text:
        return path                     # (a missing file: read_spec says so)
    names = shipped_specs()
    if text in names:                   # (also where ./approach is the folder its last run wrote)
        return names[text]
    if path.exists():
        return path
    raise InputError(text, "", f"no such campaign spec: not a file, nor a shipped one (shipped: {', '.join(names)})"
                     + did_you_mean(text, names))


def _executor(args):
    """The executor the options ask for (a Ray cluster is reached here, before any run)."""
    if args.ray is not None:
        from flightsim.simulation.campaign.ray_executor import RayExecutor

        return RayExecutor(args.ray or None, args.workers)
    from flightsim.simulation.campaign.executors import LocalExecutor

    try:
        return LocalExecutor(args.workers)
    except ValueError as exc:
        raise InputError("--workers", "", str(exc).removeprefix("workers: ")) from None


def _at_once(executor):
    """How many chunks a cluster executor flies at a time: its ``chunks_at_once``, its ``workers``, or its CPUs
    over its CPUs per task (at least 1)."""
    for name in ("chunks_at_once", "workers"):
        value = getattr(executor, name, None)
        if value:
            return int(value)
    try:
        return max(1, int(executor.cpus) // int(getattr(executor, "cpus_per_task", 1) or 1))
    except (AttributeError, TypeError, ValueError):
        return 1


def spec_and_ray(args):
    """``args`` with the spec where argparse took it for ``--ray``'s address (``flightsim campaign --ray
    approach.toml``: ``--ray`` takes an optional value, so the spec after it went there).

    Raises
    ------
    flightsim.errors.InputError
        No spec given.
    """
    if args.spec is None:
        if not args.ray:
            raise InputError("flightsim campaign", "", "give the campaign's spec: flightsim campaign SPEC.toml "
                             "(see flightsim campaign --help)")
        args.spec, args.ray = args.ray, ""
    return args


def run(args):
    """Run ``flightsim campaign``; return the exit code (0; 2 for bad input; 130 when interrupted)."""
    from flightsim.simulation.campaign.spec import read_spec
    from flightsim.simulation.campaign.store import CampaignStore

    args = spec_and_ray(args)
    spec = read_spec(spec_path(args.spec))
    if args.runs is not None:
        spec = spec.with_runs(args.runs)
    out = args.out if args.out is not None else Path(args.spec).stem
    folder = output_folder("--out", out, create=True)
    store = CampaignStore(folder, spec, source="--out")
    store.check()                                   # nothing written yet: another spec's folder is refused first
    executor = _executor(args)
    try:
        store.create()
    except OSError as exc:
        raise write_error("--out", folder, exc) from None
    size = args.chunk or chunk_size(spec.runs, None if args.ray is None else _at_once(executor))
    pending = store.pending(spec.runs, size)
    resumed = spec.runs - sum(stop - start for start, stop in pending)
    where = getattr(executor, "description", type(executor).__name__)
    if resumed:
        print(f"resuming {folder}: {resumed:,} of {spec.runs:,} runs already flown", file=sys.stderr)
    try:
        flown = _fly(executor, spec, store, pending, resumed)
    finally:
        close = getattr(executor, "close", None)
        if close is not None:
            close()
    if flown is None:
        done = len(store.done(spec.runs))
        print(f"flightsim: interrupted: {done:,} of {spec.runs:,} runs kept in {folder}; run the same command "
              "again to resume", file=sys.stderr)
        return 130
    runs, seconds = flown
    table = store.finish(spec.runs)
    from flightsim.commands.campaign_summary import PLOTS, SUMMARY, write_summary

    text = write_summary(table, folder, spec)
    print(text)
    if runs:
        print(f"flew {runs:,} runs in {seconds:.1f} s ({runs / seconds:,.1f} runs/s) {where}"
              + (f"; {resumed:,} resumed" if resumed else ""))
    else:
        print(f"all {spec.runs:,} runs were flown before (resumed from {folder})")
    names = ["runs.parquet", "runs.csv", SUMMARY, *PLOTS.values()]
    print(f"wrote {folder}/: {', '.join(names)}" + (", traces/" if store.traces_folder.is_dir() else ""))
    return 0


def _fly(executor, spec, store, pending, resumed):
    """Fly the pending chunks, writing each as it finishes; return (runs flown, seconds), or None if interrupted."""
    from tqdm import tqdm

    bar = tqdm(total=spec.runs, initial=resumed, unit=" runs", file=sys.stderr, disable=not sys.stderr.isatty(),
               mininterval=0.5, smoothing=0.1, dynamic_ncols=True)
    flown = 0
    start = time.perf_counter()

    def on_done(chunk, result):
        nonlocal flown
        store.write_chunk(chunk, result)
        flown += chunk[1] - chunk[0]
        bar.update(chunk[1] - chunk[0])

    try:
        if pending:
            executor.run(spec, pending, on_done)
    except KeyboardInterrupt:
        return None
    finally:
        bar.close()
    return flown, time.perf_counter() - start

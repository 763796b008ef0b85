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

import sys
import time
from pathlib import Path

from flightsim.commands.options import number, output_folder, write_error
from flightsim.errors import InputError

__all__ = ["CHUNK_RUNS", "add_arguments", "run"]

CHUNK_RUNS = 256
"""Runs per chunk unless ``--chunk`` says otherwise: a batch wide enough to keep every thread busy, small enough
that an interrupted campaign loses little and the progress bar moves."""


def add_arguments(p):
    """Options of ``flightsim campaign``."""
    p.add_argument("spec", metavar="SPEC.toml", help="the campaign: what to fly, how many runs, what to disperse "
                   "(e.g. configs/campaigns/approach.toml)")
    p.add_argument("--out", metavar="DIR", help="the output folder (default: the spec's name, here); run again "
                   "with the same spec and folder to resume")
    p.add_argument("--runs", type=number(int, minimum=1), metavar="N", help="fly N runs (default: the spec's)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="fly the chunks as Ray tasks: on a local Ray (no address) or the cluster at ADDRESS "
                        "(host:port, or auto); needs pip install 'flightsim[cluster]'")
    p.add_argument("--workers", type=number(int, minimum=1), metavar="N",
                   help="here: numba threads (default: every core); with --ray: Ray workers (default: the "
                        "cluster's CPUs)")
    p.add_argument("--chunk", type=number(int, minimum=1), default=CHUNK_RUNS, metavar="N",
                   help=f"runs per chunk, flown as one batch and written as one file (default: {CHUNK_RUNS})")


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


def run(args):
    """Run ``flightsim campaign``; return the exit code (0; 2 for bad input; 130 when interrupted)."""
    from flightsim.simulation.campaign.spec import read_spec
    from flightsim.simulation.campaign.store import CampaignStore

    spec = read_spec(args.spec)
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
    pending = store.pending(spec.runs, args.chunk)
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

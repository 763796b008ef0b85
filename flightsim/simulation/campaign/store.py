"""A campaign's output folder: finished chunks kept as they finish, a rerun resumed, the rows at the end.

The folder ``DIR`` of ``flightsim campaign SPEC --out DIR`` holds::

    campaign.json                     the spec's checksum (and its path, seed, flightsim's version)
    chunks/runs-00000000-00000250.parquet   one file per finished chunk: its rows, runs [start, stop)
    traces/run-000042.csv             the thinned trace of each run the spec keeps (``spec.traces``)
    runs.parquet, runs.csv            every row, sorted by ``run`` (written once all runs are flown)

Every file is written whole or not at all (:func:`flightsim.files.atomic_write`: a temporary file renamed into
place), and a chunk's traces before the chunk itself, so a chunk file present means its rows and traces are
complete.  A campaign killed at any moment leaves only finished chunks (and perhaps a temporary file, removed when
the folder is opened again).  Run again with the same spec, it flies only the runs no chunk file holds
(:meth:`CampaignStore.pending`), whatever chunks the first run used: the rows do not depend on how the runs are
split (:mod:`flightsim.simulation.campaign.runner`).  A folder holding another spec's results (another checksum)
is refused, as is a non-empty folder that is no campaign's.

The rows are kept as they come from :func:`~flightsim.simulation.campaign.runner.run_chunk` (a dict of equal-length
numpy arrays, ``run`` first): Parquet keeps every float bit for bit, and the CSV writes each float in the shortest
form that reads back to the same bits (Arrow's writer).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

import flightsim
from flightsim.errors import InputError
from flightsim.files import atomic_write

__all__ = ["CHUNKS", "MANIFEST", "RUNS_CSV", "RUNS_PARQUET", "TRACES", "CampaignStore", "chunk_ranges",
           "write_csv"]

MANIFEST = "campaign.json"
"""The file naming the spec whose results a folder holds."""
CHUNKS = "chunks"
"""The folder of finished chunks."""
TRACES = "traces"
"""The folder of the thinned traces."""
RUNS_PARQUET = "runs.parquet"
RUNS_CSV = "runs.csv"
FORMAT = 1
"""The folder's layout version (``campaign.json``'s ``format``)."""

_CHUNK = re.compile(r"^runs-(\d{8})-(\d{8})\.parquet$")
_TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")      # flightsim.files.atomic_write's temporary names


def chunk_ranges(runs, size):
    """Split the run indices ``runs`` (sorted ints) into chunks of at most ``size`` consecutive runs.

    Returns
    -------
    list of (int, int)
        ``(start, stop)``: runs ``start`` to ``stop - 1``, in order.
    """
    if size < 1:
        raise ValueError(f"size: must be >= 1, got {size}")
    chunks = []
    for run in (int(r) for r in runs):
        if chunks and chunks[-1][1] == run and run - chunks[-1][0] < size:
            chunks[-1][1] = run + 1
        else:
            chunks.append([run, run + 1])
    return [(start, stop) for start, stop in chunks]


def write_csv(path, table):
    """Write ``table`` (a :class:`pyarrow.Table`) to ``path`` as CSV, atomically.

    A plain header (``run,seed,...``), strings unquoted unless they hold a comma or a quote, floats in the
    shortest form that reads back bit for bit, ``nan`` for NaN.
    """
    with atomic_write(path, "wb") as f:
        f.write((",".join(table.column_names) + "\n").encode())
        try:
            body = _csv_bytes(table, "none")
        except pa.ArrowInvalid:                     # a string holding a comma or a quote: quoted
            body = _csv_bytes(table, "needed")
        f.write(body)


def _csv_bytes(table, quoting):
    sink = pa.BufferOutputStream()
    pa_csv.write_csv(table, sink, pa_csv.WriteOptions(include_header=False, quoting_style=quoting))
    return sink.getvalue().to_pybytes()


class CampaignStore:
    """The output folder of one campaign (see the module's description).

    Open it with :meth:`open` (checks the folder and creates it), or first :meth:`check` it (creates nothing: a
    command checks all its input before it writes anything), then :meth:`create`.

    Parameters
    ----------
    folder : str or os.PathLike
        The output folder.
    spec : flightsim.simulation.campaign.spec.CampaignSpec
        The campaign (its ``checksum``, ``path`` and ``seed`` are recorded).
    source : str
        What names the folder in an error (the command's ``--out``).
    """

    def __init__(self, folder, spec, source=None):
        self.folder = Path(folder)
        self.spec = spec
        self.source = str(source) if source is not None else str(self.folder)

    @classmethod
    def open(cls, folder, spec, source=None):
        """Check the folder and create it (:meth:`check`, :meth:`create`); return the store."""
        store = cls(folder, spec, source)
        store.check()
        store.create()
        return store

    # --- the folder ----------------------------------------------------------------------------------------

    @property
    def manifest_path(self):
        return self.folder / MANIFEST

    @property
    def chunks_folder(self):
        return self.folder / CHUNKS

    @property
    def traces_folder(self):
        return self.folder / TRACES

    def _manifest(self):
        return {"format": FORMAT, "checksum": self.spec.checksum, "spec": str(self.spec.path),
                "seed": int(self.spec.seed), "flightsim": flightsim.__version__}

    def _fail(self, reason):
        raise InputError(self.source, "", reason)

    def check(self):
        """Check, writing nothing, that the folder can hold this campaign's results.

        It may be missing, empty, or hold this spec's results (same checksum: they are resumed).

        Raises
        ------
        flightsim.errors.InputError
            The folder is a file, holds another spec's results, holds files but no ``campaign.json``, or its
            ``campaign.json`` cannot be read.
        """
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            self._fail(f"{str(folder)!r} exists and is not a folder")
        if not folder.exists():
            return
        if not self.manifest_path.exists():
            entries = [p.name for p in folder.iterdir()]
            if entries:
                self._fail(f"{str(folder)!r} holds files ({', '.join(sorted(entries)[:3])}"
                           f"{', ...' if len(entries) > 3 else ''}) but no {MANIFEST}: not a campaign's folder; "
                           "give an empty or a new folder")
            return
        try:
            manifest = json.loads(self.manifest_path.read_text())
            checksum = manifest["checksum"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self._fail(f"cannot read {MANIFEST} in {str(folder)!r} ({exc})")
        if checksum != self.spec.checksum:
            self._fail(f"{str(folder)!r} holds the results of another spec ({manifest.get('spec', '?')}, checksum "
                       f"{str(checksum)[:12]}, not {self.spec.checksum[:12]}); give another folder, or delete it "
                       "to start again")

    def create(self):
        """Create the folder, its ``chunks/`` and ``campaign.json`` (kept if there); remove stale temporary files."""
        self.chunks_folder.mkdir(parents=True, exist_ok=True)
        if not self.manifest_path.exists():
            with atomic_write(self.manifest_path) as f:
                json.dump(self._manifest(), f, indent=2)
                f.write("\n")
        for sub in (self.folder, self.chunks_folder, self.traces_folder):
            if sub.is_dir():
                for path in sub.iterdir():
                    if _TEMPORARY.match(path.name):      # left by a process killed while writing
                        path.unlink(missing_ok=True)

    # --- chunks --------------------------------------------------------------------------------------------

    def chunk_path(self, start, stop):
        """Where the chunk of runs ``[start, stop)`` is kept."""
        return self.chunks_folder / f"runs-{start:08d}-{stop:08d}.parquet"

    def finished(self):
        """The chunks written so far: sorted ``(start, stop)`` pairs."""
        if not self.chunks_folder.is_dir():
            return []
        found = (_CHUNK.match(p.name) for p in self.chunks_folder.iterdir())
        return sorted((int(m[1]), int(m[2])) for m in found if m)

    def done(self, runs):
        """The sorted indices below ``runs`` that a finished chunk holds."""
        have = np.zeros(runs, dtype=bool)
        for start, stop in self.finished():
            have[min(start, runs):min(stop, runs)] = True
        return np.flatnonzero(have)

    def pending(self, runs, size):
        """The chunks still to fly for runs ``0 .. runs - 1``: the runs no chunk file holds, ``size`` at most each.

        Returns
        -------
        list of (int, int)
        """
        missing = np.ones(runs, dtype=bool)
        missing[self.done(runs)] = False
        return chunk_ranges(np.flatnonzero(missing), size)

    def write_chunk(self, chunk, result):
        """Keep a finished chunk: its traces (``traces/run-NNNNNN.csv``), then its rows, each file atomically.

        Parameters
        ----------
        chunk : (int, int)
            ``(start, stop)``.
        result : flightsim.simulation.campaign.runner.ChunkResult
            Its ``rows`` (a dict of equal-length arrays, ``run`` first) and ``traces`` (run -> dict of arrays).
        """
        start, stop = chunk
        table = pa.table({name: pa.array(np.asarray(values)) for name, values in result.rows.items()})
        runs = table.column("run").to_numpy()
        if not np.array_equal(np.sort(runs), np.arange(start, stop)):
            raise ValueError(f"chunk ({start}, {stop}): its rows hold runs {runs.tolist()[:5]}...")
        if result.traces:
            self.traces_folder.mkdir(exist_ok=True)
            for run, columns in sorted(result.traces.items()):
                trace = pa.table({name: pa.array(np.asarray(values)) for name, values in columns.items()})
                write_csv(self.trace_path(run), trace)
        with atomic_write(self.chunk_path(start, stop), "wb") as f:
            pq.write_table(table, f)

    def trace_path(self, run):
        """Where the thinned trace of run ``run`` is kept."""
        return self.traces_folder / f"run-{run:06d}.csv"

    # --- the rows ------------------------------------------------------------------------------------------

    def table(self, runs):
        """Every row of runs ``0 .. runs - 1`` from the finished chunks, sorted by ``run``.

        Raises
        ------
        ValueError
            A run is missing.
        flightsim.errors.InputError
            The chunks do not share their columns (written by another version of flightsim).
        """
        tables = [pq.read_table(self.chunk_path(start, stop)) for start, stop in self.finished() if start < runs]
        if not tables:
            raise ValueError(f"no rows of runs 0..{runs - 1} in {self.folder}")
        schemas = {t.schema for t in tables}
        if len(schemas) > 1:
            self._fail(f"the chunks in {str(self.chunks_folder)!r} have different columns (written by different "
                       "versions of flightsim); delete the folder to start again")
        table = pa.concat_tables(tables)
        table = table.filter(pc.less(table.column("run"), runs))
        table = table.take(pc.sort_indices(table, [("run", "ascending")]))
        if not np.array_equal(table.column("run").to_numpy(), np.arange(runs)):
            raise ValueError(f"runs missing in {self.folder}: {runs - len(table)} of {runs}")
        return table

    def finish(self, runs):
        """Write ``runs.parquet`` and ``runs.csv`` (every row, sorted by ``run``, each atomically); return the table."""
        table = self.table(runs)
        with atomic_write(self.folder / RUNS_PARQUET, "wb") as f:
            pq.write_table(table, f)
        write_csv(self.folder / RUNS_CSV, table)
        return table

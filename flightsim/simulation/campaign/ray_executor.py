"""Fly a campaign's chunks as Ray tasks: :class:`RayExecutor`, on a local Ray or on a cluster's machines.

The executor of ``flightsim campaign --ray [ADDRESS]``, with the same one method as
:class:`~flightsim.simulation.campaign.executors.LocalExecutor`: ``run(spec, chunks, on_done)``.  Each chunk
``(start, stop)`` becomes one Ray task (:func:`fly_chunk`) that runs
:func:`flightsim.simulation.campaign.runner.run_chunk` on a worker: the same batch code as the local path, so the
rows are the same bit for bit (a run's row depends on the spec and its index only).  ``on_done`` is called here,
in the calling thread, as each task finishes (``ray.wait``), so the store writes each chunk as it comes.

Nothing is lost when a worker dies: a task whose worker process (or node) dies is run again by Ray, up to
``max_retries`` times (Ray's task fault tolerance: a system failure is retried; an exception raised by the
chunk's own code is not, except the transient :data:`RETRIED`, since the same chunk would raise it again).

Each task asks Ray for ``cpus_per_task`` CPUs (1) and limits numba's threads to them (``NUMBA_NUM_THREADS`` in
the task's runtime environment, and ``numba.set_num_threads`` in the task), so a node runs as many chunks at once
as it has CPUs and no more threads than cores.

Ray is an optional extra (``pip install 'flightsim[cluster]'``), imported only when an executor is made; Ray
itself documents tasks, retries and clusters at docs.ray.io (*Tasks*, *Task Fault Tolerance*, *Starting Ray*).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import tempfile

from flightsim.errors import InputError

__all__ = ["INSTALL", "PROBE_TIMEOUT_S", "RETRIED", "RayExecutor", "fly_chunk", "ray_address"]

#: What a user without Ray is told to run.
INSTALL = "pip install 'flightsim[cluster]'"
#: Seconds the cluster's address is given to answer before the executor says it cannot be reached (Ray's own
#: driver would retry for minutes).
PROBE_TIMEOUT_S = 5.0
#: Exceptions raised inside a task that Ray retries (besides a dead worker or node, always retried): a node's
#: passing trouble (a file, memory), not the chunk's.
RETRIED = (OSError, MemoryError)
#: Where the option came from, in the one-line errors.
SOURCE = "--ray"


def _ray():
    """Ray, imported; an :class:`InputError` saying how to install it when it is missing."""
    try:
        import ray
    except ImportError:
        raise InputError(SOURCE, "", f"Ray is not installed: {INSTALL}") from None
    return ray


def ray_address(address):
    """``(host, port)`` of a cluster address (``host:port`` or ``ray://host:port``), or None for Ray's own lookup.

    Parameters
    ----------
    address : str or None
        As given to ``--ray``; None (or ``auto``, ``local``): Ray finds or starts the cluster itself
        (``RAY_ADDRESS``, then a cluster started here with ``ray start``, then a new local one for None).

    Returns
    -------
    tuple of (str, int) or None

    Raises
    ------
    InputError
        The address is neither (no port, a port that is not a number in 1..65535).
    """
    if address is None or address in ("auto", "local"):
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(SOURCE, address, "not a Ray cluster's address (host:port, ray://host:port, auto)")
    return host.strip("[]"), int(port)


def _probe(address):
    """Raise :class:`InputError` unless something answers at ``address`` within :data:`PROBE_TIMEOUT_S`."""
    where = ray_address(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=PROBE_TIMEOUT_S).close()
    except TimeoutError:
        raise InputError(SOURCE, address, f"no Ray cluster answers there (no reply in {PROBE_TIMEOUT_S:g} s)") \
            from None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InputError(SOURCE, address, f"no Ray cluster answers there ({reason.lower()})") from None


def fly_chunk(spec, start, stop, threads):
    """The Ray task: fly runs ``start..stop-1`` of ``spec`` on ``threads`` of numba's threads.

    Parameters
    ----------
    spec : flightsim.simulation.campaign.spec.CampaignSpec
    start, stop : int
        The chunk's runs.
    threads : int
        The CPUs Ray gave the task: numba's threads are limited to them (never more than ``NUMBA_NUM_THREADS``).

    Returns
    -------
    tuple
        ``("done", ChunkResult)``, or ``("input", (source, where, reason))`` for an
        :class:`~flightsim.errors.InputError` (a file the worker cannot read), re-raised by the driver as one line.
    """
    import numba

    from flightsim.simulation.campaign.runner import run_chunk

    numba.set_num_threads(max(1, min(int(threads), int(numba.config.NUMBA_NUM_THREADS))))
    try:
        return "done", run_chunk(spec, start, stop)
    except InputError as exc:       # its arguments are not its message: sent as its parts, raised again here
        return "input", (exc.source, exc.where, exc.reason)


class RayExecutor:
    """Fly a campaign's chunks as Ray tasks on a local Ray or a cluster; connected when made.

    Parameters
    ----------
    address : str, optional
        The cluster (``host:port`` of its head, ``ray://host:port``, or ``auto``); None: ``ray.init()``'s own
        choice (``RAY_ADDRESS``, a cluster started on this machine with ``ray start``, else a new local Ray,
        shut down by :meth:`close`).
    workers : int, optional
        The most chunks in flight at once (default: as many as the cluster's CPUs run, Ray's scheduling).
    cpus_per_task : int, optional
        CPUs each task asks Ray for, and numba's threads in it (default 1).
    max_retries : int, optional
        Times a task is run again after its worker or node dies, or it raised one of :data:`RETRIED` (default 3).

    Raises
    ------
    InputError
        Ray is not installed (the message says ``pip install 'flightsim[cluster]'``); the address is malformed,
        nothing answers there within :data:`PROBE_TIMEOUT_S`, or Ray cannot connect to it; ``workers`` or
        ``cpus_per_task`` is not a positive integer.  All before any run starts.
    """

    def __init__(self, address=None, workers=None, cpus_per_task=1, max_retries=3):
        for name, value in (("--workers", workers), ("cpus_per_task", cpus_per_task)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise InputError(name, "", f"must be a positive integer, got {value!r}")
        self.address = address or None
        self.workers = workers
        self.cpus_per_task = cpus_per_task
        self.max_retries = int(max_retries)
        ray = _ray()
        _probe(self.address if self.address is not None else os.environ.get("RAY_ADDRESS") or None)
        self._started = not ray.is_initialized()
        if self._started:
            # a Ray Client address (ray://) passes ray.init's other arguments on to the server's: none given there
            quiet = ({} if str(self.address).startswith("ray://") else
                     {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"})
            try:
                # connecting to a cluster starts no process here: Ray's own retries, which its C++ core prints
                # straight to file descriptor 2, are held back and shown only if the connection is made
                with _held_stderr(self.address is not None):
                    ray.init(address=self.address, **quiet)
            except (ConnectionError, RuntimeError, ValueError, ImportError) as exc:
                hint = ("" if os.environ.get("RAY_AUTH_MODE", "").lower() == "token" else
                        " (a cluster with token authentication also needs RAY_AUTH_MODE=token and its token here)")
                raise InputError(SOURCE, self.address or "", f"cannot connect to Ray: {_line(exc)}{hint}") from None
        self._ray = ray

    def __repr__(self):
        return f"RayExecutor(address={self.address!r}, workers={self.workers!r})"

    @property
    def cpus(self):
        """The cluster's CPUs now (all its nodes)."""
        return int(self._ray.cluster_resources().get("CPU", 0))

    @property
    def chunks_at_once(self):
        """How many chunks fly at once: ``workers``, else as many tasks as the cluster's CPUs hold now."""
        return self.workers or max(1, self.cpus // self.cpus_per_task)

    @property
    def description(self):
        """A few words saying where the runs fly, for the command's output."""
        nodes = sum(1 for node in self._ray.nodes() if node.get("Alive"))
        where = f"on the Ray cluster at {self.address}" if self.address else "on Ray"
        return (f"{where} ({self.cpus} CPUs, {nodes} node{'s' if nodes != 1 else ''}"
                + (f", {self.workers} workers" if self.workers else "") + ")")

    def run(self, spec, chunks, on_done):
        """Fly ``chunks`` of ``spec``'s runs as Ray tasks; call ``on_done((start, stop), ChunkResult)`` as each ends.

        Parameters
        ----------
        spec : flightsim.simulation.campaign.spec.CampaignSpec
        chunks : list of (int, int)
            Runs ``start`` to ``stop - 1`` each.
        on_done : callable
            Called in this thread as each chunk finishes, in the order they finish.

        Raises
        ------
        InputError
            A task met bad input (re-raised as its one line).
        RuntimeError
            A task failed past its retries (what Ray said, and which runs).
        """
        ray = self._ray
        # numba's thread pool in each worker no larger than the task's CPUs (it is sized when numba is imported)
        threads = {"env_vars": {"NUMBA_NUM_THREADS": str(self.cpus_per_task)}}
        task = ray.remote(fly_chunk).options(num_cpus=self.cpus_per_task, max_retries=self.max_retries,
                                             retry_exceptions=list(RETRIED), runtime_env=threads)
        spec_ref = ray.put(spec)
        waiting = [(int(start), int(stop)) for start, stop in chunks]
        waiting.reverse()                     # popped from the end: the first chunks go first
        flying = {}
        limit = self.workers or len(waiting)
        try:
            while waiting or flying:
                while waiting and len(flying) < limit:
                    chunk = waiting.pop()
                    flying[task.remote(spec_ref, chunk[0], chunk[1], self.cpus_per_task)] = chunk
                ready, _ = ray.wait(list(flying), num_returns=1)
                for ref in ready:
                    chunk = flying.pop(ref)
                    try:
                        kind, value = ray.get(ref)
                    except ray.exceptions.RayError as exc:
                        raise RuntimeError(f"Ray: runs {chunk[0]}..{chunk[1] - 1} failed after "
                                           f"{self.max_retries} retries: {_line(exc)}") from exc
                    if kind == "input":
                        raise InputError(*value)
                    on_done(chunk, value)
        finally:
            for ref in flying:                # stopped early (an error, Ctrl-C): the tasks still flying end too
                ray.cancel(ref, force=True)

    def close(self):
        """Disconnect; a Ray this executor started (no address, none running) is shut down."""
        if self._ray.is_initialized() and self._started:
            self._ray.shutdown()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@contextlib.contextmanager
def _held_stderr(hold):
    """While the block runs, file descriptor 2 goes to a temporary file (``hold``); written out if it succeeds."""
    if not hold:
        yield
        return
    sys.stderr.flush()
    kept = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(kept, 2)
            os.close(kept)
        held.seek(0)
        text = held.read().decode(errors="replace")
        if text:
            sys.stderr.write(text)


def _line(exc):
    """An exception's message as one line (its last non-empty line: Ray's carry a traceback above it)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__

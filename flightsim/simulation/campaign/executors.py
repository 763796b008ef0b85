"""Who flies a campaign's chunks: :class:`LocalExecutor`, in this process on every core.

An executor has one method, ``run(spec, chunks, on_done)``: it flies each chunk ``(start, stop)`` of runs with
:func:`flightsim.simulation.campaign.runner.run_chunk` and calls ``on_done((start, stop), result)`` in the calling
process as each one finishes, in any order.  :class:`LocalExecutor` flies them one after another here, each chunk a
:class:`~flightsim.simulation.batch.BatchSimulation` spread over numba's threads (a ``prange`` over the airplanes);
:class:`flightsim.simulation.campaign.ray_executor.RayExecutor` makes them Ray tasks on a cluster's machines.  Both
give the same rows: a run's row depends on the spec and its index only.
"""

from __future__ import annotations

import os

__all__ = ["LocalExecutor", "local_threads"]

#: OpenMP's wait policy for numba's threads while a campaign flies here: a chunk's autopilot makes one parallel
#: call a physics step, and GNU OpenMP's threads otherwise spin after each call, so that on a machine with other
#: work each call waits out a scheduler tick for them (measured: 14.8 runs/s spinning, 40.5 passive, 512 runs of
#: the shipped approach on 2 cores).  Set unless the environment says otherwise, before numba's first parallel call.
WAIT_POLICY = "PASSIVE"


def local_threads():
    """The most threads numba runs here (``NUMBA_NUM_THREADS``: the cores, unless the environment says fewer)."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


class LocalExecutor:
    """Fly the chunks in this process, one after another, each on ``workers`` of numba's threads.

    Parameters
    ----------
    workers : int, optional
        Threads each chunk's batch uses, 1 .. :func:`local_threads` (default: all of them).

    Raises
    ------
    ValueError
        ``workers`` is not an integer in 1 .. :func:`local_threads` (the message starts with ``workers:``).
    """

    def __init__(self, workers=None):
        most = local_threads()
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or not 1 <= workers <= most):
            raise ValueError(f"workers: must be an integer from 1 to {most} (this machine's threads, "
                             f"NUMBA_NUM_THREADS), got {workers!r}")
        self.workers = most if workers is None else workers
        os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY)

    def __repr__(self):
        return f"LocalExecutor(workers={self.workers})"

    @property
    def description(self):
        """A few words saying where the runs fly, for the command's output."""
        return f"here, on {self.workers} thread{'s' if self.workers != 1 else ''}"

    def run(self, spec, chunks, on_done):
        """Fly ``chunks`` of ``spec``'s runs; call ``on_done((start, stop), ChunkResult)`` after each.

        Parameters
        ----------
        spec : flightsim.simulation.campaign.spec.CampaignSpec
        chunks : list of (int, int)
            Runs ``start`` to ``stop - 1`` each.
        on_done : callable
            Called in this thread as each chunk finishes, before the next starts.
        """
        import numba

        from flightsim.simulation.campaign.runner import run_chunk

        before = numba.get_num_threads()
        numba.set_num_threads(self.workers)
        try:
            for start, stop in chunks:
                on_done((start, stop), run_chunk(spec, start, stop))
        finally:
            numba.set_num_threads(before)

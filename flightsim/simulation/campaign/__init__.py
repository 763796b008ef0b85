"""Dispersion campaigns on the batch: a spec (:mod:`.spec`), each run's draws (:mod:`.dispersions`), who flies
(:mod:`.pilots`) and a chunk of runs flown (:mod:`.runner`: :func:`~.runner.run_chunk`)."""

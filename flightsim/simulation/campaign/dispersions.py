"""Each run's draws: from its own index and the campaign's master seed only.

Run ``k`` draws its dispersions (:attr:`flightsim.simulation.campaign.spec.CampaignSpec.dispersions`, in the
spec's order) from ``numpy.random.default_rng([spec.seed, k])`` — never from a generator shared by a chunk —
so its values, and so its flight and its row, do not depend on how the runs were split among chunks,
processes or machines.  Each dispersion takes one draw of its own:

- ``uniform = [a, b]``: ``rng.uniform(a, b)`` (a whole number in ``a..b``, both included, for an integer
  quantity: ``rng.integers(a, b, endpoint=True)``);
- ``normal = {mean, sd, min, max}``: ``mean + sd · rng.standard_normal()``, clipped into ``min..max``;
- ``choices = [...]``: ``choices[rng.integers(len(choices))]``, each equally likely.
"""

from __future__ import annotations

import numpy as np

from flightsim.simulation.campaign.spec import QUANTITIES

__all__ = ["draw", "draws", "dtype_of"]


def dtype_of(dispersion):
    """The numpy dtype of a dispersion's column: float64, int64 (an integer quantity), or object (strings)."""
    kind = QUANTITIES[dispersion.name][0]
    return {"integer": np.int64, "level": object, "failure": object}.get(kind, np.float64)


def draw(dispersion, rng):
    """One value of ``dispersion`` from ``rng`` (a ``numpy.random.Generator``): a float, an int or a str."""
    kind = QUANTITIES[dispersion.name][0]
    v = dispersion.values
    if dispersion.kind == "uniform":
        if kind == "integer":
            return int(rng.integers(int(v[0]), int(v[1]), endpoint=True))
        return float(rng.uniform(v[0], v[1]))
    if dispersion.kind == "normal":
        mean, sd, lo, hi = v
        return float(min(max(mean + sd * float(rng.standard_normal()), lo), hi))
    value = v[int(rng.integers(len(v)))]
    return int(value) if kind == "integer" else float(value) if kind == "number" else value


def draws(spec, start, stop):
    """The draws of the runs ``start..stop-1``: ``{column: (stop - start,) array}`` in the dispersions' order.

    Parameters
    ----------
    spec : flightsim.simulation.campaign.spec.CampaignSpec
    start, stop : int
        Run indices, ``0 <= start < stop``.
    """
    n = stop - start
    out = {d.column: np.empty(n, dtype=dtype_of(d)) for d in spec.dispersions}
    for i in range(n):
        rng = np.random.default_rng([spec.seed, start + i])
        for d in spec.dispersions:
            out[d.column][i] = draw(d, rng)
    return out

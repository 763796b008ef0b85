"""``flightsim warmup``: everything compiled ahead, with a progress bar; run again, nothing left to compile.

(Named to run late: by then the tests before it have compiled most of the physics into the cache, so this
costs seconds, not the minute a cold machine takes.)
"""

import subprocess
import sys

from flightsim.physics.integrators import INTEGRATORS


def warmup():
    return subprocess.run([sys.executable, "-m", "flightsim", "warmup"], capture_output=True, text=True, timeout=600)


def test_warmup_compiles_every_integrator_and_the_rest_then_has_nothing_left():
    first = warmup()
    assert first.returncode == 0, first.stderr
    steps = first.stderr.splitlines()                     # not a terminal: one line per step of the bar
    assert len(steps) == len(INTEGRATORS) + 3
    assert steps[0].startswith("[" + "." * 30 + "] 0/") and steps[0].endswith("the book's airplane, euler")
    assert [s.rsplit(" ", 1)[1] for s in steps[1:len(INTEGRATORS)]] == list(INTEGRATORS)[1:]
    assert steps[-1].endswith("the spin lab")
    assert first.stdout.startswith(("compiled ", "already compiled"))
    second = warmup()
    assert second.returncode == 0 and second.stdout.startswith("already compiled: nothing to do (")


def test_a_cold_cache_is_seen_without_importing_numba(tmp_path, monkeypatch):
    """The first start's line comes before the imports: the cache is looked at where numba would look."""
    import hashlib
    from pathlib import Path

    from flightsim.physics import compile_cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert compile_cache.cold()
    physics = Path(compile_cache.__file__).resolve().parent
    folder = tmp_path / f"physics_{hashlib.sha1(str(physics).encode()).hexdigest()}"
    folder.mkdir()
    (folder / "aero.own_loads-700.py311.nbi").write_bytes(b"")
    assert not compile_cache.cold()
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", "import flightsim.physics.compile_cache"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "numba" not in r.stderr

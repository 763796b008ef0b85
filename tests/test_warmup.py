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
    assert len(steps) == len(INTEGRATORS) + 4
    assert steps[0].startswith("[" + "." * 30 + "] 0/") and steps[0].endswith("the book's airplane, euler")
    assert [s.rsplit(" ", 1)[1] for s in steps[1:len(INTEGRATORS)]] == list(INTEGRATORS)[1:]
    assert steps[-1].endswith("the spin lab")
    assert first.stdout.startswith(("compiled ", "already compiled"))
    second = warmup()
    assert second.returncode == 0 and second.stdout.startswith("already compiled: nothing to do (")


def test_a_cold_cache_is_seen_without_importing_numba(tmp_path, monkeypatch):
    """The first start's line comes before the imports: the cache is looked at where numba would look, part by
    part (the loads of each kind of aircraft, a JSBSim aircraft's own model, the flown integrator's step)."""
    import hashlib
    from pathlib import Path

    from flightsim.physics import compile_cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("FLIGHTSIM_CACHE", str(tmp_path / "flightsim"))
    jsbsim = str(Path("somewhere") / "737.xml")
    assert compile_cache.cold_parts() == ["own", "step"] and compile_cache.cold()
    assert compile_cache.cold_parts(jsbsim, "rk4") == ["jsbsim", "model", "step"]
    physics = Path(compile_cache.__file__).resolve().parent

    def compiled(package, function, signatures=1):
        folder = tmp_path / f"{package.name}_{hashlib.sha1(str(package).encode()).hexdigest()}"
        folder.mkdir(exist_ok=True)
        (folder / f"{function}-700.py311.nbi").write_bytes(b"")
        for k in range(signatures):
            (folder / f"{function}-700.py311.{k}.nbc").write_bytes(b"")

    compiled(physics, "aero.own_loads")                                 # the book's airplane flown with euler
    assert compile_cache.cold_parts() == ["step"]
    compiled(physics, "step_entries.step_fields__step_semi_implicit")
    assert compile_cache.cold_parts() == [] and not compile_cache.cold()
    assert compile_cache.cold_parts(None, "rk4") == ["step"]            # another integrator's step
    assert compile_cache.cold_parts(None, "taylor2-half") == []         # the same step as euler's
    assert compile_cache.cold_parts(jsbsim) == ["jsbsim", "model", "step"]
    compiled(physics / "jsbsim", "loads.jsbsim_loads")                  # then a JSBSim aircraft with rk4
    compiled(physics, "aero.own_loads", 2)
    compiled(physics, "step_entries.step_fields__step_rk4")
    # one signature of each step, two kinds of loads: whose is it? counted cold, not surely (said only if it compiles)
    assert compile_cache.cold_parts(jsbsim, "rk4") == ["model", "step"] and compile_cache.surely_cold(jsbsim, "rk4")
    assert compile_cache.cold_parts() == ["step"] and not compile_cache.surely_cold()
    compiled(physics, "step_entries.step_fields__step_semi_implicit", 2)
    assert compile_cache.cold_parts() == [] and compile_cache.cold_parts(jsbsim) == ["model"]
    compiled(tmp_path / "flightsim" / "jsbsim", "737_0123456789abcdef0123.fcs")   # its generated model's code
    assert compile_cache.cold_parts(jsbsim) == [] and not compile_cache.cold(jsbsim)
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", "import flightsim.commands.first_start"],
                       capture_output=True, text=True, timeout=60)
    # (numba-cuda's site hook, _numba_cuda_redirector, imports no numba: its name only says it)
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert r.returncode == 0 and not any(name == "numba" or name.startswith("numba.") for name in imported)


def test_each_integrator_names_the_step_it_compiles():
    """The cache is probed for the flown integrator's compiled step by name, without importing the registry."""
    from flightsim.physics.compile_cache import step_function

    assert {name: step_function(name) for name in INTEGRATORS} == {
        name: integrator.function.py_func.__name__ for name, integrator in INTEGRATORS.items()}


def test_a_first_start_names_what_it_compiles_and_about_how_long(tmp_path, monkeypatch):
    """The words are the commands': the aircraft, each cold part, a number of seconds; nothing when warm."""
    from flightsim.commands.first_start import first_start
    from flightsim.physics.compile_cache import PARTS
    from flightsim.resources import aircraft_path

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("FLIGHTSIM_CACHE", str(tmp_path / "flightsim"))
    cold = first_start(aircraft_path("jsbsim:737"), "rk4")
    assert cold.message == ("compiling the physics for jsbsim:737 (JSBSim's loads, flight controls and engines; its "
                            f"own flight model; the rk4 step) \N{EM DASH} about {round(cold.seconds)} s, first start "
                            "only")
    assert cold.seconds == sum(PARTS[p][0] for p in ("jsbsim", "model", "step")) and cold.seconds >= 10
    assert cold.compiles == sum(PARTS[p][1] for p in ("jsbsim", "model", "step"))
    piston = first_start(aircraft_path("jsbsim:c172p"), "euler")          # its kind of engine, compiled for it
    assert piston.parts == ["jsbsim", "model", "piston", "step"] and "; piston engines; " in piston.message
    assert first_start(aircraft_path("jsbsim:DHC6"), "euler").parts == ["jsbsim", "model", "powered", "step"]
    book = first_start(None, "euler")
    assert book.message.startswith("compiling the physics for bourg (its loads; the euler step) \N{EM DASH} about ")
    assert first_start(aircraft_path("c172"), "midpoint").message.startswith("compiling the physics for c172 (")


def test_a_warm_cache_says_nothing(tmp_path, monkeypatch):
    """Flown once, the same flight again prints nothing on stderr (the first printed what it compiled), and the
    probes find every part where numba put it (a renamed module would leave a part cold for ever)."""
    import os

    from flightsim.physics.compile_cache import cold_parts

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    env = {**os.environ}
    command = [sys.executable, "-m", "flightsim", "simulate", "--duration", "0.2"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert first.returncode == 0 and first.stderr.startswith("flightsim: compiling the physics for bourg (")
    assert cold_parts(None, "euler") == [] and cold_parts(None, "rk4") == ["step"]
    second = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert second.returncode == 0 and second.stderr == "", second.stderr

"""flightsim as a user installs it: build the sdist and the wheel, install the wheel in a fresh
virtual environment, and run the console script from a folder outside the checkout.

Nothing here may lean on the source tree: the commands run with a clean environment
(no PYTHONPATH) and the data they need (aircraft, keymap, airplane model) must come
from the installed package.
"""

import os
import re
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import numpy as np
import pytest

import flightsim

REPO = Path(__file__).resolve().parents[1]
SHIPPED = ("flightsim/configs/bourg.toml", "flightsim/configs/keymap.toml",
           "flightsim/assets/models/bourg_airplane.toml", "flightsim/app/audio/synth.py",
           "flightsim/configs/airfields/KHOM.toml", "flightsim/configs/airfields/navaids.toml",
           "flightsim/assets/terrain/region.npz", "flightsim/configs/campaigns/approach.toml")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(flightsim console script in a fresh venv, a work folder outside the checkout, the dist folder)."""
    dist = tmp_path_factory.mktemp("dist")
    # The wheel is built from the sdist, so a file missing from the sdist is missing from the wheel too.
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)],
                       capture_output=True, text=True, timeout=600, env=clean_env())
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    wheel = next(dist.glob("flightsim-*.whl"))
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # Without PYTHONPATH: with the checkout on it, pip would find flightsim "already installed".
    r = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)],
                       capture_output=True, text=True, timeout=900, env=clean_env())
    assert r.returncode == 0, r.stderr[-3000:]
    return env_dir / "bin" / "flightsim", tmp_path_factory.mktemp("user"), dist


def clean_env(*drop):
    """The environment without PYTHONPATH (the tests' conftest puts the checkout on it) and ``drop``."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", *drop)}


def run_installed(installed, *args):
    script, cwd, _ = installed
    return subprocess.run([str(script), *args], cwd=cwd, env=clean_env("DISPLAY"), capture_output=True, text=True,
                          timeout=600)


def test_wheel_and_sdist_carry_the_data(installed):
    _, _, dist = installed
    names = set(zipfile.ZipFile(next(dist.glob("*.whl"))).namelist())
    assert set(SHIPPED) <= names
    # every package of the source tree is in the wheel
    source = {str(p.parent.relative_to(REPO)) for p in (REPO / "flightsim").rglob("__init__.py")}
    assert {s for s in source if "__pycache__" not in s} <= {n.rsplit("/", 1)[0] for n in names}
    with tarfile.open(next(dist.glob("*.tar.gz"))) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {"configs/bourg.toml", "configs/keymap.toml", "assets/models/bourg_airplane.toml",
            "assets/terrain/region.npz"} <= members


def test_version(installed):
    r = run_installed(installed, "--version")
    assert r.returncode == 0 and r.stdout.strip() == f"flightsim {flightsim.__version__}", r.stdout + r.stderr


def test_simulate_from_any_folder(installed):
    r = run_installed(installed, "simulate", "--duration", "5", "--out", "trace.csv")
    assert r.returncode == 0, r.stderr
    assert "final" in r.stdout and (installed[1] / "trace.csv").stat().st_size > 1000


def test_fly_headless_from_any_folder(installed):
    r = run_installed(installed, "fly", "--headless", "--frames", "5", "--screenshot", "out.png", "--size", "320x200")
    assert r.returncode == 0, r.stderr
    import pyglet

    image = pyglet.image.load(str(installed[1] / "out.png")).get_image_data()
    pixels = np.frombuffer(image.get_data("RGB", image.width * 3), np.uint8).reshape(image.height, image.width, 3)
    assert (image.width, image.height) == (320, 200)
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 50  # a scene, not a cleared buffer


def test_a_read_only_install_compiles_into_the_users_cache_only_what_it_flies_and_says_so(installed, tmp_path):
    """Last in this module: it takes the installed package's caches away (the tests above fill them).

    Every ``__pycache__`` folder of the installed package becomes a file, so nothing can be written beside the
    sources (as in a system install; a chmod would not stop root): numba's cache goes to the user's cache folder.
    """
    import shutil

    script = installed[0]
    package = Path(subprocess.run([str(script.parent / "python"), "-c", "import flightsim; print(flightsim.__file__)"],
                                  cwd=installed[1], capture_output=True, text=True, env=clean_env(),
                                  timeout=60).stdout.strip()).parent
    assert script.parents[1] in package.parents, f"{package} is not the installed package"     # never the checkout
    for folder in [package, *(p for p in package.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        shutil.rmtree(folder / "__pycache__", ignore_errors=True)
        (folder / "__pycache__").write_text("not a folder: this install is read-only\n")
    env = {**clean_env("DISPLAY", "NUMBA_CACHE_DIR"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [str(script), "simulate", "--duration", "0.5", "--integrator", "rk4", "--out", "trace.csv"]

    def run():
        return subprocess.run(command, cwd=installed[1], env=env, capture_output=True, text=True, timeout=600)

    first = run()
    assert first.returncode == 0, first.stderr
    # what is cold, named, and about how long it takes (the book's airplane's loads and the rk4 step)
    assert re.fullmatch(r"flightsim: compiling the physics for bourg \(its loads; the rk4 step\) \N{EM DASH} about "
                        r"\d+ s, first start only", first.stderr.splitlines()[0]), first.stderr
    compiled = {p.name.split("-")[0] for p in (tmp_path / "cache" / "numba").rglob("*.nbi")}
    assert "step_entries.step_fields__step_rk4" in compiled
    # only the chosen integrator, not the others nor the dispatch over all of them; the book's airplane is
    # flightsim's own, so none of JSBSim's loads either
    assert not {n for n in compiled if n.startswith(("steps.step_", "step_entries.step_"))} - {
        "step_entries.step_fields__step_rk4", "steps.step_rk4"}
    assert not any(n.startswith(("loads.", "piston.", "propeller.", "propulsion.")) for n in compiled)
    second = run()
    assert second.returncode == 0 and second.stderr == "", second.stderr
    assert "final" in second.stdout

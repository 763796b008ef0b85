"""The folders are the architecture: math → physics → simulation → (verify, app) → commands, arrows one way (verify,
JSBSim flown beside flightsim, beside the app: neither imports the other); inside the
app, the world (``scene``), the panels (``hud``), the pilot's hands (``input``) and the sound (``audio``) under
the apps themselves.

Read from the source (AST), so a lazy import inside a function counts as well.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "flightsim"
#: What each layer may import from flightsim (besides itself); the shared helpers are open to all.
SHARED = {"flightsim", "flightsim.errors", "flightsim.resources", "flightsim.schema", "flightsim.files"}
ALLOWED = {
    "math": {"math"},
    "physics": {"math", "physics"},
    "simulation": {"math", "physics", "simulation"},
    # JSBSim itself flown beside flightsim (the tests, the benchmarks and `flightsim verify`): nothing below it
    # imports it, so flying never loads JSBSim's extension (test_flying_does_not_load_jsbsim)
    "verify": {"math", "physics", "simulation", "verify"},
    "app": {"math", "physics", "simulation", "app"},
    # and the gym: `fly --policy` flies a saved policy (flightsim.gym.policy), imported only when asked for
    "commands": {"math", "physics", "simulation", "app", "verify", "commands", "gym"},
    # the Gymnasium environments: the app only to draw frames, imported lazily (tests/test_gym.py checks it)
    "gym": {"math", "physics", "simulation", "app", "gym"},
}
#: What each part of the app may import from the app (besides itself): the apps, the frame loop, the window and
#: the flight app's companions (``flightsim/app/*.py``) may import every part.
APP_PARTS = {
    "scene": {"scene"},
    "hud": {"hud", "input", "scene.camera"},       # the camera buttons' modes; the keymap and flap notches
    "input": {"input"},
    "audio": {"audio"},
}
DRAWING = ("pyglet", "OpenGL", "imgui_bundle", "pyrr")
#: Plotting is report writing (``flightsim bench``'s plots): beside the commands, never in the core.
PLOTTING = ("matplotlib",)


def _imports(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            if node.module == "flightsim":
                yield from (f"flightsim.{a.name}" for a in node.names)


def _layer_modules():
    for layer in ALLOWED:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            yield layer, path


def test_every_module_sits_in_a_layer():
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(ALLOWED)
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    # the package root holds only the shared helpers, the entry point and the public short names
    assert loose == ["__init__.py", "__main__.py", "errors.py", "files.py", "integrators.py", "kernels.py", "quat.py",
                     "resources.py", "rigidbody.py", "schema.py"]


@pytest.mark.parametrize("layer,path", list(_layer_modules()), ids=lambda v: getattr(v, "name", v))
def test_imports_point_one_way(layer, path):
    for name in _imports(path):
        parts = name.split(".")
        if parts[0] in DRAWING:
            assert layer in ("app", "commands"), f"{path.name} ({layer}) imports {name}"
        if parts[0] in PLOTTING:
            assert layer not in ("math", "physics", "simulation"), f"{path.name} ({layer}) imports {name}"
        if parts[0] == "jsbsim":            # JSBSim itself (its extension): only flown beside flightsim
            assert layer == "verify", f"{path.relative_to(PACKAGE)} ({layer}) imports {name}"
        if layer == "gym" and path.name != "render.py":
            assert parts[:2] != ["flightsim", "app"], f"{path.name} imports the app (only gym/render.py may)"
        if parts[0] != "flightsim" or name in SHARED:
            continue
        target = parts[1]
        # the public short names (flightsim.quat, …) are the math and physics layers
        short = {"quat": "math", "kernels": "math", "integrators": "physics", "rigidbody": "physics"}
        target = short.get(target, target)
        assert target in ALLOWED[layer], f"{path.relative_to(PACKAGE)} ({layer}) imports {name}"


def test_the_app_is_grouped_by_what_it_is():
    app = PACKAGE / "app"
    assert sorted(p.name for p in app.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(APP_PARTS)
    assert sorted(p.name for p in app.glob("*.py")) == [
        "__init__.py", "app.py", "cockpit.py", "dynamics_companion.py", "frame_loop.py", "ghost_companion.py",
        "hud_bridge.py", "lesson_companion.py", "map_companion.py", "poses.py", "recorder.py", "spin_app.py",
        "splash.py", "window.py"]
    for part in APP_PARTS:
        doc = ast.get_docstring(ast.parse((app / part / "__init__.py").read_text()))
        assert doc and "may import" in doc, f"app/{part}/__init__.py says what it owns and may import"


def test_the_flight_app_class_reads_in_one_sitting():
    """The flight app's class is the frame loop and what ties the parts together (under 400 lines); its switches,
    its HUD bridge and its poses are modules of their own."""
    (cls,) = [n for n in ast.parse((PACKAGE / "app" / "app.py").read_text()).body
              if isinstance(n, ast.ClassDef) and n.name == "FlightApp"]
    assert cls.end_lineno - cls.lineno + 1 < 400


@pytest.mark.parametrize("path", sorted((PACKAGE / "app").glob("*/*.py")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_parts_of_the_app_import_one_way(path):
    part = path.parent.name
    for name in _imports(path):
        if not name.startswith("flightsim.app"):
            continue
        inside = name.removeprefix("flightsim.app").lstrip(".")
        assert any(inside == allowed or inside.startswith(allowed + ".") for allowed in APP_PARTS[part]), (
            f"app/{part}/{path.name} imports {name}")


def test_public_short_names_are_the_layer_modules():
    import flightsim.integrators
    import flightsim.kernels
    import flightsim.quat
    import flightsim.rigidbody
    import flightsim.simulation
    from flightsim.math import kernels, quat
    from flightsim.physics import integrators, rigidbody
    from flightsim.simulation.flight import Simulation

    assert flightsim.quat is quat and flightsim.kernels is kernels
    assert flightsim.integrators is integrators and flightsim.rigidbody is rigidbody
    assert flightsim.simulation.Simulation is Simulation
    assert "rk4" in flightsim.integrators.INTEGRATORS and "exact" in flightsim.kernels.KERNELS
    assert callable(flightsim.rigidbody.propagate)


def test_flying_does_not_load_jsbsim():
    """The physics and the simulation, the JSBSim aircraft reader and a JSBSim aircraft loaded, in a fresh process,
    leave JSBSim's extension (``jsbsim._jsbsim``) unimported: only the verify layer runs JSBSim.  The package's
    data folder is found all the same, and it is the folder JSBSim itself names (``get_default_root_dir``)."""
    code = (
        "import sys\n"
        "import flightsim.physics, flightsim.simulation, flightsim.physics.jsbsim\n"
        "from flightsim.physics.aircraft import load_aircraft\n"
        "from flightsim.physics.jsbsim.xmlfile import package_root\n"
        "a = load_aircraft('jsbsim:c172p')\n"
        "assert a.jsbsim is not None and a.source.is_file(), a\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsbsim', '_jsbsim')))\n"
        "print(package_root())\n"
        "import jsbsim\n"
        "print(jsbsim.get_default_root_dir())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       cwd=PACKAGE.parent)
    assert r.returncode == 0, r.stderr
    loaded, ours, theirs = r.stdout.splitlines()[-3:]
    assert loaded == "[]"
    assert Path(ours).resolve() == Path(theirs).resolve() and (Path(ours) / "aircraft" / "c172p").is_dir()

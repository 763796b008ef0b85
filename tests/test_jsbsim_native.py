"""An aircraft's programs compiled to numba (``flightsim.physics.jsbsim.native``) against the interpreter.

The compiled blocks are what flightsim flies; the interpreter (``program.run``) is what the replay
tests check against JSBSim.  Here the two must agree to the last bit, on every block of the issue's
target aircraft, at the aircraft's initial properties and at random ones (every table off its
breakpoints, clamped at both ends, the switches both ways), and every operation the machine knows must
be generated.
"""

import subprocess
import sys

import numpy as np
import pytest
from numba import njit
from test_jsbsim_aero import TABLE_1D, TABLE_2D, TABLE_3D, _compiled

from flightsim.physics.jsbsim import native, program
from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
from flightsim.physics.jsbsim.program import Program, ProgramBuilder, Properties, run

TARGETS = ("SGS", "c172p", "t6texan2", "A4", "737")


@njit(cache=True)
def _call(address, props, constants, tables, data):
    native.call_block(address, props, constants, tables, data)


def _programs(model):
    return {"fcs": model.fcs.program, "aero": model.aero.program, "engine": model.propulsion.program,
            "engine_post": model.propulsion.post_program}


@pytest.mark.parametrize("name", TARGETS)
def test_each_compiled_block_computes_the_interpreters_numbers_to_the_bit(name):
    model = load_jsbsim_aircraft(f"jsbsim:{name}").jsbsim
    blocks = model.native
    rng = np.random.default_rng(7)
    compared = 0
    for k, block in enumerate(native.BLOCKS):
        prog = _programs(model)[block]
        for trial in range(60):
            props = model.initial.copy()
            if trial:                   # random states: near 0 (the switches), moderate, and far off the tables
                props += rng.normal(0.0, (0.1, 3.0, 300.0)[trial % 3], props.shape)
            interpreted, compiled = props.copy(), props.copy()
            assert run(prog.code, prog.constants, prog.tables, prog.table_data, interpreted, prog.stack()) == 0
            _call(blocks.addresses[k], compiled, prog.constants, prog.tables, prog.table_data)
            np.testing.assert_array_equal(compiled, interpreted, err_msg=f"{name} {block}, trial {trial}")
            compared += int(np.count_nonzero(interpreted != props))
    assert compared > 1000              # the blocks wrote properties (not two untouched copies compared)


def test_every_operation_of_the_machine_is_generated(tmp_path):
    """A program with every operation compiles and matches the interpreter; an unknown operation is refused."""
    props = Properties(["a", "b", "c", "out"])
    b = ProgramBuilder(source=None, properties=props)
    ops = 0
    for tag, (op, lo, hi) in program.OPERATIONS.items():
        n = 3 if tag == "ifthen" else (2 if lo == 2 or hi is None else 1)
        for name in ("a", "b", "c")[:n]:
            b.emit(program.OP_PROP, props.slot(name), pushes=1)
        b.emit(op, n, pops=n, pushes=1)
        ops += 1
    b.emit(program.OP_SUM, ops, pops=ops, pushes=1)
    for name in ("a", "b", "c"):                   # a clip, a cyclic clip, a negation, a duplicate
        b.emit(program.OP_PROP, props.slot(name), pushes=1)
    b.emit(program.OP_CLIP, pops=2)
    b.emit(program.OP_NEG)
    b.emit(program.OP_DUP, pushes=1)
    for name in ("b", "c"):
        b.emit(program.OP_PROP, props.slot(name), pushes=1)
    b.emit(program.OP_CYCLIC_CLIP, pops=2)
    scale = b.constants_block([-1.0, 1.0, -20.0, 25.0, 1.0])
    b.emit(program.OP_SCALE, scale)
    b.emit(program.OP_SUM, 3, pops=3, pushes=1)
    b.store("out")
    prog = b.build()
    used = {int(op) for op in prog.code[:, 0]}
    assert used >= {op for op, _, _ in program.OPERATIONS.values()}
    blocks = native.compile_blocks({"fcs": prog, "aero": prog, "engine": prog, "engine_post": prog}, len(props),
                                   "every_operation")
    rng = np.random.default_rng(3)
    for trial in range(200):
        values = rng.normal(0.0, 2.0, len(props)) if trial % 2 else rng.integers(-1, 2, len(props)).astype(float)
        interpreted, compiled = values.copy(), values.copy()
        run(prog.code, prog.constants, prog.tables, prog.table_data, interpreted, prog.stack())
        _call(blocks.addresses[0], compiled, prog.constants, prog.tables, prog.table_data)
        np.testing.assert_array_equal(compiled, interpreted)
    bad = Program(np.array([[99, 0]]), np.zeros(0), np.zeros((0, 7), dtype=np.int64), np.zeros(0), 1)
    with pytest.raises(ValueError, match="instruction 0 has an unknown operation 99"):
        native.source({"fcs": bad, "aero": bad, "engine": bad, "engine_post": bad}, 1)


def test_the_generated_source_is_kept_and_loaded_again_not_rewritten(tmp_path, monkeypatch):
    """The first flight writes the source to the cache folder and numba's code beside it; another process
    loads both (nothing compiled, the file untouched).  Neither says anything (what a first start compiles is
    said by the commands, from :func:`flightsim.physics.compile_cache.cold_parts`, which sees the model cold
    before and in the cache after)."""
    from flightsim.physics.compile_cache import cold_parts
    from flightsim.resources import aircraft_path

    script = ("import sys; from flightsim.physics.jsbsim.model import load_jsbsim_aircraft;"
              "b = load_jsbsim_aircraft('jsbsim:SGS').jsbsim.native; print(b.path); "
              "print(all(b.addresses > 0))")
    monkeypatch.setenv("FLIGHTSIM_CACHE", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    env = {**__import__("os").environ}
    assert "model" in cold_parts(aircraft_path("jsbsim:SGS"))
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    path = tmp_path / "jsbsim" / first.stdout.split()[0].rsplit("/", 1)[-1]
    assert path.exists() and first.stdout.split()[1] == "True"
    assert first.stderr == ""
    assert list((tmp_path / "jsbsim" / "__pycache__").glob(f"{path.stem}.*.nbi"))
    assert "model" not in cold_parts(aircraft_path("jsbsim:SGS"))
    stamp = path.stat().st_mtime_ns
    second = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert second.stdout == first.stdout and second.stderr == ""
    assert path.stat().st_mtime_ns == stamp


def test_a_cache_folder_that_cannot_be_written_falls_back_to_the_temporary_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FLIGHTSIM_CACHE", str(blocker / "below"))
    folder = native.writable_cache_folder()
    assert folder != native.cache_folder() and folder.is_dir()
    assert str(folder).startswith(__import__("tempfile").gettempdir())


def test_tables_of_one_two_and_three_dimensions_and_a_kinematic_compile_to_the_interpreters_numbers(tmp_path):
    tables, props = _compiled(tmp_path, f'<function name="out"><sum>{TABLE_1D}{TABLE_2D}{TABLE_3D}</sum></function>')
    b = ProgramBuilder(source=None, properties=props)          # a kinematic through three detents, same properties
    for name in ("command", "output", "dt", "settle"):
        b.push_property(name, "kinematic")
    b.emit(program.OP_KINEMATIC, b.kinematic([0.0, 10.0, 30.0, 40.0], [0.0, 2.0, 4.0, 1.0], True), pops=3)
    b.store("output")
    kinematic = b.build()
    blocks = native.compile_blocks({"fcs": kinematic, "aero": tables, "engine": tables, "engine_post": tables},
                                   len(props), "tables")
    rng = np.random.default_rng(5)
    for trial in range(400):
        values = props.array()
        values[:] = rng.uniform(-4.0, 5.0, len(props))
        values[props["dt"]], values[props["settle"]] = rng.uniform(0.0, 3.0), float(trial % 5 == 0)
        for k, prog in ((0, kinematic), (1, tables)):
            interpreted, compiled = values.copy(), values.copy()
            run(prog.code, prog.constants, prog.tables, prog.table_data, interpreted, prog.stack())
            _call(blocks.addresses[k], compiled, prog.constants, prog.tables, prog.table_data)
            np.testing.assert_array_equal(compiled, interpreted)

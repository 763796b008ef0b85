"""Smoke test of the batch's benchmark scripts (against its peers, and its profile), each with ``--quick``: apart
from tests/test_benchmarks.py because each compiles batch kernels of its own for minutes on a cold cache, and the
suite's workers take a file each (README's test command: ``--dist loadfile``).

No timing is asserted here: only that they run to completion, check what they check (the profile's kernels
against the batch's, bit for bit) and print the lines the README refers to.
"""

from test_benchmarks import BENCH, run


def test_bench_peers_quick_without_nimbus_times_flightsim_alone():
    # Nimbus is no dependency: hidden here (a None entry in sys.modules makes its import fail) wherever it is
    # importable, the script says so in one line and times flightsim's batch and the c172p against JSBSim.
    code = (
        "import runpy, sys; sys.modules['nimbus'] = None; "
        f"sys.path.insert(0, {str(BENCH)!r}); "
        f"sys.argv = [{str(BENCH / 'bench_peers.py')!r}, '--quick', '--rounds', '1']; "
        f"runpy.run_path({str(BENCH / 'bench_peers.py')!r}, run_name='__main__')"
    )
    out = run("-c", code)
    assert sum(line.startswith("Nimbus: not importable") for line in out.splitlines()) == 1
    assert "pip install \"git+https://github.com/auxeno/nimbus@" in out
    assert "| N | steps per call | flightsim airplane-steps/s |" in out and "| 1,024 |" in out
    assert "flightsim / Nimbus at N" not in out
    assert "flightsim jsbsim:c172p euler N=256 flat / JSBSim = " in out and "(keep ≥ 10, aim 20:" in out
    assert "N=256 round" not in out                 # (--quick: the flat planet only)


def test_profile_batch_quick_checks_its_kernels_and_the_lanes_bit_for_bit():
    # the profile's kernels copy the batch's, and the batch in SIMD lanes flies as one airplane at a time: both
    # checked on the states (not timed: the figures are only printed)
    out = run("--quick", "--rounds", "1", script="profile_batch.py")
    assert ("# full step's kernel leaves the states as BatchSimulation.step does, bit for bit: True; in SIMD lanes "
            "(BatchSimulation.step, on) as one airplane at a time: True") in out
    assert "| BatchSimulation.step, one airplane at a time (lanes off) |" in out
    assert "| BatchSimulation.step one airplane at a time / in SIMD lanes | " in out
    assert "| **floor, vectorised** |" in out

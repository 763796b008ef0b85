"""NASA's NESC check cases: the thinned references, the comparison, and JSBSim flying the scripts.

The references (``configs/nesc/reference``) are the median of the agreeing published simulations at
whole seconds; ``flightsim.verify.nesc.compare`` gives a run's largest distance from them as a fraction
of the bounds. JSBSim flying the sphere cases' scripts lands within a tenth of the bounds.
"""

import numpy as np
import pytest

from flightsim.verify.nesc import ANGLES, BOUNDS, CASES, bound, case, compare, nesc_root, read_output, reference


def test_every_case_has_its_script_its_aircraft_and_a_reference_of_31_seconds():
    root = nesc_root()
    for entry in CASES:
        assert (root / entry.script).is_file()
        ref = reference(entry.number)
        np.testing.assert_array_equal(ref["time"], np.arange(31.0))
        for name in entry.variables:
            assert ref[name].shape == (31,) and np.all(np.isfinite(ref[name]))
            assert np.all(ref[name + "_spread"] >= 0.0)
        assert len(entry.sims) >= 3 and entry.why


def test_bounds_and_case_lookup():
    assert bound("altitudeMsl_ft") == 2.0 and bound("eulerAngle_deg_Roll") == BOUNDS["eulerAngle_deg_*"] == 0.05
    assert case(9).number == 9
    with pytest.raises(KeyError):
        case(5)


def test_the_reference_against_itself_is_zero_and_an_offset_is_its_fraction_of_the_bound():
    ref = reference(2)
    columns = {name: (ref["time"], ref[name]) for name in case(2).variables}
    assert max(compare(2, columns).values()) < 1e-9
    columns["altitudeMsl_ft"] = (ref["time"], ref["altitudeMsl_ft"] + 1.0)
    # a yaw off by 0.025 deg, written a whole turn away: the angles compare modulo 360
    columns["eulerAngle_deg_Yaw"] = (ref["time"], ref["eulerAngle_deg_Yaw"] + 360.025)
    fractions = compare(2, columns)
    assert fractions["altitudeMsl_ft"] == pytest.approx(0.5)
    assert fractions["eulerAngle_deg_Yaw"] == pytest.approx(0.5, abs=1e-6)


def test_read_output_reads_a_jsbsim_csv(tmp_path):
    path = tmp_path / "out.csv"
    path.write_text("Time,altitudeMsl_ft,eulerAngle_deg_Yaw\n0,30000,179.9\n0.5,29990,-179.9\n1,29980,-179.7\n")
    columns = read_output(path)
    times, values = columns["eulerAngle_deg_Yaw"]
    np.testing.assert_array_equal(times, [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(values, [179.9, -179.9, -179.7])
    assert set(columns) == {"altitudeMsl_ft", "eulerAngle_deg_Yaw"}
    path.write_text("time,altitudeMsl_ft\n0,1\n")
    with pytest.raises(ValueError):
        read_output(path)


def test_an_angle_crossing_the_wrap_between_samples_is_interpolated_the_short_way_round():
    ref = reference(2)
    name = ANGLES[0]
    times = ref["time"]
    # the reference itself, sampled at half seconds with its values wrapped to -180 ... 180
    half = np.arange(0.0, 30.25, 0.5)
    unwrapped = np.degrees(np.unwrap(np.radians(ref[name])))
    values = (np.interp(half, times, unwrapped) + 180.0) % 360.0 - 180.0
    assert compare(2, {name: (half, values)})[name] < 1e-9


@pytest.mark.parametrize("number", [1, 4, 6, 7, 8, 9])
def test_jsbsim_flies_the_sphere_cases_within_a_tenth_of_the_bounds(number, tmp_path):
    jsbsim = pytest.importorskip("jsbsim")
    fdm = jsbsim.FGFDMExec(str(nesc_root()))
    fdm.set_debug_level(0)
    assert fdm.load_script(case(number).script)
    out = tmp_path / "out.csv"
    fdm.set_output_filename(0, str(out))
    fdm.run_ic()
    while fdm.run():
        pass
    del fdm  # closes the output file
    fractions = compare(number, read_output(out))
    assert set(fractions) == set(case(number).variables)
    assert max(fractions.values()) < 0.1, fractions


BENCH = nesc_root().parents[1] / "benchmarks"


def _script(name, *args):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, str(BENCH / name), *args], cwd=BENCH.parent, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_the_benchmark_prints_jsbsims_row_per_case():
    pytest.importorskip("jsbsim")
    out = _script("nesc_jsbsim.py", "2", "9")
    rows = [line for line in out.splitlines() if line.startswith("| 2 |") or line.startswith("| 9 |")]
    assert len(rows) == 2 and "JSBSim" in out


def test_the_references_are_what_the_script_makes_from_nasas_files():
    from pathlib import Path

    if not Path("/work/shared/reference/nesc/Atmospheric_checkcases").is_dir():
        pytest.skip("NASA's NESC files are not here (see benchmarks/nesc_reference.py)")
    _script("nesc_reference.py", "--check")


def _flightsim_script(number, tmp_path, *options):
    """``flightsim script`` on case ``number``'s script with ``--root configs/nesc``, run in ``tmp_path`` as a user
    runs it; the fractions of the bounds of its output."""
    import subprocess
    import sys

    root = nesc_root()
    proc = subprocess.run([sys.executable, "-m", "flightsim", "script", str(root / case(number).script), "--root",
                           str(root), *options], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    written = tmp_path / f"nesc_{number:02d}.csv"
    assert f"wrote {written.name}" in proc.stdout
    return compare(number, read_output(written))


@pytest.mark.parametrize("number", [2, 6, 8, 9])
def test_flightsim_flies_the_cases_from_the_users_root_within_a_tenth_of_the_bounds(number, tmp_path):
    # 2: the tumbling brick (rotation, J2, a rotating WGS-84 Earth); 6: the sphere over it; 8: through a wind
    # shear its own system writes; 9: the eastward cannonball from the ground
    fractions = _flightsim_script(number, tmp_path, "--integrator", "rk4")
    assert set(fractions) == set(case(number).variables)
    assert max(fractions.values()) < 0.1, fractions


def test_a_first_order_integrator_misses_the_bounds_where_rk4_meets_them(tmp_path):
    # the dropped sphere's altitude: semi-implicit Euler's error h g t / 2 is 2.4 bounds at 100 Hz over 30 s
    fractions = _flightsim_script(6, tmp_path, "--integrator", "euler")
    assert 1.5 < fractions["altitudeMsl_ft"] < 4.0, fractions


def test_the_flightsim_benchmark_prints_a_case_per_integrator():
    out = _script("nesc.py", "--cases", "7", "--integrators", "rk4,exact", "--no-brick-sweep", "--markdown")
    rows = [line for line in out.splitlines() if line.startswith("| 7 |")]
    assert len(rows) == 2 and "| 7 | rk4 |" in out and "| 7 | exact |" in out

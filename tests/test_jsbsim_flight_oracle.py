"""JSBSim as the trajectory oracle (``flightsim.verify.flight_oracle``): as it ships, or on a flat planet.

The flat planet's gravity, and the round one's (JSBSim's WGS-84, turning) against flightsim's effective gravity;
JSBSim's own full trim of the issue's piston single, turbine trainer and
airliner, held hands-off; the control signs between flightsim's controls and JSBSim's commands; the
doublet programme reproducible; the trajectory comparison.
"""

import dataclasses
import math

import numpy as np
import pytest

from flightsim.physics.planet import WGS84, effective_gravity
from flightsim.verify.flight_oracle import (
    FLAT_RADIUS,
    TOLERANCES,
    G,
    JSBSimTrimError,
    Trajectory,
    compare_trajectories,
    doublet_controls,
    engine_state,
    flat_fdm,
    jsbsim_doublet,
    jsbsim_trim,
    round_fdm,
)

#: Conditions each trims at: (true airspeed ft/s, altitude ft); c172p at 100 kt TAS.
CONDITIONS = {"c172p": (168.78, 4000.0), "t6texan2": (300.0, 8000.0), "737": (420.0, 10000.0)}
#: What each trim gives (alpha deg, throttle), to a loose band: a change of these is a change of JSBSim's
#: package or of the trim, and worth a look.
EXPECTED = {"c172p": (0.88, 0.69), "t6texan2": (1.67, 0.75), "737": (5.34, 0.66)}


def test_the_flat_planet_has_standard_gravity_no_rotation_and_a_huge_radius():
    fdm = flat_fdm("c172p")
    assert fdm["simulation/gravity-model"] == 0
    g = {}
    for h in (0.0, 10000.0):
        fdm["ic/h-sl-ft"] = h
        fdm["ic/vt-fps"] = 150.0
        fdm.run_ic()
        assert fdm["position/h-sl-ft"] == pytest.approx(h, abs=1e-5)
        assert fdm["inertial/sea-level-radius_ft"] == FLAT_RADIUS
        # not rotating: the inertial velocity is the velocity over the planet (no ω × r of 1.5e6 ft/s)
        assert fdm["velocities/eci-velocity-mag-fps"] == pytest.approx(150.0, abs=1e-6)
        g[h] = fdm["accelerations/gravity-ft_sec2"]
    assert G == pytest.approx(32.174049, abs=1e-6)
    assert g[0.0] == pytest.approx(G, abs=1e-9)                   # 32.174049
    assert g[10000.0] == pytest.approx(G * (FLAT_RADIUS / (FLAT_RADIUS + 10000.0)) ** 2, rel=1e-12)
    assert g[0.0] - g[10000.0] == pytest.approx(3.08e-5, abs=1e-7)   # GM/r²: 32.174018 at 10,000 ft


def test_the_round_planet_is_jsbsims_own_and_its_trim_balances_flightsims_effective_gravity():
    """JSBSim as it ships: WGS-84, turning (the inertial speed carries Ω × r), J2; its gravitation less the
    centrifugal term is :func:`~flightsim.physics.planet.effective_gravity`, which its trim balances: α below the
    flat planet's, whose gravity is 0.3 % more."""
    fdm = round_fdm("c172p")
    assert fdm["simulation/gravity-model"] == 1
    fdm["ic/h-sl-ft"] = 4000.0
    fdm["ic/vt-fps"] = 168.78
    fdm.run_ic()
    r = fdm["position/radius-to-vehicle-ft"]
    assert fdm["inertial/sea-level-radius_ft"] == WGS84.a
    # flying North: the Earth's Ω × r (1526 ft/s East at the equator) beside it
    assert fdm["velocities/eci-velocity-mag-fps"] == pytest.approx(math.hypot(168.78, WGS84.omega * r), abs=1e-6)
    g = fdm["accelerations/gravity-ft_sec2"] - WGS84.omega ** 2 * r
    assert g == pytest.approx(effective_gravity(WGS84, 0.0, 0.0, 4000.0), rel=1e-12)    # 32.0752
    assert g == pytest.approx(32.0752, abs=1e-4)
    flat, round_ = (jsbsim_trim("c172p", *CONDITIONS["c172p"], planet=p) for p in ("flat", "round"))
    assert round_.planet == "round" and (round_.lat, round_.lon) == (0.0, 0.0)
    assert flat.alpha - round_.alpha == pytest.approx(0.0133, abs=0.002)          # measured 0.0133°


@pytest.mark.parametrize("name", CONDITIONS)
def test_jsbsims_full_trim_holds_level_flight_hands_off(name):
    """On the flat planet (the drifts measured there): the round one's level trim is a straight line that the
    Earth's curve drops away from."""
    airspeed, altitude = CONDITIONS[name]
    trim = jsbsim_trim(name, airspeed, altitude, planet="flat")
    alpha, throttle = EXPECTED[name]
    assert trim.alpha == pytest.approx(alpha, abs=0.05)
    assert trim.pitch == pytest.approx(trim.alpha, abs=1e-6)      # level: θ = α (β = 0, φ ≈ 0)
    assert abs(trim.roll) < 0.1                                    # wings level (c172p: 0.04°, its offset pilot)
    assert trim.throttle == pytest.approx(throttle, abs=0.01)
    assert trim.elevator == 0.0                                    # the full trim moves the pitch trim
    assert all(t == trim.throttle for t in trim.throttles)
    for engine in trim.engines:
        assert engine["thrust"] > 100.0
        assert engine.get("rpm", 0.0) > 1500.0 or engine.get("n2", 0.0) > 60.0
    fdm = trim.fdm
    assert fdm["simulation/sim-time-sec"] == 0.0
    assert fdm["velocities/vt-fps"] == pytest.approx(airspeed, abs=1e-9)
    assert fdm["position/h-sl-ft"] == pytest.approx(altitude, abs=1e-6)
    fuel = fdm["propulsion/total-fuel-lbs"]
    for _ in range(600):                                           # 5 s hands-off
        fdm.run()
    assert fdm["propulsion/total-fuel-lbs"] == fuel                # frozen (the property itself reads 0 always)
    assert fdm["simulation/sim-time-sec"] == pytest.approx(5.0)
    assert abs(fdm["position/h-sl-ft"] - altitude) < 0.05          # measured ≤ 0.007 ft
    assert abs(fdm["velocities/vt-fps"] - airspeed) < 0.01         # measured ≤ 0.0005 ft/s
    assert abs(fdm["attitude/theta-deg"] - trim.pitch) < 0.01
    assert abs(fdm["attitude/phi-deg"] - trim.roll) < 0.01
    for before, after in zip(trim.engines, engine_state(fdm), strict=True):
        for key, value in before.items():                          # the engines were in steady state
            assert after[key] == pytest.approx(value, rel=1e-5), key


def test_a_run_ic_after_the_trim_undoes_it():
    """The trap: ``do_trim`` does not write the trimmed α into the initial conditions."""
    trim = jsbsim_trim("c172p", *CONDITIONS["c172p"])
    fdm = trim.fdm
    assert fdm["ic/alpha-deg"] == 0.0 and trim.alpha > 0.5
    fdm.run_ic()
    assert fdm["aero/alpha-deg"] == pytest.approx(0.0, abs=1e-9)


def test_a_trim_that_cannot_be_found_is_an_error():
    with pytest.raises(JSBSimTrimError, match="737"):
        jsbsim_trim("737", 300.0, 5000.0)                         # 178 kt clean: α beyond the trim's range


def test_jsbsims_commands_have_the_signs_the_module_says():
    """Positive elevator-cmd-norm and pitch-trim-cmd-norm pitch c172p's nose down, positive aileron-cmd-norm
    rolls it right, positive rudder-cmd-norm yaws its nose left."""
    response = {}
    for command in ("elevator", "pitch-trim", "aileron", "rudder"):
        fdm = jsbsim_trim("c172p", *CONDITIONS["c172p"]).fdm
        start = fdm["attitude/theta-deg"], fdm["attitude/phi-deg"], fdm["attitude/psi-deg"]
        fdm[f"fcs/{command}-cmd-norm"] += 0.1
        for _ in range(60):
            fdm.run()
        now = fdm["attitude/theta-deg"], fdm["attitude/phi-deg"], fdm["attitude/psi-deg"]
        response[command] = [(b - a + 180.0) % 360.0 - 180.0 for a, b in zip(start, now, strict=True)]
    assert response["elevator"][0] < -1.0
    assert response["pitch-trim"][0] < -1.0
    assert response["aileron"][1] > 1.0
    assert response["rudder"][2] < -0.2


def _step(control, size=0.1):
    """A schedule: flightsim's ``control`` (index in throttle, elevator, aileron, rudder, flaps) stepped by
    ``size`` from t = 0."""
    def schedule(t, trim, elevator, aileron):
        c = [trim.throttle, trim.elevator, trim.aileron, trim.rudder, trim.flaps]
        c[control] += size
        return tuple(c)
    return schedule


@pytest.mark.parametrize("name", CONDITIONS)
def test_flightsims_controls_move_the_aircraft_the_way_they_say(name):
    trim = jsbsim_trim(name, *CONDITIONS[name])
    up = jsbsim_doublet(name, trim, duration=1.0, schedule=_step(1))
    right = jsbsim_doublet(name, trim, duration=1.0, schedule=_step(2))
    yaw = jsbsim_doublet(name, trim, duration=1.0, schedule=_step(3))
    assert up.pitch[-1] - up.pitch[0] > 0.1                       # + elevator: nose up ...
    assert up.q[-1] < 0.0                                          # ... a negative q about flightsim's y (left)
    assert right.roll[-1] - right.roll[0] > 0.2                   # + aileron: roll right, p > 0
    assert right.p[-1] > 0.0
    assert (yaw.heading[-1] - yaw.heading[0] + 180.0) % 360.0 - 180.0 > 0.1   # + rudder: nose right ...
    assert yaw.r[-1] < 0.0                                         # ... a negative r about flightsim's z (up)


def test_the_doublet_programme():
    trim = jsbsim_trim("c172p", *CONDITIONS["c172p"])
    at = {t: doublet_controls(t, trim, elevator=0.2, aileron=0.3) for t in (0.0, 1.0, 2.9, 3.0, 5.0, 6.0, 7.0, 8.0)}
    base = (trim.throttle, trim.elevator, trim.aileron, trim.rudder, trim.flaps)
    assert at[0.0] == base and at[5.0] == base and at[8.0] == base
    assert at[1.0][2] == at[2.9][2] == trim.aileron + 0.3 and at[3.0][2] == trim.aileron - 0.3
    assert at[6.0][1] == trim.elevator + 0.2 and at[7.0][1] == trim.elevator - 0.2
    assert at[6.0][2] == trim.aileron
    assert doublet_controls(120 * (1.0 / 120.0), trim)[2] == trim.aileron + 0.1   # whatever the rounding


def test_the_doublet_is_reproducible_and_compares_as_it_should():
    trim = jsbsim_trim("c172p", *CONDITIONS["c172p"])
    a = jsbsim_doublet("c172p", trim)
    b = jsbsim_doublet("c172p", trim)
    assert a.t.shape == (3601,) and a.t[-1] == pytest.approx(30.0)
    for f in dataclasses.fields(Trajectory):
        if f.name != "trim":
            assert np.array_equal(getattr(a, f.name), getattr(b, f.name)), f.name
    # the inputs recorded are the programme's, switching at frame 120 (t = 1 s) and 720 (t = 6 s)
    assert np.array_equal(a.aileron, [doublet_controls(t, a.trim)[2] for t in a.t])
    assert a.aileron[119] == trim.aileron and a.aileron[120] == trim.aileron + 0.1
    assert a.elevator[719] == trim.elevator and a.elevator[720] == trim.elevator + 0.1
    # it flew: a roll right then left, a pitch up, and 30 s of flight north
    assert a.roll.max() > 5.0 and a.roll.min() < -2.0 and a.pitch.max() > trim.pitch + 2.0
    assert a.north[-1] == pytest.approx(30.0 * 168.78, rel=0.02) and abs(a.east[-1]) < 300.0
    assert a.north[0] == a.east[0] == 0.0

    zero = compare_trajectories(a, b)
    assert dataclasses.astuple(zero) == (0.0,) * 5
    assert zero.within(TOLERANCES["light"])
    assert dataclasses.astuple(compare_trajectories(a, a)) == (0.0,) * 5

    # resampled on every second frame: the same values
    half = Trajectory(**{f.name: getattr(a, f.name)[::2] for f in dataclasses.fields(Trajectory) if f.name != "trim"})
    assert max(dataclasses.astuple(compare_trajectories(half, a))) < 1e-9
    # changes are from each start: an offset heading and altitude compare equal; an offset airspeed does not
    moved = dataclasses.replace(a, heading=(a.heading + 350.0) % 360.0, altitude=a.altitude + 1000.0,
                                airspeed=a.airspeed + 1.0)
    d = compare_trajectories(a, moved)
    assert d.airspeed == pytest.approx(1.0) and d.height < 1e-9 and d.heading < 1e-9
    assert d.exceeding(TOLERANCES["light"]) == ("airspeed",)

    # a larger aileron doublet is another flight
    c = jsbsim_doublet("c172p", trim, aileron=0.12)
    d = compare_trajectories(a, c)
    assert d.roll > TOLERANCES["light"].roll and d.heading > 0.0 and not d.within(TOLERANCES["light"])


def test_tolerances():
    assert dataclasses.astuple(TOLERANCES["light"]) == (0.5, 3.0, 0.2, 0.2, 0.5)
    assert dataclasses.astuple(TOLERANCES["jet"]) == (0.5, 15.0, 0.2, 0.2, 0.5)


def test_a_flightsim_trace_of_the_same_flight_compares_equal():
    """:func:`~flightsim.verify.flight_check.trajectory_of_trace` reads flightsim's trace columns (earth x North,
    y West, z up; body rates about x forward, y left, z up; aviation angles) as the JSBSim trajectory's."""
    from flightsim.math import quat
    from flightsim.simulation import trace
    from flightsim.verify.flight_check import trajectory_of_trace

    a = jsbsim_doublet("c172p", jsbsim_trim("c172p", *CONDITIONS["c172p"]), duration=10.0)
    q = quat.from_aviation_angles(a.roll, a.pitch, a.heading)
    v = quat.rotate(q, np.stack([a.airspeed, 0 * a.t, 0 * a.t], axis=1))   # along the nose: |v| = airspeed
    states = np.column_stack([a.north + 100.0, -a.east - 50.0, a.altitude, v, q, a.p, a.q, a.r])
    controls = np.column_stack([a.throttle, a.elevator, a.aileron, a.rudder, a.flaps])
    b = trajectory_of_trace(trace.table(a.t, states, controls))
    assert max(dataclasses.astuple(compare_trajectories(a, b))) < 1e-9
    for name in ("north", "east", "p", "q", "r", "elevator", "aileron"):
        np.testing.assert_allclose(getattr(b, name), getattr(a, name), atol=1e-9, err_msg=name)

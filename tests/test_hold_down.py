"""JSBSim's hold-down (``forces/hold-down``, ``FGFDMExec::SetHoldDown``): the airplane held at rest where it is.

JSBSim zeroes the body's velocity and rates relative to the Earth when the hold starts and, while it lasts,
``FGAccelerations`` makes the accelerations zero in the body frame: the body turns with the Earth, its loads move
it no more.  :attr:`Simulation.hold_down <flightsim.simulation.flight.Simulation.hold_down>` holds it so; a script
writes it as JSBSim's do (J2460's launcher on its pad).
"""

import numpy as np

from flightsim.physics import planet as planets
from flightsim.simulation.flight import Simulation
from tests.test_script import cli, make_root, read_rows, run_jsbsim

RELEASE = """
    <property value="1"> forces/hold-down </property>
    <event name="release">
      <condition> simulation/sim-time-sec ge 2 </condition>
      <set name="forces/hold-down" value="0"/>
    </event>"""


def test_a_script_holds_the_ball_and_lets_it_fall_as_jsbsim(tmp_path):
    """The dropped ball held for 2 s, then let go: it stays where it is while held, JSBSim's rows to a millionth of
    a foot, the row at 2 s still held in both (the release acts from the next frame: the frame's accelerations were
    found while held); then it falls as JSBSim's, JSBSim's Adams-Bashforth 2 velocity (its default) half a step
    of g ahead of RK4 from the first step after the release (``1.5 a dt``, the held zero before it)."""
    root, work = make_root(tmp_path, end="4", run_extra=RELEASE, prop="velocities/v-down-fps", prop_caption="vd")
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    run_jsbsim(root, "scripts/drop.xml")
    ours, theirs = read_rows(work / "drop.csv"), read_rows(root / "drop.csv")
    head = ours[0]
    assert head == theirs[0] and len(ours) == len(theirs) == 1 + 9
    rows = [dict(zip(head, map(float, r), strict=True)) for r in ours[1:]]
    jsb = [dict(zip(head, map(float, r), strict=True)) for r in theirs[1:]]
    g_dt_2 = 32.16 * 0.01 / 2
    for mine, theirs_ in zip(rows, jsb, strict=True):
        assert mine["Time"] == theirs_["Time"]
        if mine["Time"] <= 2.0:
            assert abs(mine["agl"] - 30000.0) < 1e-6 and abs(mine["vd"]) < 1e-9
            for k in ("agl", "x", "y", "z"):
                assert abs(mine[k] - theirs_[k]) < 1e-6, (mine["Time"], k)
        else:
            assert abs(theirs_["vd"] - mine["vd"] - g_dt_2) < 0.005, mine["Time"]
            assert abs(theirs_["agl"] - mine["agl"] + g_dt_2 * (mine["Time"] - 2.0)) < 0.02, mine["Time"]
    assert rows[-1]["agl"] < 30000.0 - 50.0 and rows[-1]["vd"] > 50.0        # fallen 2 s: ½ g t² is 64 ft


def test_a_held_airplane_stays_put_at_full_power_and_flies_when_released():
    """The book's airplane at full throttle, held: the same place and attitude, at rest, while the clock runs; on a
    round planet the same view, the inertial state turning with the Earth.  Released, it moves."""
    for planet in ("flat", "round"):
        sim = Simulation("bourg", "rk4", 1 / 60, planet=planet)
        sim.controls.throttle = 1.0
        before = sim.state
        eci0 = sim.inertial
        sim.hold_down = True
        assert sim.hold_down
        for _ in range(60):
            assert sim.step()
        now = sim.state
        assert abs(now.t - before.t - 1.0) < 1e-12
        assert np.max(np.abs(np.asarray(now.position) - np.asarray(before.position))) < 1e-6
        np.testing.assert_allclose(now.q, before.q, atol=1e-12)
        assert not np.any(now.velocity) and not np.any(now.omega)
        if planet == "round":
            moved = np.linalg.norm(sim.inertial[:3] - eci0[:3])       # the arc of 1 s of the Earth's turn
            assert abs(moved / (planets.WGS84.omega * np.linalg.norm(eci0[:2])) - 1.0) < 1e-4
        sim.hold_down = False
        for _ in range(30):
            assert sim.step()
        assert np.linalg.norm(sim.state.velocity) > 1.0

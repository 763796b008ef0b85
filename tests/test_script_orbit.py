"""The ball's rocket, an ``<external_reactions>`` force in the ``INERTIAL`` frame, flown by ``flightsim script``.

JSBSim's ``ball`` aircraft points its rocket along its Earth-centred inertial velocity (the flight controls write
``external_reactions/rocket/x, y, z`` from ``velocities/eci-*-fps``) and the frame turns that ECI direction into
the body axes (``FGForce::Transform``, ``FGPropagate::GetTi2b``).  A script on the package's ball, from its
inclined ``iss_orbit`` reset file, burns 2000 lbf for 100 s, then coasts; flightsim (through the CLI, on its
round planet) and JSBSim (the ``jsbsim`` package, with the integrators the shipped orbit scripts choose, which
flightsim takes as settings of JSBSim's own) run the same file and log the same properties every 10 s.
"""

import math

import jsbsim
import pytest

from tests.test_script import cli, read_rows
from tests.test_script_events import jsbsim_run, notices

LOGGED = ("position/eci-x-ft", "position/eci-y-ft", "position/eci-z-ft", "position/radius-to-vehicle-ft",
          "position/geod-alt-ft", "position/lat-geod-deg", "position/long-gc-deg",
          "velocities/eci-x-fps", "velocities/eci-y-fps", "velocities/eci-z-fps", "velocities/eci-velocity-mag-fps",
          "attitude/phi-deg", "attitude/theta-deg", "attitude/psi-deg",
          "orbital/eccentricity", "orbital/period-sec", "orbital/inclination-deg")

SCRIPT = """<?xml version="1.0"?>
<runscript name="burn">
  <use aircraft="ball" initialize="iss_orbit"/>
  <run start="0.0" end="{end}" dt="0.02">
    <property value="3"> simulation/integrator/rate/rotational </property>
    <property value="3"> simulation/integrator/rate/translational </property>
    <property value="1"> simulation/integrator/position/rotational </property>
    <property value="4"> simulation/integrator/position/translational </property>
    <property value="1"> simulation/gravity-model </property>
    <event name="burn">
      <condition> simulation/sim-time-sec ge 10 </condition>
      <set name="propulsion/rocket_thrust" value="{thrust}"/>
      <notify> <property> velocities/eci-velocity-mag-fps </property> </notify>
    </event>
    <event name="cut-off">
      <condition> simulation/sim-time-sec ge 110 </condition>
      <set name="propulsion/rocket_thrust" value="0"/>
      <notify> <property> velocities/eci-velocity-mag-fps </property>
               <property> orbital/period-sec </property> </notify>
    </event>
  </run>
  <output name="{out}" type="CSV" rate="0.1">
{logged}
  </output>
</runscript>
"""


def _root(tmp_path, end="1500", thrust="2000"):
    """A root with the package's ``aircraft`` folder (linked) and the burn script; the script's path in it."""
    root = tmp_path / "root"
    (root / "scripts").mkdir(parents=True)
    (root / "aircraft").symlink_to(jsbsim.get_default_root_dir() + "/aircraft")
    logged = "\n".join(f"    <property> {p} </property>" for p in LOGGED)
    (root / "scripts" / "burn.xml").write_text(SCRIPT.format(end=end, thrust=thrust, out="burn.csv", logged=logged))
    return root, "scripts/burn.xml"


def _columns(path):
    rows = read_rows(path)
    return {name: [float(r[k]) for r in rows[1:]] for k, name in enumerate(rows[0])}


def test_an_inertial_rocket_burn_flies_as_jsbsims(tmp_path):
    """The same notices at the same frames; over 1500 s (the burn, then a quarter of an orbit) the position
    within 60 ft of JSBSim's (of 22 million from the centre), the inertial speed within 0.05 ft/s, the attitude
    within 0.01°; the burn adds 320 ft/s (2000 lbf for 100 s on 20010 lb) along the velocity, lengthening the
    orbit's period by more than a minute, in both."""
    root, script = _root(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, script))     # (JSBSim's outputs: in the root)
    assert [(n, k, t) for n, k, t, _ in ours] == [(n, k, t) for n, k, t, _ in theirs]
    assert [n for n, _, _, _ in ours] == ["burn", "cut-off"]
    mine, jsbs = _columns(work / "burn.csv"), _columns(root / "burn.csv")
    assert mine["Time"] == pytest.approx(jsbs["Time"], abs=1e-6) and len(mine["Time"]) == 151

    def col(d, p):
        return d[f"/fdm/jsbsim/{p}"]

    worst = {}
    for k in range(len(mine["Time"])):
        dpos = math.dist([col(mine, f"position/eci-{a}-ft")[k] for a in "xyz"],
                         [col(jsbs, f"position/eci-{a}-ft")[k] for a in "xyz"])
        dv = abs(col(mine, "velocities/eci-velocity-mag-fps")[k] - col(jsbs, "velocities/eci-velocity-mag-fps")[k])
        datt = max(abs((col(mine, f"attitude/{a}-deg")[k] - col(jsbs, f"attitude/{a}-deg")[k] + 180.0) % 360.0
                       - 180.0) for a in ("phi", "theta", "psi"))
        for name, value in (("pos", dpos), ("v", dv), ("att", datt)):
            worst[name] = max(worst.get(name, 0.0), value)
    assert worst["pos"] < 10.0 and worst["v"] < 0.05 and worst["att"] < 0.01, worst
    v = col(mine, "velocities/eci-velocity-mag-fps")
    t = mine["Time"]
    gained = v[t.index(110.0)] - v[t.index(10.0)]
    coast = col(jsbs, "velocities/eci-velocity-mag-fps")
    assert gained == pytest.approx(coast[t.index(110.0)] - coast[t.index(10.0)], abs=0.05)
    assert 250.0 < gained < 330.0           # (2000 lbf on 20010 lb for 100 s: 322 ft/s)
    period = col(mine, "orbital/period-sec")
    assert period[-1] - period[0] > 60.0 and period[-1] == pytest.approx(col(jsbs, "orbital/period-sec")[-1],
                                                                         abs=0.05)


def test_an_inertial_force_needs_the_round_planet(tmp_path):
    """On the flat planet (no inertial axes) the ball is refused in one line naming its file and the force."""
    root, script = _root(tmp_path, end="1")
    done = cli("script", script, "--root", str(root), "--planet", "flat", cwd=tmp_path)
    assert done.returncode == 2 and not (tmp_path / "burn.csv").exists()
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "ball.xml" in lines[0] and "<force name='rocket'>" in lines[0] \
        and "INERTIAL" in lines[0] and "round planet" in lines[0], done.stderr

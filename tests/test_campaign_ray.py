"""Campaigns on a real Ray cluster on this machine: a head and a second node (``ray start --head``, ``ray start
--address``, one CPU each), a campaign across them with one worker process killed while it runs a chunk, and the
rows equal, bit for bit, to the same runs flown here in one batch; the one-line refusals of an unreachable address
and of a missing Ray.

The cluster's nodes run ``ray start --block`` in their own sessions and are stopped by signalling exactly them
(never ``ray stop``, which stops every Ray on the machine: another test's or user's too), whatever happens.
"""

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from conftest import FLIGHTSIM, one_line_error

from flightsim.errors import InputError
from flightsim.simulation.campaign.ray_executor import INSTALL, RayExecutor
from flightsim.simulation.campaign.runner import COLUMNS_OUTCOME, run_chunk
from flightsim.simulation.campaign.spec import read_spec

REPO = Path(__file__).resolve().parents[1]
#: The 172R's coupled approach to the home runway in a dispersed crosswind and turbulence, 10 s of each run: the
#: distribution is under test here, not the flight (tests/test_campaign_core.py flies whole approaches).
SPEC = """\
aircraft = "c172"
runs = {runs}
seed = 42
traces = [3]
trace_every_s = 1.0

[start]
kind = "approach"

[stop]
time_s = 10

[pilot]
autopilot = "app=36"

[wind]
from_deg = 270
speed_kt = 10
turbulence = "light"

[[dispersion]]
name = "wind.speed_kt"
normal = {{ mean = 10, sd = 4, min = 0, max = 25 }}

[[dispersion]]
name = "wind.seed"
uniform = [0, 2147483647]

[[dispersion]]
name = "weight_lb"
uniform = [1950, 2450]
"""
RUNS = 12
CHUNK = 2
#: Seconds the cluster is given to start (two nodes on two shared cores).
START_S = 120


def spec_file(folder, runs=RUNS):
    path = folder / "approach.toml"
    path.write_text(SPEC.format(runs=runs))
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_processes():
    """``{pid: (title, parent pid)}`` of the Ray processes on this machine (``ray::...`` titles: workers, agents)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if title.startswith("ray::"):
            found[int(entry.name)] = (title.strip(), parent)
    return found


def session_of(pid):
    """The session id of process ``pid`` (None once it is gone)."""
    try:
        return os.getsid(pid)
    except OSError:
        return None


class Cluster:
    """A head and a second node on this machine, each ``ray start --block`` in its own session."""

    def __init__(self, folder):
        self.folder = folder
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes = []
        # token authentication (Ray's default where a token exists) with the cluster's own token, whatever
        # ~/.ray holds: the nodes and the command's driver share it through the environment
        self.env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token",
                        RAY_AUTH_TOKEN=secrets.token_hex(32),
                        PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))

    def start_node(self, name, *args):
        log = open(os.path.join(self.folder, f"{name}.log"), "w")
        command = ["ray", "start", "--block", "--num-cpus=1", "--disable-usage-stats",
                   "--object-store-memory=80000000", f"--temp-dir={self.folder}",
                   f"--dashboard-agent-listen-port={free_port()}", *args]
        self.nodes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                           start_new_session=True))
        log.close()

    def start(self):
        self.start_node("head", "--head", f"--port={self.port}", "--include-dashboard=false",
                        f"--ray-client-server-port={free_port()}", f"--dashboard-port={free_port()}")
        self.wait(lambda: self._answers(), "the head")
        self.start_node("node", f"--address={self.address}")

    def _answers(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def wait(self, ready, what):
        deadline = time.monotonic() + START_S
        while not ready():
            for node in self.nodes:
                assert node.poll() is None, f"{what}: a node's `ray start` exited {node.returncode}:\n{self.logs()}"
            assert time.monotonic() < deadline, f"{what} did not start in {START_S} s:\n{self.logs()}"
            time.sleep(0.2)

    def logs(self):
        return "\n".join(p.read_text(errors="replace")[-3000:] for p in sorted(Path(self.folder).glob("*.log")))

    def workers(self, node):
        """The worker processes of ``node`` (the index of the started node) now: ``{pid: title}``."""
        sid = self.nodes[node].pid
        return {pid: title for pid, (title, parent) in ray_processes().items() if session_of(parent) == sid}

    def stop(self):
        """Stop both nodes: SIGTERM to each ``ray start --block`` (it stops what it started), then SIGKILL to what
        is left of their sessions and workers."""
        workers = {}
        for i in range(len(self.nodes)):
            workers.update(self.workers(i))
        for node in reversed(self.nodes):
            if node.poll() is None:
                node.send_signal(signal.SIGTERM)
        for node in self.nodes:
            try:
                node.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(node.pid, signal.SIGKILL)
            except OSError:
                pass
            node.wait()
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.fixture(scope="module")
def cluster():
    # a short folder: Ray's socket paths inside it must stay under the OS's 107 characters
    folder = tempfile.mkdtemp(prefix="fs-ray-", dir="/tmp")
    nodes = Cluster(folder)
    try:
        nodes.start()
        yield nodes
    finally:
        nodes.stop()
        subprocess.run(["rm", "-rf", folder], check=False)


def same_rows(a, b):
    """The same columns in the same order, every value bit for bit (floats compared as their bits, NaN included)."""
    assert list(a) == list(b)
    for name in a:
        x, y = np.asarray(a[name]), np.asarray(b[name])
        assert x.dtype == y.dtype and x.shape == y.shape, name
        if x.dtype == object:
            assert x.tolist() == y.tolist(), name
        else:
            assert x.tobytes() == y.tobytes(), f"{name}: {x} != {y}"


@pytest.fixture(scope="module")
def here(tmp_path_factory):
    """The spec's file and its runs flown here in one batch (numba's cache warmed for the workers too)."""
    path = spec_file(tmp_path_factory.mktemp("spec"))
    result = run_chunk(read_spec(path), 0, RUNS)
    assert list(result.rows)[0] == "run" and list(result.rows)[-len(COLUMNS_OUTCOME):] == list(COLUMNS_OUTCOME)
    return path, result


def test_a_campaign_across_the_cluster_survives_a_killed_worker_and_writes_the_rows_flown_here(cluster, here,
                                                                                                  tmp_path):
    path, here = here
    cluster.wait(lambda: "Ray runtime started" in (Path(cluster.folder) / "node.log").read_text(), "the second node")
    out = tmp_path / "out"
    command = subprocess.Popen([FLIGHTSIM, "campaign", str(path), "--out", str(out), "--ray", cluster.address,
                                "--chunk", str(CHUNK)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=cluster.env)
    killed = []
    try:
        # SIGKILL the second node's worker as soon as it runs a chunk (its title is then the task's name)
        while command.poll() is None and not killed:
            for pid, title in cluster.workers(1).items():
                if title.startswith("ray::fly_chunk"):
                    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    # numba's pool in the worker no larger than the task's one CPU
                    assert b"NUMBA_NUM_THREADS=1" in environ
                    break
            time.sleep(0.02)
        stdout, stderr = command.communicate(timeout=300)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    assert command.returncode == 0, stdout + stderr
    assert killed, "no worker ran a chunk on the second node"
    assert f"on the Ray cluster at {cluster.address} (2 CPUs, 2 nodes)" in stdout, stdout
    assert "Traceback" not in stderr and "Warning" not in stderr, stderr
    # every chunk written once, and the rows those of the runs flown here in one batch, bit for bit
    assert len(list((out / "chunks").iterdir())) == -(-RUNS // CHUNK)
    # the driver's own log (kept in the cluster's session folder) says Ray ran the killed chunk again
    logs = Path(cluster.folder).glob("session_*/logs/python-core-driver-*")
    drivers = "".join(log.read_text(errors="replace") for log in logs)
    assert re.search(r"[Rr]esubmit task.*function_name=fly_chunk", drivers), drivers[-3000:]
    table = pq.read_table(out / "runs.parquet")
    same_rows({name: table.column(name).to_numpy(zero_copy_only=False) for name in table.column_names}, here.rows)


def test_unreachable_address_is_one_line_before_any_run(tmp_path):
    address = f"127.0.0.1:{free_port()}"             # nothing listens there
    with pytest.raises(InputError, match="no Ray cluster answers there") as error:
        RayExecutor(address)
    assert str(error.value).startswith(f"--ray: {address}: ")
    for bad in ("nohost", "host:port", "10.0.0.1:99999"):
        with pytest.raises(InputError, match="not a Ray cluster's address"):
            RayExecutor(bad)

    out = tmp_path / "out"
    r = subprocess.run([FLIGHTSIM, "campaign", str(spec_file(tmp_path)), "--out", str(out), "--ray", address],
                       capture_output=True, text=True, timeout=120)
    line = one_line_error(r)
    assert address in line and "no Ray cluster answers there" in line
    assert not list(out.rglob("*.parquet")) and not (out / "runs.csv").exists()


def test_without_ray_the_command_says_how_to_install_it(tmp_path):
    # the command's own main, in a fresh interpreter whose import of ray fails as on a machine without it
    code = ("import sys; sys.modules['ray'] = None; from flightsim.commands.cli import main; "
            "sys.argv[0] = 'flightsim'; sys.exit(main(sys.argv[1:]))")
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, "-c", code, "campaign", str(spec_file(tmp_path)), "--out", str(out), "--ray"],
                       capture_output=True, text=True, timeout=120, env=env)
    line = one_line_error(r)
    assert INSTALL in line and "Ray is not installed" in line
    assert not list(out.rglob("*.parquet"))

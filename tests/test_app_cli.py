"""``flightsim fly`` as a user runs it: the console script in a subprocess, under Xvfb or EGL."""

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from conftest import FLIGHTSIM, one_line_error  # (checked once at session start)

REPO = Path(__file__).resolve().parents[1]
XVFB_SCREEN = ["-s", "-screen 0 1280x720x24"]


def env_without(*names, **extra):
    """The environment minus ``names``, plus ``extra``; the command runs this checkout's code."""
    env = {k: v for k, v in os.environ.items() if k not in names}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    env.update(extra)
    return env


def run(args, env=None, timeout=300, xvfb=None):
    cmd = [FLIGHTSIM, *args]
    if xvfb:
        cmd = [*xvfb, *XVFB_SCREEN, *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=env if env is not None else env_without("PYOPENGL_PLATFORM"))


def load_png(path):
    import pyglet

    image = pyglet.image.load(str(path)).get_image_data()
    data = np.frombuffer(image.get_data("RGB", image.width * 3), np.uint8)
    return data.reshape(image.height, image.width, 3)[::-1]          # row 0 at the top


def check_start_scene(img):
    h, w = img.shape[:2]
    sky = img[: h // 10, int(0.35 * w):int(0.65 * w)].reshape(-1, 3).mean(axis=0)
    ground = img[int(0.85 * h):, int(0.35 * w):int(0.65 * w)].reshape(-1, 3).mean(axis=0)
    assert sky[2] > 150 and sky[2] > sky[0] + 40, sky
    assert ground[1] > ground[2] + 15, ground
    panel = img[int(0.35 * h):int(0.6 * h), int(0.01 * w):int(0.2 * w)].reshape(-1, 3)
    assert np.all(panel > 205, axis=1).sum() > 150, "no HUD text"


def test_fly_under_xvfb_saves_a_screenshot_and_exits_0(xvfb_run, tmp_path):
    out = tmp_path / "shot.png"
    r = run(["fly", "--screenshot", str(out), "--frames", "30"], xvfb=xvfb_run)
    assert r.returncode == 0, r.stderr
    img = load_png(out)
    assert img.shape == (720, 1280, 3)
    check_start_scene(img)


def test_no_arguments_flies_too(xvfb_run, tmp_path):
    """``flightsim`` alone is ``flightsim fly``; options go with it."""
    out = tmp_path / "shot.png"
    r = run(["--size", "640x360", "--screenshot", str(out), "--frames", "5", "--camera", "orbit"], xvfb=xvfb_run)
    assert r.returncode == 0, r.stderr
    assert load_png(out).shape == (360, 640, 3)


def test_fly_headless_with_egl(tmp_path):
    out = tmp_path / "egl.png"
    r = run(["fly", "--headless", "--screenshot", str(out), "--frames", "20", "--integrator", "rk4"],
            env=env_without("DISPLAY", "PYOPENGL_PLATFORM"))
    assert r.returncode == 0, r.stderr
    check_start_scene(load_png(out))


def test_no_display_is_one_line_and_exit_2():
    line = one_line_error(run([], env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert "DISPLAY" in line and "xvfb-run" in line and "--headless" in line
    line = one_line_error(run(["fly"], env=env_without("PYOPENGL_PLATFORM", DISPLAY=":987")))
    assert "display" in line and "xvfb-run" in line


def test_no_opengl_33_is_one_line_and_exit_2():
    env = env_without("DISPLAY", "PYOPENGL_PLATFORM", MESA_GL_VERSION_OVERRIDE="3.0")
    line = one_line_error(run(["fly", "--headless", "--frames", "1"], env=env))
    assert "OpenGL 3.3" in line and ("driver" in line or "Mesa" in line)


@pytest.mark.parametrize("args, expected", [
    (["--size", "0x10"], "--size"),
    (["--size", "big"], "--size"),
    (["--integrator", "nope"], "--integrator"),
    (["--aircraft", "/no/such/plane.toml"], "file not found"),
    (["--frames", "0"], "--frames"),
    (["--screenshot", "/no/such/dir/x.png"], "--screenshot"),
    (["--dt", "-1"], "--dt"),
])
def test_bad_input_is_one_line_and_exit_2(args, expected):
    line = one_line_error(run(["fly", "--headless", *args], env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert line.startswith("flightsim: error: ") and expected in line


def test_fly_takes_dt_as_a_fraction_as_simulate_does(tmp_path):
    out = tmp_path / "dt.png"
    r = run(["fly", "--headless", "--dt", "1/30", "--frames", "3", "--screenshot", str(out), "--size", "320x200"],
            env=env_without("DISPLAY", "PYOPENGL_PLATFORM"))
    assert r.returncode == 0, r.stderr
    assert load_png(out).shape == (200, 320, 3)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~current_umask()       # not a temporary file's 0600
    assert [p.name for p in tmp_path.iterdir()] == ["dt.png"]


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_fly_options_parse_as_numbers():
    from flightsim.commands.cli import build_parser

    args = build_parser().parse_args(["fly", "--dt", "1/30", "--ghost-substeps", "16", "--size", "640x360",
                                      "--frames", "5", "--msaa", "4"])
    assert args.dt == 1 / 30 and args.ghost_substeps == 16 and args.size == (640, 360)
    assert (args.frames, args.msaa) == (5, 4)
    assert build_parser().parse_args(["fly"]).ghost_substeps == 8


@pytest.mark.parametrize("args, message", [
    (["--dt", "1/0"], "--dt: must be a number such as 0.01 or 1/30, got '1/0'"),
    (["--dt", "0"], "--dt: must be a step from 1e-05 to 1 s, got 0"),
    (["--dt", "1e-300"], "--dt: must be a step from 1e-05 to 1 s, got 1e-300"),
    (["--dt", "10"], "--dt: must be a step from 1e-05 to 1 s, got 10"),
    (["--ghost-substeps", "65"], "--ghost-substeps: must be 1..64, got 65"),
    (["--msaa", "17"], "--msaa: must be 0..16, got 17"),
    (["--screenshot", "/proc/x.png"], "--screenshot: cannot create a file in '/proc'"),
    (["--screenshot", "/tmp"], "--screenshot: '/tmp' is a folder, not a file"),
    (["--record-dir", "/proc"], "--record-dir: cannot create a file in '/proc'"),
    (["--record-dir", "/etc/hostname"], "--record-dir: '/etc/hostname' exists and is not a folder"),
])
def test_bad_fly_options_are_one_line_naming_the_flag(args, message):
    line = one_line_error(run(["fly", "--headless", *args], env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert line.startswith(f"flightsim: error: {message}")


@pytest.mark.parametrize("command", ["fly", "replay"])
def test_a_broken_model_file_is_one_line_and_exit_2(tmp_path, command):
    from flightsim.app.scene.airplane_model import DEFAULT_MODEL

    text = DEFAULT_MODEL.read_text()
    assert "chord = 5.2 " in text
    model = tmp_path / "model.toml"
    model.write_text(text.replace("chord = 5.2 ", 'chord = "x" ', 1))
    trace = tmp_path / "trace.csv"
    if command == "replay":
        r = run(["simulate", "--steps", "5", "--out", str(trace)])
        assert r.returncode == 0, r.stderr
    args = [command, *([str(trace)] if command == "replay" else []), "--headless", "--model", str(model)]
    line = one_line_error(run(args, env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert line == f"flightsim: error: {model}: surfaces.wing.chord: must be a number, got string 'x'"


def test_bad_keymap_names_the_field(tmp_path):
    keymap = tmp_path / "keys.toml"
    keymap.write_text('[keys]\npitch_up = ["DOWN", "FOO"]\n')
    line = one_line_error(run(["fly", "--keymap", str(keymap)], env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert line == f"flightsim: error: {keymap}: keys.pitch_up: unknown key name 'FOO'"


@pytest.mark.parametrize("option, text, expected", [
    ("--keymap", "[gamepad]\ndead_zone = nan\n", "gamepad.dead_zone: must be finite, got nan"),
    ("--keymap", "[rates]\ntrim = 1e308\n", "rates.trim: must be <= 10, got 1e+308 (accepted range 0.01..10 per s)"),
    ("--model", None, "surfaces.wing.chord: must be finite, got inf"),
])
def test_non_physical_numbers_in_the_app_files_are_one_line_and_exit_2(tmp_path, option, text, expected):
    from flightsim.app.scene.airplane_model import DEFAULT_MODEL

    path = tmp_path / "file.toml"
    path.write_text(text if text is not None else DEFAULT_MODEL.read_text().replace("chord = 5.2 ", "chord = inf ", 1))
    line = one_line_error(run(["fly", "--headless", option, str(path)],
                              env=env_without("DISPLAY", "PYOPENGL_PLATFORM")))
    assert line == f"flightsim: error: {path}: {expected}"


@pytest.mark.parametrize("present, missing, fix", [
    ((), ("`flightsim` console script", "xvfb-run and Xvfb"), ("pip install -e '.[test]'", "apt-get install -y xvfb")),
    (("xvfb-run", "Xvfb"), ("`flightsim` console script",), ("pip install -e '.[test]'",)),
    (("flightsim", "xvfb-run"), ("Xvfb not found",), ("apt-get install -y xvfb",)),
])
def test_a_missing_console_script_or_xvfb_stops_the_session_with_one_message(tmp_path, present, missing, fix):
    """Checked once at session start (the conftest): one message and a non-zero exit, not an error per module."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in present:
        (bin_dir / name).symlink_to(FLIGHTSIM if name == "flightsim" else "/bin/true")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(REPO / "tests" / "test_files.py")]
    r = subprocess.run(command, capture_output=True, text=True, cwd=REPO, env=env_without(PATH=str(bin_dir)),
                       timeout=120)
    assert r.returncode == pytest.ExitCode.USAGE_ERROR, r.stdout + r.stderr
    messages = {line.removeprefix("Exit: ") for line in r.stderr.splitlines() if "cannot run" in line}
    assert len(messages) == 1, r.stderr
    (message,) = messages
    assert message.startswith("flightsim tests cannot run: ")
    assert all(m in message for m in missing) and all(f in message for f in fix), message
    assert "passed" not in r.stdout and "error" not in r.stdout.lower(), r.stdout


def test_fly_command_imports_no_gui_until_it_runs():
    code = "import sys, flightsim.commands.cli; flightsim.commands.cli.build_parser(); " \
           "print(sorted(m for m in ('pyglet', 'imgui_bundle', 'OpenGL') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env_without())
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


RESIZE_SCRIPT = textwrap.dedent("""
    import sys
    from flightsim.app.window import configure_pyglet, open_window
    configure_pyglet(headless=False)
    from imgui_bundle import imgui
    from flightsim.app.app import FlightApp
    from flightsim.app.input.keymap import load_keymap
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES, Simulation

    window = open_window(800, 450)
    app = FlightApp(window, Simulation(), load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)
    app.run(frames=3)
    for w, h in [(1024, 600), (320, 200), (40, 30), (3, 2), (1, 1), (640, 360)]:
        window.set_size(w, h)
        for _ in range(40):                      # let the X server resize and report it
            app.run(frames=1)
            if window.get_framebuffer_size() == (w, h):
                break
        app.run(frames=3)
        img = app.capture()
        size = imgui.get_io().display_size
        print(w, h, img.shape[1], img.shape[0], int(size.x), int(size.y), flush=True)
    app.close()
""")


def test_resizing_down_to_tiny_sizes_works_under_xvfb(xvfb_run):
    r = subprocess.run([*xvfb_run, *XVFB_SCREEN, sys.executable, "-c", RESIZE_SCRIPT],
                       capture_output=True, text=True, timeout=300, env=env_without("PYOPENGL_PLATFORM"))
    assert r.returncode == 0, r.stderr[-2000:]
    rows = [list(map(int, line.split())) for line in r.stdout.split("\n") if line.strip()]
    assert len(rows) == 6
    for w, h, img_w, img_h, ui_w, ui_h in rows:
        assert (img_w, img_h) == (w, h), rows
        assert (ui_w, ui_h) == (w, h), rows

"""Keymap TOML validation and the pilot's control smoothing (no window needed)."""

import pytest
from pyglet.window import key

from flightsim.app.input.keymap import ACTIONS, DEFAULT_KEYMAP, load_keymap
from flightsim.app.input.pilot import FLAP_NOTCHES, Pilot, apply_dead_zone
from flightsim.errors import InputError
from flightsim.simulation.controls import Controls


def write(tmp_path, text):
    path = tmp_path / "keys.toml"
    path.write_text(text)
    return path


def test_default_keymap_binds_every_action_with_the_documented_keys():
    km = load_keymap()
    assert set(km.keys) == set(ACTIONS)
    assert all(km.keys[a] for a in ACTIONS), "an action has no key by default"
    expected = {key.UP: "pitch_down", key.W: "pitch_down", key.DOWN: "pitch_up", key.S: "pitch_up",
                key.LEFT: "roll_left", key.A: "roll_left", key.RIGHT: "roll_right", key.D: "roll_right",
                key.F12: "screenshot", key.F1: "help", key.R: "reset", key.P: "pause", key.C: "camera",
                key.HOME: "trim_nose_down", key.BRACKETLEFT: "trim_nose_down", key.END: "trim_nose_up",
                key.BRACKETRIGHT: "trim_nose_up", key.K: "trim_now", key.M: "dynamics"}
    for symbol, action in expected.items():
        assert km.action(symbol) == action
    assert km.dead_zone == pytest.approx(0.12)
    assert km.rates["trim"] == pytest.approx(0.25)
    assert "Up / W" == km.describe("pitch_down")
    assert (km.describe("trim_nose_down"), km.describe("trim_nose_up")) == ("Home / [", "End / ]")
    assert DEFAULT_KEYMAP.name == "keymap.toml" and DEFAULT_KEYMAP.parent.name == "configs"


def test_user_file_rebinds_and_takes_keys_from_other_actions(tmp_path):
    km = load_keymap(write(tmp_path, '[keys]\nyaw_left = ["A"]\nscreenshot = "f11"\n[rates]\ncenter = 5\n'))
    assert km.action(key.A) == "yaw_left"
    assert km.keys["roll_left"] == ("LEFT",)          # A moved away from roll_left
    assert km.keys["yaw_left"] == ("A",)              # Q and Z no longer yaw
    assert km.action(key.F11) == "screenshot" and km.action(key.F12) is None
    assert km.rates["center"] == 5.0 and km.rates["deflect"] == 2.5


@pytest.mark.parametrize("text, where, reason", [
    ('[keys]\npitch_up = ["FOO"]\n', "keys.pitch_up", "unknown key name 'FOO'"),
    ('[keys]\npitch_upp = ["S"]\n', "keys.pitch_upp", "unknown action 'pitch_upp'; did you mean 'pitch_up'?"),
    ('[keys]\npitch_up = 5\n', "keys.pitch_up", "must be a key name or a list of key names"),
    ('[keys]\npitch_up = ["S"]\npitch_down = ["S"]\n', "keys.pitch_down", "key 'S' is already bound to 'pitch_up'"),
    ('[rates]\ndeflect = 0\n', "rates.deflect", "must be >= 0.05, got 0 (accepted range 0.05..100 per s)"),
    ('[rates]\ndeflect = "fast"\n', "rates.deflect", "must be a number"),
    ('[rates]\ntrim = 0\n', "rates.trim", "must be >= 0.01, got 0 (accepted range 0.01..10 per s)"),
    ('[keys]\ntrim_now = ["K"]\ndynamics = ["K"]\n', "keys.dynamics", "key 'K' is already bound to 'trim_now'"),
    ('[gamepad]\ndead_zone = 0.95\n', "gamepad.dead_zone", "must be <= 0.9, got 0.95 (accepted range 0..0.9)"),
    ('[rates]\ndeflct = 2\n', "rates.deflct", "unknown setting 'deflct'; did you mean 'deflect'?"),
    ('[rates]\ndeflect = true\n', "rates.deflect", "must be a number, got boolean true"),
    ('[gamepad]\ndead_zone = nan\n', "gamepad.dead_zone", "must be finite, got nan"),
    ('[kyes]\npitch_up = "S"\n', "kyes", "unknown section 'kyes'; did you mean 'keys'?"),
    ('keys = 3\n', "keys", "must be a table of action = key(s), got integer"),
    ('[mouse]\nx = 1\n', "mouse", "unknown section 'mouse'"),
    ('[keys\n', "line 1, column 6", "not valid TOML: Expected ']' at the end of a table declaration"),
    ('[keys]\npitch_up = "S"\npitch_up = "W"\n', "line 3, column 15", "not valid TOML: Cannot overwrite a value"),
])
def test_bad_keymaps_name_the_field(tmp_path, text, where, reason):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as err:
        load_keymap(path)
    assert err.value.source == str(path) and err.value.where == where
    assert reason in err.value.reason
    assert str(err.value).startswith(f"{path}: ")


NON_PHYSICAL = [("nan", "must be finite, got nan"), ("inf", "must be finite, got inf"),
                ("-inf", "must be finite, got -inf"), ("1e308", "got 1e+308 (accepted range "),
                ("-1e308", "got -1e+308 (accepted range ")]


@pytest.mark.parametrize("section, field", [("rates", "deflect"), ("rates", "center"), ("rates", "throttle"),
                                            ("rates", "flaps"), ("rates", "trim"), ("gamepad", "dead_zone")])
@pytest.mark.parametrize("value, reason", NON_PHYSICAL, ids=[v for v, _ in NON_PHYSICAL])
def test_every_number_refuses_nan_infinities_and_absurd_magnitudes(tmp_path, section, field, value, reason):
    path = write(tmp_path, f"[{section}]\n{field} = {value}\n")
    with pytest.raises(InputError) as err:
        load_keymap(path)
    assert err.value.where == f"{section}.{field}" and reason in err.value.reason
    assert str(err.value) == f"{path}: {section}.{field}: {err.value.reason}" and "\n" not in str(err.value)


def test_missing_keymap_file(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_keymap(tmp_path / "nope.toml")


def test_a_keymap_that_changes_nothing_is_fine(tmp_path):
    assert load_keymap(write(tmp_path, "# nothing to change\n")).keys == load_keymap().keys


def test_a_folder_or_binary_file_is_one_error(tmp_path):
    with pytest.raises(InputError, match="cannot read file: it is a folder"):
        load_keymap(tmp_path)
    path = tmp_path / "keys.toml"
    path.write_bytes(b"[keys]\npitch_up = \"\xff\"\n")
    with pytest.raises(InputError) as err:
        load_keymap(path)
    assert (err.value.where, err.value.reason) == ("byte 19", "not UTF-8 text (is it a TOML file?)")


def test_pilot_smooths_keys_and_centres_on_release():
    pilot = Pilot(load_keymap())
    c = Controls(throttle=0.5)
    pilot.press("roll_right")
    pilot.update(0.1, c)
    assert c.aileron == pytest.approx(0.25)           # 2.5 per second
    for _ in range(10):
        pilot.update(0.1, c)
    assert c.aileron == 1.0
    pilot.release("roll_right")
    pilot.update(0.1, c)
    assert c.aileron == pytest.approx(0.7)            # back at 3 per second
    for _ in range(5):
        pilot.update(0.1, c)
    assert c.aileron == 0.0
    pilot.press("throttle_up")
    pilot.update(0.25, c)
    pilot.update(0.25, c)
    assert c.throttle == pytest.approx(0.7)           # 0.4 per second
    pilot.release("throttle_up")
    pilot.update(1.0, c)
    assert c.throttle == pytest.approx(0.7)


def test_pilot_turns_the_trim_wheel_and_leaves_it_there():
    pilot = Pilot(load_keymap())
    c = Controls(elevator_trim=0.1)
    pilot.press("trim_nose_up")
    pilot.update(0.2, c)
    assert c.elevator_trim == pytest.approx(0.15) and c.elevator == 0.0       # 0.25 per second
    pilot.press("pitch_down")                                                  # the stick moves on its own
    pilot.update(0.2, c)
    assert c.elevator_trim == pytest.approx(0.2) and c.elevator == pytest.approx(-0.5)
    pilot.release("trim_nose_up")
    pilot.release("pitch_down")
    for _ in range(10):
        pilot.update(0.1, c)
    assert c.elevator == 0.0 and c.elevator_trim == pytest.approx(0.2)
    pilot.press("trim_nose_down")
    pilot.update(0.2, c)
    assert c.elevator_trim == pytest.approx(0.15)
    pilot.release("trim_nose_down")
    pilot.update(0.2, c, {"trim": -1.0})                                      # the d-pad pushed up: nose down
    assert c.elevator_trim == pytest.approx(0.1)
    pilot.press("trim_nose_up")
    for _ in range(50):
        pilot.update(0.25, c)
    assert c.elevator_trim == 1.0                                              # at the stop
    c.elevator_trim = float("nan")
    pilot.update(0.2, c)
    assert c.elevator_trim == pytest.approx(0.05)                              # NaN read as 0, never passed on
    pilot.reset(c)
    assert c.elevator_trim == pytest.approx(0.05), "a reset leaves the trim to the simulation's start"


def test_flap_notches_and_stick_dead_zone():
    pilot = Pilot(load_keymap())
    c = Controls()
    for _ in range(5):
        pilot.press("flaps_down")
    assert pilot.flap_target == FLAP_NOTCHES[-1]
    pilot.press("flaps_up")
    assert pilot.flap_target == 0.5
    for _ in range(40):
        pilot.update(0.1, c)
    assert c.flaps == 0.5
    assert apply_dead_zone(0.1, 0.12) == 0.0
    assert apply_dead_zone(-1.0, 0.12) == -1.0
    assert apply_dead_zone(0.56, 0.12) == pytest.approx(0.5)
    assert apply_dead_zone(float("nan"), 0.12) == 0.0
    pilot.update(0.1, c, {"elevator": 0.9, "aileron": 0.05})
    assert c.elevator > 0.5 and c.aileron == 0.0
    c.elevator = float("nan")                          # never passes NaN on
    pilot.update(0.1, c)
    assert c.elevator == 0.0

"""The app's geometry and logic that need no OpenGL: airplane model, ground, cameras, history."""

import copy
import math
import random
import tomllib

import numpy as np
import pytest
from conftest import non_physical

from flightsim.app.hud.history import History
from flightsim.app.scene import ground, meshes
from flightsim.app.scene.airplane_model import DEFAULT_MODEL, build_airplane, load_model_spec
from flightsim.app.scene.camera import CameraRig, frustum_planes, spheres_visible
from flightsim.app.scene.scenery import RUNWAY, build_scenery
from flightsim.errors import InputError
from flightsim.math import quat
from flightsim.physics.aircraft import load_aircraft


@pytest.fixture(scope="module")
def aircraft():
    return load_aircraft()


@pytest.fixture(scope="module")
def model(aircraft):
    return build_airplane(aircraft)


def signed_volume(mesh):
    p = mesh.positions.astype(np.float64)
    t = mesh.indices.reshape(-1, 3)
    return np.einsum("ij,ij->i", p[t[:, 0]], np.cross(p[t[:, 1]], p[t[:, 2]])).sum() / 6.0


def test_primitives_are_closed_and_face_outwards():
    assert signed_volume(meshes.box([1, 2, 3], [1, 2, 3], "#ff0000")) == pytest.approx(6.0)
    assert signed_volume(meshes.cylinder(1.0, 2.0, "#ff0000", segments=64)) == pytest.approx(2 * np.pi, rel=0.01)
    assert signed_volume(meshes.cone(1.0, 3.0, "#ff0000", segments=64)) == pytest.approx(np.pi, rel=0.01)
    diamond = np.array([[1.0, 0.0], [0.0, 0.2], [-1.0, 0.0], [0.0, -0.2]])
    for profile in (diamond, diamond[::-1]):     # either winding comes out facing outwards
        assert signed_volume(meshes.extrude_profile(profile, -1.0, 1.0, "#ffffff")) == pytest.approx(0.8)


def test_every_part_of_the_airplane_faces_outwards(model):
    for part in model.parts:
        assert signed_volume(part.mesh) > 0.0, part.name
        assert np.all(np.isfinite(part.mesh.positions)), part.name


def _world(part, deflections):
    m = part.matrix(deflections)
    return part.mesh.positions.astype(np.float64) @ m[:3, :3].T + m[:3, 3]


def test_panels_sit_on_their_elements_with_span_area_over_chord(aircraft, model):
    spec = load_model_spec()
    zero = np.zeros((len(aircraft.elements), 2))
    for i, e in enumerate(aircraft.elements):
        if e.part == "fuselage":
            continue
        chord = spec["surfaces"][e.part]["chord"]
        pieces = [p for p in model.parts if p.element == i or p.name == f"panel:{e.name}"]
        if e.incidence_control is None:
            pieces = [p for p in pieces if p.kind == "hinged"] + [None]
        # The element's own vertices: its movable part, plus its fixed panel in the merged body.
        moving = [p for p in model.parts if p.element == i]
        assert moving or e.flap is None and e.incidence_control is None
        span_axis = np.array([0.0, math.cos(math.radians(e.dihedral_deg)), -math.sin(math.radians(e.dihedral_deg))])
        for part in moving:
            pts = _world(part, zero)
            along = (pts - e.position) @ span_axis
            # Centred span-wise on the element, no wider than area / chord.
            assert abs(0.5 * (along.max() + along.min())) < 0.05, e.name
            assert along.max() - along.min() <= e.area / chord + 1e-3, e.name
            assert along.max() - along.min() > 0.9 * e.area / chord, e.name


def _normal(part, deflections):
    m = part.matrix(deflections)
    return m[:3, :3] @ np.array([0.0, 0.0, 1.0])


def test_surfaces_turn_like_the_physics_normal(aircraft, model):
    """The drawn panel's normal is the book's n = (sin i, cos i sin d, cos i cos d) with the live incidence."""
    for part in model.parts:
        if part.kind != "hinged" or part.column != 1:
            continue
        e = aircraft.elements[part.element]
        for change in (-16.0, 0.0, 16.0):
            defl = np.zeros((len(aircraft.elements), 2))
            defl[part.element, 1] = change
            i, d = math.radians(e.incidence_deg + change), math.radians(e.dihedral_deg)
            expected = np.array([math.sin(i), math.cos(i) * math.sin(d), math.cos(i) * math.cos(d)])
            assert _normal(part, defl) == pytest.approx(expected, abs=1e-12)


def test_flap_setting_plus_one_raises_the_trailing_edge(aircraft, model):
    for part in model.parts:
        if part.kind != "hinged" or part.column != 0:
            continue
        defl = np.zeros((len(aircraft.elements), 2))
        rest = _world(part, defl)
        te = np.argmin(rest[:, 0])                     # the rearmost vertex is on the trailing edge
        defl[part.element, 0] = 1.0
        up = _world(part, defl)
        defl[part.element, 0] = -1.0
        down = _world(part, defl)
        assert up[te, 2] > rest[te, 2] + 0.1 > down[te, 2] + 0.2, part.name


def test_rudder_right_swings_the_fin_trailing_edge_right(aircraft, model):
    fin = model.part("turning:vertical tail")
    index = fin.element
    link = aircraft.elements[index].incidence_control
    defl = np.zeros((len(aircraft.elements), 2))
    rest = _world(fin, defl)
    te = np.argmin(rest[:, 0])
    defl[index, 1] = link.gain * 1.0                   # rudder +1 = nose right
    right = _world(fin, defl)
    assert right[te, 1] < rest[te, 1] - 0.3            # body y points left: trailing edge moves right


def _part_points(part, gear=None):
    m = part.matrix(np.zeros((8, 2)), 0.0, gear)
    return part.mesh.positions @ m[:3, :3].T + m[:3, 3]


def test_wheels_touch_the_ground_at_the_contact_height(aircraft, model):
    wheels = [c for c in aircraft.gear if c.is_wheel]
    lowest = min(float(_part_points(p)[:, 2].min()) for p in model.parts)
    assert lowest == pytest.approx(-aircraft.contact_height, abs=1e-5)        # the wheels are the lowest
    for c in wheels:                    # each wheel drawn with its lowest point on its contact point
        points = _part_points(model.part(f"wheel:{c.name}"))
        bottom = points[points[:, 2] < points[:, 2].min() + 1e-5]      # the tyre's bottom line, across the wheel
        assert bottom.mean(axis=0) == pytest.approx(c.position, abs=1e-5)


def test_wheels_rise_with_their_legs_compression_and_the_nose_wheel_steers(aircraft, model):
    k = next(i for i, c in enumerate(aircraft.gear) if c.name == "left main wheel")
    n = next(i for i, c in enumerate(aircraft.gear) if c.name == "nose wheel")
    gear = np.zeros((len(aircraft.gear), 2))
    gear[k, 0] = 0.25
    gear[n, 1] = 20.0                                           # steered 20° right
    left = model.part("wheel:left main wheel")
    assert _part_points(left, gear) == pytest.approx(_part_points(left) + [0.0, 0.0, 0.25], abs=1e-5)
    nose = model.part("wheel:nose wheel")
    straight, steered = _part_points(nose), _part_points(nose, gear)
    front = np.argmax(straight[:, 0])
    assert steered[front, 1] < straight[front, 1] - 0.1          # the front of the wheel swings right (−y)
    assert steered[:, 2].min() == pytest.approx(straight[:, 2].min(), abs=1e-5)


def test_cockpit_eye_is_in_the_cabin_ahead_of_the_wing_trailing_edge(model):
    cabin = model.part("cabin").mesh.positions
    eye = model.cockpit_eye
    assert cabin[:, 0].min() < eye[0] < cabin[:, 0].max()
    assert abs(eye[1]) < 1e-9
    assert eye[2] < cabin[:, 2].max()
    assert model.nose[0] > eye[0]


def test_ground_tile_fields_cover_the_tile_exactly():
    fields, roads = ground.field_rects()
    area = sum((f[2] - f[0]) * (f[3] - f[1]) for f in fields)
    assert area == pytest.approx(ground.TILE_FT**2)
    assert len(fields) > 100 and len(roads) == 2 * ground.BLOCKS
    g = ground.build_ground()
    assert len(g.near) == 9
    assert np.all(g.near[0][0][1][:, :3] >= 0.0) and np.all(g.near[0][0][1][:, :3] <= 1.0)
    ox, oy = ground.tile_origin(-5000.0, 0.0)
    assert ox <= -5000.0 < ox + ground.TILE_FT and oy <= 0.0 < oy + ground.TILE_FT


def test_runway_is_ahead_of_the_start_along_the_x_axis(aircraft):
    scenery = build_scenery()
    pos, _ = scenery.runway_quad
    assert pos[:, 0].min() == pytest.approx(-RUNWAY.length / 2)
    assert pos[:, 1].max() == pytest.approx(RUNWAY.width / 2)
    assert aircraft.initial_position[0] < pos[:, 0].min()              # flying North towards it
    assert all(np.all(np.isfinite(m.positions)) for m in scenery.objects)


def test_landmarks_face_their_normals_so_their_back_faces_can_be_culled():
    # the renderer culls the landmarks' back faces: every triangle must be wound counter-clockwise seen from
    # the side its normal points to, or it would vanish
    scenery = build_scenery(hills=True)
    for mesh in [*scenery.objects, *(m for m in scenery.object_far if m is not None)]:
        p = mesh.positions.astype(np.float64)[mesh.indices.reshape(-1, 3)]
        n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        area = np.linalg.norm(n, axis=1)
        facing = (n * mesh.normals[mesh.indices.reshape(-1, 3)].sum(axis=1)).sum(axis=1)
        assert np.all(facing[area > 1e-9] > 0.0)


def test_landmark_clusters_carry_their_feature_size_and_the_woods_a_cheap_stand_in():
    from flightsim.app.scene.scenery import SMALL_FT, feature_size

    assert feature_size(meshes.box([0, 0, 0], [3.0, 40.0, 2.0], "#ffffff")) == pytest.approx(math.sqrt(120.0))
    assert feature_size(meshes.box([0, 0, 0], [6.0, 6.0, 400.0], "#ffffff")) == pytest.approx(math.sqrt(2400.0))
    scenery = build_scenery(hills=False)
    assert len(scenery.object_sizes) == len(scenery.object_far) == len(scenery.objects)
    for mesh, size in zip(scenery.objects, scenery.object_sizes, strict=True):
        assert 0.0 < size <= feature_size(mesh)                # no object in it larger than the whole
    small = [m for m, size in zip(scenery.objects, scenery.object_sizes, strict=True) if size < SMALL_FT]
    assert small and all(np.ptp(m.positions[:, 2]) < 25.0 for m in small)     # lights, markers, the sock's pole
    woods = [(m, far) for m, far in zip(scenery.objects, scenery.object_far, strict=True) if far is not None]
    assert len(woods) == 5
    for near, far in woods:
        assert far.indices.size * 5 <= near.indices.size
        lo, hi = near.positions.min(axis=0), near.positions.max(axis=0)
        assert np.all(far.positions >= lo - 1e-6) and np.all(far.positions <= hi + 1e-6)   # within the wood


def test_a_draw_list_is_reused_only_while_the_view_hardly_changes():
    from flightsim.app.scene.camera import View
    from flightsim.app.scene.renderer import VIEW_REUSE_DEG, VIEW_REUSE_FT, _ViewCache

    def planes(yaw_deg):                              # a level view, yawed
        a = math.radians(yaw_deg)
        forward = np.array([math.cos(a), math.sin(a), 0.0])
        rot = np.eye(4)
        rot[:3, :3] = [np.cross(forward, [0.0, 0.0, 1.0]), [0.0, 0.0, 1.0], -forward]
        return frustum_planes(View(np.zeros(3), rot).view_proj(16 / 9))

    cache = _ViewCache()
    eye = np.array([100.0, -50.0, 2000.0])
    assert not cache.valid(eye, planes(0.0), "k")
    cache.keep(eye, planes(0.0), "list", "k")
    assert cache.valid(eye + [0.9 * VIEW_REUSE_FT, 0.0, 0.0], planes(0.9 * VIEW_REUSE_DEG), "k")
    assert not cache.valid(eye + [1.1 * VIEW_REUSE_FT, 0.0, 0.0], planes(0.0), "k")
    assert not cache.valid(eye, planes(1.1 * VIEW_REUSE_DEG), "k")
    assert not cache.valid(eye, planes(0.0), "other key")
    # the culling is widened by how far a sphere moves across the view meanwhile
    assert cache.margin(10000.0) == pytest.approx(VIEW_REUSE_FT + 10000.0 * math.radians(VIEW_REUSE_DEG))


def test_chase_camera_is_behind_and_above_looking_along_the_heading(model):
    rig = CameraRig(model.cockpit_eye, model.radius)
    pos = np.array([-5000.0, 0.0, 2000.0])
    for heading in (0.0, 90.0, 225.0):
        rig.reset()
        R = quat.to_matrix(quat.from_aviation_angles(0.0, 0.0, heading))
        view = rig.view(pos, R, 1 / 60)
        forward = R[:, 0]
        assert np.dot(pos - view.eye, forward) > model.radius          # behind
        assert view.eye[2] > pos[2]                                    # above
        assert np.dot(view.forward, forward) > 0.95


def test_cameras_never_go_below_the_ground_and_orbit_follows_the_mouse(model):
    rig = CameraRig(model.cockpit_eye, model.radius)
    rig.set_mode("orbit")
    on_ground = np.array([0.0, 0.0, 2.2])
    before = rig.view(on_ground, np.eye(3), 0.0).eye.copy()
    rig.drag(100.0, 0.0)
    after = rig.view(on_ground, np.eye(3), 0.0).eye
    assert not np.allclose(before, after)
    rig.drag(0.0, 1000.0)                        # drag down as far as it goes
    assert rig.view(on_ground, np.eye(3), 0.0).eye[2] >= 1.5
    rig.scroll(5)
    assert rig.orbit_distance < 2.2 * model.radius
    assert rig.cycle() == "tower" and rig.cycle() == "chase"


def test_projection_survives_degenerate_sizes(model):
    view = CameraRig(model.cockpit_eye, model.radius).view(np.zeros(3) + [0, 0, 100], np.eye(3), 0.0)
    for aspect in (1e-6, 1.0, 1e6):
        assert np.all(np.isfinite(view.view_proj(aspect)))


def test_frustum_culling_keeps_what_is_ahead_and_drops_what_is_behind(model):
    view = CameraRig(model.cockpit_eye, model.radius).view(np.array([0.0, 0.0, 100.0]), np.eye(3), 0.0)
    planes = frustum_planes(view.view_proj(16 / 9))
    centres = np.array([[500.0, 0.0, 0.0], [-500.0, 0.0, 0.0]]) - view.eye
    assert spheres_visible(planes, centres, [10.0, 10.0]).tolist() == [True, False]


class _T:
    def __init__(self, t, heading):
        self.t, self.roll, self.pitch, self.heading, self.qnorm_error = t, 1.0, 2.0, heading, 1e-9


def test_history_keeps_30_seconds_and_breaks_the_heading_line_at_north():
    h = History(span=30.0, rate=60.0)
    for k in range(60 * 70):
        h.append(_T(k / 60.0, (350.0 + k * 0.5) % 360.0))
    t, y = h.series("heading")
    assert t[-1] - t[0] == pytest.approx(30.0, abs=0.05)
    assert np.isnan(y).any()
    assert len(h) == h.capacity and len(h.series("roll")[0]) < h.capacity     # a ring: 70 s seen, its rows kept
    h.append(_T(0.0, 0.0))                       # the clock went back: a reset
    assert len(h) == 1


# ------------------------------------------------------------------ a broken model file

def broken_model(tmp_path, old, new):
    """The shipped model file with its first ``old`` replaced by ``new``."""
    text = DEFAULT_MODEL.read_text()
    assert old in text, old
    path = tmp_path / "model.toml"
    path.write_text(text.replace(old, new, 1))
    return path


BROKEN_MODEL = [
    ("chord = 5.2 ", 'chord = "x" ', "surfaces.wing.chord", "must be a number, got string 'x'"),
    ("chord = 5.2 ", "chord = 0 ", "surfaces.wing.chord", "must be > 0, got 0 (accepted range 0..1000 ft)"),
    ("chord = 5.2 ", "chrod = 5.2 ", "surfaces.wing.chrod", "unknown key; did you mean 'chord'? (valid keys: "),
    ("chord = 5.2 ", "", "surfaces.wing.chord", "required key is missing"),
    ("[surfaces.fin]", "[surfaces.fins]", "surfaces.fins", "unknown part 'fins'; did you mean 'fin'?"),
    ("[gear]", "[gears]", "gears", "unknown key; did you mean 'gear'?"),
    ('color = "body"', 'color = "bdy"', "surfaces.wing.color", "unknown colour 'bdy'; did you mean 'body'?"),
    ('trim = "#c8372d"', 'trim = "#c8372"', "colors.trim", "must be a colour \"#rrggbb\" or \"#rrggbbaa\""),
    ('color = "prop"', "color = [1, 0, 2]", "propeller.color[2]", "must be <= 1, got 2 (accepted range 0..1)"),
    ("segments = 28", "segments = 2.5", "fuselage.segments", "must be a whole number, got 2.5"),
    ("blades = 2", "blades = 100", "propeller.blades", "must be <= 12, got 100 (accepted range 1..12)"),
    ("diameter = 5.0", "diameter = 1e300", "propeller.diameter",
     "must be <= 100, got 1e+300 (accepted range 0..100 ft)"),
    ("eye = [0.42, -0.6]", "eye = [1.42, -0.6]", "fuselage.eye[0]", "must be <= 1, got 1.42"),
    ("cabin = [0.205, 0.47]", "cabin = [0.47, 0.205]", "fuselage.cabin[1]", "must be strictly increasing"),
    ("[0.015,  0.45", "[0.000,  0.45", "fuselage.stations[1][0]", "stations must be strictly increasing in s"),
    ("0.36,   0.24,  0.05", "0.36,   0.44,  0.05", "fuselage.stations[0]", "bottom 0.44 is above top 0.36"),
    ("[0.200,  0.62,  -0.22,  0.33]", "[0.200,  0.62,  -0.22]", "fuselage.stations[4]", "must have 4 values, got 3"),
    ("[gear]", "[gear\n", "line ", "not valid TOML"),
]


@pytest.mark.parametrize("old, new, where, reason", BROKEN_MODEL, ids=[c[2] for c in BROKEN_MODEL])
def test_a_broken_model_file_is_one_input_error_naming_the_field(tmp_path, old, new, where, reason):
    path = broken_model(tmp_path, old, new)
    with pytest.raises(InputError) as err:
        load_model_spec(path)
    assert err.value.source == str(path)
    assert err.value.where.startswith(where) if where.endswith(" ") else err.value.where == where
    assert reason in err.value.reason


def test_every_value_of_the_model_file_of_the_wrong_type_is_one_input_error(tmp_path, aircraft):
    """Every field is checked before the geometry sees it: no TypeError deep in the mesh code."""
    from test_aircraft import dump_toml, leaf_paths, set_at

    with open(DEFAULT_MODEL, "rb") as f:
        book = tomllib.load(f)
    path = tmp_path / "model.toml"
    for leaf in leaf_paths(book):
        value = book
        for key in leaf:
            value = value[key]
        for wrong in ("x" if not isinstance(value, str) else 1.5, True, [], -1e300):
            data = copy.deepcopy(book)
            set_at(data, leaf, wrong)
            path.write_text(dump_toml(data))
            with pytest.raises(InputError) as err:
                build_airplane(aircraft, load_model_spec(path))
            assert err.value.where.startswith(".".join(str(k) for k in leaf)), (leaf, wrong, err.value)


def test_random_damage_to_the_model_file_raises_only_input_error(tmp_path, aircraft):
    from test_aircraft import dump_toml, leaf_paths

    with open(DEFAULT_MODEL, "rb") as f:
        book = tomllib.load(f)
    rng = random.Random(4321)
    paths = list(leaf_paths(book))
    junk = [0, -1, 1, 0.5, 1e300, -1e300, "", "body", "#ffffff", [], [0.5, 0.5], [0.0, 1.0, 0.0, 0.0],
            True, math.nan]
    outcomes = set()
    path = tmp_path / "model.toml"
    for _ in range(300):
        data = copy.deepcopy(book)
        for _ in range(rng.randint(1, 3)):
            leaf = rng.choice(paths)
            node = data
            for key in leaf[:-1]:
                node = node[key]
            if isinstance(node[leaf[-1]], list) and node[leaf[-1]] and rng.random() < 0.5:
                node[leaf[-1]][rng.randrange(len(node[leaf[-1]]))] = rng.choice(junk)
            else:
                node[leaf[-1]] = rng.choice(junk)
        path.write_text(dump_toml(data))
        planted = non_physical(data)
        try:
            model = build_airplane(aircraft, load_model_spec(path))
            assert not planted, f"built a model from non-physical values: {planted}"
            assert all(np.all(np.isfinite(p.mesh.positions)) for p in model.parts)
            outcomes.add("ok")
        except InputError as exc:
            assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc), str(exc)
            outcomes.add("refused non-physical" if planted else "error")
    assert outcomes == {"ok", "error", "refused non-physical"}


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e308, -1e308])
def test_every_number_of_the_model_file_refuses_non_physical_values(tmp_path, aircraft, bad):
    """NaN, infinities and absurd magnitudes are refused in every numeric field, naming it, never drawn."""
    from test_aircraft import dump_toml, leaf_paths, set_at

    with open(DEFAULT_MODEL, "rb") as f:
        book = tomllib.load(f)
    path = tmp_path / "model.toml"
    checked = 0
    for leaf in leaf_paths(book):
        value = book
        for key in leaf:
            value = value[key]
        while isinstance(value, list) and value:
            leaf, value = (*leaf, 0), value[0]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        data = copy.deepcopy(book)
        set_at(data, leaf, bad)
        path.write_text(dump_toml(data))
        with pytest.raises(InputError) as err:
            build_airplane(aircraft, load_model_spec(path))
        where = "".join(f"[{k}]" if isinstance(k, int) else (f".{k}" if i else k) for i, k in enumerate(leaf))
        assert err.value.where.startswith(where), (leaf, bad, str(err.value))
        assert str(err.value).startswith(f"{path}: ") and "\n" not in str(err.value)
        checked += 1
    assert checked > 20




def _mask(size, rects, gl_coords):
    """Which pixels (rows from the top) the rectangles cover."""
    w, h = size
    m = np.zeros((h, w), bool)
    for r in rects:
        if gl_coords:
            x, y, rw, rh = r
            m[h - y - rh:h - y, x:x + rw] = True
        else:
            x0, y0, x1, y1 = (int(v) for v in r)
            m[y0:y1, x0:x1] = True
    return m


def test_the_scenes_scissor_rectangles_cover_every_pixel_the_panels_leave():
    from flightsim.app.scene.renderer import SCENE_RECT_PASSES, SCENE_RECT_WASTE_PX, scene_rects

    size = (1280, 720)
    docked = [(0, 0, 315, 562), (942, 0, 1280, 598), (768, 459, 934, 720)]     # Flight, Numerics, NAV (low)
    rects = scene_rects(size, docked)
    assert len(rects) == 2
    hidden = _mask(size, docked, False)
    drawn = _mask(size, rects, True)
    assert np.all(drawn | hidden)                          # every visible pixel drawn
    assert (drawn & hidden).sum() <= 2 * SCENE_RECT_WASTE_PX
    assert (~drawn).sum() > 0.8 * hidden.sum()             # and most of the panels' pixels left out
    assert sum(w * h for _, _, w, h in rects) == drawn.sum()          # no pixel drawn twice
    assert scene_rects(size, []) is None
    rng = np.random.default_rng(7)
    for _ in range(200):                                  # any layout: covered, or one pass
        boxes = []
        for _ in range(rng.integers(1, 6)):
            x0, y0 = rng.integers(0, 1200), rng.integers(0, 680)
            boxes.append((x0, y0, x0 + rng.integers(10, 500), y0 + rng.integers(10, 500)))
        rects = scene_rects(size, boxes)
        if rects is None:
            continue
        assert len(rects) <= SCENE_RECT_PASSES
        drawn = _mask(size, rects, True)
        assert np.all(drawn | _mask(size, boxes, False))
        assert sum(w * h for _, _, w, h in rects) == drawn.sum()

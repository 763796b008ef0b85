"""JSBSim aircraft drawn from their XML: :mod:`flightsim.app.scene.jsbsim_shape` and
:mod:`flightsim.app.scene.shape_model`.

The numbers are checked against the files themselves (read here independently) and against what
each aircraft is; the drawings are checked as geometry and, rendered for real (Mesa through EGL,
see ``conftest.py``), as pixels.  Set ``FLIGHTSIM_TEST_SHOTS=DIR`` to keep the rendered images.
"""

import math
import os
from pathlib import Path

import numpy as np
import pytest

from flightsim.app.scene.airplane_model import build_airplane
from flightsim.app.scene.jsbsim_shape import Shape, shape_of
from flightsim.app.scene.shaders import MAX_PARTS
from flightsim.app.scene.shape_model import ELEVATOR, FLAP, LEFT_AILERON, RIGHT_AILERON, RUDDER, build_from_shape
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.mass import MassBalance, Metrics
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path, package_root

SHOTS = Path(os.environ["FLIGHTSIM_TEST_SHOTS"]) if os.environ.get("FLIGHTSIM_TEST_SHOTS") else None

NAMES = ("SGS", "c172p", "J3Cub", "t6texan2", "A4", "737")


@pytest.fixture(scope="module")
def shapes():
    return {name: Shape.read(f"jsbsim:{name}") for name in NAMES}


@pytest.fixture(scope="module")
def models(shapes):
    return {name: build_from_shape(shape) for name, shape in shapes.items()}


def source(name):
    return JSBSimFile(aircraft_path(name))


def to_body(name, r):
    """A structural point (in) in flightsim's body frame: JSBSim's body vector with y and z negated."""
    return MassBalance.read(source(name)).structural_to_body(r) * np.array([1.0, -1.0, -1.0])


def signed_volume(mesh):
    p = mesh.positions.astype(np.float64)
    t = mesh.indices.reshape(-1, 3)
    return np.einsum("ij,ij->i", p[t[:, 0]], np.cross(p[t[:, 1]], p[t[:, 2]])).sum() / 6.0


def world(part, deflections=None, gear=None):
    m = part.matrix(np.zeros((5, 2)) if deflections is None else deflections, 0.0, gear)
    return part.mesh.positions.astype(np.float64) @ m[:3, :3].T + m[:3, 3]


# ------------------------------------------------------------------------------------------ the shape


@pytest.mark.parametrize("name", NAMES)
def test_the_wing_has_the_files_span_and_area_and_a_trapezoid_of_its_chord(shapes, name):
    metrics = Metrics.read(source(name))
    wing = shapes[name].wing
    assert wing.span == metrics.wing_span
    assert wing.area == metrics.wing_area
    assert 0.5 * (wing.root_chord + wing.tip_chord) * wing.span == pytest.approx(metrics.wing_area)
    assert 0.0 < wing.tip_chord <= wing.root_chord
    ratio = metrics.chord / (metrics.wing_area / metrics.wing_span)
    if 1.005 < ratio < 4.0 / 3.0:                 # a taper the MAC can give: the drawn MAC is the file's chord
        assert wing.mac == pytest.approx(metrics.chord, rel=1e-6)
    # The MAC's quarter chord is at AERORP.
    lam = wing.taper
    y_mac = wing.span / 6.0 * (1 + 2 * lam) / (1 + lam)
    rp = to_body(name, metrics.aero_rp)
    assert wing.quarter_chord(2.0 * y_mac / wing.span)[0] == pytest.approx(rp[0], abs=1e-9)


@pytest.mark.parametrize("name", NAMES)
def test_the_tails_sit_at_their_arms_behind_the_wing(shapes, name):
    metrics = Metrics.read(source(name))
    shape = shapes[name]
    rp = to_body(name, metrics.aero_rp)
    h = shape.htail
    lam = h.taper
    eta = (1 + 2 * lam) / (3 * (1 + lam))                      # the MAC's station, fraction of the half-span
    assert h.quarter_chord(eta)[0] == pytest.approx(rp[0] - metrics.htail_arm, abs=1e-9)
    assert h.area == metrics.htail_area and shape.vtail.area == metrics.vtail_area
    arm = metrics.vtail_arm if metrics.vtail_arm > 0.0 else metrics.htail_arm
    v = shape.vtail
    lam = v.taper
    eta = (1 + 2 * lam) / (3 * (1 + lam))
    assert v.quarter_chord(eta, vertical=True)[0] == pytest.approx(rp[0] - arm, abs=1e-9)
    f = shape.fuselage
    assert f.tail_x < h.root[0] < f.nose_x and f.tail_x < v.root[0] < shape.wing.root[0]
    # A fuselage as long as an airplane's: about two tail arms, and the fin stands on it.
    assert 1.4 * metrics.htail_arm < f.length < 3.5 * metrics.htail_arm
    assert f.axis_z < v.root[2] < f.axis_z + 0.5 * f.height


def test_what_each_aircraft_is(shapes):
    assert shapes["SGS"].kind == "glider" and shapes["SGS"].engines == ()
    for name in ("c172p", "J3Cub", "t6texan2"):
        assert shapes[name].kind == "prop", name
        (engine,) = shapes[name].engines
        assert engine.kind == "propeller" and engine.mount == "nose", name
        assert engine.position[0] == pytest.approx(shapes[name].fuselage.nose_x)      # the hub is the nose
    assert shapes["A4"].kind == "jet"
    (jet,) = shapes["A4"].engines
    assert jet.kind == "jet" and jet.mount == "fuselage"
    b737 = shapes["737"]
    assert b737.kind == "jet" and b737.role == "airliner"
    left, right = b737.engines
    assert left.kind == right.kind == "jet" and left.mount == right.mount == "wing"
    assert left.position[1] == pytest.approx(-right.position[1]) and abs(left.position[1]) > b737.fuselage.width
    assert max(left.position[2], right.position[2]) < b737.wing.root[2] + 0.5 * b737.fuselage.height
    # The T-6's PT6A is a turbine with a direct thruster, on the centreline ahead of the pilot: a propeller.
    t6 = shapes["t6texan2"]
    assert t6.engines[0].position[0] > t6.eye[0]


def test_high_and_low_wings(shapes):
    for name in ("c172p", "J3Cub"):
        assert shapes[name].wing_height == "high", name
        assert shapes[name].wing.root[2] > shapes[name].fuselage.axis_z + 0.3 * shapes[name].fuselage.height
    for name in ("737", "t6texan2", "A4"):
        assert shapes[name].wing_height == "low", name
        assert shapes[name].wing.root[2] < shapes[name].fuselage.axis_z - 0.3 * shapes[name].fuselage.height
    assert shapes["SGS"].wing_height in ("high", "mid")
    # The 172's tip contacts are where its drawn wing tips are (its dihedral guessed).
    c172 = shapes["c172p"]
    tip = next(c for c in c172.contacts if c.name == "LEFT_TIP")
    assert c172.wing.quarter_chord(1.0, side=1.0)[2] == pytest.approx(tip.position[2], abs=0.5)
    assert c172.wing.semispan() == pytest.approx(abs(tip.position[1]), rel=0.02)


def test_propeller_diameter_is_the_thruster_files(shapes):
    engine = source("c172p").section("propulsion").find("engine")
    thruster = JSBSimFile.parse(package_root() / "engine" / (engine.find("thruster").get("file") + ".xml"))
    d = thruster.find("diameter")
    assert d.get("unit") == "IN"
    assert shapes["c172p"].engines[0].diameter == pytest.approx(float(d.text) / 12.0)
    assert shapes["c172p"].engines[0].blades == int(thruster.find("numblades").text)


@pytest.mark.parametrize("name", NAMES)
def test_contacts_are_the_files_in_order_bogeys_numbered_as_the_gear(shapes, name):
    src = source(name)
    elements = src.section("ground_reactions").findall("contact")
    shape = shapes[name]
    assert [c.name for c in shape.contacts] == [e.get("name") for e in elements]
    bogeys = [e.get("name") for e in elements if e.get("type") == "BOGEY"]
    assert [c.name for c in shape.gear] == bogeys
    assert [c.gear_index for c in shape.gear] == list(range(len(bogeys)))
    for c, e in zip(shape.contacts, elements, strict=True):
        assert (c.gear_index is None) == (e.get("type") != "BOGEY")
        assert c.position == pytest.approx(to_body(name, src.location(e.find("location"), "")), abs=1e-12)
    assert all(c.type == "BOGEY" for c in shape.wheels)


def test_the_wheels_are_the_landing_gear(shapes):
    names = {n: [c.name for c in shapes[n].wheels] for n in NAMES}
    assert names["c172p"] == ["NOSE", "LEFT_MAIN", "RIGHT_MAIN"]           # not its skids and tips
    assert names["J3Cub"] == ["TAIL", "LEFT_MAIN", "RIGHT_MAIN"]           # a tail-dragger
    assert set(names["737"]) == {c.name for c in shapes["737"].gear}
    assert names["SGS"] == []                                               # every contact at the origin


def test_eye_is_inside_the_fuselage(shapes):
    for name, shape in shapes.items():
        if shape.eye is None:
            continue
        f = shape.fuselage
        assert f.tail_x < shape.eye[0] < f.nose_x, name
        assert abs(shape.eye[2] - f.axis_z) < 0.5 * f.height, name


def test_reads_every_shipped_aircraft_it_can():
    """Every aircraft whose mass balance reads gets a shape and a model (no crash on odd files)."""
    from flightsim.errors import InputError
    from flightsim.physics.jsbsim.xmlfile import aircraft_names

    built = 0
    for name in aircraft_names():
        try:
            shape = Shape.read(name)
        except InputError:
            continue
        model = build_from_shape(shape, detail=0.3)
        assert len(model.parts) <= MAX_PARTS and np.isfinite(model.radius), name
        built += 1
    assert built > 40


# ------------------------------------------------------------------------------------------ the model


@pytest.mark.parametrize("name", NAMES)
def test_parts_follow_build_airplanes_conventions(shapes, models, name):
    shape, model = shapes[name], models[name]
    names = [p.name for p in model.parts]
    assert names[0] == "body" and model.parts[0].kind == "static"
    assert {"nose", "cabin"} <= set(names)
    assert len(model.parts) <= MAX_PARTS
    wheels = [p for p in model.parts if p.kind == "wheel"]
    assert ("gear" in names) == bool(wheels)
    assert [p.name for p in wheels] == [f"wheel:{c.name}" for c in shape.wheels]
    for p in wheels:
        assert shape.gear[p.contact].name == p.name.split(":", 1)[1]
    props = [p for p in model.parts if p.kind == "propeller"]
    assert len(props) == sum(e.kind == "propeller" for e in shape.engines)
    assert all(p.name == "propeller" for p in props)
    hinged = {p.name: p.element for p in model.parts if p.kind == "hinged"}
    assert hinged["aileron:left"] == LEFT_AILERON and hinged["aileron:right"] == RIGHT_AILERON
    assert hinged["rudder"] == RUDDER
    assert hinged["elevator:left"] == hinged["elevator:right"] == ELEVATOR
    assert ("flap:left" in hinged) == shape.has_flaps
    for part in model.parts:
        assert signed_volume(part.mesh) > 0.0, part.name
        assert np.all(np.isfinite(part.mesh.positions)), part.name


def test_flaps_only_where_the_controls_move_them(shapes):
    assert not shapes["J3Cub"].has_flaps
    assert shapes["c172p"].has_flaps and shapes["737"].has_flaps


@pytest.mark.parametrize("name", NAMES)
def test_radius_encloses_the_airplane_and_the_wing_spans_the_files_span(shapes, models, name):
    shape, model = shapes[name], models[name]
    points = np.vstack([world(p) for p in model.parts])
    assert np.linalg.norm(points, axis=1).max() <= model.radius + 1e-6
    assert model.radius >= 0.5 * shape.wing.span
    body = model.parts[0].mesh.positions
    assert body[:, 1].max() == pytest.approx(0.5 * shape.wing.span, rel=0.01)
    assert body[:, 1].min() == pytest.approx(-0.5 * shape.wing.span, rel=0.01)


@pytest.mark.parametrize("name", NAMES)
def test_wheels_touch_their_contact_points_and_rise_with_the_leg(shapes, models, name):
    shape, model = shapes[name], models[name]
    gear = np.zeros((len(shape.gear), 2))
    for c in shape.wheels:
        points = world(model.part(f"wheel:{c.name}"))
        bottom = points[points[:, 2] < points[:, 2].min() + 1e-5]
        assert bottom[:, 2].mean() == pytest.approx(c.position[2], abs=1e-5)
        assert bottom[:, 0].mean() == pytest.approx(c.position[0], abs=1e-5)
        gear[c.gear_index, 0] = 0.2
    for c in shape.wheels:
        part = model.part(f"wheel:{c.name}")
        assert world(part, gear=gear) == pytest.approx(world(part) + [0.0, 0.0, 0.2], abs=1e-5)
    if shape.wheels:                              # nothing else hangs below the wheels
        lowest = min(c.position[2] for c in shape.wheels)
        assert min(world(p)[:, 2].min() for p in model.parts) >= lowest - 1e-5


def _trailing_edge_move(part, row, degrees):
    """The rearmost vertex of a hinged part at rest and with ``degrees`` in row ``row`` (column 0)."""
    rest = world(part)
    te = np.argmin(rest[:, 0])
    deflections = np.zeros((5, 2))
    deflections[row, 0] = degrees
    return world(part, deflections)[te] - rest[te]


@pytest.mark.parametrize("name", NAMES)
def test_surfaces_deflect_with_jsbsims_signs(models, name):
    """+ elevator, aileron and flap: trailing edge down; + rudder: trailing edge left (+y)."""
    model = models[name]
    for part in model.parts:
        if part.kind != "hinged":
            continue
        assert part.column == 0
        down = _trailing_edge_move(part, part.element, 25.0)
        up = _trailing_edge_move(part, part.element, -25.0)
        if part.element == RUDDER:
            assert down[1] > 0.05 and up[1] < -0.05, part.name
            assert abs(down[2]) < 0.2 * abs(down[1])
        else:
            assert down[2] < -0.05 and up[2] > 0.05, part.name
            assert abs(down[1]) < 0.2 * abs(down[2]), part.name
        other = (part.element + 1) % 5               # another row leaves it alone
        assert np.allclose(_trailing_edge_move(part, other, 15.0), 0.0)
    # Right roll in JSBSim's terms (left aileron +, right −): the left trailing edge goes down, the right up.
    deflections = np.zeros((5, 2))
    deflections[LEFT_AILERON, 0], deflections[RIGHT_AILERON, 0] = 15.0, -15.0
    for part, sign in ((model.part("aileron:left"), -1.0), (model.part("aileron:right"), 1.0)):
        rest = world(part)
        te = np.argmin(rest[:, 0])
        assert sign * (world(part, deflections)[te, 2] - rest[te, 2]) > 0.02, part.name
    if "flap:left" in [p.name for p in model.parts]:
        flap = model.part("flap:left")
        assert flap.element == FLAP


def test_the_hinges_stay_put(models):
    """A surface turns about its hinge: the hinge point and the hinge line's direction do not move."""
    for model in models.values():
        for part in model.parts:
            if part.kind != "hinged":
                continue
            deflections = np.zeros((5, 2))
            deflections[part.element, 0] = 25.0
            moved, rest = part.matrix(deflections), part.matrix(np.zeros((5, 2)))
            assert moved[:3, 3] == pytest.approx(rest[:3, 3])
            assert moved[:3, 1] == pytest.approx(rest[:3, 1])
            assert not np.allclose(moved, rest)


def test_cockpit_eye_is_the_files_eyepoint_in_the_cabin(shapes, models):
    for name in ("c172p", "t6texan2", "A4", "737"):
        model = models[name]
        assert model.cockpit_eye == pytest.approx(shapes[name].eye)
        x = np.concatenate([model.part("nose").mesh.positions[:, 0], model.part("cabin").mesh.positions[:, 0]])
        assert x.min() < model.cockpit_eye[0] < x.max()


def test_build_airplane_draws_a_jsbsim_aircraft_from_its_files_shape(shapes, models):
    """The physics keeps no shape: the scene reads it from the loaded aircraft's file when it draws."""
    aircraft = load_aircraft("jsbsim:737")
    assert not hasattr(aircraft, "shape")
    assert shape_of(aircraft).wing.span == shapes["737"].wing.span and shape_of(load_aircraft("c172")) is None
    model = build_airplane(aircraft)
    assert [p.name for p in model.parts] == [p.name for p in models["737"].parts]
    assert model.radius == pytest.approx(models["737"].radius)


def test_less_detail_fewer_triangles_same_parts(shapes, models):
    low = build_from_shape(shapes["c172p"], detail=0.4)
    full = models["c172p"]
    assert [p.name for p in low.parts] == [p.name for p in full.parts]
    assert sum(p.mesh.indices.size for p in low.parts) < 0.8 * sum(p.mesh.indices.size for p in full.parts)
    assert sum(p.mesh.indices.size for p in full.parts) // 3 < 8000          # light enough for llvmpipe


def test_too_many_parts_fold_into_the_body():
    """A four-engined bomber keeps within the renderer's parts: its extra propellers join the body, still drawn."""
    shape = Shape.read("jsbsim:B17")
    model = build_from_shape(shape)
    assert len(model.parts) <= MAX_PARTS
    spinning = [p.pre[:3, 3] for p in model.parts if p.kind == "propeller"]
    assert 1 <= len(spinning) < len(shape.engines)
    body = model.parts[0].mesh.positions
    for engine in shape.engines:
        if not any(np.allclose(engine.position, hub) for hub in spinning):
            assert np.linalg.norm(body - engine.position, axis=1).min() < 0.5 * engine.diameter


# ------------------------------------------------------------------------------------------ real pixels


@pytest.fixture(scope="module")
def painter(headless_gl):
    """``paint(model, direction, up, show=True) -> (image, (view_proj, eye), airplane position)``: the model alone
    high over the field, seen from far along ``direction`` (a narrow field of view: nearly a parallel projection;
    propellers hidden)."""
    from flightsim.app.scene.camera import View, look_rotation
    from flightsim.app.scene.renderer import SceneRenderer, read_pixels
    from flightsim.app.scene.scenery import build_scenery
    from flightsim.app.window import open_window

    window = open_window(480, 480, visible=False)
    state = {}
    position = np.array([0.0, 0.0, 3000.0])

    def paint(model, direction, up, show=True, fov=10.0):
        window.switch_to()
        if "scene" not in state:
            state["scene"] = SceneRenderer(model, build_scenery())
        scene = state["scene"]
        if scene.model is not model:
            scene.set_airplane(model)
        d = np.asarray(direction, dtype=np.float64)
        d /= np.linalg.norm(d)
        eye = position - d * model.radius / math.tan(math.radians(0.5 * fov)) * 1.08
        view = View(eye, look_rotation(d, up), fov, 1.0, 1e6)
        size = window.get_framebuffer_size()
        hidden = [i for i, p in enumerate(model.parts) if p.kind == "propeller"]
        scene.draw(view, size, position, np.eye(3), model.part_matrices(np.zeros((5, 2))), show_airplane=show,
                   hidden=hidden)
        image = read_pixels(*size)
        return image, (view.view_proj(size[0] / size[1]), eye), position

    yield paint
    window.close()


def silhouette(paint, model, direction, up):
    with_plane, camera, position = paint(model, direction, up)
    without, _, _ = paint(model, direction, up, show=False)
    mask = np.any(np.abs(with_plane.astype(int) - without.astype(int)) > 12, axis=2)
    return mask, with_plane, camera, position


def project(camera, point, size=480):
    """Pixel (column, row from the top) of an earth-frame point (``camera``: view-projection, eye; the renderer
    draws relative to the eye)."""
    view_proj, eye = camera
    p = view_proj @ np.append(np.asarray(point, dtype=np.float64) - eye, 1.0)
    ndc = p[:3] / p[3]
    return (0.5 * (ndc[0] + 1.0) * size, 0.5 * (1.0 - ndc[1]) * size)


PIXEL_NAMES = ("SGS", "c172p", "t6texan2", "737")


def test_the_silhouettes_tell_a_glider_a_trainer_and_an_airliner_apart(painter, shapes, models):
    ratio, colour = {}, {}
    for name in PIXEL_NAMES:
        model = models[name]
        # From above, nose up the screen: span across, length along.
        mask, image, _, _ = silhouette(painter, model, [0.0, 0.0, -1.0], [1.0, 0.0, 0.0])
        rows, cols = np.nonzero(mask)
        assert len(rows) > 500, name
        measured = np.ptp(cols) / np.ptp(rows)
        drawn = np.vstack([world(p) for p in model.parts if p.kind != "propeller"])
        assert measured == pytest.approx(np.ptp(drawn[:, 1]) / np.ptp(drawn[:, 0]), rel=0.08), name
        ratio[name] = measured
        colour[name] = image[mask].mean(axis=0)
        if SHOTS:
            from flightsim.app.scene.renderer import save_png

            save_png(image, SHOTS / f"{name}-top.png")
            three_quarter, _, _ = painter(model, [-0.75, -0.62, -0.42], [0.0, 0.0, 1.0], fov=30.0)
            save_png(three_quarter, SHOTS / f"{name}-three-quarter.png")
    # A glider's wing is long for its fuselage, an airliner's is not.
    assert ratio["SGS"] > 1.5 * ratio["737"]
    assert ratio["SGS"] > ratio["c172p"] > ratio["737"]
    # The glider is white, the trainer yellow.
    r, g, b = colour["SGS"]
    assert min(r, g, b) > 150 and max(r, g, b) - min(r, g, b) < 40
    r, g, b = colour["t6texan2"]
    assert r > b + 60 and g > b + 40


def test_seen_from_ahead_the_172s_wing_is_above_its_fuselage_and_the_737s_below(painter, shapes, models):
    for name, high in (("c172p", True), ("737", False), ("t6texan2", False)):
        shape, model = shapes[name], models[name]
        f = shape.fuselage
        # Looking aft from ahead: the airplane's left (+y) is on the screen's right.
        mask, image, camera, position = silhouette(painter, model, [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0])
        x = shape.wing.root[0]
        column, axis_row = project(camera, position + [x, 0.6 * f.width, f.axis_z])
        _, top_row = project(camera, position + [x, 0.6 * f.width, f.axis_z + 0.5 * f.height])
        half_height = axis_row - top_row                     # pixels; rows count down the screen
        rows = np.nonzero(mask[:, int(round(column))])[0]    # just outside the fuselage's side
        assert len(rows) > 0, name
        breaks = np.nonzero(np.diff(rows) > 1)[0]
        runs = np.split(rows, breaks + 1)
        wing = runs[0] if high else runs[-1]                 # a strut hangs under a high wing, gear under a low one
        above = (axis_row - wing.mean()) / half_height
        # more than 0.2 fuselage heights (0.4 half-heights) off the axis, the margin of the shape's own rule
        assert above > 0.4 if high else above < -0.4, (name, above)
        if SHOTS:
            from flightsim.app.scene.renderer import save_png

            save_png(image, SHOTS / f"{name}-front.png")

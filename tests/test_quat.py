"""Quaternion algebra against hand-derived values and independent formulas."""

import math

import numpy as np
import pytest

from flightsim.math import kernels, quat

RNG = np.random.default_rng(7)


def random_quats(n):
    q = RNG.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def test_hamilton_product_of_units():
    one, i, j, k = np.eye(4)
    assert np.array_equal(quat.mul(i, j), k)
    assert np.array_equal(quat.mul(j, k), i)
    assert np.array_equal(quat.mul(k, i), j)
    assert np.array_equal(quat.mul(j, i), -k)
    assert np.array_equal(quat.mul(i, i), -one)


def test_product_matches_book_formula():
    # Bourg: qp = n_q n_p − v_q·v_p + n_q v_p + n_p v_q + v_q × v_p
    a, b = random_quats(2)
    scalar = a[0] * b[0] - a[1:] @ b[1:]
    vector = a[0] * b[1:] + b[0] * a[1:] + np.cross(a[1:], b[1:])
    assert np.allclose(quat.mul(a, b), np.r_[scalar, vector], atol=1e-15)


def test_rotate_is_sandwich_product_and_matrix():
    q = random_quats(50)
    v = RNG.normal(size=(50, 3))
    pure = np.concatenate([np.zeros((50, 1)), v], axis=1)
    sandwich = quat.mul(quat.mul(q, pure), quat.conj(q))
    assert np.allclose(quat.rotate(q, v), sandwich[:, 1:], atol=1e-14)
    assert np.allclose(quat.rotate(q, v), np.einsum("nij,nj->ni", quat.to_matrix(q), v), atol=1e-14)


def test_matrix_is_proper_rotation_and_round_trips():
    q = random_quats(200)
    R = quat.to_matrix(q)
    assert np.allclose(R @ np.transpose(R, (0, 2, 1)), np.eye(3), atol=1e-14)
    assert np.allclose(np.linalg.det(R), 1.0)
    back = quat.from_matrix(R)
    assert np.allclose(np.abs(np.sum(back * q, axis=1)), 1.0, atol=1e-14)  # q or −q
    # 180° turns are the hard case for a trace-based extraction.
    for axis in np.eye(3):
        half_turn = quat.from_axis_angle(axis, np.pi)
        assert quat.angle_between(quat.from_matrix(quat.to_matrix(half_turn)), half_turn) < 1e-7


def test_from_euler_matches_book_example():
    q = quat.from_euler(*np.radians([5.0, 7.0, 10.0]))
    assert np.allclose(q, [0.9936223, 0.0380567, 0.0645529, 0.0842576], atol=5e-8)


def test_from_euler_is_yaw_pitch_roll_product():
    r, p, y = 0.3, -0.4, 1.1
    qx = quat.from_axis_angle([1.0, 0, 0], r)
    qy = quat.from_axis_angle([0, 1.0, 0], p)
    qz = quat.from_axis_angle([0, 0, 1.0], y)
    assert np.allclose(quat.from_euler(r, p, y), quat.mul(qz, quat.mul(qy, qx)), atol=1e-15)


def test_euler_round_trip_away_from_lock():
    angles = np.column_stack(
        [RNG.uniform(-3.1, 3.1, 500), RNG.uniform(-1.5, 1.5, 500), RNG.uniform(-3.1, 3.1, 500)]
    )
    back = quat.to_euler(quat.from_euler(*angles.T))
    assert np.allclose(back, angles, atol=1e-9)


@pytest.mark.parametrize("pitch", [np.pi / 2, -np.pi / 2])
def test_euler_at_gimbal_lock_gives_the_same_rotation_and_no_nan(pitch):
    q = quat.from_euler(0.7, pitch, -0.4)
    e = quat.to_euler(q)
    assert np.all(np.isfinite(e))
    assert e[0] == 0.0  # the book's branch sets roll to zero
    assert e[1] == pytest.approx(pitch, abs=1e-7)
    assert np.allclose(quat.to_matrix(quat.from_euler(*e)), quat.to_matrix(q), atol=1e-6)


def test_aviation_signs():
    right_wing = np.array([0.0, -1.0, 0.0])  # body y points left
    nose = np.array([1.0, 0.0, 0.0])
    q = quat.from_aviation_angles(10.0, 0.0, 0.0)
    assert quat.rotate(q, right_wing)[2] < 0  # roll + : right wing down
    q = quat.from_aviation_angles(0.0, 10.0, 0.0)
    assert quat.rotate(q, nose)[2] > 0  # pitch + : nose up
    q = quat.from_aviation_angles(0.0, 0.0, 90.0)
    assert np.allclose(quat.rotate(q, nose), [0.0, -1.0, 0.0], atol=1e-15)  # 90° clockwise = East = −y
    assert np.allclose(quat.aviation_angles(quat.from_aviation_angles(12.0, -5.0, 271.0)), [12.0, -5.0, 271.0])
    assert quat.aviation_angles(np.array([1.0, 0, 0, 0]))[2] == 0.0


def test_the_compiled_aviation_angles_are_the_arrays_own():
    # random attitudes, unnormalised, and pitch through ±90° (the gimbal-lock branch)
    q = RNG.normal(size=(2000, 4))
    lock = np.linspace(-1e-4, 1e-4, 11) + 0.5 * np.pi
    q[:22] = np.concatenate([[[np.cos(0.5 * a), 0.0, s * np.sin(0.5 * a), 0.0] for a in lock] for s in (1.0, -1.0)])
    expected = quat.aviation_angles(q)
    got = np.array([kernels.aviation_angles_of(*row) for row in q])
    difference = np.abs(got - expected)
    difference[:, 2] = np.minimum(difference[:, 2], 360.0 - difference[:, 2])
    assert np.max(difference) < 1e-9
    assert np.all((got[:, 2] >= 0.0) & (got[:, 2] < 360.0))


def test_rotation_vector_round_trip_and_small_angles():
    phi = RNG.normal(size=(100, 3))
    phi *= (RNG.uniform(0, 3.0, 100) / np.linalg.norm(phi, axis=1))[:, None]
    assert np.allclose(quat.to_rotation_vector(quat.from_rotation_vector(phi)), phi, atol=1e-12)
    tiny = np.array([1e-12, -2e-12, 3e-12])
    assert np.allclose(quat.to_rotation_vector(quat.from_rotation_vector(tiny)), tiny, rtol=1e-9, atol=0)


def test_batch_equals_single():
    q = random_quats(5)
    p = random_quats(5)
    v = RNG.normal(size=(5, 3))
    for i in range(5):
        assert np.array_equal(quat.mul(q, p)[i], quat.mul(q[i], p[i]))
        assert np.array_equal(quat.rotate(q, v)[i], quat.rotate(q[i], v[i]))
        assert np.array_equal(quat.to_euler(q)[i], quat.to_euler(q[i]))
        assert np.array_equal(quat.to_matrix(q)[i], quat.to_matrix(q[i]))
        assert np.allclose(quat.from_matrix(quat.to_matrix(q))[i], quat.from_matrix(quat.to_matrix(q[i])))
        assert np.array_equal(quat.normalize(2 * q)[i], quat.normalize(2 * q[i]))
        assert np.array_equal(quat.conj(q)[i], quat.conj(q[i]))


def test_nlerp_takes_the_short_way():
    a = quat.from_axis_angle([0, 0, 1.0], 0.2)
    b = -quat.from_axis_angle([0, 0, 1.0], 0.4)  # same orientation as +, opposite sign
    mid = quat.nlerp(a, b, 0.5)
    assert quat.angle_between(mid, quat.from_axis_angle([0, 0, 1.0], 0.3)) < 1e-3
    assert np.allclose(quat.nlerp(a, b, 0.0), a)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: quat.normalize([0.0, 0.0, 0.0, 0.0]), "zero quaternion"),
        (lambda: quat.normalize([1.0, np.nan, 0.0, 0.0]), "non-finite"),
        (lambda: quat.mul([1.0, 0.0, 0.0], [1.0, 0, 0, 0]), "shape"),
        (lambda: quat.rotate([1.0, 0, 0, 0], [1.0, 2.0]), "shape"),
        (lambda: quat.to_euler([[0.0, 0.0, 0.0, 0.0]]), "zero quaternion"),
        (lambda: quat.from_matrix(np.eye(4)), "shape"),
        (lambda: quat.rotate([np.inf, 0, 0, 0], [1.0, 2.0, 3.0]), "non-finite"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_arcsin_is_libm_asin_within_an_ulp():
    # Cephes' asin written out (both branches, one kept): what the loads' angle of attack and the batch's SIMD
    # lanes use; within one unit in the last place of libm's everywhere on [-1, 1], odd, exact at the ends
    rng = np.random.default_rng(0)
    xs = np.concatenate([np.linspace(-1.0, 1.0, 4001), rng.uniform(-1.0, 1.0, 4000), rng.uniform(-1e-6, 1e-6, 200),
                         [0.625, np.nextafter(0.625, 1.0), np.nextafter(0.625, 0.0), 1e-300, 0.0]])
    got = np.array([kernels.arcsin(x) for x in xs])
    want = np.array([math.asin(x) for x in xs])
    assert np.all(np.abs(got - want) <= np.spacing(np.abs(want)))
    assert np.mean(got == want) > 0.8
    np.testing.assert_array_equal([kernels.arcsin(-x) for x in xs], -got)
    assert kernels.arcsin(1.0) == math.pi / 2 and kernels.arcsin(-1.0) == -math.pi / 2
    # one value at a time (the single airplane's loads): the same numbers, bit for bit
    np.testing.assert_array_equal([kernels.arcsin_one(x) for x in xs], got)

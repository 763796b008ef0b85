"""Quaternion algebra for orientations, scalar first: ``q = [w, x, y, z]``.

Every function accepts one quaternion of shape ``(4,)`` or a batch ``(N, 4)``
(vectors ``(3,)`` / ``(N, 3)``, matrices ``(3, 3)`` / ``(N, 3, 3)``) and
returns the matching shape.  Arrays are float64.

A unit quaternion ``q`` maps body-frame vectors to the earth frame:
``v_earth = q ⊗ (0, v_body) ⊗ q*`` (Bourg's ``QVRotate``).  Frames follow
Bourg, *Physics for Game Developers*, ch. 11 and 15: earth x North, y West,
z up; body x forward, y left, z up.

Euler angles here are the book's (roll about x, pitch about y, yaw about z,
applied z-y-x, radians), which with the body y axis pointing left means a
positive pitch is nose *down* and a positive yaw turns the nose West.
:func:`aviation_angles` converts to what a pilot reads.
"""

import numpy as np

from flightsim.math import kernels

#: |r31| above which :func:`to_euler` takes the book's gimbal-lock branch.
GIMBAL_LOCK = kernels.GIMBAL_LOCK


def _array(value, name, width):
    """Return ``value`` as float64 of shape (width,) or (N, width); raise ValueError otherwise."""
    a = np.asarray(value, dtype=np.float64)
    if a.ndim not in (1, 2) or a.shape[-1] != width:
        raise ValueError(f"{name}: expected shape ({width},) or (N, {width}), got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name}: contains a non-finite value")
    return a


def as_quat(q, name="q"):
    """Validate a quaternion or a batch of them (finite, shape (4,) or (N, 4), not zero).

    Returns
    -------
    numpy.ndarray
        float64 copy-free view when possible.

    Raises
    ------
    ValueError
        Naming ``name`` and the reason (shape, non-finite, zero).
    """
    a = _array(q, name, 4)
    if np.any(np.einsum("...i,...i->...", a, a) == 0.0):
        raise ValueError(f"{name}: zero quaternion has no orientation")
    return a


def as_vec(v, name="v"):
    """Validate a 3-vector or a batch ``(N, 3)`` of them (finite float64)."""
    return _array(v, name, 3)


def mul(a, b):
    """Hamilton product ``a ⊗ b`` (Bourg's ``operator*``), broadcasting batches."""
    a = _array(a, "a", 4)
    b = _array(b, "b", 4)
    aw, ax, ay, az = np.moveaxis(a, -1, 0)
    bw, bx, by, bz = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by + ay * bw + az * bx - ax * bz,
            aw * bz + az * bw + ax * by - ay * bx,
        ],
        axis=-1,
    )


def conj(q):
    """Conjugate ``q* = [w, -x, -y, -z]``: the inverse rotation of a unit quaternion."""
    q = _array(q, "q", 4)
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def norm(q):
    """Euclidean norm ``|q|`` (a float for one quaternion, shape (N,) for a batch)."""
    q = _array(q, "q", 4)
    return np.sqrt(np.einsum("...i,...i->...", q, q))


def normalize(q):
    """Scale to unit norm.  A zero quaternion raises ``ValueError`` instead of giving NaN."""
    q = as_quat(q)
    return q / norm(q)[..., None]


def rotate(q, v):
    """Rotate ``v`` by ``q``: ``q ⊗ (0, v) ⊗ q*`` (Bourg's ``QVRotate``), body → earth.

    One compiled formula (:func:`flightsim.kernels.qv_rotate`) serves this and
    the airplane's loads.
    """
    q = as_quat(q)
    v = as_vec(v)
    shape = np.broadcast_shapes(q.shape[:-1], v.shape[:-1])
    qb = np.ascontiguousarray(np.broadcast_to(q, shape + (4,)).reshape(-1, 4))
    vb = np.ascontiguousarray(np.broadcast_to(v, shape + (3,)).reshape(-1, 3))
    return kernels.rotate_rows(qb, vb, np.empty_like(vb)).reshape(shape + (3,))


def from_axis_angle(axis, angle):
    """Unit quaternion rotating by ``angle`` (rad) about the unit vector ``axis``."""
    axis = as_vec(axis, "axis")
    half = 0.5 * np.asarray(angle, dtype=np.float64)[..., None]
    return np.concatenate([np.cos(half), np.sin(half) * axis], axis=-1)


def from_rotation_vector(phi):
    """Unit quaternion ``exp(phi / 2)``: the rotation by angle ``|phi|`` about ``phi``."""
    phi = as_vec(phi, "phi")
    theta = np.sqrt(np.einsum("...i,...i->...", phi, phi))[..., None]
    half = 0.5 * theta
    # sin(θ/2)/θ written so that θ = 0 is exact (np.sinc(x) = sin(πx)/(πx)).
    scale = 0.5 * np.sinc(half / np.pi)
    return np.concatenate([np.cos(half), scale * phi], axis=-1)


def to_rotation_vector(q):
    """Rotation vector (axis × angle, rad) of a unit quaternion, angle in [0, π]."""
    q = normalize(q)
    q = np.where(q[..., :1] < 0.0, -q, q)
    s = np.sqrt(np.einsum("...i,...i->...", q[..., 1:], q[..., 1:]))[..., None]
    angle = 2.0 * np.arctan2(s, q[..., :1])
    # angle/s → 2/w as s → 0, so small rotations keep full precision.
    scale = np.where(s > 1e-12, angle / np.where(s > 1e-12, s, 1.0), 2.0 / q[..., :1])
    return q[..., 1:] * scale


def angle_between(a, b):
    """Angle (rad) of the rotation taking orientation ``a`` to ``b``; sign-blind (q ≡ −q)."""
    d = mul(conj(normalize(a)), normalize(b))
    # atan2 of the relative rotation keeps full precision for tiny angles (arccos would not).
    s = np.sqrt(np.einsum("...i,...i->...", d[..., 1:], d[..., 1:]))
    return 2.0 * np.arctan2(s, np.abs(d[..., 0]))


def from_euler(roll, pitch, yaw):
    """Bourg's ``MakeQFromEulerAngles``: ``q = q_yaw ⊗ q_pitch ⊗ q_roll`` (radians).

    Angles are the book's: rotations about body x, y, z (y left, z up), so a
    positive pitch is nose down.  Scalars give shape (4,), arrays (N, 4).
    """
    r, p, y = (0.5 * np.asarray(a, dtype=np.float64) for a in (roll, pitch, yaw))
    cr, sr = np.cos(r), np.sin(r)
    cp, sp = np.cos(p), np.sin(p)
    cy, sy = np.cos(y), np.sin(y)
    return np.stack(
        [
            cy * cp * cr + sy * sp * sr,
            cy * cp * sr - sy * sp * cr,
            cy * sp * cr + sy * cp * sr,
            sy * cp * cr - cy * sp * sr,
        ],
        axis=-1,
    )


def to_euler(q):
    """Bourg's ``MakeEulerAnglesFromQ``: (roll, pitch, yaw) in radians, book signs.

    When ``|r31| > 0.999999`` (pitch at ±90°) the book's gimbal-lock branch
    is taken: roll = 0, pitch = −(π/2)·sign(r31), yaw = atan2(−r12, −r31·r13),
    so pitch ±90° never gives NaN.  The quaternion is normalised first.

    Returns
    -------
    numpy.ndarray
        Shape (3,) or (N, 3): ``[roll, pitch, yaw]``.
    """
    q = normalize(q)
    n, x, y, z = np.moveaxis(q, -1, 0)
    r11 = n * n + x * x - y * y - z * z
    r21 = 2.0 * (x * y + z * n)
    r31 = 2.0 * (x * z - y * n)
    r32 = 2.0 * (y * z + x * n)
    r33 = n * n - x * x - y * y + z * z
    r12 = 2.0 * (x * y - z * n)
    r13 = 2.0 * (x * z + y * n)
    locked = np.abs(r31) > GIMBAL_LOCK
    roll = np.where(locked, 0.0, np.arctan2(r32, r33))
    pitch = np.where(locked, -0.5 * np.pi * np.sign(r31), np.arcsin(np.clip(-r31, -1.0, 1.0)))
    yaw = np.where(locked, np.arctan2(-r12, -r31 * r13), np.arctan2(r21, r11))
    return np.stack([roll, pitch, yaw], axis=-1)


def aviation_angles(q):
    """Roll, pitch, heading in degrees with the signs a pilot reads.

    Roll positive right wing down, pitch positive nose up, heading in
    [0, 360) clockwise from North — derived from :func:`to_euler` with the
    book's body y axis pointing left (so book pitch and yaw change sign).
    """
    roll, pitch, yaw = np.moveaxis(np.degrees(to_euler(q)), -1, 0)
    heading = np.mod(-yaw, 360.0)
    heading = np.where(heading >= 360.0, 0.0, heading)
    return np.stack([roll, -pitch + 0.0, heading], axis=-1)


def from_aviation_angles(roll_deg, pitch_deg, heading_deg):
    """Inverse of :func:`aviation_angles`: pilot's roll, pitch, heading (deg) → q."""
    return from_euler(np.radians(roll_deg), -np.radians(pitch_deg), -np.radians(heading_deg))


def to_matrix(q):
    """Rotation matrix body → earth (``v_earth = R v_body``) of a quaternion (normalised first)."""
    q = normalize(q)
    rows = np.ascontiguousarray(q.reshape(-1, 4))
    return kernels.matrix_rows(rows, np.empty((len(rows), 3, 3))).reshape(q.shape[:-1] + (3, 3))


def from_matrix(R):
    """Unit quaternion (w ≥ 0) of a rotation matrix body → earth.

    Shepperd's method (:func:`flightsim.kernels.matrix_to_quat`): the largest
    of w, x, y, z is the pivot, so every rotation (180° included) is
    recovered accurately.
    """
    R = np.asarray(R, dtype=np.float64)
    if R.ndim not in (2, 3) or R.shape[-2:] != (3, 3):
        raise ValueError(f"R: expected shape (3, 3) or (N, 3, 3), got {R.shape}")
    if not np.all(np.isfinite(R)):
        raise ValueError("R: contains a non-finite value")
    single = R.ndim == 2
    rows = np.ascontiguousarray(R.reshape(-1, 3, 3))
    q = kernels.quat_rows(rows, np.empty((len(rows), 4)))
    q = np.where(q[:, :1] < 0.0, -q, q)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q[0] if single else q


def nlerp(a, b, t):
    """Hemisphere-checked normalised linear interpolation from ``a`` (t=0) to ``b`` (t=1).

    ``b`` is negated when ``a·b < 0`` so the path is the short way round;
    ``pyrr.quaternion.slerp`` lacks that check and is not used here.
    """
    a = as_quat(a, "a")
    b = as_quat(b, "b")
    dot = np.einsum("...i,...i->...", a, b)[..., None]
    b = np.where(dot < 0.0, -b, b)
    return normalize((1.0 - t) * a + t * b)

"""Quaternions and sensor noise on tip data (the columns of tip.csv, docs/input-data.md), shared by
scripts/predict_noise.py and scripts/reconstruction_scenarios.py."""
import math

import numpy as np


def quat_mul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def rotation(q):
    """The rotation matrix of the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def add_noise(data, sr, sa, se, rng):
    """Tip rows (t, x, y, z, qw, qx, qy, qz, 6 strains) with Gaussian noise: sr [m] on positions, an
    isotropic rotation vector of sa [rad] per axis applied on the right of each quaternion, se on
    the strains."""
    out = data.copy()
    out[:, 1:4] += sr * rng.standard_normal((len(out), 3))
    for row in out:
        v = sa * rng.standard_normal(3)
        th = np.linalg.norm(v)
        if th > 0:
            q = quat_mul(row[4:8], np.r_[math.cos(th / 2), math.sin(th / 2) * v / th])
            row[4:8] = q / np.linalg.norm(q)
    out[:, 8:14] += se * rng.standard_normal((len(out), 6))
    return out

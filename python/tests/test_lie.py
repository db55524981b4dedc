"""libfield.lie: the group kernel on arrays against its definitions (docs/lie-groups.md)."""
import numpy as np
import pytest

import libfield

GROUPS = [libfield.lie.SE3Cayley, libfield.lie.SE3Exp, libfield.lie.SE2Cayley]


def hat(G, x):
    """The algebra vector as a matrix: SE(3) (omega, v), SE(2) (omega, v1, v2)."""
    n = 4 if G.dim == 6 else 3
    m = np.zeros(x.shape[:-1] + (n, n))
    if G.dim == 6:
        w = x[..., :3]
        m[..., 0, 1], m[..., 0, 2], m[..., 1, 2] = -w[..., 2], w[..., 1], -w[..., 0]
        m[..., 1, 0], m[..., 2, 0], m[..., 2, 1] = w[..., 2], -w[..., 1], w[..., 0]
        m[..., :3, 3] = x[..., 3:]
    else:
        m[..., 0, 1], m[..., 1, 0] = -x[..., 0], x[..., 0]
        m[..., :2, 2] = x[..., 1:]
    return m


@pytest.mark.parametrize("G", GROUPS)
def test_tau_inverse_adjoint_and_the_dual(G):
    rng = np.random.default_rng(1)
    x = 0.5 * rng.standard_normal((5, 3, G.dim))
    g = G.tau(x)
    assert g.shape == (5, 3) + ((4, 4) if G.dim == 6 else (3, 3))
    assert np.allclose(G.tau_inv(g), x, atol=1e-13)
    h = G.tau(0.3 * rng.standard_normal((5, 3, G.dim)))
    assert np.allclose(G.compose(g, G.inverse(g)), np.eye(g.shape[-1]), atol=1e-14)
    assert np.allclose(G.compose(g, h), g @ h, atol=1e-14)
    # (Ad_g y)^ = g y^ g^-1, and Ad* is its transpose.
    y = rng.standard_normal((5, 3, G.dim))
    Ad = G.Ad(g)
    assert np.allclose(hat(G, np.einsum("...ij,...j->...i", Ad, y)),
                       g @ hat(G, y) @ np.linalg.inv(g), atol=1e-13)
    assert np.allclose(G.Ad_dual(g, y), np.einsum("...ji,...j->...i", Ad, y), atol=1e-14)


@pytest.mark.parametrize("G", GROUPS)
def test_dtau_inverse_against_finite_differences(G):
    """d/de tau(x + e y) = (dtau_x y)^ tau(x): dtau^{-1}_x of the central difference is y."""
    rng = np.random.default_rng(2)
    x = 0.4 * rng.standard_normal((4, G.dim))
    y = rng.standard_normal((4, G.dim))
    e = 1e-6
    d = (G.tau(x + e * y) - G.tau(x - e * y)) / (2 * e) @ np.linalg.inv(G.tau(x))
    n = d.shape[-1]
    # vee of the right-trivialised derivative
    if G.dim == 6:
        v = np.stack([d[..., 2, 1], d[..., 0, 2], d[..., 1, 0], d[..., 0, 3], d[..., 1, 3],
                      d[..., 2, 3]], axis=-1)
    else:
        v = np.stack([d[..., 1, 0], d[..., 0, n - 1], d[..., 1, n - 1]], axis=-1)
    assert np.allclose(np.einsum("...ij,...j->...i", G.dtau_inv(x), v), y, atol=1e-8)
    p = rng.standard_normal((4, G.dim))
    assert np.allclose(G.dtau_inv_dual(x, p), np.einsum("...ji,...j->...i", G.dtau_inv(x), p),
                       atol=1e-14)


def test_shapes_are_checked():
    G = libfield.lie.SE3Cayley
    with pytest.raises(ValueError, match=r"SE3Cayley.tau: expected an array of shape \(\.\.\., 6\), got \(3, 5\)"):
        G.tau(np.zeros((3, 5)))
    with pytest.raises(ValueError, match="leading shapes"):
        G.compose(np.zeros((2, 4, 4)), np.zeros((3, 4, 4)))

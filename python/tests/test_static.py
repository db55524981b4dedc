"""libfield.static_solve against the `field static` program: the same row, the same figures."""
import json
import tomllib

import numpy as np
import pytest

import libfield
from conftest import mesh_case, read_csv


@pytest.mark.parametrize("name", ["static_cantilever", "static_arc"])
def test_the_static_solve_equals_the_program(name, field_program):
    run = libfield.static_solve(mesh_case(name))
    out = field_program("static", mesh_case(name))
    assert run.status == "converged"
    field = read_csv(out / "field.csv")
    assert run.positions.shape == (1, len(field["a"]), 3)
    for k, c in enumerate("xyz"):
        assert np.array_equal(run.positions[0, :, k], field[c]), c
    for k, c in enumerate(["qw", "qx", "qy", "qz"]):
        assert np.array_equal(run.quaternions[0, :, k], field[c]), c
    assert np.array_equal(run.s, field["s"])
    summary = json.loads((out / "summary.json").read_text())
    for key in ["load_fraction", "relative_residual", "newton_iterations", "halvings",
                "static_energy"]:
        assert getattr(run, key) == summary[key], key
    assert [s["fraction"] for s in run.steps] == summary["step_fraction"]
    assert [s["residuals"] for s in run.steps] == summary["step_residuals"]
    assert list(run.positions[0, -1]) == summary["tip_position"]


def test_the_static_row_holds_the_weight_and_the_callback_sees_every_step():
    """Static equilibrium of the cantilever under its weight w = rho A g (beam along e1, gravity
    along -e3): the bending moment M2 of segment a is the moment of the weight beyond its
    midpoint, the integral of w (x(s') - x(s_mid)) ds' over the deformed beam to s = L (x
    interpolated between the nodes), to the discretisation's O(ds^2) (measured 8e-4)."""
    seen = []
    run = libfield.static_solve(mesh_case("static_cantilever"),
                                callback=lambda k, f: seen.append((k, f)))
    assert [f for _, f in seen] == [s["fraction"] for s in run.steps]
    assert [k for k, _ in seen] == list(range(len(run.steps)))
    assert run.velocities.shape == (0, run.positions.shape[1], 6)
    w = 1000.0 * 0.1 * 0.1 * 9.81  # rho b^2 g of meshes/static_cantilever
    x, s = run.positions[0, :, 0], run.s
    for a in range(4):
        s_mid = (s[a] + s[a + 1]) / 2
        beyond = np.linspace(s_mid, 1.0, 20001)
        moment = np.trapz(w * (np.interp(beyond, s, x) - np.interp(s_mid, s, x)), beyond)
        assert run.stresses[0, a, 1] == pytest.approx(moment, rel=2e-3), a


def test_the_static_callback_can_stop_the_solve():
    """False after the first of the roll-up's twelve load steps: the solve stops there, with the
    row and fraction of that step."""
    seen = []

    def first_only(k, fraction):
        seen.append(fraction)
        return False

    run = libfield.static_solve(mesh_case("static_rollup"), callback=first_only)
    assert run.status == "stopped" and "stopped" in run.failure
    assert seen == [run.load_fraction] and run.load_fraction == pytest.approx(1 / 12)
    assert len(run.steps) == 1


def test_a_space_case_is_refused():
    with pytest.raises(ValueError, match="time-march case"):
        libfield.static_solve(mesh_case("space_evolution"))

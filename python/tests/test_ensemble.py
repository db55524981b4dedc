"""libfield.ensemble on a Dask LocalCluster of 2 worker processes: a parameter sweep and a
reconstruction over noise draws give each member's local result to the bit; a failed member is
reported with its case and the others are kept."""
import tomllib

import numpy as np
import pytest

import libfield
from conftest import mesh_case, read_table

distributed = pytest.importorskip("distributed")  # python3-distributed (scripts/install_deps.sh)
from libfield.ensemble import run_ensemble  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def free_flight(**grid):
    path = mesh_case("free_flight")
    with open(path, "rb") as f:
        table = tomllib.load(f)
    table["grid"].update(grid)
    return table, path


def test_a_sweep_keeps_every_member_and_reports_the_failed_one(client):
    cases = []
    for E in [1.0e5, 2.0e5]:
        table, path = free_flight(J=40)
        table["beam"]["E"] = E
        cases.append(libfield.load_case(table, name=path))
    bad, path = free_flight(J=40)
    bad["grid"]["dt"] = -1.0  # rejected when the worker loads the case
    cases.append(bad)
    result = run_ensemble(client, cases, "simulate", name=path,
                          keep=lambda run: {"E": run.series["E"], "tip": run.positions[:, 0]})
    assert result.succeeded() == [0, 1]
    assert result.results[2] is None
    [failure] = result.failures
    assert failure.index == 2 and "FieldError" in failure.error and "dt" in failure.error
    assert failure.case == f"free_flight ({path})"
    for i in (0, 1):
        local = libfield.simulate(cases[i])
        assert np.array_equal(result.results[i]["E"], local.series["E"])
        assert np.array_equal(result.results[i]["tip"], local.positions[:, 0])
    assert result.stack("E").shape == (2, len(local.series["E"]))
    assert not np.array_equal(result.results[0]["tip"], result.results[1]["tip"])


def test_a_reconstruction_over_noise_draws(client):
    path = mesh_case("space_evolution")
    tip = read_table(path.replace("case.toml", "tip.csv"))
    rng = np.random.default_rng(7)
    tips = []
    for _ in range(2):
        positions = np.stack([tip[c] for c in "xyz"], axis=-1)
        tips.append({"t": tip["t"], "positions": positions + 1e-9 * rng.standard_normal(positions.shape),
                     "quaternions": np.stack([tip[c] for c in ["qw", "qx", "qy", "qz"]], axis=-1),
                     "strains": np.stack([tip[c] for c in ["Omega1", "Omega2", "Omega3", "Gamma1",
                                                           "Gamma2", "Gamma3"]], axis=-1)})
    result = run_ensemble(client, [path] * 2, "reconstruct", tips=tips,
                          keep=lambda run: {"far": run.positions[:, -1]})
    assert result.failures == []
    far = result.stack("far")
    assert far.shape == (2, 301, 3)
    for i in range(2):
        assert np.array_equal(far[i], libfield.reconstruct(path, tip=tips[i]).positions[:, -1])
    spread = np.abs(far[0] - far[1]).max()  # the draws differ, and the noise is amplified
    assert 1e-9 < spread < 1e-3

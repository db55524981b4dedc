"""libfield.simulate against the `field` program and against its own definitions."""
import os
import threading
import tomllib

import numpy as np
import pytest

import libfield
from conftest import mesh_case, read_csv


@pytest.mark.parametrize("name", ["free_flight", "cantilever_gravity"])
def test_poses_and_series_equal_the_field_program(name, field_run):
    """Same computation as `field simulate`: field.csv and time_series.csv to the bit."""
    run = libfield.simulate(mesh_case(name))
    out = field_run(name)
    assert run.status == "completed"
    field = read_csv(out / "field.csv")
    n_t, n_s = run.positions.shape[:2]
    assert len(field["j"]) == n_t * n_s
    for k, c in enumerate("xyz"):
        assert np.array_equal(run.positions[..., k].ravel(), field[c])
    for k, c in enumerate(["qw", "qx", "qy", "qz"]):
        assert np.array_equal(run.quaternions[..., k].ravel(), field[c])
    assert np.array_equal(np.repeat(run.t, n_s), field["t"])
    assert np.array_equal(np.tile(run.s, n_t), field["s"])
    series = read_csv(out / "time_series.csv")
    assert list(run.series) == list(series)
    for c, values in series.items():
        assert np.array_equal(run.series[c], values), c


def test_case_from_a_dict_is_the_case_from_its_file():
    path = mesh_case("free_flight")
    with open(path, "rb") as f:
        table = tomllib.load(f)
    from_dict = libfield.simulate(libfield.load_case(table, name=path))
    from_file = libfield.simulate(path)
    assert np.array_equal(from_dict.poses, from_file.poses)
    assert np.array_equal(from_dict.series["E"], from_file.series["E"])


def test_velocities_strains_and_stresses_follow_their_definitions():
    """xi = tau^-1(g_j^-1 g_j+1)/dt, eta = tau^-1(g^a^-1 g^a+1)/ds (theory §3.1) through the
    module's own Lie kernel, and the stress of the diagonal quadratic law C (eta - eta0)."""
    case = libfield.load_case(mesh_case("free_flight"))
    run = libfield.simulate(case)
    G = libfield.lie.SE3Cayley
    g = run.poses
    xi = G.tau_inv(G.compose(G.inverse(g[:-1]), g[1:])) / case.dt
    eta = G.tau_inv(G.compose(G.inverse(g[:, :-1]), g[:, 1:])) / case.ds
    assert np.array_equal(run.velocities, xi)
    assert np.array_equal(run.strains, eta)
    # A diagonal law: each stress component is one constant times its strain's deviation from
    # the straight reference (0, 0, 0, 0, 0, 1), at every node and row.
    deviation = run.strains - np.array([0, 0, 0, 0, 0, 1.0])
    for k in range(6):
        d, m = deviation[..., k].ravel(), run.stresses[..., k].ravel()
        c = (d @ m) / (d @ d)
        assert c > 0, k
        assert np.max(np.abs(m - c * d)) <= 1e-9 * np.max(np.abs(m)), k


def test_threads_do_not_change_the_bits():
    one = libfield.simulate(mesh_case("free_flight"), threads=1)
    two = libfield.simulate(mesh_case("free_flight"), threads=2)
    assert np.array_equal(one.poses, two.poses)
    for c in one.series:
        assert np.array_equal(one.series[c], two.series[c]), c


def test_the_callback_sees_every_row_and_can_stop_the_march():
    seen = []

    def callback(j, t):
        seen.append((j, t))
        return j < 7

    run = libfield.simulate(mesh_case("free_flight"), callback=callback)
    assert run.status == "stopped"
    assert [j for j, _ in seen] == list(range(8))
    assert run.positions.shape[0] == 8
    assert np.array_equal(run.t, [t for _, t in seen])
    assert run.velocities.shape[0] == 7


def test_an_exception_in_the_callback_stops_the_march_and_is_raised():
    def callback(j, t):
        if j == 3:
            raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        libfield.simulate(mesh_case("free_flight"), callback=callback)


def test_the_gil_is_released_while_the_march_runs():
    """While one thread marches, another runs Python: with the GIL held by the march the loop
    below could not advance until the march returned."""
    case = libfield.load_case(mesh_case("cantilever_gravity"))
    started = threading.Event()
    result = {}

    def march():
        started.set()
        result["run"] = libfield.simulate(case)

    worker = threading.Thread(target=march)
    worker.start()
    started.wait()
    ticks = 0
    while worker.is_alive():
        ticks += 1
    worker.join()
    assert result["run"].status == "completed"
    assert ticks > 1000


def test_bad_input_raises_value_error_with_the_key():
    path = mesh_case("free_flight")
    with open(path, "rb") as f:
        table = tomllib.load(f)
    table["grid"]["dt"] = -1.0
    with pytest.raises(ValueError, match=r"case\.toml:\d+.*dt"):
        libfield.load_case(table)
    table["grid"]["dt"] = 0.005
    table["grid"]["colour"] = "red"
    with pytest.raises(libfield.FieldError, match="colour"):
        libfield.load_case(table)
    with pytest.raises(ValueError, match="a case value must be"):
        libfield.load_case({"name": object()})
    with pytest.raises(OSError, match="no_such_case.toml"):
        libfield.load_case("no_such_case.toml")
    with pytest.raises(ValueError, match="threads"):
        libfield.simulate(path, threads=0)
    with pytest.raises(ValueError, match="reconstruct"):
        libfield.simulate(mesh_case("space_evolution"))


def test_a_run_continued_from_a_checkpoint_is_refused_with_the_key(tmp_path):
    """[initial] checkpoint (`field simulate` continues a run, docs/cli.md) is not a whole march:
    a ValueError naming the case's key, for the beam on SE(3) and the planar beam alike."""
    for name in ["free_flight", "planar_cantilever"]:
        with open(mesh_case(name), "rb") as f:
            table = tomllib.load(f)
        table["initial"] = {"checkpoint": str(tmp_path / "checkpoint.txt")}
        with pytest.raises(ValueError, match=r"case\.toml:\d+: \[initial\] checkpoint = .*"
                                             r"does not continue a run; continue it with "
                                             r"`field simulate`"):
            libfield.simulate(libfield.load_case(table, name=mesh_case(name)))


def test_a_field_too_large_for_memory_raises_memory_error_before_the_march():
    """The whole field is kept as arrays: a run that cannot fit raises MemoryError naming the
    sizes (io::estimate_memory with the arrays' bytes per node) before anything is allocated."""
    path = mesh_case("free_flight")
    with open(path, "rb") as f:
        table = tomllib.load(f)
    table["grid"]["J"], table["grid"]["A"] = 10**9, 2000
    with pytest.raises(MemoryError) as raised:
        libfield.simulate(libfield.load_case(table, name=path))
    message = str(raised.value)
    assert "the whole field of 1000000001 x 2001 nodes kept in memory, 424 B per node" in message
    assert "available: use a smaller grid ([grid] A, J), or run the `field` program" in message
    # the figure: 424 B for each of the 1000000001 x 2001 nodes (the march's part is negligible)
    needed = float(message.split("needs about ")[1].split(" TiB")[0])
    assert needed == pytest.approx(424 * 1000000001 * 2001 / 2**40, rel=2e-3)


def assert_strided_rows_equal(run, out, stride):
    """positions, t and s of every stride-th row equal field.csv's, the series time_series.csv's;
    returns field.csv."""
    field = read_csv(out / "field.csv")
    j, a = field["j"].astype(int), field["a"].astype(int)
    assert set(j) == set(range(0, run.positions.shape[0], stride))
    for k, c in enumerate("xyz"):
        assert np.array_equal(run.positions[j, a, k], field[c]), c
    assert np.array_equal(run.t[j], field["t"]) and np.array_equal(run.s[a], field["s"])
    series = read_csv(out / "time_series.csv")
    assert list(run.series) == list(series)
    for c, values in series.items():
        assert np.array_equal(run.series[c], values), c
    return field


def test_the_planar_beam_equals_the_field_program(field_run):
    """theory = "planar_beam" (theory §1.7): the march on SE(2), its rows embedded in SE(3) as
    field.csv has them (every [output] stride-th row) and the series in the SE(3) columns."""
    run = libfield.simulate(mesh_case("planar_cantilever"))
    out = field_run("planar_cantilever")
    assert run.status == "completed" and run.theory == "planar_beam"
    field = assert_strided_rows_equal(run, out, 10)
    j, a = field["j"].astype(int), field["a"].astype(int)
    for k, c in enumerate(["qw", "qx", "qy", "qz"]):
        assert np.array_equal(run.quaternions[j, a, k], field[c]), c
    assert np.array_equal(run.positions[..., 2], np.zeros(run.positions.shape[:2]))  # the plane


def test_the_cable_equals_the_field_program(field_run):
    """theory = "cable" (theory §1.8): positions as field.csv (every [output] stride-th row),
    the series in the translation columns of time_series.csv, and the velocity, strain (1.8.1)
    and tension of the end a = 0 as tip.csv has them (the last row's velocity is the previous
    step's there)."""
    run = libfield.simulate(mesh_case("swinging_cable"))
    out = field_run("swinging_cable")
    assert run.status == "completed" and run.theory == "cable"
    assert_strided_rows_equal(run, out, 4)
    tip = read_csv(out / "tip.csv")
    assert np.array_equal(run.tensions[:, 0], tip["tension"])
    for k in range(3):
        assert np.array_equal(run.strains[:, 0, k], tip[f"eta{k + 1}"])
        assert np.array_equal(run.velocities[:, 0, k], tip[f"v{k + 1}"][:-1])


def test_a_registered_theory_equals_the_field_program(field_run):
    """theory = "string" (a registered theory, theory §1.9): positions and series as field.csv
    and time_series.csv, the velocity and strain of the end a = 0 as tip.csv (xi, eta), and the
    stresses k (eta - e0) of the string's law."""
    run = libfield.simulate(mesh_case("string_wave"))
    out = field_run("string_wave")
    assert run.status == "completed" and run.theory == "string"
    assert_strided_rows_equal(run, out, 1)
    tip = read_csv(out / "tip.csv")
    for k in range(3):
        assert np.array_equal(run.strains[:, 0, k], tip[f"eta{k + 1}"])
        assert np.array_equal(run.velocities[:, 0, k], tip[f"xi{k + 1}"][:-1])
    e0 = np.array([1.0, 0.0, 0.0])  # [string] reference_strain, k = 1 N
    assert np.allclose(run.stresses, 1.0 * (run.strains - e0), rtol=0, atol=1e-15)

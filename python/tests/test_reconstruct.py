"""libfield.reconstruct against the `field reconstruct` program: the space march, the driven
march and the estimator give the program's field, series and standard deviations to the bit;
tip data as arrays give the bits of the tip file."""
import json
import tomllib

import numpy as np
import pytest

import libfield
from conftest import by_node, mesh_case, read_csv, read_table

QUATERNION = ["qw", "qx", "qy", "qz"]


def assert_field_equal(run, out):
    """positions, quaternions (not on R^3), t and s of `run` are field.csv's doubles, node by
    node."""
    field = read_csv(out / "field.csv")
    n_t, n_s = run.positions.shape[:2]
    assert len(field["j"]) == n_t * n_s
    for k, c in enumerate("xyz"):
        assert np.array_equal(run.positions[..., k], by_node(field, n_t, n_s, c)), c
    assert hasattr(run, "quaternions") == ("qw" in field)
    for k, c in enumerate(QUATERNION if "qw" in field else []):
        assert np.array_equal(run.quaternions[..., k], by_node(field, n_t, n_s, c)), c
    assert np.array_equal(np.broadcast_to(run.t[:, None], (n_t, n_s)), by_node(field, n_t, n_s, "t"))
    assert np.array_equal(np.broadcast_to(run.s, (n_t, n_s)), by_node(field, n_t, n_s, "s"))


def assert_series_equal(run, path):
    series = read_csv(path)
    assert list(run.series) == list(series)
    for c, values in series.items():
        assert np.array_equal(run.series[c], values), c


def estimate_case(tmp_path, first_row="straight"):
    """The driven case's first 60 rows rebuilt by the estimator (as tests/cli/test_cli_estimate),
    written as a resolved case file (absolute paths) for the program."""
    path = mesh_case("driven")
    with open(path, "rb") as f:
        table = tomllib.load(f)
    table["grid"]["J"] = 60
    table["reconstruct"].update(method="estimate", first_row=first_row, last_row="free")
    case = libfield.load_case(table, name=path)
    file = tmp_path / f"estimate_{first_row}.toml"
    file.write_text(case.to_toml())
    return case, file


def test_the_space_march_equals_the_program(field_program):
    run = libfield.reconstruct(mesh_case("space_evolution"))
    out = field_program("reconstruct", mesh_case("space_evolution"))
    assert run.method == "space" and run.status == "completed"
    assert run.positions.shape == (301, 11, 3)
    assert_field_equal(run, out)
    assert_series_equal(run, out / "space_series.csv")
    summary = json.loads((out / "summary.json").read_text())
    assert run.prediction["far_end_error"] == summary["predicted_far_end_error"]
    assert run.tip_note == summary["tip_note"]


def test_the_driven_march_equals_the_program(field_program):
    run = libfield.reconstruct(mesh_case("driven"))
    out = field_program("reconstruct", mesh_case("driven"))
    assert run.method == "driven" and run.status == "completed"
    assert_field_equal(run, out)
    assert_series_equal(run, out / "time_series.csv")
    summary = json.loads((out / "summary.json").read_text())
    assert run.tip_strain_misfit["rows"] == summary["tip_strain_misfit_rows"]
    assert run.tip_strain_misfit["curvature_max"] == summary["tip_curvature_misfit_max"]
    assert run.tip_strain_misfit["shear_rms"] == summary["tip_shear_misfit_rms"]


def test_the_estimator_equals_the_program(field_program, tmp_path):
    case, file = estimate_case(tmp_path)
    run = libfield.reconstruct(case)
    out = field_program("reconstruct", file)
    assert run.method == "estimate" and run.status == "converged" and run.start == "driven"
    assert_field_equal(run, out)
    std = read_csv(out / "field_std.csv")
    n_t, n_s = run.positions.shape[:2]
    assert run.sigma_position.shape == (n_t, n_s)
    assert np.array_equal(run.sigma_position, by_node(std, n_t, n_s, "sigma_position"))
    assert np.array_equal(run.sigma_rotation, by_node(std, n_t, n_s, "sigma_rotation"))
    summary = json.loads((out / "summary.json").read_text())
    assert run.iterations == summary["iterations"]
    assert run.cost["total"] == summary["cost"]
    assert run.cost["dcel"] == summary["cost_dcel"]


def test_a_covariance_that_cannot_be_computed_keeps_the_estimate(field_program, tmp_path):
    """Both rows free: J^T J is singular at the estimate (tests/cli/test_cli_estimate,
    ASingularCovarianceKeepsTheEstimate). The program writes the estimate, no field_std files and
    exits 3; the module returns the same estimate with NaN standard deviations and warns."""
    case, file = estimate_case(tmp_path, first_row="free")
    with pytest.warns(RuntimeWarning, match="the standard deviations could not be computed"):
        run = libfield.reconstruct(case)
    assert run.status == "converged"
    assert run.sigma_position.shape == run.positions.shape[:2]
    assert np.isnan(run.sigma_position).all() and np.isnan(run.sigma_rotation).all()
    out = field_program("reconstruct", file, expect_code=3)
    assert not (out / "field_std.csv").exists()
    assert_field_equal(run, out)
    assert "covariance_error" in json.loads((out / "summary.json").read_text())


def tip_arrays(path):
    tip = read_table(path)
    return {"t": tip["t"],
            "positions": np.stack([tip[c] for c in "xyz"], axis=-1),
            "quaternions": np.stack([tip[c] for c in QUATERNION], axis=-1),
            "strains": np.stack([tip[c] for c in ["Omega1", "Omega2", "Omega3", "Gamma1",
                                                  "Gamma2", "Gamma3"]], axis=-1)}


@pytest.mark.parametrize("name", ["space_evolution", "driven"])
def test_tip_arrays_give_the_bits_of_the_tip_file(name):
    path = mesh_case(name)
    from_file = libfield.reconstruct(path)
    tip = tip_arrays(path.replace("case.toml", "tip.csv"))
    from_arrays = libfield.reconstruct(path, tip=tip)
    assert np.array_equal(from_arrays.poses, from_file.poses)
    for c in from_file.series:
        assert np.array_equal(from_arrays.series[c], from_file.series[c]), c


def test_tip_poses_as_matrices_give_the_tip_file_to_round_off():
    """poses (n, 4, 4) instead of positions and quaternions: the quaternions come back from the
    rotation matrices (SE3::quat), equal to the file's to round-off."""
    path = mesh_case("space_evolution")
    from_file = libfield.reconstruct(path)
    tip = tip_arrays(path.replace("case.toml", "tip.csv"))
    run = libfield.reconstruct(path, tip={"t": tip["t"], "poses": from_file.poses[:, 0],
                                          "strains": tip["strains"]})
    assert np.max(np.abs(run.poses[:, 0] - from_file.poses[:, 0])) < 1e-15
    assert np.max(np.abs(run.positions - from_file.positions)) < 1e-13
    assert np.max(np.abs(run.quaternions - from_file.quaternions)) < 1e-13


def test_tip_arrays_need_no_tip_file_in_the_case():
    """A case (here a dict) whose [tip] names no file runs from tip arrays, with the file's bits;
    without arrays it is refused, naming the key and what to give."""
    path = mesh_case("space_evolution")
    with open(path, "rb") as f:
        case = tomllib.load(f)
    del case["tip"]["file"]
    tip = tip_arrays(path.replace("case.toml", "tip.csv"))
    from_arrays = libfield.reconstruct(libfield.load_case(case, path), tip=tip)
    assert np.array_equal(from_arrays.poses, libfield.reconstruct(path).poses)
    del case["tip"]
    no_tip = libfield.load_case(case, path)
    assert np.array_equal(libfield.reconstruct(no_tip, tip=tip).poses, from_arrays.poses)
    with pytest.raises(libfield.FieldError, match=r"\[tip\] file is not given"):
        libfield.reconstruct(no_tip)


def test_bad_tip_arrays_raise_value_error():
    path = mesh_case("space_evolution")
    tip = tip_arrays(path.replace("case.toml", "tip.csv"))
    with pytest.raises(ValueError, match=r"tip\['strains'\]: expected 301 rows"):
        libfield.reconstruct(path, tip=dict(tip, strains=tip["strains"][:-1]))
    with pytest.raises(ValueError, match=r"tip\['positions'\]: expected an array of shape"):
        libfield.reconstruct(path, tip=dict(tip, positions=tip["positions"][:, :2]))
    with pytest.raises(ValueError, match="row 3: Gamma3 is not finite"):
        strains = tip["strains"].copy()
        strains[3, 5] = np.nan
        libfield.reconstruct(path, tip=dict(tip, strains=strains))
    with pytest.raises(ValueError, match="either poses"):
        libfield.reconstruct(path, tip={"t": tip["t"], "strains": tip["strains"]})
    # Too short for the grid: the tip reader's own message, naming the arrays.
    short = {k: v[:100] for k, v in tip.items()}
    with pytest.raises(libfield.FieldError, match="tip arrays"):
        libfield.reconstruct(path, tip=short)
    with pytest.raises(ValueError, match="libfield.simulate"):
        libfield.reconstruct(mesh_case("free_flight"))


def test_the_estimator_callback_sees_every_iteration_and_can_stop_it(tmp_path):
    """The estimator on tip positions with 1 mm of noise (several iterations, 8 measured)."""
    case, _ = estimate_case(tmp_path)
    tip = tip_arrays(mesh_case("driven").replace("case.toml", "tip.csv"))
    tip["positions"] = tip["positions"] + 1e-3 * np.random.default_rng(1).standard_normal(
        tip["positions"].shape)
    whole = []
    converged = libfield.reconstruct(case, tip=tip,
                                     callback=lambda k, cost: whole.append((k, cost)))
    assert converged.status == "converged" and converged.iterations >= 3
    assert [k for k, _ in whole] == list(range(1, converged.iterations + 1))
    assert whole[-1][1] == converged.cost["total"]
    seen = []

    def stop_after_one(k, cost):
        seen.append(k)
        return False

    stopped = libfield.reconstruct(case, tip=tip, callback=stop_after_one)
    assert stopped.status == "stopped" and stopped.iterations == 1 and seen == [1]
    assert stopped.cost["total"] == whole[0][1]  # the estimate after the first iteration
    assert np.all(np.isfinite(stopped.sigma_position))


def test_the_space_march_callback_sees_every_column_and_can_stop_it():
    seen = []

    def callback(a, s):
        seen.append((a, s))
        return a < 4

    run = libfield.reconstruct(mesh_case("space_evolution"), callback=callback)
    assert run.status == "stopped"
    assert [a for a, _ in seen] == list(range(5))
    assert run.positions.shape == (301, 5, 3)
    assert np.array_equal(run.s, [s for _, s in seen])


def test_the_space_march_is_refused_as_the_program_refuses_it():
    """The prediction of theory §6.3 above [tip] max_predicted_error: FieldError, no march."""
    path = mesh_case("space_evolution")
    with open(path, "rb") as f:
        table = tomllib.load(f)
    table["tip"].update(max_predicted_error=1e-20, noise_position=1e-3)
    seen = []
    with pytest.raises(libfield.FieldError, match=r"predicted to be unreliable \(theory §6.3\)"):
        libfield.reconstruct(libfield.load_case(table, name=path),
                             callback=lambda a, s: seen.append(a))
    assert seen == []


@pytest.mark.parametrize("name", ["space_evolution", "driven"])
def test_threads_do_not_change_the_bits(name):
    one = libfield.reconstruct(mesh_case(name), threads=1)
    two = libfield.reconstruct(mesh_case(name), threads=2)
    assert np.array_equal(one.poses, two.poses)
    for c in one.series:
        assert np.array_equal(one.series[c], two.series[c]), c


def test_a_planar_beam_equals_the_program(field_program, tmp_path):
    """A planar cantilever simulated by the program, rebuilt from its tip.csv on SE(2) by the
    module and by `field reconstruct` (docs/reconstruction.md, "The planar beam"): the same
    field.csv doubles and space_series.csv columns; a tip out of the plane is refused."""
    sim = tmp_path / "simulate.toml"
    text = open(mesh_case("planar_cantilever")).read()
    for old, new in [("L = 1.0", "ds = 0.1"), ("A = 10", "A = 4"), ("J = 1000", "J = 100"),
                     ("stride = 10", "stride = 1")]:
        assert old in text
        text = text.replace(old, new)
    sim.write_text(text)
    simulated = field_program("simulate", sim)
    case_file = tmp_path / "reconstruct.toml"
    case_file.write_text(
        'format = 1\nname = "planar_reconstruct"\nmarch = "space"\ntheory = "planar_beam"\n'
        '[beam]\nsection = "square"\nside = 0.1\nE = 1.0e7\nnu = 0.35\nrho = 1000.0\n'
        "[grid]\nA = 4\nds = 0.1\ndt = 5.0e-4\nJ = 100\n"
        f'[tip]\nfile = "{simulated / "tip.csv"}"\n[loads]\ngravity = [0.0, -9.81, 0.0]\n')
    # The program's warnings too: ds/(c_G dt) > 1 and the content of the simulated tip.
    with pytest.warns(RuntimeWarning, match="outside its stable range"):
        run = libfield.reconstruct(case_file)
    out = field_program("reconstruct", case_file)
    assert run.method == "space" and run.status == "completed" and run.theory == "planar_beam"
    assert_field_equal(run, out)
    assert_series_equal(run, out / "space_series.csv")
    tip = read_table(simulated / "tip.csv")
    arrays = {"t": tip["t"], "positions": np.stack([tip[c] for c in "xyz"], axis=-1),
              "quaternions": np.stack([tip[c] for c in QUATERNION], axis=-1),
              "strains": np.stack([tip[c] for c in ["Omega1", "Omega2", "Omega3", "Gamma1",
                                                    "Gamma2", "Gamma3"]], axis=-1)}
    arrays["positions"][7, 2] = 1e-3
    with pytest.raises(libfield.FieldError, match=r"row j = 7 .* is not in the x-y plane"), \
            pytest.warns(RuntimeWarning):
        libfield.reconstruct(case_file, tip=arrays)


CABLE = {"EA": 100.0, "rhoA": 1.0, "reference_tension": 200.0}
CABLE_GRID = {"A": 5, "ds": 0.2, "dt": 0.0196, "J": 60}


def test_a_cable_equals_the_program(field_program, tmp_path):
    """theory = "cable" (theory §1.8): a taut cable turning about its chord (as
    tests/cli/test_cli_cable_reconstruct.cpp), simulated by the program and rebuilt from its
    tip.csv by the module and by `field reconstruct`: the same field.csv doubles and
    space_series.csv columns (Q on R^3: its translation part); the tip as arrays gives the same
    run; tensions are W'(|eta|) of the strains."""
    sim = tmp_path / "simulate.toml"
    sim.write_text(libfield.load_case({
        "format": 1, "name": "taut_cable", "march": "time", "theory": "cable", "cable": CABLE,
        "grid": CABLE_GRID, "loads": {"gravity": [0.0, 0.0, -9.81]},
        "boundary": {"left": "clamped", "right": "clamped"},
        "initial": {"configuration": "catenary", "origin": [0.0, 0.0, 0.0], "end": [2.9, 0.0, 0.4],
                    "velocity": "rotation", "omega": [2.0, 0.0, 0.3], "center": [0.0, 0.0, 0.0]}},
        name=tmp_path / "simulate.toml").to_toml())
    simulated = field_program("simulate", sim)
    case_file = tmp_path / "reconstruct.toml"
    case_file.write_text(libfield.load_case({
        "format": 1, "name": "taut_cable_reconstruct", "march": "space", "theory": "cable",
        "cable": CABLE, "grid": CABLE_GRID, "loads": {"gravity": [0.0, 0.0, -9.81]},
        "tip": {"file": str(simulated / "tip.csv")}}, name=case_file).to_toml())
    with pytest.warns(RuntimeWarning, match="outside its stable range"):  # the program's too
        run = libfield.reconstruct(case_file)
    out = field_program("reconstruct", case_file)
    assert run.method == "space" and run.status == "completed" and run.theory == "cable"
    assert_field_equal(run, out)
    assert_series_equal(run, out / "space_series.csv")
    assert "Q_lin1" in run.series and "Q_ang1" not in run.series
    eta = np.linalg.norm(run.strains, axis=-1)
    assert np.allclose(run.tensions, 100.0 * (eta - 1.0), rtol=1e-14, atol=0)
    tip = read_table(simulated / "tip.csv")
    arrays = {"t": tip["t"], "positions": np.stack([tip[c] for c in "xyz"], axis=-1),
              "strains": np.stack([tip[f"eta{k}"] for k in (1, 2, 3)], axis=-1)}
    with pytest.warns(RuntimeWarning, match="outside its stable range"):
        again = libfield.reconstruct(case_file, tip=arrays)
    assert np.array_equal(again.positions, run.positions)
    arrays["strains"][10, 2] = 1e300  # the magnitude rule of theory §12 on column 1
    with pytest.raises(libfield.FieldError, match=r"tip arrays: column 1 .* at row j = 10"):
        libfield.reconstruct(case_file, tip=arrays)
    with pytest.raises(ValueError, match=r"tip: unknown key 'quaternions'"):
        libfield.reconstruct(case_file, tip={**arrays, "quaternions": arrays["positions"]})


def test_a_registered_theory_is_rebuilt_as_the_program_rebuilds_it(field_program, tmp_path):
    """theory = "string" (a registered theory, theory §1.9) at c dt = ds: the module's space
    march equals `field reconstruct`'s (field.csv, space_series.csv) and, on the rows the
    zero-momentum rows have not reached (a <= j <= J - a), the simulation."""
    text = open(mesh_case("string_wave")).read()
    for old, new in [("dt = 6.25e-3", "dt = 0.0125"), ("J = 160", "J = 80")]:
        assert old in text
        text = text.replace(old, new)
    sim = tmp_path / "simulate.toml"
    sim.write_text(text)
    simulated = field_program("simulate", sim)
    case_file = tmp_path / "reconstruct.toml"
    case_file.write_text(
        'format = 1\nname = "string_reconstruct"\nmarch = "space"\ntheory = "string"\n'
        "[string]\nrho = 0.25\nk = 1.0\nreference_strain = [1.0, 0.0, 0.0]\n"
        "[grid]\nA = 40\nds = 0.025\nJ = 80\ndt = 0.0125\n"
        f'[tip]\nfile = "{simulated / "tip.csv"}"\n')
    run = libfield.reconstruct(case_file)
    out = field_program("reconstruct", case_file)
    assert run.status == "completed" and run.theory == "string"
    assert_field_equal(run, out)
    assert_series_equal(run, out / "space_series.csv")
    assert np.allclose(run.stresses, run.strains - np.array([1.0, 0.0, 0.0]), rtol=0, atol=1e-15)
    field = read_csv(simulated / "field.csv")
    n_t, n_s = run.positions.shape[:2]
    for k, c in enumerate("xyz"):
        simulated_c = by_node(field, n_t, n_s, c)
        for a in range(n_s):
            assert np.allclose(run.positions[a:n_t - a, a, k], simulated_c[a:n_t - a, a],
                               rtol=0, atol=1e-14), (c, a)

// libfield.reconstruct: the reconstructions of `field reconstruct` (docs/reconstruction.md) on a
// case, the field and the series as numpy arrays (issue 17, docs/python.md): the space march of
// theory §6.2 with the prediction of §6.3 (and its refusal), the driven time march, the
// estimator of §6.7 with its standard deviations. The same computations as the program's, held in
// memory instead of written to files; the tip data from the case's file or from arrays.
#include "python/src/reconstruct.hpp"

#include <atomic>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/estimate/gauss_newton.hpp"
#include "libfield/io/estimate_conditions.hpp"
#include "libfield/io/estimate_start.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/io/space_prediction.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/planar_embedding.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/tip_strain_misfit.hpp"
#include "libfield/noether/planar_series_row.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "python/src/arrays.hpp"
#include "python/src/point_march.hpp"
#include "python/src/run_arrays.hpp"
#include "python/src/run_memory.hpp"
#include "python/src/simulate.hpp"

namespace field::python {

namespace {

/// The tip data of a dict of arrays as the table of a tip file (io/tip_data.hpp): t (n,),
/// strains (n, 6) (Omega, Gamma), and poses (n, 4, 4) or positions (n, 3) and quaternions (n, 4)
/// (w, x, y, z). Its "lines" are the row indices, its name "tip arrays".
io::CsvTable tip_table(const py::dict& tip) {
  for (const auto& [key, value] : tip) {
    const std::string k = py::str(key);
    if (k != "t" && k != "strains" && k != "poses" && k != "positions" && k != "quaternions")
      throw py::value_error("tip: unknown key '" + k +
                            "': the tip arrays are t, strains, and poses or positions and "
                            "quaternions");
  }
  const auto get = [&](const char* key) -> Array {
    if (!tip.contains(key)) throw py::value_error(std::string("tip: no array '") + key + "'");
    return tip[key].cast<Array>();
  };
  const Array t = get("t"), strains = get("strains");
  const auto n = leading_shape(t, {}, "tip['t']");
  if (n.size() != 1) throw py::value_error("tip['t']: expected an array of shape (n,)");
  const auto rows_of = [&](const Array& x, const std::vector<py::ssize_t>& tail, const char* what) {
    if (leading_shape(x, tail, what) != n)
      throw py::value_error(std::string(what) + ": expected " + std::to_string(n[0]) +
                            " rows, as tip['t']");
  };
  rows_of(strains, {6}, "tip['strains']");
  io::CsvTable table;
  table.path = "tip arrays";
  table.columns = io::tip_columns();
  table.rows.assign(static_cast<std::size_t>(n[0]), std::vector<double>(table.columns.size()));
  const bool poses = tip.contains("poses");
  if (poses == (tip.contains("positions") || tip.contains("quaternions")))
    throw py::value_error(
        "tip: give either poses (n, 4, 4) or positions (n, 3) and quaternions "
        "(n, 4)");
  Array p, q;
  if (poses) {
    p = get("poses");
    rows_of(p, {4, 4}, "tip['poses']");
  } else {
    p = get("positions"), q = get("quaternions");
    rows_of(p, {3}, "tip['positions']");
    rows_of(q, {4}, "tip['quaternions']");
  }
  for (py::ssize_t i = 0; i < n[0]; ++i) {
    double* row[14];
    for (int c = 0; c < 14; ++c) row[c] = &table.rows[static_cast<std::size_t>(i)][c];
    *row[0] = t.at(i);
    if (poses) {
      const double* m = p.data() + 16 * i;
      lie::SE3 g;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) g.R(r, c) = m[4 * r + c];
        g.r(r) = m[4 * r + 3];
      }
      const Vec4 quat = g.quat();
      for (int k = 0; k < 3; ++k) *row[1 + k] = g.r(k);
      for (int k = 0; k < 4; ++k) *row[4 + k] = quat(k);
    } else {
      for (int k = 0; k < 3; ++k) *row[1 + k] = p.at(i, k);
      for (int k = 0; k < 4; ++k) *row[4 + k] = q.at(i, k);
    }
    for (int k = 0; k < 6; ++k) *row[8 + k] = strains.at(i, k);
    for (int c = 0; c < 14; ++c)
      if (!std::isfinite(*row[c]))
        throw py::value_error("tip arrays: row " + std::to_string(i) + ": " + table.columns[c] +
                              " is not finite");
    table.lines.push_back(static_cast<int>(i));
  }
  return table;
}

/// The tip data of a case on R^3 (the cable, a registered theory on R^3) from a dict of arrays:
/// t (n,), positions (n, 3) and strains (n, 3), the columns t, x, y, z, eta1..3 of its tip.csv.
io::CsvTable point_tip_table(const py::dict& tip) {
  for (const auto& [key, value] : tip) {
    const std::string k = py::str(key);
    if (k != "t" && k != "positions" && k != "strains")
      throw py::value_error("tip: unknown key '" + k +
                            "': the tip arrays of a theory on R^3 are t, positions and strains");
  }
  const auto get = [&](const char* key) -> Array {
    if (!tip.contains(key)) throw py::value_error(std::string("tip: no array '") + key + "'");
    return tip[key].cast<Array>();
  };
  const Array t = get("t"), p = get("positions"), strains = get("strains");
  const auto n = leading_shape(t, {}, "tip['t']");
  if (n.size() != 1) throw py::value_error("tip['t']: expected an array of shape (n,)");
  for (const auto& [x, what] : {std::pair{&p, "tip['positions']"}, {&strains, "tip['strains']"}})
    if (leading_shape(*x, {3}, what) != n)
      throw py::value_error(std::string(what) + ": expected " + std::to_string(n[0]) +
                            " rows, as tip['t']");
  io::CsvTable table;
  table.path = "tip arrays";
  table.columns = {"t", "x", "y", "z", "eta1", "eta2", "eta3"};
  for (py::ssize_t i = 0; i < n[0]; ++i) {
    std::vector<double> row = {t.at(i),          p.at(i, 0),       p.at(i, 1),      p.at(i, 2),
                               strains.at(i, 0), strains.at(i, 1), strains.at(i, 2)};
    for (std::size_t c = 0; c < row.size(); ++c)
      if (!std::isfinite(row[c]))
        throw py::value_error("tip arrays: row " + std::to_string(i) + ": " + table.columns[c] +
                              " is not finite");
    table.rows.push_back(std::move(row));
    table.lines.push_back(static_cast<int>(i));
  }
  return table;
}

// The space march of theory §6.2 as `field reconstruct` runs it: G an SE(3) group, or the planar
// beam's SE(2) (theory §1.7: the tip data checked planar and projected, io::planar_space_input;
// the columns recorded embedded in SE(3), the series in the SE(3) columns).
template <class G>
py::dict space_march_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                            const io::SpaceSetup& setup, const io::CsvTable* tip, int threads,
                            const py::object& callback) {
  constexpr bool planar = std::is_same_v<G, lie::Se2Cayley>;
  const io::CaseSpec& spec = problem.spec;
  std::atomic<bool> stop{false};
  const march::MarchOptions options = march_options(spec, threads, stop);
  march::SpaceMarchInputOf<G> input;
  if constexpr (planar)
    input = io::planar_space_input(problem, setup);
  else
    input = setup.input;
  march::check_space_march(model, input, options);
  // The stability warning and the prediction of theory §6.3 (the planar beam's: the SE(3) beam's
  // in the plane), and its refusal, as the program's.
  py::list warnings;
  const march::StabilityNumbers numbers =
      planar ? problem.stability(model.density().wave_speeds()) : problem.stability();
  const std::string warning = march::space_march_warning(numbers, spec.dt);
  if (!warning.empty()) warnings.append(warning);
  const march::SpacePrediction prediction = io::predict_space_march(problem, setup.input);
  for (const std::string& w : io::prediction_warnings(problem, setup, prediction, tip))
    warnings.append(w);
  const std::string refusal = march::refusal_message(prediction, io::tip_noise(spec));
  FIELD_CHECK(refusal.empty(), spec.file.string() << ": " << refusal);

  const mesh::Boundary boundary = problem.boundary();
  march::FieldRecorder recorder(problem.mesh, false);
  std::vector<noether::SlabRecord> columns;
  noether::SlabDiagnostics<G> diagnostics(
      model, noether::SlabAxis::column, boundary,
      [&](const auto& d) { columns.push_back(noether::series_row(d)); },
      noether::SeriesOptions{spec.output.series_stride, threads});
  SlabCallback column_callback(
      callback, [&](int a) { return problem.mesh.s(a, mesh::Side::prescribed); }, stop);
  std::vector<march::SlabObserver*> observers{&recorder};
  std::optional<march::PlanarProjection> projection;  // the planar diagnostics' SE(2) columns
  march::append_observer(observers, diagnostics, projection);
  observers.push_back(&column_callback);
  march::MarchResult result;
  {
    py::gil_scoped_release release;
    if constexpr (planar) {
      march::PlanarEmbedding embedding(observers);
      result = march::space_march(model, input, {&embedding}, options);
    } else {
      result = march::space_march(model, input, observers, options);
    }
  }
  column_callback.rethrow();

  const io::OutputModel<G> array_model(problem, model);
  py::dict d = field_arrays(problem, array_model.get(), recorder.field(), spec.J + 1,
                            result.last_slab + 1, mesh::Side::prescribed);
  d["series"] = space_series_arrays(columns, boundary);
  put_march_result(d, result);
  d["warnings"] = warnings;
  py::dict p;
  p["far_end_error"] = prediction.far_position;
  p["far_end_rotation"] = prediction.far_rotation;
  p["recoverable_bandwidth"] = prediction.bandwidth;
  d["prediction"] = p;
  return d;
}

template <class G>
py::dict driven_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                       const io::SpaceSetup& setup, int threads, const py::object& callback) {
  march::TipStrainMisfit<G> misfit(setup.input.strain0, problem.spec.ds);
  py::dict d = time_march_arrays<G>(problem, model, io::driven_march_input<G>(problem, setup),
                                    threads, callback, &misfit);
  py::dict m;
  m["rows"] = misfit.rows;
  m["curvature_max"] = misfit.max_curvature;
  m["curvature_rms"] = misfit.rms_curvature();
  m["shear_max"] = misfit.max_shear;
  m["shear_rms"] = misfit.rms_shear();
  d["tip_strain_misfit"] = m;
  return d;
}

py::dict cost_dict(const estimate::CostTerms& c) {
  py::dict d;
  d["total"] = c.total(), d["dcel"] = c.dcel, d["boundary"] = c.boundary;
  d["tip_pose"] = c.tip_pose, d["tip_strain"] = c.tip_strain;
  return d;
}

template <class G>
py::dict estimate_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                         const io::SpaceSetup& setup, int threads, const py::object& callback) {
  const io::CaseSpec& spec = problem.spec;
  const estimate::TipMeasurements data{setup.input.column0, setup.input.strain0};
  const estimate::Conditions conditions = io::conditions_of(spec.reconstruct);
  const estimate::Problem<G> ls(model, data, conditions, io::weights_of(spec));
  estimate::SolverOptions options;
  options.max_iterations = spec.reconstruct.max_iterations;
  options.threads = threads;
  options.covariance = spec.reconstruct.covariance;
  std::optional<py::error_already_set> error;
  std::atomic<bool> stop{false};
  options.stop = &stop;
  options.on_iteration = [&](const estimate::Iteration& it) {
    if (callback_says_stop(callback, it.index, it.cost.total(), error)) stop = true;
  };
  std::string started_from;
  std::optional<estimate::Estimate> e;
  {
    py::gil_scoped_release release;
    const mesh::Field start =
        io::estimate_start_field(problem, model, setup, conditions, threads, started_from);
    e.emplace(estimate::solve(ls, start, options));
  }
  if (error) throw *error;

  const int n_t = spec.J + 1, n_s = spec.A + 1;
  py::dict d = field_arrays(problem, model, e->field, n_t, n_s, mesh::Side::prescribed);
  if (options.covariance) {
    Array sp({py::ssize_t(n_t), py::ssize_t(n_s)}), sr({py::ssize_t(n_t), py::ssize_t(n_s)});
    std::copy(e->sigma_position.begin(), e->sigma_position.end(), sp.mutable_data());
    std::copy(e->sigma_rotation.begin(), e->sigma_rotation.end(), sr.mutable_data());
    d["sigma_position"] = sp;
    d["sigma_rotation"] = sr;
  }
  d["status"] = e->converged ? "converged" : e->stopped ? "stopped" : "not converged";
  d["start"] = started_from;
  d["iterations"] = e->iterations;
  d["cost_start"] = cost_dict(e->start_cost);
  d["cost"] = cost_dict(e->cost);
  d["unknowns"] = e->unknowns;
  d["residuals"] = e->residual_rows;
  py::list warnings;
  if (!e->covariance_error.empty())  // the estimate stands, its standard deviations are NaN
    warnings.append("the standard deviations could not be computed: " + e->covariance_error);
  d["warnings"] = warnings;
  return d;
}

}  // namespace

py::dict reconstruct(const io::CaseSpec& spec, int threads, const py::object& callback,
                     const py::object& tip) {
  if (spec.march != io::MarchKind::space)
    throw py::value_error(spec.file.string() +
                          ": march = \"time\": this case is run by libfield.simulate");
  if (threads < 1)
    throw py::value_error("threads must be at least 1, got " + std::to_string(threads));
  check_run_memory(spec);  // the whole field is kept, as arrays
  std::optional<io::CsvTable> table;
  // The cable and the registered theories on R^3: the space march of io/plain_space_case.hpp.
  if (spec.theory == io::Theory::cable || spec.theory == io::Theory::registered) {
    if (!tip.is_none()) table = point_tip_table(tip.cast<py::dict>());
    return reconstruct_points(spec, threads, callback, table ? &*table : nullptr);
  }
  if (!tip.is_none()) table = tip_table(tip.cast<py::dict>());
  const io::Problem problem(spec);
  const io::SpaceSetup setup =
      table ? io::space_march_input(problem, *table) : io::space_march_input(problem);
  using Method = io::ReconstructSpec::Method;
  if (spec.theory == io::Theory::planar_beam) {  // the space march only (io/planar_case.hpp)
    const io::PlanarProblem planar(problem);
    py::dict d = space_march_arrays<lie::Se2Cayley>(problem, planar.model, setup,
                                                    table ? &*table : nullptr, threads, callback);
    d["method"] = "space";
    d["tip_note"] = setup.note;
    d["theory"] = "planar_beam";
    return d;
  }
  return problem.with_model([&](const auto& model) {
    using G = typename std::decay_t<decltype(model)>::Group;
    py::dict d;
    if (spec.reconstruct.method == Method::driven)  // docs/reconstruction.md
      d = driven_arrays<G>(problem, model, setup, threads, callback);
    else if (spec.reconstruct.method == Method::estimate)  // theory §6.7
      d = estimate_arrays<G>(problem, model, setup, threads, callback);
    else  // the space march of theory §6.2
      d = space_march_arrays<G>(problem, model, setup, table ? &*table : nullptr, threads,
                                callback);
    d["method"] = spec.reconstruct.method == Method::driven     ? "driven"
                  : spec.reconstruct.method == Method::estimate ? "estimate"
                                                                : "space";
    d["tip_note"] = setup.note;
    return d;
  });
}

void bind_reconstruct(py::module_& m) {
  m.def("_reconstruct", &reconstruct, py::arg("case"), py::arg("threads") = 1,
        py::arg("callback") = py::none(), py::arg("tip") = py::none(),
        "The reconstruction of a case (docs/reconstruction.md): a dict of numpy arrays "
        "(docs/python.md).");
}

}  // namespace field::python

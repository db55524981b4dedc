#include "apps/reconstruct_estimate.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "apps/interrupt.hpp"
#include "apps/run_folder.hpp"
#include "apps/series_row.hpp"
#include "libfield/core/error.hpp"
#include "libfield/estimate/gauss_newton.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/estimate_conditions.hpp"
#include "libfield/io/estimate_start.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/frames.hpp"
#include "libfield/io/space_prediction.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/io/vtk_file.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

/// field_std.vtu: the nodes at (t_j, s_a, 0) as in spacetime.vtu (vertex cells), with the arrays
/// sigma_position [m], sigma_rotation [rad] and position (the estimate's r) per node.
void write_std_vtu(const fs::path& path, const io::Problem& problem, const estimate::Estimate& e) {
  const int J = problem.spec.J, A = problem.spec.A;
  const std::uint64_t n = static_cast<std::uint64_t>(J + 1) * (A + 1);
  io::VtkAppendedLayout layout;
  layout.line(4, "<Piece NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfCells=\"" +
                     std::to_string(n) + "\">");
  layout.line(6, "<PointData>");
  layout.array("Float64", "sigma_position", 1, n, 8);
  layout.array("Float64", "sigma_rotation", 1, n, 8);
  layout.array("Float64", "position", 3, 3 * n, 8);
  layout.line(6, "</PointData>");
  layout.line(6, "<Points>");
  layout.array("Float64", "Points", 3, 3 * n, 8);
  layout.line(6, "</Points>");
  layout.line(6, "<Cells>");
  layout.array("Int64", "connectivity", 1, n, 8);
  layout.array("Int64", "offsets", 1, n, 8);
  layout.array("UInt8", "types", 1, n, 8);
  layout.line(6, "</Cells>");
  layout.line(4, "</Piece>");
  std::vector<double> points, positions;
  std::vector<std::int64_t> connectivity, offsets;
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) {
      const Vec3& r = e.field(j, a).r;
      points.insert(points.end(),
                    {problem.mesh.t(j), problem.mesh.s(a, mesh::Side::prescribed), 0.0});
      positions.insert(positions.end(), {r.x(), r.y(), r.z()});
      connectivity.push_back(static_cast<std::int64_t>(connectivity.size()));
      offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
    }
  const std::vector<std::uint8_t> types(n, 1);  // VTK_VERTEX
  std::string data;
  const auto block = [&](const void* values, std::uint64_t bytes) {
    io::append_block_header(data, bytes);
    io::append_raw(data, values, bytes);
  };
  block(e.sigma_position.data(), n * sizeof(double));
  block(e.sigma_rotation.data(), n * sizeof(double));
  block(positions.data(), 3 * n * sizeof(double));
  block(points.data(), 3 * n * sizeof(double));
  block(connectivity.data(), n * sizeof(std::int64_t));
  block(offsets.data(), n * sizeof(std::int64_t));
  block(types.data(), n);
  io::write_file_atomically(path, [&](std::ostream& out) {
    out << io::vtk_file_begin("UnstructuredGrid") << layout.xml()
        << io::vtk_appended_begin("UnstructuredGrid") << data << io::vtk_file_end();
  });
}

}  // namespace

template <class G>
int reconstruct_estimate(const fs::path& out, const CommonOptions& common,
                         std::chrono::steady_clock::time_point start, const io::Problem& problem,
                         int threads, const dcel::DiscreteModel<G>& model) {
  // 1. Input (all of it before the run folder), the start field and the problem.
  const io::CaseSpec& spec = problem.spec;
  const io::SpaceSetup setup = io::space_march_input(problem);
  if (!common.quiet) std::cerr << "field: " << setup.note << "\n";
  const std::string warning = io::end_load_warning(spec);  // printed even with -q
  if (!warning.empty()) std::cerr << "field: warning: " << warning << "\n";
  const estimate::TipMeasurements data{setup.input.column0, setup.input.strain0};
  const estimate::Conditions conditions = io::conditions_of(spec.reconstruct);
  std::string started_from;
  io::TipSmoothing smoothing;
  const mesh::Field start_values = io::estimate_start_field(problem, model, setup, conditions,
                                                            threads, started_from, &smoothing);
  const estimate::Problem<G> ls(model, data, conditions, io::weights_of(spec));
  char smoothed[160] = "";
  if (smoothing.half_width > 0)
    std::snprintf(smoothed, sizeof smoothed,
                  " on the tip poses smoothed over rows j-%d..j+%d (RMS change %.1e m, %.1e rad: "
                  "within the declared noise)",
                  smoothing.half_width, smoothing.half_width, smoothing.rms_position,
                  smoothing.rms_angle);
  if (!common.quiet)
    std::cerr << "field: estimate: start from the " << started_from << " march" << smoothed << "; "
              << 6LL * ls.unknown_count() << " unknowns, " << 6LL * ls.block_count()
              << " residuals\n";

  // 2. Levenberg-Marquardt, with one progress line per iteration.
  estimate::SolverOptions options;
  options.max_iterations = spec.reconstruct.max_iterations;
  options.threads = threads;
  options.covariance = spec.reconstruct.covariance;
  options.on_iteration = [&](const estimate::Iteration& it) {
    if (!common.progress()) return;
    std::fprintf(stderr,
                 "field: estimate: iteration %d: cost %.6e (DCEL %.3e, boundary %.3e, tip pose "
                 "%.3e, tip strain %.3e), lambda %.1e, max |delta| %.2e%s\n",
                 it.index, it.cost.total(), it.cost.dcel, it.cost.boundary, it.cost.tip_pose,
                 it.cost.tip_strain, it.lambda, it.step, it.rejected ? " (damped)" : "");
  };
  const estimate::Estimate e = estimate::solve(ls, start_values, options);
  // Standard deviations only where the covariance was computed (a numerically singular J^T J at
  // the estimate leaves them out; the estimate is written, exit 3).
  const bool have_sigma = options.covariance && e.covariance_error.empty();

  // 3. The run folder: field.csv by rows, field_std.csv, VTK files, run.toml, summary.json.
  const fs::path dir = out.empty() ? default_run_folder(spec) : out;
  prepare_run_folder(dir, common.force, spec.input_files());
  write_run_case(dir, spec);
  const int J = spec.J, A = spec.A;
  std::vector<lie::SE3> row(A + 1);
  if (spec.output.csv) {
    io::FieldCsvWriter csv(dir / "field.csv", problem.mesh, true, mesh::Side::prescribed,
                           spec.output.stride);
    for (int j = 0; j <= J; ++j) {
      for (int a = 0; a <= A; ++a) row[a] = e.field(j, a);
      csv.slab(j, row, {});
    }
    csv.finish();
  }
  if (have_sigma) {
    io::CsvWriter std_csv(dir / "field_std.csv",
                          {"j", "a", "t", "s", "sigma_position", "sigma_rotation"});
    for (int j = 0; j <= J; ++j)
      for (int a = 0; a <= A; ++a) {
        const size_t i = static_cast<size_t>(j) * (A + 1) + a;
        std_csv.row({double(j), double(a), problem.mesh.t(j),
                     problem.mesh.s(a, mesh::Side::prescribed), e.sigma_position[i],
                     e.sigma_rotation[i]});
      }
    std_csv.close();
  }
  if (spec.output.vtk) {
    if (have_sigma) write_std_vtu(dir / "field_std.vtu", problem, e);
    const int stride = spec.output.vtk_rows_stride(J);
    io::FramesWriter frames(dir, model, mesh::Side::prescribed, stride);
    io::SpacetimeWriter spacetime(dir / "spacetime.vtu", model, ls.boundary(), stride);
    for (int j = 0; j <= J; ++j) {
      for (int a = 0; a <= A; ++a) row[a] = e.field(j, a);
      frames.slab(j, row, {});
      spacetime.slab(j, row, {});
    }
    frames.finish();
    spacetime.finish();
  }
  // time_series.csv (docs/output-format.md): the series of a time march over the estimate's rows
  // (theory §7.2, §8.1) with the tip a = 0 prescribed (R0: the wrench the measured motion needs)
  // and the far end natural when free, else prescribed (RA: its reaction, or for "none" the
  // wrench the estimate implies there). Its Noether residuals are at the model-error level.
  const mesh::Boundary series_boundary = mesh::Boundary::time_evolution(
      mesh::Side::prescribed, conditions.far_end == estimate::Conditions::FarEnd::free
                                  ? mesh::Side::natural
                                  : mesh::Side::prescribed);
  const bool damped = model.loads().damping.any();
  io::CsvWriter series(dir / "time_series.csv", io::time_series_columns(series_boundary, damped));
  SeriesStats stats;
  stats.balanced = true;  // the tip is driven: theory §8.1's balance
  RunProblem found;
  Progress quiet("row", "t", J, true);
  {
    const noether::SlabSides sides =
        noether::prescribed_sides(series_boundary, noether::SlabAxis::row);
    noether::SlabDiagnostics<G> diagnostics(
        model, noether::SlabAxis::row, series_boundary,
        [&](const auto& d) {
          take_series_row(d, kTimeWords, sides, damped, spec.dt, found, stats, series, quiet);
        },
        noether::SeriesOptions{spec.output.series_stride, threads});
    for (int j = 0; j <= J && found.non_finite.empty(); ++j) {
      for (int a = 0; a <= A; ++a) row[a] = e.field(j, a);
      diagnostics.slab(j, row, {});
    }
  }
  series.close();  // a non-finite row ends the series there: reported below, exit 3
  double far_sigma = 0.0, far_sigma_rotation = 0.0;
  for (int j = 0; j < J; ++j) {
    const size_t i = static_cast<size_t>(j) * (A + 1) + A;
    far_sigma = std::max(far_sigma, e.sigma_position[i]);
    far_sigma_rotation = std::max(far_sigma_rotation, e.sigma_rotation[i]);
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "reconstruct");
  summary.text("method", "estimate");
  summary.text("start", started_from);
  summary.number("start_tip_smoothing", smoothing.half_width);
  summary.text("far_end", io::far_end_name(spec.reconstruct));
  summary.text("case", spec.file.string());
  summary.text("theory", io::theory_name(spec));
  summary.text("tip", spec.tip.string());
  summary.text("tip_note", setup.note);
  summary.number("iterations", e.iterations);
  summary.text("converged", e.converged ? "yes" : "no");
  summary.number("unknowns", double(e.unknowns));
  summary.number("residuals", double(e.residual_rows));
  summary.number("cost_start", e.start_cost.total());
  summary.number("cost", e.cost.total());
  summary.number("cost_dcel", e.cost.dcel);
  summary.number("cost_boundary", e.cost.boundary);
  summary.number("cost_tip_pose", e.cost.tip_pose);
  summary.number("cost_tip_strain", e.cost.tip_strain);
  if (!e.covariance_error.empty()) summary.text("covariance_error", e.covariance_error);
  if (have_sigma) {
    summary.number("far_end_sigma_position_max", far_sigma);
    summary.number("far_end_sigma_rotation_max", far_sigma_rotation);
  }
  stats.write(summary, "E_0", "energy_range_relative", "P_0");
  stats.write_balance(summary);
  summary.number("jacobian_s", e.jacobian_seconds);
  summary.number("factor_s", e.factor_seconds);
  summary.number("covariance_s", e.covariance_seconds);
  summary.number("threads", threads);
  summary.number("wall_time_s", wall);
  summary.write(dir);

  std::printf(
      "%s: estimate over the whole mesh (%s), rows %s/%s, far end %s, A = %d, J = %d, dt = %g "
      "s, ds = %g m, L = %g m\n",
      spec.name.c_str(), lie::retraction_name<G>().c_str(), io::first_row_name(conditions),
      io::last_row_name(conditions), io::far_end_name(spec.reconstruct), A, J, spec.dt, spec.ds,
      spec.length());
  std::printf("  started from the %s march; %lld unknowns, %lld residuals\n", started_from.c_str(),
              e.unknowns, e.residual_rows);
  std::printf(
      "  %d iterations (%s), cost %.6e -> %.6e: DCEL %.3e, boundary %.3e, tip pose %.3e, "
      "tip strain %.3e\n",
      e.iterations, e.converged ? "converged" : "NOT converged", e.start_cost.total(),
      e.cost.total(), e.cost.dcel, e.cost.boundary, e.cost.tip_pose, e.cost.tip_strain);
  if (have_sigma)
    std::printf("  far end a = A: standard deviation <= %.3e m (position), %.3e rad (rotation)\n",
                far_sigma, far_sigma_rotation);
  else if (options.covariance)
    std::printf("  standard deviations not computed: J^T J is singular at the estimate\n");
  else
    std::printf("  standard deviations not computed (covariance = false)\n");
  print_energy_figure(stats);
  std::printf(
      "  Noether balance per row <= %.2e (relative; the model-error level, not round-off)\n",
      stats.balance);
  std::printf("  time %.3f s (Jacobian %.3f s, factorisations %.3f s, covariance %.3f s)\n", wall,
              e.jacobian_seconds, e.factor_seconds, e.covariance_seconds);
  if (spec.output.vtk) print_vtk_rows(spec, spec.J);
  std::printf("  wrote %s: %s\n", dir.string().c_str(), list_outputs(dir).c_str());
  // A singular or indefinite J^T J (a node the conditions leave unobserved) gives non-finite
  // standard deviations: never with exit code 0 (theory §6.7).
  if (!e.covariance_error.empty())
    std::fprintf(stderr,
                 "field: estimate: the estimate is written, its standard deviations are not (%s): "
                 "the data and the declared conditions leave a direction of the field "
                 "undetermined; declare first_row, last_row or far_end, lower the declared noise "
                 "if it is overstated, or set covariance = false\n",
                 user_message(std::runtime_error(e.covariance_error)).c_str());
  if (!found.non_finite.empty())
    std::fprintf(stderr, "field: estimate: time_series.csv ends at a non-finite diagnostic: %s\n",
                 found.non_finite.c_str());
  bool sigma_finite = e.covariance_error.empty();
  for (size_t i = 0; have_sigma && i < e.sigma_position.size(); ++i)
    sigma_finite =
        sigma_finite && std::isfinite(e.sigma_position[i]) && std::isfinite(e.sigma_rotation[i]);
  if (!sigma_finite && e.covariance_error.empty())
    std::fprintf(stderr,
                 "field: estimate: the standard deviations are not finite (J^T J is singular: a "
                 "node is left unobserved by the declared conditions); declare first_row, "
                 "last_row or far_end, or set covariance = false\n");
  return e.converged && sigma_finite && found.non_finite.empty() ? 0 : 3;
}

#define FIELD_INSTANTIATE(G)                                                                      \
  template int reconstruct_estimate<G>(const fs::path&, const CommonOptions&,                     \
                                       std::chrono::steady_clock::time_point, const io::Problem&, \
                                       int, const dcel::DiscreteModel<G>&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::app

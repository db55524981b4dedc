#include "apps/cable_run.hpp"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "apps/run_folder.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_row.hpp"
#include "apps/series_stats.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/cable_frames.hpp"
#include "libfield/io/cable_tip.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/series_columns.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace field::app {

int simulate_cable(const io::CaseSpec& spec, const std::filesystem::path& out,
                   const CommonOptions& common, int threads,
                   std::chrono::steady_clock::time_point start) {
  using R3 = lie::Rn<3>;
  const io::CableProblem cable(spec);
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop_flag();
  march::check_time_march(cable.model, cable.input, options);
  // Stability numbers of theory §6.1 from the cable's wave speeds (1.8.6).
  const march::StabilityNumbers numbers = cable.stability();
  const std::string warning = march::time_march_warning(numbers, spec.dt);
  if (!warning.empty()) std::cerr << "field: warning: " << warning << "\n";

  install_stop_signals();
  const std::filesystem::path dir = out.empty() ? default_run_folder(spec) : out;
  prepare_run_folder(dir, common.force, spec.input_files());
  write_run_case(dir, spec);
  std::vector<std::unique_ptr<march::BasicSlabObserver<Vec3>>> writers;
  if (spec.output.csv)
    writers.push_back(std::make_unique<io::CableFieldCsvWriter>(
        dir / "field.csv", cable.mesh, spec.left_side(), spec.output.stride));
  if (spec.output.tip)
    writers.push_back(
        std::make_unique<io::CableTipCsvWriter>(dir / "tip.csv", cable.density, cable.mesh));
  const mesh::Boundary boundary = cable.boundary();
  if (spec.output.vtk) {
    const int vtk_stride = spec.output.vtk_rows_stride(spec.J);  // "auto": at most ~400 frames
    writers.push_back(std::make_unique<io::CableFramesWriter>(dir, cable.density, cable.mesh,
                                                              spec.left_side(), vtk_stride));
    writers.push_back(std::make_unique<io::SpacetimeWriter<R3>>(dir / "spacetime.vtu", cable.model,
                                                                boundary, vtk_stride));
  }
  io::CsvWriter series(dir / "time_series.csv", io::time_series_columns(boundary, false, true));
  // Pins and free ends: the energy is conserved (theory §8); a driven end works on the cable and
  // the run reports the balance (8.8) instead (theory §8.1).
  BasicSeriesStats<Vec3> stats;
  stats.balanced = cable.driven();
  Progress progress("row", "t", spec.J, !common.progress());
  if (stats.balanced) progress.energy_label("E-E0-W+D");
  RunProblem found;
  noether::SlabDiagnostics<R3> diagnostics(
      cable.model, noether::SlabAxis::row, boundary,
      [&](const auto& d) {
        take_series_row(d, kTimeWords, noether::prescribed_sides(boundary, noether::SlabAxis::row),
                        false, spec.dt, found, stats, series, progress);
      },
      noether::SeriesOptions{spec.output.series_stride, threads});
  std::vector<march::BasicSlabObserver<Vec3>*> observers;
  for (auto& w : writers) observers.push_back(w.get());
  observers.push_back(&diagnostics);
  const march::MarchResult result = march_safely(
      [&](const std::vector<march::BasicSlabObserver<Vec3>*>& all) {
        return march::time_march(cable.model, cable.input, all, options);
      },
      observers, found);
  progress.done();
  series.close();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const RunOutcome outcome = run_outcome(result, found, kTimeWords, warning, spec.newton.tolerance,
                                         spec.newton.max_iterations);

  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "simulate");
  summary.text("case", spec.file.string());
  summary.text("theory", "cable");
  write_outcome(summary, outcome, result, kTimeWords);
  summary.number("threads", threads);
  summary.number("wall_time_s", wall);
  summary.number("node_updates", double(result.node_solves));
  summary.number("newton_iterations", double(result.newton_iterations));
  stats.write(summary, "E_0", "energy_range_relative", "P_0");
  stats.write_balance(summary);
  summary.number("newton_max_iterations", stats.newton_max);
  summary.number("cfl_time", numbers.cfl_time);
  summary.write(dir);

  std::printf("%s: time march (cable on R^3), A = %d, J = %d, dt = %g s, ds = %g m, T = %g s\n",
              spec.name.c_str(), spec.A, spec.J, spec.dt, spec.ds, spec.duration());
  std::printf("  %lld node updates in %.3f s (%.3g per second)\n", result.node_solves, wall,
              result.node_solves / std::max(wall, 1e-9));
  if (stats.balanced)  // a driven end (theory (1.8.13); D_j = 0 for the cable)
    print_energy_figure(stats);
  else
    std::printf("  energy E_0 = %.15g J, max E - min E = %.3e J, relative to |E_0| %.3e\n",
                stats.E0, stats.E_max - stats.E_min, stats.energy_range());
  std::printf("  translation momentum P_0 = (%.10g, %.10g, %.10g), max |P_j - P_0| = %.3e\n",
              stats.momentum0(0), stats.momentum0(1), stats.momentum0(2), stats.drift);
  std::printf("  Noether balance per row <= %.2e (relative), Newton <= %d iterations\n",
              stats.balance, stats.newton_max);
  if (spec.output.vtk) print_vtk_rows(spec, result.last_slab);
  std::printf("  wrote %s: %s\n", dir.string().c_str(), list_outputs(dir).c_str());
  if (!outcome.message.empty()) std::fprintf(stderr, "%s\n", outcome.message.c_str());
  return outcome.exit_code;
}

int info_cable(const io::CaseSpec& spec) {
  const io::CableProblem cable(spec);  // validates row 0 (the catenary's supports)
  const io::CableSpec& k = spec.cable;
  std::printf("case %s (%s)\n", spec.name.c_str(), spec.file.string().c_str());
  if (!spec.description.empty()) std::printf("  %s\n", spec.description.c_str());
  std::printf("  march: time (field simulate)\n");
  std::printf(
      "  theory: extensible cable on R^3 (theory §1.8): EA = %.6g N, rho A = %.6g kg/m, %s law, "
      "gravity (%g, %g, %g) m/s^2\n",
      k.EA, k.rhoA, k.slack ? "slack (no compression)" : "linear-elastic", spec.gravity(0),
      spec.gravity(1), spec.gravity(2));
  std::printf(
      "  grid: A = %d, ds = %.6g m, L = %.6g m (unstretched); J = %d, dt = %.6g s, T = %.6g s\n",
      spec.A, spec.ds, spec.length(), spec.J, spec.dt, spec.duration());
  const auto end = [](const io::EndSpec& e) {
    return e.kind == io::EndSpec::Kind::clamped ? std::string("pinned")
           : e.kind == io::EndSpec::Kind::free  ? std::string("free")
                                                : "driven along " + e.file.filename().string();
  };
  std::printf("  ends: a = 0 %s, a = A %s\n", end(spec.left).c_str(), end(spec.right).c_str());
  if (k.shape == io::CableSpec::Shape::catenary) {
    const model::ElasticCatenary c = io::case_catenary(spec);
    std::printf(
        "  row 0: elastic catenary (1.8.9) from (%g, %g, %g) to (%g, %g, %g): H = %.6g N, "
        "V = %.6g N\n",
        spec.initial.origin(0), spec.initial.origin(1), spec.initial.origin(2), k.end(0), k.end(1),
        k.end(2), c.H, c.V);
  } else {
    std::printf("  row 0: straight from (%g, %g, %g) along (%g, %g, %g), unstretched\n",
                spec.initial.origin(0), spec.initial.origin(1), spec.initial.origin(2),
                spec.initial.axis(0), spec.initial.axis(1), spec.initial.axis(2));
  }
  switch (k.velocity) {  // theory (1.8.10)
    case io::CableSpec::Velocity::zero:
      std::printf("  velocity: at rest\n");
      break;
    case io::CableSpec::Velocity::uniform:
      std::printf("  velocity: uniform (%g, %g, %g) m/s\n", k.xi(0), k.xi(1), k.xi(2));
      break;
    case io::CableSpec::Velocity::rotation:
      std::printf("  velocity: rigid rotation omega = (%g, %g, %g) rad/s about (%g, %g, %g)\n",
                  k.omega(0), k.omega(1), k.omega(2), k.center(0), k.center(1), k.center(2));
      break;
    case io::CableSpec::Velocity::file:
      std::printf("  velocity: per node from %s\n", spec.initial.velocity_file.string().c_str());
      break;
  }
  const model::WaveSpeeds w = cable.density.wave_speeds();
  const march::StabilityNumbers n = cable.stability();
  std::printf(
      "  wave speeds (1.8.6): c_L = sqrt(EA/rho A) = %.6g m/s, c_G = %.6g m/s at N_ref = %g N\n",
      w.c_E, w.c_G, k.reference_tension);
  std::printf("  stability (theory §6.1): c_L dt/ds = %.4g (< 1 needed)\n", n.cfl_time);
  const std::string warning = march::time_march_warning(n, spec.dt);
  if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace field::app

#include "apps/reconstruct_driven.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "apps/run_folder.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_stats.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/beam_frames.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/time_diagnostics.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

/// The consistency figure of the driven reconstruction: the tip strain eta_j^0 of the marched
/// field (theory (3.3), nodes 0 and 1 of row j) against the measured one, j = 0..J-1.
template <class G>
class TipStrainMisfit : public march::SlabObserver {
 public:
  TipStrainMisfit(const std::vector<Vec6>& measured, double ds) : measured_(measured), ds_(ds) {}
  void slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats&) override {
    if (j >= static_cast<int>(measured_.size())) return;
    const Vec6 d = mesh::convected<G>(row[0], row[1], ds_) - measured_[j];
    const double curvature = d.head<3>().norm(), shear = d.tail<3>().norm();
    max_curvature = std::max(max_curvature, curvature);
    max_shear = std::max(max_shear, shear);
    sum_curvature += curvature * curvature;
    sum_shear += shear * shear;
    ++rows;
  }
  double rms_curvature() const { return rows ? std::sqrt(sum_curvature / rows) : 0.0; }
  double rms_shear() const { return rows ? std::sqrt(sum_shear / rows) : 0.0; }

  double max_curvature = 0.0, max_shear = 0.0, sum_curvature = 0.0, sum_shear = 0.0;
  int rows = 0;

 private:
  const std::vector<Vec6>& measured_;
  double ds_;
};

}  // namespace

template <class G>
int reconstruct_driven(const fs::path& out, const CommonOptions& common,
                       std::chrono::steady_clock::time_point start, const io::Problem& problem,
                       int threads, const dcel::DiscreteModel<G>& model) {
  // 1. The tip data (time offset, strain conversion) and the time march's input.
  const io::CaseSpec& spec = problem.spec;
  const io::SpaceSetup setup = io::space_march_input(problem);
  const march::TimeMarchInput input = io::driven_march_input<G>(problem, setup);
  const int J = spec.J, A = spec.A;
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop_flag();
  march::check_time_march(model, input, options);
  if (!common.quiet) std::cerr << "field: " << setup.note << "\n";
  const march::StabilityNumbers numbers = problem.stability();
  const std::string warning = march::time_march_warning(numbers, spec.dt);
  if (!warning.empty()) std::cerr << "field: warning: " << warning << "\n";

  // 2. The run folder and its writers (observers of the rows, in order).
  install_stop_signals();
  const fs::path dir = out.empty() ? default_run_folder(spec) : out;
  prepare_run_folder(dir, common.force, spec.input_files());
  write_run_case(dir, spec);
  std::vector<std::unique_ptr<march::SlabObserver>> writers;
  if (spec.output.csv)
    writers.push_back(std::make_unique<io::FieldCsvWriter>(dir / "field.csv", problem.mesh, true,
                                                           spec.left_side(), spec.output.stride));
  const int vtk_stride = spec.output.vtk_rows_stride(J);
  if (spec.output.vtk) {
    writers.push_back(
        std::make_unique<io::BeamFramesWriter<G>>(dir, model, spec.left_side(), vtk_stride));
    writers.push_back(std::make_unique<io::SpacetimeWriter<G>>(dir / "spacetime.vtu", model,
                                                               problem.boundary(), vtk_stride));
  }
  io::CsvWriter series(dir / "time_series.csv",
                       {"j", "t", "E", "P_ang1", "P_ang2", "P_ang3", "P_lin1", "P_lin2", "P_lin3",
                        "noether_residual", "newton_max_iterations", "newton_mean_iterations"});
  SeriesStats stats;
  Progress progress("row", "t", J, common.quiet);
  RunProblem problem_found;
  noether::TimeDiagnostics<G> diagnostics(
      model, problem.boundary(),
      [&](const noether::TimeRowDiagnostics& d) {
        if (!problem_found.non_finite.empty()) return;
        problem_found.non_finite = non_finite_diagnostic(d, d.j, kTimeWords, "E_j", "P_j");
        if (!problem_found.non_finite.empty()) return stop_flag().store(true);
        stats.add(d);
        const Vec6& P = d.momentum;
        series.row({double(d.j), d.t, d.energy, P(0), P(1), P(2), P(3), P(4), P(5), d.balance,
                    double(d.newton.max_iterations), d.newton.mean_iterations});
        progress.update(d.j + 1, d.t + spec.dt, d.newton.max_iterations,
                        stats.energy_change(d.energy), d.balance);
      },
      noether::SeriesOptions{spec.output.series_stride, threads});
  TipStrainMisfit<G> misfit(setup.input.strain0, spec.ds);
  std::vector<march::SlabObserver*> observers;
  for (auto& w : writers) observers.push_back(w.get());
  observers.push_back(&misfit);
  observers.push_back(&diagnostics);

  // 3. March; an error raised after this point is a run failure (apps/run_outcome.hpp).
  const march::MarchResult result = march_safely(
      [&](const std::vector<march::SlabObserver*>& all) {
        return march::time_march(model, input, all, options);
      },
      observers, problem_found);
  progress.done();
  series.close();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // 4. Summary (stdout and summary.json), with the tip-strain consistency figures.
  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "reconstruct");
  summary.text("method", "driven");
  summary.text("far_end",
               spec.reconstruct.far_end == io::EndSpec::Kind::clamped ? "clamped" : "free");
  summary.text("case", spec.file.string());
  summary.text("tip", spec.tip.string());
  summary.text("tip_note", setup.note);
  const RunOutcome outcome = run_outcome(result, problem_found, kTimeWords, warning,
                                         spec.newton.tolerance, spec.newton.max_iterations);
  write_outcome(summary, outcome, result, kTimeWords);
  summary.number("tip_strain_misfit_rows", misfit.rows);
  summary.number("tip_curvature_misfit_max", misfit.max_curvature);
  summary.number("tip_curvature_misfit_rms", misfit.rms_curvature());
  summary.number("tip_shear_misfit_max", misfit.max_shear);
  summary.number("tip_shear_misfit_rms", misfit.rms_shear());
  summary.number("threads", threads);
  summary.number("wall_time_s", wall);
  summary.number("node_updates", double(result.node_solves));
  summary.number("newton_iterations", double(result.newton_iterations));
  stats.write(summary, "E_0", "energy_range_relative", "P_0");
  summary.number("newton_max_iterations", stats.newton_max);
  summary.number("cfl_time", numbers.cfl_time);
  summary.number("cutoff_term", numbers.cutoff_term);
  summary.write(dir);

  std::printf(
      "%s: driven reconstruction, time march (%s) with the tip prescribed, far end %s, A = %d, "
      "J = %d, dt = %g s, ds = %g m, L = %g m\n",
      spec.name.c_str(), lie::retraction_name<G>().c_str(),
      spec.reconstruct.far_end == io::EndSpec::Kind::clamped ? "clamped" : "free", A, J, spec.dt,
      spec.ds, spec.length());
  std::printf("  %lld node updates in %.3f s (%.3g per second)\n", result.node_solves, wall,
              result.node_solves / std::max(wall, 1e-9));
  std::printf("  energy E_0 = %.15g J, (max E - min E)/|E_0| = %.3e\n", stats.E0,
              stats.energy_range());
  std::printf("  Noether balance per row <= %.2e (relative), Newton <= %d iterations\n",
              stats.balance, stats.newton_max);
  std::printf(
      "  tip strain, predicted - measured over %d rows: curvature max %.3e rad/m (RMS %.3e), "
      "shear/stretch max %.3e (RMS %.3e)\n",
      misfit.rows, misfit.max_curvature, misfit.rms_curvature(), misfit.max_shear,
      misfit.rms_shear());
  if (spec.output.vtk) print_vtk_rows(spec);
  std::printf("  wrote %s: %s\n", dir.string().c_str(), list_outputs(dir).c_str());
  if (!outcome.message.empty()) std::fprintf(stderr, "%s\n", outcome.message.c_str());
  return outcome.exit_code;
}

#define FIELD_INSTANTIATE(G)                                                                    \
  template int reconstruct_driven<G>(const fs::path&, const CommonOptions&,                     \
                                     std::chrono::steady_clock::time_point, const io::Problem&, \
                                     int, const dcel::DiscreteModel<G>&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::app

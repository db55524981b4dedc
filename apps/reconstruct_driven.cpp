#include "apps/reconstruct_driven.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "apps/time_march_run.hpp"
#include "libfield/core/error.hpp"
#include "libfield/march/tip_strain_misfit.hpp"

namespace field::app {

namespace fs = std::filesystem;

template <class G>
int reconstruct_driven(const fs::path& out, const CommonOptions& common,
                       std::chrono::steady_clock::time_point start, const io::Problem& problem,
                       int threads, const dcel::DiscreteModel<G>& model) {
  // 1. The tip data (time offset, strain conversion) and the time march's input.
  const io::CaseSpec& spec = problem.spec;
  const io::SpaceSetup setup = io::space_march_input(problem);
  const march::TimeMarchInput input = io::driven_march_input<G>(problem, setup);
  const int J = spec.J, A = spec.A;

  // 2. The time march into the run folder (apps/time_march_run.hpp), with the misfit observer.
  march::TipStrainMisfit<G> misfit(setup.input.strain0, spec.ds);
  TimeMarchRunOptions options;
  options.out = out;
  options.tip_csv = false;  // the tip is the data itself
  options.extra = {&misfit};
  options.note = setup.note;
  const io::OutputModel<G> outputs(problem, model);
  const TimeMarchRun run = run_time_march(io::beam_time_case(problem, outputs, model, input),
                                          options, common, threads, start);
  const march::MarchResult& result = run.result;
  const SeriesStats& stats = run.stats;

  // 3. Summary (stdout and summary.json), with the tip-strain consistency figures.
  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "reconstruct");
  summary.text("method", "driven");
  summary.text("far_end",
               spec.reconstruct.far_end == io::EndSpec::Kind::clamped ? "clamped" : "free");
  summary.text("case", spec.file.string());
  summary.text("theory", io::theory_name(spec));
  summary.text("tip", spec.tip.string());
  summary.text("tip_note", setup.note);
  write_time_march_summary(summary, run, threads);
  summary.number("tip_strain_misfit_rows", misfit.rows);
  summary.number("tip_curvature_misfit_max", misfit.max_curvature);
  summary.number("tip_curvature_misfit_rms", misfit.rms_curvature());
  summary.number("tip_shear_misfit_max", misfit.max_shear);
  summary.number("tip_shear_misfit_rms", misfit.rms_shear());
  summary.write(run.dir);

  std::printf(
      "%s: driven reconstruction, time march (%s) with the tip prescribed, far end %s, A = %d, "
      "J = %d, dt = %g s, ds = %g m, L = %g m\n",
      spec.name.c_str(), lie::retraction_name<G>().c_str(),
      spec.reconstruct.far_end == io::EndSpec::Kind::clamped ? "clamped" : "free", A, J, spec.dt,
      spec.ds, spec.length());
  std::printf("  %lld node updates in %.3f s (%.3g per second)\n", result.node_solves, run.wall,
              result.node_solves / std::max(run.wall, 1e-9));
  print_energy_figure(stats);
  std::printf("  Noether balance per row <= %.2e (relative), Newton <= %d iterations\n",
              stats.balance, stats.newton_max);
  std::printf(
      "  tip strain, predicted - measured over %d rows: curvature max %.3e rad/m (RMS %.3e), "
      "shear/stretch max %.3e (RMS %.3e)\n",
      misfit.rows, misfit.max_curvature, misfit.rms_curvature(), misfit.max_shear,
      misfit.rms_shear());
  if (spec.output.vtk) print_vtk_rows(spec, result.last_slab);
  std::printf("  wrote %s: %s\n", run.dir.string().c_str(), list_outputs(run.dir).c_str());
  if (!run.outcome.message.empty()) std::fprintf(stderr, "%s\n", run.outcome.message.c_str());
  return run.outcome.exit_code;
}

#define FIELD_INSTANTIATE(G)                                                                    \
  template int reconstruct_driven<G>(const fs::path&, const CommonOptions&,                     \
                                     std::chrono::steady_clock::time_point, const io::Problem&, \
                                     int, const dcel::DiscreteModel<G>&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::app

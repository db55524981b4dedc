// `field simulate CASE.toml [--out DIR]`: the time march of theory §6.1 on a case file, with
// field.csv, time_series.csv, tip.csv, beam.pvd + frames/, spacetime.vtu, run.toml and
// summary.json in DIR (docs/cli.md, docs/output-format.md).
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "apps/commands.hpp"
#include "apps/interrupt.hpp"
#include "apps/memory_estimate.hpp"
#include "apps/progress.hpp"
#include "apps/run_folder.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_stats.hpp"
#include "apps/thread_count.hpp"
#include "apps/wait_policy.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/beam_frames.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/io/writer_thread.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/noether/time_diagnostics.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path case_file;
  fs::path out;
};

std::string vector_text(const Vec6& v) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "(%.10g, %.10g, %.10g, %.10g, %.10g, %.10g)", v(0), v(1), v(2),
                v(3), v(4), v(5));
  return buf;
}

template <class G>
int march_case(const Args& args, const CommonOptions& common,
               std::chrono::steady_clock::time_point start, const io::Problem& problem, int threads,
               const dcel::DiscreteModel<G>& model);

int run_simulate(const Args& args, const CommonOptions& common) {
  const auto start = std::chrono::steady_clock::now();
  // 1. Read and validate everything before touching the output folder: the case, its data
  // files, the memory the run needs, the march's input (march::check_time_march).
  io::CaseSpec spec = io::load_case(args.case_file);
  FIELD_CHECK(spec.march == io::MarchKind::time,
              spec.file.string() << ": march = \"space\": this case is run by `field reconstruct`");
  check_memory(spec);
  const int threads = run_threads(common.threads, spec.A);  // apps/thread_count.hpp
  use_passive_openmp_wait(threads, spec.A);                 // may start the program again, once
  const io::Problem problem(spec);
  // The case's retraction becomes the type G here, once (io::Problem::with_model).
  return problem.with_model(
      [&](const auto& model) { return march_case(args, common, start, problem, threads, model); });
}

// Steps 1 (the march's input) to 5 of run_simulate with the discrete model of the case.
template <class G>
int march_case(const Args& args, const CommonOptions& common,
               std::chrono::steady_clock::time_point start, const io::Problem& problem, int threads,
               const dcel::DiscreteModel<G>& model) {
  const io::CaseSpec& spec = problem.spec;
  const march::TimeMarchInput input = io::time_march_input<G>(problem);
  const int J = spec.J, A = spec.A;
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop_flag();
  march::check_time_march(model, input, options);

  // 2. Stability numbers of theory §6.1, before marching (warnings print even with -q).
  const march::StabilityNumbers numbers = problem.stability();
  const std::string warning = march::time_march_warning(numbers, spec.dt);
  if (!warning.empty()) std::cerr << "field: warning: " << warning << "\n";

  // 3. The run folder and its writers (observers of the rows, in order). From here on, SIGINT
  // and SIGTERM stop the march after its current row (apps/interrupt.hpp).
  install_stop_signals();
  const fs::path dir = args.out.empty() ? default_run_folder(spec) : args.out;
  prepare_run_folder(dir, common.force, spec.input_files());
  write_run_case(dir, spec);
  const int stride = spec.output.stride;
  std::vector<std::unique_ptr<march::SlabObserver>> writers;
  if (spec.output.csv)
    writers.push_back(std::make_unique<io::FieldCsvWriter>(dir / "field.csv", problem.mesh, true,
                                                           spec.left_side(), stride));
  if (spec.output.tip)
    writers.push_back(std::make_unique<io::TipCsvWriter<G>>(dir / "tip.csv", model));
  const int vtk_stride = spec.output.vtk_rows_stride(J);  // "auto": at most ~400 frames
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
  // field.csv, complete by default and the costliest output by far (docs/performance.md, "Whole
  // runs"), is formatted and written on a thread of its own (io/writer_thread.hpp): the same
  // bytes, the march only copies each row. FIELD_WRITER_THREAD=0 writes it on the march's thread
  // (tests compare both, measurements).
  std::vector<march::SlabObserver*> observers;
  for (auto& w : writers) observers.push_back(w.get());
  std::unique_ptr<io::WriterThread> writer_thread;
  const char* thread_setting = std::getenv("FIELD_WRITER_THREAD");
  if (spec.output.csv && !(thread_setting != nullptr && std::string(thread_setting) == "0")) {
    writer_thread = std::make_unique<io::WriterThread>(std::vector{observers.front()});
    observers.front() = writer_thread.get();
  }
  observers.push_back(&diagnostics);

  // 4. March; an error raised after this point is a run failure (apps/run_outcome.hpp).
  const march::MarchResult result = march_safely(
      [&](const std::vector<march::SlabObserver*>& all) {
        return march::time_march(model, input, all, options);
      },
      observers, problem_found);
  progress.done();
  series.close();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // 5. Summary (stdout and summary.json).
  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "simulate");
  summary.text("case", spec.file.string());
  const RunOutcome outcome = run_outcome(result, problem_found, kTimeWords, warning,
                                         spec.newton.tolerance, spec.newton.max_iterations);
  write_outcome(summary, outcome, result, kTimeWords);
  summary.number("threads", threads);
  summary.number("wall_time_s", wall);
  summary.number("node_updates", double(result.node_solves));
  summary.number("newton_iterations", double(result.newton_iterations));
  stats.write(summary, "E_0", "energy_range_relative", "P_0");
  summary.number("newton_max_iterations", stats.newton_max);
  summary.number("cfl_time", numbers.cfl_time);
  summary.number("cutoff_term", numbers.cutoff_term);
  summary.write(dir);

  std::printf("%s: time march (%s), A = %d, J = %d, dt = %g s, ds = %g m, T = %g s\n",
              spec.name.c_str(), lie::retraction_name<G>().c_str(), A, J, spec.dt, spec.ds,
              spec.duration());
  std::printf("  %lld node updates in %.3f s (%.3g per second)\n", result.node_solves, wall,
              result.node_solves / std::max(wall, 1e-9));
  std::printf("  energy E_0 = %.15g J, (max E - min E)/|E_0| = %.3e\n", stats.E0,
              stats.energy_range());
  std::printf("  momentum P_0 = %s, max |P_j - P_0| = %.3e\n", vector_text(stats.momentum0).c_str(),
              stats.drift);
  std::printf("  Noether balance per row <= %.2e (relative), Newton <= %d iterations\n",
              stats.balance, stats.newton_max);
  if (spec.output.vtk) print_vtk_rows(spec);
  std::printf("  wrote %s: %s\n", dir.string().c_str(), list_outputs(dir).c_str());
  if (!outcome.message.empty()) std::fprintf(stderr, "%s\n", outcome.message.c_str());
  return outcome.exit_code;
}

}  // namespace

Runner add_simulate(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand("simulate", "Time march of a case file (theory §6.1)");
  add_common_options(*sub, common);
  auto args = std::make_shared<Args>();
  sub->add_option("CASE", args->case_file, "case file (TOML), e.g. meshes/free_flight/case.toml")
      ->required();
  sub->add_option("--out", args->out, "output folder (default: runs/<case name>)");
  return [args, &common]() { return run_simulate(*args, common); };
}

}  // namespace field::app

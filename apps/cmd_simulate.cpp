// `field simulate CASE.toml [--out DIR]`: the time march of theory §6.1 on a case file, with
// field.csv, time_series.csv, tip.csv, beam.pvd + frames/, spacetime.vtu, run.toml and
// summary.json in DIR (docs/cli.md, docs/output-format.md).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <type_traits>

#include "apps/commands.hpp"
#include "apps/group_text.hpp"
#include "apps/thread_count.hpp"
#include "apps/time_march_run.hpp"
#include "apps/wait_policy.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/memory_estimate.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/march/time_march.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path case_file;
  fs::path out;
};

template <class G>
int march_case(const Args& args, const CommonOptions& common,
               std::chrono::steady_clock::time_point start, int threads,
               const io::TimeCase<G>& time_case);

int run_simulate(const Args& args, const CommonOptions& common) {
  const auto start = std::chrono::steady_clock::now();
  // 1. Read and validate everything before touching the output folder: the case, its data
  // files, the memory the run needs, the march's input (march::check_time_march).
  io::CaseSpec spec = io::load_case(args.case_file);
  FIELD_CHECK(spec.march == io::MarchKind::time,
              spec.file.string() << ": march = \"space\": this case is run by `field reconstruct`");
  io::check_memory(spec);                                   // io/memory_estimate.hpp
  const int threads = run_threads(common.threads, spec.A);  // apps/thread_count.hpp
  use_passive_openmp_wait(threads, spec.A);                 // may start the program again, once
  // The case's theory and retraction become the type G here, once (io::with_time_case): the
  // SE(3) beam with either retraction, the planar beam on SE(2) (theory §1.7) or the cable on
  // R^3 (theory §1.8).
  return io::with_time_case(spec, [&](const auto& time_case) {
    return march_case(args, common, start, threads, time_case);
  });
}

// Steps 1 (the march's input) to 5 of run_simulate with the discrete model of the case.
template <class G>
int march_case(const Args& args, const CommonOptions& common,
               std::chrono::steady_clock::time_point start, int threads,
               const io::TimeCase<G>& time_case) {
  const io::CaseSpec& spec = time_case.spec;
  const int J = spec.J, A = spec.A;

  // 2-4. The stability warning, the run folder and its writers, the march
  // (apps/time_march_run.hpp).
  TimeMarchRunOptions options;
  options.out = args.out;
  const auto run = run_time_march(time_case, options, common, threads, start);
  const march::MarchResult& result = run.result;
  const auto& stats = run.stats;

  // 5. Summary (stdout and summary.json).
  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "simulate");
  summary.text("case", spec.file.string());
  summary.text("theory", io::theory_name(spec));
  write_time_march_summary(summary, run, threads);
  summary.write(run.dir);

  const std::string group = group_text<G>(spec);
  std::printf("%s: time march (%s), A = %d, J = %d, dt = %g s, ds = %g m, T = %g s\n",
              spec.name.c_str(), group.c_str(), A, J, spec.dt, spec.ds, spec.duration());
  std::printf("  %lld node updates in %.3f s (%.3g per second)\n", result.node_solves, run.wall,
              result.node_solves / std::max(run.wall, 1e-9));
  print_energy_figure(stats);
  std::printf("  momentum P_0 = %s, max |P_j - P_0| = %.3e\n",
              vector_text(stats.momentum0, "%.10g", "(", ")").c_str(), stats.drift);
  std::printf("  Noether balance per row <= %.2e (relative), Newton <= %d iterations\n",
              stats.balance, stats.newton_max);
  if (spec.output.vtk)  // a continued run writes frames from row k-1 (io/checkpoint.hpp)
    print_vtk_rows(spec, result.last_slab, std::max(time_case.input.resume.k - 1, 0));
  std::printf("  wrote %s: %s\n", run.dir.string().c_str(), list_outputs(run.dir).c_str());
  if (!run.outcome.message.empty()) std::fprintf(stderr, "%s\n", run.outcome.message.c_str());
  return run.outcome.exit_code;
}

}  // namespace

Runner add_simulate(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand("simulate", "Time march of a case file (theory §6.1)");
  add_common_options(*sub, common);
  auto args = std::make_shared<Args>();
  sub->add_option("CASE", args->case_file, "case file (TOML), e.g. meshes/free_flight/case.toml")
      ->required();
  sub->add_option("--out", args->out, "output folder (default: runs/<case name>)")
      ->check(path_value());
  return [args, &common]() { return run_simulate(*args, common); };
}

}  // namespace field::app

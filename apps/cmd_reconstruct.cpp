// `field reconstruct CASE.toml [--tip TIP.csv] [--out DIR]`: the space march of theory §6.2:
// the motion of the whole beam from the measured motion and strain of its tip a = 0. Writes
// field.csv (by columns), space_series.csv, beam.pvd + frames/, spacetime.vtu, run.toml and
// summary.json in DIR (docs/cli.md, docs/output-format.md). The planar beam (theory §1.7)
// marches on SE(2) and writes the outputs of the SE(3) beam in the plane (march::PlanarEmbedding);
// the cable (theory §1.8) on R^3 from its tip.csv, a taut cable only (theory §6.2 (6.2.3)), with
// its own outputs (cable.pvd). Steps 3 to 5 are one template for every theory (SpaceCase<G>).
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "apps/commands.hpp"
#include "apps/group_text.hpp"
#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "apps/reconstruct_driven.hpp"
#include "apps/reconstruct_estimate.hpp"
#include "apps/run_folder.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_row.hpp"
#include "apps/series_stats.hpp"
#include "apps/thread_count.hpp"
#include "apps/wait_policy.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/frames.hpp"
#include "libfield/io/memory_estimate.hpp"
#include "libfield/io/plain_space_case.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/io/series_columns.hpp"
#include "libfield/io/space_prediction.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/planar_embedding.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/noether/planar_series_row.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path case_file;
  fs::path tip;
  fs::path out;
};

/// Writes the VTK files of a space march from its recorded columns 0..A_done, row by row, with
/// `model` the writers' model on those columns.
template <class W>
void write_vtk(const fs::path& dir, const io::CaseSpec& spec, const dcel::DiscreteModel<W>& model,
               const mesh::Boundary& boundary, const mesh::BasicField<lie::ElementOf<W>>& field) {
  const int A_done = model.mesh().A();
  const int stride = spec.output.vtk_rows_stride(spec.J);
  io::FramesWriter frames(dir, model, mesh::Side::prescribed, stride);
  io::SpacetimeWriter spacetime(dir / "spacetime.vtu", model, boundary, stride);
  std::vector<lie::ElementOf<W>> row(A_done + 1);
  for (int j = 0; j <= spec.J; ++j) {
    for (int a = 0; a <= A_done; ++a) row[a] = field(j, a);
    frames.slab(j, row, {});
    spacetime.slab(j, row, {});
  }
  frames.finish();
  spacetime.finish();
}

/// A space march ready to run (steps 1 and 2 of run_reconstruct done): the case, its model and
/// input on G, and what the run folder's writers take, on the output group W (SE(3) for the
/// planar beam, io::OutputGroup).
template <class G>
struct SpaceCase {
  using W = typename io::OutputGroup<G>::type;
  using E = lie::ElementOf<W>;
  const io::CaseSpec& spec;
  const dcel::DiscreteModel<G>& model;
  const march::SpaceMarchInputOf<G>& input;
  const march::MarchOptions& options;
  mesh::Boundary boundary;
  std::string note;  ///< how the tip data met the grid
  march::StabilityNumbers numbers;
  std::string warning;  ///< the stability warning of theory §6.2, or empty
  std::optional<march::SpacePrediction> prediction;  ///< theory §6.3 (the beam's)
  /// Writes the VTK files of columns 0..A_done of the recorded field.
  std::function<void(const fs::path&, const mesh::BasicField<E>&, int)> write_vtk;
};

template <class G>
int run_space_case(const Args& args, const CommonOptions& common,
                   std::chrono::steady_clock::time_point start, int threads,
                   const SpaceCase<G>& sc);

template <class G>
int march_case(const Args& args, const CommonOptions& common,
               std::chrono::steady_clock::time_point start, const io::Problem& problem, int threads,
               const dcel::DiscreteModel<G>& model);

// Steps 1 and 2 of run_reconstruct for a theory without the beam's extras
// (io/plain_space_case.hpp): the cable on R^3 (theory §1.8, io::CableProblem) or a registered
// theory (io::RegisteredProblem<G>): its tip.csv, the branch of its data (march::check_space_march,
// the cable's taut one, theory §6.2 (6.2.3)), its stability numbers; no prediction (theory §6.3 is
// the beam's).
template <class Problem>
int reconstruct_plain(const Args& args, const CommonOptions& common,
                      std::chrono::steady_clock::time_point start, const io::CaseSpec& spec,
                      int threads, const Problem& problem) {
  using G = typename decltype(std::declval<const Problem&>().model)::Group;
  const io::PlainSpaceSetup<G> setup =
      io::plain_space_input<G>(spec, problem.model.density().wave_speeds().c_E);
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop_flag();
  march::check_space_march(problem.model, setup.input, options);
  const march::StabilityNumbers numbers = problem.stability();
  const mesh::Boundary boundary = march::space_boundary(setup.input);
  const SpaceCase<G> sc{spec,
                        problem.model,
                        setup.input,
                        options,
                        boundary,
                        setup.note,
                        numbers,
                        march::space_march_warning(numbers, spec.dt),
                        std::nullopt,
                        [&](const fs::path& dir, const mesh::FieldOf<G>& field, int A_done) {
                          const mesh::SpacetimeMesh done(spec.J, A_done, spec.dt, spec.ds);
                          const dcel::DiscreteModel<G> model(problem.model.density(), problem.loads,
                                                             done);
                          write_vtk(dir, spec, model, boundary, field);
                        }};
  return run_space_case(args, common, start, threads, sc);
}

int run_reconstruct(const Args& args, const CommonOptions& common) {
  const auto start = std::chrono::steady_clock::now();
  // 1. Read and validate everything before touching the output folder: the case, its data
  // files, the memory the run needs, the march's input (march::check_space_march).
  io::CaseSpec spec = io::load_case(args.case_file);
  FIELD_CHECK(spec.march == io::MarchKind::space,
              spec.file.string() << ": march = \"time\": this case is run by `field simulate`");
  if (!args.tip.empty()) spec.tip = fs::absolute(args.tip).lexically_normal();
  io::check_memory(spec);
  // The space march is parallel over the rows j, the driven time march over the nodes a, the
  // estimator over the unknowns of a time row (all threads by default from 16 nodes a row,
  // waiting passively).
  const bool estimate = spec.reconstruct.method == io::ReconstructSpec::Method::estimate;
  const int slab_nodes = spec.marches_in_time() ? spec.A : spec.J;
  const int threads = estimate ? estimate_threads(common.threads, spec.A)  // apps/thread_count.hpp
                               : run_threads(common.threads, slab_nodes);
  // May start the program again, once.
  use_passive_openmp_wait(threads, estimate ? march::kParallelMinNodes : slab_nodes);
  if (spec.theory == io::Theory::cable)
    return reconstruct_plain(args, common, start, spec, threads, io::CableProblem(spec));
  if (spec.theory == io::Theory::registered)  // io/registered_case.hpp
    return io::with_registered_problem(spec, [&](const auto& problem) {
      return reconstruct_plain(args, common, start, spec, threads, problem);
    });
  const io::Problem problem(spec);
  if (spec.reconstruct.method == io::ReconstructSpec::Method::driven)  // docs/reconstruction.md
    return problem.with_model([&](const auto& model) {
      return reconstruct_driven(args.out, common, start, problem, threads, model);
    });
  if (spec.reconstruct.method == io::ReconstructSpec::Method::estimate)  // theory §6.7
    return problem.with_model([&](const auto& model) {
      return reconstruct_estimate(args.out, common, start, problem, threads, model);
    });
  // The case's theory and retraction become the type G here, once: the planar beam on SE(2)
  // (theory §1.7, io::PlanarProblem) or the SE(3) beam with the case's retraction
  // (io::Problem::with_model).
  if (spec.theory == io::Theory::planar_beam) {
    const io::PlanarProblem planar(problem);
    return march_case(args, common, start, problem, threads, planar.model);
  }
  return problem.with_model(
      [&](const auto& model) { return march_case(args, common, start, problem, threads, model); });
}

// Steps 1 (the march's input) and 2 of run_reconstruct with the discrete model of a beam case.
template <class G>
int march_case(const Args& args, const CommonOptions& common,
               std::chrono::steady_clock::time_point start, const io::Problem& problem, int threads,
               const dcel::DiscreteModel<G>& model) {
  const io::CaseSpec& spec = problem.spec;
  constexpr bool planar = std::is_same_v<G, lie::Se2Cayley>;
  // The tip data of the SE(3) beam (the planar beam's in the plane, projected to SE(2)).
  const io::SpaceSetup setup = io::space_march_input(problem);
  march::SpaceMarchInputOf<G> input;
  if constexpr (planar)
    input = io::planar_space_input(problem, setup);
  else
    input = setup.input;
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop_flag();
  march::check_space_march(model, input, options);

  // 2. Stability numbers of theory §6.2, before marching (warnings print even with -q); the
  // planar beam's from its own wave speeds (theory §1.7).
  const march::StabilityNumbers numbers =
      planar ? problem.stability(model.density().wave_speeds()) : problem.stability();
  using W = typename io::OutputGroup<G>::type;
  const SpaceCase<G> sc{
      spec,
      model,
      input,
      options,
      problem.boundary(),
      setup.note,
      numbers,
      march::space_march_warning(numbers, spec.dt),
      io::predict_space_march(problem, setup.input),
      [&](const fs::path& dir, const mesh::BasicField<lie::ElementOf<W>>& field, int A_done) {
        const io::Problem done(problem, spec.J, A_done);
        write_vtk(dir, spec, done.model<W>(), done.boundary(), field);
      }};
  // Know before you march (theory §6.3; the planar beam's prediction is the SE(3) beam's in the
  // plane): refuse, as invalid input, when the predicted far-end error exceeds [tip]
  // max_predicted_error (printed after the note and the stability warning).
  if (!common.quiet) std::cerr << "field: " << setup.note << "\n";
  if (!sc.warning.empty()) std::cerr << "field: warning: " << sc.warning << "\n";
  const march::TipNoise noise = io::tip_noise(spec);
  if (!common.quiet)
    std::cerr << "field: prediction (theory §6.3)\n"
              << march::prediction_report(*sc.prediction, noise) << "\n";
  for (const std::string& w : io::prediction_warnings(problem, setup, *sc.prediction))
    std::cerr << "field: warning: " << w << "\n";
  const std::string refusal = march::refusal_message(*sc.prediction, noise);
  FIELD_CHECK(refusal.empty(), spec.file.string() << ": " << refusal);
  return run_space_case(args, common, start, threads, sc);
}

// Steps 3 (the run folder) to 5 of run_reconstruct for a space march of any theory.
template <class G>
int run_space_case(const Args& args, const CommonOptions& common,
                   std::chrono::steady_clock::time_point start, int threads,
                   const SpaceCase<G>& sc) {
  using E = typename SpaceCase<G>::E;
  const io::CaseSpec& spec = sc.spec;
  const dcel::DiscreteModel<G>& model = sc.model;
  constexpr bool planar = std::is_same_v<G, lie::Se2Cayley>;
  const int J = spec.J, A = spec.A;
  if (!sc.prediction) {  // the beam's printed these with its prediction (march_case)
    if (!common.quiet) std::cerr << "field: " << sc.note << "\n";
    if (!sc.warning.empty()) std::cerr << "field: warning: " << sc.warning << "\n";
  }

  // 3. The run folder and its writers (observers of the columns, in order). From here on,
  // SIGINT and SIGTERM stop the march after its current column (apps/interrupt.hpp).
  install_stop_signals();
  const fs::path dir = args.out.empty() ? default_run_folder(spec) : args.out;
  prepare_run_folder(dir, common.force, spec.input_files());
  write_run_case(dir, spec);
  const mesh::SpacetimeMesh& mesh = model.mesh();
  std::unique_ptr<io::BasicFieldCsvWriter<E>> csv;
  if (spec.output.csv)
    csv = std::make_unique<io::BasicFieldCsvWriter<E>>(dir / "field.csv", mesh, false,
                                                       mesh::Side::prescribed, spec.output.stride);
  march::BasicFieldRecorder<E> recorder(mesh, false);  // the frames are rows: keep the field
  // The work and the balance of E_M (theory (8.11), (8.12)) and the reactions of the prescribed
  // rows (theory (8.9)). With loads or a prescribed row the energy figure is the balance (theory
  // §8.1) instead of the relative range, as in a time march.
  const mesh::Boundary& boundary = sc.boundary;
  // On R^3 (the cable, the string) Q and the reactions are translations (theory (1.8.8)); the
  // planar beam's go into the SE(3) columns (noether::series_row).
  constexpr bool points = std::is_same_v<G, lie::Rn<3>>;
  io::CsvWriter series(dir / "space_series.csv", io::space_series_columns(boundary, points));
  BasicSeriesStats<std::conditional_t<points, Vec3, Vec6>> stats;
  stats.balanced = noether::work_applies(model.loads(), boundary, noether::SlabAxis::column);
  Progress progress("column", "s", A, !common.progress());
  if (stats.balanced) progress.energy_label("E_M-E_M0-W");
  RunProblem problem_found;
  const noether::SlabSides sides = noether::prescribed_sides(boundary, noether::SlabAxis::column);
  noether::SlabDiagnostics<G> diagnostics(
      model, noether::SlabAxis::column, boundary,
      [&](const auto& d) {
        if constexpr (planar)  // in the SE(3) columns (noether/planar_series_row.hpp)
          take_series_row(noether::series_row(d), kSpaceWords, sides, false, spec.ds, problem_found,
                          stats, series, progress);
        else
          take_series_row(d, kSpaceWords, sides, false, spec.ds, problem_found, stats, series,
                          progress);
      },
      noether::SeriesOptions{spec.output.series_stride, threads});
  std::vector<march::BasicSlabObserver<E>*> observers{&recorder};
  if (csv) observers.insert(observers.begin(), csv.get());
  // The planar diagnostics see the SE(2) columns projected back (bit for bit) from the embedded
  // ones that the SE(3) writers take.
  std::optional<march::PlanarProjection> projection;
  march::append_observer(observers, diagnostics, projection);

  // 4. March, then the VTK files from the recorded columns; an error raised after this point is
  // a run failure (apps/run_outcome.hpp).
  const march::MarchResult result = march_safely(
      [&](const std::vector<march::BasicSlabObserver<E>*>& all) {
        if constexpr (planar) {
          march::PlanarEmbedding embedding(all);
          return march::space_march(model, sc.input, {&embedding}, sc.options);
        } else {
          return march::space_march(model, sc.input, all, sc.options);
        }
      },
      observers, problem_found);
  progress.done();
  series.close();
  const int done = problem_found.error.empty() ? result.last_slab : problem_found.error_slab;
  if (spec.output.vtk && done >= 1) sc.write_vtk(dir, recorder.field(), done);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // 5. Summary (stdout and summary.json).
  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "reconstruct");
  summary.text("case", spec.file.string());
  summary.text("theory", io::theory_name(spec));
  summary.text("tip", spec.tip.string());
  summary.text("tip_note", sc.note);
  if (sc.prediction) {
    summary.number("predicted_far_end_error", sc.prediction->far_position);  // theory §6.3
    summary.number("predicted_far_end_rotation", sc.prediction->far_rotation);
    summary.number("recoverable_bandwidth", sc.prediction->bandwidth);
  }
  const RunOutcome outcome = run_outcome(result, problem_found, kSpaceWords, sc.warning,
                                         spec.newton.tolerance, spec.newton.max_iterations);
  write_outcome(summary, outcome, result, kSpaceWords);
  summary.number("threads", threads);
  summary.number("wall_time_s", wall);
  summary.number("node_updates", double(result.node_solves));
  summary.number("newton_iterations", double(result.newton_iterations));
  stats.write(summary, "E_M_0", "E_M_range_relative", "Q_0");
  stats.write_balance(summary);  // theory (8.12), in J s/m
  summary.number("newton_max_iterations", stats.newton_max);
  summary.number("cfl_space", sc.numbers.cfl_space);
  summary.write(dir);
  std::printf("%s: space march (%s), A = %d, J = %d, dt = %g s, ds = %g m, L = %g m\n",
              spec.name.c_str(), group_text<G>(spec).c_str(), A, J, spec.dt, spec.ds,
              spec.length());
  std::printf("  %lld node updates in %.3f s (%.3g per second)\n", result.node_solves, wall,
              result.node_solves / std::max(wall, 1e-9));
  if (stats.balanced)
    std::printf(
        "  E_M^0 = %.15g J s/m, balance max |E_M^a - E_M^0 - W_M^a| = %.3e J s/m (%.3e of the "
        "largest |E_M^a - E_M^0|, |W_M^a|)\n",
        stats.E0, stats.balance_max, stats.balance_relative());
  else
    std::printf("  E_M^0 = %.15g, (max E_M - min E_M)/|E_M^0| = %.3e\n", stats.E0,
                stats.energy_range());
  std::printf(
      "  max |Q^a - Q^0| = %.3e, Noether balance per column <= %.2e (relative), Newton "
      "<= %d iterations\n",
      stats.drift, stats.balance, stats.newton_max);
  if (spec.output.vtk && result.last_slab >= 1) print_vtk_rows(spec, spec.J);  // rows of the field
  std::printf("  wrote %s: %s\n", dir.string().c_str(), list_outputs(dir).c_str());
  if (!outcome.message.empty()) std::fprintf(stderr, "%s\n", outcome.message.c_str());
  return outcome.exit_code;
}

}  // namespace

Runner add_reconstruct(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand(
      "reconstruct", "Space march: the whole beam from the motion and strain of its tip");
  add_common_options(*sub, common);
  auto args = std::make_shared<Args>();
  sub->add_option("CASE", args->case_file, "case file (TOML), march = \"space\"")->required();
  sub->add_option("--tip", args->tip, "tip CSV (overrides the case's [tip] file)")
      ->check(path_value());
  sub->add_option("--out", args->out, "output folder (default: runs/<case name>)")
      ->check(path_value());
  return [args, &common]() { return run_reconstruct(*args, common); };
}

}  // namespace field::app

#include "apps/time_march_run.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <type_traits>

#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "apps/row_gate.hpp"
#include "apps/series_row.hpp"
#include "libfield/io/checkpoint.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/io/series_columns.hpp"
#include "libfield/io/writer_thread.hpp"
#include "libfield/march/planar_embedding.hpp"
#include "libfield/noether/planar_series_row.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

/// Whether two poses (SE(3), SE(2)), or two points of R^3, are the same, bit for bit.
template <class E>
bool same(const E& g, const E& h) {
  if constexpr (std::is_same_v<E, Vec3>)
    return g == h;
  else
    return g.R == h.R && g.r == h.r;
}

/// A prescribed end that moves (a driven end): its pose differs from row 0's on some row.
template <class E>
bool driven(const march::BasicSideSpec<E>& end, int J) {
  if (end.is_free()) return false;
  const E g0 = end.motion(0);
  for (int j = 1; j <= J; ++j)
    if (!same(end.motion(j), g0)) return true;
  return false;
}

// What a checkpoint carries besides the march (io/checkpoint.hpp): the series' state
// (noether::BasicSeriesState), the running statistics of the report and summary.json
// (apps/series_stats.hpp) and the counts of node updates and Newton iterations.
// The planar beam's series state is that of SE(2) (V = Vec3; it has no damping).
template <class V>
std::vector<std::pair<std::string, double>> checkpoint_numbers(
    const noether::BasicSeriesState<V>& series, const SeriesStats& stats, long long node_solves,
    long long newton_iterations) {
  std::vector<std::pair<std::string, double>> n = {{"E0", series.E0},
                                                   {"scale_glob", series.scale_glob},
                                                   {"work_loads", series.work_loads},
                                                   {"work_ends", series.work_sides},
                                                   {"node_solves", double(node_solves)},
                                                   {"newton_iterations", double(newton_iterations)},
                                                   {"stats_started", stats.started ? 1.0 : 0.0},
                                                   {"stats_E0", stats.E0},
                                                   {"stats_E_min", stats.E_min},
                                                   {"stats_E_max", stats.E_max},
                                                   {"stats_drift", stats.drift},
                                                   {"stats_balance", stats.balance},
                                                   {"stats_newton_max", double(stats.newton_max)},
                                                   {"stats_balance_max", stats.balance_max},
                                                   {"stats_exchanged", stats.exchanged}};
  for (int i = 0; i < 6; ++i) n.emplace_back("stats_P0_" + std::to_string(i), stats.momentum0(i));
  if (series.damping) n.emplace_back("dissipated", series.damping->dissipated);
  return n;
}

template <class V>
noether::BasicSeriesState<V> series_state(const io::Checkpoint& c) {
  // (the cable has no checkpoint: io/cable_case.hpp refuses the keys)
  noether::BasicSeriesState<V> s{c.number("E0"), c.number("scale_glob"), c.number("work_loads"),
                                 c.number("work_ends"), std::nullopt};
  if constexpr (std::is_same_v<V, Vec6>) {  // the planar beam has no damping
    if (!c.damping_xi.empty())
      s.damping = noether::DampingState<Vec6>{c.number("dissipated"), c.damping_xi, c.damping_eta,
                                              c.damping_D2};
  }
  return s;
}

template <class V>
void restore_stats(const io::Checkpoint& c, BasicSeriesStats<V>& stats) {
  stats.started = c.number("stats_started") != 0.0;
  stats.E0 = c.number("stats_E0");
  stats.E_min = c.number("stats_E_min");
  stats.E_max = c.number("stats_E_max");
  stats.drift = c.number("stats_drift");
  stats.balance = c.number("stats_balance");
  stats.newton_max = static_cast<int>(c.number("stats_newton_max"));
  stats.balance_max = c.number("stats_balance_max");
  stats.exchanged = c.number("stats_exchanged");
  for (int i = 0; i < stats.momentum0.size(); ++i)
    stats.momentum0(i) = c.number("stats_P0_" + std::to_string(i));
}

}  // namespace

template <class G>
bool energy_balance_applies(const dcel::DiscreteModel<G>& model,
                            const march::TimeMarchInputOf<G>& input) {
  // Damping: its D_j enters the balance (theory §4.7).
  return !model.loads().empty() || model.loads().damping.any() ||
         driven(input.left, model.mesh().J()) || driven(input.right, model.mesh().J());
}

template <class G>
TimeMarchRunOf<G> run_time_march(const io::TimeCase<G>& time_case, const TimeMarchRunOptions& run,
                                 const CommonOptions& common, int threads,
                                 std::chrono::steady_clock::time_point start) {
  constexpr bool planar = std::is_same_v<G, lie::Se2Cayley>;
  // The cable's rows and series are points and translations of R^3 (theory §1.8).
  constexpr bool cable = std::is_same_v<G, lie::Rn<3>>;
  using W = typename io::TimeCase<G>::W;
  using E = lie::ElementOf<W>;
  const io::CaseSpec& spec = time_case.spec;
  const dcel::DiscreteModel<G>& model = time_case.model;
  const march::TimeMarchInputOf<G>& input = time_case.input;
  const int J = spec.J;
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop_flag();
  try {  // the march's own checks name no file: the case's, before their message
    march::check_time_march(model, input, options);
  } catch (const IoError&) {
    throw;
  } catch (const Error& e) {
    throw Error(spec.file.string() + ": " + e.what());
  }
  if (!run.note.empty() && !common.quiet) std::cerr << "field: " << run.note << "\n";

  // Stability numbers of theory §6.1, before marching (warnings print even with -q).
  TimeMarchRunOf<G> r;
  r.numbers = time_case.numbers;
  const std::string warning = march::time_march_warning(r.numbers, spec.dt);
  if (!warning.empty()) std::cerr << "field: warning: " << warning << "\n";
  const std::string damping =
      march::stiffness_damping_warning(r.numbers, spec.dt, spec.loads.damping.stiffness);
  if (!damping.empty()) std::cerr << "field: warning: " << damping << "\n";
  const std::string mass_damping = march::mass_damping_warning(spec.dt, spec.loads.damping.mass);
  if (!mass_damping.empty()) std::cerr << "field: warning: " << mass_damping << "\n";

  // A continued run (io/checkpoint.hpp) starts with rows k-1 and k of the state again; its
  // series and statistics go on from the checkpoint's.
  const bool continued = input.resume.k >= 1;
  const int first_row = continued ? input.resume.k - 1 : 0;
  // Every number it must hold is read before the run folder is made: a checkpoint without one
  // is invalid input (exit 4), not a run failure that leaves a folder.
  std::optional<noether::BasicSeriesState<lie::AlgebraOf<G>>> resumed_series;
  if (continued) {
    const io::Checkpoint checkpoint = io::read_checkpoint(spec.initial.checkpoint);
    resumed_series = series_state<lie::AlgebraOf<G>>(checkpoint);
    restore_stats(checkpoint, r.stats);
    // the node updates and iterations of the runs before
    r.node_solves_before = static_cast<long long>(checkpoint.number("node_solves"));
    r.newton_iterations_before = static_cast<long long>(checkpoint.number("newton_iterations"));
  }

  // The run folder and its writers (observers of the rows, in order). From here on, SIGINT and
  // SIGTERM stop the march after its current row (apps/interrupt.hpp).
  install_stop_signals();
  r.dir = run.out.empty() ? default_run_folder(spec) : run.out;
  prepare_run_folder(r.dir, common.force, spec.input_files());
  write_run_case(r.dir, spec);
  // The case's writers (io/run_writers.hpp): the node texts (field.csv, field_rates.csv: the
  // costliest outputs) run on a thread of their own; spacetime.vtu holds the whole march from
  // row 0: not written by a continued run.
  const mesh::Boundary boundary = time_case.boundary();
  io::RunWriterOptions writer_options;
  writer_options.dir = r.dir;
  writer_options.boundary = boundary;
  writer_options.first_row = first_row;
  writer_options.tip = run.tip_csv;
  writer_options.spacetime = !continued;
  typename io::TimeCase<G>::Writers writers = time_case.writers(writer_options);
  // The reactions of the prescribed ends and the energy balance (theory §8.1), after the columns
  // every time series has had from the start; the cable's translations only (theory (1.8.8)).
  // A damped run adds D_j of theory (4.20) as the last column (theory §4.7).
  const bool damped = model.loads().damping.any();
  const std::vector<std::string> columns = io::time_series_columns(boundary, damped, cable);
  io::CsvWriter series(r.dir / "time_series.csv", columns);
  r.stats.balanced = energy_balance_applies(model, input);
  Progress progress("row", "t", J, !common.progress());
  if (r.stats.balanced) progress.energy_label("E-E0-W+D");
  RunProblem problem_found;
  // The outputs run behind the march on threads of their own (docs/performance.md, "Whole runs"
  // and "Series diagnostics"): the series diagnostics, time_series.csv, tip.csv and the VTK files
  // on one, field.csv and field_rates.csv (formatted: the costliest outputs) on another, fed by
  // the first. The march only copies each row. The same bytes as on the march's thread: the rows
  // reach every observer in order, and the gate (apps/row_gate.hpp) keeps the stop after a
  // non-finite diagnostic. FIELD_WRITER_THREAD=0 runs them all on the march's thread (tests compare
  // both, measurements).
  const char* thread_setting = std::getenv("FIELD_WRITER_THREAD");
  const bool output_threads = !(thread_setting != nullptr && std::string(thread_setting) == "0");
  const noether::SlabSides sides = noether::prescribed_sides(boundary, noether::SlabAxis::row);
  noether::SlabDiagnostics<G> diagnostics(
      model, noether::SlabAxis::row, boundary,
      [&](const auto& row) {
        if constexpr (planar)  // in the SE(3) columns (noether/planar_series_row.hpp)
          take_series_row(noether::series_row(row), kTimeWords, sides, damped, spec.dt,
                          problem_found, r.stats, series, progress);
        else
          take_series_row(row, kTimeWords, sides, damped, spec.dt, problem_found, r.stats, series,
                          progress);
      },
      // Behind the march the series take one thread (the same bits on any count).
      noether::SeriesOptions{spec.output.series_stride, output_threads ? 1 : threads});
  // The series and statistics go on from the run that wrote the checkpoint.
  if (resumed_series) diagnostics.resume(input.resume.k, *resumed_series);
  std::vector<march::BasicSlabObserver<E>*> texts, observers;
  for (auto& w : writers.texts) texts.push_back(w.get());
  std::unique_ptr<io::BasicWriterThread<E>> field_thread;
  if (!texts.empty() && output_threads) {
    field_thread = std::make_unique<io::BasicWriterThread<E>>(texts);
    observers.push_back(field_thread.get());
  } else {
    observers = texts;
  }
  for (auto& w : writers.others) observers.push_back(w.get());
  if constexpr (std::is_same_v<E, lie::SE3>)
    observers.insert(observers.end(), run.extra.begin(), run.extra.end());
  else
    FIELD_CHECK(run.extra.empty(), "run_time_march: observers of SE(3) rows on a march of points");
  // The planar diagnostics see the SE(2) rows again, projected (bit for bit) from the embedded
  // ones, so that one output thread and one gate serve both groups.
  std::optional<march::PlanarProjection> projection;
  march::append_observer(observers, diagnostics, projection);
  BasicRowGate<E> gate(observers, problem_found);
  std::unique_ptr<io::BasicWriterThread<E>> output_thread;
  if (output_threads) {
    output_thread = std::make_unique<io::BasicWriterThread<E>>(
        std::vector<march::BasicSlabObserver<E>*>{&gate});
    observers = {output_thread.get()};
  }

  // March; an error raised after this point is a run failure (apps/run_outcome.hpp).
  march::MarchState<lie::ElementOf<G>, lie::AlgebraOf<G>> end;  // checkpoint.txt
  r.result = march_safely(
      [&](const std::vector<march::BasicSlabObserver<E>*>& all) {
        if constexpr (planar) {
          march::PlanarEmbedding embedding(all);
          return march::time_march(model, input, {&embedding}, options, &end);
        } else {
          return march::time_march(model, input, all, options, &end);
        }
      },
      observers, problem_found);
  if (output_thread) {
    if (!problem_found.error.empty()) gate.finish_after_error();
    gate.settle(r.result, problem_found, J);
  }
  progress.done();
  series.close();
  // checkpoint.txt: the state after the last row of a run that completed or was interrupted
  // between rows, with every row through the outputs (not after a failure or a non-finite
  // diagnostic). The planar beam's march is stored embedded in SE(3) (march::embed_planar).
  // The cable has none (io/cable_case.hpp refuses the key).
  if constexpr (!cable) {
    if (spec.output.checkpoint && end.k >= 1 && problem_found.error.empty() &&
        problem_found.non_finite.empty() && r.result.last_slab == end.k) {
      io::Checkpoint out;
      out.retraction = spec.retraction;
      out.theory = spec.theory;
      out.case_hash = io::checkpoint_case_hash(spec);
      out.A = spec.A;
      out.dt = spec.dt;
      out.ds = spec.ds;
      if constexpr (planar)
        out.march = march::embed_planar(end);
      else
        out.march = std::move(end);
      const auto state = diagnostics.state();
      out.numbers = checkpoint_numbers(state, r.stats, r.result.node_solves + r.node_solves_before,
                                       r.result.newton_iterations + r.newton_iterations_before);
      if constexpr (!planar) {
        if (state.damping) {  // theory §4.7: the damping terms of row k-2
          out.damping_xi = state.damping->xi;
          out.damping_eta = state.damping->eta;
          out.damping_D2 = state.damping->D2;
        }
      }
      io::write_checkpoint(r.dir / "checkpoint.txt", out);
    }
  }
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.outcome = run_outcome(r.result, problem_found, kTimeWords, warning, spec.newton.tolerance,
                          spec.newton.max_iterations);
  return r;
}

template <class V>
void write_time_march_summary(Summary& summary, const BasicTimeMarchRun<V>& run, int threads) {
  write_outcome(summary, run.outcome, run.result, kTimeWords);
  summary.number("threads", threads);
  summary.number("wall_time_s", run.wall);
  // A continued run counts the runs before it too (the whole march's figures).
  summary.number("node_updates", double(run.result.node_solves + run.node_solves_before));
  summary.number("newton_iterations",
                 double(run.result.newton_iterations + run.newton_iterations_before));
  run.stats.write(summary, "E_0", "energy_range_relative", "P_0");
  run.stats.write_balance(summary);
  summary.number("newton_max_iterations", run.stats.newton_max);
  summary.number("cfl_time", run.numbers.cfl_time);
  summary.number("cutoff_term", run.numbers.cutoff_term);
}

#define FIELD_INSTANTIATE(G)                                                                       \
  template TimeMarchRunOf<G> run_time_march<G>(const io::TimeCase<G>&, const TimeMarchRunOptions&, \
                                               const CommonOptions&, int,                          \
                                               std::chrono::steady_clock::time_point);             \
  template bool energy_balance_applies<G>(const dcel::DiscreteModel<G>&,                           \
                                          const march::TimeMarchInputOf<G>&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE
template void write_time_march_summary(Summary&, const BasicTimeMarchRun<Vec6>&, int);
template void write_time_march_summary(Summary&, const BasicTimeMarchRun<Vec3>&, int);

}  // namespace field::app

// `field static CASE.toml [--out DIR]`: the static equilibrium of a time-march case under its
// loads (theory §4.5), with field.csv (one row), beam.pvd + frames/ (one frame), run.toml and
// summary.json (with the convergence report) in DIR (docs/cli.md).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/commands.hpp"
#include "apps/run_folder.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/frames.hpp"
#include "libfield/io/static_setup.hpp"
#include "libfield/statics/static_residual.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path case_file;
  fs::path out;
};

// A JSON value: a number with 17 significant digits, null when not finite (docs/output-format.md
// §8), or the text given (true, false, an array).
void json_value(std::ostream& out, double v) {
  if (std::isfinite(v))
    out << v;
  else
    out << "null";
}
void json_value(std::ostream& out, const std::string& text) {
  out << text;
}

// A JSON array of the values of `items`.
template <class T, class F>
std::string json_array(const std::vector<T>& items, F&& value) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out << ", ";
    json_value(out, value(items[i]));
  }
  out << "]";
  return out.str();
}

template <class G>
int static_case(const Args& args, const CommonOptions& common,
                std::chrono::steady_clock::time_point start, const io::Problem& problem,
                const dcel::DiscreteModel<G>& model) {
  const io::CaseSpec& spec = problem.spec;
  // 1. The start row and the ends (input errors before any output).
  const statics::StaticInput input = io::static_input<G>(problem);
  statics::StaticOptions options = io::static_options(spec);
  options.on_step = [&](const statics::LoadStep& s) {
    if (!common.progress()) return;
    std::fprintf(stderr, "field: load %.6g: %s in %zu Newton iterations, residual %.2e\n",
                 s.fraction, s.converged ? "converged" : "failed", s.iterations.size(),
                 s.iterations.empty() ? 0.0 : s.iterations.back().residual);
  };
  // 2. The solve (theory §4.5).
  const statics::StaticResult result = statics::solve_static(model, input, options);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // 3. The run folder: the equilibrium (or the last converged row) as row 0 of a run.
  const fs::path dir = args.out.empty() ? default_run_folder(spec) : args.out;
  prepare_run_folder(dir, common.force, spec.input_files());
  write_run_case(dir, spec);
  if (spec.output.csv) {
    io::FieldCsvWriter csv(dir / "field.csv", problem.mesh, true, spec.left_side(), 1);
    csv.slab(0, result.row, {});
    csv.finish();
  }
  if (spec.output.vtk) {
    io::FramesWriter<G> frames(dir, model, spec.left_side(), 1);
    frames.slab(0, result.row, {});
    frames.finish();
  }

  // 4. summary.json with the convergence report, and the terminal report.
  const int A = spec.A;
  Summary summary;
  summary.text("field_version", FIELD_VERSION);
  summary.text("command", "static");
  summary.text("case", spec.file.string());
  summary.text("theory", io::theory_name(spec));
  summary.text("outcome", result.converged ? "converged" : "failed");
  if (!result.converged) summary.text("failure", result.failure);
  summary.text("retraction", lie::retraction_name<G>());
  summary.number("load_fraction", result.fraction);
  summary.number("relative_residual", result.relative_residual);
  summary.number("newton_iterations", result.newton_iterations);
  summary.number("load_steps_tried", static_cast<double>(result.steps.size()));
  summary.number("halvings", result.halvings);
  summary.number("static_energy", statics::static_energy(model, result.row, result.fraction));
  summary.number("wall_time_s", wall);
  const auto& steps = result.steps;
  summary.add("step_fraction", json_array(steps, [](const auto& s) { return s.fraction; }));
  summary.add("step_converged", json_array(steps, [](const auto& s) {
                return std::string(s.converged ? "true" : "false");
              }));
  summary.add("step_iterations",
              json_array(steps, [](const auto& s) { return double(s.iterations.size()); }));
  summary.add("step_residuals", json_array(steps, [](const auto& s) {
                return json_array(s.iterations, [](const auto& it) { return it.residual; });
              }));
  // The tip: node A, at s = A ds, for either kind of right end (a free end's massless node,
  // theory §4.6).
  const int tip_node = A;
  const Vec3& tip = result.row[tip_node].r;
  summary.add("tip_position", json_array(std::vector<double>{tip.x(), tip.y(), tip.z()},
                                         [](double v) { return v; }));
  summary.write(dir);

  std::printf("%s: static equilibrium (%s), A = %d, ds = %g m: %s at load fraction %g\n",
              spec.name.c_str(), lie::retraction_name<G>().c_str(), A, spec.ds,
              result.converged ? "converged" : "FAILED", result.fraction);
  std::printf(
      "  %zu load steps tried (%d halvings), %d Newton iterations, residual %.3e "
      "(relative), %.3f s\n",
      steps.size(), result.halvings, result.newton_iterations, result.relative_residual, wall);
  std::printf("  tip (node %d) at (%.10g, %.10g, %.10g) m\n", tip_node, tip.x(), tip.y(), tip.z());
  std::printf("  wrote %s: %s\n", dir.string().c_str(), list_outputs(dir).c_str());
  if (!result.converged) {
    std::fprintf(stderr, "field: static solve failed: %s\n", result.failure.c_str());
    return kSolverFailed;
  }
  return kSuccess;
}

int run_static(const Args& args, const CommonOptions& common) {
  const auto start = std::chrono::steady_clock::now();
  io::CaseSpec spec = io::load_case(args.case_file);
  FIELD_CHECK(spec.march == io::MarchKind::time,
              spec.file.string() << ": march = \"space\": the static solver takes a time-march "
                                    "case (march = \"time\")");
  FIELD_CHECK(spec.theory == io::Theory::beam,
              spec.file.string()
                  << ": theory = \"" << (spec.theory == io::Theory::cable ? "cable" : "planar_beam")
                  << "\": the static solver (theory §4.5) takes SE(3) beams only for now "
                     "(docs/lie-groups.md); a cable case can start from its static shape with "
                     "[initial] configuration = \"catenary\" (docs/cable.md)");
  const io::Problem problem(spec);
  return problem.with_model(
      [&](const auto& model) { return static_case(args, common, start, problem, model); });
}

}  // namespace

Runner add_static(CLI::App& app, CommonOptions& common) {
  CLI::App* sub =
      app.add_subcommand("static", "Static equilibrium of a case under its loads (theory §4.5)");
  add_common_options(*sub, common);
  auto args = std::make_shared<Args>();
  sub->add_option("CASE", args->case_file,
                  "case file (TOML), e.g. meshes/static_cantilever/case.toml")
      ->required();
  sub->add_option("--out", args->out, "output folder (default: runs/<case name>)")
      ->check(path_value());
  return [args, &common]() { return run_static(*args, common); };
}

}  // namespace field::app

// `field check DIR`: re-reads a run (run.toml and field.csv, or the complete rows of the
// field.csv.part of a killed run), recomputes the DCEL residuals of every equation node
// (theory §4), the Noether balance (theory §7.2) on every row and column of the equation nodes
// and on random rectangles, the energies (theory §8) and the momenta, prints a short report and
// exits with 3 if a residual exceeds its tolerance or the round-off floor of its terms
// (docs/theory.md section 7.4). A run of [reconstruct] method = "estimate" is checked on the
// equation nodes of the conditions it declared, against its model_error (theory §6.7).
// A run of `field static` (one row) is checked by its static residual (theory §4.5).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

#include "apps/commands.hpp"
#include "libfield/core/error.hpp"
#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/estimate_conditions.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/input_file.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/io/static_setup.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "libfield/noether/energy_balance.hpp"
#include "libfield/noether/work_series.hpp"
#include "libfield/statics/static_solve.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path dir;
  double residual_tolerance = 1e-11;  // theory §10 ii
  double noether_tolerance = 1e-12;   // theory §10 iii
  int rectangles = 200;
  double model_error_multiple = 6.0;  // estimate runs: max |G_n|/(dt ds) <= this x model_error
};

/// The largest rectangle of equation nodes: rows j_lo..j_hi, columns a_lo..a_hi.
noether::Rectangle equation_nodes(const mesh::SpacetimeMesh& mesh, const mesh::Boundary& b) {
  noether::Rectangle R{0, mesh.J(), 0, mesh.A()};
  while (R.j1 <= R.j2 && !mesh.is_equation_node(R.j1, (R.a1 + R.a2) / 2, b)) ++R.j1;
  while (R.j2 >= R.j1 && !mesh.is_equation_node(R.j2, (R.a1 + R.a2) / 2, b)) --R.j2;
  const int j_mid = (R.j1 + R.j2) / 2;
  while (R.a1 <= R.a2 && !mesh.is_equation_node(j_mid, R.a1, b)) ++R.a1;
  while (R.a2 >= R.a1 && !mesh.is_equation_node(j_mid, R.a2, b)) --R.a2;
  return R;
}

double range(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return (*hi - *lo) / std::max(std::abs(v.front()), 1e-300);
}

// DIR must be a folder holding run.toml (written first by simulate and reconstruct).
void require_run_folder(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error))
    throw IoError("'" + dir.string() + "' " +
                  (fs::exists(dir, error) ? "is not a folder" : "does not exist") +
                  "; give the run folder that field simulate or field reconstruct wrote");
  if (!fs::exists(dir / "run.toml", error))
    throw IoError("'" + dir.string() +
                  "' is not a run folder: it has no run.toml, which field simulate and field "
                  "reconstruct write first; give the folder of a run (their --out)");
}

// The text value of `name` in DIR/summary.json (the string without its quotes, or the number as
// written), or "" when the file is absent (a killed run) or has no such key.
std::string summary_value(const fs::path& dir, const std::string& name) {
  std::error_code error;
  if (!fs::exists(dir / "summary.json", error)) return "";
  // A fifo or a device in its place is refused, not read without end.
  std::ifstream in = io::open_input(dir / "summary.json", io::kCaseFileLimit, "summary file");
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str(), key = "\"" + name + "\"";
  size_t k = json.find(key);
  if (k == std::string::npos) return "";
  k = json.find_first_not_of(" \t", json.find(':', k + key.size()) + 1);
  if (k == std::string::npos) return "";
  if (json[k] != '"') return json.substr(k, json.find_first_of(",}\n", k) - k);
  const size_t end = json.find('"', k + 1);
  return end == std::string::npos ? "" : json.substr(k + 1, end - k - 1);
}

// The "status" of DIR/summary.json ("completed", "solver_failed", "interrupted", ...), or "".
std::string run_status(const fs::path& dir) {
  return summary_value(dir, "status");
}

// What read_run_field read: field.csv, or the field.csv.part of a killed run.
struct FieldSource {
  bool part = false;      // field.csv.part (field.csv absent)
  bool cut_line = false;  // its cut last line was dropped
  long long dropped = 0;  // nodes of its incomplete last slab, dropped
};

// Refuses a run whose field.csv does not hold every slab ("row" or "column").
void require_every_slab(const fs::path& dir, const io::CaseSpec& spec, const char* slab) {
  if (!spec.output.csv)
    throw IoError((dir / "run.toml").string() +
                  " has [output] csv = false: the run wrote no field.csv, which field check "
                  "reads; run the case again with csv = true and stride = 1");
  FIELD_CHECK(spec.output.stride == 1, (dir / "run.toml").string()
                                           << ": [output] stride = " << spec.output.stride
                                           << ": field.csv holds one " << slab << " in "
                                           << spec.output.stride << ", and field check needs every "
                                           << slab << "; run the case again with stride = 1");
  FIELD_CHECK(
      spec.initial.checkpoint.empty(),
      (dir / "run.toml").string()
          << ": [initial] checkpoint = '" << spec.initial.checkpoint.string()
          << "': a run continued from a checkpoint holds the rows from the checkpoint's on, "
             "and field check needs every row from 0; check the run that wrote the "
             "checkpoint, whose rows the continuation reproduces byte for byte (docs/cli.md, "
             "\"Continuing a run\")");
}

// The last row (time) or column of field.csv's nodes: at least 2 (the equations of a slab need
// the slabs on both sides) and at most the run's J (A): a field.csv with more is another run's
// (it was checked as far as it went).
template <class E>
int last_slab(const io::BasicFieldCsv<E>& csv, const io::CaseSpec& spec, bool time) {
  const char* slab = time ? "row" : "column";
  const std::vector<int>& index = time ? csv.j : csv.a;
  FIELD_CHECK(!index.empty(),
              csv.path.string() << " holds no complete " << slab << ": there is nothing to check");
  const auto at = std::max_element(index.begin(), index.end());
  const int last = *at, run_last = time ? spec.J : spec.A;
  FIELD_CHECK(last >= 2, csv.path.string()
                             << " holds " << slab << "s 0.." << last << " only: the equations of a "
                             << slab << " need the " << slab
                             << "s on both sides, so at least 0..2 are needed to check anything");
  const auto k = static_cast<std::size_t>(at - index.begin());
  FIELD_CHECK(last <= run_last, csv.path.string()
                                    << " line " << (k < csv.line.size() ? csv.line[k] : 0) << ": "
                                    << slab << " " << last << ", beyond the run's last " << slab
                                    << " " << run_last << " (" << (time ? "J" : "A")
                                    << " of run.toml): the file belongs to another run; give the "
                                       "field.csv this run wrote");
  return last;
}

// field.csv of the run folder, or the field.csv.part of a killed run with its cut last line and
// its incomplete last slab dropped.
io::FieldCsv read_run_field(const fs::path& dir, const io::CaseSpec& spec, bool time,
                            FieldSource& source) {
  const fs::path csv_path = dir / "field.csv", part = dir / "field.csv.part";
  const char* slab = time ? "row" : "column";
  require_every_slab(dir, spec, slab);
  if (fs::exists(csv_path)) return io::read_field_csv(csv_path);
  if (!fs::exists(part))
    throw IoError("'" + dir.string() +
                  "' has neither field.csv nor field.csv.part although its run.toml has csv = "
                  "true: the file was removed, or the run was stopped before it began; run the "
                  "case again");
  io::FieldCsv csv = io::read_field_csv(part, true);
  source.part = true;
  source.cut_line = csv.cut_line;
  source.dropped = io::drop_incomplete_last_slab(csv, time, time ? spec.A + 1 : spec.J + 1);
  return csv;
}

template <class G>
int check_run(const Args& args, const io::CaseSpec& spec);

// A run folder of `field static` (summary.json "command": "static"): field.csv holds the one row
// of the equilibrium. Its static residual (theory §4.5, the solver's relative residual (4.10))
// at the load fraction reached must be round-off: <= --residual-tol.
template <class G>
int check_static(const Args& args, const io::CaseSpec& spec) {
  FIELD_CHECK(spec.output.csv, (args.dir / "run.toml").string()
                                   << " has [output] csv = false: the static run wrote no "
                                      "field.csv, which field check reads");
  const io::FieldCsv csv = io::read_field_csv(args.dir / "field.csv");
  std::vector<lie::SE3> row(spec.A + 1);
  std::vector<bool> found(spec.A + 1, false);
  for (size_t i = 0; i < csv.j.size(); ++i) {
    FIELD_CHECK(csv.j[i] == 0 && csv.a[i] >= 0 && csv.a[i] <= spec.A,
                csv.path.string() << ":" << csv.line[i] << ": node (" << csv.j[i] << ", "
                                  << csv.a[i]
                                  << ") is not in row 0 of a static run with A = " << spec.A);
    row[csv.a[i]] = csv.g[i], found[csv.a[i]] = true;
  }
  for (int a = 0; a <= spec.A; ++a)
    FIELD_CHECK(found[a], csv.path.string() << ": node (0, " << a << ") is missing");
  const io::Problem problem(spec);
  const dcel::DiscreteModel<G> model = problem.model<G>();
  const std::string fraction_text = summary_value(args.dir, "load_fraction");
  const double phi = fraction_text.empty() ? 1.0 : std::stod(fraction_text);
  const std::string outcome = summary_value(args.dir, "outcome");
  double relative =
      statics::static_relative_residual(model, io::static_input<G>(problem), row, phi);
  if (!std::isfinite(relative)) relative = INFINITY;  // never accept NaN
  const bool ok = relative <= args.residual_tolerance;
  std::printf("%s: static equilibrium, %s, row 0, nodes 0..%d, load fraction %g%s\n",
              args.dir.string().c_str(), lie::retraction_name<G>().c_str(), spec.A, phi,
              outcome.empty() || outcome == "converged"
                  ? ""
                  : (" (summary.json: outcome \"" + outcome + "\")").c_str());
  std::printf(
      "  static residual max |R_a|/max scale = %.3e over the free nodes (theory §4.5)  "
      "tolerance %.0e (round-off)  %s\n",
      relative, args.residual_tolerance, ok ? "ok" : "FAILED");
  std::printf("  %s\n", ok ? "check passed: the row is an equilibrium to round-off"
                           : "check FAILED: the row is not an equilibrium to round-off");
  return ok ? kSuccess : kSolverFailed;
}

// Step 2 for an estimate run (theory §6.7): the estimate minimises the sum of the squares of
// G_n / (dt ds model_error) and the weighted data misfits, so |G_n|/(dt ds) is small but not
// round-off. Each component has a standard deviation of at most model_error when the model holds
// to it (a least-squares residual's variance is 1 - leverage <= 1 of its weight's), so the check
// passes when max |G_n|/(dt ds) <= model_error_multiple x model_error (docs/cli.md).
template <class G>
bool check_estimate_residuals(const Args& args, const io::CaseSpec& spec,
                              const estimate::Conditions& conditions,
                              const dcel::DiscreteModel<G>& model, const mesh::Field& field,
                              const dcel::ResidualReport& roundoff) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const mesh::Boundary boundary = estimate::equation_boundary(conditions);
  double worst = 0.0;
  mesh::Node at{0, 0};
  long long nodes = 0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) {
      if (!mesh.is_equation_node(j, a, boundary)) continue;
      const Vec6 g = dcel::node_residual(model, field, j, a).G / (model.dt() * model.ds());
      double v = g.cwiseAbs().maxCoeff();
      if (!g.allFinite()) v = INFINITY;  // never accept NaN
      if (v >= worst) worst = v, at = {j, a};
      ++nodes;
    }
  const double sigma = spec.reconstruct.model_error, allowed = args.model_error_multiple * sigma;
  const bool ok = worst <= allowed;
  std::printf(
      "  DCEL residual   max |G_n|/(dt ds) = %.3e over %lld equation nodes of the declared "
      "conditions (far end %s, rows %s/%s; worst j = %d, a = %d) = %.3g x model_error %g  "
      "tolerance %g x model_error  %s\n",
      worst, nodes, io::far_end_name(spec.reconstruct), io::first_row_name(conditions),
      io::last_row_name(conditions), at.j, at.a, worst / sigma, sigma, args.model_error_multiple,
      ok ? "ok" : "FAILED");
  std::printf(
      "                  the estimate weighs these residuals against the tip data by model_error "
      "(theory §6.7): they need to be small, not round-off (here %.3g x the round-off tolerance "
      "of a march%s)\n",
      roundoff.ratio, roundoff.ratio <= 1.0 ? ": within round-off" : ": above round-off");
  return ok;
}

// Steps 2 (DCEL residuals) to 4 (energies and momenta) of run_check on the field of a run of
// the model on G (the beam, or the cable on R^3 of theory §1.8).
template <class G>
int check_equations(const Args& args, const io::CaseSpec& spec, const dcel::DiscreteModel<G>& model,
                    const mesh::FieldOf<G>& field, const mesh::Boundary& boundary, bool estimate,
                    bool time, const estimate::Conditions& conditions) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  // 2. DCEL residuals, theory §4: a node passes when |G_n| <= max(tol max scale, floor_n), the
  // round-off floor of its terms (docs/theory.md section 7.4).
  const std::vector<double> floors = dcel::residual_floors(model, field);
  const dcel::ResidualReport residual =
      dcel::residual_report(model, field, boundary, args.residual_tolerance, floors);
  bool residual_ok = residual.ratio <= 1.0;
  if constexpr (std::is_same_v<typename G::Element, lie::SE3>)  // estimates are SE(3) beams
    if (estimate)
      residual_ok = check_estimate_residuals(args, spec, conditions, model, field, residual);
  if (!estimate) {
    std::printf(
        "  DCEL residual   max |G_n|/scale = %.3e over %lld equation nodes (worst j = %d, a = %d)  "
        "tolerance max(%.0e, round-off floor <= %.1e)  %s\n",
        residual.relative, residual.nodes, residual.worst.j, residual.worst.a,
        args.residual_tolerance, residual.max_floor, residual_ok ? "ok" : "FAILED");
    std::printf("                  closest to its tolerance: node j = %d, a = %d, at %.3g x\n",
                residual.worst_ratio.j, residual.worst_ratio.a, residual.ratio);
  }

  // 3. Noether balance on rows, columns and random rectangles of equation nodes, theory §7.2.
  // A rectangle passes when |Res(R)| <= max(tol S, 10 eps terms(R) S + floor(R))
  // (noether::BalanceFloor::allowed): the evaluation round-off of the sum and the node floors.
  const noether::MomentumMaps<G> maps(model, field);
  const noether::BalanceFloor balance_floor(field, floors);
  const noether::Rectangle E = equation_nodes(mesh, boundary);
  struct Worst {
    double relative = 0.0, ratio = 0.0;
    noether::Rectangle R;
    void add(const noether::MomentumMaps<G>& maps, const noether::BalanceFloor& floor,
             const noether::Rectangle& r, double tol, double scale_glob) {
      const auto b = noether::noether_balance(maps, r, scale_glob);
      const double allowed = floor.allowed(r, b, scale_glob, tol);
      double q = b.residual.cwiseAbs().maxCoeff() / allowed;
      if (!b.residual.allFinite() || !std::isfinite(allowed)) q = INFINITY;  // never accept NaN
      relative = std::max(relative, b.relative);
      if (q >= ratio) ratio = q, R = r;
    }
  } rows, columns, random, all;
  int count = 0;
  if (E.j1 <= E.j2 && E.a1 <= E.a2) {
    const double tol = args.noether_tolerance, scale = noether::global_scale(maps);
    const noether::BalanceFloor& f = balance_floor;
    for (int j = E.j1; j <= E.j2; ++j) rows.add(maps, f, {j, j, E.a1, E.a2}, tol, scale);
    for (int a = E.a1; a <= E.a2; ++a) columns.add(maps, f, {E.j1, E.j2, a, a}, tol, scale);
    std::mt19937 rng(20261121);  // fixed seed: the same rectangles every time
    std::uniform_int_distribution<int> jd(E.j1, E.j2), ad(E.a1, E.a2);
    for (; count < args.rectangles; ++count) {
      const int j1 = jd(rng), j2 = jd(rng), a1 = ad(rng), a2 = ad(rng);
      random.add(maps, f, {std::min(j1, j2), std::max(j1, j2), std::min(a1, a2), std::max(a1, a2)},
                 tol, scale);
    }
  }
  for (const Worst* w : {&rows, &columns, &random})
    if (w->ratio >= all.ratio) all = *w;
  // An estimate's residuals are at the model-error level: their sums are not judged.
  const bool noether_ok = estimate || all.ratio <= 1.0;
  std::printf(
      "  Noether balance rows %.2e, columns %.2e, %d random rectangles %.2e  tolerance "
      "max(%.0e, 10 eps x terms + round-off floor)  %s\n",
      rows.relative, columns.relative, count, random.relative, args.noether_tolerance,
      estimate ? "not judged (sums of residuals that the estimate leaves at the model-error level)"
      : noether_ok ? "ok"
                   : "FAILED");
  std::printf(
      "                  closest to its tolerance: rectangle j = %d..%d, a = %d..%d, at %.3g x\n",
      all.R.j1, all.R.j2, all.R.a1, all.R.a2, all.ratio);

  // 4. Energies and momenta (reported, not judged: they depend on the case).
  if (time) {
    const std::vector<double> E_j = noether::time_energies(model, field);
    double drift = 0.0;
    const auto P0 = noether::total_time_momentum(maps, 0);
    for (int j = 1; j < mesh.J(); ++j)
      drift = std::max(drift, (noether::total_time_momentum(maps, j) - P0).cwiseAbs().maxCoeff());
    // With loads or a driven end the energy figure is the balance of theory §8.1, as in the
    // run's summary (the relative range means nothing when E_0 is about 0).
    const bool driven =
        !estimate &&
        ((boundary.left == mesh::Side::prescribed && noether::end_moves(field, 0)) ||
         (boundary.right == mesh::Side::prescribed && noether::end_moves(field, mesh.A())));
    const bool damped = model.loads().damping.any();
    if (!estimate && (!model.loads().empty() || driven || damped)) {
      const auto work = noether::field_work(model, field, noether::SlabAxis::row, boundary);
      const std::vector<double> D = dcel::dissipated_energy(model, field);  // theory (4.20)
      double worst = 0.0;
      for (const auto& w : work) {
        const size_t j = static_cast<size_t>(w.index);
        worst = std::max(worst, std::abs(noether::energy_balance(E_j[j], E_j.front(), w.work(),
                                                                 j < D.size() ? D[j] : 0.0)));
      }
      std::printf(
          "  energy E_0 = %.15g, balance max |E_j - E_0 - W_j%s| = %.3e J; momentum max |P_j - "
          "P_0| = %.3e\n",
          E_j.empty() ? 0.0 : E_j.front(), damped ? " + D_j" : "", worst, drift);
    } else {
      std::printf(
          "  energy E_0 = %.15g, (max - min)/|E_0| = %.3e; momentum max |P_j - P_0| = "
          "%.3e\n",
          E_j.empty() ? 0.0 : E_j.front(), range(E_j), drift);
    }
  } else {
    const std::vector<double> E_M = noether::space_energies(model, field);
    double drift = 0.0;
    const auto Q0 = noether::total_space_momentum(maps, 0);
    for (int a = 1; a < mesh.A(); ++a)
      drift = std::max(drift, (noether::total_space_momentum(maps, a) - Q0).cwiseAbs().maxCoeff());
    // With loads or a prescribed row the energy figure is the balance of theory (8.12), as in
    // the run's summary.
    bool balanced = false;
    double worst = 0.0;
    if constexpr (std::is_same_v<typename G::Element, lie::SE3>) {
      balanced = noether::work_applies(model.loads(), boundary, noether::SlabAxis::column);
      if (balanced)
        for (const auto& w : noether::field_work(model, field, noether::SlabAxis::column, boundary))
          worst =
              std::max(worst, std::abs(noether::energy_balance(E_M[static_cast<size_t>(w.index)],
                                                               E_M.front(), w.work(), 0.0)));
    }
    if (balanced)
      std::printf(
          "  E_M^0 = %.15g, balance max |E_M^a - E_M^0 - W_M^a| = %.3e J s/m; momentum max |Q^a - "
          "Q^0| = %.3e\n",
          E_M.empty() ? 0.0 : E_M.front(), worst, drift);
    else
      std::printf("  E_M^0 = %.15g, (max - min)/|E_M^0| = %.3e; momentum max |Q^a - Q^0| = %.3e\n",
                  E_M.empty() ? 0.0 : E_M.front(), range(E_M), drift);
  }
  const bool ok = residual_ok && noether_ok;
  std::printf("  %s\n", ok ? "check passed"
                           : "check FAILED: the field does not satisfy the "
                             "discrete equations to the tolerance");
  return ok ? kSuccess : kSolverFailed;
}

// `field check` of a run of a theory on a group with lie::Coordinates, built by `Problem` from
// the case (the cable, io::CableProblem, theory §1.8; a registered theory,
// io::RegisteredProblem<G>): field.csv's elements on the grid of its complete rows (a time march)
// or columns (the cable's `field reconstruct`, its rows j = 0 and J at zero momentum), checked by
// the equations of the theory (steps 2 to 4).
template <class Problem>
int check_group_run(const Args& args, const io::CaseSpec& spec, const std::string& what) {
  using G = typename decltype(std::declval<const Problem&>().model)::Group;
  using E = typename G::Element;
  const bool time = spec.march == io::MarchKind::time;
  const char* slab = time ? "row" : "column";
  require_every_slab(args.dir, spec, slab);
  const io::BasicFieldCsv<E> csv = io::read_field_csv<E>(args.dir / "field.csv");
  const int last = last_slab(csv, spec, time);
  io::CaseSpec grid = spec;
  (time ? grid.J : grid.A) = last;
  const Problem problem(grid);
  const mesh::FieldOf<G> field = io::assemble_field(csv, problem.mesh, time);
  const mesh::Boundary boundary =
      time ? march::time_boundary(problem.input)
           : mesh::Boundary::space_evolution(mesh::Side::natural, mesh::Side::natural);
  std::printf("%s: %s march, %s, rows 0..%d, columns 0..%d\n", args.dir.string().c_str(),
              time ? "time" : "space", what.c_str(), problem.mesh.J(), problem.mesh.A());
  return check_equations<G>(args, grid, problem.model, field, boundary, false, time,
                            io::conditions_of(spec.reconstruct));
}

int run_check(const Args& args) {
  // 1. The run: resolved case and field.
  require_run_folder(args.dir);
  const io::CaseSpec spec = io::load_case(args.dir / "run.toml");
  // The run's retraction becomes the type G here, once (lie::with_group).
  if (spec.theory == io::Theory::cable)
    return check_group_run<io::CableProblem>(args, spec, "cable on R^3 (theory §1.8)");
  if (spec.theory == io::Theory::registered) {  // io/registered_case.hpp
    return io::with_registered_group(spec, [&](auto group) {
      using G = decltype(group);
      return check_group_run<io::RegisteredProblem<G>>(
          args, spec, "theory \"" + spec.registered.name + "\" (registered) on " + G::name());
    });
  }
  const bool statics = summary_value(args.dir, "command") == "static";
  return lie::with_group(spec.retraction, [&](auto group) {
    return statics ? check_static<decltype(group)>(args, spec)
                   : check_run<decltype(group)>(args, spec);
  });
}

// Steps 1 (the field) to 4 of run_check, with the group and retraction G of the run.
template <class G>
int check_run(const Args& args, const io::CaseSpec& spec) {
  const bool estimate = io::is_estimate(spec);           // field.csv by rows, theory §6.7
  const bool time = spec.marches_in_time() || estimate;  // also a driven reconstruction
  FieldSource source;
  const io::FieldCsv csv = read_run_field(args.dir, spec, time, source);
  const char* slab = time ? "row" : "column";
  const int last = last_slab(csv, spec, time);
  const io::Problem full(spec);
  const io::Problem problem(full, time ? last : spec.J, time ? spec.A : last);
  const mesh::SpacetimeMesh& mesh = problem.mesh;
  const dcel::DiscreteModel<G> model = problem.model<G>();
  const mesh::Field field = io::assemble_field(csv, mesh, time);
  const estimate::Conditions conditions = io::conditions_of(spec.reconstruct);
  const mesh::Boundary boundary =
      estimate ? estimate::equation_boundary(conditions) : problem.boundary();
  std::string status = run_status(args.dir);
  // An estimate writes its summary.json, without a status, once everything else is written.
  if (estimate && status.empty() && fs::exists(args.dir / "summary.json")) status = "completed";
  const bool early = last < (time ? spec.J : spec.A) && !source.part && status != "interrupted";
  std::printf("%s: %s march, %s, rows 0..%d, columns 0..%d%s\n", args.dir.string().c_str(),
              estimate ? "estimate over the whole mesh, not a"
              : time   ? "time"
                       : "space",
              lie::retraction_name<G>().c_str(), mesh.J(), mesh.A(),
              early ? " (the run stopped early)" : "");
  if (spec.theory == io::Theory::planar_beam)
    std::printf(
        "  planar beam (theory §1.7): checked as written, the SE(3) beam embedded in the x-y "
        "plane, whose equations the planar field satisfies to round-off\n");
  if (source.part) {
    std::string ignored;
    if (source.cut_line) ignored += "; its cut last line was ignored";
    if (source.dropped > 0)
      ignored += std::string("; the incomplete ") + slab + " " + std::to_string(last + 1) + " (" +
                 std::to_string(source.dropped) + " of " +
                 std::to_string(time ? spec.A + 1 : spec.J + 1) + " nodes) was ignored";
    std::printf(
        "  this run was interrupted at %s %d or later (field.csv.part, no field.csv%s)%s; %ss "
        "0..%d are complete and were checked\n",
        slab, last,
        status.empty() ? ", no summary.json"
                       : (", summary.json: status \"" + status + "\"").c_str(),
        ignored.c_str(), slab, last);
  } else if (status == "interrupted")
    std::printf(
        "  this run was interrupted at %s %d (summary.json: status \"interrupted\"); %ss 0..%d "
        "are complete and were checked\n",
        slab, last, slab, last);
  else if (status.empty())
    std::printf("  summary.json is missing: the run did not finish; %ss 0..%d were checked\n", slab,
                last);
  else if (status != "completed")
    std::printf("  summary.json: status \"%s\"; %ss 0..%d were checked\n", status.c_str(), slab,
                last);

  return check_equations(args, spec, model, field, boundary, estimate, time, conditions);
}

}  // namespace

Runner add_check(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand(
      "check",
      "Re-read a run folder and verify its field: DCEL residuals, Noether balance (static "
      "runs: the static residual)");
  add_common_options(*sub, common);
  auto args = std::make_shared<Args>();
  sub->add_option("DIR", args->dir,
                  "run folder (written with output stride 1; an interrupted run's complete rows "
                  "are checked)")
      ->required();
  sub->add_option("--residual-tol", args->residual_tolerance,
                  "relative tolerance of |G_n|/max scale (default 1e-11, theory §10 ii); a node "
                  "also passes within the round-off floor of its terms")
      ->check(positive_number(1.0, "a relative tolerance; default 1e-11"));
  sub->add_option("--noether-tol", args->noether_tolerance,
                  "relative tolerance of the Noether balance (default 1e-12, theory §10 iii); a "
                  "rectangle also passes within 10 eps x terms plus the round-off floor of its "
                  "nodes, theory §7.2")
      ->check(positive_number(1.0, "a relative tolerance; default 1e-12"));
  sub->add_option("--model-error-multiple", args->model_error_multiple,
                  "estimate runs: a node passes when max |G_n|/(dt ds) <= this x [reconstruct] "
                  "model_error (default 6, docs/cli.md)")
      ->check(positive_number(INFINITY, "a multiple of [reconstruct] model_error; default 6"));
  sub->add_option("--rectangles", args->rectangles, "random rectangles (default 200)")
      ->check(CLI::Range(0, 1000000));
  return [args]() { return run_check(*args); };
}

}  // namespace field::app

// `field check DIR`: re-reads a finished run (run.toml and field.csv), recomputes the DCEL
// residuals of every equation node (SPEC [S5]), the Noether balance (SPEC [S8.2]) on every row
// and column of the equation nodes and on random rectangles, the energies (SPEC [S9]) and the
// momenta, prints a short report and exits with 3 if a residual exceeds its tolerance.
#include <cmath>
#include <cstdio>
#include <random>

#include "apps/commands.hpp"
#include "libfield/core/error.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

struct Args {
  fs::path dir;
  double residual_tolerance = 1e-11;  // SPEC [S10] ii
  double noether_tolerance = 1e-12;   // SPEC [S10] iii
  int rectangles = 200;
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

int run_check(const Args& args) {
  // 1. The run: resolved case and field.
  const io::CaseSpec spec = io::load_case(args.dir / "run.toml");
  const bool time = spec.march == io::MarchKind::time;
  const io::FieldCsv csv = io::read_field_csv(args.dir / "field.csv");
  FIELD_CHECK(!csv.j.empty(), (args.dir / "field.csv").string() << " holds no nodes");
  const int last = time ? *std::max_element(csv.j.begin(), csv.j.end())
                        : *std::max_element(csv.a.begin(), csv.a.end());
  const io::Problem full(spec);
  const io::Problem problem(full, time ? last : spec.J, time ? spec.A : last);
  const mesh::SpacetimeMesh& mesh = problem.mesh;
  const mesh::Field field = io::assemble_field(csv, mesh, time);
  const mesh::Boundary boundary = problem.boundary();
  std::printf("%s: %s march, %s, rows 0..%d, columns 0..%d%s\n", args.dir.string().c_str(),
              time ? "time" : "space", problem.model.tau().name().c_str(), mesh.J(), mesh.A(),
              last < (time ? spec.J : spec.A) ? " (the run stopped early)" : "");

  // 2. DCEL residuals, SPEC [S5].
  const dcel::ResidualReport residual = dcel::residual_report(problem.model, field, boundary);
  const bool residual_ok = residual.relative <= args.residual_tolerance;
  std::printf(
      "  DCEL residual   max |G_n|/scale = %.3e over %lld equation nodes (worst j = %d, "
      "a = %d)  tolerance %.0e  %s\n",
      residual.relative, residual.nodes, residual.worst.j, residual.worst.a,
      args.residual_tolerance, residual_ok ? "ok" : "FAILED");

  // 3. Noether balance on rows, columns and random rectangles of equation nodes, SPEC [S8.2].
  const noether::MomentumMaps maps(problem.model, field);
  const noether::Rectangle E = equation_nodes(mesh, boundary);
  // Round-off of Res(R) is machine precision x number of terms (SPEC [S8.2]): a rectangle passes
  // when its relative balance is below max(tolerance, 10 eps terms(R)).
  struct Worst {
    double relative = 0.0, ratio = 0.0;
    noether::Rectangle R;
    void add(const noether::MomentumMaps& maps, const noether::Rectangle& r, double tol,
             double scale_glob) {
      const double rel = noether::noether_balance(maps, r, scale_glob).relative;
      const double rows = r.j2 - r.j1 + 1, columns = r.a2 - r.a1 + 1;
      const double terms = 2 * columns + 2 * rows + rows * columns;
      const double q = rel / std::max(tol, 10 * 2.220446049250313e-16 * terms);
      relative = std::max(relative, rel);
      if (q >= ratio) ratio = q, R = r;
    }
  } rows, columns, random, all;
  int count = 0;
  if (E.j1 <= E.j2 && E.a1 <= E.a2) {
    const double tol = args.noether_tolerance, scale = noether::global_scale(maps);
    for (int j = E.j1; j <= E.j2; ++j) rows.add(maps, {j, j, E.a1, E.a2}, tol, scale);
    for (int a = E.a1; a <= E.a2; ++a) columns.add(maps, {E.j1, E.j2, a, a}, tol, scale);
    std::mt19937 rng(20261121);  // fixed seed: the same rectangles every time
    std::uniform_int_distribution<int> jd(E.j1, E.j2), ad(E.a1, E.a2);
    for (; count < args.rectangles; ++count) {
      const int j1 = jd(rng), j2 = jd(rng), a1 = ad(rng), a2 = ad(rng);
      random.add(maps, {std::min(j1, j2), std::max(j1, j2), std::min(a1, a2), std::max(a1, a2)},
                 tol, scale);
    }
  }
  for (const Worst* w : {&rows, &columns, &random})
    if (w->ratio >= all.ratio) all = *w;
  const bool noether_ok = all.ratio <= 1.0;
  std::printf(
      "  Noether balance rows %.2e, columns %.2e, %d random rectangles %.2e  tolerance "
      "max(%.0e, 10 eps x terms)  %s\n",
      rows.relative, columns.relative, count, random.relative, args.noether_tolerance,
      noether_ok ? "ok" : "FAILED");
  if (!noether_ok)
    std::printf("  worst rectangle j = %d..%d, a = %d..%d: %.1f x its tolerance\n", all.R.j1,
                all.R.j2, all.R.a1, all.R.a2, all.ratio);

  // 4. Energies and momenta (reported, not judged: they depend on the case).
  if (time) {
    const std::vector<double> E_j = noether::time_energies(problem.model, field);
    double drift = 0.0;
    const Vec6 P0 = noether::total_time_momentum(maps, 0);
    for (int j = 1; j < mesh.J(); ++j)
      drift = std::max(drift, (noether::total_time_momentum(maps, j) - P0).cwiseAbs().maxCoeff());
    std::printf(
        "  energy E_0 = %.15g, (max - min)/|E_0| = %.3e; momentum max |P_j - P_0| = "
        "%.3e\n",
        E_j.empty() ? 0.0 : E_j.front(), range(E_j), drift);
  } else {
    const std::vector<double> E_M = noether::space_energies(problem.model, field);
    double drift = 0.0;
    const Vec6 Q0 = noether::total_space_momentum(maps, 0);
    for (int a = 1; a < mesh.A(); ++a)
      drift = std::max(drift, (noether::total_space_momentum(maps, a) - Q0).cwiseAbs().maxCoeff());
    std::printf("  E_M^0 = %.15g, (max - min)/|E_M^0| = %.3e; momentum max |Q^a - Q^0| = %.3e\n",
                E_M.empty() ? 0.0 : E_M.front(), range(E_M), drift);
  }
  const bool ok = residual_ok && noether_ok;
  std::printf("  %s\n", ok ? "check passed"
                           : "check FAILED: the field does not satisfy the "
                             "discrete equations to the tolerance");
  return ok ? kSuccess : kSolverFailed;
}

}  // namespace

Runner add_check(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand(
      "check", "Re-read a run folder and verify its field: DCEL residuals, Noether balance");
  add_common_options(*sub, common);
  auto args = std::make_shared<Args>();
  sub->add_option("DIR", args->dir, "run folder (written with output stride 1)")->required();
  sub->add_option("--residual-tol", args->residual_tolerance,
                  "tolerance of max |G_n|/scale (default 1e-11, SPEC [S10] ii)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--noether-tol", args->noether_tolerance,
                  "tolerance of the relative Noether balance (default 1e-12, SPEC [S10] iii; "
                  "raised to 10 eps x terms for large rectangles, SPEC [S8.2])")
      ->check(CLI::PositiveNumber);
  sub->add_option("--rectangles", args->rectangles, "random rectangles (default 200)")
      ->check(CLI::Range(0, 1000000));
  return [args]() { return run_check(*args); };
}

}  // namespace field::app

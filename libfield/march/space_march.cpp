#include "libfield/march/space_march.hpp"

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

mesh::Boundary space_boundary(const SpaceMarchInput& input) {
  return mesh::Boundary::space_evolution(input.first.side, input.last.side);
}

namespace {

// Step 1 of SPEC [S7.2] for column a: ghost row J (free) or prescribed rows.
void apply_rows(const SpaceMarchInput& in, int J, int a, std::vector<lie::SE3>& column) {
  if (in.last.is_free())
    column[J] = column[J - 1];
  else
    column[J] = in.last.motion(a);
  if (!in.first.is_free()) column[0] = in.first.motion(a);
}

}  // namespace

MarchResult space_march(const dcel::DiscreteModel& model, const SpaceMarchInput& in,
                        const std::vector<SlabObserver*>& observers, const MarchOptions& options) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  const double dt = mesh.dt(), ds = mesh.ds();
  const lie::Retraction& tau = model.tau();
  FIELD_CHECK(static_cast<int>(in.column0.size()) == J + 1,
              "space march: the tip motion has " << in.column0.size()
                                                 << " rows, the mesh needs J+1 = " << J + 1);
  const bool from_strain = in.column1.empty();
  if (from_strain)
    FIELD_CHECK(static_cast<int>(in.strain0.size()) >= J, "space march: the tip strain has "
                                                              << in.strain0.size()
                                                              << " rows, the mesh needs J = " << J
                                                              << " (or give column 1)");
  else
    FIELD_CHECK(static_cast<int>(in.column1.size()) == J + 1,
                "space march: column 1 has " << in.column1.size()
                                             << " rows, the mesh needs J+1 = " << J + 1);
  FIELD_CHECK(in.first.is_free() || in.first.motion,
              "space march: the prescribed first row has no motion");
  FIELD_CHECK(in.last.is_free() || in.last.motion,
              "space march: the prescribed last row has no motion");
  FIELD_CHECK(A >= 2, "space march: needs A >= 2 (columns 0, 1 are data), got A = " << A);
  const int lo = in.first.is_free() ? 0 : 1;  // solved rows lo..J-1
  for (const model::PointLoad& p : model.loads().point)
    FIELD_CHECK(p.a >= 1 && p.a <= A - 1,
                "space march: a point load at node a = " << p.a << " is not on a solved column (1.."
                                                         << A - 1 << ")");

  SlabSolver solver(model, dcel::NodeEquation::space, options);
  MarchResult result;
  const auto emit = [&](int a, const std::vector<lie::SE3>& column, const SlabStats& stats) {
    for (SlabObserver* o : observers) o->slab(a, column, stats);
    result.last_slab = a;
  };
  const auto finish = [&]() {
    for (SlabObserver* o : observers) o->finish();
    return result;
  };

  // Columns 0 and 1.
  std::vector<lie::SE3> prev = in.column0, cur(J + 1), next(J + 1);
  const int threads = solver.threads_for(J);
  if (from_strain) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int j = 0; j < J; ++j) cur[j] = prev[j] * tau.tau(ds * in.strain0[j]);
  } else {
    cur = in.column1;
  }
  apply_rows(in, J, 1, cur);
  emit(0, prev, SlabStats{});
  emit(1, cur, SlabStats{});

  // eta_j^{a-1} of the previous column: the Newton start and lambda~_j^{a-1}.
  std::vector<Vec6> eta(J + 1, model.density().reference_strain());
  for (int j = 0; j <= J; ++j) eta[j] = mesh::convected(tau, prev[j], cur[j], ds);  // may throw
  std::vector<Vec6> mu(J + 1), mu_tilde(J + 1);
  std::vector<Vec6> eta_back1(J + 1, Vec6::Zero()),
      eta_back2(J + 1, Vec6::Zero());  // eta^{a-2}, eta^{a-3}: Newton start

  // Step 2: columns a = 1..A-1 produce column a+1. One parallel region per column: the time
  // momenta of column a, a barrier, then per node target, Newton start, solve and g_j^{a+1};
  // each node writes only its own slots, statistics are reduced serially in node order.
  for (int a = 1; a < A; ++a) {
    solver.begin(J + 1);
    if (solver.lanes()) {
      // SPEC [S7.2] step 2 on lanes; the target is -lambda: the loads enter with the opposite sign.
      const auto extra_at = [&](int j) -> Vec6 {
        return -(ds * model.force(cur[j], j, a) + model.point_load(cur[j], j, a));
      };
      solver.lanes_slab(a, cur, J, lo, J, extra_at, mu, mu_tilde, eta, eta_back1, eta_back2, next);
    } else {
      // SPEC [S7.2] step 2 node by node. cay_inv throws for a half turn between neighbours:
      // guarded, and thrown after the region.
      ParallelErrors errors;
#pragma omp parallel num_threads(threads)
      {
#pragma omp for schedule(static)
        for (int j = 0; j < J; ++j)
          errors.guard(j, [&] {
            dcel::time_momenta(model, mesh::convected(tau, cur[j], cur[j + 1], dt), mu[j],
                               mu_tilde[j]);
          });
#pragma omp for schedule(static)
        for (int j = lo; j < J; ++j) {
          const Vec6 mu_tilde_before = j > 0 ? mu_tilde[j - 1] : Vec6::Zero();
          const Vec6 lambda = dcel::space_momentum_tilde(model, eta[j])  // lambda~ from eta_j^{a-1}
                              - (ds / dt) * (mu[j] - mu_tilde_before) +
                              ds * model.force(cur[j], j, a) + model.point_load(cur[j], j, a);
          eta[j] = extrapolate(a, eta[j], eta_back1[j], eta_back2[j]);
          solver.solve_node(j, -lambda, eta[j], eta_back1[j]);
          next[j] = cur[j] * tau.tau(ds * eta[j]);
        }
      }
      errors.rethrow();
    }
    SlabStats stats;
    if (const auto fail = solver.finish(lo, J, stats, result)) {
      result.failure = MarchFailure{a + 1, *fail, 0, 0.0};
      solver.fill_failure(*result.failure);
      return finish();
    }
    apply_rows(in, J, a + 1, next);
    emit(a + 1, next, stats);
    std::swap(prev, cur);
    std::swap(cur, next);
  }
  result.completed = true;
  return finish();
}

}  // namespace field::march

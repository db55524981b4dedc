#include "libfield/march/time_march.hpp"

#include <algorithm>

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

mesh::Boundary time_boundary(const TimeMarchInput& input) {
  return mesh::Boundary::time_evolution(input.left.side, input.right.side);
}

namespace {

// Step 1 of SPEC [S7.1]: ghost (free) or prescribed end columns of row j.
void apply_ends(const dcel::DiscreteModel& model, const TimeMarchInput& in, int j,
                std::vector<lie::SE3>& row) {
  const int A = model.mesh().A();
  if (in.right.is_free())
    row[A] = row[A - 1] * model.tau().tau(model.ds() * model.density().reference_strain());
  else
    row[A] = in.right.motion(j);
  if (!in.left.is_free()) row[0] = in.left.motion(j);
}

}  // namespace

MarchResult time_march(const dcel::DiscreteModel& model, const TimeMarchInput& in,
                       const std::vector<SlabObserver*>& observers, const MarchOptions& options) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  const double dt = mesh.dt(), ds = mesh.ds();
  const lie::Retraction& tau = model.tau();
  FIELD_CHECK(
      static_cast<int>(in.row0.size()) == A + 1,
      "time march: row 0 has " << in.row0.size() << " nodes, the mesh needs A+1 = " << A + 1);
  const bool from_velocities = in.row1.empty();
  if (from_velocities)
    FIELD_CHECK(static_cast<int>(in.velocities.size()) == A + 1,
                "time march: " << in.velocities.size()
                               << " initial velocities, the mesh needs A+1 = " << A + 1
                               << " (or give row 1)");
  else
    FIELD_CHECK(
        static_cast<int>(in.row1.size()) == A + 1,
        "time march: row 1 has " << in.row1.size() << " nodes, the mesh needs A+1 = " << A + 1);
  FIELD_CHECK(in.left.is_free() || in.left.motion,
              "time march: the prescribed left end has no motion");
  FIELD_CHECK(in.right.is_free() || in.right.motion,
              "time march: the prescribed right end has no motion");
  // Solved nodes S = lo..A-1 (SPEC [S7.1]).
  const int lo = in.left.is_free() ? 0 : 1;
  for (const model::PointLoad& p : model.loads().point)
    FIELD_CHECK(p.a >= lo && p.a <= A - 1,
                "time march: a point load at node a = "
                    << p.a << " is not on a solved node (" << lo << ".." << A - 1
                    << "); loads on a ghost or prescribed node are not supported: put "
                       "a tip load on the last massive node a = A-1");
  FIELD_CHECK(A - lo >= 1, "time march: no node to solve (A = " << A << ")");

  SlabSolver solver(model, dcel::NodeEquation::time, options);
  MarchResult result;
  std::vector<lie::SE3> prev = in.row0, cur, next(A + 1);
  std::vector<Vec6> xi(A + 1, Vec6::Zero());  // xi_{j-1}^a of the solved nodes
  // xi_{j-2}^a and xi_{j-3}^a: the Newton start is the quadratic extrapolation
  // 3 (xi_{j-1} - xi_{j-2}) + xi_{j-3} (error O(dt^3)) instead of xi_{j-1} (error O(dt)).
  std::vector<Vec6> xi_back1(A + 1, Vec6::Zero()), xi_back2(A + 1, Vec6::Zero());
  std::vector<Vec6> target(A + 1, Vec6::Zero());
  const auto emit = [&](int j, const std::vector<lie::SE3>& row, const SlabStats& stats) {
    for (SlabObserver* o : observers) o->slab(j, row, stats);
    result.last_slab = j;
  };
  const auto finish = [&]() {
    for (SlabObserver* o : observers) o->finish();
    return result;
  };

  // Rows 0 and 1.
  if (from_velocities) {
    apply_ends(model, in, 0, prev);  // ghost of row 0: needed for the forces (SPEC [S7.1] step 1)
    // Step 2: second-order start, F_0^a = -(lambda_0^a - lambda~_0^{a-1})/ds + f + W/ds.
    std::vector<Vec6> lambda(A), lambda_tilde(A);
    for (int a = 0; a < A; ++a)
      dcel::space_momenta(model, mesh::convected(tau, prev[a], prev[a + 1], ds), lambda[a],
                          lambda_tilde[a]);
    for (int a = lo; a < A; ++a) {
      const Vec6 left_flux = a > 0 ? lambda_tilde[a - 1] : Vec6::Zero();
      const Vec6 F = -(lambda[a] - left_flux) / ds + model.force(prev[a], 0, a) +
                     model.point_load(prev[a], 0, a) / ds;
      target[a] = model.density().kinetic_momentum(in.velocities[a]) + 0.5 * dt * F;
      xi[a] = in.velocities[a];
    }
    const SlabStats stats0{};
    emit(0, prev, stats0);
    SlabStats stats;
    if (const auto fail = solver.solve(lo, A, target, xi, stats, result)) {
      result.failure = MarchFailure{1, *fail, 0, 0.0};
      solver.fill_failure(*result.failure);
      return finish();
    }
    cur.assign(A + 1, lie::SE3());
    for (int a = lo; a < A; ++a) cur[a] = prev[a] * tau.tau(dt * xi[a]);
    apply_ends(model, in, 1, cur);
    emit(1, cur, stats);
  } else {
    emit(0, prev, SlabStats{});
    cur = in.row1;
    apply_ends(model, in, 1, cur);
    for (int a = lo; a < A; ++a) xi[a] = mesh::convected(tau, prev[a], cur[a], dt);
    emit(1, cur, SlabStats{});
  }

  // Step 3: rows j = 1..J-1 produce row j+1. One parallel region per row: the stresses of row
  // j, a barrier, then per node target, Newton start, solve and g_{j+1}^a; each node writes only
  // its own slots, and the statistics are reduced serially in node order afterwards.
  std::vector<Vec6> lambda(A), lambda_tilde(A);
  const int threads = solver.threads_for(A);
  for (int j = 1; j < J; ++j) {
    solver.begin(A + 1);
    if (solver.lanes()) {
      // SPEC [S7.1] step 3 on lanes; lambda, lambda_tilde hold -lambda, -lambda~ here
      // (SlabLanes::fluxes).
      const auto extra_at = [&](int a) -> Vec6 {
        return dt * model.force(cur[a], j, a) + (dt / ds) * model.point_load(cur[a], j, a);
      };
      solver.lanes_slab(j, cur, A, lo, A, extra_at, lambda, lambda_tilde, xi, xi_back1, xi_back2,
                        next);
    } else {
      // SPEC [S7.1] step 3 node by node. cay_inv throws for a half turn between neighbours:
      // guarded, and thrown after the region.
      ParallelErrors errors;
#pragma omp parallel num_threads(threads)
      {
#pragma omp for schedule(static)
        for (int a = 0; a < A; ++a)
          errors.guard(a, [&] {
            dcel::space_momenta(model, mesh::convected(tau, cur[a], cur[a + 1], ds), lambda[a],
                                lambda_tilde[a]);
          });
#pragma omp for schedule(static)
        for (int a = lo; a < A; ++a) {
          const Vec6 left_flux = a > 0 ? lambda_tilde[a - 1] : Vec6::Zero();
          const Vec6 m = dcel::time_momentum_tilde(model, xi[a])  // mu~_{j-1}^a from xi_{j-1}^a
                         - (dt / ds) * (lambda[a] - left_flux) + dt * model.force(cur[a], j, a) +
                         (dt / ds) * model.point_load(cur[a], j, a);
          xi[a] = extrapolate(j, xi[a], xi_back1[a], xi_back2[a]);
          solver.solve_node(a, m, xi[a], xi_back1[a]);
          next[a] = cur[a] * tau.tau(dt * xi[a]);
        }
      }
      errors.rethrow();
    }
    SlabStats stats;
    if (const auto fail = solver.finish(lo, A, stats, result)) {
      result.failure = MarchFailure{j + 1, *fail, 0, 0.0};
      solver.fill_failure(*result.failure);
      return finish();
    }
    apply_ends(model, in, j + 1, next);
    emit(j + 1, next, stats);
    std::swap(prev, cur);
    std::swap(cur, next);
  }
  result.completed = true;
  return finish();
}

}  // namespace field::march

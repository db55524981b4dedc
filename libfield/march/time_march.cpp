#include "libfield/march/time_march.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/march/newton_diagnosis.hpp"
#include "libfield/march/slab_check.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

namespace {

// The free end g_j^A of theory §4.6: lambda~_j^{A-1} = -W_body(g_j^A) (4.13), i.e.
// Phi(eta; -ds) = W_body with p = C(eta - eta0) (theory §5), then g_j^A = g_j^{A-1} tau(ds eta).
// Without an end wrench eta = eta0 in closed form (4.4). A world-frame wrench depends on R_j^A:
// fixed-point iteration on eta (a body-frame one converges in one pass). With stiffness damping
// (theory §4.7) the end cell's total stress (1 + b) n(eta) - b n(eta_{j-1}) vanishes, b = beta/dt:
// eta = eta0 + b/(1 + b) (eta_{j-1} - eta0) from the previous row `prev` (null on row 0).
template <class G>
lie::ElementOf<G> free_end(const dcel::DiscreteModel<G>& model, const lie::ElementOf<G>& last,
                           int j, const std::vector<lie::ElementOf<G>>* prev) {
  const int A = model.mesh().A();
  const double ds = model.ds();
  const auto& density = model.density(A - 1);
  lie::AlgebraOf<G> eta = density.reference_strain();
  const double beta = model.loads().damping.stiffness;
  const bool damped = beta != 0.0 && prev != nullptr;
  const double b = damped ? beta / model.dt() : 0.0;
  lie::AlgebraOf<G> n_prev = lie::AlgebraOf<G>::Zero();  // n(eta_{j-1}^{A-1})
  if (damped) {
    const lie::AlgebraOf<G> eta_prev = mesh::convected<G>((*prev)[A - 1], (*prev)[A], ds);
    n_prev = density.stress(eta_prev);
    eta += b / (1.0 + b) * (eta_prev - eta);
  }
  lie::ElementOf<G> end = G::compose(last, G::tau(ds * eta));
  if (!model.loads().has_point_load(A)) return end;
  // With stiffness damping, (dtau^{-1}_{-ds eta})^T ((1 + b) n(eta) - b n_prev) = W, i.e. the
  // undamped equation with m = (W + b (dtau^{-1}_{-ds eta})^T n_prev) / (1 + b): m depends on
  // eta, and the fixed point below iterates it with the world-frame wrench.
  const auto target = [&](const lie::ElementOf<G>& g) -> lie::AlgebraOf<G> {
    if (!damped) return model.point_load(g, j, A);
    return (model.point_load(g, j, A) + b * G::dtau_inv_dual(-ds * eta, n_prev)) / (1.0 + b);
  };
  constexpr int kMaxPasses = 100;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    lie::AlgebraOf<G> next = eta;
    const dcel::NodeSolveReport r =
        dcel::solve_node<G>(density, dcel::NodeEquation::space, -ds, target(end), next);
    FIELD_CHECK(r.converged, "time march: the free end a = A of row "
                                 << j << " does not take the end wrench (Newton on lambda~ = -W "
                                 << "did not converge, residual " << r.residual
                                 << "): the wrench is too large for this beam and ds");
    const double change = (next - eta).cwiseAbs().maxCoeff();
    eta = next;
    end = G::compose(last, G::tau(ds * eta));
    if (change <= 1e-14 * (1.0 + eta.cwiseAbs().maxCoeff())) return end;
  }
  FIELD_CHECK(false, "time march: the free end a = A of row "
                         << j << " does not settle under the world-frame end wrench in "
                         << kMaxPasses << " passes: the wrench is too large for this beam and ds");
  return end;
}

// Step 1 of theory §6.1: ghost (free, possibly loaded) or prescribed end columns of row j.
// `prev` is row j-1 (null on row 0), for the damped ghost (theory §4.7).
template <class G>
void apply_ends(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& in, int j,
                std::vector<lie::ElementOf<G>>& row,
                const std::vector<lie::ElementOf<G>>* prev = nullptr) {
  const int A = model.mesh().A();
  if (in.right.is_free())
    row[A] = free_end(model, row[A - 1], j, prev);
  else
    row[A] = in.right.motion(j);
  if (!in.left.is_free()) row[0] = in.left.motion(j);
}

// The target m of node a of row j (theory §6.1 step 3): mu~_{j-1}^a from xi_{j-1}^a, the stress
// lambda_j^a and lambda~_j^{a-1} (zero left of node 0; with stiffness damping their lambda_d
// included), the loads. Mass damping (theory §4.7): ((1 - c) mu~ + ...) / (1 + c), c = alpha dt/2.
template <class G>
lie::AlgebraOf<G> time_target(const dcel::DiscreteModel<G>& model, const lie::ElementOf<G>& g,
                              int j, int a, const lie::AlgebraOf<G>& xi_prev,
                              const lie::AlgebraOf<G>& lambda,
                              const lie::AlgebraOf<G>& lambda_tilde_left) {
  const double dt = model.dt(), ds = model.ds();
  const double alpha = model.loads().damping.mass;
  if (alpha != 0.0) {
    const double c = 0.5 * alpha * dt;
    return ((1.0 - c) * dcel::time_momentum_tilde(model, a, xi_prev) -
            (dt / ds) * (lambda - lambda_tilde_left) + dt * model.force(g, j, a) +
            (dt / ds) * model.point_load(g, j, a)) /
           (1.0 + c);
  }
  return dcel::time_momentum_tilde(model, a, xi_prev) - (dt / ds) * (lambda - lambda_tilde_left) +
         dt * model.force(g, j, a) + (dt / ds) * model.point_load(g, j, a);
}

// lambda_j^a and lambda~_j^a of the nodes a, a+1 of `row` (row j), with the stiffness damping of
// theory §4.7 from row j-1 (`prev`, ignored on row 0).
template <class G>
void row_fluxes(const dcel::DiscreteModel<G>& model, const std::vector<lie::ElementOf<G>>& row,
                const std::vector<lie::ElementOf<G>>& prev, int j, int a, lie::AlgebraOf<G>& lambda,
                lie::AlgebraOf<G>& lambda_tilde) {
  const double ds = model.ds();
  const lie::AlgebraOf<G> eta = mesh::convected<G>(row[a], row[a + 1], ds);
  dcel::space_momenta(model, a, eta, lambda, lambda_tilde);
  if (j < 1 || model.loads().damping.stiffness == 0.0) return;
  lie::AlgebraOf<G> lambda_d, lambda_tilde_d;
  dcel::damping_fluxes(model, a, eta, mesh::convected<G>(prev[a], prev[a + 1], ds), lambda_d,
                       lambda_tilde_d);
  lambda += lambda_d;
  lambda_tilde += lambda_tilde_d;
}

// The same from row j alone, for the diagnosis of a failed node (march/newton_diagnosis.hpp).
template <class G>
lie::AlgebraOf<G> time_target_at(const dcel::DiscreteModel<G>& model,
                                 const std::vector<lie::ElementOf<G>>& row,
                                 const std::vector<lie::ElementOf<G>>& prev, int j, int a,
                                 const lie::AlgebraOf<G>& xi_prev) {
  const auto stress = [&](int i, lie::AlgebraOf<G>& lambda, lie::AlgebraOf<G>& lambda_tilde) {
    row_fluxes(model, row, prev, j, i, lambda, lambda_tilde);
  };
  lie::AlgebraOf<G> lambda, lambda_tilde, unused, left = lie::AlgebraOf<G>::Zero();
  stress(a, lambda, lambda_tilde);
  if (a > 0) stress(a - 1, unused, left);
  return time_target(model, row[a], j, a, xi_prev, lambda, left);
}

}  // namespace

template <class G>
void check_time_march(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& in,
                      const MarchOptions& options) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int A = mesh.A();
  const double dt = mesh.dt(), ds = mesh.ds();
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
  // Solved nodes S = lo..A-1 (theory §6.1).
  const int lo = in.left.is_free() ? 0 : 1;
  // and the free end A (the end wrench of theory §4.6).
  const int hi = in.right.is_free() ? A : A - 1;
  for (const model::PointLoad& p : model.loads().point) {
    FIELD_CHECK(p.a >= lo && p.a <= hi, "time march: a point load at node a = "
                                            << p.a << " is not on a solved node or a free end ("
                                            << lo << ".." << hi
                                            << "); a prescribed node carries no load");
    FIELD_CHECK(!p.end || p.a == A, "time march: an end wrench sits on the free end a = A = "
                                        << A << ", not on node " << p.a
                                        << " (W/2 on nodes A-1 and A, theory §4.6)");
  }
  FIELD_CHECK(A - lo >= 1, "time march: no node to solve (A = " << A << ")");
  const model::Damping& damping = model.loads().damping;
  FIELD_CHECK(std::isfinite(damping.mass) && damping.mass >= 0.0 &&
                  std::isfinite(damping.stiffness) && damping.stiffness >= 0.0,
              "time march: the damping coefficients must be finite and >= 0, got mass = "
                  << damping.mass << ", stiffness = " << damping.stiffness);

  const SlabSolver law(model, dcel::NodeEquation::time, options);  // checks the node law

  // Rows 0 and 1 as given and as the march uses them (ends applied): finite, no half turn
  // between neighbours.
  constexpr bool cayley = lie::is_cayley<G>();
  const auto check_row = [&](int j, std::vector<lie::ElementOf<G>> row) {
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) apply_ends(model, in, j, row);
      if (const auto p = check_slab(row, cayley))
        FIELD_CHECK(false, "time march: the initial " << describe(*p, "row", j, "a"));
    }
    return row;
  };
  const std::vector<lie::ElementOf<G>> row0 = check_row(0, in.row0);
  if (from_velocities) {
    for (int a = 0; a <= A; ++a)
      FIELD_CHECK(in.velocities[a].allFinite(),
                  "time march: the initial velocity of node a = " << a << " is not finite: "
                                                                  << in.velocities[a].transpose());
    for (int a = 0; a < A; ++a) {  // the stresses of row 0 enter the second-order start
      lie::AlgebraOf<G> lambda, lambda_tilde;
      dcel::space_momenta(model, a, mesh::convected<G>(row0[a], row0[a + 1], ds), lambda,
                          lambda_tilde);
      FIELD_CHECK(lambda.allFinite() && lambda_tilde.allFinite(),
                  "time march: the stress between nodes a = "
                      << a << " and " << a + 1
                      << " of row 0 is not finite (the strain or the stiffness overflows)");
    }
  } else {
    const std::vector<lie::ElementOf<G>> row1 = check_row(1, in.row1);
    for (int a = 0; a <= A; ++a) {
      FIELD_CHECK(!check_slab({row0[a], row1[a]}, cayley),
                  "time march: node a = " << a
                                          << " turns by a half turn between rows 0 and 1 (no "
                                             "Cayley coordinates, theory §2.1): a smaller dt");
      FIELD_CHECK(
          mesh::convected<G>(row0[a], row1[a], dt).allFinite(),
          "time march: the velocity of node a = " << a << " between rows 0 and 1 is not finite");
    }
  }
}

template <class G>
MarchResult time_march(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& in,
                       const SlabObserversOf<G>& observers, const MarchOptions& options) {
  check_time_march(model, in, options);
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  const double dt = mesh.dt(), ds = mesh.ds();
  const bool from_velocities = in.row1.empty();
  const int lo = in.left.is_free() ? 0 : 1;  // solved nodes S = lo..A-1 (theory §6.1)
  constexpr bool cayley = lie::is_cayley<G>();

  SlabSolver solver(model, dcel::NodeEquation::time, options);
  MarchResult result;
  std::vector<lie::ElementOf<G>> prev = in.row0, cur, next(A + 1);
  std::vector<lie::AlgebraOf<G>> xi(A + 1,
                                    lie::AlgebraOf<G>::Zero());  // xi_{j-1}^a of the solved nodes
  // xi_{j-2}^a and xi_{j-3}^a: the Newton start is the quadratic extrapolation
  // 3 (xi_{j-1} - xi_{j-2}) + xi_{j-3} (error O(dt^3)) instead of xi_{j-1} (error O(dt)).
  std::vector<lie::AlgebraOf<G>> xi_back1(A + 1, lie::AlgebraOf<G>::Zero()),
      xi_back2(A + 1, lie::AlgebraOf<G>::Zero());
  std::vector<lie::AlgebraOf<G>> target(A + 1, lie::AlgebraOf<G>::Zero());
  const auto emit = [&](int j, const std::vector<lie::ElementOf<G>>& row, const SlabStats& stats) {
    for (auto* o : observers) o->slab(j, row, stats);
    result.last_slab = j;
  };
  const auto finish = [&]() {
    for (auto* o : observers) o->finish();
    return result;
  };

  // A failed node: why Newton failed (march/newton_diagnosis.hpp), from its target and start.
  const auto fail_node = [&](int j, int node, const lie::AlgebraOf<G>& m,
                             const lie::AlgebraOf<G>& start) {
    result.failure = MarchFailure{j, node, 0, 0.0};
    solver.fill_failure(*result.failure);
    const NewtonDiagnosis d = diagnose_newton(model, node, dcel::NodeEquation::time, m, start,
                                              options.newton, result.failure->residual);
    result.failure->kind = d.kind;
    result.failure->iterations_needed = d.iterations_needed;
    return finish();
  };
  // A new row with a non-finite value or a half turn between neighbours is not emitted.
  const auto bad_row = [&](int j, const std::vector<lie::ElementOf<G>>& row) {
    const auto p = check_slab(row, cayley);
    if (p) result.failure = MarchFailure{j, p->node, 0, 0.0, p->kind};
    return p.has_value();
  };

  // Rows 0 and 1.
  if (from_velocities) {
    apply_ends(model, in, 0, prev);  // ghost of row 0: needed for the forces (theory §6.1 step 1)
    // Step 2: second-order start, F_0^a = -(lambda_0^a - lambda~_0^{a-1})/ds + f + W/ds.
    std::vector<lie::AlgebraOf<G>> lambda(A), lambda_tilde(A);
    for (int a = 0; a < A; ++a)
      dcel::space_momenta(model, a, mesh::convected<G>(prev[a], prev[a + 1], ds), lambda[a],
                          lambda_tilde[a]);
    for (int a = lo; a < A; ++a) {
      const lie::AlgebraOf<G> left_flux = a > 0 ? lambda_tilde[a - 1] : lie::AlgebraOf<G>::Zero();
      const lie::AlgebraOf<G> F = -(lambda[a] - left_flux) / ds + model.force(prev[a], 0, a) +
                                  model.point_load(prev[a], 0, a) / ds;
      target[a] = model.density(a).kinetic_momentum(in.velocities[a]) + 0.5 * dt * F;
      if (model.loads().damping.mass != 0.0) {  // theory §4.7: trapezoid on [0, dt/2]
        const double c = 0.25 * model.loads().damping.mass * dt;
        target[a] = (target[a] - c * model.density(a).kinetic_momentum(in.velocities[a])) / (1 + c);
      }
      xi[a] = in.velocities[a];
    }
    const SlabStats stats0{};
    emit(0, prev, stats0);
    SlabStats stats;
    if (const auto fail = solver.solve(lo, A, target, xi, stats, result))
      return fail_node(1, *fail, target[*fail], in.velocities[*fail]);
    cur.assign(A + 1, lie::ElementOf<G>());
    for (int a = lo; a < A; ++a) cur[a] = G::compose(prev[a], G::tau(dt * xi[a]));
    apply_ends(model, in, 1, cur, &prev);
    if (bad_row(1, cur)) return finish();
    emit(1, cur, stats);
  } else {
    emit(0, prev, SlabStats{});
    cur = in.row1;
    apply_ends(model, in, 1, cur, &prev);
    for (int a = lo; a < A; ++a) xi[a] = mesh::convected<G>(prev[a], cur[a], dt);
    emit(1, cur, SlabStats{});
  }

  // Step 3: rows j = 1..J-1 produce row j+1. One parallel region per row: the stresses of row
  // j, a barrier, then per node target, Newton start, solve and g_{j+1}^a; each node writes only
  // its own slots, and the statistics are reduced serially in node order afterwards. The stop
  // flag is read between rows.
  std::vector<lie::AlgebraOf<G>> lambda(A), lambda_tilde(A);
  const int threads = solver.threads_for(A);
  for (int j = 1; j < J; ++j) {
    if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      result.interrupted = true;
      return finish();
    }
    solver.begin(A + 1);
    bool on_lanes = false;
    if constexpr (std::is_same_v<lie::ElementOf<G>, lie::SE3>) on_lanes = solver.lanes() != nullptr;
    if (on_lanes) {
      // theory §6.1 step 3 on lanes (SE(3) only), with the damping of theory §4.7; lambda,
      // lambda_tilde hold -lambda, -lambda~ here (SlabLanes::fluxes).
      if constexpr (std::is_same_v<lie::ElementOf<G>, lie::SE3>) {
        const auto extra_at = [&](int a) -> lie::AlgebraOf<G> {
          return dt * model.force(cur[a], j, a) + (dt / ds) * model.point_load(cur[a], j, a);
        };
        solver.lanes_slab(j, cur, A, lo, A, extra_at, lambda, lambda_tilde, xi, xi_back1, xi_back2,
                          next, prev.data());
      }
    } else {
      // theory §6.1 step 3 node by node. Row j passed check_slab, so lie::cay_inv has values;
      // an exception is still guarded and thrown after the region.
      ParallelErrors errors;
#pragma omp parallel num_threads(threads)
      {
#pragma omp for schedule(static)
        for (int a = 0; a < A; ++a)
          errors.guard(a, [&] { row_fluxes(model, cur, prev, j, a, lambda[a], lambda_tilde[a]); });
#pragma omp for schedule(static)
        for (int a = lo; a < A; ++a) {
          const lie::AlgebraOf<G> left = a > 0 ? lambda_tilde[a - 1] : lie::AlgebraOf<G>::Zero();
          const lie::AlgebraOf<G> m = time_target(model, cur[a], j, a, xi[a], lambda[a], left);
          xi[a] = extrapolate(j, xi[a], xi_back1[a], xi_back2[a]);
          solver.solve_node(a, m, xi[a], xi_back1[a]);
          next[a] = G::compose(cur[a], G::tau(dt * xi[a]));
        }
      }
      errors.rethrow();
    }
    SlabStats stats;
    if (const auto fail = solver.finish(lo, A, stats, result))  // xi_back1: xi_{j-1}, the start
      return fail_node(j + 1, *fail, time_target_at(model, cur, prev, j, *fail, xi_back1[*fail]),
                       xi_back1[*fail]);
    apply_ends(model, in, j + 1, next, &cur);
    if (bad_row(j + 1, next)) return finish();
    emit(j + 1, next, stats);
    std::swap(prev, cur);
    std::swap(cur, next);
  }
  result.completed = true;
  return finish();
}

#define FIELD_INSTANTIATE(G)                                                                 \
  template void check_time_march(const dcel::DiscreteModel<G>&, const TimeMarchInputOf<G>&,  \
                                 const MarchOptions&);                                       \
  template MarchResult time_march(const dcel::DiscreteModel<G>&, const TimeMarchInputOf<G>&, \
                                  const SlabObserversOf<G>&, const MarchOptions&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march

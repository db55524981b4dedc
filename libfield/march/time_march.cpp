#include "libfield/march/time_march.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/march/slab_march.hpp"
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

// The time axis of the slab march (march/slab_march.hpp, theory §6): slabs are rows j, nodes a,
// the step dt, the unknown xi, the time equation J xi; fluxes lambda, lambda~ (theory §6.1).
template <class G>
struct TimeAxis {
  using Group = G;
  using E = lie::ElementOf<G>;
  using V = lie::AlgebraOf<G>;
  static constexpr dcel::NodeEquation kEquation = dcel::NodeEquation::time;
  static constexpr AxisNames names{"time march", "row", "node a", "a", "dt", "velocity"};

  const dcel::DiscreteModel<G>& model_;
  const TimeMarchInputOf<G>& in;

  const dcel::DiscreteModel<G>& model() const { return model_; }
  int slabs() const { return model_.mesh().J(); }
  int nodes() const { return model_.mesh().A(); }
  int lo() const { return in.left.is_free() ? 0 : 1; }  // solved nodes S = lo..A-1 (theory §6.1)
  double h() const { return model_.dt(); }
  void flux(const std::vector<E>& row, const std::vector<E>& prev, int j, int a, V& lambda,
            V& lambda_tilde) const {
    row_fluxes(model_, row, prev, j, a, lambda, lambda_tilde);
  }
  V target(const std::vector<E>& row, int j, int a, const V& xi_prev, const V& lambda,
           const V& lambda_tilde_left) const {
    return time_target(model_, row[a], j, a, xi_prev, lambda, lambda_tilde_left);
  }
  // On lanes (SE(3)), with the damping of theory §4.7: the lanes' fluxes are -lambda, -lambda~
  // (SlabLanes::fluxes) and the loads are added to the target.
  V load(const std::vector<E>& row, int j, int a) const {
    const double dt = model_.dt(), ds = model_.ds();
    return dt * model_.force(row[a], j, a) + (dt / ds) * model_.point_load(row[a], j, a);
  }
  const E* lanes_prev(const std::vector<E>& prev) const { return prev.data(); }
  void boundary(int j, std::vector<E>& row, const std::vector<E>* prev) const {
    apply_ends(model_, in, j, row, prev);
  }
  int column(int, int a) const { return a; }
  void accept(int, const std::vector<E>&, const std::vector<E>&, const std::vector<E>&) const {}
};

// A march state to continue (MarchState): sizes, a row inside the mesh, finite values, no half
// turn between neighbours.
template <class G>
void check_resume(const dcel::DiscreteModel<G>& model,
                  const MarchState<lie::ElementOf<G>, lie::AlgebraOf<G>>& s) {
  const int A = model.mesh().A(), J = model.mesh().J();
  FIELD_CHECK(s.k >= 1 && s.k <= J,
              "time march: the state to continue is after row " << s.k << ", outside 1..J = " << J);
  for (const auto* row : {&s.prev, &s.cur}) {
    FIELD_CHECK(static_cast<int>(row->size()) == A + 1,
                "time march: a row of the state has " << row->size()
                                                      << " nodes, the mesh needs A+1 = " << A + 1);
    if (const auto p = check_slab(*row, lie::is_cayley<G>()))
      FIELD_CHECK(false, "time march: the state to continue: " << describe(
                             *p, "row", row == &s.prev ? s.k - 1 : s.k, "a"));
  }
  for (const auto* v : {&s.y, &s.back1, &s.back2}) {
    FIELD_CHECK(static_cast<int>(v->size()) == A + 1,
                "time march: the state to continue has "
                    << v->size() << " velocities, the mesh needs A+1 = " << A + 1);
    for (const auto& x : *v)
      FIELD_CHECK(x.allFinite(), "time march: a velocity of the state to continue is not finite");
  }
}

}  // namespace

template <class G>
void check_time_march(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& in,
                      const MarchOptions& options) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int A = mesh.A();
  const double ds = mesh.ds();
  const bool resuming = in.resume.k >= 1;  // rows and velocities from the state (check_resume)
  FIELD_CHECK(
      resuming || static_cast<int>(in.row0.size()) == A + 1,
      "time march: row 0 has " << in.row0.size() << " nodes, the mesh needs A+1 = " << A + 1);
  const bool from_velocities = in.row1.empty();
  if (from_velocities)
    FIELD_CHECK(resuming || static_cast<int>(in.velocities.size()) == A + 1,
                "time march: " << in.velocities.size()
                               << " initial velocities, the mesh needs A+1 = " << A + 1
                               << " (or give row 1)");
  else
    FIELD_CHECK(
        resuming || static_cast<int>(in.row1.size()) == A + 1,
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
  if (resuming) check_resume(model, in.resume);
  const model::Damping& damping = model.loads().damping;
  FIELD_CHECK(std::isfinite(damping.mass) && damping.mass >= 0.0 &&
                  std::isfinite(damping.stiffness) && damping.stiffness >= 0.0,
              "time march: the damping coefficients must be finite and >= 0, got mass = "
                  << damping.mass << ", stiffness = " << damping.stiffness);

  const SlabSolver law(model, dcel::NodeEquation::time, options);  // checks the node law
  if (resuming) return;  // the rows of the state were checked above

  // Rows 0 and 1 as given and as the march uses them (ends applied): finite, no half turn
  // between neighbours.
  const TimeAxis<G> axis{model, in};
  const std::vector<lie::ElementOf<G>> row0 = check_initial_slab(axis, 0, in.row0, true);
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
    check_initial_pair(axis, row0, check_initial_slab(axis, 1, in.row1, true));
  }
}

template <class G>
MarchResult time_march(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& in,
                       const SlabObserversOf<G>& observers, const MarchOptions& options,
                       MarchState<lie::ElementOf<G>, lie::AlgebraOf<G>>* end) {
  check_time_march(model, in, options);
  using State = MarchState<lie::ElementOf<G>, lie::AlgebraOf<G>>;
  if (end != nullptr) *end = State{};
  // Step 3 from row k: the state after it (or after rows 0 and 1), kept in `end` when the march
  // completed or was interrupted.
  const auto run = [&](SlabMarch<TimeAxis<G>>& march, State& s) {
    const MarchResult r = march.run(s.k, s.prev, s.cur, s.y, s.back1, s.back2);
    if (end != nullptr && (r.completed || r.interrupted)) *end = std::move(s);
    return r;
  };
  if (in.resume.k >= 1) {  // rows k-1 and k again, then k+1..J
    const TimeAxis<G> axis{model, in};
    SlabMarch<TimeAxis<G>> march(axis, observers, options);
    State s = in.resume;
    march.emit(s.k - 1, s.prev, SlabStats{});
    march.emit(s.k, s.cur, SlabStats{});
    return run(march, s);
  }
  const int A = model.mesh().A();
  const double dt = model.dt(), ds = model.ds();
  const bool from_velocities = in.row1.empty();
  const TimeAxis<G> axis{model, in};
  const int lo = axis.lo();
  SlabMarch<TimeAxis<G>> march(axis, observers, options);

  std::vector<lie::ElementOf<G>> prev = in.row0, cur;
  // xi_{j-1}^a of the solved nodes
  std::vector<lie::AlgebraOf<G>> xi(A + 1, lie::AlgebraOf<G>::Zero());

  // Rows 0 and 1.
  if (from_velocities) {
    apply_ends(model, in, 0, prev);  // ghost of row 0: needed for the forces (theory §6.1 step 1)
    // Step 2: second-order start, F_0^a = -(lambda_0^a - lambda~_0^{a-1})/ds + f + W/ds.
    std::vector<lie::AlgebraOf<G>> lambda(A), lambda_tilde(A);
    std::vector<lie::AlgebraOf<G>> target(A + 1, lie::AlgebraOf<G>::Zero());
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
    march.emit(0, prev, SlabStats{});
    SlabStats stats;
    if (const auto fail = march.solver().solve(lo, A, target, xi, stats, march.result()))
      return march.fail_node(1, *fail, target[*fail], in.velocities[*fail]);
    cur.assign(A + 1, lie::ElementOf<G>());
    for (int a = lo; a < A; ++a) cur[a] = G::compose(prev[a], G::tau(dt * xi[a]));
    apply_ends(model, in, 1, cur, &prev);
    if (march.bad_slab(1, cur)) return march.finish();
    march.emit(1, cur, stats);
  } else {
    march.emit(0, prev, SlabStats{});
    cur = in.row1;
    apply_ends(model, in, 1, cur, &prev);
    for (int a = lo; a < A; ++a) xi[a] = mesh::convected<G>(prev[a], cur[a], dt);
    march.emit(1, cur, SlabStats{});
  }
  // Step 3: rows j = 1..J-1 produce row j+1 (march/slab_march.hpp).
  State s;
  s.k = 1;
  s.prev = std::move(prev);
  s.cur = std::move(cur);
  s.y = std::move(xi);
  s.back1.assign(A + 1, lie::AlgebraOf<G>::Zero());  // y^{k-2}, y^{k-3} (march::extrapolate)
  s.back2.assign(A + 1, lie::AlgebraOf<G>::Zero());
  return run(march, s);
}

#define FIELD_INSTANTIATE(G)                                                                 \
  template void check_time_march(const dcel::DiscreteModel<G>&, const TimeMarchInputOf<G>&,  \
                                 const MarchOptions&);                                       \
  template MarchResult time_march(const dcel::DiscreteModel<G>&, const TimeMarchInputOf<G>&, \
                                  const SlabObserversOf<G>&, const MarchOptions&,            \
                                  MarchState<lie::ElementOf<G>, lie::AlgebraOf<G>>*);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march

#include "libfield/march/slab_lanes.hpp"

#include <algorithm>
#include <type_traits>

#include "libfield/core/error.hpp"

namespace field::march {

namespace {

using lanes::Lane;
using lanes::Mask;
using lanes::V6;

// The kernels' bodies; each is compiled twice below (baseline and AVX2). They and every lane
// function they call are forced inline (FIELD_LANES_INLINE, core/lanes.hpp), so that no call
// crosses between the two builds. No FMA is enabled in either: both round identically.
#define FIELD_LANES_BODY FIELD_LANES_INLINE

// Node: dcel::CayleyNodeLanes or dcel::ExpNodeLanes (the retraction).
template <class Node>
FIELD_LANES_BODY void fluxes_body(const SlabLanes& s, const Node& across, const lie::SE3* g,
                                  const lie::SE3* prev, int i0, int count, Vec6* flux,
                                  Vec6* flux_tilde) {
  // z = tau^{-1}(g_i^{-1} g_{i+1}) / k (mesh::convected, theory §3.1); g_{i+1} of the last lane
  // is g_{i0+count}.
  const auto strain = [&](const lie::SE3* row) {
    const lanes::G a = lanes::load(row + i0, count), b = lanes::load(row + i0 + 1, count);
    return (1.0 / s.k) * Node::tau_inv(lanes::inverse_mul(a, b));
  };
  if (prev != nullptr && s.stiffness_b != 0.0) {  // theory §4.7: lambda + lambda_d
    const V6 z = strain(g), z_prev = strain(prev);
    lanes::store(across.phi_damped(z, z_prev, s.stiffness_b, s.k), flux + i0, count);
    lanes::store(across.phi_damped(z, z_prev, s.stiffness_b, -s.k), flux_tilde + i0, count);
    return;
  }
  const V6 z = strain(g);
  lanes::store(across.phi(z), flux + i0, count);
  lanes::store(across.phi_tilde(z), flux_tilde + i0, count);
}

// `before`: the law of y1 (the last solution) in the target's first term; `node`: the law the
// solve takes. The same law in the time march and on a uniform beam; a non-uniform space march
// has segment a-1's law at y1 = eta^{a-1} and solves with segment a's (theory §6.2).
template <class Node>
FIELD_LANES_BODY void updates_body(const SlabLanes& s, const Node& before, const Node& node,
                                   int slab, int i0, int count, const lie::SE3* g, const Vec6* flux,
                                   const Vec6* flux_tilde, const Vec6* extra, Vec6* y, Vec6* back1,
                                   Vec6* back2, lie::SE3* next, dcel::NodeSolveReport* reports) {
  const V6 y1 = lanes::load(y + i0, count);
  // The target of theory §6.1 step 3 (time) or -lambda of theory §6.2 step 2 (space), with
  // flux~_{i-1}, zero left of node 0.
  const Vec6 zero = Vec6::Zero();
  V6 left;
  for (int l = 0; l < lanes::kWidth; ++l) {
    const int i = i0 + std::min(l, count - 1) - 1;
    lanes::set_lane(left, l, i >= 0 ? flux_tilde[i] : zero);
  }
  V6 m;
  if (s.mass_c == 0.0) {
    m = before.phi_tilde(y1) + (s.h / s.k) * (lanes::load(flux + i0, count) - left);
    if (extra != nullptr) m = m + lanes::load(extra + i0, count);
  } else {  // mass damping, theory §4.7: ((1 - c) mu~ + ...) / (1 + c) (march::time_target)
    const double c = s.mass_c;
    m = (1.0 - c) * before.phi_tilde(y1) + (s.h / s.k) * (lanes::load(flux + i0, count) - left);
    if (extra != nullptr) m = m + lanes::load(extra + i0, count);
    m = lanes::divide(m, 1.0 + c);
  }

  // march::extrapolate (slab_solve.hpp) on lanes.
  const V6 y2 = lanes::load(back1 + i0, count), y3 = lanes::load(back2 + i0, count);
  const V6 start = slab >= 3 ? 3.0 * (y1 - y2) + y3 : slab == 2 ? 2.0 * y1 - y2 : y1;
  lanes::store(y2, back2 + i0, count);
  lanes::store(y1, back1 + i0, count);

  // Newton from the start; where it fails from an extrapolated start, again from the previous
  // solution (SlabSolver::solve_node). One loop, so that the solve is compiled once.
  V6 sol = start;
  dcel::LanesReport report;
  Mask active = lanes::splat_mask(true);
  Lane spent = lanes::splat(0.0);
  for (int attempt = 0; attempt < 2; ++attempt) {
    node.solve(m, sol, active, s.newton, report);
    if (attempt == 1) {
      report.iterations = lanes::select(active, report.iterations + spent, report.iterations);
      break;
    }
    active = ~report.converged & lanes::differ(start, y1);
    if (!lanes::any(active)) break;
    spent = report.iterations;
    sol = lanes::select(active, y1, sol);
  }
  lanes::store(sol, y + i0, count);
  lanes::store(lanes::mul(lanes::load(g + i0, count), Node::tau(s.h * sol)), next + i0, count);
  for (int l = 0; l < count; ++l)
    reports[i0 + l] = {report.converged[l] != 0, static_cast<int>(report.iterations[l]),
                       report.residual[l]};
}

// The law of lanes i0 .. i0+count-1 (past count: the last node's, as lanes::load) when the beam
// has a law per node, else the slab's (uniform, or per slab); then the body.
FIELD_LANES_BODY auto lane_index(int i0, int count) {
  return [i0, count](int l) { return i0 + std::min(l, count - 1); };
}

template <class G>
FIELD_LANES_BODY void fluxes_of(const SlabLanes& s, const dcel::DiagonalNodeLanes<G>& across,
                                const lie::SE3* g, const lie::SE3* prev, int i0, int count,
                                Vec6* flux, Vec6* flux_tilde) {
  if (!s.per_node_laws()) return fluxes_body(s, across, g, prev, i0, count, flux, flux_tilde);
  const dcel::DiagonalNodeLanes<G, Lane> laws(s.across_K.data(), s.across_y0.data(),
                                              lane_index(i0, count), s.k);
  fluxes_body(s, laws, g, prev, i0, count, flux, flux_tilde);
}

template <class G>
FIELD_LANES_BODY void updates_of(const SlabLanes& s, const dcel::DiagonalNodeLanes<G>& before,
                                 const dcel::DiagonalNodeLanes<G>& node, int slab, int i0,
                                 int count, const lie::SE3* g, const Vec6* flux,
                                 const Vec6* flux_tilde, const Vec6* extra, Vec6* y, Vec6* back1,
                                 Vec6* back2, lie::SE3* next, dcel::NodeSolveReport* reports) {
  if (!s.per_node_laws())
    return updates_body(s, before, node, slab, i0, count, g, flux, flux_tilde, extra, y, back1,
                        back2, next, reports);
  const dcel::DiagonalNodeLanes<G, Lane> laws(s.node_K.data(), s.node_y0.data(),
                                              lane_index(i0, count), s.h);
  updates_body(s, laws, laws, slab, i0, count, g, flux, flux_tilde, extra, y, back1, back2, next,
               reports);
}

// Slab k's law of a march with a law per slab (theory §6.2), else the uniform one.
template <class Law>
const Law& slab_law(const Law& uniform, const std::vector<Law>& per_slab, int k) {
  return per_slab.empty() ? uniform : per_slab[static_cast<size_t>(k)];
}

FIELD_LANES_FLATTEN void fluxes_baseline(const SlabLanes& s, int slab, const lie::SE3* g,
                                         const lie::SE3* prev, int i0, int count, Vec6* flux,
                                         Vec6* flux_tilde) {
  if (s.exponential)
    return fluxes_of(s, slab_law(s.exp_across, s.exp_slab_across, slab), g, prev, i0, count, flux,
                     flux_tilde);
  fluxes_of(s, slab_law(s.across, s.slab_across, slab), g, prev, i0, count, flux, flux_tilde);
}

FIELD_LANES_FLATTEN void updates_baseline(const SlabLanes& s, int slab, int i0, int count,
                                          const lie::SE3* g, const Vec6* flux,
                                          const Vec6* flux_tilde, const Vec6* extra, Vec6* y,
                                          Vec6* back1, Vec6* back2, lie::SE3* next,
                                          dcel::NodeSolveReport* reports) {
  if (s.exponential)
    return updates_of(s, slab_law(s.exp_node, s.exp_slab_node, slab - 1),
                      slab_law(s.exp_node, s.exp_slab_node, slab), slab, i0, count, g, flux,
                      flux_tilde, extra, y, back1, back2, next, reports);
  updates_of(s, slab_law(s.node, s.slab_node, slab - 1), slab_law(s.node, s.slab_node, slab), slab,
             i0, count, g, flux, flux_tilde, extra, y, back1, back2, next, reports);
}

#if FIELD_LANES_X86
__attribute__((target("avx2"), flatten)) void fluxes_avx2(const SlabLanes& s, int slab,
                                                          const lie::SE3* g, const lie::SE3* prev,
                                                          int i0, int count, Vec6* flux,
                                                          Vec6* flux_tilde) {
  if (s.exponential)
    return fluxes_of(s, slab_law(s.exp_across, s.exp_slab_across, slab), g, prev, i0, count, flux,
                     flux_tilde);
  fluxes_of(s, slab_law(s.across, s.slab_across, slab), g, prev, i0, count, flux, flux_tilde);
}

__attribute__((target("avx2"), flatten)) void updates_avx2(const SlabLanes& s, int slab, int i0,
                                                           int count, const lie::SE3* g,
                                                           const Vec6* flux, const Vec6* flux_tilde,
                                                           const Vec6* extra, Vec6* y, Vec6* back1,
                                                           Vec6* back2, lie::SE3* next,
                                                           dcel::NodeSolveReport* reports) {
  if (s.exponential)
    return updates_of(s, slab_law(s.exp_node, s.exp_slab_node, slab - 1),
                      slab_law(s.exp_node, s.exp_slab_node, slab), slab, i0, count, g, flux,
                      flux_tilde, extra, y, back1, back2, next, reports);
  updates_of(s, slab_law(s.node, s.slab_node, slab - 1), slab_law(s.node, s.slab_node, slab), slab,
             i0, count, g, flux, flux_tilde, extra, y, back1, back2, next, reports);
}
#endif

}  // namespace

bool SlabLanes::avx2_available() {
#if FIELD_LANES_X86
  static const bool available = __builtin_cpu_supports("avx2");
  return available;
#else
  return false;
#endif
}

SlabLanes::Isa SlabLanes::isa_used() const {
  if (isa == Isa::automatic) return avx2_available() ? Isa::avx2 : Isa::baseline;
  FIELD_CHECK(isa != Isa::avx2 || avx2_available(), "SlabLanes: this CPU has no AVX2");
  return isa;
}

template <class G>
std::optional<SlabLanes> SlabLanes::make(const dcel::DiscreteModel<G>& model,
                                         dcel::NodeEquation equation,
                                         const dcel::NodeSolverOptions& newton) {
  const bool time = equation == dcel::NodeEquation::time;
  const auto* law = model.density(0).diagonal_law();
  if (law == nullptr) return std::nullopt;  // lanes: diagonal laws only
  const double dt = model.dt(), ds = model.ds();
  const Vec6 J = law->inertia, C = law->stiffness, E6 = law->reference_strain;
  const dcel::CayleyNodeLanes xi_law(J, Vec6::Zero(), dt), eta_law(C, E6, ds);
  const dcel::ExpNodeLanes exp_xi_law(J, Vec6::Zero(), dt), exp_eta_law(C, E6, ds);
  const bool external = model.density().has_potential() || !model.loads().distributed.empty() ||
                        !model.loads().point.empty();
  SlabLanes lanes{time ? xi_law : eta_law,
                  time ? eta_law : xi_law,
                  time ? exp_xi_law : exp_eta_law,
                  time ? exp_eta_law : exp_xi_law,
                  std::is_same_v<G, lie::Se3Exp>,
                  time ? dt : ds,
                  time ? ds : dt,
                  newton,
                  external};
  if (time) {  // theory §4.7 (dcel/damping.hpp)
    lanes.mass_c = 0.5 * model.loads().damping.mass * dt;
    lanes.stiffness_b = model.loads().damping.stiffness / dt;
  }
  if (model.uniform()) return lanes;
  // A non-uniform beam (theory §1.6). Time march, a law per node: node a has K = J_a, y0 = 0,
  // segment a has Kc = C_a, z0 = eta0_a. Space march, a law per slab: column a has K = C_a,
  // y0 = eta0_a (segment a) and Kc = J_a, z0 = 0 (node a), theory §6.2.
  const int A = model.mesh().A();
  for (int a = 0; a < A; ++a) {
    const auto* column = model.density(a).diagonal_law();
    if (column == nullptr) return std::nullopt;
    dcel::DiagonalLaw<G>::check(column->inertia, dt);
    dcel::DiagonalLaw<G>::check(column->stiffness, ds);
    if (time) {
      lanes.node_K.push_back(column->inertia);
      lanes.node_y0.push_back(Vec6::Zero());
      lanes.across_K.push_back(column->stiffness);
      lanes.across_y0.push_back(column->reference_strain);
    } else {
      lanes.slab_node.emplace_back(column->stiffness, column->reference_strain, ds);
      lanes.slab_across.emplace_back(column->inertia, Vec6::Zero(), dt);
      lanes.exp_slab_node.emplace_back(column->stiffness, column->reference_strain, ds);
      lanes.exp_slab_across.emplace_back(column->inertia, Vec6::Zero(), dt);
    }
  }
  return lanes;
}

void SlabLanes::fluxes(int slab, const lie::SE3* g, const lie::SE3* prev, int i0, int count,
                       Vec6* flux, Vec6* flux_tilde) const {
#if FIELD_LANES_X86
  if (isa_used() == Isa::avx2)
    return fluxes_avx2(*this, slab, g, prev, i0, count, flux, flux_tilde);
#endif
  fluxes_baseline(*this, slab, g, prev, i0, count, flux, flux_tilde);
}

void SlabLanes::updates(int slab, int i0, int count, const lie::SE3* g, const Vec6* flux,
                        const Vec6* flux_tilde, const Vec6* extra, Vec6* y, Vec6* back1,
                        Vec6* back2, lie::SE3* next, dcel::NodeSolveReport* reports) const {
#if FIELD_LANES_X86
  if (isa_used() == Isa::avx2)
    return updates_avx2(*this, slab, i0, count, g, flux, flux_tilde, extra, y, back1, back2, next,
                        reports);
#endif
  updates_baseline(*this, slab, i0, count, g, flux, flux_tilde, extra, y, back1, back2, next,
                   reports);
}

#define FIELD_INSTANTIATE(G)                         \
  template std::optional<SlabLanes> SlabLanes::make( \
      const dcel::DiscreteModel<G>&, dcel::NodeEquation, const dcel::NodeSolverOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march

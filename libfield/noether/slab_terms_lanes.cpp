#include "libfield/noether/slab_terms_lanes.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "libfield/core/error.hpp"
#include "libfield/dcel/damping.hpp"

namespace field::noether {

namespace {

using lanes::Lane;
using lanes::V3;
using lanes::V6;
using march::SlabLanes;

// The kernels' bodies, compiled for the baseline and for AVX2 below (march/slab_lanes.cpp says
// why everything is forced inline).
#define FIELD_LANES_BODY FIELD_LANES_INLINE

// The energy densities of a diagonal quadratic law with a uniform weight (theory §1, §8) on lanes;
// S = double: one law (SlabTermsLanes::Beam), S = Lane: a law per lane (the same arithmetic).
template <class S = double>
struct BeamEnergies {
  const S *J, *C, *E6, *weight;

  FIELD_LANES_BODY static Lane weighted_square(const S* K, const V6& x) {
    return K[0] * x.w.x * x.w.x + K[1] * x.w.y * x.w.y + K[2] * x.w.z * x.w.z +
           K[3] * x.v.x * x.v.x + K[4] * x.v.y * x.v.y + K[5] * x.v.z * x.v.z;
  }
  FIELD_LANES_BODY V6 strain(const V6& eta) const {  // eta - E6
    return {{eta.w.x - E6[0], eta.w.y - E6[1], eta.w.z - E6[2]},
            {eta.v.x - E6[3], eta.v.y - E6[4], eta.v.z - E6[5]}};
  }
  /// T(xi) = xi.J xi / 2.
  FIELD_LANES_BODY Lane kinetic(const V6& xi) const { return 0.5 * weighted_square(J, xi); }
  /// V(eta) = (eta - E6).C (eta - E6) / 2.
  FIELD_LANES_BODY Lane strain_energy(const V6& eta) const {
    return 0.5 * weighted_square(C, strain(eta));
  }
  /// V(eta) - <dV/deta, eta> = V(eta) - C (eta - E6) . eta (space_strain_term).
  FIELD_LANES_BODY Lane space_strain(const V6& eta) const {
    const V6 e = strain(eta);
    const Lane stress_eta = C[0] * e.w.x * eta.w.x + C[1] * e.w.y * eta.w.y +
                            C[2] * e.w.z * eta.w.z + C[3] * e.v.x * eta.v.x +
                            C[4] * e.v.y * eta.v.y + C[5] * e.v.z * eta.v.z;
    return 0.5 * weighted_square(C, e) - stress_eta;
  }
  /// Pi(g) = -rho A_c gvec . r.
  FIELD_LANES_BODY Lane potential(const V3& r) const {
    return -(weight[0] * r.x + weight[1] * r.y + weight[2] * r.z);
  }
};

FIELD_LANES_BODY void store(Lane x, double* out, int count) {
  for (int l = 0; l < count; ++l) out[l] = x[l];
}

// mesh::convected, tau^{-1}(a^{-1} b) / h. Where lie::cay_inv throws (1 + tr R <= 0: a half turn,
// summed as Eigen's trace), NaN: SlabSeries redoes such a node node by node, which throws.
template <class Node>
FIELD_LANES_BODY V6 convected(const lanes::G& a, const lanes::G& b, double h) {
  const lanes::G d = lanes::inverse_mul(a, b);
  const V6 z = (1.0 / h) * Node::tau_inv(d);
  if constexpr (!std::is_same_v<typename Node::Group, lie::Se3Cayley>) return z;
  const Lane denom = 1.0 + (d.R.e[0][0] + d.R.e[1][1] + d.R.e[2][2]);
  const V3 nan{lanes::splat(NAN), lanes::splat(NAN), lanes::splat(NAN)};
  return lanes::select(denom > 0.0, z, V6{nan, nan});
}

// One batch of SlabTermsLanes::nodes. xi_law: (J, 0, dt), eta_law: (C, E6, ds); Node::tau_inv is
// the retraction's inverse.
template <class Node, class E>
FIELD_LANES_BODY void nodes_body(const Node& xi_law, const Node& eta_law, const E& e, bool row,
                                 double dt, double ds, const SlabTermsLanes::Batch& b, int k0,
                                 int count) {
  const lanes::G n0 = lanes::load(b.next + k0, count);
  if (b.next_along != nullptr) {
    // along_at: mesh::convected along the next slab, tau^{-1}(g_k^{-1} g_{k+1}) / h;
    // node_energy_at: V(eta) + Pi(g) (row) or -T(xi) + Pi(g) (column).
    const lanes::G n1 = lanes::load(b.next + k0 + 1, count);
    const V6 z = convected<Node>(n0, n1, row ? ds : dt);
    lanes::store(z, b.next_along + k0, count);
    const Lane pi = e.potential(n0.r);
    store(row ? e.strain_energy(z) + pi : -e.kinetic(z) + pi, b.node_energy + k0, count);
  }
  if (b.terms != nullptr) {
    // triangle_at: the quantity across from g_1 = slab[k] and next[k]; M = Ad*_{g_1^{-1}} mu(xi),
    // N = Ad*_{g_1^{-1}} lambda(eta), lambda = -Phi_eta (dcel::space_momentum); the energy term
    // T(xi) (row) or V(eta) - <dV/deta, eta> (column).
    const lanes::G g1 = lanes::load(b.slab + k0, count);
    const V6 c = convected<Node>(g1, n0, row ? dt : ds);
    const V6 l = lanes::load(b.along + k0, count);
    const V6 &xi = row ? c : l, &eta = row ? l : c;
    const V6 M = lanes::spatial_covector(g1, xi_law.phi(xi));
    const V6 minus_N = lanes::spatial_covector(g1, eta_law.phi(eta));
    // Row: cross = ds M, along = dt N; column: cross = dt N, along = ds M.
    lanes::store(row ? ds * M : (-dt) * minus_N, b.terms->cross.data() + k0, count);
    lanes::store(row ? (-dt) * minus_N : ds * M, b.terms->along.data() + k0, count);
    store(row ? e.kinetic(c) : e.space_strain(c), b.triangle_energy + k0, count);
  }
}

// A law per node (rows of a non-uniform beam): the laws and constants of nodes k0..k0+count-1
// gathered into lanes (past count: the last node's, as lanes::load).
template <class G>
struct NodeLaws {
  dcel::DiagonalNodeLanes<G, Lane> xi, eta;
};
template <class G>
FIELD_LANES_BODY NodeLaws<G> node_laws(const SlabLanes& s, int k0, int count) {
  const auto index = [k0, count](int l) { return k0 + std::min(l, count - 1); };
  return {{s.node_K.data(), s.node_y0.data(), index, s.h},
          {s.across_K.data(), s.across_y0.data(), index, s.k}};
}

template <class G, class Beam>
FIELD_LANES_BODY void per_node_body(const SlabLanes& s, const Beam* beams, bool row,
                                    const SlabTermsLanes::Batch& b, int k0, int count) {
  const auto index = [k0, count](int l) { return k0 + std::min(l, count - 1); };
  const NodeLaws<G> laws = node_laws<G>(s, k0, count);
  Lane J[6], C[6], E6[6], weight[3];
  for (int l = 0; l < lanes::kWidth; ++l) {
    const Beam& n = beams[index(l)];
    for (int i = 0; i < 6; ++i) {
      J[i][l] = n.J[i];
      C[i][l] = n.C[i];
      E6[i][l] = n.E6[i];
    }
    for (int i = 0; i < 3; ++i) weight[i][l] = n.weight[i];
  }
  const BeamEnergies<Lane> e{J, C, E6, weight};
  nodes_body(laws.xi, laws.eta, e, row, s.h, s.k, b, k0, count);
}

// One batch of SlabTermsLanes::damping (dcel::DissipationSeries::triangle): xi, eta, mu, mu~
// (time_momenta) and, with eta_prev, the duals of the damping stress (dcel::damping_fluxes).
template <class Node>
FIELD_LANES_BODY void damping_body(const Node& xi_law, const Node& eta_law, const SlabLanes& s,
                                   const SlabTermsLanes::DampingBatch& b, int k0, int count) {
  const lanes::G g = lanes::load(b.row + k0, count);
  const V6 xi = convected<Node>(g, lanes::load(b.next + k0, count), s.h);
  const V6 eta = convected<Node>(g, lanes::load(b.row + k0 + 1, count), s.k);
  lanes::store(xi, b.xi + k0, count);
  lanes::store(eta, b.eta + k0, count);
  const V6 zero{{lanes::splat(0.0), lanes::splat(0.0), lanes::splat(0.0)},
                {lanes::splat(0.0), lanes::splat(0.0), lanes::splat(0.0)}};
  V6 lambda_d = zero, lambda_tilde_d = zero;
  const bool stiffness = b.eta_prev != nullptr && s.stiffness_b != 0.0;
  if (stiffness) {
    eta_law.damping_duals(eta, lanes::load(b.eta_prev + k0, count), s.stiffness_b, lambda_d,
                          lambda_tilde_d);
    lambda_d = -lambda_d;
    lambda_tilde_d = -lambda_tilde_d;
  }
  const dcel::BasicVertexDerivatives<V6> D =
      dcel::damping_terms(s.mass_c, s.h, s.k, xi_law.phi(xi), xi_law.phi_tilde(xi),
                          stiffness ? &lambda_d : nullptr, &lambda_tilde_d, zero);
  lanes::store(D.D1, b.D1 + k0, count);
  lanes::store(D.D2, b.D2 + k0, count);
  lanes::store(D.D3, b.D3 + k0, count);
}

#define FIELD_SERIES_KERNEL(SUFFIX, TARGET)                                              \
  TARGET void nodes_##SUFFIX(const SlabLanes& s, const BeamEnergies<>& e,                \
                             const SlabTermsLanes::Beam* beams, bool row,                \
                             const SlabTermsLanes::Batch& b, int k0, int count) {        \
    if (beams != nullptr) {                                                              \
      if (s.exponential) return per_node_body<lie::Se3Exp>(s, beams, row, b, k0, count); \
      return per_node_body<lie::Se3Cayley>(s, beams, row, b, k0, count);                 \
    }                                                                                    \
    if (s.exponential)                                                                   \
      return nodes_body(s.exp_node, s.exp_across, e, row, s.h, s.k, b, k0, count);       \
    nodes_body(s.node, s.across, e, row, s.h, s.k, b, k0, count);                        \
  }

#define FIELD_DAMPING_KERNEL(SUFFIX, TARGET)                                                      \
  TARGET void damping_##SUFFIX(const SlabLanes& s, const SlabTermsLanes::DampingBatch& b, int k0, \
                               int count) {                                                       \
    if (s.per_node_laws()) {                                                                      \
      if (s.exponential) {                                                                        \
        const NodeLaws<lie::Se3Exp> laws = node_laws<lie::Se3Exp>(s, k0, count);                  \
        return damping_body(laws.xi, laws.eta, s, b, k0, count);                                  \
      }                                                                                           \
      const NodeLaws<lie::Se3Cayley> laws = node_laws<lie::Se3Cayley>(s, k0, count);              \
      return damping_body(laws.xi, laws.eta, s, b, k0, count);                                    \
    }                                                                                             \
    if (s.exponential) return damping_body(s.exp_node, s.exp_across, s, b, k0, count);            \
    damping_body(s.node, s.across, s, b, k0, count);                                              \
  }

FIELD_SERIES_KERNEL(baseline, FIELD_LANES_FLATTEN)
FIELD_DAMPING_KERNEL(baseline, FIELD_LANES_FLATTEN)
#if FIELD_LANES_X86
FIELD_SERIES_KERNEL(avx2, __attribute__((target("avx2"), flatten)))
FIELD_DAMPING_KERNEL(avx2, __attribute__((target("avx2"), flatten)))
#endif

}  // namespace

template <class G>
std::optional<SlabTermsLanes> SlabTermsLanes::make(const dcel::DiscreteModel<G>& model,
                                                   SlabAxis axis) {
  // The time equation's laws: node = the xi law, across = the eta law (march/slab_lanes.hpp).
  const auto laws = SlabLanes::make(model, dcel::NodeEquation::time, {});
  if (!laws) return std::nullopt;
  // A law per node (non-uniform beam, theory §1.6): rows only (the columns of a non-uniform beam
  // run node by node, node_energy_at).
  if (laws->per_node_laws() && axis != SlabAxis::row) return std::nullopt;
  const auto& density = model.density();
  SlabTermsLanes out(*laws, axis, density.has_potential() || !model.loads().distributed.empty());
  const auto beam_of = [](const model::Density<lie::Se3Group>& d) {
    const auto& law = *d.diagonal_law();  // set: SlabLanes::make checked it
    // rho A_c gvec: the body-frame weight of potential_force at the identity (R = I).
    const Vec3 weight = d.potential_force(lie::SE3::identity()).template tail<3>();
    Beam beam;
    for (int i = 0; i < 6; ++i) {
      beam.J[i] = law.inertia[i];
      beam.C[i] = law.stiffness[i];
      beam.E6[i] = law.reference_strain[i];
    }
    for (int i = 0; i < 3; ++i) beam.weight[i] = weight[i];
    return beam;
  };
  out.beam_ = beam_of(model.density(0));
  if (laws->per_node_laws())
    for (int k = 0; k < model.mesh().A(); ++k) out.beams_.push_back(beam_of(model.density(k)));
  return out;
}

void SlabTermsLanes::nodes(const Batch& batch, int k0, int count) const {
  const bool row = axis_ == SlabAxis::row;
  const BeamEnergies<> e{beam_.J, beam_.C, beam_.E6, beam_.weight};
  const Beam* beams = beams_.empty() ? nullptr : beams_.data();
#if FIELD_LANES_X86
  if (laws_.isa_used() == SlabLanes::Isa::avx2)
    return nodes_avx2(laws_, e, beams, row, batch, k0, count);
#endif
  nodes_baseline(laws_, e, beams, row, batch, k0, count);
}

void SlabTermsLanes::damping(const DampingBatch& batch, int k0, int count) const {
  FIELD_ASSERT(axis_ == SlabAxis::row, "SlabTermsLanes::damping: time rows only");
#if FIELD_LANES_X86
  if (laws_.isa_used() == SlabLanes::Isa::avx2) return damping_avx2(laws_, batch, k0, count);
#endif
  damping_baseline(laws_, batch, k0, count);
}

#define FIELD_INSTANTIATE(G)                                                                 \
  template std::optional<SlabTermsLanes> SlabTermsLanes::make(const dcel::DiscreteModel<G>&, \
                                                              SlabAxis);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether

#include "libfield/noether/slab_terms_lanes.hpp"

#include "libfield/model/beam_density.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define FIELD_LANES_X86 1
#else
#define FIELD_LANES_X86 0
#endif

namespace field::noether {

namespace {

using lanes::V6;
using march::SlabLanes;

// The kernels' bodies, compiled for the baseline and for AVX2 below (march/slab_lanes.cpp says
// why everything is forced inline).
#define FIELD_LANES_BODY inline __attribute__((always_inline))

// Node::tau_inv: the retraction's inverse on lanes.
template <class Node>
FIELD_LANES_BODY void along_body(double h, const lie::SE3* g, int k0, int count, Vec6* out) {
  // mesh::convected: tau^{-1}(g_k^{-1} g_{k+1}) / h.
  const lanes::G a = lanes::load(g + k0, count), b = lanes::load(g + k0 + 1, count);
  lanes::store((1.0 / h) * Node::tau_inv(lanes::inverse_mul(a, b)), out + k0, count);
}

// xi_law: (J, 0, dt), eta_law: (C, E6, ds).
template <class Node>
FIELD_LANES_BODY void triangles_body(const Node& xi_law, const Node& eta_law, bool row, double dt,
                                     double ds, const lie::SE3* slab, const Vec6* along,
                                     const lie::SE3* next, int k0, int count, Vec6* across,
                                     Vec6* cross, Vec6* along_terms) {
  // triangle_at: the quantity across from g_1 = slab[k] and next[k]; M = Ad*_{g_1^{-1}} mu(xi),
  // N = Ad*_{g_1^{-1}} lambda(eta), lambda = -Phi_eta (dcel::space_momentum).
  const lanes::G g1 = lanes::load(slab + k0, count), g2 = lanes::load(next + k0, count);
  const V6 c = (1.0 / (row ? dt : ds)) * Node::tau_inv(lanes::inverse_mul(g1, g2));
  const V6 l = lanes::load(along + k0, count);
  const V6 &xi = row ? c : l, &eta = row ? l : c;
  const V6 M = lanes::spatial_covector(g1, xi_law.phi(xi));
  const V6 minus_N = lanes::spatial_covector(g1, eta_law.phi(eta));
  lanes::store(c, across + k0, count);
  // Row: cross = ds M, along = dt N; column: cross = dt N, along = ds M.
  lanes::store(row ? ds * M : (-dt) * minus_N, cross + k0, count);
  lanes::store(row ? (-dt) * minus_N : ds * M, along_terms + k0, count);
}

#define FIELD_SERIES_KERNELS(SUFFIX, TARGET)                                                       \
  TARGET void along_##SUFFIX(const SlabLanes& s, double h, const lie::SE3* g, int k0, int count,   \
                             Vec6* out) {                                                          \
    if (s.exponential) return along_body<dcel::ExpNodeLanes>(h, g, k0, count, out);                \
    along_body<dcel::CayleyNodeLanes>(h, g, k0, count, out);                                       \
  }                                                                                                \
  TARGET void triangles_##SUFFIX(                                                                  \
      const SlabLanes& s, bool row, double dt, double ds, const lie::SE3* slab, const Vec6* along, \
      const lie::SE3* next, int k0, int count, Vec6* across, Vec6* cross, Vec6* along_terms) {     \
    if (s.exponential)                                                                             \
      return triangles_body(s.exp_node, s.exp_across, row, dt, ds, slab, along, next, k0, count,   \
                            across, cross, along_terms);                                           \
    triangles_body(s.node, s.across, row, dt, ds, slab, along, next, k0, count, across, cross,     \
                   along_terms);                                                                   \
  }

FIELD_SERIES_KERNELS(baseline, __attribute__((flatten)))
#if FIELD_LANES_X86
FIELD_SERIES_KERNELS(avx2, __attribute__((target("avx2"), flatten)))
#endif

}  // namespace

std::optional<SlabTermsLanes> SlabTermsLanes::make(const dcel::DiscreteModel& model,
                                                   SlabAxis axis) {
  // The time equation's laws: node = the xi law, across = the eta law (march/slab_lanes.hpp).
  const auto laws = SlabLanes::make(model, dcel::NodeEquation::time, {});
  if (!laws) return std::nullopt;
  const auto& beam = dynamic_cast<const model::BeamDensity&>(model.density());
  return SlabTermsLanes(*laws, axis,
                        !beam.gravity().isZero(0.0) || !model.loads().distributed.empty());
}

void SlabTermsLanes::along(const lie::SE3* slab, int k0, int count, Vec6* along) const {
  const bool row = axis_ == SlabAxis::row;
  const double h = row ? laws_.k : laws_.h;  // ds along a row, dt along a column
#if FIELD_LANES_X86
  if (laws_.isa_used() == SlabLanes::Isa::avx2) return along_avx2(laws_, h, slab, k0, count, along);
#endif
  along_baseline(laws_, h, slab, k0, count, along);
}

void SlabTermsLanes::triangles(const lie::SE3* slab, const Vec6* along, const lie::SE3* next,
                               int k0, int count, Vec6* across, SlabTerms& t) const {
  const bool row = axis_ == SlabAxis::row;
#if FIELD_LANES_X86
  if (laws_.isa_used() == SlabLanes::Isa::avx2)
    return triangles_avx2(laws_, row, laws_.h, laws_.k, slab, along, next, k0, count, across,
                          t.cross.data(), t.along.data());
#endif
  triangles_baseline(laws_, row, laws_.h, laws_.k, slab, along, next, k0, count, across,
                     t.cross.data(), t.along.data());
}

}  // namespace field::noether

#pragma once
/// The per-node work of the series diagnostics (slab_terms.hpp) for the beam of SPEC [S3], four
/// nodes at a time on SIMD lanes (core/lanes.hpp), with the laws and retraction kernels of the
/// march (march::SlabLanes): the convected quantity along a slab (along_at) and, per triangle,
/// the quantity across, the momenta mu = (dtau^{-1}_{dt xi})^T J xi and
/// lambda = -(dtau^{-1}_{ds eta})^T C (eta - E6) (SPEC [S4.2]) and their spatial covectors
/// (SPEC [S8.1]). Same formulas as along_at / triangle_at in another operation order: the series
/// agree with the per-node path to round-off (SlabSeries.LanesAgreeWithThePerNodePath). Batches
/// start at fixed nodes, so the bits do not depend on the thread count; the baseline and AVX2
/// builds round identically (no FMA), like the march's.
#include <optional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/slab_lanes.hpp"
#include "libfield/noether/slab_terms.hpp"

namespace field::noether {

class SlabTermsLanes {
 public:
  /// Empty unless the density is a model::BeamDensity (as march::SlabLanes::make).
  static std::optional<SlabTermsLanes> make(const dcel::DiscreteModel& model, SlabAxis axis);

  /// Whether the slabs have body forces (gravity or distributed loads): else every t.force term
  /// is zero and SlabSeries leaves t.force empty.
  bool forces() const { return forces_; }

  /// Instruction set of the kernels (tests pick one; automatic: AVX2 where the CPU has it).
  march::SlabLanes::Isa& isa() { return laws_.isa; }

  /// along[k] = along_at(model, axis, slab, k) for k = k0..k0+count-1 (count <= lanes::kWidth).
  void along(const lie::SE3* slab, int k0, int count, Vec6* along) const;

  /// Triangles k = k0..k0+count-1 of a slab, from the slab, its along values and the next slab:
  /// across[k] = the convected quantity across the slab (xi_j^a for a row, eta_j^a for a column),
  /// and t.cross[k], t.along[k] as triangle_at writes them (not t.force).
  void triangles(const lie::SE3* slab, const Vec6* along, const lie::SE3* next, int k0, int count,
                 Vec6* across, SlabTerms& t) const;

 private:
  SlabTermsLanes(const march::SlabLanes& laws, SlabAxis axis, bool forces)
      : laws_(laws), axis_(axis), forces_(forces) {}
  march::SlabLanes laws_;  // node: the xi law (J, 0, dt); across: the eta law (C, E6, ds)
  SlabAxis axis_;
  bool forces_;
};

}  // namespace field::noether

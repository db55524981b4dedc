#pragma once
/// The per-node work of the series diagnostics (slab_terms.hpp) for the beam of theory §1, four
/// nodes at a time on SIMD lanes (core/lanes.hpp), with the laws and retraction kernels of the
/// march (march::SlabLanes): the convected quantity along a slab (along_at) and, per triangle,
/// the quantity across, the momenta mu = (dtau^{-1}_{dt xi})^T J xi and
/// lambda = -(dtau^{-1}_{ds eta})^T C (eta - E6) (theory §3.3) and their spatial covectors
/// (theory §7.1), and the energy terms of theory §8. Same formulas as along_at / triangle_at in
/// another operation order: the series agree with the per-node path to round-off
/// (SlabSeries.LanesAgreeWithThePerNodePath). Batches start at fixed nodes, so the bits do not
/// depend on the thread count; the baseline and AVX2 builds round identically (no FMA), like the
/// march's.
#include <optional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/slab_lanes.hpp"
#include "libfield/noether/slab_terms.hpp"

namespace field::noether {

class SlabTermsLanes {
 public:
  /// Empty unless the density has a diagonal quadratic law (as march::SlabLanes::make); a
  /// non-uniform model (theory §1.6) gets a law per node on the rows, and its columns run node by
  /// node (SlabSeries: E_M^a takes column a+1's node terms in column a's law, theory §6.2).
  template <class G>
  static std::optional<SlabTermsLanes> make(const dcel::DiscreteModel<G>& model, SlabAxis axis);

  /// Whether the slabs have body forces (gravity or distributed loads): else every t.force term
  /// is zero and SlabSeries leaves t.force empty.
  bool forces() const { return forces_; }

  /// Instruction set of the kernels (tests pick one; automatic: AVX2 where the CPU has it).
  march::SlabLanes::Isa& isa() { return laws_.isa; }

  /// What one call of nodes() computes, for the nodes k = k0..k0+count-1 (count <= kWidth).
  struct Batch {
    const lie::SE3* next = nullptr;  ///< the next slab (K+1 values)
    /// When set: next_along[k] = along_at(next, k) and node_energy[k] = node_energy_at(...).
    Vec6* next_along = nullptr;
    double* node_energy = nullptr;
    /// When set: the terms of the slab from the slab, its along values and the next slab:
    /// terms->cross[k], terms->along[k] and triangle_energy[k] as triangle_at writes and returns
    /// them (not terms->force).
    SlabTerms* terms = nullptr;
    const lie::SE3* slab = nullptr;
    const Vec6* along = nullptr;
    double* triangle_energy = nullptr;
  };
  void nodes(const Batch& batch, int k0, int count) const;

  /// The damping terms of the triangles k = k0..k0+count-1 of a time row j of a damped march
  /// (theory §4.7), as dcel::DissipationSeries::triangle writes them: xi_j^k, eta_j^k and
  /// D1_d, D2_d, D3_d (dcel::damping_terms; the stiffness part when eta_prev = eta_{j-1} is set).
  /// A half turn between nodes (Cayley) gives NaN, as in nodes(). Rows only.
  struct DampingBatch {
    const lie::SE3* row = nullptr;   ///< g_j (A+1 values)
    const lie::SE3* next = nullptr;  ///< g_{j+1}
    const Vec6* eta_prev = nullptr;  ///< eta_{j-1}^k, or null
    Vec6 *xi = nullptr, *eta = nullptr, *D1 = nullptr, *D2 = nullptr, *D3 = nullptr;
  };
  void damping(const DampingBatch& batch, int k0, int count) const;

  /// The beam's constants for the energies: diagonals of J and C, E6 and the weight rho A_c gvec.
  struct Beam {
    double J[6], C[6], E6[6], weight[3];
  };

 private:
  SlabTermsLanes(const march::SlabLanes& laws, SlabAxis axis, bool forces)
      : laws_(laws), beam_{}, axis_(axis), forces_(forces) {}
  march::SlabLanes laws_;  // node: the xi law (J, 0, dt); across: the eta law (C, E6, ds)
  Beam beam_;
  /// Node (and segment) k's constants when the model is not uniform (rows), else empty.
  std::vector<Beam> beams_;
  SlabAxis axis_;
  bool forces_;
};

}  // namespace field::noether

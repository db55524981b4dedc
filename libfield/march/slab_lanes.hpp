#pragma once
/// The per-slab loops of the marches (theory §6.1, §6.2) for the beam of theory §1 with the Cayley
/// or the exponential retraction, four nodes at a time (core/lanes.hpp,
/// dcel/diagonal_node_lanes.hpp). Both marches
/// are one algorithm (theory §6.2: the space march is the time march on the transposed field):
/// a march variable y with law p = K (y - y0) and step h (time: xi, J, 0, dt; space: eta, C, E6,
/// ds) and a variable z across the slab with law Kc (z - z0) and step k (time: eta, C, E6, ds;
/// space: xi, J, 0, dt). Compiled for AVX2 and for the x86-64 baseline, chosen at run time
/// (`isa`); both give the same bits. The marches use it where it applies (SlabSolver::lanes()); the
/// per-node loops with dcel::CayleyNode / dcel::ExpNode / dcel::solve_node remain the reference.
#include <optional>
#include <vector>

#include "libfield/core/lanes.hpp"
#include "libfield/dcel/diagonal_node_lanes.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/node_solver.hpp"

namespace field::march {

struct SlabLanes {
  /// The march law K, y0, step h and the law across Kc, z0, step k, for each retraction;
  /// `exponential` says which pair the kernels use.
  dcel::CayleyNodeLanes node, across;
  dcel::ExpNodeLanes exp_node, exp_across;
  bool exponential = false;
  double h, k;
  dcel::NodeSolverOptions newton;
  /// The model has forces (gravity, distributed or point loads): the marches pass `extra`.
  bool external = false;
  /// Instruction set of the kernels: automatic = AVX2 where the CPU has it, else the baseline
  /// (SSE2 on x86-64). Both round identically (no FMA); tests and benchmarks pick one.
  enum class Isa { automatic, baseline, avx2 };
  Isa isa = Isa::automatic;
  /// The instruction set the kernels run with; throws field::Error for avx2 on a CPU without.
  Isa isa_used() const;
  /// The CPU has AVX2 and the kernels were built for it (not in a sanitizer build, core/lanes.hpp).
  static bool avx2_available();
  /// A law per node (a non-uniform beam, theory §1.6; time march): node i has the march law
  /// K = node_K[i], y0 = node_y0[i] and segment i the law across Kc = across_K[i],
  /// z0 = across_y0[i] (then `node`, `across` are unused). Empty: `node`, `across` for every node.
  std::vector<Vec6> node_K{}, node_y0{}, across_K{}, across_y0{};
  bool per_node_laws() const { return !node_K.empty(); }
  /// A law per slab (a non-uniform beam, theory §1.6, §6.2; space march): every node of slab
  /// (column) a solves with segment a's march law slab_node[a] (K = C_a, y0 = eta0_a) after
  /// taking its target's first term from slab a-1's, and its fluxes have node a's law across
  /// slab_across[a] (Kc = J_a, z0 = 0); exp_slab_node, exp_slab_across for the exponential.
  /// Empty: `node`, `across` for every slab.
  std::vector<dcel::CayleyNodeLanes> slab_node{}, slab_across{};
  std::vector<dcel::ExpNodeLanes> exp_slab_node{}, exp_slab_across{};
  bool per_slab_laws() const { return !slab_node.empty(); }
  /// Damping of the time march (theory §4.7, dcel/damping.hpp): mass_c = alpha dt / 2 and
  /// stiffness_b = beta / dt; zero without (and always in the space march).
  double mass_c = 0.0, stiffness_b = 0.0;

  /// Empty unless every column's density has a diagonal quadratic law (Density::diagonal_law());
  /// a non-uniform model has per_node_laws() (time march) or per_slab_laws() (space march).
  template <class G>
  static std::optional<SlabLanes> make(const dcel::DiscreteModel<G>& model,
                                       dcel::NodeEquation equation,
                                       const dcel::NodeSolverOptions& newton);

  /// Number of batches of lanes::kWidth nodes that cover `nodes` nodes.
  static int batches(int nodes) { return (nodes + lanes::kWidth - 1) / lanes::kWidth; }

  /// For i = i0 .. i0+count-1 (count <= kWidth) of slab `slab`, with z = tau^{-1}(g_i^{-1} g_{i+1})
  /// / k:
  ///   flux_i = (dtau^{-1}_{kz})^T Kc (z - z0),  flux~_i = (dtau^{-1}_{-kz})^T Kc (z - z0);
  /// time march: lambda = -flux, lambda~ = -flux~ (theory §6.1); space march: mu, mu~ (theory
  /// §6.2). With stiffness damping, `prev` (the slab before, else null) gives z_prev and the
  /// damping stress b Kc (z - z_prev) joins Kc (z - z0) (lambda + lambda_d, theory §4.7).
  void fluxes(int slab, const lie::SE3* g, const lie::SE3* prev, int i0, int count, Vec6* flux,
              Vec6* flux_tilde) const;

  /// Node updates of slab `slab` for i = i0 .. i0+count-1: from the node's last solution y_i,
  ///   m_i = (dtau^{-1}_{-h y_i})^T K (y_i - y0) + (h/k) (flux_i - flux~_{i-1}) + extra_i,
  /// flux~_{-1} := 0 (time: m of theory §6.1; space: -lambda of theory §6.2, with K, y0 of slab
  /// slab-1 in the first term and the solve in slab's law when per_slab_laws()); with mass damping
  /// m_i = ((1 - c) (dtau^{-1}_{-h y_i})^T K (y_i - y0) + ...) / (1 + c) (theory §4.7); `extra`
  /// (null when !external) holds the loads: time dt f + (dt/ds) W, space -ds f - W. Newton from the
  /// extrapolated start of march::extrapolate, retried from y_i where it fails; then
  /// next_i = g_i tau(h y_i), y_i and the history back1_i, back2_i updated, reports_i filled.
  void updates(int slab, int i0, int count, const lie::SE3* g, const Vec6* flux,
               const Vec6* flux_tilde, const Vec6* extra, Vec6* y, Vec6* back1, Vec6* back2,
               lie::SE3* next, dcel::NodeSolveReport* reports) const;
};

}  // namespace field::march

#pragma once
/// The least-squares problem of the estimator over the whole (t, s) mesh (theory §6.7,
/// docs/reconstruction.md, method = "estimate"): the unknowns are the poses g_j^a of all nodes
/// but the fixed ones, updated on the group by g <- g tau(delta) (left-trivialised, the case's
/// retraction G); the residual blocks (6 rows each) are
///   * the DCEL residual G_n / (dt ds sigma_model) of every equation node (theory §4.1-§4.3),
///     split in the cost into interior nodes and natural boundary nodes (rows at rest, free end);
///   * with Conditions::first_straight, (eta_0^a - E6) / sigma_straight, a = 0..A-1 (boundary);
///   * the misfit of the tip pose g_j^0 to the measured one, (log(Lambda_m^T Lambda) /
///     sigma_angle, (r - r_m) / sigma_position), j = 0..J;
///   * the misfit of the tip strain eta_j^0 = tau^{-1}((g_j^0)^{-1} g_j^1)/ds (theory (3.3)) to
///     the measured one, divided by sigma_strain, j = 0..J-1.
/// Each block depends on a few nodes only (the stencil of theory §4.1), which makes the
/// Jacobian sparse with 6x6 blocks.
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"

namespace field::estimate {

/// The conditions the user declares (theory §6.7): rows j = 0 and j = J at rest (the natural
/// zero-momentum and ghost-row equations of theory (4.5), (4.6)) or free (nothing); the far end
/// a = A free (ghost end, theory (4.4)), clamped (held at its pose in the start field at t = 0)
/// or nothing.
struct Conditions {
  enum class FarEnd { free, clamped, none };
  bool first_at_rest = true;
  /// Row j = 0 also straight and unstressed: eta_0^a = E6, a = 0..A-1 (the driven march's start,
  /// theory §6.1), weighted by Weights::straight. Without it the shape of row 0 is seen only
  /// through the tip strain, weakly (docs/reconstruction.md).
  bool first_straight = false;
  bool last_at_rest = true;
  FarEnd far_end = FarEnd::free;
};

/// The boundary whose equation nodes carry DCEL blocks under `conditions` (theory §6.7): the tip
/// a = 0 open (data), rows natural (at rest) or open (free), the far end natural (free),
/// prescribed (clamped) or open (none). `field check` checks a run's residuals on its nodes.
mesh::Boundary equation_boundary(const Conditions& conditions);

/// The standard deviations that weight the residual blocks. All > 0.
struct Weights {
  double model_error = 1e-3;  ///< of the DCEL equation divided by dt ds [N/m, N m/m]
  double position = 1e-6;     ///< of a tip position [m]
  double angle = 1e-6;        ///< of a tip rotation [rad]
  double strain = 1e-6;       ///< of a tip strain component [1/m, -]
  /// Of row 0's strain under Conditions::first_straight [1/m, -]: a declared condition, weighted
  /// as exact, not by the tip strain's noise (with that, the covariance let row 0 bend where the
  /// beam is straight: far-end NEES 0.43 instead of 1, theory (6.13), docs/reconstruction.md).
  double straight = 1e-6;
};

/// The measurements: tip poses g_j^0 (j = 0..J) and tip strains eta_j^0 (j = 0..J-1).
struct TipMeasurements {
  std::vector<lie::SE3> pose;
  std::vector<Vec6> strain;
};

/// The cost 1/2 |r|^2 split by term.
struct CostTerms {
  double dcel = 0.0;      ///< interior equation nodes
  double boundary = 0.0;  ///< natural boundary nodes (rows at rest, free far end, corners)
  double tip_pose = 0.0;
  double tip_strain = 0.0;
  double total() const { return dcel + boundary + tip_pose + tip_strain; }
};

/// One residual block: its kind, its node (j, a) and the unknown nodes it depends on.
struct Block {
  enum class Kind { dcel, boundary, straight, tip_pose, tip_strain };
  Kind kind;
  int j, a;
  std::vector<int> unknowns;  ///< indices of unknown nodes (ascending)
};

template <class G>
class Problem {
 public:
  /// Checks the sizes and the weights (throws field::Error).
  Problem(const dcel::DiscreteModel<G>& model, const TipMeasurements& data,
          const Conditions& conditions, const Weights& weights);

  /// The boundary whose equation nodes carry DCEL blocks (mesh::Boundary, theory §4.3).
  const mesh::Boundary& boundary() const { return boundary_; }
  /// The unknown nodes, row by row; unknown k is node nodes()[k].
  const std::vector<mesh::Node>& nodes() const { return nodes_; }
  /// Unknown index of node (j, a), or -1 for a fixed node.
  int unknown(int j, int a) const { return index_[static_cast<size_t>(j) * (A_ + 1) + a]; }
  const std::vector<Block>& blocks() const { return blocks_; }
  int unknown_count() const { return static_cast<int>(nodes_.size()); }
  int block_count() const { return static_cast<int>(blocks_.size()); }

  /// The 6 weighted residuals of block b for the field.
  Vec6 residual(int b, const mesh::Field& field) const;
  /// Every block's residuals, r[6 b + i]; parallel over blocks, each value computed alone.
  Eigen::VectorXd residuals(const mesh::Field& field, int threads) const;
  /// 1/2 |r|^2 split by term.
  CostTerms cost(const Eigen::VectorXd& r) const;
  /// dr_b / d delta_k (6x6) by central differences of residual(): the k-th unknown node moved to
  /// g tau(+-h e_i). The first version of the Jacobian (theory §6.7).
  Mat6 jacobian_block(int b, int k, mesh::Field& field, double h) const;
  /// dr_b / d delta_k for every unknown k of block b, in the order of Block::unknowns, written to
  /// out[0..]: analytic (theory §6.7, estimate/analytic_jacobian.cpp) from the momenta's Newton
  /// Jacobians (dcel::node_jacobian) and dtau^{-1}; the loads' terms of the node itself by central
  /// differences with step h, and a DCEL block with damping (theory §4.7) by jacobian_block (the
  /// field is moved and restored exactly then).
  void jacobian_blocks(int b, mesh::Field& field, double h, Mat6* out) const;

  /// g <- g tau(delta_k) for every unknown node k (delta has 6 n entries).
  void update(mesh::Field& field, const Eigen::VectorXd& delta) const;

 private:
  const dcel::DiscreteModel<G>& model_;
  const TipMeasurements& data_;
  Weights weights_;
  mesh::Boundary boundary_;
  int J_, A_;
  std::vector<int> index_;
  std::vector<mesh::Node> nodes_;
  std::vector<Block> blocks_;
};

}  // namespace field::estimate

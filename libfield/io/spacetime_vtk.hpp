#pragma once
/// The whole run as one triangulated spacetime surface, `spacetime.vtu` (docs/output-format.md):
/// a slab observer of TIME ROWS that keeps the last three rows (to evaluate node quantities that
/// need rows j-1, j, j+1) and streams the values of the output rows (j % stride == 0, j == J and
/// the last row received) to a temporary file next to the output, `PATH.rows.part`: memory O(A),
/// whatever J and the stride. finish() writes the file from it (VTK XML with raw appended data,
/// written directly, io/vtk_file.hpp; the normalisations need the maxima over all the rows) and
/// removes it; the destructor removes it too (an unfinished run leaves no spacetime.vtu).
///
///   points      (t_j, s_a, 0) for every node of the output rows (theory §3.4 for s_a)
///   cells       triangles of the grid of output rows j_k: for each of its cells the theory's
///               triangle (j_k,a),(j_k+1,a),(j_k,a+1) (triangle_kind 0, theory §3.1) and the
///               complementary (j_k+1,a),(j_k+1,a+1),(j_k,a+1) (triangle_kind 1, drawn only to
///               close the surface); with stride > 1 they span stride rows
///   point data  position r [m] (3); q_wxyz (4; not on R^3, the cable of theory §1.8, whose
///                 nodes are points); node_kind (mesh::NodeKind as an integer);
///               energy_density [J/m] = T(xi_j^a) + V(eta_j^a) + Pi(g_j^a) (theory §8), the
///                 density of triangle (j, a) at its vertex v1 = (j, a); 0 at j = J or a = A,
///                 where the triangle does not exist;
///               dcel_residual = |G_n|_inf / max_m scale_m (theory §4, dcel::node_residual),
///                 the maximum over the equation nodes of the output rows: with stride 1 the
///                 largest value is dcel::residual_report's `relative`; 0 at nodes that are not
///                 equation nodes;
///               noether_defect = |Res(R)|_inf / max(scale_R, scale_glob) for the node rectangle
///                 R = [j, j] x [a, a] (theory §7.2, noether::node_balance; scale_glob from the
///                 triangles of the output rows, the theory's value with stride 1); 0 at nodes
///                 that are not equation nodes. Res of one node is the spatial form
///                 Ad*_{g^{-1}} G_n of the DCEL residual: the two fields carry the same
///                 information, normalised differently.
/// Only the output rows are evaluated (rows j-1 and j+1 come from the window), so the cost is
/// proportional to the output, not to J.
/// Rows of an interrupted march: the last row received has no row j+1, so its energy_density,
/// dcel_residual and noether_defect are 0 unless it is row J.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <type_traits>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/row_window.hpp"

namespace field::io {

/// Size [bytes] of a spacetime.vtu of `rows` output rows of nodes a = 0..A (`field info`);
/// `frames`: with the q_wxyz array (every group but R^3).
std::uint64_t spacetime_file_bytes(long long rows, int A, bool frames = true);

/// G: the march's group, SE(3) with either retraction or R^3 (the cable).
template <class G>
class SpacetimeWriter final : public march::BasicSlabObserver<lie::ElementOf<G>> {
  using Element = lie::ElementOf<G>;
  /// Nodes with frames (SE(3)): q_wxyz is written; points of R^3 have none.
  static constexpr bool kFrames = std::is_same_v<Element, lie::SE3>;

 public:
  /// `boundary` says which nodes are equation nodes (mesh::SpacetimeMesh::is_equation_node) and
  /// where the nodes sit (s = mesh.s(a, boundary.left)).
  /// Opens `PATH.rows.part`: throws field::IoError naming it when it cannot.
  SpacetimeWriter(std::filesystem::path path, const dcel::DiscreteModel<G>& model,
                  const mesh::Boundary& boundary, int stride);
  SpacetimeWriter(const SpacetimeWriter&) = delete;
  SpacetimeWriter& operator=(const SpacetimeWriter&) = delete;
  /// Removes `PATH.rows.part`. Never throws.
  ~SpacetimeWriter() override;

  /// Row j must follow the previous row; evaluates row j-1 when it is an output row.
  void slab(int j, const std::vector<Element>& row, const march::SlabStats& stats) override;
  /// Evaluates the last row and writes the file. Throws field::IoError.
  void finish() override;

  /// Output rows evaluated so far (they are in the temporary file, not in memory).
  int output_rows() const { return static_cast<int>(rows_); }
  /// Bytes the writer holds in memory (its buffers; for tests of the memory bound): O(A).
  std::size_t memory_bytes() const;

 private:
  /// Node quantities of output row j from the window (rows j-1, j, j+1), appended to the
  /// temporary file; `complete`: row j+1 exists (or j = J), otherwise the quantities stay 0.
  void process_row(int j, bool complete);
  /// Writes the .vtu from the temporary file and removes it.
  void write();

  std::filesystem::path path_;
  dcel::DiscreteModel<G> model_;
  mesh::Boundary boundary_;
  SlabSelection selection_;
  mesh::RowWindowOf<G> window_;
  std::filesystem::path rows_path_;  // PATH.rows.part: one record per output row
  std::ofstream rows_out_;
  long long rows_ = 0;               // output rows in it
  std::vector<double> record_;       // the record of one row
  std::vector<std::int32_t> kinds_;  // node kinds of one row
  // Scales over the output rows: max scale_n of their equation nodes (theory §4);
  // ds max_j sum_a |M_j^a|_inf and sum_j |N_j^a|_inf per column a (scale_glob, theory §7.2).
  double max_scale_ = 0.0;
  double time_scale_ = 0.0;
  std::vector<double> column_N_;
  bool finished_ = false;
};

}  // namespace field::io

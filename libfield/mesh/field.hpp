#pragma once
/// SE(3) values per node of a SpacetimeMesh (theory §3.1), stored contiguously by time row (a
/// slab of the time march) or by space column (a slab of the space march).
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::mesh {

enum class Layout {
  by_row,     ///< index j (A+1) + a: one time row is contiguous
  by_column,  ///< index a (J+1) + j: one space column is contiguous
};

/// The discrete field g_j^a, j = 0..J, a = 0..A; initialised to the identity.
class Field {
 public:
  explicit Field(const SpacetimeMesh& mesh, Layout layout = Layout::by_row)
      : mesh_(mesh), layout_(layout), g_(static_cast<size_t>(mesh.node_count())) {}

  const SpacetimeMesh& mesh() const { return mesh_; }
  Layout layout() const { return layout_; }

  lie::SE3& operator()(int j, int a) { return g_[index(j, a)]; }
  const lie::SE3& operator()(int j, int a) const { return g_[index(j, a)]; }
  const lie::SE3& operator()(const Node& n) const { return g_[index(n.j, n.a)]; }
  lie::SE3& operator()(const Node& n) { return g_[index(n.j, n.a)]; }

  /// Pointer to row j (A+1 values), by_row layout only.
  lie::SE3* row(int j) {
    FIELD_ASSERT(layout_ == Layout::by_row, "row() needs the by_row layout");
    return &g_[index(j, 0)];
  }
  /// Pointer to column a (J+1 values), by_column layout only.
  lie::SE3* column(int a) {
    FIELD_ASSERT(layout_ == Layout::by_column, "column() needs the by_column layout");
    return &g_[index(0, a)];
  }

 private:
  size_t index(int j, int a) const {
    FIELD_ASSERT(mesh_.has_node(j, a), "node (" << j << ", " << a << ") outside the mesh");
    return layout_ == Layout::by_row ? static_cast<size_t>(j) * (mesh_.A() + 1) + a
                                     : static_cast<size_t>(a) * (mesh_.J() + 1) + j;
  }

  SpacetimeMesh mesh_;
  Layout layout_;
  std::vector<lie::SE3> g_;
};

}  // namespace field::mesh

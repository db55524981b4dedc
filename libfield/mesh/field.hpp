#pragma once
/// Group values per node of a SpacetimeMesh (theory §3.1; E for the beam, lie::SE2 for the
/// planar beam of §1.7), stored contiguously by time row (a
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

/// The discrete field g_j^a, j = 0..J, a = 0..A, with values E (a group's Element);
/// initialised to the identity.
template <class E>
class BasicField {
 public:
  explicit BasicField(const SpacetimeMesh& mesh, Layout layout = Layout::by_row)
      : mesh_(mesh), layout_(layout), g_(static_cast<size_t>(mesh.node_count())) {}

  const SpacetimeMesh& mesh() const { return mesh_; }
  Layout layout() const { return layout_; }

  E& operator()(int j, int a) { return g_[index(j, a)]; }
  const E& operator()(int j, int a) const { return g_[index(j, a)]; }
  const E& operator()(const Node& n) const { return g_[index(n.j, n.a)]; }
  E& operator()(const Node& n) { return g_[index(n.j, n.a)]; }

  /// Pointer to row j (A+1 values), by_row layout only.
  E* row(int j) {
    FIELD_ASSERT(layout_ == Layout::by_row, "row() needs the by_row layout");
    return &g_[index(j, 0)];
  }
  /// Pointer to column a (J+1 values), by_column layout only.
  E* column(int a) {
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
  std::vector<E> g_;
};

/// The beam's field on SE(3).
using Field = BasicField<lie::SE3>;
/// The field of the group G (a lie/lie_group.hpp instance).
template <class G>
using FieldOf = BasicField<typename G::Element>;

}  // namespace field::mesh

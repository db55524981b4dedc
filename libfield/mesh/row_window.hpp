#pragma once
/// The last few time rows of a field, addressed by the global node (j, a): what a streaming
/// observer of a time march keeps to evaluate quantities at node (j, a) that need the rows
/// j-1, j, j+1 (the DCEL residual of theory §4, the Noether balance of a node, theory §7.2) without
/// storing the whole mesh::Field. Memory: capacity x (A+1) poses.
#include <algorithm>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::mesh {

/// E: the node value (a group's Element).
template <class E>
class BasicRowWindow {
 public:
  /// Keeps the last `capacity` (>= 1) rows pushed; throws field::Error otherwise.
  BasicRowWindow(const SpacetimeMesh& mesh, int capacity)
      : mesh_(mesh), rows_(static_cast<size_t>(capacity > 0 ? capacity : 0)) {
    FIELD_CHECK(capacity >= 1, "a row window needs a capacity >= 1, got " << capacity);
  }

  const SpacetimeMesh& mesh() const { return mesh_; }
  int capacity() const { return static_cast<int>(rows_.size()); }

  /// Adds row j (A+1 values g_j^a); j must follow the last row pushed (any j in [0, J] when the
  /// window is empty). The oldest row is dropped when the window is full.
  void push(int j, const std::vector<E>& row) {
    FIELD_CHECK(j >= 0 && j <= mesh_.J(),
                "row " << j << " outside the mesh (J = " << mesh_.J() << ")");
    FIELD_CHECK(count_ == 0 || j == last_ + 1,
                "rows must come in order: got row " << j << " after row " << last_);
    FIELD_CHECK(
        static_cast<int>(row.size()) == mesh_.A() + 1,
        "row " << j << " has " << row.size() << " values, the mesh needs A+1 = " << mesh_.A() + 1);
    rows_[slot(j)] = row;
    last_ = j;
    count_ = std::min(count_ + 1, capacity());
  }
  /// Forgets every row.
  void clear() {
    count_ = 0;
    last_ = -1;
  }

  /// True when row j is held.
  bool has_row(int j) const { return count_ > 0 && j <= last_ && j > last_ - count_; }
  /// Last row pushed (-1 when empty).
  int last_row() const { return count_ > 0 ? last_ : -1; }
  /// Row j (A+1 values); throws field::Error when it is not held.
  const std::vector<E>& row(int j) const {
    FIELD_CHECK(has_row(j), "row " << j << " is not in the window (rows " << last_ - count_ + 1
                                   << ".." << last_ << ")");
    return rows_[slot(j)];
  }
  /// g_j^a; throws field::Error when row j is not held.
  const E& operator()(int j, int a) const {
    FIELD_ASSERT(a >= 0 && a <= mesh_.A(), "node (" << j << ", " << a << ") outside the mesh");
    return row(j)[static_cast<size_t>(a)];
  }

 private:
  size_t slot(int j) const { return static_cast<size_t>(j) % rows_.size(); }

  SpacetimeMesh mesh_;
  std::vector<std::vector<E>> rows_;  // row j in slot j % capacity
  int count_ = 0;                     // rows held
  int last_ = -1;                     // last row pushed
};

/// The beam's window on SE(3).
using RowWindow = BasicRowWindow<lie::SE3>;
/// The window of the group G (a lie/lie_group.hpp instance).
template <class G>
using RowWindowOf = BasicRowWindow<typename G::Element>;

}  // namespace field::mesh

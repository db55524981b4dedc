#pragma once
/// A SlabObserver that stores every slab into a full mesh::Field: for small runs and tests. E: the
/// node value (lie::SE3, or lie::SE2 for the planar beam).
#include "libfield/march/observer.hpp"
#include "libfield/mesh/field.hpp"

namespace field::march {

template <class E>
class BasicFieldRecorder final : public BasicSlabObserver<E> {
 public:
  /// `by_rows`: slabs are time rows (time march); otherwise space columns (space march).
  BasicFieldRecorder(const mesh::SpacetimeMesh& mesh, bool by_rows)
      : field_(mesh, by_rows ? mesh::Layout::by_row : mesh::Layout::by_column), by_rows_(by_rows) {}

  void slab(int index, const std::vector<E>& values, const SlabStats& stats) override {
    for (size_t k = 0; k < values.size(); ++k) {
      if (by_rows_)
        field_(index, static_cast<int>(k)) = values[k];
      else
        field_(static_cast<int>(k), index) = values[k];
    }
    stats_.push_back(stats);
  }
  const mesh::BasicField<E>& field() const { return field_; }
  const std::vector<SlabStats>& stats() const { return stats_; }

 private:
  mesh::BasicField<E> field_;
  bool by_rows_;
  std::vector<SlabStats> stats_;
};

/// The beam's recorder on SE(3).
using FieldRecorder = BasicFieldRecorder<lie::SE3>;

}  // namespace field::march

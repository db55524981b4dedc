#pragma once
/// A SlabObserver that stores every slab into a full mesh::Field: for small runs and tests.
#include "libfield/march/observer.hpp"
#include "libfield/mesh/field.hpp"

namespace field::march {

class FieldRecorder final : public SlabObserver {
 public:
  /// `by_rows`: slabs are time rows (time march); otherwise space columns (space march).
  FieldRecorder(const mesh::SpacetimeMesh& mesh, bool by_rows)
      : field_(mesh, by_rows ? mesh::Layout::by_row : mesh::Layout::by_column), by_rows_(by_rows) {}

  void slab(int index, const std::vector<lie::SE3>& values, const SlabStats& stats) override {
    for (size_t k = 0; k < values.size(); ++k) {
      if (by_rows_)
        field_(index, static_cast<int>(k)) = values[k];
      else
        field_(static_cast<int>(k), index) = values[k];
    }
    stats_.push_back(stats);
  }
  const mesh::Field& field() const { return field_; }
  const std::vector<SlabStats>& stats() const { return stats_; }

 private:
  mesh::Field field_;
  bool by_rows_;
  std::vector<SlabStats> stats_;
};

}  // namespace field::march

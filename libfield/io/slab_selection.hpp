#pragma once
/// The output rule shared by the writers of a run folder (docs/output-format.md): slab k (a time
/// row j or a space column a) is written when k % stride == 0 or k == last (J or A), and at
/// finish() the last slab received is written too when it was not (a march that stopped early
/// leaves its last valid slab in the files).
#include "libfield/core/error.hpp"

namespace field::io {

class SlabSelection {
 public:
  /// `last`: index of the last slab of a complete march (J or A); `stride` >= 1.
  SlabSelection(int last, int stride) : last_(last), stride_(stride) {
    FIELD_CHECK(stride >= 1, "the output stride must be >= 1, got " << stride);
    FIELD_CHECK(last >= 0, "the last slab index must be >= 0, got " << last);
  }
  /// True for k % stride == 0 and for k == last.
  bool selects(int k) const { return k % stride_ == 0 || k == last_; }
  /// Slabs selected in first..last (0 <= first <= last; first = 0: a complete march).
  int count(int first = 0) const {
    const int from = (first + stride_ - 1) / stride_;  // the first multiple of the stride, / stride
    return last_ / stride_ - from + 1 + (last_ % stride_ != 0 ? 1 : 0);
  }
  /// The i-th selected slab of 0..last (0 <= i < count()).
  int nth(int i) const { return i <= last_ / stride_ ? i * stride_ : last_; }
  int last() const { return last_; }
  int stride() const { return stride_; }

 private:
  int last_;
  int stride_;
};

/// The smallest stride that selects at most `steps` + 1 slabs of 0..last, plus `last` (the
/// "auto" output stride of the VTK files, docs/output-format.md).
inline int auto_stride(int last, int steps) {
  FIELD_CHECK(last >= 0 && steps >= 1, "auto stride of 0.." << last << " in " << steps << " steps");
  return last <= steps ? 1 : static_cast<int>((static_cast<long long>(last) + steps - 1) / steps);
}

}  // namespace field::io

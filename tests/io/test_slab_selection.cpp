// io::SlabSelection and io::auto_stride (docs/output-format.md, "vtk_stride"): the counts the
// final report prints are the slabs the writers select, for complete and continued marches.
#include <gtest/gtest.h>

#include "libfield/io/slab_selection.hpp"

namespace field::io {
namespace {

TEST(SlabSelection, CountsTheSlabsItSelectsFromAnyFirstSlab) {
  for (int last = 0; last <= 40; ++last)
    for (int stride = 1; stride <= 12; ++stride) {
      const SlabSelection selection(last, stride);
      for (int first = 0; first <= last; ++first) {
        int selected = 0;
        for (int k = first; k <= last; ++k) selected += selection.selects(k) ? 1 : 0;
        EXPECT_EQ(selection.count(first), selected)
            << "last " << last << ", stride " << stride << ", first " << first;
      }
      EXPECT_EQ(selection.count(), selection.count(0));
    }
}

TEST(SlabSelection, AutoStrideIsTheSmallestSelectingAtMostStepsPlusTwoSlabs) {
  for (int last : {0, 1, 399, 400, 401, 10000, 12345})
    for (int steps : {1, 7, 400}) {
      const int stride = auto_stride(last, steps);
      EXPECT_LE(SlabSelection(last, stride).count(), steps + 2) << last << " " << steps;
      if (stride > 1) EXPECT_GT(SlabSelection(last, stride - 1).count(), steps + 1);
    }
}

}  // namespace
}  // namespace field::io

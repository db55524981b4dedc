// io::SlabSelection and io::auto_stride (docs/output-format.md, "vtk_stride"): the counts the
// final report prints are the slabs the writers select, for complete and continued marches.
#include <gtest/gtest.h>

#include <vector>

#include "libfield/io/slab_selection.hpp"

namespace field::io {
namespace {

TEST(SlabSelection, CountsAndEnumeratesTheSlabsItSelectsFromAnyFirstSlab) {
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
      std::vector<int> selected;  // nth(i) enumerates them in order
      for (int k = 0; k <= last; ++k)
        if (selection.selects(k)) selected.push_back(k);
      ASSERT_EQ(int(selected.size()), selection.count());
      for (int i = 0; i < selection.count(); ++i) EXPECT_EQ(selection.nth(i), selected[i]) << i;
    }
}

TEST(SlabSelection, AutoStrideIsTheSmallestSelectingAtMostStepsPlusTwoSlabs) {
  for (int last : {0, 1, 399, 400, 401, 10000, 12345})
    for (int steps : {1, 7, 400}) {
      const int stride = auto_stride(last, steps);
      EXPECT_LE(SlabSelection(last, stride).count(), steps + 2) << last << " " << steps;
      if (stride > 1) {
        EXPECT_GT(SlabSelection(last, stride - 1).count(), steps + 1);
      }
    }
}

}  // namespace
}  // namespace field::io

#pragma once
/// The (group, retraction) instances the solver is instantiated for (lie/retraction.hpp,
/// FIELD_FOR_EACH_GROUP), as GoogleTest type lists: TYPED_TEST_SUITE(Suite, test::Se3Groups,
/// test::GroupNames) runs a suite for both retractions, named "cayley" and "exponential".
#include <gtest/gtest.h>

#include <string>

#include "libfield/lie/retraction.hpp"

namespace field::test {

using Se3Groups = ::testing::Types<lie::Se3Cayley, lie::Se3Exp>;

struct GroupNames {
  template <class G>
  static std::string GetName(int) {
    return lie::retraction_name<G>();
  }
};

}  // namespace field::test

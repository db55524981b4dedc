#pragma once
// The theory and group of a march on G in the first line of a run's report (`field simulate`,
// `field reconstruct`): the SE(3) beam's retraction, the planar beam (theory §1.7) or the cable
// (theory §1.8).
#include <string>
#include <type_traits>

#include "libfield/lie/retraction.hpp"
#include "libfield/lie/rn.hpp"

namespace field::app {

template <class G>
std::string group_text() {
  if constexpr (std::is_same_v<G, lie::Se2Cayley>)
    return "planar beam on SE(2), cayley";
  else if constexpr (std::is_same_v<G, lie::Rn<3>>)
    return "cable on R^3";
  else
    return lie::retraction_name<G>();
}

}  // namespace field::app

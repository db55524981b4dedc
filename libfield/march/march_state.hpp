#pragma once
/// The state of a march between two slabs, from which it continues exactly (march/time_march.hpp
/// input.resume and its `end`; io/checkpoint.hpp writes it to a file).
#include <vector>

namespace field::march {

/// The state of a march before it computes slab k+1 (theory §6.1 step 3 for the time march,
/// slabs = rows j): slabs k-1 and k as emitted (ends applied), the unknown y^{k-1} solved between
/// them (xi_{j-1}: the solved bits, not tau^{-1} of the rows, which differ in the last bits) and
/// the history of the Newton start, y^{k-2} and y^{k-3} (march::extrapolate; zero before slab 3).
/// A march continued from it computes slabs k+1.. bit for bit as the march that left it
/// (io/checkpoint.hpp). E, V: a group's Element and Algebra.
template <class E, class V>
struct MarchState {
  int k = 0;  ///< the last slab computed (>= 1); 0: no state
  std::vector<E> prev, cur;
  std::vector<V> y, back1, back2;  ///< every node of a slab (zero where nothing is solved)
};

}  // namespace field::march

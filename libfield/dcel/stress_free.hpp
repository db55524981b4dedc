#pragma once
/// The stress-free shape of a discrete model (theory §1.6, (1.6.3)): the row with every segment
/// strain at its reference strain, g^{a+1} = g^a tau(ds eta0_a), node 0 at `base`. Started there
/// at rest, a free or clamped beam without loads stays there to round-off.
#include <vector>

#include "libfield/dcel/discrete_model.hpp"

namespace field::dcel {

template <class G>
std::vector<typename G::Element> stress_free_row(const DiscreteModel<G>& model,
                                                 const typename G::Element& base) {
  const int A = model.mesh().A();
  std::vector<typename G::Element> row(static_cast<size_t>(A) + 1);
  row[0] = base;
  for (int a = 0; a < A; ++a)
    row[a + 1] = G::compose(row[a], G::tau(model.ds() * model.density(a).reference_strain()));
  return row;
}

}  // namespace field::dcel

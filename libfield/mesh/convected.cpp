#include "libfield/mesh/convected.hpp"

namespace field::mesh {

template <class G>
ConvectedFields<G>::ConvectedFields(const BasicField<typename G::Element>& field)
    : A_(field.mesh().A()) {
  const SpacetimeMesh& m = field.mesh();
  xi_.resize(static_cast<size_t>(m.J()) * (m.A() + 1));
  eta_.resize(static_cast<size_t>(m.J() + 1) * m.A());
  for (int j = 0; j < m.J(); ++j)
    for (int a = 0; a <= m.A(); ++a)
      xi_[static_cast<size_t>(j) * (A_ + 1) + a] =
          convected<G>(field(j, a), field(j + 1, a), m.dt());
  for (int j = 0; j <= m.J(); ++j)
    for (int a = 0; a < m.A(); ++a)
      eta_[static_cast<size_t>(j) * A_ + a] = convected<G>(field(j, a), field(j, a + 1), m.ds());
}

#define FIELD_INSTANTIATE(G) template class ConvectedFields<G>;
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::mesh

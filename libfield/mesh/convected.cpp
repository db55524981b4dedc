#include "libfield/mesh/convected.hpp"

namespace field::mesh {

ConvectedFields::ConvectedFields(const Field& field, const lie::Retraction& tau)
    : A_(field.mesh().A()) {
  const SpacetimeMesh& m = field.mesh();
  xi_.resize(static_cast<size_t>(m.J()) * (m.A() + 1));
  eta_.resize(static_cast<size_t>(m.J() + 1) * m.A());
  for (int j = 0; j < m.J(); ++j)
    for (int a = 0; a <= m.A(); ++a)
      xi_[static_cast<size_t>(j) * (A_ + 1) + a] =
          convected(tau, field(j, a), field(j + 1, a), m.dt());
  for (int j = 0; j <= m.J(); ++j)
    for (int a = 0; a < m.A(); ++a)
      eta_[static_cast<size_t>(j) * A_ + a] = convected(tau, field(j, a), field(j, a + 1), m.ds());
}

}  // namespace field::mesh

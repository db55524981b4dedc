#include "libfield/noether/energies.hpp"

#include "libfield/mesh/convected.hpp"

namespace field::noether {

template <class G>
std::vector<double> time_energies(const dcel::DiscreteModel<G>& model,
                                  const mesh::BasicField<typename G::Element>& field) {
  const mesh::SpacetimeMesh& m = model.mesh();
  const mesh::ConvectedFields<G> c(field);
  const auto V = [&](int j, int a) {
    return time_potential_term(model.density(a), c.eta(j, a), field(j, a));
  };
  std::vector<double> E(static_cast<size_t>(m.J()));
  for (int j = 0; j < m.J(); ++j) {
    double sum = 0.0;
    for (int a = 0; a < m.A(); ++a)
      sum += model.density(a).kinetic_energy(c.xi(j, a)) + 0.5 * (V(j, a) + V(j + 1, a));
    E[j] = m.ds() * sum;
  }
  return E;
}

template <class G>
std::vector<double> space_energies(const dcel::DiscreteModel<G>& model,
                                   const mesh::BasicField<typename G::Element>& field) {
  const mesh::SpacetimeMesh& m = model.mesh();
  const mesh::ConvectedFields<G> c(field);
  std::vector<double> E(static_cast<size_t>(m.A()));
  for (int a = 0; a < m.A(); ++a) {
    const auto& d = model.density(a);  // column a's (theory §8: E_M^a with l_a)
    const auto W = [&](int j, int b) { return space_node_term(d, c.xi(j, b), field(j, b)); };
    double sum = 0.0;
    for (int j = 0; j < m.J(); ++j)
      sum += space_strain_term(d, c.eta(j, a)) + 0.5 * (W(j, a) + W(j, a + 1));
    E[a] = m.dt() * sum;
  }
  return E;
}

#define FIELD_INSTANTIATE(G)                                                       \
  template std::vector<double> time_energies(const dcel::DiscreteModel<G>& model,  \
                                             const mesh::BasicField<G::Element>&); \
  template std::vector<double> space_energies(const dcel::DiscreteModel<G>& model, \
                                              const mesh::BasicField<G::Element>&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether

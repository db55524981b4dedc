#pragma once
/// Convected (left-trivialised) velocities and strains of a discrete field, theory §3.1:
///   xi_j^a  = tau^{-1}((g_j^a)^{-1} g_{j+1}^a) / dt,   0 <= j <= J-1, 0 <= a <= A
///   eta_j^a = tau^{-1}((g_j^a)^{-1} g_j^{a+1}) / ds,   0 <= j <= J,   0 <= a <= A-1
/// (xi at a = A and eta at j = J are for diagnostics only: they belong to no triangle).
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/mesh/field.hpp"

namespace field::mesh {

/// tau^{-1}(g0^{-1} g1) / h: the convected rate between two neighbouring nodes at distance h.
template <class G>
typename G::Algebra convected(const typename G::Element& g0, const typename G::Element& g1,
                              double h) {
  return G::tau_inv(G::compose(G::inverse(g0), g1)) / h;
}

/// xi and eta of every triangle, stored by row: xi(j, a) and eta(j, a).
template <class G>
class ConvectedFields {
 public:
  using V = typename G::Algebra;
  explicit ConvectedFields(const BasicField<typename G::Element>& field);
  const V& xi(int j, int a) const { return xi_[static_cast<size_t>(j) * (A_ + 1) + a]; }
  const V& eta(int j, int a) const { return eta_[static_cast<size_t>(j) * A_ + a]; }

 private:
  int A_;
  std::vector<V> xi_;   // J rows of A+1
  std::vector<V> eta_;  // J+1 rows of A
};

}  // namespace field::mesh

#include "libfield/io/tip_strain.hpp"

#include <Eigen/LU>

#include "libfield/core/error.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

template <class G>
TipRates tip_rates(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& g0) {
  const int J = static_cast<int>(g0.size()) - 1;
  FIELD_CHECK(J >= 2,
              "tip_rates: the tip strain conversion needs the tip poses of at least 3 "
              "rows, got "
                  << g0.size());
  const double dt = model.dt();
  const auto& density = model.density(0);  // the first segment's (theory §1.6)
  // Segment velocities xi_{j+1/2} = tau^{-1}(g_j^{-1} g_{j+1}) / dt (theory (3.2)), and their
  // centred values at t_j (one-sided second-order extrapolation at j = 0), (6.6.3).
  std::vector<Vec6> half(J), mu(J);
  for (int j = 0; j < J; ++j) {
    half[j] = mesh::convected<G>(g0[j], g0[j + 1], dt);
    mu[j] = density.kinetic_momentum(half[j]);
  }
  TipRates rates;
  for (int j = 0; j < J; ++j) {
    const int k = j == 0 ? 1 : j;  // the pair of half steps around t_j (or the first two)
    rates.xi.push_back(j == 0 ? Vec6(1.5 * half[0] - 0.5 * half[1])
                              : Vec6(0.5 * (half[j - 1] + half[j])));
    rates.dmu.push_back((mu[k] - mu[k - 1]) / dt);
  }
  return rates;
}

template <class G>
std::vector<Vec6> segment_strain_from_point(const dcel::DiscreteModel<G>& model,
                                            const std::vector<lie::SE3>& g0,
                                            const std::vector<Vec6>& eps) {
  FIELD_CHECK(
      eps.size() + 1 == g0.size(),
      "segment_strain_from_point: " << eps.size() << " strains for " << g0.size() << " tip poses");
  const TipRates rates = tip_rates(model, g0);
  const auto& density = model.density(0);  // the first segment's (theory §1.6)
  const double ds = model.ds();
  std::vector<Vec6> eta(eps.size());
  for (std::size_t j = 0; j < eps.size(); ++j) {
    // (1.9) at s = 0: d_s n = d_t(J xi) - ad*_xi J xi + ad*_eps n - f, n = stress(eps), and
    // d_s eps = (d^2V/deta^2)^{-1} d_s n (theory §6.6, (6.6.1)).
    const Vec6& xi = rates.xi[j];
    const Vec6 n = density.stress(eps[j]);
    const Vec6 ds_n = rates.dmu[j] - lie::ad_dual(xi, density.kinetic_momentum(xi)) +
                      lie::ad_dual(eps[j], n) - model.force(g0[j], static_cast<int>(j), 0);
    const Eigen::PartialPivLU<Mat6> H(density.stress_hessian(eps[j]));
    eta[j] = eps[j] + 0.5 * ds * H.solve(ds_n);
  }
  return eta;
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template TipRates tip_rates<G>(const dcel::DiscreteModel<G>&, const std::vector<lie::SE3>&); \
  template std::vector<Vec6> segment_strain_from_point<G>(                                     \
      const dcel::DiscreteModel<G>&, const std::vector<lie::SE3>&, const std::vector<Vec6>&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io

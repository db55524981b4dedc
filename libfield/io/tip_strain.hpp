#pragma once
/// Tip strain as a strain sensor measures it (theory §6.6): the point strain epsilon(t_j, 0) at
/// the tip s = 0, converted to the first segment's discrete strain eta_j^0 (theory §3.3) that the
/// space march needs, to second order in ds, from the balance law (1.9) at the tip with the
/// velocity and acceleration of the measured tip poses.
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/lie/se3.hpp"

namespace field::io {

/// Body velocity xi(t_j) and rate of the momentum density d/dt(J xi)(t_j) of the tip poses
/// g_j, j = 0..J (J >= 2), at the grid times t_j, j = 0..J-1 (theory §6.6, (6.6.3)).
struct TipRates {
  std::vector<Vec6> xi;   ///< xi(t_j)
  std::vector<Vec6> dmu;  ///< d/dt kinetic_momentum(xi)(t_j)
};
template <class G>
TipRates tip_rates(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& g0);

/// eta_j^0 = eps_j + (ds/2) d_s eps(t_j, 0), j = 0..eps.size()-1, with d_s eps from (1.9) at
/// s = 0 (theory §6.6, (6.6.2)). `g0` holds the tip poses j = 0..J, `eps` the point strains
/// j = 0..J-1 (the Hessian is positive definite for the laws of io::Problem).
template <class G>
std::vector<Vec6> segment_strain_from_point(const dcel::DiscreteModel<G>& model,
                                            const std::vector<lie::SE3>& g0,
                                            const std::vector<Vec6>& eps);

}  // namespace field::io

#pragma once
/// The energy balance of a march, theory §8.1: B_j = E_j - E_0 - W_j + D_j, with E_j the energy
/// (8.2) (gravity inside, as its potential), W_j the work of the loads and of the prescribed ends
/// from row 1 to row j (noether::WorkSeries, (8.7)) and D_j the energy dissipated over the same
/// rows (0 without damping). The space march's B~^a = E_M^a - E_M^0 - W~^a (8.12) is the same
/// formula with D = 0. The one place where D enters the balance.

namespace field::noether {

/// B_j = E_j - E_0 - W_j + D_j [J], theory (8.8); with D = 0, B~^a of (8.12) [J s/m].
inline double energy_balance(double E, double E0, double work, double dissipated) {
  return E - E0 - work + dissipated;
}

}  // namespace field::noether

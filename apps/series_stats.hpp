#pragma once
// Running extremes of the per-slab diagnostics of a march (noether::BasicSlabRecord: energy E_j
// or E_M^a, momentum P_j or Q^a, theory §7.2, §8), for
// the progress line, the final report and summary.json. With loads, driven ends or damping the
// energy figure is the energy balance of theory §8.1 instead of the relative range.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "apps/run_folder.hpp"
#include "libfield/core/types.hpp"

namespace field::app {

/// The entries of v in the printf `format` of one double, separated by ", ", between `open` and
/// `close`.
template <class V>
std::string vector_text(const V& v, const char* format, const char* open, const char* close) {
  std::string text = open;
  char buf[32];
  for (int i = 0; i < v.size(); ++i) {
    if (i) text += ", ";
    std::snprintf(buf, sizeof buf, format, v(i));
    text += buf;
  }
  return text + close;
}

/// A vector as a JSON array, 17 significant digits.
template <class V>
std::string json_vector(const V& v) {
  return vector_text(v, "%.17g", "[", "]");
}

/// V: the momentum's type (Vec6 on SE(3), Vec3 for the cable's translations on R^3).
template <class V>
struct BasicSeriesStats {
  bool started = false;
  double E0 = 0.0, E_min = 0.0, E_max = 0.0;
  V momentum0 = V::Zero();
  double drift = 0.0;    ///< max |momentum - momentum0|_inf
  double balance = 0.0;  ///< max relative Noether residual of the slabs
  int newton_max = 0;
  /// The energy figure is the balance B_j = E_j - E_0 - W_j + D_j of theory §8.1 (a time march
  /// with loads, a driven end or damping: energy_balance_applies) instead of energy_range().
  bool balanced = false;
  double balance_max = 0.0;  ///< max_j |B_j| [J]
  double exchanged = 0.0;    ///< max_j max(|E_j - E_0|, |W_j|, |D_j|) [J]: the balance's yardstick

  template <class Diagnostics>
  void add(const Diagnostics& d) {
    if (!started) {
      started = true;
      E0 = E_min = E_max = d.energy;
      momentum0 = d.momentum;
    }
    E_min = std::min(E_min, d.energy);
    E_max = std::max(E_max, d.energy);
    drift = std::max(drift, (d.momentum - momentum0).cwiseAbs().maxCoeff());
    balance = std::max(balance, d.balance);
    newton_max = std::max(newton_max, d.newton.max_iterations);
  }
  /// B_j of a time row (after add).
  void add_balance(double energy, double work, double dissipated, double B) {
    balance_max = std::max(balance_max, std::abs(B));
    exchanged = std::max({exchanged, std::abs(energy - E0), std::abs(work), std::abs(dissipated)});
  }
  /// max_j |B_j| / max_j max(|E_j - E_0|, |W_j|, |D_j|) (0 when nothing was exchanged).
  double balance_relative() const { return exchanged > 0.0 ? balance_max / exchanged : 0.0; }
  double energy_range() const { return (E_max - E_min) / std::max(std::abs(E0), 1e-300); }
  /// (E - E_0)/|E_0| for the progress line.
  double energy_change(double E) const { return (E - E0) / std::max(std::abs(E0), 1e-300); }

  /// The summary.json keys `<energy>`, `<energy>_range_relative` (or energy_range_relative; null
  /// when `balanced`: the balance keys of write_balance replace it), `<momentum>`,
  /// momentum_drift_max, noether_residual_max; null when no slab was diagnosed.
  void write(Summary& summary, const std::string& energy_key, const std::string& range_key,
             const std::string& momentum_key) const {
    if (!started) {
      for (const std::string& key :
           {energy_key, range_key, momentum_key, std::string("momentum_drift_max"),
            std::string("noether_residual_max")})
        summary.add(key, "null");
      return;
    }
    summary.number(energy_key, E0);
    if (balanced)
      summary.add(range_key, "null");
    else
      summary.number(range_key, energy_range());
    summary.add(momentum_key, json_vector(momentum0));
    summary.number("momentum_drift_max", drift);
    summary.number("noether_residual_max", balance);
  }
  /// The summary.json keys of the energy balance of a time march (theory §8.1):
  /// energy_balance_applies, energy_balance_max [J], energy_balance_relative (null unless
  /// `balanced`); null when no row was diagnosed.
  void write_balance(Summary& summary) const {
    summary.add("energy_balance_applies", balanced ? "true" : "false");
    if (!started) {
      summary.add("energy_balance_max", "null");
      summary.add("energy_balance_relative", "null");
      return;
    }
    summary.number("energy_balance_max", balance_max);
    if (balanced)
      summary.number("energy_balance_relative", balance_relative());
    else  // B_j = E_j - E_0: relative to max |E_j - E_0| it is 1
      summary.add("energy_balance_relative", "null");
  }
};
using SeriesStats = BasicSeriesStats<Vec6>;

/// The report's energy line: the energy balance when it applies, the relative range otherwise
/// (the beam's runs; a cable run prints its balance with it, its range in its own words).
template <class V>
void print_energy_figure(const BasicSeriesStats<V>& stats) {
  if (stats.balanced)
    std::printf(
        "  energy E_0 = %.15g J, balance max |E_j - E_0 - W_j + D_j| = %.3e J (%.3e of the "
        "largest |E_j - E_0|, |W_j|, D_j)\n",
        stats.E0, stats.balance_max, stats.balance_relative());
  else
    std::printf("  energy E_0 = %.15g J, (max E - min E)/|E_0| = %.3e\n", stats.E0,
                stats.energy_range());
}

}  // namespace field::app

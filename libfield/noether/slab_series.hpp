#pragma once
/// The streaming engine behind SlabDiagnostics (theory §7.2, §8): fed the slabs of a march in
/// order, it reports for slab i the energy, the momentum and the Noether balance of the one-slab
/// rectangle once slab i+1 has arrived. It keeps two slabs and the terms of the previous one, so
/// memory is independent of the number of slabs.
///
/// Every reported value equals the serial computation: the per-node work is shared among threads
/// node by node (slab_terms.hpp) and every sum is taken serially in node order, so the bits do
/// not depend on the thread count. With a stride s, only slabs i = 0, s, 2s, ... and the last
/// one (N-1) are reported, and only the slabs they need are computed (slabs i-1, i, i+1): the
/// energy and momentum of a reported slab are those of stride 1; the balance's scale_glob is
/// then the largest slab_scale over the slabs computed so far.
#include <optional>
#include <type_traits>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/dissipation_series.hpp"
#include "libfield/noether/slab_terms.hpp"
#include "libfield/noether/slab_terms_lanes.hpp"

namespace field::noether {

/// How much of the series is computed, and on how many threads.
struct SeriesOptions {
  int stride = 1;   ///< report slabs 0, stride, 2 stride, ... and the last one (N-1)
  int threads = 0;  ///< OpenMP threads for the per-node work; 0: the OpenMP default
  /// The per-node work on SIMD lanes where it applies (the beam, SlabTermsLanes); false: node by
  /// node (slab_terms.hpp), the reference. The two agree to round-off.
  bool lanes = true;
};

/// The values reported for one slab i. V: the group's algebra vector (theory (1.7.3) on SE(2)).
template <class V>
struct BasicSlabReport {
  int index = 0;
  double energy = 0.0;     ///< slab_energy
  V momentum = V::Zero();  ///< slab_momentum
  double balance = 0.0;    ///< relative residual of the one-slab rectangle k1..k2; 0 for i = 0
  /// D_i of theory (4.20), the energy dissipated by the damping up to row i (time rows of a
  /// damped model; 0 otherwise). The balance above then carries the damping terms (§4.7).
  double dissipated = 0.0;
};
using SlabReport = BasicSlabReport<Vec6>;

/// What a damped series (time rows, theory §4.7) carries into a continued march: D of the rows
/// through k-2 ((4.20)) and the triangles of row k-2 (xi: A+1 values; eta, D2: A), k the last row
/// fed (SlabSeries::damping_state, resume).
template <class V>
struct DampingState {
  double dissipated = 0.0;
  std::vector<V> xi, eta, D2;
};

/// The per-node work runs on SIMD lanes (SlabTermsLanes) on SE(3) only; node by node otherwise.

template <class G>
class SlabSeries {
  using E = typename G::Element;
  using V = typename G::Algebra;
  static constexpr bool kSe3 = std::is_same_v<E, lie::SE3>;

 public:
  /// Slabs along `axis`; balance over k1..k2 along the slab; N = J (rows) or A (columns) slabs
  /// are reported, i = 0..N-1 (slab N has no next one).
  SlabSeries(const dcel::DiscreteModel<G>& model, SlabAxis axis, int k1, int k2,
             const SeriesOptions& options);

  /// Slab i1 (0, 1, ... in order; 0 starts a new march). Returns the report of slab i1-1 when
  /// that slab is reported.
  std::optional<BasicSlabReport<V>> add(int i1, const std::vector<E>& next);

  const dcel::DiscreteModel<G>& model() const { return model_; }

  /// A series that continues that of a march (a continued time march, io/checkpoint.hpp): the
  /// slabs fed start at first-1, slab `first` (>= 1) is the first reported, with `scale_glob` of
  /// the slabs before (scale_glob() of the series that reported slab first-1). Its reports equal
  /// those of the series fed every slab when it computed the same slabs (stride 1, or a stride
  /// whose reported slabs the other series also had). Damped rows (theory §4.7) also take the
  /// `damping` of that series (damping_state(); required when first >= 2, else field::Error).
  void resume(int first, double scale_glob, const std::optional<DampingState<V>>& damping = {});
  /// After slab k was fed to a damped series (time rows): D_{k-2} and the triangles of row
  /// k-2 (dcel::DissipationSeries::row_before), what resume() needs to continue it; nullopt
  /// undamped or before row 2.
  std::optional<DampingState<V>> damping_state() const;
  /// The largest slab_scale of the slabs computed so far (theory §7.2).
  double scale_glob() const { return scale_glob_; }

  /// Whether slab i is reported.
  bool reported(int i) const { return i >= 0 && i < N_ && (i % stride_ == 0 || i == N_ - 1); }

 private:
  dcel::DiscreteModel<G> model_;
  SlabAxis axis_;
  int k1_, k2_, N_, stride_, threads_;
  std::vector<E> slab_;        // slab i1-1, kept when its terms are needed
  std::vector<V> along_;       // its along_at values (empty when not computed)
  std::vector<V> next_along_;  // buffers of add(), kept to save allocations
  std::vector<double> node_, triangle_;
  // Column i1's node terms with column i1-1's law, for E_M^{i1-1} of a non-uniform beam (theory
  // §8, §1.6: E_M^a takes l_a throughout, W_j^{a+1} included).
  std::vector<double> node_before_;
  std::optional<SlabTermsLanes> lanes_;  // set where the lanes apply and are asked for
  double node_energy_ = 0.0;             // its node energy, sum_k node_energy_at
  SlabTermsOf<G> previous_;              // terms of slab i1-2, when computed
  SlabTermsOf<G> current_;               // terms of slab i1-1 being computed (buffers reused)
  bool have_previous_ = false;
  int first_ = 0;            // the first slab reported (resume)
  double scale_glob_ = 0.0;  // largest slab_scale so far: the streamed scale_glob
  // Damped time rows (theory §4.7): the increments of D_i and the running D_i.
  std::optional<dcel::DissipationSeries<G>> dissipation_;
  double dissipated_ = 0.0;
  double dissipated_before_ = 0.0;  // dissipated_ before the last increment (damping_state)
  int last_fed_ = -1;               // the last slab fed

  // DissipationSeries' triangles of row j on the lanes (SlabTermsLanes::damping).
  void damping_lanes(int j, const std::vector<E>& gj, const std::vector<E>& gj1, const V* eta_prev,
                     typename dcel::DissipationSeries<G>::Row& out);

  // The terms of slab i (from slabs i and i+1) are needed for its report or for the balance of
  // slab i+1.
  bool terms_needed(int i) const { return reported(i) || (i >= 0 && reported(i + 1)); }
};

}  // namespace field::noether

#include "libfield/noether/slab_series.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/dissipation_series.hpp"
#include "libfield/march/slab_solve.hpp"

namespace field::noether {

namespace {

// batch(b) for b = 0..batches-1, each writing its own slots: on one thread without a parallel
// region (entering one costs as much as a small slab), else shared among `threads`.
template <class Batch>
void run_batches(int batches, int threads, const Batch& batch) {
  if (threads == 1) {
    for (int b = 0; b < batches; ++b) batch(b);
    return;
  }
  ParallelErrors errors;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int b = 0; b < batches; ++b) errors.guard(b, [&] { batch(b); });
  errors.rethrow();
}

}  // namespace

template <class G>
SlabSeries<G>::SlabSeries(const dcel::DiscreteModel<G>& model, SlabAxis axis, int k1, int k2,
                          const SeriesOptions& options)
    : model_(model),
      axis_(axis),
      k1_(k1),
      k2_(k2),
      N_(slab_count(model.mesh(), axis)),
      stride_(options.stride),
      threads_(options.threads > 0 ? options.threads : omp_get_max_threads()) {
  FIELD_CHECK(stride_ >= 1, "diagnostics: series stride " << stride_ << ", must be >= 1");
  // Slabs under the march's threshold run on one thread, as the march does (same reason).
  if (slab_length(model.mesh(), axis) < march::kParallelMinNodes) threads_ = 1;
  if constexpr (kSe3)
    if (options.lanes) lanes_ = SlabTermsLanes::make(model, axis);
  if (axis == SlabAxis::row && model.loads().damping.any()) dissipation_.emplace(model);
}

template <class G>
std::optional<BasicSlabReport<typename G::Algebra>> SlabSeries<G>::add(int i1,
                                                                       const std::vector<E>& next) {
  if (i1 == 0) {  // a new march
    scale_glob_ = 0.0;
    have_previous_ = false;
    along_.clear();
    dissipated_ = dissipated_before_ = 0.0;
  }
  last_fed_ = i1;
  const int K = slab_length(model_.mesh(), axis_);
  if (dissipation_) {  // damping (theory §4.7): D_i of (4.20) for every row i = i1-1 >= 1
    std::optional<double> dD;
    if constexpr (kSe3) {
      if (lanes_)
        dD = dissipation_->add(
            i1, next,
            [this](int j, const std::vector<E>& gj, const std::vector<E>& gj1, const V* eta_prev,
                   auto& out) { damping_lanes(j, gj, gj1, eta_prev, out); });
    }
    if (!lanes_) dD = dissipation_->add(i1, next);
    if (dD) {
      dissipated_before_ = dissipated_;
      dissipated_ += *dD;
    }
  }
  FIELD_ASSERT(static_cast<int>(next.size()) == K + 1, "SlabSeries: slab "
                                                           << i1 << " has " << next.size()
                                                           << " values, expected " << K + 1);
  // along_at and node energies of slab i1: for the terms of slab i1, or the energies of the
  // reported slabs i1 and i1-1. The terms of slab i = i1-1: for its report or the balance of i+1.
  const int i = i1 - 1;
  const bool along = terms_needed(i1) || reported(i1) || reported(i1 - 1);
  const bool terms = i1 > 0 && i >= first_ - 1 && terms_needed(i);
  // Slab i1's node terms in its own law, and for slab i's energy in slab i's law: they differ on
  // the columns of a non-uniform beam (theory §8), which never run on the lanes. The last column
  // (i1 = N) has no law of its own: only slab i takes its terms.
  const int own = std::min(i1, N_ - 1);
  const bool seen_before =
      terms && reported(i) && own != i && axis_ == SlabAxis::column && !model_.uniform();
  FIELD_ASSERT(!terms || static_cast<int>(along_.size()) == K,
               "SlabSeries: slab " << i << " was not kept");
  SlabTermsOf<G>& t = current_;
  if (terms) slab_terms_begin(model_, axis_, i, slab_, t, !lanes_ || lanes_->forces());
  next_along_.resize(along ? K : 0);
  node_.resize(K);
  triangle_.resize(K);
  bool on_lanes = false;
  if constexpr (kSe3) on_lanes = (along || terms) && lanes_;
  if (on_lanes) {
    if constexpr (kSe3) {
      // The same on lanes, batches of lanes::kWidth nodes at fixed starts (slab_terms_lanes.hpp);
      // a node whose energy is not finite (a half turn between nodes) is redone node by node,
      // which throws as the per-node path does.
      SlabTermsLanes::Batch work;
      work.next = next.data();
      if (along) {
        work.next_along = next_along_.data();
        work.node_energy = node_.data();
      }
      if (terms) {
        work.terms = &t;
        work.slab = slab_.data();
        work.along = along_.data();
        work.triangle_energy = triangle_.data();
      }
      const auto batch = [&](int b) {
        const int k0 = b * lanes::kWidth, count = std::min(lanes::kWidth, K - k0);
        lanes_->nodes(work, k0, count);
        for (int k = k0; k < k0 + count; ++k) {
          if (along && !std::isfinite(node_[k])) {
            next_along_[k] = along_at(model_, axis_, next, k);
            node_[k] = node_energy_at(model_, axis_, own, next, next_along_, k);
          }
          if (terms) {
            if (!std::isfinite(triangle_[k]))
              triangle_[k] = triangle_at(model_, axis_, i, slab_, along_, next, k, t);
            else
              force_at(model_, axis_, i, slab_, k, t);
          }
        }
      };
      run_batches(march::SlabLanes::batches(K), threads_, batch);
    }
  } else if (along || terms) {
    // One parallel region for both slabs; every node writes its own slots (slab_terms.hpp).
    node_before_.resize(seen_before ? K : 0);
    ParallelErrors errors;  // cay_inv throws for a half turn between neighbours
#pragma omp parallel for schedule(static) num_threads(threads_) if (threads_ > 1)
    for (int k = 0; k < K; ++k)
      errors.guard(k, [&] {
        if (along) {
          next_along_[k] = along_at(model_, axis_, next, k);
          node_[k] = node_energy_at(model_, axis_, own, next, next_along_, k);
          if (seen_before) node_before_[k] = node_energy_at(model_, axis_, i, next, next_along_, k);
        }
        if (terms) triangle_[k] = triangle_at(model_, axis_, i, slab_, along_, next, k, t);
      });
    errors.rethrow();
  }
  // Serial sums in node order: the same bits for any thread count.
  double next_node_energy = 0.0, seen_from_i = 0.0;
  if (along)
    for (int k = 0; k < K; ++k) next_node_energy += node_[k];
  if (seen_before)
    for (int k = 0; k < K; ++k) seen_from_i += node_before_[k];
  std::optional<BasicSlabReport<V>> out;
  if (terms && dissipation_) {  // the damping wrench of the nodes of row i, with the point loads
    if (t.point.empty()) t.point.assign(K + 1, V::Zero());
    const std::vector<V>& G_d = dissipation_->node_damping();  // row i = i1-1
    for (int k = 0; k <= K; ++k) t.point[k] += lie::spatial_covector(slab_[k], G_d[k]);
  }
  if (terms) {
    for (int k = 0; k < K; ++k) t.triangle_energy += triangle_[k];
    scale_glob_ = std::max(scale_glob_, slab_scale(t, k1_, k2_));
    if (reported(i) && i >= first_) {
      BasicSlabReport<V> r;
      r.index = i;
      r.energy =
          slab_energy(model_, axis_, t, node_energy_, seen_before ? seen_from_i : next_node_energy);
      r.momentum = slab_momentum(t);
      r.dissipated = dissipated_;
      if (i >= 1) {  // the one-slab rectangle of slab i, theory §7.2
        FIELD_ASSERT(have_previous_, "SlabSeries: terms of slab " << i - 1 << " missing");
        r.balance = slab_balance(previous_, t, k1_, k2_, scale_glob_).relative;
      }
      out = r;
    }
    std::swap(previous_, current_);
  }
  have_previous_ = terms;
  if (terms_needed(i1)) slab_ = next;
  along_.swap(next_along_);
  node_energy_ = next_node_energy;
  return out;
}

template <class G>
std::optional<DampingState<typename G::Algebra>> SlabSeries<G>::damping_state() const {
  if (!dissipation_ || last_fed_ < 2) return std::nullopt;
  const auto& before = dissipation_->row_before();
  return DampingState<V>{dissipated_before_, before.xi, before.eta, before.D2};
}

template <class G>
void SlabSeries<G>::resume(int first, double scale_glob,
                           const std::optional<DampingState<V>>& damping) {
  FIELD_CHECK(first >= 1, "diagnostics: a continued series starts at slab " << first << " >= 1");
  if (dissipation_ && first >= 2) {  // theory §4.7: D_j and G_d need row first-2's triangles
    FIELD_CHECK(damping.has_value(),
                "diagnostics: the series of a damped march continues from "
                "slab "
                    << first << " only with its damping state");
    const auto A = static_cast<std::size_t>(model_.mesh().A());
    FIELD_CHECK(damping->xi.size() == A + 1 && damping->eta.size() == A && damping->D2.size() == A,
                "diagnostics: the damping state has "
                    << damping->xi.size() << ", " << damping->eta.size() << ", "
                    << damping->D2.size() << " values, expected " << A + 1 << ", " << A << ", "
                    << A);
    typename dcel::DissipationSeries<G>::Row before;
    before.resize(A);
    before.D1.assign(A, V::Zero());  // not used by the rows after (row k-2's own G_d was)
    before.D3.assign(A, V::Zero());
    before.xi = damping->xi;
    before.eta = damping->eta;
    before.D2 = damping->D2;
    dissipation_->resume(std::move(before));
    dissipated_ = damping->dissipated;
  }
  first_ = first;
  scale_glob_ = scale_glob;
  have_previous_ = false;
  along_.clear();
}

template <class G>
void SlabSeries<G>::damping_lanes(int j, const std::vector<E>& gj, const std::vector<E>& gj1,
                                  const V* eta_prev,
                                  typename dcel::DissipationSeries<G>::Row& out) {
  if constexpr (kSe3) {
    // Batches of lanes::kWidth triangles at fixed starts, each writing its own slots; a triangle
    // whose terms are not finite (a half turn between nodes) is redone by the per-node path, which
    // throws as it does; xi at node A by the per-node path.
    const int A = model_.mesh().A();
    out.resize(static_cast<size_t>(A));
    SlabTermsLanes::DampingBatch work{gj.data(),      gj1.data(),    eta_prev,      out.xi.data(),
                                      out.eta.data(), out.D1.data(), out.D2.data(), out.D3.data()};
    run_batches(march::SlabLanes::batches(A), threads_, [&](int b) {
      const int k0 = b * lanes::kWidth;
      lanes_->damping(work, k0, std::min(lanes::kWidth, A - k0));
    });
    for (int a = 0; a <= A; ++a) {
      const auto k = static_cast<size_t>(a);
      if (a == A || !out.xi[k].allFinite() || !out.eta[k].allFinite())
        dissipation_->triangle(j, k, gj, gj1, eta_prev, out);
    }
  }
}

#define FIELD_INSTANTIATE(G) template class SlabSeries<G>;
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether

#include "libfield/noether/slab_series.hpp"

#include <omp.h>

#include <algorithm>

#include "libfield/core/error.hpp"
#include "libfield/march/slab_solve.hpp"

namespace field::noether {

SlabSeries::SlabSeries(const dcel::DiscreteModel& model, SlabAxis axis, int k1, int k2,
                       const SeriesOptions& options)
    : model_(model),
      axis_(axis),
      k1_(k1),
      k2_(k2),
      N_(axis == SlabAxis::row ? model.mesh().J() : model.mesh().A()),
      stride_(options.stride),
      threads_(options.threads > 0 ? options.threads : omp_get_max_threads()) {
  FIELD_CHECK(stride_ >= 1, "diagnostics: series stride " << stride_ << ", must be >= 1");
  // Slabs under the march's threshold run on one thread, as the march does (same reason).
  const int K = axis == SlabAxis::row ? model.mesh().A() : model.mesh().J();
  if (K < march::SlabSolver::kParallelMinNodes) threads_ = 1;
}

std::optional<SlabReport> SlabSeries::add(int i1, const std::vector<lie::SE3>& next) {
  if (i1 == 0) {  // a new march
    scale_glob_ = 0.0;
    have_previous_ = false;
    along_.clear();
  }
  // slab_along and node energy of slab i1: for the terms of slab i1, or the energies of the
  // reported slabs i1 and i1-1.
  std::vector<Vec6> next_along;
  double next_node_energy = 0.0;
  if (terms_needed(i1) || reported(i1) || reported(i1 - 1)) {
    next_along = slab_along(model_, axis_, next, threads_);
    next_node_energy = slab_node_energy(model_, axis_, next, next_along, threads_);
  }
  std::optional<SlabReport> out;
  const int i = i1 - 1;
  if (i1 > 0 && terms_needed(i)) {
    FIELD_ASSERT(!along_.empty(), "SlabSeries: slab " << i << " was not kept");
    SlabTerms terms = slab_terms(model_, axis_, i, slab_, along_, next, threads_);
    scale_glob_ = std::max(scale_glob_, slab_scale(terms, k1_, k2_));
    if (reported(i)) {
      SlabReport r;
      r.index = i;
      r.energy = slab_energy(model_, axis_, terms, node_energy_, next_node_energy);
      r.momentum = slab_momentum(terms);
      if (i >= 1) {  // the one-slab rectangle of slab i, SPEC [S8.2]
        FIELD_ASSERT(have_previous_, "SlabSeries: terms of slab " << i - 1 << " missing");
        r.balance = slab_balance(previous_, terms, k1_, k2_, scale_glob_).relative;
      }
      out = r;
    }
    previous_ = std::move(terms);
    have_previous_ = true;
  } else {
    have_previous_ = false;
  }
  if (terms_needed(i1)) slab_ = next;
  along_ = std::move(next_along);
  node_energy_ = next_node_energy;
  return out;
}

}  // namespace field::noether

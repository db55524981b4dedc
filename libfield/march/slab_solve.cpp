#include "libfield/march/slab_solve.hpp"

#include <omp.h>

#include <algorithm>

#include "libfield/core/error.hpp"

namespace field::march {

template <class G>
SlabSolver<G>::SlabSolver(const dcel::DiscreteModel<G>& model, dcel::NodeEquation equation,
                          const MarchOptions& options)
    : model_(model),
      equation_(equation),
      h_(equation == dcel::NodeEquation::time ? model.dt() : model.ds()),
      newton_(options.newton),
      threads_(options.threads > 0 ? options.threads : omp_get_max_threads()) {
  if constexpr (kSe3) {  // else the reference path only
    if (options.kernel == NodeKernel::reference) return;
    const int laws = model.uniform() ? 1 : model.mesh().A();
    for (int a = 0; a < laws; ++a)
      closed_form_.push_back(dcel::make_diagonal_node<G>(model.density(a), equation, h_));
    if (options.kernel == NodeKernel::per_node) return;
    lanes_ = SlabLanes::make<G>(model, equation, newton_);
    if (lanes_ && options.kernel == NodeKernel::lanes_baseline)
      lanes_->isa = SlabLanes::Isa::baseline;
    if (lanes_ && options.kernel == NodeKernel::lanes_avx2) {
      lanes_->isa = SlabLanes::Isa::avx2;
      lanes_->isa_used();  // throws here, not inside the parallel loop
    }
  }
}

template <class G>
std::optional<int> SlabSolver<G>::solve(int lo, int hi, const std::vector<V>& target,
                                        std::vector<V>& y, SlabStats& stats, MarchResult& result) {
  FIELD_ASSERT(equation_ == dcel::NodeEquation::time, "SlabSolver::solve: a time row");
  begin(static_cast<int>(y.size()));
#pragma omp parallel for schedule(static) num_threads(threads_for(hi - lo))
  for (int k = lo; k < hi; ++k) reports_[k] = solve_from(k, target[k], y[k]);
  return finish(lo, hi, stats, result);
}

template <class G>
std::optional<int> SlabSolver<G>::finish(int lo, int hi, SlabStats& stats,
                                         MarchResult& result) const {
  // Serial reduction in node order.
  stats = SlabStats{};
  long long iterations = 0;
  std::optional<int> failed;
  for (int k = lo; k < hi; ++k) {
    const dcel::NodeSolveReport& r = reports_[k];
    iterations += r.iterations;
    stats.max_iterations = std::max(stats.max_iterations, r.iterations);
    stats.max_residual = std::max(stats.max_residual, r.residual);
    if (!r.converged && !failed) failed = k;
  }
  stats.solved_nodes = hi - lo;
  stats.mean_iterations = hi > lo ? static_cast<double>(iterations) / (hi - lo) : 0.0;
  result.node_solves += hi - lo;
  result.newton_iterations += iterations;
  return failed;
}

template <class G>
void SlabSolver<G>::fill_failure(MarchFailure& failure) const {
  const dcel::NodeSolveReport& r = reports_[failure.node];
  failure.iterations = r.iterations;
  failure.residual = r.residual;
}

#define FIELD_INSTANTIATE(G) template class SlabSolver<G>;
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march

#include "apps/thread_count.hpp"

#include <omp.h>

namespace field::app {

int run_threads(int requested, int slab_nodes) {
  if (requested > 0) return requested;
  return slab_nodes < kDefaultParallelMinNodes ? 1 : omp_get_max_threads();
}

int estimate_threads(int requested, int A) {
  if (requested > 0) return requested;
  return A + 1 < kEstimateParallelMinNodes ? 1 : omp_get_max_threads();
}

}  // namespace field::app

#include "apps/wait_policy.hpp"

#include <omp.h>
#include <unistd.h>

#include <cstdlib>

namespace field::app {

void use_passive_openmp_wait(char** argv, int threads) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;  // user's choice
  if ((threads > 0 ? threads : omp_get_max_threads()) <= 1) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 0) != 0) return;
  execv("/proc/self/exe", argv);  // returns only on failure: go on as we are
}

}  // namespace field::app

#include "apps/wait_policy.hpp"

#include <omp.h>
#include <unistd.h>

#include <cstdlib>

#include "libfield/march/slab_solve.hpp"

namespace field::app {

namespace {
char** arguments = nullptr;
}  // namespace

void keep_arguments(char** argv) {
  arguments = argv;
}

void use_passive_openmp_wait(int threads, int slab_nodes) {
  if (!arguments) return;
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;  // user's choice
  if ((threads > 0 ? threads : omp_get_max_threads()) <= 1) return;
  if (slab_nodes < march::kParallelMinNodes) return;  // one thread: nobody waits
  if (setenv("OMP_WAIT_POLICY", "passive", 0) != 0) return;
  execv("/proc/self/exe", arguments);  // returns only on failure: go on as we are
}

}  // namespace field::app

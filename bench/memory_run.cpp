// Peak resident memory of a long streaming time march (theory §6.1): the marches keep only the
// slabs they need and hand each row to observers, so memory must not grow with the step count.
//
//   memory_run [A=10000] [J=100000] [threads=2] [every=1000]
//
// Marches WavyBeam (bench_problems.hpp) with an observer that keeps nothing: every `every` rows
// it reads one value of the row (sparse output) and prints the peak resident set size
// (getrusage ru_maxrss) at row counts 1, 10, 100, ... and at the end. A flat column means no
// growth.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_problems.hpp"

namespace {

using namespace field;

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

class SparseProbe final : public march::SlabObserver {
 public:
  SparseProbe(int every, std::chrono::steady_clock::time_point start)
      : every_(every), start_(start) {}
  void slab(int index, const std::vector<lie::SE3>& values, const march::SlabStats&) override {
    if (index % every_ == 0) tip_z_ = values.front().r.z();  // the sparse "output"
    if (index == next_report_) {
      print(index);
      next_report_ *= 10;
    }
    last_ = index;
  }
  void finish() override { print(last_); }

 private:
  void print(int index) const {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::printf("%10d %14ld %10.1f %12.6f\n", index, peak_rss_kib(), s, tip_z_);
    std::fflush(stdout);
  }
  int every_;
  std::chrono::steady_clock::time_point start_;
  int next_report_ = 1;
  int last_ = 0;
  double tip_z_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) {
  bench::WavyBeam wb;
  wb.A = argc > 1 ? std::atoi(argv[1]) : 10000;
  wb.J = argc > 2 ? std::atoi(argv[2]) : 100000;
  march::MarchOptions options;
  options.threads = argc > 3 ? std::atoi(argv[3]) : 2;
  const int every = argc > 4 ? std::atoi(argv[4]) : 1000;

  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, wb.mesh());
  const march::TimeMarchInput in = wb.input();
  std::printf("# memory_run: A = %d, J = %d, threads = %d, output every %d rows\n", wb.A, wb.J,
              options.threads, every);
  std::printf("# %8s %14s %10s %12s\n", "row", "peak_rss_KiB", "seconds", "tip_z");
  const auto start = std::chrono::steady_clock::now();
  SparseProbe probe(every, start);
  const march::MarchResult r = march::time_march(model, in, {&probe}, options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("# completed = %d, node updates = %lld, %.3g node updates/s, Newton per node %.3f\n",
              r.completed ? 1 : 0, r.node_solves, r.node_solves / s,
              static_cast<double>(r.newton_iterations) / r.node_solves);
  return r.completed ? 0 : 1;
}

#include "libfield/io/memory_estimate.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/io/writer_thread.hpp"

namespace field::io {

namespace {

// Peak memory, measured on whole runs (A = 10 to 10^4 within 15 %, docs/performance.md): 8.5 MB of
// program and libraries, then 2.8 KB per node of a slab (the march's slabs and per-node state,
// the writers' windows and buffers: time march A+1 nodes, space march J+1) and, for a space
// march, 100 bytes per node of the whole field (kept for the frames). Prescribed end tracks and
// the tip data add 96 bytes per pose. A time march's outputs run on an output thread, and its
// field.csv and field_rates.csv on a writer thread, whose batches (WriterThread: kBatches of
// max(kBatchNodes, A + 1) poses each) fill up when they fall behind the march (on a loaded
// machine). 6 MB before CHOLMOD, LAPACK and BLAS (the estimator) were linked. field.csv and
// field_rates.csv write behind (csv_writer.hpp): two buffers of 320 KiB each.
// A point of R^3 (the cable, theory §1.8, and a registered theory on R^3) costs 1.4 KB of a slab
// and 24 bytes in a writer's batch: the cable and the string at A = 10^5 and 10^6 peak at
// 161-168 MB and 1.53-1.59 GB (docs/performance.md, "Memory").
constexpr double kProgram = 8.5e6;
constexpr double kWriteBehind = 2 * 320 * 1024.0;
constexpr double kPerSlabNode = 2800.0;
constexpr double kPerSlabPoint = 1400.0;
constexpr double kFieldPerNode = 100.0;

bool points(const CaseSpec& spec) {
  return spec.theory == Theory::cable ||
         (spec.theory == Theory::registered && registered_dimension(spec) == 3);
}
double per_slab_node(const CaseSpec& spec) {
  return points(spec) ? kPerSlabPoint : kPerSlabNode;
}
// "2.8 KB per node of a row, " (a column).
std::string per_node_text(const CaseSpec& spec, const char* slab) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2g KB per node of a %s, ", per_slab_node(spec) / 1000.0, slab);
  return buf;
}

double read_number_after(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::strtod(line.c_str() + key.size(), nullptr);
  return 0.0;
}

}  // namespace

std::string bytes_text(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (b >= 1024.0 && u < 5) b /= 1024.0, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", b, units[u]);
  return buf;
}

MemoryEstimate estimate_memory(const CaseSpec& spec) {
  MemoryEstimate m;
  const double rows = spec.J + 1.0, nodes = spec.A + 1.0;
  if (spec.march == MarchKind::time) {
    m.march = kProgram + per_slab_node(spec) * nodes + 2 * 96.0 * rows;
    m.march += (spec.output.csv || spec.output.rates ? 2 : 1) * WriterThread::kBatches *
               std::max(static_cast<double>(WriterThread::kBatchNodes), nodes) *
               (points(spec) ? sizeof(Vec3) : sizeof(lie::SE3));
    m.what = per_node_text(spec, "row") + std::to_string(spec.A + 1) + " nodes";
  } else {
    m.march = kProgram + per_slab_node(spec) * rows + 2 * 96.0 * nodes;
    m.kept = kFieldPerNode * rows * nodes;
    m.what = "the whole field of " + std::to_string(spec.J + 1) + " x " +
             std::to_string(spec.A + 1) + " nodes is kept for the frames";
    if (m.march > m.kept)
      m.what = per_node_text(spec, "column") + std::to_string(spec.J + 1) + " nodes";
  }
  m.march += (int{spec.output.csv} + int{spec.output.rates}) * kWriteBehind;
  return m;
}

double available_memory() {
  const double meminfo = 1024.0 * read_number_after("/proc/meminfo", "MemAvailable:");
  double limit = 0.0;
  {
    std::ifstream in("/sys/fs/cgroup/memory.max");
    std::string text;
    if (in >> text && text != "max") {
      const double max = std::strtod(text.c_str(), nullptr);
      const double used = read_number_after("/sys/fs/cgroup/memory.current", "");
      if (max > used) limit = max - used;
    }
  }
  if (meminfo > 0.0 && limit > 0.0) return std::min(meminfo, limit);
  return meminfo > 0.0 ? meminfo : limit;
}

MemoryEstimate estimate_memory(const CaseSpec& spec, double bytes_per_node) {
  MemoryEstimate m = estimate_memory(spec);
  const double field = bytes_per_node * (spec.J + 1.0) * (spec.A + 1.0);
  m.kept += field;
  if (field > m.march)
    m.what = "the whole field of " + std::to_string(spec.J + 1) + " x " +
             std::to_string(spec.A + 1) + " nodes kept in memory, " + bytes_text(bytes_per_node) +
             " per node";
  return m;
}

std::string memory_shortfall(const CaseSpec& spec, const MemoryEstimate& m,
                             const std::string& advice) {
  const double available = available_memory();
  if (available <= 0.0 || m.total() <= available) return {};
  std::ostringstream out;
  out << spec.file.string() << ": the run needs about " << bytes_text(m.total()) << " of memory ("
      << m.what << "), more than the " << bytes_text(available) << " available: " << advice;
  return out.str();
}

std::string memory_line(const CaseSpec& spec, bool& fits) {
  const MemoryEstimate m = estimate_memory(spec);
  const double available = available_memory();
  fits = available <= 0.0 || m.total() <= available;
  std::string line = "peak memory about " + bytes_text(m.total()) + " (" + m.what + ")";
  if (!fits)
    line += ": TOO LARGE for the " + bytes_text(available) + " available, the run is refused";
  return line;
}

void check_memory(const CaseSpec& spec) {
  const std::string shortfall =
      memory_shortfall(spec, estimate_memory(spec),
                       "use a smaller grid ([grid] A, J) (`field info` prints the estimate)");
  if (!shortfall.empty()) throw IoError(shortfall);
}

}  // namespace field::io

#include "apps/memory_estimate.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "libfield/core/error.hpp"

namespace field::app {

namespace {

// Bytes per node, measured from the containers of the marches and writers (a pose is 96 bytes,
// a 6-vector 48): a time march holds three rows, four Newton histories and the stresses per
// node, its inputs and the writers' line buffers (~1 KiB); spacetime.vtu keeps a pose and five
// numbers per output node, and builds its grid from them at the end (~300 B).
constexpr double kMarchPerNode = 1024.0;
constexpr double kVtkPerNode = 300.0;
constexpr double kFieldPerNode = 96.0;  // a recorded pose (reconstruct keeps the whole field)

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

MemoryEstimate estimate_memory(const io::CaseSpec& spec) {
  MemoryEstimate m;
  const double rows = spec.J + 1.0, nodes = spec.A + 1.0, stride = spec.output.stride;
  const double vtk_rows = spec.output.vtk ? std::ceil(rows / stride) : 0.0;
  if (spec.march == io::MarchKind::time) {
    m.march = kMarchPerNode * nodes + 2 * 96.0 * rows;  // + prescribed end tracks
    m.kept = kVtkPerNode * vtk_rows * nodes;
    m.what = "spacetime.vtu keeps " + std::to_string(static_cast<long long>(vtk_rows)) +
             " rows of " + std::to_string(spec.A + 1) + " nodes";
  } else {
    m.march = kMarchPerNode * rows + 2 * 96.0 * nodes;  // + tip data, prescribed rows
    m.kept = kFieldPerNode * rows * nodes + kVtkPerNode * vtk_rows * nodes;
    m.what = "the whole field of " + std::to_string(spec.J + 1) + " x " +
             std::to_string(spec.A + 1) + " nodes is kept for the frames";
  }
  if (m.march > m.kept) m.what = "the march's slabs";
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

void check_memory(const io::CaseSpec& spec) {
  const MemoryEstimate m = estimate_memory(spec);
  const double available = available_memory();
  if (available <= 0.0 || m.total() <= available) return;
  std::ostringstream out;
  out << spec.file.string() << ": the run needs about " << bytes_text(m.total()) << " of memory ("
      << m.what << "), more than the " << bytes_text(available)
      << " available: use a smaller grid ([grid] A, J), a larger [output] stride, or "
         "[output] vtk = false (`field info` prints the estimate)";
  throw IoError(out.str());
}

}  // namespace field::app

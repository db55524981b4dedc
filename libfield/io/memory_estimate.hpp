#pragma once
/// The memory a run of a case needs, estimated before anything is allocated, against the memory
/// this machine has available (docs/cli.md, "Memory"): `field simulate` and `field reconstruct`
/// refuse a run that cannot fit (exit 5, with the estimate and what to change) instead of dying
/// in the middle of an allocation, `field info` prints the estimate, and the Python module
/// (docs/python.md) refuses a run whose arrays would not fit.
#include <string>

#include "libfield/io/case_file.hpp"

namespace field::io {

struct MemoryEstimate {
  double march = 0.0;  ///< the march: its slabs, Newton histories, inputs [bytes]
  double kept = 0.0;   ///< what the outputs keep until the end (spacetime.vtu, the field) [bytes]
  double total() const { return march + kept; }
  std::string what;  ///< the largest part, in words
};

MemoryEstimate estimate_memory(const CaseSpec& spec);

/// The same when the caller also keeps `bytes_per_node` for every node of the (J + 1) x (A + 1)
/// field (the Python module's arrays, docs/python.md): added to `kept`, and named in `what` when
/// it is the largest part.
MemoryEstimate estimate_memory(const CaseSpec& spec, double bytes_per_node);

/// Bytes this process may still use: the smaller of MemAvailable (/proc/meminfo) and the cgroup
/// limit; 0 when neither can be read.
double available_memory();

/// "1.5 GiB".
std::string bytes_text(double bytes);

/// Empty when `m` fits in the available memory (or that cannot be read); otherwise the message:
/// the case file, both sizes, the largest part, and `advice` (what to change).
std::string memory_shortfall(const CaseSpec& spec, const MemoryEstimate& m,
                             const std::string& advice);

/// The estimate in words for `field info`: "peak memory about 12.3 MiB (1.6 KB per node of a row,
/// 1001 nodes)", with ": TOO LARGE for the 20.5 GiB available, the run is refused" when it does
/// not fit; `fits` tells which.
std::string memory_line(const CaseSpec& spec, bool& fits);

/// Throws field::IoError (exit 5) when the estimate exceeds the available memory: the message
/// gives both and what to change.
void check_memory(const CaseSpec& spec);

}  // namespace field::io

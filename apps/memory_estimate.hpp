#pragma once
// The memory a run of a case needs, estimated before anything is allocated, against the memory
// this machine has available (docs/cli.md, "Memory"): `simulate` and `reconstruct` refuse a run
// that cannot fit (exit 5, with the estimate and what to change) instead of dying in the middle
// of an allocation, and `field info` prints the estimate.
#include <string>

#include "libfield/io/case_file.hpp"

namespace field::app {

struct MemoryEstimate {
  double march = 0.0;  ///< the march: its slabs, Newton histories, inputs [bytes]
  double kept = 0.0;   ///< what the outputs keep until the end (spacetime.vtu, the field) [bytes]
  double total() const { return march + kept; }
  std::string what;  ///< the largest part, in words
};

MemoryEstimate estimate_memory(const io::CaseSpec& spec);

/// Bytes this process may still use: the smaller of MemAvailable (/proc/meminfo) and the cgroup
/// limit; 0 when neither can be read.
double available_memory();

/// "1.5 GiB".
std::string bytes_text(double bytes);

/// Throws field::IoError (exit 5) when the estimate exceeds the available memory: the message
/// gives both and what to change.
void check_memory(const io::CaseSpec& spec);

}  // namespace field::app

#pragma once
// `field info` of a cable case (theory §1.8, `theory = "cable"`, docs/cable.md). `field simulate`
// runs it through the run path of every theory (apps/time_march_run.hpp).
#include "libfield/io/case_file.hpp"

namespace field::app {

/// `field info` of a cable case: the law, the grid, row 0 (the catenary's H and V), the wave
/// speeds and the stability number of theory §6.1; returns the exit code.
int info_cable(const io::CaseSpec& spec);

}  // namespace field::app

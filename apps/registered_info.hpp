#pragma once
// `field info` of a case of a registered theory (io/registered_case.hpp, docs/lie-groups.md
// "Adding a theory"): what any theory can say of itself, with no code of its own.
#include "libfield/io/case_file.hpp"

namespace field::app {

/// `field info` of a registered theory's case: the theory and its parameters as read, the grid,
/// the ends, row 0 and its velocity, the density's wave speeds and the stability numbers of
/// theory §6.1; returns the exit code.
int info_registered(const io::CaseSpec& spec);

}  // namespace field::app

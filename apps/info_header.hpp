#pragma once
// The opening lines of `field info` for every theory (apps/cmd_info.cpp, apps/cable_info.cpp,
// apps/registered_info.cpp): the case, its file and description.
#include <string>

#include "libfield/io/case_file.hpp"

namespace field::app {

/// "case NAME (FILE)" and the description's line.
void print_case_header(const io::CaseSpec& spec);

/// The header and io::memory_line's verdict for a case that does not fit in memory (its data
/// are not read, nothing is allocated); returns the exit code, 0 (`field info` only reports).
int print_too_large(const io::CaseSpec& spec, const std::string& memory);

}  // namespace field::app

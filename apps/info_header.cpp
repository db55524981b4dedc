#include "apps/info_header.hpp"

#include <cstdio>

namespace field::app {

void print_case_header(const io::CaseSpec& spec) {
  std::printf("case %s (%s)\n", spec.name.c_str(), spec.file.string().c_str());
  if (!spec.description.empty()) std::printf("  %s\n", spec.description.c_str());
}

int print_too_large(const io::CaseSpec& spec, const std::string& memory) {
  print_case_header(spec);
  std::printf("  %s (the data files were not read)\n", memory.c_str());
  return 0;
}

}  // namespace field::app

#pragma once
// The validation benchmarks (docs/validation/): a shipped case of meshes/ with a few `key = value`
// lines changed (the short, coarser version of a benchmark), and its static equilibrium.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/static_setup.hpp"
#include "libfield/lie/retraction.hpp"

namespace field::test {

/// meshes/<folder>/case.toml with the first line `key = ...` of each key replaced by
/// `key = value` (keys unique in the file), parsed as if it were that file.
inline io::CaseSpec shipped_case(const std::string& folder,
                                 const std::map<std::string, std::string>& keys) {
  const std::string path = std::string(FIELD_SOURCE_DIR) + "/meshes/" + folder + "/case.toml";
  std::ifstream in(path);
  std::map<std::string, std::string> left = keys;
  std::ostringstream text;
  for (std::string line; std::getline(in, line); text << line << "\n") {
    const size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string key = line.substr(0, line.find_last_not_of(' ', eq - 1) + 1);
    const auto it = left.find(key);
    if (it == left.end()) continue;
    line = key + " = " + it->second;
    left.erase(it);
  }
  for (const auto& [key, value] : left) ADD_FAILURE() << path << ": no line '" << key << " = '";
  return io::parse_case(text.str(), path);
}

/// The static equilibrium of the case (`field static`'s solve), with the case's retraction.
inline statics::StaticResult solve_shipped_case(const io::CaseSpec& spec) {
  const io::Problem problem(spec);
  return lie::with_group(spec.retraction, [&](auto group) {
    return io::solve_case_statics<decltype(group)>(problem);
  });
}

}  // namespace field::test

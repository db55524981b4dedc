#pragma once
// Running the real `field` binary from the CLI tests: exit code and output, case folders copied
// to a temporary folder and edited (shorter runs, bad values).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/temp_folder.hpp"

namespace field::test {

struct CommandResult {
  int code = -1;       ///< exit code of the program
  std::string output;  ///< stdout and stderr together
};

/// Runs a shell command line; stdout and stderr are read together.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs `field <arguments>` in the shell, from the folder `cwd`.
inline CommandResult run_field(const std::string& arguments,
                               const std::filesystem::path& cwd = std::filesystem::current_path()) {
  return run_command("cd '" + cwd.string() + "' && '" FIELD_BINARY "' " + arguments + " 2>&1");
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

/// Copies meshes/<name>/ into `folder`/<name>/ and returns the path of the copy's case.toml.
inline std::filesystem::path copy_case(const TempFolder& folder, const std::string& name,
                                       const std::string& file = "case.toml") {
  const std::filesystem::path from = std::filesystem::path(FIELD_SOURCE_DIR) / "meshes" / name;
  const std::filesystem::path to = folder.path() / name;
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
  return to / file;
}

/// Replaces the first occurrence of `from` by `to` in the file; false if absent.
inline bool edit(const std::filesystem::path& path, const std::string& from,
                 const std::string& to) {
  std::string text = read_text(path);
  const auto at = text.find(from);
  if (at == std::string::npos) return false;
  text.replace(at, from.size(), to);
  write_text(path, text);
  return true;
}

/// Data lines of a CSV file (without the header and comment lines).
inline int csv_rows(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  int rows = -1;  // the header
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') ++rows;
  return rows;
}

/// The numbers of every data line of a CSV file (without the header and comment lines); with
/// `count` > 0, only the columns first .. first + count - 1.
inline std::vector<std::vector<double>> csv_numbers(const std::filesystem::path& path,
                                                    std::size_t first = 0, std::size_t count = 0) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<double> row;
    std::stringstream s(line);
    std::string cell;
    for (std::size_t k = 0; std::getline(s, cell, ','); ++k)
      if (k >= first && (count == 0 || k < first + count))
        row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  return rows;
}

/// The raw JSON value of `"key": value` in DIR/summary.json (a string keeps its quotes); empty
/// when the key is absent.
inline std::string summary_value(const std::filesystem::path& dir, const std::string& key) {
  const std::string text = read_text(dir / "summary.json");
  const auto at = text.find("\"" + key + "\": ");
  if (at == std::string::npos) return {};
  const auto begin = at + key.size() + 4, end = text.find_first_of(",\n", begin);
  return text.substr(begin, end - begin);
}

/// The number of `"key": number` in DIR/summary.json; NaN when the key is absent.
inline double summary_number(const std::filesystem::path& dir, const std::string& key) {
  const std::string value = summary_value(dir, key);
  return value.empty() ? NAN : std::strtod(value.c_str(), nullptr);
}

/// `field simulate` of the shipped case `name` (copied into a temporary folder, with a motion file
/// m.csv beside it) with the first `from` replaced by `to` is refused before anything is written:
/// exit code 4 and a message naming the case file and holding `says`.
inline void expect_refused(const std::string& name, const std::string& from, const std::string& to,
                           const std::string& says) {
  SCOPED_TRACE(to);
  TempFolder tmp;
  const std::filesystem::path file = copy_case(tmp, name);
  ASSERT_TRUE(edit(file, from, to));
  write_text(file.parent_path() / "m.csv", "t,x,y,z,qw,qx,qy,qz\n0,1,0,0,0.5,0.5,0.5,0.5\n");
  const std::filesystem::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find(file.string() + ":"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(out)) << r.output;
}

/// meshes/driven copied to a temporary folder (case_file: its case.toml) and its simulate.toml
/// run into `simulated`: the tip data of the driven reconstruction and the estimator.
struct DrivenRun {
  TempFolder tmp;
  std::filesystem::path case_file, simulated;
  DrivenRun() {
    case_file = copy_case(tmp, "driven");
    simulated = tmp / "sim";
    const CommandResult sim =
        run_field("simulate " + (case_file.parent_path() / "simulate.toml").string() +
                  " -q --out " + simulated.string());
    EXPECT_EQ(sim.code, 0) << sim.output;
  }
};

}  // namespace field::test

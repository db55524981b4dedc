// [output] series_stride through the program: `field simulate` writes every series_stride-th line
// of time_series.csv and the last, with the values of the full series (meshes/README.md).
#include <gtest/gtest.h>

#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

/// A small free-free beam in motion, without field outputs; `output` is added to [output].
std::string small_case(const std::string& output) {
  return "format = 1\nmarch = \"time\"\n[beam]\nsection = \"square\"\nside = 0.1\nE = 1e5\n"
         "nu = 0.3\nrho = 1000.0\n[grid]\nA = 4\nds = 0.25\ndt = 0.01\nJ = 10\n[initial]\n"
         "velocity = \"uniform\"\nxi = [0.5, 1.0, 0.2, 0.0, 0.3, 1.0]\n[output]\ncsv = false\n"
         "vtk = false\ntip = false\n" +
         output;
}

/// The lines of time_series.csv after the header.
std::vector<std::string> series_lines(const std::filesystem::path& run) {
  std::istringstream in(read_text(run / "time_series.csv"));
  std::vector<std::string> lines;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> columns(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) out.push_back(cell);
  return out;
}

TEST(SeriesStride, SimulateWritesEveryStrideThLineAndTheLast) {
  TempFolder tmp;
  const auto all = tmp.write("all.toml", small_case(""));
  const auto thin = tmp.write("thin.toml", small_case("series_stride = 4\n"));
  ASSERT_EQ(
      run_field("simulate '" + all.string() + "' --out '" + (tmp / "all").string() + "' -q").code,
      0);
  const CommandResult r =
      run_field("simulate '" + thin.string() + "' --out '" + (tmp / "thin").string() + "' -q");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<std::string> every = series_lines(tmp / "all"),
                                 some = series_lines(tmp / "thin");
  ASSERT_EQ(every.size(), 10u);  // rows 0..J-1
  ASSERT_EQ(some.size(), 4u);    // rows 0, 4, 8 and 9
  const std::vector<int> rows{0, 4, 8, 9};
  for (size_t i = 0; i < rows.size(); ++i) {
    // Every column as in the full series, text for text, but the balance `noether_residual`
    // (column 9), whose scale is taken over the rows computed (docs/output-format.md section 4).
    std::vector<std::string> full = columns(every[rows[i]]), line = columns(some[i]);
    ASSERT_EQ(line.size(), 14u);  // ... W, E_balance (theory §8.1)
    ASSERT_EQ(full.size(), 14u);
    full.erase(full.begin() + 9);
    line.erase(line.begin() + 9);
    EXPECT_EQ(line, full) << "row " << rows[i];
  }
  EXPECT_NE(read_text(tmp / "thin" / "run.toml").find("series_stride = 4"), std::string::npos);
}

}  // namespace
}  // namespace field::test

// field_rates.csv through the real program ([output] rates = true, io/field_rates.hpp): the same
// bytes with one and two march threads and with the writer thread off; field.csv and the other
// files unchanged by it; off by default; `field info` estimates its size within 20 %. And
// [initial] row = j: a run starts from row j of a run's field.csv (docs/cli.md), a missing row is
// refused naming the file, the case's line and key.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

CommandResult simulate(const fs::path& file, const fs::path& out, int threads,
                       bool writer_thread = true) {
  return run_command(std::string("FIELD_WRITER_THREAD=") + (writer_thread ? "1" : "0") + " '" +
                     FIELD_BINARY + "' simulate -q --threads " + std::to_string(threads) +
                     " --out '" + out.string() + "' '" + file.string() + "' 2>&1");
}

double estimate_after(const std::string& text, const std::string& label) {
  const auto at = text.find(label);
  if (at == std::string::npos) return NAN;
  const auto number = text.find("about ", at);
  double value = std::strtod(text.c_str() + number + 6, nullptr);
  const std::string unit = text.substr(text.find(' ', number + 6) + 1, 3);
  if (unit == "KiB") value *= 1024.0;
  if (unit == "MiB") value *= 1024.0 * 1024.0;
  return value;
}

TEST(CliRates, SameBytesOnAnyThreadCountAndTheOtherFilesUnchanged) {
  TempFolder tmp;
  const fs::path plain = copy_case(tmp, "free_flight");
  const fs::path file = plain.parent_path() / "rates.toml";
  write_text(file, read_text(plain));
  ASSERT_TRUE(edit(file, "stride = 1 ", "stride = 1\nrates = true\n#"));
  ASSERT_EQ(simulate(plain, tmp / "plain", 1).code, 0);
  EXPECT_FALSE(fs::exists(tmp / "plain" / "field_rates.csv"));  // off by default
  const std::vector<std::pair<int, bool>> runs = {{1, true}, {2, true}, {1, false}};
  for (const auto& [threads, writer] : runs) {
    const fs::path out = tmp / ("t" + std::to_string(threads) + (writer ? "w" : ""));
    const CommandResult r = simulate(file, out, threads, writer);
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(csv_rows(out / "field_rates.csv"), 401 * 11);
    EXPECT_TRUE(read_text(out / "field_rates.csv") == read_text(tmp / "t1w" / "field_rates.csv"))
        << out;
    for (const char* f : {"field.csv", "time_series.csv", "tip.csv", "frames/beam_000400.vtp"})
      EXPECT_TRUE(read_text(out / f) == read_text(tmp / "plain" / f)) << f;
    EXPECT_NE(read_text(out / "run.toml").find("rates = true"), std::string::npos);
  }
  const std::string header = read_text(tmp / "t1w" / "field_rates.csv").substr(0, 80);
  EXPECT_EQ(header.substr(0, header.find('\n')),
            "j,a,t,s,w1,w2,w3,v1,v2,v3,k1,k2,k3,g1,g2,g3,m1,m2,m3,n1,n2,n3");

  const CommandResult info = run_field("info '" + file.string() + "'");
  ASSERT_EQ(info.code, 0) << info.output;
  const double estimated = estimate_after(info.output, "field_rates.csv");
  const double real = static_cast<double>(fs::file_size(tmp / "t1w" / "field_rates.csv"));
  std::printf("[info estimate] field_rates.csv estimated %.0f, real %.0f\n", estimated, real);
  EXPECT_LE(std::abs(estimated - real), 0.2 * real) << info.output;
}

TEST(CliRates, RatesAreRefusedWhereNoTimeMarchWritesThem) {
  expect_refused("space_evolution", "[tip]", "[output]\nrates = true\n\n[tip]",
                 "[output] rates = true: field_rates.csv is written by time marches");
}

// The poses of row j of a field.csv, by node: (x, y, z, qw, qx, qy, qz).
std::vector<std::vector<double>> row_poses(const fs::path& field_csv, int j) {
  std::vector<std::vector<double>> poses;
  for (const std::vector<double>& line : csv_numbers(field_csv))
    if (line[0] == j) poses.emplace_back(line.begin() + 4, line.end());
  return poses;
}

TEST(CliInitialRow, ARunStartsFromRowJOfARunsFieldCsv) {
  TempFolder tmp;
  const fs::path first = copy_case(tmp, "free_flight");
  ASSERT_EQ(simulate(first, tmp / "first", 1).code, 0);
  const fs::path file = first.parent_path() / "from_row.toml";
  write_text(file, read_text(first));
  const std::string field_csv = (tmp / "first" / "field.csv").string();
  ASSERT_TRUE(edit(file, "configuration = \"straight\"",
                   "configuration = \"file\"\nfile = \"" + field_csv + "\"\nrow = 100"));
  ASSERT_TRUE(edit(file, "origin = [0.0, 0.0, 0.0]", ""));
  ASSERT_TRUE(edit(file, "axis = [1.0, 0.0, 0.0]", "") || edit(file, "axis = [0.0, 0.0, 1.0]", ""));
  ASSERT_TRUE(edit(file, "J = 400 ", "J = 3 "));
  const CommandResult r = simulate(file, tmp / "second", 1);
  ASSERT_EQ(r.code, 0) << r.output;
  const auto want = row_poses(tmp / "first" / "field.csv", 100);
  const auto got = row_poses(tmp / "second" / "field.csv", 0);
  ASSERT_EQ(want.size(), 11u);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t a = 0; a < want.size(); ++a)
    for (std::size_t c = 0; c < 7; ++c) EXPECT_NEAR(got[a][c], want[a][c], 1e-15) << a << " " << c;
  EXPECT_NE(read_text(tmp / "second" / "run.toml").find("row = 100\n"), std::string::npos);

  // A row the file does not have: the file, the rows it has, the case's line and key.
  ASSERT_TRUE(edit(file, "row = 100", "row = 401"));
  const CommandResult missing = simulate(file, tmp / "third", 1);
  EXPECT_EQ(missing.code, 4) << missing.output;
  for (const std::string& says :
       {field_csv + ": no row with j = 401 (the file has rows j = 0..400)", file.string() + ":",
        std::string("[initial] file")})
    EXPECT_NE(missing.output.find(says), std::string::npos) << says << "\n" << missing.output;
  EXPECT_FALSE(fs::exists(tmp / "third"));
}

TEST(CliInitialRow, ARowNeedsAFile) {
  expect_refused("free_flight", "configuration = \"straight\"",
                 "configuration = \"straight\"\nrow = 3",
                 "[initial] row = 3: a row of a file needs");
}

}  // namespace
}  // namespace field::test

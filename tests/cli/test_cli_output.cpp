// The output policy and `field info`'s estimates, on the real program: the VTK files bounded by
// the "auto" vtk_stride (printed), an explicit vtk_stride wins, field.csv and the series complete;
// `field info`'s frame count is exact and its sizes and peak memory are within 20 % of what a run
// writes and uses (the peak resident memory of the process, from wait4).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cctype>
#include <sstream>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

// Runs `field simulate CASE --out OUT --threads 1` (stdout and stderr to /dev/null) and returns
// its peak resident memory [bytes] (ru_maxrss of the process alone, from wait4); -1 on failure.
double simulate_peak_memory(const fs::path& case_file, const fs::path& out) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(FIELD_BINARY, FIELD_BINARY, "simulate", case_file.c_str(), "--out", out.c_str(),
          "--threads", "1", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return -1.0;
  return 1024.0 * static_cast<double>(usage.ru_maxrss);  // KiB on Linux
}

// "703 KiB" -> bytes.
double parse_bytes(const std::string& number, const std::string& unit) {
  const std::vector<std::string> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = std::stod(number);
  for (const std::string& u : units) {
    if (u == unit) return value;
    value *= 1024.0;
  }
  ADD_FAILURE() << "unit '" << unit << "'";
  return 0.0;
}

// The estimate printed after `label` in `field info`'s output: "label 703 KiB" or "label about
// 703 KiB". (Parsed by hand: GCC 12 warns falsely inside <regex> in the sanitizer build.)
double estimate(const std::string& info, const std::string& label) {
  const size_t at = info.find(label + " ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no '" << label << "' in:\n" << info;
    return 0.0;
  }
  std::istringstream in(info.substr(at + label.size()));
  std::string number, unit;
  in >> number;
  if (number == "about") in >> number;
  in >> unit;
  unit = unit.substr(0, unit.find_first_not_of("BKMGTi"));  // "MiB;" -> "MiB"
  if (number.empty() || number.find_first_not_of("0123456789.e+") != std::string::npos) {
    ADD_FAILURE() << "no number after '" << label << "' in:\n" << info;
    return 0.0;
  }
  return parse_bytes(number, unit);
}

// The frame count in "...: N frames, ...".
int frames_estimate(const std::string& info) {
  const size_t end = info.find(" frames, ");
  size_t begin = end;
  while (begin != std::string::npos && begin > 0 &&
         std::isdigit(static_cast<unsigned char>(info[begin - 1])))
    --begin;
  if (end == std::string::npos || begin == end || begin < 2 ||
      info.compare(begin - 2, 2, ": ") != 0) {
    ADD_FAILURE() << "no ': N frames, ' in:\n" << info;
    return -1;
  }
  return std::stoi(info.substr(begin, end - begin));
}

double bytes_under(const fs::path& path) {
  if (fs::is_regular_file(path)) return static_cast<double>(fs::file_size(path));
  double total = 0.0;
  for (const auto& entry : fs::directory_iterator(path)) total += bytes_under(entry.path());
  return total;
}

int files_in(const fs::path& folder) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(folder)) n += entry.is_regular_file() ? 1 : 0;
  return n;
}

int dataset_lines(const fs::path& pvd) {
  const std::string text = read_text(pvd);
  int n = 0;
  for (size_t p = text.find("<DataSet"); p != std::string::npos; p = text.find("<DataSet", p + 1))
    ++n;
  return n;
}

void expect_within(double estimated, double real, const std::string& what) {
  std::printf("[info estimate] %-14s estimated %10.0f, real %10.0f (%+.1f %%)\n", what.c_str(),
              estimated, real, 100.0 * (estimated - real) / real);
  EXPECT_LE(std::abs(estimated - real), 0.2 * real) << what;
}

void check_estimates(const fs::path& case_file, const fs::path& out) {
  const CommandResult info = run_field("info '" + case_file.string() + "'");
  ASSERT_EQ(info.code, 0) << info.output;
  const double memory = simulate_peak_memory(case_file, out);
  ASSERT_GT(memory, 0.0) << "field simulate failed on " << case_file;

  const int frames = frames_estimate(info.output);
  EXPECT_EQ(frames, files_in(out / "frames"));  // exact
  EXPECT_EQ(frames, dataset_lines(out / "beam.pvd"));
  expect_within(estimate(info.output, "field.csv"), bytes_under(out / "field.csv"), "field.csv");
  expect_within(estimate(info.output, "series"),
                bytes_under(out / "time_series.csv") + bytes_under(out / "tip.csv"), "series");
  expect_within(estimate(info.output, "frames,"),
                bytes_under(out / "frames") + bytes_under(out / "beam.pvd"), "frames");
  expect_within(estimate(info.output, "spacetime.vtu"), bytes_under(out / "spacetime.vtu"),
                "spacetime.vtu");
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's shadow memory and quarantine multiply the resident memory (10-13x here):
  // the estimate is for the program users run, so only the Release build compares it.
  std::printf("[info estimate] peak memory not compared under AddressSanitizer (real %.0f)\n",
              memory);
#else
  expect_within(estimate(info.output, "peak memory"), memory, "peak memory");
#endif
}

TEST(CliOutput, InfoEstimatesAreWithinTwentyPercentOfARun) {
  const TempFolder dir;
  // free_flight with field.csv every 3rd row (J = 400: the VTK files have every row).
  const fs::path ff = copy_case(dir, "free_flight");
  ASSERT_TRUE(edit(ff, "stride = 1 ", "stride = 3 "));
  check_estimates(ff, dir / "ff");
  // cantilever_gravity: J = 2000, the "auto" VTK stride is 5.
  check_estimates(copy_case(dir, "cantilever_gravity"), dir / "cg");
}

// The cable and a registered theory on R^3 (the string) cost less per node than the beam
// (io/memory_estimate.cpp): `field info`'s peak memory of 20 001-node runs within 20 % of the
// run's, and printed for these theories too.
TEST(CliOutput, InfoEstimatesThePeakMemoryOfPointTheories) {
  const TempFolder dir;
  const fs::path cable = copy_case(dir, "hanging_cable");  // c_L dt/ds = 0.5 kept
  ASSERT_TRUE(edit(cable, "A = 32", "A = 20000"));
  ASSERT_TRUE(edit(cable, "dt = 1.5625e-3", "dt = 2.5e-6"));
  ASSERT_TRUE(edit(cable, "J = 640", "J = 4"));
  const fs::path string = copy_case(dir, "string_wave");
  ASSERT_TRUE(edit(string, "A = 40", "A = 20000"));
  ASSERT_TRUE(edit(string, "ds = 0.025", "ds = 5e-5"));
  ASSERT_TRUE(edit(string, "dt = 6.25e-3", "dt = 1.25e-5"));
  ASSERT_TRUE(edit(string, "J = 160", "J = 4"));
  for (const fs::path& file : {cable, string}) {
    const CommandResult info = run_field("info '" + file.string() + "'");
    ASSERT_EQ(info.code, 0) << info.output;
    EXPECT_NE(info.output.find("(1.4 KB per node of a row, 20001 nodes)"), std::string::npos)
        << info.output;
    const double memory =
        simulate_peak_memory(file, dir / ("out_" + file.parent_path().filename().string()));
    ASSERT_GT(memory, 0.0) << "field simulate failed on " << file;
#if !defined(__SANITIZE_ADDRESS__)  // as check_estimates
    expect_within(estimate(info.output, "peak memory"), memory, "peak memory");
#endif
  }
}

// Beyond 10^5 slabs the key columns' text is summed from a sample (apps/cmd_info.cpp, key_text):
// A = 100000 (every node formatted) and A = 100001 (every second) give the same field.csv to the
// three digits printed.
TEST(CliOutput, InfoSamplesTheKeyColumnsOfAHugeGridAsTheExactSum) {
  const TempFolder dir;
  std::vector<double> sizes;
  for (const std::string A : {"100000", "100001"}) {
    const fs::path cg = copy_case(dir, "cantilever_gravity");
    ASSERT_TRUE(edit(cg, "A = 10", "A = " + A));
    ASSERT_TRUE(edit(cg, "J = 2000", "J = 4"));
    const CommandResult info = run_field("info '" + cg.string() + "'");
    ASSERT_EQ(info.code, 0) << info.output;
    sizes.push_back(estimate(info.output, "field.csv"));
    fs::remove_all(cg.parent_path());
  }
  EXPECT_GT(sizes[0], 0.0);
  EXPECT_NEAR(sizes[1] / sizes[0], 1.0, 0.01) << sizes[0] << " " << sizes[1];
}

TEST(CliOutput, InfoEstimatesTheSeriesWithTheReactionColumns) {
  // roundtrip: a space march with both rows prescribed, so space_series.csv has twelve reaction
  // columns after the twelve of every space series (libfield/io/series_columns.hpp).
  const TempFolder dir;
  const fs::path roundtrip = copy_case(dir, "roundtrip");
  const CommandResult info = run_field("info '" + roundtrip.string() + "'");
  ASSERT_EQ(info.code, 0) << info.output;
  const CommandResult r =
      run_field("reconstruct '" + roundtrip.string() + "' --out rt --quiet", dir.path());
  ASSERT_EQ(r.code, 0) << r.output;
  expect_within(estimate(info.output, "series"), bytes_under(dir / "rt" / "space_series.csv"),
                "space series");
}

TEST(CliOutput, AutoVtkStrideBoundsTheFramesAndAnExplicitOneWins) {
  const TempFolder dir;
  const fs::path cg = copy_case(dir, "cantilever_gravity");  // J = 2000, A = 10
  CommandResult r = run_field("simulate '" + cg.string() + "' --out auto --quiet", dir.path());
  ASSERT_EQ(r.code, 0) << r.output;
  // Every 5th row (ceil(2000 / 400)): 401 frames, chosen and printed; field.csv and the series
  // have every row.
  EXPECT_NE(r.output.find("VTK files every 5 rows (vtk_stride = \"auto\"): 401 frames of rows "
                          "0..2000"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(files_in(dir / "auto" / "frames"), 401);
  EXPECT_EQ(dataset_lines(dir / "auto" / "beam.pvd"), 401);
  EXPECT_TRUE(fs::exists(dir / "auto" / "frames" / "beam_000005.vtp"));
  EXPECT_FALSE(fs::exists(dir / "auto" / "frames" / "beam_000004.vtp"));
  EXPECT_NE(read_text(dir / "auto" / "spacetime.vtu").find("NumberOfPoints=\"4411\""),
            std::string::npos);  // 401 rows of 11 nodes
  EXPECT_EQ(csv_rows(dir / "auto" / "field.csv"), 2001 * 11);
  EXPECT_EQ(csv_rows(dir / "auto" / "time_series.csv"), 2000);
  EXPECT_EQ(csv_rows(dir / "auto" / "tip.csv"), 2001);
  EXPECT_NE(read_text(dir / "auto" / "run.toml").find("vtk_stride = \"auto\""), std::string::npos);

  // An explicit stride wins: rows 0, 300, ..., 1800 and 2000.
  ASSERT_TRUE(edit(cg, "stride = 1", "stride = 1\nvtk_stride = 300"));
  r = run_field("simulate '" + cg.string() + "' --out given --quiet", dir.path());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("VTK files every 300 rows (vtk_stride = 300): 8 frames"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(files_in(dir / "given" / "frames"), 8);
  EXPECT_TRUE(fs::exists(dir / "given" / "frames" / "beam_002000.vtp"));
  EXPECT_EQ(csv_rows(dir / "given" / "field.csv"), 2001 * 11);
  EXPECT_NE(read_text(dir / "given" / "run.toml").find("vtk_stride = 300"), std::string::npos);

  // Anything else is an invalid case, named with its file, line and key.
  ASSERT_TRUE(edit(cg, "vtk_stride = 300", "vtk_stride = \"fast\""));
  r = run_field("info '" + cg.string() + "'", dir.path());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("case.toml:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("vtk_stride"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"auto\""), std::string::npos) << r.output;
  ASSERT_TRUE(edit(cg, "vtk_stride = \"fast\"", "vtk_stride = 0"));
  r = run_field("info '" + cg.string() + "'", dir.path());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("vtk_stride = 0"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace field::test

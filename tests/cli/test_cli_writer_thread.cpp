// The outputs on threads of their own (io/writer_thread.hpp, apps/row_gate.hpp; docs/performance.md
// "Whole runs" and "Series diagnostics"): the run folder holds the same bytes as with
// FIELD_WRITER_THREAD=0 (every output on the march's thread), summary.json too but its wall time,
// for one and two march threads, for a completed run, a failing run and a run stopped by a
// non-finite energy; a write error on the writer thread ends the run as it does on the march's
// thread (exit 5, the same message, field.csv.part a prefix of the complete file). Interrupts:
// test_cli_interrupt.cpp (the output threads are on by default there).
#include <gtest/gtest.h>

#include <sstream>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

/// Runs `field simulate` of `file` into `out` with the writer thread on or off; the shell line
/// can start with settings (`ulimit`).
CommandResult simulate(const fs::path& file, const fs::path& out, bool writer_thread, int threads,
                       const std::string& shell = "") {
  return run_command(shell + "FIELD_WRITER_THREAD=" + (writer_thread ? "1" : "0") + " '" +
                     FIELD_BINARY + "' simulate -q --threads " + std::to_string(threads) +
                     " --out '" + out.string() + "' '" + file.string() + "' 2>&1");
}

/// summary.json without its wall time (the line "wall_time_s").
std::string summary_but_wall_time(const fs::path& file) {
  std::istringstream in(read_text(file));
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("\"wall_time_s\"") == std::string::npos) out += line + "\n";
  return out;
}

/// Every file of the run folder byte for byte; summary.json but its wall time.
void expect_same_files(const fs::path& a, const fs::path& b) {
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(a)) {
    if (!e.is_regular_file()) continue;
    const fs::path other = b / fs::relative(e.path(), a);
    ASSERT_TRUE(fs::exists(other)) << other;
    if (e.path().filename() == "summary.json")
      EXPECT_EQ(summary_but_wall_time(e.path()), summary_but_wall_time(other));
    else
      EXPECT_TRUE(read_text(e.path()) == read_text(other)) << e.path() << " differs from " << other;
    ++files;
  }
  EXPECT_GE(files, 4);
}

void expect_same_runs(const std::string& name,
                      const std::vector<std::pair<std::string, std::string>>& edits, int code,
                      int min_rows = 12) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, name);
  for (const auto& [from, to] : edits) ASSERT_TRUE(edit(file, from, to));
  for (int threads : {1, 2}) {
    const fs::path on = tmp / ("on" + std::to_string(threads));
    const fs::path off = tmp / ("off" + std::to_string(threads));
    const CommandResult r_on = simulate(file, on, true, threads);
    const CommandResult r_off = simulate(file, off, false, threads);
    EXPECT_EQ(r_on.code, code) << r_on.output;
    EXPECT_EQ(r_off.code, code) << r_off.output;
    EXPECT_GE(csv_rows(on / "field.csv"), min_rows);
    expect_same_files(on, off);
    expect_same_files(off, on);
  }
}

TEST(CliWriterThread, SameBytesAsOnTheMarchThread) {
  // free_flight: 401 rows of 11 nodes, three batches of the writer thread.
  expect_same_runs("free_flight", {}, 0);
  expect_same_runs("cantilever_gravity", {}, 0);
  // The planar beam and the cable run the same path (io/time_case.hpp) on SE(2) rows embedded in
  // SE(3) and on points of R^3; every row written (the cable: 161 rows of 33 nodes, three batches).
  expect_same_runs("planar_cantilever", {{"J = 1000", "J = 200"}, {"stride = 10", "stride = 1"}},
                   0);
  expect_same_runs("hanging_cable", {{"J = 640", "J = 160"}, {"stride = 10", "stride = 1"}}, 0);
}

TEST(CliWriterThread, SameBytesOfAFailingRun) {
  // dt = 0.03 s: Newton fails after row 3 (exit 3), field.csv closed as a valid prefix.
  expect_same_runs("free_flight", {{"dt = 0.005", "dt = 0.03"}}, 3);
}

TEST(CliWriterThread, SameBytesOfARunStoppedByANonFiniteEnergy) {
  // CliFailures.NonFiniteEnergyStopsTheRun's case: the energy of row 0 overflows. Behind the
  // march the diagnostics find it while the march has gone on (and fails at row 2 by itself);
  // the files, the outcome and the counts of summary.json are those of the march that stops
  // after row 1 (apps/row_gate.hpp).
  expect_same_runs("rigid_spin",
                   {{"E = 1.0e5", "E = 1.0e300"},
                    {"rho = 1000.0", "rho = 1.0e300"},
                    {"xi = [0.0, 0.0, 3.0, 0.0, 0.0, 0.3]", "xi = [0.0, 0.0, 0.0, 0.0, 0.0, 1e6]"}},
                   3, 2 * 7);
}

TEST(CliWriterThread, WriteErrorEndsTheRunAsOnTheMarchThread) {
  // A file size limit of 200 KiB (`ulimit -f` counts 512-byte blocks in sh; SIGXFSZ ignored, so
  // write(2) fails with EFBIG): field.csv (about 600 KB) cannot be written whole.
  // No VTK files: spacetime.vtu (770 KB) would reach the limit first when the march runs ahead
  // of a writer thread that gets no core (the error is then about spacetime.vtu; still exit 5).
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "[output]", "[output]\nvtk = false"));
  const fs::path full = tmp / "full";
  ASSERT_EQ(simulate(file, full, false, 1).code, 0);
  const std::string complete = read_text(full / "field.csv");
  ASSERT_GT(complete.size(), 300000u);
  for (bool writer_thread : {true, false}) {
    const fs::path out = tmp / (writer_thread ? "on" : "off");
    const CommandResult r = simulate(file, out, writer_thread, 1, "trap '' XFSZ; ulimit -f 400; ");
    EXPECT_EQ(r.code, 5) << r.output;
    EXPECT_NE(r.output.find("field: I/O error: cannot write rows "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("field.csv.part': File too large; check the free space"),
              std::string::npos)
        << r.output;
    EXPECT_FALSE(fs::exists(out / "field.csv"));
    const std::string part = read_text(out / "field.csv.part");
    EXPECT_EQ(part.size(), 400u * 512u);
    EXPECT_EQ(part, complete.substr(0, part.size()));  // what was written is the file's prefix
    EXPECT_FALSE(fs::exists(out / "summary.json"));
  }
}

}  // namespace
}  // namespace field::test

// `field check` on runs that round-off makes hard (far from the origin, a fine space march) and
// on runs that did not finish (docs/cli.md, `field check DIR`): a killed run's field.csv.part cut
// inside a line or at a row's end, a run interrupted by SIGINT (field.csv complete, summary.json
// "status": "interrupted"), a folder that is not a run folder, a run written with csv = false and
// a folder whose field.csv or summary.json is a device or a fifo.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

bool contains(const CommandResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

/// The lines of a text file, each with its line end.
std::vector<std::string> lines_of(const fs::path& path) {
  const std::string text = read_text(path);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const size_t stop = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, stop - start));
    start = stop;
  }
  return lines;
}

/// The first `count` lines of `lines`, then `cut` characters of the next one.
std::string prefix(const std::vector<std::string>& lines, size_t count, size_t cut = 0) {
  std::string text;
  for (size_t k = 0; k < count; ++k) text += lines[k];
  if (cut > 0) text += lines[count].substr(0, cut);
  return text;
}

/// Adds `delta` to column `column` (0 = j) of data line `line` (1 = the first node).
void tamper(const fs::path& path, size_t line, int column, double delta) {
  std::vector<std::string> lines = lines_of(path);
  std::string& l = lines[line];
  size_t start = 0;
  for (int c = 0; c < column; ++c) start = l.find(',', start) + 1;
  const size_t end = l.find_first_of(",\n", start);
  char value[64];
  std::snprintf(value, sizeof value, "%.17g", std::stod(l.substr(start, end - start)) + delta);
  l.replace(start, end - start, value);
  write_text(path, prefix(lines, lines.size()));
}

/// free_flight with J rows and `extra` appended to its [output] table, simulated into `out`.
fs::path free_flight_run(const TempFolder& tmp, int J, const std::string& extra = "") {
  const fs::path file = copy_case(tmp, "free_flight");
  EXPECT_TRUE(edit(file, "J = 400 ", "J = " + std::to_string(J) + " "));
  EXPECT_TRUE(edit(file, "stride = 1 ", "vtk = false\n" + extra + "\nstride = 1 "));
  const fs::path out = tmp.path() / "run";
  const CommandResult run =
      run_field("simulate " + file.string() + " --out " + out.string() + " -q");
  EXPECT_EQ(run.code, 0) << run.output;
  return out;
}

TEST(CliCheck, FreeFlightOneKilometreAwayPassesAndATamperedNodeFails) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "origin = [0.0, 0.0, 0.0]", "origin = [1000.0, 0.0, 0.0]"));
  ASSERT_TRUE(edit(file, "stride = 1 ", "vtk = false\nstride = 1 "));
  const fs::path out = tmp.path() / "far";
  ASSERT_EQ(run_field("simulate " + file.string() + " --out " + out.string() + " -q").code, 0);
  const CommandResult good = run_field("check " + out.string());
  EXPECT_EQ(good.code, 0) << good.output;
  EXPECT_TRUE(contains(good, "check passed")) << good.output;

  tamper(out / "field.csv", 1 + 200 * 11 + 5, 4, 1e-7);  // x of node (200, 5) by 1e-6 ds
  const CommandResult bad = run_field("check " + out.string());
  EXPECT_EQ(bad.code, 3) << bad.output;
  EXPECT_TRUE(contains(bad, "node j = 200, a = 5")) << bad.output;
}

TEST(CliCheck, SpaceMarchWithA100AndDs001PassesAndATamperedNodeFails) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  ASSERT_TRUE(edit(file, "A = 10\n", "A = 100\n"));
  ASSERT_TRUE(edit(file, "ds = 0.1 ", "ds = 0.01 "));
  write_text(file, read_text(file) + "\n[output]\nvtk = false\n");
  const fs::path out = tmp.path() / "fine";
  const CommandResult run =
      run_field("reconstruct " + file.string() + " --out " + out.string() + " -q");
  ASSERT_EQ(run.code, 0) << run.output;
  const CommandResult good = run_field("check " + out.string());
  EXPECT_EQ(good.code, 0) << good.output;

  tamper(out / "field.csv", 1 + 50 * 301 + 150, 5, 1e-8);  // y of node (150, 50) by 1e-6 ds
  const CommandResult bad = run_field("check " + out.string());
  EXPECT_EQ(bad.code, 3) << bad.output;
  EXPECT_TRUE(contains(bad, "node j = 150, a = 50")) << bad.output;
}

TEST(CliCheck, KilledRunCutInsideALineChecksItsCompleteRows) {
  TempFolder tmp;
  const fs::path out = free_flight_run(tmp, 40);
  const std::vector<std::string> lines = lines_of(out / "field.csv");
  fs::remove(out / "field.csv");
  fs::remove(out / "summary.json");
  // Rows 0..20 complete, then 3 nodes of row 21 and 17 characters of the fourth.
  write_text(out / "field.csv.part", prefix(lines, 1 + 21 * 11 + 3, 17));
  const CommandResult r = run_field("check " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(contains(r, "rows 0..20, columns 0..10")) << r.output;
  EXPECT_TRUE(contains(r,
                       "this run was interrupted at row 20 or later (field.csv.part, no "
                       "field.csv, no summary.json); its cut last line was ignored; the "
                       "incomplete row 21 (3 of 11 nodes) was ignored; rows 0..20 are "
                       "complete and were checked"))
      << r.output;
  EXPECT_TRUE(contains(r, "check passed")) << r.output;

  // A cut that leaves a number that still parses: the line is dropped all the same.
  write_text(out / "field.csv.part", prefix(lines, 1 + 21 * 11, lines[1 + 21 * 11].size() - 3));
  const CommandResult number = run_field("check " + out.string());
  EXPECT_EQ(number.code, 0) << number.output;
  EXPECT_TRUE(contains(number, "its cut last line was ignored; rows 0..20")) << number.output;

  // The complete rows are checked, not trusted: a tampered node still fails.
  tamper(out / "field.csv.part", 1 + 10 * 11 + 4, 4, 1e-8);
  const CommandResult bad = run_field("check " + out.string());
  EXPECT_EQ(bad.code, 3) << bad.output;
  EXPECT_TRUE(contains(bad, "node j = 10, a = 4")) << bad.output;
}

TEST(CliCheck, KilledRunWithCompleteRowsOnly) {
  TempFolder tmp;
  const fs::path out = free_flight_run(tmp, 40);
  const std::vector<std::string> lines = lines_of(out / "field.csv");
  fs::remove(out / "field.csv");
  fs::remove(out / "summary.json");
  write_text(out / "field.csv.part", prefix(lines, 1 + 31 * 11));  // rows 0..30
  const CommandResult r = run_field("check " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(contains(r,
                       "this run was interrupted at row 30 or later (field.csv.part, no "
                       "field.csv, no summary.json); rows 0..30 are complete and were checked"))
      << r.output;

  // Too few rows to hold an equation; a header cut short; no row at all.
  write_text(out / "field.csv.part", prefix(lines, 1 + 2 * 11 + 5));
  const CommandResult two = run_field("check " + out.string());
  EXPECT_EQ(two.code, 4) << two.output;
  EXPECT_TRUE(contains(two, "rows 0..1 only")) << two.output;
  write_text(out / "field.csv.part", "j,a,t,s,x");
  const CommandResult header = run_field("check " + out.string());
  EXPECT_EQ(header.code, 4) << header.output;
  EXPECT_TRUE(contains(header, "field.csv.part holds no complete line")) << header.output;
  write_text(out / "field.csv.part", prefix(lines, 1));
  const CommandResult none = run_field("check " + out.string());
  EXPECT_EQ(none.code, 4) << none.output;
  EXPECT_TRUE(contains(none, "holds no complete row")) << none.output;
  fs::remove(out / "field.csv.part");
  const CommandResult missing = run_field("check " + out.string());
  EXPECT_EQ(missing.code, 5) << missing.output;
  EXPECT_TRUE(contains(missing, "field.csv")) << missing.output;
}

TEST(CliCheck, RunInterruptedBySigintIsCheckedAndSaysSo) {
  // What SIGINT leaves (docs/output-format.md): field.csv closed after the last complete row and
  // summary.json with "status": "interrupted".
  TempFolder tmp;
  const fs::path out = free_flight_run(tmp, 40);
  const std::vector<std::string> lines = lines_of(out / "field.csv");
  write_text(out / "field.csv", prefix(lines, 1 + 26 * 11));  // rows 0..25
  std::string summary = read_text(out / "summary.json");
  const std::string from = "\"status\": \"completed\"";
  ASSERT_NE(summary.find(from), std::string::npos) << summary;
  summary.replace(summary.find(from), from.size(), "\"status\": \"interrupted\"");
  write_text(out / "summary.json", summary);
  const CommandResult r = run_field("check " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(contains(r,
                       "this run was interrupted at row 25 (summary.json: status "
                       "\"interrupted\"); rows 0..25 are complete and were checked"))
      << r.output;
}

TEST(CliCheck, KilledSpaceMarchChecksItsCompleteColumns) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  write_text(file, read_text(file) + "\n[output]\nvtk = false\n");
  const fs::path out = tmp.path() / "run";
  ASSERT_EQ(run_field("reconstruct " + file.string() + " --out " + out.string() + " -q").code, 0);
  const std::vector<std::string> lines = lines_of(out / "field.csv");
  fs::remove(out / "field.csv");
  fs::remove(out / "summary.json");
  write_text(out / "field.csv.part", prefix(lines, 1 + 7 * 301 + 100, 30));  // columns 0..6
  const CommandResult r = run_field("check " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(contains(r, "rows 0..300, columns 0..6")) << r.output;
  EXPECT_TRUE(contains(r,
                       "the incomplete column 7 (100 of 301 nodes) was ignored; columns 0..6 "
                       "are complete and were checked"))
      << r.output;
}

TEST(CliCheck, NotARunFolderOrNoFieldCsvSaysWhy) {
  TempFolder tmp;
  const fs::path empty = tmp.path() / "empty";
  fs::create_directories(empty);
  const CommandResult r = run_field("check " + empty.string());
  EXPECT_EQ(r.code, 5) << r.output;
  EXPECT_TRUE(contains(r, "is not a run folder: it has no run.toml")) << r.output;
  write_text(tmp.path() / "file.txt", "x");
  const CommandResult file = run_field("check " + (tmp.path() / "file.txt").string());
  EXPECT_EQ(file.code, 5) << file.output;
  EXPECT_TRUE(contains(file, "is not a folder")) << file.output;
  const CommandResult nowhere = run_field("check " + (tmp.path() / "nowhere").string());
  EXPECT_EQ(nowhere.code, 5) << nowhere.output;
  EXPECT_TRUE(contains(nowhere, "does not exist")) << nowhere.output;

  const fs::path out = free_flight_run(tmp, 10, "csv = false");
  ASSERT_FALSE(fs::exists(out / "field.csv"));
  const CommandResult no_csv = run_field("check " + out.string());
  EXPECT_EQ(no_csv.code, 5) << no_csv.output;
  EXPECT_TRUE(contains(no_csv, "has [output] csv = false: the run wrote no field.csv"))
      << no_csv.output;
}

// A run folder's files read back must be regular files: field.csv as /dev/zero, and a fifo as
// field.csv.part or summary.json, were read without end (the check hung).
TEST(CliCheck, ADeviceOrFifoInARunFolderIsNotReadWithoutEnd) {
  TempFolder tmp;
  const fs::path out = free_flight_run(tmp, 4);
  const auto refused = [&](const std::string& says) {
    const CommandResult r = run_field("check " + out.string());
    EXPECT_EQ(r.code, 5) << r.output;
    EXPECT_TRUE(contains(r, says)) << r.output;
  };
  fs::rename(out / "summary.json", tmp.path() / "summary.json");
  ASSERT_EQ(::mkfifo((out / "summary.json").c_str(), 0600), 0);
  refused("cannot read summary file '" + (out / "summary.json").string() +
          "': it is a fifo (named pipe), not a regular file");
  fs::remove(out / "summary.json");
  fs::remove(out / "field.csv");
  fs::create_symlink("/dev/zero", out / "field.csv");
  refused("cannot read field file '" + (out / "field.csv").string() +
          "': it is a character device, not a regular file");
  fs::remove(out / "field.csv");
  ASSERT_EQ(::mkfifo((out / "field.csv.part").c_str(), 0600), 0);
  refused("field.csv.part': it is a fifo (named pipe), not a regular file");
}

// A field.csv with rows beyond the run's J (another, longer run's) was checked as far as it went,
// exit 0; it is refused naming the line and both numbers.
TEST(CliCheck, AFieldCsvOfALongerRunIsRefused) {
  TempFolder tmp;
  const fs::path out = free_flight_run(tmp, 6);
  ASSERT_TRUE(edit(out / "run.toml", "J = 6", "J = 4"));
  const CommandResult r = run_field("check " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(contains(r, (out / "field.csv").string() +
                              " line 68: row 6, beyond the run's last row 4 (J of run.toml): the "
                              "file belongs to another run"))
      << r.output;
}

TEST(CliCheck, StridedRunSaysWhyItCannotBeChecked) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "J = 400 ", "J = 10 "));
  ASSERT_TRUE(edit(file, "stride = 1 ", "vtk = false\nstride = 2 "));
  const fs::path out = tmp.path() / "run";
  ASSERT_EQ(run_field("simulate " + file.string() + " --out " + out.string() + " -q").code, 0);
  const CommandResult r = run_field("check " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(contains(
      r, "[output] stride = 2: field.csv holds one row in 2, and field check needs every row"))
      << r.output;
}

}  // namespace
}  // namespace field::test

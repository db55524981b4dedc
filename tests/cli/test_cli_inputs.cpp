// The `field` program on hostile input files (issue 15, classes 1, 2, 4, 8; docs/cli.md): every
// one ends with its documented exit code and a message naming the file, the line and the key,
// without a crash, a hang or a run folder.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

bool has(const CommandResult& r, const std::string& part) {
  return r.output.find(part) != std::string::npos;
}

/// `field simulate` of `file` into tmp/run; the run folder must not appear.
CommandResult simulate(const TempFolder& tmp, const fs::path& file) {
  const CommandResult r =
      run_field("simulate " + file.string() + " --out " + (tmp / "run").string());
  EXPECT_FALSE(fs::exists(tmp / "run")) << r.output;
  return r;
}

TEST(CliInputs, CaseFilesThatCrashedTheTomlLibraryAreInvalidInput) {
  TempFolder tmp;
  const fs::path file = tmp / "case.toml";
  std::string deep = "format = 1\n[a";
  for (int i = 0; i < 50000; ++i) deep += ".a";
  write_text(file, deep + "]\n");  // was SIGSEGV (stack overflow inside toml++)
  CommandResult r = simulate(tmp, file);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, file.string() + ":2:129: a key or table header with more than 64 dotted "
                                     "parts"))
      << r.output;

  write_text(file, "\xC3\xA9");  // one non-ASCII character
  r = simulate(tmp, file);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, file.string() + ":1:1: a non-ASCII character")) << r.output;

  write_text(file, std::string("format = 1\n[be\0am]\n", 19));  // a NUL in a header
  r = run_field("info " + file.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, file.string() + ":2:4: control character U+0000")) << r.output;
}

TEST(CliInputs, SolverSettingsThatNeverFinishAreRejected) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "rigid_spin");
  write_text(file,
             read_text(file) + "\n[solver]\ntolerance = 1e-300\nmax_iterations = 2000000000\n");
  const CommandResult r = simulate(tmp, file);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, "[solver] tolerance = 1e-300: out of range: must be between 1e-15 and 1e-06"))
      << r.output;
}

TEST(CliInputs, DevicesFifosAndSymlinkLoopsAreNotRead) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  // /dev/zero as the velocity file was read without end; now an I/O error naming the case key.
  ASSERT_TRUE(edit(file, "velocity_file = \"velocities.csv\"", "velocity_file = \"/dev/zero\""));
  CommandResult r = simulate(tmp, file);
  EXPECT_EQ(r.code, 5) << r.output;
  EXPECT_TRUE(has(r, "'/dev/zero': it is a character device, not a regular file")) << r.output;
  EXPECT_TRUE(has(r, "(the file of " + file.string() + ":35: [initial] velocity_file)"))
      << r.output;

  const fs::path space = copy_case(tmp, "space_evolution");
  const fs::path fifo = tmp / "fifo.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = run_field("reconstruct " + space.string() + " --tip " + fifo.string() + " --out " +
                (tmp / "sp").string());
  EXPECT_EQ(r.code, 5) << r.output;
  EXPECT_TRUE(has(r, "it is a fifo (named pipe), not a regular file")) << r.output;
  EXPECT_FALSE(fs::exists(tmp / "sp"));

  fs::create_symlink(tmp / "b.toml", tmp / "a.toml");
  fs::create_symlink(tmp / "a.toml", tmp / "b.toml");
  r = run_field("info " + (tmp / "a.toml").string());
  EXPECT_EQ(r.code, 5) << r.output;
  EXPECT_TRUE(has(r, "Too many levels of symbolic links")) << r.output;
}

TEST(CliInputs, MessagesAboutNumbersSayWhatIsWrong) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  const std::string original = read_text(file);
  ASSERT_TRUE(edit(file, "format = 1", "format = 1.0"));
  CommandResult r = run_field("info " + file.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, "format = 1.0: expected an integer")) << r.output;

  write_text(file, original);
  ASSERT_TRUE(edit(file, "dt = 0.005", "dt = 1e-9"));
  ASSERT_TRUE(edit(file, "J = 400", "T = 10"));
  r = simulate(tmp, file);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r,
                  "[grid] T = 10: with dt = 1e-09 gives J = T/dt = 10000000000 rows, more "
                  "than the limit J <= 2000000000"))
      << r.output;

  write_text(file, original);
  ASSERT_TRUE(edit(file, "side = 0.1", "side = 1e-200"));
  r = simulate(tmp, file);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, file.string() + ":15: [beam] side = 1e-200: beam section: area")) << r.output;
}

TEST(CliInputs, ByteOrderMarkAndCrlfInADataFileAreAccepted) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "J = 400", "J = 4"));
  const fs::path csv = file.parent_path() / "velocities.csv";
  std::string crlf = "\xEF\xBB\xBF";
  for (const char c : read_text(csv)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  write_text(csv, crlf);
  const CommandResult r =
      run_field("simulate " + file.string() + " --out " + (tmp / "run").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(tmp / "run" / "summary.json"));
}

}  // namespace
}  // namespace field::test

// Continuing a run from its checkpoint (io/checkpoint.hpp; [output] checkpoint = true,
// [initial] checkpoint = "..."): run J rows; run J1 < J rows with a checkpoint, then continue it to
// J; the continued run's outputs equal the uninterrupted run's byte for byte from row J1 - 1 on
// (field.csv, field_rates.csv, tip.csv, the frames) and from row J1 on (time_series.csv, whose
// row J1 - 1 the first part reported), its summary's figures too; on the free flight and on the
// clamped cantilever under gravity (reactions, work W_j and the energy balance carried), and damped
// (D_j carried); the planar beam's too (its march embedded in SE(3)). A checkpoint that does not
// fit the case, or of the other theory, is refused naming both files.
#include <gtest/gtest.h>

#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

CommandResult simulate(const fs::path& file, const fs::path& out, int threads) {
  return run_field("simulate -q --threads " + std::to_string(threads) + " --out '" + out.string() +
                   "' '" + file.string() + "'");
}

// The case `text` with its [initial] table replaced by `initial` and `J = from` by `J = to`.
std::string with_initial(std::string text, const std::string& initial) {
  const auto begin = text.find("[initial]");
  const auto end = text.find("\n[", begin + 1);
  return text.substr(0, begin) + "[initial]\n" + initial + "\n" + text.substr(end);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The lines of a CSV file from the first whose first field is `j` (the header kept).
std::string from_row(const fs::path& path, int j) {
  std::istringstream in(read_text(path));
  std::string line, out;
  std::getline(in, line);
  out = line + "\n";
  bool on = false;
  while (std::getline(in, line)) {
    on = on || line.rfind(std::to_string(j) + ",", 0) == 0;
    if (on) out += line + "\n";
  }
  return out;
}

// tip.csv has t in its first column: the lines from the `skip`+1-th data line on.
std::string from_line(const fs::path& path, int skip) {
  std::istringstream in(read_text(path));
  std::string line, out;
  std::getline(in, line);
  out = line + "\n";
  for (int k = 0; std::getline(in, line); ++k)
    if (k >= skip) out += line + "\n";
  return out;
}

// Writes the case `text` to dir/NAME.toml and runs it (one thread) into tmp/NAME: whether it
// completed.
bool ran(const TempFolder& tmp, const fs::path& dir, const std::string& name,
         const std::string& text) {
  write_text(dir / (name + ".toml"), text);
  const CommandResult r = simulate(dir / (name + ".toml"), tmp / name, 1);
  EXPECT_EQ(r.code, 0) << r.output;
  return r.code == 0;
}

// The case `text` with J = 20 raised to 40, continued from `checkpoint` (dir/rest.toml, run folder
// tmp/rest): refused with exit 4 before the run folder is made; returns the program's output.
std::string refused_continuation(const TempFolder& tmp, const fs::path& dir,
                                 const std::string& text, const fs::path& checkpoint) {
  const fs::path file = dir / "rest.toml";
  write_text(file, with_initial(replaced(text, "J = 20", "J = 40"),
                                "checkpoint = \"" + checkpoint.string() + "\""));
  const CommandResult r = simulate(file, tmp / "rest", 1);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_FALSE(fs::exists(tmp / "rest"));
  return r.output;
}

// `J_shipped`: the case's J, replaced by J (the whole run); J1: the first part. `output_line` is
// followed by the keys that write field_rates.csv and checkpoint.txt (and replaced by `stride`,
// when given).
void expect_continues(const std::string& name, const std::string& J, const std::string& J1,
                      const std::string& output_line, const std::string& J_shipped = "",
                      const std::string& stride = "") {
  SCOPED_TRACE(name);
  TempFolder tmp;
  const fs::path shipped = copy_case(tmp, name);
  std::string text =
      replaced(read_text(shipped), output_line,
               (stride.empty() ? output_line : stride) + "\nrates = true\ncheckpoint = true");
  if (!J_shipped.empty()) text = replaced(text, "J = " + J_shipped, "J = " + J);
  const fs::path whole = shipped.parent_path() / "whole.toml";
  const fs::path part = shipped.parent_path() / "part.toml";
  const fs::path rest = shipped.parent_path() / "rest.toml";
  write_text(whole, text);
  write_text(part, replaced(text, "J = " + J, "J = " + J1));
  const CommandResult r_whole = simulate(whole, tmp / "whole", 1);
  ASSERT_EQ(r_whole.code, 0) << r_whole.output;
  const CommandResult r_part = simulate(part, tmp / "part", 1);
  ASSERT_EQ(r_part.code, 0) << r_part.output;
  ASSERT_TRUE(fs::exists(tmp / "part" / "checkpoint.txt"));
  write_text(rest, with_initial(text, "checkpoint = \"" +
                                          (tmp / "part" / "checkpoint.txt").string() + "\""));
  const CommandResult r_rest = simulate(rest, tmp / "rest", 2);
  ASSERT_EQ(r_rest.code, 0) << r_rest.output;

  const int j1 = std::stoi(J1);
  // field info says which rows the continued run writes.
  const CommandResult info = run_field("info '" + rest.string() + "'");
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("the run writes rows " + std::to_string(j1 - 1) + ".." + J +
                             " and no spacetime.vtu"),
            std::string::npos)
      << info.output;
  for (const char* f : {"field.csv", "field_rates.csv"}) {
    const std::string got = read_text(tmp / "rest" / f);
    EXPECT_TRUE(got == from_row(tmp / "whole" / f, j1 - 1)) << f;
    EXPECT_EQ(got.substr(got.find('\n') + 1, std::to_string(j1 - 1).size() + 1),
              std::to_string(j1 - 1) + ",")
        << f;
  }
  EXPECT_TRUE(read_text(tmp / "rest" / "time_series.csv") ==
              from_row(tmp / "whole" / "time_series.csv", j1));
  EXPECT_EQ(csv_rows(tmp / "rest" / "time_series.csv"), std::stoi(J) - j1);
  EXPECT_TRUE(read_text(tmp / "rest" / "tip.csv") == from_line(tmp / "whole" / "tip.csv", j1 - 1));
  EXPECT_TRUE(read_text(tmp / "rest" / "checkpoint.txt") ==
              read_text(tmp / "whole" / "checkpoint.txt"));
  for (const char* key : {"status", "E_0", "energy_range_relative", "P_0", "momentum_drift_max",
                          "noether_residual_max", "node_updates", "newton_iterations",
                          "newton_max_iterations", "energy_balance_max", "energy_balance_relative"})
    EXPECT_EQ(summary_value(tmp / "rest", key), summary_value(tmp / "whole", key)) << key;
  // The frames the continued run wrote are the uninterrupted run's.
  int frames = 0;
  for (const auto& e : fs::directory_iterator(tmp / "rest" / "frames")) {
    EXPECT_TRUE(read_text(e.path()) == read_text(tmp / "whole" / "frames" / e.path().filename()))
        << e.path();
    ++frames;
  }
  EXPECT_GE(frames, 2);
  // and the report counts them from row J1 - 1.
  EXPECT_NE(r_rest.output.find(": " + std::to_string(frames) + " frames of rows " +
                               std::to_string(j1 - 1) + ".." + J + "\n"),
            std::string::npos)
      << r_rest.output;
  EXPECT_FALSE(fs::exists(tmp / "rest" / "spacetime.vtu"));  // the whole march only
  // field check needs every row from 0: it names the checkpoint and what to check instead.
  const CommandResult check = run_field("check '" + (tmp / "rest").string() + "'");
  EXPECT_EQ(check.code, 4) << check.output;
  EXPECT_NE(check.output.find("a run continued from a checkpoint holds the rows"),
            std::string::npos)
      << check.output;
}

TEST(CliRestart, AContinuedRunWritesTheUninterruptedRunsBytes) {
  expect_continues("free_flight", "400", "150", "stride = 1 ");
  expect_continues("cantilever_gravity", "2000", "777", "stride = 1");
}

// Mass and stiffness damping (theory §4.7): D_j (the time series' last column) and the damping
// wrench in the balance continue from the checkpoint's terms of row J1-2; a checkpoint cut before
// them is refused.
TEST(CliRestart, ADampedRunContinuesWithItsDissipatedEnergy) {
  expect_continues("damped_cantilever", "300", "117", "stride = 1", "8000");
  TempFolder tmp;
  const fs::path shipped = copy_case(tmp, "damped_cantilever");
  const std::string text = replaced(replaced(read_text(shipped), "stride = 1", "checkpoint = true"),
                                    "J = 8000", "J = 20");
  const fs::path part = shipped.parent_path() / "part.toml";
  write_text(part, text);
  ASSERT_EQ(simulate(part, tmp / "part", 1).code, 0);
  std::string cut = read_text(tmp / "part" / "checkpoint.txt");
  ASSERT_NE(cut.find("\ndD2 9 "), std::string::npos);
  ASSERT_NE(cut.find("\nnumber dissipated "), std::string::npos);
  cut = cut.substr(0, cut.find("\ndxi 0 ") + 1);
  write_text(tmp / "cut.txt", cut);
  const fs::path rest = shipped.parent_path() / "rest.toml";
  write_text(rest, with_initial(replaced(text, "J = 20", "J = 40"),
                                "checkpoint = \"" + (tmp / "cut.txt").string() + "\""));
  const CommandResult r = simulate(rest, tmp / "rest", 1);
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("has no damping terms"), std::string::npos) << r.output;
}

// The planar beam (theory §1.7, SE(2)): its checkpoint holds the march embedded in SE(3)
// (march::embed_planar), from which it continues bit for bit.
TEST(CliRestart, APlanarRunContinuesFromItsCheckpoint) {
  expect_continues("planar_cantilever", "400", "157", "stride = 10", "1000", "stride = 1");
}

// A planar beam's checkpoint given to a beam on SE(3), and the reverse: refused naming both files
// and both theories, before the run folder is made. planar_cantilever without its theory line is
// the same beam on SE(3) in the plane (the same grid and the same case keys otherwise).
TEST(CliRestart, ACheckpointOfTheOtherTheoryIsRefused) {
  TempFolder tmp;
  const fs::path shipped = copy_case(tmp, "planar_cantilever");
  const std::string planar =
      replaced(replaced(read_text(shipped), "stride = 10", "stride = 10\ncheckpoint = true"),
               "J = 1000", "J = 20");
  const std::string beam = replaced(planar, "theory = \"planar_beam\"", "");
  const fs::path dir = shipped.parent_path();
  ASSERT_TRUE(ran(tmp, dir, "planar", planar));
  ASSERT_TRUE(ran(tmp, dir, "beam", beam));
  const auto refused = [&](const std::string& text, const fs::path& checkpoint,
                           const std::string& holds, const std::string& is) {
    SCOPED_TRACE(holds);
    const std::string out = refused_continuation(tmp, dir, text, checkpoint);
    for (const std::string& s : {(dir / "rest.toml").string(), checkpoint.string(),
                                 "holds the march of " + holds, "this case is " + is})
      EXPECT_NE(out.find(s), std::string::npos) << s << "\n" << out;
  };
  const std::string planar_beam = "a planar beam (theory = \"planar_beam\", SE(2))";
  const std::string se3_beam = "a beam on SE(3) (theory = \"beam\")";
  refused(beam, tmp / "planar" / "checkpoint.txt", planar_beam, se3_beam);
  refused(planar, tmp / "beam" / "checkpoint.txt", se3_beam, planar_beam);
  // A planar checkpoint whose rows left the plane (edited by hand): refused too.
  std::string moved = read_text(tmp / "planar" / "checkpoint.txt");
  const auto at = moved.find("\ncur 3 ");
  ASSERT_NE(at, std::string::npos);
  const auto end = moved.find('\n', at + 1);
  const auto last = moved.rfind(' ', end);  // z of node 3, row 20
  moved.replace(last + 1, end - last - 1, "0x1p-30");
  write_text(tmp / "moved.txt", moved);
  const std::string out = refused_continuation(tmp, dir, planar, tmp / "moved.txt");
  EXPECT_NE(out.find("moved.txt': its rows and velocities are not a planar beam's"),
            std::string::npos)
      << out;
}

// free_flight with J = 20 and [output] checkpoint = true, run into tmp/part: its case text; `dir`
// is the case's folder.
std::string free_flight_part(const TempFolder& tmp, fs::path& dir) {
  const fs::path shipped = copy_case(tmp, "free_flight");
  dir = shipped.parent_path();
  const std::string text =
      replaced(replaced(read_text(shipped), "stride = 1 ", "stride = 1\ncheckpoint = true\n#"),
               "J = 400", "J = 20");
  EXPECT_TRUE(ran(tmp, dir, "part", text));
  return text;
}

TEST(CliRestart, ACheckpointThatDoesNotFitTheCaseIsRefused) {
  TempFolder tmp;
  fs::path dir;
  const std::string text = free_flight_part(tmp, dir);
  const std::string checkpoint = (tmp / "part" / "checkpoint.txt").string();
  const std::string rest = with_initial(text, "checkpoint = \"" + checkpoint + "\"");
  const fs::path file = dir / "rest.toml";
  const auto refused = [&](const std::string& case_text, const std::string& says) {
    SCOPED_TRACE(says);
    write_text(file, case_text);
    const CommandResult r = simulate(file, tmp / "rest", 1);
    EXPECT_EQ(r.code, 4) << r.output;
    for (const std::string& s : {file.string(), checkpoint, says})
      EXPECT_NE(r.output.find(s), std::string::npos) << s << "\n" << r.output;
    EXPECT_FALSE(fs::exists(tmp / "rest"));
  };
  refused(rest, "raise J above 20");
  refused(replaced(replaced(rest, "J = 20", "J = 40"), "dt = 0.005", "dt = 0.004"),
          "was written on a grid with A = 10");
  refused(replaced(replaced(rest, "J = 20", "J = 40"), "E = 1.0e5", "E = 2.0e5"),
          "was written by a case with other beam");
  // The other [initial] keys have no meaning with a checkpoint.
  write_text(file, with_initial(text, "checkpoint = \"" + checkpoint + "\"\nvelocity = \"zero\""));
  const CommandResult both = simulate(file, tmp / "rest", 1);
  EXPECT_EQ(both.code, 4) << both.output;
  EXPECT_NE(both.output.find("[initial] velocity = \"zero\": the checkpoint gives"),
            std::string::npos)
      << both.output;
  // A cut file: the line that is missing.
  std::string cut = read_text(checkpoint);
  cut = cut.substr(0, cut.find("\nback2 3 ") + 1);
  write_text(tmp / "cut.txt", cut);
  const std::string out = refused_continuation(tmp, dir, text, tmp / "cut.txt");
  EXPECT_NE(out.find("cut.txt: the line 'back2 3' is missing (A = 10: nodes 0..10)"),
            std::string::npos)
      << out;
}

// Edited checkpoints are refused before the run folder is made (a missing number made a folder
// with .part files, exit 4; a rotation entry or a far position of row j-1 ran, exit 0 or 3), and
// a device in its place is not read without end (it hung).
TEST(CliRestart, AnEditedCheckpointIsRefusedBeforeTheRunFolder) {
  TempFolder tmp;
  fs::path dir;
  const std::string text = free_flight_part(tmp, dir);
  const std::string good = read_text(tmp / "part" / "checkpoint.txt");
  // The line of `key` with its word `word` (0: the key) replaced by `to`.
  const auto edited = [&](const std::string& key, int word, const std::string& to) {
    std::string s = good;
    const auto begin = s.find("\n" + key + " ") + 1, end = s.find('\n', begin);
    std::istringstream words(s.substr(begin, end - begin));
    std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
    std::string line;
    if (to != "-")
      for (std::size_t i = 0; i < w.size(); ++i)
        line += (i ? " " : "") + (static_cast<int>(i) == word ? to : w[i]);
    s.replace(begin, end - begin + 1, to == "-" ? "" : line + "\n");
    write_text(tmp / "edited.txt", s);
    return refused_continuation(tmp, dir, text, tmp / "edited.txt");
  };
  const auto expect_says = [](const std::string& out, const std::string& says) {
    EXPECT_NE(out.find(says), std::string::npos) << says << "\n" << out;
  };
  expect_says(edited("number stats_E_min", 0, "-"), "edited.txt: no line 'number stats_E_min'");
  expect_says(edited("prev 3", 2, "0x1p+3"),
              "edited.txt: the line 'prev 3' holds no rotation R (max |R^T R - I| = ");
  expect_says(edited("prev 3", 13, "0x1p+1000"),
              "[initial] checkpoint's row before its last, node a = 3 is at |r| = 1.07151e+301 m");
  write_text(dir / "rest.toml",
             with_initial(replaced(text, "J = 20", "J = 40"), "checkpoint = \"/dev/zero\""));
  const CommandResult device = simulate(dir / "rest.toml", tmp / "rest", 1);
  EXPECT_EQ(device.code, 5) << device.output;
  expect_says(device.output, "'/dev/zero': it is a character device, not a regular file");
  EXPECT_FALSE(fs::exists(tmp / "rest"));
}

}  // namespace
}  // namespace field::test

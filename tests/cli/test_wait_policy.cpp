// The marches wait passively unless the user chose a wait policy (apps/wait_policy.hpp): libgomp
// prints the policy it runs with when OMP_DISPLAY_ENV=verbose (to stderr, at each start of the
// program); the last print is the one the march runs with.
#include <gtest/gtest.h>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

/// `field ARGS` run with the environment changed by `env` (an `env ...` prefix).
CommandResult run_field_with_env(const std::string& env, const std::string& args) {
  return run_command(env + " '" FIELD_BINARY "' " + args + " 2>&1");
}

/// The GOMP_SPINCOUNT of libgomp's last display, running `field ARGS` with the environment `env`
/// (OMP_WAIT_POLICY and GOMP_SPINCOUNT removed first).
std::string spin_count(const std::string& env, const std::string& args) {
  const CommandResult r = run_field_with_env(
      "env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT OMP_DISPLAY_ENV=verbose " + env, args);
  EXPECT_EQ(r.code, 0) << r.output;
  const std::string key = "GOMP_SPINCOUNT = '";
  const auto at = r.output.rfind(key);
  if (at == std::string::npos) return "not displayed: " + r.output;
  return r.output.substr(at + key.size(), r.output.find('\'', at + key.size()) - at - key.size());
}

/// `simulate` of a case without field outputs (a fast run) with A nodes per row (10 steps), on
/// `threads` threads. Rows of A >= march::kParallelMinNodes = 64 nodes run on several
/// threads.
std::string simulate(const TempFolder& tmp, int threads, int A = 80) {
  const std::filesystem::path file =
      tmp.write("case.toml",
                "format = 1\nmarch = \"time\"\n[beam]\nsection = \"square\"\nside = 0.1\nE = 1e5\n"
                "nu = 0.3\nrho = 1000.0\n[grid]\nA = " +
                    std::to_string(A) + "\nL = 1.0\ndt = 0.0005\nJ = 10\n[output]\n" +
                    "csv = false\nvtk = false\ntip = false\n");
  return "simulate '" + file.string() + "' --out '" + (tmp / "run").string() + "' --force -q " +
         "--threads " + std::to_string(threads);
}

TEST(WaitPolicy, MarchesWaitPassivelyByDefault) {
  TempFolder tmp;
  EXPECT_EQ(spin_count("", simulate(tmp, 2)), "0");  // passive: no spinning
}

TEST(WaitPolicy, TheUsersChoiceIsKept) {
  TempFolder tmp;
  EXPECT_EQ(spin_count("GOMP_SPINCOUNT=12345", simulate(tmp, 2)), "12345");
  EXPECT_NE(spin_count("OMP_WAIT_POLICY=active", simulate(tmp, 2)), "0");
}

TEST(WaitPolicy, OneThreadSmallSlabsAndOtherCommandsStartOnce) {
  TempFolder tmp;
  // libgomp's default (a positive spin count): not restarted with the passive policy
  EXPECT_NE(spin_count("", simulate(tmp, 1)), "0");
  EXPECT_NE(spin_count("", simulate(tmp, 2, 10)), "0");  // rows of 10 nodes: one thread
  const std::string info =
      "info '" + std::string(FIELD_SOURCE_DIR) + "/meshes/free_flight/case.toml'";
  EXPECT_NE(spin_count("", info), "0");
}

/// The summary's "threads" of the run left by `simulate`.
std::string summary_threads(const TempFolder& tmp) {
  const std::string text = read_text(tmp / "run" / "summary.json");
  const auto at = text.find("\"threads\": ");
  if (at == std::string::npos) return "no threads in: " + text;
  return text.substr(at + 11, text.find_first_of(",\n}", at + 11) - at - 11);
}

// By default (--threads 0) slabs under apps::kDefaultParallelMinNodes = 2048 nodes run on one
// thread (no restart: libgomp's default stays) and larger ones on OpenMP's default.
TEST(WaitPolicy, TheDefaultIsOneThreadBelow2048NodesPerSlab) {
  TempFolder tmp;
  EXPECT_NE(spin_count("OMP_NUM_THREADS=2", simulate(tmp, 0, 2047)), "0");
  EXPECT_EQ(summary_threads(tmp), "1");
  EXPECT_EQ(spin_count("OMP_NUM_THREADS=2", simulate(tmp, 0, 2048)), "0");  // passive restart
  EXPECT_EQ(summary_threads(tmp), "2");
  EXPECT_EQ(spin_count("OMP_NUM_THREADS=2", simulate(tmp, 2, 100)), "0");  // asked for: two
  EXPECT_EQ(summary_threads(tmp), "2");
}

}  // namespace
}  // namespace field::test

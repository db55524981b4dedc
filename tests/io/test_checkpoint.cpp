// checkpoint.txt (io/checkpoint.hpp): every double reads back with its bits (negative zero,
// subnormals, the largest and smallest normals, values with 17 significant digits); missing,
// repeated and unreadable lines are refused naming the file and line; the case hash ignores what
// a continuation may change and sees what it may not; a planar beam's is marked by its theory line.
#include "libfield/io/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

bool same_bits(double x, double y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

Checkpoint example(int A) {
  const double special[] = {-0.0, 4.9e-324, DBL_MIN, DBL_MAX, 0.1, -1.0 / 3.0, 2.0 / 3.0 * 1e-300};
  int k = 0;
  const auto next = [&] {
    ++k;
    return (k % 2 == 0 ? 1.0 : -1.0) * special[k % 7];
  };
  Checkpoint c;
  c.A = A;
  c.dt = 0.005;
  c.ds = 0.1;
  c.case_hash = 0x0123456789abcdefull;
  c.retraction = lie::RetractionKind::exponential;
  c.march.k = 7;
  for (int a = 0; a <= A; ++a) {
    lie::SE3 g, h;
    for (int i = 0; i < 9; ++i) g.R.data()[i] = next(), h.R.data()[i] = next();
    g.r = Vec3(next(), next(), next());
    h.r = Vec3(next(), next(), next());
    c.march.prev.push_back(g);
    c.march.cur.push_back(h);
    Vec6 x, y, z;
    for (int i = 0; i < 6; ++i) x(i) = next(), y(i) = next(), z(i) = next();
    c.march.y.push_back(x);
    c.march.back1.push_back(y);
    c.march.back2.push_back(z);
  }
  c.numbers = {{"E0", 1.997667319357268}, {"scale_glob", -0.0}};
  return c;
}

TEST(Checkpoint, EveryDoubleReadsBackWithItsBits) {
  const test::TempFolder dir;
  const Checkpoint c = example(3);
  write_checkpoint(dir / "checkpoint.txt", c);
  const Checkpoint r = read_checkpoint(dir / "checkpoint.txt");
  EXPECT_EQ(r.A, 3);
  EXPECT_EQ(r.march.k, 7);
  EXPECT_EQ(r.case_hash, c.case_hash);
  EXPECT_EQ(r.retraction, lie::RetractionKind::exponential);
  EXPECT_TRUE(same_bits(r.dt, c.dt) && same_bits(r.ds, c.ds));
  EXPECT_TRUE(same_bits(r.number("scale_glob"), -0.0));
  EXPECT_TRUE(same_bits(r.number("E0"), 1.997667319357268));
  for (int a = 0; a <= 3; ++a) {
    for (int i = 0; i < 9; ++i) {
      EXPECT_TRUE(same_bits(r.march.prev[a].R.data()[i], c.march.prev[a].R.data()[i]));
      EXPECT_TRUE(same_bits(r.march.cur[a].R.data()[i], c.march.cur[a].R.data()[i]));
    }
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(r.march.cur[a].r(i), c.march.cur[a].r(i)));
    for (int i = 0; i < 6; ++i) {
      EXPECT_TRUE(same_bits(r.march.y[a](i), c.march.y[a](i)));
      EXPECT_TRUE(same_bits(r.march.back1[a](i), c.march.back1[a](i)));
      EXPECT_TRUE(same_bits(r.march.back2[a](i), c.march.back2[a](i)));
    }
  }
  const std::string missing = test::error_message([&] { r.number("work_loads"); });
  EXPECT_TRUE(test::contains(missing, "no line 'number work_loads'")) << missing;
}

// A planar beam's checkpoint (its march embedded in SE(3)) says so in the line "theory
// planar_beam"; the SE(3) beam's has no theory line, as before there was a planar one.
TEST(Checkpoint, APlanarOneIsMarkedByItsTheoryLine) {
  const test::TempFolder dir;
  Checkpoint c = example(2);
  write_checkpoint(dir / "beam.txt", c);
  c.theory = Theory::planar_beam;
  write_checkpoint(dir / "planar.txt", c);
  std::stringstream beam, planar;
  beam << std::ifstream(dir / "beam.txt").rdbuf();
  planar << std::ifstream(dir / "planar.txt").rdbuf();
  EXPECT_FALSE(test::contains(beam.str(), "theory"));
  EXPECT_TRUE(test::contains(planar.str(), "\nretraction exp\ntheory planar_beam\ncase "));
  EXPECT_EQ(read_checkpoint(dir / "beam.txt").theory, Theory::beam);
  EXPECT_EQ(read_checkpoint(dir / "planar.txt").theory, Theory::planar_beam);
  c.theory = Theory::cable;
  EXPECT_THROW(write_checkpoint(dir / "cable.txt", c), Error);
}

TEST(Checkpoint, BadFilesAreRefusedWithTheFileAndLine) {
  const test::TempFolder dir;
  write_checkpoint(dir / "good.txt", example(2));
  std::stringstream text;
  text << std::ifstream(dir / "good.txt").rdbuf();
  const std::string good = text.str();
  const auto refused = [&](std::string bad, const std::string& says) {
    SCOPED_TRACE(says);
    std::ofstream(dir / "bad.txt") << bad;
    const std::string message = test::error_message([&] { read_checkpoint(dir / "bad.txt"); });
    EXPECT_TRUE(test::contains(message, (dir / "bad.txt").string())) << message;
    EXPECT_TRUE(test::contains(message, says)) << message;
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  refused(replaced("\nrow 7\n", "\n"), "the line 'row' is missing");
  refused(replaced("\nrow 7\n", "\nrow 7\nrow 8\n"),
          "bad.txt:9: 'row' given twice (first on line 8)");
  refused(replaced("format 1", "format 2"), "bad.txt:2: 'format': format 2 is not known");
  refused(replaced("\nxi 1 ", "\nxi nan "), "'xi': nan is not finite");
  refused(replaced("\nxi 1 ", "\nxi 1 0x1p+0 "), "'xi' has 8 values, expected 7");
  refused(replaced("\nback1 2 ", "\nback1 3 "),
          "the line 'back1 2' is missing (A = 2: nodes 0..2)");
  refused(replaced("\ncur 0 ", "\ncur 1 "), "'cur' 1 given twice");
  refused(replaced("\nretraction exp", "\nretraction euler"), "'euler' is not cayley or exp");
  refused(good + "speed 3\n", "'speed' is not a line of a checkpoint");
  refused(replaced("\nretraction exp\n", "\nretraction exp\ntheory cable\n"),
          "bad.txt:4: 'theory': 'cable' is not beam or planar_beam");
  EXPECT_THROW(read_checkpoint(dir / "absent.txt"), IoError);
}

}  // namespace
}  // namespace field::io

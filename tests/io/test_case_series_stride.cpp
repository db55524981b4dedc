// [output] series_stride (meshes/README.md): read, written back to run.toml, and validated.
#include <gtest/gtest.h>

#include <sstream>

#include "libfield/io/case_file.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

std::string case_text(const std::string& output) {
  return "format = 1\nmarch = \"time\"\n[beam]\nsection = \"square\"\nside = 0.1\nE = 1e5\n"
         "nu = 0.3\nrho = 1000.0\n[grid]\nA = 4\nds = 0.25\ndt = 0.01\nJ = 10\n[output]\n" +
         output;
}

TEST(CaseSeriesStride, DefaultsToOneAndLoadsBackFromRunToml) {
  test::TempFolder tmp;
  EXPECT_EQ(load_case(tmp.write("a.toml", case_text(""))).output.series_stride, 1);
  const CaseSpec c = load_case(tmp.write("b.toml", case_text("series_stride = 25\n")));
  EXPECT_EQ(c.output.series_stride, 25);
  std::ostringstream out;
  write_case(out, c);
  EXPECT_EQ(load_case(tmp.write("run.toml", out.str())).output.series_stride, 25);
}

TEST(CaseSeriesStride, ZeroIsAnErrorNamingLineKeyAndValue) {
  test::TempFolder tmp;
  const std::string message = test::error_message(
      [&] { load_case(tmp.write("bad.toml", case_text("stride = 2\nseries_stride = 0\n"))); });
  for (const char* w : {"bad.toml:16:", "[output] series_stride = 0", "between 1 and"})
    EXPECT_TRUE(test::contains(message, w)) << message;
}

}  // namespace
}  // namespace field::io

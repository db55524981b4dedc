// read_csv (libfield/io/csv_table.hpp): layout rules and every error, whose message must name
// the file, the line, the column and the offending text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

using test::contains;
using test::error_message;

TEST(CsvTable, ColumnsInAnyOrderCommentsBlankLinesWhitespaceAndExtraColumns) {
  test::TempFolder dir;
  const auto path = dir.write("table.csv",
                              "# a comment before the header\n"
                              "\n"
                              "  y , t,x ,label\n"
                              "1.5,0,-2e-3,first\n"
                              "   # an indented comment\n"
                              "\t2.5 ,\t0.25, 4 ,  \r\n"
                              "\n");
  const CsvTable table = read_csv(path, {"t", "x", "y"});
  EXPECT_EQ(table.path, path);
  EXPECT_EQ(table.columns, (std::vector<std::string>{"y", "t", "x", "label"}));
  EXPECT_EQ(table.header_line, 3);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.lines, (std::vector<int>{4, 6}));
  EXPECT_EQ(table.column("t"), 1);
  EXPECT_TRUE(table.has_column("label"));
  EXPECT_FALSE(table.has_column("z"));
  EXPECT_EQ(table.value(0, "x"), -2e-3);
  EXPECT_EQ(table.value(1, "y"), 2.5);
  EXPECT_EQ(table.value(1, "t"), 0.25);
  EXPECT_EQ(table.value(1, "x"), 4.0);
  // An extra column is not checked: text (or nothing) becomes NaN there.
  EXPECT_TRUE(std::isnan(table.value(0, "label")));
  EXPECT_TRUE(std::isnan(table.value(1, "label")));
  EXPECT_EQ(table.where(1), path.string() + ":6");
}

TEST(CsvTable, SeventeenDigitsAreReadBackExactly) {
  test::TempFolder dir;
  const double values[] = {0.1, 1.0 / 3.0, -2.718281828459045e-300, 6.02214076e23, 5e-324};
  std::string text = "v\n";
  char buffer[64];
  for (const double v : values) {
    std::snprintf(buffer, sizeof buffer, "%.17g\n", v);
    text += buffer;
  }
  const CsvTable table = read_csv(dir.write("digits.csv", text), {"v"});
  for (std::size_t i = 0; i < std::size(values); ++i) EXPECT_EQ(table.rows[i][0], values[i]);
}

TEST(CsvTable, ShortestDecimalReadsBackExactly) {
  EXPECT_EQ(shortest(0.1), "0.1");
  EXPECT_EQ(shortest(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(shortest(-2.0), "-2");
  EXPECT_EQ(shortest(1e-300), "1e-300");
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0), mantissa(-1.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const double v = mantissa(engine) * std::pow(10.0, exponent(engine));
    EXPECT_EQ(std::strtod(shortest(v).c_str(), nullptr), v) << shortest(v);
  }
}

TEST(CsvTable, HeaderOnlyGivesNoRows) {
  test::TempFolder dir;
  const CsvTable table = read_csv(dir.write("empty.csv", "t,x\n# nothing yet\n"), {"t"});
  EXPECT_TRUE(table.rows.empty());
}

TEST(CsvTable, MissingColumnNamesFileHeaderLineColumnAndColumnsPresent) {
  test::TempFolder dir;
  const auto path = dir.write("tip.csv", "# tip\nt, x, y\n0, 1, 2\n");
  const std::string msg = error_message([&] { read_csv(path, {"t", "x", "z"}); });
  EXPECT_TRUE(contains(msg, path.string() + ":2")) << msg;
  EXPECT_TRUE(contains(msg, "no column 'z'")) << msg;
  EXPECT_TRUE(contains(msg, "columns present: t, x, y")) << msg;
}

TEST(CsvTable, RaggedRowNamesLineAndCounts) {
  test::TempFolder dir;
  const auto path = dir.write("tip.csv", "t,x,y\n0,1,2\n\n0.1,1\n");
  const std::string msg = error_message([&] { read_csv(path, {"t"}); });
  EXPECT_TRUE(contains(msg, path.string() + ":4:")) << msg;
  EXPECT_TRUE(contains(msg, "2 fields")) << msg;
  EXPECT_TRUE(contains(msg, "has 3 columns")) << msg;
  EXPECT_TRUE(contains(msg, "'0.1,1'")) << msg;
  // A trailing comma is one field too many.
  const auto extra = dir.write("extra.csv", "t,x\n0,1,\n");
  const std::string msg2 = error_message([&] { read_csv(extra, {"t"}); });
  EXPECT_TRUE(contains(msg2, extra.string() + ":2: 3 fields")) << msg2;
}

TEST(CsvTable, TextInANumberFieldNamesLineColumnAndText) {
  test::TempFolder dir;
  const auto path = dir.write("tip.csv", "t,x\n0,1\n0.1,1.5abc\n");
  const std::string msg = error_message([&] { read_csv(path, {"t", "x"}); });
  EXPECT_TRUE(contains(msg, path.string() + ":3:")) << msg;
  EXPECT_TRUE(contains(msg, "column 'x'")) << msg;
  EXPECT_TRUE(contains(msg, "'1.5abc' is not a number")) << msg;
  // An empty field and a decimal comma are not numbers either.
  const auto empty = dir.write("empty.csv", "t,x\n0, \n");
  EXPECT_TRUE(contains(error_message([&] { read_csv(empty, {"x"}); }), "'' is not a number"));
  const auto decimal_comma = dir.write("comma.csv", "t;x\n0;1,5\n");
  EXPECT_TRUE(contains(error_message([&] { read_csv(decimal_comma, {"t"}); }), "no column 't'"));
}

TEST(CsvTable, NanAndInfinityNameLineColumnAndValue) {
  test::TempFolder dir;
  for (const std::string bad : {"nan", "NaN", "-inf", "Infinity", "1e999"}) {
    const auto path = dir.write("tip.csv", "t,qw\n0,1\n0.1," + bad + "\n");
    const std::string msg = error_message([&] { read_csv(path, {"t", "qw"}); });
    EXPECT_TRUE(contains(msg, path.string() + ":3:")) << msg;
    EXPECT_TRUE(contains(msg, "column 'qw'")) << msg;
    EXPECT_TRUE(contains(msg, "'" + bad + "' is not a finite number")) << msg;
  }
}

TEST(CsvTable, HeaderErrors) {
  test::TempFolder dir;
  const auto none = dir.write("none.csv", "# only a comment\n\n");
  const std::string msg = error_message([&] { read_csv(none, {"t"}); });
  EXPECT_TRUE(contains(msg, none.string() + ": no header row")) << msg;
  const auto twice = dir.write("twice.csv", "t,x,t\n");
  const std::string msg2 = error_message([&] { read_csv(twice, {}); });
  EXPECT_TRUE(contains(msg2, twice.string() + ":1: column 't' appears twice")) << msg2;
  const auto unnamed = dir.write("unnamed.csv", "t,,x\n");
  const std::string msg3 = error_message([&] { read_csv(unnamed, {}); });
  EXPECT_TRUE(contains(msg3, unnamed.string() + ":1: header field 2 is empty")) << msg3;
}

// Files that are not plain comma-separated text: UTF-16 (its NUL bytes cut the message),
// lines ended by CR alone ("no header row"), a NUL byte (a misleading header), and spreadsheet
// exports with ';' or tabs or quoted names: each named with what to do.
TEST(CsvTable, TextThatIsNotCommaSeparatedSaysWhatToDo) {
  test::TempFolder dir;
  const auto says = [&](const std::string& name, const std::string& text,
                        const std::string& expected) {
    const auto path = dir.write(name, text);
    const std::string msg = error_message([&] { read_csv(path, {"t", "x"}); });
    EXPECT_TRUE(contains(msg, path.string() + expected)) << msg;
  };
  says("utf16.csv", std::string("\xFF\xFEt\0,\0x\0\n\0", 10),
       ": the file is UTF-16 text (its byte-order mark is 0xFFFE); save it as UTF-8");
  says("cr.csv", "# data\rt,x\r0,1\r",
       ":1: a carriage return (CR) at byte 7 inside the line: the file's lines end with CR alone");
  says("nul.csv", std::string("t,x\n0,\0\n", 8), ":2: control character U+0000 at byte 3");
  says("semicolon.csv", "t;x\n0;1\n",
       ":1: no column 't' in the header; columns present: t;x. Add the column 't' (names are "
       "case-sensitive, any order); separate the fields by commas, not by ';' or tabs");
  says("quoted.csv", "\"t\",\"x\"\n0,1\n",
       ":1: no column 't' in the header; columns present: \"t\", \"x\". Add the column 't' (names "
       "are case-sensitive, any order); write the names and numbers without quotes");
}

TEST(CsvTable, MissingFileIsAnIoErrorWithTheOsReason) {
  test::TempFolder dir;
  const auto path = dir / "no-such-file.csv";
  try {
    read_csv(path, {"t"});
    ADD_FAILURE() << "expected field::IoError";
  } catch (const IoError& e) {
    EXPECT_TRUE(contains(e.what(), path.string())) << e.what();
    EXPECT_TRUE(contains(e.what(), "No such file or directory")) << e.what();
  }
}

}  // namespace
}  // namespace field::io

// Reading the field.csv.part of a killed run (read_field_csv with prefix = true,
// drop_incomplete_last_slab): a last line without line end is dropped even when it parses, the
// incomplete last slab is dropped, complete slabs are kept whole; a complete file keeps the
// strict reading (a cut last line is an error there).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "libfield/io/field_csv.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

// A field.csv of slabs 0..slabs-1 with `nodes` nodes each, rows j (time march) or columns a
// (space march, `by_rows` false); identity rotations, x = j + a / 10.
std::string lines(int slabs, int nodes, bool by_rows = true) {
  std::string text = "j,a,t,s,x,y,z,qw,qx,qy,qz\n";
  for (int p = 0; p < slabs; ++p)
    for (int q = 0; q < nodes; ++q) {
      const int j = by_rows ? p : q, a = by_rows ? q : p;
      text += std::to_string(j) + "," + std::to_string(a) + "," + std::to_string(0.01 * j) + "," +
              std::to_string(0.1 * a) + "," + std::to_string(j + 0.1 * a) + ",0,0,1,0,0,0\n";
    }
  return text;
}

std::filesystem::path write(const test::TempFolder& dir, const std::string& text) {
  const std::filesystem::path path = dir.path() / "field.csv.part";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(FieldCsvPrefix, CutLineIsDroppedEvenWhenItParses) {
  const test::TempFolder dir;
  const std::string full = lines(3, 4);
  // The last line lacks only its line end: its values parse, but the last one could be a cut
  // number (qz = 0.25 cut to 0.2): dropped.
  const std::string cut = full.substr(0, full.size() - 1);
  FieldCsv csv = read_field_csv(write(dir, cut), true);
  EXPECT_TRUE(csv.cut_line);
  EXPECT_EQ(csv.j.size(), 11u);  // rows 0, 1 and three nodes of row 2
  EXPECT_EQ(drop_incomplete_last_slab(csv, true, 4), 3);
  EXPECT_EQ(csv.j.size(), 8u);
  EXPECT_EQ(csv.g.size(), 8u);
  EXPECT_EQ(csv.line.size(), 8u);
  EXPECT_EQ(csv.j.back(), 1);
  EXPECT_EQ(csv.a.back(), 3);

  // The strict reading of the same text names the ragged line.
  const std::string message =
      test::error_message([&] { read_field_csv(write(dir, full.substr(0, full.size() - 30))); });
  EXPECT_NE(message.find("line 13"), std::string::npos) << message;
}

TEST(FieldCsvPrefix, CompleteSlabsAreKeptWhole) {
  const test::TempFolder dir;
  FieldCsv csv = read_field_csv(write(dir, lines(3, 4)), true);
  EXPECT_FALSE(csv.cut_line);
  EXPECT_EQ(drop_incomplete_last_slab(csv, true, 4), 0);
  EXPECT_EQ(csv.j.size(), 12u);
  // By columns (a space march): columns a = 0..2 of j = 0..4, the last one cut after 2 nodes.
  const std::string columns = lines(3, 5, false);
  FieldCsv by_column = read_field_csv(write(dir, columns), true);
  EXPECT_EQ(drop_incomplete_last_slab(by_column, false, 5), 0);
  EXPECT_EQ(by_column.j.size(), 15u);
  size_t end = 0;
  for (int k = 0; k < 1 + 12; ++k) end = columns.find('\n', end) + 1;  // header, 12 nodes
  FieldCsv cut = read_field_csv(write(dir, columns.substr(0, end)), true);
  EXPECT_FALSE(cut.cut_line);
  EXPECT_EQ(drop_incomplete_last_slab(cut, false, 5), 2);  // (0, 2) and (1, 2)
  EXPECT_EQ(cut.j.size(), 10u);
  EXPECT_EQ(cut.a.back(), 1);
}

TEST(FieldCsvPrefix, HeaderMustBeComplete) {
  const test::TempFolder dir;
  const std::string message =
      test::error_message([&] { read_field_csv(write(dir, "j,a,t"), true); });
  EXPECT_NE(message.find("holds no complete line"), std::string::npos) << message;
  FieldCsv csv = read_field_csv(write(dir, "j,a,t,s,x,y,z,qw,qx,qy,qz\n0,0,0"), true);
  EXPECT_TRUE(csv.cut_line);
  EXPECT_TRUE(csv.j.empty());
  EXPECT_EQ(drop_incomplete_last_slab(csv, true, 4), 0);
}

}  // namespace
}  // namespace field::io

// The appended .pvd index: after every add() the file is a complete collection (VTK's XML parser
// and io::read_pvd list exactly the frames added so far), it grows by one line per frame (the
// header is written once), an index dropped without any closing call stays valid, and a folder
// that does not exist is an IoError naming the file.
#include "libfield/io/pvd_index.hpp"

#include <gtest/gtest.h>
#include <vtkNew.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "libfield/io/csv_writer.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

// (timestep, file) of every DataSet, parsed with VTK's XML parser (as ParaView reads the index).
std::vector<PvdEntry> parse_with_vtk(const std::filesystem::path& path) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(path.string().c_str());
  EXPECT_EQ(parser->Parse(), 1) << path;
  std::vector<PvdEntry> entries;
  vtkXMLDataElement* root = parser->GetRootElement();
  if (root == nullptr) return entries;
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  if (collection == nullptr) {
    ADD_FAILURE() << "no Collection in " << path;
    return entries;
  }
  for (int k = 0; k < collection->GetNumberOfNestedElements(); ++k) {
    vtkXMLDataElement* e = collection->GetNestedElement(k);
    entries.push_back({std::strtod(e->GetAttribute("timestep"), nullptr), e->GetAttribute("file")});
  }
  return entries;
}

std::string frame(int j) {
  char name[40];
  std::snprintf(name, sizeof name, "frames/beam_%06d.vtp", j);
  return name;
}

TEST(PvdIndex, AValidIndexAfterEveryFrameGrowingByOneLine) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "beam.pvd";
  std::vector<PvdEntry> added;
  {
    PvdIndex index(path);
    EXPECT_FALSE(std::filesystem::exists(path));  // nothing before the first frame
    std::uintmax_t size = 0;
    for (int k = 0; k < 60; ++k) {
      const double t = 0.1 * k * 0.005 + (k == 7 ? 1e-300 : 0.0);  // any double, 17 digits back
      added.push_back({t, frame(25 * k)});
      index.add(t, added.back().file);
      EXPECT_EQ(index.size(), k + 1);
      const std::vector<PvdEntry> vtk = parse_with_vtk(path), own = read_pvd(path);
      ASSERT_EQ(vtk.size(), added.size());
      ASSERT_EQ(own.size(), added.size());
      for (size_t i = 0; i < added.size(); ++i) {
        EXPECT_EQ(vtk[i].time, added[i].time);
        EXPECT_EQ(vtk[i].file, added[i].file);
        EXPECT_EQ(own[i].time, added[i].time);
        EXPECT_EQ(own[i].file, added[i].file);
      }
      // One DataSet line more, nothing else: the header is not written again.
      const std::uintmax_t now = std::filesystem::file_size(path);
      if (k > 0) {
        const std::string line = "    <DataSet timestep=\"" + format_double(t) +
                                 "\" group=\"\" part=\"0\" file=\"" + added.back().file + "\"/>\n";
        EXPECT_EQ(now - size, line.size()) << "frame " << k;
      }
      size = now;
    }
  }
  // Dropped without any closing call (an interrupted run): still the complete index.
  EXPECT_EQ(parse_with_vtk(path).size(), added.size());
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string tail = "  </Collection>\n</VTKFile>\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  EXPECT_EQ(text.find("<?xml"), 0u);
  EXPECT_EQ(text.find("<?xml", 1), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "beam.pvd.part"));
}

TEST(PvdIndex, NamesTheFileWhenTheFolderDoesNotExist) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "missing" / "beam.pvd";
  PvdIndex index(path);
  const std::string message = test::io_error_message([&] { index.add(0.0, frame(0)); });
  EXPECT_TRUE(test::contains(message, path.string())) << message;
  EXPECT_TRUE(test::contains(message, "No such file or directory")) << message;
}

}  // namespace
}  // namespace field::io

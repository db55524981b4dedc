#include "libfield/io/vtk_file.hpp"

#include <cstring>

#include "libfield/core/error.hpp"

// The blocks are the values' bytes as they are in memory, declared little-endian in the header.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "io/vtk_file writes raw little-endian data: a big-endian build needs "
              "byte_order=\"BigEndian\" in vtk_file_begin()");

namespace field::io {

int VtkAppendedLayout::size_of(const char* type) {
  const std::string t(type);
  if (t == "Float64" || t == "Int64" || t == "UInt64") return 8;
  if (t == "Int32" || t == "Float32") return 4;
  if (t == "UInt8") return 1;
  FIELD_CHECK(false, "VTK array type '" << t << "' is not one the writers use");
  return 0;
}

void VtkAppendedLayout::array(const char* type, const std::string& name, int components,
                              std::uint64_t values, int indent, bool tuples_attribute) {
  std::string text = std::string("<DataArray type=\"") + type + "\" Name=\"" + name + "\"";
  if (components != 1) text += " NumberOfComponents=\"" + std::to_string(components) + "\"";
  if (tuples_attribute) text += " NumberOfTuples=\"" + std::to_string(values / components) + "\"";
  text += " format=\"appended\" offset=\"" + std::to_string(offset_) + "\"/>";
  line(indent, text);
  offset_ += 8 + values * static_cast<std::uint64_t>(size_of(type));
}

void VtkAppendedLayout::line(int indent, const std::string& text) {
  xml_.append(static_cast<size_t>(indent), ' ');
  xml_ += text;
  xml_ += '\n';
}

std::string vtk_file_begin(const char* type) {
  return std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"") + type +
         "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <" + type +
         ">\n";
}

std::string vtk_appended_begin(const char* type) {
  return std::string("  </") + type + ">\n  <AppendedData encoding=\"raw\">\n   _";
}

std::string vtk_file_end() {
  return "\n  </AppendedData>\n</VTKFile>\n";
}

void append_block_header(std::string& out, std::uint64_t bytes) {
  append_raw(out, &bytes, sizeof bytes);
}

void append_raw(std::string& out, const void* data, std::uint64_t bytes) {
  out.append(static_cast<const char*>(data), static_cast<size_t>(bytes));
}

void append_double_block(std::string& out, const std::vector<double>& values) {
  const std::uint64_t bytes = values.size() * sizeof(double);
  append_block_header(out, bytes);
  append_raw(out, values.data(), bytes);
}

std::string polyline_piece(int A) {
  return "<Piece NumberOfPoints=\"" + std::to_string(A + 1) + "\" NumberOfVerts=\"0\" " +
         "NumberOfLines=\"" + std::to_string(A) + "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">";
}

std::string polyline_cell_blocks(int A) {
  std::vector<std::int64_t> connectivity, offsets;
  for (std::int64_t a = 0; a < A; ++a) {
    connectivity.push_back(a);
    connectivity.push_back(a + 1);
    offsets.push_back(2 * (a + 1));
  }
  std::string out;
  for (const std::vector<std::int64_t>* block : {&connectivity, &offsets}) {
    append_block_header(out, block->size() * sizeof(std::int64_t));
    append_raw(out, block->data(), block->size() * sizeof(std::int64_t));
  }
  return out;
}

VtkAppendedLayout polyline_frame_layout(int A, const std::vector<OutputQuantity>& point_arrays,
                                        const std::vector<OutputQuantity>& cell_arrays) {
  const std::uint64_t n = static_cast<std::uint64_t>(A) + 1;
  VtkAppendedLayout layout;
  layout.line(4, "<FieldData>");
  layout.array("Float64", "TimeValue", 1, 1, 6, true);
  layout.line(4, "</FieldData>");
  layout.line(4, polyline_piece(A));
  layout.line(6, "<PointData>");
  for (const OutputQuantity& a : point_arrays)
    layout.array("Float64", a.name, a.components, a.components * n, 8);
  layout.line(6, "</PointData>");
  layout.line(6, "<CellData>");
  for (const OutputQuantity& a : cell_arrays)
    layout.array("Float64", a.name, a.components, a.components * (n - 1), 8);
  layout.line(6, "</CellData>");
  layout.line(6, "<Points>");
  layout.array("Float64", "Points", 3, 3 * n, 8);
  layout.line(6, "</Points>");
  layout.line(6, "<Lines>");
  layout.array("Int64", "connectivity", 1, 2 * (n - 1), 8);
  layout.array("Int64", "offsets", 1, n - 1, 8);
  layout.line(6, "</Lines>");
  layout.line(4, "</Piece>");
  return layout;
}

void check_frame_row(const char* writer, int j, int last_j, bool finished, std::size_t size,
                     const mesh::SpacetimeMesh& mesh) {
  FIELD_CHECK(!finished, writer << ": row " << j << " after finish()");
  FIELD_CHECK(j == last_j + 1,
              writer << ": rows must come in order: got row " << j << " after " << last_j);
  FIELD_CHECK(j <= mesh.J(),
              writer << ": row " << j << " outside the mesh (J = " << mesh.J() << ")");
  FIELD_CHECK(
      static_cast<int>(size) == mesh.A() + 1,
      writer << ": row " << j << " has " << size << " nodes, expected A+1 = " << mesh.A() + 1);
}

}  // namespace field::io

#pragma once
/// VTK XML files (.vtp, .vtu) written directly, without VTK: the XML header names every array
/// with `format="appended"` and its `offset` into one `<AppendedData encoding="raw">` section,
/// in which each array is a block: an 8-byte length (header_type="UInt64") followed by its raw
/// values (little-endian, uncompressed). This is the layout vtkXMLWriter produces with appended
/// raw data, and what ParaView's readers (vtkXMLPolyDataReader, vtkXMLUnstructuredGridReader)
/// read: float64 arrays read back bit for bit (docs/output-format.md, tests/io).
#include <cstdint>
#include <string>
#include <vector>

#include "libfield/core/output_quantity.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::io {

/// The XML of the arrays of one file and the offsets of their blocks: declare the arrays in the
/// order their blocks will be written, then write the header and append the blocks in that order.
class VtkAppendedLayout {
 public:
  /// Declares an array of `values` values of `type` ("Float64", "Int64", "Int32", "UInt8") with
  /// `components` components, and appends its <DataArray .../> line (indented by `indent`
  /// spaces) to xml(). `tuples_attribute`: also write NumberOfTuples (field data).
  void array(const char* type, const std::string& name, int components, std::uint64_t values,
             int indent, bool tuples_attribute = false);
  /// Appends a line of XML (an element without data) to xml().
  void line(int indent, const std::string& text);

  const std::string& xml() const { return xml_; }
  /// Bytes of the appended section after its '_' marker (block lengths included).
  std::uint64_t appended_bytes() const { return offset_; }

  /// The bytes of one value of `type`.
  static int size_of(const char* type);

 private:
  std::string xml_;
  std::uint64_t offset_ = 0;
};

/// The file's first line and the opening VTKFile tag for a data set `type` ("PolyData",
/// "UnstructuredGrid"), version 1.0, little-endian, 64-bit block headers.
std::string vtk_file_begin(const char* type);
/// Between the header and the blocks: closes the data set and opens the appended section
/// (`</type>`, `<AppendedData encoding="raw">`, then the '_' that starts the data).
std::string vtk_appended_begin(const char* type);
/// After the last block: closes the appended section and the file.
std::string vtk_file_end();

/// The 8 bytes that precede a block of `bytes` bytes (little-endian UInt64).
void append_block_header(std::string& out, std::uint64_t bytes);
/// Appends the raw bytes of `count` values at `data` (native little-endian layout).
void append_raw(std::string& out, const void* data, std::uint64_t bytes);
/// A block of float64 values: its header and its bytes.
void append_double_block(std::string& out, const std::vector<double>& values);

/// A polyline of A+1 points joined by A line segments, cell a = (a, a+1) (the frames of a beam or
/// a cable): the opening <Piece> tag of its PolyData, and the blocks of its connectivity and
/// offsets (Int64) in that order.
std::string polyline_piece(int A);
std::string polyline_cell_blocks(int A);

/// The XML of a polyline frame of A segments (a beam's or a cable's frame file): TimeValue as
/// field data, the point data `point_arrays` (A+1 tuples each), the cell data `cell_arrays` (A
/// tuples each), the points, the lines; the blocks follow in that order.
/// Each array is Float64, named with its components per tuple (core/output_quantity.hpp).
VtkAppendedLayout polyline_frame_layout(int A, const std::vector<OutputQuantity>& point_arrays,
                                        const std::vector<OutputQuantity>& cell_arrays);

/// Checks row j of a frames writer (beam, cable) that received row `last_j` before (first - 1:
/// none; -1 for a march from row 0): not after finish(), in order, inside the mesh, with
/// `size` = A+1 nodes.
void check_frame_row(const char* writer, int j, int last_j, bool finished, std::size_t size,
                     const mesh::SpacetimeMesh& mesh);

}  // namespace field::io

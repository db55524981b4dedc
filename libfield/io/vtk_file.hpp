#pragma once
/// Writing a VTK XML data set (.vtp, .vtu) atomically: the writer's file is part_path(path),
/// renamed to `path` once VTK reports success (atomic_file.hpp). Raw binary appended data,
/// uncompressed, 64-bit block headers: float64 arrays read back bit for bit. VTK stays out of the
/// public headers: only forward declarations here.
#include <filesystem>

class vtkDataObject;
class vtkXMLWriter;

namespace field::io {

/// Writes `data` through `writer` (a vtkXMLPolyDataWriter, vtkXMLUnstructuredGridWriter, ...).
/// Throws field::IoError naming the path, VTK's error code and the OS reason on failure.
void write_vtk_xml(vtkXMLWriter& writer, vtkDataObject& data, const std::filesystem::path& path);

}  // namespace field::io

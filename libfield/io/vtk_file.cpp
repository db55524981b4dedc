#include "libfield/io/vtk_file.hpp"

#include <vtkDataObject.h>
#include <vtkErrorCode.h>
#include <vtkXMLWriter.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"

namespace field::io {

void write_vtk_xml(vtkXMLWriter& writer, vtkDataObject& data, const std::filesystem::path& path) {
  const std::filesystem::path part = part_path(path);
  {  // Open it once ourselves: the OS reason of a failure, without VTK's error log on stderr.
    errno = 0;
    std::ofstream probe(part, std::ios::binary | std::ios::trunc);
    if (!probe)
      throw IoError("cannot open '" + part.string() + "' for writing (for '" + path.string() +
                    "'): " + last_os_error() +
                    "; check that the output folder exists and is writable");
  }
  writer.SetFileName(part.string().c_str());
  writer.SetInputDataObject(&data);
  writer.SetDataModeToAppended();
  writer.EncodeAppendedDataOff();    // raw binary: float64 arrays read back bit for bit
  writer.SetCompressorTypeToNone();  // 8 bytes a value; compression made a frame ~2x slower
  writer.SetHeaderTypeToUInt64();    // blocks of more than 4 GiB (large spacetime.vtu)
  errno = 0;
  const int ok = writer.Write();
  const unsigned long code = writer.GetErrorCode();
  if (ok != 1 || code != vtkErrorCode::NoError) {
    const std::string reason = last_os_error();
    std::error_code ignored;
    std::filesystem::remove(part, ignored);
    throw IoError("cannot write '" + part.string() + "' (for '" + path.string() +
                  "'): VTK error '" + vtkErrorCode::GetStringFromErrorCode(code) + "', " + reason +
                  "; check that the output folder exists and is writable");
  }
  commit_file(part, path);
}

}  // namespace field::io

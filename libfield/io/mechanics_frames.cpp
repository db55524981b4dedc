#include "libfield/io/mechanics_frames.hpp"

#include <cstdio>
#include <string>

#include "libfield/io/atomic_file.hpp"
#include "libfield/io/vtk_file.hpp"

namespace field::io {

namespace {
template <class T>
void append_block(std::string& out, const std::vector<T>& values) {
  const std::uint64_t bytes = values.size() * sizeof(T);
  append_block_header(out, bytes);
  append_raw(out, values.data(), bytes);
}
}  // namespace

std::string polyline_vtp(double time, const PolylineFrame& frame) {
  const std::uint64_t n = frame.points.size(), lines = frame.segments.size();
  VtkAppendedLayout layout;
  layout.line(4, "<FieldData>");
  layout.array("Float64", "TimeValue", 1, 1, 6, true);
  layout.line(4, "</FieldData>");
  layout.line(4, "<Piece NumberOfPoints=\"" + std::to_string(n) +
                     "\" NumberOfVerts=\"0\" NumberOfLines=\"" + std::to_string(lines) +
                     "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">");
  layout.line(6, "<PointData>");
  layout.array("Int64", "id", 1, n, 8);
  layout.line(6, "</PointData>");
  layout.line(6, "<Points>");
  layout.array("Float64", "Points", 3, 3 * n, 8);
  layout.line(6, "</Points>");
  layout.line(6, "<Lines>");
  layout.array("Int64", "connectivity", 1, 2 * lines, 8);
  layout.array("Int64", "offsets", 1, lines, 8);
  layout.line(6, "</Lines>");
  layout.line(4, "</Piece>");

  std::vector<std::int64_t> ids(n), connectivity, offsets;
  std::vector<double> points;
  for (std::uint64_t i = 0; i < n; ++i) {
    ids[i] = static_cast<std::int64_t>(i);
    for (int k = 0; k < 3; ++k) points.push_back(frame.points[i](k));
  }
  for (const auto& s : frame.segments) {
    connectivity.push_back(s[0]);
    connectivity.push_back(s[1]);
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
  }
  std::string file = vtk_file_begin("PolyData") + layout.xml() + vtk_appended_begin("PolyData");
  append_block(file, std::vector<double>{time});
  append_block(file, ids);
  append_block(file, points);
  append_block(file, connectivity);
  append_block(file, offsets);
  file += vtk_file_end();
  return file;
}

MechanicsFrames::MechanicsFrames(const std::filesystem::path& dir)
    : dir_(dir), index_(dir / "mechanics.pvd") {
  std::filesystem::create_directories(dir / "frames");
}

void MechanicsFrames::add(double time, const PolylineFrame& frame) {
  char name[40];
  std::snprintf(name, sizeof name, "frames/frame_%06lld.vtp", index_.size());
  const std::string bytes = polyline_vtp(time, frame);
  write_file_atomically(dir_ / name,
                        [&](std::ostream& out) { out.write(bytes.data(), bytes.size()); });
  index_.add(time, name);
}

}  // namespace field::io

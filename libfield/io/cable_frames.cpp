#include "libfield/io/cable_frames.hpp"

#include <cstdio>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/vtk_file.hpp"

namespace field::io {

std::string cable_frame_name(int j) {
  char name[40];
  std::snprintf(name, sizeof name, "frames/cable_%06d.vtp", j);
  return name;
}

CableFramesWriter::CableFramesWriter(std::filesystem::path dir, const model::CableDensity& density,
                                     const mesh::SpacetimeMesh& mesh, mesh::Side left, int stride)
    : dir_(std::move(dir)),
      density_(density),
      mesh_(mesh),
      left_(left),
      selection_(mesh.J(), stride),
      index_(dir_ / "cable.pvd") {
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "frames", ec);
  if (ec)
    throw IoError("cannot create the folder '" + (dir_ / "frames").string() + "': " + ec.message() +
                  "; check that the run folder is writable");
  const int A = mesh.A();
  const VtkAppendedLayout layout =
      polyline_frame_layout(A, {{"s", 1}, {"velocity", 3}}, {{"stretch", 1}, {"tension", 1}});
  header_ = vtk_file_begin("PolyData") + layout.xml() + vtk_appended_begin("PolyData");
  lines_ = polyline_cell_blocks(A);  // cell a is the segment (a, a+1)
}

void CableFramesWriter::slab(int j, const std::vector<Vec3>& row, const march::SlabStats&) {
  check_frame_row("cable frames", j, last_j_, finished_, row.size(), mesh_);
  if (last_j_ >= 0 && selection_.selects(last_j_)) write_frame(last_j_, last_, &last_, &row);
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

void CableFramesWriter::finish() {
  if (finished_) return;
  finished_ = true;
  if (last_j_ < 0) return;
  // The last row has no successor: its velocity is that of the previous step, xi_{j-1}.
  if (last_j_ >= 1)
    write_frame(last_j_, last_, &before_, &last_);
  else
    write_frame(last_j_, last_, nullptr, nullptr);
}

void CableFramesWriter::write_frame(int j, const std::vector<Vec3>& row,
                                    const std::vector<Vec3>* from, const std::vector<Vec3>* to) {
  const int A = mesh_.A();
  std::vector<double> s, velocity, stretch, tension, points;
  for (int a = 0; a <= A; ++a) {
    const std::size_t k = static_cast<std::size_t>(a);
    s.push_back(mesh_.s(a, left_));
    // xi = tau^{-1}(r_j^{-1} r_{j+1})/dt = (r_{j+1} - r_j)/dt on R^3 (theory §3.1, (1.8.1)).
    const Vec3 v = from && to ? Vec3(((*to)[k] - (*from)[k]) / mesh_.dt()) : Vec3(Vec3::Zero());
    velocity.insert(velocity.end(), v.data(), v.data() + 3);
    points.insert(points.end(), row[k].data(), row[k].data() + 3);
    if (a < A) {  // eta = (r^{a+1} - r^a)/ds, nu = |eta|, N = W'(nu) (1.8.1), (1.8.2)
      const double nu = ((row[k + 1] - row[k]) / mesh_.ds()).norm();
      stretch.push_back(nu);
      tension.push_back(density_.tension(nu));
    }
  }
  // The blocks in the order of the header: TimeValue, point data, cell data, points, lines.
  file_ = header_;
  append_double_block(file_, {mesh_.t(j)});
  for (const std::vector<double>* block : {&s, &velocity, &stretch, &tension, &points})
    append_double_block(file_, *block);
  file_ += lines_;
  file_ += vtk_file_end();
  const std::string name = cable_frame_name(j);
  write_file_atomically(dir_ / name,
                        [this](std::ostream& out) { out.write(file_.data(), file_.size()); });
  index_.add(mesh_.t(j), name);  // the frame first, then the index
}

}  // namespace field::io

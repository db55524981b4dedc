#include "libfield/io/cable_tip.hpp"

#include "libfield/io/vtk_file.hpp"

namespace field::io {

const std::vector<std::string>& cable_tip_columns() {
  static const std::vector<std::string> columns = {"t",  "x",    "y",    "z",    "v1",     "v2",
                                                   "v3", "eta1", "eta2", "eta3", "tension"};
  return columns;
}

CableTipCsvWriter::CableTipCsvWriter(std::filesystem::path path, const model::CableDensity& density,
                                     const mesh::SpacetimeMesh& mesh)
    : density_(density), mesh_(mesh), csv_(std::move(path), cable_tip_columns()) {}

void CableTipCsvWriter::write(int j, const std::vector<Vec3>& row, const Vec3& velocity) {
  const Vec3& r = row[0];
  const Vec3 eta = (row[1] - row[0]) / mesh_.ds();  // (1.8.1)
  csv_.row({mesh_.t(j), r(0), r(1), r(2), velocity(0), velocity(1), velocity(2), eta(0), eta(1),
            eta(2), density_.tension(eta.norm())});
}

void CableTipCsvWriter::slab(int j, const std::vector<Vec3>& row, const march::SlabStats&) {
  check_frame_row("cable tip.csv", j, last_j_, finished_, row.size(), mesh_);
  if (last_j_ >= 0) write(last_j_, last_, (row[0] - last_[0]) / mesh_.dt());
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

void CableTipCsvWriter::finish() {
  if (finished_) return;
  finished_ = true;
  // The last row has no successor: its velocity is that of the previous step, xi_{j-1}.
  if (last_j_ >= 1)
    write(last_j_, last_, (last_[0] - before_[0]) / mesh_.dt());
  else if (last_j_ == 0)
    write(0, last_, Vec3::Zero());
  csv_.close();
}

}  // namespace field::io

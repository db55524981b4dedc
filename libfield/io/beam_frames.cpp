#include "libfield/io/beam_frames.hpp"

#include <cstdint>
#include <cstdio>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/beam_rates.hpp"
#include "libfield/io/vtk_file.hpp"

namespace field::io {

namespace {

// The arrays of a frame in file order (docs/output-format.md): point data, cell data.
constexpr int kPointArrays = 7, kCellArrays = 4;
enum PointArray { kS, kQuat, kD1, kD2, kD3, kVelocity, kAngularVelocity };
enum CellArray { kOmega, kGamma, kMoment, kForce };
const char* const kPointNames[kPointArrays] = {"s",        "q_wxyz",          "d1", "d2", "d3",
                                               "velocity", "angular_velocity"};
const int kPointComponents[kPointArrays] = {1, 4, 3, 3, 3, 3, 3};
const char* const kCellNames[kCellArrays] = {"strain_Omega", "strain_Gamma", "moment", "force"};

void put3(std::vector<double>& array, int k, const Vec3& v) {
  double* p = array.data() + 3 * static_cast<size_t>(k);
  p[0] = v.x();
  p[1] = v.y();
  p[2] = v.z();
}

// The XML of a frame of A segments; everything in a frame but the values depends on A only.
VtkAppendedLayout frame_layout(int A) {
  std::vector<FrameArray> points, cells;
  for (int k = 0; k < kPointArrays; ++k) points.push_back({kPointNames[k], kPointComponents[k]});
  for (const char* name : kCellNames) cells.push_back({name, 3});
  return polyline_frame_layout(A, points, cells);
}

}  // namespace

template <class G>
BeamFramesWriter<G>::BeamFramesWriter(std::filesystem::path dir,
                                      const dcel::DiscreteModel<G>& model, mesh::Side left,
                                      int stride, int first_row)
    : dir_(std::move(dir)),
      model_(model),
      left_(left),
      selection_(model.mesh().J(), stride),
      index_(dir_ / "beam.pvd"),
      first_(first_row),
      last_j_(first_row - 1) {
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "frames", ec);
  if (ec)
    throw IoError("cannot create the folder '" + (dir_ / "frames").string() + "': " + ec.message() +
                  "; check that the run folder is writable");
  build_layout();
}

std::string beam_frame_name(int j) {
  char name[40];
  std::snprintf(name, sizeof name, "frames/beam_%06d.vtp", j);
  return name;
}

template <class G>
void BeamFramesWriter<G>::slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats&) {
  check_frame_row("beam frames", j, last_j_, finished_, row.size(), model_.mesh());
  if (last_j_ >= first_ && selection_.selects(last_j_)) write_frame(last_j_, last_, &last_, &row);
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

template <class G>
void BeamFramesWriter<G>::finish() {
  if (finished_) return;
  finished_ = true;
  if (last_j_ < first_) return;
  // The last row has no successor: its velocity is that of the previous step, xi_{j-1}.
  if (last_j_ > first_)
    write_frame(last_j_, last_, &before_, &last_);
  else
    write_frame(last_j_, last_, nullptr, nullptr);
}

std::uint64_t beam_frame_bytes(int A) {
  const VtkAppendedLayout layout = frame_layout(A);
  return vtk_file_begin("PolyData").size() + layout.xml().size() +
         vtk_appended_begin("PolyData").size() + layout.appended_bytes() + vtk_file_end().size();
}

template <class G>
void BeamFramesWriter<G>::build_layout() {
  const int A = model_.mesh().A();
  const std::uint64_t n = static_cast<std::uint64_t>(A) + 1;
  const VtkAppendedLayout layout = frame_layout(A);
  header_ = vtk_file_begin("PolyData") + layout.xml() + vtk_appended_begin("PolyData");
  frame_bytes_ = beam_frame_bytes(A);

  lines_ = polyline_cell_blocks(A);  // cell a is the segment (a, a+1) (docs/output-format.md)
  point_.resize(kPointArrays);
  for (int k = 0; k < kPointArrays; ++k) point_[k].resize(kPointComponents[k] * n);
  cell_.resize(kCellArrays);
  for (auto& array : cell_) array.resize(3 * (n - 1));
  points_.resize(3 * n);
}

template <class G>
void BeamFramesWriter<G>::write_frame(int j, const std::vector<lie::SE3>& row,
                                      const std::vector<lie::SE3>* from,
                                      const std::vector<lie::SE3>* to) {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const int A = mesh.A();

  std::vector<double>& s = point_[kS];
  std::vector<double>& q = point_[kQuat];
  for (int a = 0; a <= A; ++a) {
    const lie::SE3& g = row[static_cast<size_t>(a)];
    put3(points_, a, g.r);
    s[static_cast<size_t>(a)] = mesh.s(a, left_);
    const Vec4 quat = g.quat();
    for (int c = 0; c < 4; ++c) q[4 * static_cast<size_t>(a) + c] = quat(c);
    put3(point_[kD1], a, g.R.col(0));
    put3(point_[kD2], a, g.R.col(1));
    put3(point_[kD3], a, g.R.col(2));
    // Body velocity xi_j^a = tau^{-1}((g_j^a)^{-1} g_{j+1}^a)/dt (theory §3.1), shown in space.
    const Vec6 xi = node_velocity<G>(mesh, from, to, a);
    // Spatial velocities Lambda omega, Lambda gamma of the body velocity xi (theory §0.2, left
    // trivialisation; xi of theory §3.1).
    put3(point_[kAngularVelocity], a, g.R * xi.head<3>());
    put3(point_[kVelocity], a, g.R * xi.tail<3>());
  }
  // Segment strain eta_j^a = tau^{-1}((g_j^a)^{-1} g_j^{a+1})/ds (theory §3.1) and the body stress
  // resultants C_a (eta - eta0_a) = (moment, force) (theory §1, §1.6).
  for (int a = 0; a < A; ++a) {
    const SegmentStress segment = segment_stress(model_, row, a);
    put3(cell_[kOmega], a, segment.eta.head<3>());
    put3(cell_[kGamma], a, segment.eta.tail<3>());
    put3(cell_[kMoment], a, segment.stress.head<3>());
    put3(cell_[kForce], a, segment.stress.tail<3>());
  }

  // The blocks in the order of the header: TimeValue, point data, cell data, points, lines.
  file_.clear();
  file_.reserve(frame_bytes_);
  file_ += header_;
  append_double_block(file_, {mesh.t(j)});
  for (const std::vector<double>& array : point_) append_double_block(file_, array);
  for (const std::vector<double>& array : cell_) append_double_block(file_, array);
  append_double_block(file_, points_);
  file_ += lines_;
  file_ += vtk_file_end();
  FIELD_CHECK(file_.size() == frame_bytes_, "beam frames: frame of " << file_.size()
                                                                     << " bytes, the header says "
                                                                     << frame_bytes_);

  const std::string name = beam_frame_name(j);
  write_file_atomically(dir_ / name,
                        [this](std::ostream& out) { out.write(file_.data(), file_.size()); });
  index_.add(mesh.t(j), name);  // the frame first, then the index
}

#define FIELD_INSTANTIATE(G) template class BeamFramesWriter<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io

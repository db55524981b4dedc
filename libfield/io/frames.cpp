#include "libfield/io/frames.hpp"

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/vtk_file.hpp"
#include "libfield/lie/coordinates.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

namespace {

/// The point arrays of a frame of elements E: s, then the group's point quantities.
template <class E>
std::vector<OutputQuantity> point_quantities() {
  std::vector<OutputQuantity> q = {{"s", 1}};
  for (const OutputQuantity& p : lie::Coordinates<E>::point_quantities) q.push_back(p);
  return q;
}

/// Scatters the values of one tuple (all quantities, in order) into the quantities' arrays at
/// tuple k.
void scatter(const double* values, const std::vector<OutputQuantity>& quantities, std::size_t k,
             std::vector<std::vector<double>>& arrays, std::size_t first) {
  for (std::size_t q = first; q < quantities.size(); ++q) {
    const int c = quantities[q].components;
    double* to = arrays[q].data() + static_cast<std::size_t>(c) * k;
    for (int i = 0; i < c; ++i) to[i] = values[i];
    values += c;
  }
}

int components(const std::vector<OutputQuantity>& quantities) {
  int n = 0;
  for (const OutputQuantity& q : quantities) n += q.components;
  return n;
}

}  // namespace

std::string frame_name(const std::string& name, int j) {
  char text[40];
  std::snprintf(text, sizeof text, "_%06d.vtp", j);
  return "frames/" + name + text;
}

template <class E, class S>
std::uint64_t frame_bytes(const model::Density<S>& density, int A) {
  const VtkAppendedLayout layout =
      polyline_frame_layout(A, point_quantities<E>(), density.segment_quantities());
  return vtk_file_begin("PolyData").size() + layout.xml().size() +
         vtk_appended_begin("PolyData").size() + layout.appended_bytes() + vtk_file_end().size();
}

template <class G>
FramesWriter<G>::FramesWriter(std::filesystem::path dir, const dcel::DiscreteModel<G>& model,
                              mesh::Side left, int stride, int first_row)
    : dir_(std::move(dir)),
      model_(model),
      name_(model.density().output_name()),
      left_(left),
      selection_(model.mesh().J(), stride),
      index_(dir_ / (name_ + ".pvd")),
      point_quantities_(point_quantities<Element>()),
      cell_quantities_(model.density().segment_quantities()),
      first_(first_row),
      last_j_(first_row - 1) {
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "frames", ec);
  if (ec)
    throw IoError("cannot create the folder '" + (dir_ / "frames").string() + "': " + ec.message() +
                  "; check that the run folder is writable");
  const int A = model.mesh().A();
  const std::size_t n = static_cast<std::size_t>(A) + 1;
  const VtkAppendedLayout layout = polyline_frame_layout(A, point_quantities_, cell_quantities_);
  header_ = vtk_file_begin("PolyData") + layout.xml() + vtk_appended_begin("PolyData");
  frame_bytes_ = frame_bytes<Element>(model.density(), A);
  lines_ = polyline_cell_blocks(A);  // cell a is the segment (a, a+1) (docs/output-format.md)
  for (const OutputQuantity& q : point_quantities_)
    point_.emplace_back(static_cast<std::size_t>(q.components) * n);
  for (const OutputQuantity& q : cell_quantities_)
    cell_.emplace_back(static_cast<std::size_t>(q.components) * (n - 1));
  points_.resize(3 * n);
}

template <class G>
void FramesWriter<G>::slab(int j, const std::vector<Element>& row, const march::SlabStats&) {
  check_frame_row("frames", j, last_j_, finished_, row.size(), model_.mesh());
  if (last_j_ >= first_ && selection_.selects(last_j_)) write_frame(last_j_, last_, &last_, &row);
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

template <class G>
void FramesWriter<G>::finish() {
  if (finished_) return;
  finished_ = true;
  if (last_j_ < first_) return;
  // The last row has no successor: its velocity is that of the previous step, xi_{j-1}.
  if (last_j_ > first_)
    write_frame(last_j_, last_, &before_, &last_);
  else
    write_frame(last_j_, last_, nullptr, nullptr);
}

template <class G>
void FramesWriter<G>::write_frame(int j, const std::vector<Element>& row,
                                  const std::vector<Element>* from,
                                  const std::vector<Element>* to) {
  using C = lie::Coordinates<Element>;
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const int A = mesh.A();
  std::vector<double> values(static_cast<std::size_t>(
      std::max(components(point_quantities_), components(cell_quantities_))));
  for (int a = 0; a <= A; ++a) {
    const auto k = static_cast<std::size_t>(a);
    const Vec3& r = C::position(row[k]);
    for (int c = 0; c < 3; ++c) points_[3 * k + c] = r(c);
    point_[0][k] = mesh.s(a, left_);
    // Body velocity xi_j^a = tau^{-1}((g_j^a)^{-1} g_{j+1}^a)/dt (theory §3.1), zero without a
    // step (a march of a single row).
    const lie::AlgebraOf<G> xi = from && to ? mesh::convected<G>((*from)[k], (*to)[k], mesh.dt())
                                            : lie::AlgebraOf<G>(lie::AlgebraOf<G>::Zero());
    C::point_values(row[k], xi, values.data());
    scatter(values.data(), point_quantities_, k, point_, 1);
  }
  // Segment strain eta_j^a = tau^{-1}((g_j^a)^{-1} g_j^{a+1})/ds (theory §3.1) and the quantities
  // the segment's density shows of it (theory §1, §1.6).
  for (int a = 0; a < A; ++a) {
    const auto k = static_cast<std::size_t>(a);
    model_.density(a).segment_values(mesh::convected<G>(row[k], row[k + 1], mesh.ds()),
                                     values.data());
    scatter(values.data(), cell_quantities_, k, cell_, 0);
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
  FIELD_CHECK(file_.size() == frame_bytes_,
              "frames: frame of " << file_.size() << " bytes, the header says " << frame_bytes_);

  const std::string name = frame_name(name_, j);
  write_file_atomically(dir_ / name,
                        [this](std::ostream& out) { out.write(file_.data(), file_.size()); });
  index_.add(mesh.t(j), name);  // the frame first, then the index
}

// The beams on SE(3) (either retraction; the planar beam's frames are its SE(3) beam's) and the
// cable on R^3.
#define FIELD_INSTANTIATE(G) template class FramesWriter<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
FIELD_INSTANTIATE(lie::Rn<3>)
#undef FIELD_INSTANTIATE
template std::uint64_t frame_bytes<lie::SE3>(const model::Density<lie::Se3Group>&, int);
template std::uint64_t frame_bytes<Vec3>(const model::Density<lie::Rn<3>>&, int);

}  // namespace field::io

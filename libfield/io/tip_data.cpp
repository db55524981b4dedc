#include "libfield/io/tip_data.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <sstream>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

const std::vector<std::string>& tip_columns() {
  static const std::vector<std::string> columns = {"t",      "x",      "y",      "z",      "qw",
                                                   "qx",     "qy",     "qz",     "Omega1", "Omega2",
                                                   "Omega3", "Gamma1", "Gamma2", "Gamma3"};
  return columns;
}

TipOnGrid read_tip(const std::filesystem::path& path, double dt, int J) {
  return tip_on_grid(read_csv(path, tip_columns()), dt, J);
}

TipOnGrid tip_on_grid(const CsvTable& table, double dt, int J) {
  FIELD_CHECK(dt > 0.0 && std::isfinite(dt), "read_tip: dt must be positive, got " << dt);
  FIELD_CHECK(J >= 1, "read_tip: J must be at least 1, got " << J);
  const std::vector<std::string> strain(tip_columns().begin() + 8, tip_columns().end());
  const PoseTrack track = PoseTrack::from_table(table, "t", strain);
  const std::string file = table.path.string();

  // The grid t_j = j dt (as mesh::SpacetimeMesh::t) must lie inside the data's time range.
  for (int j = 0; j <= J; ++j) {
    const double t = j * dt;
    FIELD_CHECK(track.covers(t),
                file << ": grid time t_" << j << " = " << shortest(t)
                     << " is outside the data's time range [" << shortest(track.first()) << ", "
                     << shortest(track.last()) << "] (t of lines " << track.line(0) << " and "
                     << track.line(track.size() - 1) << "); the grid t_j = j dt, j = 0.." << J
                     << ", dt = " << shortest(dt) << " needs [0, " << shortest(J * dt)
                     << "]: change T (or J, dt) in the case, or give data over that range");
  }

  TipOnGrid tip;
  tip.g0.reserve(static_cast<std::size_t>(J) + 1);
  tip.eta0.reserve(static_cast<std::size_t>(J));
  std::ostringstream note;
  if (track.on_grid(0.0, dt, J + 1)) {
    for (int j = 0; j <= J; ++j) {
      const auto i = static_cast<std::size_t>(track.sample_at(j * dt, dt));
      tip.g0.push_back(track.pose(i));
      if (j < J) tip.eta0.push_back(track.vector(i));
    }
    note << file << ": " << track.size() << " samples on the grid t_j = j dt (dt = " << shortest(dt)
         << "), j = 0.." << J << ", used as they are";
    if (track.size() > static_cast<std::size_t>(J) + 1)
      note << " (" << track.size() - static_cast<std::size_t>(J) - 1
           << " samples between grid times ignored)";
  } else {
    for (int j = 0; j <= J; ++j) {
      tip.g0.push_back(track.pose_at(j * dt));
      if (j < J) tip.eta0.push_back(track.vector_at(j * dt));
    }
    tip.resampled = true;
    note << file << ": " << track.size()
         << " samples resampled on the grid t_j = j dt (dt = " << shortest(dt) << "), j = 0.." << J
         << " (positions and strains linearly, rotations by slerp)";
  }
  tip.note = note.str();
  return tip;
}

template <class G>
TipCsvWriter<G>::TipCsvWriter(std::filesystem::path path, const dcel::DiscreteModel<G>& model)
    : csv_(std::move(path), tip_columns()), dt_(model.dt()), ds_(model.ds()) {}

template <class G>
void TipCsvWriter<G>::slab(int index, const std::vector<lie::SE3>& values,
                           const march::SlabStats& /*stats*/) {
  FIELD_CHECK(csv_.is_open(), "TipCsvWriter: slab " << index << " after finish()");
  FIELD_CHECK(index == rows_, "TipCsvWriter: expected time row " << rows_ << ", got " << index);
  FIELD_CHECK(values.size() >= 2, "TipCsvWriter: a time row needs at least the nodes a = 0, 1; got "
                                      << values.size() << " values");
  const lie::SE3& g0 = values[0];
  // Discrete tip strain of theory §3.1 with the march's retraction: the space march rebuilds
  // g_j^1 = g_j^0 tau(ds eta_j^0) from it (theory §6.2 step 1).
  const Vec6 eta = mesh::convected<G>(g0, values[1], ds_);
  const Vec4 q = g0.quat();
  csv_.row({index * dt_, g0.r(0), g0.r(1), g0.r(2), q(0), q(1), q(2), q(3), eta(0), eta(1), eta(2),
            eta(3), eta(4), eta(5)});
  ++rows_;
}

template <class G>
void TipCsvWriter<G>::finish() {
  csv_.close();
}

#define FIELD_INSTANTIATE(G) template class TipCsvWriter<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io

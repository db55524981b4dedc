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

TipOnGrid read_tip(const std::filesystem::path& path, double dt, int J,
                   std::optional<double> time_offset) {
  return tip_on_grid(read_csv(path, tip_columns()), dt, J, time_offset);
}

TipOnGrid tip_on_grid(const CsvTable& table, double dt, int J, std::optional<double> time_offset) {
  const std::vector<std::string> strain(tip_columns().begin() + 8, tip_columns().end());
  return tip_on_grid(PoseTrack::from_table(table, "t", strain), dt, J, time_offset);
}

TipOnGrid tip_on_grid(const PoseTrack& track, double dt, int J, std::optional<double> time_offset,
                      bool rotations) {
  FIELD_CHECK(dt > 0.0 && std::isfinite(dt), "read_tip: dt must be positive, got " << dt);
  FIELD_CHECK(J >= 1, "read_tip: J must be at least 1, got " << J);
  const std::string file = track.path().string();

  // The grid's t = 0 on the sensor clock ([tip] time_offset; default the first sample's t):
  // grid time j is t0 + j dt (t0 = 0 gives j * dt exactly, as mesh::SpacetimeMesh::t).
  const double t0 = time_offset.value_or(track.first());
  FIELD_CHECK(track.covers(t0),
              file << ": [tip] time_offset = " << shortest(t0)
                   << " is outside the data's time range [" << shortest(track.first()) << ", "
                   << shortest(track.last()) << "] (t of lines " << track.line(0) << " and "
                   << track.line(track.size() - 1)
                   << "); the grid's t = 0 must be a time of the sensor clock that the file "
                      "covers: change time_offset, or remove it to start at the first sample");
  const double grid_tol = 1e-9 * dt;
  int before = 0;
  while (static_cast<std::size_t>(before) < track.size() && track.key(before) < t0 - grid_tol)
    ++before;
  // The grid t_j = t0 + j dt must lie inside the data's time range.
  for (int j = 0; j <= J; ++j) {
    const double t = t0 + j * dt;
    FIELD_CHECK(track.covers(t),
                file << ": grid time t_" << j << " = " << shortest(j * dt)
                     << " is outside the data's time range [" << shortest(track.first()) << ", "
                     << shortest(track.last()) << "] (t of lines " << track.line(0) << " and "
                     << track.line(track.size() - 1) << "); the grid t_j = j dt, j = 0.." << J
                     << ", dt = " << shortest(dt) << " needs [" << shortest(t0) << ", "
                     << shortest(t0 + J * dt) << "] on the sensor clock (time offset "
                     << shortest(t0)
                     << "): change T (or J, dt) or [tip] time_offset in the case, or give data "
                        "over that range");
  }
  std::size_t after = 0;  // samples after the grid's last time
  while (after < track.size() && track.key(track.size() - 1 - after) > t0 + J * dt + grid_tol)
    ++after;

  TipOnGrid tip;
  tip.time_offset = t0;
  tip.ignored_before = before;
  tip.g0.reserve(static_cast<std::size_t>(J) + 1);
  tip.eta0.reserve(static_cast<std::size_t>(J));
  std::ostringstream note;
  const std::string grid =
      t0 == 0.0 ? std::string("t_j = j dt") : "t_j = j dt from sensor time " + shortest(t0);
  if (track.on_grid(t0, dt, J + 1)) {
    for (int j = 0; j <= J; ++j) {
      const auto i = static_cast<std::size_t>(track.sample_at(t0 + j * dt, dt));
      tip.g0.push_back(track.pose(i));
      if (j < J) tip.eta0.push_back(track.vector(i));
    }
    note << file << ": " << track.size() << " samples on the grid " << grid
         << " (dt = " << shortest(dt) << "), j = 0.." << J << ", used as they are";
    // Signed: a degenerate clock (t0 + j dt equal for several j) uses one sample more than once.
    const long between =
        static_cast<long>(track.size()) - J - 1 - before - static_cast<long>(after);
    if (between > 0) note << " (" << between << " samples between grid times ignored)";
  } else {
    for (int j = 0; j <= J; ++j) {
      tip.g0.push_back(track.pose_at(t0 + j * dt));
      if (j < J) tip.eta0.push_back(track.vector_at(t0 + j * dt));
    }
    tip.resampled = true;
    note << file << ": " << track.size() << " samples resampled on the grid " << grid
         << " (dt = " << shortest(dt) << "), j = 0.." << J
         << (rotations ? " (positions and strains linearly, rotations by slerp)"
                       : " (positions and strains linearly)");
  }
  if (after > 0) note << "; " << after << " samples after the grid's end ignored";
  if (before > 0)
    note << "; " << before << " samples before the time offset " << shortest(t0) << " (lines "
         << track.line(0) << " to " << track.line(before - 1) << ") ignored";
  tip.note = note.str();
  return tip;
}

template <class G>
TipCsvWriter<G>::TipCsvWriter(std::filesystem::path path, const dcel::DiscreteModel<G>& model,
                              int first_row)
    : csv_(std::move(path), tip_columns()),
      dt_(model.dt()),
      ds_(model.ds()),
      first_(first_row),
      rows_(first_row) {}

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

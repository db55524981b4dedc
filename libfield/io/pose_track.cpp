#include "libfield/io/pose_track.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/lie/so3.hpp"

namespace field::io {
namespace {

/// sin(x)/x, with its Taylor series near 0 (relative error < 1e-17 for |x| < 1e-3).
double sinc(double x) {
  if (std::abs(x) < 1e-3) {
    const double x2 = x * x;
    return 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0);
  }
  return std::sin(x) / x;
}

}  // namespace

// Resampling on SE(3) is not in the theory: the project's choice, documented in
// docs/input-data.md (slerp of the rotation, linear in the position and the strain).
Vec4 slerp(const Vec4& q0, const Vec4& q1_in, double u) {
  // Sign continuity: q and -q are the same rotation; take the one on q0's side, so that the
  // path is the shorter arc and no 2 pi turn appears between neighbouring samples.
  const Vec4 q1 = q0.dot(q1_in) < 0.0 ? Vec4(-q1_in) : q1_in;
  // Half the angle between the two rotations, robust for all angles (acos(q0.q1) loses half the
  // digits near 0): theta = 2 atan2(|q1 - q0|, |q1 + q0|).
  const double theta = 2.0 * std::atan2((q1 - q0).norm(), (q1 + q0).norm());
  // sin((1-u) theta)/sin(theta) and sin(u theta)/sin(theta) written with sinc, so that the
  // weights tend to (1-u, u) without a 0/0 when the rotations coincide. theta <= pi/2 here.
  const double s = sinc(theta);
  const double w0 = (1.0 - u) * sinc((1.0 - u) * theta) / s;
  const double w1 = u * sinc(u * theta) / s;
  const Vec4 q = w0 * q0 + w1 * q1;
  return q / q.norm();  // unit to round-off already; keep it exactly normalised for from_quat
}

lie::SE3 pose_from_row(const CsvTable& table, std::size_t row, Vec4* q_out) {
  Vec4 q(table.value(row, "qw"), table.value(row, "qx"), table.value(row, "qy"),
         table.value(row, "qz"));
  const Vec3 r(table.value(row, "x"), table.value(row, "y"), table.value(row, "z"));
  FIELD_CHECK(q.allFinite() && r.allFinite(),
              table.where(row) << ": the pose (x, y, z, qw, qx, qy, qz) has a non-finite value: ("
                               << r.transpose() << ", " << q.transpose()
                               << "); give finite numbers");
  const double norm = q.norm();
  FIELD_CHECK(std::abs(norm - 1.0) <= kQuaternionTolerance,
              table.where(row) << ": quaternion (qw, qx, qy, qz) = (" << shortest(q(0)) << ", "
                               << shortest(q(1)) << ", " << shortest(q(2)) << ", " << shortest(q(3))
                               << ") has norm " << shortest(norm) << ", not 1 within "
                               << kQuaternionTolerance
                               << "; write a unit quaternion, scalar first (w, x, y, z), with "
                                  "at least 8 significant digits");
  if (norm != 1.0) q /= norm;  // within tolerance: renormalise silently
  if (q_out) *q_out = q;
  return lie::SE3::from_quat(q, r);
}

PoseTrack PoseTrack::from_table(const CsvTable& table, const std::string& key,
                                const std::vector<std::string>& vector_columns) {
  FIELD_CHECK(vector_columns.empty() || vector_columns.size() == 6,
              "PoseTrack: give 6 vector columns or none, got " << vector_columns.size());
  FIELD_CHECK(!table.rows.empty(), table.path.string() << ": no data rows after the header (line "
                                                       << table.header_line
                                                       << "); give at least one row of samples");
  PoseTrack track;
  track.path_ = table.path;
  track.key_name_ = key;
  const std::string file = table.path.string();
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const double k = table.value(i, key);
    FIELD_CHECK(std::isfinite(k),
                table.where(i) << ": column '" << key << "': " << shortest(k) << " is not finite");
    if (i > 0)
      FIELD_CHECK(k > track.keys_.back(),
                  table.where(i) << ": column '" << key << "': " << shortest(k)
                                 << " does not increase (previous row, line " << table.lines[i - 1]
                                 << ": " << key << " = " << shortest(track.keys_.back()) << "); "
                                 << key
                                 << " must increase strictly from row to row: sort the rows "
                                    "and remove duplicates");
    Vec4 q;
    const lie::SE3 g = pose_from_row(table, i, &q);
    if (!vector_columns.empty()) {
      Vec6 x;
      for (int c = 0; c < 6; ++c) {
        x(c) = table.value(i, vector_columns[static_cast<std::size_t>(c)]);
        FIELD_CHECK(std::isfinite(x(c)), table.where(i) << ": column '" << vector_columns[c]
                                                        << "': " << x(c) << " is not finite");
      }
      track.vectors_.push_back(x);
    }
    track.keys_.push_back(k);
    track.poses_.push_back(g);
    track.quats_.push_back(q);
    track.lines_.push_back(table.lines[i]);
  }
  return track;
}

long PoseTrack::sample_at(double key, double step) const {
  const double tol = 1e-9 * std::abs(step);
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), key - tol);
  if (it == keys_.end() || *it > key + tol) return -1;
  return static_cast<long>(it - keys_.begin());
}

bool PoseTrack::on_grid(double start, double step, int count) const {
  for (int k = 0; k < count; ++k)
    if (sample_at(start + k * step, step) < 0) return false;
  return true;
}

bool PoseTrack::covers(double key) const {
  const double tol = 1e-9 * std::max(1.0, std::abs(last() - first()));
  return key >= first() - tol && key <= last() + tol;
}

void PoseTrack::locate(double key, std::size_t& lo, double& u) const {
  FIELD_CHECK(covers(key), path_.string()
                               << ": " << key_name_ << " = " << shortest(key)
                               << " is outside the data's range [" << shortest(first()) << ", "
                               << shortest(last()) << "] (" << key_name_ << " of lines "
                               << lines_.front() << " and " << lines_.back()
                               << "); extend the file or keep the case inside that range");
  u = 0.0;
  if (key <= first()) {  // the first sample, or clamped to it within the tolerance
    lo = 0;
    return;
  }
  if (key >= last()) {
    lo = keys_.size() - 1;
    return;
  }
  // First sample with key(i) > key; then key(i-1) <= key < key(i).
  const std::size_t i =
      static_cast<std::size_t>(std::upper_bound(keys_.begin(), keys_.end(), key) - keys_.begin());
  lo = i - 1;
  if (keys_[lo] == key) return;  // exactly on a sample
  u = (key - keys_[lo]) / (keys_[i] - keys_[lo]);
}

lie::SE3 PoseTrack::pose_at(double key) const {
  std::size_t lo = 0;
  double u = 0.0;
  locate(key, lo, u);
  if (u == 0.0) return poses_[lo];  // on a sample: bit for bit
  const Vec3 r = (1.0 - u) * poses_[lo].r + u * poses_[lo + 1].r;
  return lie::SE3::from_quat(slerp(quats_[lo], quats_[lo + 1], u), r);
}

Vec6 PoseTrack::vector_at(double key) const {
  FIELD_CHECK(has_vector(), path_.string() << ": this track has no vector columns");
  std::size_t lo = 0;
  double u = 0.0;
  locate(key, lo, u);
  if (u == 0.0) return vectors_[lo];
  return (1.0 - u) * vectors_[lo] + u * vectors_[lo + 1];
}

}  // namespace field::io

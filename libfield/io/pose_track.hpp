#pragma once
/// A pose (SE(3), theory §0.2), optionally with a 6-vector, sampled at strictly increasing keys
/// (times), read from a CSV table with columns x, y, z, qw, qx, qy, qz (quaternion scalar first,
/// docs/conventions.md), and its resampling on the group: positions and vectors linearly,
/// rotations by slerp with sign continuity (docs/input-data.md).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/lie/se3.hpp"

namespace field::io {

/// Quaternions whose norm differs from 1 by more than this are rejected; closer ones are
/// renormalised silently.
inline constexpr double kQuaternionTolerance = 1e-6;

/// Spherical linear interpolation between unit quaternions (w, x, y, z): u = 0 gives q0, u = 1
/// gives q1 or -q1. The sign of q1 is flipped when q0 . q1 < 0, so that the path is the shorter
/// arc (q and -q are the same rotation). The result is a unit quaternion.
Vec4 slerp(const Vec4& q0, const Vec4& q1, double u);

/// The pose of row `row` of `table` (columns x, y, z, qw, qx, qy, qz): the quaternion is
/// renormalised if its norm is within kQuaternionTolerance of 1, else field::Error naming the
/// file, the line, the quaternion and its norm. `q_out`, if given, receives the unit quaternion.
lie::SE3 pose_from_row(const CsvTable& table, std::size_t row, Vec4* q_out = nullptr);

/// Poses (and optional 6-vectors) at strictly increasing keys, with group resampling.
class PoseTrack {
 public:
  /// Reads every row of `table`: the key column `key` (e.g. "t"), the pose columns and, if
  /// `vector_columns` holds 6 names, a 6-vector per row (e.g. Omega1..Gamma3). Throws
  /// field::Error for no rows, keys not strictly increasing (line of the offender), a non-unit
  /// quaternion (line and norm) or a non-finite value.
  static PoseTrack from_table(const CsvTable& table, const std::string& key,
                              const std::vector<std::string>& vector_columns);

  double first() const { return keys_.front(); }
  double last() const { return keys_.back(); }
  std::size_t size() const { return keys_.size(); }
  bool has_vector() const { return !vectors_.empty(); }
  const std::filesystem::path& path() const { return path_; }
  const std::string& key_name() const { return key_name_; }

  /// Key, pose, unit quaternion, vector and file line of sample i, as read.
  double key(std::size_t i) const { return keys_[i]; }
  const lie::SE3& pose(std::size_t i) const { return poses_[i]; }
  const Vec4& quat(std::size_t i) const { return quats_[i]; }
  const Vec6& vector(std::size_t i) const { return vectors_[i]; }
  int line(std::size_t i) const { return lines_[i]; }

  /// True when every grid point start + k step, k = 0..count-1, coincides with a sample key
  /// within 1e-9 * step (more samples than grid points are allowed).
  bool on_grid(double start, double step, int count) const;
  /// Index of the sample whose key is within 1e-9 * step of `key`, or -1.
  long sample_at(double key, double step) const;
  /// True when `key` lies in [first, last] up to 1e-9 * max(1, last - first).
  bool covers(double key) const;

  /// Pose at `key`: exactly on a sample, that sample bit for bit; between two samples, position
  /// linear and rotation slerp (sign continuity). Outside [first, last] (beyond the tolerance of
  /// covers()) a field::Error naming the key, the data's range and the file.
  lie::SE3 pose_at(double key) const;
  /// Vector at `key`, linear between samples; same rules. Error if the track has no vector.
  Vec6 vector_at(double key) const;

 private:
  /// Sample `lo` and fraction u in [0, 1) with key = (1-u) key(lo) + u key(lo+1); u = 0 exactly
  /// when key is a sample (or clamped to an end). Error outside the range.
  void locate(double key, std::size_t& lo, double& u) const;

  std::filesystem::path path_;
  std::string key_name_;
  std::vector<double> keys_;
  std::vector<lie::SE3> poses_;
  std::vector<Vec4> quats_;  // unit, sign as in the file
  std::vector<Vec6> vectors_;
  std::vector<int> lines_;
};

}  // namespace field::io

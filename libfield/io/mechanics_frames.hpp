#pragma once
/// The ParaView frames of `field mechanics` (docs/mechanics.md §7): one VTK polydata file per
/// frame, DIR/frames/frame_NNNNNN.vtp, of points joined by line segments (the pendulum's pivot,
/// masses and rods; the rigid body's centre and the tips of its body axes d1, d2, d3), with a
/// point array "id" and the time as field data TimeValue, listed in DIR/mechanics.pvd
/// (pvd_index.hpp). Appended raw float64 data (vtk_file.hpp).
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/io/pvd_index.hpp"

namespace field::io {

/// One frame: points, and segments as pairs of point indices.
struct PolylineFrame {
  std::vector<Vec3> points;
  std::vector<std::array<std::int64_t, 2>> segments;
};

class MechanicsFrames {
 public:
  /// Frames go to `dir`/frames/, the index to `dir`/mechanics.pvd.
  explicit MechanicsFrames(const std::filesystem::path& dir);
  /// Writes frame number size() at `time`. Throws field::IoError.
  void add(double time, const PolylineFrame& frame);
  long long size() const { return index_.size(); }

 private:
  std::filesystem::path dir_;
  PvdIndex index_;
};

/// The bytes of a frame's .vtp file.
std::string polyline_vtp(double time, const PolylineFrame& frame);

}  // namespace field::io

#pragma once
/// The stress-free shape as a centreline polyline with frames (theory §1.6, (1.6.4); [shape]
/// polyline, meshes/README.md): a CSV file with the columns s, x, y, z, qw, qx, qy, qz, the pose
/// of the centreline point and its directors at material coordinate s [m] (quaternion scalar
/// first), s strictly increasing. The pose of node a is the polyline's at s_a (theory §3.4):
/// a row exactly at s_a gives it bit for bit, between rows the position is linear and the
/// rotation a slerp (io/pose_track). Segment a's reference strain is then
/// eta0_a = tau^{-1}(g_a^{-1} g_{a+1}) / ds with the case's retraction. A free right end's ghost
/// node A (ds/2 beyond the physical end) may lie past the last row: its segment then takes the
/// strain of the segment before it (the end stays stress-free, straight on).
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/lie/se3.hpp"

namespace field::io {

/// s, x, y, z, qw, qx, qy, qz.
const std::vector<std::string>& shape_polyline_columns();

/// The stress-free shape of a polyline: the reference strain of every segment a = 0..A-1 and the
/// poses of the nodes a = 0..A in it.
struct PolylineShape {
  std::vector<Vec6> strains;    ///< eta0_a, theory (1.6.4)
  std::vector<lie::SE3> nodes;  ///< g_a = the polyline's pose at s_a (the ghost by (1.6.3))
};

/// Reads `path` for the nodes at material coordinates `node_s` (s_a, a = 0..A, increasing) with
/// step `ds`. `ghost_beyond` says that node A is a free end's ghost. field::Error names the
/// file and line of a bad row (s not increasing, a quaternion that is not unit, a non-finite
/// value), the node s that the rows do not cover, and a segment that turns by pi or more (its
/// strain does not exist for the Cayley retraction).
PolylineShape read_shape_polyline(const std::filesystem::path& path,
                                  const std::vector<double>& node_s, double ds,
                                  lie::RetractionKind retraction, bool ghost_beyond);

}  // namespace field::io

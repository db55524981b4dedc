#include "libfield/io/shape_polyline.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

const std::vector<std::string>& shape_polyline_columns() {
  static const std::vector<std::string> columns = {"s", "x", "y", "z", "qw", "qx", "qy", "qz"};
  return columns;
}

PolylineShape read_shape_polyline(const std::filesystem::path& path,
                                  const std::vector<double>& node_s, double ds,
                                  lie::RetractionKind retraction, bool ghost_beyond) {
  const PoseTrack track = PoseTrack::from_table(read_csv(path, shape_polyline_columns()), "s", {});
  const int A = static_cast<int>(node_s.size()) - 1;
  FIELD_CHECK(A >= 1, path.string() << ": the beam needs at least one segment");
  // A free end's ghost past the last row: its segment continues the one before (header comment).
  const bool extend = ghost_beyond && A >= 2 && !track.covers(node_s[A]);
  PolylineShape shape;
  for (int a = 0; a <= A - (extend ? 1 : 0); ++a) shape.nodes.push_back(track.pose_at(node_s[a]));
  lie::with_group(retraction, [&](auto group) {
    using G = decltype(group);
    for (int a = 0; a + 1 < static_cast<int>(shape.nodes.size()); ++a) {
      const lie::SE3& g0 = shape.nodes[a];
      const lie::SE3& g1 = shape.nodes[a + 1];
      const Mat3 turn = g0.R.transpose() * g1.R;
      const double angle = std::acos(std::clamp(0.5 * (turn.trace() - 1.0), -1.0, 1.0));
      FIELD_CHECK(angle < M_PI - 1e-6,
                  path.string() << ": segment a = " << a << " (s = " << shortest(node_s[a])
                                << " to " << shortest(node_s[a + 1]) << " m) turns the frame by "
                                << shortest(angle)
                                << " rad: its reference strain tau^{-1}(g_a^{-1} g_{a+1})/ds "
                                   "needs a turn below pi per segment; give more rows or a "
                                   "smaller ds");
      shape.strains.push_back(mesh::convected<G>(g0, g1, ds));  // theory (1.6.4)
    }
    if (extend) {
      shape.strains.push_back(shape.strains.back());
      shape.nodes.push_back(shape.nodes.back() * G::tau(ds * shape.strains.back()));
    }
  });
  for (int a = 0; a < A; ++a)
    FIELD_CHECK(shape.strains[a].allFinite(),
                path.string() << ": the reference strain of segment a = " << a
                              << " is not finite; check the rows near s = " << shortest(node_s[a]));
  return shape;
}

}  // namespace field::io

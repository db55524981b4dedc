#pragma once
/// Per-node data of a case from CSV files (docs/input-data.md, "Node data (CSV)"): initial poses
/// g^a (columns a, x, y, z, qw, qx, qy, qz; a run's field.csv with its j column can serve),
/// initial body velocities xi^a = (omega, gamma) (columns a, w1, w2, w3, v1, v2, v3, theory §0.2
/// order) and the motion of a prescribed end in time (columns t, x, y, z, qw, qx, qy, qz).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/lie/se3.hpp"

namespace field::io {

/// Poses g^a, a = 0..nodes-1, in the world frame (quaternion scalar first). Every a exactly once,
/// rows in any order; if `j` is given the file must have a column j and only its rows with that
/// j are used. field::Error names the file, the line and the value of an a that is not an
/// integer, out of range or repeated, and the first a missing.
std::vector<lie::SE3> read_node_poses(const std::filesystem::path& path, int nodes,
                                      std::optional<int> j = std::nullopt);
/// The same from a table already read (read_csv or parse_csv with node_pose_columns(j)).
std::vector<lie::SE3> node_poses(const CsvTable& table, int nodes,
                                 std::optional<int> j = std::nullopt);
/// The required columns of a node-pose file: [j,] a, x, y, z, qw, qx, qy, qz.
std::vector<std::string> node_pose_columns(bool with_j);

/// Body velocities xi^a = (omega, gamma) [rad/s, m/s], a = 0..nodes-1 (theory §0.2), columns
/// a, w1, w2, w3, v1, v2, v3; same rules as read_node_poses.
std::vector<Vec6> read_node_velocities(const std::filesystem::path& path, int nodes);
/// The same from a table already read with node_velocity_columns().
std::vector<Vec6> node_velocities(const CsvTable& table, int nodes);
/// a, w1, w2, w3, v1, v2, v3.
const std::vector<std::string>& node_velocity_columns();

/// Velocities of the points of R^3 (the cable's nodes, theory §1.8) v^a [m/s], a = 0..nodes-1,
/// columns a, v1, v2, v3; same rules as read_node_poses.
std::vector<Vec3> read_point_velocities(const std::filesystem::path& path, int nodes);

/// Reference strains eta0_a = (k1, k2, k3, g1, g2, g3) of the segments a = 0..segments-1
/// (theory §1.6, [shape] file), columns a, k1, k2, k3, g1, g2, g3; same rules as
/// read_node_poses, for segments.
std::vector<Vec6> read_segment_strains(const std::filesystem::path& path, int segments);
/// The row of every segment a = 0..segments-1 of a table with a column a: each exactly once
/// (the rules of read_node_poses).
std::vector<std::size_t> segment_rows(const CsvTable& table, int segments);
/// a, k1, k2, k3, g1, g2, g3.
const std::vector<std::string>& segment_strain_columns();

/// The motion of a prescribed end, columns t, x, y, z, qw, qx, qy, qz, t strictly increasing;
/// resample it with PoseTrack::pose_at.
PoseTrack read_pose_track(const std::filesystem::path& path);
/// The path of a prescribed point of R^3 (a cable's driven end, theory §1.8), columns t, x, y,
/// z, t strictly increasing; other columns (a beam's qw..qz) are ignored. Its poses have the
/// identity rotation: resample the positions with PoseTrack::pose_at(t).r (linear).
PoseTrack read_position_track(const std::filesystem::path& path);
/// Sets the columns qw, qx, qy, qz of every row of `table` to the identity quaternion (1, 0, 0, 0),
/// adding the columns it lacks: a table of positions read as poses (PoseTrack::from_table).
void set_identity_rotations(CsvTable& table);
/// t, x, y, z, qw, qx, qy, qz (a table of them becomes a track by PoseTrack::from_table).
const std::vector<std::string>& pose_track_columns();

}  // namespace field::io

#include "libfield/io/node_data.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"

namespace field::io {
namespace {

/// Indices in node files are at most this (far beyond any grid; the case's limit is 2e9).
constexpr double kMaxIndex = 2e9;

/// The integer in column `name` of `row`; Error if it is not a whole number or out of range.
long whole_number(const CsvTable& table, std::size_t row, const std::string& name) {
  const double v = table.value(row, name);
  FIELD_CHECK(v == std::floor(v), table.where(row) << ": column '" << name << "': " << shortest(v)
                                                   << " is not a whole number; " << name
                                                   << " is an index (0, 1, 2, ...)");
  FIELD_CHECK(std::abs(v) <= kMaxIndex,
              table.where(row) << ": column '" << name << "': " << shortest(v)
                               << " is out of range; " << name << " is an index between 0 and "
                               << static_cast<long>(kMaxIndex));
  return static_cast<long>(v);
}

/// Row of every node a = 0..nodes-1 among the rows of `table` selected by `use`: each a
/// exactly once.
template <typename Use>
std::vector<std::size_t> node_rows(const CsvTable& table, int nodes, Use use,
                                   const std::string& selection, const std::string& node = "node") {
  FIELD_CHECK(nodes >= 1, table.path.string() << ": the case has " << nodes << " " << node << "s");
  std::vector<long> row_of(static_cast<std::size_t>(nodes), -1);
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    if (!use(i)) continue;
    const long a = whole_number(table, i, "a");
    FIELD_CHECK(a >= 0 && a < nodes,
                table.where(i) << ": column 'a': " << node << " " << a
                               << " is out of range; the case has " << nodes << " " << node
                               << "s, a = 0.." << nodes - 1
                               << ": remove the row or change the case's number of nodes");
    const auto k = static_cast<std::size_t>(a);
    FIELD_CHECK(row_of[k] < 0, table.where(i)
                                   << ": column 'a': " << node << " " << a << selection
                                   << " given twice (first on line "
                                   << table.lines[static_cast<std::size_t>(std::max(row_of[k], 0L))]
                                   << "); give every " << node << " once");
    row_of[k] = static_cast<long>(i);
  }
  std::vector<std::size_t> rows;
  for (int a = 0; a < nodes; ++a) {
    FIELD_CHECK(row_of[static_cast<std::size_t>(a)] >= 0,
                table.path.string() << ": " << node << " a = " << a << selection
                                    << " is missing; the case has " << nodes << " " << node
                                    << "s, a = 0.." << nodes - 1 << ": give one row for each");
    rows.push_back(static_cast<std::size_t>(row_of[static_cast<std::size_t>(a)]));
  }
  return rows;
}

}  // namespace

std::vector<std::string> node_pose_columns(bool with_j) {
  std::vector<std::string> columns = {"a", "x", "y", "z", "qw", "qx", "qy", "qz"};
  if (with_j) columns.insert(columns.begin(), "j");
  return columns;
}

const std::vector<std::string>& node_velocity_columns() {
  static const std::vector<std::string> columns = {"a", "w1", "w2", "w3", "v1", "v2", "v3"};
  return columns;
}

const std::vector<std::string>& pose_track_columns() {
  static const std::vector<std::string> columns = {"t", "x", "y", "z", "qw", "qx", "qy", "qz"};
  return columns;
}

std::vector<lie::SE3> read_node_poses(const std::filesystem::path& path, int nodes,
                                      std::optional<int> j) {
  return node_poses(read_csv(path, node_pose_columns(j.has_value())), nodes, j);
}

std::vector<lie::SE3> node_poses(const CsvTable& table, int nodes, std::optional<int> j) {
  const std::filesystem::path& path = table.path;
  std::vector<std::size_t> rows;
  if (j) {
    const auto use = [&](std::size_t i) { return whole_number(table, i, "j") == *j; };
    bool has_rows = false;
    long first = 0, last = -1;  // the rows j of the file
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      const long row = whole_number(table, i, "j");
      first = i == 0 ? row : std::min(first, row);
      last = i == 0 ? row : std::max(last, row);
      has_rows = has_rows || row == *j;
    }
    FIELD_CHECK(has_rows, path.string() << ": no row with j = " << *j << " (the file has "
                                        << (last < first ? std::string("no rows")
                                                         : "rows j = " + std::to_string(first) +
                                                               ".." + std::to_string(last))
                                        << "); choose a time row j that the file has");
    // Name the j in the messages about nodes.
    const std::string selection = " (j = " + std::to_string(*j) + ")";
    rows = node_rows(table, nodes, use, selection);
  } else {
    rows = node_rows(
        table, nodes, [](std::size_t) { return true; }, "");
  }
  std::vector<lie::SE3> poses;
  poses.reserve(rows.size());
  for (const std::size_t i : rows) poses.push_back(pose_from_row(table, i));
  return poses;
}

std::vector<Vec6> read_node_velocities(const std::filesystem::path& path, int nodes) {
  return node_velocities(read_csv(path, node_velocity_columns()), nodes);
}

std::vector<Vec6> node_velocities(const CsvTable& table, int nodes) {
  const std::vector<std::string>& columns = node_velocity_columns();
  const std::vector<std::size_t> rows = node_rows(
      table, nodes, [](std::size_t) { return true; }, "");
  std::vector<Vec6> velocities;
  velocities.reserve(rows.size());
  for (const std::size_t i : rows) {
    Vec6 xi;
    for (int c = 0; c < 6; ++c) xi(c) = table.value(i, columns[static_cast<std::size_t>(c) + 1]);
    velocities.push_back(xi);
  }
  return velocities;
}

std::vector<Vec3> read_point_velocities(const std::filesystem::path& path, int nodes) {
  const CsvTable table = read_csv(path, {"a", "v1", "v2", "v3"});
  std::vector<Vec3> velocities;
  for (const std::size_t i : node_rows(
           table, nodes, [](std::size_t) { return true; }, ""))
    velocities.emplace_back(table.value(i, "v1"), table.value(i, "v2"), table.value(i, "v3"));
  return velocities;
}

const std::vector<std::string>& segment_strain_columns() {
  static const std::vector<std::string> columns = {"a", "k1", "k2", "k3", "g1", "g2", "g3"};
  return columns;
}

std::vector<std::size_t> segment_rows(const CsvTable& table, int segments) {
  return node_rows(
      table, segments, [](std::size_t) { return true; }, "", "segment");
}

std::vector<Vec6> read_segment_strains(const std::filesystem::path& path, int segments) {
  const CsvTable table = read_csv(path, segment_strain_columns());
  const std::vector<std::string>& columns = segment_strain_columns();
  const std::vector<std::size_t> rows = segment_rows(table, segments);
  std::vector<Vec6> strains;
  strains.reserve(rows.size());
  for (const std::size_t i : rows) {
    Vec6 eta0;
    for (int c = 0; c < 6; ++c) eta0(c) = table.value(i, columns[static_cast<std::size_t>(c) + 1]);
    strains.push_back(eta0);
  }
  return strains;
}

PoseTrack read_pose_track(const std::filesystem::path& path) {
  return PoseTrack::from_table(read_csv(path, pose_track_columns()), "t", {});
}

void set_identity_rotations(CsvTable& table) {
  const char* const quaternion[] = {"qw", "qx", "qy", "qz"};
  for (int c = 0; c < 4; ++c) {
    const double value = c == 0 ? 1.0 : 0.0;
    if (table.has_column(quaternion[c])) {
      const auto k = static_cast<std::size_t>(table.column(quaternion[c]));
      for (auto& row : table.rows) row[k] = value;
    } else {
      table.columns.push_back(quaternion[c]);
      for (auto& row : table.rows) row.push_back(value);
    }
  }
}

PoseTrack read_position_track(const std::filesystem::path& path) {
  CsvTable table = read_csv(path, {"t", "x", "y", "z"});
  set_identity_rotations(table);  // rotations are not read
  return PoseTrack::from_table(table, "t", {});
}

}  // namespace field::io

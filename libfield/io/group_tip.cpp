#include "libfield/io/group_tip.hpp"

#include "libfield/io/csv_table.hpp"
#include "libfield/io/node_data.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/io/vtk_file.hpp"
#include "libfield/lie/coordinates.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

template <class G>
std::vector<std::string> group_tip_columns(const TipColumns<G>& names) {
  std::vector<std::string> columns = {"t"};
  for (const char* name : lie::Coordinates<typename G::Element>::names) columns.emplace_back(name);
  for (const std::string& rate : {names.velocity, std::string("eta")})
    for (int i = 1; i <= G::dim; ++i) columns.push_back(rate + std::to_string(i));
  if (!names.extra.empty()) columns.push_back(names.extra);
  return columns;
}

template <class G>
std::vector<std::string> group_tip_track_columns() {
  std::vector<std::string> columns = {"t"};
  for (const char* name : lie::Coordinates<typename G::Element>::names) columns.emplace_back(name);
  for (int i = 1; i <= G::dim; ++i) columns.push_back("eta" + std::to_string(i));
  return columns;
}

template <class G>
GroupTipOnGrid<G> read_group_tip(const std::filesystem::path& path, double dt, int J,
                                 std::optional<double> time_offset) {
  return read_group_tip<G>(read_csv(path, group_tip_track_columns<G>()), dt, J, time_offset);
}

template <class G>
GroupTipOnGrid<G> read_group_tip(CsvTable table, double dt, int J,
                                 std::optional<double> time_offset) {
  using E = typename G::Element;
  std::vector<std::string> strain;
  for (int i = 1; i <= G::dim; ++i) strain.push_back("eta" + std::to_string(i));
  // The pose track of io/pose_track.hpp holds a pose and a 6-vector: an element without a
  // rotation gets the identity, a 3-vector strain is held twice (its second half not used).
  constexpr bool rotations = std::is_same_v<E, lie::SE3>;
  static_assert(rotations || G::dim == 3, "a tip track holds SE(3) poses or points of R^3");
  if constexpr (!rotations) set_identity_rotations(table);
  if (G::dim == 3) {
    const std::vector<std::string> once = strain;
    strain.insert(strain.end(), once.begin(), once.end());
  }
  const TipOnGrid tip =
      tip_on_grid(PoseTrack::from_table(table, "t", strain), dt, J, time_offset, rotations);
  GroupTipOnGrid<G> out;
  for (const lie::SE3& g : tip.g0) {
    if constexpr (rotations)
      out.g0.push_back(g);
    else
      out.g0.push_back(g.r);
  }
  for (const Vec6& eta : tip.eta0) out.eta0.push_back(eta.head<G::dim>());
  out.note = tip.note;
  return out;
}

template <class G>
GroupTipCsvWriter<G>::GroupTipCsvWriter(std::filesystem::path path, const mesh::SpacetimeMesh& mesh,
                                        TipColumns<G> names)
    : mesh_(mesh), names_(std::move(names)), csv_(std::move(path), group_tip_columns<G>(names_)) {}

template <class G>
void GroupTipCsvWriter<G>::write(int j, const std::vector<Element>& row,
                                 const typename G::Algebra& xi) {
  using C = lie::Coordinates<Element>;
  double values[1 + C::size + 2 * G::dim + 1];
  values[0] = mesh_.t(j);
  C::write(row[0], values + 1);
  const typename G::Algebra eta = mesh::convected<G>(row[0], row[1], mesh_.ds());  // theory §3.1
  for (int i = 0; i < G::dim; ++i) {
    values[1 + C::size + i] = xi(i);
    values[1 + C::size + G::dim + i] = eta(i);
  }
  const bool extra = !names_.extra.empty();
  if (extra) values[1 + C::size + 2 * G::dim] = names_.extra_of(eta);
  csv_.row(values, std::size(values) - (extra ? 0 : 1));
}

template <class G>
void GroupTipCsvWriter<G>::slab(int j, const std::vector<Element>& row, const march::SlabStats&) {
  check_frame_row("tip.csv", j, last_j_, finished_, row.size(), mesh_);
  if (last_j_ >= 0) write(last_j_, last_, mesh::convected<G>(last_[0], row[0], mesh_.dt()));
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

template <class G>
void GroupTipCsvWriter<G>::finish() {
  if (finished_) return;
  finished_ = true;
  // The last row has no successor: its velocity is that of the previous step, xi_{j-1}.
  if (last_j_ >= 1)
    write(last_j_, last_, mesh::convected<G>(before_[0], last_[0], mesh_.dt()));
  else if (last_j_ == 0)
    write(0, last_, G::Algebra::Zero());
  csv_.close();
}

#define FIELD_INSTANTIATE(G)                                                                  \
  template std::vector<std::string> group_tip_columns<G>(const TipColumns<G>&);               \
  template std::vector<std::string> group_tip_track_columns<G>();                             \
  template GroupTipOnGrid<G> read_group_tip<G>(const std::filesystem::path&, double, int,     \
                                               std::optional<double>);                        \
  template GroupTipOnGrid<G> read_group_tip<G>(CsvTable, double, int, std::optional<double>); \
  template class GroupTipCsvWriter<G>;
FIELD_FOR_EACH_REGISTRY_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io

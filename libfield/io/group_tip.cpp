#include "libfield/io/group_tip.hpp"

#include "libfield/io/vtk_file.hpp"
#include "libfield/lie/coordinates.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

template <class G>
std::vector<std::string> group_tip_columns() {
  std::vector<std::string> columns = {"t"};
  for (const char* name : lie::Coordinates<typename G::Element>::names) columns.emplace_back(name);
  for (const char* rate : {"xi", "eta"})
    for (int i = 1; i <= G::dim; ++i) columns.push_back(rate + std::to_string(i));
  return columns;
}

template <class G>
GroupTipCsvWriter<G>::GroupTipCsvWriter(std::filesystem::path path, const mesh::SpacetimeMesh& mesh)
    : mesh_(mesh), csv_(std::move(path), group_tip_columns<G>()) {}

template <class G>
void GroupTipCsvWriter<G>::write(int j, const std::vector<Element>& row,
                                 const typename G::Algebra& xi) {
  using C = lie::Coordinates<Element>;
  double values[1 + C::size + 2 * G::dim];
  values[0] = mesh_.t(j);
  C::write(row[0], values + 1);
  const typename G::Algebra eta = mesh::convected<G>(row[0], row[1], mesh_.ds());  // theory §3.1
  for (int i = 0; i < G::dim; ++i) {
    values[1 + C::size + i] = xi(i);
    values[1 + C::size + G::dim + i] = eta(i);
  }
  csv_.row(values, std::size(values));
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

#define FIELD_INSTANTIATE(G)                                \
  template std::vector<std::string> group_tip_columns<G>(); \
  template class GroupTipCsvWriter<G>;
FIELD_FOR_EACH_REGISTRY_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io

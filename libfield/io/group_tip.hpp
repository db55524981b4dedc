#pragma once
/// tip.csv of a run of a registered theory (model/theory_registry.hpp, docs/output-format.md) or
/// of the cable (theory §1.8): the end a = 0 of every time row on any group G with
/// lie::Coordinates, columns
///   t, <the element's coordinates>, xi1..xin, eta1..etan [, extra]
/// the time, the node g_j^0, its body velocity xi_j^0 = tau^{-1}((g_j^0)^{-1} g_{j+1}^0)/dt and
/// the strain of the first segment eta_j^0 = tau^{-1}((g_j^0)^{-1} g_j^1)/ds (theory §3.1); the
/// last row written has xi_{j-1} (a single row: zero), as the frames. Shortest round-trip
/// numbers (io/csv_writer.hpp); written to `path.part` and renamed in finish().
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "libfield/io/csv_table.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::io {

/// What a theory may change in its tip.csv: the prefix of the velocity columns and a last column
/// computed from the strain eta_j^0 (the cable: v1..v3 and its tension W'(|eta|), theory (1.8.2)).
template <class G>
struct TipColumns {
  std::string velocity = "xi";
  std::string extra;  ///< the last column's name; none when empty
  std::function<double(const typename G::Algebra& eta)> extra_of;
};

/// The columns of G's tip.csv.
template <class G>
std::vector<std::string> group_tip_columns(const TipColumns<G>& names = {});

/// The tip data of a space march on G (`field reconstruct` of a registered theory, theory §6.2)
/// on the grid t_j = j dt, j = 0..J: the nodes g_j^0 and the strains eta_j^0 (j = 0..J-1) of the
/// columns t, the element's coordinates and eta1..etan of G's tip.csv (xi1..xin are not read; the
/// march takes column 1 as g_j^1 = g_j^0 tau(ds eta_j^0)), by the rules of io::read_tip
/// (io/tip_data.hpp): samples on the grid as they are, otherwise resampled (positions and strains
/// linearly, rotations by slerp); [tip] time_offset. Throws field::Error naming the file, the
/// line, the column and the value.
template <class G>
struct GroupTipOnGrid {
  std::vector<typename G::Element> g0;    ///< g_j^0, j = 0..J
  std::vector<typename G::Algebra> eta0;  ///< eta_j^0, j = 0..J-1
  std::string note;                       ///< how the samples met the grid, for the user
};
template <class G>
GroupTipOnGrid<G> read_group_tip(const std::filesystem::path& path, double dt, int J,
                                 std::optional<double> time_offset = {});
/// The same from tip data already read as a table with those columns (the Python module's
/// arrays, docs/python.md; `table.path` names it in messages).
template <class G>
GroupTipOnGrid<G> read_group_tip(CsvTable table, double dt, int J,
                                 std::optional<double> time_offset = {});
/// The columns read_group_tip reads: t, the element's coordinates, eta1..etan.
template <class G>
std::vector<std::string> group_tip_track_columns();

template <class G>
class GroupTipCsvWriter final : public march::BasicSlabObserver<typename G::Element> {
 public:
  using Element = typename G::Element;
  GroupTipCsvWriter(std::filesystem::path path, const mesh::SpacetimeMesh& mesh,
                    TipColumns<G> names = {});
  /// Row j must follow the previous row; writes row j-1.
  void slab(int j, const std::vector<Element>& row, const march::SlabStats& stats) override;
  /// Writes the last row received, closes the file. Throws field::IoError.
  void finish() override;

 private:
  void write(int j, const std::vector<Element>& row, const typename G::Algebra& xi);
  mesh::SpacetimeMesh mesh_;
  TipColumns<G> names_;
  CsvWriter csv_;
  std::vector<Element> last_, before_;  // rows last_j_ and last_j_ - 1
  int last_j_ = -1;
  bool finished_ = false;
};

}  // namespace field::io

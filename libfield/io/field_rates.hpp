#pragma once
/// `field_rates.csv` of a time march's run folder, the companion of field.csv
/// (docs/output-format.md; [output] rates = true): the velocity, strain and stress of every node
/// of the rows field.csv holds, so that a table reader (pandas) needs no VTK reader. One line per
/// node (j, a), columns
///   j, a, t, s                        as in field.csv
///   w1, w2, w3, v1, v2, v3            body velocity xi_j^a = (omega, gamma) [rad/s, m/s] of the
///   step
///                                     j -> j+1 (theory §3.1); the last row written: the step
///                                     j-1 -> j, as the VTK frames' velocity
///   k1, k2, k3, g1, g2, g3            body strain eta_j^a = (Omega, Gamma) [1/m, -] of the segment
///                                     (a, a+1) (theory §3.1), the frames' cell a
///   m1, m2, m3, n1, n2, n3            body stress (moment [N m], force [N]) of that segment,
///                                     C_a (eta - eta0_a) (theory §1, §1.6)
/// The node a = A has no segment: its last 12 fields are empty. Values are those of the VTK
/// frames of the same row bit for bit (io/beam_rates.hpp; the frames hold R xi and the cell
/// values), in the shortest round-trip form (csv_writer.hpp), one slab formatted in place as
/// field.csv's. Rows: field.csv's ([output] stride), the last row received at finish().
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/slab_key_texts.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/march/observer.hpp"

namespace field::io {

/// The column names of field_rates.csv, in order.
const std::vector<std::string>& field_rates_columns();

template <class G>
class FieldRatesWriter final : public march::SlabObserver {
 public:
  /// A slab observer of TIME ROWS (slab index j, poses g_j^a, a = 0..A). `left` sets
  /// s = mesh.s(a, left); `first_row`: the first row received (a continued march's row j-1,
  /// io/checkpoint.hpp). Opens `path.part`; throws field::IoError.
  FieldRatesWriter(std::filesystem::path path, const dcel::DiscreteModel<G>& model, mesh::Side left,
                   int stride, int first_row = 0);

  /// Row j must follow the previous row; writes row j-1 when it is an output row.
  void slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats& stats) override;
  /// Writes the last row received (J for a complete march), closes and renames the file.
  /// Throws field::IoError.
  void finish() override;

  /// Data lines written so far.
  long long rows() const { return csv_.rows(); }

 private:
  /// Writes row j with the velocities of the step from `from` to `to` (null: zero).
  void write_row(int j, const std::vector<lie::SE3>& row, const std::vector<lie::SE3>* from,
                 const std::vector<lie::SE3>* to);

  dcel::DiscreteModel<G> model_;
  SlabSelection selection_;
  CsvWriter csv_;
  SlabKeyTexts keys_;
  std::vector<lie::SE3> last_, before_;  // rows last_j_ and last_j_ - 1
  int first_;                            // the first row received
  int last_j_;                           // the last row received (first_ - 1: none)
  bool finished_ = false;
};

}  // namespace field::io

#pragma once
/// `field.csv` of a run folder (docs/output-format.md): one line per node (j, a) of every output
/// slab, columns j,a,t,s,x,y,z,qw,qx,qy,qz: indices, time t_j [s], material coordinate s_a [m]
/// (theory §3.4), centre line r = (x, y, z) [m] and the rotation as a unit quaternion (w, x, y, z)
/// with w >= 0 (lie::SE3::quat()), all in their shortest round-trip form (csv_writer.hpp). The
/// writer is a slab observer of either march; the reader and assemble_field() rebuild a whole
/// mesh::Field for `field check`.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/io/csv_writer.hpp"
#include "libfield/io/slab_key_texts.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/field.hpp"

namespace field::io {

/// The column names of field.csv, in order.
const std::vector<std::string>& field_csv_columns();

class FieldCsvWriter final : public march::SlabObserver {
 public:
  /// `by_rows`: the slabs are time rows (time march, slab index j, A+1 poses) and rows j with
  /// j % stride == 0 or j == J are written; otherwise space columns (space march, slab index a,
  /// J+1 poses), columns a % stride == 0 or a == A, each with all j = 0..J. `left` says where the
  /// nodes sit: s = mesh.s(a, left). Opens `path.part`; throws field::IoError.
  FieldCsvWriter(std::filesystem::path path, const mesh::SpacetimeMesh& mesh, bool by_rows,
                 mesh::Side left, int stride);

  void slab(int index, const std::vector<lie::SE3>& values, const march::SlabStats& stats) override;
  /// Writes the last slab received if it was not an output slab, then closes and renames the
  /// file. Throws field::IoError.
  void finish() override;

  /// Data lines written so far.
  long long rows() const { return csv_.rows(); }

 private:
  void write_slab(int index, const std::vector<lie::SE3>& values);

  mesh::SpacetimeMesh mesh_;
  bool by_rows_;
  SlabSelection selection_;
  CsvWriter csv_;
  SlabKeyTexts keys_;              // "j,a,t,s," of every node
  std::vector<lie::SE3> pending_;  // last slab received when it was not written
  int pending_index_ = -1;
};

/// The content of a field.csv, one entry per data line, in file order.
struct FieldCsv {
  std::filesystem::path path;   ///< the file read (for messages)
  std::vector<long long> line;  ///< line number of each entry in the file (header = line 1)
  std::vector<int> j, a;        ///< node indices
  std::vector<double> t, s;     ///< t_j [s], s_a [m]
  std::vector<lie::SE3> g;      ///< pose (rotation from the normalised quaternion)
  bool cut_line = false;        ///< a last line without line end was dropped (`prefix` read)
};

/// Reads a field.csv (columns found by name, others ignored). Throws field::IoError when the file
/// cannot be opened and field::Error naming the file, the line and the value for a missing
/// column, a ragged line, a value that is not a number or not finite, indices that are not
/// non-negative integers, or a quaternion whose norm differs from 1 by more than 1e-6.
/// `prefix`: the file is the field.csv.part of a killed run, whose last line may be cut anywhere
/// (docs/output-format.md): a last line without line end is dropped unread (a cut number can
/// still parse) and `cut_line` set; the header must be complete.
FieldCsv read_field_csv(const std::filesystem::path& path, bool prefix = false);

/// The entries at the end of `csv` that belong to one slab (row j when `by_rows`, else column a)
/// holding fewer than `slab_size` nodes: the slab a killed run was writing. Removes them and
/// returns how many were removed (0 when the last slab is complete).
long long drop_incomplete_last_slab(FieldCsv& csv, bool by_rows, int slab_size);

/// The whole field g_j^a of `mesh` from the entries, laid out by rows (time march) or by columns.
/// Every node (j, a), j = 0..J, a = 0..A, must appear exactly once and t must be t_j of the mesh
/// (to 1e-12 relative); throws field::Error naming the first node outside the mesh, duplicated or
/// missing (a run written with a stride > 1 cannot be checked: write it with stride 1).
mesh::Field assemble_field(const FieldCsv& csv, const mesh::SpacetimeMesh& mesh, bool by_rows);

}  // namespace field::io

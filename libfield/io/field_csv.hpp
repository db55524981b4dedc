#pragma once
/// `field.csv` of a run folder (docs/output-format.md): one line per node (j, a) of every output
/// slab, columns j,a,t,s then the element's coordinates (lie/coordinates.hpp): indices, time t_j
/// [s], material coordinate s_a [m] (theory §3.4), and for SE(3) the centre line r = (x, y, z)
/// [m] and the rotation as a unit quaternion (w, x, y, z) with w >= 0 (lie::SE3::quat()), for a
/// point of R^3 (the cable) its x, y, z [m]; all in their shortest round-trip form
/// (csv_writer.hpp). The writer is a slab observer of either march; the reader and
/// assemble_field() rebuild a whole mesh::BasicField for `field check`. E: the element (lie::SE3
/// or Vec3).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/io/csv_writer.hpp"
#include "libfield/io/slab_key_texts.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/lie/coordinates.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/field.hpp"

namespace field::io {

/// The column names of field.csv, in order: j, a, t, s and lie::Coordinates<E>::names.
template <class E = lie::SE3>
const std::vector<std::string>& field_csv_columns();

template <class E>
class BasicFieldCsvWriter final : public march::BasicSlabObserver<E> {
 public:
  /// `by_rows`: the slabs are time rows (time march, slab index j, A+1 poses) and rows j with
  /// j % stride == 0 or j == J are written; otherwise space columns (space march, slab index a,
  /// J+1 poses), columns a % stride == 0 or a == A, each with all j = 0..J. `left` says where the
  /// nodes sit: s = mesh.s(a, left). Opens `path.part`; throws field::IoError.
  BasicFieldCsvWriter(std::filesystem::path path, const mesh::SpacetimeMesh& mesh, bool by_rows,
                      mesh::Side left, int stride);

  void slab(int index, const std::vector<E>& values, const march::SlabStats& stats) override;
  /// Writes the last slab received if it was not an output slab, then closes and renames the
  /// file. Throws field::IoError.
  void finish() override;

  /// Data lines written so far.
  long long rows() const { return csv_.rows(); }

 private:
  void write_slab(int index, const std::vector<E>& values);

  mesh::SpacetimeMesh mesh_;
  bool by_rows_;
  SlabSelection selection_;
  CsvWriter csv_;
  SlabKeyTexts keys_;       // "j,a,t,s," of every node
  std::vector<E> pending_;  // last slab received when it was not written
  int pending_index_ = -1;
};
using FieldCsvWriter = BasicFieldCsvWriter<lie::SE3>;

/// The content of a field.csv, one entry per data line, in file order.
template <class E>
struct BasicFieldCsv {
  std::filesystem::path path;   ///< the file read (for messages)
  std::vector<long long> line;  ///< line number of each entry in the file (header = line 1)
  std::vector<int> j, a;        ///< node indices
  std::vector<double> t, s;     ///< t_j [s], s_a [m]
  std::vector<E> g;             ///< element (lie::Coordinates<E>::read: the rotation from the
                                ///< normalised quaternion)
  bool cut_line = false;        ///< a last line without line end was dropped (`prefix` read)
};
using FieldCsv = BasicFieldCsv<lie::SE3>;

/// Reads a field.csv (columns found by name, others ignored). Throws field::IoError when the file
/// cannot be opened and field::Error naming the file, the line and the value for a missing
/// column, a ragged line, a value that is not a number or not finite, indices that are not
/// non-negative integers, or coordinates that are no element (lie::Coordinates<E>::problem: a
/// quaternion whose norm differs from 1 by more than 1e-6).
/// `prefix`: the file is the field.csv.part of a killed run, whose last line may be cut anywhere
/// (docs/output-format.md): a last line without line end is dropped unread (a cut number can
/// still parse) and `cut_line` set; the header must be complete.
template <class E = lie::SE3>
BasicFieldCsv<E> read_field_csv(const std::filesystem::path& path, bool prefix = false);

/// The entries at the end of `csv` that belong to one slab (row j when `by_rows`, else column a)
/// holding fewer than `slab_size` nodes: the slab a killed run was writing. Removes them and
/// returns how many were removed (0 when the last slab is complete).
template <class E>
long long drop_incomplete_last_slab(BasicFieldCsv<E>& csv, bool by_rows, int slab_size);

/// The whole field g_j^a of `mesh` from the entries, laid out by rows (time march) or by columns.
/// Every node (j, a), j = 0..J, a = 0..A, must appear exactly once and t must be t_j of the mesh
/// (to 1e-12 relative); throws field::Error naming the first node outside the mesh, duplicated or
/// missing (a run written with a stride > 1 cannot be checked: write it with stride 1).
template <class E>
mesh::BasicField<E> assemble_field(const BasicFieldCsv<E>& csv, const mesh::SpacetimeMesh& mesh,
                                   bool by_rows);

}  // namespace field::io

#pragma once
/// `checkpoint.txt` of a time march's run folder ([output] checkpoint = true;
/// docs/output-format.md, "checkpoint.txt"): the state of the march after its last row, exact to
/// the bit, from which
/// `[initial] checkpoint = "..."` continues it (docs/cli.md, "Continuing a run"). field.csv's
/// poses are shortest round-trip decimals of a position and a quaternion, whose rotation matrix
/// differs from the march's in the last bits, and the march's next row depends on the velocities
/// it solved and on the history of its Newton start (march::MarchState): the checkpoint holds
/// those, and the sums the series carry (noether::BasicSeriesState), as C99 hexadecimal floats.
///
/// A planar beam's march (theory §1.7, SE(2)) is stored embedded in SE(3)
/// (march::embed_planar: exact both ways) and marked by the line "theory planar_beam"; a
/// checkpoint without it is the SE(3) beam's.
///
/// Text, one item a line: a comment line "# ..."; "format 1"; "retraction cayley|exp"; for the
/// planar beam "theory planar_beam"; "case HASH" (the case's physics, checkpoint_case_hash); "A",
/// "dt", "ds"; "row j" (the last row, the state's k); "number NAME VALUE" (the series state and
/// what the program carries, e.g. its running statistics); then per node a = 0..A: "prev a" and
/// "cur a" with R (9 values, by rows) and r (3) of rows j-1 and j, and "xi a", "back1 a", "back2 a"
/// with 6 values each; a damped march's (theory §4.7) from row 2 on also "dxi a" (a = 0..A), "deta
/// a" and "dD2 a" (a < A).
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "libfield/io/case_file.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/time_march.hpp"

namespace field::io {

struct Checkpoint {
  lie::RetractionKind retraction = lie::RetractionKind::cayley;
  /// beam (SE(3)) or planar_beam (the march embedded, march::embed_planar); never cable.
  Theory theory = Theory::beam;
  std::uint64_t case_hash = 0;  ///< checkpoint_case_hash of the case that wrote it
  int A = 0;
  double dt = 0.0, ds = 0.0;
  march::MarchState<lie::SE3, Vec6> march;              ///< march.k: the last row j (3D)
  std::vector<std::pair<std::string, double>> numbers;  ///< named values, in file order
  /// A damped march's damping terms of row j-2 (noether::DampingState: xi, eta, D2 of its
  /// triangles; A+1, A, A values), which its series continues from; empty otherwise.
  std::vector<Vec6> damping_xi, damping_eta, damping_D2;
  /// The value of `name`; throws field::Error naming the file when it is absent.
  double number(const std::string& name) const;
  std::filesystem::path path;  ///< the file read (for messages)
};

/// A hash of what a continued march must share with the march that wrote the checkpoint: the
/// resolved case (write_case) without its name, description, J, [initial] and [output].
std::uint64_t checkpoint_case_hash(const CaseSpec& spec);

/// Writes `path` atomically (io/atomic_file.hpp). Throws field::IoError.
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);

/// Reads a checkpoint. Throws field::IoError when it cannot be opened, field::Error naming the
/// file and line of anything missing, repeated, not a number or not finite.
Checkpoint read_checkpoint(const std::filesystem::path& path);

/// Checks that `checkpoint` continues a march of `spec` (same theory, retraction, A, dt, ds bits,
/// case hash, its row before the case's J; a planar one in the plane): field::Error naming both
/// files and what differs.
void check_checkpoint_fits(const Checkpoint& checkpoint, const CaseSpec& spec);

/// The checkpoint of `spec`'s [initial] checkpoint, read and checked to fit it
/// (check_checkpoint_fits); its errors name the case's key too (io::named).
Checkpoint read_fitting_checkpoint(const CaseSpec& spec);

}  // namespace field::io

#pragma once
/// Tip data of the space evolution (theory §6.2, §11.4): the motion g_j^0 of the end a = 0 and
/// its convected strain eta_j^0 = (Omega, Gamma) (theory §0.2) as a CSV file with the columns
///   t, x, y, z, qw, qx, qy, qz, Omega1, Omega2, Omega3, Gamma1, Gamma2, Gamma3
/// (tip pose in the world frame, unit quaternion scalar first), read onto the case's time grid
/// t_j = j dt, and written from a time march so that a simulated run can be reconstructed.
/// docs/input-data.md describes the file and every error.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/observer.hpp"

namespace field::io {

/// The column names of a tip file, in the order TipCsvWriter writes them.
const std::vector<std::string>& tip_columns();

/// Tip data on the grid t_j = j dt, j = 0..J: the input of the space march (theory §6.2).
struct TipOnGrid {
  std::vector<lie::SE3> g0;  ///< tip pose g_j^0 (world frame), j = 0..J
  std::vector<Vec6> eta0;    ///< tip strain eta_j^0 = (Omega, Gamma), j = 0..J-1 (eta_J^0 unused)
  bool resampled = false;    ///< true when the samples were not on the grid and were resampled
  double time_offset = 0.0;  ///< sensor-clock time of the grid's t = 0 (t_j = time_offset + j dt)
  int ignored_before = 0;    ///< samples before time_offset, not used
  std::string note;          ///< one line for the user saying which of the two happened
};

/// Reads the tip file `path` onto the grid t_j = j dt, j = 0..J, whose t = 0 is the sensor-clock
/// time `time_offset` (the file's t = time_offset + j dt; absent: the first sample's t). Samples
/// before it are ignored and the note counts them. Samples on the grid (within 1e-9 dt) are used
/// as they are; otherwise every grid time is resampled on the group (positions and strains
/// linearly, rotations by slerp with sign continuity) and `note` says so. Throws field::Error for
/// any invalid row (see read_csv, PoseTrack::from_table), for a time_offset before the first
/// sample and when the grid runs past the last sample (naming the first grid time outside).
TipOnGrid read_tip(const std::filesystem::path& path, double dt, int J,
                   std::optional<double> time_offset = {});
/// The same from a table already read (read_csv or parse_csv with tip_columns()).
TipOnGrid tip_on_grid(const CsvTable& table, double dt, int J,
                      std::optional<double> time_offset = {});
/// The same from a track with a vector (the cable's tip, io/group_tip.hpp: identity rotations);
/// `rotations`: whether the note mentions the slerp of the rotations.
TipOnGrid tip_on_grid(const PoseTrack& track, double dt, int J, std::optional<double> time_offset,
                      bool rotations = true);

/// Writes the tip of a time march (slabs = time rows j, A+1 poses each) in the tip format: for
/// every row the pose g_j^0 and the discrete strain eta_j^0 = tau^{-1}((g_j^0)^{-1} g_j^1) / ds
/// with the model's retraction G and ds (theory §3.1), shortest round-trip numbers
/// (csv_writer.hpp). The file is written to `path.part` and renamed to `path` in finish();
/// field::IoError when it cannot be opened, written or renamed. read_tip of the file and g_j^1 =
/// g_j^0 tau(ds eta_j^0) reproduce the march's column a = 1 to round-off.
template <class G>
class TipCsvWriter : public march::SlabObserver {
 public:
  /// `first_row`: the first row received (a continued march's row j-1, io/checkpoint.hpp).
  TipCsvWriter(std::filesystem::path path, const dcel::DiscreteModel<G>& model, int first_row = 0);
  TipCsvWriter(const TipCsvWriter&) = delete;
  TipCsvWriter& operator=(const TipCsvWriter&) = delete;

  void slab(int index, const std::vector<lie::SE3>& values, const march::SlabStats& stats) override;
  /// Closes the file and renames path.part to path (once; later calls do nothing).
  void finish() override;

  const std::filesystem::path& path() const { return csv_.path(); }
  int rows_written() const { return rows_ - first_; }

 private:
  CsvWriter csv_;
  double dt_;
  double ds_;
  int first_;
  int rows_;  // the next row expected
};

}  // namespace field::io

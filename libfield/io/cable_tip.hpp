#pragma once
/// tip.csv of a cable run (theory §1.8, docs/output-format.md): the end a = 0 of every time row,
/// as the beam's tip.csv (io/tip_data.hpp) with the columns of a cable
///   t, x, y, z, v1, v2, v3, eta1, eta2, eta3, tension
/// the position r_j^0 [m], the velocity xi_j^0 = (r_{j+1}^0 - r_j^0)/dt [m/s] (theory (1.8.1);
/// the last row written has xi_{j-1}, a single row zero, as the cable's frames), the strain of
/// the first segment eta_j^0 = (r_j^1 - r_j^0)/ds [-] and its tension N = W'(|eta_j^0|) [N]
/// (1.8.2). Shortest round-trip numbers (io/csv_writer.hpp); written to `path.part` and renamed
/// in finish().
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "libfield/io/csv_writer.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/model/cable_density.hpp"

namespace field::io {

/// The columns of a cable's tip.csv.
const std::vector<std::string>& cable_tip_columns();

/// The tip data of a cable's space march (`field reconstruct`, theory §6.2 on R^3) on the grid
/// t_j = j dt, j = 0..J: the positions r_j^0 and the strains eta_j^0 (j = 0..J-1) of the columns
/// t, x, y, z, eta1, eta2, eta3 of a cable's tip.csv (v1..v3 and tension are not read; the march
/// takes column 1 as r_j^1 = r_j^0 + ds eta_j^0), by the rules of io::read_tip (io/tip_data.hpp):
/// samples on the grid as they are, otherwise resampled linearly; [tip] time_offset. Throws
/// field::Error naming the file, the line, the column and the value (a missing column, a value
/// that is not a finite number, t not increasing, a grid outside the data's time range).
struct CableTipOnGrid {
  std::vector<Vec3> r0;    ///< tip positions r_j^0, j = 0..J
  std::vector<Vec3> eta0;  ///< tip strains eta_j^0, j = 0..J-1
  std::string note;        ///< how the samples met the grid, for the user
};
CableTipOnGrid read_cable_tip(const std::filesystem::path& path, double dt, int J,
                              std::optional<double> time_offset = {});

class CableTipCsvWriter final : public march::BasicSlabObserver<Vec3> {
 public:
  CableTipCsvWriter(std::filesystem::path path, const model::CableDensity& density,
                    const mesh::SpacetimeMesh& mesh);
  /// Row j must follow the previous row; writes row j-1.
  void slab(int j, const std::vector<Vec3>& row, const march::SlabStats& stats) override;
  /// Writes the last row received, closes the file. Throws field::IoError.
  void finish() override;

 private:
  void write(int j, const std::vector<Vec3>& row, const Vec3& velocity);
  const model::CableDensity& density_;
  mesh::SpacetimeMesh mesh_;
  CsvWriter csv_;
  std::vector<Vec3> last_, before_;  // rows last_j_ and last_j_ - 1
  int last_j_ = -1;
  bool finished_ = false;
};

}  // namespace field::io

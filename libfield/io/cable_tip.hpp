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

#pragma once
/// The frames of a cable run (theory §1.8, docs/cable.md, docs/output-format.md; its field.csv is
/// io::BasicFieldCsvWriter<Vec3>'s), a slab observer of the time rows r_j^a, a = 0..A, of a march
/// on R^3:
///  - CableFramesWriter: `dir/frames/cable_NNNNNN.vtp` and `dir/cable.pvd` for the rows
///    j % stride == 0 and the last (as io/beam_frames.hpp: the frame file first, then the index).
///    Each .vtp is VTK XML PolyData with raw appended float64 data (io/vtk_file.hpp):
///      points      r_j^a (the free-end ghost node A included)
///      cells       A line segments, cell a = (a, a+1)
///      point data  s [m] (theory §3.4); velocity = xi_j^a = (r_{j+1}^a - r_j^a)/dt [m/s] (theory
///                  §3.1; the last row written uses xi_{j-1}, a single row zero)
///      cell data   stretch nu = |eta_j^a| [-] and tension N = W'(nu) [N] (1.8.2)
///      field data  TimeValue = t_j [s]
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/pvd_index.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/model/cable_density.hpp"

namespace field::io {

/// "frames/cable_NNNNNN.vtp": the frame file of row j relative to the run folder.
std::string cable_frame_name(int j);

class CableFramesWriter final : public march::BasicSlabObserver<Vec3> {
 public:
  /// Creates `dir/frames` (throws field::IoError when it cannot).
  CableFramesWriter(std::filesystem::path dir, const model::CableDensity& density,
                    const mesh::SpacetimeMesh& mesh, mesh::Side left, int stride);
  /// Row j must follow the previous row; writes the frame of row j-1 when it is an output row.
  void slab(int j, const std::vector<Vec3>& row, const march::SlabStats& stats) override;
  /// Writes the frame of the last row received. Throws field::IoError.
  void finish() override;

 private:
  void write_frame(int j, const std::vector<Vec3>& row, const std::vector<Vec3>* from,
                   const std::vector<Vec3>* to);
  std::filesystem::path dir_;
  const model::CableDensity& density_;
  mesh::SpacetimeMesh mesh_;
  mesh::Side left_;
  SlabSelection selection_;
  PvdIndex index_;
  std::vector<Vec3> last_, before_;  // rows last_j_ and last_j_ - 1
  std::string header_, lines_, file_;
  int last_j_ = -1;
  bool finished_ = false;
};

}  // namespace field::io

#pragma once
/// The beam as a time series of ParaView frames (docs/output-format.md): a slab observer of TIME
/// ROWS (slab index j, poses g_j^a, a = 0..A) that writes, for the output rows (j % stride == 0,
/// j == J, and the last row received), `dir/frames/beam_NNNNNN.vtp` (NNNNNN = j, zero padded to 6
/// digits) and appends it to `dir/beam.pvd` after each frame (frame file first, then the index).
///
/// Each .vtp is VTK XML PolyData with raw appended data, written directly (io/vtk_file.hpp, no
/// VTK pipeline): the XML header depends on A only and is built once; a frame costs the
/// evaluation of its values and one file write. float64 throughout:
///   points      the centre line r_j^a, a = 0..A (the free-end ghost node A included)
///   cells       A line segments, cell a = (a, a+1), so that segment quantities fit one cell
///   point data  s [m] (theory §3.4); q_wxyz (4, w >= 0); d1, d2, d3 (directors: columns of R);
///               velocity = R gamma [m/s] and angular_velocity = R omega [rad/s], the spatial
///               forms of the body velocity xi_j^a = tau^{-1}((g_j^a)^{-1} g_{j+1}^a) / dt
///               (theory §3.1); the last row written has no row j+1 and uses xi_{j-1}^a (rotated
///               by its own R_j^a); a march that produced a single row has zero velocities
///   cell data   strain_Omega, strain_Gamma: the body strain eta_j^a = tau^{-1}((g_j^a)^{-1}
///               g_j^{a+1}) / ds (curvature/twist [1/m], shear/stretch [-]); moment [N m] and
///               force [N]: the body stress resultants dV/deta (C (eta - E6) for the beam, theory
///               §1)
///   field data  TimeValue = t_j [s] (one double)
/// The rows may come from any source (a time march, or a space march's field read row by row).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/pvd_index.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/march/observer.hpp"

namespace field::io {

/// "frames/beam_NNNNNN.vtp": the frame file of row j relative to the run folder.
std::string beam_frame_name(int j);
/// Size [bytes] of every frame of a beam with nodes a = 0..A (for `field info`).
std::uint64_t beam_frame_bytes(int A);

template <class G>
class BeamFramesWriter final : public march::SlabObserver {
 public:
  /// Creates `dir/frames` (throws field::IoError when it cannot). `left` sets s = mesh.s(a, left).
  /// `first_row`: the first row received (a continued march's row j-1, io/checkpoint.hpp).
  BeamFramesWriter(std::filesystem::path dir, const dcel::DiscreteModel<G>& model, mesh::Side left,
                   int stride, int first_row = 0);

  /// Row j must follow the previous row; writes the frame of row j-1 when it is an output row.
  void slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats& stats) override;
  /// Writes the frame of the last row received (J for a complete march). Throws field::IoError.
  void finish() override;

  const PvdIndex& index() const { return index_; }

 private:
  /// Writes the frame of row j with the velocities of the step from `from` to `to`.
  void write_frame(int j, const std::vector<lie::SE3>& row, const std::vector<lie::SE3>* from,
                   const std::vector<lie::SE3>* to);
  /// The header and the line cells (they depend on A only) and the value buffers.
  void build_layout();

  std::filesystem::path dir_;
  dcel::DiscreteModel<G> model_;
  mesh::Side left_;
  SlabSelection selection_;
  PvdIndex index_;
  std::vector<lie::SE3> last_, before_;  // rows last_j_ and last_j_ - 1
  std::string header_;                   // the XML up to the '_' of the appended data
  std::string lines_;                    // the blocks of the line cells
  std::string file_;                     // the frame being written
  std::uint64_t frame_bytes_ = 0;
  std::vector<std::vector<double>> point_, cell_;  // the arrays' values, in file order
  std::vector<double> points_;
  int first_;   // the first row received
  int last_j_;  // the last row received (first_ - 1: none)
  bool finished_ = false;
};

}  // namespace field::io

#pragma once
/// A field as a time series of ParaView frames (docs/output-format.md, section 2): a slab observer
/// of TIME ROWS (slab index j, elements g_j^a, a = 0..A) of a march on any group G that writes,
/// for the output rows (j % stride == 0, j == J, and the last row received),
/// `dir/frames/NAME_NNNNNN.vtp` (NNNNNN = j, zero padded to 6 digits; NAME the density's
/// output_name(): "beam", "cable") and appends it to `dir/NAME.pvd` after each frame (frame file
/// first, then the index).
///
/// Each .vtp is VTK XML PolyData with raw appended data, written directly (io/vtk_file.hpp, no
/// VTK pipeline): the XML header depends on A only and is built once; a frame costs the
/// evaluation of its values and one file write. float64 throughout:
///   points      the positions of the nodes, a = 0..A (lie::Coordinates<E>::position; the
///               free-end ghost node A included)
///   cells       A line segments, cell a = (a, a+1), so that segment quantities fit one cell
///   point data  s [m] (theory §3.4), then the group's point quantities of g_j^a and its body
///               velocity xi_j^a = tau^{-1}((g_j^a)^{-1} g_{j+1}^a) / dt (theory §3.1;
///               lie::Coordinates<E>::point_values: the beam's q_wxyz, d1, d2, d3, velocity,
///               angular_velocity; the cable's velocity); the last row written has no row j+1
///               and uses xi_{j-1}^a; a march that produced a single row has zero velocities
///   cell data   the density's quantities of segment a from its strain eta_j^a =
///               tau^{-1}((g_j^a)^{-1} g_j^{a+1}) / ds (model::Density::segment_values of the
///               segment's density: the beam's strain_Omega, strain_Gamma, moment, force; the
///               cable's stretch, tension)
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

/// "frames/NAME_NNNNNN.vtp": the frame file of row j relative to the run folder.
std::string frame_name(const std::string& name, int j);
/// Size [bytes] of every frame of a field of elements E with nodes a = 0..A and the segment
/// quantities of `density` (for `field info`).
template <class E, class S>
std::uint64_t frame_bytes(const model::Density<S>& density, int A);

template <class G>
class FramesWriter final : public march::BasicSlabObserver<lie::ElementOf<G>> {
  using Element = lie::ElementOf<G>;

 public:
  /// Creates `dir/frames` (throws field::IoError when it cannot). `left` sets s = mesh.s(a, left).
  /// `first_row`: the first row received (a continued march's row j-1, io/checkpoint.hpp).
  FramesWriter(std::filesystem::path dir, const dcel::DiscreteModel<G>& model, mesh::Side left,
               int stride, int first_row = 0);

  /// Row j must follow the previous row; writes the frame of row j-1 when it is an output row.
  void slab(int j, const std::vector<Element>& row, const march::SlabStats& stats) override;
  /// Writes the frame of the last row received (J for a complete march). Throws field::IoError.
  void finish() override;

  const PvdIndex& index() const { return index_; }

 private:
  /// Writes the frame of row j with the velocities of the step from `from` to `to`.
  void write_frame(int j, const std::vector<Element>& row, const std::vector<Element>* from,
                   const std::vector<Element>* to);

  std::filesystem::path dir_;
  dcel::DiscreteModel<G> model_;
  std::string name_;  // the density's output_name()
  mesh::Side left_;
  SlabSelection selection_;
  PvdIndex index_;
  std::vector<Element> last_, before_;  // rows last_j_ and last_j_ - 1
  std::string header_;                  // the XML up to the '_' of the appended data
  std::string lines_;                   // the blocks of the line cells
  std::string file_;                    // the frame being written
  std::uint64_t frame_bytes_ = 0;
  std::vector<OutputQuantity> point_quantities_, cell_quantities_;  // s first, then the group's
  std::vector<std::vector<double>> point_, cell_;  // the arrays' values, in file order
  std::vector<double> points_;
  int first_;   // the first row received
  int last_j_;  // the last row received (first_ - 1: none)
  bool finished_ = false;
};

}  // namespace field::io

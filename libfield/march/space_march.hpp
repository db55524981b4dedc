#pragma once
/// SPACE-MARCH of theory §6.2: rebuild the motion of the whole body from the measured motion
/// g_j^0 and strain eta_j^0 of the tip a = 0 (or the second column g_j^1), marching along the arc
/// length: solve the DCEL of every node of column a for eta_j^a (theory §5 with the space
/// equation, K = C and y0 = eta0 for the beam) and set g_j^{a+1} = g_j^a tau(ds eta_j^a). Rows
/// j = 0 and j = J are free (zero momentum: at rest at the first and last time; j = J is a ghost
/// row) or prescribed for all a. Generic over the group G as the time march: SE(3) (the beam),
/// SE(2) (the planar beam, theory §1.7), R^3 (the cable, theory §1.8).
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/boundary.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/march/time_march.hpp"

namespace field::march {

/// The data columns and the rows, in the values of the group space S (a G::Space: lie::Se3Group
/// for the beam, lie::Se2Cayley for the planar beam, lie::Rn<3> for the cable).
template <class S>
struct BasicSpaceMarchInput {
  using Element = typename S::Element;
  using Side = BasicSideSpec<Element>;
  std::vector<Element> column0;  ///< tip motion g_j^0, j = 0..J
  /// tip strain eta_j^0, j = 0..J-1 (eta_J^0 is not used)
  std::vector<typename S::Algebra> strain0;
  std::vector<Element> column1;  ///< or the second column g_j^1 directly (then strain0 empty)
  Side first = Side::free();     ///< row j = 0, motion indexed by a
  Side last = Side::free();      ///< row j = J, motion indexed by a
};
/// The beam's input on SE(3).
using SpaceMarchInput = BasicSpaceMarchInput<lie::Se3Group>;
/// The input of the space march on G.
template <class G>
using SpaceMarchInputOf = BasicSpaceMarchInput<typename G::Space>;

/// The boundary of the space evolution, for residual checks (theory §4).
template <class S>
mesh::Boundary space_boundary(const BasicSpaceMarchInput<S>& input) {
  return mesh::Boundary::space_evolution(input.first.side, input.last.side);
}

/// Everything space_march checks before its first column (as check_time_march): sizes, rows,
/// point loads, the node law, columns 0 and 1 with their rows (finite, no half turn between
/// neighbours under Cayley), the tip strain, and the data's strains eta_j^0 on the density's
/// branch (the cable: taut, theory §6.2 (6.2.3)). Throws field::Error naming the column and row.
template <class G>
void check_space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInputOf<G>& input,
                       const MarchOptions& options = {});

/// Runs the march over columns 0..A of model.mesh(), handing each column (J+1 values) to the
/// observers in order. Throws field::Error for invalid input (check_space_march) before the
/// first column; after that failures are reported in the result (slab = column, node = j), as
/// for time_march, and MarchOptions::stop stops it between columns. A solved strain off the
/// density's branch (a cable compressed or slack at segment a, theory §6.2 (6.2.3)) throws
/// field::Error naming the segment and the row, after the columns 0..a handed on.
template <class G>
MarchResult space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInputOf<G>& input,
                        const SlabObserversOf<G>& observers, const MarchOptions& options = {});

}  // namespace field::march

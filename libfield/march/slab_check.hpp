#pragma once
/// Checks of the values of a slab (a time row or a space column) before the marches use or emit
/// it: every value finite, and under the Cayley retraction no two neighbours (i, i+1) turned by a
/// half turn against each other, where cay^{-1} of their relative pose has no value (theory §2.1:
/// 1 + tr(R_i^T R_{i+1}) > 0 is needed). Cheap (a few flops per node) against the node solves.
#include <optional>
#include <string>
#include <vector>

#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/observer.hpp"

namespace field::march {

struct SlabProblem {
  int node = 0;  ///< the first node with a non-finite value, or i of the pair (i, i+1)
  FailureKind kind = FailureKind::non_finite;  ///< non_finite or half_turn
};

/// The first problem of `values` (non-finite values before half turns), or none.
std::optional<SlabProblem> check_slab(const std::vector<lie::SE3>& values, bool cayley);
/// The same on SE(2) (the planar beam, theory §1.7).
std::optional<SlabProblem> check_slab(const std::vector<lie::SE2>& values, bool cayley);
/// On R^3 (the cable, theory §1.8): positions only, no half turn.
std::optional<SlabProblem> check_slab(const std::vector<Vec3>& values, bool cayley);

/// A sentence for a problem of slab `slab`: "<what> <slab> node <node> ..." (what: "row 3",
/// "column 3"), naming the nodes in the words of the march (a for rows, j for columns).
std::string describe(const SlabProblem& problem, const std::string& what, int slab,
                     const char* node_name);

}  // namespace field::march

#include "libfield/march/slab_check.hpp"

#include <sstream>

namespace field::march {

std::optional<SlabProblem> check_slab(const std::vector<lie::SE3>& values, bool cayley) {
  const int n = static_cast<int>(values.size());
  for (int i = 0; i < n; ++i)
    if (!values[i].R.allFinite() || !values[i].r.allFinite())
      return SlabProblem{i, FailureKind::non_finite};
  if (cayley)
    for (int i = 0; i + 1 < n; ++i)  // 1 + tr(R_i^T R_{i+1}), as lie::cay_inv tests it
      if (!(1.0 + values[i].R.cwiseProduct(values[i + 1].R).sum() > 0.0))
        return SlabProblem{i, FailureKind::half_turn};
  return std::nullopt;
}

std::string describe(const SlabProblem& problem, const std::string& what, int slab,
                     const char* node_name) {
  std::ostringstream out;
  if (problem.kind == FailureKind::non_finite)
    out << what << " " << slab << ": node " << node_name << " = " << problem.node
        << " has a non-finite pose (inf or NaN)";
  else
    out << what << " " << slab << ": nodes " << node_name << " = " << problem.node << " and "
        << problem.node + 1
        << " are turned by a half turn against each other (1 + tr(R^T R') <= 0: no Cayley "
           "coordinates, SPEC [S2.1])";
  return out.str();
}

}  // namespace field::march

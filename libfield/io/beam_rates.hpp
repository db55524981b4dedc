#pragma once
/// The rates and stresses of a beam's row that field_rates.csv shows (io/field_rates.hpp), with
/// the formulas of the frames' point and cell data (io/frames.hpp: mesh::convected and the
/// segment density's stress), so that the files agree bit for bit (test FieldRates.*).
///   body velocity  xi_j^a  = tau^{-1}((g_j^a)^{-1} g_{j+1}^a) / dt        (theory §3.1)
///   body strain    eta_j^a = tau^{-1}((g_j^a)^{-1} g_j^{a+1}) / ds        (theory §3.1)
///   body stress    (moment, force) = C_a (eta_j^a - eta0_a)                (theory §1, §1.6)
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

/// xi of node a for the step from row `from` to row `to` (rows j and j+1; the last row written
/// takes the step j-1 -> j), zero when there is no step (null: a march of a single row).
template <class G>
Vec6 node_velocity(const mesh::SpacetimeMesh& mesh, const std::vector<lie::SE3>* from,
                   const std::vector<lie::SE3>* to, int a) {
  if (from == nullptr || to == nullptr) return Vec6::Zero();
  const auto k = static_cast<std::size_t>(a);
  return mesh::convected<G>((*from)[k], (*to)[k], mesh.dt());
}

/// The strain eta and stress (moment, force) of segment a = (a, a+1) of a row.
struct SegmentStress {
  Vec6 eta;
  Vec6 stress;
};

template <class G>
SegmentStress segment_stress(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& row,
                             int a) {
  const auto k = static_cast<std::size_t>(a);
  SegmentStress out;
  out.eta = mesh::convected<G>(row[k], row[k + 1], model.mesh().ds());
  out.stress = model.density(a).stress(out.eta);
  return out;
}

}  // namespace field::io

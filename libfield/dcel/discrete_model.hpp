#pragma once
/// Everything the discrete equations need besides the field: the density, the external loads, the
/// retraction and the grid (theory §1, §1.4, theory §3). Holds references: the density and the
/// loads must outlive it.
#include "libfield/core/types.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/model/density.hpp"
#include "libfield/model/loads.hpp"

namespace field::dcel {

class DiscreteModel {
 public:
  DiscreteModel(const model::Density& density, const model::Loads& loads, lie::Retraction tau,
                const mesh::SpacetimeMesh& mesh)
      : density_(&density), loads_(&loads), tau_(tau), mesh_(mesh) {}

  const model::Density& density() const { return *density_; }
  const model::Loads& loads() const { return *loads_; }
  const lie::Retraction& tau() const { return tau_; }
  const mesh::SpacetimeMesh& mesh() const { return mesh_; }
  double dt() const { return mesh_.dt(); }
  double ds() const { return mesh_.ds(); }

  /// Body force per unit length at node (j, a) in configuration g: the potential force f(g) plus
  /// the distributed loads at t_j (theory §1, §1.4). Placed on vertex v1 of triangle (j, a).
  Vec6 force(const lie::SE3& g, int j, int a) const {
    Vec6 f = density_->potential_force(g);
    if (!loads_->distributed.empty()) f += loads_->distributed_body(g, a, mesh_.A(), mesh_.t(j));
    return f;
  }
  /// Body covector of the point loads at node (j, a); enters G_n with weight dt (theory §1.4).
  Vec6 point_load(const lie::SE3& g, int j, int a) const {
    if (loads_->point.empty()) return Vec6::Zero();
    return loads_->point_body(g, a, mesh_.t(j));
  }

 private:
  const model::Density* density_;
  const model::Loads* loads_;
  lie::Retraction tau_;
  mesh::SpacetimeMesh mesh_;
};

}  // namespace field::dcel

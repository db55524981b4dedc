#pragma once
/// Everything the discrete equations need besides the field: the density, the external loads, the
/// grid (theory §1, §1.4, theory §3) and, as the type parameter G, the group with its retraction
/// (lie::Se3Cayley or lie::Se3Exp, theory §2; docs/lie-groups.md). Holds references: the density
/// and the loads must outlive it.
///
/// The density may differ between the columns a = 0..A-1 of triangles (theory §1.6): triangle
/// (j, a) holds node a's inertia and segment a's law and reference strain eta0_a. A uniform model
/// (one density, the default) gives the lane kernels one law; a model with `segments` gives them
/// a law per node (time march; march::SlabLanes::per_node_laws).
#include <type_traits>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/core/types.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/model/density.hpp"
#include "libfield/model/loads.hpp"

namespace field::dcel {

template <class G>
class DiscreteModel {
 public:
  /// The group and its retraction tau (theory §2).
  using Group = G;
  /// The density, a function on the group without its retraction (G::Space, model/density.hpp).
  using Density = model::Density<typename G::Space>;
  using Element = typename G::Element;  ///< a node value g_j^a
  using Algebra = typename G::Algebra;  ///< xi, eta and the body covectors

  /// model::Loads are world wrenches of SE(3): on another group they must be empty (checked).
  DiscreteModel(const Density& density, const model::Loads& loads, const mesh::SpacetimeMesh& mesh)
      : density_(&density), loads_(&loads), mesh_(mesh) {
    if constexpr (!std::is_same_v<Element, lie::SE3>)
      FIELD_CHECK(loads.distributed.empty() && loads.point.empty(),
                  "DiscreteModel: distributed and point loads are SE(3) wrenches");
  }
  /// A density per column a = 0..A-1 (`segments`, A pointers, all outliving the model), e.g. a
  /// curved or tapered beam (theory §1.6); `density` stands for the whole beam where one value is
  /// needed (wave speeds, whether there is a potential) and must have its potential.
  DiscreteModel(const Density& density, const std::vector<const Density*>& segments,
                const model::Loads& loads, const mesh::SpacetimeMesh& mesh)
      : density_(&density), segments_(&segments), loads_(&loads), mesh_(mesh) {
    if constexpr (!std::is_same_v<Element, lie::SE3>)
      FIELD_CHECK(loads.distributed.empty() && loads.point.empty(),
                  "DiscreteModel: distributed and point loads are SE(3) wrenches");
    FIELD_CHECK(static_cast<int>(segments.size()) == mesh.A(),
                "DiscreteModel: " << segments.size() << " segment densities for A = " << mesh.A());
    for (const Density* d : segments) FIELD_CHECK(d != nullptr, "DiscreteModel: a null density");
  }
  /// The list is held by reference: a temporary one would dangle.
  DiscreteModel(const Density&, std::vector<const Density*>&&, const model::Loads&,
                const mesh::SpacetimeMesh&) = delete;
  /// The same with the group as a tag, so that `DiscreteModel model(d, l, lie::Se3Exp{}, m)`
  /// deduces G.
  DiscreteModel(const Density& density, const model::Loads& loads, G,
                const mesh::SpacetimeMesh& mesh)
      : DiscreteModel(density, loads, mesh) {}

  /// The density of the whole beam: every column's when uniform().
  const Density& density() const { return *density_; }
  /// The density of column a (triangles (j, a), 0 <= a < A): l_a of theory (1.6.1).
  const Density& density(int a) const {
    return segments_ == nullptr ? *density_ : *(*segments_)[static_cast<size_t>(a)];
  }
  /// One density for every column (no `segments`).
  bool uniform() const { return segments_ == nullptr; }
  const model::Loads& loads() const { return *loads_; }
  const mesh::SpacetimeMesh& mesh() const { return mesh_; }
  double dt() const { return mesh_.dt(); }
  double ds() const { return mesh_.ds(); }

  /// Body force per unit length at node (j, a) in configuration g: the potential force f(g) plus
  /// the distributed loads at t_j (theory §1, §1.4). Placed on vertex v1 of triangle (j, a).
  Algebra force(const Element& g, int j, int a) const {
    Algebra f = density(a).potential_force(g);
    if constexpr (std::is_same_v<Element, lie::SE3>)
      if (!loads_->distributed.empty()) f += loads_->distributed_body(g, a, mesh_.A(), mesh_.t(j));
    return f;
  }
  /// Body covector of the point loads at node (j, a); enters G_n with weight dt (theory §1.4).
  Algebra point_load(const Element& g, int j, int a) const {
    if (loads_->point.empty()) return Algebra::Zero();
    if constexpr (std::is_same_v<Element, lie::SE3>) return loads_->point_body(g, a, mesh_.t(j));
    return Algebra::Zero();  // unreachable: the constructor checked that there are no loads
  }

 private:
  const Density* density_;
  const std::vector<const Density*>* segments_ = nullptr;  // null: uniform
  const model::Loads* loads_;
  mesh::SpacetimeMesh mesh_;
};

}  // namespace field::dcel

#pragma once
/// Covariant momentum maps of the left action h.g = hg, theory §7.1. Per triangle (j, a):
///   M = Ad*_{g^{-1}} mu,  N = Ad*_{g^{-1}} lambda,  F = Ad*_{g^{-1}} f   (g = g_j^a, spatial)
///   J(1) = -ds M - dt N + dt ds F,  J(2) = ds M,  J(3) = dt N
/// and the local Noether identity J(1) + J(2) + J(3) = dt ds F.
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/mesh/row_window.hpp"

namespace field::noether {

/// V: the group's algebra vector. On SE(3) (angular about the origin (3), linear (3)); on SE(2)
/// (angular about the origin, about the plane's normal; linear (2)), theory (1.7.3).
template <class V>
struct BasicTriangleMaps {
  V M;   ///< spatial time momentum (angular about the origin, linear)
  V N;   ///< spatial space momentum
  V F;   ///< spatial wrench per length of the body forces at v1
  V J1;  ///< Ad*_{g_v1^{-1}} D1
  V J2;  ///< Ad*_{g_v2^{-1}} D2
  V J3;  ///< Ad*_{g_v3^{-1}} D3
};
using TriangleMaps = BasicTriangleMaps<Vec6>;
template <class G>
using TriangleMapsOf = BasicTriangleMaps<typename G::Algebra>;

/// The momentum maps of triangle (j, a), each J(k) computed from its own vertex and D_k.
template <class G>
TriangleMapsOf<G> triangle_maps(const dcel::DiscreteModel<G>& model, const mesh::FieldOf<G>& field,
                                int j, int a);
/// The same from a window holding the rows j and j+1 (streaming observers).
template <class G>
TriangleMapsOf<G> triangle_maps(const dcel::DiscreteModel<G>& model,
                                const mesh::RowWindowOf<G>& rows, int j, int a);

/// M, N, F of every triangle and the spatial point-load wrench of every node (j <= J-1),
/// computed once (in parallel, each entry independently) for the balance and totals.
template <class G>
class MomentumMaps {
  using V = typename G::Algebra;

 public:
  MomentumMaps(const dcel::DiscreteModel<G>& model, const mesh::FieldOf<G>& field);

  const dcel::DiscreteModel<G>& model() const { return model_; }
  /// Terms of triangles that do not exist are zero (theory §7.2).
  V M(int j, int a) const { return exists(j, a) ? M_[tri(j, a)] : V::Zero(); }
  V N(int j, int a) const { return exists(j, a) ? N_[tri(j, a)] : V::Zero(); }
  V F(int j, int a) const { return exists(j, a) ? F_[tri(j, a)] : V::Zero(); }
  /// Spatial point wrench at node (j, a), zero for j = J or a outside [0, A].
  V W(int j, int a) const;
  /// Ad*_{g^{-1}} of the damping part of G_n at node (j, a) (dcel::node_damping, theory §4.7;
  /// J s, like dt W), zero without damping or outside the mesh.
  V damping(int j, int a) const;
  bool damped() const { return !D_.empty(); }

 private:
  bool exists(int j, int a) const { return model_.mesh().has_triangle(j, a); }
  size_t tri(int j, int a) const { return static_cast<size_t>(j) * model_.mesh().A() + a; }

  dcel::DiscreteModel<G> model_;
  std::vector<V> M_, N_, F_;
  std::vector<V> W_;  // J rows of A+1 nodes
  std::vector<V> D_;  // J+1 rows of A+1 nodes when damped
  bool has_point_loads_;
};

}  // namespace field::noether

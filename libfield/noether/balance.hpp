#pragma once
/// The global Noether balance on a node rectangle, theory §7.2, and the total momenta.
///   Res(R) = ds sum_{a=a1}^{a2} (M_{j1-1}^a - M_{j2}^a) + dt sum_{j=j1}^{j2} (N_j^{a1-1} -
///   N_j^{a2})
///            + dt ds sum_{(j,a) in R} F_j^a + dt sum_{(j,a) in R, j<J} W_j^a
/// (W: spatial point wrenches, theory §1.4); zero whenever G_n = 0 at every node of R.
#include <algorithm>
#include <vector>

#include "libfield/noether/momentum_maps.hpp"

namespace field::noether {

/// Node rectangle [j1, j2] x [a1, a2], inclusive.
struct Rectangle {
  int j1 = 0, j2 = 0, a1 = 0, a2 = 0;
};

/// V: the group's algebra vector (Vec6 on SE(3), Vec3 on SE(2), theory (1.7.3)).
template <class V>
struct BasicBalanceResult {
  V residual = V::Zero();  ///< Res(R), spatial covector
  double scale_R = 0.0;    ///< sum of the norms of the terms of Res(R)
  double relative = 0.0;   ///< |Res|_inf / max(scale_R, scale_glob)
};
using BalanceResult = BasicBalanceResult<Vec6>;
template <class G>
using BalanceResultOf = BasicBalanceResult<typename G::Algebra>;

/// Res(R) accumulated term by term together with scale_R (shared by the whole-field balance and
/// the streaming diagnostics, theory §7.2).
template <class V>
struct BasicBalanceSum {
  V residual = V::Zero();
  double scale_R = 0.0;
  void add(const V& term) {
    residual += term;
    scale_R += term.cwiseAbs().maxCoeff();
  }
  /// The result with relative = |Res|_inf / max(scale_R, scale_glob).
  BasicBalanceResult<V> result(double scale_glob) const {
    BasicBalanceResult<V> out;
    out.residual = residual;
    out.scale_R = scale_R;
    out.relative = residual.cwiseAbs().maxCoeff() / std::max({scale_R, scale_glob, 1e-300});
    return out;
  }
};
using BalanceSum = BasicBalanceSum<Vec6>;

/// Res(R) normalised with scale_glob = global_scale(maps), theory §7.2.
template <class G>
BalanceResultOf<G> noether_balance(const MomentumMaps<G>& maps, const Rectangle& R);
/// The same with scale_glob given: global_scale costs O(J A), so compute it once for many
/// rectangles.
template <class G>
BalanceResultOf<G> noether_balance(const MomentumMaps<G>& maps, const Rectangle& R,
                                   double scale_glob);
/// Res([j, j] x [a, a]) of the single node (j, a), from a window holding the rows j-1, j, j+1
/// (those that exist): for streaming writers (io::SpacetimeWriter) that hold no whole Field. The
/// terms are added in the order of noether_balance. `relative` is |Res|_inf / scale_R only: the
/// caller divides by max(scale_R, scale_glob) once scale_glob is known. Regrouping the sum shows
/// that Res of one node is the spatial form Ad*_{g^{-1}} G_n of the DCEL residual at that node
/// (theory §7.2, proof of the theorem); only its scale differs from dcel::node_residual.
template <class G>
BalanceResultOf<G> node_balance(const dcel::DiscreteModel<G>& model,
                                const mesh::RowWindowOf<G>& rows, int j, int a);
/// The round-off floor of Res(R): the sum over the nodes n of R of sqrt(3) (1 + |r_n|_2) floor_n,
/// which bounds |Ad*_{g_n^{-1}} G_n|_inf when |G_n|_inf <= floor_n, since Res(R) = sum_{n in R}
/// Ad*_{g_n^{-1}} G_n (theory §7.2); the node floors come from dcel::residual_floors
/// (docs/theory.md section 7.4). A summed-area table: O(1) per rectangle.
class BalanceFloor {
 public:
  template <class E>
  BalanceFloor(const mesh::BasicField<E>& field, const std::vector<double>& node_floors);
  /// The floor of Res(R).
  double operator()(const Rectangle& R) const;
  /// What |Res(R)|_inf may be (`field check`): max(tolerance S, 10 eps terms(R) S + floor(R)),
  /// S = max(scale_R, scale_glob), terms(R) = 2 rows + 2 columns + rows columns: the relative
  /// tolerance of theory §10 iii, the evaluation round-off of the sum (theory §7.2) and the
  /// round-off of the nodes. `b` is noether_balance(maps, R, scale_glob).
  template <class V>
  double allowed(const Rectangle& R, const BasicBalanceResult<V>& b, double scale_glob,
                 double tolerance) const {
    return allowed(R, b.scale_R, scale_glob, tolerance);
  }
  /// The same from scale_R.
  double allowed(const Rectangle& R, double scale_R, double scale_glob, double tolerance) const;

 private:
  int columns_ = 0;            // A + 2
  std::vector<double> table_;  // table_[(j+1) columns_ + a+1] = sum over j' <= j, a' <= a
};

/// scale_glob = max(ds max_j sum_a |M_j^a|, dt max_a sum_j |N_j^a|).
template <class G>
double global_scale(const MomentumMaps<G>& maps);

/// Total momentum of row j: P_j = ds sum_{a=0}^{A-1} M_j^a (time march, theory §7.2).
template <class G>
typename G::Algebra total_time_momentum(const MomentumMaps<G>& maps, int j);
/// Spatial momentum of column a: Q^a = dt sum_{j=0}^{J-1} N_j^a (space march).
template <class G>
typename G::Algebra total_space_momentum(const MomentumMaps<G>& maps, int a);

}  // namespace field::noether

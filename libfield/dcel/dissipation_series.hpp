#pragma once
/// The dissipated energy D_j of theory (4.7.6) streamed row by row, each triangle's damping
/// terms computed once (theory §4.7, damping.hpp). dissipation_increment visits node by node and
/// recomputes, per node and row, three triangles' momenta (with lambda, lambda~ and the forces
/// it does not need), the previous row's strains and both convected velocities of the node; here
/// the triangles of row j give xi_j^a, eta_j^a, mu, mu~ and the damping fluxes once, and row j-1's
/// xi, eta and mu~ are kept from the previous call. Same functions in the same order: the same
/// bits as dcel::dissipated_energy (DissipationSeries.SameBitsAsTheFieldPath). Serial, in node
/// order: the same bits on any thread count. add() with a `fill` takes the triangle terms from
/// elsewhere: noether::SlabSeries computes them on SIMD lanes (SlabTermsLanes::damping, the same
/// to round-off).
#include <optional>
#include <vector>

#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::dcel {

template <class G>
class DissipationSeries {
  using V = typename G::Algebra;
  using E = typename G::Element;

 public:
  explicit DissipationSeries(const DiscreteModel<G>& model) : model_(model) {}

  /// The terms of the triangles (j, a), a < A, of a row j and xi_j^a at every node a <= A.
  struct Row {
    std::vector<V> xi, eta;     // xi: A+1 values; eta: A
    std::vector<V> D1, D2, D3;  // damping_derivatives (D1, D3 with row j-1's eta)
    void resize(size_t A) {
      xi.resize(A + 1);
      for (std::vector<V>* v : {&eta, &D1, &D2, &D3}) v->resize(A);
    }
  };

  /// Row j1 (0, 1, ... in order; 0 starts a new march). Computes the damping part of G_n at the
  /// nodes of row j = j1-1 (node_damping(model, values, j, a), a = 0..A) and returns
  /// D_j - D_{j-1} (dissipation_increment(model, values, j)) when j >= 1.
  std::optional<double> add(int j1, const std::vector<E>& row) {
    return add(j1, row,
               [this](int j, const std::vector<E>& gj, const std::vector<E>& gj1, const V* eta_prev,
                      Row& out) {
                 const auto A = static_cast<size_t>(model_.mesh().A());
                 out.resize(A);
                 for (size_t a = 0; a <= A; ++a) triangle(j, a, gj, gj1, eta_prev, out);
               });
  }
  /// The same with the triangles of row j from fill(j, g_j, g_{j+1}, eta_prev, out), which sizes
  /// `out` (Row::resize) and fills it as triangle() does for a = 0..A; eta_prev: row j-1's
  /// strains, null on row 0 or without stiffness damping (noether::SlabSeries: on the lanes).
  template <class Fill>
  std::optional<double> add(int j1, const std::vector<E>& row, const Fill& fill) {
    if (j1 == 0 || resumed_) {  // a new march, or row j-1 again after resume()
      if (j1 == 0) have_previous_ = have_triangles_ = false;
      resumed_ = false;
      row_ = row;
      return std::nullopt;
    }
    const int j = j1 - 1;
    std::swap(previous_, current_);  // row j-1's triangles
    have_previous_ = have_triangles_;
    // eta_{j-1}^a: row j-1's strain, kept (unused on row 0 or without stiffness damping).
    const bool stiffness = j >= 1 && have_previous_ && model_.loads().damping.stiffness != 0.0;
    fill(j, row_, row, stiffness ? previous_.eta.data() : nullptr, current_);  // rows j, j+1
    have_triangles_ = true;
    row_ = row;
    node_damping_of_row();
    if (j < 1) return std::nullopt;
    return increment();
  }

  /// Triangle (j, a) of rows g_j, g_{j+1} into out (a < A: xi, eta, D1, D2, D3), or xi_j^A
  /// alone (a = A); eta_prev as for add(): null, no stiffness part (as on row 0). Triangle
  /// (j, a): v1 = g_j^a, v2 = g_{j+1}^a, v3 = g_j^{a+1} (momenta.hpp, triangle_momenta).
  void triangle(int j, size_t a, const std::vector<E>& gj, const std::vector<E>& gj1,
                const V* eta_prev, Row& out) const {
    out.xi[a] = mesh::convected<G>(gj[a], gj1[a], model_.dt());
    if (a == out.eta.size()) return;
    BasicTriangleMomenta<V> m;
    m.xi = out.xi[a];
    m.eta = mesh::convected<G>(gj[a], gj[a + 1], model_.ds());
    time_momenta(model_, static_cast<int>(a), m.xi, m.mu, m.mu_tilde);
    const BasicVertexDerivatives<V> D =
        eta_prev != nullptr ? damping_derivatives(model_, j, static_cast<int>(a), m, eta_prev[a])
                            : damping_derivatives(model_, 0, static_cast<int>(a), m, V(V::Zero()));
    out.eta[a] = m.eta;
    out.D1[a] = D.D1;
    out.D2[a] = D.D2;
    out.D3[a] = D.D3;
  }

  /// G_d(j, a), a = 0..A, of the last row j = j1-1 (body covectors [J s], node_damping).
  const std::vector<V>& node_damping() const { return node_damping_; }

  /// After add(j1) with j1 >= 2: the triangles of row j1-2 (xi, eta, D2: what row j1-1's
  /// G_d and D increment take from the row before), the state a continued march resumes from.
  const Row& row_before() const { return previous_; }
  /// Continues the series of a march that added rows ..k (k >= 2), from its row_before(): the
  /// next add() takes row k-1 again and only keeps it; from row k on the terms are those of the
  /// march that was not interrupted (io/checkpoint.hpp).
  void resume(Row before) {
    current_ = std::move(before);
    have_triangles_ = resumed_ = true;
  }

 private:
  DiscreteModel<G> model_;
  std::vector<E> row_;  // row j (the last pushed)
  Row previous_, current_;
  std::vector<V> node_damping_;  // G_d of row j
  bool have_previous_ = false, have_triangles_ = false, resumed_ = false;

  // node_damping's sum D1 (triangle (j, a)) + D2 (triangle (j-1, a)) + D3 (triangle (j, a-1)),
  // in its order, from row j's triangles and row j-1's (none on row 0).
  void node_damping_of_row() {
    const auto n = static_cast<size_t>(model_.mesh().A());
    node_damping_.resize(n + 1);
    for (size_t a = 0; a <= n; ++a) {
      V G_d = V::Zero();
      if (a < n) G_d += current_.D1[a];                     // n = v1
      if (have_previous_ && a < n) G_d += previous_.D2[a];  // n = v2
      if (a >= 1) G_d += current_.D3[a - 1];                // n = v3
      node_damping_[a] = G_d;
    }
  }

  // dissipation_increment(j): -sum_a <G_d(j, a), (xi_{j-1}^a + xi_j^a) / 2>, in node order.
  double increment() const {
    double work = 0.0;
    for (size_t a = 0; a < node_damping_.size(); ++a) {
      const V xi_bar = 0.5 * (previous_.xi[a] + current_.xi[a]);
      work += node_damping_[a].dot(xi_bar);
    }
    return -work;
  }
};

}  // namespace field::dcel

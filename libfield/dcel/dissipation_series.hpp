#pragma once
/// The dissipated energy D_j of theory (4.7.6) streamed row by row, each triangle's damping
/// terms computed once (theory §4.7, damping.hpp). dissipation_increment visits node by node and
/// recomputes, per node and row, three triangles' momenta (with lambda, lambda~ and the forces
/// it does not need), the previous row's strains and both convected velocities of the node; here
/// the triangles of row j give xi_j^a, eta_j^a, mu, mu~ and the damping fluxes once, and row j-1's
/// xi, eta and mu~ are kept from the previous call. Same functions in the same order: the same
/// bits as dcel::dissipated_energy (DissipationSeries.SameBitsAsTheFieldPath). Serial, in node
/// order: the same bits on any thread count.
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

  /// Row j1 (0, 1, ... in order; 0 starts a new march). Computes the damping part of G_n at the
  /// nodes of row j = j1-1 (node_damping(model, values, j, a), a = 0..A) and returns
  /// D_j - D_{j-1} (dissipation_increment(model, values, j)) when j >= 1.
  std::optional<double> add(int j1, const std::vector<E>& row) {
    if (j1 == 0) {  // a new march
      have_previous_ = have_triangles_ = false;
      row_ = row;
      return std::nullopt;
    }
    const int j = j1 - 1;
    std::swap(previous_, current_);  // row j-1's triangles
    have_previous_ = have_triangles_;
    triangles(j, row_, row, current_);  // row j's, from rows j and j+1
    have_triangles_ = true;
    row_ = row;
    node_damping_of_row();
    if (j < 1) return std::nullopt;
    return increment();
  }

  /// G_d(j, a), a = 0..A, of the last row j = j1-1 (body covectors [J s], node_damping).
  const std::vector<V>& node_damping() const { return node_damping_; }

 private:
  // The terms of the triangles (j, a), a < A, and xi_j^a at every node a <= A.
  struct Row {
    std::vector<V> xi, eta;     // xi: A+1 values; eta: A
    std::vector<V> D1, D2, D3;  // damping_derivatives (D1, D3 with row j-1's eta)
  };

  DiscreteModel<G> model_;
  std::vector<E> row_;  // row j (the last pushed)
  Row previous_, current_;
  std::vector<V> node_damping_;  // G_d of row j
  bool have_previous_ = false, have_triangles_ = false;

  // Triangle (j, a): v1 = g_j^a, v2 = g_{j+1}^a, v3 = g_j^{a+1} (momenta.hpp, triangle_momenta).
  void triangles(int j, const std::vector<E>& gj, const std::vector<E>& gj1, Row& out) const {
    const int A = model_.mesh().A();
    const auto n = static_cast<size_t>(A);
    out.xi.resize(n + 1);
    out.eta.resize(n);
    out.D1.resize(n);
    out.D2.resize(n);
    out.D3.resize(n);
    const bool stiffness = j >= 1 && have_previous_ && model_.loads().damping.stiffness != 0.0;
    for (size_t a = 0; a < n; ++a) {
      BasicTriangleMomenta<V> m;
      m.xi = mesh::convected<G>(gj[a], gj1[a], model_.dt());
      m.eta = mesh::convected<G>(gj[a], gj[a + 1], model_.ds());
      time_momenta(model_, static_cast<int>(a), m.xi, m.mu, m.mu_tilde);
      // eta_{j-1}^a: row j-1's strain, kept (unused on row 0 or without stiffness damping).
      const V eta_prev = stiffness ? previous_.eta[a] : V::Zero();
      const BasicVertexDerivatives<V> D =
          damping_derivatives(model_, j, static_cast<int>(a), m, eta_prev);
      out.xi[a] = m.xi;
      out.eta[a] = m.eta;
      out.D1[a] = D.D1;
      out.D2[a] = D.D2;
      out.D3[a] = D.D3;
    }
    out.xi[n] = mesh::convected<G>(gj[n], gj1[n], model_.dt());
  }

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

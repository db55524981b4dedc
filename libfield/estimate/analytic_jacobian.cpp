// The analytic Jacobian blocks of the estimator's residuals (theory §6.7): dr_b / d delta_k for
// the node moves g <- g tau(delta), to first order g exp(delta).
#include <array>

#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/estimate/problem.hpp"
#include "libfield/lie/exponential.hpp"

namespace field::estimate {

namespace {

/// The derivatives of the convected rate y = tau^{-1}(g0^{-1} g1) / h (theory (3.3)) with respect
/// to the moves delta0 of g0 and delta1 of g1: U = g0^{-1} g1 becomes exp(-delta0 + Ad_U delta1) U,
/// so h dy = dtau^{-1}_{hy} (-delta0 + Ad_U delta1) (theory §3.3, as dcel/residual's floors).
struct RateDerivatives {
  Vec6 y;
  Mat6 d0, d1;  ///< dy/d delta0, dy/d delta1
};

template <class G>
RateDerivatives rate_derivatives(const lie::SE3& g0, const lie::SE3& g1, double h) {
  const lie::SE3 U = g0.inverse() * g1;
  RateDerivatives out;
  out.y = G::tau_inv(U) / h;
  const Mat6 T = G::dtau_inv(h * out.y) / h;
  out.d0 = -T;
  out.d1 = T * lie::Ad(U);
  return out;
}

/// Up to 7 nodes (the stencil of theory §4.1) and the 6x6 derivative of a residual with respect
/// to each; adding to a node already present sums.
struct NodeDerivatives {
  std::array<mesh::Node, 8> node;
  std::array<Mat6, 8> d;
  int size = 0;
  void add(const mesh::Node& n, const Mat6& m) {
    for (int i = 0; i < size; ++i)
      if (node[i] == n) {
        d[i] += m;
        return;
      }
    node[size] = n;
    d[size] = m;
    ++size;
  }
  Mat6 of(const mesh::Node& n) const {
    for (int i = 0; i < size; ++i)
      if (node[i] == n) return d[i];
    return Mat6::Zero();
  }
};

}  // namespace

template <class G>
void Problem<G>::jacobian_blocks(int b, mesh::Field& field, double h, Mat6* out) const {
  const Block& block = blocks_[b];
  const int j = block.j, a = block.a;
  const double dt = model_.dt(), ds = model_.ds();
  NodeDerivatives D;
  switch (block.kind) {
    case Block::Kind::dcel:
    case Block::Kind::boundary: {
      if (model_.loads().damping.any()) {
        // Damping (theory §4.7) reads row j-2's strains too: central differences.
        for (size_t i = 0; i < block.unknowns.size(); ++i)
          out[i] = jacobian_block(b, block.unknowns[i], field, h);
        return;
      }
      const mesh::SpacetimeMesh& m = model_.mesh();
      const double scale = 1.0 / (dt * ds * weights_.model_error);
      // Theory (3.12)-(3.14) differentiated: D1 = -ds mu(xi) - dt lambda(eta) + dt ds f,
      // D2 = ds mu~(xi), D3 = dt lambda~(eta), with dmu/dxi = node_jacobian(time, dt),
      // dmu~/dxi = node_jacobian(time, -dt), dlambda/deta = -node_jacobian(space, ds) and
      // dlambda~/deta = -node_jacobian(space, -ds) (theory §5).
      const auto time_rate = [&](int jt, int at) {
        return rate_derivatives<G>(field(jt, at), field(jt + 1, at), dt);
      };
      const auto space_rate = [&](int jt, int at) {
        return rate_derivatives<G>(field(jt, at), field(jt, at + 1), ds);
      };
      using dcel::NodeEquation;
      if (m.has_triangle(j, a)) {  // n = v1 of triangle (j, a)
        const RateDerivatives xi = time_rate(j, a), eta = space_rate(j, a);
        const Mat6 Mt =
            -ds * dcel::node_jacobian<G>(model_.density(a), NodeEquation::time, dt, xi.y);
        const Mat6 Ms =
            dt * dcel::node_jacobian<G>(model_.density(a), NodeEquation::space, ds, eta.y);
        D.add({j, a}, Mt * xi.d0 + Ms * eta.d0);
        D.add({j + 1, a}, Mt * xi.d1);
        D.add({j, a + 1}, Ms * eta.d1);
      }
      if (m.has_triangle(j - 1, a)) {  // n = v2 of triangle (j-1, a)
        const RateDerivatives xi = time_rate(j - 1, a);
        const Mat6 Mt =
            ds * dcel::node_jacobian<G>(model_.density(a), NodeEquation::time, -dt, xi.y);
        D.add({j - 1, a}, Mt * xi.d0);
        D.add({j, a}, Mt * xi.d1);
      }
      if (m.has_triangle(j, a - 1)) {  // n = v3 of triangle (j, a-1)
        const RateDerivatives eta = space_rate(j, a - 1);
        const Mat6 Ms =
            -dt * dcel::node_jacobian<G>(model_.density(a - 1), NodeEquation::space, -ds, eta.y);
        D.add({j, a - 1}, Ms * eta.d0);
        D.add({j, a}, Ms * eta.d1);
      }
      // The loads at the node itself: dt ds f(g) on v1 (theory §1) and dt W(g) (theory §1.4),
      // by central differences of the node's own terms.
      const bool force = m.has_triangle(j, a) &&
                         (model_.density(a).has_potential() || !model_.loads().distributed.empty());
      const bool point = j < m.J() && !model_.loads().point.empty();
      if (force || point) {
        const lie::SE3 g = field(j, a);
        const auto loads = [&](const lie::SE3& x) {
          Vec6 v = Vec6::Zero();
          if (force) v += dt * ds * model_.force(x, j, a);
          if (point) v += dt * model_.point_load(x, j, a);
          return v;
        };
        Mat6 L;
        for (int i = 0; i < 6; ++i) {
          Vec6 d = Vec6::Zero();
          d(i) = h;
          L.col(i) = (loads(g * G::tau(d)) - loads(g * G::tau(-d))) / (2.0 * h);
        }
        D.add({j, a}, L);
      }
      for (int i = 0; i < D.size; ++i) D.d[i] *= scale;
      break;
    }
    case Block::Kind::straight:
    case Block::Kind::tip_strain: {
      const RateDerivatives eta = rate_derivatives<G>(field(j, a), field(j, a + 1), ds);
      const double sigma =
          block.kind == Block::Kind::straight ? weights_.straight : weights_.strain;
      D.add({j, a}, eta.d0 / sigma);
      D.add({j, a + 1}, eta.d1 / sigma);
      break;
    }
    case Block::Kind::tip_pose: {
      // log(Q exp(w)) = phi + dexp^{-1}_{-phi} w to first order (Q = Lambda_m^T Lambda =
      // exp(phi)), and r <- r + Lambda v.
      const lie::SE3& g = field(j, 0);
      Vec6 phi = Vec6::Zero();
      phi.head<3>() =
          lie::log_map(lie::SE3{data_.pose[j].R.transpose() * g.R, Vec3::Zero()}).head<3>();
      Mat6 d = Mat6::Zero();
      d.topLeftCorner<3, 3>() = lie::dexp_inv(-phi).topLeftCorner<3, 3>() / weights_.angle;
      d.bottomRightCorner<3, 3>() = g.R / weights_.position;
      D.add({j, 0}, d);
      break;
    }
  }
  for (size_t i = 0; i < block.unknowns.size(); ++i) out[i] = D.of(nodes_[block.unknowns[i]]);
}

#define FIELD_INSTANTIATE(G) \
  template void Problem<G>::jacobian_blocks(int, mesh::Field&, double, Mat6*) const;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::estimate

#include "libfield/dcel/cayley_node.hpp"

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/dcel/cayley_factor.hpp"
#include "libfield/dcel/node_newton.hpp"

namespace field::dcel {

namespace {

// hat of theory §0.2, local so that it inlines (lie::hat lives in another translation unit).
inline Mat3 skew(const Vec3& w) {
  Mat3 s;
  s << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
  return s;
}

// x = h y = (w, v) and p = K (y - y0) = (pi, q) at one iterate.
struct Point {
  Vec3 w, v, pi, q;
};

// (dcay^{-1}_x)^T p of theory §2.1.
inline Vec6 phi_at(const Point& z) {
  Vec6 out;
  out.head<3>() = z.pi - 0.5 * (z.pi.cross(z.w) + z.q.cross(z.v)) +
                  0.25 * (z.w.dot(z.pi) * z.w + z.v.cross(z.w.cross(z.q)));
  out.tail<3>() = z.q - 0.5 * z.q.cross(z.w);
  return out;
}

// The Jacobian blocks, with W = w^, V = v^, Q = q^ and theory §2.1's
//   (dcay^{-1}_x)^T = [[I + W/2 + w w^T/4, V (I + W/2)/2], [0, I + W/2]],
//   M(x, p) = [[-pi^/2 + (w pi^T + (w.pi) I)/4 - V Q/4, G], [-Q/2, 0]],  G = g^,
//   g = -q/2 - (w x q)/4:
//   J11 = (I + W/2 + w w^T/4) K_w + h M11      J12 = V (I + W/2) K_v / 2 + h G
//   J21 = -h Q/2                               J22 = (I + W/2) K_v
// (used by jacobian(); the Newton step, dcel/cayley_factor.hpp, never forms them).
struct Blocks {
  Mat3 J11, M12, Q;
};

inline Blocks blocks_at(const Point& z, const Vec3& K_w, double h) {
  const Mat3 W = skew(z.w), V = skew(z.v), Q = skew(z.q);
  Mat3 At = Mat3::Identity() + 0.5 * W + 0.25 * z.w * z.w.transpose();
  Mat3 M11 = -0.5 * skew(z.pi) + 0.25 * z.w * z.pi.transpose() - 0.25 * V * Q;
  M11.diagonal().array() += 0.25 * z.w.dot(z.pi);
  Blocks b;
  b.J11 = At * K_w.asDiagonal();
  b.J11 += h * M11;
  b.M12 = -0.5 * Q - 0.25 * skew(z.w.cross(z.q));
  b.Q = Q;
  return b;
}

// The Newton step on one node (dcel/cayley_factor.hpp has the block formulas).
using Factor = CayleyFactor<double>;

inline void compute(Factor& f, const Point& z, const Vec3& K_w, const Vec3& K_v_inv, double h) {
  f.compute(z.w.data(), z.v.data(), z.pi.data(), z.q.data(), K_w.data(), K_v_inv.data(), h);
}

inline Vec6 step_of(const Factor& f, const Vec6& r) {
  Vec6 d;
  f.solve(r.data(), r.data() + 3, d.data(), d.data() + 3);
  return d;
}

}  // namespace

CayleyNode::CayleyNode(const Vec6& K, const Vec6& y0, double h) : K_(K), y0_(y0), h_(h) {
  FIELD_CHECK((K.array() > 0.0).all() && K.allFinite(),
              "CayleyNode: the law's diagonal K must be positive, got " << K.transpose());
  FIELD_CHECK(h > 0.0 && std::isfinite(h), "CayleyNode: step h must be positive, got " << h);
  K_v_inv_ = K.tail<3>().cwiseInverse();
}

namespace {
inline Point point_at(const Vec6& y, const Vec6& K, const Vec6& y0, double h) {
  const Vec6 p = K.cwiseProduct(y - y0);
  return {h * y.head<3>(), h * y.tail<3>(), p.head<3>(), p.tail<3>()};
}
}  // namespace

Vec6 CayleyNode::phi(const Vec6& y) const {
  return phi_at(point_at(y, K_, y0_, h_));
}

Mat6 CayleyNode::jacobian(const Vec6& y) const {
  const Point z = point_at(y, K_, y0_, h_);
  const Blocks b = blocks_at(z, K_.head<3>(), h_);
  const Mat3 I_W2 = Mat3::Identity() + 0.5 * skew(z.w);
  Mat6 jac;
  jac.topLeftCorner<3, 3>() = b.J11;
  jac.topRightCorner<3, 3>() = 0.5 * skew(z.v) * I_W2 * K_.tail<3>().asDiagonal();
  jac.topRightCorner<3, 3>() += h_ * b.M12;
  jac.bottomLeftCorner<3, 3>() = -0.5 * h_ * b.Q;
  jac.bottomRightCorner<3, 3>() = I_W2 * K_.tail<3>().asDiagonal();
  return jac;
}

Vec6 CayleyNode::newton_step(const Vec6& y, const Vec6& r) const {
  Factor factor;
  compute(factor, point_at(y, K_, y0_, h_), K_.head<3>(), K_v_inv_, h_);
  return step_of(factor, r);
}

namespace {
// The Cayley instance of dcel::newton_solve (dcel/node_newton.hpp).
struct CayleyIteration {
  using Point = dcel::Point;
  using Factor = dcel::Factor;
  const Vec6& K;
  const Vec6& y0;
  const Vec3& K_v_inv;
  double h;
  Point point(const Vec6& y) const { return point_at(y, K, y0, h); }
  Vec6 phi(const Point& z) const { return phi_at(z); }
  void factor(Factor& f, const Point& z) const { compute(f, z, K.head<3>(), K_v_inv, h); }
  Vec6 step(const Factor& f, const Vec6& r) const { return step_of(f, r); }
};
}  // namespace

NodeSolveReport CayleyNode::solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options) const {
  return newton_solve(CayleyIteration{K_, y0_, K_v_inv_, h_}, m, y, options, kFreezeStep);
}

std::optional<CayleyNode> make_cayley_node(const model::Density<lie::Se3Group>& density,
                                           NodeEquation equation, double h) {
  const auto* law = density.diagonal_law();
  if (law == nullptr) return std::nullopt;  // diagonal laws only
  if (equation == NodeEquation::time) return CayleyNode(law->inertia, Vec6::Zero(), h);
  return CayleyNode(law->stiffness, law->reference_strain, h);
}

}  // namespace field::dcel

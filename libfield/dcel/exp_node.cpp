#include "libfield/dcel/exp_node.hpp"

#include <Eigen/LU>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/dcel/node_newton.hpp"
#include "libfield/lie/exponential_blocks.hpp"
#include "libfield/model/beam_density.hpp"

namespace field::dcel {

namespace {

namespace ex = lie::exp_detail;

// One iterate: x = h y = (w, v), p = K (y - y0) = (pi, q), the coefficients of SPEC [S2.2] at
// |w|^2 and the blocks of dexp^{-1}_x, shared by Phi and the Jacobian.
struct Point {
  Vec3 w, v, pi, q;
  ex::Coefficients<double> k;
  ex::DexpInvBlocks<double> b;
};

inline Point point_at(const Vec6& y, const Vec6& K, const Vec6& y0, double h) {
  Point z;
  const Vec6 p = K.cwiseProduct(y - y0);
  z.w = h * y.head<3>();
  z.v = h * y.tail<3>();
  z.pi = p.head<3>();
  z.q = p.tail<3>();
  z.k = ex::coefficients<double>(z.w.squaredNorm());
  z.b = ex::dexp_inv_blocks<double>(z.w, z.v, z.k);
  return z;
}

// The Jacobian blocks J11, J12 (J21 = h M12, J22 = F^T K_v): see dcel/exp_node.hpp.
struct Blocks {
  Mat3 J11, J12, J21;
};

inline Blocks blocks_at(const Point& z, const Vec6& K, double h) {
  const ex::NewtonMBlocks<double> M = ex::newton_M_blocks<double>(z.w, z.v, z.pi, z.q, z.k, z.b);
  Blocks j;
  j.J11 = z.b.F.transpose() * K.head<3>().asDiagonal();
  j.J11 += h * M.M11;
  j.J12 = z.b.H.transpose() * K.tail<3>().asDiagonal();
  j.J12 += h * M.M12;
  j.J21 = h * M.M12;
  return j;
}

// The factorised Jacobian: J22^{-1} = K_v^{-1} F^{-T}, P = J12 J22^{-1}, J21, S^{-1}.
struct Factor {
  Mat3 KN, P, J21, S_inv;
};

inline void compute(Factor& f, const Point& z, const Vec6& K, const Vec3& K_v_inv, double h) {
  const Blocks j = blocks_at(z, K, h);
  f.KN = K_v_inv.asDiagonal() * ex::F_inverse<double>(z.b.W, z.b.W2, z.k).transpose();
  f.P = j.J12 * f.KN;
  f.J21 = j.J21;
  f.S_inv = (j.J11 - f.P * j.J21).inverse();
}

inline Vec6 step_of(const Factor& f, const Vec6& r) {
  Vec6 d;
  d.head<3>() = f.S_inv * (r.head<3>() - f.P * r.tail<3>());
  d.tail<3>() = f.KN * (r.tail<3>() - f.J21 * d.head<3>());
  return d;
}

// The exponential instance of dcel::newton_solve (dcel/node_newton.hpp).
struct ExpIteration {
  using Point = dcel::Point;
  using Factor = dcel::Factor;
  const Vec6& K;
  const Vec6& y0;
  const Vec3& K_v_inv;
  double h;
  Point point(const Vec6& y) const { return point_at(y, K, y0, h); }
  Vec6 phi(const Point& z) const { return ex::dual<double>(z.b, z.pi, z.q); }
  void factor(Factor& f, const Point& z) const { compute(f, z, K, K_v_inv, h); }
  Vec6 step(const Factor& f, const Vec6& r) const { return step_of(f, r); }
};

}  // namespace

ExpNode::ExpNode(const Vec6& K, const Vec6& y0, double h) : K_(K), y0_(y0), h_(h) {
  FIELD_CHECK((K.array() > 0.0).all() && K.allFinite(),
              "ExpNode: the law's diagonal K must be positive, got " << K.transpose());
  FIELD_CHECK(h > 0.0 && std::isfinite(h), "ExpNode: step h must be positive, got " << h);
  K_v_inv_ = K.tail<3>().cwiseInverse();
}

Vec6 ExpNode::phi(const Vec6& y) const {
  const Point z = point_at(y, K_, y0_, h_);
  return ex::dual<double>(z.b, z.pi, z.q);
}

Mat6 ExpNode::jacobian(const Vec6& y) const {
  const Point z = point_at(y, K_, y0_, h_);
  const Blocks j = blocks_at(z, K_, h_);
  Mat6 jac;
  jac.topLeftCorner<3, 3>() = j.J11;
  jac.topRightCorner<3, 3>() = j.J12;
  jac.bottomLeftCorner<3, 3>() = j.J21;
  jac.bottomRightCorner<3, 3>() = z.b.F.transpose() * K_.tail<3>().asDiagonal();
  return jac;
}

Vec6 ExpNode::newton_step(const Vec6& y, const Vec6& r) const {
  Factor factor;
  compute(factor, point_at(y, K_, y0_, h_), K_, K_v_inv_, h_);
  return step_of(factor, r);
}

NodeSolveReport ExpNode::solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options) const {
  return newton_solve(ExpIteration{K_, y0_, K_v_inv_, h_}, m, y, options, kFreezeStep);
}

std::optional<ExpNode> make_exp_node(const model::Density& density, const lie::Retraction& tau,
                                     NodeEquation equation, double h) {
  const auto* beam = dynamic_cast<const model::BeamDensity*>(&density);
  if (tau.kind() != lie::RetractionKind::exponential || beam == nullptr) return std::nullopt;
  if (equation == NodeEquation::time) return ExpNode(beam->inertia(), Vec6::Zero(), h);
  return ExpNode(beam->stiffness(), beam->reference_strain(), h);
}

}  // namespace field::dcel

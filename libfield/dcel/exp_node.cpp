#include "libfield/dcel/exp_node.hpp"

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/dcel/exp_factor.hpp"
#include "libfield/dcel/node_newton.hpp"

namespace field::dcel {

namespace {

namespace ex = lie::exp_detail;
using Point = ExpPoint<double>;
using Factor = ExpFactor<double>;

inline ex::V3<double> v3(const double* a) {
  return {{a[0], a[1], a[2]}};
}

inline Vec6 vec6(const ex::V3<double>& a, const ex::V3<double>& b) {
  Vec6 out;
  out << a.e[0], a.e[1], a.e[2], b.e[0], b.e[1], b.e[2];
  return out;
}

inline Mat3 mat3(const ex::M3<double>& a) {
  Mat3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = a.e[i][j];
  return m;
}

inline Point point_at(const Vec6& y, const Vec6& K, const Vec6& y0, double h) {
  return Point::at(v3(y.data()), v3(y.data() + 3), K.data(), y0.data(), h);
}

inline Vec6 phi_at(const Point& z) {
  ex::V3<double> out_w, out_v;
  z.phi(out_w, out_v);
  return vec6(out_w, out_v);
}

inline Vec6 step_of(const Factor& f, const Vec6& r) {
  ex::V3<double> d_w, d_v;
  f.solve(v3(r.data()), v3(r.data() + 3), d_w, d_v);
  return vec6(d_w, d_v);
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
  Vec6 phi(const Point& z) const { return phi_at(z); }
  void factor(Factor& f, const Point& z) const { f.compute(z, K.data(), K_v_inv.data(), h); }
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
  return phi_at(point_at(y, K_, y0_, h_));
}

Mat6 ExpNode::jacobian(const Vec6& y) const {
  const Point z = point_at(y, K_, y0_, h_);
  const ExpJacobianBlocks<double> j = ExpJacobianBlocks<double>::at(z, K_.data(), h_);
  Mat6 jac;
  jac.topLeftCorner<3, 3>() = mat3(j.J11);
  jac.topRightCorner<3, 3>() = mat3(j.J12);
  jac.bottomLeftCorner<3, 3>() = mat3(j.J21);
  jac.bottomRightCorner<3, 3>() = mat3(z.b.F).transpose() * K_.tail<3>().asDiagonal();
  return jac;
}

Vec6 ExpNode::newton_step(const Vec6& y, const Vec6& r) const {
  Factor factor;
  factor.compute(point_at(y, K_, y0_, h_), K_.data(), K_v_inv_.data(), h_);
  return step_of(factor, r);
}

NodeSolveReport ExpNode::solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options) const {
  return newton_solve(ExpIteration{K_, y0_, K_v_inv_, h_}, m, y, options, kFreezeStep);
}

std::optional<ExpNode> make_exp_node(const model::Density<lie::Se3Group>& density,
                                     NodeEquation equation, double h) {
  const auto* law = density.diagonal_law();
  if (law == nullptr) return std::nullopt;  // diagonal laws only
  if (equation == NodeEquation::time) return ExpNode(law->inertia, Vec6::Zero(), h);
  return ExpNode(law->stiffness, law->reference_strain, h);
}

}  // namespace field::dcel

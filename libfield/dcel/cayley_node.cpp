#include "libfield/dcel/cayley_node.hpp"

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/model/beam_density.hpp"

namespace field::dcel {

namespace {

// hat of SPEC [S1], local so that it inlines (lie::hat lives in another translation unit).
inline Mat3 skew(const Vec3& w) {
  Mat3 s;
  s << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
  return s;
}

// x = h y = (w, v) and p = K (y - y0) = (pi, q) at one iterate.
struct Point {
  Vec3 w, v, pi, q;
};

// (dcay^{-1}_x)^T p of SPEC [S2.1].
inline Vec6 phi_at(const Point& z) {
  Vec6 out;
  out.head<3>() = z.pi - 0.5 * (z.pi.cross(z.w) + z.q.cross(z.v)) +
                  0.25 * (z.w.dot(z.pi) * z.w + z.v.cross(z.w.cross(z.q)));
  out.tail<3>() = z.q - 0.5 * z.q.cross(z.w);
  return out;
}

// The Jacobian blocks, with W = w^, V = v^, Q = q^ and [S2.1]'s
//   (dcay^{-1}_x)^T = [[I + W/2 + w w^T/4, V (I + W/2)/2], [0, I + W/2]],
//   M(x, p) = [[-pi^/2 + (w pi^T + (w.pi) I)/4 - V Q/4, G], [-Q/2, 0]],  G = g^,
//   g = -q/2 - (w x q)/4:
//   J11 = (I + W/2 + w w^T/4) K_w + h M11      J12 = V (I + W/2) K_v / 2 + h G
//   J21 = -h Q/2                               J22 = (I + W/2) K_v
// (used by jacobian(); the solve below never forms them).
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

// A 3x3 matrix as plain doubles: the factorisation below is a few hundred flops, and small
// fixed loops over plain arrays compile to straight-line register code.
struct M3 {
  double e[3][3];
};

inline Vec3 mul(const M3& a, const Vec3& x) {
  return {a.e[0][0] * x[0] + a.e[0][1] * x[1] + a.e[0][2] * x[2],
          a.e[1][0] * x[0] + a.e[1][1] * x[1] + a.e[1][2] * x[2],
          a.e[2][0] * x[0] + a.e[2][1] * x[1] + a.e[2][2] * x[2]};
}

// Inverse by cofactors (S is a small perturbation of diag(K_w): well conditioned).
inline M3 inverse(const M3& a) {
  const auto& e = a.e;
  M3 c;
  c.e[0][0] = e[1][1] * e[2][2] - e[1][2] * e[2][1];
  c.e[0][1] = e[0][2] * e[2][1] - e[0][1] * e[2][2];
  c.e[0][2] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
  c.e[1][0] = e[1][2] * e[2][0] - e[1][0] * e[2][2];
  c.e[1][1] = e[0][0] * e[2][2] - e[0][2] * e[2][0];
  c.e[1][2] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
  c.e[2][0] = e[1][0] * e[2][1] - e[1][1] * e[2][0];
  c.e[2][1] = e[0][1] * e[2][0] - e[0][0] * e[2][1];
  c.e[2][2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
  const double inv_det = 1.0 / (e[0][0] * c.e[0][0] + e[0][1] * c.e[1][0] + e[0][2] * c.e[2][0]);
  for (auto& row : c.e)
    for (double& x : row) x *= inv_det;
  return c;
}

// The Newton step J_Phi d = r through the inverse of J22 = (I + W/2) K_v:
//   (I + W/2)^{-1} = N = (I - W/2 + w w^T/4) / (1 + |w|^2/4)    (Cayley's identity)
//   J12 J22^{-1} = V/2 + h G K_v^{-1} N,
//   S = J11 - J12 J22^{-1} J21 = J11' + (h^2/2) G K_v^{-1} N Q,
// where J11' is J11 without its term -h V Q/4, which cancels against (h/4) V Q; then
//   d_w = S^{-1} (r_w - v x r_v / 2 - h g x (K_v^{-1} N r_v)),
//   d_v = K_v^{-1} N (r_v + (h/2) q x d_w).
// Entrywise, with u = K_w w + h pi (componentwise product):
//   J11'_ij = (k_j + h (w.pi)/4) delta_ij + w_i u_j / 4 + (W_ij k_j - h Pi_ij) / 2.
class Factor {
 public:
  void compute(const Point& z, const Vec3& K_w, const Vec3& K_v_inv, double h) {
    const Vec3& w = z.w;
    const double c = 1.0 / (1.0 + 0.25 * w.squaredNorm());
    // KN = K_v^{-1} N.
    const double W[3][3] = {{0.0, -w[2], w[1]}, {w[2], 0.0, -w[0]}, {-w[1], w[0], 0.0}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        KN_.e[i][j] = K_v_inv[i] * c * ((i == j ? 1.0 : 0.0) + 0.25 * w[i] * w[j] - 0.5 * W[i][j]);
    // Row i of KN Q is (row i of KN) x q; column j of G T is g x (column j of T).
    g_ = -0.5 * z.q - 0.25 * w.cross(z.q);
    Vec3 T[3];  // rows of KN Q
    for (int i = 0; i < 3; ++i) T[i] = Vec3(KN_.e[i][0], KN_.e[i][1], KN_.e[i][2]).cross(z.q);
    const Vec3 u = K_w.cwiseProduct(w) + h * z.pi;
    const double diag = 0.25 * h * w.dot(z.pi), hh = 0.5 * h * h;
    const double Pi[3][3] = {
        {0.0, -z.pi[2], z.pi[1]}, {z.pi[2], 0.0, -z.pi[0]}, {-z.pi[1], z.pi[0], 0.0}};
    M3 S;
    for (int j = 0; j < 3; ++j) {
      const Vec3 GT = g_.cross(Vec3(T[0][j], T[1][j], T[2][j]));
      for (int i = 0; i < 3; ++i)
        S.e[i][j] = (i == j ? K_w[j] + diag : 0.0) + 0.25 * w[i] * u[j] +
                    0.5 * (W[i][j] * K_w[j] - h * Pi[i][j]) + hh * GT[i];
    }
    S_inv_ = inverse(S);
    v_half_ = 0.5 * z.v;
    hq_half_ = 0.5 * h * z.q;
    h_ = h;
  }
  Vec6 solve(const Vec6& r) const {
    const Vec3 r_w = r.head<3>(), r_v = r.tail<3>();
    const Vec3 t = mul(KN_, r_v);
    const Vec3 d_w = mul(S_inv_, r_w - v_half_.cross(r_v) - h_ * g_.cross(t));
    Vec6 d;
    d << d_w, t + mul(KN_, hq_half_.cross(d_w));
    return d;
  }

 private:
  M3 KN_, S_inv_;
  Vec3 g_, v_half_, hq_half_;
  double h_ = 0.0;
};

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
  factor.compute(point_at(y, K_, y0_, h_), K_.head<3>(), K_v_inv_, h_);
  return factor.solve(r);
}

NodeSolveReport CayleyNode::solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options) const {
  NodeSolveReport report;
  Factor factor;
  bool polishing = false, frozen = false;
  while (report.iterations < options.max_iterations) {
    const Point z = point_at(y, K_, y0_, h_);
    if (!frozen) factor.compute(z, K_.head<3>(), K_v_inv_, h_);
    const Vec6 dy = factor.solve(phi_at(z) - m);
    y -= dy;
    ++report.iterations;
    if (!y.allFinite()) break;
    if (polishing) {
      report.converged = true;
      break;
    }
    const double step = dy.cwiseAbs().maxCoeff(), scale = 1.0 + y.cwiseAbs().maxCoeff();
    polishing = step <= options.tolerance * scale;
    frozen = step <= kFreezeStep * scale;
  }
  report.residual = y.allFinite() ? (phi(y) - m).cwiseAbs().maxCoeff() : INFINITY;
  return report;
}

std::optional<CayleyNode> make_cayley_node(const model::Density& density,
                                           const lie::Retraction& tau, NodeEquation equation,
                                           double h) {
  const auto* beam = dynamic_cast<const model::BeamDensity*>(&density);
  if (tau.kind() != lie::RetractionKind::cayley || beam == nullptr) return std::nullopt;
  if (equation == NodeEquation::time) return CayleyNode(beam->inertia(), Vec6::Zero(), h);
  return CayleyNode(beam->stiffness(), beam->reference_strain(), h);
}

}  // namespace field::dcel

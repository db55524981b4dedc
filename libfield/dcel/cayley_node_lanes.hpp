#pragma once
/// dcel::CayleyNode on four nodes at once (core/lanes.hpp): the closed-form Newton solve of
/// SPEC [S6] for the Cayley retraction and a diagonal law p(y) = K (y - y0), with the same block
/// formulas, the same stopping rule (max|dy| <= tolerance (1 + max|y|), then one polishing
/// iteration) and the same Jacobian freeze, decided lane by lane: a lane stops when its own rule
/// says so and is left untouched afterwards. Inline, for the batched march kernels.
#include <cmath>

#include "libfield/dcel/cayley_node.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/cayley_lanes.hpp"

namespace field::dcel {

class CayleyNodeLanes {
 public:
  /// Outcome per lane: Newton updates made, converged or not, max|Phi(y) - m| at the end.
  struct Report {
    lanes::Lane iterations = lanes::splat(0.0);
    lanes::Mask converged = lanes::splat_mask(false);
    lanes::Lane residual = lanes::splat(0.0);
  };

  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds (as CayleyNode).
  CayleyNodeLanes(const Vec6& K, const Vec6& y0, double h) : h_(h) {
    for (int i = 0; i < 6; ++i) {
      K_[i] = K[i];
      y0_[i] = y0[i];
    }
    for (int i = 0; i < 3; ++i) K_v_inv_[i] = 1.0 / K[3 + i];
  }

  /// p = K (y - y0).
  FIELD_LANES_INLINE lanes::V6 law(const lanes::V6& y) const {
    return {{K_[0] * (y.w.x - y0_[0]), K_[1] * (y.w.y - y0_[1]), K_[2] * (y.w.z - y0_[2])},
            {K_[3] * (y.v.x - y0_[3]), K_[4] * (y.v.y - y0_[4]), K_[5] * (y.v.z - y0_[5])}};
  }
  /// Phi(y) = (dcay^{-1}_{hy})^T K (y - y0).
  FIELD_LANES_INLINE lanes::V6 phi(const lanes::V6& y) const {
    return lanes::dcay_inv_dual(h_ * y, law(y));
  }
  /// The dual at -hy: (dcay^{-1}_{-hy})^T K (y - y0) (mu~ or -lambda~ of SPEC [S7]).
  FIELD_LANES_INLINE lanes::V6 phi_tilde(const lanes::V6& y) const {
    return lanes::dcay_inv_dual(-h_ * y, law(y));
  }

  /// Solves Phi(y) = m on the lanes set in `active`, in place from the start y; the other lanes
  /// of y and `report` are not changed. Stopping rule and Jacobian freeze of CayleyNode::solve.
  FIELD_LANES_INLINE void solve(const lanes::V6& m, lanes::V6& y, lanes::Mask active,
                                const NodeSolverOptions& options, Report& report) const {
    using namespace lanes;
    const Lane one = splat(1.0);
    Factor factor;
    Mask polishing = splat_mask(false), frozen = splat_mask(false);
    Mask converged = splat_mask(false);
    Lane iterations = splat(0.0);
    for (int it = 0; it < options.max_iterations && any(active); ++it) {
      const Point z = point_at(y);
      const Mask refresh = active & ~frozen;
      if (it == 0) {
        factor.compute(z, K_, K_v_inv_, h_);
      } else if (any(refresh)) {
        Factor fresh;
        fresh.compute(z, K_, K_v_inv_, h_);
        factor = Factor::select(refresh, fresh, factor);
      }
      const V6 dy = factor.solve(phi_at(z) - m);
      y = select(active, y - dy, y);
      iterations = iterations + select(active, one, splat(0.0));
      const Mask ok = finite(y);
      converged |= active & ok & polishing;
      const Mask done = ~ok | polishing;
      const Lane scale = 1.0 + max_abs(y), step = max_abs(dy);
      polishing = step <= options.tolerance * scale;
      frozen = step <= CayleyNode::kFreezeStep * scale;
      active &= ~done;
    }
    const Mask ok = finite(y);
    const Lane residual = select(ok, max_abs(phi(y) - m), splat(INFINITY));
    const Mask touched = iterations > splat(0.0);
    report.iterations = select(touched, iterations, report.iterations);
    report.converged = select(touched, converged, report.converged);
    report.residual = select(touched, residual, report.residual);
  }

 private:
  double K_[6], y0_[6], K_v_inv_[3], h_;

  // x = h y = (w, v) and p = K (y - y0) = (pi, q) at one iterate.
  struct Point {
    lanes::V3 w, v, pi, q;
  };
  FIELD_LANES_INLINE Point point_at(const lanes::V6& y) const {
    const lanes::V6 p = law(y);
    return {h_ * y.w, h_ * y.v, p.w, p.v};
  }
  FIELD_LANES_INLINE static lanes::V6 phi_at(const Point& z) {
    return lanes::dcay_inv_dual({z.w, z.v}, {z.pi, z.q});
  }

  // The block solve of CayleyNode (cayley_node.cpp, class Factor): the inverse of
  // J22 = (I + W/2) K_v through Cayley's identity and the 3x3 Schur complement
  // S = J11' + (h^2/2) G K_v^{-1} N Q, inverted by cofactors.
  struct Factor {
    lanes::M3 KN, S_inv;
    lanes::V3 g, v_half, hq_half;
    double h = 0.0;

    FIELD_LANES_INLINE void compute(const Point& z, const double* K, const double* K_v_inv,
                                    double step) {
      using namespace lanes;
      const Lane w[3] = {z.w.x, z.w.y, z.w.z}, pi[3] = {z.pi.x, z.pi.y, z.pi.z};
      const Lane c = 1.0 / (1.0 + 0.25 * dot(z.w, z.w)), zero = splat(0.0);
      const Lane W[3][3] = {{zero, -w[2], w[1]}, {w[2], zero, -w[0]}, {-w[1], w[0], zero}};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          KN.e[i][j] = K_v_inv[i] * c * ((i == j ? 1.0 : 0.0) + 0.25 * w[i] * w[j] - 0.5 * W[i][j]);
      g = -0.5 * z.q - 0.25 * cross(z.w, z.q);
      V3 T[3];  // rows of KN Q: (row i of KN) x q
      for (int i = 0; i < 3; ++i) T[i] = cross(V3{KN.e[i][0], KN.e[i][1], KN.e[i][2]}, z.q);
      const Lane u[3] = {K[0] * w[0] + step * pi[0], K[1] * w[1] + step * pi[1],
                         K[2] * w[2] + step * pi[2]};
      const Lane diag = 0.25 * step * dot(z.w, z.pi);
      const double hh = 0.5 * step * step;
      const Lane Pi[3][3] = {{zero, -pi[2], pi[1]}, {pi[2], zero, -pi[0]}, {-pi[1], pi[0], zero}};
      // Column j of G T is g x (column j of T).
      const V3 GT[3] = {cross(g, V3{T[0].x, T[1].x, T[2].x}), cross(g, V3{T[0].y, T[1].y, T[2].y}),
                        cross(g, V3{T[0].z, T[1].z, T[2].z})};
      M3 S;
      for (int j = 0; j < 3; ++j) {
        const Lane gt[3] = {GT[j].x, GT[j].y, GT[j].z};
        for (int i = 0; i < 3; ++i)
          S.e[i][j] = (i == j ? K[j] + diag : zero) + 0.25 * w[i] * u[j] +
                      0.5 * (W[i][j] * K[j] - step * Pi[i][j]) + hh * gt[i];
      }
      S_inv = inverse(S);
      v_half = 0.5 * z.v;
      hq_half = (0.5 * step) * z.q;
      h = step;
    }
    FIELD_LANES_INLINE lanes::V6 solve(const lanes::V6& r) const {
      using namespace lanes;
      const V3 t = mul(KN, r.v);
      const V3 d_w = mul(S_inv, r.w - cross(v_half, r.v) - h * cross(g, t));
      return {d_w, t + mul(KN, cross(hq_half, d_w))};
    }
    FIELD_LANES_INLINE static Factor select(lanes::Mask m, const Factor& a, const Factor& b) {
      Factor out;
      out.KN = lanes::select(m, a.KN, b.KN);
      out.S_inv = lanes::select(m, a.S_inv, b.S_inv);
      out.g = lanes::select(m, a.g, b.g);
      out.v_half = lanes::select(m, a.v_half, b.v_half);
      out.hq_half = lanes::select(m, a.hq_half, b.hq_half);
      out.h = a.h;
      return out;
    }
    FIELD_LANES_INLINE static lanes::M3 inverse(const lanes::M3& a) {
      const auto& e = a.e;
      lanes::M3 c;
      c.e[0][0] = e[1][1] * e[2][2] - e[1][2] * e[2][1];
      c.e[0][1] = e[0][2] * e[2][1] - e[0][1] * e[2][2];
      c.e[0][2] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
      c.e[1][0] = e[1][2] * e[2][0] - e[1][0] * e[2][2];
      c.e[1][1] = e[0][0] * e[2][2] - e[0][2] * e[2][0];
      c.e[1][2] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
      c.e[2][0] = e[1][0] * e[2][1] - e[1][1] * e[2][0];
      c.e[2][1] = e[0][1] * e[2][0] - e[0][0] * e[2][1];
      c.e[2][2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
      const lanes::Lane inv_det =
          1.0 / (e[0][0] * c.e[0][0] + e[0][1] * c.e[1][0] + e[0][2] * c.e[2][0]);
      for (auto& row : c.e)
        for (lanes::Lane& x : row) x *= inv_det;
      return c;
    }
  };
};

}  // namespace field::dcel

// The Cayley retraction and SE(3) products on four nodes at once (lie/cayley_lanes.hpp) against
// lie/cayley.cpp and lie::SE3, lane by lane (theory §2.1, §0.2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "libfield/lie/cayley.hpp"
#include "libfield/lie/cayley_lanes.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/random.hpp"

namespace field::lanes {
namespace {

Vec6 at(const V6& x, int l) {
  return (Vec6() << x.w.x[l], x.w.y[l], x.w.z[l], x.v.x[l], x.v.y[l], x.v.z[l]).finished();
}

lie::SE3 at(const G& g, int l) {
  lie::SE3 out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.R(i, j) = g.R.e[i][j][l];
  out.r = Vec3(g.r.x[l], g.r.y[l], g.r.z[l]);
  return out;
}

double diff(const lie::SE3& a, const lie::SE3& b) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.r - b.r).cwiseAbs().maxCoeff());
}

// Four different inputs, one per lane; rotation angles up to 2 rad.
struct Inputs {
  Vec6 x[kWidth];
  lie::SE3 g[kWidth], h[kWidth];
};

Inputs inputs(test::Random& rnd) {
  Inputs in;
  for (int l = 0; l < kWidth; ++l) {
    in.x[l] = rnd.vec6_with_angle(0.5 * (l + 1), 1.0);
    in.g[l] = rnd.se3(2.0);
    in.h[l] = rnd.se3(2.0);
  }
  return in;
}

TEST(CayleyLanes, RetractionHasTheBitsOfTheScalarPathLaneByLane) {
  // cay, cay^{-1} and the dual of dcay^{-1} are written once (lie/cayley_blocks.hpp) for
  // lie/cayley.cpp and the lanes: the same bits, on rotations up to 3.1 rad (cay^{-1} near its
  // singularity included).
  test::Random rnd(70);
  for (int trial = 0; trial < 200; ++trial) {
    const Inputs in = inputs(rnd);
    const G c = cay(load(in.x, kWidth));
    const V6 z = cay_inv(load(in.g, kWidth));
    Vec6 p[kWidth];
    for (Vec6& p_l : p) p_l = rnd.vec6_with_angle(1.0, 3.0);
    const V6 x = load(in.x, kWidth), pl = load(p, kWidth);
    small::V3<Lane> d_w, d_v;  // the fluxes' and the node equation's (dcay^{-1}_x)^T p, (2.8)
    lie::cay_detail::dual(to_small(x.w), to_small(x.v), to_small(pl.w), to_small(pl.v), d_w, d_v);
    const V6 d{from_small(d_w), from_small(d_v)};
    for (int l = 0; l < kWidth; ++l) {
      const Vec6 d_ref = lie::dcay_inv_dual(in.x[l], p[l]);
      EXPECT_EQ(std::memcmp(at(d, l).data(), d_ref.data(), sizeof(double) * 6), 0);
      const lie::SE3 ref = lie::cay(in.x[l]);
      EXPECT_EQ(std::memcmp(at(c, l).R.data(), ref.R.data(), sizeof(double) * 9), 0);
      EXPECT_EQ(std::memcmp(at(c, l).r.data(), ref.r.data(), sizeof(double) * 3), 0);
      const Vec6 z_ref = lie::cay_inv(in.g[l]);
      EXPECT_EQ(std::memcmp(at(z, l).data(), z_ref.data(), sizeof(double) * 6), 0);
    }
  }
}

TEST(CayleyLanes, ProductsEqualTheScalarFormulasLaneByLane) {
  // The SE(3) products in another order than Eigen's: equal to a few units of round-off.
  test::Random rnd(71);
  for (int trial = 0; trial < 50; ++trial) {
    const Inputs in = inputs(rnd);
    const V6 x = load(in.x, kWidth);
    const G g = load(in.g, kWidth), h = load(in.h, kWidth);
    const G c = cay(x), gh = mul(g, h), g_inv_h = inverse_mul(g, h);
    const V6 xb = cay_inv(c), z = cay_inv(g_inv_h);
    for (int l = 0; l < kWidth; ++l) {
      EXPECT_LT(diff(at(c, l), lie::cay(in.x[l])), 1e-15);
      EXPECT_LT(diff(at(gh, l), in.g[l] * in.h[l]), 1e-14);
      EXPECT_LT(diff(at(g_inv_h, l), in.g[l].inverse() * in.h[l]), 1e-14);
      EXPECT_LT((at(xb, l) - in.x[l]).cwiseAbs().maxCoeff(), 1e-14);  // cay^{-1} cay = id
      // cay^{-1} divides by 1 + tr R = 4 / (1 + |w|^2 / 4), which goes to 0 as the rotation of
      // g^{-1} h nears pi (the se3 inputs turn by up to 3.1 rad): the round-off of the two
      // products is amplified by 4 / (1 + tr R), up to 4e4 in these inputs. Measured: relative
      // error <= 3.3e-16 times that factor (5.5e-13 at theta = 3.1315 rad).
      const lie::SE3 rel = in.g[l].inverse() * in.h[l];
      const Vec6 z_ref = lie::cay_inv(rel);
      const double amplification = 4.0 / (1.0 + rel.R.trace());
      EXPECT_LT((at(z, l) - z_ref).cwiseAbs().maxCoeff(),
                4e-15 * amplification * z_ref.cwiseAbs().maxCoeff());
    }
  }
}

TEST(CayleyLanes, LoadStoreAndPartialBatches) {
  test::Random rnd(72);
  const Inputs in = inputs(rnd);
  for (int count = 1; count <= kWidth; ++count) {
    const V6 x = load(in.x, count);
    const G g = load(in.g, count);
    for (int l = 0; l < kWidth; ++l) {
      const int src = std::min(l, count - 1);  // lanes past count repeat the last node
      EXPECT_EQ(at(x, l), in.x[src]);
      EXPECT_EQ(diff(at(g, l), in.g[src]), 0.0);
    }
    Vec6 y_out[kWidth + 1];
    lie::SE3 g_out[kWidth + 1];
    for (Vec6& v : y_out) v.setConstant(-7.0);
    store(x, y_out, count);
    store(g, g_out, count);
    for (int l = 0; l <= kWidth; ++l) {
      if (l < count) {
        EXPECT_EQ(y_out[l], in.x[l]);
        EXPECT_EQ(diff(g_out[l], in.g[l]), 0.0);
      } else {
        EXPECT_EQ(y_out[l], Vec6::Constant(-7.0)) << "lane " << l << " written past count";
      }
    }
  }
}

TEST(CayleyLanes, HalfTurnGivesANonFiniteLaneOnly) {
  // cay^{-1} of a rotation by pi has no value (1 + tr = 0): that lane is not finite, the others
  // are untouched (the scalar lie::cay_inv throws instead).
  test::Random rnd(73);
  Inputs in = inputs(rnd);
  in.g[2].R = lie::rotation_about(Vec3::UnitX(), M_PI);
  in.g[2].R(1, 1) = in.g[2].R(2, 2) = -1.0;  // exactly: 1 + tr R = 0
  in.g[2].R(1, 2) = in.g[2].R(2, 1) = 0.0;
  const V6 z = cay_inv(load(in.g, kWidth));
  const Mask ok = finite(z);
  for (int l = 0; l < kWidth; ++l) {
    EXPECT_EQ(ok[l] != 0, l != 2) << "lane " << l;
    if (l != 2) {
      EXPECT_LT((at(z, l) - lie::cay_inv(in.g[l])).cwiseAbs().maxCoeff(), 1e-13);
    }
  }
}

}  // namespace
}  // namespace field::lanes

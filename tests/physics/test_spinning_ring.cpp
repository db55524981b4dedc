// theory §11.6: a pre-curved ring spinning rigidly about its axis, an exact solution of the
// discrete equations. A ring of stress-free radius R spinning at w about its axis stretches to the
// radius r of (11.6) with the hoop tension N = EA (r K - Gamma0); the rigid rotation
// g_j^a = exp(j dt w e1^) g_0^a solves the DCEL to round-off. The mesh has no periodic s, so the
// test runs an arc whose end nodes carry the follower wrenches the ring's continuation exerts
// (11.8): +lambda~ on node 0, -lambda~ on the ghost node A, as [[loads.point]] with frame = "body".
// The case goes through the case file and the library's time march (what `field simulate` runs).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/lie/exponential.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/march/time_march.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::test {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The flying spaghetti's section (theory §1.5): c_E = sqrt(EA/rhoA) = 100 m/s.
constexpr double kEA = 1.0e4, kRhoA = 1.0, kRhoJ1 = 10.0, kRhoJ2 = 10.0, kRhoJ3 = 20.0;

/// The physical ring and its grid: stress-free radius R [m], rotation rate w [rad/s] (the motion
/// exp(j dt w e1^) about the ring's axis e1), an arc of A segments of length ds, J rows.
struct RingCase {
  double R = 1.0, w = 30.0;  // w R / c_E = 0.3: r = 1.0989 R
  int A = 12;
  double ds = M_PI / 12;  // a half ring
  double dt = 1.0e-3;     // c_E dt/ds = 0.38
  int J = 200;            // 0.2 s, about one turn
  /// eta0 of the circle sampled at the nodes (theory (1.6.4), a `[shape] polyline` of it) in
  /// place of `[shape] curvature = 1/R`; the same with exp, O(ds^2) apart with Cayley.
  bool sampled_circle = false;
  bool second_order_start = false;  ///< the velocity start of theory §6.1 step 2 (11.9)
  double radius_error = 0.0;        ///< r of (11.6) times 1 + radius_error: a wrong radius
};

/// The discrete data of theory §11.6 for the retraction G.
template <class G>
struct RingData {
  Vec6 eta0, eta, xi, xi0, end;  // end: the follower wrench -lambda~ on node A (11.8)
  double K, Gamma0, W, r;
};

template <class G>
RingData<G> ring_data(const RingCase& c) {
  RingData<G> d;
  Vec6 circle;  // the stress-free circle's step, exp(ds (e1/R, e3))
  circle << c.ds / c.R, 0, 0, 0, 0, c.ds;
  if (c.sampled_circle)
    d.eta0 = G::tau_inv(lie::exp_map(circle)) / c.ds;
  else
    d.eta0 = circle / c.ds;  // [shape] curvature = [1/R, 0, 0]
  d.K = d.eta0(0);
  d.Gamma0 = d.eta0(5);
  Vec6 turn;  // one step of the rigid rotation, exp(dt w e1^): W = tau^{-1} of it / dt (11.4)
  turn << c.w * c.dt, 0, 0, 0, 0, 0;
  d.W = G::tau_inv(lie::exp_map(turn))(0) / c.dt;
  d.r = kEA * d.Gamma0 * d.K / (kEA * d.K * d.K - kRhoA * d.W * d.W);  // (11.6)
  d.r *= 1.0 + c.radius_error;
  d.eta << d.K, 0, 0, 0, 0, d.r * d.K;  // (11.4)
  d.xi << d.W, 0, 0, 0, 0, d.r * d.W;   // (11.4)
  Vec6 n = Vec6::Zero();                // the hoop tension (11.7)
  n(5) = kEA * (d.r * d.K - d.Gamma0);
  d.end = G::dtau_inv_dual(-c.ds * d.eta, n);  // -lambda~ (3.11)
  // (11.9): J xi(0) = (mu + mu~)/2 makes the second-order start give xi_0 = xi exactly.
  Vec6 Jdiag, p;
  Jdiag << kRhoJ1, kRhoJ2, kRhoJ3, kRhoA, kRhoA, kRhoA;
  p = Jdiag.cwiseProduct(d.xi);
  d.xi0 = (0.5 * (G::dtau_inv_dual(c.dt * d.xi, p) + G::dtau_inv_dual(-c.dt * d.xi, p)))
              .cwiseQuotient(Jdiag);
  return d;
}

std::string vec(const Vec6& v) {
  std::ostringstream s;
  s.precision(17);
  s << "[" << v(0);
  for (int i = 1; i < 6; ++i) s << ", " << v(i);
  s << "]";
  return s.str();
}

/// The case file of the arc: free ends with the follower wrenches (11.8), row 0 the stretched arc
/// g_0^a = g_origin tau(ds eta)^a about the centre at the world origin, row 1 by the start asked.
template <class G>
std::string case_text(const RingCase& c, const RingData<G>& d) {
  std::ostringstream s;
  s.precision(17);
  s << "format = 1\nmarch = \"time\"\nretraction = \"" << lie::retraction_name<G>() << "\"\n"
    << "[beam]\nsection = \"stiffness\"\nEA = " << kEA << "\nGA1 = 1e4\nGA2 = 1e4\nGJ = 500\n"
    << "EI1 = 500\nEI2 = 500\nrhoA = " << kRhoA << "\nrhoJ1 = " << kRhoJ1 << "\nrhoJ2 = " << kRhoJ2
    << "\nrhoJ3 = " << kRhoJ3 << "\n"
    << "[shape]\nstrain = " << vec(d.eta0) << "\n"
    << "[grid]\nA = " << c.A << "\nds = " << c.ds << "\ndt = " << c.dt << "\nJ = " << c.J << "\n"
    << "[boundary]\nleft = \"free\"\nright = \"free\"\n"
    << "[initial]\nconfiguration = \"arc\"\norigin = [0, " << d.r << ", 0]\naxis = [0, 0, 1]\n"
    << "strain = " << vec(d.eta)
    << "\nvelocity = \"uniform\"\nxi = " << vec(c.second_order_start ? d.xi0 : d.xi)
    << "\nstart = \"" << (c.second_order_start ? "second_order" : "first_order") << "\"\n"
    << "[[loads.point]]\nnode = 0\nframe = \"body\"\nwrench = " << vec(-d.end) << "\n"
    << "[[loads.point]]\nnode = " << c.A << "\nframe = \"body\"\nwrench = " << vec(d.end) << "\n";
  return s.str();
}

/// The largest distance of any node (ghost included) from the rigid rotation of row 0 by j dt w
/// about e1, positions [m] and rotation entries, and the largest |r_0^a| - r.
class RigidRotation : public march::SlabObserver {
 public:
  RigidRotation(double w_dt, double r) : w_dt_(w_dt), r_(r) {}
  void slab(int j, const std::vector<lie::SE3>& g, const march::SlabStats&) override {
    if (j == 0) {
      row0_ = g;
      for (const lie::SE3& n : g) on_circle = std::max(on_circle, std::abs(n.r.norm() - r_));
    }
    const Mat3 Q = lie::rotation_about(Vec3::UnitX(), j * w_dt_);
    for (std::size_t a = 0; a < g.size(); ++a) {
      position = std::max(position, (g[a].r - Q * row0_[a].r).norm());
      rotation = std::max(rotation, (g[a].R - Q * row0_[a].R).cwiseAbs().maxCoeff());
    }
    rows = j;
  }
  double position = 0.0, rotation = 0.0, on_circle = 0.0;
  int rows = 0;

 private:
  double w_dt_, r_;
  std::vector<lie::SE3> row0_;
};

template <class G>
RigidRotation march_ring(const RingCase& c) {
  const RingData<G> d = ring_data<G>(c);
  TempFolder tmp;
  const io::Problem problem(io::load_case(tmp.write("ring.toml", case_text(c, d))));
  RigidRotation tracker(c.w * c.dt, d.r);
  march::MarchOptions options;
  options.threads = 1;
  const march::MarchResult result =
      march::time_march(problem.model<G>(), io::time_march_input<G>(problem), {&tracker}, options);
  EXPECT_TRUE(result.completed) << case_text(c, d);
  EXPECT_EQ(tracker.rows, c.J);
  return tracker;
}

/// The round-off allowance (theory (11.11)) of a march of J rows with the turn w dt per row on a
/// ring of radius r: each row composes g_j tau(dt xi) and solves xi to the round-off of (5.8), a
/// few ulps of r per row; and the phase about the axis is neutral (the symmetry of the rotation),
/// so the rate's round-off is never pulled back and the error grows about as J^2 (measured 0.11
/// to 0.43 of this at J = 200 to 12 800; faster beyond, where it is no bound).
double allowance(int J, double r, double w_dt) {
  return kEps * r * (8.0 * J + w_dt * J * J);
}

template <class G>
class SpinningRing : public ::testing::Test {};
TYPED_TEST_SUITE(SpinningRing, Se3Groups, GroupNames);

TYPED_TEST(SpinningRing, FollowsTheRigidRotationToRoundOff) {
  for (const bool second_order : {false, true}) {
    RingCase c;
    c.second_order_start = second_order;
    const RingData<TypeParam> d = ring_data<TypeParam>(c);
    const RigidRotation t = march_ring<TypeParam>(c);
    std::printf(
        "[spinning ring %s, %s start] r = %.17g m (R = 1, w R/c_E = 0.3), %d rows: max |x - "
        "x_exact| %.2e m, max |R - R_exact| %.2e, allowance %.2e; row 0 on the circle to %.1e\n",
        lie::retraction_name<TypeParam>().c_str(), second_order ? "second-order" : "first-order",
        d.r, c.J, t.position, t.rotation, allowance(c.J, d.r, c.w * c.dt), t.on_circle);
    EXPECT_GT(d.r, 1.09 * c.R);  // the spin stretches the ring by 9.9 %
    EXPECT_LE(t.on_circle, 8.0 * kEps * c.A * d.r);
    EXPECT_LE(t.position, allowance(c.J, d.r, c.w * c.dt));
    EXPECT_LE(t.rotation, allowance(c.J, 1.0, c.w * c.dt));
  }
}

TYPED_TEST(SpinningRing, ARadiusOffByOnePartInAMillionIsSeen) {
  // The same case built on r (1 + 1e-6): interior nodes out of balance by 1e-6 of the hoop force
  // (the ends' wrenches follow the wrong r), so the ring breathes with an amplitude ~1e-6 r.
  RingCase c;
  c.radius_error = 1e-6;
  const RigidRotation t = march_ring<TypeParam>(c);
  std::printf("[spinning ring %s, r (1 + 1e-6)] max |x - x_exact| %.2e m (allowance %.2e)\n",
              lie::retraction_name<TypeParam>().c_str(), t.position,
              allowance(c.J, c.R, c.w * c.dt));
  EXPECT_GT(t.position, 1e-7);
  EXPECT_GT(t.position, 1e6 * allowance(c.J, 1.1 * c.R, c.w * c.dt));
}

TEST(SpinningRing, CayleyEndWrenchIsTheHoopForceAlongTheChord) {
  // (11.8) with Cayley in closed form: -lambda~ = (1/4 ds^2 r K^2 N, 0, 0, 0, 1/2 ds K N, N), a
  // force N/cos(phi/2) along the chord e3 + tan(phi/2) e2 (node A's frame, tan(phi/2) = K ds/2).
  const RingCase c;
  const RingData<lie::Se3Cayley> d = ring_data<lie::Se3Cayley>(c);
  const double N = kEA * (d.r * d.K - d.Gamma0);
  Vec6 expected;
  expected << 0.25 * c.ds * c.ds * d.r * d.K * d.K * N, 0, 0, 0, 0.5 * c.ds * d.K * N, N;
  EXPECT_NEAR(N, kRhoA * d.W * d.W * d.r / d.K, 1e-12 * N);  // (11.7)
  EXPECT_LE((d.end - expected).cwiseAbs().maxCoeff(), 4.0 * kEps * N) << d.end.transpose();
}

TEST(SpinningRing, RadiusTendsToTheContinuumAtSecondOrder) {
  // r_c = R/(1 - rhoA w^2 R^2/EA) (11.3). With exp the discrete radius (11.6) is r_c for every dt
  // and ds; with Cayley and the sampled circle's eta0 it is O(dt^2 + ds^2) away (11.10). Each
  // radius is checked by the march, which follows the rigid rotation only on it.
  const RingCase base;
  const double r_c = base.R / (1.0 - kRhoA * base.w * base.w * base.R * base.R / kEA);
  double errors[3];
  for (int k = 0; k < 3; ++k) {
    RingCase c;
    c.sampled_circle = true;
    c.A = 12 << k;
    c.ds = M_PI / c.A;
    c.dt = 1.0e-3 / (1 << k);
    c.J = 50 << k;  // 0.05 s
    const RigidRotation cay = march_ring<lie::Se3Cayley>(c);
    const RigidRotation exp = march_ring<lie::Se3Exp>(c);
    const double r_cay = ring_data<lie::Se3Cayley>(c).r, r_exp = ring_data<lie::Se3Exp>(c).r;
    EXPECT_LE(cay.position, allowance(c.J, r_cay, c.w * c.dt));
    EXPECT_LE(exp.position, allowance(c.J, r_exp, c.w * c.dt));
    EXPECT_LE(std::abs(r_exp - r_c), 4.0 * kEps * r_c);
    // (11.10): Cayley's r/R = 1/(1 - (rhoA/EA) (w R q(w dt)/q(ds/R))^2), q(x) = tan(x/2)/(x/2).
    const auto q = [](double x) { return std::tan(x / 2) / (x / 2); };
    const double ratio = base.w * base.R * q(base.w * c.dt) / q(c.ds / base.R);
    EXPECT_NEAR(r_cay, base.R / (1.0 - kRhoA / kEA * ratio * ratio), 4.0 * kEps * r_c);
    errors[k] = std::abs(r_cay - r_c) / r_c;
    std::printf(
        "[spinning ring, ds = pi/%d m, dt = %.2e s] Cayley r/r_c - 1 = %.3e, exp %.1e; march "
        "errors %.1e, %.1e m\n",
        c.A, c.dt, (r_cay - r_c) / r_c, (r_exp - r_c) / r_c, cay.position, exp.position);
  }
  const double order1 = std::log2(errors[0] / errors[1]), order2 = std::log2(errors[1] / errors[2]);
  std::printf("[spinning ring, Cayley] observed orders %.3f, %.3f\n", order1, order2);
  EXPECT_GT(order1, 1.9);
  EXPECT_LT(order1, 2.1);
  EXPECT_GT(order2, 1.9);
  EXPECT_LT(order2, 2.1);
}

}  // namespace
}  // namespace field::test

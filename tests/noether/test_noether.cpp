// theory §7: covariant momentum maps, the local Noether identity, the global balance Res(R) on
// rectangles of exact solutions (theory §11.2: rigid screw motion, static arc), and the energies of
// those solutions (theory §8).
#include <gtest/gtest.h>

#include "libfield/dcel/residual.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::noether {
namespace {

using dcel::DiscreteModel;
using mesh::Boundary;
using mesh::Side;

template <class G>
class Noether : public ::testing::Test {
 protected:
};
TYPED_TEST_SUITE(Noether, test::Se3Groups, test::GroupNames);

TYPED_TEST(Noether, LocalIdentityPerTriangle) {
  // J(1) + J(2) + J(3) = dt ds F, theory §7.1: with gravity and loads, random field.
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  const model::Loads loads = test::mixed_loads(mesh.A());
  const DiscreteModel model(beam, loads, TypeParam{}, mesh);
  test::Random rnd(301);
  const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
  for (int j = 0; j < mesh.J(); ++j)
    for (int a = 0; a < mesh.A(); ++a) {
      const TriangleMaps t = triangle_maps(model, field, j, a);
      const Vec6 sum = t.J1 + t.J2 + t.J3;
      const double size =
          t.J1.cwiseAbs().maxCoeff() + t.J2.cwiseAbs().maxCoeff() + t.J3.cwiseAbs().maxCoeff();
      EXPECT_LT((sum - mesh.dt() * mesh.ds() * t.F).cwiseAbs().maxCoeff() / size, 1e-14)
          << "triangle (" << j << ", " << a << ")";
      // J(2) = ds M and J(3) = dt N.
      EXPECT_LT((t.J2 - mesh.ds() * t.M).cwiseAbs().maxCoeff() / size, 1e-14);
      EXPECT_LT((t.J3 - mesh.dt() * t.N).cwiseAbs().maxCoeff() / size, 1e-14);
    }
}

// Rigid screw motion of theory §11.2 about and along d3, xi = (0, 0, w, 0, 0, v):
// g_j^a = g_0^a tau(dt xi)^j, g_0^a = (I, (0, 0, a ds)). tau(dt xi) is the rotation by
// phi = dt w (exp) or 2 atan(dt w / 2) (Cayley) about e3 with translation dt v along e3, so the
// power is evaluated in closed form, without the round-off of 200 repeated products.
template <class G>
mesh::Field rigid_spin(const mesh::SpacetimeMesh& mesh, double w, double v) {
  const double phi =
      std::is_same_v<G, lie::Se3Cayley> ? 2.0 * std::atan(0.5 * mesh.dt() * w) : mesh.dt() * w;
  mesh::Field f(mesh);
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) {
      f(j, a).R = lie::rotation_about(Vec3::UnitZ(), j * phi);
      f(j, a).r = Vec3(0.0, 0.0, a * mesh.ds() + j * mesh.dt() * v);
    }
  return f;
}

// Static arc of theory §11.2: g_j^a = tau(ds eta_bar)^a for every j.
template <class G>
mesh::Field static_arc(const mesh::SpacetimeMesh& mesh, const Vec6& eta_bar) {
  mesh::Field f(mesh);
  const lie::SE3 step = G::tau(mesh.ds() * eta_bar);
  lie::SE3 g;
  for (int a = 0; a <= mesh.A(); ++a) {
    for (int j = 0; j <= mesh.J(); ++j) f(j, a) = g;
    g = g * step;
  }
  return f;
}

TYPED_TEST(Noether, RigidSpinSatisfiesEquationsAndBalance) {
  const mesh::SpacetimeMesh mesh(200, 6, 0.005, 0.1);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const DiscreteModel model(beam, loads, TypeParam{}, mesh);
  Vec6 xi;
  xi << 0.0, 0.0, 3.0, 0.0, 0.0, 0.3;
  const mesh::Field field = rigid_spin<TypeParam>(mesh, xi(2), xi(5));
  // The closed form is tau(dt xi)^j.
  lie::SE3 power;
  for (int j = 0; j < 7; ++j) power = power * TypeParam::tau(mesh.dt() * xi);
  EXPECT_LT((power.matrix() - field(7, 0).matrix()).cwiseAbs().maxCoeff(), 1e-15);
  const Boundary free_free = Boundary::time_evolution(Side::natural, Side::natural);
  const auto report = dcel::residual_report(model, field, free_free);
  EXPECT_LT(report.relative, 1e-12)
      << "worst node (" << report.worst.j << ", " << report.worst.a << ")";
  const MomentumMaps maps(model, field);
  test::Random rnd(302);
  for (int trial = 0; trial < 200; ++trial) {
    // Rectangles of equation nodes: rows 1..J-1, any columns.
    Rectangle R;
    R.j1 = 1 + static_cast<int>(rnd.uniform(0, mesh.J() - 1));
    R.j2 = std::min(mesh.J() - 1, R.j1 + static_cast<int>(rnd.uniform(0, 40)));
    R.a1 = static_cast<int>(rnd.uniform(0, mesh.A() + 1));
    R.a2 = std::min(mesh.A(), R.a1 + static_cast<int>(rnd.uniform(0, mesh.A() + 1)));
    EXPECT_LT(noether_balance(maps, R).relative, 1e-12)
        << "R = [" << R.j1 << "," << R.j2 << "]x[" << R.a1 << "," << R.a2 << "]";
  }
  // Total momentum P_j is the same on every row; E_j is constant and equals A ds T(xi).
  const Vec6 P0 = total_time_momentum(maps, 0);
  for (int j = 1; j < mesh.J(); ++j)
    EXPECT_LT((total_time_momentum(maps, j) - P0).cwiseAbs().maxCoeff(), 1e-13 * P0.norm());
  const std::vector<double> E = time_energies(model, field);
  const double expected = mesh.A() * mesh.ds() * beam.kinetic_energy(xi);
  for (double e : E) EXPECT_NEAR(e, expected, 1e-13 * expected);
  // E_M^a = dt sum_j [0 + (W_j^a + W_j^{a+1})/2] with W = -T(xi): -T(xi) J dt, theory §8. The
  // strain term is zero only to round-off: (eta - E6) ~ 1e-15 times C (eta + E6) ~ 2000 per
  // triangle (measured 1.7e-12 relative), hence 1e-11.
  const double expected_M = -beam.kinetic_energy(xi) * mesh.J() * mesh.dt();
  for (double e : space_energies(model, field))
    EXPECT_NEAR(e, expected_M, 1e-11 * std::abs(expected_M));
}

TYPED_TEST(Noether, StaticArcSatisfiesEquationsAndBalance) {
  const mesh::SpacetimeMesh mesh(200, 10, 0.005, 0.1);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const DiscreteModel model(beam, loads, TypeParam{}, mesh);
  Vec6 eta_bar;
  eta_bar << 2.0, 0.0, 0.0, 0.0, 0.0, 1.0;
  const mesh::Field field = static_arc<TypeParam>(mesh, eta_bar);
  // Time evolution with both ends prescribed, and space evolution with zero-momentum rows.
  for (const Boundary& b : {Boundary::time_evolution(Side::prescribed, Side::prescribed),
                            Boundary::space_evolution(Side::natural, Side::natural)}) {
    const auto report = dcel::residual_report(model, field, b);
    EXPECT_GT(report.nodes, 0);
    EXPECT_LT(report.relative, 1e-12);
  }
  const MomentumMaps maps(model, field);
  // Zero-momentum rows: Q^a constant in a; R = [0, J] x [a1, a2] with a1 >= 1. Tolerance of
  // theory §10 iii (1e-12): EA/EI = 1200 amplifies the round-off of eta - E6 (measured 1e-12).
  const Vec6 Q1 = total_space_momentum(maps, 1);
  for (int a = 1; a < mesh.A(); ++a)
    EXPECT_LT((total_space_momentum(maps, a) - Q1).cwiseAbs().maxCoeff(), 1e-12 * Q1.norm());
  EXPECT_LT(noether_balance(maps, Rectangle{0, mesh.J(), 1, mesh.A() - 1}).relative, 1e-12);
  // E_j = 1/2 EI kappa^2 L = 1.6666666666666672 (theory §11.2).
  for (double e : time_energies(model, field)) EXPECT_NEAR(e, 1.6666666666666672, 1e-12);
  // E_M^a = dt sum_j [-1/2 (eta - E6).C(eta + E6)] = -1/2 EI kappa^2 T = -1.6667 (T = 1 s).
  for (double e : space_energies(model, field)) EXPECT_NEAR(e, -1.6666666666666672, 1e-12);
}

TYPED_TEST(Noether, BalanceDetectsAViolation) {
  // On a random field (equations not satisfied) Res(R) is not small: the check can fail.
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const DiscreteModel model(beam, loads, TypeParam{}, mesh);
  test::Random rnd(303);
  const MomentumMaps maps(model, test::random_field<TypeParam>(mesh, rnd));
  EXPECT_GT(noether_balance(maps, Rectangle{1, 3, 1, 4}).relative, 1e-3);
}

TYPED_TEST(Noether, BalanceEqualsSumOfNodeResiduals) {
  // The proof of theory §7.2: Res(R) = sum_{n in R} Ad*_{g_n^{-1}} G_n for ANY field, with loads.
  // This checks every term of Res(R), including the point-load impulses, on a random field.
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  const model::Loads loads = test::mixed_loads(mesh.A());
  const DiscreteModel model(beam, loads, TypeParam{}, mesh);
  test::Random rnd(304);
  const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
  const MomentumMaps maps(model, field);
  for (const Rectangle& R : {Rectangle{0, 4, 0, 5}, Rectangle{1, 2, 0, 5}, Rectangle{0, 3, 2, 4},
                             Rectangle{2, 4, 4, 5}, Rectangle{1, 1, 1, 1}}) {
    Vec6 sum = Vec6::Zero();
    for (int j = R.j1; j <= R.j2; ++j)
      for (int a = R.a1; a <= R.a2; ++a)
        sum += lie::spatial_covector(field(j, a), dcel::node_residual(model, field, j, a).G);
    const BalanceResult res = noether_balance(maps, R);
    // Round-off only (interior triangle terms cancel in the sum, hence not 1e-14); a missing or
    // wrong term gives O(1).
    EXPECT_LT((res.residual - sum).cwiseAbs().maxCoeff() / res.scale_R, 1e-12)
        << "R = [" << R.j1 << "," << R.j2 << "]x[" << R.a1 << "," << R.a2 << "]";
  }
}

}  // namespace
}  // namespace field::noether

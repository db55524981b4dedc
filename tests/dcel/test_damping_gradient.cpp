// theory §4.7: the damping terms of G_n are the virtual work of the damping forces in the discrete
// Lagrange-d'Alembert principle. With the forces frozen at the field, the damping part of G_n at
// every node is the finite-difference gradient, under g_n -> g_n tau(e zeta), of
//   sum over the triangles T having n as vertex k of
//     -dt ds <sigma_d(T), eta_T> + s_k (alpha dt / 2) K_T,    s_1 = 1, s_2 = -1, s_3 = 0,
// where K_T = dt ds 1/2 xi.J xi is the kinetic part of L_d(T) and sigma_d(T) = beta C
// (eta_j - eta_{j-1})/dt is frozen. Random fields far from rest, both retractions, a density per
// segment (a coupled law among them).
#include <gtest/gtest.h>

#include <tuple>

#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/mesh/convected.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

template <class Group>
double damping_work(const DiscreteModel<Group>& model, const mesh::Field& frozen,
                    const mesh::Field& f, int j, int a) {
  const mesh::SpacetimeMesh& m = model.mesh();
  const double dt = m.dt(), ds = m.ds();
  const model::Damping& damping = model.loads().damping;
  double work = 0.0;
  for (const auto& [tj, ta, sign] :
       {std::tuple{j, a, 1.0}, std::tuple{j - 1, a, -1.0}, std::tuple{j, a - 1, 0.0}}) {
    if (!m.has_triangle(tj, ta)) continue;
    const auto& density = model.density(ta);
    const Vec6 xi = mesh::convected<Group>(f(tj, ta), f(tj + 1, ta), dt);
    work += sign * 0.5 * damping.mass * dt * (dt * ds * 0.5 * xi.dot(density.kinetic_momentum(xi)));
    if (tj < 1) continue;  // no strain rate on row 0
    const Vec6 eta = mesh::convected<Group>(frozen(tj, ta), frozen(tj, ta + 1), ds);
    const Vec6 eta_prev = mesh::convected<Group>(frozen(tj - 1, ta), frozen(tj - 1, ta + 1), ds);
    const Vec6 sigma = damping.stiffness / dt * (density.stress(eta) - density.stress(eta_prev));
    work -= dt * ds * sigma.dot(mesh::convected<Group>(f(tj, ta), f(tj, ta + 1), ds));
  }
  return work;
}

template <class G>
class DampingGradient : public ::testing::Test {};
TYPED_TEST_SUITE(DampingGradient, test::Se3Groups, test::GroupNames);

TYPED_TEST(DampingGradient, DampingTermsAreTheVirtualWorkOfTheFrozenForces) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::Loads undamped = test::mixed_loads(mesh.A());
  model::Loads loads = undamped;
  loads.damping = {0.7, 0.003};  // alpha [1/s], beta [s]
  test::Random rnd(105);
  const test::CoupledSegments cs(mesh.A(), rnd);
  const DiscreteModel<TypeParam> model(cs.beams[0], cs.segments, loads, mesh);
  const DiscreteModel<TypeParam> plain(cs.beams[0], cs.segments, undamped, mesh);
  for (int sample = 0; sample < 3; ++sample) {
    const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
    double largest = 0.0;
    for (int j = 0; j <= mesh.J(); ++j)
      for (int a = 0; a <= mesh.A(); ++a) {
        if (j == mesh.J() && a == mesh.A()) continue;  // unused node
        const Vec6 Gd = node_damping(model, field, j, a);
        const Vec6 fd = test::gradient6(
            [&](const Vec6& zeta) {
              mesh::Field f = field;
              f(j, a) = field(j, a) * TypeParam::tau(zeta);
              return damping_work(model, field, f, j, a);
            },
            Vec6::Zero(), 1e-5);
        const double size = std::max(Gd.cwiseAbs().maxCoeff(), 1e-300);
        largest = std::max(largest, size);
        EXPECT_LT((Gd - fd).cwiseAbs().maxCoeff() / size, 1e-8)
            << lie::retraction_name<TypeParam>() << " node (" << j << ", " << a
            << ")\nGd = " << Gd.transpose() << "\nfd = " << fd.transpose();
        // The residual of `field check` carries exactly these terms (theory (4.1) with §4.7).
        const Vec6 G = node_residual(model, field, j, a).G;
        const Vec6 G0 = node_residual(plain, field, j, a).G;
        EXPECT_LT((G - G0 - Gd).cwiseAbs().maxCoeff(),
                  1e-12 * std::max(G0.cwiseAbs().maxCoeff(), size))
            << "node (" << j << ", " << a << ")";
      }
    EXPECT_GT(largest, 1e-3);  // the damping acts
  }
}

// Zero coefficients are no damping: the residual keeps its bits.
TYPED_TEST(DampingGradient, ZeroDampingKeepsTheResidualBits) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::Loads loads = test::mixed_loads(mesh.A());
  const model::BeamDensity beam = test::soft_beam(Vec3(0.3, -1.0, -9.81));
  const DiscreteModel<TypeParam> model(beam, loads, mesh);
  test::Random rnd(106);
  const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) EXPECT_EQ(node_damping(model, field, j, a), Vec6::Zero());
}

}  // namespace
}  // namespace field::dcel

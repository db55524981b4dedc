// The planar beam on SE(2) (docs/theory.md §1.7): model::PlanarBeamDensity's derivatives against
// finite differences; the SE(3) beam restricted to a plane is the planar beam (the triangle's
// L_d, momenta and vertex derivatives D1, D2, D3 of theory §3.3 agree to round-off under the
// embedding of SE(2) into SE(3)); and on SE(2) the vertex derivatives are the finite-difference
// gradients of L_d under v_k -> v_k tau(e zeta) (theory §10 i for one triangle).
#include <gtest/gtest.h>

#include "libfield/dcel/action.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/model/beam_density.hpp"
#include "libfield/model/planar_beam_density.hpp"
#include "libfield/model/section_law.hpp"
#include "tests/support/planar.hpp"
#include "tests/support/random.hpp"

namespace field::dcel {
namespace {

using lie::SE2;
using lie::Se2Cayley;
using lie::Vec2;

using test::embed;
using test::embedded_beam;

const model::PlanarSection& kSection = test::kPlanarSection;
const Vec2 kGravity(1.5, -9.81);
constexpr double kCurvature = test::kPlanarCurvature;

SE2 random_se2(test::Random& rnd, double scale) {
  return Se2Cayley::tau(rnd.vec3(scale));
}

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

TEST(PlanarBeamDensity, DerivativesMatchFiniteDifferences) {
  const model::PlanarBeamDensity d(kSection, kGravity, kCurvature);
  test::Random rnd(141);
  const double h = 1e-5;
  for (int trial = 0; trial < 10; ++trial) {
    const Vec3 x = rnd.vec3(2.0);
    const SE2 g = random_se2(rnd, 2.0);
    Vec3 dT, dV, f;
    for (int i = 0; i < 3; ++i) {
      const Vec3 e = h * Vec3::Unit(i);
      dT(i) = (d.kinetic_energy(x + e) - d.kinetic_energy(x - e)) / (2 * h);
      dV(i) = (d.strain_energy(x + e) - d.strain_energy(x - e)) / (2 * h);
      // f = -T_e L_g^* dPi (model/density.hpp).
      f(i) = -(d.potential(g * Se2Cayley::tau(e)) - d.potential(g * Se2Cayley::tau(-e))) / (2 * h);
    }
    EXPECT_LT(rel(d.kinetic_momentum(x), dT), 1e-8);
    EXPECT_LT(rel(d.stress(x), dV), 1e-8);
    EXPECT_LT(rel(d.potential_force(g), f), 1e-8);
  }
  EXPECT_EQ(d.stress(d.reference_strain()), Vec3::Zero());
  ASSERT_NE(d.diagonal_law(), nullptr);
  EXPECT_EQ(d.diagonal_law()->stiffness, Vec3(kSection.EI, kSection.EA, kSection.GA));
  const model::WaveSpeeds w = d.wave_speeds();
  EXPECT_DOUBLE_EQ(w.c_E, std::sqrt(kSection.EA / kSection.rhoA));
  EXPECT_DOUBLE_EQ(w.omega_c, std::sqrt(kSection.GA / kSection.rhoI));
}

TEST(PlanarBeamDensity, RejectsNonPositiveSection) {
  model::PlanarSection s = kSection;
  s.GA = 0.0;
  EXPECT_THROW(model::PlanarBeamDensity{s}, Error);
}

// The embedding is a group homomorphism that maps the SE(2) Cayley map to the SE(3) one.
TEST(PlanarBeam, EmbeddingCommutesWithCayley) {
  test::Random rnd(142);
  for (int trial = 0; trial < 10; ++trial) {
    const Vec3 x = rnd.vec3(1.5);
    const lie::SE3 a = embed(Se2Cayley::tau(x)), b = lie::Se3Cayley::tau(embed(x));
    EXPECT_LT((a.matrix() - b.matrix()).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_LT(rel(embed(Se2Cayley::dtau_inv_dual(x, 2.0 * x)),
                  lie::Se3Cayley::dtau_inv_dual(embed(x), embed(2.0 * x))),
              1e-14);
  }
}

// One triangle of the planar beam and the same triangle of the SE(3) beam in the plane: the same
// L_d, xi, eta, momenta and D_k to round-off.
TEST(PlanarBeam, AgreesWithTheSe3BeamInThePlane) {
  const mesh::SpacetimeMesh mesh(3, 4, 0.01, 0.1);
  const model::Loads none;
  const model::PlanarBeamDensity planar(kSection, kGravity, kCurvature);
  const model::BeamDensity beam = embedded_beam(kGravity);
  const DiscreteModel<Se2Cayley> m2(planar, none, mesh);
  const DiscreteModel<lie::Se3Cayley> m3(beam, none, mesh);
  test::Random rnd(143);
  for (int trial = 0; trial < 20; ++trial) {
    const SE2 v1 = random_se2(rnd, 2.0);
    const SE2 v2 = v1 * Se2Cayley::tau(mesh.dt() * rnd.vec3(5.0));
    const SE2 v3 = v1 * Se2Cayley::tau(mesh.ds() * (Vec3(kCurvature, 1.0, 0.0) + rnd.vec3(0.5)));
    const double L2 = discrete_lagrangian(m2, 1, v1, v2, v3);
    const double L3 = discrete_lagrangian(m3, 1, embed(v1), embed(v2), embed(v3));
    EXPECT_LT(std::abs(L2 - L3), 1e-13 * std::abs(L3));
    const auto t2 = triangle_momenta(m2, 1, 1, v1, v2, v3);
    const auto t3 = triangle_momenta(m3, 1, 1, embed(v1), embed(v2), embed(v3));
    EXPECT_LT(rel(embed(t2.xi), t3.xi), 1e-13);
    EXPECT_LT(rel(embed(t2.eta), t3.eta), 1e-13);
    EXPECT_LT(rel(embed(t2.mu), t3.mu), 1e-13);
    EXPECT_LT(rel(embed(t2.lambda), t3.lambda), 1e-13);
    EXPECT_LT(rel(embed(t2.f), t3.f), 1e-13);
    const auto D2 = vertex_derivatives(m2, t2);
    const auto D3 = vertex_derivatives(m3, t3);
    EXPECT_LT(rel(embed(D2.D1), D3.D1), 1e-12);
    EXPECT_LT(rel(embed(D2.D2), D3.D2), 1e-12);
    EXPECT_LT(rel(embed(D2.D3), D3.D3), 1e-12);
  }
}

// On SE(2), D_k is the left-trivialised gradient of L_d at vertex k (theory §3.3).
TEST(PlanarBeam, VertexDerivativesAreTheGradientOfTheDiscreteLagrangian) {
  const mesh::SpacetimeMesh mesh(3, 4, 0.01, 0.1);
  const model::Loads none;
  const model::PlanarBeamDensity planar(kSection, kGravity, kCurvature);
  const DiscreteModel<Se2Cayley> model(planar, none, mesh);
  test::Random rnd(144);
  const double h = 1e-6;
  for (int trial = 0; trial < 10; ++trial) {
    SE2 v[3];
    v[0] = random_se2(rnd, 2.0);
    v[1] = v[0] * Se2Cayley::tau(mesh.dt() * rnd.vec3(20.0));
    v[2] = v[0] * Se2Cayley::tau(mesh.ds() * (Vec3(kCurvature, 1.0, 0.0) + rnd.vec3(1.0)));
    const auto D = vertex_derivatives(model, triangle_momenta(model, 0, 0, v[0], v[1], v[2]));
    const Vec3 analytic[3] = {D.D1, D.D2, D.D3};
    for (int k = 0; k < 3; ++k) {
      Vec3 fd;
      for (int i = 0; i < 3; ++i) {
        SE2 p[3] = {v[0], v[1], v[2]}, m[3] = {v[0], v[1], v[2]};
        p[k] = v[k] * Se2Cayley::tau(h * Vec3::Unit(i));
        m[k] = v[k] * Se2Cayley::tau(-h * Vec3::Unit(i));
        fd(i) = (discrete_lagrangian(model, 0, p[0], p[1], p[2]) -
                 discrete_lagrangian(model, 0, m[0], m[1], m[2])) /
                (2 * h);
      }
      EXPECT_LT(rel(analytic[k], fd), 1e-7)
          << "vertex " << k + 1 << "\nD  = " << analytic[k].transpose()
          << "\nfd = " << fd.transpose();
    }
  }
}

// The node Newton of theory §5 on SE(2) solves the planar equation Phi(y) = m, and its solution
// is the SE(3) one of the embedded data (time equation: xi; space equation: eta).
TEST(PlanarBeam, NodeSolveAgreesWithTheSe3BeamInThePlane) {
  const model::PlanarBeamDensity planar(kSection, kGravity, kCurvature);
  const model::BeamDensity beam = embedded_beam(kGravity);
  test::Random rnd(145);
  for (const NodeEquation e : {NodeEquation::time, NodeEquation::space}) {
    const double h = e == NodeEquation::time ? 0.01 : 0.1;
    for (int trial = 0; trial < 10; ++trial) {
      const Vec3 exact =
          e == NodeEquation::time ? rnd.vec3(20.0) : Vec3(kCurvature, 1.0, 0.0) + rnd.vec3(0.3);
      const Vec3 m = node_phi<Se2Cayley>(planar, e, h, exact);
      Vec3 y2 = e == NodeEquation::time ? Vec3::Zero() : planar.reference_strain();
      Vec6 y3 = embed(y2);
      const NodeSolveReport r2 = solve_node<Se2Cayley>(planar, e, h, m, y2);
      const NodeSolveReport r3 = solve_node<lie::Se3Cayley>(beam, e, h, embed(m), y3);
      ASSERT_TRUE(r2.converged && r3.converged) << "y = " << exact.transpose();
      EXPECT_LT(rel(y2, exact), 1e-12);
      EXPECT_LT(rel(embed(y2), y3), 1e-13);
      EXPECT_LT(rel(embed(node_jacobian<Se2Cayley>(planar, e, h, y2).col(0)),
                    node_jacobian<lie::Se3Cayley>(beam, e, h, y3).col(1)),
                1e-13);
    }
  }
}

TEST(PlanarBeam, LoadsAreRejectedOffSe3) {
  const mesh::SpacetimeMesh mesh(3, 4, 0.01, 0.1);
  model::Loads loads;
  loads.point.push_back({4, model::LoadFrame::world, model::TimeTable({0.0}, {Vec6::Ones()})});
  const model::PlanarBeamDensity planar(kSection);
  EXPECT_THROW((DiscreteModel<Se2Cayley>(planar, loads, mesh)), Error);
}

}  // namespace
}  // namespace field::dcel

// theory §10 i: the analytic residual G_n of every node (interior, free ends, ghosts, zero-momentum
// rows, corners, the unused node) equals the central finite-difference gradient of the discrete
// action S_d under g_n -> g_n tau(e zeta), plus the virtual work of the loads (theory §1.5).
// Random fields with large rotations and strains far from E6, gravity and loads on (the end wrench
// at the free end a = A among them, theory §4.6), both retractions.
#include <gtest/gtest.h>

#include "libfield/dcel/action.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/noether/momentum_maps.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

// Sum of L_d over the triangles that contain node (j, a): the only part of S_d that moves with it
// (summing only these avoids cancellation in the finite differences).
template <class Group>
double local_action(const DiscreteModel<Group>& model, const mesh::Field& f, int j, int a) {
  const mesh::SpacetimeMesh& m = model.mesh();
  double S = 0.0;
  for (const auto& [tj, ta] : {std::pair{j, a}, std::pair{j - 1, a}, std::pair{j, a - 1}})
    if (m.has_triangle(tj, ta))
      S += discrete_lagrangian(model, ta, f(tj, ta), f(tj + 1, ta), f(tj, ta + 1));
  return S;
}

// FD gradient of S_d at node n plus the loads' virtual work at the unperturbed configuration.
template <class Group>
Vec6 fd_gradient(const DiscreteModel<Group>& model, mesh::Field field, int j, int a) {
  const lie::SE3 g = field(j, a);
  Vec6 G = test::gradient6(
      [&](const Vec6& zeta) {
        field(j, a) = g * Group::tau(zeta);
        return local_action(model, field, j, a);
      },
      Vec6::Zero(), 1e-5);
  const mesh::SpacetimeMesh& m = model.mesh();
  if (m.has_triangle(j, a))
    G += m.dt() * m.ds() * model.loads().distributed_body(g, a, m.A(), m.t(j));
  if (j < m.J()) G += m.dt() * model.point_load(g, j, a);
  return G;
}

template <class G>
class ResidualGradient : public ::testing::Test {};
TYPED_TEST_SUITE(ResidualGradient, test::Se3Groups, test::GroupNames);

template <class TypeParam>
void expect_model_residual_is_action_gradient(const DiscreteModel<TypeParam>& model) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  test::Random rnd(101);
  for (int sample = 0; sample < 3; ++sample) {
    const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
    for (int j = 0; j <= mesh.J(); ++j)
      for (int a = 0; a <= mesh.A(); ++a) {
        const Vec6 G = node_residual(model, field, j, a).G;
        const Vec6 fd = fd_gradient(model, field, j, a);
        const double size = std::max(G.cwiseAbs().maxCoeff(), 1e-300);
        if (j == mesh.J() && a == mesh.A()) {
          EXPECT_EQ(G.cwiseAbs().maxCoeff(), 0.0) << "unused node (J, A) has no equation";
          continue;
        }
        EXPECT_LT((G - fd).cwiseAbs().maxCoeff() / size, 1e-8)
            << lie::retraction_name<TypeParam>() << " node (" << j << ", " << a << ") kind "
            << mesh::to_string(mesh.kind(j, a,
                                         mesh::Boundary{mesh::Side::natural, mesh::Side::natural,
                                                        mesh::Side::natural, mesh::Side::natural}))
            << "\nG  = " << G.transpose() << "\nfd = " << fd.transpose();
      }
  }
}

template <class TypeParam>
void expect_residual_is_action_gradient(const model::BeamDensity& beam) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::Loads loads = test::mixed_loads(mesh.A());
  expect_model_residual_is_action_gradient(DiscreteModel(beam, loads, TypeParam{}, mesh));
}

TYPED_TEST(ResidualGradient, EveryNodeMatchesFiniteDifferenceOfAction) {
  expect_residual_is_action_gradient<TypeParam>(test::soft_beam(Vec3(0.3, -1.0, -9.81)));
}

// A coupled 6x6 law (theory §1.5) runs on the general path: its residual is the same gradient.
TYPED_TEST(ResidualGradient, CoupledLawMatchesFiniteDifferenceOfAction) {
  const model::BeamDensity beam = test::coupled_beam(Vec3(0.3, -1.0, -9.81));
  ASSERT_FALSE(beam.diagonal());
  expect_residual_is_action_gradient<TypeParam>(beam);
}

// A density per column (theory §1.6): laws that differ from segment to segment (a taper, a
// coupled segment) and reference strains eta0_a far from E6 (curved, twisted, sheared, kinked).
// G_n is still the gradient of S_d = sum dt ds l_a, at every node kind, the ghosts included.
TYPED_TEST(ResidualGradient, SegmentLawsAndReferenceStrainsMatchFiniteDifferenceOfAction) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  const model::Loads loads = test::mixed_loads(mesh.A());
  const Vec3 gravity(0.3, -1.0, -9.81);
  const model::SectionLaw soft = test::soft_beam().law();
  test::Random rnd(103);
  std::vector<model::BeamDensity> beams;
  for (int a = 0; a < mesh.A(); ++a) {
    model::SectionLaw law = a == 2 ? test::coupled_law() : soft;
    const double taper = 1.0 - 0.15 * a;  // the section shrinks along the beam
    law.J *= taper * taper;
    law.C *= taper;
    law.mass_per_length *= taper * taper;
    const Vec6 eta0 = model::BeamDensity::E6() + rnd.vec6(0.8);
    beams.emplace_back(law, gravity, eta0);
  }
  std::vector<const model::Density<lie::Se3Group>*> segments;
  for (const model::BeamDensity& b : beams) segments.push_back(&b);
  const DiscreteModel<TypeParam> model(beams[0], segments, loads, mesh);
  ASSERT_FALSE(model.uniform());
  expect_model_residual_is_action_gradient(model);
}

// The end wrench of theory §4.6 as a term of the action: a world-frame end force F(t) (piecewise
// linear) at the physical end, the midpoint of nodes A-1 and A, adds
// S_W = sum_{j<J} dt F(t_j).(r_j^{A-1} + r_j^A)/2 (4.13) to S_d. G_n at nodes A-1 and A, with the
// load, is the finite-difference gradient of S_d + S_W alone (no virtual work added by hand); at
// every other node S_W does not move and G_n is the gradient of S_d.
TYPED_TEST(ResidualGradient, EndForceIsTheGradientOfItsActionTerm) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  Vec6 w0, w1;
  w0 << 0.0, 0.0, 0.0, 700.0, -300.0, 200.0;  // as large as the stresses of the random field
  w1 << 0.0, 0.0, 0.0, -400.0, 500.0, 900.0;
  model::Loads loads;
  loads.point.push_back(
      {mesh.A(), model::LoadFrame::world, model::TimeTable({0.0, 0.025}, {w0, w1}), true});
  const model::BeamDensity beam = test::soft_beam(Vec3(0.3, -1.0, -9.81));
  const DiscreteModel<TypeParam> model(beam, loads, mesh);
  const model::Loads none;
  const DiscreteModel<TypeParam> unloaded(beam, none, mesh);
  test::Random rnd(104);
  const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
  const int A = mesh.A();
  for (int a : {A - 1, A})
    for (int j = 0; j < mesh.J(); ++j) {
      mesh::Field f = field;
      const lie::SE3 g = field(j, a);
      const Vec6 fd = test::gradient6(
          [&](const Vec6& zeta) {
            f(j, a) = g * TypeParam::tau(zeta);
            const Vec3 end = 0.5 * (f(j, A - 1).r + f(j, A).r);  // the physical end
            return local_action(model, f, j, a) +
                   mesh.dt() * loads.point[0].wrench.at(mesh.t(j)).tail<3>().dot(end);
          },
          Vec6::Zero(), 1e-5);
      const Vec6 G = node_residual(model, field, j, a).G;
      const Vec6 G0 = node_residual(unloaded, field, j, a).G;
      EXPECT_GT((G - G0).cwiseAbs().maxCoeff(), 0.01 * G.cwiseAbs().maxCoeff())
          << "the end force matters at node (" << j << ", " << a << ")";
      EXPECT_LT((G - fd).cwiseAbs().maxCoeff() / G.cwiseAbs().maxCoeff(), 1e-8)
          << lie::retraction_name<TypeParam>() << " end node (" << j << ", " << a
          << ")\nG  = " << G.transpose() << "\nfd = " << fd.transpose();
    }
}

// A follower (body-frame) end wrench has no potential: its virtual work pairs W with the end's
// virtual displacement, the mean of those of nodes A-1 and A, each in its own frame (theory
// §4.6). G_n is the gradient of S_d plus dt W/2 at nodes A-1 and A and nothing elsewhere.
TYPED_TEST(ResidualGradient, FollowerEndWrenchIsHalfOnEachEndNode) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  Vec6 w;
  w << 30.0, -20.0, 10.0, 700.0, -300.0, 200.0;
  model::Loads loads;
  loads.point.push_back({mesh.A(), model::LoadFrame::body, model::TimeTable::constant(w), true});
  const model::BeamDensity beam = test::soft_beam(Vec3(0.3, -1.0, -9.81));
  const DiscreteModel<TypeParam> model(beam, loads, mesh);
  test::Random rnd(105);
  const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) {
      if (j == mesh.J() && a == mesh.A()) continue;  // the unused node
      const bool end = a >= mesh.A() - 1;            // G_n takes point loads on rows j < J only
      if (j < mesh.J()) {
        EXPECT_EQ(model.point_load(field(j, a), j, a), end ? Vec6(0.5 * w) : Vec6(Vec6::Zero()));
      }
      const Vec6 G = node_residual(model, field, j, a).G;
      const Vec6 fd = fd_gradient(model, field, j, a);
      EXPECT_LT((G - fd).cwiseAbs().maxCoeff() / G.cwiseAbs().maxCoeff(), 1e-8)
          << lie::retraction_name<TypeParam>() << " node (" << j << ", " << a << ")";
    }
}

TEST(ResidualReport, CountsEquationNodesAndNormalises) {
  using G = lie::Se3Cayley;
  const mesh::SpacetimeMesh mesh(3, 4, 0.01, 0.1);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const DiscreteModel model(beam, loads, G{}, mesh);
  test::Random rnd(102);
  const mesh::Field field = test::random_field<G>(mesh, rnd);
  // Time evolution, free-free: rows 1..J-1, all columns 0..A.
  const auto report = residual_report(
      model, field, mesh::Boundary::time_evolution(mesh::Side::natural, mesh::Side::natural));
  EXPECT_EQ(report.nodes, (mesh.J() - 1) * (mesh.A() + 1));
  const NodeResidual worst = node_residual(model, field, report.worst.j, report.worst.a);
  EXPECT_DOUBLE_EQ(report.max_abs, worst.G.cwiseAbs().maxCoeff());
  EXPECT_GT(report.relative, 1e-3) << "a random field does not satisfy the equations";
  EXPECT_LE(report.relative, 1.0);
}

TEST(ResidualReport, HalfTurnBetweenNeighboursIsAnErrorNotACrash) {
  // Cayley has no coordinates for a half turn (theory §2.1): lie::cay_inv throws inside the
  // parallel loop; residual_report and MomentumMaps rethrow it after the region
  // (core/parallel_errors.hpp), e.g. for `field check` on a tampered field.csv.
  using G = lie::Se3Cayley;
  const mesh::SpacetimeMesh mesh(3, 4, 0.01, 0.1);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const DiscreteModel model(beam, loads, G{}, mesh);
  mesh::Field field(mesh);
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) field(j, a).r = Vec3(0.0, 0.0, 0.1 * a);
  field(2, 2).R = Vec3(1.0, -1.0, -1.0).asDiagonal();
  const mesh::Boundary free_free =
      mesh::Boundary::time_evolution(mesh::Side::natural, mesh::Side::natural);
  const std::string message =
      test::error_message([&] { residual_report(model, field, free_free); });
  EXPECT_NE(message.find("cay_inv"), std::string::npos) << message;
  EXPECT_THROW(noether::MomentumMaps(model, field), Error);
}

}  // namespace
}  // namespace field::dcel

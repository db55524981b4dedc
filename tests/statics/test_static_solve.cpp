// theory §4.5: the static solver. Its residual is the DCEL residual of a field constant in j and
// minus the gradient of the static energy; the finite-difference Newton matrix is the derivative of
// that residual and symmetric at an equilibrium; the solution has a residual at round-off; a
// cantilever under a small tip force has the Timoshenko deflection; an end moment 2 pi EI / l rolls
// the beam into a circle; a cantilever sagging under gravity, released, stays at rest; bad input
// and failed solves say what to do.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/dcel/residual.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/statics/static_residual.hpp"
#include "libfield/statics/static_solve.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/random.hpp"

namespace field::statics {
namespace {

template <class G>
class Statics : public ::testing::Test {};
TYPED_TEST_SUITE(Statics, test::Se3Groups, test::GroupNames);

// A row of A + 1 nodes along `R`'s d3 from the origin, node a at a ds (a held left end, §3.4).
std::vector<lie::SE3> straight_row(int A, double ds, const Mat3& R = Mat3::Identity()) {
  std::vector<lie::SE3> row;
  for (int a = 0; a <= A; ++a) row.push_back(lie::SE3{R, (a * ds) * R.col(2)});
  return row;
}

// A row near the straight one, every node moved by a random update of size ~0.1 (rad, ds).
template <class G>
std::vector<lie::SE3> perturbed_row(int A, double ds, test::Random& rnd) {
  std::vector<lie::SE3> row = straight_row(A, ds);
  for (lie::SE3& g : row) {
    Vec6 x = rnd.vec6(0.1);
    x.tail<3>() *= ds;
    g = g * G::tau(x);
  }
  return row;
}

// Loads with a potential: world-frame forces, distributed on nodes 1..A-2 and at the nodes 0 and A.
model::Loads conservative_loads(int A) {
  model::Loads loads;
  Vec6 w, p, q;
  w << 0, 0, 0, 0.3, -0.1, 0.2;
  p << 0, 0, 0, -0.2, 0.1, 0.05;
  q << 0, 0, 0, 0.1, 0.4, -0.2;
  loads.distributed.push_back({model::LoadFrame::world, model::TimeTable::constant(w), 1, A - 2});
  loads.point.push_back({0, model::LoadFrame::world, model::TimeTable::constant(p)});
  loads.point.push_back({A, model::LoadFrame::world, model::TimeTable::constant(q)});
  return loads;
}

// The static residual is the DCEL residual of theory §4.1 of a field constant in j, over dt, for
// every node, with every load kind (follower, moments, time-dependent at t = 0) and a coupled law,
// for a uniform model and one with a density per segment (theory §1.6: curved, stiffer segments).
TYPED_TEST(Statics, ResidualIsTheDcelResidualOfARowConstantInTime) {
  using G = TypeParam;
  const int A = 6;
  const mesh::SpacetimeMesh mesh(1, A, 0.01, 0.1);
  const Vec3 gravity(0.3, -1.0, -9.81);
  const model::BeamDensity beam = test::coupled_beam(gravity);
  std::vector<model::BeamDensity> densities;
  for (int a = 0; a < A; ++a) {
    model::SectionLaw law = test::coupled_law();
    law.C *= 1.0 + 0.5 * a;
    densities.emplace_back(law, gravity, (Vec6() << 0.3 * a, -0.2, 0.1, 0.05, 0, 1.1).finished());
  }
  std::vector<const model::Density<lie::Se3Group>*> segments;
  for (const auto& d : densities) segments.push_back(&d);
  const model::Loads loads = test::mixed_loads(A);
  test::Random rnd(13);
  const std::vector<lie::SE3> row = perturbed_row<G>(A, mesh.ds(), rnd);
  mesh::Field field(mesh);
  for (int j = 0; j <= 1; ++j)
    for (int a = 0; a <= A; ++a) field(j, a) = row[a];
  for (const dcel::DiscreteModel<G>& model : {dcel::DiscreteModel<G>(beam, loads, mesh),
                                              dcel::DiscreteModel<G>(beam, segments, loads, mesh)})
    for (int a = 0; a <= A; ++a) {
      const StaticNodeResidual r = static_node_residual(model, row, a);
      const dcel::NodeResidual d = dcel::node_residual(model, field, 0, a);
      EXPECT_LE((r.R - d.G / mesh.dt()).cwiseAbs().maxCoeff(), 1e-13 * r.scale) << "a = " << a;
      EXPECT_NEAR(r.scale, d.scale / mesh.dt(), 1e-12 * r.scale) << "a = " << a;
    }
}

// R_a = -dE/dzeta_a for gravity and world-frame forces (theory §4.5), by Richardson differences.
TYPED_TEST(Statics, ResidualIsMinusTheGradientOfTheStaticEnergy) {
  using G = TypeParam;
  const int A = 5;
  const mesh::SpacetimeMesh mesh(1, A, 0.01, 0.2);
  const model::BeamDensity beam = test::coupled_beam(Vec3(0.0, 2.0, -9.81));
  const model::Loads loads = conservative_loads(A);
  const dcel::DiscreteModel<G> model(beam, loads, mesh);
  test::Random rnd(7);
  const std::vector<lie::SE3> row = perturbed_row<G>(A, mesh.ds(), rnd);
  for (const double phi : {1.0, 0.375})
    for (int a = 0; a <= A; ++a) {
      const Vec6 grad = test::gradient6(
          [&](const Vec6& x) {
            std::vector<lie::SE3> moved = row;
            moved[a] = row[a] * G::tau(x);
            return static_energy(model, moved, phi);
          },
          Vec6::Zero(), 1e-5);
      const StaticNodeResidual r = static_node_residual(model, row, a, phi);
      EXPECT_LE((r.R + grad).cwiseAbs().maxCoeff(), 1e-8 * r.scale) << "a = " << a;
    }
}

// A horizontal cantilever (clamped at a = 0, d3 along e1) under gravity: the soft beam of §11.
template <class G>
struct SaggingCantilever {
  int A;
  mesh::SpacetimeMesh mesh;
  // The case of theory §11.3 (meshes/cantilever_gravity): E = 1e7 Pa, b = 0.1 m, rho = 1000.
  model::BeamDensity beam{model::BeamSection::square(0.1), model::BeamMaterial{1e7, 0.35, 1000.0},
                          Vec3(0, 0, -9.81)};
  model::Loads loads;
  dcel::DiscreteModel<G> model{beam, loads, mesh};
  StaticInput input;
  explicit SaggingCantilever(int A_, double dt = 1e-3) : A(A_), mesh(1, A_, dt, 1.0 / (A_ - 0.5)) {
    input.row = straight_row(A, mesh.ds(), lie::rotation_about(Vec3::UnitY(), M_PI / 2));
    input.left_held = true;
  }
};

// The Newton matrix (central differences, §4.5) is the derivative of the residual along any
// update, and at an equilibrium of conservative loads it is symmetric (-the Hessian of E).
TYPED_TEST(Statics, NewtonMatrixIsTheResidualDerivativeAndSymmetricAtEquilibrium) {
  using G = TypeParam;
  SaggingCantilever<G> c(6);
  const StaticResult s = solve_static(c.model, c.input);
  ASSERT_TRUE(s.converged) << s.failure;
  test::Random rnd(3);
  for (const auto& row : {s.row, perturbed_row<G>(6, c.mesh.ds(), rnd)}) {
    const Eigen::MatrixXd J = static_jacobian(c.model, c.input, row);
    ASSERT_EQ(J.rows(), 36);  // nodes 1..6
    Eigen::VectorXd v(36);
    for (int i = 0; i < 36; ++i) v(i) = rnd.uniform(-1, 1) * (i % 6 < 3 ? 1.0 : c.mesh.ds());
    const Eigen::VectorXd dR = test::derivative(
        [&](double e) {
          std::vector<lie::SE3> moved = row;
          for (int a = 1; a <= 6; ++a) moved[a] = row[a] * G::tau(e * v.segment<6>(6 * (a - 1)));
          Eigen::VectorXd R(36);
          for (int a = 1; a <= 6; ++a)
            R.segment<6>(6 * (a - 1)) = static_node_residual(c.model, moved, a).R;
          return R;
        },
        1e-4);
    EXPECT_LE((J * v - dR).cwiseAbs().maxCoeff(), 1e-7 * dR.cwiseAbs().maxCoeff());
  }
  const Eigen::MatrixXd J = static_jacobian(c.model, c.input, s.row);
  EXPECT_LE((J - J.transpose()).cwiseAbs().maxCoeff(), 1e-7 * J.cwiseAbs().maxCoeff());
}

// The equilibrium under gravity: residual at round-off, the tip below the root, and its row
// started at rest in a time march stays there (the cantilever sagging, then released).
TYPED_TEST(Statics, SaggedCantileverIsAnEquilibriumOfTheTimeMarch) {
  using G = TypeParam;
  SaggingCantilever<G> c(10);
  const StaticResult s = solve_static(c.model, c.input);
  ASSERT_TRUE(s.converged) << s.failure;
  EXPECT_LE(s.relative_residual, 1e-11);  // measured 6.6e-13 (Cayley), 8.8e-13 (exp)
  EXPECT_LE(s.steps.back().iterations.size(), 8u);
  const double sag = -s.row[c.A - 1].r.z();
  EXPECT_GT(sag, 0.1);  // decimetres: rotations of ~0.2 rad
  std::printf("%s: sag of node A-1 %.6f m in %d iterations, residual %.2e\n",
              lie::retraction_name<G>().c_str(), sag, s.newton_iterations, s.relative_residual);

  march::TimeMarchInput in;
  in.row0 = s.row;
  in.velocities.assign(c.A + 1, Vec6::Zero());
  in.left = march::SideSpec::clamped(s.row.front());
  const mesh::SpacetimeMesh mesh(500, c.A, 2e-4, c.mesh.ds());  // 0.1 s, as §11.3's dt
  const dcel::DiscreteModel<G> model(c.beam, c.loads, mesh);
  const test::RecordedRun r = test::record_time_march(model, in);
  ASSERT_TRUE(r.result.completed) << "stopped after slab " << r.result.last_slab;
  double motion = 0.0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a < c.A; ++a)  // the ghost A is rebuilt by the march from node A-1
      motion = std::max(motion, (r.field(j, a).r - s.row[a].r).cwiseAbs().maxCoeff());
  EXPECT_LE(motion, 1e-12 * sag) << "released from its static shape, the beam moved";
  // The straight beam released under gravity falls by centimetres in 0.2 s: the scale.
}

// Tip deflection of node A-1 at s = l = (A-1) ds (the ghost segment beyond is stress-free) under
// a small world force P along e1, beam along e3: Timoshenko w = P l^3/(3 EI) + P l/(k G A_c).
template <class G>
double tip_deflection_error(int A) {
  const double l = 1.0, ds = l / (A - 1), P = 1e-6;
  const mesh::SpacetimeMesh mesh(1, A, 1e-3, ds);
  const model::BeamDensity beam = test::soft_beam();
  model::Loads loads;
  loads.point.push_back({A - 1, model::LoadFrame::world,
                         model::TimeTable::constant((Vec6() << 0, 0, 0, P, 0, 0).finished())});
  const dcel::DiscreteModel<G> model(beam, loads, mesh);
  StaticInput in;
  in.row = straight_row(A, ds);
  in.left_held = true;
  const StaticResult s = solve_static(model, in);
  EXPECT_TRUE(s.converged) << s.failure;
  const model::SectionLaw& law = beam.law();
  const double EI = law.C(1, 1), kGA = law.C(3, 3);
  const double w = P * l * l * l / (3 * EI) + P * l / kGA;
  return std::abs(s.row[A - 1].r.x() - w) / w;
}

TYPED_TEST(Statics, CantileverUnderASmallTipForceHasTheTimoshenkoDeflection) {
  using G = TypeParam;
  const double e10 = tip_deflection_error<G>(11), e20 = tip_deflection_error<G>(21);
  std::printf("%s: relative tip deflection error %.3e (A = 11), %.3e (A = 21)\n",
              lie::retraction_name<G>().c_str(), e10, e20);
  EXPECT_LE(e10, 5e-3);
  EXPECT_NEAR(std::log2(e10 / e20), 2.0, 0.05);  // order 2 in ds
}

// Roll-up: the moment M = 2 pi EI1 / l about e1 at node A-1 (s = l = (A-1) ds) bends the clamped
// beam into a circle; node A-1 returns to the root. Exp: exactly (the segments are arcs of
// curvature M/EI); Cayley: M = EI k (1 + (ds k/2)^2) and 2 atan(ds k/2) per segment, O(ds^2).
// With `at_free_end` the moment is the end wrench at the physical free end a = A (theory §4.6):
// s = l = A ds, and node A returns to the root.
template <class G>
double roll_up_gap(int A, StaticResult* out = nullptr, bool at_free_end = false) {
  const int tip = at_free_end ? A : A - 1;
  const double l = 1.0, ds = l / tip;
  const mesh::SpacetimeMesh mesh(1, A, 1e-3, ds);
  const model::BeamDensity beam = test::soft_beam();
  const double M = 2 * M_PI * beam.law().C(0, 0) / l;
  model::Loads loads;
  loads.point.push_back({tip, model::LoadFrame::world,
                         model::TimeTable::constant((Vec6() << M, 0, 0, 0, 0, 0).finished())});
  const dcel::DiscreteModel<G> model(beam, loads, mesh);
  StaticInput in;
  in.row = straight_row(A, ds);
  in.left_held = true;
  StaticOptions options;
  options.steps = 8;
  const StaticResult s = solve_static(model, in, options);
  EXPECT_TRUE(s.converged) << s.failure;
  EXPECT_LE(s.relative_residual, 1e-12);
  if (out != nullptr) *out = s;
  return (s.row[tip].r - s.row[0].r).norm() / l;
}

TYPED_TEST(Statics, EndMomentRollsTheCantileverIntoACircle) {
  using G = TypeParam;
  StaticResult s;
  const double g20 = roll_up_gap<G>(21, &s), g40 = roll_up_gap<G>(41);
  std::printf(
      "%s: roll-up gap |r_{A-1} - r_0| / l = %.3e (A = 21), %.3e (A = 41); %d Newton "
      "iterations, %zu load steps, %d halvings\n",
      lie::retraction_name<G>().c_str(), g20, g40, s.newton_iterations, s.steps.size(), s.halvings);
  if (lie::kind_of<G>() == lie::RetractionKind::exponential) {
    EXPECT_LE(g20, 1e-10);
    EXPECT_LE(g40, 1e-10);
  } else {
    EXPECT_GT(g20, 1e-4);  // not exact: the order is measured
    EXPECT_NEAR(std::log2(g20 / g40), 2.0, 0.1);
  }
}

// The end wrench at the physical free end (theory §4.6): M = 2 pi EI1 / (A ds) at node A rolls
// all A segments into a full circle; with exp node A is back at the clamp to round-off.
TYPED_TEST(Statics, EndWrenchAtTheFreeEndRollsTheWholeBeamIntoACircle) {
  using G = TypeParam;
  const double g20 = roll_up_gap<G>(20, nullptr, true), g40 = roll_up_gap<G>(40, nullptr, true);
  std::printf("%s: end-wrench roll-up gap |r_A - r_0| / (A ds) = %.3e (A = 20), %.3e (A = 40)\n",
              lie::retraction_name<G>().c_str(), g20, g40);
  if (lie::kind_of<G>() == lie::RetractionKind::exponential) {
    EXPECT_LE(g20, 1e-14);  // measured 3.1e-16
    EXPECT_LE(g40, 1e-14);
  } else {
    EXPECT_GT(g20, 1e-4);
    EXPECT_NEAR(std::log2(g20 / g40), 2.0, 0.1);
  }
}

// The soft beam of §11 sags by most of its length: one load step fails, is halved until Newton
// converges, and the steps grow back; the equilibrium is the one reached in 64 small steps.
TYPED_TEST(Statics, HalvedLoadStepsReachALargeSag) {
  using G = TypeParam;
  SaggingCantilever<G> c(10);
  const model::BeamDensity soft = test::soft_beam(Vec3(0, 0, -9.81));
  const dcel::DiscreteModel<G> model(soft, c.loads, c.mesh);
  const StaticResult one = solve_static(model, c.input);
  ASSERT_TRUE(one.converged) << one.failure;
  EXPECT_GE(one.halvings, 1);
  double fraction = 0.0;
  for (const LoadStep& s : one.steps)
    if (s.converged) {
      EXPECT_GT(s.fraction, fraction);
      fraction = s.fraction;
    } else {
      EXPECT_FALSE(s.failure.empty());
    }
  EXPECT_EQ(fraction, 1.0);
  StaticOptions small;
  small.steps = 64;
  const StaticResult many = solve_static(model, c.input, small);
  ASSERT_TRUE(many.converged) << many.failure;
  EXPECT_EQ(many.halvings, 0);
  EXPECT_GT(-one.row[9].r.z(), 0.5);  // measured 0.94 m of 1 m
  for (int a = 0; a <= c.A; ++a) EXPECT_LE((one.row[a].r - many.row[a].r).norm(), 1e-12) << a;
}

// Bad input throws with what to do; a failed solve returns converged = false and says why.
TYPED_TEST(Statics, BadInputAndFailedSolvesSayWhatToDo) {
  using G = TypeParam;
  SaggingCantilever<G> c(4);
  StaticInput in = c.input;
  in.left_held = false;
  EXPECT_TRUE(test::contains(test::error_message([&] { solve_static(c.model, in); }),
                             "hold (clamp) at least one end"));
  in = c.input;
  in.row.pop_back();
  EXPECT_TRUE(
      test::contains(test::error_message([&] { solve_static(c.model, in); }), "A + 1 needed"));
  StaticOptions options;
  options.steps = 0;
  EXPECT_TRUE(test::contains(test::error_message([&] { solve_static(c.model, c.input, options); }),
                             "must be >= 1"));
  options = {};
  options.max_iterations = 2;  // the sag needs more
  options.max_halvings = 1;
  const StaticResult s = solve_static(c.model, c.input, options);
  EXPECT_FALSE(s.converged);
  EXPECT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.fraction, 0.0);
  EXPECT_TRUE(test::contains(s.failure, "raise [static] steps")) << s.failure;
  EXPECT_TRUE(test::contains(s.failure, "stopped at load fraction 0: the step to 0.5 failed"))
      << s.failure;
}

}  // namespace
}  // namespace field::statics

// The extensible cable on R^3 (theory §1.8) through the generic time march of theory §6.1 and its
// streamed diagnostics (march::time_march<lie::Rn<3>>, noether::TimeDiagnostics<lie::Rn<3>>):
// the march gives the field of the march written with dcel::solve_node in
// tests/dcel/test_cable.cpp (the same algorithm), and the streamed momentum map of the free-free
// cable, the linear momentum P_j = ds sum_a mu_j^a (Ad = I on R^3), changes by the impulse of its
// weight on every row (theory (1.8.8)).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/model/cable_density.hpp"
#include "libfield/noether/time_diagnostics.hpp"

namespace field::march {
namespace {

using R3 = lie::Rn<3>;
using Row = std::vector<Vec3>;
using Model = dcel::DiscreteModel<R3>;

constexpr double kEA = 100.0, kRhoA = 1.0, kGravity = 9.81, kLength = 1.0;

// Row j+1 of the free-free cable by the node Newton of theory §5 node by node (as
// tests/dcel/test_cable.cpp): the zero-traction node a = 0 and the ghost r^A = r^{A-1} + ds d0.
Row march_row(const Model& model, const Row& prev, const Row& row) {
  const int A = static_cast<int>(row.size()) - 1;
  const double dt = model.dt(), ds = model.ds();
  Row next = row;
  for (int a = 0; a < A; ++a) {
    Vec3 mu, mu_tilde, lambda, lambda_tilde = Vec3::Zero(), unused;
    dcel::time_momenta(model, a, mesh::convected<R3>(prev[a], row[a], dt), mu, mu_tilde);
    dcel::space_momenta(model, a, mesh::convected<R3>(row[a], row[a + 1], ds), lambda, unused);
    if (a > 0)
      dcel::space_momenta(model, a - 1, mesh::convected<R3>(row[a - 1], row[a], ds), unused,
                          lambda_tilde);
    const Vec3 target =
        mu_tilde - dt / ds * (lambda - lambda_tilde) + dt * model.force(row[a], 0, a);
    Vec3 xi = mesh::convected<R3>(prev[a], row[a], dt);
    EXPECT_TRUE(
        dcel::solve_node<R3>(model.density(a), dcel::NodeEquation::time, dt, target, xi).converged);
    next[a] = R3::compose(row[a], R3::tau(dt * xi));
  }
  next[A] = R3::compose(next[A - 1], R3::tau(ds * model.density().reference_strain()));
  return next;
}

TEST(CableMarch, GenericMarchIsTheNodeByNodeMarchAndItsMomentumTakesTheImpulseOfGravity) {
  for (const bool slack : {false, true}) {
    SCOPED_TRACE(slack);
    model::CableDensity::Options o;
    o.gravity = Vec3(0.0, 0.0, -kGravity);
    o.slack = slack;
    o.free_end_direction = Vec3(0.0, 0.0, -1.0);
    const model::CableDensity density({kEA, kRhoA}, o);
    const int A = 16, J = 60;
    const double ds = kLength / A, dt = 0.3 * ds / density.wave_speeds().c_E;
    const model::Loads none;
    const Model model(density, none, mesh::SpacetimeMesh(J, A, dt, ds));
    Row prev(A + 1), row(A + 1);
    for (int a = 0; a < A; ++a) {
      const double s = a * ds, phi = 0.8 * s;
      prev[a] = 1.1 * Vec3(std::sin(phi), 0.2 * s * s, -std::cos(phi)) / 0.8;
      const Vec3 v(1.0 + 0.5 * s, -0.7 * s, 2.0 * s * s);  // stretches and bends
      row[a] = prev[a] + dt * v;
    }
    prev[A] = prev[A - 1] + ds * o.free_end_direction;
    row[A] = row[A - 1] + ds * o.free_end_direction;

    TimeMarchInputOf<R3> input;
    input.row0 = prev;
    input.row1 = row;
    BasicFieldRecorder<Vec3> recorder(model.mesh(), true);
    std::vector<noether::BasicTimeRowDiagnostics<Vec3>> rows;
    noether::TimeDiagnostics<R3> diagnostics(model, time_boundary(input),
                                             [&](const auto& d) { rows.push_back(d); });
    const MarchResult result = time_march(model, input, {&recorder, &diagnostics});
    ASSERT_TRUE(result.completed);

    double distance = 0.0, moved = 0.0;
    for (int j = 1; j < J; ++j) {
      const Row next = march_row(model, prev, row);
      for (int a = 0; a <= A; ++a) {
        distance = std::max(distance, (recorder.field()(j + 1, a) - next[a]).norm());
        moved = std::max(moved, (next[a] - input.row0[a]).norm());
      }
      prev = row;
      row = next;
    }
    EXPECT_LT(distance, 1e-12);
    EXPECT_GT(moved, 0.1);

    ASSERT_EQ(static_cast<int>(rows.size()), J);
    const Vec3 impulse = dt * A * ds * kRhoA * o.gravity;
    const double scale = rows.front().momentum.norm() + J * impulse.norm();
    for (int j = 1; j < J; ++j)
      EXPECT_LT((rows[j].momentum - rows[j - 1].momentum - impulse).norm(), 1e-13 * scale)
          << "row " << j;
    EXPECT_TRUE(std::isfinite(rows.back().energy_balance));
  }
}

}  // namespace
}  // namespace field::march

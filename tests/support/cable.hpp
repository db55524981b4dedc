#pragma once
// The extensible cable of theory §1.8 in the tests (tests/dcel/test_cable.cpp,
// tests/march/test_cable_march.cpp): the time march of theory §6.1 written node by node with the
// generic node solver dcel::solve_node<Rn<3>>, and the free, falling, stretching cable whose
// translation momentum takes the impulse of gravity (1.8.8).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/model/cable_density.hpp"

namespace field::test {

using CableRow = std::vector<Vec3>;  // r^a, a = 0..A
using CableModel = dcel::DiscreteModel<lie::Rn<3>>;

// The node target of theory §6.1 step 3:
//   m = mu~_{j-1}^a - (dt/ds)(lambda_j^a - lambda~_j^{a-1}) + dt f(r_j^a),  lambda~_j^{-1} := 0.
inline Vec3 cable_node_target(const CableModel& model, const CableRow& prev, const CableRow& row,
                              int a) {
  using R3 = lie::Rn<3>;
  Vec3 mu, mu_tilde, lambda, lambda_tilde = Vec3::Zero(), unused;
  dcel::time_momenta(model, a, mesh::convected<R3>(prev[a], row[a], model.dt()), mu, mu_tilde);
  dcel::space_momenta(model, a, mesh::convected<R3>(row[a], row[a + 1], model.ds()), lambda,
                      unused);
  if (a > 0)
    dcel::space_momenta(model, a - 1, mesh::convected<R3>(row[a - 1], row[a], model.ds()), unused,
                        lambda_tilde);
  return mu_tilde - model.dt() / model.ds() * (lambda - lambda_tilde) +
         model.dt() * model.force(row[a], 0, a);
}

enum class CableEnd { prescribed, free };

// Row j+1 from rows j-1 and j: nodes a = lo..A-1 by the node Newton of §5 (time equation),
// r_{j+1}^a = r_j^a tau(dt xi); a prescribed end keeps its value, a free right end gets the ghost
// r^A = r^{A-1} + ds d0 (4.4), (1.8.7); a free left end is the zero-traction node (4.3).
inline CableRow cable_march_row(const CableModel& model, const CableRow& prev, const CableRow& row,
                                CableEnd left, CableEnd right) {
  using R3 = lie::Rn<3>;
  const int A = static_cast<int>(row.size()) - 1;
  CableRow next = row;
  const int lo = left == CableEnd::free ? 0 : 1;
  for (int a = lo; a < A; ++a) {
    Vec3 xi = mesh::convected<R3>(prev[a], row[a], model.dt());
    const dcel::NodeSolveReport r =
        dcel::solve_node<R3>(model.density(a), dcel::NodeEquation::time, model.dt(),
                             cable_node_target(model, prev, row, a), xi);
    EXPECT_TRUE(r.converged) << "node " << a;
    next[a] = R3::compose(row[a], R3::tau(model.dt() * xi));
  }
  if (right == CableEnd::free)
    next[A] = R3::compose(next[A - 1], R3::tau(model.ds() * model.density().reference_strain()));
  return next;
}

// The free, falling, stretching cable of (1.8.8): EA = 100 N, rho A = 1 kg/m, length 1 m under
// g = 9.81 m/s^2 along -e3, the free-end ghost along -e3, A = 16 segments, J = 60 rows at
// c_L dt/ds = 0.3; rows 0 and 1 bent and moving with a velocity that stretches and bends it.
struct FallingCable {
  static constexpr int A = 16, J = 60;
  static constexpr double kEA = 100.0, kRhoA = 1.0, kGravity = 9.81, kLength = 1.0;

  explicit FallingCable(bool slack) : density({kEA, kRhoA}, options(slack)) {
    ds = kLength / A;
    dt = 0.3 * ds / density.wave_speeds().c_E;
    row0.resize(A + 1);
    row1.resize(A + 1);
    for (int a = 0; a < A; ++a) {
      const double s = a * ds, phi = 0.8 * s;
      row0[a] = 1.1 * Vec3(std::sin(phi), 0.2 * s * s, -std::cos(phi)) / 0.8;
      const Vec3 v(1.0 + 0.5 * s, -0.7 * s, 2.0 * s * s);
      row1[a] = row0[a] + dt * v;
    }
    const Vec3 d0 = density.options().free_end_direction;
    row0[A] = row0[A - 1] + ds * d0;
    row1[A] = row1[A - 1] + ds * d0;
  }
  static model::CableDensity::Options options(bool slack) {
    model::CableDensity::Options o;
    o.gravity = Vec3(0.0, 0.0, -kGravity);
    o.slack = slack;
    o.free_end_direction = Vec3(0.0, 0.0, -1.0);
    return o;
  }
  /// The impulse of the weight on one row, dt (A ds rho A) g (1.8.8).
  Vec3 impulse() const { return dt * A * ds * kRhoA * density.options().gravity; }

  model::CableDensity density;
  double ds = 0.0, dt = 0.0;
  CableRow row0, row1;
};

}  // namespace field::test

#pragma once
// The theory's validation cases theory §11 as march inputs, shared by the march and physics tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "libfield/lie/so3.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "tests/support/problems.hpp"

namespace field::test {

/// A march whose whole field was recorded (small runs).
struct RecordedRun {
  march::MarchResult result;
  mesh::Field field;
};

/// The two recorded fields hold the same bits at every node (j, a), j = 0..J, a = 0..A.
inline ::testing::AssertionResult same_bits(const RecordedRun& one, const RecordedRun& two, int J,
                                            int A) {
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a)
      if (std::memcmp(one.field(j, a).R.data(), two.field(j, a).R.data(), 9 * sizeof(double)) !=
              0 ||
          std::memcmp(one.field(j, a).r.data(), two.field(j, a).r.data(), 3 * sizeof(double)) != 0)
        return ::testing::AssertionFailure() << "node (" << j << ", " << a << ") differs";
  return ::testing::AssertionSuccess();
}

/// Time march recorded row by row; threads = 0: the OpenMP default.
template <class G>
RecordedRun record_time_march(const dcel::DiscreteModel<G>& model, const march::TimeMarchInput& in,
                              int threads = 0,
                              march::NodeKernel kernel = march::NodeKernel::automatic) {
  march::FieldRecorder recorder(model.mesh(), true);
  march::MarchOptions options;
  options.threads = threads;
  options.kernel = kernel;
  const march::MarchResult r = march::time_march(model, in, {&recorder}, options);
  return {r, recorder.field()};
}

/// Space march recorded column by column.
template <class G>
RecordedRun record_space_march(const dcel::DiscreteModel<G>& model,
                               const march::SpaceMarchInput& in, int threads = 0,
                               march::NodeKernel kernel = march::NodeKernel::automatic) {
  march::FieldRecorder recorder(model.mesh(), false);
  march::MarchOptions options;
  options.threads = threads;
  options.kernel = kernel;
  const march::MarchResult r = march::space_march(model, in, {&recorder}, options);
  return {r, recorder.field()};
}

/// The space march's input of a round trip (theory §11.5): columns 0 and 1 and the prescribed
/// rows 0 and J taken from `truth`, a recorded time march of J rows (it must outlive the march).
/// S: the group space (lie::Se3Group for the beam, lie::Se2Cayley, lie::Rn<3>).
template <class S = lie::Se3Group>
march::BasicSpaceMarchInput<S> round_trip_input(const mesh::BasicField<typename S::Element>& truth,
                                                int J) {
  using Side = typename march::BasicSpaceMarchInput<S>::Side;
  march::BasicSpaceMarchInput<S> in;
  for (int j = 0; j <= J; ++j) {
    in.column0.push_back(truth(j, 0));
    in.column1.push_back(truth(j, 1));
  }
  in.first = Side::prescribed([&truth](int a) { return truth(0, a); });
  in.last = Side::prescribed([&truth, J](int a) { return truth(J, a); });
  return in;
}

/// max over the nodes j = 0..J, a = 0..A of m of the entries of |R_a - R_b| and |r_a - r_b|.
inline double field_difference(const mesh::Field& a, const mesh::Field& b,
                               const mesh::SpacetimeMesh& m) {
  double d = 0.0;
  for (int j = 0; j <= m.J(); ++j)
    for (int i = 0; i <= m.A(); ++i) {
      d = std::max(d, (a(j, i).R - b(j, i).R).cwiseAbs().maxCoeff());
      d = std::max(d, (a(j, i).r - b(j, i).r).cwiseAbs().maxCoeff());
    }
  return d;
}

/// A run of a fast node kernel against the reference run of the same march: both completed, the
/// same node solves, the Newton iterations to 0.1 % (the iterates differ by round-off, which can
/// move a step across the stopping threshold at a few nodes), the fields to `tolerance`.
inline void expect_same_run(const RecordedRun& fast, const RecordedRun& ref,
                            const mesh::SpacetimeMesh& m, double tolerance) {
  ASSERT_TRUE(ref.result.completed);
  ASSERT_TRUE(fast.result.completed) << "stopped at slab " << fast.result.last_slab + 1;
  EXPECT_EQ(fast.result.node_solves, ref.result.node_solves);
  EXPECT_NEAR(static_cast<double>(fast.result.newton_iterations),
              static_cast<double>(ref.result.newton_iterations),
              1e-3 * ref.result.newton_iterations);
  EXPECT_LT(field_difference(fast.field, ref.field, m), tolerance);
}

/// free_flight, theory §11.1: A = 10, ds = 0.1, dt = 0.005, J steps, free-free, velocity start.
struct FreeFlight {
  int J = 400;
  int A = 10;
  double dt = 0.005;
  double ds = 0.1;
  mesh::SpacetimeMesh mesh() const { return mesh::SpacetimeMesh(J, A, dt, ds); }
  march::TimeMarchInput input() const {
    const double L = 1.0, beta = 1.0, alpha = 0.3, gamma = 5.0, v_d = 0.5;
    march::TimeMarchInput in;
    for (int a = 0; a <= A; ++a) {
      const double s = (a + 0.5) * ds;  // free end: node a <-> s = (a + 1/2) ds, theory §3.4
      lie::SE3 g;
      g.r = Vec3(0.0, 0.0, s);
      in.row0.push_back(g);
      Vec6 xi;
      xi << 0.0, beta + alpha * (M_PI / L) * std::cos(M_PI * s / L), gamma * std::cos(M_PI * s / L),
          beta * (s - L / 2) + alpha * std::sin(M_PI * s / L), v_d, 0.0;
      in.velocities.push_back(xi);
    }
    return in;
  }
};

/// cantilever_gravity, theory §11.3: b = 0.1 m, E = 1e7 Pa, nu = 0.35, rho = 1000, gravity 9.81
/// m/s^2 along -e3; A = 10, ds = L/(A - 1/2) (clamped-free: node a <-> s = a ds, length
/// (A - 1/2) ds = L = 1 m), dt = 5e-4, J = 2000 (T = 1 s). Body axis d3 along e1 (Lambda0 =
/// rotation by +pi/2 about e2), node 0 clamped, start from rest (velocity start).
struct CantileverGravity {
  int J = 2000;
  int A = 10;
  double dt = 5e-4;
  double ds() const { return 1.0 / (A - 0.5); }
  static model::BeamDensity beam() {
    return model::BeamDensity(model::BeamSection::square(0.1),
                              model::BeamMaterial{1e7, 0.35, 1000.0}, Vec3(0.0, 0.0, -9.81));
  }
  mesh::SpacetimeMesh mesh() const { return mesh::SpacetimeMesh(J, A, dt, ds()); }
  march::TimeMarchInput input() const {
    const Mat3 L0 = lie::rotation_about(Vec3::UnitY(), M_PI / 2);
    march::TimeMarchInput in;
    for (int a = 0; a <= A; ++a) {
      in.row0.push_back(lie::SE3{L0, a * ds() * Vec3::UnitX()});
      in.velocities.push_back(Vec6::Zero());
    }
    in.left = march::SideSpec::clamped(in.row0.front());
    return in;
  }
};

/// space_evolution, theory §11.4: stubby beam b = 0.2 m, E = 1e6 Pa, T = 2 s, J = 300, A = 10,
/// tip motion and strain phi(t) = sin^2(pi t / T), zero-momentum rows.
struct SpaceEvolution {
  int J = 300;
  int A = 10;
  double T = 2.0;
  double ds = 0.1;
  static model::BeamDensity beam() {
    return model::BeamDensity(model::BeamSection::square(0.2),
                              model::BeamMaterial{1e6, 0.35, 1000.0});
  }
  mesh::SpacetimeMesh mesh() const { return mesh::SpacetimeMesh(J, A, T / J, ds); }
  march::SpaceMarchInput input() const {
    march::SpaceMarchInput in;
    for (int j = 0; j <= J; ++j) {
      const double t = j * T / J;
      const double phi = std::pow(std::sin(M_PI * t / T), 2);
      in.column0.push_back(
          lie::SE3{lie::rotation_about(Vec3::UnitZ(), 0.5 * phi), Vec3(0.04 * phi, 0, 0)});
      Vec6 eta;
      eta << 0.0, 0.15 * phi, 0.1 * phi, 0.0, 0.0, 1.0;
      in.strain0.push_back(eta);
    }
    return in;
  }
};

}  // namespace field::test

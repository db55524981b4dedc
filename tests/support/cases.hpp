#pragma once
// The SPEC's validation cases [S11] as march inputs, shared by the march and physics tests.
#include <cmath>

#include "libfield/march/time_march.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "tests/support/problems.hpp"

namespace field::test {

/// free_flight, SPEC [S11.1]: A = 10, ds = 0.1, dt = 0.005, J steps, free-free, velocity start.
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
      const double s = (a + 0.5) * ds;  // free end: node a <-> s = (a + 1/2) ds, SPEC [S4.3]
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

}  // namespace field::test

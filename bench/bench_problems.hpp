#pragma once
// Problems of any size for the benchmarks, built like the validation cases of theory §11 so that
// a node update costs what it costs in those cases (same steps, same size of motion per step).
#include <cmath>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/beam_density.hpp"
#include "tests/support/cases.hpp"

namespace field::bench {

/// Time march of a free-free soft beam with A nodes: the free_flight steps of theory §11.1
/// (ds = 0.1 m, dt = 0.005 s, CFL_time = 0.5) and its velocity pattern (bending, twisting,
/// sideways drift) repeated every metre, without the rigid tumbling, whose speed would grow with
/// the length of the beam. For A = 10 the work per node is that of free_flight.
struct WavyBeam {
  int A = 1000;
  int J = 100;
  double dt = 0.005;
  double ds = 0.1;
  mesh::SpacetimeMesh mesh() const { return mesh::SpacetimeMesh(J, A, dt, ds); }
  march::TimeMarchInput input() const {
    const double alpha = 0.3, gamma = 5.0, v_d = 0.5;
    march::TimeMarchInput in;
    for (int a = 0; a <= A; ++a) {
      const double s = (a + 0.5) * ds;  // free end, theory §3.4
      lie::SE3 g;
      g.r = Vec3(0.0, 0.0, s);
      in.row0.push_back(g);
      Vec6 xi;
      xi << 0.0, alpha * M_PI * std::cos(M_PI * s), gamma * std::cos(M_PI * s),
          alpha * std::sin(M_PI * s), v_d, 0.0;
      in.velocities.push_back(xi);
    }
    return in;
  }
};

/// Space march of theory §11.4 with J nodes per column: the stubby beam, dt = 1/150 s and
/// ds = 0.1 m of space_evolution (CFL_space = 0.78), T = J dt, and the tip data of theory §11.4
/// (phi = sin^2(pi t / T)) over A columns. J = 300 is space_evolution itself.
struct WavySpace {
  int J = 300;
  int A = 10;
  double dt = 2.0 / 300.0;
  double ds = 0.1;
  mesh::SpacetimeMesh mesh() const { return mesh::SpacetimeMesh(J, A, dt, ds); }
  march::SpaceMarchInput input() const {
    test::SpaceEvolution ev;
    ev.J = J;
    ev.A = A;
    ev.T = J * dt;
    ev.ds = ds;
    return ev.input();
  }
};

}  // namespace field::bench

// `field demo`: exercises the SE(3) kernel on the rigid screw motion of theory §11.2:
// g_j = tau(dt xi)^j for a body velocity xi (spin about and drift along the axis). Prints the
// pose at a few times for both retractions and the kernel identities of theory §10 row 0.
#include <cstdio>

#include "apps/commands.hpp"
#include "libfield/lie/retraction.hpp"

namespace field::app {

namespace {

int run_demo(int steps, double dt) {
  Vec6 xi;
  xi << 0.0, 0.0, 3.0, 0.0, 0.0, 0.3;  // rad/s about d3, m/s along d3
  std::printf("rigid screw motion, xi = (0, 0, 3, 0, 0, 0.3), dt = %g s, %d steps\n", dt, steps);
  const auto demo = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    using G = decltype(group);
    const lie::SE3 step = G::tau(dt * xi);
    lie::SE3 g;
    double worst_round_trip = 0.0;
    std::printf("\n%-11s %8s %10s %10s %10s %10s %10s\n", lie::retraction_name<G>().c_str(),
                "t [s]", "z [m]", "qw", "qz", "|xi_rec-xi|", "");
    for (int j = 0; j <= steps; ++j) {
      if (j > 0) {
        const lie::SE3 next = g * step;
        // Recover the velocity from two consecutive poses, as the DCEL does (theory §3.1).
        const Vec6 xi_rec = G::tau_inv(g.inverse() * next) / dt;
        worst_round_trip = std::max(worst_round_trip, (xi_rec - xi).cwiseAbs().maxCoeff());
        g = next;
      }
      if (j % (steps / 5) == 0 || j == steps) {  // about 5 lines, and always the last step
        const Vec4 q = g.quat();
        std::printf("%-11s %8.3f %10.6f %10.6f %10.6f %10.2e\n", "", j * dt, g.r.z(), q(0), q(3),
                    worst_round_trip);
      }
    }
    const Mat6 check = G::dtau_inv(dt * xi) * lie::Ad(step) - G::dtau_inv(-dt * xi);
    std::printf("  identity dtau^-1_x Ad_tau(x) = dtau^-1_-x holds to %.1e\n",
                check.cwiseAbs().maxCoeff());
  };
  demo(lie::Se3Cayley{});
  demo(lie::Se3Exp{});
  std::printf(
      "\nThe z-drift is 0.3 m/s exactly for both; the spin angle per step differs\n"
      "(Cayley: 2 atan(dt*3/2) per step, exponential: dt*3).\n");
  return 0;
}

}  // namespace

Runner add_demo(CLI::App& app) {
  CLI::App* sub =
      app.add_subcommand("demo", "Demonstrate the SE(3) kernel on a rigid screw motion");
  auto steps = std::make_shared<int>(200);
  auto dt = std::make_shared<double>(0.005);
  sub->add_option(
         "--steps", *steps,
         "number of time steps (the state is printed about every fifth of them and at the last)")
      ->check(CLI::Range(5, 10000000));
  // The screw turns by 3 dt per step: Cayley's coordinates need less than a half turn.
  sub->add_option("--dt", *dt, "time step [s]")
      ->check(positive_number(1.0,
                              "time step [s]: the screw turns by 3 rad/s x dt per step, "
                              "less than a half turn; default 0.005"));
  return [steps, dt]() { return run_demo(*steps, *dt); };
}

}  // namespace field::app

// Step-size rules of theory §6: the numbers the theory quotes for its cases.
#include <gtest/gtest.h>

#include <string>

#include "libfield/march/stability.hpp"
#include "libfield/model/beam_section.hpp"

namespace field::march {
namespace {

model::WaveSpeeds soft_beam_speeds() {
  return model::wave_speeds(model::BeamSection::square(0.1),
                            model::BeamMaterial{1e5, 0.35, 1000.0});
}

TEST(Stability, SoftBeamTimeLimitIsTheSpecs) {
  // theory §6.1: for ds = 0.1 the rule gives 0.0095 s; dt = 0.005 is stable, CFL_time = 0.5.
  const StabilityNumbers n = stability_numbers(soft_beam_speeds(), 0.005, 0.1);
  EXPECT_NEAR(n.max_stable_dt, 0.0095, 0.00005);
  EXPECT_NEAR(n.cfl_time, 0.5, 1e-12);
  EXPECT_TRUE(n.time_march_stable());
  EXPECT_TRUE(time_march_warning(n, 0.005).empty());
  // dt = 0.0096 breaks the cut-off term: a warning naming the limit.
  const StabilityNumbers bad = stability_numbers(soft_beam_speeds(), 0.0096, 0.1);
  EXPECT_FALSE(bad.time_march_stable());
  const std::string w = time_march_warning(bad, 0.0096);
  EXPECT_NE(w.find("dt omega_c/2"), std::string::npos) << w;
  EXPECT_NE(w.find("0.0094"), std::string::npos) << w;
}

TEST(Stability, SpaceEvolutionAndRoundTripNumbers) {
  // theory §11.4: b = 0.2, E = 1e6, dt = 1/150, ds = 0.1: CFL_space = 0.78, CFL_time = 2.1.
  const auto w =
      model::wave_speeds(model::BeamSection::square(0.2), model::BeamMaterial{1e6, 0.35, 1000.0});
  const StabilityNumbers n = stability_numbers(w, 1.0 / 150.0, 0.1);
  EXPECT_NEAR(n.cfl_space, 0.78, 0.005);
  EXPECT_NEAR(n.cfl_time, 2.1, 0.01);
  EXPECT_TRUE(n.space_march_stable());
  EXPECT_FALSE(n.time_march_stable());
  // theory §10 vi: round trip, ds = 1/6, dt = 0.0075: CFL_time = 0.45, CFL_space = 3.65.
  const StabilityNumbers rt = stability_numbers(soft_beam_speeds(), 0.0075, 1.0 / 6.0);
  EXPECT_NEAR(rt.cfl_time, 0.45, 0.001);
  EXPECT_NEAR(rt.cfl_space, 3.65, 0.005);
  EXPECT_FALSE(space_march_warning(rt, 0.0075).empty());
}

TEST(Stability, StiffnessDampingLimitIsTheRecursionsSchurCohnBound) {
  // theory (4.21): beta < (2 - Omega^2/2) dt / Omega^2, Omega = 2 max(c_E dt/ds, dt omega_c/2):
  // 1.5 dt at Omega = 1, (2 - 0.98)/1.96 dt at Omega = 1.4, none once Omega >= 2.
  StabilityNumbers n;
  const double dt = 1e-3;
  n.cfl_time = 0.5;  // Omega = 1 from the wave term
  n.cutoff_term = 0.2;
  EXPECT_DOUBLE_EQ(max_stiffness_damping(n, dt), 1.5 * dt);
  n.cutoff_term = 0.7;  // Omega = 1.4 from the cut-off
  EXPECT_NEAR(max_stiffness_damping(n, dt), 1.02 / 1.96 * dt, 1e-15);
  EXPECT_TRUE(stiffness_damping_warning(n, dt, 0.5 * dt).empty());
  EXPECT_TRUE(stiffness_damping_warning(n, dt, 0.0).empty());
  const std::string w = stiffness_damping_warning(n, dt, 0.53 * dt);
  EXPECT_NE(w.find("beta = 0.00053 s is beyond the stability limit"), std::string::npos) << w;
  EXPECT_NE(w.find("omega_max dt = 1.4 (omega_max = 1400 rad/s"), std::string::npos) << w;
  n.cfl_time = 1.0;  // Omega = 2: the undamped march is unstable already
  EXPECT_EQ(max_stiffness_damping(n, dt), 0.0);
  EXPECT_FALSE(stiffness_damping_warning(n, dt, 1e-9).empty());
}

// theory (4.19): mass damping multiplies the momentum by (1 - c)/(1 + c), c = alpha dt/2, per step:
// negative beyond c = 1 (alpha = 1e6 at dt = 5e-4 ran with exit 0, the momentum flipping sign
// every row and damped by 0.8 % a step instead of stopped).
TEST(Stability, MassDampingBeyondTwoOverDtIsAWarning) {
  const double dt = 5e-4;
  EXPECT_TRUE(mass_damping_warning(dt, 0.0).empty());
  EXPECT_TRUE(mass_damping_warning(dt, 4000.0).empty());  // c = 1: the step stops the motion
  const std::string w = mass_damping_warning(dt, 1e6);
  EXPECT_NE(w.find("[damping] mass alpha = 1e+06 1/s gives alpha dt/2 = 250 > 1: a step "
                   "multiplies the momentum by (1 - alpha dt/2)/(1 + alpha dt/2) = -0.992032"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("Use alpha <= 2/dt = 4000 1/s"), std::string::npos) << w;
}

}  // namespace
}  // namespace field::march

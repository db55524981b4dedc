// The linear string of theory §1.9 marched by the generic time march on R^3: the scheme is the
// five-point leap frog of the wave equation, exact on the lattice when c dt = ds (1.9.3), so a
// standing wave between clamped ends comes out to round-off over two periods.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/string_density.hpp"

namespace field::march {
namespace {

using R3 = lie::Rn<3>;

TEST(StringMarch, AStandingWaveIsExactAtCflOne) {
  const double rho = 0.5, k = 2.0, c = std::sqrt(k / rho);  // c = 2 m/s
  const int A = 16, mode = 3;
  const double ds = 1.0 / A, dt = ds / c, U = 0.05;
  const double kappa = mode * M_PI,
               omega = c * kappa;  // (1.9.3): the lattice keeps omega = c kappa
  const int J = static_cast<int>(std::lround(2 * (2 * M_PI / omega) / dt));  // two periods
  const model::StringDensity string(rho, k, Vec3::UnitX(), Vec3::Zero());
  const model::Loads loads;
  const mesh::SpacetimeMesh mesh(J, A, dt, ds);
  const dcel::DiscreteModel<R3> model(string, loads, mesh);
  const auto exact = [&](int j, int a) {
    return Vec3(a * ds, 0.0, U * std::sin(kappa * a * ds) * std::cos(omega * j * dt));
  };
  TimeMarchInputOf<R3> input;
  for (int a = 0; a <= A; ++a) {
    input.row0.push_back(exact(0, a));
    input.row1.push_back(exact(1, a));
  }
  input.left = BasicSideSpec<Vec3>::clamped(input.row0.front());
  input.right = BasicSideSpec<Vec3>::clamped(input.row0.back());
  BasicFieldRecorder<Vec3> field(mesh, true);
  const MarchResult result = time_march(model, input, {&field});
  ASSERT_TRUE(result.completed);
  double error = 0.0;
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a)
      error = std::max(error, (field.field()(j, a) - exact(j, a)).norm());
  EXPECT_LT(error, 1e-13 * U * J);
  std::printf("standing wave, %d rows at c dt = ds: max error %.2e m (amplitude %g m)\n", J, error,
              U);
  // Off the magic step the lattice frequency differs: the same wave at c dt = ds/2 misses by
  // O((kappa ds)^2) (a check that the comparison above could fail).
  const mesh::SpacetimeMesh half(2 * J, A, dt / 2, ds);
  const dcel::DiscreteModel<R3> half_model(string, loads, half);
  TimeMarchInputOf<R3> half_input = input;
  for (int a = 0; a <= A; ++a)
    half_input.row1[a] = Vec3(a * ds, 0.0, U * std::sin(kappa * a * ds) * std::cos(omega * dt / 2));
  BasicFieldRecorder<Vec3> half_field(half, true);
  ASSERT_TRUE(time_march(half_model, half_input, {&half_field}).completed);
  EXPECT_GT((half_field.field()(2 * J, A / 2) - exact(J, A / 2)).norm(), 1e-3 * U);
}

}  // namespace
}  // namespace field::march

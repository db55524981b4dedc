// The driven reconstruction at the library level (io::driven_march_input, docs/reconstruction.md):
// the time march of meshes/driven/simulate.toml (tip prescribed by motion.csv, far end free, from
// rest) and the time march that io::driven_march_input builds from that run's tip.csv give the
// same field to round-off, for both retractions.
#include <gtest/gtest.h>

#include <filesystem>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "tests/support/groups.hpp"

namespace field::march {
namespace {

namespace fs = std::filesystem;

template <class G>
class DrivenReconstruction : public ::testing::Test {};
TYPED_TEST_SUITE(DrivenReconstruction, test::Se3Groups, test::GroupNames);

template <class G>
mesh::Field march_field(const io::Problem& problem, const TimeMarchInput& input) {
  const dcel::DiscreteModel<G> model(problem.density, problem.loads, problem.mesh);
  FieldRecorder recorder(problem.mesh, true);
  const MarchResult result = time_march(model, input, {&recorder});
  EXPECT_TRUE(result.completed);
  return recorder.field();
}

TYPED_TEST(DrivenReconstruction, ReproducesTheSimulatedDrivenBeam) {
  using G = TypeParam;
  const fs::path folder = fs::path(FIELD_SOURCE_DIR) / "meshes" / "driven";
  const io::Problem simulated(io::load_case(folder / "simulate.toml"));
  const io::Problem driven(io::load_case(folder / "case.toml"));
  ASSERT_EQ(driven.spec.reconstruct.method, io::ReconstructSpec::Method::driven);
  EXPECT_EQ(driven.mesh.kind(5, 0, driven.boundary()), mesh::NodeKind::prescribed);
  const mesh::Field reference = march_field<G>(simulated, io::time_march_input<G>(simulated));
  const io::SpaceSetup setup = io::space_march_input(driven);
  const mesh::Field rebuilt = march_field<G>(driven, io::driven_march_input<G>(driven, setup));
  // Row 0 is the simulation's (straight along e3 from the tip at the origin) bit for bit; the
  // later rows differ by the tip rotations' trip through tip.csv's quaternions (a few eps),
  // carried by the stable time march: measured 1.1e-14 (Cayley); 1e-12 leaves a factor 100.
  double row0 = 0.0, worst = 0.0;
  for (int j = 0; j <= simulated.spec.J; ++j)
    for (int a = 0; a <= simulated.spec.A; ++a) {
      const double d = std::max((reference(j, a).R - rebuilt(j, a).R).cwiseAbs().maxCoeff(),
                                (reference(j, a).r - rebuilt(j, a).r).cwiseAbs().maxCoeff());
      (j == 0 ? row0 : worst) = std::max(j == 0 ? row0 : worst, d);
    }
  EXPECT_EQ(row0, 0.0);
  EXPECT_LT(worst, 1e-12);
  double far_x = 0.0;  // the far end moved: this is a test of a dynamic field
  for (int j = 0; j <= simulated.spec.J; ++j)
    far_x = std::max(far_x, std::abs(reference(j, simulated.spec.A).r.x()));
  EXPECT_GT(far_x, 0.05);
}

}  // namespace
}  // namespace field::march

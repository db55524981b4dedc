// The streaming diagnostics of a time march equal the whole-field ones (theory §7.2, §8), and
// the row balance is at round-off on a marched field with gravity, a clamp and point loads.
#include <gtest/gtest.h>

#include "libfield/march/field_recorder.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

TEST(TimeDiagnostics, MatchWholeFieldDiagnostics) {
  test::FreeFlight ff;
  ff.J = 80;
  const model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  model::Loads loads = test::mixed_loads(ff.A);
  loads.point.erase(loads.point.begin());  // keep loads on solved nodes only (a >= 1, a <= A-1)
  loads.point.pop_back();
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  march::TimeMarchInput in = ff.input();
  in.left = march::SideSpec::clamped(in.row0[0]);

  std::vector<SlabRecord> rows;
  SlabDiagnostics diagnostics(model, SlabAxis::row, march::time_boundary(in),
                              [&rows](const SlabRecord& d) { rows.push_back(d); });
  march::FieldRecorder recorder(model.mesh(), true);
  const march::MarchResult r = march::time_march(model, in, {&recorder, &diagnostics});
  ASSERT_TRUE(r.completed);
  ASSERT_EQ(static_cast<int>(rows.size()), ff.J);  // rows 0..J-1

  const std::vector<double> E = time_energies(model, recorder.field());
  const MomentumMaps maps(model, recorder.field());
  for (const SlabRecord& d : rows) {
    EXPECT_NEAR(d.energy, E[d.index], 1e-13 * std::abs(E[d.index])) << "row " << d.index;
    EXPECT_LT((d.momentum - total_time_momentum(maps, d.index)).cwiseAbs().maxCoeff(), 1e-13);
    if (d.index >= 1) {
      const BalanceResult whole = noether_balance(maps, Rectangle{d.index, d.index, 1, ff.A});
      EXPECT_LT(d.balance, 1e-12) << "row " << d.index;
      EXPECT_LT(whole.relative, 1e-12) << "row " << d.index;
      EXPECT_GT(d.newton.max_iterations, 0);
    }
  }
}

}  // namespace
}  // namespace field::noether

// The reactions of the prescribed rows of a space march (theory (8.9)): on the round trip of
// theory §11.5 (a space march rebuilding a time march, rows 0 and J prescribed from it), the
// column balance (8.9a) closes with them to round-off, and summed over the columns they are the
// time march's own momenta: P_0 (less the impulse of the weight over the first step) and -P_{J-1}.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/noether/momentum_maps.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

double inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

struct RoundTrip {
  std::vector<SlabRecord> cols;  // the space march's series, columns 0..A-1
  Vec6 P0, PJ1;                  // the time march's P_0 and P_{J-1}
  Vec6 weight0 = Vec6::Zero();   // dt ds sum_a F_0^a of the time march
  std::vector<Vec6> weight;      // dt ds sum_{j<J} F_j^a of the time march, per a
  double ds = 0.0;
};

// Free flight (theory §11.5: A = 6, dt = 0.0075, J = 100) marched in time, then rebuilt by a
// space march from its columns 0 and 1 with rows 0 and J prescribed.
RoundTrip round_trip(const Vec3& gravity) {
  test::FreeFlight ff;
  ff.A = 6;
  ff.ds = 1.0 / 6.0;
  ff.dt = 0.0075;
  ff.J = 100;
  const model::BeamDensity beam = test::soft_beam(gravity);
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  march::FieldRecorder time_recorder(model.mesh(), true);
  EXPECT_TRUE(march::time_march(model, ff.input(), {&time_recorder}).completed);
  const mesh::Field& truth = time_recorder.field();
  const MomentumMaps maps(model, truth);
  RoundTrip out;
  out.ds = ff.ds;
  out.P0 = total_time_momentum(maps, 0);
  out.PJ1 = total_time_momentum(maps, ff.J - 1);
  for (int a = 0; a < ff.A; ++a) {
    out.weight0 += ff.dt * ff.ds * maps.F(0, a);
    out.weight.push_back(Vec6::Zero());
    for (int j = 0; j < ff.J; ++j) out.weight.back() += ff.dt * ff.ds * maps.F(j, a);
  }

  const march::SpaceMarchInput in = test::round_trip_input(truth, ff.J);
  SlabDiagnostics diagnostics(model, SlabAxis::column, march::space_boundary(in),
                              [&out](const SlabRecord& d) { out.cols.push_back(d); });
  EXPECT_TRUE(march::space_march(model, in, {&diagnostics}).completed);
  EXPECT_EQ(static_cast<int>(out.cols.size()), ff.A);
  return out;
}

void check(const Vec3& gravity, const char* name) {
  const RoundTrip r = round_trip(gravity);
  const double ds = r.ds;
  // (8.9a): Q^a - Q^{a-1} = dt ds sum_j F_j^a + ds (R_0^a + R_J^a), Q^{-1} = 0. The weight's
  // impulse is taken from the time march's field: the space march's later columns differ from it
  // by their amplified round-off (theory §10 vi: x70 per column).
  double size = 0.0;
  for (const SlabRecord& d : r.cols)
    size = std::max({size, inf(d.momentum), ds * inf(d.reaction_first), ds * inf(d.reaction_last)});
  ASSERT_GT(size, 0.0);
  Vec6 Q_previous = Vec6::Zero(), sum_first = Vec6::Zero(), sum_last = Vec6::Zero();
  for (const SlabRecord& d : r.cols) {
    const Vec6 flux = d.momentum - Q_previous - ds * (d.reaction_first + d.reaction_last) -
                      r.weight[static_cast<size_t>(d.index)];
    // Measured 7.5e-13 (free flight), 1.1e-13 (under gravity).
    EXPECT_LT(inf(flux) / size, 1e-11) << name << " column " << d.index;
    std::printf("%s: column %d |Q^a - Q^{a-1} - ds (R_0 + R_J) - weight| / size = %.2e\n", name,
                d.index, inf(flux) / size);
    Q_previous = d.momentum;
    sum_first += ds * d.reaction_first;
    sum_last += ds * d.reaction_last;
  }
  // The impulse balance with the time march's data: the prescribed row J takes back the momentum
  // of the last row, the prescribed row 0 gives the momentum of row 0 less the weight's impulse
  // over the first step (and the stress flux beyond the ghost, 0). The space march's later
  // columns carry its amplified round-off (theory §10 vi: x70 per column): 1e-7 of |P| (measured
  // 1.2e-8 and 1.8e-10 in free flight, 1.7e-10 and 1.5e-11 under gravity).
  const double P = std::max(inf(r.P0), inf(r.PJ1));
  const double e_last = inf(sum_last + r.PJ1) / P, e_first = inf(sum_first - r.P0 + r.weight0) / P;
  std::printf(
      "%s: |ds sum R_J + P_{J-1}| = %.2e, |ds sum R_0 - P_0 + dt ds sum F_0| = %.2e of |P|\n", name,
      e_last, e_first);
  EXPECT_LT(e_last, 1e-7) << name;
  EXPECT_LT(e_first, 1e-7) << name;
}

TEST(SpaceReactions, RoundTripClosesTheColumnBalanceAndGivesTheTimeMomenta) {
  check(Vec3::Zero(), "free flight");
}

TEST(SpaceReactions, RoundTripUnderGravityGivesTheTimeMomenta) {
  check(Vec3(0.0, -9.81, 0.0), "under gravity");
}

}  // namespace
}  // namespace field::noether

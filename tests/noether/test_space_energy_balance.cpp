// The balance of E_M of a space march (theory §8.1, (8.10)-(8.12), noether::WorkSeries
// through noether::SlabDiagnostics), the transpose of the time march's energy balance: on the
// round trip of theory §11.5 (rows 0 and J prescribed from a free-flight time march) E_M changes
// by the work of the prescribed rows and B~^a = E_M^a - E_M^0 - W~^a stays small; the loads'
// work enters with the same sign; B~ has an O(ds^2) amplitude; with natural rows and no loads
// there is no work, and B~ is the change of E_M, conserved to O(ds^2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "libfield/noether/work_series.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

const mesh::Boundary kPrescribedRows =
    mesh::Boundary::space_evolution(mesh::Side::prescribed, mesh::Side::prescribed);

// f(a, column) for the columns a = 0..A of a whole field, in order, as a space march hands them on.
template <class F>
void for_each_column(const mesh::Field& field, const F& f) {
  const mesh::SpacetimeMesh& m = field.mesh();
  std::vector<lie::SE3> column(static_cast<size_t>(m.J() + 1));
  for (int a = 0; a <= m.A(); ++a) {
    for (int j = 0; j <= m.J(); ++j) column[static_cast<size_t>(j)] = field(j, a);
    f(a, column);
  }
}

// The free flight of the round trip (theory §11.5: soft beam, L = 1 m, T = 0.75 s) on A columns,
// ds = 1/A, dt = 0.0075 (6/A) (c_E dt/ds = 0.45 on every grid), under `loads`.
test::FreeFlight round_trip_grid(int A) {
  test::FreeFlight ff;
  ff.A = A;
  ff.ds = 1.0 / A;
  ff.dt = 0.0075 * 6.0 / A;
  ff.J = 100 * A / 6;
  return ff;
}

mesh::Field time_field(const test::FreeFlight& ff, const model::Loads& loads) {
  const model::BeamDensity beam = test::soft_beam();
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  march::FieldRecorder recorder(model.mesh(), true);
  EXPECT_TRUE(march::time_march(model, ff.input(), {&recorder}).completed);
  return recorder.field();
}

// The figures of one series.
struct Balance {
  std::vector<SlabRecord> columns;
  double largest = 0.0;    // max_a |B~^a|
  double exchanged = 0.0;  // max_a max(|E_M^a - E_M^0|, |W~^a|)
  double loads = 0.0;      // max_a |the loads' part of W~^a|
};

Balance summarise(const std::vector<SlabRecord>& columns) {
  Balance out;
  out.columns = columns;
  const double E0 = columns.front().energy;
  for (const SlabRecord& d : columns) {
    EXPECT_EQ(d.energy_balance, d.energy - E0 - d.work);  // (8.12): nothing is dissipated
    out.largest = std::max(out.largest, std::abs(d.energy_balance));
    out.exchanged = std::max({out.exchanged, std::abs(d.energy - E0), std::abs(d.work)});
  }
  return out;
}

// A whole field read as a space march's, rows 0 and J prescribed.
Balance balance_of(const mesh::Field& field, const model::Loads& loads) {
  const model::BeamDensity beam = test::soft_beam();
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, field.mesh());
  std::vector<SlabRecord> columns;
  SlabDiagnostics diagnostics(
      model, SlabAxis::column, kPrescribedRows, [&](const SlabRecord& d) { columns.push_back(d); },
      SeriesOptions{1, 1});
  for_each_column(field,
                  [&](int a, const std::vector<lie::SE3>& c) { diagnostics.slab(a, c, {}); });
  Balance out = summarise(columns);
  // The work series of the whole field (`field check`'s, columns read by field_work) gives the
  // streamed diagnostics' work and reactions, bit for bit.
  const std::vector<SlabWorkOf<lie::Se3Cayley>> work =
      field_work(model, field, SlabAxis::column, kPrescribedRows);
  EXPECT_EQ(work.size(), columns.size());
  for (const auto& w : work) {
    const SlabRecord& d = out.columns[static_cast<size_t>(w.index)];
    EXPECT_EQ(w.work(), d.work) << "column " << w.index;
    EXPECT_EQ(w.reaction_first, d.reaction_first) << "column " << w.index;
    EXPECT_EQ(w.reaction_last, d.reaction_last) << "column " << w.index;
    out.loads = std::max(out.loads, std::abs(w.work_loads));
  }
  return out;
}

// The round trip itself (meshes/roundtrip: A = 6, dt = 0.0075, J = 100), space-marched from the
// tip with rows 0 and J prescribed: E_M changes, by the work of the prescribed rows; the balance
// closes to O(ds^2), with the signs of (8.11)-(8.12) (the other sign of W~ would leave twice the
// change). The series of the time march's own field is the same to the space march's amplified
// round-off (theory §10 vi), and a stride reports the same W~ and B~.
TEST(SpaceEnergyBalance, RoundTripRowsDoTheWork) {
  const test::FreeFlight ff = round_trip_grid(6);
  const model::Loads loads;
  const mesh::Field truth = time_field(ff, loads);
  const model::BeamDensity beam = test::soft_beam();
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  std::vector<SlabRecord> every, strided;
  SlabDiagnostics one(
      model, SlabAxis::column, kPrescribedRows, [&](const SlabRecord& d) { every.push_back(d); },
      SeriesOptions{1, 1});
  SlabDiagnostics three(
      model, SlabAxis::column, kPrescribedRows, [&](const SlabRecord& d) { strided.push_back(d); },
      SeriesOptions{3, 1});
  ASSERT_TRUE(
      march::space_march(model, test::round_trip_input(truth, ff.J), {&one, &three}).completed);
  ASSERT_EQ(static_cast<int>(every.size()), ff.A);
  const Balance marched = summarise(every), direct = balance_of(truth, loads);
  EXPECT_EQ(every[0].work, 0.0);
  EXPECT_EQ(every[0].energy_balance, 0.0);
  double change = 0.0, difference = 0.0;
  for (const SlabRecord& d : every) {
    change = std::max(change, std::abs(d.energy - every[0].energy));
    difference = std::max(
        difference,
        std::abs(d.energy_balance - direct.columns[static_cast<size_t>(d.index)].energy_balance));
    std::printf("column %d: E_M - E_M^0 = %+.6e, W~ = %+.6e, B~ = %+.3e J s/m\n", d.index,
                d.energy - every[0].energy, d.work, d.energy_balance);
  }
  std::printf(
      "round trip: max |E_M^a - E_M^0| = %.3e, max |B~| = %.3e J s/m (%.2e of it); "
      "space march - time field %.1e\n",
      change, marched.largest, marched.largest / change, difference);
  EXPECT_GT(change, 0.1);                     // J s/m: measured
  EXPECT_LT(marched.largest, 3e-2 * change);  // measured 1.5e-2
  EXPECT_LT(difference, 1e-7 * change);       // measured 7.5e-10 (amplified round-off)
  for (const SlabRecord& d : strided) {       // columns 0, 3 and 5
    const SlabRecord& e = every[static_cast<size_t>(d.index)];
    EXPECT_EQ(d.work, e.work) << "column " << d.index;
    EXPECT_EQ(d.energy_balance, e.energy_balance) << "column " << d.index;
  }
  EXPECT_EQ(strided.size(), 3u);
}

// A distributed world wrench on every massive node, smooth in time (per length: moment, force).
model::DistributedLoad smooth_load() {
  Vec6 w0, w1;
  w0 << 0.1, -0.2, 0.05, 0.3, -0.1, 2.0;
  w1 << -0.3, 0.1, 0.2, 0.1, 0.4, -2.0;
  return {model::LoadFrame::world, model::TimeTable({0.0, 0.75}, {w0, w1}), 0, -1};
}

// max |B~^a| over refined round-trip grids (A = 6, 12, 24; dt with ds): order 2, without loads
// and under a time-varying distributed world wrench, whose work is much larger than the balance
// on the finest grid (its sign is that of the rows' work).
TEST(SpaceEnergyBalance, SecondOrderWithAndWithoutLoads) {
  for (const bool loaded : {false, true}) {
    std::vector<double> largest;
    for (const int A : {6, 12, 24}) {
      model::Loads loads;
      if (loaded) loads.distributed.push_back(smooth_load());
      const Balance b = balance_of(time_field(round_trip_grid(A), loads), loads);
      std::printf("%s A = %2d: max |B~| = %.3e, exchanged %.3e, loads' work %.3e J s/m\n",
                  loaded ? "loaded" : "free  ", A, b.largest, b.exchanged, b.loads);
      if (!loaded) {
        EXPECT_EQ(b.loads, 0.0);
      } else if (A == 24) {  // the other sign of the loads' work would leave 2 W_loads in B~
        EXPECT_GT(b.loads, 50.0 * b.largest);  // measured 78
      }
      largest.push_back(b.largest);
    }
    for (size_t k = 1; k < largest.size(); ++k) {
      const double order = std::log2(largest[k - 1] / largest[k]);
      std::printf("%s order %.2f\n", loaded ? "loaded" : "free  ", order);
      EXPECT_GT(order, 1.8);
      EXPECT_LT(order, 2.2);
    }
  }
}

// Natural (zero-momentum) rows and no loads, the space_evolution case of theory §11.4: no
// reaction, no work, so B~^a is E_M^a - E_M^0 exactly, the change of the quantity the space march
// conserves to O(ds^2) (its order: SpacePhysics.EnergyMRangeShrinksLikeDsSquared in tests/physics).
TEST(SpaceEnergyBalance, NaturalRowsWithoutLoadsDoNoWork) {
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  const march::SpaceMarchInput in = se.input();
  std::vector<SlabRecord> columns;
  SlabDiagnostics diagnostics(
      model, SlabAxis::column, march::space_boundary(in),
      [&](const SlabRecord& d) { columns.push_back(d); }, SeriesOptions{1, 1});
  ASSERT_TRUE(march::space_march(model, in, {&diagnostics}).completed);
  ASSERT_EQ(static_cast<int>(columns.size()), se.A);
  for (const SlabRecord& d : columns) {
    EXPECT_EQ(d.work, 0.0);
    EXPECT_EQ(d.reaction_first, Vec6::Zero());
    EXPECT_EQ(d.reaction_last, Vec6::Zero());
  }
  const Balance b = summarise(columns);  // B~ = E_M - E_M^0 - 0, bit for bit
  const double relative = b.largest / std::abs(columns.front().energy);
  std::printf("natural rows: max |E_M^a - E_M^0| / |E_M^0| = %.3e\n", relative);
  EXPECT_GT(relative, 0.0);
  EXPECT_LT(relative, 4.1e-3);  // docs/cases/space_evolution.md: the range is 4.04e-3 of |E_M^0|
}

}  // namespace
}  // namespace field::noether

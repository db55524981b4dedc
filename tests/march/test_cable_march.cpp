// The extensible cable on R^3 (theory §1.8) through the generic time march of theory §6.1 and its
// streamed diagnostics (march::time_march<lie::Rn<3>>, noether::SlabDiagnostics<lie::Rn<3>>):
// the march gives the field of the march written with dcel::solve_node in
// tests/dcel/test_cable.cpp (the same algorithm), and the streamed momentum map of the free-free
// cable, the linear momentum P_j = ds sum_a mu_j^a (Ad = I on R^3), changes by the impulse of its
// weight on every row (theory (1.8.8)).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "libfield/lie/rn.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/cable_density.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cable.hpp"

namespace field::march {
namespace {

using R3 = lie::Rn<3>;
using test::CableEnd;
using test::CableRow;

TEST(CableMarch, GenericMarchIsTheNodeByNodeMarchAndItsMomentumTakesTheImpulseOfGravity) {
  for (const bool slack : {false, true}) {
    SCOPED_TRACE(slack);
    const test::FallingCable cable(slack);
    const int A = cable.A, J = cable.J;
    const double ds = cable.ds, dt = cable.dt;
    const model::Loads none;
    const test::CableModel model(cable.density, none, mesh::SpacetimeMesh(J, A, dt, ds));
    CableRow prev = cable.row0, row = cable.row1;

    TimeMarchInputOf<R3> input;
    input.row0 = prev;
    input.row1 = row;
    BasicFieldRecorder<Vec3> recorder(model.mesh(), true);
    std::vector<noether::BasicSlabRecord<Vec3>> rows;
    noether::SlabDiagnostics<R3> diagnostics(model, noether::SlabAxis::row, time_boundary(input),
                                             [&](const auto& d) { rows.push_back(d); });
    const MarchResult result = time_march(model, input, {&recorder, &diagnostics});
    ASSERT_TRUE(result.completed);

    double distance = 0.0, moved = 0.0;
    for (int j = 1; j < J; ++j) {
      const CableRow next = test::cable_march_row(model, prev, row, CableEnd::free, CableEnd::free);
      for (int a = 0; a <= A; ++a) {
        distance = std::max(distance, (recorder.field()(j + 1, a) - next[a]).norm());
        moved = std::max(moved, (next[a] - input.row0[a]).norm());
      }
      prev = row;
      row = next;
    }
    EXPECT_LT(distance, 1e-12);
    EXPECT_GT(moved, 0.1);

    ASSERT_EQ(static_cast<int>(rows.size()), J);
    const Vec3 impulse = cable.impulse();
    const double scale = rows.front().momentum.norm() + J * impulse.norm();
    for (int j = 1; j < J; ++j)
      EXPECT_LT((rows[j].momentum - rows[j - 1].momentum - impulse).norm(), 1e-13 * scale)
          << "row " << j;
    EXPECT_TRUE(std::isfinite(rows.back().energy_balance));
  }
}

}  // namespace
}  // namespace field::march

// The streaming diagnostics of a space march on a beam whose law and stress-free strain vary
// along s (theory §1.6, §7.2, §8): E_M^a takes l_a throughout, the node terms W_j^{a+1} of
// column a+1 included, so that it equals noether::space_energies; Q^a and the column balance
// take each triangle's law. On a random field (no cancellation) with a coupled segment, gravity
// and every load kind, for free and prescribed rows and a stride: the whole-field values to
// round-off.
#include <gtest/gtest.h>

#include <algorithm>

#include "libfield/mesh/convected.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

double inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

TEST(SpaceSegments, DiagnosticsEqualTheWholeFieldValuesOnARandomField) {
  const mesh::SpacetimeMesh mesh(7, 6, 0.01, 0.1);
  test::Random rnd(91);
  const test::CoupledSegments beam(mesh.A(), rnd);
  const model::Loads loads = test::mixed_loads(mesh.A());
  const auto for_group = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    using G = decltype(group);
    const dcel::DiscreteModel<G> model(beam.beams[0], beam.segments, loads, mesh);
    ASSERT_FALSE(model.uniform());
    const mesh::Field field = test::random_field<G>(mesh, rnd);
    const MomentumMaps maps(model, field);
    const std::vector<double> EM = space_energies(model, field);
    // The same terms in column a's law W_j^{a+1} would take with column a+1's: E_M^a then
    // differs by O(1) (the check that the streamed value takes the right one).
    double own_law = 0.0;
    for (int a = 0; a + 1 < mesh.A(); ++a)
      for (int j = 0; j < mesh.J(); ++j) {
        const Vec6 xi = mesh::convected<G>(field(j, a + 1), field(j + 1, a + 1), mesh.dt());
        own_law = std::max(own_law, std::abs(model.density(a).kinetic_energy(xi) -
                                             model.density(a + 1).kinetic_energy(xi)));
      }
    EXPECT_GT(own_law, 1e-3);
    for (const int stride : {1, 2})
      for (const mesh::Side rows : {mesh::Side::natural, mesh::Side::prescribed}) {
        std::vector<SlabRecord> cols;
        SlabDiagnostics diagnostics(
            model, SlabAxis::column, mesh::Boundary::space_evolution(rows, rows),
            [&cols](const SlabRecord& d) { cols.push_back(d); }, SeriesOptions{stride, 1});
        for (int a = 0; a <= mesh.A(); ++a) {
          std::vector<lie::SE3> column(mesh.J() + 1);
          for (int j = 0; j <= mesh.J(); ++j) column[j] = field(j, a);
          diagnostics.slab(a, column, march::SlabStats{});
        }
        // Columns 0, stride, ... and A-1.
        ASSERT_EQ(static_cast<int>(cols.size()), stride == 1 ? mesh.A() : 4);
        EXPECT_EQ(cols.back().index, mesh.A() - 1);
        const int j1 = rows == mesh::Side::prescribed ? 1 : 0;
        const int j2 = rows == mesh::Side::prescribed ? mesh.J() - 1 : mesh.J();
        for (const SlabRecord& d : cols) {
          const std::string at = lie::retraction_name<G>() + " column " + std::to_string(d.index);
          EXPECT_NEAR(d.energy, EM[d.index], 1e-13 * std::abs(EM[d.index])) << at;
          const Vec6 Q = total_space_momentum(maps, d.index);
          EXPECT_LT(inf(d.momentum - Q), 1e-14 * inf(Q)) << at;
          if (d.index == 0 || stride != 1) continue;  // the streamed scale_glob: stride 1 below
          double scale_glob = 0.0;  // dt max over the columns so far of sum_j |N_j^a|
          for (int c = 0; c <= d.index; ++c) {
            double column_sum = 0.0;
            for (int j = j1; j <= std::min(j2, mesh.J() - 1); ++j) column_sum += inf(maps.N(j, c));
            scale_glob = std::max(scale_glob, mesh.dt() * column_sum);
          }
          const BalanceResult whole = noether_balance(maps, Rectangle{j1, j2, d.index, d.index});
          const double expected = inf(whole.residual) / std::max(whole.scale_R, scale_glob);
          EXPECT_GT(expected, 1e-3) << at;  // not a solution: the balance is O(1)
          EXPECT_NEAR(d.balance, expected, 1e-13 * expected) << at;
        }
      }
  };
  for_group(lie::Se3Cayley{});
  for_group(lie::Se3Exp{});
}

}  // namespace
}  // namespace field::noether

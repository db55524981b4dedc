// The row-window versions used by streaming writers (io::SpacetimeWriter) equal the whole-field
// functions: dcel::node_residual and noether::node_balance on every node of a random field with
// gravity and every load kind, fed row by row through a 3-row mesh::RowWindow. Also: the balance
// of a single node is the spatial form of G_n (theory §7.2, proof of the theorem).
#include <gtest/gtest.h>

#include "libfield/dcel/residual.hpp"
#include "libfield/mesh/row_window.hpp"
#include "libfield/noether/balance.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/problems.hpp"

namespace field::noether {
namespace {

std::vector<lie::SE3> row_of(const mesh::Field& field, int j) {
  std::vector<lie::SE3> row;
  for (int a = 0; a <= field.mesh().A(); ++a) row.push_back(field(j, a));
  return row;
}

double norm_inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

TEST(RowWindow, KeepsTheLastRowsAndRefusesOthers) {
  const mesh::SpacetimeMesh m(6, 2, 0.1, 0.1);
  mesh::RowWindow window(m, 3);
  EXPECT_EQ(window.last_row(), -1);
  for (int j = 0; j <= 4; ++j) {
    std::vector<lie::SE3> row(3);
    row[1].r = Vec3(j, 0, 0);
    window.push(j, row);
  }
  EXPECT_EQ(window.last_row(), 4);
  EXPECT_FALSE(window.has_row(1));
  for (int j = 2; j <= 4; ++j) EXPECT_EQ(window(j, 1).r.x(), j);
  std::string m1 = test::error_message([&] { window(1, 0); });
  EXPECT_TRUE(test::contains(m1, "row 1 is not in the window (rows 2..4)")) << m1;
  m1 = test::error_message([&] { window.push(6, std::vector<lie::SE3>(3)); });
  EXPECT_TRUE(test::contains(m1, "got row 6 after row 4")) << m1;
  m1 = test::error_message([&] { window.push(5, std::vector<lie::SE3>(2)); });
  EXPECT_TRUE(test::contains(m1, "row 5 has 2 values")) << m1;
}

TEST(RowWindow, NodeResidualAndBalanceEqualTheWholeFieldOnes) {
  const int J = 5, A = 4;
  const mesh::SpacetimeMesh m(J, A, 0.01, 0.2);
  const model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  const model::Loads loads = test::mixed_loads(A);
  using G = lie::Se3Cayley;
  const dcel::DiscreteModel model(beam, loads, G{}, m);
  test::Random rnd(3);
  const mesh::Field field = test::random_field<G>(m, rnd);
  const MomentumMaps maps(model, field);

  mesh::RowWindow window(m, 3);
  int checked = 0;
  const auto check_row = [&](int j) {
    for (int a = 0; a <= A; ++a) {
      const dcel::NodeResidual whole = dcel::node_residual(model, field, j, a);
      const dcel::NodeResidual local = dcel::node_residual(model, window, j, a);
      EXPECT_EQ(local.G, whole.G) << "node (" << j << ", " << a << ")";  // the same code
      EXPECT_EQ(local.scale, whole.scale);

      const BalanceResult b = node_balance(model, window, j, a);
      const BalanceResult ref = noether_balance(maps, Rectangle{j, j, a, a});
      EXPECT_EQ(b.residual, ref.residual) << "node (" << j << ", " << a << ")";
      EXPECT_EQ(b.scale_R, ref.scale_R);
      // Res of one node = Ad*_{g^{-1}} G_n: equal up to the round-off of the terms.
      const Vec6 spatial_G = lie::spatial_covector(field(j, a), whole.G);
      EXPECT_LE(norm_inf(b.residual - spatial_G), 1e-14 * b.scale_R)
          << "node (" << j << ", " << a << ")";
      ++checked;
    }
  };
  for (int j = 0; j <= J; ++j) {
    window.push(j, row_of(field, j));
    if (j >= 1) check_row(j - 1);  // rows j-2, j-1, j in the window
  }
  check_row(J);  // the last row needs no row J+1
  EXPECT_EQ(checked, (J + 1) * (A + 1));
  // Not vacuous: a random field is far from a solution.
  EXPECT_GT(norm_inf(node_balance(model, window, J, 1).residual), 1e-3);
}

}  // namespace
}  // namespace field::noether

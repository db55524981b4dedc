// theory §4.7, (4.7.6): the streamed dissipation (dcel::DissipationSeries, each triangle's damping
// terms once per row) gives the same bits as the node-by-node path of damping.hpp: D_j as
// dissipated_energy and the damping part of G_n as node_damping, on random fields far from rest,
// both retractions, a density per segment, mass, stiffness and both dampings, and a second march
// through the same series (add(0, ...) restarts it).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/dissipation_series.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

bool same_bits(double x, double y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

template <class G>
class DissipationSeriesTest : public ::testing::Test {};
TYPED_TEST_SUITE(DissipationSeriesTest, test::Se3Groups, test::GroupNames);

TYPED_TEST(DissipationSeriesTest, SameBitsAsTheFieldPath) {
  const mesh::SpacetimeMesh mesh(7, 6, 0.01, 0.1);
  test::Random rnd(118);
  const test::CoupledSegments cs(mesh.A(), rnd);
  for (const model::Damping damping :
       {model::Damping{0.7, 0.0}, model::Damping{0.0, 0.003}, model::Damping{0.7, 0.003}}) {
    model::Loads loads = test::mixed_loads(mesh.A());
    loads.damping = damping;
    const DiscreteModel<TypeParam> model(cs.beams[0], cs.segments, loads, mesh);
    DissipationSeries<TypeParam> series(model);
    for (int march = 0; march < 2; ++march) {
      const mesh::Field field = test::random_field<TypeParam>(mesh, rnd);
      const std::vector<double> D = dissipated_energy(model, field);
      double streamed = 0.0;
      int increments = 0;
      for (int j1 = 0; j1 <= mesh.J(); ++j1) {
        std::vector<lie::SE3> row(static_cast<size_t>(mesh.A() + 1));
        for (int a = 0; a <= mesh.A(); ++a) row[static_cast<size_t>(a)] = field(j1, a);
        const std::optional<double> dD = series.add(j1, row);
        if (j1 == 0) continue;
        const int j = j1 - 1;
        for (int a = 0; a <= mesh.A(); ++a) {
          const Vec6 expected = node_damping(model, field, j, a);
          const Vec6& got = series.node_damping()[static_cast<size_t>(a)];
          for (int i = 0; i < 6; ++i)
            EXPECT_TRUE(same_bits(got[i], expected[i]))
                << "node (" << j << ", " << a << ") " << got.transpose() << " vs "
                << expected.transpose();
        }
        ASSERT_EQ(dD.has_value(), j >= 1) << "row " << j;
        if (!dD) continue;
        streamed += *dD;
        ++increments;
        EXPECT_TRUE(same_bits(streamed, D[static_cast<size_t>(j)]))
            << "row " << j << ": " << streamed << " vs " << D[static_cast<size_t>(j)];
      }
      EXPECT_EQ(increments, mesh.J() - 1);
      EXPECT_NE(D.back(), 0.0);
    }
  }
}

}  // namespace
}  // namespace field::dcel

// SE(3) fields on the spacetime grid (both storage layouts) and their convected velocities and
// strains, theory §3.1, checked on exactly known fields: a static arc and a rigid motion
// (theory §10 vii, theory §11.2), for both retractions.
#include <gtest/gtest.h>

#include <vector>

#include "libfield/lie/retraction.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/mesh/field.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/random.hpp"

namespace field::mesh {
namespace {

using lie::SE3;
using test::Random;
using test::rel_err;

// Exact equality of two group elements (bitwise values, not a tolerance).
bool same(const SE3& g, const SE3& h) {
  return g.R == h.R && g.r == h.r;
}

// A field of distinct random values, one per node, in the given layout (same values for the same
// seed whatever the layout).
Field random_field(const SpacetimeMesh& mesh, Layout layout, unsigned seed) {
  Random rnd(seed);
  Field f(mesh, layout);
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) f(j, a) = rnd.se3(2.0);
  return f;
}

TEST(Field, DefaultValuesAreIdentity) {
  const SpacetimeMesh mesh(3, 4, 0.1, 0.2);
  for (Layout layout : {Layout::by_row, Layout::by_column}) {
    const Field f(mesh, layout);
    EXPECT_EQ(f.layout(), layout);
    EXPECT_EQ(f.mesh().J(), 3);
    EXPECT_EQ(f.mesh().A(), 4);
    EXPECT_EQ(f.mesh().dt(), 0.1);
    EXPECT_EQ(f.mesh().ds(), 0.2);
    for (int j = 0; j <= 3; ++j)
      for (int a = 0; a <= 4; ++a) {
        EXPECT_TRUE(same(f(j, a), SE3::identity())) << j << " " << a;
        EXPECT_TRUE(same(f(Node{j, a}), SE3::identity())) << j << " " << a;
      }
  }
  EXPECT_EQ(Field(mesh).layout(), Layout::by_row);
}

TEST(Field, BothLayoutsStoreTheSameValues) {
  for (const auto& [J, A] : std::vector<std::pair<int, int>>{{1, 1}, {3, 5}, {6, 2}}) {
    const SpacetimeMesh mesh(J, A, 0.01, 0.1);
    const Field by_row = random_field(mesh, Layout::by_row, 7);
    const Field by_column = random_field(mesh, Layout::by_column, 7);
    Random rnd(7);
    for (int j = 0; j <= J; ++j)
      for (int a = 0; a <= A; ++a) {
        const SE3 expected = rnd.se3(2.0);
        EXPECT_TRUE(same(by_row(j, a), expected)) << j << " " << a;
        EXPECT_TRUE(same(by_column(j, a), expected)) << j << " " << a;
        EXPECT_TRUE(same(by_row(Node{j, a}), expected)) << j << " " << a;
        EXPECT_TRUE(same(by_column(Node{j, a}), expected)) << j << " " << a;
      }
  }
}

TEST(Field, WritesThroughNodeAndIndexAccessAgree) {
  const SpacetimeMesh mesh(2, 3, 0.1, 0.1);
  for (Layout layout : {Layout::by_row, Layout::by_column}) {
    Field f(mesh, layout);
    Random rnd(3);
    const SE3 g = rnd.se3();
    f(Node{1, 2}) = g;
    EXPECT_TRUE(same(f(1, 2), g));
    EXPECT_EQ(&f(Node{1, 2}), &f(1, 2));
    // Nothing else changed.
    for (int j = 0; j <= 2; ++j)
      for (int a = 0; a <= 3; ++a)
        if (!(j == 1 && a == 2)) {
          EXPECT_TRUE(same(f(j, a), SE3::identity())) << j << " " << a;
        }
  }
}

TEST(Field, RowsAreContiguousInTheRowLayout) {
  const SpacetimeMesh mesh(4, 3, 0.1, 0.1);
  Field f = random_field(mesh, Layout::by_row, 11);
  for (int j = 0; j <= mesh.J(); ++j) {
    SE3* row = f.row(j);
    for (int a = 0; a <= mesh.A(); ++a) EXPECT_EQ(row + a, &f(j, a)) << j << " " << a;
    if (j > 0) {
      EXPECT_EQ(f.row(j), f.row(j - 1) + (mesh.A() + 1));
    }
  }
  EXPECT_EQ(f.row(0), &f(0, 0));
}

TEST(Field, ColumnsAreContiguousInTheColumnLayout) {
  const SpacetimeMesh mesh(4, 3, 0.1, 0.1);
  Field f = random_field(mesh, Layout::by_column, 11);
  for (int a = 0; a <= mesh.A(); ++a) {
    SE3* column = f.column(a);
    for (int j = 0; j <= mesh.J(); ++j) EXPECT_EQ(column + j, &f(j, a)) << j << " " << a;
    if (a > 0) {
      EXPECT_EQ(f.column(a), f.column(a - 1) + (mesh.J() + 1));
    }
  }
  EXPECT_EQ(f.column(0), &f(0, 0));
}

template <class G>
class ConvectedFieldsTest : public ::testing::Test {
 protected:
};
TYPED_TEST_SUITE(ConvectedFieldsTest, test::Se3Groups, test::GroupNames);

TYPED_TEST(ConvectedFieldsTest, ConvectedRateInvertsTheRetraction) {
  Random rnd(21);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 x = rnd.vec6_with_angle(rnd.uniform(0.0, 2.5), 2.0);
    const SE3 g1 = g * TypeParam::tau(x);
    for (double h : {1e-3, 0.1, 1.0}) {
      // tau^{-1}(g^{-1} g1) / h = x / h, compared at the scale of x.
      EXPECT_LT(rel_err(Vec6(h * convected<TypeParam>(g, g1, h)), x), 1e-13)
          << lie::retraction_name<TypeParam>() << " h = " << h << " x = " << x.transpose();
    }
  }
}

// Every entry of ConvectedFields is the convected rate of its own pair of neighbours: checks the
// storage indices, also for a field stored by column.
TYPED_TEST(ConvectedFieldsTest, EntriesMatchTheirNeighbourPairs) {
  const SpacetimeMesh mesh(5, 4, 0.02, 0.3);
  for (Layout layout : {Layout::by_row, Layout::by_column}) {
    // Small steps between neighbours so that tau^{-1} is well inside its domain.
    Field f(mesh, layout);
    Random rnd(5);
    const SE3 g0 = rnd.se3();
    for (int j = 0; j <= mesh.J(); ++j)
      for (int a = 0; a <= mesh.A(); ++a) f(j, a) = g0 * TypeParam::tau(rnd.vec6(0.4));
    const ConvectedFields<TypeParam> c(f);
    for (int j = 0; j < mesh.J(); ++j)
      for (int a = 0; a <= mesh.A(); ++a)
        EXPECT_EQ(c.xi(j, a), convected<TypeParam>(f(j, a), f(j + 1, a), mesh.dt()))
            << j << " " << a;
    for (int j = 0; j <= mesh.J(); ++j)
      for (int a = 0; a < mesh.A(); ++a)
        EXPECT_EQ(c.eta(j, a), convected<TypeParam>(f(j, a), f(j, a + 1), mesh.ds()))
            << j << " " << a;
  }
}

// Static arc of theory §11.2: g_j^a = tau(ds eta_bar)^a for every j, so eta = eta_bar, xi = 0.
TYPED_TEST(ConvectedFieldsTest, StaticArc) {
  const SpacetimeMesh mesh(6, 10, 0.005, 0.1);
  Random rnd(8);
  std::vector<Vec6> strains = {(Vec6() << 2, 0, 0, 0, 0, 1).finished()};
  for (int k = 0; k < 3; ++k) strains.push_back(rnd.vec6(3.0));
  for (const Vec6& eta_bar : strains) {
    for (Layout layout : {Layout::by_row, Layout::by_column}) {
      Field f(mesh, layout);
      const SE3 step = TypeParam::tau(mesh.ds() * eta_bar);
      SE3 g = SE3::identity();
      for (int a = 0; a <= mesh.A(); ++a) {
        for (int j = 0; j <= mesh.J(); ++j) f(j, a) = g;
        g = g * step;
      }
      const ConvectedFields<TypeParam> c(f);
      for (int j = 0; j <= mesh.J(); ++j)
        for (int a = 0; a < mesh.A(); ++a)
          EXPECT_LT((c.eta(j, a) - eta_bar).cwiseAbs().maxCoeff(), 1e-13)
              << lie::retraction_name<TypeParam>() << " (" << j << ", " << a
              << ") eta = " << c.eta(j, a).transpose();
      for (int j = 0; j < mesh.J(); ++j)
        for (int a = 0; a <= mesh.A(); ++a)
          EXPECT_LT(c.xi(j, a).cwiseAbs().maxCoeff(), 1e-12)
              << lie::retraction_name<TypeParam>() << " (" << j << ", " << a
              << ") xi = " << c.xi(j, a).transpose();
    }
  }
}

// Rigid motion of theory §10 vii: g_j^a = g_0^a tau(dt xi)^j, so xi_j^a = xi at every node
// (a = A included) and, both retractions being conjugation-equivariant,
// eta_j^a = Ad_{tau(dt xi)^{-j}} eta_0^a.
TYPED_TEST(ConvectedFieldsTest, RigidMotion) {
  const SpacetimeMesh mesh(12, 6, 0.01, 0.1);
  Random rnd(9);
  std::vector<Vec6> velocities = {(Vec6() << 0, 0, 3, 0, 0, 0.3).finished()};
  for (int k = 0; k < 3; ++k) velocities.push_back(rnd.vec6_with_angle(5.0, 2.0));
  for (const Vec6& xi : velocities) {
    // Row 0: a bent, twisted, sheared beam (a small random step between neighbours).
    std::vector<SE3> g0(mesh.A() + 1);
    std::vector<Vec6> eta0(mesh.A());
    g0[0] = rnd.se3();
    for (int a = 1; a <= mesh.A(); ++a) {
      eta0[a - 1] = rnd.vec6(2.0);
      g0[a] = g0[a - 1] * TypeParam::tau(mesh.ds() * eta0[a - 1]);
    }
    const SE3 U = TypeParam::tau(mesh.dt() * xi);
    Field f(mesh);
    std::vector<SE3> U_pow(mesh.J() + 1);  // U^j
    for (int j = 0; j <= mesh.J(); ++j) {
      U_pow[j] = j == 0 ? SE3::identity() : U_pow[j - 1] * U;
      for (int a = 0; a <= mesh.A(); ++a) f(j, a) = g0[a] * U_pow[j];
    }
    const ConvectedFields<TypeParam> c(f);
    for (int j = 0; j < mesh.J(); ++j)
      for (int a = 0; a <= mesh.A(); ++a)
        EXPECT_LT(rel_err(c.xi(j, a), xi), 1e-12)
            << lie::retraction_name<TypeParam>() << " (" << j << ", " << a
            << ") xi = " << c.xi(j, a).transpose();
    for (int j = 0; j <= mesh.J(); ++j)
      for (int a = 0; a < mesh.A(); ++a) {
        const Vec6 expected = lie::Ad(U_pow[j].inverse()) * eta0[a];
        EXPECT_LT(rel_err(c.eta(j, a), expected), 1e-12)
            << lie::retraction_name<TypeParam>() << " (" << j << ", " << a << ")";
      }
  }
}

}  // namespace
}  // namespace field::mesh

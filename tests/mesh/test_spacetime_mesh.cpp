// The spacetime grid of theory §3.1: validation, triangles, the node kinds of theory §4
// table for every boundary the marches use (theory §6), and the node positions of theory §3.4.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "tests/support/errors.hpp"

namespace field::mesh {
namespace {

using test::contains;
using test::error_message;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(SpacetimeMesh, StoresSizesAndSteps) {
  const SpacetimeMesh mesh(7, 4, 0.005, 0.1);
  EXPECT_EQ(mesh.J(), 7);
  EXPECT_EQ(mesh.A(), 4);
  EXPECT_EQ(mesh.dt(), 0.005);
  EXPECT_EQ(mesh.ds(), 0.1);
  EXPECT_EQ(mesh.node_count(), 8 * 5);
  EXPECT_EQ(mesh.t(0), 0.0);
  EXPECT_DOUBLE_EQ(mesh.t(3), 0.015);
  EXPECT_DOUBLE_EQ(mesh.t(7), 0.035);
}

TEST(SpacetimeMesh, NodeCountDoesNotOverflowInt) {
  const SpacetimeMesh mesh(100000, 99999, 1.0, 1.0);
  EXPECT_EQ(mesh.node_count(), 100001LL * 100000LL);
}

TEST(SpacetimeMesh, SmallestMeshIsValid) {
  const SpacetimeMesh mesh(1, 1, 1e-300, 1e-300);
  EXPECT_EQ(mesh.node_count(), 4);
}

TEST(SpacetimeMesh, RejectsTooFewTimeSteps) {
  for (int J : {0, -1, -7}) {
    const std::string msg = error_message([&] { SpacetimeMesh(J, 3, 0.1, 0.1); });
    EXPECT_TRUE(contains(msg, "J = " + std::to_string(J))) << msg;
  }
}

TEST(SpacetimeMesh, RejectsTooFewSpaceSteps) {
  for (int A : {0, -1, -5}) {
    const std::string msg = error_message([&] { SpacetimeMesh(3, A, 0.1, 0.1); });
    EXPECT_TRUE(contains(msg, "A = " + std::to_string(A))) << msg;
  }
}

TEST(SpacetimeMesh, RejectsNonPositiveOrNaNTimeStep) {
  const std::map<double, std::string> bad = {{0.0, "got 0"}, {-0.25, "got -0.25"}};
  for (const auto& [dt, printed] : bad) {
    const double step = dt;  // a structured binding cannot be captured in C++17 (clang)
    const std::string msg = error_message([&] { SpacetimeMesh(3, 3, step, 0.1); });
    EXPECT_TRUE(contains(msg, "dt")) << msg;
    EXPECT_TRUE(contains(msg, printed)) << msg;
  }
  const std::string msg = error_message([] { SpacetimeMesh(3, 3, kNaN, 0.1); });
  EXPECT_TRUE(contains(msg, "dt")) << msg;
  EXPECT_TRUE(contains(msg, "nan")) << msg;
  const std::string inf =
      error_message([] { SpacetimeMesh(3, 3, std::numeric_limits<double>::infinity(), 0.1); });
  EXPECT_TRUE(contains(inf, "dt")) << inf;
  EXPECT_TRUE(contains(inf, "inf")) << inf;
}

TEST(SpacetimeMesh, RejectsNonPositiveOrNaNSpaceStep) {
  const std::map<double, std::string> bad = {{0.0, "got 0"}, {-3.5, "got -3.5"}};
  for (const auto& [ds, printed] : bad) {
    const double step = ds;  // a structured binding cannot be captured in C++17 (clang)
    const std::string msg = error_message([&] { SpacetimeMesh(3, 3, 0.1, step); });
    EXPECT_TRUE(contains(msg, "ds")) << msg;
    EXPECT_TRUE(contains(msg, printed)) << msg;
  }
  const std::string msg = error_message([] { SpacetimeMesh(3, 3, 0.1, kNaN); });
  EXPECT_TRUE(contains(msg, "ds")) << msg;
  EXPECT_TRUE(contains(msg, "nan")) << msg;
  const std::string inf =
      error_message([] { SpacetimeMesh(3, 3, 0.1, std::numeric_limits<double>::infinity()); });
  EXPECT_TRUE(contains(inf, "ds")) << inf;
  EXPECT_TRUE(contains(inf, "inf")) << inf;
}

TEST(SpacetimeMesh, TriangleVertices) {
  const SpacetimeMesh mesh(4, 3, 0.1, 0.2);
  for (int j = 0; j < mesh.J(); ++j) {
    for (int a = 0; a < mesh.A(); ++a) {
      const std::array<Node, 3> v = mesh.triangle(j, a);
      EXPECT_EQ(v[0], (Node{j, a}));
      EXPECT_EQ(v[1], (Node{j + 1, a}));
      EXPECT_EQ(v[2], (Node{j, a + 1}));
      for (const Node& n : v) EXPECT_TRUE(mesh.has_node(n.j, n.a)) << j << " " << a;
    }
  }
}

TEST(SpacetimeMesh, TriangleAndNodeRanges) {
  const SpacetimeMesh mesh(5, 3, 0.1, 0.2);
  int triangles = 0;
  for (int j = -2; j <= mesh.J() + 2; ++j) {
    for (int a = -2; a <= mesh.A() + 2; ++a) {
      const bool triangle = j >= 0 && j <= mesh.J() - 1 && a >= 0 && a <= mesh.A() - 1;
      const bool node = j >= 0 && j <= mesh.J() && a >= 0 && a <= mesh.A();
      EXPECT_EQ(mesh.has_triangle(j, a), triangle) << j << " " << a;
      EXPECT_EQ(mesh.has_node(j, a), node) << j << " " << a;
      triangles += mesh.has_triangle(j, a) ? 1 : 0;
    }
  }
  EXPECT_EQ(triangles, mesh.J() * mesh.A());
}

TEST(SpacetimeMesh, EveryNodeButTheLastCornerIsInATriangle) {
  for (const auto& [J, A] : std::vector<std::pair<int, int>>{{1, 1}, {1, 4}, {3, 1}, {4, 6}}) {
    const SpacetimeMesh mesh(J, A, 0.1, 0.1);
    std::map<std::pair<int, int>, int> count;
    for (int j = 0; j < J; ++j)
      for (int a = 0; a < A; ++a)
        for (const Node& n : mesh.triangle(j, a)) ++count[{n.j, n.a}];
    for (int j = 0; j <= J; ++j) {
      for (int a = 0; a <= A; ++a) {
        const int c = count.count({j, a}) ? count.at({j, a}) : 0;
        if (j == J && a == A) {
          EXPECT_EQ(c, 0) << "(J, A) must be in no triangle";
        } else {
          EXPECT_GE(c, 1) << "node (" << j << ", " << a << ") of " << J << "x" << A;
        }
        // An interior node is a vertex of exactly three triangles (theory §3.3).
        if (j >= 1 && j <= J - 1 && a >= 1 && a <= A - 1) {
          EXPECT_EQ(c, 3) << "node (" << j << ", " << a << ")";
        }
      }
    }
  }
}

// Expected kinds, written out row by row: kinds[j][a].
using KindTable = std::vector<std::vector<NodeKind>>;

void expect_kinds(const SpacetimeMesh& mesh, const Boundary& b, const KindTable& expected) {
  ASSERT_EQ(static_cast<int>(expected.size()), mesh.J() + 1);
  for (int j = 0; j <= mesh.J(); ++j) {
    ASSERT_EQ(static_cast<int>(expected[j].size()), mesh.A() + 1);
    for (int a = 0; a <= mesh.A(); ++a) {
      const NodeKind k = mesh.kind(j, a, b);
      EXPECT_EQ(k, expected[j][a]) << "node (" << j << ", " << a << "): got " << to_string(k)
                                   << ", expected " << to_string(expected[j][a]);
      const bool equation =
          k != NodeKind::prescribed && k != NodeKind::open && k != NodeKind::unused;
      EXPECT_EQ(mesh.is_equation_node(j, a, b), equation) << j << " " << a;
    }
  }
}

int equation_nodes(const SpacetimeMesh& mesh, const Boundary& b) {
  int n = 0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) n += mesh.is_equation_node(j, a, b) ? 1 : 0;
  return n;
}

constexpr NodeKind I = NodeKind::interior;
constexpr NodeKind T = NodeKind::zero_traction;
constexpr NodeKind G = NodeKind::ghost_end;
constexpr NodeKind M = NodeKind::zero_momentum;
constexpr NodeKind R = NodeKind::ghost_row;
constexpr NodeKind C = NodeKind::corner;
constexpr NodeKind P = NodeKind::prescribed;
constexpr NodeKind O = NodeKind::open;
constexpr NodeKind U = NodeKind::unused;

TEST(SpacetimeMeshKinds, BoundaryFactories) {
  const Boundary def;  // the default is a free-free time evolution
  EXPECT_EQ(def.left, Side::natural);
  EXPECT_EQ(def.right, Side::natural);
  EXPECT_EQ(def.first, Side::open);
  EXPECT_EQ(def.last, Side::open);
  const Boundary t = Boundary::time_evolution(Side::prescribed, Side::natural);
  EXPECT_EQ(t.left, Side::prescribed);
  EXPECT_EQ(t.right, Side::natural);
  EXPECT_EQ(t.first, Side::open);
  EXPECT_EQ(t.last, Side::open);
  const Boundary s = Boundary::space_evolution(Side::natural, Side::prescribed);
  EXPECT_EQ(s.left, Side::open);
  EXPECT_EQ(s.right, Side::open);
  EXPECT_EQ(s.first, Side::natural);
  EXPECT_EQ(s.last, Side::prescribed);
}

TEST(SpacetimeMeshKinds, TimeEvolutionFreeFree) {
  const SpacetimeMesh mesh(4, 3, 0.1, 0.1);
  const Boundary b = Boundary::time_evolution(Side::natural, Side::natural);
  EXPECT_EQ(b.first, Side::open);
  EXPECT_EQ(b.last, Side::open);
  expect_kinds(mesh, b,
               {
                   {O, O, O, O},  // j = 0: Cauchy data
                   {T, I, I, G},
                   {T, I, I, G},
                   {T, I, I, G},
                   {O, O, O, U},  // j = J: computed last
               });
}

TEST(SpacetimeMeshKinds, TimeEvolutionClampedCantilever) {
  const SpacetimeMesh mesh(3, 4, 0.1, 0.1);
  const Boundary b = Boundary::time_evolution(Side::prescribed, Side::natural);
  expect_kinds(mesh, b,
               {
                   {P, O, O, O, O},
                   {P, I, I, I, G},
                   {P, I, I, I, G},
                   {P, O, O, O, U},
               });
}

TEST(SpacetimeMeshKinds, TimeEvolutionFreeLeftPrescribedRight) {
  const SpacetimeMesh mesh(3, 2, 0.1, 0.1);
  const Boundary b = Boundary::time_evolution(Side::natural, Side::prescribed);
  expect_kinds(mesh, b,
               {
                   {O, O, P},
                   {T, I, P},
                   {T, I, P},
                   {O, O, U},
               });
}

TEST(SpacetimeMeshKinds, TimeEvolutionBothPrescribed) {
  const SpacetimeMesh mesh(3, 3, 0.1, 0.1);
  const Boundary b = Boundary::time_evolution(Side::prescribed, Side::prescribed);
  expect_kinds(mesh, b,
               {
                   {P, O, O, P},
                   {P, I, I, P},
                   {P, I, I, P},
                   {P, O, O, U},
               });
}

TEST(SpacetimeMeshKinds, SpaceEvolutionZeroMomentumRows) {
  const SpacetimeMesh mesh(4, 3, 0.1, 0.1);
  const Boundary b = Boundary::space_evolution(Side::natural, Side::natural);
  EXPECT_EQ(b.left, Side::open);
  EXPECT_EQ(b.right, Side::open);
  expect_kinds(mesh, b,
               {
                   {O, M, M, O},  // j = 0: zero momentum
                   {O, I, I, O},
                   {O, I, I, O},
                   {O, I, I, O},
                   {O, R, R, U},  // j = J: ghost row
               });
}

TEST(SpacetimeMeshKinds, SpaceEvolutionPrescribedRows) {
  const SpacetimeMesh mesh(3, 4, 0.1, 0.1);
  const Boundary b = Boundary::space_evolution(Side::prescribed, Side::prescribed);
  expect_kinds(mesh, b,
               {
                   {P, P, P, P, P},
                   {O, I, I, I, O},
                   {O, I, I, I, O},
                   {P, P, P, P, U},
               });
}

TEST(SpacetimeMeshKinds, FullyNaturalHasTheCorners) {
  const SpacetimeMesh mesh(3, 4, 0.1, 0.1);
  const Boundary b{Side::natural, Side::natural, Side::natural, Side::natural};
  expect_kinds(mesh, b,
               {
                   {C, M, M, M, C},
                   {T, I, I, I, G},
                   {T, I, I, I, G},
                   {C, R, R, R, U},
               });
}

TEST(SpacetimeMeshKinds, SmallestFullyNaturalMesh) {
  const SpacetimeMesh mesh(1, 1, 0.1, 0.1);
  const Boundary b{Side::natural, Side::natural, Side::natural, Side::natural};
  expect_kinds(mesh, b, {{C, C}, {C, U}});
}

TEST(SpacetimeMeshKinds, UnusedNodeWinsOverEverySide) {
  const SpacetimeMesh mesh(2, 2, 0.1, 0.1);
  for (Side s1 : {Side::natural, Side::prescribed, Side::open})
    for (Side s2 : {Side::natural, Side::prescribed, Side::open}) {
      const Boundary b{Side::natural, s1, Side::natural, s2};
      EXPECT_EQ(mesh.kind(2, 2, b), NodeKind::unused) << to_string(s1) << " " << to_string(s2);
      EXPECT_FALSE(mesh.is_equation_node(2, 2, b));
    }
}

TEST(SpacetimeMeshKinds, EquationNodeCounts) {
  const Boundary free_free = Boundary::time_evolution(Side::natural, Side::natural);
  const Boundary cantilever = Boundary::time_evolution(Side::prescribed, Side::natural);
  const Boundary clamped = Boundary::time_evolution(Side::prescribed, Side::prescribed);
  const Boundary zero_momentum = Boundary::space_evolution(Side::natural, Side::natural);
  const Boundary rows_given = Boundary::space_evolution(Side::prescribed, Side::prescribed);
  const Boundary natural{Side::natural, Side::natural, Side::natural, Side::natural};
  for (const auto& [J, A] : std::vector<std::pair<int, int>>{{1, 1}, {2, 5}, {7, 3}, {10, 10}}) {
    const SpacetimeMesh mesh(J, A, 0.1, 0.1);
    // Hand counts: rows 1..J-1 times the solved columns; columns 1..A-1 times rows 0..J or 1..J-1.
    EXPECT_EQ(equation_nodes(mesh, free_free), (J - 1) * (A + 1)) << J << "x" << A;
    EXPECT_EQ(equation_nodes(mesh, cantilever), (J - 1) * A) << J << "x" << A;
    EXPECT_EQ(equation_nodes(mesh, clamped), (J - 1) * (A - 1)) << J << "x" << A;
    EXPECT_EQ(equation_nodes(mesh, zero_momentum), (J + 1) * (A - 1)) << J << "x" << A;
    EXPECT_EQ(equation_nodes(mesh, rows_given), (J - 1) * (A - 1)) << J << "x" << A;
    EXPECT_EQ(equation_nodes(mesh, natural), (J + 1) * (A + 1) - 1) << J << "x" << A;
  }
  // A few explicit numbers, independent of the formulas above.
  EXPECT_EQ(equation_nodes(SpacetimeMesh(400, 10, 0.005, 0.1), free_free), 399 * 11);
  EXPECT_EQ(equation_nodes(SpacetimeMesh(4, 3, 0.1, 0.1), free_free), 12);
  EXPECT_EQ(equation_nodes(SpacetimeMesh(3, 4, 0.1, 0.1), cantilever), 8);
  EXPECT_EQ(equation_nodes(SpacetimeMesh(4, 3, 0.1, 0.1), zero_momentum), 10);
  EXPECT_EQ(equation_nodes(SpacetimeMesh(3, 4, 0.1, 0.1), natural), 19);
}

TEST(SpacetimeMeshKinds, Names) {
  EXPECT_STREQ(to_string(NodeKind::interior), "interior");
  EXPECT_STREQ(to_string(NodeKind::zero_traction), "zero_traction");
  EXPECT_STREQ(to_string(NodeKind::ghost_end), "ghost_end");
  EXPECT_STREQ(to_string(NodeKind::zero_momentum), "zero_momentum");
  EXPECT_STREQ(to_string(NodeKind::ghost_row), "ghost_row");
  EXPECT_STREQ(to_string(NodeKind::corner), "corner");
  EXPECT_STREQ(to_string(NodeKind::prescribed), "prescribed");
  EXPECT_STREQ(to_string(NodeKind::open), "open");
  EXPECT_STREQ(to_string(NodeKind::unused), "unused");
  EXPECT_STREQ(to_string(Side::natural), "natural");
  EXPECT_STREQ(to_string(Side::prescribed), "prescribed");
  EXPECT_STREQ(to_string(Side::open), "open");
}

TEST(SpacetimeMesh, MaterialCoordinateOfNodes) {
  const SpacetimeMesh mesh(2, 10, 0.005, 0.1);
  for (int a = 0; a <= mesh.A(); ++a) {
    // Free end: node a carries the cell [a ds, (a+1) ds] and sits at its midpoint (theory §3.4).
    EXPECT_DOUBLE_EQ(mesh.s(a, Side::natural), (a + 0.5) * 0.1) << a;
    // Clamped end: node a sits at a ds.
    EXPECT_DOUBLE_EQ(mesh.s(a, Side::prescribed), a * 0.1) << a;
  }
  EXPECT_EQ(mesh.s(0, Side::natural), 0.05);
  EXPECT_EQ(mesh.s(0, Side::prescribed), 0.0);
  // Cantilever of theory §11.3: ds = L/(A - 1/2), so the beam [0, (A - 1/2) ds] ends half a cell
  // before the ghost node A.
  const double L = 1.0;
  const SpacetimeMesh cantilever(2, 10, 5e-4, L / (10 - 0.5));
  EXPECT_NEAR(cantilever.s(10, Side::prescribed) - 0.5 * cantilever.ds(), L, 1e-15);
}

}  // namespace
}  // namespace field::mesh

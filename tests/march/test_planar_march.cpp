// The time march of theory §6.1 and its diagnostics (theory §7, §8) on SE(2), the planar beam of
// theory §1.7: a whole march of the planar beam and the march of the SE(3) beam on the same data
// in a plane (the embedding of tests/support/planar.hpp) give the same poses, momenta,
// energies, momentum maps (1.7.3) and streamed series to round-off, for a free flight and for a
// clamped cantilever under gravity; the SE(3) side runs every node kernel. On SE(2) alone: the
// free flight keeps its momentum map to round-off (theory §7.2). A march's state embedded in SE(3)
// (checkpoint.txt) projects back bit for bit.
#include <gtest/gtest.h>

#include <cstring>

#include "libfield/dcel/momenta.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/planar_embedding.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/model/beam_density.hpp"
#include "libfield/model/planar_beam_density.hpp"
#include "libfield/model/section_law.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/planar.hpp"
#include "tests/support/random.hpp"

namespace field::march {
namespace {

using lie::Mat2;
using lie::SE2;
using lie::Se2Cayley;
using lie::Vec2;

using test::embed;
using test::embedded_beam;
using test::Planar;
using test::planar_data;

const model::PlanarSection& kSection = test::kPlanarSection;
constexpr double kCurvature = test::kPlanarCurvature;

double rel(const Mat4& a, const Mat4& b) {
  return (a - b).norm() / (1.0 + b.norm());
}
double rel(const Vec6& a, const Vec6& b) {
  return (a - b).norm() / (1.0 + b.norm());
}
double rel(double a, double b) {
  return std::abs(a - b) / (1.0 + std::abs(b));
}

// The streamed series of a march (noether::SlabDiagnostics).
template <class G>
struct Series {
  std::vector<typename noether::SlabDiagnostics<G>::Record> rows;
};

void expect_same_march(const Vec2& gravity, bool clamped, NodeKernel kernel) {
  // c_E dt / ds = 0.27 (sqrt(EA / rho A) = 27 m/s), omega_c dt = 0.2: a stable march.
  const mesh::SpacetimeMesh mesh(60, 6, 5e-4, 0.05);
  const model::Loads none;
  const model::PlanarBeamDensity planar(kSection, gravity, kCurvature);
  const model::BeamDensity beam = embedded_beam(gravity);
  const dcel::DiscreteModel<Se2Cayley> m2(planar, none, mesh);
  const dcel::DiscreteModel<lie::Se3Cayley> m3(beam, none, mesh);
  const Planar d = planar_data(mesh, clamped);

  BasicFieldRecorder<SE2> r2(mesh, true);
  FieldRecorder r3(mesh, true);
  MarchOptions options;
  options.threads = 1;
  options.kernel = kernel;
  Series<Se2Cayley> s2;
  Series<lie::Se3Cayley> s3;
  noether::SlabDiagnostics<Se2Cayley> d2(m2, noether::SlabAxis::row, time_boundary(d.input),
                                         [&](const auto& row) { s2.rows.push_back(row); });
  noether::SlabDiagnostics<lie::Se3Cayley> d3(m3, noether::SlabAxis::row, time_boundary(d.embedded),
                                              [&](const auto& row) { s3.rows.push_back(row); });
  const MarchResult res2 = time_march(m2, d.input, {&r2, &d2}, options);
  const MarchResult res3 = time_march(m3, d.embedded, {&r3, &d3}, options);
  ASSERT_TRUE(res2.completed);
  ASSERT_TRUE(res3.completed);
  EXPECT_EQ(res2.node_solves, res3.node_solves);

  double pose = 0.0, momentum = 0.0, moved = 0.0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a) {
      pose = std::max(pose, rel(embed(r2.field()(j, a)).matrix(), r3.field()(j, a).matrix()));
      moved = std::max(moved, (r2.field()(j, a).r - r2.field()(0, a).r).norm());
      if (j == mesh.J()) continue;
      const Vec3 xi2 =
          mesh::convected<Se2Cayley>(r2.field()(j, a), r2.field()(j + 1, a), mesh.dt());
      const Vec6 xi3 =
          mesh::convected<lie::Se3Cayley>(r3.field()(j, a), r3.field()(j + 1, a), mesh.dt());
      const int col = std::min(a, mesh.A() - 1);
      momentum = std::max(momentum, rel(embed(dcel::time_momentum(m2, col, xi2)),
                                        dcel::time_momentum(m3, col, xi3)));
    }
  EXPECT_LT(pose, 1e-12);
  EXPECT_LT(momentum, 1e-11);
  EXPECT_GT(moved, 1e-2);  // the beam really moved

  // Energies and momentum maps of the whole fields (theory §7.1, §8).
  const std::vector<double> E2 = noether::time_energies(m2, r2.field());
  const std::vector<double> E3 = noether::time_energies(m3, r3.field());
  const noether::MomentumMaps<Se2Cayley> maps2(m2, r2.field());
  const noether::MomentumMaps<lie::Se3Cayley> maps3(m3, r3.field());
  double energy = 0.0, total = 0.0;
  for (int j = 0; j < mesh.J(); ++j) {
    energy = std::max(energy, rel(E2[j], E3[j]));
    total = std::max(total, rel(embed(noether::total_time_momentum(maps2, j)),
                                noether::total_time_momentum(maps3, j)));
  }
  EXPECT_LT(energy, 1e-12);
  EXPECT_LT(total, 1e-12);
  const noether::Rectangle R{1, mesh.J() - 1, clamped ? 1 : 0, mesh.A()};
  EXPECT_LT(noether::noether_balance(maps2, R).relative, 1e-12);

  // The streamed series: energy, momentum, balance, work, reactions row by row.
  ASSERT_EQ(s2.rows.size(), s3.rows.size());
  ASSERT_EQ(static_cast<int>(s2.rows.size()), mesh.J());
  double series = 0.0;
  for (size_t k = 0; k < s2.rows.size(); ++k) {
    const auto& a = s2.rows[k];
    const auto& b = s3.rows[k];
    EXPECT_EQ(a.index, b.index);
    series = std::max({series, rel(a.energy, b.energy), rel(embed(a.momentum), b.momentum),
                       rel(a.work, b.work), rel(a.energy_balance, b.energy_balance),
                       rel(embed(a.reaction_first), b.reaction_first)});
    EXPECT_NEAR(a.energy, E2[k], 1e-12 * (1.0 + std::abs(E2[k])));
    EXPECT_LT(a.balance, 1e-12);
  }
  EXPECT_LT(series, 1e-11);
  if (clamped) {
    EXPECT_GT(s2.rows.back().reaction_first.norm(), 1.0);  // the clamp holds the beam
  }
}

TEST(PlanarMarch, FreeFlightAgreesWithTheSe3BeamInThePlane) {
  for (NodeKernel k : {NodeKernel::reference, NodeKernel::per_node, NodeKernel::automatic}) {
    SCOPED_TRACE(static_cast<int>(k));
    expect_same_march(Vec2::Zero(), false, k);
  }
}

TEST(PlanarMarch, ClampedUnderGravityAgreesWithTheSe3BeamInThePlane) {
  for (NodeKernel k : {NodeKernel::reference, NodeKernel::per_node, NodeKernel::automatic}) {
    SCOPED_TRACE(static_cast<int>(k));
    expect_same_march(Vec2(1.5, -9.81), true, k);
  }
}

// A free flight without gravity keeps its momentum map P_j = ds sum_a Ad*_{g^{-1}} mu (theory
// (1.7.3), §7.2) to round-off and its energy to the scheme's accuracy (bounded oscillation).
TEST(PlanarMarch, FreeFlightKeepsItsMomentumMap) {
  const mesh::SpacetimeMesh mesh(1000, 6, 5e-4, 0.05);
  const model::Loads none;
  const model::PlanarBeamDensity planar(kSection, Vec2::Zero(), kCurvature);
  const dcel::DiscreteModel<Se2Cayley> model(planar, none, mesh);
  const Planar d = planar_data(mesh, false);
  std::vector<noether::SlabDiagnostics<Se2Cayley>::Record> rows;
  noether::SlabDiagnostics<Se2Cayley> diagnostics(model, noether::SlabAxis::row,
                                                  time_boundary(d.input),
                                                  [&](const auto& row) { rows.push_back(row); });
  const MarchResult r = time_march(model, d.input, {&diagnostics});
  ASSERT_TRUE(r.completed);
  ASSERT_EQ(static_cast<int>(rows.size()), mesh.J());
  const Vec3 P0 = rows.front().momentum;
  EXPECT_GT(P0.norm(), 1e-3);
  double drift = 0.0, energy = 0.0;
  for (const auto& row : rows) {
    drift = std::max(drift, (row.momentum - P0).cwiseAbs().maxCoeff());
    energy = std::max(energy, std::abs(row.energy - rows.front().energy));
  }
  EXPECT_LT(drift, 1e-11 * (1.0 + P0.cwiseAbs().maxCoeff()));  // 1000 rows of round-off
  EXPECT_LT(energy, 1e-2 * rows.front().energy);               // bounded, O(dt^2): 0.23% here
  EXPECT_GT(energy, 0.0);                                      // a real march, not a frozen one
}

// The embedding the writers use (march/planar_embedding.hpp: the x-y plane, rotations about z):
// a planar march handed through PlanarEmbedding to an SE(3) recorder gives the field of the SE(3)
// beam marched on the embedded data, and its momentum series is the SE(3) one embedded.
TEST(PlanarMarch, EmbeddedInTheXyPlaneIsTheSe3March) {
  const mesh::SpacetimeMesh mesh(60, 6, 5e-4, 0.05);
  const model::Loads none;
  const Vec2 gravity(1.5, -9.81);
  const model::PlanarBeamDensity planar(kSection, gravity, kCurvature);
  const model::BeamDensity beam(test::embedded_law(), Vec3(gravity(0), gravity(1), 0.0),
                                embed_planar_body(Vec3(kCurvature, 1.0, 0.0)));
  const dcel::DiscreteModel<Se2Cayley> m2(planar, none, mesh);
  const dcel::DiscreteModel<lie::Se3Cayley> m3(beam, none, mesh);
  const Planar d = planar_data(mesh, true);
  TimeMarchInput embedded;
  for (size_t a = 0; a < d.input.row0.size(); ++a) {
    embedded.row0.push_back(embed_planar(d.input.row0[a]));
    embedded.velocities.push_back(embed_planar_body(d.input.velocities[a]));
  }
  embedded.left = SideSpec::clamped(embedded.row0[0]);

  FieldRecorder via_embedding(mesh, true), direct(mesh, true);
  PlanarEmbedding embedding({&via_embedding});
  Series<Se2Cayley> s2;
  Series<lie::Se3Cayley> s3;
  noether::SlabDiagnostics<Se2Cayley> d2(m2, noether::SlabAxis::row, time_boundary(d.input),
                                         [&](const auto& row) { s2.rows.push_back(row); });
  noether::SlabDiagnostics<lie::Se3Cayley> d3(m3, noether::SlabAxis::row, time_boundary(embedded),
                                              [&](const auto& row) { s3.rows.push_back(row); });
  ASSERT_TRUE(time_march(m2, d.input, {&embedding, &d2}).completed);
  ASSERT_TRUE(time_march(m3, embedded, {&direct, &d3}).completed);
  double pose = 0.0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a)
      pose =
          std::max(pose, rel(via_embedding.field()(j, a).matrix(), direct.field()(j, a).matrix()));
  EXPECT_LT(pose, 1e-12);
  ASSERT_EQ(s2.rows.size(), s3.rows.size());
  double series = 0.0;
  for (size_t k = 0; k < s2.rows.size(); ++k)
    series =
        std::max({series, rel(embed_planar_spatial(s2.rows[k].momentum), s3.rows[k].momentum),
                  rel(embed_planar_spatial(s2.rows[k].reaction_first), s3.rows[k].reaction_first),
                  rel(s2.rows[k].energy, s3.rows[k].energy)});
  EXPECT_LT(series, 1e-11);
  // The embedded poses lie in the plane z = 0 with d2 along its normal.
  EXPECT_EQ(via_embedding.field()(mesh.J(), mesh.A()).r(2), 0.0);
  EXPECT_EQ(via_embedding.field()(mesh.J(), mesh.A()).R.col(1), Vec3::UnitZ());
}

// A planar march's state stored in 3D (io/checkpoint.hpp): embed_planar and project_planar only
// move entries, so the round trip gives back every bit of arbitrary values, and a state with an
// entry off the plane is not in_plane (a planar run refuses to continue from it).
TEST(PlanarMarch, ItsStateRoundTripsThroughSe3BitForBit) {
  const auto same_bits = [](const auto& x, const auto& y) {
    return sizeof x == sizeof y && std::memcmp(&x, &y, sizeof x) == 0;
  };
  test::Random random(17);
  MarchState<SE2, Vec3> s;
  s.k = 9;
  for (int a = 0; a <= 4; ++a) {
    for (auto* row : {&s.prev, &s.cur}) {
      SE2 g;  // any entries: the maps only move them
      g.R << random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0),
          random.uniform(-1.0, 1.0);
      g.r = Vec2(random.uniform(-1e3, 1e3), random.uniform(-1e-3, 1e-3));
      row->push_back(g);
    }
    for (auto* v : {&s.y, &s.back1, &s.back2}) v->push_back(random.vec3(1e2));
  }
  const MarchState<lie::SE3, Vec6> e = embed_planar(s);
  EXPECT_EQ(e.back1[2], embed_planar_body(s.back1[2]));
  EXPECT_TRUE(in_plane(e));
  const MarchState<SE2, Vec3> back = project_planar(e);
  EXPECT_EQ(back.k, 9);
  for (int a = 0; a <= 4; ++a) {
    EXPECT_TRUE(same_bits(back.prev[a].R, s.prev[a].R) && same_bits(back.prev[a].r, s.prev[a].r));
    EXPECT_TRUE(same_bits(back.cur[a].R, s.cur[a].R) && same_bits(back.cur[a].r, s.cur[a].r));
    EXPECT_TRUE(same_bits(back.y[a], s.y[a]));
    EXPECT_TRUE(same_bits(back.back1[a], s.back1[a]));
    EXPECT_TRUE(same_bits(back.back2[a], s.back2[a]));
  }
  // One entry off the plane anywhere: not a planar state.
  const auto off = [&](auto change) {
    MarchState<lie::SE3, Vec6> bad = e;
    change(bad);
    return !in_plane(bad);
  };
  EXPECT_TRUE(off([](auto& b) { b.prev[1].R(2, 2) = 1e-300; }));
  EXPECT_TRUE(off([](auto& b) { b.cur[4].r(2) = -1e-9; }));
  EXPECT_TRUE(off([](auto& b) { b.y[0](0) = 0.5; }));
  EXPECT_TRUE(off([](auto& b) { b.back1[3](2) = 1.0; }));
  EXPECT_TRUE(off([](auto& b) { b.back2[2](4) = -2.0; }));
}

// A half turn between neighbours of the initial row is refused on SE(2) as on SE(3) (no Cayley
// coordinates, theory §2.1).
TEST(PlanarMarch, RefusesAHalfTurnBetweenNeighbours) {
  const mesh::SpacetimeMesh mesh(4, 3, 1e-3, 0.1);
  const model::Loads none;
  const model::PlanarBeamDensity planar(kSection);
  const dcel::DiscreteModel<Se2Cayley> model(planar, none, mesh);
  Planar d = planar_data(mesh, false);
  d.input.row0[1].R = Mat2::Identity();  // nodes 1 and 2 turned by exactly pi
  d.input.row0[2].R = -Mat2::Identity();
  BasicFieldRecorder<SE2> r(mesh, true);
  EXPECT_THROW(time_march(model, d.input, {&r}), Error);
}

}  // namespace
}  // namespace field::march

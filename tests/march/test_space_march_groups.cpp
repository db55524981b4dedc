// The space march of theory §6.2 on the planar beam's SE(2) (theory §1.7) and the cable's R^3
// (theory §1.8), march::space_march<G> as the time march is generic: a time march's tip column
// with its strain (SE(2)) or its columns 0 and 1 (R^3), with its first and last rows prescribed
// (the round trip of theory §11.5), rebuild the whole field to round-off; on SE(2) the space march
// equals the SE(3) space march of the beam in the plane; the streamed column balance of
// noether::SlabDiagnostics (the transposed balance (8.9a), theory §8.1) closes to round-off and
// Q^a is the whole field's; bad input is refused naming the column and the row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "libfield/lie/rn.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/model/cable_density.hpp"
#include "libfield/model/planar_beam_density.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/planar.hpp"

namespace field::march {
namespace {

using lie::SE2;
using lie::Se2Cayley;
using R3 = lie::Rn<3>;

// The largest entry of the difference of two node values.
double distance(const SE2& a, const SE2& b) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.r - b.r).cwiseAbs().maxCoeff());
}
double distance(const Vec3& a, const Vec3& b) {
  return (a - b).cwiseAbs().maxCoeff();
}
template <class E>
double field_distance(const mesh::BasicField<E>& a, const mesh::BasicField<E>& b,
                      const mesh::SpacetimeMesh& mesh) {
  double d = 0.0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int i = 0; i <= mesh.A(); ++i) d = std::max(d, distance(a(j, i), b(j, i)));
  return d;
}

// The space march of `in` on `model`, recorded, with the streamed column diagnostics.
template <class G>
struct SpaceRun {
  MarchResult result;
  mesh::FieldOf<G> field;
  std::vector<typename noether::SlabDiagnostics<G>::Record> columns;
};
template <class G>
SpaceRun<G> run_space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInputOf<G>& in) {
  BasicFieldRecorder<lie::ElementOf<G>> recorder(model.mesh(), false);
  SpaceRun<G> run{{}, mesh::FieldOf<G>(model.mesh()), {}};
  noether::SlabDiagnostics<G> diagnostics(model, noether::SlabAxis::column, space_boundary(in),
                                          [&](const auto& d) { run.columns.push_back(d); });
  run.result = space_march(model, in, {&recorder, &diagnostics});
  run.field = recorder.field();
  return run;
}

// The column balance of every equation column a = 1..A-1 closes to round-off (theory §7.2, the
// prescribed rows' reactions (8.9) as its fluxes), the streamed Q^a is the whole field's (7.9),
// and the reactions are there.
template <class G>
void expect_column_balance(const dcel::DiscreteModel<G>& model, const SpaceRun<G>& run,
                           const char* name) {
  const int A = model.mesh().A();
  ASSERT_EQ(static_cast<int>(run.columns.size()), A);
  const noether::MomentumMaps<G> maps(model, run.field);
  double balance = 0.0, reaction = 0.0;
  for (const auto& d : run.columns) {
    const lie::AlgebraOf<G> Q = noether::total_space_momentum(maps, d.index);
    EXPECT_LT((d.momentum - Q).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + Q.cwiseAbs().maxCoeff()))
        << "column " << d.index;
    reaction = std::max(reaction, d.reaction_first.cwiseAbs().maxCoeff());
    if (d.index == 0) continue;
    EXPECT_GT(d.newton.solved_nodes, 0) << "column " << d.index;
    balance = std::max(balance, d.balance);
  }
  EXPECT_LT(balance, 1e-12);
  EXPECT_GT(reaction, 1e-3);  // the prescribed row 0 hands in momentum: the balance has fluxes
  std::printf("%s: max column balance %.2e\n", name, balance);
}

// A planar beam time-marched from a moving arc (free ends, gravity in the plane): its tip column,
// tip strain and first and last rows rebuild the whole field on SE(2); the SE(3) space march of
// the beam in the plane, from the same data embedded, gives the same field. The space march
// amplifies round-off where ds/(c dt) > 1 for a wave speed c (theory §6.2, §10 vi): with the
// section of test::kPlanarSection (c = 27, 16, 8.7 m/s, c_E dt/ds = 0.27) by 10 to 360 per column;
// here the three speeds are equal, c dt/ds = 0.9, and it grows from 1e-15 to 5.0e-14 over the 8
// columns.
TEST(SpaceMarchGroups, PlanarBeamRebuildsItsTimeMarchAndIsTheSe3SpaceMarchInThePlane) {
  const model::PlanarSection section{2.0e3, 2.0e3, 2.96, 2.7, 4.0e-3};
  const double c = std::sqrt(section.EA / section.rhoA), ds = 0.05;
  const mesh::SpacetimeMesh mesh(60, 8, 0.9 * ds / c, ds);
  const model::Loads none;
  const lie::Vec2 gravity(1.5, -9.81);
  const model::PlanarBeamDensity planar(section, gravity, test::kPlanarCurvature);
  const model::BeamDensity beam = test::embedded_beam(gravity, section);
  const dcel::DiscreteModel<Se2Cayley> m2(planar, none, mesh);
  const dcel::DiscreteModel<lie::Se3Cayley> m3(beam, none, mesh);

  BasicFieldRecorder<SE2> time_recorder(mesh, true);
  ASSERT_TRUE(time_march(m2, test::planar_data(mesh, false).input, {&time_recorder}).completed);
  const mesh::FieldOf<Se2Cayley>& truth = time_recorder.field();

  // The tip column and its strain eta_j^0 (theory §6.2), rows 0 and J prescribed.
  SpaceMarchInputOf<Se2Cayley> in = test::round_trip_input<Se2Cayley>(truth, mesh.J());
  for (int j = 0; j < mesh.J(); ++j)
    in.strain0.push_back(mesh::convected<Se2Cayley>(in.column0[j], in.column1[j], mesh.ds()));
  in.column1.clear();
  const SpaceRun<Se2Cayley> rebuilt = run_space_march(m2, in);
  ASSERT_TRUE(rebuilt.result.completed);
  const double error = field_distance(rebuilt.field, truth, mesh);
  double moved = 0.0;
  for (int a = 0; a <= mesh.A(); ++a)
    moved = std::max(moved, distance(truth(mesh.J(), a), truth(0, a)));
  std::printf("planar round trip: max node error %.2e (the beam moved %.2e)\n", error, moved);
  EXPECT_LT(error, 2e-13);  // measured 5.0e-14
  EXPECT_GT(moved, 1e-2);
  expect_column_balance(m2, rebuilt, "planar space march");

  // The same data in the plane of test::embed, on SE(3) (its default kernel: the lanes).
  SpaceMarchInput embedded;
  for (int j = 0; j <= mesh.J(); ++j) embedded.column0.push_back(test::embed(in.column0[j]));
  for (int j = 0; j < mesh.J(); ++j) embedded.strain0.push_back(test::embed(in.strain0[j]));
  embedded.first = SideSpec::prescribed([&](int a) { return test::embed(truth(0, a)); });
  embedded.last = SideSpec::prescribed([&](int a) { return test::embed(truth(mesh.J(), a)); });
  FieldRecorder se3(mesh, false);
  ASSERT_TRUE(space_march(m3, embedded, {&se3}).completed);
  double planar_vs_se3 = 0.0;
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a)
      planar_vs_se3 = std::max(
          planar_vs_se3, (test::embed(rebuilt.field(j, a)).matrix() - se3.field()(j, a).matrix())
                             .cwiseAbs()
                             .maxCoeff());
  std::printf("planar space march against the SE(3) one in the plane: %.2e\n", planar_vs_se3);
  EXPECT_LT(planar_vs_se3, 1e-13);  // measured 2.4e-14
}

// A cable of unstretched length 1 m (EA = 100 N, rho A = 1 kg/m, A = 6), pinned at the origin,
// its far end pinned 1.6 m away (60 % stretch, tension 60 N) or free, under gravity, set swinging
// by initial velocities; c_E dt/ds = 0.95. Its time-marched field is `truth`.
struct SwingingCable {
  static constexpr int A = 6, J = 60;
  static constexpr double ds = 1.0 / A;
  model::CableDensity cable;
  mesh::SpacetimeMesh mesh;
  model::Loads none;
  dcel::DiscreteModel<R3> model;
  mesh::FieldOf<R3> truth;

  static model::CableDensity::Options options() {
    model::CableDensity::Options o;
    o.gravity = Vec3(0.0, 0.0, -9.81);
    return o;
  }
  explicit SwingingCable(bool far_pin)
      : cable({100.0, 1.0}, options()),
        mesh(J, A, 0.95 * ds / cable.wave_speeds().c_E, ds),
        model(cable, none, mesh),
        truth(mesh) {
    const double span = 1.6;
    TimeMarchInputOf<R3> start;
    for (int a = 0; a <= A; ++a) {
      const double x = static_cast<double>(a) / A;
      start.row0.push_back(Vec3(span * x, 0.0, -0.1 * std::sin(M_PI * x)));
      start.velocities.push_back(std::sin(M_PI * x) * Vec3(0.3, 1.5, -0.8));
    }
    start.left = BasicSideSpec<Vec3>::clamped(start.row0[0]);
    if (far_pin) start.right = BasicSideSpec<Vec3>::clamped(start.row0[A]);
    BasicFieldRecorder<Vec3> recorder(mesh, true);
    EXPECT_TRUE(time_march(model, start, {&recorder}).completed);
    truth = recorder.field();
  }
};

// The swinging cable pinned at both ends (no node at zero tension, where the space equation of
// the string has no transverse stiffness): its columns 0 (the pin) and 1 with its first and last
// rows rebuild the whole field on R^3, the far pin included. At c_E dt/ds = 0.95 the transverse
// waves (c_G = 0.61 c_E at this tension) give ds/(c_G dt) = 1.7: round-off grows by about 8 per
// column, to 1.2e-13 at the far pin.
TEST(SpaceMarchGroups, CableRebuildsItsTimeMarch) {
  const SwingingCable c(true);
  const int A = c.A, J = c.J;
  const SpaceMarchInputOf<R3> in = test::round_trip_input<R3>(c.truth, J);
  const SpaceRun<R3> rebuilt = run_space_march(c.model, in);
  ASSERT_TRUE(rebuilt.result.completed);
  const double error = field_distance(rebuilt.field, c.truth, c.mesh);
  double moved = 0.0;
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) moved = std::max(moved, distance(c.truth(j, a), c.truth(0, a)));
  std::printf("cable round trip: max node error %.2e (the cable moved %.2e m)\n", error, moved);
  EXPECT_LT(error, 5e-13);  // measured 1.2e-13
  EXPECT_GT(moved, 1e-2);
  expect_column_balance(c.model, rebuilt, "cable space march");
}

// The guard of theory §6.2 on the cable (its taut branch, theory §1.8). The swinging cable with
// its far end free swings slack: its segments are compressed on 15 to 24 of the 61 rows (stretch
// down to 0.44). Without the guard the space march completed from its columns 0 and 1 and
// returned a field 0.32 m wrong at column 2 and 5.0 m at column 6 (the taut root of n(eta) = m:
// the compressed segments reversed); now it is refused before the first column, naming the
// segment, the row and the stretch. A straight vertical cable at rest, pinned at the top and
// pushed up at the bottom (static: the tension falls by w ds per segment, N^a = (1.5 - a) w ds,
// exact on the grid), is taut at its tip and compressed from segment 2 on: the march hands on
// columns 0..2 and stops at segment 2.
TEST(SpaceMarchGroups, CableMarchRefusesACompressedCable) {
  const SwingingCable c(false);
  const int J = c.J;
  const double ds = c.ds;
  const dcel::DiscreteModel<R3>& model = c.model;
  const mesh::FieldOf<R3>& truth = c.truth;
  int compressed = 0;
  for (int j = 0; j <= J; ++j) compressed += (truth(j, 1) - truth(j, 0)).norm() < ds;
  EXPECT_GT(compressed, 10);
  struct Columns final : BasicSlabObserver<Vec3> {
    std::vector<std::vector<Vec3>> columns;
    void slab(int, const std::vector<Vec3>& c, const SlabStats&) override { columns.push_back(c); }
  } refused_columns, columns;
  const std::string refused = test::error_message(
      [&] { space_march(model, test::round_trip_input<R3>(truth, J), {&refused_columns}); });
  EXPECT_NE(refused.find("space march: the strain of segment a = 0 (between columns 0 and 1), "
                         "row j = "),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("is not above 1: the cable is compressed or slack here"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("rebuilds a taut cable only (theory §6.2)"), std::string::npos);
  EXPECT_TRUE(refused_columns.columns.empty());  // nothing handed on

  // The vertical cable at rest: the tip data of its top, rows 0 and J free (zero momentum).
  const double w = 9.81, h = ds;
  SpaceMarchInputOf<R3> in;
  in.column0.assign(J + 1, Vec3::Zero());
  const Vec3 down = -Vec3::UnitZ();
  in.strain0.assign(J, (1.0 + 1.5 * w * h / 100.0) * down);
  const std::string stopped = test::error_message([&] { space_march(model, in, {&columns}); });
  EXPECT_NE(stopped.find("space march: the strain of segment a = 2 (between columns 2 and 3), "
                         "row j = 0 (t = 0 s): the stretch |eta| = 0.99"),
            std::string::npos)
      << stopped;
  ASSERT_EQ(columns.columns.size(), 3u);  // columns 0, 1, 2: the static field
  double error = 0.0;
  for (int a = 0; a <= 2; ++a)
    for (int j = 0; j <= J; ++j) {
      double z = 0.0;  // r^a = sum of ds (1 + N^b/EA) down over the segments b < a
      for (int b = 0; b < a; ++b) z -= h * (1.0 + (1.5 - b) * w * h / 100.0);
      error = std::max(error, (columns.columns[a][j] - Vec3(0.0, 0.0, z)).cwiseAbs().maxCoeff());
    }
  EXPECT_LT(error, 1e-14);
}

// Bad input on the new groups: the error names the column and the row (check_space_march).
TEST(SpaceMarchGroups, BadInputNamesTheColumnAndTheRow) {
  const mesh::SpacetimeMesh mesh(6, 3, 1e-3, 0.05);
  const model::Loads none;
  const model::PlanarBeamDensity planar(test::kPlanarSection);
  const dcel::DiscreteModel<Se2Cayley> m2(planar, none, mesh);
  SpaceMarchInputOf<Se2Cayley> in2;
  in2.column0.assign(mesh.J() + 1, SE2());
  in2.column1.assign(mesh.J() + 1, Se2Cayley::tau(Vec3(0.0, mesh.ds(), 0.0)));
  in2.column1[2].r(1) = NAN;
  BasicFieldRecorder<SE2> r2(mesh, false);
  EXPECT_EQ(test::error_message([&] { space_march(m2, in2, {&r2}); }),
            "space march: the initial column 1: node j = 2 has a non-finite pose (inf or NaN)");
  in2.column1[2].r(1) = 0.0;
  for (SE2& g : in2.column1) g.R = -lie::Mat2::Identity();  // turned by pi from column 0
  EXPECT_NE(test::error_message([&] {
              space_march(m2, in2, {&r2});
            }).find("space march: row j = 0 turns by a half turn between columns 0 and 1"),
            std::string::npos);

  const model::CableDensity cable({100.0, 1.0});
  const dcel::DiscreteModel<R3> m3(cable, none, mesh);
  SpaceMarchInputOf<R3> in3;
  in3.column0.assign(mesh.J() + 1, Vec3::Zero());
  in3.strain0.assign(mesh.J(), Vec3(0.0, 0.0, 1.1));
  in3.strain0[4](0) = INFINITY;
  BasicFieldRecorder<Vec3> r3(mesh, false);
  EXPECT_NE(test::error_message([&] {
              space_march(m3, in3, {&r3});
            }).find("space march: the tip strain of row j = 4 is not finite"),
            std::string::npos);
}

}  // namespace
}  // namespace field::march

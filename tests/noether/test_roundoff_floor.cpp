// The round-off floors of `field check` (dcel::residual_floors, noether::BalanceFloor;
// docs/theory.md section 7): fields that the marches produced correctly pass where round-off
// exceeds the relative tolerances of theory §10 ii, iii (a free flight 1 km from the origin,
// 60 000 steps drifting away, a space march with A = 100 and ds = 0.01), and a node moved by
// 1e-6 ds still fails, in a time and in a space march.
#include <gtest/gtest.h>

#include <algorithm>

#include "libfield/dcel/residual.hpp"
#include "libfield/noether/balance.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

constexpr double kResidualTolerance = 1e-11;  // field check's defaults, theory §10 ii, iii
constexpr double kNoetherTolerance = 1e-12;

struct Verdict {
  dcel::ResidualReport residual;
  double noether_ratio = 0.0;  // max |Res(R)| / allowed(R) over the rectangles
  Rectangle worst;
};

// What `field check` does with a field: the poses through field.csv (17 digits read back the
// same doubles; the rotation through its normalised quaternion), the DCEL residual against
// max(tolerance max scale, floor_n) and the balance on every row and column of the equation
// nodes E and on the rectangles `extra`.
template <class G>
Verdict check(const dcel::DiscreteModel<G>& model, mesh::Field field,
              const mesh::Boundary& boundary, const Rectangle& E,
              const std::vector<Rectangle>& extra = {}) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  for (int j = 0; j <= mesh.J(); ++j)
    for (int a = 0; a <= mesh.A(); ++a)
      field(j, a) = lie::SE3::from_quat(field(j, a).quat().normalized(), field(j, a).r);
  Verdict v;
  const std::vector<double> floors = dcel::residual_floors(model, field);
  v.residual = dcel::residual_report(model, field, boundary, kResidualTolerance, floors);
  const MomentumMaps maps(model, field);
  const BalanceFloor floor(field, floors);
  const double scale = global_scale(maps);
  std::vector<Rectangle> rectangles = extra;
  for (int j = E.j1; j <= E.j2; ++j) rectangles.push_back({j, j, E.a1, E.a2});
  for (int a = E.a1; a <= E.a2; ++a) rectangles.push_back({E.j1, E.j2, a, a});
  for (const Rectangle& R : rectangles) {
    const BalanceResult b = noether_balance(maps, R, scale);
    const double q =
        b.residual.cwiseAbs().maxCoeff() / floor.allowed(R, b, scale, kNoetherTolerance);
    if (q > v.noether_ratio) v.noether_ratio = q, v.worst = R;
  }
  return v;
}

std::string where(const Verdict& v) {
  return "node (" + std::to_string(v.residual.worst_ratio.j) + ", " +
         std::to_string(v.residual.worst_ratio.a) +
         "), rectangle j = " + std::to_string(v.worst.j1) + ".." + std::to_string(v.worst.j2) +
         ", a = " + std::to_string(v.worst.a1) + ".." + std::to_string(v.worst.a2);
}

class RoundoffFloor : public ::testing::Test {
 protected:
  using G = lie::Se3Cayley;
  const model::Loads loads_{};
};

// free_flight moved by `origin`, J steps: equation nodes rows 1..J-1, columns 0..A-1.
test::FreeFlight free_flight(int J) {
  test::FreeFlight ff;
  ff.J = J;
  return ff;
}

struct FreeFlightRun {
  test::FreeFlight ff;
  model::BeamDensity beam = test::soft_beam();
  mesh::SpacetimeMesh mesh;
  march::TimeMarchInput in;
  FreeFlightRun(int J, const Vec3& origin) : ff(free_flight(J)), mesh(ff.mesh()), in(ff.input()) {
    for (lie::SE3& g : in.row0) g.r += origin;
  }
  Rectangle equations() const { return {1, ff.J - 1, 0, ff.A - 1}; }
};

TEST_F(RoundoffFloor, FreeFlightOneKilometreFromTheOriginPassesAndATamperedNodeFails) {
  const FreeFlightRun run(400, Vec3(1000.0, 0.0, 0.0));
  const dcel::DiscreteModel model(run.beam, loads_, G{}, run.mesh);
  const test::RecordedRun r = test::record_time_march(model, run.in);
  ASSERT_TRUE(r.result.completed);
  const mesh::Boundary b = march::time_boundary(run.in);
  const Verdict good = check(model, r.field, b, run.equations(), {{150, 250, 2, 8}});
  // Positions of 1e3 m lose 1e3 eps absolutely, divided by dt in xi: round-off can reach beyond
  // the theory's relative tolerance (measured 5.3e-11 > 1e-11: `field check` rejected this correct
  // field, issue 15); the floors, far above 1e-11 here, accept it.
  EXPECT_GT(good.residual.max_floor, 3 * kResidualTolerance);
  EXPECT_LE(good.residual.ratio, 0.5) << where(good);
  EXPECT_LE(good.noether_ratio, 0.5) << where(good);

  mesh::Field tampered = r.field;
  tampered(200, 5).r.x() += 1e-6 * run.mesh.ds();  // 1e-7 m on 1 km: 1e-10 relative
  const Verdict bad = check(model, tampered, b, run.equations(), {{150, 250, 2, 8}});
  EXPECT_GT(bad.residual.ratio, 100.0) << where(bad);
  EXPECT_EQ(bad.residual.worst_ratio.j, 200);
  EXPECT_EQ(bad.residual.worst_ratio.a, 5);
  EXPECT_GT(bad.noether_ratio, 1.0) << where(bad);
}

TEST_F(RoundoffFloor, FreeFlightOf60000StepsDriftingAwayPasses) {
#if defined(__SANITIZE_ADDRESS__)
  // A study of the numbers over 60 000 rows (2 s in Release, 26 s instrumented): the sanitizer
  // stage runs the same march and check in the shorter tests of this file.
  GTEST_SKIP() << "Release only: 60 000 rows";
#endif
  const FreeFlightRun run(60000, Vec3::Zero());
  const dcel::DiscreteModel model(run.beam, loads_, G{}, run.mesh);
  const test::RecordedRun r = test::record_time_march(model, run.in);
  ASSERT_TRUE(r.result.completed);
  ASSERT_GT(r.field(run.ff.J, 0).r.norm(), 100.0);  // the beam drifts 0.5 m/s for 300 s
  // Measured relative residual 1.3e-11 > 1e-11 (issue 15).
  const Verdict v = check(model, r.field, march::time_boundary(run.in), run.equations(),
                          {{1, run.ff.J - 1, 0, run.ff.A - 1}, {30000, 59000, 3, 6}});
  EXPECT_GT(v.residual.max_floor, 3 * kResidualTolerance);
  EXPECT_LE(v.residual.ratio, 0.5) << where(v);
  EXPECT_LE(v.noether_ratio, 0.5) << where(v);
}

TEST_F(RoundoffFloor, SpaceMarchWithA100AndDs001PassesAndATamperedNodeFails) {
  test::SpaceEvolution se;
  se.A = 100;
  se.ds = 0.01;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const dcel::DiscreteModel model(beam, loads_, G{}, se.mesh());
  const march::SpaceMarchInput in = se.input();
  const test::RecordedRun r = test::record_space_march(model, in);
  ASSERT_TRUE(r.result.completed);
  const mesh::Boundary b = march::space_boundary(in);
  const Rectangle E{0, se.J - 1, 1, se.A - 1};  // zero-momentum rows: rows 0..J-1, a >= 1
  const Verdict good = check(model, r.field, b, E, {{100, 200, 30, 90}});
  // The strain deviation eta - E6 is small and its round-off divided by ds = 0.01 meets the
  // large axial stiffness (theory §5): measured relative residual 1.6e-11 > 1e-11 (issue 15).
  EXPECT_GT(good.residual.max_floor, 3 * kResidualTolerance);
  EXPECT_LE(good.residual.ratio, 0.5) << where(good);
  EXPECT_LE(good.noether_ratio, 0.5) << where(good);

  mesh::Field tampered = r.field;
  tampered(150, 50).r.y() += 1e-6 * se.ds;
  const Verdict bad = check(model, tampered, b, E, {{100, 200, 30, 90}});
  EXPECT_GT(bad.residual.ratio, 100.0) << where(bad);
  EXPECT_EQ(bad.residual.worst_ratio.j, 150);
  EXPECT_EQ(bad.residual.worst_ratio.a, 50);
  EXPECT_GT(bad.noether_ratio, 1.0) << where(bad);
}

TEST_F(RoundoffFloor, FloorsGrowWithThePositionsAndTheConditioning) {
  // The same free flight at the origin and 1 km away: the floor of every node grows with |r|;
  // halving ds with the same positions raises the floors of the space terms (dt C d(eta), d(eta)
  // ~ |r| eps / ds).
  const FreeFlightRun near(20, Vec3::Zero()), far(20, Vec3(1000.0, 0.0, 0.0));
  const dcel::DiscreteModel model_near(near.beam, loads_, G{}, near.mesh);
  const dcel::DiscreteModel model_far(far.beam, loads_, G{}, far.mesh);
  const mesh::Field f_near = test::record_time_march(model_near, near.in).field;
  const mesh::Field f_far = test::record_time_march(model_far, far.in).field;
  const std::vector<double> at_origin = dcel::residual_floors(model_near, f_near);
  const std::vector<double> away = dcel::residual_floors(model_far, f_far);
  ASSERT_EQ(at_origin.size(), away.size());
  for (size_t n = 0; n + 1 < away.size(); ++n) {  // the last node (J, A) is unused: floor 0
    EXPECT_GT(at_origin[n], 0.0) << n;
    EXPECT_GT(away[n], 100.0 * at_origin[n]) << n;
  }
  EXPECT_EQ(at_origin.back(), 0.0);
  const mesh::SpacetimeMesh fine(near.mesh.J(), near.mesh.A(), near.mesh.dt(),
                                 0.5 * near.mesh.ds());
  const dcel::DiscreteModel model_fine(near.beam, loads_, G{}, fine);
  mesh::Field same(fine);
  for (int j = 0; j <= fine.J(); ++j)
    for (int a = 0; a <= fine.A(); ++a) same(j, a) = f_far(j, a);
  const std::vector<double> c = dcel::residual_floors(model_fine, same);
  const std::vector<double> d = dcel::residual_floors(model_far, f_far);
  double ratio = 0.0;
  for (size_t n = 0; n + 1 < c.size(); ++n) ratio = std::max(ratio, c[n] / d[n]);
  EXPECT_GT(ratio, 1.5);
}

TEST_F(RoundoffFloor, NonFiniteResidualNeverPasses) {
  // Positions whose difference overflows make G_n and its floor inf or NaN: never within tolerance.
  const FreeFlightRun run(20, Vec3::Zero());
  const dcel::DiscreteModel model(run.beam, loads_, G{}, run.mesh);
  mesh::Field field = test::record_time_march(model, run.in).field;
  field(10, 5).r.x() = 1.7e308;
  field(11, 5).r.x() = -1.7e308;
  const Verdict v = check(model, field, march::time_boundary(run.in), run.equations());
  EXPECT_FALSE(v.residual.ratio <= 1.0) << v.residual.ratio;
}

TEST_F(RoundoffFloor, BalanceFloorSumsTheSpatialNodeFloorsOfTheRectangle) {
  const mesh::SpacetimeMesh mesh(4, 5, 0.01, 0.1);
  mesh::Field field(mesh);
  std::vector<double> floors(static_cast<size_t>(mesh.node_count()));
  for (int j = 0; j <= 4; ++j)
    for (int a = 0; a <= 5; ++a) {
      field(j, a).r = Vec3(3.0 * j, 4.0 * a, 0.0);
      floors[static_cast<size_t>(j) * 6 + a] = 1.0 + j + 10.0 * a;
    }
  const BalanceFloor floor(field, floors);
  for (const Rectangle& R : {Rectangle{0, 4, 0, 5}, Rectangle{1, 3, 2, 4}, Rectangle{2, 2, 5, 5}}) {
    double sum = 0.0;
    for (int j = R.j1; j <= R.j2; ++j)
      for (int a = R.a1; a <= R.a2; ++a)
        sum +=
            std::sqrt(3.0) * (1.0 + field(j, a).r.norm()) * floors[static_cast<size_t>(j) * 6 + a];
    EXPECT_NEAR(floor(R), sum, 1e-12 * sum);
  }
}

}  // namespace
}  // namespace field::noether

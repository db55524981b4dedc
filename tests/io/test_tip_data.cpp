// Tip data (libfield/io/tip_data.hpp): the export of a time march read back onto the grid
// reproduces the tip and the second column; resampling off the grid; every error of a tip file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "libfield/io/csv_table.hpp"
#include "libfield/io/node_data.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

using test::contains;
using test::error_message;

double max_abs(const lie::SE3& a, const lie::SE3& b) {
  return std::max((a.R - b.R).cwiseAbs().maxCoeff(), (a.r - b.r).cwiseAbs().maxCoeff());
}

/// A time march of free flight (theory §11.1, J = 20) recorded and exported by TipCsvWriter.
struct ExportedRun {
  mesh::Field field;
  std::filesystem::path tip;
};

template <class G>
ExportedRun export_free_flight(const dcel::DiscreteModel<G>& model, const test::FreeFlight& ff,
                               const test::TempFolder& dir) {
  march::FieldRecorder recorder(model.mesh(), true);
  TipCsvWriter writer(dir / "tip.csv", model);
  EXPECT_TRUE(march::time_march(model, ff.input(), {&recorder, &writer}).completed);
  EXPECT_EQ(writer.rows_written(), ff.J + 1);
  EXPECT_TRUE(std::filesystem::exists(dir / "tip.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir / "tip.csv.part"));
  return {recorder.field(), dir / "tip.csv"};
}

template <class G>
class TipRoundTrip : public ::testing::Test {};
TYPED_TEST_SUITE(TipRoundTrip, test::Se3Groups, test::GroupNames);

TYPED_TEST(TipRoundTrip, ExportOfATimeMarchReadBackReproducesTipAndSecondColumn) {
  test::TempFolder dir;
  test::FreeFlight ff;
  ff.J = 20;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, ff.mesh());
  const ExportedRun run = export_free_flight(model, ff, dir);

  const TipOnGrid tip = read_tip(run.tip, ff.dt, ff.J);
  EXPECT_FALSE(tip.resampled);
  EXPECT_TRUE(contains(tip.note,
                       "21 samples on the grid t_j = j dt (dt = 0.005), "
                       "j = 0..20, used as they are"))
      << tip.note;
  ASSERT_EQ(tip.g0.size(), 21u);
  ASSERT_EQ(tip.eta0.size(), 20u);

  // The file holds the march's doubles exactly (17 digits): t, positions, quaternions.
  const CsvTable table = read_csv(run.tip, tip_columns());
  EXPECT_EQ(table.columns, tip_columns());
  double err_R = 0.0, err_col1 = 0.0;
  for (int j = 0; j <= ff.J; ++j) {
    const lie::SE3& g = run.field(j, 0);
    const Vec4 q = g.quat();
    const auto row = static_cast<std::size_t>(j);
    EXPECT_EQ(table.value(row, "t"), model.mesh().t(j));
    EXPECT_EQ(Vec4(table.value(row, "qw"), table.value(row, "qx"), table.value(row, "qy"),
                   table.value(row, "qz")),
              q);
    EXPECT_EQ(tip.g0[row].r, g.r) << j;                         // bitwise
    EXPECT_EQ(tip.g0[row].R, lie::rotation_from_quat(q)) << j;  // the file's quaternion, as is
    // The matrix went through a quaternion: equal to round-off only.
    err_R = std::max(err_R, (tip.g0[row].R - g.R).cwiseAbs().maxCoeff());
    if (j < ff.J)
      err_col1 = std::max(
          err_col1, max_abs(tip.g0[row] * TypeParam::tau(ff.ds * tip.eta0[row]), run.field(j, 1)));
  }
  std::cout << lie::retraction_name<TypeParam>() << ": |R_file - R_march| = " << err_R
            << ", |g0 tau(ds eta0) - g^1| = " << err_col1 << "\n";
  EXPECT_LT(err_R, 1e-15);
  EXPECT_LT(err_col1, 1e-14);
}

TEST(TipData, SimulatedTipFileFeedsTheSpaceMarch) {
  // simulate -> tip.csv -> reconstruct: the round trip of theory §11.5 (tests/march
  // RoundTrip.FirstColumnsReproduceTheTimeMarch) with column 1 rebuilt from the file's strain.
  test::TempFolder dir;
  test::FreeFlight ff;
  ff.A = 6;
  ff.ds = 1.0 / 6.0;
  ff.dt = 0.0075;
  ff.J = 40;  // T = 0.3 s: enough rows for the space march, fast under ASan
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const ExportedRun run = export_free_flight(model, ff, dir);
  const mesh::Field& truth = run.field;

  const TipOnGrid tip = read_tip(run.tip, ff.dt, ff.J);
  march::SpaceMarchInput in;
  in.column0 = tip.g0;
  in.strain0 = tip.eta0;
  in.first = march::SideSpec::prescribed([&truth](int a) { return truth(0, a); });
  in.last = march::SideSpec::prescribed([&truth, J = ff.J](int a) { return truth(J, a); });
  const test::RecordedRun r = test::record_space_march(model, in);
  ASSERT_TRUE(r.result.completed);
  std::vector<double> error(ff.A + 1, 0.0);
  for (int a = 0; a <= ff.A; ++a)
    for (int j = 0; j <= ff.J; ++j)
      error[a] = std::max(error[a], (r.field(j, a).r - truth(j, a).r).cwiseAbs().maxCoeff());
  std::printf(
      "simulate -> tip.csv -> space march: position errors columns 0..3: %.1e %.1e %.1e "
      "%.1e\n",
      error[0], error[1], error[2], error[3]);
  EXPECT_EQ(error[0], 0.0);
  EXPECT_LT(error[1], 1e-15);  // g0 tau(ds eta0): round-off of tau(tau^{-1})
  // The space march amplifies column-1 round-off by ~70 per column (theory §10 vi).
  EXPECT_LT(error[2], 1e-12);
  EXPECT_LT(error[3], 1e-10);
}

TEST(TipCsvWriter, RigidScrewMotionHasStraightStrainE6) {
  // Every row a straight unstressed beam (g^a = h_j (I, a ds e3)) moved rigidly by a screw
  // motion h_j = (rotation 0.7 t about n, translation 0.3 t n + r0): eta_j^0 = E6 for every j.
  test::TempFolder dir;
  const int J = 8, A = 4;
  const double dt = 0.05, ds = 0.25;
  const mesh::SpacetimeMesh mesh(J, A, dt, ds);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  Vec6 E6;
  E6 << 0, 0, 0, 0, 0, 1;
  const auto for_group = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    using G = decltype(group);
    const dcel::DiscreteModel model(beam, loads, G{}, mesh);
    const Vec3 n = Vec3(1, -2, 0.5).normalized();
    {
      TipCsvWriter writer(dir / "screw.csv", model);
      for (int j = 0; j <= J; ++j) {
        const double t = j * dt;
        const lie::SE3 h{lie::rotation_about(n, 0.7 * t), 0.3 * t * n + Vec3(1, 2, 3)};
        std::vector<lie::SE3> row;
        for (int a = 0; a <= A; ++a)
          row.push_back(h * lie::SE3{Mat3::Identity(), Vec3(0, 0, a * ds)});
        writer.slab(j, row, {});
      }
      writer.finish();
    }
    const TipOnGrid tip = read_tip(dir / "screw.csv", dt, J);
    double worst = 0.0;
    for (const Vec6& eta : tip.eta0) worst = std::max(worst, (eta - E6).cwiseAbs().maxCoeff());
    // Round-off of h^{-1} h on positions of size 4 divided by ds = 0.25: ~eps * 4 / 0.25 = 4e-15;
    // measured 1.8e-15.
    EXPECT_LT(worst, 1e-14) << lie::retraction_name<G>();
    // Omega is exactly 0 only up to the rounding of h^{-1} h; Gamma3 = 1 to round-off.
    EXPECT_NEAR(read_csv(dir / "screw.csv", {"Gamma3"}).value(J, "Gamma3"), 1.0, 1e-14);
  };
  for_group(lie::Se3Cayley{});
  for_group(lie::Se3Exp{});
}

TEST(TipCsvWriter, UnfinishedFileStaysPartAndUnwritableFolderIsAnIoError) {
  test::TempFolder dir;
  const mesh::SpacetimeMesh mesh(2, 2, 0.1, 0.1);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, mesh);
  {
    TipCsvWriter writer(dir / "tip.csv", model);
    writer.slab(0, std::vector<lie::SE3>(3), {});
    EXPECT_TRUE(std::filesystem::exists(dir / "tip.csv.part"));
  }  // no finish(): e.g. an exception unwound the march
  EXPECT_TRUE(std::filesystem::exists(dir / "tip.csv.part"));  // kept, visibly incomplete
  EXPECT_FALSE(std::filesystem::exists(dir / "tip.csv"));

  const auto missing = dir / "no-such-folder" / "tip.csv";
  try {
    TipCsvWriter writer(missing, model);
    ADD_FAILURE() << "expected field::IoError";
  } catch (const IoError& e) {
    EXPECT_TRUE(contains(e.what(), missing.string() + ".part")) << e.what();
    EXPECT_TRUE(contains(e.what(), "No such file or directory")) << e.what();
  }
}

// ---- tip files written by hand ----------------------------------------------------------------

/// Smooth tip motion and strain used for hand-written files.
lie::SE3 tip_pose(double t) {
  return lie::SE3{lie::rotation_about(Vec3(0, 0, 1), 0.8 * t) *
                      lie::rotation_about(Vec3(1, 0, 0), 0.4 * std::sin(2 * t)),
                  Vec3(0.1 * std::sin(t), 0.0, 0.05 * t * t)};
}
Vec6 tip_strain(double t) {
  Vec6 eta;
  eta << 0.0, 0.15 * std::sin(t), 0.1 * t, 0.0, 0.0, 1.0 + 0.01 * t;
  return eta;
}

std::string tip_row(double t) {
  const lie::SE3 g = tip_pose(t);
  const Vec4 q = g.quat();
  const Vec6 eta = tip_strain(t);
  char row[512];
  std::snprintf(row, sizeof row,
                "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                "%.17g\n",
                t, g.r(0), g.r(1), g.r(2), q(0), q(1), q(2), q(3), eta(0), eta(1), eta(2), eta(3),
                eta(4), eta(5));
  return row;
}

const char* kHeader = "t,x,y,z,qw,qx,qy,qz,Omega1,Omega2,Omega3,Gamma1,Gamma2,Gamma3\n";

TEST(ReadTip, SamplesOffTheGridAreResampledAndTheNoteSaysSo) {
  // 57 samples at uneven times over [0, 2.1]; grid dt = 0.01, J = 200.
  test::TempFolder dir;
  std::string text = kHeader;
  std::vector<double> times;
  for (int i = 0; i < 57; ++i) times.push_back(2.1 * std::pow(i / 56.0, 1.2));
  for (const double t : times) text += tip_row(t);
  const auto path = dir.write("tip.csv", text);
  const TipOnGrid tip = read_tip(path, 0.01, 200);
  EXPECT_TRUE(tip.resampled);
  EXPECT_EQ(tip.note,
            path.string() +
                ": 57 samples resampled on the grid t_j = j dt (dt = "
                "0.01), j = 0..200 (positions and strains linearly, rotations by slerp); 3 "
                "samples after the grid's end ignored");
  ASSERT_EQ(tip.g0.size(), 201u);
  ASSERT_EQ(tip.eta0.size(), 200u);
  // Values are those of the track; close to the smooth motion (sample spacing <= 0.045).
  const PoseTrack track = read_pose_track(path);
  double err_pose = 0.0, err_strain = 0.0;
  for (int j = 0; j <= 200; ++j) {
    EXPECT_EQ(tip.g0[j].r, track.pose_at(j * 0.01).r);
    EXPECT_EQ(tip.g0[j].R, track.pose_at(j * 0.01).R);
    err_pose = std::max(err_pose, max_abs(tip.g0[j], tip_pose(j * 0.01)));
    if (j < 200)
      err_strain = std::max(err_strain, (tip.eta0[j] - tip_strain(j * 0.01)).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(err_pose, 1e-3);  // h^2/8 max|g''| with h = 0.045: ~2.5e-4 x |g''| ~ 1
  EXPECT_LT(err_strain, 1e-3);
  EXPECT_EQ(tip.g0[0].r, tip_pose(0.0).r);  // t = 0 is a sample
}

TEST(ReadTip, DenserSamplesIncludingTheGridAreUsedAsTheyAre) {
  test::TempFolder dir;
  std::string text = kHeader;
  for (int i = 0; i <= 40; ++i) text += tip_row(0.05 * i);  // every half step of dt = 0.1
  const auto path = dir.write("tip.csv", text);
  const TipOnGrid tip = read_tip(path, 0.1, 20);
  EXPECT_FALSE(tip.resampled);
  EXPECT_TRUE(contains(tip.note, "41 samples on the grid")) << tip.note;
  EXPECT_TRUE(contains(tip.note, "(20 samples between grid times ignored)")) << tip.note;
  const PoseTrack track = read_pose_track(path);
  for (int j = 0; j <= 20; ++j) EXPECT_EQ(tip.g0[j].R, track.pose(2 * j).R);
}

TEST(ReadTip, GridOutsideTheDataNamesTheFirstGridTimeOutsideAndWhatToChange) {
  test::TempFolder dir;
  std::string text = kHeader;
  for (int i = 0; i <= 10; ++i) text += tip_row(0.1 * i);
  const auto path = dir.write("tip.csv", text);
  const std::string msg = error_message([&] { read_tip(path, 0.1, 12); });
  EXPECT_TRUE(contains(msg, path.string() + ": grid time t_11 = 1.1 is outside "
                                            "the data's time range [0, 1] (t of lines 2 and 12)"))
      << msg;
  EXPECT_TRUE(contains(msg, "change T (or J, dt)")) << msg;
  // Within 1e-9 of the end: t_10 = 10 * 0.1 = 1 (exactly here) is inside.
  EXPECT_NO_THROW(read_tip(path, 0.1, 10));
  std::string late = kHeader;
  for (int i = 1; i <= 10; ++i) late += tip_row(0.1 * i);
  const auto late_path = dir.write("late.csv", late);
  const std::string msg2 = error_message([&] { read_tip(late_path, 0.1, 5, 0.0); });
  EXPECT_TRUE(contains(msg2, late_path.string() +
                                 ": [tip] time_offset = 0 is outside the data's time range [0.1, "
                                 "1] (t of lines 2 and 11)"))
      << msg2;
  EXPECT_TRUE(contains(msg2, "remove it to start at the first sample")) << msg2;
  // By default the grid starts at the first sample (t = 0.1 on the sensor clock).
  const TipOnGrid from_first = read_tip(late_path, 0.1, 5);
  EXPECT_EQ(from_first.time_offset, 0.1);
  EXPECT_EQ(from_first.g0[0].r, read_pose_track(late_path).pose(0).r);
  EXPECT_TRUE(contains(from_first.note, "from sensor time 0.1")) << from_first.note;
}

TEST(ReadTip, TimeOffsetStartsTheGridOnTheSensorClockAndIgnoresEarlierSamples) {
  // Samples at t = 0.5 + 0.1 i, i = 0..30 (sensor clock); the grid's t = 0 at sensor time 1.0.
  test::TempFolder dir;
  std::string text = kHeader;
  for (int i = 0; i <= 30; ++i) text += tip_row(0.5 + 0.1 * i);
  const auto path = dir.write("tip.csv", text);
  const PoseTrack track = read_pose_track(path);
  const TipOnGrid tip = read_tip(path, 0.1, 20, 1.0);
  EXPECT_FALSE(tip.resampled);
  EXPECT_EQ(tip.time_offset, 1.0);
  EXPECT_EQ(tip.ignored_before, 5);
  for (int j = 0; j <= 20; ++j) EXPECT_EQ(tip.g0[j].r, track.pose(5 + j).r) << j;
  EXPECT_TRUE(contains(tip.note, "on the grid t_j = j dt from sensor time 1")) << tip.note;
  EXPECT_TRUE(contains(tip.note, "5 samples before the time offset 1 (lines 2 to 6) ignored"))
      << tip.note;
  EXPECT_TRUE(contains(tip.note, "5 samples after the grid's end ignored")) << tip.note;
  // Off the grid: resampled at 1.05 + j dt.
  const TipOnGrid shifted = read_tip(path, 0.1, 20, 1.05);
  EXPECT_TRUE(shifted.resampled);
  EXPECT_EQ(shifted.ignored_before, 6);
  EXPECT_LT(max_abs(shifted.g0[3], track.pose_at(1.35)), 1e-15);
  // A grid that runs past the last sample (t = 3.5) is an error naming the first grid time out.
  const std::string msg = error_message([&] { read_tip(path, 0.1, 26, 1.0); });
  EXPECT_TRUE(contains(msg, path.string() + ": grid time t_26 = 2.6 is outside the "
                                            "data's time range [0.5, 3.5] (t of lines 2 and 32)"))
      << msg;
  EXPECT_TRUE(contains(msg, "needs [1, 3.6] on the sensor clock (time offset 1)")) << msg;
  EXPECT_TRUE(contains(msg, "or [tip] time_offset")) << msg;
  // A time offset after the last sample names the key.
  const std::string late = error_message([&] { read_tip(path, 0.1, 2, 4.0); });
  EXPECT_TRUE(contains(late, "[tip] time_offset = 4 is outside the data's time range")) << late;
}

/// A valid tip file of 5 rows (lines 2..6) whose line 4 is replaced by `line4`.
std::filesystem::path tip_file_with(const test::TempFolder& dir, const std::string& line4) {
  std::string text = kHeader;
  text += tip_row(0.0);
  text += tip_row(0.1);
  text += line4 + "\n";
  text += tip_row(0.3);
  text += tip_row(0.4);
  return dir.write("tip.csv", text);
}

TEST(ReadTip, EveryRowErrorNamesFileLineAndValue) {
  test::TempFolder dir;
  struct Case {
    std::string line4;
    std::string expected;
  };
  const std::string good = tip_row(0.2).substr(0, tip_row(0.2).size() - 1);
  const std::string after_t = good.substr(good.find(','));
  const std::vector<Case> cases = {
      {"0.1" + after_t,
       ":4: column 't': 0.1 does not increase (previous row, "
       "line 3: t = 0.1)"},
      {"0.2,0,0,0,1.01,0,0,0,0,0,0,0,0,1",
       ":4: quaternion (qw, qx, qy, qz) = (1.01, 0, 0, 0) has norm 1.01, not 1 within 1e-06"},
      {"0.2,0,0,0,1,0,0,0,0,0,0,0,0", ":4: 13 fields, but the header (line 1) has 14 columns"},
      {"0.2,0,0,0,1,0,0,0,nan,0,0,0,0,1", ":4: column 'Omega1': 'nan' is not a finite number"},
      {"0.2,0,0,0,1,0,0,0,0,0,0,0,0,one", ":4: column 'Gamma3': 'one' is not a number"},
  };
  for (const Case& c : cases) {
    const auto path = tip_file_with(dir, c.line4);
    const std::string msg = error_message([&] { read_tip(path, 0.1, 4); });
    EXPECT_TRUE(contains(msg, path.string() + c.expected)) << msg;
  }
}

TEST(ReadTip, QuaternionWithinToleranceIsRenormalised) {
  test::TempFolder dir;
  const double k = 1.0 + 5e-7;
  char line[128];
  std::snprintf(line, sizeof line, "0.2,0,0,0,%.17g,0,0,0,0,0,0,0,0,1", k);
  const TipOnGrid tip = read_tip(tip_file_with(dir, line), 0.1, 4);
  EXPECT_EQ(tip.g0[2].R, Mat3::Identity());
}

TEST(ReadTip, MissingColumnNamesTheColumnAndTheColumnsPresent) {
  test::TempFolder dir;
  const auto path = dir.write("tip.csv",
                              "t,x,y,z,qw,qx,qy,qz,Omega1,Omega2,Omega3,Gamma1,Gamma2\n"
                              "0,0,0,0,1,0,0,0,0,0,0,0,0\n");
  const std::string msg = error_message([&] { read_tip(path, 0.1, 4); });
  EXPECT_TRUE(contains(msg, path.string() + ":1: no column 'Gamma3' in the header")) << msg;
  EXPECT_TRUE(contains(msg, "columns present: t, x, y, z, qw")) << msg;
}

TEST(ReadTip, ColumnsInAnyOrderWithExtraColumns) {
  test::TempFolder dir;
  // Reverse the column order and add a "note" column.
  std::string text = "note,Gamma3,Gamma2,Gamma1,Omega3,Omega2,Omega1,qz,qy,qx,qw,z,y,x,t\n";
  for (int i = 0; i <= 4; ++i) {
    std::string row = tip_row(0.1 * i);
    row.pop_back();
    std::vector<std::string> fields;
    for (std::size_t b = 0, e; b <= row.size(); b = e + 1) {
      e = row.find(',', b);
      if (e == std::string::npos) e = row.size();
      fields.push_back(row.substr(b, e - b));
    }
    std::string reversed = "sample " + std::to_string(i);
    for (auto it = fields.rbegin(); it != fields.rend(); ++it) reversed += ", " + *it;
    text += reversed + "\n";
  }
  const TipOnGrid tip = read_tip(dir.write("tip.csv", text), 0.1, 4);
  EXPECT_FALSE(tip.resampled);
  for (int j = 0; j <= 4; ++j) EXPECT_LT(max_abs(tip.g0[j], tip_pose(0.1 * j)), 1e-15);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(tip.eta0[j], tip_strain(0.1 * j));
}

}  // namespace
}  // namespace field::io

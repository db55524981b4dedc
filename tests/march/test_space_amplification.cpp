// Know before you march, theory §6.3: the linearised space march's amplification A_a(omega)
// against the growth of a single-mode perturbation of the tip data through the real (nonlinear)
// space march, on two beams; the continuum limit of the discrete roots; the cosine transform.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cstdio>

#include "libfield/march/space_amplification.hpp"
#include "tests/support/cases.hpp"

namespace field::march {
namespace {

LinearBeam linear_beam(const model::BeamDensity& beam, double dt, double ds) {
  return LinearBeam{beam.inertia(), beam.stiffness(), dt, ds};
}

/// Growth along s of a perturbation eps cos(omega_k (t_j + dt/2)) of the tip data: of the tip's
/// x position (strain < 0) or of the tip strain's component `strain`; max_j |r_j^a(perturbed) -
/// r_j^a| / (eps max_j |c_j|) for a = 0..A.
std::vector<double> measured_growth(const model::BeamDensity& beam, const test::SpaceEvolution& se,
                                    int k, double eps, int strain, lie::RetractionKind kind) {
  const model::Loads loads;
  const SpaceMarchInput base = se.input();
  SpaceMarchInput perturbed = base;
  const double dt = se.T / se.J, omega = mode_frequency(k, se.J, dt);
  double peak = 0.0;  // max_j |c_j|: 1/sqrt(2) for k = J/2
  for (int j = 0; j <= se.J; ++j) {
    const double c = std::cos(omega * (j * dt + 0.5 * dt));
    if (strain < 0)
      perturbed.column0[j].r.x() += eps * c;
    else if (j < se.J)
      perturbed.strain0[j](strain) += eps * c;
    if (j < se.J) peak = std::max(peak, std::abs(c));
  }
  // The retraction of the channel, as a type (lie::with_group).
  const auto [r0, r1] = lie::with_group(kind, [&](auto group) {
    const dcel::DiscreteModel model(beam, loads, group, se.mesh());
    return std::pair{test::record_space_march(model, base),
                     test::record_space_march(model, perturbed)};
  });
  EXPECT_TRUE(r0.result.completed && r1.result.completed);
  std::vector<double> growth(se.A + 1, 0.0);
  for (int a = 0; a <= se.A; ++a)
    for (int j = 0; j < se.J; ++j)
      growth[a] = std::max(growth[a], (r1.field(j, a).r - r0.field(j, a).r).norm() / (eps * peak));
  return growth;
}

TEST(SpaceAmplification, PredictsTheMeasuredGrowth) {
  // The tip data perturbed by 1e-9 cos(omega_k (t_j + dt/2)) on space_evolution (theory §11.4)
  // and on the same case with a slender section (L/b = 10): the tip's x position (Cayley), the
  // curvature Omega2 of the tip strain (Cayley), the x position with the exponential retraction.
  // Growth at every column within 5 % of the linear prediction (the issue asks for a factor 2;
  // measured: 0.3 % for positions).
  struct Beam {
    const char* name;
    double side;
  };
  struct Channel {
    const char* name;
    int strain;  // -1: tip x position
    lie::RetractionKind kind;
  };
  for (const Beam& b : {Beam{"space_evolution b = 0.2", 0.2}, Beam{"slender b = 0.1", 0.1}}) {
    test::SpaceEvolution se;
    const model::BeamDensity beam(model::BeamSection::square(b.side),
                                  model::BeamMaterial{1e6, 0.35, 1000.0});
    const double dt = se.T / se.J;
    const LinearBeam lin = linear_beam(beam, dt, se.ds);
    for (const Channel& c : {Channel{"position x, cayley", -1, lie::RetractionKind::cayley},
                             Channel{"strain Omega2, cayley", 1, lie::RetractionKind::cayley},
                             Channel{"position x, exp", -1, lie::RetractionKind::exponential}})
      for (const int k : {2, 6, 12, 24, 48, 96, 150, 250, 299}) {
        if (c.strain >= 0 || c.kind != lie::RetractionKind::cayley) {
          if (k == 6 || k == 24 || k == 96 || k == 250) continue;  // five modes are enough here
        }
        const double omega = mode_frequency(k, se.J, dt);
        Vec6 dpose = Vec6::Zero(), dstrain = Vec6::Zero();
        if (c.strain < 0)
          dpose(3) = 1.0;
        else
          dstrain(c.strain) = 1.0;
        const ColumnResponse predicted = column_response(lin, omega, se.A, dpose, dstrain);
        const std::vector<double> measured = measured_growth(beam, se, k, 1e-9, c.strain, c.kind);
        std::printf(
            "%s, %s, k = %d omega = %.4g: far end measured %.4g predicted %.4g ratio %.3f\n",
            b.name, c.name, k, omega, measured[se.A], predicted.position[se.A],
            measured[se.A] / predicted.position[se.A]);
        for (int a = 1; a <= se.A; ++a)
          EXPECT_NEAR(measured[a] / predicted.position[a], 1.0, 0.05)
              << b.name << ", " << c.name << ", k = " << k << " column " << a;
      }
  }
}

TEST(SpaceAmplification, PrescribedRowsHaveSineModes) {
  // Rows 0 and J prescribed (the zero-momentum run's own rows), the tip's x position perturbed by
  // 1e-9 sin(omega_i t_j), omega_i = (i + 1) pi/T (6.4): growth within 5 % of the prediction.
  test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  const test::RecordedRun free_rows = test::record_space_march(model, se.input());
  ASSERT_TRUE(free_rows.result.completed);
  SpaceMarchInput base = se.input();
  const mesh::Field& f = free_rows.field;
  base.first = SideSpec::prescribed([&f](int a) { return f(0, a); });
  base.last = SideSpec::prescribed([&f, &se](int a) { return f(se.J, a); });
  const double dt = se.T / se.J;
  LinearBeam lin{beam.inertia(), beam.stiffness(), dt, se.ds, true, true};
  EXPECT_EQ(time_mode_count(lin, se.J), se.J - 1);
  for (const int i : {1, 11, 47, 149, 298}) {
    const double omega = time_mode_frequency(lin, se.J, i);
    EXPECT_NEAR(omega, (i + 1) * M_PI / se.T, 1e-12);
    SpaceMarchInput perturbed = base;
    double peak = 0.0;
    for (int j = 0; j <= se.J; ++j) {
      const double c = std::sin(omega * j * dt);
      perturbed.column0[j].r.x() += 1e-9 * c;
      peak = std::max(peak, std::abs(c));
    }
    const test::RecordedRun r0 = test::record_space_march(model, base);
    const test::RecordedRun r1 = test::record_space_march(model, perturbed);
    ASSERT_TRUE(r0.result.completed && r1.result.completed);
    Vec6 dpose = Vec6::Zero();
    dpose(3) = 1.0;
    const ColumnResponse predicted = column_response(lin, omega, se.A, dpose, Vec6::Zero());
    for (int a = 1; a <= se.A; ++a) {
      double growth = 0.0;
      for (int j = 0; j <= se.J; ++j)
        growth = std::max(growth, (r1.field(j, a).r - r0.field(j, a).r).norm() / (1e-9 * peak));
      EXPECT_NEAR(growth / predicted.position[a], 1.0, 0.05) << "i = " << i << " column " << a;
      if (a == se.A)
        std::printf("prescribed rows, i = %d omega = %.4g: far end measured %.4g predicted %.4g\n",
                    i, omega, growth, predicted.position[a]);
    }
  }
  // the mixed rows: cosines that vanish at the prescribed row
  lin.first_prescribed = false;
  EXPECT_EQ(time_mode_count(lin, se.J), se.J);
  EXPECT_NEAR(std::cos(time_mode_frequency(lin, se.J, 7) * (se.T + 0.5 * dt)), 0.0, 1e-12);
  lin.first_prescribed = true;
  lin.last_prescribed = false;
  const double w = time_mode_frequency(lin, se.J, 7);
  EXPECT_NEAR(std::sin(w * se.T), std::sin(w * (se.T - dt)), 1e-12);
}

TEST(SpaceAmplification, ContinuumLimitIsTheTimoshenkoRate) {
  // log|mu|/ds -> beta of (6.10) as ds, dt -> 0 together (second order), and beta -> k =
  // (rho A omega^2/EI)^{1/4} for a slender beam (Euler-Bernoulli).
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const double omega = 20.0;
  const double beta =
      continuum_growth_rate(beam.inertia(), beam.stiffness(), omega, Channel::bending1);
  double previous = 0.0;
  for (const double ds : {0.1, 0.05, 0.025, 0.0125}) {
    const LinearBeam lin{beam.inertia(), beam.stiffness(), ds / 15.0, ds};
    const double rate = std::log(column_amplification(lin, omega, Channel::bending1)) / ds;
    const double error = std::abs(rate - beta);
    std::printf("ds = %g: log|mu|/ds = %.8g, beta = %.8g, relative error %.3g\n", ds, rate, beta,
                error / beta);
    if (previous > 0.0) {
      EXPECT_NEAR(previous / error, 4.0, 0.3) << "ds = " << ds;
    }
    previous = error;
  }
  EXPECT_LT(previous / beta, 1e-4);  // 3.5e-5
  // the two bending channels agree for a square section; axial and torsion are waves (|mu| = 1)
  // inside the space march's CFL range, and unstable (|mu| > 1) beyond it (theory §6.2)
  const LinearBeam lin{beam.inertia(), beam.stiffness(), 1.0 / 150, 0.1};
  EXPECT_NEAR(column_amplification(lin, omega, Channel::bending1),
              column_amplification(lin, omega, Channel::bending2), 1e-12);
  EXPECT_NEAR(column_amplification(lin, 400.0, Channel::axial), 1.0, 1e-12);
  EXPECT_NEAR(column_amplification(lin, 400.0, Channel::torsion), 1.0, 1e-12);
  const LinearBeam fine_dt{beam.inertia(), beam.stiffness(), 1.0 / 600, 0.1};  // ds/(c dt) > 1
  EXPECT_GT(column_amplification(fine_dt, mode_frequency(599, 600, 1.0 / 600), Channel::axial),
            1.5);
  const model::BeamDensity slender(model::BeamSection::square(1e-4),
                                   model::BeamMaterial{1e6, 0.35, 1000.0});
  const double k = std::pow(slender.inertia()(3) * omega * omega / slender.stiffness()(1), 0.25);
  EXPECT_NEAR(
      continuum_growth_rate(slender.inertia(), slender.stiffness(), omega, Channel::bending1) / k,
      1.0, 1e-4);
  EXPECT_EQ(continuum_growth_rate(slender.inertia(), slender.stiffness(), omega, Channel::axial),
            0.0);
}

TEST(SpaceAmplification, BendingRootsSolveTheDispersionRelation) {
  // theory §6.3 (6.9): kGA EI sigma^2 + (kGA rho I + EI rho A - rho A kGA ds^2/4) W^2 sigma
  // + rho A W^2 (rho I W^2 - kGA) = 0, z + 1/z = 2 + sigma ds^2; the axial channel
  // z + 1/z = 2 - (W ds/c)^2 (6.8). Against the eigenvalues of the column transfer.
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const LinearBeam lin{beam.inertia(), beam.stiffness(), 1.0 / 150, 0.1};
  const double EI = beam.stiffness()(0), rhoI = beam.inertia()(0), kGA = beam.stiffness()(4),
               rhoA = beam.inertia()(4), ds = lin.ds;
  for (const double omega : {0.5, 5.0, 50.0, 200.0, 400.0}) {
    const double W = time_symbol(omega, lin.dt), W2 = W * W;
    const std::complex<double> qa = kGA * EI,
                               qb = (kGA * rhoI + EI * rhoA - rhoA * kGA * ds * ds / 4) * W2,
                               qc = rhoA * W2 * (rhoI * W2 - kGA);
    const std::complex<double> root = std::sqrt(qb * qb - 4.0 * qa * qc);
    double largest = 0.0;
    for (const std::complex<double> sigma :
         {(-qb + root) / (2.0 * qa), (-qb - root) / (2.0 * qa)}) {
      const std::complex<double> h = 1.0 + 0.5 * sigma * ds * ds;  // z = h +- sqrt(h^2 - 1)
      const std::complex<double> r = std::sqrt(h * h - 1.0);
      largest = std::max({largest, std::abs(h + r), std::abs(h - r)});
    }
    EXPECT_NEAR(column_amplification(lin, omega, Channel::bending2) / largest, 1.0, 1e-9)
        << "omega = " << omega;
    const double c = std::sqrt(beam.stiffness()(5) / beam.inertia()(5));
    const std::complex<double> h = 1.0 - 0.5 * std::pow(W * ds / c, 2);
    const std::complex<double> r = std::sqrt(h * h - 1.0);
    EXPECT_NEAR(column_amplification(lin, omega, Channel::axial),
                std::max(std::abs(h + r), std::abs(h - r)), 1e-9);
  }
}

TEST(SpaceAmplification, ChannelsDecouple) {
  // The 12x12 column transfer (6.7) has no entry between the state indices of different channels.
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const LinearBeam lin{beam.inertia(), beam.stiffness(), 1.0 / 150, 0.1};
  const Eigen::Matrix<double, 12, 12> m = column_transfer(lin, 50.0);
  const int channel[12] = {3, 2, 1, 2, 3, 0, 3, 2, 1, 2, 3, 0};  // axial 0, torsion 1, bending 2, 3
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c)
      if (channel[r] != channel[c]) {
        EXPECT_EQ(m(r, c), 0.0) << r << ", " << c;
      }
}

TEST(SpaceAmplification, CosineTransformIsTheDirectSum) {
  for (const int n : {1, 7, 300, 4099}) {  // 4099: prime, the sampled direct path
    std::vector<double> x(n);
    for (int j = 0; j < n; ++j) x[j] = std::sin(0.37 * j) + 0.1 * j - 0.01 * j * j / n;
    const std::vector<double> X = cosine_transform(x);
    const int step = n > 2048 ? (n + 511) / 512 : 1;
    for (int k = 0; k < n; k += step) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += x[j] * std::cos(M_PI * k * (j + 0.5) / n);
      s *= std::sqrt((k == 0 ? 1.0 : 2.0) / n);
      EXPECT_NEAR(X[k], s, 1e-11 * n) << "n = " << n << " k = " << k;
    }
  }
}

TEST(SpaceAmplification, DataContentMatchesTheMarchedMotion) {
  // (6.12): the exact tip data of space_evolution and of its L/b = 10 variant carried to the far
  // end by the linear scheme against the RMS deviation of the marched far end from its mean
  // (measured 0.0411 and 0.0465 m; predicted 0.0421 and 0.0480 m).
  for (const double side : {0.2, 0.1}) {
    const test::SpaceEvolution se;
    const model::BeamDensity beam(model::BeamSection::square(side),
                                  model::BeamMaterial{1e6, 0.35, 1000.0});
    const SpaceMarchInput in = se.input();
    std::vector<Vec6> pose(se.J), strain(se.J);
    for (int j = 0; j < se.J; ++j) {
      const Eigen::AngleAxisd turn(Mat3(in.column0[0].R.transpose() * in.column0[j].R));
      pose[j] << turn.angle() * turn.axis(),
          in.column0[0].R.transpose() * (in.column0[j].r - in.column0[0].r);
      strain[j] = in.strain0[j] - model::BeamDensity::E6();
    }
    const LinearBeam lin{beam.inertia(), beam.stiffness(), se.T / se.J, se.ds};
    const SpacePrediction p =
        predict_space_march(lin, se.J, se.A, TipNoise{}, tip_spectrum(pose, strain, 0.04), 0.1);
    const model::Loads loads;
    const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
    const test::RecordedRun r = test::record_space_march(model, in);
    ASSERT_TRUE(r.result.completed);
    Vec3 mean = Vec3::Zero();
    for (int j = 0; j < se.J; ++j) mean += r.field(j, se.A).r / se.J;
    double rms = 0.0;
    for (int j = 0; j < se.J; ++j) rms += (r.field(j, se.A).r - mean).squaredNorm() / se.J;
    rms = std::sqrt(rms);
    std::printf("b = %g: data content at the far end predicted %.4g m, marched %.4g m\n", side,
                p.data_response, rms);
    EXPECT_NEAR(p.data_response / rms, 1.0, 0.1) << "b = " << side;
    EXPECT_FALSE(p.data_grows());
  }
}

TEST(SpaceAmplification, PredictsTheTwistOutsideTheStableRange) {
  // space_evolution's grid with the soft beam of meshes/driven (b = 0.1 m, E = 1e5 Pa):
  // ds/(c_G dt) = 2.5, outside the space march's stable range (theory §6.2). The tip twist
  // Omega3 perturbed by 1e-11 cos(omega_k (t_j + dt/2)): the rotation growth at every column
  // where it is still linear (below 1e-5 rad) within 5 % of the predicted |phi^a| (theory §6.3
  // (6.8)); the twist grows fastest and moves no position, so the prediction must judge rotations.
  test::SpaceEvolution se;
  const model::BeamDensity beam(model::BeamSection::square(0.1),
                                model::BeamMaterial{1e5, 0.35, 1000.0});
  const double dt = se.T / se.J, eps = 1e-11;
  const LinearBeam lin = linear_beam(beam, dt, se.ds);
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  const SpaceMarchInput base = se.input();
  const test::RecordedRun r0 = test::record_space_march(model, base);
  for (const int k : {150, 250, 299}) {
    const double omega = mode_frequency(k, se.J, dt);
    SpaceMarchInput perturbed = base;
    double peak = 0.0;
    for (int j = 0; j < se.J; ++j) {
      const double c = std::cos(omega * (j * dt + 0.5 * dt));
      perturbed.strain0[j](2) += eps * c;
      peak = std::max(peak, std::abs(c));
    }
    const test::RecordedRun r1 = test::record_space_march(model, perturbed);
    Vec6 dstrain = Vec6::Zero();
    dstrain(2) = 1.0;
    const ColumnResponse predicted = column_response(lin, omega, se.A, Vec6::Zero(), dstrain);
    int checked = 0;
    for (int a = 1; a <= se.A && predicted.rotation[a] * eps < 1e-5; ++a, ++checked) {
      double measured = 0.0;
      for (int j = 0; j < se.J; ++j)
        measured = std::max(
            measured,
            Eigen::AngleAxisd(Mat3(r0.field(j, a).R.transpose() * r1.field(j, a).R)).angle() /
                (eps * peak));
      std::printf("k = %d omega = %.4g column %d: twist growth measured %.4g predicted %.4g\n", k,
                  omega, a, measured, predicted.rotation[a]);
      EXPECT_NEAR(measured / predicted.rotation[a], 1.0, 0.05) << "k = " << k << " column " << a;
    }
    EXPECT_GE(checked, 3) << "k = " << k;
  }
  // On the grid of meshes/driven (dt = 0.004 s, J = 250, ds/(c_G dt) = 4.1) the round-off floor
  // alone is predicted to twist the far end by more than a radian while the position error stays
  // under the bound: refused (theory §6.3, "Outside the stable range").
  const int J = 250;
  TipSpectrum spectrum;
  spectrum.pose.assign(J, Vec6::Zero());
  spectrum.strain = spectrum.pose;
  spectrum.position_scale = 1.0;
  const SpacePrediction p =
      predict_space_march(linear_beam(beam, 0.004, se.ds), J, se.A, TipNoise{}, spectrum, 0.1);
  EXPECT_FALSE(p.position_exceeds());
  EXPECT_GT(p.torsion_per_column, 60.0);
  std::printf("round-off: far-end position %.3g m, rotation %.3g rad, %.3g per column\n",
              p.far_position, p.far_rotation, p.per_column);
  EXPECT_TRUE(p.rotation_exceeds());
  EXPECT_TRUE(p.exceeds());
  const std::string why = refusal_message(p, TipNoise{});
  EXPECT_NE(why.find("not below 1 rad"), std::string::npos) << why;
  EXPECT_NE(why.find("method = \"driven\""), std::string::npos) << why;
}

TEST(SpaceAmplification, PredictionGrowsWithNoiseAndRefuses) {
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const LinearBeam lin{beam.inertia(), beam.stiffness(), se.T / se.J, se.ds};
  TipSpectrum spectrum;
  spectrum.pose.assign(se.J, Vec6::Zero());
  spectrum.strain = spectrum.pose;
  const SpacePrediction exact = predict_space_march(lin, se.J, se.A, TipNoise{}, spectrum, 0.1);
  EXPECT_TRUE(exact.exact_data);
  EXPECT_LT(exact.far_position, 1e-10);
  EXPECT_EQ(exact.bandwidth_mode, se.J - 1);
  EXPECT_TRUE(refusal_message(exact, TipNoise{}).empty());
  EXPECT_NEAR(exact.torsion_per_column, 1.0, 1e-9);  // inside the stable range: a wave, (6.8)
  const TipNoise noisy{1e-4, 1e-3, 1e-3};
  const SpacePrediction p = predict_space_march(lin, se.J, se.A, noisy, spectrum, 0.1);
  const TipNoise louder{1e-3, 1e-2, 1e-2};
  const SpacePrediction q = predict_space_march(lin, se.J, se.A, louder, spectrum, 0.1);
  EXPECT_NEAR(q.far_position / p.far_position, 10.0, 1e-9);  // linear in the noise
  const SpacePrediction tight = predict_space_march(lin, se.J, se.A, noisy, spectrum, 1e-4);
  EXPECT_TRUE(tight.exceeds());
  EXPECT_LT(tight.bandwidth_mode, se.J - 1);
  const std::string why = refusal_message(tight, noisy);
  EXPECT_NE(why.find("max_predicted_error"), std::string::npos) << why;
  EXPECT_NE(why.find("time march"), std::string::npos) << why;
}

}  // namespace
}  // namespace field::march

// The estimator's driven start on the tip poses smoothed at the declared noise (theory §6.7,
// io::smooth_tip): exact data are left as they are; noisy data of a smooth motion come closer to
// the motion; the smoothing is the widest whose RMS change stays within the noise (Morozov's
// discrepancy principle), never wider.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "libfield/io/estimate_start.hpp"
#include "libfield/lie/exponential.hpp"

namespace field::io {
namespace {

/// A smooth tip motion: a slow screw, 1000 rows of dt = 1e-3 s.
std::vector<lie::SE3> screw() {
  std::vector<lie::SE3> poses;
  for (int j = 0; j <= 1000; ++j) {
    const double t = 1e-3 * j;
    Vec6 x;
    x << 0.3 * std::sin(2.0 * t), 0.5 * t, 0.2 * t * t, 0.1 * std::sin(3.0 * t), 0.05 * t, 0.4 * t;
    poses.push_back(lie::exp_map(x));
  }
  return poses;
}

/// RMS of a position coordinate and of a rotation component of a against b.
std::pair<double, double> rms(const std::vector<lie::SE3>& a, const std::vector<lie::SE3>& b) {
  double p = 0.0, q = 0.0;
  for (size_t j = 0; j < a.size(); ++j) {
    p += (a[j].r - b[j].r).squaredNorm();
    q += lie::log_map(b[j].inverse() * a[j]).head<3>().squaredNorm();
  }
  return {std::sqrt(p / (3.0 * a.size())), std::sqrt(q / (3.0 * a.size()))};
}

TEST(SmoothTip, ExactDataStayAsTheyAre) {
  const std::vector<lie::SE3> truth = screw();
  std::vector<lie::SE3> poses = truth;
  const TipSmoothing s = smooth_tip(poses, 0.0, 0.0);
  EXPECT_EQ(s.half_width, 0);
  for (size_t j = 0; j < poses.size(); ++j)
    EXPECT_EQ(poses[j].matrix(), truth[j].matrix()) << "row " << j;
}

TEST(SmoothTip, NoisyDataComeCloserToTheMotionWithinTheNoise) {
  const double sigma_r = 1e-4, sigma_theta = 1e-3;
  const std::vector<lie::SE3> truth = screw();
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<lie::SE3> noisy;
  for (const lie::SE3& g : truth) {
    Vec6 d;
    for (int i = 0; i < 3; ++i) d(i) = sigma_theta * normal(rng);
    for (int i = 3; i < 6; ++i) d(i) = 0.0;
    lie::SE3 n = g * lie::exp_map(d);
    for (int i = 0; i < 3; ++i) n.r(i) += sigma_r * normal(rng);
    noisy.push_back(n);
  }
  std::vector<lie::SE3> smooth = noisy;
  const TipSmoothing s = smooth_tip(smooth, sigma_r, sigma_theta);
  EXPECT_GT(s.half_width, 0);
  // The reported change is the change, within the declared noise.
  const auto [change_r, change_theta] = rms(smooth, noisy);
  EXPECT_NEAR(change_r, s.rms_position, 1e-15);
  EXPECT_NEAR(change_theta, s.rms_angle, 1e-15);
  EXPECT_LE(s.rms_position, sigma_r);
  EXPECT_LE(s.rms_angle, sigma_theta);
  // Nearer the motion than the data: white noise averaged over 2w+1 = 9 rows falls to a third
  // (measured 0.47 in position with the motion's curvature, 0.37 in rotation).
  const auto [before_r, before_theta] = rms(noisy, truth);
  const auto [after_r, after_theta] = rms(smooth, truth);
  EXPECT_LT(after_r, 0.6 * before_r);
  EXPECT_LT(after_theta, 0.6 * before_theta);
  std::printf("smoothed over j-%d..j+%d: position %.2e -> %.2e m, rotation %.2e -> %.2e rad\n",
              s.half_width, s.half_width, before_r, after_r, before_theta, after_theta);
  // Half the declared noise: a narrower window, and a smaller change.
  std::vector<lie::SE3> half = noisy;
  const TipSmoothing h = smooth_tip(half, 0.5 * sigma_r, 0.5 * sigma_theta);
  EXPECT_LT(h.half_width, s.half_width);
  EXPECT_LE(h.rms_position, 0.5 * sigma_r);
  EXPECT_LE(h.rms_angle, 0.5 * sigma_theta);
}

}  // namespace
}  // namespace field::io

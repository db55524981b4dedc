#include "libfield/march/space_amplification.hpp"

#include <Eigen/Eigenvalues>
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace field::march {

namespace {

using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kOverflow = 1e150;  // a response beyond this counts as +inf
constexpr int kMaxModes = 512;       // modes sampled by the prediction of the noise
constexpr int kMaxDataModes = 4096;  // modes of the data's own content taken one by one
constexpr double kDataBand = 1e-6;   // the data's band: coefficients above this part of the peak
                                     // and above 5 times their noise

/// e3^: the hat of d3 (theory §0.2).
Mat3 e3_hat() {
  Mat3 h = Mat3::Zero();
  h(0, 1) = -1.0;
  h(1, 0) = 1.0;
  return h;
}

/// [[I, 0], [c e3^, I]] (lower = true) or [[I, c e3^], [0, I]].
Mat6 shear_block(double c, bool lower) {
  Mat6 m = Mat6::Identity();
  if (lower)
    m.block<3, 3>(3, 0) = c * e3_hat();
  else
    m.block<3, 3>(0, 3) = c * e3_hat();
  return m;
}

/// The state indices of a channel in x = (zeta, deta): (phi, u, Omega, Gamma).
std::vector<int> channel_indices(Channel c) {
  switch (c) {
    case Channel::axial:
      return {5, 11};
    case Channel::torsion:
      return {2, 8};
    case Channel::bending1:
      return {1, 3, 7, 9};
    case Channel::bending2:
      return {0, 4, 6, 10};
  }
  return {};
}

/// Column 1's state from the tip data (theory §6.3 (6.6)): zeta^1 = Ad^{-1}(zeta^0 + ds Q^{-1}
/// deta^0).
Vec12 first_state(const LinearBeam& beam, const Vec6& dpose, const Vec6& dstrain) {
  const Mat6 ad_inv = shear_block(-beam.ds, true);
  const Mat6 q_inv = shear_block(0.5 * beam.ds, true);
  Vec12 x;
  x.head<6>() = ad_inv * (dpose + beam.ds * q_inv * dstrain);
  x.tail<6>() = dstrain;
  return x;
}

/// Largest prime factor of n (n >= 1).
int largest_prime_factor(int n) {
  int p = 1;
  for (int f = 2; f * f <= n; ++f)
    while (n % f == 0) p = f, n /= f;
  return std::max(p, n);
}

/// A number for a message: "beyond 1e+150" where the linear response overflowed.
std::string amount(double v) {
  if (!(v < kOverflow)) return "beyond 1e+150";
  std::ostringstream out;
  out.precision(3);
  out << v;
  return out.str();
}

}  // namespace

const char* channel_name(Channel c) {
  switch (c) {
    case Channel::axial:
      return "axial";
    case Channel::torsion:
      return "torsion";
    case Channel::bending1:
      return "bending/shear d1";
    case Channel::bending2:
      return "bending/shear d2";
  }
  return "";
}

double time_symbol(double omega, double dt) {
  return 2.0 / dt * std::sin(0.5 * omega * dt);
}

double mode_frequency(int k, int J, double dt) {
  return k * M_PI / (J * dt);
}

int time_mode_count(const LinearBeam& beam, int J) {
  return beam.first_prescribed ? J - 1 : J;
}

double time_mode_frequency(const LinearBeam& beam, int J, int i) {
  const double T = J * beam.dt;
  if (beam.first_prescribed == beam.last_prescribed)
    return (beam.first_prescribed ? i + 1 : i) * M_PI / T;  // sines / cosines
  return (i + 0.5) * M_PI / (beam.last_prescribed ? T + 0.5 * beam.dt : T - 0.5 * beam.dt);
}

Mat12 column_transfer(const LinearBeam& beam, double omega) {
  // theory §6.3 (6.5): C deta^a = P^{-1}(P' C deta^{a-1} - ds W^2 J zeta^a),
  // zeta^{a+1} = Ad^{-1}(zeta^a + ds Q^{-1} deta^a), P = (dtau^{-1}_{ds E6})^T,
  // P' = (dtau^{-1}_{-ds E6})^T, Q = dtau^{-1}_{ds E6}, Ad = Ad_{tau(ds E6)}.
  const double ds = beam.ds, W = time_symbol(omega, beam.dt);
  const Mat6 p_inv = shear_block(-0.5 * ds, false);
  const Mat6 p_prime = shear_block(-0.5 * ds, false);
  const Mat6 q_inv = shear_block(0.5 * ds, true);
  const Mat6 ad_inv = shear_block(-ds, true);
  const Vec6 c_inv = beam.stiffness.cwiseInverse();
  const Mat6 b_eta = c_inv.asDiagonal() * p_inv * p_prime * beam.stiffness.asDiagonal();
  const Mat6 b_zeta = -ds * W * W * c_inv.asDiagonal() * p_inv * beam.inertia.asDiagonal();
  Mat12 m;
  m.block<6, 6>(0, 0) = ad_inv * (Mat6::Identity() + ds * q_inv * b_zeta);
  m.block<6, 6>(0, 6) = ad_inv * ds * q_inv * b_eta;
  m.block<6, 6>(6, 0) = b_zeta;
  m.block<6, 6>(6, 6) = b_eta;
  return m;
}

double column_amplification(const LinearBeam& beam, double omega, Channel c) {
  const Mat12 m = column_transfer(beam, omega);
  const std::vector<int> idx = channel_indices(c);
  const int n = static_cast<int>(idx.size());
  Eigen::MatrixXd sub(n, n);
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) sub(r, col) = m(idx[r], idx[col]);
  const Eigen::VectorXcd roots = Eigen::EigenSolver<Eigen::MatrixXd>(sub, false).eigenvalues();
  return roots.cwiseAbs().maxCoeff();
}

double continuum_growth_rate(const Vec6& inertia, const Vec6& stiffness, double omega, Channel c) {
  if (c == Channel::axial || c == Channel::torsion) return 0.0;  // waves: |mu| -> 1
  const int r = c == Channel::bending1 ? 1 : 0, t = c == Channel::bending1 ? 3 : 4;
  // theory §6.3 (6.10): kGA EI b^4 + (kGA rho I + EI rho A) w^2 b^2 + rho A w^2 (rho I w^2 - kGA)
  const double EI = stiffness(r), rhoI = inertia(r), kGA = stiffness(t), rhoA = inertia(t);
  const double w2 = omega * omega;
  const std::complex<double> qa = kGA * EI, qb = (kGA * rhoI + EI * rhoA) * w2,
                             qc = rhoA * w2 * (rhoI * w2 - kGA);
  const std::complex<double> root = std::sqrt(qb * qb - 4.0 * qa * qc);
  double rate = 0.0;
  for (const std::complex<double> b2 : {(-qb + root) / (2.0 * qa), (-qb - root) / (2.0 * qa)})
    rate = std::max(rate, std::abs(std::sqrt(b2).real()));
  return rate;
}

/// The state x^A of column A for the tip data (dpose, dstrain) at omega (theory §6.3 (6.6), (6.7)).
Vec12 far_state(const LinearBeam& beam, double omega, int A, const Vec6& dpose,
                const Vec6& dstrain) {
  if (A < 1) return (Vec12() << dpose, Vec6::Zero()).finished();  // the tip itself
  const Mat12 m = column_transfer(beam, omega);
  Vec12 x = first_state(beam, dpose, dstrain);
  for (int a = 2; a <= A; ++a) x = m * x;
  return x;
}

ColumnResponse column_response(const LinearBeam& beam, double omega, int A, const Vec6& dpose,
                               const Vec6& dstrain) {
  ColumnResponse r;
  r.position.assign(A + 1, 0.0);
  r.rotation.assign(A + 1, 0.0);
  r.position[0] = dpose.tail<3>().norm();
  r.rotation[0] = dpose.head<3>().norm();
  if (A < 1) return r;
  const Mat12 m = column_transfer(beam, omega);
  Vec12 x = first_state(beam, dpose, dstrain);
  for (int a = 1; a <= A; ++a) {
    if (a > 1) x = m * x;
    const double size = x.cwiseAbs().maxCoeff();
    if (!(size < kOverflow)) {
      for (int b = a; b <= A; ++b)
        r.position[b] = r.rotation[b] = std::numeric_limits<double>::infinity();
      break;
    }
    r.position[a] = x.segment<3>(3).norm();
    r.rotation[a] = x.head<3>().norm();
  }
  return r;
}

std::vector<double> tip_amplification(const LinearBeam& beam, double omega, int A) {
  std::vector<double> gain(A + 1, 0.0);
  for (int i = 0; i < 3; ++i) {
    Vec6 dpose = Vec6::Zero();
    dpose(3 + i) = 1.0;
    const ColumnResponse r = column_response(beam, omega, A, dpose, Vec6::Zero());
    for (int a = 0; a <= A; ++a) gain[a] = std::max(gain[a], r.position[a]);
  }
  return gain;
}

std::vector<double> cosine_transform(const std::vector<double>& x) {
  const int n = static_cast<int>(x.size());
  std::vector<double> out(n, 0.0);
  if (n == 0) return out;
  const auto scale = [n](int k) { return std::sqrt((k == 0 ? 1.0 : 2.0) / n); };
  if (largest_prime_factor(2 * n) > 200 && n > 2048) {
    // Eigen's FFT (kissfft) is O(n p) for a prime factor p: the direct sum on kMaxModes modes
    // spread over the range, each holding its value up to the next (the spectrum's envelope).
    const int step = (n + kMaxModes - 1) / kMaxModes;
    for (int k0 = 0; k0 < n; k0 += step) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += x[j] * std::cos(M_PI * k0 * (j + 0.5) / n);
      for (int k = k0; k < std::min(n, k0 + step); ++k) out[k] = scale(k0) * s;
    }
    return out;
  }
  // Y = FFT of (x, reversed x): sum_j x_j cos(pi k (j + 1/2)/n) = Re(e^{-i pi k/(2n)} Y_k)/2.
  std::vector<double> y(2 * n);
  for (int j = 0; j < n; ++j) y[j] = y[2 * n - 1 - j] = x[j];
  std::vector<std::complex<double>> Y;
  Eigen::FFT<double> fft;
  fft.fwd(Y, y);
  for (int k = 0; k < n; ++k)
    out[k] = scale(k) * 0.5 * (std::polar(1.0, -M_PI * k / (2.0 * n)) * Y[k]).real();
  return out;
}

TipSpectrum tip_spectrum(const std::vector<Vec6>& pose, const std::vector<Vec6>& strain,
                         double position_scale) {
  const int n = static_cast<int>(pose.size());
  TipSpectrum s;
  s.position_scale = position_scale;
  const auto transform = [n](const std::vector<Vec6>& x, std::vector<Vec6>& into) {
    into.assign(n, Vec6::Zero());
    std::vector<double> channel(n);
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < n; ++j) channel[j] = x[j](i);
      const std::vector<double> c = cosine_transform(channel);
      for (int k = 0; k < n; ++k) into[k](i) = c[k];
    }
  };
  transform(pose, s.pose);
  if (static_cast<int>(strain.size()) == n) transform(strain, s.strain);
  return s;
}

SpacePrediction predict_space_march(const LinearBeam& beam, int J, int A, const TipNoise& noise,
                                    const TipSpectrum& spectrum, double bound) {
  SpacePrediction p;
  p.bound = bound;
  p.exact_data = noise.position == 0.0 && noise.angle == 0.0 && noise.strain == 0.0;
  // The noise of each kind: the declared level, at least the round-off floor of theory §7.4
  // (2 eps |r| on positions, 8 eps on rotations, 2 eps on strains near E6).
  const double sp =
      std::max(noise.position, 2 * kEps * std::max(spectrum.position_scale, A * beam.ds));
  const double sa = std::max(noise.angle, 8 * kEps);
  const double ss = std::max(noise.strain, 2 * kEps);
  const int n = time_mode_count(beam, J);  // the modes of the rows, theory §6.3 (6.4)
  const int modes = std::min(n, kMaxModes);
  // The data's band: where a coefficient rises above 5 times its noise and kDataBand of the
  // largest one.
  double peak_p = 0.0, peak_a = 0.0, peak_s = 0.0;
  for (const Vec6& c : spectrum.pose)
    peak_a = std::max(peak_a, c.head<3>().cwiseAbs().maxCoeff()),
    peak_p = std::max(peak_p, c.tail<3>().cwiseAbs().maxCoeff());
  for (const Vec6& c : spectrum.strain) peak_s = std::max(peak_s, c.cwiseAbs().maxCoeff());
  // (5 sigma: white noise's coefficients have the standard deviation sigma, 5 sigma is exceeded
  // by one of the 12 J coefficients with probability about 6e-7 J)
  const double floor_p = std::max(5 * sp, kDataBand * peak_p);
  const double floor_a = std::max(5 * sa, kDataBand * peak_a);
  const double floor_s = std::max(5 * ss, kDataBand * peak_s);
  const int known = static_cast<int>(spectrum.pose.size());
  const bool strain_known = static_cast<int>(spectrum.strain.size()) == known;
  double sum_position = 0.0, sum_rotation = 0.0, represented = 0.0, sum_data = 0.0;
  bool under = true;
  for (int i = 0; i < modes; ++i) {
    // k_i spread over 0..n-1; mode i stands for the modes up to the next sample.
    const int k = modes == n ? i : static_cast<int>(std::lround(double(i) * (n - 1) / (modes - 1)));
    const int next =
        i + 1 < modes
            ? (modes == n ? i + 1
                          : static_cast<int>(std::lround(double(i + 1) * (n - 1) / (modes - 1))))
            : n;
    const double weight = std::max(1, next - k);
    const double omega = time_mode_frequency(beam, J, k);
    double var_position = 0.0, var_rotation = 0.0;
    for (int src = 0; src < 12; ++src) {
      Vec6 dpose = Vec6::Zero(), dstrain = Vec6::Zero();
      double sigma = 0.0;
      if (src < 3)
        dpose(3 + src) = 1.0, sigma = sp;
      else if (src < 6)
        dpose(src - 3) = 1.0, sigma = sa;
      else
        dstrain(src - 6) = 1.0, sigma = ss;
      const ColumnResponse r = column_response(beam, omega, A, dpose, dstrain);
      var_position += sigma * sigma * r.position[A] * r.position[A];
      if (src < 3 && !(r.position[A] <= p.peak_amplification))  // A_A(omega_k), (6.6)-(6.7)
        p.peak_amplification = r.position[A], p.peak_frequency = omega;
      var_rotation += sigma * sigma * r.rotation[A] * r.rotation[A];
    }
    sum_position += weight * var_position;
    sum_rotation += weight * var_rotation;
    represented += weight;
    // One disturbance of the noise level at omega_k in every channel, at the far end.
    if (under && std::sqrt(var_position) <= bound)
      p.bandwidth = omega, p.bandwidth_mode = k;
    else
      under = false;
    if (i + 1 == modes) {
      p.grid_top = omega;
      p.top_amplification = tip_amplification(beam, omega, A)[A];
      p.torsion_per_column = column_amplification(beam, omega, Channel::torsion);
      for (const Channel c :
           {Channel::axial, Channel::torsion, Channel::bending1, Channel::bending2})
        p.per_column = std::max(p.per_column, column_amplification(beam, omega, c));
    }
  }
  p.far_position = represented > 0.0 ? std::sqrt(sum_position / represented) : 0.0;
  p.far_rotation = represented > 0.0 ? std::sqrt(sum_rotation / represented) : 0.0;
  // The data's band and their own content carried to the far end, coherently (6.12), over every
  // mode (the data are not white: a sample would miss their peaks), or every step-th beyond
  // kMaxDataModes modes.
  for (int k = 0; k < known; ++k)
    if (spectrum.pose[k].tail<3>().cwiseAbs().maxCoeff() > floor_p ||
        spectrum.pose[k].head<3>().cwiseAbs().maxCoeff() > floor_a ||
        (strain_known && spectrum.strain[k].cwiseAbs().maxCoeff() > floor_s))
      p.data_band = mode_frequency(k, J, beam.dt), p.data_band_mode = k;
  const int step = (known + kMaxDataModes - 1) / kMaxDataModes;
  for (int k = 1; k < known; k += step) {
    const Vec12 x = far_state(beam, mode_frequency(k, J, beam.dt), A, spectrum.pose[k],
                              strain_known ? spectrum.strain[k] : Vec6::Zero());
    const double d = x.segment<3>(3).norm();
    sum_data += step * (std::isfinite(d) ? d * d : std::numeric_limits<double>::infinity());
  }
  p.data_response = std::sqrt(sum_data / J);
  p.length = A * beam.ds;
  p.data_known = known > 0;
  return p;
}

std::string prediction_report(const SpacePrediction& p, const TipNoise& noise) {
  std::ostringstream out;
  out.precision(3);
  out << "  noise (per sample): position " << noise.position << " m, angle " << noise.angle
      << " rad, strain " << noise.strain << (p.exact_data ? " (exact data: round-off only)" : "")
      << "\n";
  out << "  predicted far-end error (RMS over rows): position " << amount(p.far_position)
      << " m, rotation " << amount(p.far_rotation) << " rad; bound " << p.bound << " m"
      << (p.exceeds() ? "  EXCEEDED" : "")
      << (p.rotation_exceeds() ? " (rotation error of a radian or more)" : "") << "\n";
  out << "  recoverable bandwidth: ";
  if (p.bandwidth_mode < 0)
    out << "none";
  else
    out << "up to " << p.bandwidth << " rad/s (" << p.bandwidth / (2 * M_PI) << " Hz, mode "
        << p.bandwidth_mode << ")";
  if (p.data_known) out << "; data above their noise up to " << p.data_band << " rad/s";
  out << "; grid up to " << p.grid_top << " rad/s\n";
  if (p.data_known)
    out << "  the data's dynamic content carried to the far end (linear estimate): "
        << amount(p.data_response) << " m\n";
  else
    out << "  the data's spectrum: not estimated (prescribed rows: cosine modes do not fit them)\n";
  out << "  largest amplification tip -> far end: " << amount(p.peak_amplification) << " at "
      << p.peak_frequency << " rad/s;";
  out << " at the grid's top frequency: " << amount(p.top_amplification) << " (" << p.per_column
      << " per column)";
  return out.str();
}

std::string growth_warning(const SpacePrediction& p) {
  if (!p.data_grows()) return {};
  std::ostringstream out;
  out.precision(3);
  out << "the tip data's own content grows to " << amount(p.data_response)
      << " m at the far end (linear estimate, theory §6.3), " << amount(p.data_response / p.length)
      << " times the beam's length: data that no beam of these parameters produced excite the "
         "growing (evanescent) modes, and the space march will likely break down or return them "
         "instead of a motion; the driven time march ([reconstruct] method = \"driven\") is the "
         "robust method for this beam";
  return out.str();
}

std::string band_warning(const SpacePrediction& p) {
  std::ostringstream out;
  out.precision(3);
  if (p.data_band > 0.5 * p.grid_top) {
    out << "the tip data hold content above their declared noise up to " << p.data_band
        << " rad/s, more than half the grid's top frequency " << p.grid_top
        << " rad/s (fewer than four rows per period): the time grid does not resolve it, the noise "
           "is larger than declared, or the data do not start and end at rest; use a smaller dt, "
           "declare the noise or check the rows (theory §6.3)";
  } else if (p.bandwidth_mode >= 0 && p.data_band > p.bandwidth) {
    out << "the tip data hold content up to " << p.data_band << " rad/s but only frequencies up to "
        << p.bandwidth << " rad/s are recoverable under [tip] max_predicted_error (theory §6.3)";
  }
  return out.str();
}

std::string refusal_message(const SpacePrediction& p, const TipNoise& noise) {
  if (!p.exceeds()) return {};
  std::ostringstream out;
  out.precision(3);
  out << "the space march is predicted to be unreliable (theory §6.3): data noise (position "
      << noise.position << " m, angle " << noise.angle << " rad, strain " << noise.strain
      << (p.exact_data ? ", exact data: round-off only" : "")
      << ") amplified along the beam gives a far-end position error of " << amount(p.far_position)
      << " m";
  if (p.position_exceeds()) out << ", above [tip] max_predicted_error = " << p.bound << " m";
  if (p.rotation_exceeds())
    out << (p.position_exceeds() ? ", and" : " and") << " a rotation error of "
        << amount(p.far_rotation) << " rad, not below " << SpacePrediction::kMaxRotationError
        << " rad: the linearisation fails and the march leaves the prediction (outside the "
           "stable range ds <= c_G dt the twist grows by "
        << p.torsion_per_column << " per column at the grid's top frequency)";
  if (p.position_exceeds() && p.bandwidth_mode >= 0)
    out << "; only frequencies up to " << p.bandwidth << " rad/s are recoverable, the grid has "
        << p.grid_top << " rad/s (largest amplification " << amount(p.peak_amplification) << " at "
        << p.peak_frequency << " rad/s)";
  out << ". Marching in s is ill-posed; the robust methods are the driven time march "
         "([reconstruct] method = \"driven\", docs/reconstruction.md) and an estimator over "
         "the whole (t, s) mesh ([reconstruct] method = \"estimate\", theory §6.7)";
  if (p.position_exceeds())
    out << ". To march anyway, raise [tip] max_predicted_error; a coarser time grid (larger dt) "
           "or less noisy data lower the prediction";
  else
    out << ". A coarser time grid (dt >= ds/c_G, `field info`) lowers the prediction";
  return out.str();
}

}  // namespace field::march

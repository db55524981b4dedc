#pragma once
/// Know before you march (theory §6.3): the space march of theory §6.2, linearised about the
/// straight beam at rest, with one time mode of frequency omega on the time grid. Its column
/// recurrence is exact for the linear scheme (zero-momentum rows: the cosine modes
/// cos(omega_k (t_j + dt/2)), omega_k = k pi/T, diagonalise it in j); its roots mu give the
/// amplification per column, and the recurrence itself the amplification A_a(omega) from the
/// tip data to column a. Combined with the tip data's cosine spectrum and declared noise levels
/// it predicts the far-end error and the recoverable bandwidth.
///
/// Depends only on the density's diagonals J, C and on dt, ds, A, J (not on dcel).
#include <complex>
#include <string>
#include <vector>

#include "libfield/core/types.hpp"

namespace field::march {

/// The linearised scheme's parameters: diagonals of inertia J and stiffness C (theory §1.2), the
/// steps, and whether the rows j = 0 and j = J are prescribed (else zero momentum), which sets
/// the time modes (theory §6.3 (6.4)).
struct LinearBeam {
  Vec6 inertia = Vec6::Zero();
  Vec6 stiffness = Vec6::Zero();
  double dt = 0.0;
  double ds = 0.0;
  bool first_prescribed = false;
  bool last_prescribed = false;
};

/// The decoupled channels of the linearised scheme (theory §6.3): axial (u3), torsion (phi3),
/// bending/shear in the plane of d1 (u1, phi2) and of d2 (u2, phi1).
enum class Channel { axial, torsion, bending1, bending2 };
const char* channel_name(Channel c);

/// Discrete time symbol of theory §6.3: the second difference of e^{i omega t_j} is
/// -W^2 e^{i omega t_j}, W = (2/dt) sin(omega dt/2).
double time_symbol(double omega, double dt);

/// The cosine-mode frequencies omega_k = k pi/(J dt), k = 0..J-1 (theory §6.3 (6.4)): the time
/// modes with zero-momentum rows.
double mode_frequency(int k, int J, double dt);

/// The number of time modes of the linearised march (its unknown rows): J with a zero-momentum
/// first row, J - 1 with a prescribed one (theory §6.3 (6.4)).
int time_mode_count(const LinearBeam& beam, int J);
/// The frequency of time mode i = 0..time_mode_count-1 for the beam's rows (theory §6.3 (6.4)):
/// i pi/T (both rows free), (i + 1) pi/T (both prescribed), (i + 1/2) pi/(T + dt/2) (last
/// prescribed), (i + 1/2) pi/(T - dt/2) (first prescribed), T = J dt.
double time_mode_frequency(const LinearBeam& beam, int J, int i);

/// Column transfer matrix of theory §6.3 (6.7): x^{a+1} = M x^a with x^a = (zeta^a, deta^{a-1}),
/// zeta the body perturbation of the node, deta the strain perturbation of the cell before it.
Eigen::Matrix<double, 12, 12> column_transfer(const LinearBeam& beam, double omega);

/// Largest |mu| among the roots of the channel at frequency omega (theory §6.3 (6.8), (6.9)):
/// the amplification per column of its worst solution.
double column_amplification(const LinearBeam& beam, double omega, Channel c);

/// Growth rate [1/m] of the continuum Timoshenko beam at omega (the largest real part of the
/// roots beta of (6.10)); 0 for axial and torsion waves. The discrete log|mu|/ds tends to it.
double continuum_growth_rate(const Vec6& inertia, const Vec6& stiffness, double omega, Channel c);

/// Response of columns 0..A to a unit perturbation of the tip data at frequency omega:
/// dpose = zeta^0 (body, (rotation, translation)), dstrain = deta^0. Per column the size of the
/// translation |u^a| [m per unit] and of the rotation |phi^a| [rad per unit]; +inf where the
/// response overflows.
struct ColumnResponse {
  std::vector<double> position;
  std::vector<double> rotation;
};
ColumnResponse column_response(const LinearBeam& beam, double omega, int A, const Vec6& dpose,
                               const Vec6& dstrain);

/// Amplification A_a(omega) from the tip to column a (theory §6.3, (6.6)-(6.7)): the largest
/// position response over unit tip-position errors along d1, d2, d3, a = 0..A.
std::vector<double> tip_amplification(const LinearBeam& beam, double omega, int A);

/// Declared noise levels of the tip data (standard deviation per sample, white).
struct TipNoise {
  double position = 0.0;  ///< [m]
  double angle = 0.0;     ///< [rad]
  double strain = 0.0;    ///< [-]
};

/// The tip data's cosine spectrum (DCT-II over rows 0..J-1, orthonormal, signed): per mode k
/// the coefficients of the tip pose deviation zeta_j = (rotation vector of R_0^T R_j,
/// R_0^T (r_j - r_0)) (the linearisation about row 0's pose) and of the strain deviation
/// eta_j - E6.
struct TipSpectrum {
  std::vector<Vec6> pose;       ///< per mode k = 0..J-1
  std::vector<Vec6> strain;     ///< per mode; empty when the strain is not given
  double position_scale = 0.0;  ///< max |r| of the tip data [m] (for the round-off floor)
};
/// pose: J pose deviations zeta_j; strain: J strain deviations (or empty).
TipSpectrum tip_spectrum(const std::vector<Vec6>& pose, const std::vector<Vec6>& strain,
                         double position_scale);

/// Orthonormal DCT-II of x (through Eigen's FFT): X_k = sqrt((2 - delta_k0)/n)
/// sum_j x_j cos(pi k (j + 1/2)/n).
std::vector<double> cosine_transform(const std::vector<double>& x);

/// The prediction of theory §6.3 for a case.
struct SpacePrediction {
  double far_position = 0.0;  ///< predicted RMS position error at column A [m]
  double far_rotation = 0.0;  ///< predicted RMS rotation error at column A [rad]
  double bandwidth = 0.0;     ///< highest omega_k [rad/s] whose noise stays under the bound at A
  int bandwidth_mode = -1;    ///< its k; -1 when not even the static mode stays under the bound
  double data_band = 0.0;     ///< highest omega_k where the data rise above their noise [rad/s]
  int data_band_mode = 0;
  double grid_top = 0.0;            ///< highest mode's frequency [rad/s]
  double top_amplification = 0.0;   ///< A_A at the highest mode (position error per position error)
  double peak_amplification = 0.0;  ///< the largest A_A over the (sampled) modes
  double peak_frequency = 0.0;      ///< where [rad/s]
  double per_column = 0.0;          ///< worst |mu| over channels at the highest mode
  double bound = 0.0;               ///< the bound [m]
  /// The data's own content at omega_k > 0 carried to the far end by the linear scheme (RMS over
  /// rows, an upper estimate) [m]: the size of the reconstructed dynamic motion there; much more
  /// than the beam's length means growing modes that the march will not survive.
  double data_response = 0.0;
  double length = 0.0;      ///< L = A ds [m]
  bool data_known = false;  ///< the spectrum was given (data_band, data_response meaningful)
  /// The data drive the far end beyond ten times the length: growing modes, not a motion.
  bool data_grows() const { return !(data_response <= 10.0 * length); }
  bool exact_data = false;  ///< all declared noise levels are 0 (round-off floor used)
  /// The far-end position error exceeds the bound.
  bool position_exceeds() const { return !(far_position <= bound); }
  double torsion_per_column = 0.0;  ///< |mu| of the torsion channel at the highest mode
  /// Outside the stable range ds <= c_G dt (the torsion channel's top mode grows, |mu| > 1) the
  /// far-end rotation error reaches a radian (theory §6.3, "Outside the stable range"): the twist
  /// moves no position linearly, the linearisation no longer holds, and the position error it
  /// predicts is no bound.
  bool rotation_exceeds() const {
    return torsion_per_column > 1.0 + 1e-9 && !(far_rotation < kMaxRotationError);
  }
  bool exceeds() const { return position_exceeds() || rotation_exceeds(); }
  static constexpr double kMaxRotationError = 1.0;  ///< [rad]
};

/// Predicts the far-end error of the space march from the tip data's noise (declared levels, or
/// the round-off floor of theory §7.4 where they are smaller), amplified mode by mode (theory
/// §6.3 (6.11)); modes are sampled (at most 512) when J is larger.
SpacePrediction predict_space_march(const LinearBeam& beam, int J, int A, const TipNoise& noise,
                                    const TipSpectrum& spectrum, double bound);

/// Lines for `field info` / `field reconstruct` (two-space indent, no trailing newline).
std::string prediction_report(const SpacePrediction& p, const TipNoise& noise);

/// Empty unless data_grows(): the warning that the march will likely break down or return
/// growing modes instead of a motion.
std::string growth_warning(const SpacePrediction& p);

/// Empty unless the data's band reaches past half the grid's top frequency (fewer than four rows
/// per period: the time grid does not resolve the data, or the noise exceeds its declared level)
/// or past the recoverable bandwidth; otherwise the warning with the numbers.
std::string band_warning(const SpacePrediction& p);

/// Empty when the prediction is under its bound; otherwise why the space march refuses and
/// what would work.
std::string refusal_message(const SpacePrediction& p, const TipNoise& noise);

}  // namespace field::march

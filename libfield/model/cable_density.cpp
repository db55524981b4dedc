// The extensible cable on R^3, theory §1.8: W(nu) = 1/2 EA (nu - 1)^2 (1.8.2), slack (1.8.3),
// n = N t (1.8.4), dn/deta (1.8.5), wave speeds (1.8.6).
#include "libfield/model/cable_density.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "libfield/core/error.hpp"

namespace field::model {

CableDensity::CableDensity(const CableSection& section, const Options& options)
    : section_(section), options_(options) {
  for (const double v : {section.EA, section.rhoA})
    FIELD_CHECK(std::isfinite(v) && v > 0.0,
                "cable section: EA and rho A must be positive and "
                "finite, got "
                    << section.EA << " " << section.rhoA);
  FIELD_CHECK(options.gravity.allFinite(),
              "gravity must be finite, got " << options.gravity.transpose());
  FIELD_CHECK(options.free_end_direction.allFinite() &&
                  std::abs(options.free_end_direction.norm() - 1.0) < 1e-12,
              "cable free-end direction must be a unit vector, got "
                  << options.free_end_direction.transpose());
  FIELD_CHECK(std::isfinite(options.reference_tension) && options.reference_tension >= 0.0,
              "cable reference tension must be >= 0 and finite, got " << options.reference_tension);
}

double CableDensity::tension(double stretch) const {
  const double e = stretch - 1.0;
  return section_.EA * (options_.slack ? std::max(e, 0.0) : e);
}

double CableDensity::strain_energy(const Vec3& eta) const {
  const double N = tension(eta.norm());
  return 0.5 * N * N / section_.EA;  // = 1/2 EA (nu - 1)^2, or 0 on the slack branch
}

Vec3 CableDensity::stress(const Vec3& eta) const {
  const double nu = eta.norm();
  if (nu == 0.0) return Vec3::Zero();
  return (tension(nu) / nu) * eta;
}

Mat3 CableDensity::stress_hessian(const Vec3& eta) const {
  const double nu = eta.norm();
  if (nu == 0.0) return section_.EA * Mat3::Identity();
  if (options_.slack && nu < 1.0) return Mat3::Zero();
  const Vec3 t = eta / nu;
  const Mat3 tt = t * t.transpose();
  return section_.EA * tt + (tension(nu) / nu) * (Mat3::Identity() - tt);
}

std::string CableDensity::space_strain_problem(const Vec3& eta, const Vec3& before) const {
  // Theory §6.2, "The branch of the node problem": the taut root of n(eta) = m, continuous along s.
  std::ostringstream why;
  const double nu = eta.norm();
  if (!(nu > 1.0)) {
    why << "the stretch |eta| = " << nu
        << " is not above 1: the cable is compressed or slack here, where n(eta) = m has a "
           "second root or none unique (theory §1.8) and the space march cannot tell which is "
           "the cable's";
  } else if (!(eta.dot(before) > 0.0)) {
    const double angle = std::atan2(eta.cross(before).norm(), eta.dot(before)) * 180.0 / M_PI;
    why << "the strain turns by " << angle
        << " degrees from the column before (stretch |eta| = " << nu
        << "): the taut root of n(eta) = m folds the cable back on itself (the tension went "
           "through zero, or the data are not a taut cable's)";
  }
  return why.str();
}

WaveSpeeds CableDensity::wave_speeds() const {
  const double N = options_.reference_tension;
  const double nu = 1.0 + N / section_.EA;
  return WaveSpeeds{std::sqrt(section_.EA / section_.rhoA), std::sqrt(N / (section_.rhoA * nu)),
                    0.0};
}

}  // namespace field::model

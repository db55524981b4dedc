#pragma once
/// The elastic catenary (Irvine 1981, ch. 2; docs/theory.md (1.8.9)): the static shape of an
/// extensible cable (model::CableDensity, linear law) hanging under its weight w = rho A g per
/// unstretched length, in the Lagrangian coordinate s (unstretched arc length from the support at
/// s = 0), x horizontal, z up, with the horizontal tension H and the vertical support force V at
/// s = 0:
///   x(s) = H s/EA + (H/w)[asinh((w s - V)/H) + asinh(V/H)]
///   z(s) = (w s^2/2 - V s)/EA + (H/w)[sqrt(1 + ((w s - V)/H)^2) - sqrt(1 + (V/H)^2)]
#include "libfield/core/types.hpp"

namespace field::model {

struct ElasticCatenary {
  double EA = 0.0;  ///< axial stiffness [N]
  double w = 0.0;   ///< weight per unstretched length rho A |g| [N/m]
  double H = 0.0;   ///< horizontal tension [N]
  double V = 0.0;   ///< vertical force at the support s = 0 [N] (up)

  /// (x(s), 0, z(s)) of (1.8.9).
  Vec3 operator()(double s) const;

  /// The catenary of a cable of unstretched length L whose support s = L is at (span, 0, rise)
  /// from the support s = 0: (H, V) by Newton's method on x(L) = span, z(L) = rise. Throws
  /// field::Error when there is none (span <= 0, or the supports are further apart than the
  /// cable can reach) or Newton does not converge.
  static ElasticCatenary between(double EA, double w, double L, double span, double rise);
};

}  // namespace field::model

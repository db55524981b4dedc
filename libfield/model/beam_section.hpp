#pragma once
/// Cross-section and material of a beam, theory §1. Units SI.
#include <string>

#include "libfield/core/types.hpp"
#include "libfield/model/wave_speeds.hpp"

namespace field::model {

/// Geometric properties of the cross-section.
struct BeamSection {
  double area = 0.0;     ///< A_c [m^2]
  double I1 = 0.0;       ///< second moment about d1 [m^4]
  double I2 = 0.0;       ///< second moment about d2 [m^4]
  double torsion = 0.0;  ///< torsion constant [m^4] (theory §1 takes I1 + I2)
  double shear_k = 1.0;  ///< shear factor k [-] (theory §1 takes 1)

  /// Square of side b: A = b^2, I1 = I2 = b^4/12, torsion I1 + I2, k = 1 (theory §1).
  static BeamSection square(double side);
  /// Circle of radius R: A = pi R^2, I1 = I2 = pi R^4/4, torsion I1 + I2 (exact), k = 1.
  static BeamSection circle(double radius);
  /// Explicit values; throws field::Error for non-positive or non-finite values.
  static BeamSection explicit_values(double area, double I1, double I2, double torsion,
                                     double shear_k);
  /// Throws field::Error naming the first invalid value.
  void validate() const;
};

/// Linear-elastic, homogeneous material.
struct BeamMaterial {
  double E = 0.0;    ///< Young's modulus [Pa]
  double nu = 0.0;   ///< Poisson ratio [-], in (-1, 0.5)
  double rho = 0.0;  ///< density [kg/m^3]

  double G() const { return E / (2.0 * (1.0 + nu)); }  ///< shear modulus [Pa]
  /// Throws field::Error naming the first invalid value.
  void validate() const;
};

/// Diagonal inertia J = rho diag(I1, I2, I1+I2, A, A, A) (theory §1), as a 6-vector.
Vec6 inertia_diagonal(const BeamSection& section, const BeamMaterial& material);
/// Diagonal stiffness C = diag(E I1, E I2, G torsion, k G A, k G A, E A) (theory §1).
Vec6 stiffness_diagonal(const BeamSection& section, const BeamMaterial& material);

/// Wave speeds and cut-off of theory §1, (1.11)-(1.13), for the step-size rules of theory §6.
WaveSpeeds wave_speeds(const BeamSection& section, const BeamMaterial& material);

}  // namespace field::model

#pragma once
/// The section law of theory §1 as the density uses it: the inertia J and the stiffness C, 6x6
/// symmetric positive definite in the order (angular, linear) = (d1, d2, d3 moment/rotation,
/// d1, d2, d3 force/velocity), d3 along the beam, and the mass per length for the weight.
/// The geometric sections of beam_section.hpp are shortcuts that give a diagonal law.
#include <string>

#include "libfield/core/types.hpp"
#include "libfield/model/beam_section.hpp"

namespace field::model {

/// Component orders in which a 6x6 section matrix may be given (meshes/README.md, [beam]).
enum class SectionOrder {
  libfield,  ///< (M1, M2, M3, F1, F2, F3), d3 along the beam: J and C of theory §1
  beamdyn,   ///< (F1, F2, F3, M1, M2, M3), axis 3 along the beam (BeamDyn)
  gxbeam,    ///< (F1, F2, F3, M1, M2, M3), axis 1 along the beam, 2 and 3 in the section
};

/// p with (libfield matrix)(i, j) = (given matrix)(p[i], p[j]) (theory §1.5).
const int* section_permutation(SectionOrder order);
/// The matrix given in `order`, in the libfield order.
Mat6 to_libfield_order(const Mat6& given, SectionOrder order);

struct SectionLaw {
  Mat6 J = Mat6::Zero();  ///< inertia (rho J1, rho J2, rho J3, rho A, rho A, rho A) [kg m, kg/m]
  Mat6 C = Mat6::Zero();  ///< stiffness (EI1, EI2, GJ, GA1, GA2, EA) [N m^2, N]
  double mass_per_length = 0.0;  ///< rho A [kg/m], of the weight (theory §1)

  /// J = rho diag(I1, I2, I1+I2, A, A, A), C = diag(E I1, E I2, G torsion, kGA, kGA, EA).
  static SectionLaw geometric(const BeamSection& section, const BeamMaterial& material);
  /// The engineering constants directly: C = diag(EI1, EI2, GJ, GA1, GA2, EA),
  /// J = diag(rhoJ1, rhoJ2, rhoJ3, rhoA, rhoA, rhoA).
  static SectionLaw stiffnesses(double EA, double GA1, double GA2, double GJ, double EI1,
                                double EI2, double rhoA, double rhoJ1, double rhoJ2, double rhoJ3);
  /// Full 6x6 matrices in the libfield order; the weight uses the mean of J's linear diagonal.
  static SectionLaw matrices(const Mat6& stiffness, const Mat6& inertia);

  /// True when J and C are diagonal: then the SIMD lane kernels serve the law.
  bool diagonal() const;
  /// Throws field::Error unless J and C are finite, symmetric and positive definite, naming the
  /// matrix and its smallest eigenvalue.
  void validate() const;
};

/// Empty when `m` is finite, symmetric (relative 1e-12) and positive definite; otherwise a
/// sentence naming `name` and the smallest eigenvalue.
std::string spd_problem(const Mat6& m, const std::string& name);

/// Wave speeds of a general law (theory §1.3): c_E and c_G the fastest and slowest of
/// sqrt(eig(J^-1 C)), omega_c = sqrt(min(C44, C55) / max(J11, J22)).
WaveSpeeds wave_speeds(const SectionLaw& law);

}  // namespace field::model

#include "libfield/model/beam_section.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"

namespace field::model {

namespace {
void check_positive(double value, const char* name) {
  FIELD_CHECK(std::isfinite(value) && value > 0.0,
              "beam section: " << name << " must be positive and finite, got " << value);
}
}  // namespace

BeamSection BeamSection::square(double side) {
  check_positive(side, "square side b [m]");
  const double I = std::pow(side, 4) / 12.0;
  return explicit_values(side * side, I, I, 2.0 * I, 1.0);
}

BeamSection BeamSection::circle(double radius) {
  check_positive(radius, "circle radius [m]");
  const double I = M_PI * std::pow(radius, 4) / 4.0;
  return explicit_values(M_PI * radius * radius, I, I, 2.0 * I, 1.0);
}

BeamSection BeamSection::explicit_values(double area, double I1, double I2, double torsion,
                                         double shear_k) {
  BeamSection s{area, I1, I2, torsion, shear_k};
  s.validate();
  return s;
}

void BeamSection::validate() const {
  check_positive(area, "area A [m^2]");
  check_positive(I1, "I1 [m^4]");
  check_positive(I2, "I2 [m^4]");
  check_positive(torsion, "torsion constant [m^4]");
  check_positive(shear_k, "shear factor k");
}

void BeamMaterial::validate() const {
  FIELD_CHECK(std::isfinite(E) && E > 0.0,
              "material: Young's modulus E must be positive, got " << E);
  FIELD_CHECK(std::isfinite(nu) && nu > -1.0 && nu < 0.5,
              "material: Poisson ratio nu must lie in (-1, 0.5), got " << nu);
  FIELD_CHECK(std::isfinite(rho) && rho > 0.0,
              "material: density rho must be positive, got " << rho);
}

Vec6 inertia_diagonal(const BeamSection& s, const BeamMaterial& m) {
  Vec6 d;
  d << s.I1, s.I2, s.I1 + s.I2, s.area, s.area, s.area;
  return m.rho * d;
}

Vec6 stiffness_diagonal(const BeamSection& s, const BeamMaterial& m) {
  const double G = m.G();
  Vec6 d;
  d << m.E * s.I1, m.E * s.I2, G * s.torsion, s.shear_k * G * s.area, s.shear_k * G * s.area,
      m.E * s.area;
  return d;
}

WaveSpeeds wave_speeds(const BeamSection& s, const BeamMaterial& m) {
  WaveSpeeds w;
  w.c_E = std::sqrt(m.E / m.rho);
  w.c_G = std::sqrt(s.shear_k * m.G() / m.rho);
  w.omega_c = std::sqrt(s.shear_k * m.G() * s.area / (m.rho * std::max(s.I1, s.I2)));
  return w;
}

}  // namespace field::model

#include "libfield/model/section_law.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "libfield/core/error.hpp"

namespace field::model {

const int* section_permutation(SectionOrder order) {
  static const int libfield[6] = {0, 1, 2, 3, 4, 5};
  // BeamDyn (F1, F2, F3, M1, M2, M3), axis 3 along the beam: M_i is entry 3 + i, F_i entry i.
  static const int beamdyn[6] = {3, 4, 5, 0, 1, 2};
  // GXBeam (F1, F2, F3, M1, M2, M3), axis 1 along the beam: its axes (2, 3, 1) are our
  // (d1, d2, d3), a cyclic (right-handed) relabelling.
  static const int gxbeam[6] = {4, 5, 3, 1, 2, 0};
  switch (order) {
    case SectionOrder::beamdyn:
      return beamdyn;
    case SectionOrder::gxbeam:
      return gxbeam;
    default:
      return libfield;
  }
}

Mat6 to_libfield_order(const Mat6& given, SectionOrder order) {
  const int* p = section_permutation(order);
  Mat6 m;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) m(i, j) = given(p[i], p[j]);
  return m;
}

SectionLaw SectionLaw::geometric(const BeamSection& section, const BeamMaterial& material) {
  SectionLaw law;
  law.J = inertia_diagonal(section, material).asDiagonal();
  law.C = stiffness_diagonal(section, material).asDiagonal();
  law.mass_per_length = material.rho * section.area;
  return law;
}

SectionLaw SectionLaw::stiffnesses(double EA, double GA1, double GA2, double GJ, double EI1,
                                   double EI2, double rhoA, double rhoJ1, double rhoJ2,
                                   double rhoJ3) {
  SectionLaw law;
  law.C = (Vec6() << EI1, EI2, GJ, GA1, GA2, EA).finished().asDiagonal();
  law.J = (Vec6() << rhoJ1, rhoJ2, rhoJ3, rhoA, rhoA, rhoA).finished().asDiagonal();
  law.mass_per_length = rhoA;
  law.validate();
  return law;
}

SectionLaw SectionLaw::matrices(const Mat6& stiffness, const Mat6& inertia) {
  SectionLaw law;
  law.C = stiffness;
  law.J = inertia;
  const Vec3 m = inertia.diagonal().tail<3>();
  law.mass_per_length = (m(0) == m(1) && m(1) == m(2)) ? m(0) : m.sum() / 3.0;
  law.validate();
  return law;
}

bool SectionLaw::diagonal() const {
  const auto off = [](const Mat6& m) {
    Mat6 o = m;
    o.diagonal().setZero();
    return (o.array() == 0.0).all();
  };
  return off(J) && off(C);
}

std::string spd_problem(const Mat6& m, const std::string& name) {
  std::ostringstream out;
  out.precision(6);
  if (!m.allFinite()) {
    out << "the " << name << " matrix has a non-finite entry";
    return out.str();
  }
  const double scale = m.cwiseAbs().maxCoeff();
  const double asym = (m - m.transpose()).cwiseAbs().maxCoeff();
  if (asym > 1e-12 * scale) {
    out << "the " << name << " matrix is not symmetric (largest |m_ij - m_ji| = " << asym << ")";
    return out.str();
  }
  const Eigen::SelfAdjointEigenSolver<Mat6> eig(0.5 * (m + m.transpose()), Eigen::EigenvaluesOnly);
  const double smallest = eig.eigenvalues()(0);
  if (!(smallest > 0.0)) {
    out << "the " << name << " matrix is not positive definite: its smallest eigenvalue is "
        << smallest;
    return out.str();
  }
  return {};
}

void SectionLaw::validate() const {
  for (const auto& [m, name] : {std::pair{&C, "stiffness C"}, std::pair{&J, "inertia J"}}) {
    const std::string problem = spd_problem(*m, name);
    FIELD_CHECK(problem.empty(), "section law: " << problem);
  }
  FIELD_CHECK(std::isfinite(mass_per_length) && mass_per_length > 0.0,
              "section law: the mass per length must be positive, got " << mass_per_length);
}

WaveSpeeds wave_speeds(const SectionLaw& law) {
  // C v = c^2 J v: the phase speeds of the short waves of theory §1.3.
  const Eigen::GeneralizedSelfAdjointEigenSolver<Mat6> eig(law.C, law.J, Eigen::EigenvaluesOnly);
  WaveSpeeds w;
  w.c_E = std::sqrt(eig.eigenvalues().maxCoeff());
  w.c_G = std::sqrt(eig.eigenvalues().minCoeff());
  w.omega_c = std::sqrt(std::min(law.C(3, 3), law.C(4, 4)) / std::max(law.J(0, 0), law.J(1, 1)));
  return w;
}

}  // namespace field::model

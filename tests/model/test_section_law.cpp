// Section laws given directly (theory §1.3, §1.5): the engineering constants, full 6x6 matrices in
// the libfield, BeamDyn and GXBeam orders, the SPD check, and the wave speeds of a general law.
#include "libfield/model/section_law.hpp"

#include <gtest/gtest.h>

#include <string>

#include "libfield/core/error.hpp"
#include "libfield/model/beam_density.hpp"

namespace field::model {
namespace {

const BeamMaterial kSoft{1e5, 0.35, 1000.0};

TEST(SectionLaw, StiffnessesReproduceTheGeometricLawBitForBit) {
  const BeamSection s = BeamSection::square(0.1);
  const SectionLaw g = SectionLaw::geometric(s, kSoft);
  const Vec6 C = g.C.diagonal(), J = g.J.diagonal();
  // (EA, GA1, GA2, GJ, EI1, EI2, rhoA, rhoJ1, rhoJ2, rhoJ3) from C = (EI1, EI2, GJ, GA1, GA2, EA).
  const SectionLaw e =
      SectionLaw::stiffnesses(C(5), C(3), C(4), C(2), C(0), C(1), J(3), J(0), J(1), J(2));
  EXPECT_EQ(e.C, g.C);
  EXPECT_EQ(e.J, g.J);
  EXPECT_EQ(e.mass_per_length, g.mass_per_length);
  EXPECT_TRUE(e.diagonal());
}

TEST(SectionLaw, FlyingSpaghettiCanBeWritten) {
  // Simo & Vu-Quoc 1988: EA = GA = 1e4, EI = GJ = 500, rhoA = 1, rhoJ = diag(10, 10, 10).
  const SectionLaw law = SectionLaw::stiffnesses(1e4, 1e4, 1e4, 500, 500, 500, 1, 10, 10, 10);
  EXPECT_EQ(law.C.diagonal(), (Vec6() << 500, 500, 500, 1e4, 1e4, 1e4).finished());
  EXPECT_EQ(law.J.diagonal(), (Vec6() << 10, 10, 10, 1, 1, 1).finished());
  const WaveSpeeds w = wave_speeds(law);
  EXPECT_DOUBLE_EQ(w.c_E, 100.0);            // sqrt(EA / rhoA)
  EXPECT_DOUBLE_EQ(w.c_G, std::sqrt(50.0));  // sqrt(EI / rhoJ)
  EXPECT_DOUBLE_EQ(w.omega_c, std::sqrt(1e3));
}

TEST(SectionLaw, OrdersPermuteToLibfield) {
  // Diagonal stiffness with distinct entries: in libfield order (EI1, EI2, GJ, GA1, GA2, EA).
  const Vec6 ours = (Vec6() << 1, 2, 3, 4, 5, 6).finished();
  // BeamDyn (F1, F2, F3, M1, M2, M3), axis 3 along the beam: (GA1, GA2, EA, EI1, EI2, GJ).
  const Vec6 beamdyn = (Vec6() << 4, 5, 6, 1, 2, 3).finished();
  // GXBeam (F1, F2, F3, M1, M2, M3), axis 1 along the beam: (EA, GA1, GA2, GJ, EI1, EI2).
  const Vec6 gxbeam = (Vec6() << 6, 4, 5, 3, 1, 2).finished();
  EXPECT_EQ(to_libfield_order(Mat6(beamdyn.asDiagonal()), SectionOrder::beamdyn).diagonal(), ours);
  EXPECT_EQ(to_libfield_order(Mat6(gxbeam.asDiagonal()), SectionOrder::gxbeam).diagonal(), ours);
  EXPECT_EQ(to_libfield_order(Mat6(ours.asDiagonal()), SectionOrder::libfield).diagonal(), ours);
  // A coupling entry travels with its pair: BeamDyn extension-twist K36 is our C(5, 2).
  Mat6 k = Mat6::Identity();
  k(2, 5) = k(5, 2) = 0.25;
  const Mat6 c = to_libfield_order(k, SectionOrder::beamdyn);
  EXPECT_EQ(c(5, 2), 0.25);
  EXPECT_EQ(c(2, 5), 0.25);
  EXPECT_EQ((c - c.transpose()).cwiseAbs().maxCoeff(), 0.0);
}

std::string message(const Mat6& C, const Mat6& J) {
  try {
    SectionLaw::matrices(C, J);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(SectionLaw, RejectsMatricesThatAreNotSymmetricPositiveDefinite) {
  const Mat6 I = Mat6::Identity();
  Mat6 indefinite = I;
  indefinite(0, 1) = indefinite(1, 0) = 2.0;  // eigenvalues 3 and -1
  EXPECT_NE(message(indefinite, I)
                .find("stiffness C matrix is not positive definite: its "
                      "smallest eigenvalue is -1"),
            std::string::npos)
      << message(indefinite, I);
  EXPECT_NE(message(I, indefinite).find("inertia J matrix is not positive definite"),
            std::string::npos);
  Mat6 skew = I;
  skew(0, 1) = 0.5;
  EXPECT_NE(message(skew, I).find("stiffness C matrix is not symmetric"), std::string::npos);
  EXPECT_EQ(message(I, I), "");
}

TEST(SectionLaw, CoupledWaveSpeedsAreTheGeneralisedEigenvalues) {
  Mat6 C = Mat6::Identity() * 4.0, J = Mat6::Identity();
  C(2, 5) = C(5, 2) = 2.0;  // eig of [[4, 2], [2, 4]]: 2 and 6
  const SectionLaw law = SectionLaw::matrices(C, J);
  EXPECT_FALSE(law.diagonal());
  EXPECT_FALSE(BeamDensity(law).diagonal());
  const WaveSpeeds w = wave_speeds(law);
  EXPECT_NEAR(w.c_E, std::sqrt(6.0), 1e-14);
  EXPECT_NEAR(w.c_G, std::sqrt(2.0), 1e-14);
}

TEST(SectionLaw, CoupledDensityUsesTheMatrices) {
  Mat6 C = Mat6::Identity() * 4.0, J = Mat6::Identity() * 2.0;
  C(0, 4) = C(4, 0) = 1.0;
  J(1, 3) = J(3, 1) = 0.5;
  const BeamDensity d(SectionLaw::matrices(C, J));
  const Vec6 x = (Vec6() << 0.1, -0.2, 0.3, 0.4, -0.5, 0.6).finished();
  const Vec6 eta = x + BeamDensity::E6(), e = eta - BeamDensity::E6();
  EXPECT_EQ(d.kinetic_momentum(x), Vec6(J * x));
  EXPECT_EQ(d.stress(eta), Vec6(C * e));
  EXPECT_DOUBLE_EQ(d.kinetic_energy(x), 0.5 * x.dot(J * x));
  EXPECT_DOUBLE_EQ(d.strain_energy(eta), 0.5 * e.dot(C * e));
  EXPECT_EQ(d.kinetic_hessian(x), J);
  EXPECT_EQ(d.stress_hessian(eta), C);
}

}  // namespace
}  // namespace field::model

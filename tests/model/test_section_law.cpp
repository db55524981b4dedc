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

// A real BeamDyn blade file: the NREL 5-MW blade, station eta = 0 (root), of OpenFAST
// docs/source/user/beamdyn/examples/nrel_5mw_blade.inp. BeamDyn's docs (input_files.rst,
// "Distributed Properties") give its stiffness as diag(K_ShrFlp, K_ShrEdg, EA, EI_Edg, EI_Flp,
// GJ) with Z_l along the beam. Cross-check of flap against edge: OpenFAST/r-test's ElastoDyn
// file for the same blade, glue-codes/openfast/5MW_Baseline/NRELOffshrBsline5MW_Blade.dat, has at
// the root FlpStff 1.811e10 and EdgStff 1.81136e10 (and at 0.03577, 1.74559e10 and 1.94978e10,
// BeamDyn's K55 and K44 there).
TEST(SectionLaw, BeamDynNrel5MwRootStationLandsOnTheTheoryComponents) {
  const Vec6 k =
      (Vec6() << 9.729480E+08, 9.729480E+08, 9.729480E+09, 1.811360E+10, 1.811000E+10, 5.564400E+09)
          .finished();
  const Vec6 m =
      (Vec6() << 6.789350E+02, 6.789350E+02, 6.789350E+02, 9.730400E+02, 9.728600E+02, 1.945900E+03)
          .finished();
  const Mat6 C = to_libfield_order(Mat6(k.asDiagonal()), SectionOrder::beamdyn);
  const Mat6 J = to_libfield_order(Mat6(m.asDiagonal()), SectionOrder::beamdyn);
  // Theory §1.5: C = diag(EI1, EI2, GJ, GA1, GA2, EA), d1 = X_l (flapwise), d2 = Y_l (edgewise).
  EXPECT_EQ(C.diagonal(), (Vec6() << 1.811360E+10,  // EI1 = EI_Edg, bending about X_l
                           1.811000E+10,            // EI2 = EI_Flp, bending about Y_l
                           5.564400E+09,            // GJ
                           9.729480E+08,            // GA1 = K_ShrFlp
                           9.729480E+08,            // GA2 = K_ShrEdg
                           9.729480E+09)            // EA
                              .finished());
  EXPECT_EQ(J.diagonal(), (Vec6() << 9.730400E+02, 9.728600E+02, 1.945900E+03, 6.789350E+02,
                           6.789350E+02, 6.789350E+02)
                              .finished());
  const SectionLaw law = SectionLaw::matrices(C, J);
  EXPECT_EQ(law.mass_per_length, 6.789350E+02);
  EXPECT_TRUE(law.diagonal());
  // Per channel c = sqrt(C_ii / J_ii) (theory §1.3); the fastest is the rotation about X_l,
  // sqrt(EI_Edg / i_Edg) = 4315 m/s, faster than the axial sqrt(EA / m) = 3786 m/s.
  const double c_E = std::sqrt(1.811360E+10 / 9.730400E+02);
  EXPECT_NEAR(wave_speeds(law).c_E, c_E, 1e-12 * c_E);
}

// BeamDyn's generalized sectional mass matrix (input_files.rst, "Distributed Properties"), with
// the centre of mass at (X_cm, Y_cm) in the section, permuted to our order, is the inertia of a
// section whose mass sits at c = (X_cm, Y_cm, 0) in (d1, d2, d3): its linear momentum is
// p = m (v + omega x c), which is how J couples the angular and linear velocities.
TEST(SectionLaw, BeamDynMassOffsetsGiveTheMomentumOfAnOffsetCentreOfMass) {
  const double mass = 678.935, X = 0.25, Y = -0.125, iE = 973.04, iF = 972.86, icp = 0.5;
  Mat6 bd;
  bd << mass, 0, 0, 0, 0, -mass * Y,       //
      0, mass, 0, 0, 0, mass * X,          //
      0, 0, mass, mass * Y, -mass * X, 0,  //
      0, 0, mass * Y, iE, -icp, 0,         //
      0, 0, -mass * X, -icp, iF, 0,        //
      -mass * Y, mass * X, 0, 0, 0, iE + iF;
  const SectionLaw law =
      SectionLaw::matrices(Mat6::Identity(), to_libfield_order(bd, SectionOrder::beamdyn));
  const Vec3 c(X, Y, 0.0);
  for (int a = 0; a < 3; ++a) {
    Vec6 xi = Vec6::Zero();
    xi(a) = 1.0;  // a unit angular velocity about d_a
    const Vec3 p = law.J.bottomRows<3>() * xi;
    const Vec3 expected = mass * Vec3::Unit(a).cross(c);
    EXPECT_NEAR((p - expected).norm(), 0.0, 1e-12) << "omega along d" << a + 1;
  }
  EXPECT_EQ(law.mass_per_length, mass);
}

// GXBeam's element compliance maps (F, M) to (gamma11, 2 gamma12, 2 gamma13, kappa1, kappa2,
// kappa3) with e1 along the beam (src/element.jl: element_strain, element_curvature, and
// static_element_equations' CtCab*(e1 + gamma) - Cab*e1). The inverse of a diagonal compliance
// diag(1/EA, 1/GA2, 1/GA3, 1/GJ, 1/EI2, 1/EI3) lands EA on our d3 and GJ on our torsion.
TEST(SectionLaw, GxbeamInverseComplianceLandsOnTheTheoryComponents) {
  const Vec6 stiff = (Vec6() << 6.0, 4.0, 5.0, 3.0, 1.0, 2.0).finished();  // EA, GA, GA, GJ, EI, EI
  const Mat6 S = Mat6(stiff.cwiseInverse().asDiagonal());
  const Mat6 C = to_libfield_order(Mat6(S.inverse()), SectionOrder::gxbeam);
  EXPECT_DOUBLE_EQ(C(5, 5), 6.0);  // EA
  EXPECT_DOUBLE_EQ(C(2, 2), 3.0);  // GJ
  EXPECT_DOUBLE_EQ(C(0, 0), 1.0);  // EI about x2 = d1
  EXPECT_DOUBLE_EQ(C(1, 1), 2.0);  // EI about x3 = d2
  EXPECT_DOUBLE_EQ(C(3, 3), 4.0);  // shear along x2 = d1
  EXPECT_DOUBLE_EQ(C(4, 4), 5.0);  // shear along x3 = d2
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

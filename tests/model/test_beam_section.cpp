// Cross-section, material, the diagonal inertia and stiffness of theory §1 and the wave speeds,
// checked on the "soft beam" of theory §11 against exact fractions and the theory's printed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/model/beam_section.hpp"
#include "tests/support/errors.hpp"

namespace field::model {
namespace {

using test::contains;
using test::error_message;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kExactTol = 1e-14;  // relative, for closed forms evaluated in double

void expect_rel(double value, double exact, double tol, const std::string& what) {
  EXPECT_LE(std::abs(value - exact), tol * std::abs(exact))
      << what << ": " << value << " vs " << exact;
}

// The soft beam of theory §11: b = 0.1 m, E = 1e5 Pa, nu = 0.35, rho = 1000 kg/m^3, k = 1.
constexpr double kB = 0.1;
constexpr double kE = 1e5;
constexpr double kNu = 0.35;
constexpr double kRho = 1000.0;
const BeamMaterial kSoft{kE, kNu, kRho};

TEST(BeamSection, SquareSection) {
  const BeamSection s = BeamSection::square(kB);
  expect_rel(s.area, 1e-2, kExactTol, "area b^2");
  expect_rel(s.I1, 1e-4 / 12.0, kExactTol, "I1 = b^4/12");
  expect_rel(s.I2, 1e-4 / 12.0, kExactTol, "I2 = b^4/12");
  expect_rel(s.torsion, 2e-4 / 12.0, kExactTol, "torsion I1 + I2");
  EXPECT_EQ(s.shear_k, 1.0);
  // A side that is not a power of ten: b = 3 gives exact small integers.
  const BeamSection t = BeamSection::square(3.0);
  EXPECT_EQ(t.area, 9.0);
  EXPECT_EQ(t.I1, 81.0 / 12.0);
  EXPECT_EQ(t.I2, 81.0 / 12.0);
  EXPECT_EQ(t.torsion, 81.0 / 6.0);
}

TEST(BeamSection, CircleSection) {
  for (double R : {0.05, 0.3, 2.0}) {
    const BeamSection s = BeamSection::circle(R);
    expect_rel(s.area, M_PI * R * R, kExactTol, "area pi R^2");
    expect_rel(s.I1, M_PI * R * R * R * R / 4.0, kExactTol, "I1 = pi R^4/4");
    expect_rel(s.I2, M_PI * R * R * R * R / 4.0, kExactTol, "I2 = pi R^4/4");
    // Polar moment pi R^4/2: the exact torsion constant of a circle.
    expect_rel(s.torsion, M_PI * R * R * R * R / 2.0, kExactTol, "torsion pi R^4/2");
    EXPECT_EQ(s.shear_k, 1.0);
  }
}

TEST(BeamSection, ExplicitValuesAreStored) {
  const BeamSection s = BeamSection::explicit_values(0.02, 3e-5, 4e-5, 5e-5, 5.0 / 6.0);
  EXPECT_EQ(s.area, 0.02);
  EXPECT_EQ(s.I1, 3e-5);
  EXPECT_EQ(s.I2, 4e-5);
  EXPECT_EQ(s.torsion, 5e-5);
  EXPECT_EQ(s.shear_k, 5.0 / 6.0);
}

TEST(BeamSection, SoftBeamInertiaExact) {
  const Vec6 J = inertia_diagonal(BeamSection::square(kB), kSoft);
  // rho diag(I1, I2, I1 + I2, A, A, A) with b^4 = 1e-4, b^2 = 1e-2.
  const double exact[6] = {1000.0 * 1e-4 / 12.0, 1000.0 * 1e-4 / 12.0, 1000.0 * 2e-4 / 12.0,
                           1000.0 * 1e-2,        1000.0 * 1e-2,        1000.0 * 1e-2};
  for (int k = 0; k < 6; ++k) expect_rel(J(k), exact[k], kExactTol, "J(" + std::to_string(k) + ")");
}

TEST(BeamSection, SoftBeamInertiaAsPrintedInSpec) {
  // theory §11: J = (8.3333e-3, 8.3333e-3, 1.6667e-2, 10, 10, 10), to the printed digits.
  const Vec6 J = inertia_diagonal(BeamSection::square(kB), kSoft);
  EXPECT_NEAR(J(0), 8.3333e-3, 0.5e-7);
  EXPECT_NEAR(J(1), 8.3333e-3, 0.5e-7);
  EXPECT_NEAR(J(2), 1.6667e-2, 0.5e-6);
  EXPECT_NEAR(J(3), 10.0, 0.5);
  EXPECT_NEAR(J(4), 10.0, 0.5);
  EXPECT_NEAR(J(5), 10.0, 0.5);
}

TEST(BeamSection, SoftBeamStiffnessExact) {
  const Vec6 C = stiffness_diagonal(BeamSection::square(kB), kSoft);
  const double G = 1e5 / 2.7;  // E / (2 (1 + nu))
  // diag(E I1, E I2, G (I1 + I2), k G A, k G A, E A), k = 1.
  const double exact[6] = {1e5 * 1e-4 / 12.0, 1e5 * 1e-4 / 12.0, G * 2e-4 / 12.0,
                           G * 1e-2,          G * 1e-2,          1e5 * 1e-2};
  for (int k = 0; k < 6; ++k) expect_rel(C(k), exact[k], kExactTol, "C(" + std::to_string(k) + ")");
  // The same as fractions: 5/6, 5/6, 50/81, 10000/27, 10000/27, 1000.
  expect_rel(C(0), 5.0 / 6.0, kExactTol, "E I1 = 5/6");
  expect_rel(C(2), 50.0 / 81.0, kExactTol, "G (I1 + I2) = 50/81");
  expect_rel(C(3), 10000.0 / 27.0, kExactTol, "k G A = 10000/27");
  expect_rel(C(5), 1000.0, kExactTol, "E A = 1000");
}

TEST(BeamSection, SoftBeamStiffnessAsPrintedInSpec) {
  // theory §11: C = (0.83333, 0.83333, 0.61728, 370.37, 370.37, 1000), to the printed digits.
  const Vec6 C = stiffness_diagonal(BeamSection::square(kB), kSoft);
  EXPECT_NEAR(C(0), 0.83333, 0.5e-5);
  EXPECT_NEAR(C(1), 0.83333, 0.5e-5);
  EXPECT_NEAR(C(2), 0.61728, 0.5e-5);
  EXPECT_NEAR(C(3), 370.37, 0.5e-2);
  EXPECT_NEAR(C(4), 370.37, 0.5e-2);
  EXPECT_NEAR(C(5), 1000.0, 0.5);
}

TEST(BeamSection, SoftBeamShearModulusAndWaveSpeeds) {
  expect_rel(kSoft.G(), 1e5 / 2.7, kExactTol, "G");
  EXPECT_NEAR(kSoft.G(), 37037.04, 0.5e-2);  // theory §11: G = 37037.04 Pa
  const WaveSpeeds w = wave_speeds(BeamSection::square(kB), kSoft);
  expect_rel(w.c_E, 10.0, kExactTol, "c_E = sqrt(E/rho)");
  expect_rel(w.c_G, std::sqrt(1e5 / 2.7 / 1000.0), kExactTol, "c_G = sqrt(k G/rho)");
  EXPECT_NEAR(w.c_G, 6.086, 0.5e-3);  // theory §11: c_G = 6.086 m/s
  // theory §1: omega_c = sqrt(k G A/(rho I1)) = sqrt(12 k G/(rho b^2)).
  expect_rel(w.omega_c, std::sqrt(12.0 * (1e5 / 2.7) / (1000.0 * 1e-2)), kExactTol, "omega_c");
  EXPECT_NEAR(w.omega_c, 210.8, 0.05);
  EXPECT_NEAR(w.omega_c, 211.0, 0.5);  // theory §10 notes: omega_c ~ 211 rad/s
}

TEST(BeamSection, ShearFactorEntersShearStiffnessAndShearSpeed) {
  const double k = 5.0 / 6.0;
  const BeamSection s = BeamSection::explicit_values(0.01, 2e-6, 5e-6, 4e-6, k);
  const BeamMaterial m{2e11, 0.3, 7800.0};
  const double G = 2e11 / 2.6;
  const Vec6 C = stiffness_diagonal(s, m);
  const double exact[6] = {2e11 * 2e-6,  2e11 * 5e-6,  G * 4e-6,
                           k * G * 0.01, k * G * 0.01, 2e11 * 0.01};
  for (int i = 0; i < 6; ++i) expect_rel(C(i), exact[i], kExactTol, "C(" + std::to_string(i) + ")");
  const Vec6 J = inertia_diagonal(s, m);
  const double exact_J[6] = {7800 * 2e-6, 7800 * 5e-6, 7800 * 7e-6,
                             7800 * 0.01, 7800 * 0.01, 7800 * 0.01};
  for (int i = 0; i < 6; ++i)
    expect_rel(J(i), exact_J[i], kExactTol, "J(" + std::to_string(i) + ")");
  const WaveSpeeds w = wave_speeds(s, m);
  expect_rel(w.c_E, std::sqrt(2e11 / 7800.0), kExactTol, "c_E");
  expect_rel(w.c_G, std::sqrt(k * G / 7800.0), kExactTol, "c_G");
  // The lowest cut-off: the larger second moment I2.
  expect_rel(w.omega_c, std::sqrt(k * G * 0.01 / (7800.0 * 5e-6)), kExactTol, "omega_c");
}

TEST(BeamMaterial, ShearModulus) {
  EXPECT_EQ((BeamMaterial{3.0, 0.0, 1.0}).G(), 1.5);
  expect_rel((BeamMaterial{1e5, -0.5, 1.0}).G(), 1e5, kExactTol, "G(nu = -0.5)");
  expect_rel((BeamMaterial{2e11, 0.3, 7800}).G(), 2e11 / 2.6, kExactTol, "G(nu = 0.3)");
}

TEST(BeamSection, RejectsInvalidSide) {
  for (double b : {0.0, -0.1, kNaN, kInf}) {
    const std::string msg = error_message([&] { BeamSection::square(b); });
    EXPECT_TRUE(contains(msg, "side")) << msg;
    std::ostringstream printed;
    printed << "got " << b;
    EXPECT_TRUE(contains(msg, printed.str())) << msg;
  }
  for (double R : {0.0, -2.0, kNaN}) {
    const std::string msg = error_message([&] { BeamSection::circle(R); });
    EXPECT_TRUE(contains(msg, "radius")) << msg;
    std::ostringstream printed;
    printed << "got " << R;
    EXPECT_TRUE(contains(msg, printed.str())) << msg;
  }
}

TEST(BeamSection, RejectsInvalidExplicitValues) {
  const double good[5] = {0.01, 1e-6, 2e-6, 3e-6, 1.0};
  const char* names[5] = {"area", "I1", "I2", "torsion", "shear factor"};
  for (int which = 0; which < 5; ++which) {
    for (double bad : {0.0, -1.5, kNaN, -kInf}) {
      double v[5];
      std::copy(std::begin(good), std::end(good), v);
      v[which] = bad;
      const std::string msg =
          error_message([&] { BeamSection::explicit_values(v[0], v[1], v[2], v[3], v[4]); });
      EXPECT_TRUE(contains(msg, names[which])) << msg;
      std::ostringstream printed;
      printed << "got " << bad;
      EXPECT_TRUE(contains(msg, printed.str())) << msg;
      // validate() on a struct built directly says the same.
      const BeamSection s{v[0], v[1], v[2], v[3], v[4]};
      EXPECT_EQ(error_message([&] { s.validate(); }), msg);
    }
  }
  // A default-constructed section is invalid (zero area).
  EXPECT_TRUE(contains(error_message([] { BeamSection().validate(); }), "area"));
  EXPECT_NO_THROW(BeamSection::square(kB).validate());
}

TEST(BeamMaterial, AcceptsValidValues) {
  EXPECT_NO_THROW(kSoft.validate());
  EXPECT_NO_THROW((BeamMaterial{1.0, -0.999, 1.0}).validate());
  EXPECT_NO_THROW((BeamMaterial{1.0, 0.499, 1.0}).validate());
  EXPECT_NO_THROW((BeamMaterial{1.0, 0.0, 1.0}).validate());
}

TEST(BeamMaterial, RejectsInvalidYoungsModulus) {
  for (double E : {0.0, -1e5, kNaN, kInf}) {
    const std::string msg = error_message([&] { BeamMaterial{E, 0.3, 1000}.validate(); });
    EXPECT_TRUE(contains(msg, "Young's modulus E")) << msg;
    std::ostringstream printed;
    printed << "got " << E;
    EXPECT_TRUE(contains(msg, printed.str())) << msg;
  }
}

TEST(BeamMaterial, RejectsPoissonRatioOutsideRange) {
  for (double nu : {-1.0, -1.5, 0.5, 0.7, kNaN}) {
    const std::string msg = error_message([&] { BeamMaterial{1e5, nu, 1000}.validate(); });
    EXPECT_TRUE(contains(msg, "Poisson ratio nu")) << msg;
    std::ostringstream printed;
    printed << "got " << nu;
    EXPECT_TRUE(contains(msg, printed.str())) << msg;
  }
}

TEST(BeamMaterial, RejectsInvalidDensity) {
  for (double rho : {0.0, -1000.0, kNaN}) {
    const std::string msg = error_message([&] { BeamMaterial{1e5, 0.3, rho}.validate(); });
    EXPECT_TRUE(contains(msg, "density rho")) << msg;
    std::ostringstream printed;
    printed << "got " << rho;
    EXPECT_TRUE(contains(msg, printed.str())) << msg;
  }
}

}  // namespace
}  // namespace field::model

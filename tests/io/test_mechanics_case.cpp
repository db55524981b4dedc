// io/mechanics_case: the shipped cases read, and errors name file:line and the key.
#include <gtest/gtest.h>

#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/mechanics_case.hpp"

namespace field::io {
namespace {

const std::string kPendulum = R"(format = 1
system = "double_pendulum"
[time]
h = 0.01
steps = 10
[double_pendulum]
m1 = 1.0
m2 = 2.0
l1 = 1.0
l2 = 0.5
theta1 = 0.3
theta2 = 0.4
)";

std::string error_of(const std::string& text) {
  try {
    parse_mechanics_case(text, "case.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(MechanicsCase, ShippedCasesRead) {
  const MechanicsCase p =
      load_mechanics_case(std::string(FIELD_SOURCE_DIR) + "/meshes/double_pendulum/case.toml");
  EXPECT_EQ(p.system, MechanicsSystemKind::double_pendulum);
  EXPECT_EQ(p.scheme, mechanics::ConstraintScheme::rattle);
  const MechanicsCase r =
      load_mechanics_case(std::string(FIELD_SOURCE_DIR) + "/meshes/rigid_body/case.toml");
  EXPECT_EQ(r.system, MechanicsSystemKind::rigid_body);
  EXPECT_EQ(r.inertia(1, 1), 3.0);
}

TEST(MechanicsCase, DefaultsAndValues) {
  const MechanicsCase c = parse_mechanics_case(kPendulum, "case.toml");
  EXPECT_EQ(c.steps, 10);
  EXPECT_EQ(c.pendulum.m2, 2.0);
  EXPECT_EQ(c.pendulum.gravity, 9.81);
  EXPECT_EQ(c.quadrature, mechanics::Quadrature::trapezoidal);
  EXPECT_EQ(c.vtk_stride, 10);
}

TEST(MechanicsCase, ErrorsNameFileLineAndKey) {
  std::string text = kPendulum;
  text.replace(text.find("l2 = 0.5"), 8, "l2 = -0.5");
  EXPECT_NE(error_of(text).find("case.toml:10: [double_pendulum] l2 = -0.5: must be > 0"),
            std::string::npos)
      << error_of(text);
  EXPECT_NE(error_of(kPendulum + "lenght = 3\n")
                .find("case.toml:13: unknown key [double_pendulum] lenght"),
            std::string::npos)
      << error_of(kPendulum + "lenght = 3\n");
  std::string method = kPendulum + "[method]\nconstraints = \"rattel\"\n";
  EXPECT_NE(
      error_of(method).find("case.toml:14: [method] constraints = \"rattel\": expected one of"),
      std::string::npos)
      << error_of(method);
  std::string body = R"(format = 1
system = "rigid_body"
[time]
h = 0.01
steps = 10
[rigid_body]
principal_moments = [1.0, 1.0, 3.0]
omega = [0.0, 1.0, 0.0]
)";
  EXPECT_NE(error_of(body).find("case.toml:7: [rigid_body] principal_moments = [1.0, 1.0, 3.0]: "
                                "rigid body: the principal moments"),
            std::string::npos)
      << error_of(body);
  EXPECT_EQ(error_of(body).find("check '"), std::string::npos) << "no code location for user data";
}

TEST(MechanicsCase, OutputsAreBoundedWithTheStrideThatFits) {
  // 10^8 steps: 10^8 + 1 CSV rows (about 30 GB) and 10^7 + 1 frames with the defaults.
  std::string many = kPendulum;
  many.replace(many.find("steps = 10"), 10, "steps = 100000000");
  const std::string rows = error_of(many);
  EXPECT_NE(rows.find("case.toml:5: [time] steps = 100000000: steps = 100000000 with csv_stride "
                      "= 1 writes 100000001 rows of mechanics.csv (about 30 GB), more than "
                      "10000000: set [output] csv_stride >= 11"),
            std::string::npos)
      << rows;
  const std::string frames = error_of(many + "[output]\ncsv_stride = 11\n");
  EXPECT_NE(frames.find("[output] vtk_stride >= 1001"), std::string::npos) << frames;
  EXPECT_NE(frames.find("case.toml:5: [time] steps"), std::string::npos) << frames;
  // At the bounds the case reads.
  EXPECT_EQ(error_of(many + "[output]\ncsv_stride = 11\nvtk_stride = 1001\n"), "no error");
  EXPECT_EQ(error_of(many + "[output]\ncsv_stride = 11\nvtk_stride = 0\n"), "no error");
  const std::string named = error_of(many + "[output]\ncsv_stride = 10\nvtk_stride = 0\n");
  EXPECT_NE(named.find("[output] csv_stride = 10: "), std::string::npos) << named;
}

}  // namespace
}  // namespace field::io

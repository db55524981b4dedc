#include "libfield/io/mechanics_case.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/io/excerpt.hpp"
#include "libfield/io/input_file.hpp"
#include "libfield/io/toml_table.hpp"
#include "libfield/mechanics/rigid_body.hpp"

namespace field::io {

namespace fs = std::filesystem;

namespace {

/// Output bounds of a mechanics run (10^7 rows: about 3 GB of CSV; 10^5 frame files).
constexpr long long kMaxMechanicsRows = 10000000;
constexpr long long kMaxMechanicsFrames = 100000;

void read_pendulum(TomlTable t, MechanicsCase& c) {
  auto& p = c.pendulum;
  p.m1 = t.positive("m1", std::nullopt, "mass of the first point [kg]");
  p.m2 = t.positive("m2", std::nullopt, "mass of the second point [kg]");
  p.l1 = t.positive("l1", std::nullopt, "length of the first rod [m]");
  p.l2 = t.positive("l2", std::nullopt, "length of the second rod [m]");
  p.gravity = t.number("gravity", 9.81, "gravitational acceleration along -z [m/s^2]");
  if (p.gravity < 0) t.fail("gravity", "must be >= 0 (it points along -z)");
  c.theta1 =
      t.number("theta1", std::nullopt, "polar angle of rod 1 from the downward vertical [rad]");
  c.phi1 = t.number("phi1", 0.0, "azimuth of rod 1 about z [rad]");
  c.theta2 =
      t.number("theta2", std::nullopt, "polar angle of rod 2 from the downward vertical [rad]");
  c.phi2 = t.number("phi2", 0.0, "azimuth of rod 2 about z [rad]");
  c.v1 = t.vec<3>("v1", Vec3::Zero(), "initial velocity of mass 1 [m/s]");
  c.v2 = t.vec<3>("v2", Vec3::Zero(), "initial velocity of mass 2 [m/s]");
  t.reject_unknown();
}

void read_rigid_body(TomlTable t, MechanicsCase& c) {
  if (t.has("inertia") && t.has("principal_moments"))
    t.fail("principal_moments", "give either inertia (a 3x3 tensor) or principal_moments");
  if (t.has("principal_moments")) {
    const Vec3 moments = t.vec<3>("principal_moments", std::nullopt, "J1, J2, J3 [kg m^2]");
    c.inertia = moments.asDiagonal();
  } else {
    c.inertia = t.matrix<3, 3>("inertia", "body-frame inertia tensor [kg m^2], rows");
  }
  try {
    mechanics::matrix_inertia(c.inertia);
  } catch (const Error& e) {
    t.fail(t.has("inertia") ? "inertia" : "principal_moments", e.what());
  }
  c.form = t.choice("form", "lie_group", {"lie_group", "rotation_matrix"}) == "lie_group"
               ? RigidBodyForm::lie_group
               : RigidBodyForm::rotation_matrix;
  c.axis = t.vec<3>("axis", Vec3::UnitZ(), "axis of the initial rotation");
  if (!(c.axis.norm() > 0)) t.fail("axis", "must not be zero");
  c.axis.normalize();
  c.angle = t.number("angle", 0.0, "angle of the initial rotation [rad]");
  c.omega = t.vec<3>("omega", std::nullopt, "initial body angular velocity [rad/s]");
  t.reject_unknown();
}

}  // namespace

MechanicsCase load_mechanics_case(const fs::path& file) {
  return parse_mechanics_case(read_input(file, kCaseFileLimit, "case file"), file);
}

MechanicsCase parse_mechanics_case(const std::string& text, const fs::path& file) {
  const toml::table root = parse_toml(text, file);
  MechanicsCase c;
  c.file = fs::absolute(file).lexically_normal();
  TomlTable top(root, "", c.file);
  if (top.integer("format", std::nullopt, 1, "case format version (1)") != 1)
    top.fail("format", "this version of field reads format = 1");
  c.name = top.string("name", c.file.parent_path().filename().string(), "case name");
  c.description = top.string("description", "", "one line on what the case shows");
  c.system =
      top.choice("system", std::nullopt, {"double_pendulum", "rigid_body"}) == "double_pendulum"
          ? MechanicsSystemKind::double_pendulum
          : MechanicsSystemKind::rigid_body;

  std::optional<TomlTable> time = top.table("time");
  if (!time) top.fail("time", "the case needs a [time] table (h, steps)");
  c.h = time->positive("h", std::nullopt, "time step [s]");
  c.steps = time->integer("steps", std::nullopt, 1, "number of time steps");
  time->reject_unknown();

  if (std::optional<TomlTable> method = top.table("method")) {
    c.quadrature =
        method->choice("quadrature", "trapezoidal", {"trapezoidal", "midpoint"}) == "trapezoidal"
            ? mechanics::Quadrature::trapezoidal
            : mechanics::Quadrature::midpoint;
    c.scheme = method->choice("constraints", "rattle", {"rattle", "shake"}) == "rattle"
                   ? mechanics::ConstraintScheme::rattle
                   : mechanics::ConstraintScheme::shake;
    c.newton.tolerance = method->positive("tolerance", 1e-12, "Newton step tolerance");
    if (c.newton.tolerance < 1e-15 || c.newton.tolerance > 1e-6)
      method->fail("tolerance", "must be between 1e-15 and 1e-6");
    c.newton.max_iterations =
        method->integer("max_iterations", 30, 1, "Newton iterations per step", 200);
    method->reject_unknown();
  }

  const std::string section =
      c.system == MechanicsSystemKind::double_pendulum ? "double_pendulum" : "rigid_body";
  const std::string other =
      c.system == MechanicsSystemKind::double_pendulum ? "rigid_body" : "double_pendulum";
  if (top.has(other))
    top.fail(other, "this case is system = \"" + section + "\": remove the [" + other + "] table");
  std::optional<TomlTable> system = top.table(section);
  if (!system) top.fail(section, "the case needs a [" + section + "] table");
  if (c.system == MechanicsSystemKind::double_pendulum)
    read_pendulum(*system, c);
  else
    read_rigid_body(*system, c);

  std::optional<TomlTable> output = top.table("output");
  if (output) {
    c.csv_stride = output->integer("csv_stride", 1, 1, "a CSV row every csv_stride steps");
    c.vtk_stride =
        output->integer("vtk_stride", 10, 0, "a VTK frame every vtk_stride steps (0: no VTK)");
    output->reject_unknown();
  }
  // Outputs bounded (docs/mechanics.md §7): a CSV row is about 300 bytes, a frame is a file.
  const long long rows = c.steps / c.csv_stride + 1;
  const long long frames = c.vtk_stride > 0 ? c.steps / c.vtk_stride + 1 : 0;
  const auto too_many = [&](const char* key, long long count, long long limit, int stride,
                            const std::string& what) {
    const long long least = (c.steps + limit - 2) / (limit - 1);
    const std::string message = "steps = " + std::to_string(c.steps) + " with " + key + " = " +
                                std::to_string(stride) + " writes " + std::to_string(count) + " " +
                                what + ", more than " + std::to_string(limit) + ": set [output] " +
                                key + " >= " + std::to_string(least);
    if (output && output->has(key)) output->fail(key, message);
    time->fail("steps", message);
  };
  if (rows > kMaxMechanicsRows)
    too_many("csv_stride", rows, kMaxMechanicsRows, c.csv_stride,
             "rows of mechanics.csv (about " + std::to_string(rows * 300 / 1000000000) + " GB)");
  if (frames > kMaxMechanicsFrames)
    too_many("vtk_stride", frames, kMaxMechanicsFrames, c.vtk_stride,
             "VTK frames (one file each; vtk_stride = 0 writes none)");
  top.reject_unknown();
  return c;
}

}  // namespace field::io

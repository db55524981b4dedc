#pragma once
/// The case file of `field mechanics` (docs/mechanics.md §7, meshes/README.md "Mechanics cases"):
/// a TOML file naming a system of the seed papers (the double spherical pendulum, the free rigid
/// body), its parameters and initial state, the time step and the method. Errors name the file,
/// the line and the key: `file:line: [table] key = value: what is wrong`.
#include <filesystem>
#include <string>

#include "libfield/core/types.hpp"
#include "libfield/mechanics/constrained_step.hpp"
#include "libfield/mechanics/double_pendulum.hpp"

namespace field::io {

enum class MechanicsSystemKind { double_pendulum, rigid_body };
/// The rigid body on the Lie group (Moser-Veselov) or as a rotation matrix in R^9 (SHAKE/RATTLE).
enum class RigidBodyForm { lie_group, rotation_matrix };

struct MechanicsCase {
  std::filesystem::path file;
  std::string name, description;
  MechanicsSystemKind system = MechanicsSystemKind::double_pendulum;

  // [time]
  double h = 0.01;      ///< time step [s]
  long long steps = 0;  ///< number of steps
  // [method]
  mechanics::Quadrature quadrature = mechanics::Quadrature::trapezoidal;
  mechanics::ConstraintScheme scheme = mechanics::ConstraintScheme::rattle;
  mechanics::NewtonOptions newton;

  // [double_pendulum]
  mechanics::DoublePendulumParameters pendulum;
  double theta1 = 0, phi1 = 0, theta2 = 0, phi2 = 0;  ///< initial rod angles [rad]
  Vec3 v1 = Vec3::Zero(), v2 = Vec3::Zero();          ///< initial velocities [m/s] (projected)

  // [rigid_body]
  Mat3 inertia = Mat3::Identity();  ///< body-frame inertia tensor [kg m^2]
  RigidBodyForm form = RigidBodyForm::lie_group;
  Vec3 axis = Vec3::UnitZ();  ///< initial rotation: axis (normalised) and angle [rad]
  double angle = 0.0;
  Vec3 omega = Vec3::Zero();  ///< initial body angular velocity [rad/s], Pi_0 = J omega

  // [output]
  int csv_stride = 1;   ///< a CSV row every csv_stride steps
  int vtk_stride = 10;  ///< a VTK frame every vtk_stride steps (0: none)
};

/// Reads and checks a case file (at most kCaseFileLimit bytes). Throws field::Error
/// (`file:line: ...`) or field::IoError.
MechanicsCase load_mechanics_case(const std::filesystem::path& file);
/// The same from the text of a file.
MechanicsCase parse_mechanics_case(const std::string& text, const std::filesystem::path& file);

}  // namespace field::io

// `field mechanics CASE.toml`: runs a discrete mechanics case of the seed papers (the double
// spherical pendulum, the free rigid body; docs/mechanics.md §7) and writes DIR/mechanics.csv
// (t, q, p, energy, momentum, constraint residual per row) and DIR/mechanics.pvd with its frames.
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/mechanics_case.hpp"
#include "libfield/io/mechanics_frames.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/mechanics/momentum_map.hpp"
#include "libfield/mechanics/rigid_body.hpp"
#include "libfield/mechanics/rotation_matrix_body.hpp"

namespace field::app {

namespace {

namespace fs = std::filesystem;
using mechanics::MechanicalState;
using mechanics::VectorXd;

/// What one state contributes to the outputs.
struct Observation {
  std::vector<double> values;  ///< the CSV row after t
  double energy = 0, momentum = 0, residual = 0;
  io::PolylineFrame frame;
};

/// Whether every number of an observation is finite: a state that overflowed (a huge mass or
/// velocity) is never written.
bool finite(const Observation& o) {
  for (double v : o.values)
    if (!std::isfinite(v)) return false;
  for (const Vec3& p : o.frame.points)
    if (!p.allFinite()) return false;
  return std::isfinite(o.energy) && std::isfinite(o.momentum) && std::isfinite(o.residual);
}

/// A system under way: its CSV columns (after t), one step, the observation of the state.
struct Trajectory {
  std::vector<std::string> columns;
  std::string momentum_name;
  std::function<int(long long)> step;  // returns the Newton iterations
  std::function<Observation()> observe;
};

Trajectory pendulum_trajectory(const io::MechanicsCase& c) {
  auto system = std::make_shared<mechanics::DoublePendulum>(c.pendulum);
  const VectorXd q =
      mechanics::double_pendulum_position(c.pendulum, c.theta1, c.phi1, c.theta2, c.phi2);
  VectorXd v(6);
  v << c.v1, c.v2;
  auto state = std::make_shared<MechanicalState>(
      MechanicalState{q, mechanics::project_momentum(*system, q, system->mass() * v)});
  const mechanics::LinearSymmetry about_z = mechanics::rotation_symmetry(Vec3::UnitZ(), 2);
  Trajectory t;
  t.columns = {"x1",  "y1",  "z1",     "x2",         "y2",
               "z2",  "px1", "py1",    "pz1",        "px2",
               "py2", "pz2", "energy", "momentum_z", "constraint_residual"};
  t.momentum_name = "angular momentum about z";
  t.step = [system, state, c](long long k) {
    const mechanics::StepResult r =
        mechanics::constrained_step(*system, c.quadrature, c.scheme, c.h, *state, c.newton, k);
    *state = r.state;
    return r.iterations;
  };
  t.observe = [system, state, about_z]() {
    Observation o;
    for (int i = 0; i < 6; ++i) o.values.push_back(state->q(i));
    for (int i = 0; i < 6; ++i) o.values.push_back(state->p(i));
    // The energy of the tangent momentum: the same for SHAKE and RATTLE (docs/mechanics.md §3).
    o.energy = system->energy(state->q, mechanics::project_momentum(*system, state->q, state->p));
    o.momentum = mechanics::momentum_map(about_z, state->q, state->p);
    o.residual = system->constraint(state->q).cwiseAbs().maxCoeff();
    o.values.insert(o.values.end(), {o.energy, o.momentum, o.residual});
    o.frame.points = {Vec3::Zero(), state->q.head<3>(), state->q.tail<3>()};
    o.frame.segments = {{0, 1}, {1, 2}};
    return o;
  };
  return t;
}

Trajectory rigid_body_trajectory(const io::MechanicsCase& c) {
  auto body = std::make_shared<mechanics::RigidBody>(c.inertia);
  auto lie_state = std::make_shared<mechanics::RigidBodyState>(
      mechanics::RigidBodyState{lie::rotation_about(c.axis, c.angle), c.inertia * c.omega});
  Trajectory t;
  t.columns = {"qw",
               "qx",
               "qy",
               "qz",
               "Pi1",
               "Pi2",
               "Pi3",
               "pi_x",
               "pi_y",
               "pi_z",
               "energy",
               "momentum",
               "constraint_residual"};
  t.momentum_name = "spatial angular momentum |pi|";
  if (c.form == io::RigidBodyForm::lie_group) {
    t.step = [body, lie_state, c](long long k) {
      const mechanics::RigidBodyStep r = body->step(c.h, *lie_state, c.newton, k);
      *lie_state = r.state;
      return r.iterations;
    };
  } else {
    // The same body in R^9 with six constraints: the state is kept as (q, p); the rotation and
    // the body momentum are read from it (rotation_matrix_body.hpp).
    auto embedded = std::make_shared<mechanics::RotationMatrixBody>(c.inertia);
    auto state = std::make_shared<MechanicalState>(
        MechanicalState{mechanics::RotationMatrixBody::to_vector(lie_state->rotation),
                        embedded->momentum(lie_state->rotation, lie_state->body_momentum)});
    t.step = [embedded, state, lie_state, c](long long k) {
      const mechanics::StepResult r =
          mechanics::constrained_step(*embedded, c.quadrature, c.scheme, c.h, *state, c.newton, k);
      *state = r.state;
      lie_state->rotation = mechanics::RotationMatrixBody::to_matrix(state->q);
      lie_state->body_momentum = mechanics::RotationMatrixBody::body_momentum(state->q, state->p);
      return r.iterations;
    };
  }
  t.observe = [body, lie_state]() {
    Observation o;
    const Mat3& r = lie_state->rotation;
    const Vec4 quat = lie::quat_from_rotation(r);
    const Vec3 pi = mechanics::RigidBody::spatial_momentum(*lie_state);
    o.values = {quat(0), quat(1), quat(2), quat(3)};
    for (int i = 0; i < 3; ++i) o.values.push_back(lie_state->body_momentum(i));
    for (int i = 0; i < 3; ++i) o.values.push_back(pi(i));
    o.energy = body->energy(lie_state->body_momentum);
    o.momentum = pi.norm();
    o.residual = (r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff();
    o.values.insert(o.values.end(), {o.energy, o.momentum, o.residual});
    o.frame.points = {Vec3::Zero(), r.col(0), r.col(1), r.col(2)};
    o.frame.segments = {{0, 1}, {0, 2}, {0, 3}};
    return o;
  };
  return t;
}

void prepare_folder(const fs::path& dir, bool force) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec))
      throw IoError("output " + dir.string() + " exists and is not a folder: choose another --out");
    if (fs::directory_iterator(dir, ec) != fs::directory_iterator()) {
      if (!force)
        throw IoError("output folder " + dir.string() +
                      " is not empty: choose another --out, or add --force to replace the "
                      "outputs of the earlier run there");
      for (const char* name : {"mechanics.csv", "mechanics.csv.part", "mechanics.pvd", "frames"})
        fs::remove_all(dir / name);
    }
  } else if (!fs::create_directories(dir, ec)) {
    throw IoError("cannot create output folder " + dir.string() + ": " + ec.message());
  }
}

int run_mechanics(const fs::path& case_path, fs::path out, const CommonOptions& common) {
  const io::MechanicsCase c = io::load_mechanics_case(case_path);
  if (out.empty()) out = fs::path("runs") / c.name;
  Trajectory trajectory = c.system == io::MechanicsSystemKind::double_pendulum
                              ? pendulum_trajectory(c)
                              : rigid_body_trajectory(c);
  if (!finite(trajectory.observe()))  // checked before DIR exists: nothing is written
    throw Error(case_path.string() +
                ": the initial state's energy, momenta or positions overflow (not finite): the "
                "masses, lengths, inertias or velocities are too large; use SI values of "
                "physical size");
  prepare_folder(out, common.force);
  std::vector<std::string> columns{"t"};
  columns.insert(columns.end(), trajectory.columns.begin(), trajectory.columns.end());
  io::CsvWriter csv(out / "mechanics.csv", columns);
  std::unique_ptr<io::MechanicsFrames> frames;
  if (c.vtk_stride > 0) frames = std::make_unique<io::MechanicsFrames>(out);

  double e0 = 0, j0 = 0, energy_error = 0, momentum_drift = 0, residual = 0;
  long long iterations = 0;
  int step_iterations = 0;
  Progress progress("step", "t", static_cast<int>(c.steps), !common.progress());  // steps <= 2e9
  install_stop_signals();  // SIGINT, SIGTERM: stop after the current step (apps/interrupt.hpp)
  const auto start = std::chrono::steady_clock::now();
  for (long long k = 0;; ++k) {
    const double t = static_cast<double>(k) * c.h;
    const bool last = k == c.steps;
    const bool row = k % c.csv_stride == 0 || last;
    const bool frame = frames && (k % c.vtk_stride == 0 || last);
    if (row || frame || k == 0) {
      Observation o = trajectory.observe();
      if (!finite(o)) {  // Newton converged to an overflowed state: stop before writing it
        progress.done();
        csv.close();
        std::cerr << "field: solver failed: the state at t = " << t << " s (step " << k
                  << ") is not finite; try a smaller time step h (outputs before t = " << t
                  << " s are in " << out.string() << ")\n";
        return kSolverFailed;
      }
      if (k == 0) {
        e0 = o.energy;
        j0 = o.momentum;
      }
      energy_error = std::max(energy_error, std::abs(o.energy - e0));
      momentum_drift = std::max(momentum_drift, std::abs(o.momentum - j0));
      residual = std::max(residual, o.residual);
      if (row) {
        o.values.insert(o.values.begin(), t);
        csv.row(o.values);
      }
      if (frame) frames->add(t, o.frame);
    }
    progress.update(static_cast<int>(k), t, step_iterations,
                    energy_error / std::max(std::abs(e0), 1e-300), momentum_drift);
    if (last) break;
    if (stop_flag().load()) {  // the rows and frames written so far are complete
      progress.done();
      csv.close();
      const int signal = stop_signal();
      std::cerr << "field: interrupted (" << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
                << ") at t = " << t << " s, step " << k << ": " << out.string()
                << " holds the rows and frames written up to it\n";
      return 128 + (signal == 0 ? SIGINT : signal);
    }
    try {
      step_iterations = trajectory.step(k);
      iterations += step_iterations;
    } catch (const mechanics::NewtonFailure& e) {
      progress.done();
      csv.close();
      std::cerr << "field: solver failed: " << e.what() << " (outputs up to t = " << t
                << " s are in " << out.string() << ")\n";
      return kSolverFailed;
    }
  }
  progress.done();
  csv.close();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!common.quiet) {
    std::printf(
        "%s: %lld steps of h = %g s to t = %g s in %.3g s (%.3g Newton iterations per step)\n",
        c.name.c_str(), c.steps, c.h, static_cast<double>(c.steps) * c.h, seconds,
        static_cast<double>(iterations) / static_cast<double>(c.steps));
    std::printf("  energy E0 = %.17g, max |E - E0| = %.3g (relative %.3g)\n", e0, energy_error,
                energy_error / std::max(std::abs(e0), 1e-300));
    std::printf("  %s J0 = %.17g, max |J - J0| = %.3g\n", trajectory.momentum_name.c_str(), j0,
                momentum_drift);
    std::printf("  max constraint residual %.3g\n", residual);
    std::printf("  wrote %s (%lld rows)%s\n", (out / "mechanics.csv").string().c_str(), csv.rows(),
                frames ? (", " + (out / "mechanics.pvd").string() + " (" +
                          std::to_string(frames->size()) + " frames)")
                             .c_str()
                       : "");
  }
  return kSuccess;
}

}  // namespace

Runner add_mechanics(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand(
      "mechanics",
      "Run a discrete mechanics case (double spherical pendulum, free rigid body): CSV time "
      "series and ParaView frames (docs/mechanics.md)");
  auto case_path = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  sub->add_option("CASE", *case_path, "mechanics case file (TOML)")->required();
  sub->add_option("--out", *out, "output folder DIR (default runs/<case name>)")
      ->check(path_value());
  add_common_options(*sub, common);
  return [case_path, out, &common]() { return run_mechanics(*case_path, *out, common); };
}

}  // namespace field::app

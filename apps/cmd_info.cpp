// `field info CASE.toml`: validates a case (and the data files it names) and prints the resolved
// parameters, wave speeds, the stability numbers of both marches (SPEC [S7]), and memory and
// output size estimates, without running.
#include <cmath>
#include <cstdio>

#include "apps/commands.hpp"
#include "apps/memory_estimate.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/march/stability.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

const char* end_name(const io::EndSpec& e) {
  switch (e.kind) {
    case io::EndSpec::Kind::free:
      return "free (zero traction)";
    case io::EndSpec::Kind::clamped:
      return "clamped at its initial pose";
    case io::EndSpec::Kind::prescribed:
      return "prescribed";
  }
  return "";
}

std::string bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024.0 && u < 4) b /= 1024.0, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", b, units[u]);
  return buf;
}

void print_vec(const char* label, const Vec6& v) {
  std::printf("  %-22s (%.6g, %.6g, %.6g, %.6g, %.6g, %.6g)\n", label, v(0), v(1), v(2), v(3), v(4),
              v(5));
}

int run_info(const fs::path& case_file) {
  const io::CaseSpec spec = io::load_case(case_file);
  const io::Problem problem(spec);
  const bool time = spec.march == io::MarchKind::time;
  // Reading the inputs validates the data files too, unless the run could not fit in memory
  // (then reading them could exhaust it: the estimate is printed instead, apps/memory_estimate).
  const MemoryEstimate estimate = estimate_memory(spec);
  const double available = available_memory();
  const bool fits = available <= 0.0 || estimate.total() <= available;
  std::string note = "(not read: the run does not fit in memory, see below)";
  if (fits && time)
    io::time_march_input(problem);
  else if (fits)
    note = io::space_march_input(problem).note;

  const model::WaveSpeeds w = model::wave_speeds(spec.section, spec.material);
  const march::StabilityNumbers n = problem.stability();
  std::printf("case %s (%s)\n", spec.name.c_str(), spec.file.string().c_str());
  if (!spec.description.empty()) std::printf("  %s\n", spec.description.c_str());
  std::printf("  march: %s (field %s), retraction %s\n", time ? "time" : "space",
              time ? "simulate" : "reconstruct", problem.model.tau().name().c_str());
  std::printf("section  A_c = %.6g m^2, I1 = %.6g m^4, I2 = %.6g m^4, torsion = %.6g m^4, k = %g\n",
              spec.section.area, spec.section.I1, spec.section.I2, spec.section.torsion,
              spec.section.shear_k);
  std::printf("material E = %.6g Pa, nu = %g, rho = %g kg/m^3, G = %.7g Pa\n", spec.material.E,
              spec.material.nu, spec.material.rho, spec.material.G());
  print_vec("inertia J", problem.density.inertia());
  print_vec("stiffness C", problem.density.stiffness());
  std::printf("  wave speeds c_E = %.6g m/s, c_G = %.6g m/s, cut-off omega_c = %.6g rad/s\n", w.c_E,
              w.c_G, w.omega_c);
  std::printf(
      "grid     A = %d (nodes 0..%d), ds = %.10g m, L = %.10g m; J = %d, dt = %.10g s, "
      "T = %.10g s\n",
      spec.A, spec.A, spec.ds, spec.length(), spec.J, spec.dt, spec.duration());
  if (time) {
    std::printf("ends     left: %s; right: %s\n", end_name(spec.left), end_name(spec.right));
  } else {
    const auto row = [](const io::RowSpec& r) {
      return r.kind == io::RowSpec::Kind::zero_momentum ? "zero momentum" : "prescribed";
    };
    std::printf("rows     first (j = 0): %s; last (j = J): %s\n", row(spec.first), row(spec.last));
    std::printf("tip      %s\n         %s\n", spec.tip.string().c_str(), note.c_str());
  }
  std::printf("loads    gravity (%g, %g, %g) m/s^2, %zu distributed, %zu point\n", spec.gravity(0),
              spec.gravity(1), spec.gravity(2), spec.loads.distributed.size(),
              spec.loads.point.size());
  std::printf("stability (SPEC [S7])\n");
  std::printf(
      "  time march:  c_E dt/ds = %.3f, dt omega_c/2 = %.3f  (stable below 1: dt < %.4g s)"
      "  %s\n",
      n.cfl_time, n.cutoff_term, n.max_stable_dt, n.time_march_stable() ? "stable" : "UNSTABLE");
  std::printf("  space march: ds/(c_G dt) = %.3f  (stable up to 1: dt >= %.4g s)  %s\n",
              n.cfl_space, n.min_stable_dt, n.space_march_stable() ? "stable" : "UNSTABLE");
  const std::string warning =
      time ? march::time_march_warning(n, spec.dt) : march::space_march_warning(n, spec.dt);
  if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());

  // Estimates: a pose is 12 doubles; a field.csv line about 11 numbers of ~22 characters.
  const double nodes = double(spec.J + 1) * (spec.A + 1);
  const int stride = spec.output.stride;
  const double slabs_out =
      time ? std::ceil((spec.J + 1.0) / stride) : std::ceil((spec.A + 1.0) / stride);
  const double nodes_out = slabs_out * (time ? spec.A + 1 : spec.J + 1);
  const double rows_vtk = time ? slabs_out : std::ceil((spec.J + 1.0) / stride);
  const double memory = time ? 8.0 * 96.0 * (spec.A + 1) : 96.0 * nodes;
  // Node updates (SPEC [S7]): time march, nodes lo..A-1 of rows 1 (velocity start) or 2..J;
  // space march, rows lo..J-1 of columns 2..A.
  double updates = 0.0;
  if (time) {
    const int solved = spec.A - (spec.left.kind == io::EndSpec::Kind::free ? 0 : 1);
    const int rows = spec.J - (spec.initial.start == io::InitialSpec::Start::first_order ? 1 : 0);
    updates = double(solved) * rows;
  } else {
    const int rows = spec.J - (spec.first.kind == io::RowSpec::Kind::zero_momentum ? 0 : 1);
    updates = double(spec.A - 1) * rows;
  }
  std::printf("size     %.0f nodes, %.0f node updates; memory of the march about %s%s\n", nodes,
              updates, bytes(memory).c_str(),
              time ? " (streaming: independent of J; spacetime.vtu is kept in memory until the end)"
                   : " (the whole field is kept for the frames)");
  std::printf("output   field.csv about %s, frames about %s, spacetime.vtu about %s (stride %d)\n",
              spec.output.csv ? bytes(nodes_out * 230.0).c_str() : "- (off)",
              spec.output.vtk ? bytes(rows_vtk * (spec.A + 1) * 200.0).c_str() : "- (off)",
              spec.output.vtk ? bytes(rows_vtk * (spec.A + 1) * 120.0).c_str() : "- (off)", stride);
  std::printf(
      "memory   the run needs about %s (%s); %s available%s\n", bytes(estimate.total()).c_str(),
      estimate.what.c_str(), available > 0.0 ? bytes(available).c_str() : "unknown",
      fits ? "" : ": TOO LARGE, `field simulate` refuses it (the data files were not read)");
  return kSuccess;
}

}  // namespace

Runner add_info(CLI::App& app, CommonOptions& common) {
  CLI::App* sub = app.add_subcommand(
      "info", "Validate a case and print its parameters, stability numbers and sizes");
  add_common_options(*sub, common);
  auto file = std::make_shared<fs::path>();
  sub->add_option("CASE", *file, "case file (TOML)")->required();
  return [file]() { return run_info(*file); };
}

}  // namespace field::app

#include "apps/cable_info.hpp"

#include <cstdio>
#include <string>

#include "apps/info_header.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/memory_estimate.hpp"
#include "libfield/io/plain_space_case.hpp"
#include "libfield/march/space_march.hpp"

namespace field::app {

namespace {

// The rest of `field info` for a cable's space march (theory §6.2): the tip data and the march's
// verdict on them (march::check_space_march, the taut branch (6.2.3)), the stability numbers.
int info_cable_space(const io::CaseSpec& spec, const io::CableProblem& cable) {
  std::printf("  rows: j = 0 and J at zero momentum; the space march imposes nothing at a = A\n");
  const io::PlainSpaceSetup<lie::Rn<3>> setup = io::plain_space_input<lie::Rn<3>>(
      spec, cable.density.wave_speeds().c_E);  // throws for bad tip data
  std::printf("  tip: %s\n", setup.note.c_str());
  march::check_space_march(cable.model, setup.input);  // throws for a compressed segment
  std::printf("  tip strains: taut on every row (stretch > 1, theory §6.2 (6.2.3))\n");
  const model::WaveSpeeds w = cable.density.wave_speeds();
  const march::StabilityNumbers n = cable.stability();
  std::printf(
      "  wave speeds (1.8.6): c_L = sqrt(EA/rho A) = %.6g m/s, c_G = %.6g m/s at N_ref = %g N\n",
      w.c_E, w.c_G, spec.cable.reference_tension);
  std::printf("  stability (theory §6.2): ds/(c_G dt) = %.4g (<= 1 for no growth)\n", n.cfl_space);
  const std::string warning = march::space_march_warning(n, spec.dt);
  if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace

int info_cable(const io::CaseSpec& spec) {
  bool fits = true;
  const std::string memory = io::memory_line(spec, fits);  // io/memory_estimate.hpp
  if (!fits) return print_too_large(spec, memory);
  const io::CableProblem cable(spec);  // validates row 0 (the catenary's supports)
  const io::CableSpec& k = spec.cable;
  print_case_header(spec);
  std::printf("  %s\n", memory.c_str());
  const bool space = spec.march == io::MarchKind::space;
  std::printf(space ? "  march: space (field reconstruct)\n" : "  march: time (field simulate)\n");
  std::printf(
      "  theory: extensible cable on R^3 (theory §1.8): EA = %.6g N, rho A = %.6g kg/m, %s law, "
      "gravity (%g, %g, %g) m/s^2\n",
      k.EA, k.rhoA, k.slack ? "slack (no compression)" : "linear-elastic", spec.gravity(0),
      spec.gravity(1), spec.gravity(2));
  std::printf(
      "  grid: A = %d, ds = %.6g m, L = %.6g m (unstretched); J = %d, dt = %.6g s, T = %.6g s\n",
      spec.A, spec.ds, spec.length(), spec.J, spec.dt, spec.duration());
  if (space) return info_cable_space(spec, cable);
  const auto end = [](const io::EndSpec& e) {
    return e.kind == io::EndSpec::Kind::clamped ? std::string("pinned")
           : e.kind == io::EndSpec::Kind::free  ? std::string("free")
                                                : "driven along " + e.file.filename().string();
  };
  std::printf("  ends: a = 0 %s, a = A %s\n", end(spec.left).c_str(), end(spec.right).c_str());
  if (k.shape == io::CableSpec::Shape::catenary) {
    const model::ElasticCatenary c = io::case_catenary(spec);
    std::printf(
        "  row 0: elastic catenary (1.8.9) from (%g, %g, %g) to (%g, %g, %g): H = %.6g N, "
        "V = %.6g N\n",
        spec.initial.origin(0), spec.initial.origin(1), spec.initial.origin(2), k.end(0), k.end(1),
        k.end(2), c.H, c.V);
  } else {
    std::printf("  row 0: straight from (%g, %g, %g) along (%g, %g, %g), unstretched\n",
                spec.initial.origin(0), spec.initial.origin(1), spec.initial.origin(2),
                spec.initial.axis(0), spec.initial.axis(1), spec.initial.axis(2));
  }
  switch (k.velocity) {  // theory (1.8.10)
    case io::CableSpec::Velocity::zero:
      std::printf("  velocity: at rest\n");
      break;
    case io::CableSpec::Velocity::uniform:
      std::printf("  velocity: uniform (%g, %g, %g) m/s\n", k.xi(0), k.xi(1), k.xi(2));
      break;
    case io::CableSpec::Velocity::rotation:
      std::printf("  velocity: rigid rotation omega = (%g, %g, %g) rad/s about (%g, %g, %g)\n",
                  k.omega(0), k.omega(1), k.omega(2), k.center(0), k.center(1), k.center(2));
      break;
    case io::CableSpec::Velocity::file:
      std::printf("  velocity: per node from %s\n", spec.initial.velocity_file.string().c_str());
      break;
  }
  const model::WaveSpeeds w = cable.density.wave_speeds();
  const march::StabilityNumbers n = cable.stability();
  std::printf(
      "  wave speeds (1.8.6): c_L = sqrt(EA/rho A) = %.6g m/s, c_G = %.6g m/s at N_ref = %g N\n",
      w.c_E, w.c_G, k.reference_tension);
  std::printf("  stability (theory §6.1): c_L dt/ds = %.4g (< 1 needed)\n", n.cfl_time);
  const std::string warning = march::time_march_warning(n, spec.dt);
  if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace field::app

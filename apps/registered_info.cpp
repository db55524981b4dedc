#include "apps/registered_info.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include "apps/info_header.hpp"
#include "libfield/io/memory_estimate.hpp"
#include "libfield/io/number_text.hpp"
#include "libfield/io/plain_space_case.hpp"
#include "libfield/io/registered_case.hpp"

namespace field::app {

namespace {

std::string text(double v) {
  char out[io::kMaxDoubleChars];
  return std::string(out, io::write_shortest(out, v));
}

std::string values(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : ", ") + text(x);
  return v.size() == 1 ? s : "[" + s + "]";
}

}  // namespace

int info_registered(const io::CaseSpec& spec) {
  bool fits = true;
  const std::string memory = io::memory_line(spec, fits);  // io/memory_estimate.hpp
  if (!fits) return print_too_large(spec, memory);
  return io::with_registered_problem(spec, [&](const auto& problem) {
    using G = typename std::decay_t<decltype(problem.model)>::Group;
    const bool time = spec.march == io::MarchKind::time;
    // A space case's tip data, read and checked as `field reconstruct` reads them, before any
    // line is printed: bad data leave the error alone on stderr.
    std::optional<io::PlainSpaceSetup<G>> setup;
    if (!time) setup = io::plain_space_input<G>(spec, problem.density->wave_speeds().c_E);
    print_case_header(spec);
    std::printf("  %s\n", memory.c_str());
    std::printf("  march: %s\n", time ? "time (field simulate)" : "space (field reconstruct)");
    std::printf("  theory: \"%s\" (registered, docs/lie-groups.md \"Adding a theory\"): %s\n",
                spec.registered.name.c_str(), problem.theory.summary.c_str());
    for (const ParameterValues::Entry& e : spec.registered.parameters.entries()) {
      const std::string value = e.kind == ParameterValues::Entry::Kind::flag
                                    ? (e.values.at(0) != 0.0 ? "true" : "false")
                                    : values(e.values);
      std::printf("    %s = %s  (%s)\n", e.key.c_str(), value.c_str(), e.meaning.c_str());
    }
    std::printf("  gravity (%g, %g, %g) m/s^2\n", spec.gravity(0), spec.gravity(1),
                spec.gravity(2));
    std::printf("  grid: A = %d, ds = %.6g m, L = %.6g m; J = %d, dt = %.6g s, T = %.6g s\n",
                spec.A, spec.ds, spec.length(), spec.J, spec.dt, spec.duration());
    const model::WaveSpeeds w = problem.density->wave_speeds();
    const march::StabilityNumbers n = problem.stability();
    if (setup) {
      std::printf("  tip data: %s; rows j = 0 and J at zero momentum\n", setup->note.c_str());
      std::printf("  wave speeds: fastest c_E = %.6g m/s, slowest c_G = %.6g m/s\n", w.c_E, w.c_G);
      std::printf("  stability (theory §6.2): ds/(c_G dt) = %.4g (<= 1 needed)\n", n.cfl_space);
      const std::string warning = march::space_march_warning(n, spec.dt);
      if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());
      return 0;
    }
    const auto end = [](const io::EndSpec& e) {
      return e.kind == io::EndSpec::Kind::clamped ? "clamped" : "free";
    };
    std::printf("  ends: a = 0 %s, a = A %s\n", end(spec.left), end(spec.right));
    std::printf("  row 0: the stress-free shape from (%g, %g, %g) (theory §1.6)\n",
                spec.initial.origin(0), spec.initial.origin(1), spec.initial.origin(2));
    if (spec.registered.xi.empty())
      std::printf("  velocity: at rest\n");
    else
      std::printf("  velocity: uniform xi = %s\n", values(spec.registered.xi).c_str());
    std::printf(
        "  wave speeds: fastest c_E = %.6g m/s, slowest c_G = %.6g m/s, cut-off %.6g rad/s\n",
        w.c_E, w.c_G, w.omega_c);
    std::printf("  stability (theory §6.1): c_E dt/ds = %.4g, dt omega_c/2 = %.4g (< 1 needed)\n",
                n.cfl_time, n.cutoff_term);
    const std::string warning = march::time_march_warning(n, spec.dt);
    if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());
    return 0;
  });
}

}  // namespace field::app

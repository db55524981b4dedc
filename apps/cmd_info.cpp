// `field info CASE.toml`: validates a case (and the data files it names) and prints the resolved
// parameters, wave speeds, the stability numbers of both marches (theory §6), and memory and
// output size estimates, without running.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "apps/cable_info.hpp"
#include "apps/commands.hpp"
#include "apps/info_header.hpp"
#include "apps/registered_info.hpp"
#include "apps/run_folder.hpp"
#include "libfield/io/beam_rates.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/estimate_conditions.hpp"
#include "libfield/io/field_rates.hpp"
#include "libfield/io/frames.hpp"
#include "libfield/io/memory_estimate.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/io/series_columns.hpp"
#include "libfield/io/space_prediction.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/march/planar_embedding.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/time_march.hpp"

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

/// Mean lengths of the values of field.csv and field_rates.csv in their shortest round-trip form.
struct ValueLengths {
  double pose = 19.0;   ///< x, y, z, qw..qz
  double rates = 19.0;  ///< velocity, strain, stress (io/beam_rates.hpp)
};

/// The mean lengths of the values in the last of the first few rows of the time march (up to 4
/// steps: milliseconds): planar or symmetric motions have many exact zeros ("0"), generic values
/// about 19 characters. The rates of that row are those of the step before (as at j = J).
ValueLengths mean_value_lengths(const io::Problem& problem) {
  // A continued run's first rows are those of its checkpoint: generic values.
  if (!problem.spec.initial.checkpoint.empty()) return {};
  struct Rows final : march::SlabObserver {
    std::vector<lie::SE3> before, last;
    void slab(int, const std::vector<lie::SE3>& row, const march::SlabStats&) override {
      before.swap(last);
      last = row;
    }
  } rows;
  const io::Problem prefix(problem, std::min(problem.spec.J, 4), problem.spec.A);
  march::MarchOptions options;
  options.newton = problem.spec.newton;
  options.threads = 1;
  io::with_time_march(prefix, [&](const auto& model, const auto& input) {
    using G = typename std::decay_t<decltype(model)>::Group;
    if constexpr (std::is_same_v<G, lie::Se2Cayley>) {  // as written: embedded in the plane
      march::PlanarEmbedding embedding({&rows});
      march::time_march(model, input, {&embedding}, options);
    } else {
      march::time_march(model, input, {&rows}, options);
    }
  });
  ValueLengths lengths;
  const auto length = [](double v) { return static_cast<double>(io::format_double(v).size()); };
  double chars = 0.0, values = 0.0;
  for (const lie::SE3& g : rows.last) {
    const Vec4 q = g.quat();
    for (const double v : {g.r.x(), g.r.y(), g.r.z(), q(0), q(1), q(2), q(3)})
      chars += length(v), values += 1.0;
  }
  if (values > 0.0) lengths.pose = chars / values;
  if (rows.before.size() != rows.last.size() || rows.last.empty()) return lengths;
  chars = values = 0.0;
  // The SE(3) model the writer takes (the planar beam's in the plane, apps/time_march_run.cpp).
  prefix.with_model([&](const auto& model) {
    using G = typename std::decay_t<decltype(model)>::Group;
    const int A = prefix.spec.A;
    for (int a = 0; a <= A; ++a) {
      const Vec6 xi = io::node_velocity<G>(prefix.mesh, &rows.before, &rows.last, a);
      for (int c = 0; c < 6; ++c) chars += length(xi(c)), values += 1.0;
      if (a == A) continue;
      const io::SegmentStress segment = io::segment_stress(model, rows.last, a);
      for (int c = 0; c < 6; ++c)
        chars += length(segment.eta(c)) + length(segment.stress(c)), values += 2.0;
    }
  });
  if (values > 0.0) lengths.rates = chars / values;
  return lengths;
}

// The characters of a key column (t, j, s or a: shortest round-trip text) summed over the slabs
// `selection` selects, value(k) the key of slab k: exact up to kKeysExact slabs, beyond from every
// step-th selected slab, scaled (`field info` of a grid of 10^8 nodes took 6 s formatting them).
constexpr int kKeysExact = 100000;
template <class Value>
double key_text(const io::SlabSelection& selection, Value&& value) {
  const int count = selection.count();
  const int step = count <= kKeysExact ? 1 : (count + kKeysExact - 1) / kKeysExact;
  double chars = 0.0, sampled = 0.0;
  for (int i = 0; i < count; i += step, sampled += 1.0)
    chars += static_cast<double>(io::format_double(value(selection.nth(i))).size());
  return chars * (count / sampled);
}

int run_info(const fs::path& case_file) {
  const io::CaseSpec spec = io::load_case(case_file);
  if (spec.theory == io::Theory::cable) return info_cable(spec);  // apps/cable_info.hpp
  if (spec.theory == io::Theory::registered) return info_registered(spec);
  const io::Problem problem(spec);
  const bool time = spec.march == io::MarchKind::time;
  // Reading the inputs validates the data files too, unless the run could not fit in memory
  // (then reading them could exhaust it: the estimate is printed instead,
  // libfield/io/memory_estimate).
  const io::MemoryEstimate estimate = io::estimate_memory(spec);
  const double available = io::available_memory();
  const bool fits = available <= 0.0 || estimate.total() <= available;
  std::string note = "(not read: the run does not fit in memory, see below)";
  std::optional<march::SpacePrediction> prediction;  // theory §6.3, from the tip data
  std::vector<std::string> prediction_notes;
  int continued_from = -1;  // the checkpoint's row k of a continued run
  if (fits && time) {
    io::with_time_march(problem,
                        [&](const auto&, const auto& input) { continued_from = input.resume.k; });
  } else if (fits) {
    const io::SpaceSetup setup = io::space_march_input(problem);
    note = setup.note;
    prediction = io::predict_space_march(problem, setup.input);
    prediction_notes = io::prediction_warnings(problem, setup, *prediction);
  }

  // The planar beam's own law and wave speeds (theory §1.7), else the case's.
  const bool planar = spec.theory == io::Theory::planar_beam;
  std::optional<io::PlanarProblem> plane;
  if (planar) plane.emplace(problem);
  const model::WaveSpeeds w = planar ? plane->density.wave_speeds() : problem.density.wave_speeds();
  const march::StabilityNumbers n = planar ? problem.stability(w) : problem.stability();
  print_case_header(spec);
  std::printf("  march: %s (field %s), retraction %s\n", time ? "time" : "space",
              time ? "simulate" : "reconstruct", lie::retraction_name(spec.retraction).c_str());
  if (planar) {
    const model::PlanarSection& p = plane->density.section();
    std::printf(
        "  theory: planar beam on SE(2) in the x-y plane (theory §1.7), from the section below: "
        "EI = %.6g N m^2, EA = %.6g N, GA = %.6g N, rho A = %.6g kg/m, rho I = %.6g kg m\n",
        p.EI, p.EA, p.GA, p.rhoA, p.rhoI);
  }
  if (spec.reconstruct.method == io::ReconstructSpec::Method::driven)  // docs/reconstruction.md
    std::printf(
        "  reconstruct: method \"driven\": time march with the tip prescribed, far end %s, "
        "from rest (the space march's numbers below are for comparison)\n",
        spec.reconstruct.far_end == io::EndSpec::Kind::clamped ? "clamped" : "free");
  const io::SegmentLaws& segments = problem.segment_data;
  if (!spec.section_table.empty()) {
    std::printf("section  table %s: %zu segment law(s) (theory §1.6); segment 0's below\n",
                spec.section_table.string().c_str(), segments.laws.size());
  } else if (spec.law) {
    std::printf("section  given law (%s), mass per length %.6g kg/m\n",
                !spec.law->diagonal()      ? "coupled: general path"
                : problem.segments.empty() ? "diagonal: SIMD lanes"
                                           : "diagonal",
                spec.law->mass_per_length);
  } else {
    std::printf(
        "section  A_c = %.6g m^2, I1 = %.6g m^4, I2 = %.6g m^4, torsion = %.6g m^4, k = %g\n",
        spec.section.area, spec.section.I1, spec.section.I2, spec.section.torsion,
        spec.section.shear_k);
    std::printf("material E = %.6g Pa, nu = %g, rho = %g kg/m^3, G = %.7g Pa\n", spec.material.E,
                spec.material.nu, spec.material.rho, spec.material.G());
  }
  if (spec.shape.kind != io::ShapeSpec::Kind::straight)
    print_vec(segments.reference_strains.size() > 1 ? "eta0 of segment 0" : "stress-free eta0",
              problem.density.reference_strain());
  if (!problem.segments.empty())
    std::printf("  the law or eta0 varies along the beam (theory §1.6): a law per segment\n");
  print_vec(problem.density.diagonal() ? "inertia J" : "diag of J", problem.density.inertia());
  print_vec(problem.density.diagonal() ? "stiffness C" : "diag of C", problem.density.stiffness());
  std::printf("  wave speeds c_E = %.6g m/s, c_G = %.6g m/s, cut-off omega_c = %.6g rad/s\n", w.c_E,
              w.c_G, w.omega_c);
  std::printf(
      "grid     A = %d (nodes 0..%d), ds = %.10g m, L = %.10g m; J = %d, dt = %.10g s, "
      "T = %.10g s\n",
      spec.A, spec.A, spec.ds, spec.length(), spec.J, spec.dt, spec.duration());
  if (time) {
    std::printf("ends     left: %s; right: %s\n", end_name(spec.left), end_name(spec.right));
  } else if (io::is_estimate(spec)) {
    // What the estimate imposes (theory §6.7), not the [boundary] rows of the space march.
    const estimate::Conditions c = io::conditions_of(spec.reconstruct);
    const estimate::Weights weights = io::weights_of(spec);
    std::printf(
        "estimate method \"estimate\" (theory §6.7): far_end = \"%s\", first_row = \"%s\", "
        "last_row = \"%s\" (the [boundary] rows are not used)\n",
        io::far_end_name(spec.reconstruct), io::first_row_name(c), io::last_row_name(c));
    std::printf(
        "         weights: model_error %g N/m (DCEL equations); tip position %g m, angle %g rad, "
        "strain %g (noise 0 weighed as 1e-6)\n",
        weights.model_error, weights.position, weights.angle, weights.strain);
    std::printf("         %d iterations at most, covariance %s\n", spec.reconstruct.max_iterations,
                spec.reconstruct.covariance ? "yes" : "no");
    std::printf("tip      %s\n         %s\n", spec.tip.string().c_str(), note.c_str());
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
  if (spec.loads.damping.any()) {
    std::printf("damping  mass alpha = %g 1/s, stiffness beta = %g s (theory §4.7)\n",
                spec.loads.damping.mass, spec.loads.damping.stiffness);
    if (spec.loads.damping.stiffness > 0)
      std::printf("  stiffness damping stable for beta < %.4g s = %.4g dt (theory (4.21))  %s\n",
                  march::max_stiffness_damping(n, spec.dt),
                  march::max_stiffness_damping(n, spec.dt) / spec.dt,
                  march::stiffness_damping_warning(n, spec.dt, spec.loads.damping.stiffness).empty()
                      ? "stable"
                      : "UNSTABLE");
  }
  std::printf("stability (theory §6)\n");
  std::printf(
      "  time march:  c_E dt/ds = %.3f, dt omega_c/2 = %.3f  (stable below 1: dt < %.4g s)"
      "  %s\n",
      n.cfl_time, n.cutoff_term, n.max_stable_dt,
      n.rigid_body            ? "no elastic waves (A = 1 with a free end: one rigid node)"
      : n.time_march_stable() ? "stable"
                              : "UNSTABLE");
  // The CFL rule is about the grid; the evanescent growth of data error is predicted below.
  const char* space_word = !n.space_march_stable() ? "UNSTABLE"
                           : prediction && prediction->exceeds()
                               ? "grid-stable, but data error grows too much (see below)"
                           : prediction && prediction->data_grows()
                               ? "grid-stable, but the data excite growing modes (see below)"
                               : "stable";
  std::printf("  space march: ds/(c_G dt) = %.3f  (stable up to 1: dt >= %.4g s)  %s\n",
              n.cfl_space, n.min_stable_dt, space_word);
  const std::string warning =
      time ? march::time_march_warning(n, spec.dt) : march::space_march_warning(n, spec.dt);
  if (!warning.empty()) std::printf("  warning: %s\n", warning.c_str());
  if (time) {
    const std::string damping =
        march::stiffness_damping_warning(n, spec.dt, spec.loads.damping.stiffness);
    if (!damping.empty()) std::printf("  warning: %s\n", damping.c_str());
    const std::string mass = march::mass_damping_warning(spec.dt, spec.loads.damping.mass);
    if (!mass.empty()) std::printf("  warning: %s\n", mass.c_str());
  }
  if (prediction) {
    const march::TipNoise noise = io::tip_noise(spec);
    std::printf("prediction of the space march (theory §6.3)\n%s\n",
                march::prediction_report(*prediction, noise).c_str());
    for (const std::string& line : prediction_notes) std::printf("  warning: %s\n", line.c_str());
    const std::string refusal = march::refusal_message(*prediction, noise);
    if (!refusal.empty())
      std::printf("  `field reconstruct` refuses this case: %s\n", refusal.c_str());
  }

  // Sizes (docs/output-format.md): the VTK files exactly (their layout is fixed), the CSV files
  // from the exact lengths of the index, t and s columns plus kCsvValue characters per other value:
  // the mean length of the poses of the first rows of a time march, 19 (generic values) for a
  // space march or a case that does not fit in memory (its first rows are not computed).
  const ValueLengths value_lengths = time && fits ? mean_value_lengths(problem) : ValueLengths{};
  const double kCsvValue = value_lengths.pose;
  const double nodes = double(spec.J + 1) * (spec.A + 1);
  // Node updates (theory §6): time march, nodes lo..A-1 of rows 1 (velocity start) or 2..J;
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
  const int J = spec.J, A = spec.A;
  const io::SlabSelection csv_slabs(time ? J : A, spec.output.stride);
  const io::SlabSelection vtk_rows(J, spec.output.vtk_rows_stride(J));
  const io::SlabSelection every_row(J, 1), every_column(A, 1);
  const mesh::Side left = time ? spec.left_side() : mesh::Side::prescribed;
  const mesh::SpacetimeMesh grid(J, A, spec.dt, spec.ds);
  // The text of the key columns over the written slabs.
  const double t_text = key_text(time ? csv_slabs : every_row, [&](int j) { return j * spec.dt; });
  const double j_text = key_text(time ? csv_slabs : every_row, [](int j) { return double(j); });
  const double s_text =
      key_text(time ? every_column : csv_slabs, [&](int a) { return grid.s(a, left); });
  const double a_text = key_text(time ? every_column : csv_slabs, [](int a) { return double(a); });
  const double slabs = csv_slabs.count();
  const double csv_lines = slabs * (time ? A + 1 : J + 1);
  const double csv_bytes = (t_text + j_text) * (time ? A + 1 : slabs) +
                           (s_text + a_text) * (time ? slabs : J + 1) +
                           csv_lines * (7 * kCsvValue + 11) + 27;
  // field_rates.csv: the same keys, 18 values a line but the last node's 6, 22 separators.
  double rates_header = 0.0;
  for (const std::string& c : io::field_rates_columns()) rates_header += double(c.size()) + 1.0;
  const double rates_bytes = (t_text + j_text) * (A + 1) + (s_text + a_text) * slabs +
                             csv_lines * (6 * value_lengths.rates + 22) +
                             (csv_lines - slabs) * 12 * value_lengths.rates + rates_header;
  const double frames = vtk_rows.count();
  const double frame_bytes = frames * double(io::frame_bytes<lie::SE3>(problem.density, A)) +
                             frames * 80.0 + 110.0;  // + beam.pvd
  const double spacetime_bytes = double(io::spacetime_file_bytes(vtk_rows.count(), A));
  // A series file: its header, then per line kCsvValue characters per value, short ones for the
  // index and Newton's two iteration counts, a separator per column; the columns as the run
  // writes them (io/series_columns.hpp: the reactions of prescribed ends, D_j of a damped run).
  const auto series_file = [&](const std::vector<std::string>& columns, double lines) {
    double header = 0.0;
    for (const std::string& c : columns) header += double(c.size()) + 1.0;
    const double count = double(columns.size());
    return header + lines * ((count - 4) * kCsvValue + count - 2);
  };
  const double series_bytes =
      time ? (J + 1) * (14 * kCsvValue + 14) * (spec.output.tip ? 1 : 0) +  // tip.csv
                 series_file(
                     io::time_series_columns(problem.boundary(), problem.loads.damping.any()), J)
           : series_file(io::space_series_columns(problem.boundary()), A);
  const double memory = estimate.total();  // libfield/io/memory_estimate.hpp
  std::printf(
      "size     %.0f nodes, %.0f node updates; peak memory about %s%s\n", nodes, updates,
      bytes(memory).c_str(),
      time ? " (streaming: independent of J)" : " (the whole field is kept for the frames)");
  std::printf("output   field.csv %s (%s), series %s\n",
              spec.output.csv ? ("about " + bytes(csv_bytes)).c_str() : "- (off)",
              every(spec.output.stride, time ? "row" : "column").c_str(),
              ("about " + bytes(series_bytes)).c_str());
  if (spec.output.rates)
    std::printf("         field_rates.csv about %s (%s)\n", bytes(rates_bytes).c_str(),
                every(spec.output.stride, "row").c_str());
  if (spec.output.vtk)
    std::printf(
        "         VTK files %s (vtk_stride = %s): %.0f frames, %s; spacetime.vtu %s\n",
        every(vtk_rows.stride(), "row").c_str(),
        spec.output.vtk_stride > 0 ? std::to_string(spec.output.vtk_stride).c_str() : "\"auto\"",
        frames, bytes(frame_bytes).c_str(), bytes(spacetime_bytes).c_str());
  else
    std::printf("         VTK files - (off)\n");
  if (!spec.initial.checkpoint.empty())  // docs/cli.md, "Continuing a run"
    std::printf(
        "         (the figures are for rows 0..%d: continued from %s, the run writes rows %s..%d "
        "and no spacetime.vtu)\n",
        J, spec.initial.checkpoint.string().c_str(),
        continued_from >= 1 ? std::to_string(continued_from - 1).c_str() : "k-1", J);
  if (!fits)
    std::printf(
        "memory   %s available: TOO LARGE, `field simulate` refuses it (the data files "
        "were not read)\n",
        bytes(available).c_str());
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

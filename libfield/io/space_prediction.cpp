#include "libfield/io/space_prediction.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "libfield/io/csv_table.hpp"
#include "libfield/io/tip_data.hpp"

namespace field::io {

march::TipNoise tip_noise(const io::CaseSpec& spec) {
  return march::TipNoise{spec.tip_noise.position, spec.tip_noise.angle, spec.tip_noise.strain};
}

march::SpacePrediction predict_space_march(const io::Problem& problem,
                                           const march::SpaceMarchInput& input) {
  const io::CaseSpec& spec = problem.spec;
  const int J = spec.J;
  // theory §6.3: the pose deviation from row 0 in row 0's body frame, the strain from E6.
  const lie::SE3& g0 = input.column0[0];
  std::vector<Vec6> pose(J), strain;
  double scale = 0.0;
  for (int j = 0; j < J; ++j) {
    const lie::SE3& g = input.column0[j];
    const Eigen::AngleAxisd turn(Mat3(g0.R.transpose() * g.R));
    pose[j] << turn.angle() * turn.axis(), g0.R.transpose() * (g.r - g0.r);
    scale = std::max(scale, g.r.norm());
  }
  if (static_cast<int>(input.strain0.size()) >= J)
    for (int j = 0; j < J; ++j)
      strain.push_back(input.strain0[j] - problem.density.reference_strain());
  // Zero-momentum rows: the data start and end at rest and their cosine transform (theory §6.3
  // (6.4)) fits them; with a prescribed row it would see the ends as jumps, so only the scale.
  const bool free_rows = spec.first.kind == io::RowSpec::Kind::zero_momentum &&
                         spec.last.kind == io::RowSpec::Kind::zero_momentum;
  march::TipSpectrum spectrum;
  if (free_rows)
    spectrum = march::tip_spectrum(pose, strain, scale);
  else
    spectrum.position_scale = scale;
  const march::LinearBeam beam{problem.density.inertia(),
                               problem.density.stiffness(),
                               spec.dt,
                               spec.ds,
                               spec.first.kind == io::RowSpec::Kind::prescribed,
                               spec.last.kind == io::RowSpec::Kind::prescribed};
  return march::predict_space_march(beam, J, spec.A, tip_noise(spec), spectrum,
                                    spec.tip_noise.max_predicted_error);
}

std::vector<std::string> rest_warnings(const io::Problem& problem,
                                       const march::SpaceMarchInput& input) {
  const io::CaseSpec& spec = problem.spec;
  const int J = spec.J;
  std::vector<std::string> out;
  if (J < 2 || static_cast<int>(input.column0.size()) < J + 1) return out;
  const double L = spec.length();
  const auto speed = [&](int j) {  // between rows j and j + 1
    const lie::SE3& g0 = input.column0[j];
    const lie::SE3& g1 = input.column0[j + 1];
    const Eigen::AngleAxisd turn(Mat3(g0.R.transpose() * g1.R));
    return ((g1.r - g0.r).norm() + L * turn.angle()) / spec.dt;
  };
  double fastest = 0.0;
  for (int j = 0; j < J; ++j) fastest = std::max(fastest, speed(j));
  const auto check = [&](const io::RowSpec& row, int j, const char* key, const char* when) {
    if (row.kind != io::RowSpec::Kind::zero_momentum || !(fastest > 0.0)) return;
    // The noise alone moves the tip by about sqrt(6) (sigma_r + L sigma_theta) per step: a speed
    // below three times that cannot be told from rest.
    const double noisy =
        std::sqrt(6.0) * (spec.tip_noise.position + L * spec.tip_noise.angle) / spec.dt;
    const double v = speed(j);
    if (!(v > std::max(0.05 * fastest, 3.0 * noisy))) return;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "the tip still moves at %s (speed %.3g m/s with L times the angle rate, %.0f %% "
                  "of its largest) but [boundary] %s = \"zero_momentum\" holds the beam at rest "
                  "there (theory §4.2): the data contradict the row; start and end the data at "
                  "rest or prescribe the row",
                  when, v, 100.0 * v / fastest, key);
    out.emplace_back(buf);
  };
  check(spec.first, 0, "first", "t = 0 (rows 0-1)");
  check(spec.last, J - 1, "last", "t = T (rows J-1 to J)");
  return out;
}

std::string gap_warning(const io::CaseSpec& spec) {
  return gap_warning(spec, io::read_csv(spec.tip, io::tip_columns()));
}

std::string gap_warning(const io::CaseSpec& spec, const io::CsvTable& table) {
  double gap = 0.0;
  std::size_t at = 0;
  for (std::size_t i = 1; i < table.rows.size(); ++i) {
    const double g = table.value(i, "t") - table.value(i - 1, "t");
    if (g > gap) gap = g, at = i;
  }
  if (!(gap > 2.0 * spec.dt)) return {};
  // grid rows t_j = j dt strictly between the two samples (1e-9 dt as the tip reader's rule)
  const double t0 = table.value(at - 1, "t"), t1 = table.value(at, "t"), tol = 1e-9 * spec.dt;
  const int inside =
      static_cast<int>(std::floor((t1 - tol) / spec.dt) - std::ceil((t0 + tol) / spec.dt) + 1);
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s: a gap of %.4g s between the samples at t = %.10g and %.10g s (lines %d and "
                "%d), more than 2 dt = %.4g s: the %d grid rows inside it are interpolated and "
                "the motion between the samples is lost (theory §6.3); give samples there",
                table.path.string().c_str(), gap, t0, t1, table.lines[at - 1], table.lines[at],
                2.0 * spec.dt, inside);
  return buf;
}

std::vector<std::string> prediction_warnings(const io::Problem& problem,
                                             const io::SpaceSetup& setup,
                                             const march::SpacePrediction& prediction,
                                             const io::CsvTable* tip) {
  std::vector<std::string> out;
  for (const std::string& w : {march::growth_warning(prediction), march::band_warning(prediction)})
    if (!w.empty()) out.push_back(w);
  for (const std::string& w : rest_warnings(problem, setup.input)) out.push_back(w);
  // Samples on the grid have no gap longer than dt; only resampled data are read again.
  if (setup.note.find("resampled") != std::string::npos) {
    const std::string gap = tip ? gap_warning(problem.spec, *tip) : gap_warning(problem.spec);
    if (!gap.empty()) out.push_back(gap);
  }
  return out;
}

}  // namespace field::io

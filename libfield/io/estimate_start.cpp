#include "libfield/io/estimate_start.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/io/space_prediction.hpp"
#include "libfield/lie/exponential.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"

namespace field::io {

namespace {

/// poses[j] exp(mean_k log(poses[j]^{-1} poses[k])) over k = j-w..j+w (within the track).
std::vector<lie::SE3> moving_average(const std::vector<lie::SE3>& poses, int w) {
  const int n = static_cast<int>(poses.size());
  std::vector<lie::SE3> out(poses.size());
  for (int j = 0; j < n; ++j) {
    Vec6 mean = Vec6::Zero();
    const int k0 = std::max(0, j - w), k1 = std::min(n - 1, j + w);
    for (int k = k0; k <= k1; ++k) mean += lie::log_map(poses[j].inverse() * poses[k]);
    out[j] = poses[j] * lie::exp_map(mean / (k1 - k0 + 1));
  }
  return out;
}

}  // namespace

TipSmoothing smooth_tip(std::vector<lie::SE3>& poses, double sigma_position, double sigma_angle) {
  TipSmoothing best;
  if (!(sigma_position > 0.0 && sigma_angle > 0.0) || poses.size() < 3) return best;
  std::vector<lie::SE3> chosen;
  for (const int w : {1, 2, 3, 4, 6, 8, 12, 16}) {
    std::vector<lie::SE3> smooth = moving_average(poses, w);
    double position = 0.0, angle = 0.0;  // sums of squares over the components
    for (size_t j = 0; j < poses.size(); ++j) {
      position += (smooth[j].r - poses[j].r).squaredNorm();
      angle += lie::log_map(poses[j].inverse() * smooth[j]).head<3>().squaredNorm();
    }
    const double n = 3.0 * static_cast<double>(poses.size());
    const double rms_position = std::sqrt(position / n), rms_angle = std::sqrt(angle / n);
    if (rms_position > sigma_position || rms_angle > sigma_angle) break;
    best = {w, rms_position, rms_angle};
    chosen = std::move(smooth);
  }
  if (best.half_width > 0) poses = std::move(chosen);
  return best;
}

namespace {

/// The space march where it is predicted reliable and completes, else the driven time march.
template <class G>
mesh::Field start_field(const Problem& problem, const dcel::DiscreteModel<G>& model,
                        const SpaceSetup& setup, int threads, std::string& which,
                        TipSmoothing& smoothing) {
  march::MarchOptions options;
  options.newton = problem.spec.newton;
  options.threads = threads;
  const std::string warning = march::space_march_warning(problem.stability(), problem.spec.dt);
  const march::SpacePrediction prediction = predict_space_march(problem, setup.input);
  const std::string refusal = march::refusal_message(prediction, tip_noise(problem.spec));
  if (warning.empty() && refusal.empty()) {
    march::FieldRecorder columns(problem.mesh, false);
    if (march::space_march(model, setup.input, {&columns}, options).completed) {
      mesh::Field rows(problem.mesh, mesh::Layout::by_row);
      for (int j = 0; j <= problem.spec.J; ++j)
        for (int a = 0; a <= problem.spec.A; ++a) rows(j, a) = columns.field()(j, a);
      which = "space";
      return rows;
    }
  }
  // The driven march on the tip poses smoothed at the declared noise (theory §6.7): it starts
  // the iterations nearer the estimate (scenario B: 14 iterations instead of 19).
  SpaceSetup smoothed = setup;
  smoothing = smooth_tip(smoothed.input.column0, problem.spec.tip_noise.position,
                         problem.spec.tip_noise.angle);
  march::FieldRecorder rows(problem.mesh, true);
  const march::MarchResult result =
      march::time_march(model, driven_march_input<G>(problem, smoothed), {&rows}, options);
  FIELD_CHECK(result.completed, problem.spec.file.string()
                                    << ": the driven time march that starts the estimator "
                                       "failed at row "
                                    << result.last_slab
                                    << " (theory §6.1): choose dt <= ds / c_E (field info)");
  which = "driven";
  return rows.field();
}

}  // namespace

template <class G>
mesh::Field estimate_start_field(const Problem& problem, const dcel::DiscreteModel<G>& model,
                                 const SpaceSetup& setup, const estimate::Conditions& conditions,
                                 int threads, std::string& which, TipSmoothing* smoothing) {
  TipSmoothing how;
  mesh::Field values = start_field(problem, model, setup, threads, which, how);
  if (smoothing != nullptr) *smoothing = how;
  if (conditions.far_end == estimate::Conditions::FarEnd::clamped)
    for (int j = 1; j <= problem.spec.J; ++j) values(j, problem.spec.A) = values(0, problem.spec.A);
  return values;
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template mesh::Field estimate_start_field<G>(const Problem&, const dcel::DiscreteModel<G>&,  \
                                               const SpaceSetup&, const estimate::Conditions&, \
                                               int, std::string&, TipSmoothing*);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io

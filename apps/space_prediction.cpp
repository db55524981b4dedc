#include "apps/space_prediction.hpp"

#include <Eigen/Geometry>

#include <algorithm>

namespace field::app {

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
  const march::TipSpectrum spectrum = march::tip_spectrum(pose, strain, scale);
  const march::LinearBeam beam{problem.density.inertia(), problem.density.stiffness(), spec.dt,
                               spec.ds};
  return march::predict_space_march(beam, J, spec.A, tip_noise(spec), spectrum,
                                    spec.tip_noise.max_predicted_error);
}

}  // namespace field::app

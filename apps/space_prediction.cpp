#include "apps/space_prediction.hpp"

#include <Eigen/Geometry>

namespace field::app {

march::TipNoise tip_noise(const io::CaseSpec& spec) {
  return march::TipNoise{spec.tip_noise.position, spec.tip_noise.angle, spec.tip_noise.strain};
}

march::SpacePrediction predict_space_march(const io::Problem& problem,
                                           const march::SpaceMarchInput& input) {
  const io::CaseSpec& spec = problem.spec;
  const int J = spec.J;
  std::vector<Vec3> positions(J), rotations(J);
  std::vector<Vec6> strains;
  for (int j = 0; j < J; ++j) {
    const lie::SE3& g = input.column0[j];
    positions[j] = g.r;
    const Eigen::AngleAxisd turn(Mat3(input.column0[0].R.transpose() * g.R));
    rotations[j] = turn.angle() * turn.axis();
  }
  if (static_cast<int>(input.strain0.size()) >= J)
    strains.assign(input.strain0.begin(), input.strain0.begin() + J);
  const march::TipSpectrum spectrum = march::tip_spectrum(positions, rotations, strains);
  const march::LinearBeam beam{problem.density.inertia(), problem.density.stiffness(), spec.dt,
                               spec.ds};
  return march::predict_space_march(beam, J, spec.A, tip_noise(spec), spectrum,
                                    spec.tip_noise.max_predicted_error);
}

}  // namespace field::app

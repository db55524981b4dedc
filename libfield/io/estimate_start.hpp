#pragma once
/// The start field of the estimator (theory §6.7, docs/reconstruction.md): the space march where
/// section §6.3's prediction calls it reliable (no stability warning, no refusal) and it
/// completes; otherwise the driven time march. `field reconstruct` with [reconstruct] method =
/// "estimate" and the Python module (docs/python.md) start from it.
#include <string>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/estimate/problem.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/mesh/field.hpp"

namespace field::io {

/// How the tip poses were smoothed for the driven start (theory §6.7): over rows j-w..j+w, w the
/// half-width; the RMS change of a position coordinate [m] and of a rotation component [rad].
struct TipSmoothing {
  int half_width = 0;
  double rms_position = 0.0, rms_angle = 0.0;
};

/// The tip poses averaged over rows j-w..j+w in the chart at each pose, g_j exp(mean_k
/// log(g_j^{-1} g_k)), with the largest w of 1, 2, 3, 4, 6, 8, 12, 16 whose RMS change of the
/// positions stays within sigma_position and of the rotations within sigma_angle (the declared
/// noise: Morozov's discrepancy principle); the poses unchanged (w = 0) when none does, or when a
/// level is 0 (exact data).
TipSmoothing smooth_tip(std::vector<lie::SE3>& poses, double sigma_position, double sigma_angle);

/// The start values by rows; a clamped far end (`conditions`) holds row 0's pose at a = A in
/// every row. `which` is set to "space" or "driven", the march used. Throws field::Error when the
/// driven march fails.
/// The driven march starts from the tip poses smoothed by smooth_tip at the declared noise
/// ([tip] noise_position, noise_angle); `smoothing`, when given, says how.
template <class G>
mesh::Field estimate_start_field(const Problem& problem, const dcel::DiscreteModel<G>& model,
                                 const SpaceSetup& setup, const estimate::Conditions& conditions,
                                 int threads, std::string& which,
                                 TipSmoothing* smoothing = nullptr);

}  // namespace field::io

#pragma once
/// The consistency figure of the driven reconstruction (docs/reconstruction.md): the tip strain
/// eta_j^0 of the marched field against the measured one. `field reconstruct` with [reconstruct]
/// method = "driven" and the Python module (docs/python.md) report it.
#include <algorithm>
#include <cmath>
#include <vector>

#include "libfield/march/observer.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

/// The consistency figure of the driven reconstruction: the tip strain eta_j^0 of the marched
/// field (theory (3.3), nodes 0 and 1 of row j) against the measured one, j = 0..J-1.
template <class G>
class TipStrainMisfit : public SlabObserver {
 public:
  TipStrainMisfit(const std::vector<Vec6>& measured, double ds) : measured_(measured), ds_(ds) {}
  void slab(int j, const std::vector<lie::SE3>& row, const SlabStats&) override {
    if (j >= static_cast<int>(measured_.size())) return;
    const Vec6 d = mesh::convected<G>(row[0], row[1], ds_) - measured_[j];
    const double curvature = d.head<3>().norm(), shear = d.tail<3>().norm();
    max_curvature = std::max(max_curvature, curvature);
    max_shear = std::max(max_shear, shear);
    sum_curvature += curvature * curvature;
    sum_shear += shear * shear;
    ++rows;
  }
  double rms_curvature() const { return rows ? std::sqrt(sum_curvature / rows) : 0.0; }
  double rms_shear() const { return rows ? std::sqrt(sum_shear / rows) : 0.0; }

  double max_curvature = 0.0, max_shear = 0.0, sum_curvature = 0.0, sum_shear = 0.0;
  int rows = 0;

 private:
  const std::vector<Vec6>& measured_;
  double ds_;
};

}  // namespace field::march

#include "libfield/march/planar_embedding.hpp"

namespace field::march {

lie::SE3 embed_planar(const lie::SE2& g) {
  Mat3 R = Mat3::Zero();  // diag(R, 1) B: columns (R e2, 0), e3, (R e1, 0)
  R.block<2, 1>(0, 0) = g.R.col(1);
  R(2, 1) = 1.0;
  R.block<2, 1>(0, 2) = g.R.col(0);
  return lie::SE3{R, Vec3(g.r(0), g.r(1), 0.0)};
}

lie::SE2 project_planar(const lie::SE3& g) {
  lie::SE2 h;
  h.R.col(0) = g.R.block<2, 1>(0, 2);
  h.R.col(1) = g.R.block<2, 1>(0, 0);
  h.r = g.r.head<2>();
  return h;
}

Vec6 embed_planar_body(const Vec3& x) {
  Vec6 y;
  y << 0.0, x(0), 0.0, x(2), 0.0, x(1);
  return y;
}

Vec6 embed_planar_spatial(const Vec3& mu) {
  Vec6 y;
  y << 0.0, 0.0, mu(0), mu(1), mu(2), 0.0;
  return y;
}

void PlanarEmbedding::slab(int index, const std::vector<lie::SE2>& values, const SlabStats& stats) {
  embedded_.resize(values.size());
  for (size_t k = 0; k < values.size(); ++k) embedded_[k] = embed_planar(values[k]);
  for (SlabObserver* o : targets_) o->slab(index, embedded_, stats);
}

void PlanarEmbedding::finish() {
  for (SlabObserver* o : targets_) o->finish();
}

void PlanarProjection::slab(int index, const std::vector<lie::SE3>& values,
                            const SlabStats& stats) {
  projected_.resize(values.size());
  for (size_t k = 0; k < values.size(); ++k) projected_[k] = project_planar(values[k]);
  for (BasicSlabObserver<lie::SE2>* o : targets_) o->slab(index, projected_, stats);
}

void PlanarProjection::finish() {
  for (BasicSlabObserver<lie::SE2>* o : targets_) o->finish();
}

}  // namespace field::march

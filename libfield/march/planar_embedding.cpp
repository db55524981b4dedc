#include "libfield/march/planar_embedding.hpp"

#include <utility>

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

Vec3 project_planar_body(const Vec6& y) {
  return Vec3(y(1), y(5), y(3));
}

namespace {

// The state with every pose and vector mapped by `pose` and `vector`.
template <class E, class V, class P, class F>
auto map_state(const MarchState<E, V>& s, P pose, F vector) {
  using Out = MarchState<decltype(pose(s.cur[0])), decltype(vector(s.y[0]))>;
  Out out;
  out.k = s.k;
  for (const auto& [from, to] : {std::pair{&s.prev, &out.prev}, std::pair{&s.cur, &out.cur}})
    for (const E& g : *from) to->push_back(pose(g));
  for (const auto& [from, to] :
       {std::pair{&s.y, &out.y}, std::pair{&s.back1, &out.back1}, std::pair{&s.back2, &out.back2}})
    for (const V& x : *from) to->push_back(vector(x));
  return out;
}

}  // namespace

MarchState<lie::SE3, Vec6> embed_planar(const MarchState<lie::SE2, Vec3>& s) {
  return map_state(
      s, [](const lie::SE2& g) { return embed_planar(g); },
      [](const Vec3& x) { return embed_planar_body(x); });
}

MarchState<lie::SE2, Vec3> project_planar(const MarchState<lie::SE3, Vec6>& s) {
  return map_state(
      s, [](const lie::SE3& g) { return project_planar(g); },
      [](const Vec6& y) { return project_planar_body(y); });
}

bool in_plane(const MarchState<lie::SE3, Vec6>& s) {
  const MarchState<lie::SE3, Vec6> back = embed_planar(project_planar(s));
  const auto same_poses = [](const std::vector<lie::SE3>& a, const std::vector<lie::SE3>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].R != b[i].R || a[i].r != b[i].r) return false;
    return true;
  };
  return same_poses(s.prev, back.prev) && same_poses(s.cur, back.cur) && s.y == back.y &&
         s.back1 == back.back1 && s.back2 == back.back2;
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

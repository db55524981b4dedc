#pragma once
/// The planar beam (theory §1.7) seen in 3D: a march on SE(2) written by the SE(3) writers. The
/// plane is the world's x-y plane and its rotations are about z; the body axis d3 of the SE(3)
/// beam is the plane's d1, d1 its d2 and d2 the normal:
///   (R, r) -> (diag(R, 1) B, (r, 0)),   B = [e2 e3 e1] (B e1 = e2, B e2 = e3, B e3 = e1),
/// a homomorphism SE(2) -> SE(3) followed by the fixed body rotation B (Cayley commutes with
/// both). Body algebra vectors and covectors map as (omega, v1, v2) -> (0, omega, 0, v2, 0, v1),
/// spatial covectors (1.7.3) as (L, p1, p2) -> (0, 0, L, p1, p2, 0). A planar march's state
/// (march::MarchState) embeds so too: io/checkpoint.hpp stores the planar beam's in 3D.
#include <optional>
#include <type_traits>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/march_state.hpp"
#include "libfield/march/observer.hpp"

namespace field::march {

/// The pose of a planar node in 3D.
lie::SE3 embed_planar(const lie::SE2& g);
/// A body algebra vector or covector of the plane in the SE(3) beam's body order.
Vec6 embed_planar_body(const Vec3& x);
/// A spatial covector of the plane (moment about the origin, force) in world axes.
Vec6 embed_planar_spatial(const Vec3& mu);

/// The planar pose of an embedded one, embed_planar(project_planar(g)) = g for g in the plane
/// (and project_planar(embed_planar(g)) = g bit for bit: the embedding only moves entries).
lie::SE2 project_planar(const lie::SE3& g);
/// The converse of embed_planar_body: (y(1), y(5), y(3)), exact both ways for vectors of the
/// plane (the other entries are dropped).
Vec3 project_planar_body(const Vec6& y);

/// A planar march's state in 3D, every pose and vector embedded (io/checkpoint.hpp writes it).
MarchState<lie::SE3, Vec6> embed_planar(const MarchState<lie::SE2, Vec3>& s);
/// The converse, bit for bit for a state in the plane (embed_planar's): a planar march continues
/// from it exactly.
MarchState<lie::SE2, Vec3> project_planar(const MarchState<lie::SE3, Vec6>& s);
/// Whether `s` is a planar state embedded: embed_planar(project_planar(s)) equals it exactly.
bool in_plane(const MarchState<lie::SE3, Vec6>& s);

/// Hands every slab of a march on SE(2), embedded, to SE(3) observers (field.csv, VTK frames).
class PlanarEmbedding final : public BasicSlabObserver<lie::SE2> {
 public:
  explicit PlanarEmbedding(std::vector<SlabObserver*> targets) : targets_(std::move(targets)) {}
  void slab(int index, const std::vector<lie::SE2>& values, const SlabStats& stats) override;
  void finish() override;

 private:
  std::vector<SlabObserver*> targets_;
  std::vector<lie::SE3> embedded_;  // the slab in 3D (buffer reused)
};

/// The converse: hands every slab of SE(3) rows in the plane (those of PlanarEmbedding) to SE(2)
/// observers, projected, e.g. the planar diagnostics behind the SE(3) writers' output thread.
class PlanarProjection final : public SlabObserver {
 public:
  explicit PlanarProjection(std::vector<BasicSlabObserver<lie::SE2>*> targets)
      : targets_(std::move(targets)) {}
  void slab(int index, const std::vector<lie::SE3>& values, const SlabStats& stats) override;
  void finish() override;

 private:
  std::vector<BasicSlabObserver<lie::SE2>*> targets_;
  std::vector<lie::SE2> projected_;  // the slab in the plane (buffer reused)
};

/// Appends `observer` to the observers of a march on E: itself, or an SE(2) observer (the planar
/// diagnostics) of SE(3) rows through `projection`, which hands it the rows projected back (bit
/// for bit).
template <class E, class O>
void append_observer(std::vector<BasicSlabObserver<E>*>& observers, O& observer,
                     std::optional<PlanarProjection>& projection) {
  if constexpr (std::is_same_v<E, lie::SE3> && std::is_base_of_v<BasicSlabObserver<lie::SE2>, O>) {
    projection.emplace(std::vector<BasicSlabObserver<lie::SE2>*>{&observer});
    observers.push_back(&*projection);
  } else {
    observers.push_back(&observer);
  }
}

}  // namespace field::march

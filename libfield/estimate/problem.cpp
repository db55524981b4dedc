#include "libfield/estimate/problem.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/lie/exponential.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/model/beam_density.hpp"

namespace field::estimate {

namespace {

mesh::Side row_side(bool at_rest) {
  return at_rest ? mesh::Side::natural : mesh::Side::open;
}

mesh::Side far_side(Conditions::FarEnd end) {
  switch (end) {
    case Conditions::FarEnd::free:
      return mesh::Side::natural;
    case Conditions::FarEnd::clamped:
      return mesh::Side::prescribed;
    case Conditions::FarEnd::none:
      break;
  }
  return mesh::Side::open;
}

}  // namespace

mesh::Boundary equation_boundary(const Conditions& conditions) {
  // The tip a = 0 is data, not an equation (theory §4.3: open).
  return mesh::Boundary{mesh::Side::open, far_side(conditions.far_end),
                        row_side(conditions.first_at_rest), row_side(conditions.last_at_rest)};
}

template <class G>
Problem<G>::Problem(const dcel::DiscreteModel<G>& model, const TipMeasurements& data,
                    const Conditions& conditions, const Weights& weights)
    : model_(model), data_(data), weights_(weights), J_(model.mesh().J()), A_(model.mesh().A()) {
  FIELD_CHECK(static_cast<int>(data.pose.size()) == J_ + 1,
              "estimate: " << data.pose.size() << " tip poses for J + 1 = " << J_ + 1 << " rows");
  FIELD_CHECK(static_cast<int>(data.strain.size()) >= J_,
              "estimate: " << data.strain.size() << " tip strains for J = " << J_ << " rows");
  FIELD_CHECK(A_ >= 2, "estimate: needs A >= 2 (A = " << A_ << ")");
  for (double w :
       {weights.model_error, weights.position, weights.angle, weights.strain, weights.straight})
    FIELD_CHECK(std::isfinite(w) && w > 0.0, "estimate: weights must be finite and > 0: " << w);
  boundary_ = equation_boundary(conditions);
  const mesh::SpacetimeMesh& m = model.mesh();

  // Unknowns: every node but the unused (J, A) and a clamped far end.
  index_.assign(static_cast<size_t>(J_ + 1) * (A_ + 1), -1);
  for (int j = 0; j <= J_; ++j)
    for (int a = 0; a <= A_; ++a) {
      const mesh::NodeKind kind = m.kind(j, a, boundary_);
      if (kind == mesh::NodeKind::unused || kind == mesh::NodeKind::prescribed) continue;
      index_[static_cast<size_t>(j) * (A_ + 1) + a] = static_cast<int>(nodes_.size());
      nodes_.push_back({j, a});
    }

  // Blocks in a fixed order: node by node, row by row; at a node its DCEL block, then the tip
  // pose and the tip strain.
  const auto depends = [&](std::initializer_list<mesh::Node> list) {
    std::vector<int> u;
    for (const mesh::Node& n : list)
      if (m.has_node(n.j, n.a) && unknown(n.j, n.a) >= 0) u.push_back(unknown(n.j, n.a));
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    return u;
  };
  for (int j = 0; j <= J_; ++j)
    for (int a = 0; a <= A_; ++a) {
      if (m.is_equation_node(j, a, boundary_)) {
        // theory §4.1: n is v1 of triangle (j, a), v2 of (j-1, a), v3 of (j, a-1).
        std::vector<mesh::Node> stencil{{j, a}};
        for (const auto& [tj, ta] : {std::pair{j, a}, std::pair{j - 1, a}, std::pair{j, a - 1}})
          if (m.has_triangle(tj, ta))
            for (const mesh::Node& v : m.triangle(tj, ta)) stencil.push_back(v);
        std::vector<int> u;
        for (const mesh::Node& n : stencil)
          if (unknown(n.j, n.a) >= 0) u.push_back(unknown(n.j, n.a));
        std::sort(u.begin(), u.end());
        u.erase(std::unique(u.begin(), u.end()), u.end());
        const bool interior = m.kind(j, a, boundary_) == mesh::NodeKind::interior;
        blocks_.push_back({interior ? Block::Kind::dcel : Block::Kind::boundary, j, a, u});
      }
      if (j == 0 && a < A_ && conditions.first_straight)
        blocks_.push_back({Block::Kind::straight, 0, a, depends({{0, a}, {0, a + 1}})});
      if (a == 0) {
        blocks_.push_back({Block::Kind::tip_pose, j, 0, depends({{j, 0}})});
        if (j < J_) blocks_.push_back({Block::Kind::tip_strain, j, 0, depends({{j, 0}, {j, 1}})});
      }
    }
}

template <class G>
Vec6 Problem<G>::residual(int b, const mesh::Field& field) const {
  const Block& block = blocks_[b];
  const int j = block.j, a = block.a;
  switch (block.kind) {
    case Block::Kind::dcel:
    case Block::Kind::boundary:
      // G_n / (dt ds): the equation of theory (4.2) in N/m, over its model-error level.
      return dcel::node_residual(model_, field, j, a).G /
             (model_.dt() * model_.ds() * weights_.model_error);
    case Block::Kind::straight:
      // Row 0 unstressed (6.13): the segment's reference strain (E6 on a straight beam).
      return (mesh::convected<G>(field(0, a), field(0, a + 1), model_.ds()) -
              model_.density(a).reference_strain()) /
             weights_.straight;
    case Block::Kind::tip_pose: {
      const lie::SE3& g = field(j, 0);
      const lie::SE3& m = data_.pose[j];
      Vec6 r;
      r.head<3>() =
          lie::log_map(lie::SE3{m.R.transpose() * g.R, Vec3::Zero()}).head<3>() / weights_.angle;
      r.tail<3>() = (g.r - m.r) / weights_.position;
      return r;
    }
    case Block::Kind::tip_strain:
      return (mesh::convected<G>(field(j, 0), field(j, 1), model_.ds()) - data_.strain[j]) /
             weights_.strain;
  }
  return Vec6::Zero();
}

template <class G>
Eigen::VectorXd Problem<G>::residuals(const mesh::Field& field, int threads) const {
  Eigen::VectorXd r(6 * static_cast<Eigen::Index>(blocks_.size()));
  const int n = block_count();
#pragma omp parallel for schedule(static) num_threads(std::max(threads, 1))
  for (int b = 0; b < n; ++b) r.segment<6>(6 * b) = residual(b, field);
  return r;
}

template <class G>
CostTerms Problem<G>::cost(const Eigen::VectorXd& r) const {
  CostTerms c;
  for (int b = 0; b < block_count(); ++b) {
    const double e = 0.5 * r.segment<6>(6 * b).squaredNorm();
    switch (blocks_[b].kind) {
      case Block::Kind::dcel:
        c.dcel += e;
        break;
      case Block::Kind::boundary:
      case Block::Kind::straight:
        c.boundary += e;
        break;
      case Block::Kind::tip_pose:
        c.tip_pose += e;
        break;
      case Block::Kind::tip_strain:
        c.tip_strain += e;
        break;
    }
  }
  return c;
}

template <class G>
Mat6 Problem<G>::jacobian_block(int b, int k, mesh::Field& field, double h) const {
  const mesh::Node n = nodes_[k];
  const lie::SE3 g = field(n);
  Mat6 Jb;
  for (int i = 0; i < 6; ++i) {
    Vec6 d = Vec6::Zero();
    d(i) = h;
    field(n) = g * G::tau(d);
    const Vec6 plus = residual(b, field);
    field(n) = g * G::tau(-d);
    const Vec6 minus = residual(b, field);
    Jb.col(i) = (plus - minus) / (2.0 * h);
  }
  field(n) = g;  // restored exactly
  return Jb;
}

template <class G>
void Problem<G>::update(mesh::Field& field, const Eigen::VectorXd& delta) const {
  for (int k = 0; k < unknown_count(); ++k)
    field(nodes_[k]) = field(nodes_[k]) * G::tau(Vec6(delta.segment<6>(6 * k)));
}

#define FIELD_INSTANTIATE(G) template class Problem<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::estimate

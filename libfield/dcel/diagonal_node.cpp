#include "libfield/dcel/diagonal_node.hpp"

#include "libfield/core/small_eigen.hpp"
#include "libfield/dcel/cayley_arithmetic.hpp"
#include "libfield/dcel/diagonal_law.hpp"
#include "libfield/dcel/exp_arithmetic.hpp"
#include "libfield/dcel/node_newton.hpp"
#include "libfield/lie/retraction.hpp"

namespace field::dcel {

namespace {

using V3 = small::V3<double>;

using small::head;
using small::tail;
inline Vec6 vec6(const V3& a, const V3& b) {
  return small::to_eigen(a, b);
}

// dcel::newton_solve on the law of G (dcel/node_newton.hpp).
template <class G>
struct Iteration {
  using Point = typename NodeArithmetic<G>::template Point<double>;
  using Factor = typename NodeArithmetic<G>::template Factor<double>;
  const DiagonalLaw<G>& law;
  Point point(const Vec6& y) const { return law.point(head(y), tail(y)); }
  Vec6 phi(const Point& z) const {
    V3 out_w, out_v;
    law.phi(z, out_w, out_v);
    return vec6(out_w, out_v);
  }
  void factor(Factor& f, const Point& z) const { law.factor(f, z); }
  Vec6 step(const Factor& f, const Vec6& r) const {
    V3 d_w, d_v;
    f.solve(head(r), tail(r), d_w, d_v);
    return vec6(d_w, d_v);
  }
  bool at_floor(const Vec6& y, const Point& z, const Vec6& m, const Vec6& r) const {
    return law.at_floor(head(y), tail(y), z, head(m), tail(m), head(r), tail(r));
  }
};

}  // namespace

template <class G>
Vec6 DiagonalNode<G>::phi(const Vec6& y) const {
  const Iteration<G> it{law_};
  return it.phi(it.point(y));
}

template <class G>
Mat6 DiagonalNode<G>::jacobian(const Vec6& y) const {
  return NodeArithmetic<G>::jacobian(Iteration<G>{law_}.point(y), law_.K(), law_.h());
}

template <class G>
Vec6 DiagonalNode<G>::newton_step(const Vec6& y, const Vec6& r) const {
  const Iteration<G> it{law_};
  typename Iteration<G>::Factor factor;
  it.factor(factor, it.point(y));
  return it.step(factor, r);
}

template <class G>
NodeSolveReport DiagonalNode<G>::solve(const Vec6& m, Vec6& y,
                                       const NodeSolverOptions& options) const {
  return newton_solve(Iteration<G>{law_}, m, y, options, kFreezeStep);
}

template <class G>
std::optional<DiagonalNode<G>> make_diagonal_node(const model::Density<lie::Se3Group>& density,
                                                  NodeEquation equation, double h) {
  const auto* law = density.diagonal_law();
  if (law == nullptr) return std::nullopt;  // diagonal laws only
  if (equation == NodeEquation::time) return DiagonalNode<G>(law->inertia, Vec6::Zero(), h);
  return DiagonalNode<G>(law->stiffness, law->reference_strain, h);
}

#define FIELD_INSTANTIATE(G)                                     \
  template class DiagonalNode<G>;                                \
  template std::optional<DiagonalNode<G>> make_diagonal_node<G>( \
      const model::Density<lie::Se3Group>&, NodeEquation, double);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel

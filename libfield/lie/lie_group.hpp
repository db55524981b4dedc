#pragma once
/// The compile-time interface of a Lie group with a retraction (docs/lie-groups.md): the
/// parameter the discretisation of docs/theory.md is generic over. C++17, so the "concept" is a
/// traits type G with the static members below, checked by `static_assert(is_lie_group<G>)`.
///
///   G::dim                      dimension n of the group (and of the algebra)
///   G::Space                    the group without its retraction, with the same dim, Element,
///                               Algebra, Matrix: the parameter of model::Density (a density
///                               does not depend on the retraction; both SE(3) ones share it)
///   G::Element                  group element
///   G::Algebra                  algebra vector, Eigen::Matrix<double, n, 1>; covectors too
///   G::Matrix                   n x n matrix, Eigen::Matrix<double, n, n>
///   G::identity()               e
///   G::compose(g, h)            g h
///   G::inverse(g)               g^{-1}
///   G::matrix(g)                a faithful matrix representation (comparisons in tests, output)
///   G::tau(x)                   the retraction tau(x), tau(0) = e (docs/theory.md §2)
///   G::tau_inv(g)               its inverse near e
///   G::dtau_inv(x)              dtau^{-1}_x, right-trivialised:
///                               d/de tau(x + e y) = (dtau_x y)^ tau(x)
///   G::dtau_inv_dual(x, p)      (dtau^{-1}_x)^T p for a covector p
///   G::Ad(g)                    Ad_g, (Ad_g x)^ = g x^ g^{-1}
///   G::Ad_dual(g, mu)           Ad*_g mu := (Ad_g)^T mu
///   G::newton_M(x, p)           d/dx [(dtau^{-1}_x)^T p] at fixed p (the node Newton of §5)
///   G::name()                   the group and retraction in reports: "SE(3), cayley", "R^3"
#include <type_traits>

#include <Eigen/Core>

namespace field::lie {

namespace detail {
template <typename G, typename = void>
struct is_lie_group_impl : std::false_type {};

template <typename G>
struct is_lie_group_impl<G, std::void_t<decltype(G::dim), typename G::Space, typename G::Element,
                                        typename G::Algebra, typename G::Matrix>>
    : std::bool_constant<
          std::is_same_v<typename G::Algebra, Eigen::Matrix<double, G::dim, 1>> &&
          G::Space::dim == G::dim &&
          std::is_same_v<typename G::Space::Element, typename G::Element> &&
          std::is_same_v<typename G::Space::Algebra, typename G::Algebra> &&
          std::is_same_v<typename G::Matrix, Eigen::Matrix<double, G::dim, G::dim>> &&
          std::is_same_v<decltype(G::identity()), typename G::Element> &&
          std::is_same_v<decltype(G::compose(std::declval<const typename G::Element&>(),
                                             std::declval<const typename G::Element&>())),
                         typename G::Element> &&
          std::is_same_v<decltype(G::inverse(std::declval<const typename G::Element&>())),
                         typename G::Element> &&
          std::is_same_v<decltype(G::tau(std::declval<const typename G::Algebra&>())),
                         typename G::Element> &&
          std::is_same_v<decltype(G::tau_inv(std::declval<const typename G::Element&>())),
                         typename G::Algebra> &&
          std::is_same_v<decltype(G::dtau_inv(std::declval<const typename G::Algebra&>())),
                         typename G::Matrix> &&
          std::is_same_v<decltype(G::dtau_inv_dual(std::declval<const typename G::Algebra&>(),
                                                   std::declval<const typename G::Algebra&>())),
                         typename G::Algebra> &&
          std::is_same_v<decltype(G::Ad(std::declval<const typename G::Element&>())),
                         typename G::Matrix> &&
          std::is_same_v<decltype(G::Ad_dual(std::declval<const typename G::Element&>(),
                                             std::declval<const typename G::Algebra&>())),
                         typename G::Algebra> &&
          std::is_same_v<decltype(G::newton_M(std::declval<const typename G::Algebra&>(),
                                              std::declval<const typename G::Algebra&>())),
                         typename G::Matrix>> {};
}  // namespace detail

/// G's node value and algebra vector, for signatures written once for every group.
template <typename G>
using ElementOf = typename G::Element;
template <typename G>
using AlgebraOf = typename G::Algebra;

/// True when G provides the interface above with the documented types.
template <typename G>
inline constexpr bool is_lie_group = detail::is_lie_group_impl<G>::value;

}  // namespace field::lie

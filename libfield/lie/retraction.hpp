#pragma once
/// The retraction of a case (theory §2: Cayley, theory §2.1, or the exponential, theory §2.2) is a
/// compile-time parameter G of the solver (lie::Se3Cayley or lie::Se3Exp, lie/se3_groups.hpp,
/// docs/lie-groups.md). The case file names it; `with_group` turns that name into the type once,
/// at the edge (io/case_setup, apps), and every layer below is a template on G.
#include <string>
#include <type_traits>

#include "libfield/lie/rn.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3_groups.hpp"

namespace field::lie {

/// The retraction named by a case file's `retraction` key.
enum class RetractionKind { cayley, exponential };

/// Parses "cayley" or "exp" / "exponential"; throws field::Error naming the value otherwise.
RetractionKind retraction_kind(const std::string& name);
/// "cayley" or "exponential".
std::string retraction_name(RetractionKind kind);

/// The kind of the instance G (SE(3) with either retraction, or SE(2) with Cayley).
template <class G>
constexpr RetractionKind kind_of() {
  static_assert(std::is_same_v<G, Se3Cayley> || std::is_same_v<G, Se3Exp> ||
                std::is_same_v<G, Se2Cayley>);
  return std::is_same_v<G, Se3Exp> ? RetractionKind::exponential : RetractionKind::cayley;
}
/// "cayley" or "exponential" for G.
template <class G>
std::string retraction_name() {
  return retraction_name(kind_of<G>());
}

/// Whether G's retraction is Cayley (whose coordinates stop at a half turn, theory §2.1).
template <class G>
constexpr bool is_cayley() {
  return std::is_same_v<G, Se3Cayley> || std::is_same_v<G, Se2Cayley>;
}

/// Whether a case's `retraction` selects G: a group with one retraction (its own Space: SE(2)
/// with Cayley, R^N) takes any; each of SE(3)'s two takes its own.
template <class G>
constexpr bool selected_by(RetractionKind kind) {
  if constexpr (std::is_same_v<G, typename G::Space>)
    return true;
  else
    return kind_of<G>() == kind;
}

/// Calls f(G{}) with the group type of `kind`: the one place where the run-time choice becomes a
/// type. f is a generic lambda, `[&](auto group) { using G = decltype(group); ... }`.
template <class F>
decltype(auto) with_group(RetractionKind kind, F&& f) {
  if (kind == RetractionKind::cayley) return f(Se3Cayley{});
  return f(Se3Exp{});
}

}  // namespace field::lie

/// Expands M(G) for every group the solver is instantiated for: the explicit instantiations at the
/// end of the .cpp files of mesh, dcel, march, noether and io (docs/lie-groups.md).
#define FIELD_FOR_EACH_GROUP(M) M(::field::lie::Se3Cayley) M(::field::lie::Se3Exp)

/// The same with the planar beam's group (theory §1.7) added: the files whose code is written for
/// any group (the time march and its diagnostics, docs/lie-groups.md "generic today").
#define FIELD_FOR_EACH_GROUP_AND_SE2(M) FIELD_FOR_EACH_GROUP(M) M(::field::lie::Se2Cayley)

/// The same with the cable's group R^3 (theory §1.8) added: the time and space marches (theory
/// §6.1, §6.2), the residual and the diagnostics, which are written for any group.
#define FIELD_FOR_EACH_MARCH_GROUP(M) FIELD_FOR_EACH_GROUP_AND_SE2(M) M(::field::lie::Rn<3>)

/// The groups a registered theory (model/theory_registry.hpp, io/registered_case.hpp) runs on:
/// the march groups whose elements have lie::Coordinates (lie/coordinates.hpp), the files of a
/// run folder. A new group joins this list once it has its Coordinates.
#define FIELD_FOR_EACH_REGISTRY_GROUP(M) FIELD_FOR_EACH_GROUP(M) M(::field::lie::Rn<3>)

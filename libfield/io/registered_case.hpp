#pragma once
/// A case of a registered theory (`theory = "NAME"`, model/theory_registry.hpp; docs/lie-groups.md
/// "Adding a theory"): read, run, written and checked with no code of the theory's own.
///  - [NAME]: the density's parameters, read by its factory through io::TomlParameters (errors
///    name file, line, key, value) and recorded in CaseSpec::registered (run.toml writes every
///    key back);
///  - [initial]: row 0 is the stress-free shape of the density from `origin`,
///    g^0 = (origin), g^{a+1} = g^a tau(ds eta0) (theory §1.6, eta0 the density's reference
///    strain; on SE(3) node 0 has the identity rotation); at rest or with a uniform body velocity
///    (velocity = "uniform", xi: dim numbers); start "second_order" or "first_order" (theory §6.1);
///  - [boundary] left/right "free" or "clamped" (held at row 0's end node); gravity from [loads];
///  - the outputs of every theory on its group (field.csv, frames, spacetime.vtu, series,
///    summary.json) and the generic tip.csv (io/group_tip.hpp).
/// A space-march case (`field reconstruct`, theory §6.2) takes [tip] file and time_offset: the
/// tip data of a run's tip.csv (space_input). What it does not take (refused naming the key):
/// [beam], [shape], [cable], [damping], [static], loads other than gravity, prescribed ends or
/// rows, a [reconstruct] method other than "space", the beam's [tip] noise and prediction keys,
/// rates, checkpoints, and a retraction on a group with one.
#include <toml++/toml.h>

#include <memory>
#include <ostream>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/run_writers.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/theory_registry.hpp"

namespace field::io {

class TomlTable;

/// " is not supported for theory = \"NAME\" (...)": the end of a message refusing a key.
std::string unsupported(const CaseSpec& c);

/// Calls f(G{}) with the group G of the case's registered theory: the first group of
/// FIELD_FOR_EACH_REGISTRY_GROUP (lie/retraction.hpp) whose space has the theory and which the
/// case's retraction selects (lie::selected_by). Throws field::Error when there is none.
template <class F>
decltype(auto) with_registered_group(const CaseSpec& c, F&& f) {
#define FIELD_TRY(G)                                                                        \
  if (model::find_theory<G::Space>(c.registered.name) && lie::selected_by<G>(c.retraction)) \
    return f(G{});
  FIELD_FOR_EACH_REGISTRY_GROUP(FIELD_TRY)
#undef FIELD_TRY
  throw Error(c.file.string() + ": no registered theory \"" + c.registered.name + "\"");
}

/// The dimension of the group of the case's registered theory.
int registered_dimension(const CaseSpec& c);

/// Reads the registered theory's [initial] table into c.initial and c.registered.xi (parse_case,
/// after [boundary]).
void read_registered_initial(std::optional<TomlTable> t, CaseSpec& c);
/// Reads the theory's table [NAME] through its factory (with the case's gravity: after [loads])
/// into c.registered.parameters, and refuses what a registered theory does not take (parse_case).
void read_registered(TomlTable table, const toml::table& root, CaseSpec& c);

/// A checked case of a registered theory on G: its density, grid, model and march input. Not
/// copyable: `model` refers to `density` and `loads`.
template <class G>
struct RegisteredProblem {
  explicit RegisteredProblem(const CaseSpec& spec);
  RegisteredProblem(const RegisteredProblem&) = delete;
  RegisteredProblem& operator=(const RegisteredProblem&) = delete;

  CaseSpec spec;
  const model::TheoryEntry<typename G::Space>& theory;
  std::unique_ptr<const model::Density<typename G::Space>> density;
  model::Loads loads;  ///< none: gravity is the density's potential
  mesh::SpacetimeMesh mesh;
  dcel::DiscreteModel<G> model;
  march::TimeMarchInputOf<G> input;  ///< a time march's (empty for a space march)

  /// The stability numbers of theory §6.1 from the density's wave speeds.
  march::StabilityNumbers stability() const {
    return march::stability_numbers(density->wave_speeds(), spec.dt, spec.ds);
  }
  /// The run folder's writers (io/run_writers.hpp, tip.csv io/group_tip.hpp).
  RunWriters<typename G::Element> writers(const RunWriterOptions& options) const;
};

/// Calls f(problem) with the RegisteredProblem<G> of the checked case `spec` (G: as
/// with_registered_group). f is a generic lambda; every
/// instance must return the same type.
template <class F>
decltype(auto) with_registered_problem(const CaseSpec& spec, F&& f) {
  return with_registered_group(spec, [&](auto group) -> decltype(auto) {
    const RegisteredProblem<decltype(group)> problem(spec);
    return f(problem);
  });
}

}  // namespace field::io

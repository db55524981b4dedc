#pragma once
/// The registry of field theories that a case names by `theory = "NAME"` and whose density
/// reads its parameters from the case's [NAME] table (docs/lie-groups.md, "Adding a theory"):
/// per group space S (lie::Rn<3>, lie::Se3Group), a name, a line on what it is, and a factory
/// that makes the density from its parameters (core/parameters.hpp) and the case's gravity.
/// io/ reads, runs, writes and checks a case of any registered theory with no code of the
/// theory's own (io/registered_case.hpp): a new theory is a density, its factory and one line in
/// model/theories.cpp (or a register_theory call of a program that links the library).
/// The beam, the planar beam and the cable have readers of their own (io/case_file.hpp) and are
/// not in the registry.
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libfield/core/parameters.hpp"
#include "libfield/core/types.hpp"
#include "libfield/model/density.hpp"

namespace field::model {

template <class S>
struct TheoryEntry {
  std::string name;     ///< `theory = "NAME"`; its parameters are the table [NAME]
  std::string summary;  ///< one line: what it is and where it is documented
  /// The density from the parameters and the gravity [m/s^2, world frame] of the case; a check
  /// that fails calls parameters.fail(key, why).
  std::function<std::unique_ptr<const Density<S>>(Parameters& parameters, const Vec3& gravity)>
      make;
};

/// The theories on S: model/theories.cpp's, then those registered at run time, in that order
/// (a deque: an entry stays where it is when more are registered).
template <class S>
const std::deque<TheoryEntry<S>>& theories();
/// The theory named `name` on S, or null.
template <class S>
const TheoryEntry<S>* find_theory(const std::string& name);
/// Adds a theory on S. Throws field::Error when the name is empty, has characters other than
/// [a-z0-9_], or is taken: by a theory on any space, a shipped theory ("beam", "planar_beam",
/// "cable") or a key of the case file's top level ("grid", "loads", ...: the theory's
/// parameters are the table [NAME]). Register before cases are read: the registry is not
/// guarded against a read while another thread registers.
template <class S>
void register_theory(TheoryEntry<S> entry);
/// The names of every registered theory (all spaces), for messages.
std::vector<std::string> registered_theory_names();

}  // namespace field::model

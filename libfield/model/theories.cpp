// The registry of model/theory_registry.hpp and its built-in theories: a new theory adds its
// entry to the list of its group space below.
#include <algorithm>
#include <mutex>

#include "libfield/core/error.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/model/string_density.hpp"
#include "libfield/model/theory_registry.hpp"

namespace field::model {

namespace {

template <class S>
std::deque<TheoryEntry<S>>& list();

// The built-in theories of each space.
template <>
std::deque<TheoryEntry<lie::Rn<3>>>& list() {
  static std::deque<TheoryEntry<lie::Rn<3>>> entries = {string_theory()};
  return entries;
}
template <>
std::deque<TheoryEntry<lie::Se3Group>>& list() {
  static std::deque<TheoryEntry<lie::Se3Group>> entries;
  return entries;
}

// The keys of a case file's top level (io/case_file.cpp), which a theory's table must not take.
const char* const kCaseKeys[] = {"format",     "name",     "description", "march",  "theory",
                                 "retraction", "beam",     "planar_beam", "cable",  "shape",
                                 "grid",       "boundary", "initial",     "tip",    "reconstruct",
                                 "loads",      "solver",   "static",      "output", "damping"};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

template <class S>
const std::deque<TheoryEntry<S>>& theories() {
  return list<S>();
}

template <class S>
const TheoryEntry<S>* find_theory(const std::string& name) {
  for (const TheoryEntry<S>& e : list<S>())
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> registered_theory_names() {
  std::vector<std::string> names;
  for (const auto& e : list<lie::Rn<3>>()) names.push_back(e.name);
  for (const auto& e : list<lie::Se3Group>()) names.push_back(e.name);
  return names;
}

template <class S>
void register_theory(TheoryEntry<S> entry) {
  const std::lock_guard<std::mutex> lock(registry_mutex());
  const std::string& name = entry.name;
  FIELD_CHECK(!name.empty() && std::all_of(name.begin(), name.end(),
                                           [](char c) {
                                             return (c >= 'a' && c <= 'z') ||
                                                    (c >= '0' && c <= '9') || c == '_';
                                           }),
              "register_theory: the name \"" << name
                                             << "\" must be made of a-z, 0-9 and _ (it is a case "
                                                "file's theory and the name of its table)");
  const std::vector<std::string> taken = registered_theory_names();
  FIELD_CHECK(
      std::find(taken.begin(), taken.end(), name) == taken.end() &&
          std::find(std::begin(kCaseKeys), std::end(kCaseKeys), name) == std::end(kCaseKeys),
      "register_theory: the name \"" << name
                                     << "\" is taken (by a theory, or by a key of the "
                                        "case file's top level such as grid or loads)");
  FIELD_CHECK(entry.make, "register_theory: the theory \"" << name << "\" has no factory");
  list<S>().push_back(std::move(entry));
}

#define FIELD_INSTANTIATE(S)                                         \
  template const std::deque<TheoryEntry<S>>& theories<S>();          \
  template const TheoryEntry<S>* find_theory<S>(const std::string&); \
  template void register_theory<S>(TheoryEntry<S>);
FIELD_INSTANTIATE(lie::Rn<3>)
FIELD_INSTANTIATE(lie::Se3Group)
#undef FIELD_INSTANTIATE

}  // namespace field::model

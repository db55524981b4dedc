#include "libfield/core/parameter_values.hpp"

#include "libfield/core/error.hpp"

namespace field {

void ParameterValues::record(Entry entry) {
  for (Entry& e : entries_)
    if (e.key == entry.key) {
      e = std::move(entry);
      return;
    }
  entries_.push_back(std::move(entry));
}

bool ParameterValues::operator==(const ParameterValues& other) const {
  if (entries_.size() != other.entries_.size()) return false;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry &a = entries_[i], &b = other.entries_[i];
    if (a.key != b.key || a.kind != b.kind || a.values != b.values) return false;
  }
  return true;
}

const ParameterValues::Entry* ParameterValues::find(const std::string& key, Entry::Kind kind,
                                                    const std::string& meaning) const {
  for (const Entry& e : entries_)
    if (e.key == key) {
      if (e.kind != kind) fail(key, "recorded as another kind of value than asked: " + meaning);
      return &e;
    }
  return nullptr;
}

double ParameterValues::number(const std::string& key, std::optional<double> fallback,
                               const std::string& meaning) {
  if (const Entry* e = find(key, Entry::Kind::number, meaning)) return e->values.at(0);
  if (!fallback) fail(key, "required: " + meaning);
  return *fallback;
}

bool ParameterValues::flag(const std::string& key, bool fallback, const std::string& meaning) {
  if (const Entry* e = find(key, Entry::Kind::flag, meaning)) return e->values.at(0) != 0.0;
  return fallback;
}

Eigen::VectorXd ParameterValues::vector(const std::string& key, int size,
                                        std::optional<Eigen::VectorXd> fallback,
                                        const std::string& meaning) {
  if (const Entry* e = find(key, Entry::Kind::vector, meaning)) {
    if (static_cast<int>(e->values.size()) != size)
      fail(key, "recorded with " + std::to_string(e->values.size()) + " entries, " +
                    std::to_string(size) + " asked: " + meaning);
    return Eigen::Map<const Eigen::VectorXd>(e->values.data(), size);
  }
  if (!fallback) fail(key, "required: " + meaning);
  return *fallback;
}

void ParameterValues::fail(const std::string& key, const std::string& why) const {
  throw Error("parameter " + key + ": " + why);
}

}  // namespace field

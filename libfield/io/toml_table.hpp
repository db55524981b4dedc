#pragma once
/// The reader of one TOML table of a case file (the beam's case, io/case_file, and the mechanics
/// case, io/mechanics_case): typed getters that remember which keys were read, and messages of the
/// form `file:line: [table] key = value: what is wrong; what to do`. Internal to the library (it
/// exposes toml++ types).
#include <toml++/toml.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/io/excerpt.hpp"

namespace field::io {

namespace fs = std::filesystem;

/// The largest integer a case file takes (indices and counts are `int`).
inline constexpr int64_t kTomlMaxInteger = 2000000000;

/// The text of a case file parsed: checked by io/toml_guard first, a byte-order mark skipped,
/// and the library's parse error given as field::Error "file:line:column: not valid TOML: ...".
toml::table parse_toml(const std::string& text, const fs::path& file);

/// The value of a node for a message, as a bounded excerpt (io/excerpt.hpp).
std::string describe(const toml::node& node);

/// One TOML table of a case file: typed getters that remember which keys were read, and error
/// messages of the form `file:line: [table] key = value: what is wrong; what to do`.
class TomlTable {
 public:
  TomlTable(const toml::table& table, std::string name, const fs::path& file)
      : table_(table), name_(std::move(name)), file_(file) {}

  const std::string& name() const { return name_; }
  bool has(const std::string& key) const { return table_.contains(key); }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    std::ostringstream out;
    const toml::node* node = table_.get(key);
    const auto& where = node ? node->source() : table_.source();
    out << file_.string() << ":" << where.begin.line << ": ";
    if (node) {
      out << qualified(key) << " = " << describe(*node) << ": " << what;
    } else {
      out << "missing key " << qualified(key) << ": " << what;
    }
    throw Error(out.str());
  }

  const toml::node* node(const std::string& key) {
    used_.insert(key);
    return table_.get(key);
  }

  double number(const std::string& key, std::optional<double> fallback, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    if (!n->is_number()) fail(key, "expected a number: " + what);
    const double v = n->value<double>().value();
    if (!std::isfinite(v)) fail(key, "must be finite: " + what);
    return v;
  }
  double positive(const std::string& key, std::optional<double> fallback, const std::string& what) {
    const double v = number(key, fallback, what);
    if (!(v > 0.0)) fail(key, "must be > 0: " + what);
    return v;
  }
  double non_negative(const std::string& key, double fallback, const std::string& what) {
    const double v = number(key, fallback, what);
    if (!(v >= 0.0)) fail(key, "must be >= 0: " + what);
    return v;
  }
  /// An integer in [min, max] (max at most kTomlMaxInteger).
  int integer(const std::string& key, std::optional<int> fallback, int min, const std::string& what,
              int64_t max = kTomlMaxInteger) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    const std::string range = "between " + std::to_string(min) + " and " + std::to_string(max);
    if (n->is_floating_point()) {
      const double d = n->as_floating_point()->get();
      if (std::isfinite(d) && d == std::floor(d) && d >= min && d <= max)
        fail(key, "expected an integer, without a decimal point or exponent (write " +
                      std::to_string(static_cast<int64_t>(d)) + "): " + what);
      if (std::isfinite(d) && d == std::floor(d))
        fail(key, "out of range: must be an integer " + range + ": " + what);
    }
    if (!n->is_integer()) fail(key, "expected an integer " + range + ": " + what);
    const int64_t v = n->as_integer()->get();
    if (v < min || v > max) fail(key, "out of range: must be " + range + ": " + what);
    return static_cast<int>(v);
  }
  bool boolean(const std::string& key, bool fallback, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) return fallback;
    if (!n->is_boolean()) fail(key, "expected true or false: " + what);
    return n->as_boolean()->get();
  }
  std::string string(const std::string& key, std::optional<std::string> fallback,
                     const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    if (!n->is_string()) fail(key, "expected a string: " + what);
    return n->as_string()->get();
  }
  /// One of `choices` (case-sensitive); the message lists them.
  std::string choice(const std::string& key, std::optional<std::string> fallback,
                     const std::vector<std::string>& choices) {
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
    const std::string v = string(key, fallback, "one of " + list);
    for (const auto& c : choices)
      if (v == c) return v;
    fail(key, "expected one of " + list);
  }
  /// An array of exactly n finite numbers.
  Eigen::VectorXd vector(const toml::node& n, const std::string& key, int size,
                         const std::string& what) const {
    const toml::array* array = n.as_array();
    if (!array || static_cast<int>(array->size()) != size)
      fail(key, "expected an array of " + std::to_string(size) + " numbers: " + what);
    Eigen::VectorXd v(size);
    for (int i = 0; i < size; ++i) {
      const toml::node& e = *array->get(i);
      if (!e.is_number()) fail(key, "entry " + std::to_string(i + 1) + " is not a number: " + what);
      v(i) = e.value<double>().value();
      if (!std::isfinite(v(i)))
        fail(key, "entry " + std::to_string(i + 1) + " is not finite: " + what);
    }
    return v;
  }
  template <int N>
  Eigen::Matrix<double, N, 1> vec(const std::string& key,
                                  std::optional<Eigen::Matrix<double, N, 1>> fallback,
                                  const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    return vector(*n, key, N, what);
  }
  /// An R x C matrix given as R arrays of C numbers (its rows).
  template <int R, int C>
  Eigen::Matrix<double, R, C> matrix(const std::string& key, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) fail(key, "required: " + what);
    const toml::array* rows = n->as_array();
    if (!rows || static_cast<int>(rows->size()) != R)
      fail(key, "expected " + std::to_string(R) + " rows of " + std::to_string(C) +
                    " numbers (an array of " + std::to_string(R) + " arrays): " + what);
    Eigen::Matrix<double, R, C> m;
    for (int i = 0; i < R; ++i)
      m.row(i) =
          vector(*rows->get(i), key, C, "row " + std::to_string(i + 1) + " of " + what).transpose();
    return m;
  }
  /// A sub-table; nullopt when absent.
  std::optional<TomlTable> table(const std::string& key) {
    const toml::node* n = node(key);
    if (!n) return std::nullopt;
    if (!n->is_table()) fail(key, "expected a table");
    return TomlTable(*n->as_table(), qualified(key), file_);
  }
  /// A path relative to the case file's folder, made absolute.
  fs::path path(const std::string& key, const std::string& what) {
    const std::string text = string(key, std::nullopt, what);
    if (text.empty()) fail(key, "must not be empty: " + what);
    if (text.find('\0') != std::string::npos) fail(key, "a path cannot contain a NUL character");
    const fs::path p(text);
    return fs::absolute(p.is_absolute() ? p : file_.parent_path() / p).lexically_normal();
  }
  /// "file:line: [table] key" of a key, for messages about the file it names.
  std::string where(const std::string& key) const {
    const toml::node* n = table_.get(key);
    const auto& at = n ? n->source() : table_.source();
    return file_.string() + ":" + std::to_string(at.begin.line) + ": " + qualified(key);
  }
  /// Rejects keys that no getter asked for; `allowed` lists the keys of the table's other
  /// settings for the message (empty: the keys read).
  void reject_unknown(std::vector<std::string> allowed = {}) const {
    if (allowed.empty()) allowed.assign(used_.begin(), used_.end());
    for (const auto& [key, value] : table_) {
      const std::string k(key.str());
      if (used_.count(k)) continue;
      if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) {
        std::ostringstream out;
        out << file_.string() << ":" << key.source().begin.line << ": " << qualified(k)
            << " is not used with the other settings of this table (e.g. a file for a choice "
               "that takes none): remove it or change the choice";
        throw Error(out.str());
      }
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      std::ostringstream out;
      out << file_.string() << ":" << key.source().begin.line << ": unknown key "
          << excerpt(qualified(k)) << " (allowed here: " << list << "; check the spelling)";
      throw Error(out.str());
    }
  }
  const toml::table& raw() const { return table_; }
  const fs::path& file() const { return file_; }

 private:
  std::string qualified(const std::string& key) const {
    return name_.empty() ? key : "[" + name_ + "] " + key;
  }
  const toml::table& table_;
  std::string name_;
  fs::path file_;
  std::set<std::string> used_;
};

/// The table `key` of a case for messages about its keys (checks after parsing, e.g.
/// io/planar_case, io/cable_case); the top level when it is absent.
inline TomlTable table_or_top(const toml::table& root, const std::string& key,
                              const fs::path& file) {
  const toml::node* n = root.get(key);
  if (n && n->is_table()) return TomlTable(*n->as_table(), key, file);
  return TomlTable(root, "", file);
}

}  // namespace field::io

#pragma once
/// The parameters of a registered theory (core/parameters.hpp) from its case table [NAME]
/// (io/registered_case.hpp): read with io::TomlTable's getters, so that an error names the file,
/// the line, the key and its value; every value taken (the default of a key left out too) is
/// recorded in `values`, the resolved case's record of the theory.
#include "libfield/core/parameter_values.hpp"
#include "libfield/io/toml_table.hpp"

namespace field::io {

class TomlParameters final : public Parameters {
 public:
  TomlParameters(TomlTable& table, ParameterValues& values) : table_(table), values_(values) {}

  double number(const std::string& key, std::optional<double> fallback,
                const std::string& meaning) override;
  bool flag(const std::string& key, bool fallback, const std::string& meaning) override;
  Eigen::VectorXd vector(const std::string& key, int size, std::optional<Eigen::VectorXd> fallback,
                         const std::string& meaning) override;
  [[noreturn]] void fail(const std::string& key, const std::string& why) const override {
    table_.fail(key, why);
  }

 private:
  TomlTable& table_;
  ParameterValues& values_;
};

}  // namespace field::io

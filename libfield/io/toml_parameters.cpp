#include "libfield/io/toml_parameters.hpp"

namespace field::io {

using Kind = ParameterValues::Entry::Kind;

double TomlParameters::number(const std::string& key, std::optional<double> fallback,
                              const std::string& meaning) {
  const double v = table_.number(key, fallback, meaning);
  values_.record({key, Kind::number, {v}, meaning});
  return v;
}

bool TomlParameters::flag(const std::string& key, bool fallback, const std::string& meaning) {
  const bool v = table_.boolean(key, fallback, meaning);
  values_.record({key, Kind::flag, {v ? 1.0 : 0.0}, meaning});
  return v;
}

Eigen::VectorXd TomlParameters::vector(const std::string& key, int size,
                                       std::optional<Eigen::VectorXd> fallback,
                                       const std::string& meaning) {
  const toml::node* n = table_.node(key);
  if (!n && !fallback) table_.fail(key, "required: " + meaning);
  const Eigen::VectorXd v = n ? table_.vector(*n, key, size, meaning) : *fallback;
  values_.record({key, Kind::vector, std::vector<double>(v.data(), v.data() + v.size()), meaning});
  return v;
}

}  // namespace field::io

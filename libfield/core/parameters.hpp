#pragma once
/// The parameters of a field theory as its case gives them (docs/lie-groups.md, "Adding a
/// theory"): named numbers, flags and vectors, each read with its meaning and, when optional, its
/// default. A density's factory (model/theory_registry.hpp) reads them through this interface and
/// nothing else, so that a new theory needs no code in io/: io implements it over the theory's
/// TOML table (io/toml_parameters.hpp: every error names file, line, key and value) and
/// core/parameter_values.hpp replays the values once read (the density of a run is made again
/// from its resolved case).
#include <Eigen/Core>
#include <cmath>
#include <optional>
#include <string>

namespace field {

class Parameters {
 public:
  virtual ~Parameters() = default;

  /// A finite number; when absent `fallback`, or an error when there is none.
  virtual double number(const std::string& key, std::optional<double> fallback,
                        const std::string& meaning) = 0;
  /// true or false; when absent `fallback`.
  virtual bool flag(const std::string& key, bool fallback, const std::string& meaning) = 0;
  /// `size` finite numbers; when absent `fallback` (of that size), or an error when there is none.
  virtual Eigen::VectorXd vector(const std::string& key, int size,
                                 std::optional<Eigen::VectorXd> fallback,
                                 const std::string& meaning) = 0;
  /// Throws field::Error naming the key (and, for a case file, its file, line and value) and why
  /// its value cannot be taken, e.g. a check between two parameters.
  [[noreturn]] virtual void fail(const std::string& key, const std::string& why) const = 0;

  /// A positive normal double: a subnormal one (below about 2.2e-308) has no reciprocal in double
  /// precision (a string with rho = 5e-324 marched NaN from row 0), as the beam's J and C entries.
  double positive(const std::string& key, std::optional<double> fallback,
                  const std::string& meaning) {
    const double v = number(key, fallback, meaning);
    if (!(v > 0.0)) fail(key, "must be > 0: " + meaning);
    if (!std::isnormal(v))
      fail(key,
           "must be at least 2.2250738585072014e-308 (a normal double; below it 1/value "
           "overflows): " +
               meaning + "; give it in units that keep it in range");
    return v;
  }
  double non_negative(const std::string& key, std::optional<double> fallback,
                      const std::string& meaning) {
    const double v = number(key, fallback, meaning);
    if (!(v >= 0.0)) fail(key, "must be >= 0: " + meaning);
    return v;
  }
};

}  // namespace field

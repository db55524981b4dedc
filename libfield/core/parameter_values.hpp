#pragma once
/// The parameters of a field theory as read (core/parameters.hpp): every key its factory asked
/// for, in the order asked, with the value taken (the case's or the default). They are the
/// resolved case's record of the theory (io::write_case writes them back, every key explicit),
/// and, as a Parameters, they give the factory the same values again: a run's density is made
/// from its resolved case without the case file.
#include <string>
#include <vector>

#include "libfield/core/parameters.hpp"

namespace field {

class ParameterValues final : public Parameters {
 public:
  struct Entry {
    enum class Kind { number, flag, vector };
    std::string key;
    Kind kind = Kind::number;
    std::vector<double> values;  ///< number: one; flag: 0 or 1; vector: its entries
    std::string meaning;
  };

  /// Records a value read elsewhere (replaces an earlier entry of the key).
  void record(Entry entry);
  const std::vector<Entry>& entries() const { return entries_; }
  bool operator==(const ParameterValues& other) const;

  /// The recorded value, or the fallback when the key was not recorded.
  double number(const std::string& key, std::optional<double> fallback,
                const std::string& meaning) override;
  bool flag(const std::string& key, bool fallback, const std::string& meaning) override;
  Eigen::VectorXd vector(const std::string& key, int size, std::optional<Eigen::VectorXd> fallback,
                         const std::string& meaning) override;
  [[noreturn]] void fail(const std::string& key, const std::string& why) const override;

 private:
  const Entry* find(const std::string& key, Entry::Kind kind, const std::string& meaning) const;
  std::vector<Entry> entries_;
};

}  // namespace field

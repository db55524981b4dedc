#include "libfield/core/error.hpp"

namespace field::detail {

void throw_error(const char* file, int line, const char* condition, const std::string& message) {
  std::ostringstream out;
  out << message << " [check '" << condition << "' failed at " << file << ":" << line << "]";
  throw Error(out.str());
}

}  // namespace field::detail

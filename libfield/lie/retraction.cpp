#include "libfield/lie/retraction.hpp"

#include "libfield/core/error.hpp"

namespace field::lie {

RetractionKind retraction_kind(const std::string& name) {
  if (name == "cayley") return RetractionKind::cayley;
  if (name == "exp" || name == "exponential") return RetractionKind::exponential;
  FIELD_CHECK(false, "unknown retraction '" << name << "': use \"cayley\" or \"exponential\"");
}

std::string retraction_name(RetractionKind kind) {
  return kind == RetractionKind::cayley ? "cayley" : "exponential";
}

}  // namespace field::lie

#include "libfield/io/toml_table.hpp"

#include "libfield/io/csv_table.hpp"
#include "libfield/io/toml_guard.hpp"

namespace field::io {

namespace {

/// A float as a TOML float: with its point ("1.0", not "1", so that `format = 1.0` is not
/// shown as the integer it is not), or an exponent ("1e+300").
std::string float_text(double v) {
  std::string s = shortest(v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // n: nan, inf
  return s;
}

/// The value of a node as TOML on one line; arrays only as far as a message quotes them.
void write_value(std::string& out, const toml::node& node) {
  if (node.is_string()) {
    out += '"' + node.as_string()->get() + '"';
  } else if (node.is_table()) {
    out += "{...}";
  } else if (node.is_floating_point()) {
    out += float_text(node.as_floating_point()->get());
  } else if (const toml::array* array = node.as_array()) {
    out += "[";
    for (std::size_t i = 0; i < array->size() && out.size() <= kExcerptLength; ++i) {
      if (i > 0) out += ", ";
      write_value(out, *array->get(i));
    }
    out += out.size() <= kExcerptLength ? "]" : ", ...]";
  } else {
    std::ostringstream text;
    node.visit([&text](const auto& n) { text << n; });  // integers, booleans, dates as TOML
    out += text.str();
  }
}

}  // namespace

std::string describe(const toml::node& node) {
  std::string out;
  write_value(out, node);
  return excerpt(out);
}

toml::table parse_toml(const std::string& text, const fs::path& file) {
  check_toml_text(text, file);  // before the library sees it: encoding, depth (issue 15)
  // A byte-order mark is not part of the TOML text.
  const std::string_view body =
      std::string_view(text).substr(text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);
  try {
    return toml::parse(body, file.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << file.string() << ":" << e.source().begin.line << ":" << e.source().begin.column
        << ": not valid TOML: " << excerpt(std::string(e.description()), 200);
    throw Error(out.str());
  }
}

}  // namespace field::io

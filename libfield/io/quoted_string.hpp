#pragma once
/// A string in double quotes with `"`, `\`, newline, tab and the other control characters
/// escaped (\", \\, \n, \t, \u00XX): a valid TOML basic string (run.toml) and a valid JSON
/// string (summary.json), which reads back unchanged.
#include <string>

namespace field::io {

std::string quoted_string(const std::string& s);

}  // namespace field::io

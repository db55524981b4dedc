// libfield.Case: a validated case (io::CaseSpec, docs/cli.md) from a case file, from the text of
// one, or from a Python dict with the case file's tables and keys (issue 17).
#include "python/src/case.hpp"

#include <toml++/toml.h>

#include <sstream>

#include "libfield/io/case_file.hpp"

namespace field::python {

namespace {

toml::table table_of(const py::dict& d, const std::string& where);

/// Where converted values go: an array's next element, or a table's key (two types, so that the
/// recursion below instantiates convert twice, not once per nesting level).
struct ArraySink {
  toml::array& array;
  template <class T>
  void operator()(T&& value) {
    array.push_back(std::forward<T>(value));
  }
};
struct TableSink {
  toml::table& table;
  const std::string& key;
  template <class T>
  void operator()(T&& value) {
    table.insert_or_assign(key, std::forward<T>(value));
  }
};

/// Hands one value of a case dict to `sink` as TOML: bool, int, float, str, a list or tuple of
/// values (an array), a dict (a table), a numpy scalar or array (through tolist()).
template <class Sink>
void convert(const py::handle& v, const std::string& where, Sink sink) {
  if (py::isinstance<py::bool_>(v)) {
    sink(v.cast<bool>());
  } else if (py::isinstance<py::int_>(v)) {
    sink(v.cast<long long>());
  } else if (py::isinstance<py::float_>(v)) {
    sink(v.cast<double>());
  } else if (py::isinstance<py::str>(v)) {
    sink(v.cast<std::string>());
  } else if (py::isinstance<py::dict>(v)) {
    sink(table_of(v.cast<py::dict>(), where));
  } else if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    toml::array a;
    const auto items = v.cast<py::sequence>();
    for (std::size_t k = 0; k < items.size(); ++k)
      convert(items[k], where + "[" + std::to_string(k) + "]", ArraySink{a});
    sink(std::move(a));
  } else if (py::hasattr(v, "tolist")) {
    convert(v.attr("tolist")(), where, sink);
  } else {
    throw py::value_error(where +
                          ": a case value must be a bool, int, float, str, list or dict, "
                          "not " +
                          py::str(py::type::of(v)).cast<std::string>());
  }
}

toml::table table_of(const py::dict& d, const std::string& where) {
  toml::table t;
  for (const auto& [k, v] : d) {
    if (!py::isinstance<py::str>(k))
      throw py::value_error((where.empty() ? std::string("case") : where) +
                            ": keys must be strings, not " +
                            py::str(py::type::of(k)).cast<std::string>());
    const std::string key = k.cast<std::string>();
    convert(v, where.empty() ? key : where + "." + key, TableSink{t, key});
  }
  return t;
}

}  // namespace

std::string case_text(const py::dict& d) {
  std::ostringstream out;
  out << table_of(d, "");
  return out.str();
}

void bind_case(py::module_& m) {
  py::class_<io::CaseSpec>(m, "Case", "A validated case (docs/cli.md): its keys resolved")
      .def_static(
          "load", [](const std::string& path) { return io::load_case(path); }, py::arg("path"),
          "Reads and validates a case file (TOML); ValueError with file:line:key for bad input.")
      .def_static(
          "from_toml",
          [](const std::string& text, const std::string& name) {
            return io::parse_case(text, name);
          },
          py::arg("text"), py::arg("name") = "case.toml",
          "The same from the text of a case file; `name` appears in messages, and relative data "
          "paths start from its folder.")
      .def_static(
          "from_dict",
          [](const py::dict& d, const std::string& name) {
            return io::parse_case(case_text(d), name);
          },
          py::arg("case"), py::arg("name") = "case.toml",
          "The same from a dict of the case file's tables and keys, e.g. {'name': 'x', 'grid': "
          "{'A': 10, ...}}.")
      .def_property_readonly("name", [](const io::CaseSpec& c) { return c.name; })
      .def_property_readonly("file", [](const io::CaseSpec& c) { return c.file.string(); })
      .def_property_readonly("A", [](const io::CaseSpec& c) { return c.A; })
      .def_property_readonly("J", [](const io::CaseSpec& c) { return c.J; })
      .def_property_readonly("dt", [](const io::CaseSpec& c) { return c.dt; })
      .def_property_readonly("ds", [](const io::CaseSpec& c) { return c.ds; })
      .def_property_readonly("length", &io::CaseSpec::length)
      .def_property_readonly("duration", &io::CaseSpec::duration)
      .def(
          "to_toml",
          [](const io::CaseSpec& c) {
            std::ostringstream out;
            io::write_case(out, c);
            return out.str();
          },
          "The resolved case as a case file (every key explicit, paths absolute), as run.toml.")
      .def("__repr__", [](const io::CaseSpec& c) {
        return "<libfield.Case '" + c.name + "' A=" + std::to_string(c.A) +
               " J=" + std::to_string(c.J) + ">";
      });
}

}  // namespace field::python

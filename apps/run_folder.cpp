#include "apps/run_folder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/quoted_string.hpp"

namespace field::app {

namespace fs = std::filesystem;

namespace {

/// What a run writes into DIR (docs/output-format.md).
bool is_run_output(const fs::path& p) {
  static const std::vector<std::string> names{
      "field.csv",     "time_series.csv", "space_series.csv", "tip.csv",       "beam.pvd",
      "frames",        "spacetime.vtu",   "run.toml",         "summary.json",  "field_std.csv",
      "field_std.vtu", "cable.pvd",       "field_rates.csv",  "checkpoint.txt"};
  const std::string name = p.filename().string();
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  return p.extension() == ".part";
}

}  // namespace

void prepare_run_folder(const fs::path& dir, bool force, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(fs::absolute(dir), ec);
  for (const fs::path& input : inputs) {
    const fs::path in = fs::weakly_canonical(fs::absolute(input), ec);
    if (in.parent_path() == out && is_run_output(in))
      throw IoError("input " + input.string() + " is in the output folder " + dir.string() +
                    " under a name the run writes (" + in.filename().string() +
                    "): it would be replaced; choose another --out or move the input");
  }
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec))
      throw IoError("output " + dir.string() + " exists and is not a folder: choose another --out");
    const bool empty = fs::directory_iterator(dir, ec) == fs::directory_iterator();
    if (!empty) {
      if (!force)
        throw IoError("output folder " + dir.string() +
                      " is not empty: choose another --out, or add --force to replace the "
                      "outputs of the earlier run there");
      for (const auto& entry : fs::directory_iterator(dir))
        if (is_run_output(entry.path())) fs::remove_all(entry.path());
    }
  } else if (!fs::create_directories(dir, ec)) {
    throw IoError("cannot create output folder " + dir.string() + ": " + ec.message());
  }
}

fs::path default_run_folder(const io::CaseSpec& spec) {
  return fs::path("runs") / spec.name;
}

void write_run_case(const fs::path& dir, const io::CaseSpec& spec) {
  io::write_file_atomically(dir / "run.toml",
                            [&](std::ostream& out) { io::write_case(out, spec); });
}

void Summary::add(const std::string& key, const std::string& json_value) {
  entries_.emplace_back(key, json_value);
}

void Summary::number(const std::string& key, double value) {
  if (!std::isfinite(value)) return add(key, "null");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  add(key, buf);
}

void Summary::text(const std::string& key, const std::string& value) {
  add(key, io::quoted_string(value));
}

void Summary::write(const fs::path& dir) const {
  io::write_file_atomically(dir / "summary.json", [&](std::ostream& out) {
    out << "{\n";
    for (std::size_t i = 0; i < entries_.size(); ++i)
      out << "  " << io::quoted_string(entries_[i].first) << ": " << entries_[i].second
          << (i + 1 < entries_.size() ? ",\n" : "\n");
    out << "}\n";
  });
}

std::string every(int stride, const std::string& slab) {
  return stride == 1 ? "every " + slab : "every " + std::to_string(stride) + " " + slab + "s";
}

void print_vtk_rows(const io::CaseSpec& spec, int last, int first) {
  if (last < first) return;
  const int stride = spec.output.vtk_rows_stride(spec.J);
  const std::string given =
      spec.output.vtk_stride > 0 ? std::to_string(spec.output.vtk_stride) : "\"auto\"";
  std::printf("  VTK files %s (vtk_stride = %s): %d frames of rows %d..%d\n",
              every(stride, "row").c_str(), given.c_str(),
              io::SlabSelection(last, stride).count(first), first, last);
}

std::string list_outputs(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (is_run_output(entry.path()) && entry.path().extension() != ".part")
      names.push_back(entry.path().filename().string() + (entry.is_directory() ? "/" : ""));
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace field::app

#pragma once
// The run folder DIR of `field simulate` / `field reconstruct` (docs/output-format.md): its
// preparation (refuse a non-empty DIR unless --force), the resolved case run.toml and the
// summary.json written at the end.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "libfield/io/case_file.hpp"

namespace field::app {

/// Creates DIR if needed. A DIR holding files is refused (IoError saying what to do) unless
/// `force`; then only the files an earlier run wrote are removed (other files stay). An input
/// of the run (`inputs`: the case file and its data files) that a run would remove or overwrite
/// is refused even with `force`.
void prepare_run_folder(const std::filesystem::path& dir, bool force,
                        const std::vector<std::filesystem::path>& inputs);

/// Default DIR for a case: runs/<case name>.
std::filesystem::path default_run_folder(const io::CaseSpec& spec);

/// Writes DIR/run.toml: the resolved case (`field simulate DIR/run.toml` repeats the run).
void write_run_case(const std::filesystem::path& dir, const io::CaseSpec& spec);

/// summary.json: flat key/value pairs; values are JSON literals (numbers, "strings", arrays).
class Summary {
 public:
  void add(const std::string& key, const std::string& json_value);
  void number(const std::string& key, double value);
  void text(const std::string& key, const std::string& value);
  /// Writes DIR/summary.json atomically.
  void write(const std::filesystem::path& dir) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

/// "every row" for stride 1, "every 25 rows" for 25 (`slab`: "row", "column").
std::string every(int stride, const std::string& slab);

/// Prints the row stride of the VTK files and their number of frames for rows first..last (the
/// stride "auto" chooses is shown, docs/output-format.md): one line of the final report. A march
/// that stopped at row last < J wrote the selected rows up to it and row last itself (the frame
/// writers' finish); a continued run (io/checkpoint.hpp) writes from first = k-1. Nothing when no
/// row was written (last < first).
void print_vtk_rows(const io::CaseSpec& spec, int last, int first = 0);

/// The names of the files in DIR (one level, folders with a trailing '/'), for the final report.
std::string list_outputs(const std::filesystem::path& dir);

}  // namespace field::app

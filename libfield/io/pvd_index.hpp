#pragma once
/// The ParaView collection file (`.pvd`) that lists the frames of a time series: one
/// `<DataSet timestep="t" group="" part="0" file="relative/name.vtp"/>` per frame. The whole file
/// is rewritten atomically after every frame (like the deal.II tutorials), so that a run that is
/// interrupted leaves an index of the frames written so far (docs/output-format.md).
#include <filesystem>
#include <string>
#include <vector>

namespace field::io {

/// One frame of a .pvd: its time [s] and its file name relative to the .pvd's folder.
struct PvdEntry {
  double time = 0.0;
  std::string file;
};

class PvdIndex {
 public:
  /// The index at `path`; nothing is written before the first add().
  explicit PvdIndex(std::filesystem::path path) : path_(std::move(path)) {}

  /// Appends a frame and rewrites the whole file (write_file_atomically). Throws field::IoError.
  void add(double time, const std::string& relative_file);
  /// Rewrites the whole file with the current entries. Throws field::IoError.
  void write() const;

  const std::filesystem::path& path() const { return path_; }
  const std::vector<PvdEntry>& entries() const { return entries_; }

 private:
  std::filesystem::path path_;
  std::vector<PvdEntry> entries_;
};

/// Reads the DataSet entries of a .pvd written by PvdIndex (timestep and file attributes, in
/// order). Throws field::IoError when it cannot be opened, field::Error when an entry lacks an
/// attribute or has a timestep that is not a number.
std::vector<PvdEntry> read_pvd(const std::filesystem::path& path);

}  // namespace field::io

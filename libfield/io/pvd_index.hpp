#pragma once
/// The ParaView collection file (`.pvd`) that lists the frames of a time series: one
/// `<DataSet timestep="t" group="" part="0" file="relative/name.vtp"/>` per frame. The file is
/// written in place under its final name and appended: the header once, then for each frame its
/// DataSet line and the closing tags in one write over the previous closing tags, flushed. At
/// every moment between frames the file is a complete index of the frames written so far (the
/// writer of the frames adds a frame after its file is complete), so an interrupted run leaves a
/// valid index; a frame costs one short write whatever the number of frames before it
/// (docs/output-format.md).
#include <filesystem>
#include <fstream>
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
  explicit PvdIndex(std::filesystem::path path);
  PvdIndex(const PvdIndex&) = delete;
  PvdIndex& operator=(const PvdIndex&) = delete;
  ~PvdIndex();

  /// Appends a frame (the first call creates the file). Throws field::IoError naming the path.
  void add(double time, const std::string& relative_file);

  const std::filesystem::path& path() const { return path_; }
  /// Frames listed so far.
  long long size() const { return size_; }

 private:
  std::filesystem::path path_;
  std::ofstream out_;
  std::streamoff tail_ = 0;  // where the closing tags start
  long long size_ = 0;
};

/// Reads the DataSet entries of a .pvd written by PvdIndex (timestep and file attributes, in
/// order). Throws field::IoError when it cannot be opened, field::Error when an entry lacks an
/// attribute or has a timestep that is not a number.
std::vector<PvdEntry> read_pvd(const std::filesystem::path& path);

}  // namespace field::io

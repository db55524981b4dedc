#pragma once
/// Atomic output files: every file of a run folder is written under a temporary name in the same
/// folder (`name.part`) and renamed to its final name only when it is complete, so that a reader
/// never sees a half-written file under the final name (docs/output-format.md).
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace field::io {

/// The OS reason of the last failed file operation: strerror(errno), or "unknown I/O error" when
/// errno is 0 (std::ofstream sets errno on POSIX systems, which the standard does not promise).
std::string last_os_error();

/// The temporary name of `path`: the same folder and name with ".part" appended.
std::filesystem::path part_path(const std::filesystem::path& path);

/// Renames the complete temporary file `part` to `path` (replacing an existing file). Throws
/// field::IoError naming both paths and the OS reason when the rename fails.
void commit_file(const std::filesystem::path& part, const std::filesystem::path& path);

/// Writes `path` through `write` into part_path(path), checks the stream, then renames it.
/// Throws field::IoError naming the path and the OS reason when the file cannot be opened,
/// written or renamed; the temporary file is removed on any failure (also when `write` throws).
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

}  // namespace field::io

#pragma once
/// Opening an input file (case file, tip / node / pose CSV) safely: it must be a regular file
/// (a fifo or a device such as /dev/zero would be read without end) no larger than a limit, and
/// the operating system's reason is given when it cannot be opened (e.g. "Too many levels of
/// symbolic links" for a symlink loop). docs/input-data.md, meshes/README.md.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace field::io {

/// Size limits of input files [bytes]: a case file is a few kB (16 MiB leaves room for long load
/// tables); a CSV file of 10^6 tip rows at 17 digits is about 350 MB.
inline constexpr std::uintmax_t kCaseFileLimit = 16u << 20;  // 16 MiB
inline constexpr std::uintmax_t kCsvFileLimit = 1u << 30;    // 1 GiB
/// A run's own files read back line by line (field.csv, checkpoint.txt): any size, but still a
/// regular file (`field check` of a folder whose field.csv is a fifo or /dev/zero hung).
inline constexpr std::uintmax_t kAnySize = UINTMAX_MAX;

/// Checks that `path` is a regular file of at most `limit` bytes and opens it for reading (binary:
/// the bytes as they are). Throws field::IoError naming the file, what it is (`what`, e.g. "tip
/// file"), the reason (no such file, not a regular file but a fifo/device/folder, too large,
/// the operating system's reason) and what to do.
std::ifstream open_input(const std::filesystem::path& path, std::uintmax_t limit,
                         const std::string& what);

/// The whole content of `path`, with the checks of open_input (for the case file).
std::string read_input(const std::filesystem::path& path, std::uintmax_t limit,
                       const std::string& what);

}  // namespace field::io

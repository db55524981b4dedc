#include "libfield/io/input_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "libfield/core/error.hpp"

namespace field::io {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a fifo (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string mib(std::uintmax_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

std::ifstream open_input(const std::filesystem::path& path, std::uintmax_t limit,
                         const std::string& what) {
  const std::string name = path.string();
  struct stat st {};
  // stat follows symbolic links: ELOOP ("Too many levels of symbolic links") for a loop.
  if (::stat(name.c_str(), &st) != 0) {
    const int err = errno;
    throw IoError("cannot open " + what + " '" + name + "' for reading: " + std::strerror(err) +
                  ". Check the path");
  }
  if (!S_ISREG(st.st_mode))
    throw IoError("cannot read " + what + " '" + name + "': it is " + kind_of(st.st_mode) +
                  ", not a regular file; give a regular file (input is read whole, a device "
                  "or a pipe would be read without end)");
  if (static_cast<std::uintmax_t>(st.st_size) > limit)
    throw IoError("cannot read " + what + " '" + name +
                  "': " + std::to_string(static_cast<std::uintmax_t>(st.st_size)) +
                  " bytes, more than the limit of " + mib(limit) + " for " + what +
                  "s; give a smaller file (fewer rows or samples)");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw IoError("cannot open " + what + " '" + name + "' for reading: " + std::strerror(err) +
                  ". Check the path and its permissions");
  }
  return in;
}

std::string read_input(const std::filesystem::path& path, std::uintmax_t limit,
                       const std::string& what) {
  std::ifstream in = open_input(path, limit, what);
  std::string text;
  // Bounded even if the file grows while it is read.
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limit)
      throw IoError("cannot read " + what + " '" + path.string() +
                    "': it grew beyond the limit of " + mib(limit) + " while being read");
  }
  if (in.bad()) {
    const int err = errno;
    throw IoError("cannot read " + what + " '" + path.string() + "': " + std::strerror(err));
  }
  return text;
}

}  // namespace field::io

#include "libfield/io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include "libfield/core/error.hpp"

namespace field::io {

std::string last_os_error() {
  return errno != 0 ? std::string(std::strerror(errno)) : std::string("unknown I/O error");
}

std::filesystem::path part_path(const std::filesystem::path& path) {
  std::filesystem::path part = path;
  part += ".part";
  return part;
}

void commit_file(const std::filesystem::path& part, const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::rename(part, path, ec);
  if (ec)
    throw IoError("cannot rename '" + part.string() + "' to '" + path.string() +
                  "': " + ec.message() + "; check that the output folder is writable");
}

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write) {
  const std::filesystem::path part = part_path(path);
  errno = 0;
  std::ofstream out(part, std::ios::binary | std::ios::trunc);
  if (!out)
    throw IoError("cannot open '" + part.string() + "' for writing (for '" + path.string() +
                  "'): " + last_os_error() +
                  "; check that the output folder exists and is writable");
  const auto discard = [&part] {
    std::error_code ignored;
    std::filesystem::remove(part, ignored);
  };
  try {
    write(out);
  } catch (...) {
    out.close();
    discard();
    throw;
  }
  errno = 0;
  out.flush();
  const bool written = static_cast<bool>(out);
  out.close();
  if (!written || !out) {
    const std::string reason = last_os_error();
    discard();
    throw IoError("cannot write '" + part.string() + "' (for '" + path.string() + "'): " + reason +
                  "; check the free space and the permissions of the folder");
  }
  commit_file(part, path);
}

}  // namespace field::io

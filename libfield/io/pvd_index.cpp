#include "libfield/io/pvd_index.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/csv_writer.hpp"

namespace field::io {

namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string xml_unescape(std::string text) {
  const std::pair<const char*, char> entities[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&amp;", '&'}};
  for (const auto& [entity, c] : entities) {
    const std::string e(entity);
    for (size_t p = text.find(e); p != std::string::npos; p = text.find(e, p + 1))
      text.replace(p, e.size(), 1, c);
  }
  return text;
}

// Value of attribute `name` in the text of one tag, or false when absent.
bool attribute(const std::string& tag, const std::string& name, std::string& value) {
  const std::string key = " " + name + "=\"";
  const size_t begin = tag.find(key);
  if (begin == std::string::npos) return false;
  const size_t first = begin + key.size();
  const size_t end = tag.find('"', first);
  if (end == std::string::npos) return false;
  value = xml_unescape(tag.substr(first, end - first));
  return true;
}

}  // namespace

namespace {
// The closing tags that follow the last DataSet line at every moment.
const char kTail[] = "  </Collection>\n</VTKFile>\n";
}  // namespace

PvdIndex::PvdIndex(std::filesystem::path path) : path_(std::move(path)) {}

PvdIndex::~PvdIndex() = default;

void PvdIndex::add(double time, const std::string& relative_file) {
  std::string text;
  if (!out_.is_open()) {
    errno = 0;
    out_.open(path_, std::ios::binary | std::ios::trunc);
    if (!out_)
      throw IoError("cannot open '" + path_.string() + "' for writing: " + last_os_error() +
                    "; check that the output folder exists and is writable");
    text =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
        "  <Collection>\n";
  }
  text += "    <DataSet timestep=\"" + format_double(time) + "\" group=\"\" part=\"0\" file=\"" +
          xml_escape(relative_file) + "\"/>\n";
  const std::streamoff at = tail_;
  tail_ += static_cast<std::streamoff>(text.size());
  text += kTail;
  // One write over the old closing tags: the file is a complete index before and after it.
  errno = 0;
  out_.seekp(at);
  out_.write(text.data(), static_cast<std::streamsize>(text.size()));
  out_.flush();
  if (!out_)
    throw IoError("cannot write '" + path_.string() + "' (frame " + std::to_string(size_ + 1) +
                  "): " + last_os_error() +
                  "; check the free space and the permissions of the folder");
  ++size_;
}

std::vector<PvdEntry> read_pvd(const std::filesystem::path& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw IoError("cannot open '" + path.string() + "' for reading: " + last_os_error() +
                  "; give the .pvd of a run folder");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<PvdEntry> entries;
  for (size_t p = text.find("<DataSet"); p != std::string::npos; p = text.find("<DataSet", p)) {
    const size_t end = text.find('>', p);
    FIELD_CHECK(end != std::string::npos, path.string()
                                              << ": unterminated <DataSet tag at byte " << p);
    const std::string tag = text.substr(p, end - p);
    PvdEntry e;
    std::string time;
    FIELD_CHECK(attribute(tag, "timestep", time) && attribute(tag, "file", e.file),
                path.string() << ": DataSet entry " << entries.size() + 1
                              << " lacks the timestep or the file attribute: '" << tag << "'");
    char* stop = nullptr;
    e.time = std::strtod(time.c_str(), &stop);
    FIELD_CHECK(!time.empty() && stop == time.c_str() + time.size(),
                path.string() << ": DataSet entry " << entries.size() + 1 << ": timestep '" << time
                              << "' is not a number");
    entries.push_back(e);
    p = end;
  }
  return entries;
}

}  // namespace field::io

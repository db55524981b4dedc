// io::WriteBehind: the chunks reach the file whole and in the order started, and the first failed
// write is reported (and ends the writes); CsvWriter with CsvWrites::behind reports a failed
// write naming the file and the rows, as it does when it writes on its own thread.
#include "libfield/io/write_behind.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "libfield/io/csv_writer.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(WriteBehind, WritesEveryChunkWholeAndInOrder) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "chunks";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  ASSERT_GE(fd, 0);
  std::vector<std::string> chunks;
  std::string expected;
  {
    WriteBehind behind(fd);
    for (int k = 0; k < 200; ++k) {  // sizes from 1 byte to 64 KiB
      std::string chunk(static_cast<std::size_t>(1 + (k * 7919) % 65000), char('a' + k % 26));
      chunk.front() = '<';
      chunk.back() = '>';
      chunks.push_back(std::move(chunk));
    }
    for (const std::string& chunk : chunks) {
      ASSERT_EQ(behind.wait(), 0);
      behind.start(chunk.data(), chunk.size());
      expected += chunk;
    }
  }  // the destructor waits for the last chunk
  ::close(fd);
  const std::string text = read_text(path);
  EXPECT_EQ(text.size(), expected.size());
  EXPECT_TRUE(text == expected);
}

TEST(WriteBehind, AFailedWriteIsReportedAndEndsTheWrites) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "read-only";
  { std::ofstream(path) << "x"; }
  const int fd = ::open(path.c_str(), O_RDONLY);  // write(2) fails with EBADF
  ASSERT_GE(fd, 0);
  {
    WriteBehind behind(fd);
    EXPECT_EQ(behind.wait(), 0);  // nothing started
    behind.start("abc", 3);
    EXPECT_EQ(behind.wait(), EBADF);
    behind.start("def", 3);  // not written; the first failure stays
    EXPECT_EQ(behind.wait(), EBADF);
  }
  ::close(fd);
  EXPECT_EQ(read_text(path), "x");
}

/// The file size limit of this process (`ulimit -f`) with SIGXFSZ ignored, so that write(2) past
/// it fails with EFBIG; both restored by the destructor.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    EXPECT_EQ(getrlimit(RLIMIT_FSIZE, &old_), 0);
    handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = old_;
    limit.rlim_cur = bytes;
    EXPECT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, handler_);
  }

 private:
  rlimit old_{};
  void (*handler_)(int) = nullptr;
};

TEST(CsvWriter, AFailedWriteNamesTheFileAndTheRowsAndLeavesAPrefix) {
  // 100 000 bytes may be written. 15 000 rows (about 330 KB): the first write behind (256 KiB)
  // fails, close() reports it; 100 000 rows (2.2 MB): a later hand-over in row() reports it. The
  // same messages as with the writes on the writer's own thread.
  constexpr rlim_t kLimit = 100000;
  for (const CsvWrites writes : {CsvWrites::behind, CsvWrites::here}) {
    for (const int rows : {15000, 100000}) {
      const test::TempFolder dir;
      const std::filesystem::path path = dir / "field.csv";
      std::string expected = "j,x\n", message;
      for (int j = 0; j < rows; ++j)
        expected += std::to_string(j) + ',' + format_double(j / 7.0) + '\n';
      if (rows == 15000) {
        ASSERT_TRUE(expected.size() > (1 << 18) && expected.size() < (1 << 19));
      }
      {
        const FileSizeLimit limit(kLimit);
        message = test::io_error_message([&] {
          CsvWriter csv(path, {"j", "x"}, writes);
          for (int j = 0; j < rows; ++j) csv.row({double(j), j / 7.0});
          csv.close();
        });
      }
      SCOPED_TRACE(message);
      EXPECT_TRUE(test::contains(message, "cannot write rows "));
      EXPECT_TRUE(test::contains(message, " of '" + (dir / "field.csv.part").string() + "': "));
      EXPECT_TRUE(test::contains(message, std::strerror(EFBIG)));
      EXPECT_FALSE(std::filesystem::exists(path));
      const std::string part = read_text(dir / "field.csv.part");
      EXPECT_EQ(part.size(), kLimit);
      EXPECT_TRUE(part == expected.substr(0, part.size()));  // a prefix of the file's text
    }
  }
}

}  // namespace
}  // namespace field::io

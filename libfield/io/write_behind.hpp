#pragma once
/// Writing behind the text: the write(2) calls of one file on a thread of their own, so that the
/// thread making the file's text (field.csv's writer, csv_writer.hpp) fills its next buffer while
/// the kernel copies the previous one into the page cache (docs/performance.md, "Whole runs").
/// One write is in flight at a time and the writes happen in the order started, so the file is
/// always a prefix of its text. After a failed write nothing more is written (the file stays that
/// prefix) and wait() keeps returning the failure's errno.
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

namespace field::io {

/// write(2) of the `size` bytes at `data` to `fd`, again after a partial write or EINTR. Returns 0
/// when every byte was written, otherwise the errno of the failure (EIO for a write of 0 bytes).
int write_all(int fd, const char* data, std::size_t size);

class WriteBehind {
 public:
  /// Starts the thread (start_quiet_thread: SIGINT and SIGTERM blocked). `fd` must stay open
  /// while this object exists.
  explicit WriteBehind(int fd);
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;
  /// Waits for the write in flight, ends the thread. Never throws.
  ~WriteBehind();

  /// Waits for the write in flight, then starts writing the `size` bytes at `data` (nothing after
  /// a failure). They must stay valid and unchanged until the next wait() returns; call wait()
  /// first to learn whether the previous write failed.
  void start(const char* data, std::size_t size);
  /// Waits for the write in flight. Returns 0, or the errno of the first failed write.
  int wait();

 private:
  void run();

  int fd_;
  std::mutex mutex_;
  std::condition_variable started_, done_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  bool busy_ = false, stop_ = false;
  int error_ = 0;
  std::thread thread_;
};

}  // namespace field::io

#include "libfield/io/write_behind.hpp"

#include <unistd.h>

#include <cerrno>

#include "libfield/io/quiet_thread.hpp"

namespace field::io {

int write_all(int fd, const char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno != 0 ? errno : EIO;
    if (n == 0) return EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

WriteBehind::WriteBehind(int fd) : fd_(fd) {
  thread_ = start_quiet_thread([this] { run(); });
}

WriteBehind::~WriteBehind() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  started_.notify_one();
  thread_.join();  // run() finishes the write in flight first
}

void WriteBehind::start(const char* data, std::size_t size) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return !busy_; });
    if (error_ != 0) return;
    data_ = data;
    size_ = size;
    busy_ = true;
  }
  started_.notify_one();
}

int WriteBehind::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return !busy_; });
  return error_;
}

void WriteBehind::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    started_.wait(lock, [this] { return busy_ || stop_; });
    if (!busy_) return;  // stopped, nothing in flight
    const char* data = data_;
    const std::size_t size = size_;
    lock.unlock();
    const int error = write_all(fd_, data, size);
    lock.lock();
    error_ = error;
    busy_ = false;
    done_.notify_one();
  }
}

}  // namespace field::io

#pragma once
/// The output threads of a run (io/writer_thread.hpp, io/write_behind.hpp) start with SIGINT and
/// SIGTERM blocked: the march's thread alone handles them (apps/interrupt.hpp), so that an
/// interrupt stops the march between slabs and never a write in the middle.
#include <functional>
#include <thread>

namespace field::io {

/// Starts `body` on a new thread with SIGINT and SIGTERM blocked (the caller's mask is unchanged).
std::thread start_quiet_thread(std::function<void()> body);

}  // namespace field::io

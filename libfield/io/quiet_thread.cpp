#include "libfield/io/quiet_thread.hpp"

#include <pthread.h>
#include <signal.h>

#include <utility>

namespace field::io {

std::thread start_quiet_thread(std::function<void()> body) {
  // The thread inherits the signal mask: block the stop signals while starting it.
  sigset_t stop_signals, old;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &old);
  std::thread thread;
  try {
    thread = std::thread(std::move(body));
  } catch (...) {
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    throw;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return thread;
}

}  // namespace field::io

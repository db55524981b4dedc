#include "apps/interrupt.hpp"

#include <csignal>

namespace field::app {

namespace {

std::atomic<bool> g_stop{false};  // lock-free: async-signal-safe
volatile std::sig_atomic_t g_signal = 0;
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int signal) {
  g_signal = signal;
  g_stop.store(true);
}

}  // namespace

void install_stop_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the default action again after the first signal (a second one ends the
  // program); SA_RESTART: writes in progress are not cut short by the first.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::atomic<bool>& stop_flag() {
  return g_stop;
}

int stop_signal() {
  return g_signal;
}

}  // namespace field::app

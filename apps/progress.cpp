#include "apps/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace field::app {

Progress::Progress(std::string slab, std::string coordinate, int last, bool quiet)
    : slab_(std::move(slab)),
      coordinate_(std::move(coordinate)),
      last_(std::max(last, 1)),
      quiet_(quiet),
      tty_(isatty(STDERR_FILENO) != 0),
      every_(std::max(1, last_ / 20)),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

void Progress::update(int index, double x, int newton_max, double energy_change, double noether) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool final = index >= last_;
  if (tty_) {
    if (!final && now - last_print_ < std::chrono::milliseconds(200)) return;
  } else if (!final && index % every_ != 0) {
    return;
  }
  last_print_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta = index > 0 ? elapsed * (last_ - index) / index : 0.0;
  std::fprintf(stderr,
               "%s%s %*d/%d  %s = %-10.5g  ETA %6.1f s  Newton max %2d  %s %9.2e  Noether "
               "%8.1e%s",
               tty_ ? "\r" : "", slab_.c_str(), static_cast<int>(std::to_string(last_).size()),
               index, last_, coordinate_.c_str(), x, eta, newton_max, energy_label_.c_str(),
               energy_change, noether, tty_ ? "\033[K" : "\n");
  std::fflush(stderr);
  printed_ = true;
}

void Progress::done() {
  if (!quiet_ && tty_ && printed_) std::fprintf(stderr, "\n");
  printed_ = false;
}

}  // namespace field::app

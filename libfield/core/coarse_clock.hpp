#pragma once
/// A steady clock read cheaply (CLOCK_MONOTONIC_COARSE: the time of the last timer tick, a few
/// milliseconds resolution), for the delays after which the output writers hand over or write a
/// buffer (io/writer_thread.hpp, io/csv_writer.hpp): they ask the time once or twice a row, and
/// std::chrono::steady_clock::now() costs about 40 ns here against 7 ns (docs/performance.md,
/// "Whole runs"), several milliseconds of a 10^5-row run.
#include <time.h>

#include <chrono>

namespace field {

struct CoarseClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<CoarseClock>;
  static constexpr bool is_steady = true;

  static time_point now() noexcept {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    return time_point(std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec));
  }
};

}  // namespace field

#pragma once
// Progress of a long march on stderr (docs/cli.md): on a terminal one line updated in place
// (step, t or s, ETA, Newton iterations, relative energy change, Noether residual), otherwise a
// plain line every ~5 % of the run. Silent with -q.
#include <chrono>
#include <string>

namespace field::app {

class Progress {
 public:
  /// `slab` names the step ("row" or "column"), `coordinate` the variable ("t" or "s").
  Progress(std::string slab, std::string coordinate, int last, bool quiet);

  /// Slab `index` (0..last) at coordinate value x.
  void update(int index, double x, int newton_max, double energy_change, double noether);
  /// Ends the updating line.
  void done();

 private:
  std::string slab_, coordinate_;
  int last_;
  bool quiet_, tty_;
  int every_;
  std::chrono::steady_clock::time_point start_, last_print_;
  bool printed_ = false;
};

}  // namespace field::app

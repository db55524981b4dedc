#pragma once
// Progress of a long march on stderr (docs/cli.md): on a terminal one line updated in place
// (step, t or s, ETA, Newton iterations, relative energy change or the energy balance [J],
// Noether residual), otherwise a
// plain line every ~5 % of the run. Silent with -q.
#include <chrono>
#include <string>
#include <utility>

namespace field::app {

class Progress {
 public:
  /// `slab` names the step ("row" or "column"), `coordinate` the variable ("t" or "s").
  Progress(std::string slab, std::string coordinate, int last, bool quiet);

  /// Slab `index` (0..last) at coordinate value x.
  void update(int index, double x, int newton_max, double energy_change, double noether);
  /// The name of the energy figure of update(): "dE/E" (the default, (E_j - E_0)/|E_0|) or
  /// "E-E0-W+D" (the energy balance of theory §8.1, in J).
  void energy_label(std::string label) { energy_label_ = std::move(label); }
  /// Ends the updating line.
  void done();

 private:
  std::string slab_, coordinate_, energy_label_ = "dE/E";
  int last_;
  bool quiet_, tty_;
  int every_;
  std::chrono::steady_clock::time_point start_, last_print_;
  bool printed_ = false;
};

}  // namespace field::app

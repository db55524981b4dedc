#pragma once
// How many threads a run uses when the user does not say (docs/performance.md#threads).

namespace field::app {

/// Slabs of fewer nodes run on one thread unless `--threads` asks for more: measured on an idle
/// 2-core machine (docs/performance.md#threads), a second thread woken through the passive wait
/// policy at every slab made runs slower below about 2000 nodes per slab (A = 100: 4.9x slower,
/// A = 1000: 1.2x slower) and faster above (A = 3000: 1.6x, A = 10 000: 1.4x).
constexpr int kDefaultParallelMinNodes = 2048;

/// The threads of a run whose slabs have `slab_nodes` nodes: `requested` when it is positive
/// (`--threads N`), otherwise one below kDefaultParallelMinNodes and OpenMP's default
/// (OMP_NUM_THREADS, else the cores) from there on.
int run_threads(int requested, int slab_nodes);

}  // namespace field::app

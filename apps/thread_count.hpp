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

/// Time rows of the estimator with fewer nodes run on one thread unless `--threads` asks for
/// more: its work between two barriers is a block row of the banded factorisation or solves (a
/// time row of 6 (A + 1) unknowns), not a slab of node solves. Measured on the idle 2-core machine
/// (docs/performance.md, "The estimator over the whole mesh"): two threads made scenario A (A = 10,
/// 11 nodes a row) 0.8x as fast and scenario B (A = 20, 21 nodes) 1.31x as fast; the threshold
/// lies between.
constexpr int kEstimateParallelMinNodes = 16;

/// The threads of the estimator (`field reconstruct` with method "estimate", theory §6.7) on a
/// mesh of A + 1 nodes a row: `requested` when positive, otherwise one below
/// kEstimateParallelMinNodes nodes and OpenMP's default (OMP_NUM_THREADS, else the cores) from
/// there on. The results do not depend on it.
int estimate_threads(int requested, int A);

}  // namespace field::app

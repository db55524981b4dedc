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

/// The threads of the estimator (`field reconstruct` with method "estimate", theory §6.7):
/// `requested` when positive, otherwise OpenMP's default (OMP_NUM_THREADS, else the cores). Its
/// work between two barriers is a block row of the banded factorisation or solves (time rows of
/// 6 (A + 1) unknowns), not a slab of node solves: the slab rule above does not apply
/// (docs/performance.md, "The estimator over the whole mesh"). The results do not depend on it.
int estimate_threads(int requested);

}  // namespace field::app

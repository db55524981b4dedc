#pragma once
// The OpenMP wait policy of the marches (docs/performance.md#threads).

namespace field::app {

/// Keeps the program's arguments for use_passive_openmp_wait; called first thing in main.
void keep_arguments(char** argv);

/// libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, when it is loaded (before main); by
/// default a thread that waits at a barrier spins up to 300 000 times before it sleeps, and a
/// march has a barrier per slab. On a machine whose cores are shared, a spinning thread burns
/// the time slice its descheduled partner needs: two threads ran 20-60x slower than one
/// (docs/performance.md). Unless the user set either variable, this sets OMP_WAIT_POLICY=passive
/// and starts the program again with the same arguments (execv of /proc/self/exe, once: the
/// variable is then set). Call it before the command writes anything. Nothing happens when the
/// march would run on one thread (`threads` = 1, or slabs of `slab_nodes` <
/// march::kParallelMinNodes nodes), and if the new start fails the program goes on
/// with libgomp's default.
void use_passive_openmp_wait(int threads, int slab_nodes);

}  // namespace field::app

#pragma once
// SIGINT and SIGTERM during a march (docs/cli.md, "Interrupting a run"): the first signal sets a
// stop flag that the march reads between slabs (march::MarchOptions::stop), so the run ends with
// its complete slabs written and closed; the handler then restores the default action, so that a
// second signal ends the program at once.
#include <atomic>

namespace field::app {

/// Installs the handlers for SIGINT and SIGTERM (once per process).
void install_stop_signals();
/// The flag the handlers set; the program also sets it to stop a march early.
std::atomic<bool>& stop_flag();
/// The signal that set the flag (SIGINT, SIGTERM), 0 if none did.
int stop_signal();

}  // namespace field::app

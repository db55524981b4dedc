#pragma once
/// The output writers of a run on one thread of their own (docs/performance.md, "Whole runs"):
/// a slab observer that copies each slab the march hands it into a batch and passes the full
/// batches to one writer thread, which hands every slab, in order, to the writers it was given
/// (field.csv, tip.csv, the VTK files). The writers see exactly the calls they would see on the
/// march's thread, so their files hold the same bytes; the march only copies poses.
///
/// Memory stays flat in J: at most kBatches batches of about kBatchNodes poses (or one slab when a
/// slab is larger) exist; the march waits for a free batch when the writers fall behind. A batch is
/// also handed over when it is kHandOverDelay old, so that a slow run's files follow the run.
///
/// Errors: an exception of a writer (field::IoError: disk full, EIO, ...) stops the writer thread;
/// the march's next slab() or finish() rethrows it unchanged (same message, same exit code).
/// finish() writes every slab received, then calls the writers' finish() on the calling thread.
/// The destructor (an exception unwinding the run) also hands every slab received to the writers
/// before it returns, so their files keep every row the march produced.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "libfield/core/coarse_clock.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/observer.hpp"

namespace field::io {

/// E: the elements of the rows (lie::SE3 for the beams, Vec3 for the cable).
template <class E>
class BasicWriterThread final : public march::BasicSlabObserver<E> {
 public:
  /// Poses per batch (a few hundred KiB) and batches in all (one filled by the march, the others
  /// queued or being written).
  static constexpr std::size_t kBatchNodes = 2048;
  static constexpr int kBatches = 3;
  static constexpr std::chrono::milliseconds kHandOverDelay{100};

  /// Starts the writer thread (SIGINT and SIGTERM blocked on it: the march's thread handles
  /// them, apps/interrupt.hpp). The writers must outlive this object.
  explicit BasicWriterThread(std::vector<march::BasicSlabObserver<E>*> writers);
  BasicWriterThread(const BasicWriterThread&) = delete;
  BasicWriterThread& operator=(const BasicWriterThread&) = delete;
  /// Writes every slab received (the writers' own destructors then keep their files as
  /// prefixes), stops the thread. Never throws.
  ~BasicWriterThread() override;

  /// Copies the slab into the current batch; throws the writer thread's exception, if any.
  void slab(int index, const std::vector<E>& values, const march::SlabStats& stats) override;
  /// Writes every slab received, stops the thread, then calls finish() of every writer in order
  /// on this thread. Throws the writer thread's exception, if any, or a writer's finish() error.
  void finish() override;

 private:
  struct Slab {
    int index = 0;
    march::SlabStats stats;
    std::vector<E> values;
  };
  struct Batch {
    std::vector<Slab> slabs;  // slabs[0..count) hold data; the rest keep their capacity
    std::size_t count = 0, nodes = 0;
  };

  void run();  // the writer thread
  /// Queues the current batch and takes a free one (waiting for it when `wait`).
  void hand_over(bool wait);
  /// Queues the current batch, stops and joins the thread. Never throws.
  void stop();
  void rethrow_error();

  std::vector<march::BasicSlabObserver<E>*> writers_;
  std::vector<Batch> batches_;
  Batch* current_ = nullptr;  // filled by the march; in neither list
  CoarseClock::time_point handed_at_;

  std::mutex mutex_;
  std::condition_variable queued_, freed_;
  std::deque<Batch*> full_;          // in order, for the writer thread
  std::vector<Batch*> free_;         // for the march
  bool done_ = false;                // no more batches: the thread ends once full_ is empty
  std::atomic<bool> failed_{false};  // error_ holds the writer thread's exception
  std::exception_ptr error_;
  std::thread thread_;
};
using WriterThread = BasicWriterThread<lie::SE3>;

}  // namespace field::io

#include "libfield/io/writer_thread.hpp"

#include "libfield/io/quiet_thread.hpp"

namespace field::io {

template <class E>
BasicWriterThread<E>::BasicWriterThread(std::vector<march::BasicSlabObserver<E>*> writers)
    : writers_(std::move(writers)), batches_(kBatches) {
  current_ = &batches_[0];
  for (int k = 1; k < kBatches; ++k) free_.push_back(&batches_[k]);
  handed_at_ = CoarseClock::now();
  thread_ = start_quiet_thread([this] { run(); });
}

template <class E>
BasicWriterThread<E>::~BasicWriterThread() {
  stop();
}

template <class E>
void BasicWriterThread<E>::slab(int index, const std::vector<E>& values,
                                const march::SlabStats& stats) {
  if (failed_.load(std::memory_order_acquire)) rethrow_error();
  if (current_ == nullptr) throw std::logic_error("WriterThread::slab after finish()");
  Batch& b = *current_;
  if (b.count == b.slabs.size()) b.slabs.emplace_back();
  Slab& s = b.slabs[b.count++];
  s.index = index;
  s.stats = stats;
  s.values.assign(values.begin(), values.end());
  b.nodes += values.size();
  if (b.nodes >= kBatchNodes || CoarseClock::now() - handed_at_ >= kHandOverDelay) hand_over(true);
}

template <class E>
void BasicWriterThread<E>::finish() {
  stop();
  rethrow_error();
  for (march::BasicSlabObserver<E>* w : writers_) w->finish();
}

template <class E>
void BasicWriterThread<E>::hand_over(bool wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  full_.push_back(current_);
  current_ = nullptr;
  queued_.notify_one();
  handed_at_ = CoarseClock::now();
  if (!wait) return;
  freed_.wait(lock, [this] { return !free_.empty() || failed_.load(); });
  if (failed_.load()) {
    lock.unlock();
    rethrow_error();
  }
  current_ = free_.back();
  free_.pop_back();
}

template <class E>
void BasicWriterThread<E>::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (current_ != nullptr && current_->count > 0) full_.push_back(current_);
    current_ = nullptr;
    done_ = true;
  }
  queued_.notify_one();
  thread_.join();
}

template <class E>
void BasicWriterThread<E>::rethrow_error() {
  if (failed_.load(std::memory_order_acquire)) std::rethrow_exception(error_);
}

template <class E>
void BasicWriterThread<E>::run() {
  for (;;) {
    Batch* b = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      queued_.wait(lock, [this] { return !full_.empty() || done_; });
      if (full_.empty()) return;
      b = full_.front();
      full_.pop_front();
    }
    try {
      for (std::size_t k = 0; k < b->count; ++k)
        for (march::BasicSlabObserver<E>* w : writers_)
          w->slab(b->slabs[k].index, b->slabs[k].values, b->slabs[k].stats);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      failed_.store(true, std::memory_order_release);
      freed_.notify_all();
      return;
    }
    b->count = 0;
    b->nodes = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_.push_back(b);
    }
    freed_.notify_one();
  }
}

template class BasicWriterThread<lie::SE3>;
template class BasicWriterThread<Vec3>;

}  // namespace field::io

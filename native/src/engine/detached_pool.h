// Work over many items on a few threads that cancel promptly. A read or query in flight cannot be
// interrupted (on a throttled disk four 1 MiB reads took five seconds to drain), so the threads are
// detached and own the job jointly with the caller: Run returns the moment it sees the cancel,
// and the threads finish their current item and go. Used by hashFiles and fileSharingMany.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "io.h"
#include "plumb.h"

namespace plumb {

class DetachedPool : public std::enable_shared_from_this<DetachedPool> {
 public:
  DetachedPool(size_t count, CancelPtr cancel) : count_(count), cancel_(std::move(cancel)) {}
  virtual ~DetachedPool() = default;

  // Serves every item on up to `threads` threads (the object must be owned by a shared_ptr).
  // True once all are done; false as soon as the cancel is seen, when the subclass's results must
  // not be read. `tick` runs every `interval` while waiting, with the pool's lock held.
  bool Run(uint32_t threads, std::chrono::nanoseconds interval,
           const std::function<void()>& tick = {}) {
    threads = static_cast<uint32_t>(std::max<size_t>(1, std::min<size_t>(threads, count_)));
    std::unique_lock<std::mutex> lock(mutex_);
    running_ = threads;
    for (uint32_t i = 0; i < threads; ++i) {
      const bool started = StartDetachedThread([self = shared_from_this()] {
        self->Serve();
        std::lock_guard<std::mutex> held(self->mutex_);
        if (--self->running_ == 0) self->done_.notify_all();
      });
      // The threads already started serve every item (each takes the next until none is left).
      if (!started && --running_ == 0) throw std::runtime_error("no thread could be started");
    }
    while (running_ > 0) {
      done_.wait_for(lock, interval);
      if (cancelled()) return false;
      if (running_ > 0 && tick) tick();
    }
    return !cancelled();
  }

  bool cancelled() const { return cancel_ && cancel_->cancelled.load(); }

 protected:
  // One pool thread's work: by default every item Next hands out, one Process call each.
  virtual void Serve() {
    size_t index = 0;
    while (Next(&index)) Process(index);
  }
  virtual void Process(size_t /*index*/) {}

  // The next item to serve; false when all are handed out or the work is cancelled.
  bool Next(size_t* index) {
    *index = next_.fetch_add(1);
    return *index < count_ && !cancelled();
  }

  // Guards what several pool threads write to.
  std::mutex mutex_;

 private:
  const size_t count_;
  const CancelPtr cancel_;
  std::atomic<size_t> next_{0};
  std::condition_variable done_;
  uint32_t running_ = 0;
};

}  // namespace plumb

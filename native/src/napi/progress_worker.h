// A promise-returning async worker whose JavaScript callback receives each progress event (as
// timedWrite's onProgress, queueDepthRun's onSample, hashFiles' and scanFolder's onProgress).
// An exception thrown by the callback cancels the work through the worker's cancel flag and
// becomes the promise's rejection, whatever the work itself ended with.
//
// The work sends its events whether or not there is a callback: each is also how the worker
// learns, on the JavaScript thread, that its environment is being torn down (a terminated worker
// thread waits for the work to finish), and then cancels the work instead of running it to the
// end. Every step on the JavaScript thread is guarded (promise_worker.h).
#pragma once

#include <napi.h>

#include <memory>
#include <utility>

#include "io.h"
#include "napi/promise_worker.h"

namespace plumb {

template <typename Event>
class ProgressWorker : public Napi::AsyncProgressQueueWorker<Event> {
 public:
  Napi::Promise Promise() { return deferred_.Promise(); }

 protected:
  // `cancel` may be null: the worker then makes its own, so the callback can still stop the work.
  ProgressWorker(Napi::Env env, Napi::Function callback, CancelPtr cancel)
      : Napi::AsyncProgressQueueWorker<Event>(env),
        cancel_(cancel ? std::move(cancel) : std::make_shared<CancelFlag>()),
        deferred_(Napi::Promise::Deferred::New(env)) {
    if (!callback.IsEmpty()) callback_ = Napi::Persistent(callback);
  }

  bool HasCallback() const { return !callback_.IsEmpty(); }
  // The event as the callback receives it.
  virtual Napi::Value EventToJs(Napi::Env env, const Event& event) = 0;
  // Resolves or rejects once the work is done and the callback did not throw.
  virtual void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) = 0;

  const CancelPtr cancel_;

 private:
  void OnProgress(const Event* events, size_t count) final {
    Napi::Env env = this->Env();
    if (!CanRunJs(env)) {
      cancel_->cancelled.store(true);  // torn down: nobody waits for the answer any more
      return;
    }
    try {
      Napi::HandleScope scope(env);
      for (size_t i = 0; i < count && HasCallback() && callbackError_.IsEmpty(); ++i) {
        try {
          callback_.Call({EventToJs(env, events[i])});
        } catch (const Napi::Error& e) {
          cancel_->cancelled.store(true);
          callbackError_ = Napi::Persistent(static_cast<Napi::Value>(e.Value()));
        }
      }
    } catch (...) {
      cancel_->cancelled.store(true);  // the environment went away during the call
    }
  }

  void OnOK() final {
    SettleGuarded(this->Env(), deferred_, [this] {
      if (!callbackError_.IsEmpty()) {
        deferred_.Reject(callbackError_.Value());
      } else {
        Settle(this->Env(), deferred_);
      }
    });
  }
  void OnError(const Napi::Error& e) final {
    SettleGuarded(this->Env(), deferred_, [this, &e] { deferred_.Reject(e.Value()); });
  }

  Napi::Promise::Deferred deferred_;
  Napi::FunctionReference callback_;
  Napi::Reference<Napi::Value> callbackError_;
};

}  // namespace plumb

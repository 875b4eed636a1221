// timedWrite(path, bytes, options) and timedRead(path, options): Promises resolved with phase
// timings; progress events through the worker's queue (one call per event, all before settling).
#include <cmath>

#include "common/errors.h"
#include "common/io_js.h"

namespace plumb {
namespace {

constexpr uint64_t kMaxSafeInteger = (uint64_t{1} << 53) - 1;

struct Progress {
  uint64_t bytesDone;
  uint64_t nanos;
};

double Seconds(uint64_t nanos) { return static_cast<double>(nanos) / 1e9; }

class TimedIoWorker : public Napi::AsyncProgressQueueWorker<Progress> {
 public:
  TimedIoWorker(Napi::Env env, bool write, TimedIoRequest request, Napi::Function onProgress)
      : Napi::AsyncProgressQueueWorker<Progress>(env),
        write_(write),
        request_(std::move(request)),
        deferred_(Napi::Promise::Deferred::New(env)) {
    if (!onProgress.IsEmpty()) onProgress_ = Napi::Persistent(onProgress);
    // An exception thrown by onProgress stops the transfer through this flag.
    if (!request_.cancel) request_.cancel = std::make_shared<CancelFlag>();
  }
  Napi::Promise Promise() { return deferred_.Promise(); }

  void Execute(const ExecutionProgress& progress) override {
    if (!onProgress_.IsEmpty()) {
      request_.onProgress = [&progress](uint64_t bytesDone, uint64_t nanos) {
        Progress event{bytesDone, nanos};
        progress.Send(&event, 1);
      };
    }
    ok_ = write_ ? RunTimedWrite(request_, &outcome_, &err_)
                 : RunTimedRead(request_, &outcome_, &err_);
  }

  void OnProgress(const Progress* events, size_t count) override {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    for (size_t i = 0; i < count && !onProgress_.IsEmpty() && callbackError_.IsEmpty(); ++i) {
      Napi::Object event = Napi::Object::New(env);
      event.Set("bytesDone", Napi::Number::New(env, static_cast<double>(events[i].bytesDone)));
      event.Set("seconds", Napi::Number::New(env, Seconds(events[i].nanos)));
      try {
        onProgress_.Call({event});
      } catch (const Napi::Error& e) {
        callbackError_ = Napi::Persistent(static_cast<Napi::Value>(e.Value()));
        request_.cancel->cancelled.store(true);
      }
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    if (!callbackError_.IsEmpty()) {
      deferred_.Reject(callbackError_.Value());
    } else if (!ok_) {
      deferred_.Reject(ToJsError(env, err_).Value());
    } else {
      Napi::Object result = Napi::Object::New(env);
      result.Set("path", request_.path);
      result.Set("bytes", Napi::Number::New(env, static_cast<double>(outcome_.bytes)));
      result.Set("cacheMode", outcome_.direct ? "direct" : "buffered");
      result.Set("alignment",
                 outcome_.direct ? Napi::Number::New(env, outcome_.alignment) : env.Null());
      result.Set("chunkBytes", Napi::Number::New(env, outcome_.chunkBytes));
      Napi::Object seconds = Napi::Object::New(env);
      seconds.Set("open", Seconds(outcome_.nanos.open));
      seconds.Set("transfer", Seconds(outcome_.nanos.transfer));
      seconds.Set("flush", Seconds(outcome_.nanos.flush));
      seconds.Set("close", Seconds(outcome_.nanos.close));
      seconds.Set("total", Seconds(outcome_.nanos.total));
      result.Set("seconds", seconds);
      deferred_.Resolve(result);
    }
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  bool write_;
  TimedIoRequest request_;
  Napi::Promise::Deferred deferred_;
  Napi::FunctionReference onProgress_;
  Napi::Reference<Napi::Value> callbackError_;
  TimedIoOutcome outcome_;
  SysError err_;
  bool ok_ = false;
};

Napi::Value StartTimedIo(const Napi::CallbackInfo& info, bool write) {
  Napi::Env env = info.Env();
  TimedIoRequest request;
  request.path = RequireString(info, 0, "path");
  size_t optionsIndex = 1;
  if (write) {
    if (info.Length() < 2 || !info[1].IsNumber()) {
      throw Napi::TypeError::New(env, "The \"bytes\" argument must be a non-negative integer");
    }
    const double bytes = info[1].As<Napi::Number>().DoubleValue();
    if (!std::isfinite(bytes) || bytes < 0 || bytes != std::floor(bytes) ||
        bytes > static_cast<double>(kMaxSafeInteger)) {
      throw Napi::TypeError::New(env, "The \"bytes\" argument must be a non-negative integer");
    }
    request.bytes = static_cast<uint64_t>(bytes);
    optionsIndex = 2;
  }
  Napi::Object options = OptionalObject(info, optionsIndex, "options");
  request.chunkBytes =
      static_cast<uint32_t>(OptionalInteger(options, "chunkBytes", 512, 256u << 20, 0));
  if (request.chunkBytes % 512 != 0) {
    throw Napi::TypeError::New(env, "The \"chunkBytes\" option must be a multiple of 512");
  }
  request.buffered = OptionalBool(options, "buffered", false);
  request.cancel = OptionalCancel(options, "cancel");
  Napi::Function onProgress = OptionalFunction(options, "onProgress");
  auto* worker = new TimedIoWorker(env, write, std::move(request), onProgress);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

Napi::Value TimedWrite(const Napi::CallbackInfo& info) { return StartTimedIo(info, true); }
Napi::Value TimedRead(const Napi::CallbackInfo& info) { return StartTimedIo(info, false); }

// Cost of one reading of the monotonic clock used around every system call, nanoseconds.
Napi::Value ClockOverheadNanos(const Napi::CallbackInfo& info) {
  constexpr int kReadings = 1'000'000;
  volatile uint64_t sink = 0;  // keeps the loop from being optimised away
  const uint64_t start = MonotonicNanos();
  for (int i = 0; i < kReadings; ++i) sink = sink ^ MonotonicNanos();
  const uint64_t elapsed = MonotonicNanos() - start;
  return Napi::Number::New(info.Env(), static_cast<double>(elapsed) / kReadings);
}

}  // namespace

void RegisterTimedIo(Napi::Env env, Napi::Object exports) {
  exports.Set("timedWrite", Napi::Function::New(env, TimedWrite, "timedWrite"));
  exports.Set("timedRead", Napi::Function::New(env, TimedRead, "timedRead"));
  exports.Set("clockOverheadNanos",
              Napi::Function::New(env, ClockOverheadNanos, "clockOverheadNanos"));
}

}  // namespace plumb

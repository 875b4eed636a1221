// timedWrite(path, bytes, options) and timedRead(path, options): Promises resolved with phase
// timings and the samples taken inside the file (in bulk, as typed arrays); progress events
// through the worker's queue (one call per event, all before settling).
#include <cmath>

#include "napi/errors.h"
#include "napi/io_js.h"
#include "napi/progress_worker.h"

namespace plumb {
namespace {

constexpr uint64_t kMaxSafeInteger = (uint64_t{1} << 53) - 1;

struct Progress {
  uint64_t bytesDone;
  uint64_t nanos;
};

double Seconds(uint64_t nanos) { return static_cast<double>(nanos) / 1e9; }

class TimedIoWorker : public ProgressWorker<Progress> {
 public:
  TimedIoWorker(Napi::Env env, bool write, TimedIoRequest request, Napi::Function onProgress)
      : ProgressWorker<Progress>(env, onProgress, request.cancel),
        write_(write),
        request_(std::move(request)) {
    request_.cancel = cancel_;
  }

  void Execute(const ExecutionProgress& progress) override {
    request_.onProgress = [&progress](uint64_t bytesDone, uint64_t nanos) {
      Progress event{bytesDone, nanos};
      progress.Send(&event, 1);
    };
    ok_ = write_ ? RunTimedWrite(request_, &outcome_, &err_)
                 : RunTimedRead(request_, &outcome_, &err_);
  }

 private:
  Napi::Value EventToJs(Napi::Env env, const Progress& event) override {
    Napi::Object o = Napi::Object::New(env);
    o.Set("bytesDone", Napi::Number::New(env, static_cast<double>(event.bytesDone)));
    o.Set("seconds", Napi::Number::New(env, Seconds(event.nanos)));
    return o;
  }

  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!ok_) {
      deferred.Reject(ToJsError(env, err_).Value());
      return;
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("path", PathToJs(env, request_.path));
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
    const size_t n = outcome_.samples.size();
    Napi::Float64Array sampleSeconds = Napi::Float64Array::New(env, n);
    Napi::Float64Array sampleBytes = Napi::Float64Array::New(env, n);
    for (size_t i = 0; i < n; ++i) {
      sampleSeconds[i] = Seconds(outcome_.samples[i].nanos);
      sampleBytes[i] = static_cast<double>(outcome_.samples[i].bytes);
    }
    Napi::Object samples = Napi::Object::New(env);
    samples.Set("seconds", sampleSeconds);
    samples.Set("bytes", sampleBytes);
    result.Set("samples", samples);
    deferred.Resolve(result);
  }

  bool write_;
  TimedIoRequest request_;
  TimedIoOutcome outcome_;
  SysError err_;
  bool ok_ = false;
};

Napi::Value StartTimedIo(const Napi::CallbackInfo& info, bool write) {
  Napi::Env env = info.Env();
  TimedIoRequest request;
  request.path = RequirePath(info, 0, "path");
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
  // 0 turns sampling off (used only to measure its cost); at most a sample a millisecond.
  const double sampleSeconds =
      OptionalNumber(options, "sampleSeconds", 0, 3600, Seconds(kDefaultSampleNanos));
  if (sampleSeconds != 0 && sampleSeconds < 0.001) {
    throw Napi::TypeError::New(env,
                               "The \"sampleSeconds\" option must be 0 (off) or at least 0.001");
  }
  request.sampleNanos = static_cast<uint64_t>(std::llround(sampleSeconds * 1e9));
  request.sampleBytes =
      OptionalInteger(options, "sampleBytes", 4096, kMaxSafeInteger, kDefaultSampleBytes);
  if (write) request.stamp = OptionalStamp(options, "stamp");
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

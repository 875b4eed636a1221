// queueDepthRun(path, options): a Promise of throughput, IOPS and latency percentiles; one
// onSample call per interval sample, all delivered before the Promise settles.
#include "napi/errors.h"
#include "napi/io_js.h"
#include "napi/progress_worker.h"

namespace plumb {
namespace {

constexpr uint64_t kMaxSafeInteger = (uint64_t{1} << 53) - 1;
constexpr uint64_t kMaxBufferBytes = uint64_t{2} << 30;  // all in-flight buffers together

double Seconds(uint64_t nanos) { return static_cast<double>(nanos) / 1e9; }

Napi::Object SampleToJs(Napi::Env env, const QueueSampleData& sample) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("t", sample.t);
  o.Set("bytesPerSecond", sample.bytesPerSecond);
  o.Set("iops", sample.iops);
  return o;
}

class QueueDepthWorker : public ProgressWorker<QueueSampleData> {
 public:
  QueueDepthWorker(Napi::Env env, QueueRequest request, std::string op, Napi::Function onSample)
      : ProgressWorker<QueueSampleData>(env, onSample, request.cancel),
        request_(std::move(request)),
        op_(std::move(op)) {
    request_.cancel = cancel_;
  }

  void Execute(const ExecutionProgress& progress) override {
    request_.onSample = [&progress](const QueueSampleData& sample) { progress.Send(&sample, 1); };
    ok_ = RunQueueDepth(request_, &outcome_, &err_);
  }

 private:
  Napi::Value EventToJs(Napi::Env env, const QueueSampleData& sample) override {
    return SampleToJs(env, sample);
  }

  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!ok_) return deferred.Reject(ToJsError(env, err_).Value());
    Napi::Object r = Napi::Object::New(env);
    const double seconds = Seconds(outcome_.nanos);
    r.Set("op", op_);
    r.Set("blockSize", Napi::Number::New(env, request_.blockSize));
    r.Set("queueDepth", Napi::Number::New(env, request_.queueDepth));
    r.Set("threads", Napi::Number::New(env, request_.threads));
    r.Set("bytes", Napi::Number::New(env, static_cast<double>(outcome_.bytes)));
    r.Set("seconds", seconds);
    r.Set("bytesPerSecond", seconds > 0 ? static_cast<double>(outcome_.bytes) / seconds : 0.0);
    r.Set("iops", seconds > 0 ? static_cast<double>(outcome_.ops) / seconds : 0.0);
    const LatencyHistogram& h = outcome_.latency;
    Napi::Object latency = Napi::Object::New(env);
    latency.Set("mean", h.MeanNanos() / 1e9);
    latency.Set("p50", Seconds(h.Percentile(0.50)));
    latency.Set("p90", Seconds(h.Percentile(0.90)));
    latency.Set("p99", Seconds(h.Percentile(0.99)));
    latency.Set("p999", Seconds(h.Percentile(0.999)));
    latency.Set("max", Seconds(h.max()));
    r.Set("latency", latency);
    Napi::Array samples = Napi::Array::New(env, outcome_.samples.size());
    for (size_t i = 0; i < outcome_.samples.size(); ++i)
      samples.Set(i, SampleToJs(env, outcome_.samples[i]));
    r.Set("samples", samples);
    r.Set("cacheMode", outcome_.direct ? "direct" : "buffered");
    r.Set("engine", outcome_.engine);
    deferred.Resolve(r);
  }

  QueueRequest request_;
  std::string op_;
  QueueOutcome outcome_;
  SysError err_;
  bool ok_ = false;
};

Napi::Value QueueDepthRun(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  QueueRequest request;
  request.path = RequirePath(info, 0, "path");
  if (info.Length() < 2 || !info[1].IsObject() || info[1].IsArray() || info[1].IsFunction()) {
    throw Napi::TypeError::New(env, "The \"options\" argument must be an object");
  }
  Napi::Object options = info[1].As<Napi::Object>();
  Napi::Value opValue = options.Get("op");
  std::string op = opValue.IsString() ? opValue.As<Napi::String>().Utf8Value() : "";
  if (op != "read" && op != "write" && op != "randread" && op != "randwrite") {
    throw Napi::TypeError::New(
        env, "The \"op\" option must be \"read\", \"write\", \"randread\" or \"randwrite\"");
  }
  request.write = op == "write" || op == "randwrite";
  request.random = op == "randread" || op == "randwrite";
  if (IsAbsent(options.Get("blockSize")))
    throw Napi::TypeError::New(env, "The \"blockSize\" option is required");
  request.blockSize =
      static_cast<uint32_t>(OptionalInteger(options, "blockSize", 512, 64u << 20, 0));
  if (request.blockSize % 512 != 0)
    throw Napi::TypeError::New(env, "The \"blockSize\" option must be a multiple of 512");
  if (IsAbsent(options.Get("queueDepth")))
    throw Napi::TypeError::New(env, "The \"queueDepth\" option is required");
  request.queueDepth = static_cast<uint32_t>(OptionalInteger(options, "queueDepth", 1, 1024, 1));
  request.threads = static_cast<uint32_t>(OptionalInteger(options, "threads", 1, 64, 1));
  if (static_cast<uint64_t>(request.queueDepth) * request.threads * request.blockSize >
      kMaxBufferBytes) {
    throw Napi::TypeError::New(
        env, "queueDepth × threads × blockSize must stay within 2 GiB of buffers");
  }
  if (IsAbsent(options.Get("fileBytes")))
    throw Napi::TypeError::New(env, "The \"fileBytes\" option is required");
  request.fileBytes = OptionalInteger(options, "fileBytes", request.blockSize, kMaxSafeInteger, 0);
  const double duration = OptionalNumber(options, "durationSeconds", 0.001, 1e6, 0);
  request.durationNanos = static_cast<uint64_t>(duration * 1e9);
  request.totalBytes = OptionalInteger(options, "totalBytes", 1, kMaxSafeInteger, 0);
  if (request.durationNanos == 0 && request.totalBytes == 0) {
    throw Napi::TypeError::New(
        env, "Give \"durationSeconds\" or \"totalBytes\" (or both) to say when the run ends");
  }
  request.sampleIntervalNanos =
      static_cast<uint64_t>(OptionalNumber(options, "sampleIntervalMs", 10, 60000, 100) * 1e6);
  request.buffered = OptionalBool(options, "buffered", false);
  request.cancel = OptionalCancel(options, "cancel");
  Napi::Value engine = options.Get("engine");
  if (!IsAbsent(engine)) {
    if (!engine.IsString())
      throw Napi::TypeError::New(env, "The \"engine\" option must be a string");
    request.engine = engine.As<Napi::String>().Utf8Value();
    if (request.engine != "io_uring" && request.engine != "libaio" && request.engine != "threads" &&
        request.engine != "overlapped") {
      throw Napi::TypeError::New(
          env,
          "The \"engine\" option must be \"io_uring\", \"libaio\", \"threads\" or \"overlapped\"");
    }
  }
  Napi::Function onSample = OptionalFunction(options, "onSample");
  auto* worker = new QueueDepthWorker(env, std::move(request), op, onSample);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

void RegisterQueueDepth(Napi::Env env, Napi::Object exports) {
  exports.Set("queueDepthRun", Napi::Function::New(env, QueueDepthRun, "queueDepthRun"));
}

}  // namespace plumb

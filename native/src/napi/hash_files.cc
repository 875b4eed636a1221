// hashFiles(paths, options): LaneHash128 digests of many files, read and hashed on a small pool of
// threads off the JS thread. Full content, or only the first and last `edgeBytes` (the cheap key
// that splits same-size files before a full read). Resolves with one 16-byte digest per path and
// the files that could not be read; rejects ECANCELED when cancelled. Progress about every 100 ms.
//
// Cancel answers within 100 ms even on a slow disk: a read in flight cannot be interrupted (on a
// throttled USB disk four 1 MiB reads took five seconds to drain), so the promise rejects at once
// and the pool's threads, which own the engine jointly, finish their current read and go.
#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "content_hash.h"
#include "napi/errors.h"
#include "napi/io_js.h"
#include "napi/progress_worker.h"
#include "scan/pools.h"

namespace plumb {
namespace {

class HashFilesWorker : public ProgressWorker<HashProgress> {
 public:
  HashFilesWorker(Napi::Env env, HashRequest request, Napi::Function onProgress)
      : ProgressWorker<HashProgress>(env, onProgress, request.cancel),
        request_(std::move(request)),
        count_(request_.paths->size()) {
    request_.cancel = cancel_;
  }

  void Execute(const ExecutionProgress& progress) override {
    auto engine = std::make_shared<HashEngine>(std::move(request_));
    const std::function<void(const HashProgress&)> report = [&progress](const HashProgress& p) {
      progress.Send(&p, 1);
    };
    if (!engine->Hash(report)) {
      err_ = MakeError("ECANCELED", "hashFiles", "", "the operation was cancelled");
      return;
    }
    outcome_ = std::move(engine->outcome());
    report({count_, outcome_.bytesRead});
  }

 private:
  Napi::Value EventToJs(Napi::Env env, const HashProgress& event) override {
    Napi::Object o = Napi::Object::New(env);
    o.Set("files", Napi::Number::New(env, static_cast<double>(event.files)));
    o.Set("bytes", Napi::Number::New(env, static_cast<double>(event.bytes)));
    return o;
  }

  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!err_.ok()) {
      deferred.Reject(ToJsError(env, err_).Value());
      return;
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("digests",
               Napi::Buffer<uint8_t>::Copy(env, outcome_.digests.data(), outcome_.digests.size()));
    result.Set("bytesRead", Napi::Number::New(env, static_cast<double>(outcome_.bytesRead)));
    Napi::Array failures = Napi::Array::New(env, outcome_.failures.size());
    for (size_t i = 0; i < outcome_.failures.size(); ++i) {
      Napi::Object failure = Napi::Object::New(env);
      failure.Set("index", Napi::Number::New(env, outcome_.failures[i].index));
      failure.Set("error", ToJsError(env, outcome_.failures[i].err).Value());
      failures.Set(static_cast<uint32_t>(i), failure);
    }
    result.Set("failures", failures);
    deferred.Resolve(result);
  }

  HashRequest request_;  // moved to the engine when the work starts
  size_t count_;
  HashOutcome outcome_;
  SysError err_;
};

Napi::Value HashFiles(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  HashRequest request;
  request.paths = std::make_shared<PathList>(RequirePathArray(info, 0, "paths"));
  Napi::Object options = OptionalObject(info, 1, "options");
  request.edgeBytes = OptionalInteger(options, "edgeBytes", 0, uint64_t{1} << 40, 0);
  request.threads = static_cast<uint32_t>(OptionalInteger(options, "threads", 1, 64, 4));
  request.cancel = OptionalCancel(options, "cancel");
  Napi::Function onProgress = OptionalFunction(options, "onProgress");
  auto* worker = new HashFilesWorker(env, std::move(request), onProgress);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

// hashBytes(data): the digest of a buffer, so tests can check the hash against its definition.
Napi::Value HashBytes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsTypedArray() ||
      info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    throw Napi::TypeError::New(env, "The \"data\" argument must be a Buffer or Uint8Array");
  }
  Napi::Uint8Array data = info[0].As<Napi::Uint8Array>();
  LaneHash128 hash;
  hash.Update(data.Data(), data.ByteLength());
  uint8_t digest[LaneHash128::kDigestBytes];
  hash.Finish(digest);
  return Napi::Buffer<uint8_t>::Copy(env, digest, sizeof digest);
}

}  // namespace

void RegisterContentHash(Napi::Env env, Napi::Object exports) {
  exports.Set("hashFiles", Napi::Function::New(env, HashFiles, "hashFiles"));
  exports.Set("hashBytes", Napi::Function::New(env, HashBytes, "hashBytes"));
}

}  // namespace plumb
